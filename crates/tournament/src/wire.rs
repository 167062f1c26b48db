//! Serde for byte values: hex text in JSON (people read the files), raw
//! bytes in postcard (what is hashed and signed).

use roundtable_table::{PublicKey, SignatureBytes};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serializer};

fn from_hex<'de, D: Deserializer<'de>, const N: usize>(d: D) -> Result<[u8; N], D::Error> {
    if d.is_human_readable() {
        let text = String::deserialize(d)?;
        let bytes = hex::decode(&text).map_err(D::Error::custom)?;
        <[u8; N]>::try_from(bytes.as_slice())
            .map_err(|_| D::Error::custom(format!("{} bytes of hex, not {N}", bytes.len())))
    } else {
        let bytes = <Vec<u8>>::deserialize(d)?;
        <[u8; N]>::try_from(bytes.as_slice())
            .map_err(|_| D::Error::custom(format!("{} bytes, not {N}", bytes.len())))
    }
}

fn to_hex<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
    if s.is_human_readable() {
        s.serialize_str(&hex::encode(bytes))
    } else {
        s.serialize_bytes(bytes)
    }
}

/// 32 bytes.
pub(crate) mod bytes32 {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(v: &[u8; 32], s: S) -> Result<S::Ok, S::Error> {
        to_hex(v, s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u8; 32], D::Error> {
        from_hex(d)
    }
}

/// Bytes of any length.
pub(crate) mod bytes {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
        to_hex(v, s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        if d.is_human_readable() {
            hex::decode(String::deserialize(d)?).map_err(D::Error::custom)
        } else {
            <Vec<u8>>::deserialize(d)
        }
    }
}

/// A public key.
pub(crate) mod key {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(v: &PublicKey, s: S) -> Result<S::Ok, S::Error> {
        to_hex(&v.0, s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<PublicKey, D::Error> {
        from_hex(d).map(PublicKey)
    }
}

/// A signature.
pub(crate) mod signature {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(v: &SignatureBytes, s: S) -> Result<S::Ok, S::Error> {
        to_hex(&v.0, s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<SignatureBytes, D::Error> {
        from_hex(d).map(SignatureBytes)
    }
}
