//! The search bot decides from its seat's knowledge only, plays only legal
//! actions and keeps to its playout budget. Budgets here are playout counts,
//! never time, so every assertion is exact and replays.

use proptest::prelude::*;
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_bots::{Bot, Budget, PortRoyalBot, RandomBot, SearchBot};
use roundtable_engine::{Game, Knowledge, Next, PrivateRequest, Seat, sim};
use roundtable_hands::Hands;
use roundtable_port_royal::{Options, PortRoyal};

/// A search bot with random playouts: cheap, and enough to tell positions
/// apart.
fn searcher<G: roundtable_engine::Determinize>(
    playouts: u32,
    seed: u64,
) -> SearchBot<G, RandomBot> {
    SearchBot::new(Budget::playouts(playouts), RandomBot::new(seed), seed)
}

/// Play Port Royal with chance from `chance_seed` and random decisions
/// from `decision_seed` until the `decisions`-th decision with a real
/// choice; returns the state there (or `None` if the game ended first).
pub(crate) fn port_royal_position(
    chance_seed: u64,
    decision_seed: u64,
    decisions: usize,
) -> Option<PortRoyal> {
    let mut game = PortRoyal::new_game(4, &Options::default()).ok()?;
    let mut chance = ChaCha20Rng::seed_from_u64(chance_seed);
    let mut choices = ChaCha20Rng::seed_from_u64(decision_seed);
    let mut seen = 0;
    let mut events = Vec::new();
    loop {
        events.clear();
        match game.next() {
            Next::Over | Next::Simultaneous(_) | Next::Private(_) => return None,
            Next::Chance(request) => {
                let outcome = sim::sample(&request.distribution, &mut |n| {
                    sim::uniform_below(n, &mut || chance.next_u64())
                });
                game.apply_chance(&outcome, &mut events).ok()?;
            }
            Next::Decision(seat) => {
                let legal = game.legal_actions_vec(seat);
                if legal.len() > 1 {
                    if seen == decisions {
                        return Some(game);
                    }
                    seen += 1;
                }
                let pick = (choices.next_u64() % legal.len() as u64) as usize;
                game.apply_action(seat, &legal[pick], &mut events).ok()?;
            }
        }
    }
}

pub(crate) fn decider<G: Game>(game: &G) -> Seat {
    match game.next() {
        Next::Decision(seat) => seat,
        other => panic!("no decision pending: {other:?}"),
    }
}

/// Port Royal's state holds no order of the unseen cards (what comes next
/// is a chance request answered after the decision), so there is nothing
/// hidden for the bot to read there: the test that it reads nothing hidden
/// is Hands', below. Here: its decisions follow the position, not a fixed
/// preference.
#[test]
fn port_royal_decisions_depend_on_the_position() {
    let mut distinct_picks = std::collections::BTreeSet::new();
    for position in 0..6u64 {
        let Some(state) = port_royal_position(40 + position, 7, 10 + position as usize) else {
            continue;
        };
        let seat = decider(&state);
        let legal = state.legal_actions_vec(seat);
        let mut bot = searcher::<PortRoyal>(200, 99);
        let pick = bot.choose_in(seat, &state, &Knowledge::new(), &legal);
        distinct_picks.insert(format!("{:?}", legal[pick]));
    }
    assert!(
        distinct_picks.len() > 1,
        "the bot did not decide anything position-dependent"
    );
}

/// Deal a 4-seat game of Hands from `order` (slot 0 first) up to the
/// first decision (seat 1's, holding slots 0 to 2); returns the state and
/// every seat's knowledge.
fn hands_deal(order: &[u32]) -> (Hands, Vec<Knowledge>) {
    let mut game = Hands::new_game(4, &Default::default()).expect("4 seats");
    let mut dealer = sim::OracleDealer::new(4);
    dealer.stack_next(order.to_vec());
    let mut events = Vec::new();
    loop {
        match game.next() {
            Next::Private(PrivateRequest::Reshuffle { pile, epoch }) => {
                dealer
                    .reshuffle(pile, epoch, &mut |_| 0)
                    .expect("stacked order");
                game.apply_reshuffle(&mut events).expect("reshuffle");
            }
            Next::Private(PrivateRequest::Deal { to, first, count }) => {
                dealer.deal(to, first, count).expect("deal");
                game.apply_deal(&mut events).expect("deal");
            }
            Next::Decision(_) => break,
            other => panic!("unexpected request before the first turn: {other:?}"),
        }
    }
    let knowledge = (0..4u8)
        .map(|s| dealer.knowledge(Seat(s)).clone())
        .collect();
    (game, knowledge)
}

/// A uniformly shuffled order of `cards` from `seed`.
fn shuffled(mut cards: Vec<u32>, seed: u64) -> Vec<u32> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    for i in (1..cards.len()).rev() {
        let j = sim::uniform_below(i as u64 + 1, &mut || rng.next_u64()) as usize;
        cards.swap(i, j);
    }
    cards
}

#[test]
fn hands_decisions_do_not_depend_on_the_other_hands() {
    let mut distinct_picks = std::collections::BTreeSet::new();
    for deal in 0..8u64 {
        // The same hand for seat 1 (slots 0 to 2); everything else (the
        // other three hands, the deck) dealt differently.
        let first = shuffled((0..24).collect(), deal);
        let (own, rest) = first.split_at(3);
        let mut second = own.to_vec();
        second.extend(shuffled(rest.to_vec(), 1000 + deal));
        assert_ne!(first, second);
        let (state_a, knowledge_a) = hands_deal(&first);
        let (state_b, knowledge_b) = hands_deal(&second);
        assert_eq!(state_a, state_b, "the shared state holds handles only");
        let seat = decider(&state_a);
        assert_eq!(knowledge_a[seat.index()], knowledge_b[seat.index()]);
        assert_ne!(knowledge_a[1], knowledge_b[1], "the other hands differ");
        let mut legal = Vec::new();
        state_a.legal_actions_with(seat, &knowledge_a[seat.index()], &mut legal);
        let decide = |state: &Hands, knowledge: &Knowledge| {
            searcher::<Hands>(300, 5).choose_in(seat, state, knowledge, &legal)
        };
        let pick_a = decide(&state_a, &knowledge_a[seat.index()]);
        let pick_b = decide(&state_b, &knowledge_b[seat.index()]);
        assert_eq!(
            pick_a, pick_b,
            "deal {deal}: the other hands changed the decision"
        );
        // Even told every seat's cards, the bot reads only its own seat's.
        let mut everything = Knowledge::new();
        for known in &knowledge_a {
            for card in known.iter() {
                everything.learn(card.handle, card.card);
            }
        }
        assert_eq!(
            decide(&state_a, &everything),
            pick_a,
            "deal {deal}: read another seat's cards"
        );
        distinct_picks.insert(legal[pick_a].to_string());
    }
    assert!(
        distinct_picks.len() > 1,
        "the bot did not decide anything hand-dependent"
    );
}

#[test]
fn a_playout_budget_is_kept_exactly() {
    let state = port_royal_position(3, 4, 5).expect("a position 5 choices in");
    let seat = decider(&state);
    let legal = state.legal_actions_vec(seat);
    let mut bot = searcher::<PortRoyal>(37, 1);
    bot.choose_in(seat, &state, &Knowledge::new(), &legal);
    assert_eq!(bot.stats().last_playouts, 37);
    bot.choose_in(seat, &state, &Knowledge::new(), &legal);
    assert_eq!(bot.stats().playouts, 74);
    assert_eq!(bot.stats().decisions, 2);
    assert_eq!(bot.stats().failed, 0);
    // A budget of nothing still makes one playout, so the bot can answer.
    let mut least = searcher::<PortRoyal>(0, 1);
    let pick = least.choose_in(seat, &state, &Knowledge::new(), &legal);
    assert!(pick < legal.len());
    assert_eq!(least.stats().last_playouts, 1);
}

#[test]
fn the_same_seed_replays_the_same_decisions() {
    let state = port_royal_position(8, 9, 12).expect("a position 12 choices in");
    let seat = decider(&state);
    let legal = state.legal_actions_vec(seat);
    let picks = |seed: u64| -> Vec<usize> {
        let mut bot = SearchBot::new(Budget::playouts(60), PortRoyalBot::default(), seed);
        (0..5)
            .map(|_| bot.choose_in(seat, &state, &Knowledge::new(), &legal))
            .collect()
    };
    assert_eq!(picks(11), picks(11));
}

/// Play a whole game of Hands with search bots in every seat, checking
/// each pick against the legal actions it was chosen from.
fn hands_game_with_search_bots(deck_seed: u64, bot_seed: u64, seats: u8) -> Result<(), String> {
    let mut game = Hands::new_game(seats, &Default::default()).map_err(|e| e.to_string())?;
    let mut dealer = sim::OracleDealer::new(seats);
    let mut chance = ChaCha20Rng::seed_from_u64(deck_seed);
    let mut bots: Vec<SearchBot<Hands, RandomBot>> = (0..u64::from(seats))
        .map(|s| searcher(24, bot_seed * 8 + s))
        .collect();
    let mut out_of_range = None;
    sim::play_private(
        &mut game,
        &mut dealer,
        10_000,
        &mut |n| sim::uniform_below(n, &mut || chance.next_u64()),
        &mut |seat, state, knowledge, legal| {
            let pick = bots[seat.index()].choose_in(seat, state, knowledge, legal);
            if pick >= legal.len() {
                out_of_range = Some((pick, legal.len()));
            }
            pick
        },
        &mut |_, _| {},
    )
    .map_err(|e| e.to_string())?;
    if let Some((pick, len)) = out_of_range {
        return Err(format!("picked index {pick} of {len} legal actions"));
    }
    if game.result().is_none() {
        return Err("the game did not end".into());
    }
    let failed: u64 = bots.iter().map(|b| b.stats().failed).sum();
    if failed > 0 {
        return Err(format!("{failed} imagined continuations were refused"));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn port_royal_picks_are_legal(chance in 0u64..1_000, choices in 0u64..1_000, depth in 0usize..60) {
        if let Some(state) = port_royal_position(chance, choices, depth) {
            let seat = decider(&state);
            let legal = state.legal_actions_vec(seat);
            let mut bot = searcher::<PortRoyal>(30, chance ^ choices);
            let pick = bot.choose_in(seat, &state, &Knowledge::new(), &legal);
            prop_assert!(pick < legal.len());
            let mut after = state.clone();
            prop_assert!(after.apply_action(seat, &legal[pick], &mut Vec::new()).is_ok());
            prop_assert_eq!(bot.stats().failed, 0);
        }
    }

    #[test]
    fn hands_games_between_search_bots_stay_legal(deck in 0u64..1_000, bots in 0u64..1_000, seats in 2u8..=4) {
        prop_assert_eq!(hands_game_with_search_bots(deck, bots, seats), Ok(()));
    }
}
