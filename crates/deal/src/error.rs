//! The one error type of this crate.

use thiserror::Error;

/// Why an input or a proof was refused.
///
/// Every decoder and every check in this crate returns one of these instead
/// of panicking. Each variant names the rule that was broken, so that a table
/// can turn it into a precise complaint about a peer, and a person at the
/// command line gets one clear line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum DealError {
    /// A message had the wrong number of bytes for what it claims to hold.
    #[error("{what} must be {expected} bytes, got {got}")]
    WrongLength {
        /// What was being read ("key share message", "deck", ...).
        what: &'static str,
        /// The length it must have.
        expected: usize,
        /// The length it had.
        got: usize,
    },
    /// 32 bytes that should encode a ristretto255 point do not encode one
    /// canonically (RFC 9496, section 4.3.1: decoding rejects everything else).
    #[error("{what} is not a canonical ristretto255 point encoding")]
    NonCanonicalPoint {
        /// Which point was being read.
        what: &'static str,
    },
    /// 32 bytes that should encode a scalar are not the little-endian
    /// encoding of an integer below the group order ℓ.
    #[error("{what} is not a canonical scalar (it must be below the group order)")]
    NonCanonicalScalar {
        /// Which scalar was being read.
        what: &'static str,
    },
    /// A deck is empty or larger than [`crate::MAX_DECK_SIZE`].
    #[error("a deck must hold 1 to {max} cards, this one holds {got}")]
    DeckSize {
        /// The largest deck the protocol allows.
        max: usize,
        /// The number of cards found.
        got: usize,
    },
    /// A shuffle's output deck has a different size than its input deck.
    #[error("a shuffle must output as many cards as it takes in ({input}), it outputs {output}")]
    ShuffleSize {
        /// Cards in the input deck.
        input: usize,
        /// Cards in the output deck.
        output: usize,
    },
    /// A card index at or beyond the deck's size.
    #[error("card {index} does not exist in a deck of {size} cards")]
    NoSuchCard {
        /// The index asked for.
        index: u32,
        /// The number of cards in the deck.
        size: u32,
    },
    /// A key share, the deck key or a decryption base is the identity point,
    /// which would hide nothing.
    #[error("{what} must not be the identity point")]
    IdentityPoint {
        /// Which point it was.
        what: &'static str,
    },
    /// The deck key is the sum of no key shares at all.
    #[error("the deck key needs at least one key share")]
    NoKeyShares,
    /// A zero-knowledge proof does not verify against its statement.
    #[error("the {proof} proof does not verify")]
    ProofFailed {
        /// Which proof ("key share", "shuffle", "decryption share").
        proof: &'static str,
    },
    /// A released secret key share does not match the seat's published key share.
    #[error("the released secret does not match the published key share")]
    ReleaseMismatch,
    /// An opened card is none of the deck's cards: some decryption share was
    /// missing or wrong.
    #[error("the opened point is none of the deck's {size} cards")]
    UnknownCard {
        /// The number of cards in the deck.
        size: u32,
    },
}
