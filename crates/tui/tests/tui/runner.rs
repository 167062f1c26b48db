//! The whole front end in process: keys go through the keymap, the app and
//! the runner into a real local game, from the start menu to the result.

use crate::common;

use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use roundtable_guildhall::Guildhall;
use roundtable_port_royal::{Action, PortRoyal};
use roundtable_tui::{App, LocalConfig, Runner, Screen, Theme};

fn press(runner: &mut Runner, code: KeyCode) {
    runner.key(&KeyEvent::new(code, KeyModifiers::NONE));
}

#[test]
fn a_game_from_the_start_menu_to_the_result_by_keys() {
    let games = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let defaults = LocalConfig {
        seed: Some(11),
        transcript_dir: Some(games.path().to_owned()),
        ..LocalConfig::default()
    };
    let mut runner = Runner::new(App::with_menu(defaults, Theme::plain()));
    press(&mut runner, KeyCode::Enter); // local game
    assert_eq!(runner.app.screen, Screen::Setup);
    press(&mut runner, KeyCode::Down); // past the game: Port Royal
    for _ in 0..2 {
        press(&mut runner, KeyCode::Left); // 4 seats -> 2
    }
    press(&mut runner, KeyCode::Char('j'));
    for _ in 0..8 {
        press(&mut runner, KeyCode::Char('h')); // 12 VP -> 4
    }
    for _ in 0..3 {
        press(&mut runner, KeyCode::Down);
    }
    press(&mut runner, KeyCode::Enter); // the expansion, on
    assert_eq!(
        runner.app.screen,
        Screen::Setup,
        "Enter on a setting starts nothing"
    );
    press(&mut runner, KeyCode::Enter); // and off again
    press(&mut runner, KeyCode::Down);
    for _ in 0..2 {
        press(&mut runner, KeyCode::Left); // normal pace -> instant
    }
    for _ in 0..3 {
        press(&mut runner, KeyCode::Down); // the bot's level, the think time
    }
    press(&mut runner, KeyCode::Enter); // start
    assert_eq!(runner.app.screen, Screen::Table);
    let snap = runner
        .snapshot::<PortRoyal>()
        .unwrap_or_else(|| panic!("no game"));
    assert_eq!(snap.view.seats, 2);
    let mut moves = 0;
    while runner.app.screen == Screen::Table {
        runner.poll(Instant::now());
        let Some(snap) = runner.snapshot::<PortRoyal>() else {
            panic!("the game went away");
        };
        if !snap.live() {
            break;
        }
        // Stop as soon as there is something in the harbor; otherwise the
        // first move (draw, then the first card to take).
        let stop = snap.legal.iter().position(|a| *a == Action::Stop);
        match stop {
            Some(i) if !snap.view.harbor.is_empty() => {
                press(&mut runner, KeyCode::Char(char::from(b'1' + i as u8)))
            }
            _ => press(&mut runner, KeyCode::Enter),
        }
        moves += 1;
        assert!(moves < 2_000, "the game does not end");
    }
    runner.poll(Instant::now());
    assert_eq!(runner.app.screen, Screen::PostGame);
    let snap = runner
        .snapshot::<PortRoyal>()
        .unwrap_or_else(|| panic!("no game"));
    let t = common::render(&runner.app, Some(snap), 80, 24);
    let text = common::screen_text(&t);
    assert!(text.contains("Game over"), "{text}");
    assert!(text.contains("#1"), "{text}");
    // The replay opened from the results goes back to them.
    let results = snap.clone();
    press(&mut runner, KeyCode::Char('r'));
    assert_eq!(runner.app.screen, Screen::Replay, "{:?}", runner.app.notice);
    press(&mut runner, KeyCode::Char('L'));
    press(&mut runner, KeyCode::Esc);
    assert_eq!(runner.app.screen, Screen::Replay);
    press(&mut runner, KeyCode::Esc);
    assert_eq!(runner.app.screen, Screen::PostGame);
    assert_eq!(runner.snapshot::<PortRoyal>(), Some(&results));
    // Enter goes back to the menu; q then quits without asking.
    press(&mut runner, KeyCode::Enter);
    assert_eq!(runner.app.screen, Screen::Menu);
    press(&mut runner, KeyCode::Char('q'));
    assert!(runner.quit());
}

/// The game row of the set-up chooses the game the runner plays: Guildhall
/// from the start menu to its results by keys, with its seats, its options
/// and its bots, and back to the menu.
#[test]
fn guildhall_from_the_start_menu_to_the_result_by_keys() {
    let defaults = LocalConfig {
        seed: Some(5),
        seats: 5,
        ..LocalConfig::default()
    };
    let mut runner = Runner::new(App::with_menu(defaults, Theme::plain()));
    press(&mut runner, KeyCode::Enter); // local game
    press(&mut runner, KeyCode::Right); // Port Royal -> Guildhall
    assert_eq!(runner.app.setup.seats, 4, "Guildhall seats four at most");
    press(&mut runner, KeyCode::Down);
    press(&mut runner, KeyCode::Left); // 4 seats -> 3
    press(&mut runner, KeyCode::Down);
    press(&mut runner, KeyCode::Enter); // Yucata 1 off
    assert!(
        !runner
            .app
            .setup
            .options::<roundtable_guildhall::Guildhall>()
            .refill_after_paying
    );
    for _ in 0..3 {
        press(&mut runner, KeyCode::Down);
    }
    for _ in 0..3 {
        press(&mut runner, KeyCode::Left); // 100 rounds at most -> 5
    }
    assert_eq!(
        runner
            .app
            .setup
            .options::<roundtable_guildhall::Guildhall>()
            .max_rounds,
        5
    );
    press(&mut runner, KeyCode::Down);
    for _ in 0..2 {
        press(&mut runner, KeyCode::Left); // normal pace -> instant
    }
    for _ in 0..4 {
        press(&mut runner, KeyCode::Down); // two bots, the think time
    }
    press(&mut runner, KeyCode::Enter); // start
    assert_eq!(runner.app.screen, Screen::Table, "{:?}", runner.app.notice);
    assert!(runner.snapshot::<PortRoyal>().is_none());
    let snap = runner
        .snapshot::<Guildhall>()
        .unwrap_or_else(|| panic!("no Guildhall game"));
    assert_eq!(snap.view.vp.len(), 3);
    let mut moves = 0;
    while runner.app.screen == Screen::Table {
        runner.poll(Instant::now());
        let Some(snap) = runner.snapshot::<Guildhall>() else {
            panic!("the game went away");
        };
        if !snap.live() {
            break;
        }
        press(&mut runner, KeyCode::Enter); // the first legal move
        moves += 1;
        assert!(moves < 5_000, "the game does not end");
    }
    runner.poll(Instant::now());
    assert_eq!(runner.app.screen, Screen::PostGame);
    // Drawn as the terminal draws it: through the runner.
    let mut t = ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24))
        .unwrap_or_else(|e| panic!("{e}"));
    runner.draw(&mut t).unwrap_or_else(|e| panic!("{e}"));
    let text = common::screen_text(&t);
    assert!(text.contains("Game over"), "{text}");
    assert!(text.contains("#1"), "{text}");
    press(&mut runner, KeyCode::Enter);
    assert_eq!(runner.app.screen, Screen::Menu);
    assert!(runner.snapshot::<Guildhall>().is_none());
}

#[test]
fn q_during_a_live_game_asks_and_n_keeps_playing() {
    let defaults = LocalConfig {
        seed: Some(3),
        ..LocalConfig::default()
    };
    let mut runner = Runner::new(App::with_menu(defaults, Theme::plain()));
    press(&mut runner, KeyCode::Char('1'));
    press(&mut runner, KeyCode::Char('k')); // wraps to "Start the game"
    press(&mut runner, KeyCode::Enter);
    assert_eq!(runner.app.screen, Screen::Table);
    press(&mut runner, KeyCode::Char('q'));
    assert!(!runner.quit());
    press(&mut runner, KeyCode::Char('n'));
    assert!(!runner.quit());
    // Yes leaves the game for the start menu, where q quits.
    press(&mut runner, KeyCode::Char('q'));
    press(&mut runner, KeyCode::Char('y'));
    assert!(!runner.quit());
    assert_eq!(runner.app.screen, Screen::Menu);
    assert!(runner.snapshot::<PortRoyal>().is_none(), "the game is gone");
    press(&mut runner, KeyCode::Char('q'));
    assert!(runner.quit());
}

/// The name chosen in the start menu is written to the preferences file
/// and read back by the next run; a file that cannot be used gives the
/// default name and one line that says why.
#[test]
fn the_name_is_remembered_across_runs_and_a_bad_file_fails_closed() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let prefs = dir.path().join(roundtable_tui::prefs::FILE);
    let menu = |name: &str| {
        let defaults = LocalConfig {
            name: name.into(),
            ..LocalConfig::default()
        };
        Runner::new(App::with_menu(defaults, Theme::plain())).with_prefs_file(prefs.clone())
    };
    let mut runner = menu("ann");
    assert_eq!(runner.app.setup.name, "ann");
    assert_eq!(runner.app.notice, None);
    press(&mut runner, KeyCode::Char('7'));
    runner.key(&KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
    for c in "Mary Read".chars() {
        press(&mut runner, KeyCode::Char(c));
    }
    press(&mut runner, KeyCode::Enter);
    assert_eq!(runner.app.screen, Screen::Menu);
    assert_eq!(runner.app.notice, None);
    let again = menu("ann");
    assert_eq!(again.app.setup.name, "Mary Read", "remembered");
    // The local game seats the player under the name.
    let mut runner = again;
    press(&mut runner, KeyCode::Char('1'));
    press(&mut runner, KeyCode::Char('k'));
    press(&mut runner, KeyCode::Enter);
    let snap = runner
        .snapshot::<PortRoyal>()
        .unwrap_or_else(|| panic!("no game"));
    assert!(
        snap.names().contains(&"Mary Read".to_owned()),
        "{:?}",
        snap.names()
    );

    std::fs::write(&prefs, "name = [\"not\", \"a name\"]\n").unwrap_or_else(|e| panic!("{e}"));
    let runner = menu("ann");
    assert_eq!(runner.app.setup.name, "ann", "the default name");
    let notice = runner.app.notice.clone().unwrap_or_default();
    assert!(notice.contains("prefs.toml"), "{notice}");
    assert!(notice.contains("playing as ann"), "{notice}");
    assert!(!notice.contains('\n'), "{notice}");
}

#[test]
fn a_digit_out_of_range_is_a_notice_not_a_move() {
    let mut session = common::session(2, 9, 12);
    let _ = &mut session;
    let snap = roundtable_tui::Session::snapshot(&session);
    let mut runner = Runner::new(App::at_table(Theme::plain())).with_session(Box::new(session));
    press(&mut runner, KeyCode::Char('9'));
    assert!(
        runner
            .app
            .notice
            .as_deref()
            .unwrap_or("")
            .contains("no move 9")
    );
    assert_eq!(runner.snapshot::<PortRoyal>(), Some(&snap));
}
