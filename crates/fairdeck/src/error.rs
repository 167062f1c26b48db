//! The one error type of this crate.

use thiserror::Error;

/// Why an input was refused.
///
/// Every check in this crate returns one of these instead of panicking, and
/// each variant names what was wrong so that a table can turn it into a
/// precise complaint about a peer (or a precise message for a person at the
/// command line).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum FairdeckError {
    /// A byte string had the wrong length (a digest, seed, nonce, ...).
    #[error("{what} must be {expected} bytes, got {got}")]
    WrongLength {
        /// What was being read ("reveal", "seed", ...).
        what: &'static str,
        /// The length it must have.
        expected: usize,
        /// The length it had.
        got: usize,
    },
    /// A hexadecimal text has the wrong number of digits.
    #[error("{what} must be {expected} hex digits, got {got}")]
    WrongHexLength {
        /// What was being read.
        what: &'static str,
        /// The number of digits it must have.
        expected: usize,
        /// The number of characters it had.
        got: usize,
    },
    /// A text that should be hexadecimal is not.
    #[error("{what} is not hexadecimal: {reason}")]
    NotHex {
        /// What was being read.
        what: &'static str,
        /// What is wrong with the text.
        reason: String,
    },
    /// A chain length outside `1..=MAX_CHAIN_LENGTH`.
    #[error("chain length {length} is outside 1..={max}")]
    ChainLength {
        /// The length asked for.
        length: u64,
        /// The largest length this implementation accepts.
        max: u64,
    },
    /// A checkpoint interval of zero.
    #[error("the checkpoint interval must be at least 1")]
    CheckpointInterval,
    /// A reveal index outside `1..=length` of the chain.
    #[error("reveal index {index} is outside 1..={length}")]
    WrongIndex {
        /// The index asked for (k in "reveal k").
        index: u64,
        /// The chain's length L.
        length: u64,
    },
    /// A reveal arrived for another event than the one the chain expects next.
    #[error("expected the reveal for event {expected}, got one for event {got}")]
    WrongEvent {
        /// The event whose reveal is due.
        expected: u64,
        /// The event the reveal claims to answer.
        got: u64,
    },
    /// A reveal is not the preimage of the link before it.
    #[error("wrong link: the reveal{} does not hash to the previous link", for_event(*.event))]
    WrongLink {
        /// The event the reveal was for, when known.
        event: Option<u64>,
    },
    /// An opened chain's seed does not lead to the committed tip.
    #[error("the seed and length do not produce the committed chain tip")]
    WrongCommitment,
    /// More reveals were listed than the chain has links to reveal.
    #[error("{reveals} reveals for a chain of length {length}")]
    TooManyReveals {
        /// How many reveals were given.
        reveals: u64,
        /// The chain's length.
        length: u64,
    },
    /// The reveal of a chain's last link came before the seat's continuation.
    #[error(
        "the reveal for event {event} uses the chain's last link; its continuation must come first"
    )]
    ContinuationMissing {
        /// The last event of the current chain.
        event: u64,
    },
    /// A continuation does not start right after the current chain.
    #[error("a continuation must start at event {expected}, this one starts at {got}")]
    ContinuationMisplaced {
        /// The event the continuation has to start at.
        expected: u64,
        /// The event it claims to start at.
        got: u64,
    },
    /// A second continuation for the same chain.
    #[error("this chain already has a continuation")]
    ContinuationTwice,
    /// An event counter would pass `u64::MAX`.
    #[error("event numbers past {max} do not exist")]
    EventOverflow {
        /// The largest event number.
        max: u64,
    },
    /// A seat index at or beyond the number of seats.
    #[error("unknown seat {seat}: the table has {seats} seats")]
    UnknownSeat {
        /// The seat index given (counted from 0).
        seat: u8,
        /// The number of seats.
        seats: u8,
    },
    /// A seat revealed twice for one event, with different values.
    #[error("seat {seat} already revealed a different value for this event")]
    DuplicateReveal {
        /// The seat (counted from 0).
        seat: u8,
    },
    /// A reveal or forfeit for a seat that has already forfeited.
    #[error("seat {seat} has forfeited")]
    SeatForfeited {
        /// The seat (counted from 0).
        seat: u8,
    },
    /// A seat that has revealed cannot be marked forfeited for the same event.
    #[error("seat {seat} has already revealed for this event")]
    AlreadyRevealed {
        /// The seat (counted from 0).
        seat: u8,
    },
    /// The beacon cannot be computed yet: a seat neither revealed nor forfeited.
    #[error("seat {seat} has neither revealed nor forfeited")]
    MissingReveal {
        /// The first such seat (counted from 0).
        seat: u8,
    },
    /// Every seat forfeited: there is nobody left to produce randomness.
    #[error("every seat has forfeited; there is no beacon")]
    AllForfeited,
    /// A table or request with no seats.
    #[error("there are no seats")]
    NoSeats,
    /// A uniform draw from an empty range (`n = 0`, no seats).
    #[error("cannot pick uniformly from an empty range")]
    EmptyRange,
    /// More draws without replacement than the multiset holds.
    #[error("cannot draw {take} from a multiset of {total}")]
    TakeExceedsTotal {
        /// How many were to be drawn.
        take: u32,
        /// How many the multiset holds.
        total: u64,
    },
    /// The counts of a multiset add up to more than `u64::MAX`.
    #[error("the multiset's counts add up to more than 2^64 - 1")]
    CountsOverflow,
    /// A secret choice does not match its commitment.
    #[error("the opened choice and nonce do not match the commitment")]
    SecretMismatch,
}

fn for_event(event: Option<u64>) -> String {
    match event {
        Some(k) => format!(" for event {k}"),
        None => String::new(),
    }
}
