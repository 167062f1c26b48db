//! Guildhall as a new user plays it, in a real terminal: tmux runs
//! `roundtable --data-dir DIR`, the set-up's first row picks Guildhall, the
//! rows below it set two seats, a round limit of five (the game's own
//! `max_rounds` option) and instant bots, and the whole game is played by
//! keyboard to the post-game screen, whose transcript `roundtable audit`
//! then accepts. Moves are chosen step by step: Enter takes the first choice
//! of each step (a card, then its first level, then each target), and once
//! the player goes into a card's levels and back out with Esc. On each of
//! the player's turns the terminal (80x24) shows its guildhall and the
//! whole centre row.
//!
//! Ignored by default, since it needs tmux: `.ci/run` installs tmux and runs
//! it with `--ignored`.

use std::time::{Duration, Instant};

use crate::common;
use common::tmux::the_saved_game_audits;

const BIN: &str = env!("CARGO_BIN_EXE_roundtable");

#[test]
#[ignore = "needs tmux; .ci/run installs it and runs this with --ignored"]
fn guildhall_picked_in_the_menu_and_played_by_keyboard_to_the_results() {
    let (tmux, data, status) = common::tmux::at_the_set_up_form("guildhall", BIN);
    tmux.keys(&["Right"]);
    tmux.expect("Guildhall's rows", |s| {
        s.contains("< Guildhall >") && s.contains("Rounds at most")
    });
    // Two seats; down past Yucata's three toggles to the round limit
    // (100 -> 20 -> 10 -> 5), the pace (normal -> instant), the bot's
    // level and the think time to the start row.
    tmux.keys(&["j", "Left", "Left", "j", "j", "j", "j", "h", "h", "h"]);
    tmux.keys(&["j", "h", "h", "j", "j", "j"]);
    let screen = tmux.expect("the set-up keys taken", |s| {
        s.contains("< 2 >") && s.contains("< 5 >") && s.contains("< instant >")
    });
    assert!(screen.contains("> Start the game"), "{screen}");
    tmux.keys(&["Enter"]);
    tmux.expect("the Guildhall table", |s| s.contains("┌ Guildhall"));

    // Play: Enter takes the first choice of each step, whenever there is one.
    let start = Instant::now();
    let mut moves = 0;
    let mut level_steps = 0;
    let mut went_back = false;
    let mut turns_seen = 0;
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
        if screen.contains("use which level?") {
            level_steps += 1;
        }
        // On your turn at 80x24 your guildhall and the whole centre row
        // stay on screen: the board gives its rows to them before the log.
        if screen.contains("Your action (") {
            assert!(
                screen.contains(" ann (you)") && screen.contains("Centre row:"),
                "your guildhall or the centre row is off screen:\n{screen}"
            );
            // The legend's example names a VP card too: it is not one of the row.
            let row_cards: usize = screen
                .lines()
                .filter(|l| !l.contains(" = "))
                .map(|l| l.matches(" VP for ").count())
                .sum();
            assert!(
                row_cards >= 5,
                "the centre row shows {row_cards} cards:\n{screen}"
            );
            turns_seen += 1;
        }
        // Once: a card's levels, each saying what it does, and Esc back to
        // the turn's actions with that card still selected.
        if !went_back && screen.contains("Your action (") && screen.contains("│>  1 Play ") {
            tmux.keys(&["Enter"]);
            let levels = tmux.expect("the card's levels", |s| {
                s.contains("use which level?") && s.contains("Esc: back a step")
            });
            assert!(
                levels.contains("no ability: just into the action area"),
                "{levels}"
            );
            tmux.keys(&["Escape"]);
            let back = tmux.expect("the turn's actions again", |s| {
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
    assert!(turns_seen > 0, "no turn of yours was seen");

    let screen = tmux.expect("the post-game screen", |s| {
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
    tmux.back_to_the_menu_and_quit(&status);
    drop(tmux);

    // The game's transcript is a Guildhall game that audits.
    // Guildhall's ranking: its tie-break is the completed chapters.
    the_saved_game_audits(BIN, &data.path().join("games"), "completed chapter");
}
