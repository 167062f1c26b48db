//! The replay screen over a real transcript: bots play a seeded game at
//! in-process tables, its transcript is opened, and the screen is drawn at
//! positions along it; keys go through the keymap, the app and the runner.

use crate::common;

use common::*;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use insta::assert_snapshot;
use roundtable_port_royal::{Options, PortRoyal};
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
    let replay: Replay<PortRoyal> = Replay::open(&path).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_file(&path);
    Runner::replaying(Theme::default(), replay)
}

fn screen(runner: &Runner, w: u16, h: u16) -> ratatui::Terminal<ratatui::backend::TestBackend> {
    render(&runner.app, runner.snapshot::<PortRoyal>(), w, h)
}

#[test]
fn replay_screen_mid_game_and_at_the_end() {
    let mut runner = replay_runner("screens", &Options::default());
    let total = runner.replay::<PortRoyal>().map_or(0, Replay::len);
    for _ in 0..8 {
        press(&mut runner, KeyCode::Char('j')); // to the start of turn 8
    }
    press(&mut runner, KeyCode::Right);
    press(&mut runner, KeyCode::Right);
    let t = screen(&runner, 80, 24);
    let text = screen_text(&t);
    let position = runner.replay::<PortRoyal>().map_or(0, Replay::position);
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
    let text = screen_text(&t);
    assert!(text.contains("The start: no input applied yet."), "{text}");
    // No one is active before the start player is drawn.
    assert!(text.contains("choosing the start player"), "{text}");
    assert!(!text.contains("ACTIVE"), "{text}");
    assert!(!text.contains(">1 "), "{text}");
    assert_snapshot!("replay_start_80x24", t.backend());
    assert_snapshot!("replay_start_200x60", screen(&runner, 200, 60).backend());
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
    let log_len = |r: &Runner| r.snapshot::<PortRoyal>().map_or(0, |s| s.log.len());
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

/// A data folder's games folder holding two local games' transcripts and
/// a network game's, each written at a time of its own: the folder, the
/// newest game and the oldest.
fn games_folder() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let at = |secs| std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(secs);
    let mut paths = Vec::new();
    for (seed, name, secs) in [
        (4, "local-4.rts", 1_795_000_000),
        (5, "7f3a/transcript.rtlog", 1_795_500_000),
        (6, "local-6.rts", 1_796_000_000),
    ] {
        let made = transcript("menu", seed, &Options::default());
        let path = dir.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{e}"));
        }
        std::fs::copy(&made, &path).unwrap_or_else(|e| panic!("{e}"));
        let _ = std::fs::remove_file(&made);
        std::fs::File::options()
            .write(true)
            .open(&path)
            .and_then(|f| f.set_modified(at(secs)))
            .unwrap_or_else(|e| panic!("{e}"));
        paths.push(path);
    }
    let newest = paths.pop().unwrap_or_default();
    let oldest = paths.remove(0);
    (dir, newest, oldest)
}

#[test]
fn the_start_menu_offers_the_saved_games_and_takes_a_path() {
    let (dir, newest, oldest) = games_folder();
    let defaults = LocalConfig {
        transcript_dir: Some(dir.path().to_owned()),
        ..LocalConfig::default()
    };
    let mut runner = Runner::new(App::with_menu(defaults, Theme::default()));
    press(&mut runner, KeyCode::Char('6'));
    assert_eq!(runner.app.screen, Screen::ReplayPrompt);
    assert_eq!(runner.app.prompt, "", "the field starts empty");
    let listed: Vec<_> = runner.app.saved.iter().map(|g| g.path.clone()).collect();
    assert_eq!(listed.len(), 3, "{listed:?}");
    assert_eq!(listed[0], newest, "newest first");
    assert_eq!(listed[2], oldest);
    assert!(runner.app.saved[1].network);
    let t = screen(&runner, 80, 24);
    let text = screen_text(&t);
    assert!(
        text.contains("2026-11-30 00:53 local   Port Royal: Anne Bonny, Mary Read, Calico Jack"),
        "{text}"
    );
    assert!(text.contains("network"), "{text}");
    assert_snapshot!("replay_prompt_80x24", t.backend());
    assert_snapshot!("replay_prompt_200x60", screen(&runner, 200, 60).backend());
    // A typed path that is not there is a notice, and the prompt stays.
    for c in "nothing.rts".chars() {
        press(&mut runner, KeyCode::Char(c));
    }
    press(&mut runner, KeyCode::Enter);
    assert_eq!(runner.app.screen, Screen::ReplayPrompt);
    let text = screen_text(&screen(&runner, 80, 24));
    assert!(text.contains("nothing.rts: No such file"), "{text}");
    // Ctrl-U clears the field; a typed path opens.
    runner.key(&KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
    assert_eq!(runner.app.prompt, "");
    for c in oldest.display().to_string().chars() {
        press(&mut runner, KeyCode::Char(c));
    }
    press(&mut runner, KeyCode::Enter);
    assert_eq!(runner.app.screen, Screen::Replay, "{:?}", runner.app.notice);
    press(&mut runner, KeyCode::Char('l'));
    assert_eq!(runner.replay::<PortRoyal>().map(Replay::position), Some(1));
    // Esc goes back to the start menu; the newest game is one Enter away.
    press(&mut runner, KeyCode::Esc);
    assert_eq!(runner.app.screen, Screen::Menu);
    assert!(runner.replay::<PortRoyal>().is_none());
    press(&mut runner, KeyCode::Char('6'));
    press(&mut runner, KeyCode::Enter);
    assert_eq!(runner.app.screen, Screen::Replay, "{:?}", runner.app.notice);
    assert!(
        runner
            .snapshot::<PortRoyal>()
            .and_then(|s| s.transcript.clone())
            .is_some_and(|t| t == newest.display().to_string())
    );
}

#[test]
fn seeking_past_either_end_stays_there() {
    let path = transcript("ends", 2, &Options::default());
    let mut replay: Replay<PortRoyal> = Replay::open(&path).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_file(&path);
    assert!(!replay.seek(Seek::Back));
    assert!(!replay.seek(Seek::PrevTurn));
    assert!(replay.seek(Seek::End));
    assert!(!replay.seek(Seek::Forward));
    assert!(!replay.seek(Seek::NextTurn));
    assert_eq!(replay.position(), replay.len());
}

/// A whole three-seat Guildhall game between easy bots at in-process
/// tables (which release every key after the game), as a transcript.
pub(crate) fn guildhall_transcript(name: &str, seed: u64) -> std::path::PathBuf {
    bots_transcript::<roundtable_guildhall::Guildhall>(name, seed, &Default::default())
}

/// A whole three-seat game of `G` between easy bots at in-process tables
/// (which release every key after the game), as a transcript.
fn bots_transcript<G: roundtable_games::Listed>(
    name: &str,
    seed: u64,
    options: &G::Options,
) -> std::path::PathBuf {
    use roundtable_local::{LocalGame, Player, Progress};
    let path = std::env::temp_dir().join(format!(
        "roundtable-tui-{}-{name}-{seed}.rts",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    let players = ["Ann", "Bo", "Cy"]
        .into_iter()
        .enumerate()
        .map(|(i, n)| {
            let bot = G::bot(
                roundtable_bots::Level::Easy,
                options,
                std::time::Duration::ZERO,
                seed + i as u64,
            );
            (n.to_owned(), Player::<G>::Bot(bot))
        })
        .collect();
    let mut game = LocalGame::<G>::new(
        options,
        seed,
        players,
        Some(&path),
        roundtable_table::Config::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        game.run().unwrap_or_else(|e| panic!("{e}")),
        Progress::Finished
    );
    path
}

/// Every cabin can be looked at in a Nereus replay: the cabin key turns
/// the short board to seat 1's cabin (the replay watches), then seat 2's,
/// and the page says which key shows the next.
#[test]
fn a_nereus_replay_shows_every_cabin() {
    use roundtable_nereus::Nereus;
    let path = bots_transcript::<Nereus>("nereus-cabins", 5, &Default::default());
    let replay: Replay<Nereus> = Replay::open(&path).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_file(&path);
    let mut runner = Runner::replaying(Theme::plain(), replay);
    for _ in 0..6 {
        press(&mut runner, KeyCode::Char('j'));
    }
    let draw = |runner: &Runner, w, h| match runner.snapshot::<Nereus>() {
        Some(snap) => draw(&runner.app, snap, w, h),
        None => panic!("the replay shows a Nereus game"),
    };
    press(&mut runner, KeyCode::Char('c'));
    let first = screen_text(&draw(&runner, 80, 24));
    assert!(first.contains("Cabin of 1 "), "{first}");
    assert!(first.contains("c: next cabin"), "{first}");
    press(&mut runner, KeyCode::Char('c'));
    let second = screen_text(&draw(&runner, 80, 24));
    assert!(second.contains("Cabin of 2 "), "{second}");
    assert_snapshot!("nereus_replay_cabin_80x24", draw(&runner, 80, 24).backend());
    let wide = screen_text(&draw(&runner, 200, 60));
    assert!(wide.contains("Cabin of 2 "), "{wide}");
    assert_snapshot!(
        "nereus_replay_cabin_200x60",
        draw(&runner, 200, 60).backend()
    );
}

/// What seat `seat` holds in the spectator's view at the replay's position,
/// each card named from the audit's opened cards: what its shown hand must
/// be, found without the replay's own knowledge.
fn audited_hand(
    replay: &Replay<roundtable_guildhall::Guildhall>,
    hands: &[roundtable_engine::Knowledge],
    seat: usize,
) -> Vec<String> {
    use roundtable_engine::{Game, Observer};
    use roundtable_guildhall::HandCard;
    let view = replay.game().view(Observer::Spectator);
    let mut cards: Vec<String> = view.hands[seat]
        .iter()
        .map(|card| match *card {
            HandCard::Dealt(handle) => hands[seat].card(handle).map_or_else(
                || format!("unopened {handle:?}"),
                roundtable_games::guildhall::card_words,
            ),
            HandCard::Open(card) => roundtable_games::guildhall::card_words(card),
        })
        .collect();
    cards.sort();
    cards
}

#[test]
fn a_guildhall_replay_shows_every_hand_the_audit_opened_at_every_position() {
    use roundtable_guildhall::Guildhall;
    let path = guildhall_transcript("hands", 4);
    let read = roundtable_table::transcript::read(&path).unwrap_or_else(|e| panic!("{e}"));
    let report =
        roundtable_table::audit::audit::<Guildhall>(&read.frames).unwrap_or_else(|e| panic!("{e}"));
    assert!(report.is_valid(), "{:?}", report.problems);
    let hands = report
        .hands
        .clone()
        .unwrap_or_else(|| panic!("every key is released after the game"));
    let (_, game) = roundtable_tui::replay::read(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(game, roundtable_games::GameId::Guildhall);
    let mut replay = Replay::<Guildhall>::open(&path).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_file(&path);
    assert_eq!(replay.opened(), Some(&hands[..]));
    assert_eq!(replay.hidden(), None);
    assert_eq!(replay.note(), None);
    let mut held = 0;
    loop {
        let status = replay.status();
        assert_eq!(status.hands.len(), 3, "every seat at {}", status.position);
        for (s, shown) in status.hands.iter().enumerate() {
            assert_eq!(shown.seat.index(), s);
            let mut cards = shown.cards.clone();
            cards.sort();
            assert_eq!(
                cards,
                audited_hand(&replay, &hands, s),
                "seat {s} at position {}",
                status.position
            );
            held += cards.len();
        }
        if !replay.seek(Seek::Forward) {
            break;
        }
    }
    assert!(held > 0, "hands were dealt");
    assert!(replay.snapshot().result.is_some());
}

#[test]
fn guildhall_replay_screens_show_every_hand_or_say_why_not() {
    use roundtable_guildhall::Guildhall;
    let path = guildhall_transcript("screens", 4);
    let mut replay = Replay::<Guildhall>::open(&path).unwrap_or_else(|e| panic!("{e}"));
    for _ in 0..3 {
        replay.seek(Seek::NextTurn);
    }
    replay.seek(Seek::Forward);
    replay.seek(Seek::Forward);
    let app = App::at_replay(Theme::plain(), replay.status());
    let snap = replay.snapshot();
    let draw = |w: u16, h: u16| {
        let mut t = ratatui::Terminal::new(ratatui::backend::TestBackend::new(w, h))
            .unwrap_or_else(|e| match e {});
        t.draw(|f| roundtable_tui::ui::render(&app, Some(&snap), f.area(), f.buffer_mut()))
            .unwrap_or_else(|e| match e {});
        t
    };
    let wide = draw(200, 60);
    let text = screen_text(&wide);
    for name in ["Ann", "Bo", "Cy"] {
        assert!(text.contains(name), "{text}");
    }
    assert_eq!(
        text.matches("  hand: ").count(),
        3,
        "a hand per seat: {text}"
    );
    assert!(text.contains("Replay: input"), "{text}");
    assert_snapshot!("guildhall_replay_hands_80x24", draw(80, 24).backend());
    assert_snapshot!("guildhall_replay_hands_200x60", wide.backend());

    // Cut short before the keys are released: the hands stay hidden, and
    // the screen says why in one line.
    let read = roundtable_table::transcript::read(&path).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_file(&path);
    let cut = &read.frames[..read.frames.len() / 2];
    let short = Replay::<Guildhall>::from_frames(cut, "cut.rts").unwrap_or_else(|e| panic!("{e}"));
    assert!(short.note().is_some());
    assert_eq!(
        short.hidden(),
        Some("hands hidden: the transcript ends before every seat released its key")
    );
    assert!(short.status().hands.is_empty());
    let app = App::at_replay(Theme::plain(), short.status());
    let snap = short.snapshot();
    let mut t = ratatui::Terminal::new(ratatui::backend::TestBackend::new(200, 60))
        .unwrap_or_else(|e| match e {});
    t.draw(|f| roundtable_tui::ui::render(&app, Some(&snap), f.area(), f.buffer_mut()))
        .unwrap_or_else(|e| match e {});
    let text = screen_text(&t);
    assert!(text.contains("Note: hands hidden"), "{text}");
    assert!(!text.contains("  hand: "), "{text}");
}

/// The runner steps through a Guildhall transcript as it does Port Royal's:
/// opened from the start menu's replay prompt (it once said `unknown game
/// "guildhall"`) or handed to it (`roundtable replay FILE`), keys move it,
/// and every seat's hand shows once every key was released.
#[test]
fn the_runner_replays_a_guildhall_transcript_with_the_hands() {
    use roundtable_guildhall::Guildhall;
    let path = guildhall_transcript("runner", 6);
    let mut runner = Runner::new(App::with_menu(LocalConfig::default(), Theme::plain()));
    press(&mut runner, KeyCode::Char('6'));
    assert_eq!(runner.app.screen, Screen::ReplayPrompt);
    runner.key(&KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
    for c in path.display().to_string().chars() {
        press(&mut runner, KeyCode::Char(c));
    }
    press(&mut runner, KeyCode::Enter);
    assert_eq!(runner.app.screen, Screen::Replay, "{:?}", runner.app.notice);
    assert!(
        runner.replay::<PortRoyal>().is_none(),
        "not a Port Royal replay"
    );
    let start = runner
        .replay::<Guildhall>()
        .map(Replay::position)
        .unwrap_or_else(|| panic!("no Guildhall replay"));
    for _ in 0..3 {
        press(&mut runner, KeyCode::Char('j'));
    }
    let moved = runner.replay::<Guildhall>().map(Replay::position);
    assert!(moved > Some(start), "j moves on: {moved:?}");
    let snap = runner
        .snapshot::<Guildhall>()
        .unwrap_or_else(|| panic!("no Guildhall snapshot"));
    let mut t = ratatui::Terminal::new(ratatui::backend::TestBackend::new(200, 60))
        .unwrap_or_else(|e| match e {});
    t.draw(|f| roundtable_tui::ui::render(&runner.app, Some(snap), f.area(), f.buffer_mut()))
        .unwrap_or_else(|e| match e {});
    let text = screen_text(&t);
    assert_eq!(text.matches("  hand: ").count(), 3, "{text}");

    // Handed to the runner directly, as `roundtable replay FILE` does.
    let replay = Replay::<Guildhall>::open(&path).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_file(&path);
    let mut direct = Runner::replaying(Theme::plain(), replay);
    press(&mut direct, KeyCode::End);
    let end = direct
        .replay::<Guildhall>()
        .map(|r| (r.position(), r.len()));
    assert!(matches!(end, Some((p, n)) if p == n), "{end:?}");
    assert!(
        direct
            .snapshot::<Guildhall>()
            .is_some_and(|s| s.result.is_some())
    );
}
