//! `roundtable replay FILE` outside a terminal: it checks the transcript
//! like `audit` (exit 2 unreadable, 1 invalid, one line on stderr) and
//! prints the game input by input. The terminal itself is driven in
//! `replay_tmux.rs`; the screens are snapshot-tested in the tui crate.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use roundtable_table::transcript::{self, Frame, encode_file};

fn roundtable(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_roundtable"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("the binary runs: {e}"))
}

fn path_str(path: &Path) -> &str {
    path.to_str().unwrap_or_else(|| panic!("a UTF-8 path"))
}

fn selfplay(dir: &Path, seed: u64, seats: u8) -> PathBuf {
    let path = dir.join(format!("game-{seed}.rts"));
    let out = roundtable(&[
        "selfplay",
        "--seats",
        &seats.to_string(),
        "--seed",
        &seed.to_string(),
        "--transcript",
        path_str(&path),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    path
}

fn stderr_lines(out: &Output) -> usize {
    String::from_utf8_lossy(&out.stderr).lines().count()
}

#[test]
fn garbage_and_missing_files_are_unreadable_in_one_line() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let garbage = dir.path().join("garbage.rts");
    std::fs::write(&garbage, b"not a transcript").unwrap_or_else(|e| panic!("{e}"));
    for path in [garbage, dir.path().join("missing.rts")] {
        let out = roundtable(&["replay", path_str(&path)]);
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        assert_eq!(stderr_lines(&out), 1, "{out:?}");
        assert!(out.stdout.is_empty(), "{out:?}");
    }
}

#[test]
fn a_forged_envelope_is_invalid() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = selfplay(dir.path(), 5, 2);
    let mut frames = transcript::read(&path)
        .unwrap_or_else(|e| panic!("{e}"))
        .frames;
    // Change what a seat said without its key: the signature no longer holds.
    let i = frames
        .iter()
        .rposition(|f| matches!(f, Frame::Envelope(_)))
        .unwrap_or_else(|| panic!("no envelope"));
    if let Frame::Envelope(s) = &mut frames[i] {
        s.envelope.position += 1;
    }
    std::fs::write(&path, encode_file(&frames)).unwrap_or_else(|e| panic!("{e}"));
    let out = roundtable(&["replay", path_str(&path)]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(stderr_lines(&out), 1, "{out:?}");
}

#[test]
fn a_selfplayed_game_prints_input_by_input_to_its_result() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = selfplay(dir.path(), 1, 2);
    let audit = roundtable(&["audit", "--json", path_str(&path)]);
    let report: serde_json::Value =
        serde_json::from_slice(&audit.stdout).unwrap_or(serde_json::Value::Null);
    let inputs = report["inputs"].as_u64().unwrap_or(0);
    assert!(inputs > 0, "{report}");

    let out = roundtable(&["replay", path_str(&path)]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let first = text.lines().next().unwrap_or("");
    assert!(
        first.contains(&format!("{inputs} inputs")),
        "the replay has the audit's inputs: {first}"
    );
    // One numbered line per input, the last numbered as the count.
    let numbered = text
        .lines()
        .filter(|l| l.len() > 6 && l[..5].trim().parse::<u64>().is_ok())
        .count() as u64;
    assert_eq!(numbered, inputs);
    assert!(text.contains("is the start player."), "{text}");
    assert!(text.contains("Game over"), "{text}");
    let winner = report["standings"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["rank"] == 1))
        .and_then(|s| s["name"].as_str())
        .unwrap_or("?")
        .to_owned();
    assert!(
        text.lines()
            .any(|l| l.starts_with("#1 ") && l.contains(&winner)),
        "{winner} first:\n{}",
        text.lines().rev().take(4).collect::<Vec<_>>().join("\n")
    );
}
