//! The signed manifest: the director's terms and every player's signed
//! registration.
//!
//! ```text
//! tournament id = SHA-256("roundtable/tournament/v1" || postcard(Terms))
//! seed commitment = SHA-256("roundtable/tournament-seed-share/v1"
//!                           || tournament id || key || seed share)
//! registration  = sign(player key, "roundtable/tournament-registration/v1"
//!                      || tournament id || key || postcard(name) || seed commitment)
//! manifest      = sign(director key, "roundtable/tournament-manifest/v1"
//!                      || tournament id || postcard(registrations, sorted by key))
//! seat seed     = SHA-256("roundtable/tournament-seats/v1" || tournament id
//!                         || (key || seed share) of every entrant, in key order)
//! table nonce   = SHA-256("roundtable/tournament-table/v1" || tournament id
//!                         || round u32 LE || table u32 LE)
//! round id      = SHA-256("roundtable/tournament-round/v1" || tournament id
//!                         || round u32 LE)
//! ```
//!
//! **The seat seed is opened, not just committed to.** Each registration
//! commits to a secret seed share; once the manifest is signed (so the set
//! of players and their commitments is fixed), each player publishes its
//! share in a [`SeedReveal`], which anyone checks against the commitment.
//! The seat seed hashes the opened shares, so nobody can know it before the
//! last share is opened: a player who registers last sees only the others'
//! commitments, and a director choosing which registrations to accept
//! learns nothing about the seed from them.
//!
//! A player whose share is not opened by round 1 is **withdrawn**: it is
//! paired in no round, and the seed is made of the entrants' shares only.
//! Withholding a share is thus the one choice left to a player (or to
//! players acting together) who sees the others' shares first, and it
//! costs the whole tournament. The set of reveals is part of the input to
//! pairings like the games are: a player left out who holds its reveal can
//! show it, and every pairing computed without it is then seen to be wrong.
//! The `roundtable` command derives a player's share from a signature of
//! its own key over the tournament id, so the player keeps no extra secret
//! and nobody else can compute it before it is revealed.
//!
//! A table's game carries its table nonce as the genesis nonce, so the game
//! id (the hash of the genesis) is bound to exactly one table of one round
//! of one tournament, and the encoding of a genesis is the same as that of
//! any other game.

use std::fmt;

use roundtable_table::genesis::MAX_NAME_BYTES;
use roundtable_table::{Identity, PublicKey, SignatureBytes};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::TournamentError;

/// Hashed before the terms to make the tournament id.
pub const TOURNAMENT_DOMAIN: &[u8] = b"roundtable/tournament/v1";
/// Signed before a registration.
pub const REGISTRATION_DOMAIN: &[u8] = b"roundtable/tournament-registration/v1";
/// Signed before the registrations by the director.
pub const MANIFEST_DOMAIN: &[u8] = b"roundtable/tournament-manifest/v1";
/// Hashed before a seed share to make its commitment.
pub const SEED_SHARE_DOMAIN: &[u8] = b"roundtable/tournament-seed-share/v1";
/// Hashed before the opened seed shares to make the seat seed.
pub const SEAT_SEED_DOMAIN: &[u8] = b"roundtable/tournament-seats/v1";
/// Hashed before a round and table to make a table's genesis nonce.
pub const TABLE_DOMAIN: &[u8] = b"roundtable/tournament-table/v1";
/// Hashed before a round to make its id (a tournament node's ticket).
pub const ROUND_DOMAIN: &[u8] = b"roundtable/tournament-round/v1";
/// Longest tournament name, in bytes.
pub const MAX_TOURNAMENT_NAME_BYTES: usize = 64;
/// Most rounds a tournament may have.
pub const MAX_ROUNDS: u32 = 1000;
/// Most players a tournament may have.
pub const MAX_PLAYERS: usize = 10_000;

/// A tournament id: the hash of its terms.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TournamentId(#[serde(with = "crate::wire::bytes32")] pub [u8; 32]);

impl fmt::Debug for TournamentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TournamentId({})", hex::encode(self.0))
    }
}

impl fmt::Display for TournamentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hex::encode(self.0))
    }
}

/// How tables are formed round after round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Swiss: a fixed number of rounds, each paired by score.
    Swiss {
        /// How many rounds.
        rounds: u32,
    },
    /// Everyone meets everyone as evenly as the table size allows, with no
    /// regard to score ([`Format::rounds`] rounds).
    RoundRobin,
}

impl Format {
    /// The number of rounds for `players` players at tables of `seats`: a
    /// Swiss tournament's own; for round robin, the fewest rounds in which a
    /// player can meet every other (`players - 1` at two seats, one more
    /// when `players` is odd, since someone sits out each round).
    pub fn rounds(self, players: usize, seats: u8) -> u32 {
        match self {
            Format::Swiss { rounds } => rounds,
            Format::RoundRobin => {
                let others = players.saturating_sub(1) as u32;
                let per_round = u32::from(seats.max(2)) - 1;
                let rounds = others.div_ceil(per_round);
                if seats == 2 && players % 2 == 1 {
                    rounds + 1
                } else {
                    rounds
                }
            }
        }
    }
}

/// What the director sets before anyone registers. Its hash is the
/// tournament id, which every registration signs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Terms {
    /// The tournament's name.
    pub name: String,
    /// The game ("port-royal").
    pub game: String,
    /// The game's options, postcard-encoded as in a genesis proposal.
    #[serde(with = "crate::wire::bytes")]
    pub options: Vec<u8>,
    /// Swiss or round robin.
    pub format: Format,
    /// Seats at every table.
    pub seats_per_table: u8,
    /// The stall timeout every table plays with, in milliseconds.
    pub stall_timeout_ms: u64,
    /// The no-show rule: a player not at its table this long after the
    /// round is paired loses that game by forfeit.
    pub show_up_ms: u64,
    /// The director's key, which signs the manifest.
    #[serde(with = "crate::wire::key")]
    pub director: PublicKey,
    /// Chosen by the director, so two tournaments of the same terms differ.
    #[serde(with = "crate::wire::bytes32")]
    pub nonce: [u8; 32],
}

impl Terms {
    /// The tournament id.
    pub fn id(&self) -> TournamentId {
        let mut h = Sha256::new();
        h.update(TOURNAMENT_DOMAIN);
        h.update(postcard::to_allocvec(self).unwrap_or_default());
        TournamentId(h.finalize().into())
    }

    /// Check the rules that hold for any game: the name, the seat count,
    /// the number of rounds, the director's key. (Whether the game takes
    /// these options at this many seats is the caller's check, which knows
    /// the game.)
    pub fn validate(&self) -> Result<(), TournamentError> {
        let terms = |m: String| Err(TournamentError::Terms(m));
        if self.name.trim().is_empty()
            || self.name.len() > MAX_TOURNAMENT_NAME_BYTES
            || self.name.chars().any(char::is_control)
        {
            return terms(format!(
                "the name must be 1 to {MAX_TOURNAMENT_NAME_BYTES} bytes without control characters"
            ));
        }
        if self.seats_per_table < 2 {
            return terms(format!("{} seats per table", self.seats_per_table));
        }
        if let Format::Swiss { rounds } = self.format
            && !(1..=MAX_ROUNDS).contains(&rounds)
        {
            return terms(format!("{rounds} rounds (1 to {MAX_ROUNDS})"));
        }
        self.director
            .verifier()
            .map_err(|e| TournamentError::BadKey {
                what: "the director's key".into(),
                reason: e.to_string(),
            })?;
        Ok(())
    }
}

/// A player's consent to play in one tournament with one key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Registration {
    /// The tournament.
    pub tournament: TournamentId,
    /// The key the player plays every game with.
    #[serde(with = "crate::wire::key")]
    pub key: PublicKey,
    /// The player's display name (as at a table).
    pub name: String,
    /// The commitment to the player's secret share of the seat seed
    /// ([`seed_commitment`]), opened by a [`SeedReveal`] after the
    /// manifest is signed.
    #[serde(with = "crate::wire::bytes32")]
    pub seed_commitment: [u8; 32],
    /// The player's signature over all of the above.
    #[serde(with = "crate::wire::signature")]
    pub signature: SignatureBytes,
}

impl Registration {
    /// `identity` registers as `name` for tournament `tournament`,
    /// committing to `seed_share` (kept secret until the manifest is
    /// signed, then opened with [`SeedReveal::new`]).
    pub fn sign(
        tournament: TournamentId,
        identity: &Identity,
        name: &str,
        seed_share: [u8; 32],
    ) -> Registration {
        let key = identity.public();
        let seed_commitment = seed_commitment(&tournament, &key, &seed_share);
        let message = registration_message(&tournament, &key, name, &seed_commitment);
        Registration {
            tournament,
            key,
            name: name.to_owned(),
            seed_commitment,
            signature: identity.sign(&message),
        }
    }

    /// Check the signature, the name, and that the registration is for
    /// `tournament`.
    pub fn verify(&self, tournament: &TournamentId) -> Result<(), TournamentError> {
        let who = format!("{:?}", self.name);
        if self.tournament != *tournament {
            return Err(TournamentError::OtherTournament {
                name: who,
                found: self.tournament,
                expected: *tournament,
            });
        }
        if self.name.trim().is_empty()
            || self.name.len() > MAX_NAME_BYTES
            || self.name.chars().any(char::is_control)
        {
            return Err(TournamentError::Terms(format!(
                "the name {who} must be 1 to {MAX_NAME_BYTES} bytes without control characters"
            )));
        }
        let message = registration_message(
            &self.tournament,
            &self.key,
            &self.name,
            &self.seed_commitment,
        );
        self.key
            .verify(&message, &self.signature)
            .map_err(|e| match e {
                roundtable_table::TableError::BadSignature => TournamentError::BadSignature {
                    what: format!("the registration of {who}"),
                },
                other => TournamentError::BadKey {
                    what: format!("the key of {who}"),
                    reason: other.to_string(),
                },
            })
    }

    /// Read a registration file (JSON).
    pub fn from_json(text: &str) -> Result<Registration, TournamentError> {
        serde_json::from_str(text).map_err(|e| TournamentError::Malformed {
            what: "registration",
            reason: e.to_string(),
        })
    }

    /// The registration as a file (JSON, with a final newline).
    pub fn to_json(&self) -> String {
        json_text(self)
    }
}

/// The commitment a registration of `key` for `tournament` carries to the
/// seed share `share`. The key and the tournament are in it, so a player
/// cannot copy another's commitment and open it with the other's share.
pub fn seed_commitment(tournament: &TournamentId, key: &PublicKey, share: &[u8; 32]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(SEED_SHARE_DOMAIN);
    h.update(tournament.0);
    h.update(key.0);
    h.update(share);
    h.finalize().into()
}

/// The seed share the `roundtable` command uses for `identity` in
/// `tournament`: the hash of the key's (deterministic) signature over the
/// tournament id, so the player can make it again to reveal it and nobody
/// without the key can make it at all.
pub fn derived_seed_share(tournament: &TournamentId, identity: &Identity) -> [u8; 32] {
    let mut message = SEED_SHARE_DOMAIN.to_vec();
    message.extend_from_slice(&tournament.0);
    let mut h = Sha256::new();
    h.update(SEED_SHARE_DOMAIN);
    h.update(identity.sign(&message).0);
    h.finalize().into()
}

/// A player's seed share, opened once the manifest is signed. It needs no
/// signature: only the player knew the share its commitment hides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeedReveal {
    /// The tournament.
    pub tournament: TournamentId,
    /// The player.
    #[serde(with = "crate::wire::key")]
    pub key: PublicKey,
    /// The share its registration committed to.
    #[serde(with = "crate::wire::bytes32")]
    pub share: [u8; 32],
}

impl SeedReveal {
    /// `key` opens `share` in `tournament`.
    pub fn new(tournament: TournamentId, key: PublicKey, share: [u8; 32]) -> SeedReveal {
        SeedReveal {
            tournament,
            key,
            share,
        }
    }

    /// Read a reveal file (JSON). Check it with [`Manifest::check_reveal`].
    pub fn from_json(text: &str) -> Result<SeedReveal, TournamentError> {
        serde_json::from_str(text).map_err(|e| TournamentError::Malformed {
            what: "seed reveal",
            reason: e.to_string(),
        })
    }

    /// The reveal as a file (JSON, with a final newline).
    pub fn to_json(&self) -> String {
        json_text(self)
    }
}

/// The opened seed shares of a tournament's players, by key (each checked
/// with [`Manifest::check_reveal`] before it is added).
pub type OpenedShares = std::collections::BTreeMap<PublicKey, [u8; 32]>;

fn registration_message(
    tournament: &TournamentId,
    key: &PublicKey,
    name: &str,
    seed_commitment: &[u8; 32],
) -> Vec<u8> {
    let mut m = REGISTRATION_DOMAIN.to_vec();
    m.extend_from_slice(&tournament.0);
    m.extend_from_slice(&key.0);
    m.extend_from_slice(&postcard::to_allocvec(name).unwrap_or_default());
    m.extend_from_slice(seed_commitment);
    m
}

/// The terms and the registrations, signed by the director.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// The terms.
    pub terms: Terms,
    /// One registration per player, in key order.
    pub registrations: Vec<Registration>,
    /// The director's signature.
    #[serde(with = "crate::wire::signature")]
    pub signature: SignatureBytes,
}

impl Manifest {
    /// The director (`director`, whose key the terms name) closes
    /// registration: every registration is checked and they are put in key
    /// order.
    pub fn sign(
        terms: Terms,
        mut registrations: Vec<Registration>,
        director: &Identity,
    ) -> Result<Manifest, TournamentError> {
        if director.public() != terms.director {
            return Err(TournamentError::Terms(
                "the signing key is not the director's the terms name".into(),
            ));
        }
        registrations.sort_by_key(|r| r.key);
        let message = manifest_message(&terms.id(), &registrations);
        let manifest = Manifest {
            terms,
            registrations,
            signature: director.sign(&message),
        };
        manifest.verify()?;
        Ok(manifest)
    }

    /// Check everything: the terms, every registration (for this
    /// tournament, signed by its key, one per key, in key order), enough
    /// players for a table, and the director's signature. Returns the id.
    pub fn verify(&self) -> Result<TournamentId, TournamentError> {
        self.terms.validate()?;
        let id = self.terms.id();
        for r in &self.registrations {
            r.verify(&id)?;
        }
        for pair in self.registrations.windows(2) {
            if pair[0].key == pair[1].key {
                return Err(TournamentError::DuplicateKey {
                    name: pair[1].name.clone(),
                });
            }
            if pair[0].key > pair[1].key {
                return Err(TournamentError::Terms(
                    "the registrations are not in key order".into(),
                ));
            }
        }
        let players = self.registrations.len();
        if players < usize::from(self.terms.seats_per_table) || players > MAX_PLAYERS {
            return Err(TournamentError::Terms(format!(
                "{players} players for tables of {} (at most {MAX_PLAYERS})",
                self.terms.seats_per_table
            )));
        }
        self.terms
            .director
            .verify(&manifest_message(&id, &self.registrations), &self.signature)
            .map_err(|_| TournamentError::BadSignature {
                what: "the director".into(),
            })?;
        Ok(id)
    }

    /// The tournament id.
    pub fn id(&self) -> TournamentId {
        self.terms.id()
    }

    /// The players' keys, in key order.
    pub fn players(&self) -> Vec<PublicKey> {
        self.registrations.iter().map(|r| r.key).collect()
    }

    /// Check a seed reveal: for this tournament, by a registered player,
    /// opening that player's commitment.
    pub fn check_reveal(&self, reveal: &SeedReveal) -> Result<(), TournamentError> {
        let id = self.id();
        if reveal.tournament != id {
            return Err(TournamentError::OtherTournament {
                name: format!("the seed reveal of {}", hex::encode(reveal.key.0)),
                found: reveal.tournament,
                expected: id,
            });
        }
        let registration = self
            .registrations
            .iter()
            .find(|r| r.key == reveal.key)
            .ok_or_else(|| {
                TournamentError::Terms(format!(
                    "the seed reveal of {} names no registered player",
                    hex::encode(reveal.key.0)
                ))
            })?;
        if seed_commitment(&id, &reveal.key, &reveal.share) != registration.seed_commitment {
            return Err(TournamentError::WrongReveal {
                name: registration.name.clone(),
            });
        }
        Ok(())
    }

    /// The players in the tournament: those whose seed share is opened, in
    /// key order. A player whose share is not is withdrawn (see the module
    /// documentation).
    pub fn entrants(&self, shares: &OpenedShares) -> Vec<PublicKey> {
        self.registrations
            .iter()
            .filter(|r| shares.contains_key(&r.key))
            .map(|r| r.key)
            .collect()
    }

    /// The players withdrawn for not opening their seed share, in key order.
    pub fn withdrawn(&self, shares: &OpenedShares) -> Vec<PublicKey> {
        self.registrations
            .iter()
            .filter(|r| !shares.contains_key(&r.key))
            .map(|r| r.key)
            .collect()
    }

    /// The display name of `key`, if registered.
    pub fn name_of(&self, key: &PublicKey) -> Option<&str> {
        self.registrations
            .iter()
            .find(|r| r.key == *key)
            .map(|r| r.name.as_str())
    }

    /// How many rounds the tournament has.
    pub fn rounds(&self) -> u32 {
        self.terms
            .format
            .rounds(self.registrations.len(), self.terms.seats_per_table)
    }

    /// The seed that orders players who are level: the hash of every
    /// entrant's opened seed share (`shares`, each checked with
    /// [`Manifest::check_reveal`]), so no one player and not the director
    /// picks it, and nobody knows it before the last share is opened.
    pub fn seat_seed(&self, shares: &OpenedShares) -> [u8; 32] {
        let mut h = Sha256::new();
        h.update(SEAT_SEED_DOMAIN);
        h.update(self.id().0);
        for key in self.entrants(shares) {
            h.update(key.0);
            if let Some(share) = shares.get(&key) {
                h.update(share);
            }
        }
        h.finalize().into()
    }

    /// Read a manifest file (JSON). Call [`Manifest::verify`] before
    /// trusting it.
    pub fn from_json(text: &str) -> Result<Manifest, TournamentError> {
        serde_json::from_str(text).map_err(|e| TournamentError::Malformed {
            what: "tournament manifest",
            reason: e.to_string(),
        })
    }

    /// The manifest as a file (JSON, with a final newline).
    pub fn to_json(&self) -> String {
        json_text(self)
    }
}

fn manifest_message(id: &TournamentId, registrations: &[Registration]) -> Vec<u8> {
    let mut m = MANIFEST_DOMAIN.to_vec();
    m.extend_from_slice(&id.0);
    m.extend_from_slice(&postcard::to_allocvec(registrations).unwrap_or_default());
    m
}

/// The genesis nonce of table `table` (from 1) of round `round` (from 1)
/// of tournament `tournament`.
pub fn table_nonce(tournament: &TournamentId, round: u32, table: u32) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(TABLE_DOMAIN);
    h.update(tournament.0);
    h.update(round.to_le_bytes());
    h.update(table.to_le_bytes());
    h.finalize().into()
}

/// The id of round `round` (from 1) of tournament `tournament`: the lobby
/// id a tournament node's ticket carries (SPEC 6.2), so a ticket names the
/// tournament and the round it serves.
pub fn round_id(tournament: &TournamentId, round: u32) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(ROUND_DOMAIN);
    h.update(tournament.0);
    h.update(round.to_le_bytes());
    h.finalize().into()
}

/// A game's options as the terms and a genesis carry them (postcard).
pub fn encode_options<T: Serialize>(options: &T) -> Result<Vec<u8>, TournamentError> {
    postcard::to_allocvec(options).map_err(|e| TournamentError::Malformed {
        what: "game options",
        reason: e.to_string(),
    })
}

fn json_text<T: Serialize>(value: &T) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(director: &Identity) -> Terms {
        Terms {
            name: "Autumn open".into(),
            game: "port-royal".into(),
            options: vec![1, 2],
            format: Format::Swiss { rounds: 3 },
            seats_per_table: 2,
            stall_timeout_ms: 30_000,
            show_up_ms: 300_000,
            director: director.public(),
            nonce: [5; 32],
        }
    }

    fn signed(seats: u8) -> (Manifest, Vec<Identity>, Identity) {
        let director = Identity::from_secret([99; 32]);
        let mut t = terms(&director);
        t.seats_per_table = seats;
        let players: Vec<_> = (1..=4u8).map(|i| Identity::from_secret([i; 32])).collect();
        let regs = players
            .iter()
            .enumerate()
            .map(|(i, p)| Registration::sign(t.id(), p, &format!("P{i}"), [i as u8; 32]))
            .collect();
        let m = Manifest::sign(t, regs, &director).expect("signs");
        (m, players, director)
    }

    #[test]
    fn a_manifest_survives_its_file_and_verifies() {
        let (m, _, _) = signed(2);
        let back = Manifest::from_json(&m.to_json()).expect("reads");
        assert_eq!(back, m);
        assert_eq!(back.verify(), Ok(m.id()));
    }

    #[test]
    fn a_changed_registration_or_term_is_refused() {
        let (m, players, _) = signed(2);
        let mut renamed = m.clone();
        renamed.registrations[0].name = "Mallory".into();
        assert!(matches!(
            renamed.verify(),
            Err(TournamentError::BadSignature { .. })
        ));
        let mut more_rounds = m.clone();
        more_rounds.terms.format = Format::Swiss { rounds: 9 };
        // The registrations were signed for the old terms' id.
        assert!(matches!(
            more_rounds.verify(),
            Err(TournamentError::OtherTournament { .. })
        ));
        let mut swapped = m.clone();
        swapped.registrations[1] =
            Registration::sign(m.id(), &Identity::from_secret([77; 32]), "P1", [0; 32]);
        swapped.registrations.sort_by_key(|r| r.key);
        assert_eq!(
            swapped.verify(),
            Err(TournamentError::BadSignature {
                what: "the director".into()
            })
        );
        assert_eq!(players.len(), 4);
    }

    #[test]
    fn a_registration_for_another_tournament_is_refused() {
        let (m, players, director) = signed(2);
        let other = Terms {
            name: "Another".into(),
            ..terms(&director)
        };
        let reg = Registration::sign(other.id(), &players[0], "P0", [0; 32]);
        assert!(matches!(
            reg.verify(&m.id()),
            Err(TournamentError::OtherTournament { .. })
        ));
    }

    #[test]
    fn a_seed_reveal_opens_only_its_own_commitment() {
        let (m, players, director) = signed(2);
        let id = m.id();
        // `signed` registers player i with the share [i; 32].
        let honest = SeedReveal::new(id, players[1].public(), [1; 32]);
        assert_eq!(m.check_reveal(&honest), Ok(()));
        let back = SeedReveal::from_json(&honest.to_json()).expect("reads");
        assert_eq!(m.check_reveal(&back), Ok(()));

        let wrong_share = SeedReveal::new(id, players[1].public(), [2; 32]);
        assert_eq!(
            m.check_reveal(&wrong_share),
            Err(TournamentError::WrongReveal { name: "P1".into() })
        );
        // Another player's share does not open this player's commitment.
        let copied = SeedReveal::new(id, players[2].public(), [1; 32]);
        assert!(matches!(
            m.check_reveal(&copied),
            Err(TournamentError::WrongReveal { .. })
        ));
        let stranger = SeedReveal::new(id, Identity::from_secret([77; 32]).public(), [1; 32]);
        assert!(matches!(
            m.check_reveal(&stranger),
            Err(TournamentError::Terms(_))
        ));
        let other = Terms {
            name: "Another".into(),
            ..terms(&director)
        };
        let elsewhere = SeedReveal::new(other.id(), players[1].public(), [1; 32]);
        assert!(matches!(
            m.check_reveal(&elsewhere),
            Err(TournamentError::OtherTournament { .. })
        ));
    }

    #[test]
    fn the_seat_seed_moves_with_every_opened_share() {
        let (m, players, _) = signed(2);
        let all: OpenedShares = players
            .iter()
            .enumerate()
            .map(|(i, p)| (p.public(), [i as u8; 32]))
            .collect();
        let mut fewer = all.clone();
        fewer.remove(&players[3].public());
        assert_ne!(m.seat_seed(&all), m.seat_seed(&fewer));
        assert_eq!(m.entrants(&fewer).len(), 3);
        assert_eq!(m.withdrawn(&fewer), vec![players[3].public()]);
        // The registrations alone (what a last registrant sees) do not give
        // the seed: it changes with a share nobody but its owner knew.
        let derived = derived_seed_share(&m.id(), &players[0]);
        assert_eq!(derived, derived_seed_share(&m.id(), &players[0]));
        assert_ne!(derived, derived_seed_share(&m.id(), &players[1]));
    }

    #[test]
    fn too_few_players_for_a_table_are_refused() {
        let director = Identity::from_secret([99; 32]);
        let mut t = terms(&director);
        t.seats_per_table = 5;
        let regs = vec![Registration::sign(
            t.id(),
            &Identity::from_secret([1; 32]),
            "P",
            [0; 32],
        )];
        assert!(matches!(
            Manifest::sign(t, regs, &director),
            Err(TournamentError::Terms(_))
        ));
    }

    #[test]
    fn round_robin_lasts_until_everyone_could_meet() {
        assert_eq!(Format::RoundRobin.rounds(8, 2), 7);
        assert_eq!(Format::RoundRobin.rounds(7, 2), 7);
        assert_eq!(Format::RoundRobin.rounds(9, 3), 4);
        assert_eq!(Format::Swiss { rounds: 4 }.rounds(16, 4), 4);
    }
}
