//! Driving a game without a table: sampling chance requests from a local
//! random source and picking decisions with a caller-supplied policy.
//!
//! This is for tests, benchmarks and bots' look-ahead, never for play between
//! peers: there chance comes from the committed beacon (`roundtable-fairdeck`).

use crate::{ChanceOutcome, Distribution, Game, Next, Seat};

/// Sample `distribution` using `uniform(n)`, which must return a uniform
/// integer in `[0, n)`. Multiset draws walk the counts in catalog order, the
/// same walk the protocol's sampler uses.
pub fn sample(
    distribution: &Distribution<'_>,
    uniform: &mut impl FnMut(u64) -> u64,
) -> ChanceOutcome {
    match *distribution {
        Distribution::Uniform { n } => ChanceOutcome::Index(uniform(n)),
        Distribution::Multiset { counts, take: 1 } => {
            let total: u64 = counts.iter().map(|&c| u64::from(c)).sum();
            if total == 0 {
                return ChanceOutcome::Cards(Vec::new());
            }
            let mut r = uniform(total);
            let card = counts
                .iter()
                .position(|&c| {
                    let hit = r < u64::from(c);
                    r = r.saturating_sub(u64::from(c));
                    hit
                })
                .unwrap_or(0);
            ChanceOutcome::Cards(vec![card as u32])
        }
        Distribution::Multiset { counts, take } => {
            let mut left: Vec<u32> = counts.to_vec();
            let mut total: u64 = left.iter().map(|&c| u64::from(c)).sum();
            let mut cards = Vec::with_capacity(take as usize);
            for _ in 0..take {
                if total == 0 {
                    break;
                }
                let mut r = uniform(total);
                for (i, c) in left.iter_mut().enumerate() {
                    if r < u64::from(*c) {
                        *c -= 1;
                        total -= 1;
                        cards.push(i as u32);
                        break;
                    }
                    r -= u64::from(*c);
                }
            }
            ChanceOutcome::Cards(cards)
        }
    }
}

/// Why a simulated game stopped before its end.
#[derive(Debug, thiserror::Error)]
pub enum SimError<E: std::error::Error + 'static> {
    /// The game refused an input its own `legal_actions` or `next` offered.
    #[error("the game refused its own offer: {0}")]
    Refused(#[source] E),
    /// A seat had a decision but no legal action.
    #[error("{0} must decide but has no legal action")]
    NoLegalAction(Seat),
    /// The game did not end within the step limit.
    #[error("the game did not end within {0} inputs")]
    TooLong(usize),
    /// The game waits for a simultaneous choice, which this driver does not make.
    #[error("simultaneous choices are not simulated")]
    Simultaneous,
}

/// Counts from a finished simulated game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Playout {
    /// Decisions applied.
    pub decisions: usize,
    /// Chance outcomes applied.
    pub chances: usize,
}

/// Play `game` to its end: chance from `uniform`, decisions from `policy`
/// (given the seat, the state and its legal actions, returns an index into
/// them). `inspect` sees the state after every input.
pub fn play<G: Game>(
    game: &mut G,
    max_inputs: usize,
    uniform: &mut impl FnMut(u64) -> u64,
    policy: &mut impl FnMut(Seat, &G, &[G::Action]) -> usize,
    inspect: &mut impl FnMut(&G),
) -> Result<Playout, SimError<G::Error>> {
    let mut events = Vec::new();
    let mut actions = Vec::new();
    let mut counts = Playout::default();
    loop {
        if counts.decisions + counts.chances >= max_inputs {
            return Err(SimError::TooLong(max_inputs));
        }
        events.clear();
        match game.next() {
            Next::Over => return Ok(counts),
            Next::Simultaneous(_) => return Err(SimError::Simultaneous),
            Next::Chance(request) => {
                let outcome = sample(&request.distribution, uniform);
                game.apply_chance(&outcome, &mut events)
                    .map_err(SimError::Refused)?;
                counts.chances += 1;
            }
            Next::Decision(seat) => {
                game.legal_actions(seat, &mut actions);
                if actions.is_empty() {
                    return Err(SimError::NoLegalAction(seat));
                }
                let i = policy(seat, game, &actions).min(actions.len() - 1);
                let action = actions[i].clone();
                game.apply_action(seat, &action, &mut events)
                    .map_err(SimError::Refused)?;
                counts.decisions += 1;
            }
        }
        inspect(game);
    }
}

/// A uniform integer in `[0, n)` from a stream of uniform 64-bit words,
/// rejecting the words that would bias `v mod n` (the protocol's rule).
/// `n` must be at least 1.
pub fn uniform_below(n: u64, next_u64: &mut impl FnMut() -> u64) -> u64 {
    let n = n.max(1);
    let zone = u64::MAX - (u64::MAX - n + 1) % n;
    loop {
        let v = next_u64();
        if v <= zone {
            return v % n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_below_rejects_the_biased_tail() {
        // For n = 3, 2^64 mod 3 = 1, so only u64::MAX itself is rejected.
        let mut words = [u64::MAX, 7].into_iter();
        assert_eq!(uniform_below(3, &mut || words.next().unwrap_or(0)), 1);
        let mut one = || 42;
        assert_eq!(uniform_below(1, &mut one), 0);
    }

    #[test]
    fn multiset_sampling_walks_counts_in_catalog_order() {
        let counts = [2, 0, 1];
        let mut picks = [2u64, 0].into_iter();
        let outcome = sample(
            &Distribution::Multiset {
                counts: &counts,
                take: 2,
            },
            &mut |_| picks.next().unwrap_or(0),
        );
        assert_eq!(outcome, ChanceOutcome::Cards(vec![2, 0]));
    }
}
