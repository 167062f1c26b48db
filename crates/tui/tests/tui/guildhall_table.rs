//! Guildhall's table at 80x24 and wide: your guildhall and the whole centre
//! row on screen on your turn and off it, the notation's legend, what the
//! other seats did to you since your turn, a seat that stopped answering
//! with its countdown, and the set-up before the first deal in a replay.

use crate::common;

use std::time::{Duration, Instant};

use insta::assert_snapshot;
use roundtable_bots::Level;
use roundtable_games::Listed;
use roundtable_games::words::LogLine;
use roundtable_guildhall::{Action, Event, Guildhall, Options, Phase};
use roundtable_tui::{
    App, Connection, LocalConfig, LocalSession, Pace, Replay, SeatKind, Seek, Session, Snapshot,
    Theme,
};

/// A seeded four-seat game against easy bots, at this seat's first turn.
fn first_turn() -> Snapshot<Guildhall> {
    let config = LocalConfig {
        seats: 4,
        seed: Some(5),
        pace: Pace::Instant,
        bot_levels: [Level::Easy; 4],
        ..LocalConfig::default()
    };
    let mut session = LocalSession::<Guildhall>::with_options(&config, &Options::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut bot = Guildhall::bot(Level::Easy, &Options::default(), Duration::ZERO, 1);
    for _ in 0..10_000 {
        session.poll(Instant::now());
        let snap = session.snapshot();
        if snap.view.phase == Phase::Turn && !snap.legal.is_empty() {
            return snap;
        }
        if !snap.legal.is_empty() {
            let me = snap.me.unwrap_or_else(|| panic!("a seat"));
            let i = bot.choose(me, &snap.view, &snap.legal);
            session
                .submit(snap.legal[i])
                .unwrap_or_else(|e| panic!("{e}"));
        }
    }
    panic!("the set-up never ended");
}

/// The rows of `text` from the board's first to the moves panel's top.
fn board_text(text: &str) -> String {
    text.lines()
        .skip_while(|l| !l.contains("┌ Guildhall"))
        .take_while(|l| !l.contains("┌ Moves") && !l.contains("┌ Replay"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Your guildhall's heading and chapters, and all five cards of the centre
/// row, are on the board.
fn assert_mine_and_the_row_shown(snap: &Snapshot<Guildhall>, text: &str) {
    let board = board_text(text);
    let me = snap.me.unwrap_or_else(|| panic!("a seat"));
    assert!(
        board.contains(&format!("│{} You (you)", me.number())),
        "{board}"
    );
    assert!(board.contains("your hand ("), "{board}");
    assert_eq!(snap.view.row.len(), 5);
    // The legend's example names a VP card too: it is not one of the row.
    let row_cards: usize = board
        .lines()
        .filter(|l| !l.contains(" = "))
        .map(|l| l.matches(" VP for ").count())
        .sum();
    assert_eq!(row_cards, 5, "{board}");
}

#[test]
fn your_guildhall_and_the_centre_row_stay_on_screen_at_80x24() {
    let snap = first_turn();
    let mut app = App::at_table(Theme::plain());
    app.observe(&snap);
    let turn = common::draw(&app, &snap, 80, 24);
    assert_mine_and_the_row_shown(&snap, &common::screen_text(&turn));
    assert_snapshot!("guildhall_four_seats_turn_80x24", turn.backend());
    let wide = common::draw(&app, &snap, 160, 48);
    let text = common::screen_text(&wide);
    assert_mine_and_the_row_shown(&snap, &text);
    // A wide board has room for every seat and the legend too.
    assert!(
        text.contains("4 ") && text.contains("Legend: r b g y p"),
        "{text}"
    );
    assert_snapshot!("guildhall_four_seats_turn_160x48", wide.backend());

    // Not your turn: the same rows, with the waiting words below.
    let mut waiting = snap.clone();
    waiting.legal.clear();
    waiting.status = Some("Waiting for Anne Bonny".to_owned());
    app.observe(&waiting);
    let text = common::screen_text(&common::draw(&app, &waiting, 80, 24));
    assert_mine_and_the_row_shown(&waiting, &text);
}

#[test]
fn the_legend_is_on_the_help_screen() {
    let legend = roundtable_tui::ui::help_lines(
        Theme::plain(),
        roundtable_tui::keymap::Context::Table,
        &<Guildhall as roundtable_tui::GameScreen>::legend(),
    );
    let text: Vec<String> = legend
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect();
    let text = text.join("\n");
    for words in [
        "On the table",
        "r b g y p",
        "L2 = the level",
        "hand 4 (1 known)",
    ] {
        assert!(text.contains(words), "no {words:?}:\n{text}");
    }
    // Port Royal's abbreviations are Port Royal's alone.
    assert!(!text.contains("2sw"), "{text}");
}

#[test]
fn what_the_others_did_to_you_shows_after_their_turn() {
    let mut snap = first_turn();
    let names = snap.names();
    let me = snap.me.unwrap_or_else(|| panic!("a seat"));
    let other = me.next(4);
    let mine = snap
        .view
        .halls
        .get(me.index())
        .and_then(|hall| {
            roundtable_guildhall::PROFESSIONS.iter().find_map(|p| {
                let held = hall[p.index()];
                (held != 0).then(|| p.index() as u32 * 5 + held.trailing_zeros())
            })
        })
        .unwrap_or_else(|| panic!("the set-up placed three cards"));
    // What the log holds after seat 2's Assassin hit seat 1's guildhall.
    for event in [
        Event::Acted {
            seat: other,
            action: Action::Assassinate {
                seat: me,
                card: mine,
            },
        },
        Event::TurnEnded { seat: other, vp: 0 },
    ] {
        let text = roundtable_games::guildhall::event_line(&event, &names, Some(me))
            .unwrap_or_else(|| panic!("{event:?} has a line"));
        snap.log.push(LogLine {
            turn: 1,
            heading: false,
            text,
        });
    }
    let mut app = App::at_table(Theme::plain());
    app.observe(&snap);
    let expected = format!(
        "Since your turn: {} discards {} from your guildhall.",
        names[other.index()],
        roundtable_games::guildhall::card_words(mine)
    );
    let narrow = common::draw(&app, &snap, 80, 24);
    let text = common::screen_text(&narrow);
    assert!(
        text.replace("│\n│", " ").contains(&expected) || text.contains(&expected),
        "no {expected:?}:\n{text}"
    );
    assert_snapshot!("guildhall_done_to_you_80x24", narrow.backend());
    assert_snapshot!(
        "guildhall_done_to_you_160x48",
        common::draw(&app, &snap, 160, 48).backend()
    );
}

#[test]
fn a_seat_that_stops_answering_shows_offline_and_its_countdown() {
    let mut snap = first_turn();
    let me = snap.me.unwrap_or_else(|| panic!("a seat"));
    let gone = me.next(4).next(4);
    for (i, info) in snap.seats.iter_mut().enumerate() {
        if i == me.index() {
            info.clock = Some(Duration::from_secs(115));
            continue;
        }
        info.kind = SeatKind::Remote;
        info.connection = if i == gone.index() {
            info.clock = Some(Duration::from_secs(42));
            Connection::Offline
        } else {
            Connection::Online
        };
    }
    let mut app = App::at_table(Theme::plain());
    app.observe(&snap);
    let wide = common::draw(&app, &snap, 160, 48);
    let text = common::screen_text(&wide);
    assert!(text.contains("| offline 0:42"), "{text}");
    assert!(text.contains("| you 1:55"), "{text}");
    assert!(text.contains("| online"), "{text}");
    assert_snapshot!("guildhall_offline_seat_160x48", wide.backend());
    let narrow = common::draw(&app, &snap, 80, 24);
    assert!(
        common::screen_text(&narrow).contains("| you 1:55"),
        "{}",
        common::screen_text(&narrow)
    );
    assert_snapshot!("guildhall_offline_seat_80x24", narrow.backend());

    // A clock running low warns above the moves, yours and another's.
    snap.seats[me.index()].clock = Some(Duration::from_secs(5));
    let text = common::screen_text(&common::draw(&app, &snap, 80, 24));
    assert!(
        text.contains("Your move: 0:05 left, then your seat is played"),
        "{text}"
    );
    snap.legal.clear();
    snap.status = Some("Waiting for a move".to_owned());
    snap.seats[gone.index()].clock = Some(Duration::from_secs(3));
    let text = common::screen_text(&common::draw(&app, &snap, 80, 24));
    assert!(
        text.contains(": 0:03 left, then the seat is played"),
        "{text}"
    );
}

#[test]
fn a_replay_at_input_0_shows_the_set_up_before_the_deal() {
    let path = crate::replay::guildhall_transcript("input-0", 7);
    let mut replay = Replay::<Guildhall>::open(&path).unwrap_or_else(|e| panic!("{e}"));
    let _ = std::fs::remove_file(&path);
    replay.seek(Seek::Start);
    assert_eq!(replay.position(), 0);
    let app = App::at_replay(Theme::plain(), replay.status());
    let snap = replay.snapshot();
    let draw = |w: u16, h: u16| common::draw(&app, &snap, w, h);
    let narrow = draw(80, 24);
    let text = common::screen_text(&narrow);
    assert!(
        text.contains("Set-up: the 120 profession cards are shuffled, then 9"),
        "{text}"
    );
    for dealt_words in ["discard 120", "discard and draw back", "Weaver (purple)"] {
        assert!(!text.contains(dealt_words), "{dealt_words:?}:\n{text}");
    }
    assert!(text.contains("Centre row: not dealt yet"), "{text}");
    assert_snapshot!("guildhall_replay_input_0_80x24", narrow.backend());
    assert_snapshot!("guildhall_replay_input_0_160x48", draw(160, 48).backend());
}

#[test]
fn placing_a_card_over_its_twin_says_the_twin_comes_back() {
    use roundtable_guildhall::{HandCard, Pending};
    use roundtable_tui::GameScreen;
    let mut snap = first_turn();
    let me = snap.me.unwrap_or_else(|| panic!("a seat"));
    let held = roundtable_guildhall::PROFESSIONS
        .iter()
        .find_map(|p| {
            let mask = snap.view.halls[me.index()][p.index()];
            (mask != 0).then(|| p.index() as u32 * 5 + mask.trailing_zeros())
        })
        .unwrap_or_else(|| panic!("the set-up placed three cards"));
    let place = Action::Place {
        from: HandCard::Open(held),
        card: held,
    };
    let answer = |snap: &Snapshot<Guildhall>| {
        Guildhall::picks(snap, &place)
            .last()
            .map(|p| p.answer.clone())
            .unwrap_or_default()
    };
    snap.view.pending = Some(Pending::Place {
        left: Some(2),
        then_return: 1,
    });
    assert!(answer(&snap).contains("over its twin"), "{}", answer(&snap));
    // With no return left (Weaver 0) it is a plain placement, refused.
    snap.view.pending = Some(Pending::Place {
        left: Some(1),
        then_return: 0,
    });
    assert!(!answer(&snap).contains("twin"), "{}", answer(&snap));
}
