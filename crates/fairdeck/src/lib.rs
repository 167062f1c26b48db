//! Commit-reveal randomness for roundtable: randomness no seat controls and
//! no seat can foresee, without a server.
//!
//! The wire format is specified byte for byte in `protocol/SPEC.md`, part
//! "Randomness (fairdeck)", and pinned by the known-answer vectors in
//! `protocol/vectors/`. In short:
//!
//! 1. **Hash chains** ([`ChainSecret`]): at genesis every seat commits to the
//!    tip of a SHA-256 chain grown from a secret seed; chance event `k` is
//!    answered by every seat revealing the chain's `k`-th link from the top,
//!    which anyone checks with one hash ([`verify_reveal`], [`ChainTracker`]).
//!    After the game the seeds are published and whole chains checked
//!    ([`verify_opened_chain`]). A game that outlives its chain continues with
//!    a signed commitment to the next chain ([`ChainContinuation`]), whose
//!    seed derives from the genesis seed ([`continuation_seed`]), so the one
//!    opening after the game proves every chain.
//! 2. **Beacons** ([`beacon`], [`EventReveals`]): the hash of the game id, the
//!    event number and every seat's reveal; a forfeited seat is left out and
//!    named in the domain string.
//! 3. **The sampler** ([`Sampler`], [`answer`]): ChaCha20 keyed by the beacon,
//!    a uniform integer by rejection, draws without replacement from a
//!    multiset by walking its counts, a uniform seat.
//! 4. **Secret choices** ([`commit_secret`], [`verify_secret`]) for
//!    simultaneous moves.
//!
//! Nothing here panics on input: every check returns a [`FairdeckError`]
//! naming what was wrong.
//!
//! ```
//! use roundtable_fairdeck::{ChainSecret, ChainTracker, Sampler, beacon};
//!
//! let game_id = [7u8; 32];
//! let alice = ChainSecret::new([1; 32], 16)?;
//! let bob = ChainSecret::new([2; 32], 16)?;
//! // Genesis: both commitments are published; peers track each chain.
//! let mut alice_seen = ChainTracker::new(alice.commitment(), 16)?;
//! // Chance event 1: each seat reveals its first link ...
//! let (a1, b1) = (alice.reveal(1)?, bob.reveal(1)?);
//! alice_seen.accept(1, &a1)?;
//! // ... and everyone computes the same beacon and outcome.
//! let b = beacon(&game_id, 1, &[Some(a1), Some(b1)]);
//! let start_player = Sampler::new(&b).pick_seat(2)?;
//! assert!(start_player < 2);
//! # Ok::<(), roundtable_fairdeck::FairdeckError>(())
//! ```

mod beacon;
mod chain;
mod error;
mod sampler;
mod secret;

pub use beacon::{BEACON_DOMAIN, EventReveals, FORFEIT_BEACON_PREFIX, beacon, beacon_domain};
pub use chain::{
    CHAIN_DOMAIN, CONTINUATION_SEED_DOMAIN, ChainContinuation, ChainSecret, ChainTracker,
    DEFAULT_CHAIN_LENGTH, DEFAULT_CHECKPOINT_INTERVAL, MAX_CHAIN_LENGTH, chain_commitment,
    chain_start, continuation_seed, next_link, verify_opened_chain, verify_reveal,
};
pub use error::FairdeckError;
pub use sampler::{Chance, ChanceValue, Sampler, answer};
pub use secret::{SECRET_DOMAIN, commit_secret, secret_preimage, verify_secret};

/// The protocol version this crate implements (the `v1` in every domain string).
pub const PROTOCOL_VERSION: u32 = 1;

/// Read a 32-byte value (digest, seed, nonce, game id) from bytes that came
/// from elsewhere; `what` names it in the error.
pub fn bytes32(what: &'static str, bytes: &[u8]) -> Result<[u8; 32], FairdeckError> {
    <[u8; 32]>::try_from(bytes).map_err(|_| FairdeckError::WrongLength {
        what,
        expected: 32,
        got: bytes.len(),
    })
}

/// Read a 32-byte value written as 64 hexadecimal digits (either case, no
/// prefix, no spaces); `what` names it in the error.
pub fn parse_hex32(what: &'static str, text: &str) -> Result<[u8; 32], FairdeckError> {
    let digits = text.chars().count();
    if digits != 64 {
        return Err(FairdeckError::WrongHexLength {
            what,
            expected: 64,
            got: digits,
        });
    }
    let bytes = hex::decode(text).map_err(|e| FairdeckError::NotHex {
        what,
        reason: e.to_string(),
    })?;
    bytes32(what, &bytes)
}

/// A 32-byte value as 64 lowercase hexadecimal digits.
pub fn hex32(bytes: &[u8; 32]) -> String {
    hex::encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_decoding_names_the_problem() {
        let good = "00".repeat(32);
        assert_eq!(parse_hex32("seed", &good), Ok([0; 32]));
        assert_eq!(parse_hex32("seed", &"AB".repeat(32)), Ok([0xab; 32]));
        assert_eq!(
            parse_hex32("seed", "abc"),
            Err(FairdeckError::WrongHexLength {
                what: "seed",
                expected: 64,
                got: 3
            })
        );
        assert!(matches!(
            parse_hex32("seed", &"zz".repeat(32)),
            Err(FairdeckError::NotHex { .. })
        ));
        assert!(matches!(
            parse_hex32("seed", &"é".repeat(64)),
            Err(FairdeckError::NotHex { .. })
        ));
        assert_eq!(
            bytes32("reveal", &[0; 31]),
            Err(FairdeckError::WrongLength {
                what: "reveal",
                expected: 32,
                got: 31
            })
        );
        assert_eq!(hex32(&[0xab; 32]), "ab".repeat(32));
    }

    #[test]
    fn errors_read_as_sentences() {
        let e = FairdeckError::WrongLink { event: Some(4) };
        assert_eq!(
            e.to_string(),
            "wrong link: the reveal for event 4 does not hash to the previous link"
        );
        let e = FairdeckError::WrongLink { event: None };
        assert_eq!(
            e.to_string(),
            "wrong link: the reveal does not hash to the previous link"
        );
    }
}
