//! `roundtable replay FILE` in a real terminal: `selfplay` writes a
//! transcript, tmux runs the replay, keys go in with `send-keys` and the
//! screen comes back with `capture-pane`. Stepping, turn jumps, the end
//! with its result, the start, the log and quitting are checked on screen.
//!
//! Ignored by default, since it needs tmux: `.ci/run` installs tmux and runs
//! it with `--ignored`, and then a missing tmux fails it.

use std::process::Command;
use std::time::Duration;

use crate::common;
use common::tmux::Tmux;

/// Press `keys`, then wait for the screen to show `expected`.
fn expect_after(tmux: &Tmux, keys: &[&str], expected: &str) -> String {
    tmux.keys(keys);
    let (ok, screen) = tmux.wait_for(WAIT, |s| s.contains(expected));
    assert!(ok, "after {keys:?}, no {expected:?}:\n{screen}");
    screen
}

/// How long the screen may take to show what a step expects.
const WAIT: Duration = Duration::from_secs(20);

/// The position the replay panel's title shows ("Replay: input 9 / 354").
fn position(screen: &str) -> usize {
    screen
        .split("Replay: input ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no position on the screen:\n{screen}"))
}

#[test]
#[ignore = "needs tmux; .ci/run installs it and runs this with --ignored"]
fn stepping_through_a_selfplayed_game_in_tmux() {
    common::tmux::require_tmux();
    let bin = env!("CARGO_BIN_EXE_roundtable");
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("game.rts");
    let file_str = file.to_str().unwrap_or_else(|| panic!("a UTF-8 path"));
    let made = Command::new(bin)
        .args([
            "selfplay",
            "--seats",
            "2",
            "--seed",
            "1",
            "--transcript",
            file_str,
        ])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(made.status.success(), "{made:?}");
    // The number of inputs, from the listing a pipe gets.
    let listing = Command::new(bin)
        .args(["replay", file_str])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let first = String::from_utf8_lossy(&listing.stdout)
        .lines()
        .next()
        .unwrap_or("")
        .to_owned();
    let total: usize = first
        .split(": ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no input count in {first:?}"));

    let tmux = Tmux::new("replay");
    let status_file = dir.path().join("status");
    tmux.start(
        (80, 24),
        &["NO_COLOR=1".to_owned()],
        bin,
        &["replay".to_owned(), file_str.to_owned()],
        &status_file,
    );

    let (ok, screen) = tmux.wait_for(WAIT, |s| s.contains(&format!("Replay: input 0 / {total}")));
    assert!(ok, "no replay screen:\n{screen}");
    assert!(
        screen.contains("The start: no input applied yet."),
        "{screen}"
    );
    for hint in ["←→/hl step", "↑↓/jk turn", "g/G start/end"] {
        assert!(screen.contains(hint), "hint {hint:?} missing:\n{screen}");
    }
    // One input on: the start player is drawn.
    let screen = expect_after(&tmux, &["l"], &format!("input 1 / {total}"));
    assert!(screen.contains("is the start player"), "{screen}");
    // Input 1 started turn 1; two turns on is turn 3. Two inputs into it,
    // k goes back to where it starts.
    expect_after(&tmux, &["j"], "turn 2");
    let screen = expect_after(&tmux, &["j"], "turn 3");
    let start = position(&screen);
    expect_after(
        &tmux,
        &["Right", "Right"],
        &format!("input {} / {total}, turn 3", start + 2),
    );
    expect_after(&tmux, &["k"], &format!("input {start} / {total}, turn 3"));
    // The end shows the result; the start shows nothing applied.
    let screen = expect_after(&tmux, &["G"], &format!("input {total} / {total}"));
    assert!(screen.contains("Game over:"), "{screen}");
    assert!(screen.contains("#1 "), "{screen}");
    expect_after(&tmux, &["Left"], &format!("input {} / {total}", total - 1));
    expect_after(&tmux, &["g"], &format!("input 0 / {total}"));
    // The whole log up to here, and back.
    expect_after(&tmux, &["j", "L"], "Move log");
    expect_after(&tmux, &["Escape"], "Replay: input");

    // q quits at once: a replay has nothing to lose.
    tmux.keys(&["q"]);
    let status = tmux
        .exit_status(&status_file, WAIT)
        .unwrap_or_else(|| panic!("q did not quit:\n{}", tmux.screen()));
    assert_eq!(status, "0", "exit status");
    let after = tmux.screen();
    assert!(
        !after.contains("Replay: input"),
        "the terminal still shows the replay after quitting:\n{after}"
    );
}

/// A Guildhall transcript replays on screen too (it was printed as text,
/// the terminal's replay knowing Port Royal only): every seat's hand shows
/// by name, as every key was released after the game, and the end shows
/// the result.
#[test]
#[ignore = "needs tmux; .ci/run installs it and runs this with --ignored"]
fn a_guildhall_transcript_replays_on_screen_with_the_hands() {
    common::tmux::require_tmux();
    let bin = env!("CARGO_BIN_EXE_roundtable");
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("guildhall.rts");
    let file_str = common::path_str(&file);
    common::selfplay(
        &file,
        &["--game", "guildhall", "--seats", "2", "--seed", "3"],
    );

    let tmux = Tmux::new("replay-guildhall");
    let status_file = dir.path().join("status");
    tmux.start(
        (80, 24),
        &["NO_COLOR=1".to_owned()],
        bin,
        &["replay".to_owned(), file_str.to_owned()],
        &status_file,
    );
    let (ok, screen) = tmux.wait_for(WAIT, |s| s.contains("Replay: input 0 / "));
    assert!(ok, "no replay screen:\n{screen}");
    assert!(screen.contains("┌ Guildhall"), "{screen}");
    // A few turns in, both hands are dealt and shown by name.
    let screen = expect_after(&tmux, &["j", "j", "j"], "Round 2");
    assert_eq!(screen.matches("  hand: ").count(), 2, "{screen}");
    assert!(!screen.contains("hand: ?"), "{screen}");
    let screen = expect_after(&tmux, &["G"], "Game over:");
    assert!(screen.contains("#1 "), "{screen}");

    tmux.keys(&["q"]);
    let status = tmux
        .exit_status(&status_file, WAIT)
        .unwrap_or_else(|| panic!("q did not quit:\n{}", tmux.screen()));
    assert_eq!(status, "0", "exit status");
}
