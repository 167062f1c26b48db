//! The legal lists' fast judgements: whether a level played or an
//! ability's step leaves the level finishable, worked out on the guildhalls
//! and the counts instead of trying the move on a copy of the state.
//!
//! Each judgement answers what trying the move on a copy
//! ([`Guildhall::keeps_finishable`]) answers, or `None` where it does not
//! apply (the caller tries the copy then); the tests at the end hold every
//! one in lockstep with the copy, over random games and over any
//! guildhalls.

use roundtable_engine::{Knowledge, Seat};

use crate::action::{Action, HandCard};
use crate::catalog::{Card, PROFESSIONS};
use crate::rules::ability_step;
use crate::state::{Guildhall, Pending, Phase, bit, hall_holds};

/// Whether a Weaver step placing `left` more of a hand of `hand` cards
/// (`None`: any number) into a guildhall of `in_hall` cards, then taking
/// `then_return` back, can be done, judged by counts alone (the hand's
/// cards are private).
pub(crate) fn placements_possible(
    hand: u32,
    in_hall: u32,
    left: Option<u8>,
    then_return: u8,
) -> bool {
    let to_place = u32::from(left.unwrap_or(0));
    hand >= to_place && in_hall + to_place >= u32::from(then_return)
}

/// Whether an Assassin with `left` cards still to discard finds them in a
/// victim's guildhall of `hall`: any cards, or (`distinct`, level 2) cards
/// of chapters not yet hit. Counting settles it: discarding one card never
/// makes another target impossible.
pub(crate) fn assassin_can_finish(hall: [u8; 6], left: u8, distinct: bool, hit: u8) -> bool {
    if distinct {
        hall.iter()
            .enumerate()
            .filter(|&(p, &mask)| mask != 0 && hit & (1 << p) == 0)
            .count()
            >= usize::from(left)
    } else {
        hall.iter().map(|m| m.count_ones()).sum::<u32>() >= u32::from(left)
    }
}

/// Whether, after swapping `m` of a guildhall of `mine` for `t` of a
/// guildhall of `theirs` (a swap that leaves no duplicate), some swap
/// between the two is still valid: a Trader's second swap is with the
/// same opponent.
pub(crate) fn swap_leaves_a_swap(mut mine: [u8; 6], mut theirs: [u8; 6], m: Card, t: Card) -> bool {
    if m != t {
        let take = |hall: &mut [u8; 6], card: Card| {
            hall[card.profession.index()] &= !bit(card.colour);
        };
        // A fifth colour completes the chapter, which leaves the guildhall.
        let put = |hall: &mut [u8; 6], card: Card| {
            let mask = &mut hall[card.profession.index()];
            *mask |= bit(card.colour);
            if *mask == 0b1_1111 {
                *mask = 0;
            }
        };
        take(&mut mine, m);
        take(&mut theirs, t);
        put(&mut mine, t);
        put(&mut theirs, m);
    }
    some_swap(mine, theirs)
}

/// Whether some swap of a card of a guildhall of `mine` for one of
/// `theirs` leaves no duplicate: a card both hold (swapped for its twin),
/// or a card only `mine` holds for one only `theirs` holds. Per colour
/// masks, so no pair of cards is walked.
pub(crate) fn some_swap(mine: [u8; 6], theirs: [u8; 6]) -> bool {
    let (mut shared, mut only_mine, mut only_theirs) = (0u8, 0u8, 0u8);
    for (&m, &t) in mine.iter().zip(&theirs) {
        shared |= m & t;
        only_mine |= m & !t;
        only_theirs |= t & !m;
    }
    shared != 0 || (only_mine != 0 && only_theirs != 0)
}

impl Guildhall {
    /// Whether the Trader step `Swap` of `seat`'s card `mine` for `other`'s
    /// card `theirs` leaves the level finishable: what trying the step on a
    /// copy ([`Guildhall::keeps_finishable`]) decides, worked out on the two
    /// guildhalls alone. `None` where this does not apply (another step, or
    /// more than two swaps left), so the caller tries the copy. For a step
    /// the legal list offers, applying it cannot fail; after it, one swap
    /// left needs some valid swap with the same opponent, none left needs
    /// nothing. A Trader level's swaps are most of a random game's legal
    /// lists, one copy per target.
    pub(crate) fn swap_keeps_finishable(&self, seat: Seat, step: &Action) -> Option<bool> {
        let Some(Pending::Swap { with, left }) = self.pending else {
            return None;
        };
        let Action::Swap {
            mine,
            seat: other,
            theirs,
        } = *step
        else {
            return None;
        };
        let (m, t) = (Card::from_index(mine)?, Card::from_index(theirs)?);
        if other == seat || other.0 >= self.seats || with.is_some_and(|w| w != other) {
            return None;
        }
        let (my_hall, their_hall) = (self.halls[seat.index()], self.halls[other.index()]);
        let offered = hall_holds(my_hall, m)
            && hall_holds(their_hall, t)
            && (m == t || (!hall_holds(my_hall, t) && !hall_holds(their_hall, m)));
        if !offered || left > 2 {
            return None;
        }
        if left <= 1 {
            return Some(true);
        }
        Some(swap_leaves_a_swap(my_hall, their_hall, m, t))
    }

    /// The Trader's steps that leave the level finishable, judged as they
    /// are listed by what [`Guildhall::swap_keeps_finishable`] decides
    /// (none is tried on a copy); `false` (and nothing listed) where that
    /// judgement does not apply, so the caller lists and judges the steps
    /// one by one.
    pub(crate) fn judged_swap_steps(&self, seat: Seat, out: &mut Vec<Action>) -> bool {
        let Some(Pending::Swap { with, left }) = self.pending else {
            return false;
        };
        if left > 2 {
            return false;
        }
        let my_hall = self.halls[seat.index()];
        self.swap_steps(
            seat,
            with,
            |m, o, t| left <= 1 || swap_leaves_a_swap(my_hall, self.halls[o.index()], m, t),
            out,
        );
        true
    }

    /// Whether the step `step` of the pending ability leaves it finishable,
    /// where the two guildhalls or the counts decide it without trying the
    /// step on a copy (a Trader swap, an Assassin's discard, a Weaver's
    /// return); `None` for any other step, which the caller tries on a copy.
    pub(crate) fn step_keeps_finishable(&self, seat: Seat, step: &Action) -> Option<bool> {
        match self.pending? {
            Pending::Swap { .. } => self.swap_keeps_finishable(seat, step),
            Pending::Assassinate { .. } => self.assassination_keeps_finishable(seat, step),
            Pending::Return { left } => {
                let Action::Return { card } = *step else {
                    return None;
                };
                if !self.holds(seat, Card::from_index(card)?) {
                    return None;
                }
                // Taking a card back leaves one fewer to take from.
                Some(left <= 1 || self.hall_count(seat) > u32::from(left - 1))
            }
            _ => None,
        }
    }

    /// Whether the Assassin step discarding `step`'s card from its victim
    /// leaves the level finishable: what trying it on a copy decides,
    /// counted on the victim's guildhall with the card gone (the rest of
    /// the level is with that victim). `None` where the step is not one the
    /// legal list offers, so the caller tries the copy.
    fn assassination_keeps_finishable(&self, seat: Seat, step: &Action) -> Option<bool> {
        let Some(Pending::Assassinate {
            victim,
            left,
            distinct,
            hit,
        }) = self.pending
        else {
            return None;
        };
        let Action::Assassinate { seat: o, card } = *step else {
            return None;
        };
        let c = Card::from_index(card)?;
        let chapter = 1u8 << c.profession.index();
        let offered = o != seat
            && o.0 < self.seats
            && victim.is_none_or(|v| v == o)
            && !(distinct && hit & chapter != 0)
            && self.holds(o, c);
        if !offered {
            return None;
        }
        if left <= 1 {
            return Some(true);
        }
        let mut hall = self.halls[o.index()];
        hall[c.profession.index()] &= !bit(c.colour);
        Some(assassin_can_finish(hall, left - 1, distinct, hit | chapter))
    }

    /// Whether playing `card` (claimed at `from`, opened as `card` if
    /// dealt) at `level` leaves a level `seat` can finish, knowing the rest
    /// of its hand by `knowledge`: what trying the play on a copy
    /// ([`Guildhall::keeps_finishable`]) decides, worked out without one.
    /// The claim is checked as applying it checks it, so the caller's
    /// look-up of the card is not made twice. A play changes nothing the level's steps look at but
    /// the hand (one card fewer), so the step the level leaves pending is
    /// judged on this state. `None` where this does not apply (a play the
    /// checks refuse, or a Historian whose distinct targets are too few to
    /// settle it by counting), so the caller tries the copy.
    pub(crate) fn play_keeps_finishable(
        &self,
        seat: Seat,
        from: HandCard,
        card: Card,
        level: u8,
        knowledge: &Knowledge,
    ) -> Option<bool> {
        let playable = self.phase == Phase::Turn
            && self.pending.is_none()
            && self.actions_left > 0
            && self.shedding_seat() != Some(seat)
            && self
                .check_hand_card(seat, from, card.index(), Some(card.index()))
                .is_ok()
            && self.check_play(seat, card, Some(level)).is_ok();
        if !playable {
            return None;
        }
        let hand_after = self.hands[seat.index()].len() as u32 - 1;
        let opponents = || (0..self.seats).map(Seat).filter(move |&o| o != seat);
        Some(match ability_step(card.profession, level) {
            None => true,
            Some(Pending::Place { left, then_return }) => {
                placements_possible(hand_after, self.hall_count(seat), left, then_return)
                    && left.is_none_or(|n| {
                        self.known_placeable(seat, knowledge, then_return, Some(from))
                            >= u32::from(n)
                    })
            }
            Some(Pending::Assassinate {
                left,
                distinct,
                hit,
                ..
            }) => {
                opponents().any(|o| assassin_can_finish(self.halls[o.index()], left, distinct, hit))
            }
            Some(Pending::Swap { left, .. }) => opponents().any(|o| {
                if left <= 1 {
                    some_swap(self.halls[seat.index()], self.halls[o.index()])
                } else {
                    self.valid_swaps(seat, o).any(|(m, t)| {
                        swap_leaves_a_swap(self.halls[seat.index()], self.halls[o.index()], m, t)
                    })
                }
            }),
            Some(Pending::SwapChapter) => opponents().any(|o| {
                PROFESSIONS.iter().any(|&mine| {
                    PROFESSIONS
                        .iter()
                        .any(|&theirs| self.check_swap_chapter(seat, o, mine, theirs).is_ok())
                })
            }),
            Some(Pending::Search { left }) if self.searchable_kinds(seat) >= usize::from(left) => {
                true
            }
            Some(_) => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use roundtable_engine::Seat;

    use super::*;
    use crate::Game;
    use crate::state::Options;
    use crate::state::tests::mid_game;

    /// The fast judgements of a play's level and of an ability's step
    /// (Trader swaps, Assassin discards, Weaver returns), and a Trader's
    /// list judged as it is listed, agree with trying the move on a copy, at every decision of seeded random games where
    /// they apply (the fast paths' lockstep with the checked one). Every
    /// level of every known hand card is asked, refused ones included.
    #[test]
    fn fast_judgements_agree_with_trying_on_a_copy() {
        use rand_chacha::ChaCha8Rng;
        use rand_core::{RngCore, SeedableRng};
        use roundtable_engine::sim;
        let mut plays = [0u32; 6];
        let mut steps = 0;
        let mut swap_lists = 0;
        for seed in 0..40u64 {
            let seats = 2 + (seed % 3) as u8;
            let mut game = Guildhall::new_game(seats, &Options::default()).expect("seats");
            let mut dealer = sim::OracleDealer::new(seats);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut picks = ChaCha8Rng::seed_from_u64(!seed);
            sim::play_private(
                &mut game,
                &mut dealer,
                200_000,
                &mut |n| sim::uniform_below(n, &mut || rng.next_u64()),
                &mut |_, _, _, legal| (picks.next_u64() % legal.len() as u64) as usize,
                &mut |state: &Guildhall, dealer| {
                    let Some(seat) = state.decider() else {
                        return;
                    };
                    let knowledge = dealer.knowledge(seat);
                    let at =
                        |action: &Action| format!("seed {seed}: {action} at {:?}", state.pending);
                    for (from, card) in state.known_hand(seat, knowledge) {
                        let Some(c) = Card::from_index(card) else {
                            continue;
                        };
                        for &level in c.profession.thresholds() {
                            let play = Action::Play {
                                from,
                                card,
                                level: Some(level),
                            };
                            if let Some(fast) =
                                state.play_keeps_finishable(seat, from, c, level, knowledge)
                            {
                                let opened = matches!(from, HandCard::Dealt(_)).then_some(card);
                                let tried = state.keeps_finishable(seat, &play, opened, knowledge);
                                assert_eq!(fast, tried, "{}", at(&play));
                                plays[c.profession.index()] += 1;
                            }
                        }
                    }
                    let mut offered = Vec::new();
                    state.step_actions(seat, &mut offered);
                    let mut kept = Vec::new();
                    for step in &offered {
                        let tried = state.keeps_finishable(seat, step, None, knowledge);
                        if tried {
                            kept.push(*step);
                        }
                        if let Some(fast) = state.step_keeps_finishable(seat, step) {
                            assert_eq!(fast, tried, "{}", at(step));
                            steps += 1;
                        }
                    }
                    let mut judged = Vec::new();
                    if state.judged_swap_steps(seat, &mut judged) {
                        assert_eq!(judged, kept, "seed {seed}: swaps at {:?}", state.pending);
                        swap_lists += 1;
                    }
                },
            )
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        }
        assert!(
            plays.iter().all(|&n| n > 100),
            "too few plays judged per profession: {plays:?}"
        );
        assert!(steps > 1000, "only {steps} steps judged");
        assert!(swap_lists > 50, "only {swap_lists} swap lists judged");
    }

    /// Every step the pending ability offers is judged by the fast path
    /// (none left to the copy) as trying it on a copy judges it.
    fn steps_judged_as_on_a_copy(
        game: &Guildhall,
        seat: Seat,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        let mut steps = Vec::new();
        game.step_actions(seat, &mut steps);
        let mut kept = Vec::new();
        for step in &steps {
            let tried = game.keeps_finishable(seat, step, None, &Knowledge::new());
            let fast = game.step_keeps_finishable(seat, step);
            proptest::prop_assert_eq!(fast, Some(tried), "{}", step);
            if tried {
                kept.push(*step);
            }
        }
        let mut judged = Vec::new();
        if game.judged_swap_steps(seat, &mut judged) {
            proptest::prop_assert_eq!(judged, kept);
        }
        Ok(())
    }

    /// A chapter's colours, mostly none: sparse guildhalls reach the swaps
    /// whose outcome turns on a single card.
    fn sparse_chapter() -> impl proptest::strategy::Strategy<Value = u8> {
        proptest::prop_oneof![3 => proptest::strategy::Just(0u8), 2 => 0u8..0b1_1111]
    }

    proptest::proptest! {
        // Cheap cases, and the telling ones are rare: a swap that completes
        // a chapter and leaves nothing else to swap.
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4096))]

        /// The Trader swap's fast judgement agrees with trying the swap on
        /// a copy for any two guildhalls (random games rarely reach the
        /// corners: a swap that completes a chapter on either side, or a
        /// card the opponent already holds), one or two swaps left.
        #[test]
        fn swap_steps_are_judged_as_trying_them_on_a_copy_for_any_guildhalls(
            mine in proptest::array::uniform6(sparse_chapter()),
            theirs in proptest::array::uniform6(sparse_chapter()),
            left in 1u8..=2,
            chosen in proptest::bool::ANY,
        ) {
            let mut game = mid_game(3);
            let seat = Seat(0);
            game.halls[0] = mine;
            game.halls[2] = theirs;
            game.pending = Some(Pending::Swap { with: chosen.then_some(Seat(2)), left });
            steps_judged_as_on_a_copy(&game, seat)?;
        }

        /// An Assassin step's fast judgement agrees with trying the step
        /// on a copy for any victims' guildhalls and any step under way
        /// (random games rarely reach a level-2 Assassin whose second card
        /// must come from a chapter not yet hit).
        #[test]
        fn assassin_steps_are_judged_as_trying_them_on_a_copy_for_any_guildhalls(
            second in proptest::array::uniform6(sparse_chapter()),
            third in proptest::array::uniform6(sparse_chapter()),
            left in 1u8..=2,
            distinct in proptest::bool::ANY,
            hit in 0u8..0b100_0000,
            chosen in proptest::bool::ANY,
        ) {
            let mut game = mid_game(3);
            let seat = Seat(0);
            game.halls[1] = second;
            game.halls[2] = third;
            game.pending = Some(Pending::Assassinate {
                victim: chosen.then_some(Seat(2)),
                left,
                distinct,
                hit,
            });
            steps_judged_as_on_a_copy(&game, seat)?;
        }
    }
}
