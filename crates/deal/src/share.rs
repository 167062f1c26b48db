//! Decryption shares with Chaum–Pedersen proofs, and opening a card.

use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::VartimeMultiscalarMul;
use rand_core::CryptoRng;
use zeroize::Zeroize;

use crate::DealError;
use crate::elgamal::Ciphertext;
use crate::group::{
    CardTable, Context, Element, NonceSource, Transcript, decode_scalar, generators, mul_base,
};
use crate::keys::{KeyShare, SecretShare};

/// Domain of the decryption share proof's Fiat–Shamir hash (SPEC 5.7).
pub const SHARE_DOMAIN: &[u8] = b"roundtable/deal/decryption-share/v1";

/// The bytes of a [`DecryptionShare`].
pub const DECRYPTION_SHARE_LEN: usize = 96;

/// One seat's decryption share D = x·A of one ciphertext, with a
/// Chaum–Pedersen proof that log_G(X) = log_A(D). Encoding: `D || c || s`,
/// 96 bytes (SPEC 5.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecryptionShare {
    share: Element,
    challenge: Scalar,
    response: Scalar,
}

fn share_statement(
    context: &Context,
    slot: u32,
    key_share: &Element,
    card: &Ciphertext,
    share: &Element,
) -> Transcript {
    let mut t = Transcript::new(SHARE_DOMAIN);
    t.bytes(&context.to_bytes())
        .bytes(&slot.to_le_bytes())
        .element(key_share)
        .element(&card.a)
        .element(&card.b)
        .element(share);
    t
}

impl DecryptionShare {
    /// The share of `secret` for the ciphertext in `slot`, with its proof
    /// bound to `context` (the sharing seat's game, epoch and seat).
    pub fn prove(
        context: &Context,
        slot: u32,
        secret: &SecretShare,
        card: &Ciphertext,
        rng: &mut impl CryptoRng,
    ) -> DecryptionShare {
        let x = secret.scalar();
        let key_share = secret.public().0;
        let share = Element::new(x * card.a.point);
        let statement = share_statement(context, slot, &key_share, card, &share).digest();
        let mut k = NonceSource::new(secret.scalar(), &statement, rng).scalar();
        let mut t = share_statement(context, slot, &key_share, card, &share);
        t.element(&Element::new(mul_base(&k)))
            .element(&Element::new(k * card.a.point));
        let challenge = t.challenge();
        let response = k + challenge * x;
        k.zeroize();
        DecryptionShare {
            share,
            challenge,
            response,
        }
    }

    /// Checks the proof against the sharing seat's key share and the
    /// ciphertext in `slot`; returns the share point D.
    pub fn verify(
        &self,
        context: &Context,
        slot: u32,
        key_share: &KeyShare,
        card: &Ciphertext,
    ) -> Result<RistrettoPoint, DealError> {
        // T1 = s·G − c·X, T2 = s·A − c·D
        let t1 = RistrettoPoint::vartime_multiscalar_mul(
            [self.response, -self.challenge],
            [generators().g, key_share.0.point],
        );
        let t2 = RistrettoPoint::vartime_multiscalar_mul(
            [self.response, -self.challenge],
            [card.a.point, self.share.point],
        );
        let mut t = share_statement(context, slot, &key_share.0, card, &self.share);
        t.element(&Element::new(t1)).element(&Element::new(t2));
        if t.challenge() != self.challenge {
            return Err(DealError::ProofFailed {
                proof: "decryption share",
            });
        }
        Ok(self.share.point)
    }

    /// `D || c || s`.
    pub fn to_bytes(&self) -> [u8; DECRYPTION_SHARE_LEN] {
        let mut out = [0u8; DECRYPTION_SHARE_LEN];
        out[..32].copy_from_slice(&self.share.bytes);
        out[32..64].copy_from_slice(self.challenge.as_bytes());
        out[64..].copy_from_slice(self.response.as_bytes());
        out
    }

    /// Decodes `D || c || s`, refusing any other length and non-canonical fields.
    pub fn from_bytes(bytes: &[u8]) -> Result<DecryptionShare, DealError> {
        if bytes.len() != DECRYPTION_SHARE_LEN {
            return Err(DealError::WrongLength {
                what: "decryption share",
                expected: DECRYPTION_SHARE_LEN,
                got: bytes.len(),
            });
        }
        Ok(DecryptionShare {
            share: Element::decode("decryption share", &bytes[..32])?,
            challenge: decode_scalar("decryption share proof challenge", &bytes[32..64])?,
            response: decode_scalar("decryption share proof response", &bytes[64..])?,
        })
    }
}

/// A seat's own share of a ciphertext, D = x·A, which needs no proof: the
/// drawer of a private card adds it to the others' checked shares itself.
pub fn own_share(secret: &SecretShare, card: &Ciphertext) -> RistrettoPoint {
    secret.scalar() * card.a.point
}

/// Opens a card from every seat's share: M = B − Σ D_j, then looks M up
/// among the game's cards. Pass one share per seat (checked with
/// [`DecryptionShare::verify`], or a seat's [`own_share`]); a missing or
/// wrong share gives [`DealError::UnknownCard`].
pub fn open_card(
    card: &Ciphertext,
    shares: &[RistrettoPoint],
    cards: &CardTable,
) -> Result<u32, DealError> {
    let sum: RistrettoPoint = shares.iter().sum();
    cards.index_of(&(card.b.point - sum))
}
