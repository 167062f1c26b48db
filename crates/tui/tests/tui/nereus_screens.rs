//! Waters of Nereus at the table: a real local game against bots, through
//! the same session, app and screens as every game, drawn at every size:
//! the secret crew choice, a turn with the ship to move, and the post-game
//! screen.

use crate::common;

use std::time::Instant;

use insta::assert_snapshot;
use roundtable_bots::Level;
use roundtable_engine::Seat;
use roundtable_games::Listed;
use roundtable_nereus::{Action, Nereus, Options, Phase, Stage};
use roundtable_tui::app::Effect;
use roundtable_tui::games::nereus::screen::destination;
use roundtable_tui::keymap::Msg;
use roundtable_tui::{App, LocalConfig, LocalSession, Pace, Session, Snapshot, Theme};

/// A seeded four-seat game against normal bots, moving at once.
fn session() -> LocalSession<Nereus> {
    let config = LocalConfig {
        seats: 4,
        seed: Some(21),
        pace: Pace::Instant,
        bot_levels: [Level::Normal; 4],
        ..LocalConfig::default()
    };
    LocalSession::with_options(&config, &Options::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// Let the bots move until it is this seat's decision or the game is over.
fn settle(session: &mut LocalSession<Nereus>) -> Snapshot<Nereus> {
    let mut snap;
    let mut waits = 0;
    loop {
        session.poll(Instant::now());
        snap = session.snapshot();
        if !snap.live() || !snap.legal.is_empty() {
            return snap;
        }
        waits += 1;
        assert!(waits < 10_000, "the bots move: {:?}", snap.status);
    }
}

/// Play the seat with the game's own bot: its choice is submitted like a
/// person's key press, through the session.
fn play_one(session: &mut LocalSession<Nereus>, snap: &Snapshot<Nereus>) {
    let me = snap.me.unwrap_or(Seat(0));
    let mut bot = Nereus::bot(Level::Normal, &Options::default(), Default::default(), 0);
    let i = bot.choose(me, &snap.view, &snap.legal);
    let action = snap.legal[i].clone();
    session
        .submit(action.clone())
        .unwrap_or_else(|e| panic!("{action}: {e}"));
}

fn shoot(app: &App, snap: &Snapshot<Nereus>, name: &str) {
    assert_snapshot!(
        format!("{name}_80x24"),
        common::draw(app, snap, 80, 24).backend()
    );
    assert_snapshot!(
        format!("{name}_200x60"),
        common::draw(app, snap, 200, 60).backend()
    );
    assert_snapshot!(
        format!("{name}_60x20"),
        common::draw(app, snap, 60, 20).backend()
    );
}

#[test]
fn nereus_crew_choice_ship_move_and_post_game_screens() {
    let mut session = session();
    let mut app = App::at_table(Theme::plain());
    let mut snap = settle(&mut session);
    app.observe(&snap);
    // Day 1 starts with the secret crew choice: the seat is asked, and
    // the screen shows the board, the crew rows and the cabin.
    assert_eq!(snap.view.game.phase, Phase::Choose);
    assert!(
        snap.legal.iter().all(|a| matches!(a, Action::Choose(_))),
        "{:?}",
        snap.legal
    );
    let wide = common::screen_text(&common::draw(&app, &snap, 200, 60));
    for part in [
        "Day 1 of 4",
        "Crew rows",
        "Your cabin",
        "captain",
        "storage",
    ] {
        assert!(wide.contains(part), "{part}: {wide}");
    }
    // Your science cards are named: the session reads your table's
    // knowledge.
    assert!(
        snap.view.my_science.iter().all(|(_, card)| card.is_some()),
        "{:?}",
        snap.view.my_science
    );
    shoot(&app, &snap, "nereus_choose");

    // Play on to a turn of this seat's with the ship to move.
    let mut guard = 0;
    while snap.live()
        && !(snap
            .legal
            .iter()
            .any(|a| matches!(a, Action::Move(p) if !p.is_empty()))
            && snap
                .view
                .game
                .turn
                .as_ref()
                .is_some_and(|t| t.stage == Stage::Crew))
    {
        guard += 1;
        assert!(guard < 10_000, "a move comes");
        play_one(&mut session, &snap);
        snap = settle(&mut session);
    }
    app.observe(&snap);
    let turn = common::screen_text(&common::draw(&app, &snap, 80, 24));
    assert!(turn.contains("Sail to "), "{turn}");
    // The log says who chose which crew once the choices are opened.
    assert!(
        snap.log
            .iter()
            .any(|l| l.text.starts_with("Crews chosen: ") && l.text.contains("you the ")),
        "{:?}",
        snap.log
    );
    shoot(&app, &snap, "nereus_move");
    // The ship's destination is chosen with the arrows among the legal
    // ones: right from the ship sails east one space at a time, down from
    // there goes on south, and the grid marks the choice.
    let ship = snap.view.game.ships[snap.me.unwrap_or(Seat(0)).index()];
    let selected = |app: &App| snap.legal[app.action_selected].clone();
    app.action_selected = 0;
    let first = selected(&app);
    app.update(Msg::Right, Some(&snap));
    let east = destination(&snap.view.game, &selected(&app));
    assert!(
        east.is_some_and(|to| to.row == ship.row && to.col > ship.col),
        "{first} then right: {:?} from {ship}",
        selected(&app)
    );
    app.update(Msg::Down, Some(&snap));
    let south = destination(&snap.view.game, &selected(&app));
    assert!(
        south.is_some_and(|to| east.is_some_and(|e| to.row > e.row)),
        "down from {east:?}: {:?}",
        selected(&app)
    );
    let marked = common::screen_text(&common::draw(&app, &snap, 80, 24));
    assert!(marked.contains('*'), "{marked}");
    assert_snapshot!(
        "nereus_move_chosen_80x24",
        common::draw(&app, &snap, 80, 24).backend()
    );
    // Enter sails there.
    let chosen = selected(&app);
    assert!(
        matches!(app.update(Msg::Confirm, Some(&snap)), Some(Effect::Submit(i)) if snap.legal[i] == chosen)
    );

    // To the end, and the shared post-game screen: ranking and VP chart.
    let mut guard = 0;
    while snap.live() {
        guard += 1;
        assert!(guard < 100_000, "the game ends");
        play_one(&mut session, &snap);
        snap = settle(&mut session);
    }
    app.observe(&snap);
    let over = common::screen_text(&common::draw(&app, &snap, 80, 24));
    assert!(over.contains("Game over"), "{over}");
    assert!(over.contains("hold"), "{over}");
    // The game-end scoring step by step: what holds and chest scored in
    // play, then each seat's storage sold and its gold turned into VP.
    assert!(over.contains("Game-end scoring"), "{over}");
    let wide = common::screen_text(&common::draw(&app, &snap, 200, 60));
    for part in ["holds ", "chest ", "Game end, You: storage", "gold make"] {
        assert!(wide.contains(part), "{part}: {wide}");
    }
    // A chart of the VP even where they are too many for a row each.
    assert!(wide.contains("Victory points over the turns ─"), "{wide}");
    assert!(
        snap.vp_by_turn.len() > 2,
        "the chart has a row per turn: {:?}",
        snap.vp_by_turn
    );
    assert_snapshot!(
        "nereus_post_game_80x24",
        common::draw(&app, &snap, 80, 24).backend()
    );
    assert_snapshot!(
        "nereus_post_game_200x60",
        common::draw(&app, &snap, 200, 60).backend()
    );
}

/// A ship on the board's east edge, its move not chosen yet ("Keep the
/// ship still" selected): the right arrow, with nothing east of the ship,
/// still starts the choice on the grid at a sailing move. It once did
/// nothing there, so a player whose ship starts in the east corner could
/// never sail by the arrows.
#[test]
fn a_side_arrow_from_a_ship_on_the_edge_starts_the_choice_on_the_grid() {
    let edge_turn = (1..40).find_map(|seed| {
        let config = LocalConfig {
            seats: 2,
            seed: Some(seed),
            pace: Pace::Instant,
            bot_levels: [Level::Normal; 4],
            ..LocalConfig::default()
        };
        let mut session = LocalSession::with_options(&config, &Options::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let mut snap = settle(&mut session);
        for _ in 0..2_000 {
            if !snap.live() {
                return None;
            }
            let g = &snap.view.game;
            let on_edge = snap
                .me
                .and_then(|me| g.ships.get(me.index()))
                .is_some_and(|ship| usize::from(ship.col) + 1 == usize::from(g.size));
            if on_edge
                && snap
                    .legal
                    .first()
                    .is_some_and(|a| matches!(a, Action::Move(p) if p.is_empty()))
                && snap
                    .legal
                    .iter()
                    .any(|a| matches!(a, Action::Move(p) if !p.is_empty()))
            {
                return Some(snap);
            }
            play_one(&mut session, &snap);
            snap = settle(&mut session);
        }
        None
    });
    let snap = edge_turn.expect("a seed of 1..40 puts the player's ship on the east edge");
    let mut app = App::at_table(Theme::default());
    app.observe(&snap);
    app.action_selected = 0;
    app.update(Msg::Right, Some(&snap));
    let chosen = &snap.legal[app.action_selected];
    assert!(
        matches!(chosen, Action::Move(p) if !p.is_empty()),
        "right from keeping still on the edge chose {chosen}"
    );
}

/// At 80x24 the board shows in pages: the page key turns from the grid to
/// the crew rows (what every space does) and to a cabin, and the cabin key
/// goes on to the next seat's, live and in the wide layout alike. The hint
/// bar names both keys.
#[test]
fn the_crew_rows_and_every_cabin_are_a_key_away() {
    let mut session = session();
    let mut app = App::at_table(Theme::plain());
    let snap = settle(&mut session);
    app.observe(&snap);
    let grid = common::screen_text(&common::draw(&app, &snap, 80, 24));
    assert!(
        grid.contains("v pages") && grid.contains("c cabins"),
        "{grid}"
    );
    app.update(Msg::Page, Some(&snap));
    let crews = common::screen_text(&common::draw(&app, &snap, 80, 24));
    for part in ["Crew rows", "captain", "explorer", "move 2", "6 gold"] {
        assert!(crews.contains(part), "{part}: {crews}");
    }
    assert_snapshot!(
        "nereus_crews_page_80x24",
        common::draw(&app, &snap, 80, 24).backend()
    );
    app.update(Msg::Page, Some(&snap));
    let own = common::screen_text(&common::draw(&app, &snap, 80, 24));
    assert!(own.contains("Your cabin"), "{own}");
    assert!(own.contains("storage"), "{own}");
    assert_snapshot!(
        "nereus_own_cabin_80x24",
        common::draw(&app, &snap, 80, 24).backend()
    );
    app.update(Msg::Cabin, Some(&snap));
    let other = common::screen_text(&common::draw(&app, &snap, 80, 24));
    assert!(other.contains("Cabin of 2"), "{other}");
    assert!(other.contains("(hidden)"), "{other}");
    assert_snapshot!(
        "nereus_other_cabin_80x24",
        common::draw(&app, &snap, 80, 24).backend()
    );
    // Where all of the board fits, the cabin key changes the cabin shown.
    let wide = common::screen_text(&common::draw(&app, &snap, 200, 60));
    assert!(wide.contains("Cabin of 2"), "{wide}");
    assert_snapshot!(
        "nereus_other_cabin_200x60",
        common::draw(&app, &snap, 200, 60).backend()
    );
    // Round the table and back to one's own.
    for _ in 0..3 {
        app.update(Msg::Cabin, Some(&snap));
    }
    let back = common::screen_text(&common::draw(&app, &snap, 80, 24));
    assert!(back.contains("Your cabin"), "{back}");
}

/// With a treasure in hand, its placements come first, wrapped whole (not
/// cut into identical lines), and ending the turn says the treasure is lost.
#[test]
fn a_treasure_in_hand_is_placed_first_and_ending_says_it_is_lost() {
    let mut session = session();
    let mut app = App::at_table(Theme::plain());
    let mut snap = settle(&mut session);
    let mut guard = 0;
    // Sail onto treasure, then close the crew's actions with it in hand.
    while snap.live()
        && !snap.view.game.turn.as_ref().is_some_and(|t| {
            Some(t.seat) == snap.me && !t.hand.is_empty() && t.stage == Stage::After
        })
    {
        guard += 1;
        assert!(guard < 100_000, "a treasure comes to hand");
        let g = &snap.view.game;
        let onto_treasure = snap.legal.iter().find(|a| {
            destination(g, a).is_some_and(|to| g.treasures_at(to).iter().sum::<u8>() > 0)
        });
        let holding = g.turn.as_ref().is_some_and(|t| !t.hand.is_empty());
        match onto_treasure {
            Some(action) => session
                .submit(action.clone())
                .unwrap_or_else(|e| panic!("{e}")),
            None if holding && snap.legal.contains(&Action::Done) => session
                .submit(Action::Done)
                .unwrap_or_else(|e| panic!("{e}")),
            None => play_one(&mut session, &snap),
        }
        snap = settle(&mut session);
    }
    app.observe(&snap);
    assert!(
        !matches!(snap.legal[0], Action::Done | Action::End),
        "{:?}",
        snap.legal
    );
    let text = common::screen_text(&common::draw(&app, &snap, 80, 24));
    assert!(text.contains("Put a"), "{text}");
    app.action_selected = snap
        .legal
        .iter()
        .position(|a| *a == Action::End)
        .unwrap_or(0);
    let text = common::screen_text(&common::draw(&app, &snap, 80, 24));
    assert!(text.contains("losing a"), "{text}");
    assert_snapshot!(
        "nereus_treasure_waits_80x24",
        common::draw(&app, &snap, 80, 24).backend()
    );
}

/// A seat that stops answering shows offline in its player line, with the
/// countdown to the moment the table plays it, as Port Royal's do; its
/// clock running low heads the moves.
#[test]
fn an_offline_seat_shows_with_its_countdown() {
    let mut session = session();
    let mut app = App::at_table(Theme::plain());
    let mut snap = settle(&mut session);
    app.observe(&snap);
    snap.stall_timeout = Some(std::time::Duration::from_secs(120));
    let bob = &mut snap.seats[1];
    bob.kind = roundtable_tui::SeatKind::Remote;
    bob.connection = roundtable_tui::Connection::Offline;
    bob.clock = Some(std::time::Duration::from_secs(25));
    let narrow = common::screen_text(&common::draw(&app, &snap, 80, 24));
    assert!(narrow.contains("offline 0:25"), "{narrow}");
    assert!(narrow.contains("0:25 left"), "{narrow}");
    assert_snapshot!(
        "nereus_offline_seat_80x24",
        common::draw(&app, &snap, 80, 24).backend()
    );
    assert_snapshot!(
        "nereus_offline_seat_200x60",
        common::draw(&app, &snap, 200, 60).backend()
    );
}
