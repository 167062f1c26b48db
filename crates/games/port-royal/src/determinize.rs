//! What a searching bot may guess: nothing, because Port Royal has no
//! private cards.
//!
//! Every card in a Port Royal state is either face up (the harbor, the
//! expeditions, the displays, the discard pile's played cards: everyone saw
//! them) or unseen by everyone (the draw pile and the coins, which are
//! face-down cards). Unseen cards have no identity in the state: the
//! [`roundtable_engine::UnseenPool`] keeps only how many of each remain per
//! shuffle epoch, and revealing one is a chance request over that multiset.
//! So the state holds no order of the deck to leak, a bot that clones it
//! knows exactly what every seat knows, and its imagined continuations draw
//! the future cards through chance requests, never from the real deck
//! (which no peer's memory holds either).

use roundtable_engine::{Determinize, Knowledge, Seat};

use crate::PortRoyal;

impl Determinize for PortRoyal {
    /// No private handles exist, so there is nothing to guess.
    fn sample_hidden(
        &self,
        _seat: Seat,
        _knowledge: &Knowledge,
        _uniform: &mut dyn FnMut(u64) -> u64,
    ) -> Knowledge {
        Knowledge::new()
    }
}
