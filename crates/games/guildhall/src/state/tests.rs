//! Unit tests of the Guildhall state: rules applied step by step, and the
//! legal lists held against the checks that apply them.

use roundtable_engine::RuleError;

use super::*;
use crate::Game;

/// Giving a Weaver level up after a placement that completed a chapter
/// opens the chapter again and returns the card to the hand, open.
#[test]
fn giving_up_undoes_a_completed_chapter() {
    let mut game = Guildhall::new_game(2, &Options::default()).expect("2 seats");
    let seat = Seat(0);
    let purple_farmer = Card {
        profession: Profession::Farmer,
        colour: Colour::Purple,
    };
    let red_dancer = Card {
        profession: Profession::Dancer,
        colour: Colour::Red,
    };
    game.phase = Phase::Turn;
    // Red, blue, green and yellow: purple completes the chapter.
    game.halls[0][Profession::Farmer.index()] = 0b0_1111;
    game.halls[0][Profession::Weaver.index()] = 0b11;
    game.hands[0] = vec![
        HandCard::Open(purple_farmer.index()),
        HandCard::Open(red_dancer.index()),
    ];
    game.pending = Some(Pending::Place {
        left: Some(2),
        then_return: 1,
    });
    let before = game.clone();
    game.apply_inner(
        seat,
        &Action::Place {
            from: HandCard::Open(purple_farmer.index()),
            card: purple_farmer.index(),
        },
        None,
    )
    .expect("the purple farmer completes the chapter");
    assert_eq!(game.completed[0], vec![Profession::Farmer]);
    game.apply_inner(seat, &Action::Stop, None)
        .expect("the level can be given up");
    assert_eq!(game.halls, before.halls);
    assert!(game.completed[0].is_empty());
    assert_eq!(game.pending, None);
    assert_eq!(
        game.hands[0],
        vec![
            HandCard::Open(red_dancer.index()),
            HandCard::Open(purple_farmer.index())
        ]
    );
}

/// A game in its first turn with six open cards in every hand and
/// nothing owed: what a test needs to play a turn by the public API.
pub(crate) fn mid_game(seats: u8) -> Guildhall {
    let mut game = Guildhall::new_game(seats, &Options::default()).expect("seats");
    game.phase = Phase::Turn;
    game.owed = vec![0; usize::from(seats)];
    game.row_owed = 0;
    game.row = vec![0, 1, 2, 3, 4];
    game.discard.clear();
    let hand = [0u32, 6, 12, 18, 24, 29].map(HandCard::Open).to_vec();
    game.hands = vec![hand; usize::from(seats)];
    game
}

fn refill_twice(game: &mut Guildhall, seat: Seat) {
    for _ in 0..2 {
        for action in [Action::Refill, Action::Draw] {
            game.apply_action(seat, &action, &mut Vec::new())
                .expect("refill and draw");
        }
    }
}

/// The game ends at the end of a turn in which the active seat has 20
/// VP (rules, "End of Turn"), not when the VP are gained.
#[test]
fn twenty_vp_end_the_game_at_the_end_of_the_turn() {
    let mut game = mid_game(3);
    game.tokens[0] = 19;
    game.halls[0][Profession::Farmer.index()] = bit(Colour::Red);
    let blue_farmer = Card {
        profession: Profession::Farmer,
        colour: Colour::Blue,
    }
    .index();
    game.hands[0].push(HandCard::Open(blue_farmer));
    let play = Action::Play {
        from: HandCard::Open(blue_farmer),
        card: blue_farmer,
        level: Some(1),
    };
    game.apply_action(Seat(0), &play, &mut Vec::new())
        .expect("a Farmer at level 1");
    assert_eq!(game.vp(Seat(0)), 20);
    assert_ne!(game.next(), roundtable_engine::Next::Over);
    game.apply_action(Seat(0), &Action::Refill, &mut Vec::new())
        .expect("refill");
    game.apply_action(Seat(0), &Action::Draw, &mut Vec::new())
        .expect("draw");
    assert_eq!(game.next(), roundtable_engine::Next::Over);
    let result = game.result().expect("over");
    assert_eq!(result.winners(), vec![Seat(0)]);
}

/// With the centre row and the VP deck both empty no VP card is left
/// to buy, so the game ends at the end of that turn (the crate's
/// decision; the rules have no end for it): most VP wins, completed
/// chapters break a tie.
#[test]
fn no_vp_card_left_ends_the_game_at_the_end_of_the_turn() {
    let mut game = mid_game(2);
    game.row.clear();
    game.vp_left = vec![0; game.vp_left.len()];
    game.tokens = vec![3, 3];
    game.completed[1] = vec![Profession::Dancer];
    refill_twice(&mut game, Seat(0));
    assert_eq!(game.next(), roundtable_engine::Next::Over);
    let result = game.result().expect("over");
    assert_eq!(result.winners(), vec![Seat(1)]);
}

/// While a VP card is left to buy, in the row or the deck, play goes on.
#[test]
fn a_vp_card_left_keeps_the_game_going() {
    for (row, deck) in [(vec![4u8], 0u32), (vec![], 1)] {
        let mut game = mid_game(2);
        game.row = row;
        game.vp_left = vec![0; game.vp_left.len()];
        game.vp_left[6] = deck;
        refill_twice(&mut game, Seat(0));
        assert_ne!(game.next(), roundtable_engine::Next::Over);
    }
}

/// Seat 1 completes a fourth chapter at the end of its turn (the
/// Trader it played joins four others) under `options`; returns the
/// game at the start of seat 2's turn.
fn fourth_chapter(options: Options) -> Guildhall {
    let mut game = mid_game(2);
    game.options = options;
    game.completed[0] = vec![Profession::Assassin, Profession::Dancer, Profession::Farmer];
    game.halls[0][Profession::Trader.index()] = 0b0_1111;
    let purple_trader = Card {
        profession: Profession::Trader,
        colour: Colour::Purple,
    }
    .index();
    game.hands[0].push(HandCard::Open(purple_trader));
    let play = Action::Play {
        from: HandCard::Open(purple_trader),
        card: purple_trader,
        level: None,
    };
    game.apply_action(Seat(0), &play, &mut Vec::new())
        .expect("play the Trader");
    for action in [Action::Refill, Action::Draw] {
        game.apply_action(Seat(0), &action, &mut Vec::new())
            .expect("refill");
    }
    assert_eq!(game.completed_chapters(Seat(0)), 4);
    game
}

fn shed_assassins(game: &mut Guildhall) {
    let mut legal = Vec::new();
    game.legal_actions(Seat(0), &mut legal);
    assert!(
        legal.iter().all(|a| matches!(a, Action::Shed { .. })),
        "only shedding is open: {legal:?}"
    );
    let shed = Action::Shed {
        profession: Profession::Assassin,
        order: chapter_order(&[Colour::Blue]),
    };
    game.apply_action(Seat(0), &shed, &mut Vec::new())
        .expect("shed a chapter");
    assert_eq!(game.completed_chapters(Seat(0)), 3);
    assert_eq!(
        game.discard.last(),
        Some(
            &Card {
                profession: Profession::Assassin,
                colour: Colour::Blue,
            }
            .index()
        )
    );
}

/// Yucata's second change (the default): a fourth completed chapter is
/// shed when its holder's next turn begins, before anything else.
#[test]
fn a_fourth_chapter_is_shed_at_the_start_of_the_next_turn() {
    let mut game = fourth_chapter(Options::default());
    assert_eq!(game.decider(), Some(Seat(1)));
    refill_twice(&mut game, Seat(1));
    assert_eq!(game.decider(), Some(Seat(0)));
    let refused = game.apply_action(Seat(0), &Action::Refill, &mut Vec::new());
    assert_eq!(refused.map_err(|e| e.rule()), Err("wrong-step"));
    shed_assassins(&mut game);
    assert_eq!(game.decider(), Some(Seat(0)));
    assert_eq!(game.actions_left, 2);
}

/// Without it (the printed rule): the chapter is shed at once, by its
/// holder, even in another seat's turn.
#[test]
fn without_yucatas_change_a_fourth_chapter_is_shed_at_once() {
    let mut game = fourth_chapter(Options {
        late_chapter_cap: false,
        ..Options::default()
    });
    assert_eq!(game.turn_seat(), Seat(1));
    assert_eq!(game.decider(), Some(Seat(0)));
    shed_assassins(&mut game);
    assert_eq!(game.decider(), Some(Seat(1)));
}

/// Whether some sequence of the pending Historian's steps, each one
/// the step alone accepts, takes every card it owes.
fn search_steps_complete(game: &Guildhall, seat: Seat) -> bool {
    game.pending.is_none()
        || (0..30).any(|card| {
            let mut next = game.clone();
            next.apply_step(seat, &Action::Search { card }).is_ok()
                && search_steps_complete(&next, seat)
        })
}

proptest::proptest! {
    /// A Historian level is offered exactly when some sequence of its
    /// steps completes it: with four Historians in the guildhall and
    /// any other chapters and discard pile, including a first card
    /// that completes a chapter (face down at once) and so makes the
    /// second legal.
    #[test]
    fn historian_levels_are_offered_iff_their_steps_complete_them(
        masks in proptest::array::uniform6(0u8..0b1_1111),
        discard in proptest::collection::vec(0u32..30, 0..8),
    ) {
        let mut game = mid_game(2);
        let historian = Profession::Historian;
        game.halls[0] = masks;
        game.halls[0][historian.index()] = 0b0_1111;
        game.discard = discard;
        let purple = Card {
            profession: historian,
            colour: Colour::Purple,
        }
        .index();
        let from = HandCard::Open(purple);
        game.hands[0] = vec![from];
        let mut legal = Vec::new();
        game.legal_actions(Seat(0), &mut legal);
        for (level, left) in [(2u8, 1u8), (4, 2)] {
            let offered = legal.contains(&Action::Play {
                from,
                card: purple,
                level: Some(level),
            });
            let mut played = game.clone();
            played.hands[0].clear();
            played.area.push(AreaCard::Profession(purple));
            played.pending = Some(Pending::Search { left });
            proptest::prop_assert_eq!(offered, search_steps_complete(&played, Seat(0)));
        }
    }
}

proptest::proptest! {
    /// A Trader's swap list, listed from the guildhalls' masks, holds
    /// exactly the swaps the step itself accepts, in the order actions
    /// sort by: every card index for every card index with each
    /// opponent, tried by `apply_step`.
    #[test]
    fn swap_lists_hold_exactly_the_swaps_the_step_accepts(
        halls in proptest::array::uniform3(proptest::array::uniform6(0u8..0b1_1111)),
        chosen in proptest::bool::ANY,
    ) {
        let mut game = mid_game(3);
        game.halls = halls.to_vec();
        game.pending = Some(Pending::Swap {
            with: chosen.then_some(Seat(2)),
            left: 1,
        });
        let mut listed = Vec::new();
        game.step_actions(Seat(0), &mut listed);
        let mut accepted = Vec::new();
        for mine in 0..30 {
            for seat in [Seat(1), Seat(2)] {
                for theirs in 0..30 {
                    let swap = Action::Swap { mine, seat, theirs };
                    if game.try_on_copy(|next| next.apply_step(Seat(0), &swap).is_ok()) {
                        accepted.push(swap);
                    }
                }
            }
        }
        proptest::prop_assert_eq!(listed, accepted);
    }
}

proptest::proptest! {
    /// VP card 3-a's list, listed from the guildhalls' masks, holds
    /// exactly the swaps `check_swap_one_for_two` accepts (the check
    /// applying the swap makes), each pair once in catalog order, with
    /// `Skip` and in the order actions sort by.
    #[test]
    fn one_for_two_lists_hold_exactly_the_swaps_the_check_accepts(
        halls in proptest::array::uniform3(proptest::array::uniform6(0u8..0b1_1111)),
    ) {
        let mut game = mid_game(3);
        game.halls = halls.to_vec();
        let kind = VP_TABLE
            .iter()
            .position(|v| v.ability == VpAbility::SwapOneForTwo)
            .map(|k| k as u8);
        proptest::prop_assert!(kind.is_some(), "no 3-a card");
        let mut listed = Vec::new();
        game.vp_ability_actions(Seat(0), kind.unwrap_or(0), &mut listed);
        let mut accepted = vec![Action::Skip];
        let cards = || (0..30).filter_map(Card::from_index);
        for m in cards() {
            for seat in [Seat(1), Seat(2)] {
                for a in cards() {
                    for b in cards().filter(|b| b.index() > a.index()) {
                        if game.check_swap_one_for_two(Seat(0), seat, m, a, b).is_ok() {
                            accepted.push(Action::SwapOneForTwo {
                                mine: m.index(),
                                seat,
                                first: a.index(),
                                second: b.index(),
                            });
                        }
                    }
                }
            }
        }
        proptest::prop_assert_eq!(listed, accepted);
    }
}

/// A card everyone knows is in the hand under its own name: playing or
/// discarding it as another card is refused, as a false claim on a
/// dealt slot is (it was accepted: the claimed card entered the game
/// and the held one left it).
#[test]
fn an_open_card_cannot_be_claimed_as_another() {
    let held = HandCard::Open(0);
    let mut game = mid_game(2);
    let play = Action::Play {
        from: held,
        card: 1,
        level: None,
    };
    let refused = game.apply_action(Seat(0), &play, &mut Vec::new());
    assert_eq!(refused.map_err(|e| e.rule()), Err("card-not-held"));
    game.apply_action(Seat(0), &Action::Refill, &mut Vec::new())
        .expect("refill");
    let discard = Action::Discard {
        from: held,
        card: 1,
    };
    let refused = game.apply_action(Seat(0), &discard, &mut Vec::new());
    assert_eq!(refused.map_err(|e| e.rule()), Err("card-not-held"));
    assert_eq!(game.hands[0][0], held, "the hand is as it was");
}

/// RECONSTRUCTION: once the VP deck is empty, a card bought from the
/// centre row is not replaced and the row shrinks.
#[test]
fn an_empty_vp_deck_leaves_the_row_shorter() {
    let mut game = mid_game(2);
    game.vp_left = vec![0; game.vp_left.len()];
    game.completed[0] = vec![Profession::Dancer];
    let kind = game.row[0];
    for action in [
        Action::Buy { kind },
        Action::Pay {
            profession: Profession::Dancer,
            order: chapter_order(&[Colour::Red]),
        },
    ] {
        game.apply_action(Seat(0), &action, &mut Vec::new())
            .expect("buy and pay");
    }
    assert_eq!(game.row.len(), 4);
    assert!(matches!(
        game.next(),
        roundtable_engine::Next::Decision(Seat(0))
    ));
}
