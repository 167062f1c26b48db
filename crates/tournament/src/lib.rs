//! Tournaments in which the director is trusted for nothing that can be
//! checked.
//!
//! * **Manifest** ([`manifest`]): the director signs the terms (name, game
//!   and options, format, seats per table, time rules) together with every
//!   player's registration, which the player signs with the key it plays
//!   with, committing to a seed share. Nobody is entered without consent and
//!   no key can be swapped later. Once the manifest is signed, each player
//!   opens its share ([`SeedReveal`]); the seat seed is the hash of the
//!   opened shares, and a player who does not open its share is withdrawn.
//! * **Pairings** ([`pairing`]): a pure function of the manifest and the
//!   results of earlier rounds, so every player recomputes them and a
//!   director who publishes others is caught. Each table's game is bound to
//!   its tournament, round and table through its genesis nonce
//!   ([`manifest::table_nonce`]).
//! * **Standings** ([`standings`]): computed only from audit reports of
//!   transcripts, refusing those not bound to this tournament, a second game
//!   for a table and a table whose players are not the pairing's; a proven
//!   cheat is a loss for the cheater. Glicko-2 ratings come from the
//!   `skillratings` crate. The output of the same inputs is byte-identical.
//!
//! * **A round over the network** ([`round`]): the tournament node's desk
//!   tells each player its table, opens each table when its players are
//!   there or the show-up time has passed (those missing then lose by
//!   forfeit), and ends the round when every table's game came back; it
//!   gives up on a table whose game stood still longer than a live one can
//!   ([`give_up_ms`] of the stall timeout), which then has no result. The
//!   messages it exchanges with the players are in [`protocol`].
//!
//! Like the engine and the table, this crate is sans-IO: no clock, no random
//! source, no file. The command line reads the files and runs the audits.

pub mod manifest;
pub mod pairing;
pub mod protocol;
pub mod round;
pub mod standings;
mod wire;

pub use manifest::{
    Format, Manifest, OpenedShares, Registration, SeedReveal, Terms, TournamentId,
    derived_seed_share, encode_options, round_id, seed_commitment, table_nonce,
};
pub use pairing::{Pairing, PairingTable, Record, pair_round};
pub use protocol::{TOURNAMENT_PROTOCOL, TourRequest, TourResponse};
pub use round::{Answer, DeskError, PRESENCE_MS, RoundDesk, TableEnd, give_up_ms};
pub use standings::{Outcome, Refusal, Standings, Submission, standings};

/// Why a manifest or a registration is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TournamentError {
    /// A signature does not verify under the key it claims.
    #[error("the signature of {what} does not verify")]
    BadSignature {
        /// Whose signature: "the director", "the registration of NAME".
        what: String,
    },
    /// A registration names another tournament.
    #[error("the registration of {name} is for tournament {found}, not {expected}")]
    OtherTournament {
        /// The registered player's name.
        name: String,
        /// The tournament it names.
        found: TournamentId,
        /// This tournament.
        expected: TournamentId,
    },
    /// A key registered twice.
    #[error("the key of {name} is registered twice")]
    DuplicateKey {
        /// The second registration's name.
        name: String,
    },
    /// A key that is not a valid, strong ed25519 key.
    #[error("{what}: {reason}")]
    BadKey {
        /// Whose key.
        what: String,
        /// Why it is refused.
        reason: String,
    },
    /// The terms break a rule of the format.
    #[error("the terms: {0}")]
    Terms(String),
    /// A seed reveal that does not open its player's commitment.
    #[error("the seed reveal of {name:?} does not open the commitment of its registration")]
    WrongReveal {
        /// The registered player's name.
        name: String,
    },
    /// The file is not a tournament manifest or registration.
    #[error("not a {what}: {reason}")]
    Malformed {
        /// What was expected.
        what: &'static str,
        /// Why it does not read as one.
        reason: String,
    },
}
