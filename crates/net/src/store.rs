//! A peer's data directory: its key, and per table the chain secret, the
//! ticket, the peers' addresses and the transcript log.
//!
//! ```text
//! DIR/identity.key                   the ed25519 secret, 64 hex digits (mode 0600)
//! DIR/games/<lobby id>/ticket        the ticket the table was joined or hosted with
//! DIR/games/<lobby id>/chain.seed    the chain seed, saved (and synced) before accepting
//! DIR/games/<lobby id>/peers         "<peer id> <multiaddr>" lines, to redial after a restart
//! DIR/games/<lobby id>/listen        where this peer listened, to listen there again
//! DIR/games/<lobby id>/transcript.rtlog  the log; the canonical transcript once finished
//! DIR/games/<lobby id>/done          written when the game finished
//! DIR/bots/<n>/                      a bot's own data directory (same layout)
//! ```

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

use roundtable_table::Identity;
use roundtable_table::durable::{self, WriteError};

use crate::NetError;
use crate::wire::LobbyId;

/// Fill `buf` from the operating system's random source.
pub fn random_bytes<const N: usize>() -> Result<[u8; N], NetError> {
    let mut buf = [0u8; N];
    getrandom::fill(&mut buf).map_err(|e| NetError::Random(e.to_string()))?;
    Ok(buf)
}

/// The default data directory: [`user_data_dir`], else `./roundtable-data`
/// for a user with no home.
pub fn default_data_dir() -> PathBuf {
    user_data_dir().unwrap_or_else(|| PathBuf::from("roundtable-data"))
}

/// The user's roundtable data folder by the XDG Base Directory rules:
/// `$XDG_DATA_HOME/roundtable`, else `$HOME/.local/share/roundtable`; `None`
/// for a user with neither. Every command and the start menu take their
/// folder from here, so that what one saves another finds.
pub fn user_data_dir() -> Option<PathBuf> {
    data_dir_under(std::env::var_os("XDG_DATA_HOME"), std::env::var_os("HOME"))
}

/// [`user_data_dir`] for these values of `XDG_DATA_HOME` and `HOME`. The
/// XDG rules ignore a relative `XDG_DATA_HOME` (it would name another
/// folder from every working directory), and an empty one is unset.
fn data_dir_under(xdg_data_home: Option<OsString>, home: Option<OsString>) -> Option<PathBuf> {
    let base = xdg_data_home
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            home.filter(|h| !h.is_empty())
                .map(|h| PathBuf::from(h).join(".local/share"))
        })?;
    Some(base.join("roundtable"))
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> NetError + '_ {
    move |source| NetError::Io {
        path: path.to_owned(),
        source,
    }
}

/// Write `bytes` to `path` durably and private to its owner, as
/// [`roundtable_table::durable::write_durably`] does.
pub fn write_durably(path: &Path, bytes: &[u8]) -> Result<(), NetError> {
    Ok(durable::write_durably(path, bytes)?)
}

impl From<WriteError> for NetError {
    fn from(WriteError { path, error }: WriteError) -> NetError {
        NetError::Io {
            path,
            source: error,
        }
    }
}

fn read_hex32(path: &Path) -> Result<Option<[u8; 32]>, NetError> {
    let text = match fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_err(path)(e)),
    };
    let bytes = hex::decode(text.trim()).map_err(|_| NetError::BadSecretFile(path.to_owned()))?;
    let arr: [u8; 32] = bytes
        .try_into()
        .map_err(|_| NetError::BadSecretFile(path.to_owned()))?;
    Ok(Some(arr))
}

/// A peer's data directory.
#[derive(Clone, Debug)]
pub struct DataDir {
    root: PathBuf,
}

impl DataDir {
    /// The directory at `root` (created when first written to).
    pub fn new(root: impl Into<PathBuf>) -> DataDir {
        DataDir { root: root.into() }
    }

    /// Its path.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The data directory of in-process bot number `n` (from 1).
    pub fn bot(&self, n: usize) -> DataDir {
        DataDir::new(self.root.join("bots").join(n.to_string()))
    }

    /// The player's key: read from `identity.key`, or created there on first
    /// use from the operating system's random source.
    pub fn identity(&self) -> Result<Identity, NetError> {
        let path = self.root.join("identity.key");
        if let Some(secret) = read_hex32(&path)? {
            return Ok(Identity::from_secret(secret));
        }
        let secret = random_bytes::<32>()?;
        write_durably(&path, format!("{}\n", hex::encode(secret)).as_bytes())?;
        Ok(Identity::from_secret(secret))
    }

    /// The directory of one table.
    pub fn game_dir(&self, lobby: &LobbyId) -> PathBuf {
        self.root.join("games").join(lobby.to_string())
    }

    /// The table's chain seed: read, or created and synced. It is saved
    /// before the seat's commitment leaves this machine, so that a restart can
    /// always answer with the chain the genesis names.
    pub fn chain_seed(&self, lobby: &LobbyId) -> Result<[u8; 32], NetError> {
        let path = self.game_dir(lobby).join("chain.seed");
        if let Some(seed) = read_hex32(&path)? {
            return Ok(seed);
        }
        let seed = random_bytes::<32>()?;
        write_durably(&path, format!("{}\n", hex::encode(seed)).as_bytes())?;
        Ok(seed)
    }

    /// The transcript log's path.
    pub fn transcript_path(&self, lobby: &LobbyId) -> PathBuf {
        self.game_dir(lobby).join("transcript.rtlog")
    }

    /// Remember the ticket of a table.
    pub fn save_ticket(&self, lobby: &LobbyId, ticket: &str) -> Result<(), NetError> {
        write_durably(
            &self.game_dir(lobby).join("ticket"),
            format!("{ticket}\n").as_bytes(),
        )
    }

    /// The ticket of a table, if saved.
    pub fn ticket(&self, lobby: &LobbyId) -> Option<String> {
        fs::read_to_string(self.game_dir(lobby).join("ticket"))
            .ok()
            .map(|t| t.trim().to_owned())
    }

    /// Remember where the other seats' peers were last seen.
    pub fn save_peers(&self, lobby: &LobbyId, lines: &[String]) -> Result<(), NetError> {
        write_durably(
            &self.game_dir(lobby).join("peers"),
            lines.join("\n").as_bytes(),
        )
    }

    /// The saved peer lines (`<peer id> <multiaddr>`).
    pub fn peers(&self, lobby: &LobbyId) -> Vec<String> {
        fs::read_to_string(self.game_dir(lobby).join("peers"))
            .map(|t| t.lines().take(256).map(str::to_owned).collect())
            .unwrap_or_default()
    }

    /// Remember where this peer listened for a table (to listen there again
    /// after a restart).
    pub fn save_listen_addrs(
        &self,
        lobby: &LobbyId,
        addrs: &[libp2p::Multiaddr],
    ) -> Result<(), NetError> {
        let lines: Vec<String> = addrs.iter().map(ToString::to_string).collect();
        write_durably(
            &self.game_dir(lobby).join("listen"),
            lines.join("\n").as_bytes(),
        )
    }

    /// Where this peer listened for a table.
    pub fn listen_addrs(&self, lobby: &LobbyId) -> Vec<libp2p::Multiaddr> {
        fs::read_to_string(self.game_dir(lobby).join("listen"))
            .map(|t| t.lines().take(16).filter_map(|l| l.parse().ok()).collect())
            .unwrap_or_default()
    }

    /// Mark a table's game finished.
    pub fn mark_done(&self, lobby: &LobbyId, summary: &str) -> Result<(), NetError> {
        write_durably(&self.game_dir(lobby).join("done"), summary.as_bytes())
    }

    /// Tables whose game started here (a transcript log exists) and did not
    /// finish.
    pub fn unfinished(&self) -> Vec<LobbyId> {
        let Ok(entries) = fs::read_dir(self.root.join("games")) else {
            return Vec::new();
        };
        let mut out: Vec<LobbyId> = entries
            .filter_map(Result::ok)
            .filter(|e| {
                e.path().join("transcript.rtlog").exists() && !e.path().join("done").exists()
            })
            .filter_map(|e| {
                let name = e.file_name();
                let bytes = hex::decode(name.to_str()?).ok()?;
                Some(LobbyId(bytes.try_into().ok()?))
            })
            .collect();
        out.sort();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_and_seed_persist() {
        let dir = tempfile::tempdir().unwrap();
        let d = DataDir::new(dir.path());
        let a = d.identity().unwrap();
        let b = d.identity().unwrap();
        assert_eq!(a.public(), b.public());
        let lobby = LobbyId([1; 32]);
        assert_eq!(d.chain_seed(&lobby).unwrap(), d.chain_seed(&lobby).unwrap());
        fs::write(dir.path().join("identity.key"), "nonsense").unwrap();
        assert!(matches!(d.identity(), Err(NetError::BadSecretFile(_))));
    }

    #[cfg(unix)]
    fn mode(path: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        fs::symlink_metadata(path).unwrap().permissions().mode() & 0o777
    }

    /// A temporary file left behind (world-readable) or planted as a link is
    /// not written through: the key lands only in `identity.key`, private,
    /// and the link's target never sees it.
    #[cfg(unix)]
    #[test]
    fn secrets_are_never_written_through_a_stale_or_planted_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let d = DataDir::new(dir.path().join("data"));
        let outside = dir.path().join("outside");
        fs::create_dir_all(d.root()).unwrap();
        std::os::unix::fs::symlink(&outside, d.root().join("identity.tmp")).unwrap();
        d.identity().unwrap();
        assert!(
            !outside.exists(),
            "the key was written through the planted link"
        );
        let key = d.root().join("identity.key");
        assert!(fs::symlink_metadata(&key).unwrap().file_type().is_file());
        assert_eq!(mode(&key), 0o600);

        let lobby = LobbyId([2; 32]);
        let seed_tmp = d.game_dir(&lobby).join("chain.tmp");
        fs::create_dir_all(d.game_dir(&lobby)).unwrap();
        fs::write(&seed_tmp, "left by a crash").unwrap();
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&seed_tmp, fs::Permissions::from_mode(0o644)).unwrap();
        }
        d.chain_seed(&lobby).unwrap();
        assert_eq!(mode(&d.game_dir(&lobby).join("chain.seed")), 0o600);
    }

    /// A directory the data directory makes for itself is its owner's only.
    #[cfg(unix)]
    #[test]
    fn new_folders_are_private() {
        let dir = tempfile::tempdir().unwrap();
        let d = DataDir::new(dir.path().join("data"));
        d.chain_seed(&LobbyId([3; 32])).unwrap();
        assert_eq!(mode(d.root()), 0o700);
        assert_eq!(mode(&d.root().join("games")), 0o700);
    }

    /// The XDG rules: a relative `XDG_DATA_HOME` names a different folder
    /// from every working directory, so it is ignored for the home's; the
    /// start menu once obeyed this rule and `resume` did not, and looked in
    /// different folders.
    #[test]
    fn the_data_folder_follows_the_xdg_rules() {
        let under = |xdg: Option<&str>, home: Option<&str>| {
            data_dir_under(xdg.map(OsString::from), home.map(OsString::from))
        };
        let home = Some(PathBuf::from("/home/ann/.local/share/roundtable"));
        assert_eq!(
            under(Some("/data"), Some("/home/ann")),
            Some(PathBuf::from("/data/roundtable"))
        );
        assert_eq!(under(Some("data"), Some("/home/ann")), home);
        assert_eq!(under(Some(""), Some("/home/ann")), home);
        assert_eq!(under(None, Some("/home/ann")), home);
        assert_eq!(under(Some("data"), None), None);
        assert_eq!(under(None, Some("")), None);
    }
}
