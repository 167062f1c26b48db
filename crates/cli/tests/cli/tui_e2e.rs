//! The real `roundtable` binary in a real terminal: tmux runs it with no
//! arguments, keys go in with `send-keys`, and the screen comes back with
//! `capture-pane`. A whole 2-seat game is played through the keyboard, from
//! the start menu to the post-game screen, and the test checks what that
//! screen shows and that quitting restores the terminal.
//!
//! Ignored by default, since it needs tmux: `.ci/run` installs tmux and runs
//! it with `--ignored`, and then a missing tmux fails it. The game is short: 2 seats, 3 victory points and instant
//! bots, all chosen in the start menu.

use std::time::{Duration, Instant};

use crate::common;
use common::tmux::Tmux;

/// The digit in front of "Stop and trade" in the list of moves, if listed.
fn stop_digit(screen: &str) -> Option<char> {
    screen.lines().find_map(|line| {
        let at = line.find(" Stop and trade")?;
        line[..at].chars().last().filter(char::is_ascii_digit)
    })
}

#[test]
#[ignore = "needs tmux; .ci/run installs it and runs this with --ignored"]
fn a_whole_game_through_the_keyboard_in_tmux() {
    common::tmux::require_tmux();
    let tmux = Tmux::new("e2e");
    let bin = env!("CARGO_BIN_EXE_roundtable");
    // The game saves its transcript in the data folder; keep it in a
    // temporary one and audit it afterwards.
    let data = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let env = [
        "NO_COLOR=1".to_owned(),
        format!("XDG_DATA_HOME={}", data.path().display()),
        // The seat is named after the login, as the start menu's name.
        "USER=ann".to_owned(),
    ];
    // The exit status goes to a file of the test's own (not through tmux,
    // which now and then never reaps the pane's process: the flake where
    // q "did not quit" with the pane dead and the screen blank).
    let status_file = data.path().join("status");
    tmux.start((80, 24), &env, bin, &[], &status_file);

    let long = Duration::from_secs(20);
    let (ok, screen) = tmux.wait_for(long, |s| s.contains("Local game against bots"));
    assert!(ok, "no start menu:\n{screen}");
    // The network entries are there, ready (no "needs the network" note).
    assert!(screen.contains("Host a table"), "{screen}");
    assert!(!screen.contains("needs the network"), "{screen}");

    // Set up: 2 seats, 3 victory points, instant bots; then start.
    tmux.keys(&["Enter"]);
    let (ok, screen) = tmux.wait_for(long, |s| s.contains("Start the game"));
    assert!(ok, "no set-up screen:\n{screen}");
    tmux.keys(&["j", "Left", "Left", "j"]); // past the game: Port Royal
    for _ in 0..9 {
        tmux.keys(&["h"]);
    }
    // Down past the expansion to the pace (instant), then past the bot's
    // level and the think time to the start row: Enter on a setting
    // changes it, only on the last row it starts.
    tmux.keys(&["j", "j", "j", "j", "h", "h", "j", "j", "j"]);
    let (ok, screen) = tmux.wait_for(long, |s| {
        s.contains("< 2 >") && s.contains("< 3 >") && s.contains("< instant >")
    });
    assert!(ok, "the set-up did not take the keys:\n{screen}");
    tmux.keys(&["Enter"]);
    let (ok, screen) = tmux.wait_for(long, |s| s.contains("Harbor:"));
    assert!(ok, "no table:\n{screen}");

    // Play: stop as soon as the harbor holds a card, else the first move.
    let start = Instant::now();
    let mut moves = 0;
    let final_screen = loop {
        let (ok, screen) = tmux.wait_for(long, |s| {
            s.contains("Your move") || s.contains("Game over") || s.contains("Ranking")
        });
        assert!(ok, "neither a move nor the result:\n{screen}");
        if screen.contains("Ranking") {
            break screen;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the game takes too long:\n{screen}"
        );
        let key = match stop_digit(&screen) {
            Some(d) if !screen.contains("Harbor: 0 cards") => d.to_string(),
            _ => "Enter".to_owned(),
        };
        tmux.keys(&[&key]);
        moves += 1;
        // Wait for the screen to take the move before reading it again.
        let _ = tmux.wait_for(Duration::from_secs(2), |s| s != screen);
    };
    println!("played {moves} moves through the keyboard");

    let (_, screen) = tmux.wait_for(long, |s| s.contains("Victory points over the turns"));
    for expected in [
        "Game over",
        "Ranking (VP, then coins)",
        "#1",
        "WINNER",
        "Victory points over the turns",
        "Transcript saved to",
        "Enter start menu",
    ] {
        assert!(
            screen.contains(expected),
            "post-game screen lacks {expected:?}:\n{final_screen}\n{screen}"
        );
    }
    assert!(screen.contains(" ann "), "{screen}");
    // Second place, unless the two tie on VP and coins and share the first.
    assert!(
        screen.contains("#2") || screen.contains("share the win"),
        "{screen}"
    );

    // q after the game quits at once and leaves the alternate screen.
    tmux.keys(&["q"]);
    let status = tmux.exit_status(&status_file, long).unwrap_or_else(|| {
        panic!(
            "q did not quit (pane dead: {:?}):\n{}",
            tmux.pane("#{pane_dead}"),
            tmux.screen()
        )
    });
    assert_eq!(status, "0", "exit status");
    // The game the keyboard played is a valid transcript.
    common::tmux::the_saved_game_audits(bin, &data.path().join("roundtable/games"), "");
    let after = tmux.screen();
    assert!(
        !after.contains("Ranking"),
        "the terminal still shows the game after quitting:\n{after}"
    );
}
