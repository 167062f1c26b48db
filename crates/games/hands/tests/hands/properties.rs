//! Properties of the private-card contract, on random deals and games.

use crate::common;

use common::serve;
use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_engine::sim::{OracleDealer, play_private, uniform_below};
use roundtable_engine::{
    Game, Knowledge, Next, Observer, PrivateRequest, Revealed, RuleError, Seat,
};
use roundtable_hands::{Action, CATALOG, HAND_SIZE, Hands, Options};

fn encoded(view: &roundtable_hands::View) -> Vec<u8> {
    postcard::to_allocvec(view).unwrap()
}

/// The last action `seat` is offered: a play if it has one (a pass sorts
/// first), else the pass.
fn last_offer(game: &Hands, seat: Seat, knowledge: &Knowledge) -> Action {
    let mut legal = Vec::new();
    game.legal_actions_with(seat, knowledge, &mut legal);
    legal.last().copied().unwrap_or(Action::Pass)
}

/// Every card of the game, once: the deck not dealt yet, the hands, the pile
/// and the cards shown at the end.
fn all_cards(game: &Hands, dealer: &OracleDealer) -> Vec<u32> {
    let view = game.view(Observer::Spectator);
    let undealt = dealer.undealt();
    assert_eq!(undealt.len() as u32, view.deck_left);
    let mut cards: Vec<u32> = undealt;
    for &handle in view.hands.iter().flatten() {
        cards.push(dealer.card(handle).unwrap());
    }
    cards.extend(&view.pile);
    cards.extend(view.shown.iter().flatten());
    cards.sort_unstable();
    cards
}

/// A seat count, a deck order and the seats whose hands are exchanged
/// (at least two of them).
fn two_deals() -> impl Strategy<Value = (u8, Vec<u32>, Vec<Seat>, Vec<u32>, usize)> {
    (2u8..=4)
        .prop_flat_map(|seats| {
            (
                Just(seats),
                Just((0u32..24).collect::<Vec<_>>()).prop_shuffle(),
                proptest::sample::subsequence(
                    (0..seats).collect::<Vec<_>>(),
                    2..=usize::from(seats),
                ),
                prop::collection::vec(any::<u32>(), 12),
                0usize..30,
            )
        })
        .prop_map(|(seats, order, swapped, keys, turns)| {
            (
                seats,
                order,
                swapped.into_iter().map(Seat).collect(),
                keys,
                turns,
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Two deals that differ only in the hands of some seats give the same
    /// state, the same spectator view, the same view for every other seat,
    /// and the same view for the exchanged seats without their knowledge.
    #[test]
    fn views_hold_no_other_seats_cards((seats, order, swapped, keys, turns) in two_deals()) {
        let slots: Vec<usize> = swapped
            .iter()
            .flat_map(|s| {
                let first = s.index() * HAND_SIZE as usize;
                first..first + HAND_SIZE as usize
            })
            .collect();
        let mut exchanged = order.clone();
        let mut moved: Vec<usize> = slots.clone();
        moved.sort_by_key(|&slot| keys[slot % keys.len()]);
        for (&to, &from) in slots.iter().zip(&moved) {
            exchanged[to] = order[from];
        }

        let options = Options { rounds: 20 };
        let mut games = [Hands::new_game(seats, &options).unwrap(), Hands::new_game(seats, &options).unwrap()];
        let mut dealers = [OracleDealer::new(seats), OracleDealer::new(seats)];
        dealers[0].stack_next(order);
        dealers[1].stack_next(exchanged);
        for turn in 0..=turns {
            for (game, dealer) in games.iter_mut().zip(dealers.iter_mut()) {
                serve(game, dealer, &mut Vec::new());
            }
            let [a, b] = &games;
            prop_assert_eq!(a.state_hash(), b.state_hash());
            prop_assert_eq!(
                encoded(&a.view(Observer::Spectator)),
                encoded(&b.view(Observer::Spectator))
            );
            for seat in (0..seats).map(Seat) {
                let observer = Observer::Seat(seat);
                if swapped.contains(&seat) {
                    prop_assert_eq!(encoded(&a.view(observer)), encoded(&b.view(observer)));
                } else {
                    prop_assert_eq!(
                        encoded(&a.view_with(observer, dealers[0].knowledge(seat))),
                        encoded(&b.view_with(observer, dealers[1].knowledge(seat)))
                    );
                }
            }
            if turn == turns {
                break;
            }
            // The exchanged seats pass; the others play what they can.
            let Next::Decision(seat) = games[0].next() else {
                break;
            };
            for (game, dealer) in games.iter_mut().zip(dealers.iter_mut()) {
                let action = if swapped.contains(&seat) {
                    Action::Pass
                } else {
                    last_offer(game, seat, dealer.knowledge(seat))
                };
                let handles: Vec<_> = Hands::claims(&action).iter().map(|c| c.handle).collect();
                let revealed = dealer.reveal(&handles).unwrap();
                game.apply_action_revealing(seat, &action, &revealed, &mut Vec::new()).unwrap();
            }
        }
    }

    /// Random games through the oracle dealer end; along the way a seat's
    /// legal actions depend on its own knowledge only, a false claim is
    /// refused as `card-not-held` without a change, and every card of the
    /// catalog is in exactly one place (so reshuffles keep the multiset).
    #[test]
    fn random_games_keep_the_contract(seats in 2u8..=4, rounds in 1u8..=20, seed in any::<u64>(), offset in 1u32..24) {
        let mut game = Hands::new_game(seats, &Options { rounds }).unwrap();
        let mut dealer = OracleDealer::new(seats);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut picks = ChaCha8Rng::seed_from_u64(seed ^ 1);
        let catalog: Vec<u32> = (0..CATALOG.len() as u32).collect();
        let mut failure: Option<String> = None;
        let playout = play_private(
            &mut game,
            &mut dealer,
            10_000,
            &mut |n| uniform_below(n, &mut || rng.next_u64()),
            &mut |_, _, _, legal| uniform_below(legal.len() as u64, &mut || picks.next_u64()) as usize,
            &mut |game, dealer| {
                if failure.is_some() {
                    return;
                }
                if all_cards(game, dealer) != catalog {
                    failure = Some(format!("cards lost or doubled: {:?}", all_cards(game, dealer)));
                }
                let Next::Decision(seat) = game.next() else { return };
                let mut everything = Knowledge::new();
                for other in (0..seats).map(Seat) {
                    for r in dealer.knowledge(other).iter() {
                        everything.learn(r.handle, r.card);
                    }
                }
                let own = dealer.knowledge(seat);
                if game.legal_actions_vec(seat) != vec![Action::Pass] {
                    failure = Some("plays offered without knowledge".into());
                }
                let mut with_own = Vec::new();
                let mut with_all = Vec::new();
                game.legal_actions_with(seat, own, &mut with_own);
                game.legal_actions_with(seat, &everything, &mut with_all);
                if with_own != with_all {
                    failure = Some(format!("{seat}: {with_own:?} with its own knowledge, {with_all:?} with everyone's"));
                }
                for other in (0..seats).map(Seat).filter(|&o| o != seat) {
                    let mut with_theirs = Vec::new();
                    game.legal_actions_with(seat, dealer.knowledge(other), &mut with_theirs);
                    if with_theirs != vec![Action::Pass] {
                        failure = Some(format!("{seat} is offered {with_theirs:?} from {other}'s knowledge"));
                    }
                }
                for held in game.view_with(Observer::Seat(seat), own).my_hand {
                    let Some(card) = held.card else {
                        failure = Some(format!("{seat} does not know its own card"));
                        continue;
                    };
                    let mut attempt = game.clone();
                    let lie = Action::Play { handle: held.handle, card: (card + offset) % 24 };
                    let refused = attempt.apply_action_revealing(
                        seat,
                        &lie,
                        &[Revealed { handle: held.handle, card }],
                        &mut Vec::new(),
                    );
                    match refused {
                        Err(e) if e.rule() == "card-not-held" && attempt == *game => {}
                        other => failure = Some(format!("{lie} was answered {other:?}")),
                    }
                }
            },
        );
        prop_assert!(failure.is_none(), "{}", failure.unwrap_or_default());
        let playout = playout.unwrap();
        prop_assert_eq!(game.next(), Next::Over);
        let result = game.result().unwrap();
        prop_assert_eq!(result.standings.len(), usize::from(seats));
        prop_assert_eq!(playout.decisions, usize::from(seats) * usize::from(rounds));
    }
}

#[test]
fn long_games_reshuffle_the_pile() {
    // Two seats that always play run through the 18 cards left after the deal.
    let mut game = Hands::new_game(2, &Options { rounds: 20 }).unwrap();
    let mut dealer = OracleDealer::new(2);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut epochs = Vec::new();
    play_private(
        &mut game,
        &mut dealer,
        10_000,
        &mut |n| uniform_below(n, &mut || rng.next_u64()),
        &mut |_, _, _, legal| legal.len() - 1,
        &mut |game, _| {
            if let Next::Private(PrivateRequest::Reshuffle { epoch, .. }) = game.next() {
                epochs.push(epoch.0);
            }
        },
    )
    .unwrap();
    assert!(epochs.contains(&1), "no reshuffle in {epochs:?}");
}
