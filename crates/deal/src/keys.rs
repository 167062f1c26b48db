//! Key shares, their Schnorr proofs of knowledge, the deck key, key release.

use curve25519_dalek::ristretto::RistrettoPoint;
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::{IsIdentity, VartimeMultiscalarMul};
use rand_core::CryptoRng;
use zeroize::Zeroize;

use crate::DealError;
use crate::group::{
    Context, Element, NonceSource, Transcript, decode_scalar, generators, mul_base,
};

/// Domain of the key share proof's Fiat–Shamir hash (SPEC 5.5).
pub const KEY_SHARE_DOMAIN: &[u8] = b"roundtable/deal/key-share/v1";

/// A seat's secret key share x, with its public key share X = x·G (kept so
/// that every proof does not recompute it). The secret is zeroed when
/// dropped and never printed.
#[derive(Clone)]
pub struct SecretShare {
    secret: Scalar,
    public: KeyShare,
}

impl Drop for SecretShare {
    fn drop(&mut self) {
        self.secret.zeroize();
    }
}

impl zeroize::ZeroizeOnDrop for SecretShare {}

impl std::fmt::Debug for SecretShare {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretShare(..)")
    }
}

impl SecretShare {
    /// A fresh secret from the caller's random source (64 bytes reduced
    /// modulo ℓ; zero, with probability 2^-252, is drawn again).
    pub fn generate(rng: &mut impl CryptoRng) -> SecretShare {
        loop {
            let mut wide = [0u8; 64];
            rng.fill_bytes(&mut wide);
            let x = Scalar::from_bytes_mod_order_wide(&wide);
            if x != Scalar::ZERO {
                return SecretShare::new(x);
            }
        }
    }

    fn new(secret: Scalar) -> SecretShare {
        SecretShare {
            secret,
            public: KeyShare(Element::new(mul_base(&secret))),
        }
    }

    /// The public key share X = x·G.
    pub fn public(&self) -> KeyShare {
        self.public
    }

    /// The 32-byte encoding published at key release (SPEC 5.10).
    pub fn to_bytes(&self) -> [u8; 32] {
        self.secret.to_bytes()
    }

    /// Reads a secret share from its 32 canonical bytes (a stored key, not a
    /// release: a release is checked with [`KeyShare::verify_release`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<SecretShare, DealError> {
        let x = decode_scalar("secret key share", bytes)?;
        if x == Scalar::ZERO {
            return Err(DealError::IdentityPoint {
                what: "a key share",
            });
        }
        Ok(SecretShare::new(x))
    }

    pub(crate) fn scalar(&self) -> &Scalar {
        &self.secret
    }
}

/// A seat's public key share X = x·G, known to come from a checked proof or
/// from the secret itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyShare(pub(crate) Element);

impl KeyShare {
    /// The 32-byte encoding.
    pub fn to_bytes(&self) -> [u8; 32] {
        self.0.bytes
    }

    /// Checks a released secret against this key share: it must be a
    /// canonical scalar x with x·G = X. Returns the secret, with which anyone
    /// can now compute this seat's decryption shares.
    pub fn verify_release(&self, released: &[u8]) -> Result<SecretShare, DealError> {
        let x = decode_scalar("released key share", released)?;
        let released = SecretShare::new(x);
        if released.public.0.point != self.0.point {
            return Err(DealError::ReleaseMismatch);
        }
        Ok(released)
    }
}

/// The published key share with its proof that the seat knows its secret
/// (SPEC 5.5). Encoding: `X || c || s`, 96 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyShareMessage {
    share: Element,
    challenge: Scalar,
    response: Scalar,
}

/// The bytes of a [`KeyShareMessage`].
pub const KEY_SHARE_MESSAGE_LEN: usize = 96;

fn key_share_statement(context: &Context, share: &Element) -> Transcript {
    let mut t = Transcript::new(KEY_SHARE_DOMAIN);
    t.bytes(&context.to_bytes()).element(share);
    t
}

impl KeyShareMessage {
    /// Publishes `secret`'s key share with a Schnorr proof of knowledge bound
    /// to `context` (the seat's own game, epoch and seat).
    pub fn prove(
        context: &Context,
        secret: &SecretShare,
        rng: &mut impl CryptoRng,
    ) -> KeyShareMessage {
        let share = secret.public().0;
        let statement = key_share_statement(context, &share).digest();
        let mut k = NonceSource::new(secret.scalar(), &statement, rng).scalar();
        let commitment = Element::new(mul_base(&k));
        let mut t = key_share_statement(context, &share);
        t.element(&commitment);
        let challenge = t.challenge();
        let response = k + challenge * secret.scalar();
        k.zeroize();
        KeyShareMessage {
            share,
            challenge,
            response,
        }
    }

    /// Checks the proof; the key share it returns may enter the deck key.
    pub fn verify(&self, context: &Context) -> Result<KeyShare, DealError> {
        if self.share.point.is_identity() {
            return Err(DealError::IdentityPoint {
                what: "a key share",
            });
        }
        // T = s·G − c·X
        let commitment = Element::new(RistrettoPoint::vartime_multiscalar_mul(
            [self.response, -self.challenge],
            [generators().g, self.share.point],
        ));
        let mut t = key_share_statement(context, &self.share);
        t.element(&commitment);
        if t.challenge() != self.challenge {
            return Err(DealError::ProofFailed { proof: "key share" });
        }
        Ok(KeyShare(self.share))
    }

    /// The key share this message claims (not yet checked).
    pub fn claimed_share(&self) -> [u8; 32] {
        self.share.bytes
    }

    /// `X || c || s`.
    pub fn to_bytes(&self) -> [u8; KEY_SHARE_MESSAGE_LEN] {
        let mut out = [0u8; KEY_SHARE_MESSAGE_LEN];
        out[..32].copy_from_slice(&self.share.bytes);
        out[32..64].copy_from_slice(self.challenge.as_bytes());
        out[64..].copy_from_slice(self.response.as_bytes());
        out
    }

    /// Decodes `X || c || s`, refusing any other length and non-canonical
    /// fields.
    pub fn from_bytes(bytes: &[u8]) -> Result<KeyShareMessage, DealError> {
        if bytes.len() != KEY_SHARE_MESSAGE_LEN {
            return Err(DealError::WrongLength {
                what: "key share message",
                expected: KEY_SHARE_MESSAGE_LEN,
                got: bytes.len(),
            });
        }
        Ok(KeyShareMessage {
            share: Element::decode("key share", &bytes[..32])?,
            challenge: decode_scalar("key share proof challenge", &bytes[32..64])?,
            response: decode_scalar("key share proof response", &bytes[64..])?,
        })
    }
}

/// The deck key K: the sum of every seat's checked key share. Nobody knows
/// its secret unless every seat gives its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeckKey(pub(crate) Element);

impl DeckKey {
    /// K = X_0 + X_1 + ... in seat order.
    pub fn combine(shares: &[KeyShare]) -> Result<DeckKey, DealError> {
        if shares.is_empty() {
            return Err(DealError::NoKeyShares);
        }
        let sum: RistrettoPoint = shares.iter().map(|s| s.0.point).sum();
        if sum.is_identity() {
            return Err(DealError::IdentityPoint {
                what: "the deck key",
            });
        }
        Ok(DeckKey(Element::new(sum)))
    }

    /// The 32-byte encoding.
    pub fn to_bytes(&self) -> [u8; 32] {
        self.0.bytes
    }
}
