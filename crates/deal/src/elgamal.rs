//! ElGamal ciphertexts of cards under the deck key, and decks of them.

use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::Identity;

use crate::group::{Element, card_point, check_deck_size, mul_base};
use crate::keys::DeckKey;
use crate::{DealError, MAX_DECK_SIZE};

/// A masked card: `(A, B) = (r·G, M + r·K)` for the card point M, the deck
/// key K and a secret r. Encoding: `A || B`, 64 bytes (SPEC 5.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ciphertext {
    pub(crate) a: Element,
    pub(crate) b: Element,
}

/// The bytes of a [`Ciphertext`].
pub const CIPHERTEXT_LEN: usize = 64;

impl Ciphertext {
    /// The public encryption of a known point with randomness 0: `(O, M)`,
    /// where O is the identity. Anyone can check it; a shuffle then hides it.
    pub fn open(message: RistrettoPoint) -> Ciphertext {
        Ciphertext {
            a: Element::new(RistrettoPoint::identity()),
            b: Element::new(message),
        }
    }

    /// `(r·G, M + r·K)`: masks `message` under `key` with the secret `r`.
    pub fn encrypt(key: &DeckKey, message: RistrettoPoint, r: &Scalar) -> Ciphertext {
        Ciphertext {
            a: Element::new(mul_base(r)),
            b: Element::new(message + r * key.0.point),
        }
    }

    /// `(A + s·G, B + s·K)`: the same card under fresh randomness.
    pub fn reencrypt(&self, key: &DeckKey, s: &Scalar) -> Ciphertext {
        Ciphertext {
            a: Element::new(self.a.point + mul_base(s)),
            b: Element::new(self.b.point + s * key.0.point),
        }
    }

    /// The first component A = r·G (what decryption shares multiply).
    pub fn a(&self) -> &Element {
        &self.a
    }

    /// The second component B = M + r·K.
    pub fn b(&self) -> &Element {
        &self.b
    }

    /// `A || B`.
    pub fn to_bytes(&self) -> [u8; CIPHERTEXT_LEN] {
        let mut out = [0u8; CIPHERTEXT_LEN];
        out[..32].copy_from_slice(&self.a.bytes);
        out[32..].copy_from_slice(&self.b.bytes);
        out
    }

    /// Decodes `A || B` (64 bytes, both canonical points; A may be the
    /// identity, as in an open card).
    pub fn from_bytes(bytes: &[u8]) -> Result<Ciphertext, DealError> {
        if bytes.len() != CIPHERTEXT_LEN {
            return Err(DealError::WrongLength {
                what: "ciphertext",
                expected: CIPHERTEXT_LEN,
                got: bytes.len(),
            });
        }
        Ok(Ciphertext {
            a: Element::decode("ciphertext A", &bytes[..32])?,
            b: Element::decode("ciphertext B", &bytes[32..])?,
        })
    }
}

/// A deck: one ciphertext per slot. Encoding: `n as u16 LE || n × (A || B)`
/// (SPEC 5.4), 1 ≤ n ≤ [`MAX_DECK_SIZE`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deck(pub(crate) Vec<Ciphertext>);

impl Deck {
    /// The open deck of the given cards of game `game_id`, each encrypted
    /// publicly with randomness 0, in the order given. This starts a deal
    /// (cards `0..n`) and a reshuffle of a public pile (the pile's known cards).
    pub fn open(game_id: &[u8; 32], cards: &[u32]) -> Result<Deck, DealError> {
        check_deck_size(cards.len())?;
        Ok(Deck(
            cards
                .iter()
                .map(|&i| Ciphertext::open(card_point(game_id, i)))
                .collect(),
        ))
    }

    /// A deck of the given ciphertexts.
    pub fn from_ciphertexts(cards: Vec<Ciphertext>) -> Result<Deck, DealError> {
        check_deck_size(cards.len())?;
        Ok(Deck(cards))
    }

    /// The number of slots.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Never true: a deck holds at least one card.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The ciphertext in `slot`.
    pub fn get(&self, slot: u32) -> Result<&Ciphertext, DealError> {
        self.0.get(slot as usize).ok_or(DealError::NoSuchCard {
            index: slot,
            size: self.0.len() as u32,
        })
    }

    /// The ciphertexts in slot order.
    pub fn ciphertexts(&self) -> &[Ciphertext] {
        &self.0
    }

    /// The encoded length of a deck of `n` cards.
    pub fn encoded_len(n: usize) -> usize {
        2 + n * 64
    }

    /// Appends the encoding to `out`.
    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&(self.0.len() as u16).to_le_bytes());
        for c in &self.0 {
            out.extend_from_slice(&c.to_bytes());
        }
    }

    /// `n as u16 LE || n × (A || B)`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Deck::encoded_len(self.0.len()));
        self.write(&mut out);
        out
    }

    /// Decodes a deck, refusing a size outside 1..=MAX_DECK_SIZE, a length
    /// that does not match the count, and non-canonical points.
    pub fn from_bytes(bytes: &[u8]) -> Result<Deck, DealError> {
        let (deck, rest) = Deck::read(bytes)?;
        if !rest.is_empty() {
            return Err(DealError::WrongLength {
                what: "deck",
                expected: Deck::encoded_len(deck.len()),
                got: bytes.len(),
            });
        }
        Ok(deck)
    }

    /// Reads a deck from the front of `bytes`, returning what follows it.
    pub(crate) fn read(bytes: &[u8]) -> Result<(Deck, &[u8]), DealError> {
        let n = read_count("deck", bytes)?;
        let needed = Deck::encoded_len(n);
        if bytes.len() < needed {
            return Err(DealError::WrongLength {
                what: "deck",
                expected: needed,
                got: bytes.len(),
            });
        }
        let cards = bytes[2..needed]
            .chunks_exact(CIPHERTEXT_LEN)
            .map(Ciphertext::from_bytes)
            .collect::<Result<Vec<_>, _>>()?;
        Ok((Deck(cards), &bytes[needed..]))
    }
}

/// Reads a `u16 LE` card count and checks it against the deck limits.
pub(crate) fn read_count(what: &'static str, bytes: &[u8]) -> Result<usize, DealError> {
    let Some(count) = bytes.get(..2) else {
        return Err(DealError::WrongLength {
            what,
            expected: 2,
            got: bytes.len(),
        });
    };
    let n = usize::from(u16::from_le_bytes([count[0], count[1]]));
    if n == 0 || n > MAX_DECK_SIZE {
        return Err(DealError::DeckSize {
            max: MAX_DECK_SIZE,
            got: n,
        });
    }
    Ok(n)
}
