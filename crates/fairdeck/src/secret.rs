//! Secret choices for simultaneous moves: commit, then open, then verify.
//!
//! ```text
//! commitment = SHA256( "roundtable/secret/v1"          20 bytes, ASCII
//!                   || game_id                          32 bytes
//!                   || seat                              1 byte  (u8, from 0)
//!                   || index                             8 bytes (u64 LE)
//!                   || len(choice)                       8 bytes (u64 LE)
//!                   || choice                          len bytes
//!                   || nonce )                          32 bytes
//! ```
//!
//! The length prefix makes the encoding injective: no two different
//! (choice, nonce) pairs give the same hashed bytes. The nonce (32 bytes from
//! the OS, never reused) hides choices that have few possible values.

use sha2::{Digest, Sha256};

use crate::FairdeckError;

/// Domain string of secret-choice commitments.
pub const SECRET_DOMAIN: &[u8] = b"roundtable/secret/v1";

/// The exact bytes hashed by [`commit_secret`].
pub fn secret_preimage(
    game_id: &[u8; 32],
    seat: u8,
    index: u64,
    choice: &[u8],
    nonce: &[u8; 32],
) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(SECRET_DOMAIN.len() + 32 + 1 + 8 + 8 + choice.len() + 32);
    bytes.extend_from_slice(SECRET_DOMAIN);
    bytes.extend_from_slice(game_id);
    bytes.push(seat);
    bytes.extend_from_slice(&index.to_le_bytes());
    bytes.extend_from_slice(&(choice.len() as u64).to_le_bytes());
    bytes.extend_from_slice(choice);
    bytes.extend_from_slice(nonce);
    bytes
}

/// Commit to `choice` for secret decision `index` of `seat` in game `game_id`.
///
/// `index` numbers the seat's secret choices in the game; no two of a seat's
/// commitments in one game may share it (the table assigns it). `choice` is
/// the canonical encoding of the action; `nonce` is fresh randomness kept
/// secret until the opening.
pub fn commit_secret(
    game_id: &[u8; 32],
    seat: u8,
    index: u64,
    choice: &[u8],
    nonce: &[u8; 32],
) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(SECRET_DOMAIN);
    h.update(game_id);
    h.update([seat]);
    h.update(index.to_le_bytes());
    h.update((choice.len() as u64).to_le_bytes());
    h.update(choice);
    h.update(nonce);
    h.finalize().into()
}

/// Check an opening (`choice`, `nonce`) against `commitment`.
pub fn verify_secret(
    game_id: &[u8; 32],
    seat: u8,
    index: u64,
    choice: &[u8],
    nonce: &[u8; 32],
    commitment: &[u8; 32],
) -> Result<(), FairdeckError> {
    if commit_secret(game_id, seat, index, choice, nonce) == *commitment {
        Ok(())
    } else {
        Err(FairdeckError::SecretMismatch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_is_pinned() {
        let pre = secret_preimage(&[0xaa; 32], 3, 0x0102, b"xy", &[0xbb; 32]);
        let mut want = b"roundtable/secret/v1".to_vec();
        want.extend_from_slice(&[0xaa; 32]);
        want.push(3);
        want.extend_from_slice(&[2, 1, 0, 0, 0, 0, 0, 0]);
        want.extend_from_slice(&[2, 0, 0, 0, 0, 0, 0, 0]);
        want.extend_from_slice(b"xy");
        want.extend_from_slice(&[0xbb; 32]);
        assert_eq!(pre, want);
        let digest: [u8; 32] = Sha256::digest(&pre).into();
        assert_eq!(
            commit_secret(&[0xaa; 32], 3, 0x0102, b"xy", &[0xbb; 32]),
            digest
        );
    }

    #[test]
    fn every_field_is_bound() {
        let (g, n) = ([1; 32], [2; 32]);
        let c = commit_secret(&g, 1, 5, b"abc", &n);
        assert_eq!(verify_secret(&g, 1, 5, b"abc", &n, &c), Ok(()));
        let bad = Err(FairdeckError::SecretMismatch);
        assert_eq!(verify_secret(&[0; 32], 1, 5, b"abc", &n, &c), bad);
        assert_eq!(verify_secret(&g, 2, 5, b"abc", &n, &c), bad);
        assert_eq!(verify_secret(&g, 1, 6, b"abc", &n, &c), bad);
        assert_eq!(verify_secret(&g, 1, 5, b"abd", &n, &c), bad);
        assert_eq!(verify_secret(&g, 1, 5, b"abc", &[3; 32], &c), bad);
    }
}
