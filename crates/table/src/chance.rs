//! Answering the engine's chance requests from a beacon.
//!
//! This is the one place where a chance request meets the protocol's pinned
//! sampler: the engine's distribution is handed to `fairdeck::answer` with
//! the event's beacon, and the answer becomes the engine's outcome.

use roundtable_engine::{ChanceOutcome, Distribution};
use roundtable_fairdeck::{Chance, ChanceValue, answer};

use crate::TableError;

/// The outcome of `distribution` for the chance event whose beacon is `beacon`.
pub fn outcome(
    beacon: &[u8; 32],
    distribution: &Distribution<'_>,
) -> Result<ChanceOutcome, TableError> {
    let chance = match *distribution {
        Distribution::Uniform { n } => Chance::Uniform { n },
        Distribution::Multiset { counts, take } => Chance::Multiset { counts, take },
    };
    match answer(beacon, chance).map_err(|e| TableError::Fairdeck(e.to_string()))? {
        ChanceValue::Index(i) => Ok(ChanceOutcome::Index(i)),
        ChanceValue::Cards(c) => Ok(ChanceOutcome::Cards(c)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_follow_the_pinned_sampler() {
        let beacon = [42u8; 32];
        let d = Distribution::Multiset {
            counts: &[3, 0, 2, 5],
            take: 3,
        };
        let o = outcome(&beacon, &d).unwrap();
        assert!(d.admits(&o));
        // Same beacon, same outcome: the function is the protocol.
        assert_eq!(outcome(&beacon, &d).unwrap(), o);
        let u = outcome(&beacon, &Distribution::Uniform { n: 5 }).unwrap();
        assert!(matches!(u, ChanceOutcome::Index(i) if i < 5));
    }
}
