//! The saved games a replay can open: local games' `local-*.rts` files and
//! network games' `<lobby id>/transcript.rtlog`, both in the data folder's
//! `games` folder, newest first.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use roundtable_table::transcript::{self, Frame};

/// How many saved games the replay prompt offers at most.
pub const MAX_LISTED: usize = 200;

/// The start of a transcript read for its game and players: the
/// proposal, which names them, is its first frame and far smaller than
/// this.
const HEAD_BYTES: u64 = 16 * 1024;

/// A saved game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedGame {
    /// Its transcript.
    pub path: PathBuf,
    /// When the transcript was last written, if the system says.
    pub modified: Option<SystemTime>,
    /// The game, as its transcript names it (`None` when the file does
    /// not say).
    pub game: Option<String>,
    /// The players, in seat order (empty when the file does not say).
    pub players: Vec<String>,
    /// Whether it was played at a networked table.
    pub network: bool,
}

/// The saved games in `games` (a data folder's `games` folder), newest
/// first, at most [`MAX_LISTED`]. A folder that cannot be read lists
/// nothing: the prompt still takes a typed path.
pub fn list(games: &Path) -> Vec<SavedGame> {
    let Ok(entries) = std::fs::read_dir(games) else {
        return Vec::new();
    };
    let mut found: Vec<(PathBuf, bool)> = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if path.is_dir() {
            let log = path.join("transcript.rtlog");
            if log.is_file() {
                found.push((log, true));
            }
        } else if name.starts_with("local-") && name.ends_with(".rts") {
            found.push((path, false));
        }
    }
    let mut games: Vec<SavedGame> = found
        .into_iter()
        .map(|(path, network)| SavedGame {
            modified: std::fs::metadata(&path).and_then(|m| m.modified()).ok(),
            game: None,
            players: Vec::new(),
            path,
            network,
        })
        .collect();
    games.sort_by(|a, b| {
        b.modified
            .cmp(&a.modified)
            .then_with(|| a.path.cmp(&b.path))
    });
    games.truncate(MAX_LISTED);
    for saved in &mut games {
        if let Some((game, players)) = head(&saved.path) {
            saved.game = Some(game);
            saved.players = players;
        }
    }
    games
}

/// The game and the players a transcript's proposal names, from the
/// file's first bytes only; `None` when it cannot be read.
fn head(path: &Path) -> Option<(String, Vec<String>)> {
    let mut head = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(HEAD_BYTES).read_to_end(&mut head))
        .ok()?;
    // A cut-off head reads as a torn tail: the whole frames before it stand.
    match transcript::decode_file(path, &head).ok()?.frames.first() {
        Some(Frame::Proposal(p)) => Some((
            p.game.clone(),
            p.seats.iter().map(|s| s.name.clone()).collect(),
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_and_network_transcripts_are_listed_newest_first_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let games = dir.path();
        let write = |rel: &str, bytes: &[u8]| {
            let path = games.join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{e}"));
            }
            std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{e}"));
            path
        };
        let old = write("local-1.rts", b"RTSCRIPT");
        let net = write("7f3a/transcript.rtlog", b"junk");
        let new = write("local-2.rts", b"");
        write("notes.txt", b"");
        write("7f3a/ticket", b"");
        write("empty-lobby/peers", b"");
        let at = |secs| SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(secs);
        for (path, secs) in [(&old, 1_000), (&net, 2_000), (&new, 3_000)] {
            std::fs::File::options()
                .write(true)
                .open(path)
                .and_then(|f| f.set_modified(at(secs)))
                .unwrap_or_else(|e| panic!("{e}"));
        }
        let listed = list(games);
        let paths: Vec<&Path> = listed.iter().map(|g| g.path.as_path()).collect();
        assert_eq!(paths, [new.as_path(), net.as_path(), old.as_path()]);
        assert_eq!(
            listed.iter().map(|g| g.network).collect::<Vec<_>>(),
            [false, true, false]
        );
        // Files that are not transcripts list with no players, unread.
        assert!(listed.iter().all(|g| g.players.is_empty()));
        assert!(list(&games.join("missing")).is_empty());
    }
}
