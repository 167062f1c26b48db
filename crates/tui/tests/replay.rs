//! The replay screen over a real transcript: bots play a seeded game at
//! in-process tables, its transcript is opened, and the screen is drawn at
//! positions along it; keys go through the keymap, the app and the runner.

mod common;

use common::*;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use insta::assert_snapshot;
use roundtable_port_royal::Options;
use roundtable_tui::{App, LocalConfig, Replay, Runner, Screen, Seek, Theme};

fn press(runner: &mut Runner, code: KeyCode) {
    runner.key(&KeyEvent::new(code, KeyModifiers::NONE));
}

fn expansion() -> Options {
    Options {
        expansion: true,
        ..Options::default()
    }
}

fn replay_runner(name: &str, options: &Options) -> Runner {
    let path = transcript(name, 21, options);
    let replay = Replay::open(&path).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_file(&path);
    Runner::replaying(Theme::default(), replay)
}

fn screen(runner: &Runner, w: u16, h: u16) -> ratatui::Terminal<ratatui::backend::TestBackend> {
    render(&runner.app, runner.snapshot(), w, h)
}

#[test]
fn replay_screen_mid_game_and_at_the_end() {
    let mut runner = replay_runner("screens", &Options::default());
    let total = runner.replay().map_or(0, Replay::len);
    for _ in 0..8 {
        press(&mut runner, KeyCode::Char('j')); // to the start of turn 8
    }
    press(&mut runner, KeyCode::Right);
    press(&mut runner, KeyCode::Right);
    let t = screen(&runner, 80, 24);
    let text = screen_text(&t);
    let position = runner.replay().map_or(0, Replay::position);
    assert!(
        text.contains(&format!("Replay: input {position} / {total}, turn 8")),
        "{text}"
    );
    assert!(text.contains("Input "), "{text}");
    assert_snapshot!("replay_mid_80x24", t.backend());
    assert_snapshot!("replay_mid_200x60", screen(&runner, 200, 60).backend());
    press(&mut runner, KeyCode::Char('G'));
    let t = screen(&runner, 80, 24);
    let text = screen_text(&t);
    assert!(text.contains("Game over"), "{text}");
    assert!(text.contains(&format!("input {total} / {total}")), "{text}");
    assert_snapshot!("replay_end_80x24", t.backend());
    assert_snapshot!("replay_end_200x60", screen(&runner, 200, 60).backend());
    press(&mut runner, KeyCode::Char('g'));
    let t = screen(&runner, 80, 24);
    assert!(screen_text(&t).contains("The start: no input applied yet."));
}

#[test]
fn an_expansion_replay_shows_the_contracts() {
    let mut runner = replay_runner("expansion", &expansion());
    for _ in 0..12 {
        press(&mut runner, KeyCode::Down);
    }
    let t = screen(&runner, 200, 60);
    let text = screen_text(&t);
    assert!(text.contains("gains its +$ (12 face down)"), "{text}");
    assert!(text.contains("cubes"), "{text}");
    assert_snapshot!("replay_expansion_200x60", t.backend());
}

#[test]
fn the_log_follows_the_position_and_quitting_does_not_ask() {
    let mut runner = replay_runner("keys", &Options::default());
    let log_len = |r: &Runner| r.snapshot().map_or(0, |s| s.log.len());
    press(&mut runner, KeyCode::Char('j'));
    press(&mut runner, KeyCode::Char('j'));
    let two_turns = log_len(&runner);
    press(&mut runner, KeyCode::Char('k'));
    assert!(log_len(&runner) < two_turns, "back a turn, fewer lines");
    press(&mut runner, KeyCode::Char('j'));
    assert_eq!(log_len(&runner), two_turns);
    // The full log shows the lines up to here, and Esc comes back.
    press(&mut runner, KeyCode::Char('L'));
    assert_eq!(runner.app.screen, Screen::Log);
    press(&mut runner, KeyCode::Esc);
    assert_eq!(runner.app.screen, Screen::Replay);
    // Help lists the replay keys first.
    press(&mut runner, KeyCode::Char('?'));
    let text = screen_text(&screen(&runner, 80, 24));
    assert!(text.contains("Replaying a transcript"), "{text}");
    assert!(text.contains("next turn"), "{text}");
    press(&mut runner, KeyCode::Esc);
    press(&mut runner, KeyCode::Char('q'));
    assert!(runner.quit(), "a replay quits without asking");
}

#[test]
fn the_start_menu_opens_a_replay_by_its_path() {
    let path = transcript("menu", 4, &Options::default());
    // The prompt starts in the folder local games save to.
    let defaults = LocalConfig {
        transcript_dir: Some("saved-games".into()),
        ..LocalConfig::default()
    };
    let mut runner = Runner::new(App::with_menu(defaults, Theme::default()), None);
    press(&mut runner, KeyCode::Char('6'));
    assert_eq!(runner.app.screen, Screen::ReplayPrompt);
    assert_eq!(runner.app.prompt, "saved-games/");
    // A file that is not there is a notice, and the prompt stays.
    for c in "nothing.rts".chars() {
        press(&mut runner, KeyCode::Char(c));
    }
    press(&mut runner, KeyCode::Enter);
    assert_eq!(runner.app.screen, Screen::ReplayPrompt);
    let t = screen(&runner, 80, 24);
    assert!(
        screen_text(&t).contains("saved-games/nothing.rts: No such file"),
        "{}",
        screen_text(&t)
    );
    assert_snapshot!("replay_prompt_80x24", t.backend());
    while !runner.app.prompt.is_empty() {
        press(&mut runner, KeyCode::Backspace);
    }
    for c in path.display().to_string().chars() {
        press(&mut runner, KeyCode::Char(c));
    }
    press(&mut runner, KeyCode::Enter);
    assert_eq!(runner.app.screen, Screen::Replay, "{:?}", runner.app.notice);
    press(&mut runner, KeyCode::Char('l'));
    assert_eq!(runner.replay().map(Replay::position), Some(1));
    // Esc goes back to the start menu.
    press(&mut runner, KeyCode::Esc);
    assert_eq!(runner.app.screen, Screen::Menu);
    assert!(runner.replay().is_none());
    let _ = std::fs::remove_file(&path);
}

#[test]
fn seeking_past_either_end_stays_there() {
    let path = transcript("ends", 2, &Options::default());
    let mut replay = Replay::open(&path).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_file(&path);
    assert!(!replay.seek(Seek::Back));
    assert!(!replay.seek(Seek::PrevTurn));
    assert!(replay.seek(Seek::End));
    assert!(!replay.seek(Seek::Forward));
    assert!(!replay.seek(Seek::NextTurn));
    assert_eq!(replay.position(), replay.len());
}
