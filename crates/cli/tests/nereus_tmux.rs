//! Waters of Nereus as a new user plays it, in a real terminal: tmux runs
//! `roundtable --data-dir DIR`, the set-up's first row picks Waters of
//! Nereus, the rows below it set two seats and instant bots, and the whole
//! game is played by keyboard to the post-game screen, whose transcript
//! `roundtable audit` then accepts. The player sails with the arrow keys:
//! on every move of the ship, Right picks a destination on the grid before
//! Enter; every other decision (the secret crew choice included) is the
//! first move listed.
//!
//! Ignored by default, since it needs tmux: `.ci/run` installs tmux and runs
//! it with `--ignored`.

use std::process::Command;
use std::time::{Duration, Instant};

mod common;
use common::tmux::Tmux;

const WAIT: Duration = Duration::from_secs(20);
const BIN: &str = env!("CARGO_BIN_EXE_roundtable");

fn expect(tmux: &Tmux, what: &str, ok: impl Fn(&str) -> bool) -> String {
    let (found, screen) = tmux.wait_for(WAIT, ok);
    assert!(found, "no {what}:\n{screen}");
    screen
}

#[test]
#[ignore = "needs tmux; .ci/run installs it and runs this with --ignored"]
fn nereus_picked_in_the_menu_and_played_by_keyboard_to_the_results() {
    common::tmux::require_tmux();
    let tmux = Tmux::new("nereus");
    let data = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let status = data.path().join("status");
    let env = ["USER=ann".to_owned(), "NO_COLOR=1".to_owned()];
    let args = ["--data-dir".to_owned(), data.path().display().to_string()];
    tmux.start((80, 24), &env, BIN, &args, &status);
    expect(&tmux, "start menu", |s| {
        s.contains("Local game against bots")
    });

    tmux.keys(&["Enter"]);
    expect(&tmux, "set-up", |s| s.contains("< Port Royal >"));
    tmux.keys(&["Right", "Right"]);
    expect(&tmux, "Nereus's rows", |s| {
        s.contains("< Waters of Nereus >")
    });
    // Two seats (4 -> 3 -> 2), the pace (normal -> instant), the bot's
    // level and the think time to the start row.
    tmux.keys(&["j", "Left", "Left", "j", "h", "h", "j", "j", "j"]);
    let screen = expect(&tmux, "the set-up keys taken", |s| {
        s.contains("< 2 >") && s.contains("< instant >")
    });
    assert!(screen.contains("> Start the game"), "{screen}");
    tmux.keys(&["Enter"]);
    expect(&tmux, "the Nereus table", |s| {
        s.contains("┌ Waters of Nereus")
    });

    // Play: Enter plays the first move listed, whenever there is one.
    let start = Instant::now();
    let mut moves = 0;
    let mut sails = 0;
    loop {
        let screen = expect(&tmux, "a move or the result", |s| {
            s.contains("│>  1 ") || s.contains("Game over")
        });
        if screen.contains("Game over") {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(180),
            "the game takes too long:\n{screen}"
        );
        if screen.contains("Sail to ") && screen.contains("│>  1 Keep the ship still") {
            // Sail: Right picks a destination on the grid, marked `*`.
            tmux.keys(&["Right"]);
            let (sailing, chosen) = tmux.wait_for(Duration::from_secs(2), |s| {
                s.contains("│>") && !s.contains("│>  1 Keep the ship still")
            });
            if sailing {
                assert!(chosen.contains('*'), "the destination is marked:\n{chosen}");
                sails += 1;
            }
        }
        tmux.keys(&["Enter"]);
        moves += 1;
        // Wait for the screen to take the move before reading it again.
        let _ = tmux.wait_for(Duration::from_secs(2), |s| s != screen);
    }
    println!("played {moves} moves through the keyboard, {sails} by the arrows");
    assert!(moves > 0, "the game ended before the player moved");
    assert!(sails > 0, "the player never sailed by the arrows");

    let screen = expect(&tmux, "the post-game screen", |s| {
        s.contains("Victory points over the turns")
    });
    for expected in [
        "Game over",
        "Ranking (VP, then completed holds",
        "#1",
        "#2",
        " ann ",
        "Transcript saved to",
        "Enter start menu",
    ] {
        assert!(
            screen.contains(expected),
            "post-game screen lacks {expected:?}:\n{screen}"
        );
    }

    // Enter goes back to the menu, q there quits.
    tmux.keys(&["Enter"]);
    expect(&tmux, "the menu again", |s| {
        s.contains("Local game against bots") && s.contains("Quit")
    });
    tmux.keys(&["q"]);
    let code = tmux.exit_status(&status, WAIT);
    assert_eq!(code.as_deref(), Some("0"), "{}", tmux.screen());
    drop(tmux);

    // The game's transcript is a Nereus game that audits.
    let games = data.path().join("games");
    let saved: Vec<_> = std::fs::read_dir(&games)
        .unwrap_or_else(|e| panic!("{}: {e}", games.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "rts"))
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    let audit = Command::new(BIN)
        .arg("audit")
        .arg(&saved[0])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let said = String::from_utf8_lossy(&audit.stdout);
    assert!(
        audit.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&audit.stderr)
    );
    // Nereus's ranking: completed holds, then treasures in the others.
    assert!(
        said.contains("VALID") && said.contains("in incomplete holds"),
        "{said}"
    );
}
