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
        write!(f, "PublicKey({})", crate::hex(&self.0))
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

/// An ed25519 signature (64 bytes).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SignatureBytes(pub [u8; 64]);

impl fmt::Debug for SignatureBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Signature({}…)", crate::hex(&self.0[..8]))
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
