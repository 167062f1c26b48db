//! Proven violations: signed evidence that a seat broke the protocol.
//!
//! Equivocation and a broken sequence are proven by the envelopes alone (two
//! signatures by one key that cannot both be honest). The others are proven
//! by the envelope together with the transcript before it: an auditor
//! replays the game to the envelope's position and sees what the honest
//! input would have been.

use serde::{Deserialize, Serialize};

use crate::envelope::Signed;
use crate::genesis::Genesis;
use crate::{Hash32, TableError};

/// A seat's proven breach of the protocol.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Violation {
    /// Two different envelopes with the same seat and sequence number.
    Equivocation {
        /// One of them.
        first: Signed,
        /// The other.
        second: Signed,
    },
    /// An envelope whose `prev` is not the hash of the seat's envelope before it.
    BrokenSequence {
        /// The seat's envelope at `seq - 1`.
        previous: Signed,
        /// The envelope at `seq` that does not follow it.
        next: Signed,
    },
    /// An action the rules refuse at the position where it had to be applied.
    IllegalAction {
        /// The envelope.
        envelope: Signed,
        /// The rule it broke.
        rule: String,
    },
    /// An envelope written for another transcript position than the one at
    /// which the game needed that seat (acting out of turn, skipping, or
    /// replaying an old message).
    WrongPosition {
        /// The envelope.
        envelope: Signed,
        /// The position at which the game needed it.
        expected: u64,
    },
    /// An envelope that claims a state hash other than the game's at its
    /// position: the author's game has forked from the rules.
    StateMismatch {
        /// The envelope.
        envelope: Signed,
        /// The state hash at that position.
        expected: Hash32,
    },
    /// A reveal that is not the next link of the seat's committed chain, or
    /// is for the wrong event.
    BadReveal {
        /// The envelope.
        envelope: Signed,
        /// What was wrong.
        reason: String,
    },
    /// An envelope whose kind the game did not need from that seat there.
    UnexpectedBody {
        /// The envelope.
        envelope: Signed,
        /// What the game needed.
        expected: String,
    },
    /// A seed opening that does not produce the seat's chain commitment.
    BadSeedOpening {
        /// The envelope.
        envelope: Signed,
    },
    /// A chain continuation that does not start right after the seat's
    /// chains so far, names an invalid length, or is a second one for the
    /// chain in use (protocol/SPEC.md 2.4).
    BadContinuation {
        /// The envelope.
        envelope: Signed,
        /// What is wrong with it.
        reason: String,
    },
    /// A key share whose proof of knowledge does not verify, or that does
    /// not decode (protocol/SPEC.md 5.5, 5.11).
    BadKeyShare {
        /// The envelope.
        envelope: Signed,
        /// What is wrong with it.
        reason: String,
    },
    /// A shuffle whose proof does not verify against the deck it had to
    /// shuffle, that does not decode, or that names another epoch (5.6).
    BadShuffle {
        /// The envelope.
        envelope: Signed,
        /// What is wrong with it.
        reason: String,
    },
    /// A decryption share whose proof does not verify against the author's
    /// key share and the slot's ciphertext, or that does not decode (5.7).
    BadShare {
        /// The envelope (shares or an action with revealed cards).
        envelope: Signed,
        /// What is wrong with it.
        reason: String,
    },
    /// Decryption shares the private request at the envelope's position did
    /// not ask of the author: none were due from it there, or not that many.
    UnaskedShares {
        /// The envelope.
        envelope: Signed,
        /// What was asked instead.
        reason: String,
    },
    /// A released secret key share that does not match the author's key
    /// share (5.9).
    BadKeyRelease {
        /// The envelope.
        envelope: Signed,
        /// What is wrong with it.
        reason: String,
    },
}

impl Violation {
    /// The seat to blame.
    pub fn seat(&self) -> u8 {
        match self {
            Violation::Equivocation {
                first: envelope, ..
            }
            | Violation::BrokenSequence { next: envelope, .. }
            | Violation::IllegalAction { envelope, .. }
            | Violation::WrongPosition { envelope, .. }
            | Violation::StateMismatch { envelope, .. }
            | Violation::BadReveal { envelope, .. }
            | Violation::UnexpectedBody { envelope, .. }
            | Violation::BadSeedOpening { envelope }
            | Violation::BadContinuation { envelope, .. }
            | Violation::BadKeyShare { envelope, .. }
            | Violation::BadShuffle { envelope, .. }
            | Violation::BadShare { envelope, .. }
            | Violation::UnaskedShares { envelope, .. }
            | Violation::BadKeyRelease { envelope, .. } => envelope.seat(),
        }
    }

    /// The signed envelopes that make up the proof.
    pub fn envelopes(&self) -> Vec<&Signed> {
        match self {
            Violation::Equivocation { first, second } => vec![first, second],
            Violation::BrokenSequence { previous, next } => vec![previous, next],
            Violation::IllegalAction { envelope, .. }
            | Violation::WrongPosition { envelope, .. }
            | Violation::StateMismatch { envelope, .. }
            | Violation::BadReveal { envelope, .. }
            | Violation::UnexpectedBody { envelope, .. }
            | Violation::BadSeedOpening { envelope }
            | Violation::BadContinuation { envelope, .. }
            | Violation::BadKeyShare { envelope, .. }
            | Violation::BadShuffle { envelope, .. }
            | Violation::BadShare { envelope, .. }
            | Violation::UnaskedShares { envelope, .. }
            | Violation::BadKeyRelease { envelope, .. } => vec![envelope],
        }
    }

    /// A short name of the violation ("equivocation", ...).
    pub fn kind(&self) -> &'static str {
        match self {
            Violation::Equivocation { .. } => "equivocation",
            Violation::BrokenSequence { .. } => "broken-sequence",
            Violation::IllegalAction { .. } => "illegal-action",
            Violation::WrongPosition { .. } => "wrong-position",
            Violation::StateMismatch { .. } => "state-mismatch",
            Violation::BadReveal { .. } => "bad-reveal",
            Violation::UnexpectedBody { .. } => "unexpected-body",
            Violation::BadSeedOpening { .. } => "bad-seed-opening",
            Violation::BadContinuation { .. } => "bad-continuation",
            Violation::BadKeyShare { .. } => "bad-key-share",
            Violation::BadShuffle { .. } => "bad-shuffle",
            Violation::BadShare { .. } => "bad-share",
            Violation::UnaskedShares { .. } => "unasked-shares",
            Violation::BadKeyRelease { .. } => "bad-key-release",
        }
    }

    /// Check the parts of the proof that need no replay: every envelope in it
    /// is signed by the blamed seat's key for this game, and for equivocation
    /// and broken sequences, that the two envelopes really conflict.
    pub fn check_signatures(&self, genesis: &Genesis) -> Result<(), TableError> {
        let game_id = genesis.proposal.game_id();
        let seat = self.seat();
        let key = genesis
            .proposal
            .seats
            .get(usize::from(seat))
            .ok_or(TableError::UnknownSeat(seat))?
            .key;
        let envelopes = self.envelopes();
        for e in &envelopes {
            if e.envelope.game_id != game_id {
                return Err(TableError::WrongGame);
            }
            if e.seat() != seat {
                return Err(TableError::Malformed("the proof mixes seats".into()));
            }
            e.verify(&key)?;
        }
        match self {
            Violation::Equivocation { first, second }
                if first.seq() != second.seq() || first == second =>
            {
                Err(TableError::Malformed(
                    "not two envelopes for one slot".into(),
                ))
            }
            Violation::BrokenSequence { previous, next }
                if previous.seq() + 1 != next.seq() || next.envelope.prev == previous.hash() =>
            {
                Err(TableError::Malformed(
                    "the envelopes do follow each other".into(),
                ))
            }
            // A key share's proof is bound to the game, epoch 0 and its
            // seat alone (SPEC 5.11): it is checked without any replay.
            Violation::BadKeyShare { envelope, .. } => match &envelope.envelope.body {
                crate::Body::KeyShare { message } => {
                    let context = roundtable_deal::Context {
                        game_id: game_id.0,
                        epoch: 0,
                        seat,
                    };
                    let verifies = roundtable_deal::KeyShareMessage::from_bytes(&message.0)
                        .and_then(|m| m.verify(&context))
                        .is_ok();
                    if verifies {
                        Err(TableError::Malformed("the key share verifies".into()))
                    } else {
                        Ok(())
                    }
                }
                _ => Err(TableError::Malformed("not a key share".into())),
            },
            _ => Ok(()),
        }
    }
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "seat {}: {}", u32::from(self.seat()) + 1, self.kind())?;
        match self {
            Violation::IllegalAction { rule, .. } => write!(f, " ({rule})"),
            Violation::WrongPosition { envelope, expected } => {
                write!(
                    f,
                    " (written at {}, needed at {expected})",
                    envelope.envelope.position
                )
            }
            Violation::BadReveal { reason, .. }
            | Violation::BadContinuation { reason, .. }
            | Violation::BadKeyShare { reason, .. }
            | Violation::BadShuffle { reason, .. }
            | Violation::BadShare { reason, .. }
            | Violation::UnaskedShares { reason, .. }
            | Violation::BadKeyRelease { reason, .. } => {
                write!(f, " ({reason})")
            }
            Violation::UnexpectedBody { envelope, expected } => {
                write!(
                    f,
                    " (sent a {} where the game needed {expected})",
                    envelope.envelope.body.kind()
                )
            }
            Violation::Equivocation { first, .. } => {
                write!(f, " (two envelopes with sequence {})", first.seq())
            }
            _ => Ok(()),
        }
    }
}
