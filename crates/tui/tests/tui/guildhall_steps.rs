//! Guildhall's moves chosen step by step through the app, as a player's
//! keys choose them: a Weaver at level 2 is picked as a card, then a level
//! (each with what it does), then its two placements and the card taken
//! back, each step drawn at every size; Esc takes a pick back.

use crate::common;

use std::time::Instant;

use insta::assert_snapshot;
use roundtable_bots::Level;
use roundtable_engine::Seat;
use roundtable_games::Listed;
use roundtable_guildhall::{Action, Card, Guildhall, Options, Pending, Profession};
use roundtable_tui::games::steps;
use roundtable_tui::keymap::Msg;
use roundtable_tui::{
    App, Effect, GameScreen, LocalConfig, LocalSession, Pace, Session, Snapshot, Theme,
};

/// The seed of a two-seat game against easy bots in which the player, played
/// by its own easy bot, may play a Weaver at level 2 in round 2 (of seeds 1
/// to 80, the earliest).
// The bots' names are in the genesis, so they steer the deal: with
// Guildhall's own bot names and the Weaver's twin swap (a placement may now
// go over its twin), seed 38 reaches what these tests need (a Weaver at
// level 2 as the turn's first action, a VP card to buy).
const SEED: u64 = 38;

fn session(seed: u64) -> LocalSession<Guildhall> {
    let config = LocalConfig {
        seats: 2,
        seed: Some(seed),
        pace: Pace::Instant,
        bot_levels: [Level::Easy; 4],
        ..LocalConfig::default()
    };
    LocalSession::with_options(&config, &Options::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// Let the bots move until it is this seat's decision or the game is over.
fn settle(session: &mut LocalSession<Guildhall>) -> Snapshot<Guildhall> {
    let mut waits = 0;
    loop {
        session.poll(Instant::now());
        let snap = session.snapshot();
        if !snap.live() || !snap.legal.is_empty() {
            return snap;
        }
        waits += 1;
        assert!(waits < 1000, "the bots move: {:?}", snap.status);
    }
}

fn is_weaver_level_2(action: &Action) -> bool {
    matches!(action, Action::Play { card, level: Some(2), .. }
        if Card::from_index(*card).is_some_and(|c| c.profession == Profession::Weaver))
}

/// Play the seat with its own easy bot until one of its legal actions is
/// `wanted`; `None` if the game ends first.
fn play_until(
    seed: u64,
    wanted: impl Fn(&Action) -> bool,
) -> Option<(LocalSession<Guildhall>, Snapshot<Guildhall>)> {
    let mut session = session(seed);
    let mut snap = settle(&mut session);
    let mut step = 0;
    while snap.live() {
        if snap.legal.iter().any(&wanted) {
            return Some((session, snap));
        }
        let me = snap.me.unwrap_or(Seat(0));
        let mut bot = Guildhall::bot(Level::Easy, &Options::default(), Default::default(), step);
        let action = snap.legal[bot.choose(me, &snap.view, &snap.legal)];
        session
            .submit(action)
            .unwrap_or_else(|e| panic!("{action}: {e}"));
        step += 1;
        snap = settle(&mut session);
    }
    None
}

/// Play until the seat may play a Weaver at level 2.
fn to_weaver_level_2(seed: u64) -> Option<(LocalSession<Guildhall>, Snapshot<Guildhall>)> {
    play_until(seed, is_weaver_level_2)
}

/// The sizes every step is drawn at: wide, the classic terminal, narrow.
const SIZES: [(u16, u16); 3] = [(200, 60), (80, 24), (60, 20)];

/// Draw the step at every size, as `name`, and return the 80x24 text.
fn snapshot_sizes(app: &App, snap: &Snapshot<Guildhall>, name: &str) -> String {
    for (w, h) in SIZES {
        assert_snapshot!(
            format!("{name}_{w}x{h}"),
            common::draw(app, snap, w, h).backend()
        );
    }
    common::screen_text(&common::draw(app, snap, 80, 24))
}

/// The choices of the step the app shows, in words.
fn answers(app: &App, snap: &Snapshot<Guildhall>) -> Vec<String> {
    steps::step(snap, &app.choice)
        .options
        .into_iter()
        .map(|o| o.answer)
        .collect()
}

/// Press Down until the choice `wanted` picks out is selected.
fn select(app: &mut App, snap: &Snapshot<Guildhall>, wanted: impl Fn(&str) -> bool) {
    let all = answers(app, snap);
    let at = all
        .iter()
        .position(|a| wanted(a))
        .unwrap_or_else(|| panic!("no such choice among {all:?}"));
    while app.action_selected < at {
        assert_eq!(app.update(Msg::Down, Some(snap)), None);
    }
}

/// Press Enter on the last pick of a move and play the action it submits.
fn play_selected(
    app: &mut App,
    session: &mut LocalSession<Guildhall>,
    snap: &Snapshot<Guildhall>,
) -> (Action, Snapshot<Guildhall>) {
    let Some(Effect::Submit(i)) = app.update(Msg::Confirm, Some(snap)) else {
        panic!("Enter did not play a move: {:?}", app.choice);
    };
    let action = snap.legal[i];
    session
        .submit(action)
        .unwrap_or_else(|e| panic!("{action}: {e}"));
    let next = settle(session);
    app.observe(&next);
    (action, next)
}

#[test]
fn a_weaver_at_level_2_is_chosen_card_level_then_each_placement_and_return() {
    let (mut session, snap) = to_weaver_level_2(SEED).unwrap_or_else(|| panic!("seed {SEED}"));
    let mut app = App::at_table(Theme::plain());
    app.observe(&snap);
    let Some(weaver) = snap.legal.iter().copied().find(is_weaver_level_2) else {
        unreachable!("to_weaver_level_2 stops at such a move")
    };
    let card = Guildhall::picks(&snap, &weaver)[0].answer.clone();

    // First the action: each hand card once, not once per level.
    select(&mut app, &snap, |a| a == card);
    let shown = snapshot_sizes(&app, &snap, "weaver_1_action");
    assert!(shown.contains("Your action (2 left)"), "{shown}");
    assert_eq!(
        shown.matches(&card).count(),
        1,
        "one line for the card:\n{shown}"
    );

    // Then the level, each with what it does, level 2 selected.
    assert_eq!(app.update(Msg::Confirm, Some(&snap)), None);
    assert_eq!(app.choice, vec![card.clone()]);
    select(&mut app, &snap, |a| a.starts_with("level 2:"));
    let shown = snapshot_sizes(&app, &snap, "weaver_2_level");
    for expected in [
        "use which level?",
        "no ability",
        "level 0: place 1 card from your hand",
        "level 2: place 2 cards from your hand into your guildhall,",
        "guildhall card back to your hand",
        "Esc: back a step",
    ] {
        assert!(shown.contains(expected), "no {expected:?}:\n{shown}");
    }
    let (played, snap) = play_selected(&mut app, &mut session, &snap);
    assert_eq!(played, weaver);
    assert!(
        app.choice.is_empty(),
        "a played move starts the next afresh"
    );

    // The level's steps, as the engine asks for them: two placements...
    assert_eq!(
        snap.view.pending,
        Some(Pending::Place {
            left: Some(2),
            then_return: 1
        })
    );
    let shown = snapshot_sizes(&app, &snap, "weaver_3_place_two");
    assert!(
        shown.contains("place 2 more cards from your hand into your guildhall")
            && shown.contains("take 1 card back to your hand")
            && shown.contains("Give the level up"),
        "{shown}"
    );
    select(&mut app, &snap, |a| a.starts_with("Place "));
    let (_, snap) = play_selected(&mut app, &mut session, &snap);
    assert_eq!(
        snap.view.pending,
        Some(Pending::Place {
            left: Some(1),
            then_return: 1
        })
    );
    let shown = snapshot_sizes(&app, &snap, "weaver_4_place_one");
    assert!(
        shown.contains("place 1 more card from your hand"),
        "{shown}"
    );
    select(&mut app, &snap, |a| a.starts_with("Place "));
    let (_, snap) = play_selected(&mut app, &mut session, &snap);

    // ...then one guildhall card back to the hand.
    assert_eq!(snap.view.pending, Some(Pending::Return { left: 1 }));
    let shown = snapshot_sizes(&app, &snap, "weaver_5_return");
    assert!(
        shown.contains("take 1 card of your guildhall back to your hand"),
        "{shown}"
    );
    let (taken, snap) = play_selected(&mut app, &mut session, &snap);
    assert!(matches!(taken, Action::Return { .. }), "{taken}");
    assert_eq!(snap.view.pending, None);
}

#[test]
fn esc_takes_the_last_pick_back_and_nothing_is_played() {
    let (_session, snap) = to_weaver_level_2(SEED).unwrap_or_else(|| panic!("seed {SEED}"));
    let mut app = App::at_table(Theme::plain());
    app.observe(&snap);
    let Some(weaver) = snap.legal.iter().copied().find(is_weaver_level_2) else {
        unreachable!("to_weaver_level_2 stops at such a move")
    };
    let card = Guildhall::picks(&snap, &weaver)[0].answer.clone();
    let top = answers(&app, &snap);
    select(&mut app, &snap, |a| a == card);
    let at = app.action_selected;
    assert!(at > 0, "the test moves the selection: {top:?}");

    assert_eq!(app.update(Msg::Confirm, Some(&snap)), None);
    assert_eq!(app.action_selected, 0, "the level step starts at its top");
    // Only this card's levels, every one a move the engine listed.
    let levels = steps::step(&snap, &app.choice);
    assert!(levels.options.len() >= 3, "{levels:?}");
    for option in &levels.options {
        let Some(i) = option.action else {
            panic!("a level is the last pick: {option:?}")
        };
        assert!(
            matches!(snap.legal[i], Action::Play { card, .. } if card == weaver_card(&weaver)),
            "{}",
            snap.legal[i]
        );
    }
    assert_eq!(app.update(Msg::Down, Some(&snap)), None);

    // Esc: back to the actions, the card taken back selected again.
    assert_eq!(app.update(Msg::Back, Some(&snap)), None);
    assert!(app.choice.is_empty());
    assert_eq!(app.action_selected, at);
    assert_eq!(answers(&app, &snap), top);
    // Nothing left to take back: Esc again changes nothing.
    assert_eq!(app.update(Msg::Back, Some(&snap)), None);
    assert_eq!(app.action_selected, at);
    assert!(app.choice.is_empty());
}

fn weaver_card(action: &Action) -> u32 {
    match action {
        Action::Play { card, .. } => *card,
        _ => u32::MAX,
    }
}

#[test]
fn a_vp_card_is_bought_card_then_each_chapter_paid_and_its_top_then_its_ability() {
    let is_buy = |a: &Action| matches!(a, Action::Buy { .. });
    let (mut session, snap) = play_until(SEED, is_buy).unwrap_or_else(|| panic!("seed {SEED}"));
    let mut app = App::at_table(Theme::plain());
    app.observe(&snap);

    // The action, then which VP card, each with its price and ability.
    select(&mut app, &snap, |a| a == "Buy a VP card");
    assert_eq!(app.update(Msg::Confirm, Some(&snap)), None);
    select(&mut app, &snap, |a| a.starts_with("the 2:"));
    let shown = snapshot_sizes(&app, &snap, "buy_1_vp_card");
    for expected in [
        "Buy which VP card?",
        "the 2: 2 VP for 1 completed chapter; move an incomplete",
        "Chosen: Buy a VP card",
    ] {
        assert!(shown.contains(expected), "no {expected:?}:\n{shown}");
    }
    let (bought, snap) = play_selected(&mut app, &mut session, &snap);
    assert!(matches!(bought, Action::Buy { .. }), "{bought}");

    // Paying: which completed chapter, then which of its cards goes on top.
    assert!(
        matches!(snap.view.pending, Some(Pending::Pay { left: 1, .. })),
        "{:?}",
        snap.view.pending
    );
    let shown = snapshot_sizes(&app, &snap, "buy_2_chapter");
    assert!(
        shown.contains("Pay for the 2 with 1 completed chapter. Which chapter?")
            && shown.contains("then pick the top card"),
        "{shown}"
    );
    assert_eq!(app.update(Msg::Confirm, Some(&snap)), None);
    let shown = snapshot_sizes(&app, &snap, "buy_3_top_card");
    assert!(
        shown.contains("goes on top of the discard pile") && shown.contains("red on top"),
        "{shown}"
    );
    // Then each card under it, from the top down; the fifth is what is left.
    for place in ["2nd", "3rd"] {
        assert_eq!(app.update(Msg::Confirm, Some(&snap)), None);
        let shown = common::screen_text(&common::draw(&app, &snap, 80, 24));
        assert!(
            shown.contains(&format!("(the {place} from the top)")),
            "{shown}"
        );
    }
    assert_eq!(app.update(Msg::Confirm, Some(&snap)), None);
    let (paid, snap) = play_selected(&mut app, &mut session, &snap);
    assert!(matches!(paid, Action::Pay { order: Some(_), .. }), "{paid}");

    // The card's ability: used step by step, or skipped.
    assert!(
        matches!(snap.view.pending, Some(Pending::VpAbility(_))),
        "{:?}",
        snap.view.pending
    );
    let shown = snapshot_sizes(&app, &snap, "buy_4_ability");
    assert!(
        shown.contains("The 2 bought: move an incomplete chapter") && shown.contains("Skip it"),
        "{shown}"
    );

    // Its targets one by one: whose guildhall, then which chapter.
    select(&mut app, &snap, |a| a == "Move a chapter");
    assert_eq!(app.update(Msg::Confirm, Some(&snap)), None);
    let shown = snapshot_sizes(&app, &snap, "buy_5_whose_chapter");
    assert!(
        shown.contains("Move a chapter of whose guildhall?")
            && shown.contains("then pick their chapter"),
        "{shown}"
    );
    assert_eq!(app.update(Msg::Confirm, Some(&snap)), None);
    let choices = answers(&app, &snap);
    assert!(!choices.is_empty() && app.choice.len() == 2, "{choices:?}");
    let Some(Effect::Submit(i)) = app.update(Msg::Confirm, Some(&snap)) else {
        panic!("the chapter is the last pick")
    };
    assert!(
        matches!(snap.legal[i], Action::MoveChapter { .. }),
        "{}",
        snap.legal[i]
    );
}

/// Every legal action of every decision of a whole game is reached by
/// walking the steps, and every walk ends at a legal action: each choice
/// is one the engine accepts, and none is out of reach (two copies of a
/// card in the hand are one choice, so actions count as reached by what
/// they do).
#[test]
fn every_legal_move_of_a_game_is_reached_step_by_step() {
    let mut session = session(SEED);
    let mut snap = settle(&mut session);
    let mut decisions = 0;
    let mut longest = 0;
    while snap.live() {
        let me = snap.me.unwrap_or(Seat(0));
        let names = snap.names();
        let words = |a: &Action| {
            Guildhall::event_line(
                &roundtable_guildhall::Event::Acted {
                    seat: me,
                    action: *a,
                },
                &names,
                Some(me),
            )
            .unwrap_or_default()
        };
        let mut reached = std::collections::BTreeSet::new();
        let mut open = vec![Vec::<String>::new()];
        while let Some(chosen) = open.pop() {
            let step = steps::step(&snap, &chosen);
            assert!(!step.options.is_empty(), "a dead end after {chosen:?}");
            assert!(step.question.is_some(), "no question after {chosen:?}");
            longest = longest.max(chosen.len() + 1);
            for option in step.options {
                match option.action {
                    Some(i) => {
                        reached.insert(words(&snap.legal[i]));
                    }
                    None => {
                        let mut next = chosen.clone();
                        next.push(option.answer);
                        open.push(next);
                    }
                }
            }
        }
        let legal: std::collections::BTreeSet<String> = snap.legal.iter().map(words).collect();
        assert_eq!(reached, legal);
        decisions += 1;
        let mut bot = Guildhall::bot(Level::Easy, &Options::default(), Default::default(), 7);
        let action = snap.legal[bot.choose(me, &snap.view, &snap.legal)];
        session
            .submit(action)
            .unwrap_or_else(|e| panic!("{action}: {e}"));
        snap = settle(&mut session);
    }
    assert!(decisions > 50, "a whole game: {decisions} decisions");
    assert!(
        longest >= 3,
        "some moves take three picks or more: {longest}"
    );
}
