//! Waters of Nereus as a new user plays it, in a real terminal: tmux runs
//! `roundtable --data-dir DIR`, the set-up's first row picks Waters of
//! Nereus, the rows below it set two seats, the neutral ship and instant bots, and the whole
//! game is played by keyboard to the post-game screen, whose transcript
//! `roundtable audit` then accepts. The player sails with the arrow keys:
//! on every move of the ship, Right picks a destination on the grid before
//! Enter; every other decision (the secret crew choice included) is the
//! first move listed. Before the first move, the cabin key shows each
//! seat's cabin and the page key turns back to the board; the results show
//! the game-end scoring.
//!
//! Ignored by default, since it needs tmux: `.ci/run` installs tmux and runs
//! it with `--ignored`.

use std::time::{Duration, Instant};

use crate::common;
use common::tmux::the_saved_game_audits;

const BIN: &str = env!("CARGO_BIN_EXE_roundtable");

#[test]
#[ignore = "needs tmux; .ci/run installs it and runs this with --ignored"]
fn nereus_picked_in_the_menu_and_played_by_keyboard_to_the_results() {
    let (tmux, data, status) = common::tmux::at_the_set_up_form("nereus", BIN);
    tmux.keys(&["Right", "Right"]);
    tmux.expect("Nereus's rows", |s| s.contains("< Waters of Nereus >"));
    // Two seats (4 -> 3 -> 2), which brings the neutral ship's row (on),
    // the pace (normal -> instant), the bot's level and the think time to
    // the start row.
    tmux.keys(&["j", "Left", "Left", "j", "l", "j", "h", "h", "j", "j", "j"]);
    let screen = tmux.expect("the set-up keys taken", |s| {
        s.contains("< 2 >") && s.contains("< instant >")
    });
    assert!(screen.contains("Neutral ship        [x] on"), "{screen}");
    assert!(screen.contains("> Start the game"), "{screen}");
    tmux.keys(&["Enter"]);
    // The neutral ship sails on the board, marked N; at 80x24 the board is
    // one page of three, and the hint bar names the keys that turn them.
    let table = tmux.expect("the Nereus table with the neutral ship", |s| {
        s.contains("┌ Board (v: crews") && s.contains("|N")
    });
    assert!(
        table.contains("v pages") && table.contains("c cabins"),
        "{table}"
    );
    // c shows one's own cabin, c again the other seat's, v the board again.
    tmux.keys(&["c"]);
    let own = tmux.expect("one's own cabin", |s| s.contains("┌ Your cabin"));
    assert!(own.contains("storage") && own.contains("captain"), "{own}");
    tmux.keys(&["c"]);
    // Which seat is the other depends on the deal's seat order.
    let other = tmux.expect("the other seat's cabin", |s| s.contains("┌ Cabin of "));
    assert!(other.contains("(hidden)"), "{other}");
    tmux.keys(&["v"]);
    tmux.expect("the board again", |s| s.contains("┌ Board (v: crews"));

    // Play: Enter plays the first move listed, whenever there is one.
    let start = Instant::now();
    let mut moves = 0;
    let mut sails = 0;
    loop {
        let screen = tmux.expect("a move or the result", |s| {
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

    let screen = tmux.expect("the post-game screen", |s| {
        s.contains("Victory points over the turns")
    });
    for expected in [
        "Game over",
        "Game-end scoring",
        "holds ",
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
    tmux.back_to_the_menu_and_quit(&status);
    drop(tmux);

    // The game's transcript is a Nereus game that audits.
    // Nereus's ranking: completed holds, then treasures in the others.
    the_saved_game_audits(BIN, &data.path().join("games"), "in incomplete holds");
}
