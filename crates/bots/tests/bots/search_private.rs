//! The search bot in the games with private cards that have a heuristic
//! bot (Guildhall's hands; Nereus's science cards and its simultaneous crew
//! choices): it decides from its own seat's knowledge only, and it plays
//! whole games without an imagined continuation refused. Budgets are
//! playout counts, so every assertion replays.

use std::cell::RefCell;

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_bots::{Bot, Budget, GuildhallBot, NereusBot, SearchBot, Tuning};
use roundtable_engine::{Determinize, Game, Knowledge, Seat, sim};
use roundtable_guildhall::Guildhall;
use roundtable_nereus::Nereus;

/// A cheap search bot: heuristic playouts cut off after a few decisions.
fn searcher<G: Determinize, P: Bot<G>>(policy: P, playouts: u32, seed: u64) -> SearchBot<G, P> {
    SearchBot::new(Budget::playouts(playouts), policy, seed).with_tuning(Tuning {
        horizon: 8,
        ..Tuning::default()
    })
}

/// A position where a seat has a real choice: a 4-seat game played by
/// `heuristic` bots with chance from `seed`, at its `decision`-th such
/// choice. Returns the deciding seat, the state and every seat's knowledge
/// there, or `None` if the game ended first.
fn position<G: Game>(
    seed: u64,
    decision: usize,
    heuristic: fn() -> Box<dyn Bot<G>>,
) -> Option<(Seat, G, Vec<Knowledge>)>
where
    G::Options: Default,
{
    let mut game = G::new_game(4, &G::Options::default()).ok()?;
    let mut dealer = sim::OracleDealer::new(4);
    let mut chance = ChaCha20Rng::seed_from_u64(seed);
    let mut bots: Vec<Box<dyn Bot<G>>> = (0..4).map(|_| heuristic()).collect();
    // Every seat's knowledge after the last input, for the position.
    let latest = RefCell::new(vec![Knowledge::new(); 4]);
    let mut seen = 0;
    let mut found = None;
    let _ = sim::play_private(
        &mut game,
        &mut dealer,
        100_000,
        &mut |n| sim::uniform_below(n, &mut || chance.next_u64()),
        &mut |seat, state, knowledge, legal| {
            if legal.len() > 1 && found.is_none() {
                if seen == decision {
                    found = Some((seat, state.clone(), latest.borrow().clone()));
                }
                seen += 1;
            }
            bots[seat.index()].choose_in(seat, state, knowledge, legal)
        },
        &mut |_, dealer| {
            *latest.borrow_mut() = (0..4u8)
                .map(|s| dealer.knowledge(Seat(s)).clone())
                .collect();
        },
    );
    found
}

/// Everything `seat` cannot know, dealt differently: the cards other seats
/// know and `seat` does not, handed round among those handles.
fn others_dealt_differently(knowledge: &[Knowledge], seat: Seat, rotate: usize) -> Knowledge {
    let own = &knowledge[seat.index()];
    let mut hidden: Vec<_> = knowledge
        .iter()
        .flat_map(Knowledge::iter)
        .filter(|r| own.card(r.handle).is_none())
        .collect();
    hidden.sort_by_key(|r| r.handle);
    hidden.dedup_by_key(|r| r.handle);
    let mut out = own.clone();
    let cards: Vec<u32> = hidden.iter().map(|r| r.card).collect();
    for (i, r) in hidden.iter().enumerate() {
        out.learn(r.handle, cards[(i + rotate) % cards.len()]);
    }
    out
}

/// At several positions of seeded games, the search bot's decision is the
/// same from its own knowledge, from everything every seat knows, and from
/// everything with the other seats' cards dealt differently; and across the
/// positions it decides more than one way.
fn decisions_ignore_other_seats_cards<G: Determinize, P: Bot<G>>(
    heuristic: fn() -> Box<dyn Bot<G>>,
    policy: fn() -> P,
) where
    G::Options: Default,
{
    let mut compared = 0;
    let mut picks = std::collections::BTreeSet::new();
    for seed in 0..6u64 {
        let Some((seat, state, knowledge)) = position::<G>(seed, 3 + 4 * seed as usize, heuristic)
        else {
            continue;
        };
        let own = &knowledge[seat.index()];
        let everything = others_dealt_differently(&knowledge, seat, 0);
        let shuffled = others_dealt_differently(&knowledge, seat, 1);
        let mut legal = Vec::new();
        state.legal_actions_with(seat, own, &mut legal);
        let decide =
            |known: &Knowledge| searcher(policy(), 60, seed).choose_in(seat, &state, known, &legal);
        let pick = decide(own);
        assert_eq!(
            decide(&everything),
            pick,
            "seed {seed}: read the other seats' cards"
        );
        assert_eq!(
            decide(&shuffled),
            pick,
            "seed {seed}: the others' cards changed the decision"
        );
        picks.insert(pick);
        compared += 1;
    }
    assert!(compared >= 4, "only {compared} positions reached");
    assert!(picks.len() > 1, "the bot decided alike everywhere");
}

#[test]
fn guildhall_decisions_ignore_other_seats_cards() {
    decisions_ignore_other_seats_cards::<Guildhall, _>(
        || Box::new(GuildhallBot::new()),
        GuildhallBot::new,
    );
}

#[test]
fn nereus_decisions_ignore_other_seats_cards() {
    decisions_ignore_other_seats_cards::<Nereus, _>(|| Box::new(NereusBot::new()), NereusBot::new);
}

/// A whole 4-seat game with a search bot in seat `hero` and the heuristic
/// bot elsewhere: every imagined continuation is playable (none refused),
/// and the game ends.
fn plays_a_whole_game<G: Determinize, P: Bot<G>>(
    seed: u64,
    heuristic: fn() -> Box<dyn Bot<G>>,
    policy: P,
) where
    G::Options: Default,
{
    let hero = Seat((seed % 4) as u8);
    let mut game = G::new_game(4, &G::Options::default()).expect("4 seats");
    let mut dealer = sim::OracleDealer::new(4);
    let mut chance = ChaCha20Rng::seed_from_u64(seed);
    let mut search = searcher(policy, 12, seed);
    let mut bots: Vec<Box<dyn Bot<G>>> = (0..4).map(|_| heuristic()).collect();
    sim::play_private(
        &mut game,
        &mut dealer,
        1_000_000,
        &mut |n| sim::uniform_below(n, &mut || chance.next_u64()),
        &mut |seat, state, knowledge, legal| {
            if seat == hero {
                search.choose_in(seat, state, knowledge, legal)
            } else {
                bots[seat.index()].choose_in(seat, state, knowledge, legal)
            }
        },
        &mut |_, _| {},
    )
    .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    assert!(game.result().is_some(), "seed {seed}: no result");
    let stats = search.stats();
    assert!(stats.decisions > 0, "seed {seed}: nothing searched");
    assert_eq!(
        stats.failed, 0,
        "seed {seed}: imagined continuations refused"
    );
}

#[test]
fn guildhall_games_with_a_search_bot_end() {
    plays_a_whole_game::<Guildhall, _>(1, || Box::new(GuildhallBot::new()), GuildhallBot::new());
}

#[test]
fn nereus_games_with_a_search_bot_end() {
    plays_a_whole_game::<Nereus, _>(2, || Box::new(NereusBot::new()), NereusBot::new());
}

/// A budget smaller than a decision is wide leaves the decision to the
/// playout policy: with two playouts among many actions every tried action
/// has one visit, and the tie goes to the policy's choice, not to the
/// earliest action (which made a search at a few dozen playouts play worse
/// Guildhall than its own policy).
#[test]
fn a_budget_too_small_for_a_wide_decision_follows_the_policy() {
    let mut compared = 0;
    for seed in 0..8u64 {
        for decision in [2, 9, 17] {
            let Some((seat, state, knowledge)) =
                position::<Guildhall>(seed, decision, || Box::new(GuildhallBot::new()))
            else {
                continue;
            };
            let own = &knowledge[seat.index()];
            let mut legal = Vec::new();
            state.legal_actions_with(seat, own, &mut legal);
            if legal.len() < 4 {
                continue;
            }
            let policy = GuildhallBot::new().choose_in(seat, &state, own, &legal);
            let searched =
                searcher(GuildhallBot::new(), 2, seed).choose_in(seat, &state, own, &legal);
            assert_eq!(
                legal[searched],
                legal[policy],
                "seed {seed}, decision {decision}: {} actions",
                legal.len()
            );
            compared += 1;
        }
    }
    assert!(compared >= 5, "only {compared} wide decisions reached");
}
