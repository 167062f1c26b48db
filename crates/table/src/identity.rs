//! Player identity: an ed25519 key pair, strict verification, no weak keys.

use std::fmt;

use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};

use crate::TableError;

/// A player's public key (32 bytes, ed25519).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct PublicKey(pub [u8; 32]);

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PublicKey({})", hex::encode(self.0))
    }
}

impl PublicKey {
    /// The key as a verifier, refusing keys that are not valid curve points
    /// and weak (small-order) keys, for which signatures prove nothing.
    pub fn verifier(&self) -> Result<VerifyingKey, TableError> {
        let key = VerifyingKey::from_bytes(&self.0).map_err(|_| TableError::BadKey)?;
        if key.is_weak() {
            return Err(TableError::WeakKey);
        }
        Ok(key)
    }

    /// Check `signature` over `message` with `verify_strict`, which refuses
    /// non-canonical signatures, so a signature has exactly one valid encoding.
    pub fn verify(&self, message: &[u8], signature: &SignatureBytes) -> Result<(), TableError> {
        verify_with(&self.verifier()?, message, signature)
    }
}

/// Check `signature` over `message` under an already decoded key (decoding
/// a key costs about as much as half a verification, so tables keep their
/// seats' keys decoded).
pub fn verify_with(
    key: &VerifyingKey,
    message: &[u8],
    signature: &SignatureBytes,
) -> Result<(), TableError> {
    let sig = Signature::from_bytes(&signature.0);
    key.verify_strict(message, &sig)
        .map_err(|_| TableError::BadSignature)
}

/// Check many signatures at once, each under its own decoded key; returns,
/// per item, whether `verify_strict` would accept its signature.
///
/// Each signature first gets the checks `verify_strict` makes besides its
/// equation: a key not of small order, an `R` that decodes and is not of
/// small order, a canonical `s`. Then every equation `[s]B = R + [k]A` is
/// checked at once, as one random combination that is the identity point
/// (one multiscalar multiplication, with the terms of each key gathered, so
/// a transcript's thousand envelopes by five seats cost about a thousand
/// points, not two thousand). Only when that fails is each signature
/// checked alone with [`verify_with`], so the bad ones are named.
///
/// The combination's 128-bit coefficients are a hash of every signature,
/// key and message in the batch, so they are the same on every machine and
/// nobody can choose a signature after seeing them. What the batch accepts
/// and `verify_strict` refuses is a signature whose `R` its own signer
/// built with a small-order part added: nobody but the key's owner can make
/// one, and it says nothing the owner could not have signed the strict way.
pub fn verify_many(items: &[(&VerifyingKey, &[u8], &SignatureBytes)]) -> Vec<bool> {
    use curve25519_dalek::edwards::{CompressedEdwardsY, EdwardsPoint};
    use curve25519_dalek::traits::{IsIdentity, VartimeMultiscalarMul};
    use curve25519_dalek::{Scalar, constants::ED25519_BASEPOINT_POINT};
    use sha2::{Digest, Sha256, Sha512};

    /// One signature's parts: `R`, `s` and `k = H(R || A || M)`.
    struct Parts {
        r: EdwardsPoint,
        s: Scalar,
        k: Scalar,
    }
    let parts: Vec<Option<Parts>> = items
        .iter()
        .map(|(key, message, signature)| {
            let r_bytes: [u8; 32] = signature.0[..32].try_into().ok()?;
            let s_bytes: [u8; 32] = signature.0[32..].try_into().ok()?;
            let r = CompressedEdwardsY(r_bytes).decompress()?;
            if r.is_small_order() || key.is_weak() {
                return None;
            }
            let s = Option::<Scalar>::from(Scalar::from_canonical_bytes(s_bytes))?;
            let k = Scalar::from_hash(
                Sha512::new()
                    .chain_update(r_bytes)
                    .chain_update(key.as_bytes())
                    .chain_update(message),
            );
            Some(Parts { r, s, k })
        })
        .collect();
    let mut valid: Vec<bool> = parts.iter().map(Option::is_some).collect();

    // k binds R, A and M; with s, that is every input.
    let mut seed = Sha256::new();
    seed.update(b"roundtable/batch-verification/v1");
    for p in parts.iter().flatten() {
        seed.update(p.k.as_bytes());
        seed.update(p.s.as_bytes());
    }
    let seed = seed.finalize();
    let mut base = Scalar::ZERO;
    let mut by_key: Vec<([u8; 32], EdwardsPoint, Scalar)> = Vec::new();
    let mut scalars = Vec::with_capacity(items.len() + 8);
    let mut points = Vec::with_capacity(items.len() + 8);
    for (i, ((key, _, _), p)) in items.iter().zip(&parts).enumerate() {
        let Some(p) = p else { continue };
        let z: [u8; 32] = Sha256::new()
            .chain_update(seed)
            .chain_update((i as u64).to_le_bytes())
            .finalize()
            .into();
        let mut low = [0u8; 16];
        low.copy_from_slice(&z[..16]);
        let z = Scalar::from(u128::from_le_bytes(low));
        base -= z * p.s;
        scalars.push(z);
        points.push(p.r);
        let zk = z * p.k;
        match by_key
            .iter_mut()
            .find(|(bytes, _, _)| bytes == key.as_bytes())
        {
            Some((_, _, sum)) => *sum += zk,
            None => by_key.push((*key.as_bytes(), key.to_edwards(), zk)),
        }
    }
    scalars.push(base);
    points.push(ED25519_BASEPOINT_POINT);
    for (_, point, sum) in by_key {
        scalars.push(sum);
        points.push(point);
    }
    if !EdwardsPoint::vartime_multiscalar_mul(scalars, points).is_identity() {
        for (i, (key, message, signature)) in items.iter().enumerate() {
            valid[i] = valid[i] && verify_with(key, message, signature).is_ok();
        }
    }
    valid
}

/// An ed25519 signature (64 bytes).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SignatureBytes(pub [u8; 64]);

impl fmt::Debug for SignatureBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Signature({}…)", hex::encode(&self.0[..8]))
    }
}

impl Serialize for SignatureBytes {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for SignatureBytes {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = SignatureBytes;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("64 signature bytes")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<SignatureBytes, E> {
                <[u8; 64]>::try_from(v)
                    .map(SignatureBytes)
                    .map_err(|_| E::invalid_length(v.len(), &self))
            }
        }
        d.deserialize_bytes(Visit)
    }
}

/// A player's secret key. Kept by its owner; never sent.
#[derive(Clone)]
pub struct Identity {
    key: SigningKey,
}

impl fmt::Debug for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Identity({:?})", self.public())
    }
}

impl Identity {
    /// The identity with this 32-byte secret (from a key file, or derived
    /// from a seed for reproducible self-play).
    pub fn from_secret(secret: [u8; 32]) -> Identity {
        Identity {
            key: SigningKey::from_bytes(&secret),
        }
    }

    /// The 32-byte secret, for storing in the user's key file.
    pub fn secret(&self) -> [u8; 32] {
        self.key.to_bytes()
    }

    /// The public key.
    pub fn public(&self) -> PublicKey {
        PublicKey(self.key.verifying_key().to_bytes())
    }

    /// Sign `message` (already domain-separated by the caller).
    pub fn sign(&self, message: &[u8]) -> SignatureBytes {
        SignatureBytes(self.key.sign(message).to_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_verify_and_tampering_is_refused() {
        let id = Identity::from_secret([7; 32]);
        let sig = id.sign(b"hello");
        assert_eq!(id.public().verify(b"hello", &sig), Ok(()));
        assert_eq!(
            id.public().verify(b"hellp", &sig),
            Err(TableError::BadSignature)
        );
        let mut bad = sig;
        bad.0[63] ^= 0x80;
        assert!(id.public().verify(b"hello", &bad).is_err());
    }

    #[test]
    fn many_signatures_checked_at_once_name_exactly_the_bad_ones() {
        let ids: Vec<Identity> = (1..=5u8).map(|i| Identity::from_secret([i; 32])).collect();
        let keys: Vec<VerifyingKey> = ids.iter().map(|i| i.public().verifier().unwrap()).collect();
        let messages: Vec<Vec<u8>> = (0..40u8).map(|i| vec![i; 1 + usize::from(i)]).collect();
        let mut signatures: Vec<SignatureBytes> = messages
            .iter()
            .enumerate()
            .map(|(i, m)| ids[i % 5].sign(m))
            .collect();
        let all_good = |signatures: &[SignatureBytes]| {
            let items: Vec<_> = messages
                .iter()
                .zip(signatures)
                .enumerate()
                .map(|(i, (m, s))| (&keys[i % 5], m.as_slice(), s))
                .collect();
            verify_many(&items)
        };
        assert!(all_good(&signatures).iter().all(|v| *v));
        // One tampered signature and one signed by the wrong seat.
        signatures[7].0[40] ^= 1;
        signatures[23] = ids[0].sign(&messages[23]);
        let verdicts = all_good(&signatures);
        let bad: Vec<usize> = (0..verdicts.len()).filter(|&i| !verdicts[i]).collect();
        assert_eq!(bad, [7, 23]);
        assert!(verify_many(&[]).is_empty());
    }

    /// A signature whose `R` is of small order satisfies the plain equation
    /// that batch verification checks, but `verify_strict` refuses it; so
    /// must the batch path, or the audit would accept what a table refuses.
    #[test]
    fn a_small_order_r_is_refused_in_a_batch_as_alone() {
        use curve25519_dalek::{EdwardsPoint, Scalar};
        use sha2::{Digest, Sha512};
        let secret = [3u8; 32];
        let id = Identity::from_secret(secret);
        let key = id.public().verifier().unwrap();
        // The signer's scalar, as ed25519 derives it from the secret.
        let expanded = Sha512::digest(secret);
        let mut low = [0u8; 32];
        low.copy_from_slice(&expanded[..32]);
        let a = Scalar::from_bytes_mod_order(curve25519_dalek::scalar::clamp_integer(low));
        assert_eq!(EdwardsPoint::mul_base(&a).compress().0, id.public().0);
        // R = the identity point (r = 0), so s = k a.
        let message = b"a move";
        let r = EdwardsPoint::default().compress().0;
        let k = Scalar::from_hash(
            Sha512::new()
                .chain_update(r)
                .chain_update(id.public().0)
                .chain_update(message),
        );
        let mut bytes = [0u8; 64];
        bytes[..32].copy_from_slice(&r);
        bytes[32..].copy_from_slice((k * a).as_bytes());
        let odd = SignatureBytes(bytes);
        // The plain equation holds: a batch of the equations alone passes.
        assert_eq!(
            EdwardsPoint::mul_base(&(k * a)),
            EdwardsPoint::default() + k * EdwardsPoint::mul_base(&a)
        );
        assert!(verify_with(&key, message, &odd).is_err());
        let honest = id.sign(message);
        assert_eq!(
            verify_many(&[(&key, message, &odd), (&key, message, &honest)]),
            [false, true]
        );
    }

    #[test]
    fn weak_keys_are_refused() {
        // The identity point (a small-order point) encodes as 1 followed by zeros.
        let mut identity_point = [0u8; 32];
        identity_point[0] = 1;
        assert_eq!(
            PublicKey(identity_point).verifier().err(),
            Some(TableError::WeakKey)
        );
    }
}
