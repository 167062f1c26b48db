//! The list of legal actions is exactly what the rules accept. The list
//! is built by fast paths of its own (a crew step asked of the rules'
//! checks instead of tried on a copy of the state, ship paths grown a step
//! at a time and cut where no longer path can be allowed, boatswain moves
//! checked with the piece lifted in place), so it is held against the
//! plainest definition: of every well-formed action a seat could name at
//! that moment, those that the checked path applies, to a copy of the
//! state, are the ones listed, in the list's order. A stale check would
//! hide an allowed action from every bot and screen, or offer a refused one.
//! Every refused action must leave the state as it was.
//!
//! Games are random with `proptest`'s seeds (`PROPTEST_RNG_SEED`); cases
//! from `NEREUS_LIST_CASES` (default 6).

use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_engine::{Game, Knowledge, Next, PrivateRequest, Seat, sim};
use roundtable_nereus::{Action, Aim, Cell, Colour, Crew, Dir, Half, Nereus, Options, Slot, data};

fn cases() -> u32 {
    std::env::var("NEREUS_LIST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6)
}

/// Every cabin space, and the first space past each hold's end and past
/// the storage (refused).
fn slots() -> Vec<Slot> {
    let mut slots: Vec<Slot> = Crew::ALL
        .into_iter()
        .flat_map(|crew| {
            (0..=data::HOLDS[crew.index()].icons.len() as u8).map(move |i| Slot::Hold(crew, i))
        })
        .collect();
    slots.extend(Colour::ALL.map(Slot::Chest));
    slots.extend((0..7).map(Slot::Store));
    slots
}

/// Every path of up to `len` steps from `dirs`.
fn paths(dirs: &[Dir], len: usize) -> Vec<Vec<Dir>> {
    let mut all = vec![Vec::new()];
    let mut frontier = vec![Vec::new()];
    for _ in 0..len {
        let grown: Vec<Vec<Dir>> = frontier
            .iter()
            .flat_map(|p: &Vec<Dir>| {
                dirs.iter().map(move |&d| {
                    let mut q = p.clone();
                    q.push(d);
                    q
                })
            })
            .collect();
        all.extend(grown.iter().cloned());
        frontier = grown;
    }
    all
}

/// Every well-formed action `seat` could name now: every step of every
/// kind, every cabin space, every ship path up to the captain's longest
/// line and the pilot's longest path (and every 3-step path in any
/// direction), every science card the seat holds with every aim.
fn every_action(game: &Nereus, seat: Seat, knowledge: &Knowledge) -> Vec<Action> {
    let mut all = vec![
        Action::Done,
        Action::End,
        Action::Decline,
        Action::Finish,
        Action::Enhanced,
        Action::SellGem,
    ];
    for half in [Half::Plain, Half::Power, Half::Draw] {
        all.extend([Action::Basic(half), Action::Gold(half)]);
    }
    all.extend((0..5).map(Action::Place));
    for crew in Crew::ALL {
        all.extend([Action::Explore(crew), Action::Choose(crew)]);
    }
    let slots = slots();
    for colour in Colour::ALL {
        all.push(Action::Trade(colour));
        all.extend(slots.iter().map(|&s| Action::Stow(colour, s)));
        all.extend(Dir::all().map(|d| Action::Pick(d, colour)));
    }
    for &from in &slots {
        all.extend([Action::Gem(from), Action::Sell(from)]);
        all.extend(slots.iter().map(|&to| Action::Shift(from, to)));
    }
    let every_dir: Vec<Dir> = Dir::all().collect();
    let orthogonal = [Dir(0), Dir(2), Dir(4), Dir(6)];
    let mut moves = paths(&every_dir, 3);
    moves.extend(paths(&orthogonal, 4).into_iter().filter(|p| p.len() > 3));
    for d in Dir::all() {
        moves.extend((4..=8).map(|len| vec![d; len]));
    }
    all.extend(moves.into_iter().map(Action::Move));
    let cells: Vec<Cell> = (0..game.size)
        .flat_map(|row| (0..game.size).map(move |col| Cell { row, col }))
        .collect();
    for &handle in &game.science[seat.index()] {
        let Some(card) = knowledge.card(handle) else {
            continue;
        };
        all.push(Action::Discard(handle, card));
        all.push(Action::Play(handle, card, Aim::None));
        all.extend(Dir::all().map(|d| Action::Play(handle, card, Aim::Hop(d))));
        for &cell in &cells {
            for colour in Colour::ALL {
                all.push(Action::Play(handle, card, Aim::Pick(cell, colour)));
            }
        }
    }
    all
}

/// Whether the checked path applies `action` of `seat` to a copy of
/// `game`. A refused action leaves the copy as it was, and records
/// nothing: the checked path applies in place, without a copy of its own.
fn accepted(game: &Nereus, seat: Seat, action: &Action, dealer: &sim::OracleDealer) -> bool {
    let handles: Vec<_> = Nereus::claims(action).iter().map(|c| c.handle).collect();
    let Ok(revealed) = dealer.reveal(&handles) else {
        return false;
    };
    let mut copy = game.clone();
    let mut events = Vec::new();
    let applied = copy
        .apply_action_revealing(seat, action, &revealed, &mut events)
        .is_ok();
    if !applied {
        assert!(copy == *game, "refused {action} changed the state");
        assert!(events.is_empty(), "refused {action} recorded {events:?}");
    }
    applied
}

/// The list `legal` of `seat` is every accepted action, in the list's
/// order: sorted, with closing the crew's actions and ending the turn last
/// while a treasure waits in hand.
fn lists_exactly_the_accepted(
    game: &Nereus,
    seat: Seat,
    legal: &[Action],
    dealer: &sim::OracleDealer,
    context: &str,
) {
    let knowledge = dealer.knowledge(seat);
    let mut expected: Vec<Action> = every_action(game, seat, knowledge)
        .into_iter()
        .filter(|a| accepted(game, seat, a, dealer))
        .collect();
    expected.sort();
    expected.dedup();
    if game.turn.as_ref().is_some_and(|t| !t.hand.is_empty()) {
        let closing = |a: &Action| matches!(a, Action::Done | Action::End);
        let (last, first): (Vec<Action>, Vec<Action>) = expected.into_iter().partition(closing);
        expected = first;
        expected.extend(last);
    }
    let missing: Vec<String> = expected
        .iter()
        .filter(|a| !legal.contains(a))
        .map(ToString::to_string)
        .collect();
    let extra: Vec<String> = legal
        .iter()
        .filter(|a| !expected.contains(a))
        .map(ToString::to_string)
        .collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{context}: accepted but not listed {missing:?}; listed but refused {extra:?}"
    );
    assert_eq!(legal, &expected[..], "{context}: the list's order");
}

/// Play a random game, checking every seat's list at every decision.
fn every_list_is_exact(seats: u8, neutral_ship: bool, seed: u64) {
    let mut game = Nereus::new_game(seats, &Options { neutral_ship }).expect("valid set-up");
    let mut dealer = sim::OracleDealer::new(seats);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut legal = Vec::new();
    for input in 0.. {
        assert!(input < 100_000, "seed {seed}: the game does not end");
        let context = format!("seats {seats}, neutral {neutral_ship}, seed {seed}, input {input}");
        match game.next() {
            Next::Over => break,
            Next::Chance(request) => {
                let outcome = sim::sample(&request.distribution, &mut |n| rng.next_u64() % n);
                game.apply_chance(&outcome, &mut Vec::new())
                    .expect("the game accepts its own distribution's outcome");
            }
            Next::Private(PrivateRequest::Reshuffle { pile, epoch }) => {
                dealer
                    .reshuffle(pile, epoch, &mut |n| rng.next_u64() % n)
                    .expect("the dealer reshuffles");
                game.apply_reshuffle(&mut Vec::new()).expect("a reshuffle");
            }
            Next::Private(PrivateRequest::Deal { to, first, count }) => {
                dealer.deal(to, first, count).expect("the dealer deals");
                game.apply_deal(&mut Vec::new()).expect("a deal");
            }
            Next::Private(PrivateRequest::Reveal { .. }) => panic!("Nereus reveals nothing"),
            Next::Simultaneous(set) => {
                let mut choices = Vec::new();
                for seat in set.iter() {
                    game.legal_actions_with(seat, dealer.knowledge(seat), &mut legal);
                    lists_exactly_the_accepted(&game, seat, &legal, &dealer, &context);
                    let i = (rng.next_u64() % legal.len() as u64) as usize;
                    choices.push((seat, legal[i].clone()));
                }
                for (seat, action) in choices {
                    game.apply_action(seat, &action, &mut Vec::new())
                        .expect("a listed choice applies");
                }
            }
            Next::Decision(seat) => {
                game.legal_actions_with(seat, dealer.knowledge(seat), &mut legal);
                lists_exactly_the_accepted(&game, seat, &legal, &dealer, &context);
                // Closing steps less often, so that games reach the
                // boatswain's moves, full holds and science cards.
                let mut i = (rng.next_u64() % legal.len() as u64) as usize;
                if matches!(legal[i], Action::Done | Action::End) && rng.next_u64() % 3 > 0 {
                    i = (rng.next_u64() % legal.len() as u64) as usize;
                }
                let action = legal[i].clone();
                let handles: Vec<_> = Nereus::claims(&action).iter().map(|c| c.handle).collect();
                let revealed = dealer.reveal(&handles).expect("held cards open");
                game.apply_action_revealing(seat, &action, &revealed, &mut Vec::new())
                    .expect("a listed action applies");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn the_legal_list_is_exactly_what_the_rules_accept(
        seats in 2u8..=4,
        neutral in any::<bool>(),
        seed in any::<u64>(),
    ) {
        every_list_is_exact(seats, neutral && seats == 2, seed);
    }
}
