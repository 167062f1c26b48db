//! Writing a whole file so that a crash leaves the old file or the new one,
//! never a mix, and no other user can read it: keys, chain seeds and
//! finished transcripts are all written this way.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A file that could not be written. The message quotes the I/O error, so
/// it is not also given as the error's source: a printer of the whole chain
/// would say it twice.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {error}")]
pub struct WriteError {
    /// The file or folder the failed step was on.
    pub path: PathBuf,
    /// The error.
    pub error: std::io::Error,
}

fn at(path: &Path) -> impl FnOnce(std::io::Error) -> WriteError + '_ {
    move |error| WriteError {
        path: path.to_owned(),
        error,
    }
}

/// Write `bytes` to `path` durably: a temporary file beside it, fsync,
/// rename over `path`, fsync of the folder. A missing folder is made,
/// private to its owner (0700). The file is private to its owner (mode
/// 0600) from the moment it exists, and a file that cannot be made private
/// is an error, not a warning.
pub fn write_durably(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    if let Some(dir) = path.parent() {
        create_private_dir(dir)?;
    }
    let tmp = path.with_extension("tmp");
    // A temporary file left by a crash, or planted as a link to somewhere
    // else, is never written through: it may carry other permissions or
    // point outside the folder.
    match fs::remove_file(&tmp) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(at(&tmp)(e)),
    }
    {
        let mut f = create_private(&tmp)?;
        f.write_all(bytes).map_err(at(&tmp))?;
        f.sync_all().map_err(at(&tmp))?;
    }
    fs::rename(&tmp, path).map_err(at(path))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && let Ok(d) = fs::File::open(dir)
    {
        // Some file systems cannot sync a directory; the file itself is
        // synced above, so this only narrows the window for the rename.
        let _ = d.sync_all();
    }
    Ok(())
}

/// Create `dir` (and its parents) readable by its owner only, where they do
/// not exist yet.
fn create_private_dir(dir: &Path) -> Result<(), WriteError> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir).map_err(at(dir))
}

/// A new file at `path` (which must not exist), created with mode 0600 so
/// that no other user can ever open it, and checked to really be private:
/// a file system that ignores the mode is refused.
fn create_private(path: &Path) -> Result<fs::File, WriteError> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let file = options.open(path).map_err(at(path))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = file.metadata().map_err(at(path))?.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            drop(file);
            let _ = fs::remove_file(path);
            return Err(at(path)(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                format!(
                    "created with mode {mode:o}, but the file must be private to its owner (600)"
                ),
            )));
        }
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    fn mode(path: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        fs::symlink_metadata(path).unwrap().permissions().mode() & 0o777
    }

    /// The file is private before a byte is in it.
    #[cfg(unix)]
    #[test]
    fn a_fresh_file_is_private_from_the_start() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fresh");
        let file = create_private(&path).unwrap();
        assert_eq!(file.metadata().unwrap().len(), 0);
        assert_eq!(mode(&path), 0o600);
        // It never reuses what is already there.
        drop(file);
        assert!(create_private(&path).is_err());
    }

    /// A temporary file planted as a link is not written through: the bytes
    /// land only in the file named, private, and the link's target never
    /// sees them; a stale one left world-readable is replaced, not reused.
    #[cfg(unix)]
    #[test]
    fn a_planted_or_stale_temporary_file_is_never_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside");
        let path = dir.path().join("data").join("file.rts");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(&outside, path.with_extension("tmp")).unwrap();
        write_durably(&path, b"secret").unwrap();
        assert!(!outside.exists(), "written through the planted link");
        assert!(fs::symlink_metadata(&path).unwrap().file_type().is_file());
        assert_eq!(fs::read(&path).unwrap(), b"secret");
        assert_eq!(mode(&path), 0o600);

        let stale = path.with_extension("tmp");
        fs::write(&stale, "left by a crash").unwrap();
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&stale, fs::Permissions::from_mode(0o644)).unwrap();
        }
        write_durably(&path, b"again").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"again");
        assert_eq!(mode(&path), 0o600);
        assert!(!stale.exists());
    }

    /// A folder it makes for itself is its owner's only.
    #[cfg(unix)]
    #[test]
    fn new_folders_are_private() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a").join("b").join("file");
        write_durably(&path, b"x").unwrap();
        assert_eq!(mode(&dir.path().join("a")), 0o700);
        assert_eq!(mode(&dir.path().join("a").join("b")), 0o700);
    }
}
