//! The group, its generators, the card points, and the hashes every proof uses.
//!
//! Everything public here is fixed by the protocol (SPEC part 5.2): a point
//! that a proof relies on is always a hash-to-curve of a domain string and
//! fixed-width fields, never a random or chosen one, because whoever knew the
//! discrete log of one generator with respect to another could forge a
//! shuffle proof.

use std::collections::HashMap;
use std::sync::OnceLock;

use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoBasepointTable, RistrettoPoint};
use curve25519_dalek::scalar::Scalar;
use rand_chacha::ChaCha20Rng;
use rand_core::{CryptoRng, RngCore, SeedableRng};
use sha2::{Digest, Sha512};
use zeroize::Zeroize;

use crate::DealError;

/// The largest deck the protocol allows (cards per deck, and so the number
/// of commitment generators a shuffle proof may use).
pub const MAX_DECK_SIZE: usize = 512;

/// Domain of the generators G, H, H_0, H_1, ... (SPEC 5.2).
pub const GENERATOR_DOMAIN: &[u8] = b"roundtable/deal/generator/v1";
/// Domain of the card points (SPEC 5.2).
pub const CARD_DOMAIN: &[u8] = b"roundtable/deal/card/v1";

/// `SHA-512(domain || parts...)` mapped to a point with the RFC 9496 one-way
/// map (`RistrettoPoint::from_uniform_bytes`).
pub(crate) fn hash_to_point(domain: &[u8], parts: &[&[u8]]) -> RistrettoPoint {
    let mut h = Sha512::new();
    h.update(domain);
    for p in parts {
        h.update(p);
    }
    RistrettoPoint::from_hash(h)
}

/// Generator number `index`: `hash_to_point("roundtable/deal/generator/v1" || index as u32 LE)`.
///
/// Generator 0 is G (the base of keys and ciphertexts), generator 1 is H
/// (the start of the shuffle proof's commitment chain), and generator
/// `2 + i` is H_i, the commitment generator of deck position i.
pub fn generator(index: u32) -> RistrettoPoint {
    hash_to_point(GENERATOR_DOMAIN, &[&index.to_le_bytes()])
}

/// The protocol's fixed generators, computed once per process.
pub(crate) struct Generators {
    /// G, as a point.
    pub(crate) g: RistrettoPoint,
    /// G, as a precomputed table for constant-time fixed-base multiplication.
    pub(crate) g_table: RistrettoBasepointTable,
    /// H, the first link of the commitment chain.
    pub(crate) h: RistrettoPoint,
    /// H_0 .. H_{MAX_DECK_SIZE-1}.
    pub(crate) h_list: Vec<RistrettoPoint>,
}

/// The generators, derived on first use.
pub(crate) fn generators() -> &'static Generators {
    static GENERATORS: OnceLock<Generators> = OnceLock::new();
    GENERATORS.get_or_init(|| {
        let g = generator(0);
        Generators {
            g,
            g_table: RistrettoBasepointTable::create(&g),
            h: generator(1),
            h_list: (0..MAX_DECK_SIZE as u32)
                .map(|i| generator(2 + i))
                .collect(),
        }
    })
}

/// G, the base point of key shares and ciphertexts (generator 0).
pub fn base_point() -> RistrettoPoint {
    generators().g
}

/// `x·G` in constant time.
pub(crate) fn mul_base(x: &Scalar) -> RistrettoPoint {
    x * &generators().g_table
}

/// The point of card `index` in the game `game_id`:
/// `hash_to_point("roundtable/deal/card/v1" || game_id || index as u32 LE)`.
pub fn card_point(game_id: &[u8; 32], index: u32) -> RistrettoPoint {
    hash_to_point(CARD_DOMAIN, &[game_id, &index.to_le_bytes()])
}

/// Maps an opened point back to its card index, by lookup over the points
/// of the cards `0..size` of one game.
#[derive(Debug, Clone)]
pub struct CardTable {
    by_point: HashMap<[u8; 32], u32>,
    size: u32,
}

impl CardTable {
    /// The table of cards `0..size` of the game `game_id`.
    pub fn new(game_id: &[u8; 32], size: u32) -> Result<CardTable, DealError> {
        check_deck_size(size as usize)?;
        let by_point = (0..size)
            .map(|i| (card_point(game_id, i).compress().to_bytes(), i))
            .collect();
        Ok(CardTable { by_point, size })
    }

    /// The number of cards in the table.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// The index of the card whose point is `point`.
    pub fn index_of(&self, point: &RistrettoPoint) -> Result<u32, DealError> {
        self.by_point
            .get(&point.compress().to_bytes())
            .copied()
            .ok_or(DealError::UnknownCard { size: self.size })
    }
}

/// Refuses an empty deck and one larger than [`MAX_DECK_SIZE`].
pub(crate) fn check_deck_size(size: usize) -> Result<(), DealError> {
    if size == 0 || size > MAX_DECK_SIZE {
        return Err(DealError::DeckSize {
            max: MAX_DECK_SIZE,
            got: size,
        });
    }
    Ok(())
}

/// A point together with its canonical encoding, so that hashing it into a
/// transcript never compresses it twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Element {
    pub(crate) point: RistrettoPoint,
    pub(crate) bytes: [u8; 32],
}

impl Element {
    /// Wraps a point, computing its encoding.
    pub fn new(point: RistrettoPoint) -> Element {
        Element {
            point,
            bytes: point.compress().to_bytes(),
        }
    }

    /// Decodes a canonical point encoding; `what` names it in the error.
    pub fn decode(what: &'static str, bytes: &[u8]) -> Result<Element, DealError> {
        let array: [u8; 32] = bytes.try_into().map_err(|_| DealError::WrongLength {
            what,
            expected: 32,
            got: bytes.len(),
        })?;
        let point = CompressedRistretto(array)
            .decompress()
            .ok_or(DealError::NonCanonicalPoint { what })?;
        Ok(Element {
            point,
            bytes: array,
        })
    }

    /// The point.
    pub fn point(&self) -> &RistrettoPoint {
        &self.point
    }

    /// Its 32-byte canonical encoding.
    pub fn to_bytes(&self) -> [u8; 32] {
        self.bytes
    }
}

/// Decodes a canonical scalar (32 bytes little-endian, below ℓ).
pub(crate) fn decode_scalar(what: &'static str, bytes: &[u8]) -> Result<Scalar, DealError> {
    let array: [u8; 32] = bytes.try_into().map_err(|_| DealError::WrongLength {
        what,
        expected: 32,
        got: bytes.len(),
    })?;
    Option::from(Scalar::from_canonical_bytes(array)).ok_or(DealError::NonCanonicalScalar { what })
}

/// A Fiat–Shamir transcript: SHA-512 over a domain string and fixed-width
/// fields, reduced to a scalar modulo ℓ (SPEC 5.3). Every field has a fixed
/// width or follows a count already hashed, so no framing is needed.
pub(crate) struct Transcript(Sha512);

impl Transcript {
    pub(crate) fn new(domain: &[u8]) -> Transcript {
        let mut h = Sha512::new();
        h.update(domain);
        Transcript(h)
    }

    pub(crate) fn bytes(&mut self, bytes: &[u8]) -> &mut Transcript {
        self.0.update(bytes);
        self
    }

    pub(crate) fn element(&mut self, e: &Element) -> &mut Transcript {
        self.0.update(e.bytes);
        self
    }

    /// The 64-byte digest, for a transcript that another hash absorbs.
    pub(crate) fn digest(self) -> [u8; 64] {
        self.0.finalize().into()
    }

    /// The digest as a scalar: the 64 bytes read little-endian, modulo ℓ.
    pub(crate) fn challenge(self) -> Scalar {
        Scalar::from_bytes_mod_order_wide(&self.digest())
    }
}

/// Domain of the hedged nonce derivation (SPEC 5.3).
pub const NONCE_DOMAIN: &[u8] = b"roundtable/deal/nonce/v1";

/// A generator of secret scalars, seeded by hashing the prover's secret, the
/// statement and 32 bytes of the caller's fresh randomness: a weak or
/// repeated random source then still gives distinct nonces for distinct
/// statements, and a good one hides everything even from a leaked secret.
pub(crate) struct NonceSource(ChaCha20Rng);

impl NonceSource {
    pub(crate) fn new(
        secret: &Scalar,
        statement: &[u8; 64],
        rng: &mut impl CryptoRng,
    ) -> NonceSource {
        let mut fresh = [0u8; 32];
        rng.fill_bytes(&mut fresh);
        let mut secret_bytes = secret.to_bytes();
        let mut h = Sha512::new();
        h.update(NONCE_DOMAIN);
        h.update(secret_bytes);
        secret_bytes.zeroize();
        h.update(statement);
        h.update(fresh);
        let mut digest = h.finalize();
        let mut seed = [0u8; 32];
        seed.copy_from_slice(&digest[..32]);
        let source = NonceSource(ChaCha20Rng::from_seed(seed));
        // The seed and digest determine every nonce of the proof, and with
        // a nonce and the proof anyone solves for the secret.
        seed.zeroize();
        digest.as_mut_slice().zeroize();
        fresh.zeroize();
        source
    }

    pub(crate) fn scalar(&mut self) -> Scalar {
        let mut wide = [0u8; 64];
        self.0.fill_bytes(&mut wide);
        let scalar = Scalar::from_bytes_mod_order_wide(&wide);
        wide.zeroize();
        scalar
    }

    /// A uniform integer in `0..n` (n ≥ 1), by rejection.
    pub(crate) fn below(&mut self, n: u32) -> u32 {
        let n = u64::from(n);
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let v = self.0.next_u64();
            if v < zone {
                return (v % n) as u32;
            }
        }
    }
}

/// The context every proof is bound to: the game, the deck epoch, the seat
/// that proves. It travels in the signed envelope, not in the message bytes,
/// and is absorbed into every Fiat–Shamir hash as
/// `game_id || epoch as u32 LE || seat as u8` (37 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Context {
    /// The game id (SPEC 3.3).
    pub game_id: [u8; 32],
    /// Which deck of the game: 0 for the first deal, one more for every
    /// reshuffle of a public pile into a new deck.
    pub epoch: u32,
    /// The seat that makes the proof.
    pub seat: u8,
}

impl Context {
    /// The 37 bytes absorbed into transcripts.
    pub fn to_bytes(&self) -> [u8; 37] {
        let mut out = [0u8; 37];
        out[..32].copy_from_slice(&self.game_id);
        out[32..36].copy_from_slice(&self.epoch.to_le_bytes());
        out[36] = self.seat;
        out
    }
}
