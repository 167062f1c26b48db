//! Genesis: the proposal whose hash is the game id, and every seat's acceptance.

use roundtable_engine::{Game, Seat, SetupError};
use roundtable_fairdeck::MAX_CHAIN_LENGTH;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::identity::{Identity, PublicKey, SignatureBytes};
use crate::{GameId, TableError};

/// The protocol version this crate speaks.
pub const PROTOCOL_VERSION: u32 = 1;
/// Domain string hashed before a proposal to make the game id.
pub const GENESIS_DOMAIN: &[u8] = b"roundtable/genesis/v1";
/// Domain string signed before a game id to accept it.
pub const ACCEPT_DOMAIN: &[u8] = b"roundtable/accept/v1";
/// Longest display name, in bytes.
pub const MAX_NAME_BYTES: usize = 32;

/// One seat of a proposed game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    /// The player's public key.
    pub key: PublicKey,
    /// A display name (at most 32 bytes, no control characters).
    pub name: String,
    /// The tip of the seat's hash chain (fairdeck).
    pub chain_commitment: [u8; 32],
    /// The chain's length: how many chance events it can answer.
    pub chain_length: u64,
}

/// A proposed game. Its hash is the game id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proposal {
    /// [`PROTOCOL_VERSION`].
    pub protocol: u32,
    /// The game's name ("port-royal").
    pub game: String,
    /// The game's options, postcard-encoded.
    pub options: Vec<u8>,
    /// The seats in seat order: sorted by public key, so the order does not
    /// depend on who joined first.
    pub seats: Vec<SeatInfo>,
    /// Random bytes chosen by the proposer, so two tables of the same players
    /// have different ids.
    pub nonce: [u8; 32],
}

impl Proposal {
    /// A proposal for game `G` with `options`; the seats are put into
    /// canonical order (by public key).
    pub fn new<G: Game>(
        options: &G::Options,
        mut seats: Vec<SeatInfo>,
        nonce: [u8; 32],
    ) -> Result<Proposal, TableError> {
        seats.sort_by_key(|s| s.key);
        let options =
            postcard::to_allocvec(options).map_err(|e| TableError::Malformed(e.to_string()))?;
        let proposal = Proposal {
            protocol: PROTOCOL_VERSION,
            game: G::NAME.to_owned(),
            options,
            seats,
            nonce,
        };
        proposal.validate::<G>()?;
        Ok(proposal)
    }

    /// The game id: SHA-256 of the domain string and the postcard encoding.
    pub fn game_id(&self) -> GameId {
        let bytes = postcard::to_allocvec(self).unwrap_or_default();
        let mut h = Sha256::new();
        h.update(GENESIS_DOMAIN);
        h.update(&bytes);
        GameId(h.finalize().into())
    }

    /// The decoded options.
    pub fn options<G: Game>(&self) -> Result<G::Options, TableError> {
        crate::decode_exact(&self.options)
            .map_err(|e| TableError::Malformed(format!("options: {e}")))
    }

    /// The seat of the player with `key`.
    pub fn seat_of(&self, key: &PublicKey) -> Option<Seat> {
        self.seats
            .iter()
            .position(|s| s.key == *key)
            .map(|i| Seat(i as u8))
    }

    /// Check everything a peer must check before accepting: version, game,
    /// seat count, canonical seat order, distinct and strong keys, names,
    /// chain lengths, and that the options set up a game.
    pub fn validate<G: Game>(&self) -> Result<(), TableError> {
        if self.protocol != PROTOCOL_VERSION {
            return Err(TableError::Genesis(format!(
                "protocol version {} is not {PROTOCOL_VERSION}",
                self.protocol
            )));
        }
        if self.game != G::NAME {
            return Err(TableError::Genesis(format!(
                "the game is {:?}, not {:?}",
                self.game,
                G::NAME
            )));
        }
        let n = self.seats.len();
        let seat_count = u8::try_from(n).map_err(|_| TableError::Genesis(format!("{n} seats")))?;
        if !self.seats.windows(2).all(|w| w[0].key < w[1].key) {
            return Err(TableError::Genesis(
                "seats are not in key order, or a key repeats".into(),
            ));
        }
        for s in &self.seats {
            s.key.verifier()?;
            if s.name.len() > MAX_NAME_BYTES || s.name.chars().any(char::is_control) {
                return Err(TableError::Genesis(format!(
                    "display name {:?} is too long or has control characters",
                    s.name
                )));
            }
            if s.chain_length == 0 || s.chain_length > MAX_CHAIN_LENGTH {
                return Err(TableError::Genesis(format!(
                    "chain length {}",
                    s.chain_length
                )));
            }
        }
        let options = self.options::<G>()?;
        check_terms::<G>(seat_count, &options).map_err(|e| TableError::Genesis(e.to_string()))
    }

    /// Accept this proposal as `identity`, which must hold one of its seats.
    pub fn accept(&self, identity: &Identity) -> Result<Acceptance, TableError> {
        let seat = self
            .seat_of(&identity.public())
            .ok_or(TableError::NotSeated)?;
        let game_id = self.game_id();
        let signature = identity.sign(&acceptance_message(&game_id, seat));
        Ok(Acceptance {
            game_id,
            seat: seat.0,
            signature,
        })
    }
}

/// Whether a game of `G` can be set up at `seats` seats with `options`: the
/// checks [`Proposal::validate`] makes of the seat count and the options. A
/// front end makes them before it opens a lobby, so that terms no proposal
/// could carry are refused at once, in the game's own words.
pub fn check_terms<G: Game>(seats: u8, options: &G::Options) -> Result<(), SetupError> {
    SetupError::check_seats::<G>(seats)?;
    G::new_game(seats, options).map(drop)
}

fn acceptance_message(game_id: &GameId, seat: Seat) -> Vec<u8> {
    let mut m = ACCEPT_DOMAIN.to_vec();
    m.extend_from_slice(&game_id.0);
    m.push(seat.0);
    m
}

/// A seat's signed acceptance of a proposal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Acceptance {
    /// The accepted game id.
    pub game_id: GameId,
    /// The accepting seat.
    pub seat: u8,
    /// Signature over `roundtable/accept/v1 || game id || seat`.
    pub signature: SignatureBytes,
}

/// A proposal with every seat's acceptance: the game may start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Genesis {
    /// The proposal.
    pub proposal: Proposal,
    /// One acceptance per seat, in seat order.
    pub acceptances: Vec<Acceptance>,
}

impl Genesis {
    /// Put acceptances (any order, duplicates allowed) together with the
    /// proposal and check them.
    pub fn assemble<G: Game>(
        proposal: Proposal,
        acceptances: &[Acceptance],
    ) -> Result<Genesis, TableError> {
        let mut ordered = Vec::with_capacity(proposal.seats.len());
        for seat in 0..proposal.seats.len() {
            let a = acceptances
                .iter()
                .find(|a| usize::from(a.seat) == seat)
                .ok_or_else(|| {
                    TableError::Genesis(format!("seat {} has not accepted", seat + 1))
                })?;
            ordered.push(a.clone());
        }
        let genesis = Genesis {
            proposal,
            acceptances: ordered,
        };
        genesis.verify::<G>()?;
        Ok(genesis)
    }

    /// Check the proposal and every acceptance; returns the game id.
    pub fn verify<G: Game>(&self) -> Result<GameId, TableError> {
        self.proposal.validate::<G>()?;
        let game_id = self.proposal.game_id();
        if self.acceptances.len() != self.proposal.seats.len() {
            return Err(TableError::Genesis("not every seat has accepted".into()));
        }
        for (i, (a, s)) in self
            .acceptances
            .iter()
            .zip(&self.proposal.seats)
            .enumerate()
        {
            if usize::from(a.seat) != i || a.game_id != game_id {
                return Err(TableError::Genesis(format!(
                    "acceptance {i} is for another seat or game"
                )));
            }
            s.key
                .verify(&acceptance_message(&game_id, Seat(a.seat)), &a.signature)?;
        }
        Ok(game_id)
    }
}
