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
        Distribution::Multiset { counts, take, .. } => Chance::Multiset { counts, take },
    };
    match answer(beacon, chance).map_err(|e| TableError::Fairdeck(e.to_string()))? {
        ChanceValue::Index(i) => Ok(ChanceOutcome::Index(i)),
        ChanceValue::Cards(c) => Ok(ChanceOutcome::Cards(c)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn beacon(hex: &str) -> [u8; 32] {
        let mut b = [0u8; 32];
        for (i, byte) in b.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap();
        }
        b
    }

    /// The first case of `protocol/vectors/draw.json` ("issue example"),
    /// through the engine's distribution type: the table hands the sampler
    /// exactly the counts and the number taken, and the cards come back in
    /// the order drawn.
    #[test]
    fn outcomes_follow_the_pinned_sampler() {
        let vectors: serde_json::Value =
            serde_json::from_str(include_str!("../../../protocol/vectors/draw.json")).unwrap();
        let case = &vectors["cases"][0];
        assert_eq!(case["what"], "issue example");
        let d = Distribution::multiset(&[3, 0, 2, 5], 3);
        assert_eq!(case["counts"], serde_json::json!([3, 0, 2, 5]));
        let o = outcome(&beacon(case["beacon"].as_str().unwrap()), &d).unwrap();
        let expected: Vec<u32> = serde_json::from_value(case["indices"].clone()).unwrap();
        assert_eq!(o, ChanceOutcome::Cards(expected.clone()));
        assert!(d.admits(&o));
    }
}
