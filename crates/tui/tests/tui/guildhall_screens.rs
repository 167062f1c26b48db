//! Guildhall at the table: a real local game against bots, through the
//! same session, app and screens as Port Royal, drawn at every size.

use crate::common;

use std::time::Instant;

use insta::assert_snapshot;
use roundtable_bots::Level;
use roundtable_engine::Seat;
use roundtable_games::Listed;
use roundtable_guildhall::{Guildhall, Options, Phase};
use roundtable_tui::{App, LocalConfig, LocalSession, Pace, Session, Snapshot, Theme};

/// A seeded three-seat game against easy bots, moving at once.
fn session() -> LocalSession<Guildhall> {
    let config = LocalConfig {
        seats: 3,
        seed: Some(11),
        pace: Pace::Instant,
        bot_levels: [Level::Easy; 4],
        ..LocalConfig::default()
    };
    LocalSession::with_options(&config, &Options::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// Let the bots move until it is this seat's decision or the game is over.
fn settle(session: &mut LocalSession<Guildhall>) -> Snapshot<Guildhall> {
    session.poll(Instant::now());
    session.snapshot()
}

/// Play the seat with its own bot: its choice is submitted like a person's
/// key press, through the app's list of moves.
fn play_one(session: &mut LocalSession<Guildhall>, snap: &Snapshot<Guildhall>, seed: u64) {
    let me = snap.me.unwrap_or(Seat(0));
    let mut bot = Guildhall::bot(Level::Easy, &Options::default(), Default::default(), seed);
    let i = bot.choose(me, &snap.view, &snap.legal);
    let action = snap.legal[i];
    session
        .submit(action)
        .unwrap_or_else(|e| panic!("{action}: {e}"));
}

#[test]
fn guildhall_set_up_mid_game_and_post_game_screens() {
    let mut session = session();
    let mut app = App::at_table(Theme::plain());
    let mut snap = settle(&mut session);
    app.observe(&snap);
    // The set-up: the hand is dealt and the seat discards and draws.
    assert!(
        matches!(
            snap.view.phase,
            Phase::SetupDiscard(_) | Phase::SetupPlace(..)
        ),
        "{:?}",
        snap.view.phase
    );
    let setup = common::draw(&app, &snap, 80, 24);
    assert!(
        common::screen_text(&setup).contains("your hand (9)"),
        "{}",
        common::screen_text(&setup)
    );
    assert_snapshot!("guildhall_setup_80x24", setup.backend());
    assert_snapshot!(
        "guildhall_setup_200x60",
        common::draw(&app, &snap, 200, 60).backend()
    );
    assert_snapshot!(
        "guildhall_setup_60x20",
        common::draw(&app, &snap, 60, 20).backend()
    );

    // Play on to this seat's first real turn.
    let mut step = 0;
    while snap.live() && snap.view.phase != Phase::Turn {
        assert!(step < 1000, "the set-up ends");
        if !snap.legal.is_empty() {
            play_one(&mut session, &snap, step);
            step += 1;
        }
        snap = settle(&mut session);
    }
    let mut waits = 0;
    while snap.live() && snap.legal.is_empty() {
        waits += 1;
        assert!(waits < 1000, "the bots move: {:?}", snap.status);
        snap = settle(&mut session);
    }
    app.observe(&snap);
    let turn = common::draw(&app, &snap, 80, 24);
    assert!(
        common::screen_text(&turn).contains("your turn"),
        "{}",
        common::screen_text(&turn)
    );
    // Your own cards are named: the session reads your table's knowledge.
    assert!(
        snap.view.my_hand.iter().all(|(_, card)| card.is_some()),
        "{:?}",
        snap.view.my_hand
    );
    let wide = common::screen_text(&common::draw(&app, &snap, 200, 60));
    assert!(wide.contains("Centre row"), "{wide}");
    assert_snapshot!("guildhall_turn_80x24", turn.backend());
    assert_snapshot!(
        "guildhall_turn_200x60",
        common::draw(&app, &snap, 200, 60).backend()
    );
    assert_snapshot!(
        "guildhall_turn_60x20",
        common::draw(&app, &snap, 60, 20).backend()
    );

    // To the end, and the shared post-game screen: ranking and VP chart.
    let mut guard = 0;
    while snap.live() {
        guard += 1;
        assert!(guard < 100_000, "the game ends");
        if !snap.legal.is_empty() {
            play_one(&mut session, &snap, step);
            step += 1;
        }
        snap = settle(&mut session);
    }
    app.observe(&snap);
    let over = common::draw(&app, &snap, 80, 24);
    let shown = common::screen_text(&over);
    assert!(shown.contains("Game over"), "{shown}");
    assert!(shown.contains("completed chapters"), "{shown}");
    assert!(
        snap.vp_by_turn.len() > 2,
        "the chart has a row per turn: {:?}",
        snap.vp_by_turn
    );
    // The log's copy of the game took every private step the tables took.
    assert!(
        !snap.log.iter().any(|l| l.text.contains("chart stops")),
        "{:?}",
        snap.log
    );
    // The chart counts rounds, as the table's heading does ("Round 3").
    let wide = common::screen_text(&common::draw(&app, &snap, 200, 60));
    assert!(
        wide.contains("round 1") && wide.contains(" rounds)") && !wide.contains(" turns)"),
        "{wide}"
    );
    assert_snapshot!("guildhall_post_game_80x24", over.backend());
    assert_snapshot!(
        "guildhall_post_game_200x60",
        common::draw(&app, &snap, 200, 60).backend()
    );
}
