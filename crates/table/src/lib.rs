//! The table: a sans-IO session that plays one game between peers with no host.
//!
//! [`Table`] is a pure state machine in the style of quinn-proto and str0m:
//! inputs arrive as method calls (an envelope from the network, a local
//! decision, the time), outputs are polled ([`Table::poll_output`]), and the
//! next deadline is [`Table::poll_timeout`]. It never reads a clock, draws a
//! random number or touches a socket or file.
//!
//! * **Genesis** ([`genesis`]): a proposal whose hash is the game id, valid
//!   once every seat has signed its acceptance.
//! * **Envelopes** ([`envelope`]): everything a seat says is a signed envelope
//!   in the seat's own hash-linked sequence.
//! * **Ordering**: the engine's `next` decides what is applied; envelopes that
//!   arrive early wait in a bounded buffer, duplicates are ignored, and the
//!   result does not depend on arrival order.
//! * **Chance**: every seat reveals the next link of its committed hash chain;
//!   the beacon of all reveals seeds the pinned sampler ([`chance`]).
//! * **Violations** ([`proof`]): a cheat that a signed envelope proves is kept
//!   as a [`Violation`] that a third party can check, and the table fails
//!   closed.
//! * **Time**: a seat that does not act or reveal in time can be claimed
//!   stalled; when every other seat has signed the claim it forfeits and plays
//!   on as a deterministic zombie.
//! * **Transcripts** ([`transcript`]), **audit** ([`audit`]) and the
//!   **verdict** on several transcripts of one game ([`verdict`]).
//! * **Durable files** ([`durable`]): the one way a finished transcript, a
//!   key or a chain seed is written (atomic, synced, private to its owner).
//!
//! The byte layout of everything here is specified in `protocol/SPEC.md`.

use std::fmt;

use serde::{Deserialize, Serialize};

pub mod audit;
pub mod chance;
mod dealing;
pub mod durable;
pub use dealing::{DEAL_MESSAGE_DOMAIN, DEAL_ROOT_DOMAIN, DEAL_SECRET_DOMAIN};
pub mod envelope;
pub mod genesis;
pub mod identity;
pub mod proof;
mod table;
pub mod transcript;
pub mod verdict;

pub use envelope::{Body, Envelope, Proof96, Reveal, Signed};
pub use genesis::{Acceptance, Genesis, Proposal, SeatInfo};
pub use identity::{Identity, PublicKey, SignatureBytes};
pub use proof::Violation;
pub use table::{CO_CLAIM_TIMEOUTS, Config, Local, Output, PrivateStep, Record, Table};

/// A game id: the hash of the genesis proposal.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct GameId(pub [u8; 32]);

impl fmt::Debug for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GameId({})", hex::encode(self.0))
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hex::encode(self.0))
    }
}

/// A SHA-256 value (envelope hashes, state hashes).
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Hash32(pub [u8; 32]);

impl fmt::Debug for Hash32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", &hex::encode(self.0)[..16])
    }
}

/// Decode one postcard value that must use every byte (SPEC 3.1): postcard
/// itself ignores leftovers, which a conformant peer in another language
/// must refuse, so Rust peers refuse them too. The error says what is wrong.
pub fn decode_exact<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    let (value, rest) = postcard::take_from_bytes::<T>(bytes).map_err(|e| e.to_string())?;
    if rest.is_empty() {
        Ok(value)
    } else {
        Err(format!("{} trailing bytes", rest.len()))
    }
}

/// An input the table refuses without blaming a seat (anyone could have sent
/// it), or a request it cannot serve.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// Not a valid ed25519 public key.
    #[error("not a valid public key")]
    BadKey,
    /// A small-order public key, refused at join.
    #[error("a weak (small-order) public key")]
    WeakKey,
    /// The signature does not verify under the seat's key.
    #[error("bad signature")]
    BadSignature,
    /// The bytes do not decode.
    #[error("malformed message: {0}")]
    Malformed(String),
    /// The message exceeds the size limit.
    #[error("message of {0} bytes is too large")]
    TooLarge(usize),
    /// The envelope belongs to another game (a replay from elsewhere).
    #[error("envelope for another game")]
    WrongGame,
    /// No such seat at this table.
    #[error("no seat {0} at this table")]
    UnknownSeat(u8),
    /// The key is not seated at this table.
    #[error("this key has no seat at the table")]
    NotSeated,
    /// The genesis is not valid.
    #[error("genesis: {0}")]
    Genesis(String),
    /// Too many envelopes of one seat wait for earlier ones.
    #[error("seat {0} has too many envelopes waiting")]
    BufferFull(u8),
    /// A local decision the game does not accept now.
    #[error("refused: {rule}: {message}")]
    Refused {
        /// The broken rule.
        rule: &'static str,
        /// What the game said.
        message: String,
    },
    /// The local seat has no decision to make now.
    #[error("it is not this seat's decision")]
    NotYourDecision,
    /// The table stopped after a proven violation.
    #[error("the table has stopped after a violation by seat {0}")]
    Failed(u8),
    /// A chain or beacon error from fairdeck.
    #[error("randomness: {0}")]
    Fairdeck(String),
    /// The game posed a private request no deal can serve (a bug of the
    /// game, not of any seat): the table stopped there, blaming nobody.
    #[error("the table has stopped at a private request no deal can serve: {0}")]
    Unservable(roundtable_engine::RequestError),
}
