//! What the start menu remembers between runs: the name played under, in a
//! small TOML file in the data folder ([`FILE`]). A file that cannot be read
//! or says something unexpected is never trusted in part: the default name
//! is used, and the error says why in one line.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The preferences file's name in the data folder.
pub const FILE: &str = "prefs.toml";

/// The longest name a table accepts, in bytes (UTF-8): the genesis's rule.
pub use roundtable_table::genesis::MAX_NAME_BYTES;

/// The remembered preferences.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prefs {
    /// The name to play under, at local and network tables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// Why a name cannot be played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Nothing but spaces.
    #[error("A name needs at least one letter.")]
    Empty,
    /// More than a table accepts.
    #[error("A name holds at most {MAX_NAME_BYTES} bytes.")]
    TooLong,
    /// A control character, which would reach other players' terminals.
    #[error("A name holds no control characters.")]
    Control,
}

/// Why the preferences file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum PrefsError {
    /// It cannot be read or written.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// It is not TOML of the expected shape.
    #[error("{path} is not a preferences file: {reason}")]
    Malformed {
        /// The file.
        path: PathBuf,
        /// What the parser said.
        reason: String,
    },
    /// The name in it breaks a name's rules.
    #[error("{path}: the name in it is refused: {error}")]
    BadName {
        /// The file.
        path: PathBuf,
        /// The rule it breaks.
        error: NameError,
    },
}

/// `name` without spaces around it, if a table accepts it.
pub fn check_name(name: &str) -> Result<String, NameError> {
    let name = name.trim();
    if name.is_empty() {
        Err(NameError::Empty)
    } else if name.len() > MAX_NAME_BYTES {
        Err(NameError::TooLong)
    } else if name.chars().any(char::is_control) {
        Err(NameError::Control)
    } else {
        Ok(name.to_owned())
    }
}

/// Read the preferences at `path`; a missing file is no preferences.
pub fn load(path: &Path) -> Result<Prefs, PrefsError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        // No file, or no folder to hold one (the data folder's path runs
        // through a file): nothing was remembered. Whatever else uses the
        // folder says what is wrong with it.
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            return Ok(Prefs::default());
        }
        Err(error) => {
            return Err(PrefsError::Io {
                path: path.to_owned(),
                error,
            });
        }
    };
    let prefs: Prefs = toml::from_str(&text).map_err(|e| PrefsError::Malformed {
        path: path.to_owned(),
        // The parser's message may run over several lines; the error is one.
        reason: e
            .message()
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(", "),
    })?;
    if let Some(name) = &prefs.name {
        check_name(name).map_err(|error| PrefsError::BadName {
            path: path.to_owned(),
            error,
        })?;
    }
    Ok(prefs)
}

/// Write `prefs` to `path` whole: to a temporary file beside it, then
/// renamed over it, so that a crash leaves the old file or the new one.
pub fn save(path: &Path, prefs: &Prefs) -> Result<(), PrefsError> {
    let io = |error| PrefsError::Io {
        path: path.to_owned(),
        error,
    };
    let text = toml::to_string(prefs).map_err(|e| PrefsError::Malformed {
        path: path.to_owned(),
        reason: e.to_string(),
    })?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let partial = path.with_extension("toml.partial");
    std::fs::write(&partial, text).map_err(io)?;
    std::fs::rename(&partial, path).map_err(io)
}

/// The name to play under when none was chosen: the login name when it is
/// one a table accepts, else `player-` and four random hex digits, so that
/// two seats without a login name are still told apart.
pub fn default_name() -> String {
    ["USER", "LOGNAME", "USERNAME"]
        .into_iter()
        .filter_map(std::env::var_os)
        .find_map(|login| check_name(&login.to_string_lossy()).ok())
        .unwrap_or_else(|| format!("player-{:04x}", roundtable_local::fresh_seed() & 0xffff))
}

/// The name remembered in the preferences at `path`, else the default name;
/// when the file cannot be used, also why (the name is then the default).
pub fn name_or_default(path: &Path) -> (String, Option<PrefsError>) {
    match load(path) {
        Ok(Prefs { name: Some(name) }) => (name, None),
        Ok(Prefs { name: None }) => (default_name(), None),
        Err(e) => (default_name(), Some(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_name_is_read_back_and_a_missing_file_is_no_name() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("deeper").join(FILE);
        assert_eq!(load(&path).ok(), Some(Prefs::default()));
        let file = dir.path().join("a-file");
        std::fs::write(&file, b"").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            load(&file.join(FILE)).ok(),
            Some(Prefs::default()),
            "a data folder that is a file remembers nothing"
        );
        let prefs = Prefs {
            name: Some("Anne Bonny".into()),
        };
        save(&path, &prefs).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(load(&path).ok(), Some(prefs));
        assert_eq!(name_or_default(&path).0, "Anne Bonny");
    }

    /// A bad file gives the default name and one line that names the file,
    /// never part of what it says.
    #[test]
    fn a_bad_file_fails_closed_to_the_default_name() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join(FILE);
        let long = format!("name = \"{}\"\n", "x".repeat(40));
        let cases: [&[u8]; 6] = [
            b"name = \"ann\"\nname = \"bob\"\n",
            b"name = \n",
            b"name = 7\n",
            b"\xff\xfe not text",
            b"name = \"ann\x1b[2J\"\n",
            long.as_bytes(),
        ];
        for bytes in cases {
            std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{e}"));
            let (name, why) = name_or_default(&path);
            assert!(!name.contains("ann") && !name.contains("xxx"), "{name}");
            let why = why.unwrap_or_else(|| panic!("{bytes:?} was accepted"));
            let line = why.to_string();
            assert!(line.contains(FILE), "{line}");
            assert!(!line.contains('\n'), "one line: {line:?}");
        }
    }

    #[test]
    fn names_are_trimmed_and_checked() {
        assert_eq!(check_name("  Mary Read "), Ok("Mary Read".into()));
        assert_eq!(check_name("   "), Err(NameError::Empty));
        assert_eq!(check_name(&"é".repeat(17)), Err(NameError::TooLong));
        assert_eq!(check_name("a\tb"), Err(NameError::Control));
    }
}
