//! Scenarios: one per rule of Hands, on stacked decks.

use crate::common;

use common::serve;

use roundtable_engine::sim::OracleDealer;
use roundtable_engine::{
    CardHandle, ChanceOutcome, EpochId, Game, Knowledge, Next, Observer, PrivateRequest, Revealed,
    RuleError, Seat, SetupError,
};
use roundtable_hands::{Action, Event, Hands, Options};

/// Catalog indices by name: sun 0-5, moon 6-11, star 12-17, leaf 18-23 (rank = index % 6 + 1).
const SUN_1: u32 = 0;
const SUN_3: u32 = 2;
const SUN_6: u32 = 5;
const MOON_1: u32 = 6;
const MOON_2: u32 = 7;
const MOON_4: u32 = 9;
const STAR_5: u32 = 16;
const LEAF_2: u32 = 19;

/// The deck with `top` in its first slots, the rest in catalog order.
fn stacked(top: &[u32]) -> Vec<u32> {
    let mut order = top.to_vec();
    order.extend((0..24).filter(|c| !top.contains(c)));
    order
}

/// A game of `seats` seats and `rounds` rounds dealt from `order`, at its
/// first decision.
fn dealt(seats: u8, rounds: u8, order: Vec<u32>) -> (Hands, OracleDealer) {
    let mut game = Hands::new_game(seats, &Options { rounds }).unwrap();
    let mut dealer = OracleDealer::new(seats);
    dealer.stack_next(order);
    serve(&mut game, &mut dealer, &mut Vec::new());
    (game, dealer)
}

/// The handle seat `seat` holds with card `card`.
fn handle_of(dealer: &OracleDealer, seat: Seat, card: u32) -> CardHandle {
    dealer
        .knowledge(seat)
        .iter()
        .find(|r| r.card == card)
        .map(|r| r.handle)
        .unwrap()
}

/// Play `card` from `seat`'s hand with its opened identity, then serve the deal.
fn play(game: &mut Hands, dealer: &mut OracleDealer, seat: Seat, card: u32) -> Vec<Event> {
    let handle = handle_of(dealer, seat, card);
    let mut events = Vec::new();
    game.apply_action_revealing(
        seat,
        &Action::Play { handle, card },
        &[Revealed { handle, card }],
        &mut events,
    )
    .unwrap();
    serve(game, dealer, &mut events);
    events
}

/// `refused` must be refused by `rule` and leave `game` exactly as it was.
fn assert_refused<T: std::fmt::Debug>(
    game: &Hands,
    before: &Hands,
    refused: Result<T, impl RuleError>,
    rule: &str,
) {
    let error = refused.expect_err("the input must be refused");
    assert_eq!(error.rule(), rule, "{error}");
    assert_eq!(game, before, "a refused input changed the state");
    assert_eq!(game.state_hash(), before.state_hash());
}

#[test]
fn every_seat_is_dealt_three_cards_only_it_can_see() {
    let (game, dealer) = dealt(
        3,
        2,
        stacked(&[SUN_1, SUN_3, SUN_6, MOON_1, MOON_2, MOON_4]),
    );
    assert_eq!(game.next(), Next::Decision(Seat(0)));
    let view = game.view_with(Observer::Seat(Seat(1)), dealer.knowledge(Seat(1)));
    let cards: Vec<Option<u32>> = view.my_hand.iter().map(|h| h.card).collect();
    assert_eq!(cards, [Some(MOON_1), Some(MOON_2), Some(MOON_4)]);
    assert_eq!(
        view.hands.iter().map(Vec::len).collect::<Vec<_>>(),
        [3, 3, 3]
    );
    assert_eq!(view.deck_left, 24 - 9);
    // Seat 0's knowledge passed for seat 1 shows seat 1 nothing of seat 0's.
    let wrong = game.view_with(Observer::Seat(Seat(1)), dealer.knowledge(Seat(0)));
    assert!(wrong.my_hand.iter().all(|h| h.card.is_none()));
    let spectator = game.view_with(Observer::Spectator, dealer.knowledge(Seat(0)));
    assert!(spectator.my_hand.is_empty());
    assert_eq!(spectator, game.view(Observer::Spectator));
}

#[test]
fn a_card_must_outrank_the_top_or_follow_its_suit() {
    let (mut game, mut dealer) = dealt(
        2,
        3,
        stacked(&[SUN_3, SUN_6, STAR_5, MOON_1, SUN_1, MOON_4]),
    );
    play(&mut game, &mut dealer, Seat(0), SUN_3);
    // Seat 1 holds moon 1 (lower, other suit), sun 1 (same suit), moon 4 (higher).
    let mut legal = Vec::new();
    game.legal_actions_with(Seat(1), dealer.knowledge(Seat(1)), &mut legal);
    let playable: Vec<u32> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Play { card, .. } => Some(*card),
            Action::Pass => None,
        })
        .collect();
    assert_eq!(playable, [SUN_1, MOON_4]);
    assert!(legal.contains(&Action::Pass));

    let before = game.clone();
    let handle = handle_of(&dealer, Seat(1), MOON_1);
    let refused = game.apply_action_revealing(
        Seat(1),
        &Action::Play {
            handle,
            card: MOON_1,
        },
        &[Revealed {
            handle,
            card: MOON_1,
        }],
        &mut Vec::new(),
    );
    assert_refused(&game, &before, refused, "card-too-low");
    play(&mut game, &mut dealer, Seat(1), SUN_1);
    assert_eq!(game.view(Observer::Spectator).top, Some(SUN_1));
}

#[test]
fn claiming_a_card_the_handle_does_not_hold_is_refused() {
    let (mut game, dealer) = dealt(
        2,
        3,
        stacked(&[SUN_3, SUN_6, STAR_5, MOON_1, SUN_1, MOON_4]),
    );
    let before = game.clone();
    let handle = handle_of(&dealer, Seat(0), SUN_3);
    // The table opened sun 3 from seat 1's share; seat 1 claimed sun 6,
    // which it holds, but in another slot.
    let refused = game.apply_action_revealing(
        Seat(0),
        &Action::Play {
            handle,
            card: SUN_6,
        },
        &[Revealed {
            handle,
            card: SUN_3,
        }],
        &mut Vec::new(),
    );
    assert_refused(&game, &before, refused, "card-not-held");
}

#[test]
fn playing_another_seats_handle_is_refused() {
    let (mut game, dealer) = dealt(
        2,
        3,
        stacked(&[SUN_3, SUN_6, STAR_5, MOON_1, SUN_1, MOON_4]),
    );
    let before = game.clone();
    let theirs = handle_of(&dealer, Seat(1), MOON_1);
    let refused = game.apply_action_revealing(
        Seat(0),
        &Action::Play {
            handle: theirs,
            card: MOON_1,
        },
        &[Revealed {
            handle: theirs,
            card: MOON_1,
        }],
        &mut Vec::new(),
    );
    assert_refused(&game, &before, refused, "handle-not-held");
}

#[test]
fn a_play_needs_its_card_revealed_and_only_its_card() {
    let (mut game, dealer) = dealt(
        2,
        3,
        stacked(&[SUN_3, SUN_6, STAR_5, MOON_1, SUN_1, MOON_4]),
    );
    let before = game.clone();
    let handle = handle_of(&dealer, Seat(0), SUN_3);
    let play = Action::Play {
        handle,
        card: SUN_3,
    };
    let refused = game.apply_action(Seat(0), &play, &mut Vec::new());
    assert_refused(&game, &before, refused, "card-not-revealed");
    let other = handle_of(&dealer, Seat(0), SUN_6);
    let refused = game.apply_action_revealing(
        Seat(0),
        &play,
        &[Revealed {
            handle: other,
            card: SUN_6,
        }],
        &mut Vec::new(),
    );
    assert_refused(&game, &before, refused, "reveal-mismatch");
    let refused = game.apply_action_revealing(
        Seat(0),
        &Action::Pass,
        &[Revealed {
            handle,
            card: SUN_3,
        }],
        &mut Vec::new(),
    );
    assert_refused(&game, &before, refused, "reveal-mismatch");
}

#[test]
fn only_the_seat_whose_turn_it_is_decides() {
    let (mut game, _) = dealt(3, 3, stacked(&[]));
    let before = game.clone();
    let refused = game.apply_action(Seat(2), &Action::Pass, &mut Vec::new());
    assert_refused(&game, &before, refused, "not-your-turn");
}

#[test]
fn private_steps_are_taken_only_when_asked_for() {
    let mut game = Hands::new_game(2, &Options::default()).unwrap();
    let before = game.clone();
    // First the deck is shuffled: no decision, deal or reveal yet.
    assert!(matches!(
        game.next(),
        Next::Private(PrivateRequest::Reshuffle { epoch: EpochId(0), pile }) if pile.len() == 24
    ));
    let refused = game.apply_action(Seat(0), &Action::Pass, &mut Vec::new());
    assert_refused(&game, &before, refused, "waiting-for-deal");
    let refused = game.apply_deal(&mut Vec::new());
    assert_refused(&game, &before, refused, "no-deal-pending");
    let refused = game.apply_reveal(&[], &mut Vec::new());
    assert_refused(&game, &before, refused, "no-reveal-pending");
    let refused = game.apply_chance(&ChanceOutcome::Index(0), &mut Vec::new());
    assert_refused(&game, &before, refused, "no-chance");

    let (mut game, _) = dealt(2, 3, stacked(&[]));
    let before = game.clone();
    let refused = game.apply_reshuffle(&mut Vec::new());
    assert_refused(&game, &before, refused, "no-reshuffle-pending");
}

#[test]
fn a_play_is_replaced_by_a_private_draw_from_the_next_slot() {
    let (mut game, mut dealer) = dealt(
        2,
        3,
        stacked(&[SUN_3, SUN_6, STAR_5, MOON_1, SUN_1, MOON_4, LEAF_2]),
    );
    let events = play(&mut game, &mut dealer, Seat(0), SUN_3);
    let next_slot = CardHandle::new(EpochId(0), 6);
    assert!(events.contains(&Event::Dealt {
        seat: Seat(0),
        handles: vec![next_slot],
    }));
    assert_eq!(dealer.knowledge(Seat(0)).card(next_slot), Some(LEAF_2));
    assert_eq!(dealer.knowledge(Seat(1)).card(next_slot), None);
    // A pass draws nothing.
    let mut events = Vec::new();
    game.apply_action(Seat(1), &Action::Pass, &mut events)
        .unwrap();
    assert_eq!(events, [Event::Passed(Seat(1))]);
    assert_eq!(game.next(), Next::Decision(Seat(0)));
}

#[test]
fn an_empty_deck_is_refilled_from_the_pile_under_its_top_card() {
    // Two seats play every turn: after the 18 cards left after the deal are
    // drawn, the pile (all but its top) becomes the deck of epoch 1.
    let (mut game, mut dealer) = dealt(2, 20, stacked(&[]));
    let mut shuffled = None;
    while let Next::Decision(seat) = game.next() {
        let mut legal = Vec::new();
        game.legal_actions_with(seat, dealer.knowledge(seat), &mut legal);
        let action = *legal.last().unwrap();
        let claims = Hands::claims(&action);
        let handles: Vec<CardHandle> = claims.iter().map(|c| c.handle).collect();
        let revealed = dealer.reveal(&handles).unwrap();
        let mut events = Vec::new();
        game.apply_action_revealing(seat, &action, &revealed, &mut events)
            .unwrap();
        let pile_before_shuffle = game.view(Observer::Spectator).pile;
        serve(&mut game, &mut dealer, &mut events);
        if let Some(&Event::Shuffled { epoch, cards }) =
            events.iter().find(|e| matches!(e, Event::Shuffled { .. }))
        {
            let view = game.view(Observer::Spectator);
            assert_eq!(view.pile.len(), 1, "the top card stays on the pile");
            assert_eq!(Some(view.pile[0]), pile_before_shuffle.last().copied());
            assert_eq!(cards as usize, pile_before_shuffle.len() - 1);
            let mut reshuffled = dealer.deck(epoch).to_vec();
            let mut expected = pile_before_shuffle[..pile_before_shuffle.len() - 1].to_vec();
            reshuffled.sort_unstable();
            expected.sort_unstable();
            assert_eq!(reshuffled, expected);
            shuffled.get_or_insert(epoch);
        }
    }
    assert_eq!(shuffled, Some(EpochId(1)));
}

#[test]
fn the_game_ends_after_its_rounds_with_every_hand_shown() {
    // Seat 1 holds sun 3, sun 6, star 5; seat 2 moon 1, sun 1, moon 4.
    let (mut game, mut dealer) = dealt(
        2,
        1,
        stacked(&[SUN_3, SUN_6, STAR_5, MOON_1, SUN_1, MOON_4]),
    );
    // Seat 1 draws sun 2, the first card after the stacked ones.
    play(&mut game, &mut dealer, Seat(0), SUN_6);
    let mut events = Vec::new();
    game.apply_action(Seat(1), &Action::Pass, &mut events)
        .unwrap();
    // The last turn is over: the hands are shown.
    let Next::Private(PrivateRequest::Reveal { handles }) = game.next() else {
        panic!("the hands are shown at the end, not {:?}", game.next());
    };
    assert_eq!(handles.len(), 3 + 3);
    let mut answer = dealer.reveal(handles).unwrap();
    answer.swap(0, 1);
    let before = game.clone();
    let refused = game.apply_reveal(&answer, &mut Vec::new());
    assert_refused(&game, &before, refused, "reveal-mismatch");
    serve(&mut game, &mut dealer, &mut events);
    assert_eq!(game.next(), Next::Over);
    let view = game.view(Observer::Spectator);
    assert_eq!(view.shown[1], [MOON_1, SUN_1, MOON_4]);
    let result = game.result().unwrap();
    // Seat 1 scored 6 for sun 6, seat 2 nothing.
    assert_eq!(result.winners(), [Seat(0)]);
    assert_eq!(result.standings[0].score, 6);
    assert_eq!(result.standings[0].tie_break, -(2 + 3 + 5));
    assert_eq!(result.standings[1].tie_break, -(1 + 1 + 4));
    let before = game.clone();
    let refused = game.apply_action(Seat(0), &Action::Pass, &mut Vec::new());
    assert_refused(&game, &before, refused, "game-over");
}

#[test]
fn knowledge_from_another_seat_offers_no_plays() {
    let (game, dealer) = dealt(2, 3, stacked(&[]));
    let mut with_theirs = Vec::new();
    game.legal_actions_with(Seat(0), dealer.knowledge(Seat(1)), &mut with_theirs);
    assert_eq!(with_theirs, [Action::Pass]);
    assert_eq!(game.legal_actions_vec(Seat(0)), [Action::Pass]);
    assert_eq!(game.zombie_action(Seat(0)), Some(Action::Pass));
    let mut merged = Knowledge::new();
    for seat in [Seat(0), Seat(1)] {
        for r in dealer.knowledge(seat).iter() {
            merged.learn(r.handle, r.card);
        }
    }
    let mut own = Vec::new();
    let mut all = Vec::new();
    game.legal_actions_with(Seat(0), dealer.knowledge(Seat(0)), &mut own);
    game.legal_actions_with(Seat(0), &merged, &mut all);
    assert_eq!(own, all);
    assert_eq!(own.len(), 4, "the first card may be any of the three");
}

#[test]
fn actions_read_back_from_their_text() {
    for action in [
        Action::Pass,
        Action::Play {
            handle: CardHandle::new(EpochId(2), 17),
            card: 23,
        },
    ] {
        assert_eq!(Hands::parse_action(&action.to_string()), Ok(action));
    }
    assert_eq!(Action::Pass.to_string(), "pass");
    for bad in [
        "",
        "play",
        "play 0 3",
        "play x:1 3",
        "play 70000:1 3",
        "discard 0:1 3",
    ] {
        assert!(Hands::parse_action(bad).is_err(), "{bad:?} parsed");
    }
}

#[test]
fn setup_refuses_other_seat_counts_and_round_counts() {
    for seats in [0, 1, 5] {
        assert!(matches!(
            Hands::new_game(seats, &Options::default()),
            Err(SetupError::SeatCount { .. })
        ));
    }
    for rounds in [0, 21] {
        assert!(matches!(
            Hands::new_game(2, &Options { rounds }),
            Err(SetupError::Option { .. })
        ));
    }
}

#[test]
fn the_last_play_of_the_game_draws_no_replacement() {
    let (mut game, mut dealer) = dealt(
        2,
        1,
        stacked(&[SUN_3, SUN_6, STAR_5, MOON_1, SUN_1, MOON_4]),
    );
    game.apply_action(Seat(0), &Action::Pass, &mut Vec::new())
        .unwrap();
    let events = play(&mut game, &mut dealer, Seat(1), MOON_1);
    assert!(
        !events.iter().any(|e| matches!(e, Event::Dealt { .. })),
        "{events:?}"
    );
    assert_eq!(game.view(Observer::Spectator).shown[1], [SUN_1, MOON_4]);
    assert_eq!(game.next(), Next::Over);
}

#[test]
fn the_public_driver_stops_at_the_first_private_request() {
    let mut game = Hands::new_game(2, &Options::default()).unwrap();
    let stopped =
        roundtable_engine::sim::play(&mut game, 100, &mut |_| 0, &mut |_, _, _| 0, &mut |_| {});
    assert!(matches!(
        stopped,
        Err(roundtable_engine::sim::SimError::Private)
    ));
}
