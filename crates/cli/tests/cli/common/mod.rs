//! Helpers shared by the CLI's integration tests.

pub(crate) mod tmux;

use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The binary run with `args`, nothing on its standard input.
pub(crate) fn roundtable(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_roundtable"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("the binary runs: {e}"))
}

/// A test's path as an argument.
pub(crate) fn path_str(path: &Path) -> &str {
    path.to_str().unwrap_or_else(|| panic!("a UTF-8 path"))
}

/// A game between bots written to `path` by `selfplay` with `args` (the
/// game, seats, seed, bot), which must succeed.
pub(crate) fn selfplay(path: &Path, args: &[&str]) {
    let mut all = vec!["selfplay", "--transcript", path_str(path)];
    all.extend_from_slice(args);
    let made = roundtable(&all);
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
}
