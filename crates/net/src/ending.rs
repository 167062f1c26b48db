//! When a peer's part at a table is over, decided from what it knows and the
//! time the driver hands in: nothing here reads a clock or touches the
//! network, so every rule is tested with made-up instants.
//!
//! Two rules (SPEC 4.4):
//!
//! * **Serving after the end.** A finished seat keeps answering catch-up for
//!   at least [`Timing::linger_min`](crate::Timing::linger_min), so that a
//!   spectator or a seat that arrives late still finds someone to ask, and
//!   after that until every peer it waits for ([`still_behind`]) has
//!   reported heads at least its own, for at most
//!   [`Timing::linger`](crate::Timing::linger).
//! * **Giving up.** A peer whose game is not over, or that has not reached
//!   its host yet, and that has had no peer to talk to and seen no progress
//!   for a bounded time ([`Contact`]), says so and stops.

use std::collections::HashMap;
use std::hash::Hash;
use std::time::{Duration, Instant};

/// Whether a finished peer may stop answering catch-up, `since_end` after
/// its game ended: never before `min`, always after `max`, and in between
/// once nobody it waits for is behind.
pub(crate) fn may_stop_serving(
    since_end: Duration,
    min: Duration,
    max: Duration,
    nobody_behind: bool,
) -> bool {
    since_end >= max || (since_end >= min && nobody_behind)
}

/// Whether `theirs` (a peer's reported heads) has every envelope `mine`
/// has, ignoring forfeited seats: what a forfeited seat signed after its
/// forfeit is not part of the game, so peers need not agree on it.
pub(crate) fn has_caught_up(mine: &[u64], theirs: &[u64], forfeited: &[bool]) -> bool {
    theirs.len() == mine.len()
        && mine
            .iter()
            .zip(theirs)
            .enumerate()
            .all(|(s, (m, t))| forfeited.get(s).copied().unwrap_or(false) || t >= m)
}

/// The peers a finished seat still waits for before it stops serving:
///
/// * every seat's peer other than `me` whose seat did not forfeit, whether
///   connected or not (it must get the end of its own game), and
/// * every other peer that asked for catch-up and is still connected (a
///   spectator, or a forfeited seat that still follows the game): the
///   driver keeps in `heads` the latest heads of the seats in the game and
///   of exactly those.
///
/// A peer is behind until its reported heads [`has_caught_up`].
pub(crate) fn still_behind<P: Copy + Eq + Hash>(
    me: P,
    seats: &[P],
    forfeited: &[bool],
    heads: &HashMap<P, Vec<u64>>,
    mine: &[u64],
) -> Vec<P> {
    let behind = |p: &P| {
        !heads
            .get(p)
            .is_some_and(|h| has_caught_up(mine, h, forfeited))
    };
    let mut waiting: Vec<P> = seats
        .iter()
        .enumerate()
        .filter(|&(s, p)| *p != me && !forfeited.get(s).copied().unwrap_or(false))
        .map(|(_, p)| *p)
        .filter(|p| behind(p))
        .collect();
    waiting.extend(
        heads
            .keys()
            .filter(|p| **p != me && !seats.contains(p) && behind(p))
            .copied(),
    );
    // Forfeited seats that asked are in `heads` too.
    waiting.extend(
        seats
            .iter()
            .enumerate()
            .filter(|&(s, p)| *p != me && forfeited.get(s).copied().unwrap_or(false))
            .map(|(_, p)| *p)
            .filter(|p| heads.contains_key(p) && behind(p)),
    );
    waiting
}

/// When a peer last had someone to talk to or saw its game move: the
/// driver reports what it sees on every tick, and asks how long it has
/// been alone.
#[derive(Clone, Debug)]
pub(crate) struct Contact {
    since: Instant,
    position: u64,
    reached: bool,
}

impl Contact {
    /// Start counting at `now`, at game position `position` (0 before a
    /// game exists).
    pub(crate) fn new(now: Instant, position: u64) -> Contact {
        Contact {
            since: now,
            position,
            reached: false,
        }
    }

    /// What the driver sees at `now`: whether some peer that matters is
    /// connected, and the game's position. Either one resets the count.
    pub(crate) fn observe(&mut self, now: Instant, reachable: bool, position: u64) {
        if reachable || position != self.position {
            self.since = now;
        }
        self.reached |= reachable;
        self.position = position;
    }

    /// Whether a peer that matters was ever connected since the count began.
    pub(crate) fn ever_reached(&self) -> bool {
        self.reached
    }

    /// Whether nobody was reachable and nothing moved for `patience`.
    pub(crate) fn alone_for(&self, now: Instant, patience: Duration) -> bool {
        now.saturating_duration_since(self.since) >= patience
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: Duration = Duration::from_secs(5);
    const MAX: Duration = Duration::from_secs(30);

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn a_finished_peer_serves_at_least_the_minimum_even_when_nobody_is_behind() {
        assert!(!may_stop_serving(secs(0), MIN, MAX, true));
        assert!(!may_stop_serving(secs(4), MIN, MAX, true));
        assert!(may_stop_serving(secs(5), MIN, MAX, true));
    }

    #[test]
    fn a_finished_peer_waits_for_peers_behind_but_not_past_the_maximum() {
        assert!(!may_stop_serving(secs(6), MIN, MAX, false));
        assert!(!may_stop_serving(secs(29), MIN, MAX, false));
        assert!(may_stop_serving(secs(30), MIN, MAX, false));
    }

    #[test]
    fn heads_of_forfeited_seats_do_not_count() {
        assert!(has_caught_up(&[3, 5], &[3, 5], &[false, false]));
        assert!(has_caught_up(&[3, 5], &[4, 6], &[false, false]));
        assert!(!has_caught_up(&[3, 5], &[3, 4], &[false, false]));
        assert!(has_caught_up(&[3, 5], &[3, 0], &[false, true]));
        assert!(!has_caught_up(&[3, 5], &[3], &[false, false]));
    }

    #[test]
    fn seats_are_waited_for_connected_or_not() {
        let heads = HashMap::from([(2u8, vec![9, 9, 9])]);
        let behind = still_behind(0u8, &[0, 1, 2], &[false; 3], &heads, &[9, 9, 9]);
        assert_eq!(behind, vec![1]);
    }

    #[test]
    fn a_spectator_that_asked_is_waited_for_until_it_has_the_end() {
        let mine = [9, 9];
        let mut heads = HashMap::from([(1u8, vec![9, 9]), (7u8, vec![2, 1])]);
        assert_eq!(
            still_behind(0u8, &[0, 1], &[false; 2], &heads, &mine),
            vec![7]
        );
        heads.insert(7, vec![9, 9]);
        assert!(still_behind(0u8, &[0, 1], &[false; 2], &heads, &mine).is_empty());
    }

    #[test]
    fn a_forfeited_seat_is_waited_for_only_if_it_asked() {
        let mine = [9, 4, 9];
        let forfeited = [false, true, false];
        let mut heads = HashMap::from([(2u8, vec![9, 0, 9])]);
        assert!(still_behind(0u8, &[0, 1, 2], &forfeited, &heads, &mine).is_empty());
        heads.insert(1, vec![5, 4, 3]);
        assert_eq!(
            still_behind(0u8, &[0, 1, 2], &forfeited, &heads, &mine),
            vec![1]
        );
    }

    #[test]
    fn contact_counts_from_the_last_peer_seen_or_the_last_move() {
        let t0 = Instant::now();
        let mut c = Contact::new(t0, 0);
        c.observe(t0 + secs(1), false, 0);
        assert!(!c.alone_for(t0 + secs(9), secs(10)));
        assert!(c.alone_for(t0 + secs(10), secs(10)));
        assert!(!c.ever_reached());
        c.observe(t0 + secs(10), true, 0);
        assert!(c.ever_reached());
        c.observe(t0 + secs(15), false, 0);
        assert!(!c.alone_for(t0 + secs(19), secs(10)));
        // The table moved on its own (a stall claim): not alone yet.
        c.observe(t0 + secs(19), false, 3);
        assert!(!c.alone_for(t0 + secs(28), secs(10)));
        assert!(c.alone_for(t0 + secs(29), secs(10)));
    }
}
