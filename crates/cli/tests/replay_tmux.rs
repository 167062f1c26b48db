//! `roundtable replay FILE` in a real terminal: `selfplay` writes a
//! transcript, tmux runs the replay, keys go in with `send-keys` and the
//! screen comes back with `capture-pane`. Stepping, turn jumps, the end
//! with its result, the start, the log and quitting are checked on screen.
//!
//! Skipped, with a notice, only when tmux is not installed.

use std::process::Command;
use std::time::{Duration, Instant};

/// A tmux server of this test's own (its own socket file, removed after).
struct Tmux {
    socket: std::path::PathBuf,
}

impl Tmux {
    fn run(&self, args: &[&str]) -> Option<String> {
        let out = Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .args(args)
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "replay"];
        args.extend_from_slice(keys);
        assert!(self.run(&args).is_some(), "send-keys {keys:?}");
    }

    fn screen(&self) -> String {
        self.run(&["capture-pane", "-p", "-t", "replay"])
            .unwrap_or_default()
    }

    /// Wait until the screen satisfies `ok`; the last screen either way.
    fn wait_for(&self, ok: impl Fn(&str) -> bool) -> (bool, String) {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if ok(&screen) {
                return (true, screen);
            }
            if start.elapsed() > Duration::from_secs(20) {
                return (false, screen);
            }
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// Press `keys`, then wait for the screen to show `expected`.
    fn expect_after(&self, keys: &[&str], expected: &str) -> String {
        self.keys(keys);
        let (ok, screen) = self.wait_for(|s| s.contains(expected));
        assert!(ok, "after {keys:?}, no {expected:?}:\n{screen}");
        screen
    }

    fn pane(&self, format: &str) -> String {
        self.run(&["display-message", "-p", "-t", "replay", format])
            .unwrap_or_default()
            .trim()
            .to_owned()
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
        let _ = std::fs::remove_file(&self.socket);
    }
}

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
fn stepping_through_a_selfplayed_game_in_tmux() {
    if Command::new("tmux").arg("-V").output().is_err() {
        println!("SKIPPED: tmux is not installed; the replay terminal test did not run");
        return;
    }
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

    let tmux = Tmux {
        socket: std::env::temp_dir().join(format!("roundtable-replay-{}.sock", std::process::id())),
    };
    tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "replay",
        "-x",
        "80",
        "-y",
        "24",
        "-e",
        "NO_COLOR=1",
        bin,
        "replay",
        file_str,
    ])
    .unwrap_or_else(|| panic!("tmux could not start {bin}"));
    tmux.run(&["set-option", "-t", "replay", "remain-on-exit", "on"]);

    let (ok, screen) = tmux.wait_for(|s| s.contains(&format!("Replay: input 0 / {total}")));
    assert!(ok, "no replay screen:\n{screen}");
    assert!(
        screen.contains("The start: no input applied yet."),
        "{screen}"
    );
    for hint in ["←→/hl step", "↑↓/jk turn", "g/G start/end"] {
        assert!(screen.contains(hint), "hint {hint:?} missing:\n{screen}");
    }
    // One input on: the start player is drawn.
    let screen = tmux.expect_after(&["l"], &format!("input 1 / {total}"));
    assert!(screen.contains("is the start player"), "{screen}");
    // Input 1 started turn 1; two turns on is turn 3. Two inputs into it,
    // k goes back to where it starts.
    tmux.expect_after(&["j"], "turn 2");
    let screen = tmux.expect_after(&["j"], "turn 3");
    let start = position(&screen);
    tmux.expect_after(
        &["Right", "Right"],
        &format!("input {} / {total}, turn 3", start + 2),
    );
    tmux.expect_after(&["k"], &format!("input {start} / {total}, turn 3"));
    // The end shows the result; the start shows nothing applied.
    let screen = tmux.expect_after(&["G"], &format!("input {total} / {total}"));
    assert!(screen.contains("Game over:"), "{screen}");
    assert!(screen.contains("#1 "), "{screen}");
    tmux.expect_after(&["Left"], &format!("input {} / {total}", total - 1));
    tmux.expect_after(&["g"], &format!("input 0 / {total}"));
    // The whole log up to here, and back.
    tmux.expect_after(&["j", "L"], "Move log");
    tmux.expect_after(&["Escape"], "Replay: input");

    // q quits at once: a replay has nothing to lose.
    tmux.keys(&["q"]);
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        let status = tmux.pane("#{pane_dead_status}");
        if tmux.pane("#{pane_dead}") == "1" && !status.is_empty() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "q did not quit:\n{}",
            tmux.screen()
        );
        std::thread::sleep(Duration::from_millis(30));
    };
    assert_eq!(status, "0", "exit status");
    let after = tmux.screen();
    assert!(
        !after.contains("Replay: input"),
        "the terminal still shows the replay after quitting:\n{after}"
    );
}
