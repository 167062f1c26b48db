//! Guildhall as a new user plays it, in a real terminal: tmux runs
//! `roundtable --data-dir DIR`, the set-up's first row picks Guildhall, the
//! rows below it set two seats, a round limit of five (the game's own
//! `max_rounds` option) and instant bots, and the whole game is played by
//! keyboard to the post-game screen, whose transcript `roundtable audit`
//! then accepts. Moves are chosen step by step: Enter takes the first choice
//! of each step (a card, then its first level, then each target), and once
//! the player goes into a card's levels and back out with Esc.
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
fn guildhall_picked_in_the_menu_and_played_by_keyboard_to_the_results() {
    common::tmux::require_tmux();
    let tmux = Tmux::new("guildhall");
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
    tmux.keys(&["Right"]);
    expect(&tmux, "Guildhall's rows", |s| {
        s.contains("< Guildhall >") && s.contains("Rounds at most")
    });
    // Two seats; down past Yucata's three toggles to the round limit
    // (100 -> 20 -> 10 -> 5), the pace (normal -> instant), the bot's
    // level and the think time to the start row.
    tmux.keys(&["j", "Left", "Left", "j", "j", "j", "j", "h", "h", "h"]);
    tmux.keys(&["j", "h", "h", "j", "j", "j"]);
    let screen = expect(&tmux, "the set-up keys taken", |s| {
        s.contains("< 2 >") && s.contains("< 5 >") && s.contains("< instant >")
    });
    assert!(screen.contains("> Start the game"), "{screen}");
    tmux.keys(&["Enter"]);
    expect(&tmux, "the Guildhall table", |s| s.contains("┌ Guildhall"));

    // Play: Enter takes the first choice of each step, whenever there is one.
    let start = Instant::now();
    let mut moves = 0;
    let mut level_steps = 0;
    let mut went_back = false;
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
        if screen.contains("use which level?") {
            level_steps += 1;
        }
        // Once: a card's levels, each saying what it does, and Esc back to
        // the turn's actions with that card still selected.
        if !went_back && screen.contains("Your action (") && screen.contains("│>  1 Play ") {
            tmux.keys(&["Enter"]);
            let levels = expect(&tmux, "the card's levels", |s| {
                s.contains("use which level?") && s.contains("Esc: back a step")
            });
            assert!(
                levels.contains("no ability: just into the action area"),
                "{levels}"
            );
            tmux.keys(&["Escape"]);
            let back = expect(&tmux, "the turn's actions again", |s| {
                s.contains("Your action (") && !s.contains("use which level?")
            });
            assert!(back.contains("│>  1 Play "), "{back}");
            went_back = true;
            continue;
        }
        tmux.keys(&["Enter"]);
        moves += 1;
        // Wait for the screen to take the move before reading it again.
        let _ = tmux.wait_for(Duration::from_secs(2), |s| s != screen);
    }
    println!("{moves} keys of Enter, {level_steps} level steps seen");
    assert!(moves > 0, "the game ended before the player moved");
    assert!(went_back, "the player never chose a card to play");
    assert!(level_steps > 0, "no card's levels were chosen step by step");

    let screen = expect(&tmux, "the post-game screen", |s| {
        s.contains("Victory points over the turns")
    });
    for expected in [
        "Game over",
        "Ranking (VP, then completed chapters)",
        "#1",
        " ann ",
        "Transcript saved to",
        "Enter start menu",
    ] {
        assert!(
            screen.contains(expected),
            "post-game screen lacks {expected:?}:\n{screen}"
        );
    }
    // Five short rounds often end level (at 0 VP each): the seats then
    // share first place, else the second ranks second.
    assert!(
        screen.contains("#2") || screen.contains("share the win"),
        "post-game screen ranks no second seat:\n{screen}"
    );

    // Enter goes back to the menu, q there quits.
    tmux.keys(&["Enter"]);
    expect(&tmux, "the menu again", |s| {
        s.contains("Local game against bots") && s.contains("Quit")
    });
    tmux.keys(&["q"]);
    let code = tmux.exit_status(&status, WAIT);
    assert_eq!(code.as_deref(), Some("0"), "{}", tmux.screen());
    drop(tmux);

    // The game's transcript is a Guildhall game that audits.
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
    // Guildhall's ranking: its tie-break is the completed chapters.
    assert!(
        said.contains("VALID") && said.contains("completed chapters"),
        "{said}"
    );
}
