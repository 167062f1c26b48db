//! The hard bot's pace: its think time is the most one decision takes, a
//! decision among few actions gets a share of it, a search stops once more
//! playouts could not change its choice, and a driver's deadline bounds
//! the next answer. Budgets are playout counts (or a zero deadline), never
//! a time to wait for, so every assertion is exact.

use std::time::Duration;

use proptest::prelude::*;
use roundtable_bots::{
    Bot, Budget, ENOUGH_PLAYOUTS_PER_ACTION, FULL_THINK_ACTIONS, RandomBot, STALL_CLOCK_SHARE,
    SearchBot, answer_limit, settled,
};
use roundtable_engine::{Game, Knowledge};
use roundtable_port_royal::PortRoyal;

use crate::search::{decider, port_royal_position};

#[test]
fn a_paced_budget_is_shared_by_the_number_of_actions() {
    let most = Budget::playouts(8_000).paced();
    assert_eq!(most.for_actions(0, FULL_THINK_ACTIONS).playouts, 0);
    assert_eq!(most.for_actions(1, FULL_THINK_ACTIONS).playouts, 0);
    assert_eq!(most.for_actions(2, FULL_THINK_ACTIONS).playouts, 2_000);
    assert_eq!(most.for_actions(3, FULL_THINK_ACTIONS).playouts, 3_000);
    assert_eq!(most.for_actions(8, FULL_THINK_ACTIONS).playouts, 8_000);
    assert_eq!(most.for_actions(300, FULL_THINK_ACTIONS).playouts, 8_000);
    // Never fewer than enough to rank the actions, within the whole.
    let small = Budget::playouts(800).paced();
    assert_eq!(small.enough(2), 2 * ENOUGH_PLAYOUTS_PER_ACTION);
    assert_eq!(
        small.for_actions(2, FULL_THINK_ACTIONS).playouts,
        small.enough(2)
    );
    assert_eq!(small.for_actions(5, FULL_THINK_ACTIONS).playouts, 800);
    let second = Duration::from_secs(1);
    let up_to = Budget::up_to(second);
    assert_eq!(
        up_to.for_actions(1, FULL_THINK_ACTIONS).time,
        Some(Duration::ZERO)
    );
    assert_eq!(
        up_to.for_actions(2, FULL_THINK_ACTIONS).time,
        Some(second / 4)
    );
    assert_eq!(
        up_to.for_actions(5, FULL_THINK_ACTIONS).time,
        Some(second * 5 / 8)
    );
    assert_eq!(up_to.for_actions(9, FULL_THINK_ACTIONS).time, Some(second));
    // Unpaced, every decision spends the whole budget, as before.
    assert_eq!(
        Budget::playouts(800).for_actions(2, FULL_THINK_ACTIONS),
        Budget::playouts(800)
    );
    assert_eq!(
        Budget::time(second).for_actions(2, FULL_THINK_ACTIONS),
        Budget::time(second)
    );
}

#[test]
fn a_deadline_cuts_a_budget_and_never_lengthens_it() {
    let second = Duration::from_secs(1);
    let short = Duration::from_millis(300);
    assert_eq!(Budget::up_to(second).within(short).time, Some(short));
    assert_eq!(Budget::up_to(short).within(second).time, Some(short));
    // A playout budget gets a time limit too.
    assert_eq!(Budget::playouts(50).within(short).time, Some(short));
}

#[test]
fn a_choice_is_settled_when_the_runner_up_cannot_catch_up() {
    assert!(settled(&[10, 4], 5));
    assert!(!settled(&[10, 5], 5));
    assert!(settled(&[0, 7, 1], 5));
    // A tie never settles: the budget decides, and the policy breaks it.
    assert!(!settled(&[3, 3], 0));
    assert!(!settled(&[], 0));
}

#[test]
fn the_answer_limit_is_a_share_of_what_is_left_on_the_turn_clock() {
    // A table with the shortest stall timeout a peer accepts (10 s), the
    // position begun at 50 s, the bot deciding 1 s later.
    let claimable_at = 50_000 + 10_000;
    assert_eq!(
        answer_limit(51_000, claimable_at),
        Duration::from_millis(9_000 / u64::from(STALL_CLOCK_SHARE))
    );
    // However late the bot starts, it answers well before the claim: what
    // it has already waited plus its limit stays under the timeout.
    for waited in [0u64, 1, 2_500, 7_000, 9_999, 10_000, 30_000] {
        let limit = answer_limit(50_000 + waited, claimable_at).as_millis() as u64;
        assert!(
            waited >= 10_000 || waited + limit < 10_000,
            "waited {waited}: {limit} ms"
        );
    }
    assert_eq!(answer_limit(70_000, claimable_at), Duration::ZERO);
}

/// A deadline given by a driver bounds the next decision, and only that
/// one: a deadline already reached leaves one playout.
#[test]
fn a_deadline_bounds_the_next_answer_only() {
    let state = port_royal_position(3, 4, 5).expect("a position 5 choices in");
    let seat = decider(&state);
    let legal = state.legal_actions_vec(seat);
    let mut bot = SearchBot::new(Budget::playouts(37), RandomBot::new(1), 1);
    bot.answer_within(Duration::ZERO);
    let pick = bot.choose_in(seat, &state, &Knowledge::new(), &legal);
    assert!(pick < legal.len());
    assert_eq!(bot.stats().last_playouts, 1);
    bot.choose_in(seat, &state, &Knowledge::new(), &legal);
    assert_eq!(bot.stats().last_playouts, 37);
}

/// The first `count` positions with a real choice of `count` Port Royal
/// games (one position a game, a few choices in).
fn positions(count: u64) -> Vec<PortRoyal> {
    (0..count)
        .filter_map(|g| port_royal_position(100 + g, 200 + g, (g % 9) as usize))
        .collect()
}

/// Stopping at a settled choice picks what spending the whole (shared)
/// budget would, from the same seed, and over Port Royal positions (two-way
/// draws and stops among them) it spends less: where one option dominates
/// the search ends early.
#[test]
fn a_settled_search_chooses_as_the_whole_budget_would() {
    let mut paced_playouts = 0;
    let mut whole_playouts = 0;
    let mut settled_decisions = 0;
    let mut two_way = 0;
    for (g, state) in positions(24).iter().enumerate() {
        let seat = decider(state);
        let legal = state.legal_actions_vec(seat);
        let seed = g as u64;
        let most = Budget::playouts(400).paced();
        let mut paced = SearchBot::new(most, RandomBot::new(seed), seed);
        let mut whole = SearchBot::new(
            Budget::playouts(most.for_actions(legal.len(), FULL_THINK_ACTIONS).playouts),
            RandomBot::new(seed),
            seed,
        );
        let paced_pick = paced.choose_in(seat, state, &Knowledge::new(), &legal);
        let whole_pick = whole.choose_in(seat, state, &Knowledge::new(), &legal);
        assert_eq!(paced_pick, whole_pick, "position {g}: {legal:?}");
        assert!(paced.stats().playouts <= whole.stats().playouts);
        if legal.len() == 2 {
            two_way += 1;
        }
        paced_playouts += paced.stats().playouts;
        whole_playouts += whole.stats().playouts;
        settled_decisions += paced.stats().settled;
    }
    assert!(two_way > 0, "no two-way choice among the positions");
    assert!(settled_decisions > 0, "no choice settled early");
    assert!(
        paced_playouts < whole_playouts,
        "{paced_playouts} of {whole_playouts}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A paced share never exceeds the whole budget, grows with the number
    /// of actions, is the whole from `FULL_THINK_ACTIONS` on, and leaves a
    /// real choice at least one playout.
    #[test]
    fn a_share_is_within_the_whole(playouts in 0u32..=u32::MAX, actions in 0usize..400, ms in 0u64..120_000) {
        let most = Budget { playouts, time: Some(Duration::from_millis(ms)), paced: true };
        let share = most.for_actions(actions, FULL_THINK_ACTIONS);
        let more = most.for_actions(actions + 1, FULL_THINK_ACTIONS);
        prop_assert!(share.playouts <= playouts);
        prop_assert!(share.time <= most.time);
        prop_assert!(share.playouts <= more.playouts && share.time <= more.time);
        if actions >= FULL_THINK_ACTIONS as usize {
            prop_assert_eq!(share, most);
        }
        if actions >= 2 && playouts > 0 {
            prop_assert!(share.playouts >= 1);
        }
        if actions <= 1 {
            prop_assert_eq!(share.playouts, 0);
        }
    }
}
