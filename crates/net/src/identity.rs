//! The player's ed25519 key is also its libp2p identity, so a connection's
//! peer id (authenticated by noise or TLS) names the seat it comes from.

use libp2p::PeerId;
use libp2p::identity::{Keypair, PublicKey as Libp2pKey, ed25519};
use roundtable_table::{Identity, PublicKey};

use crate::NetError;

/// The libp2p key pair of a player's identity (the same ed25519 key).
pub fn keypair_of(identity: &Identity) -> Result<Keypair, NetError> {
    Keypair::ed25519_from_bytes(identity.secret())
        .map_err(|e| NetError::Transport(format!("converting the key: {e}")))
}

/// The libp2p peer id of a seat's key, or `None` when the bytes are not an
/// ed25519 public key.
pub fn peer_id_of(key: &PublicKey) -> Option<PeerId> {
    let public = ed25519::PublicKey::try_from_bytes(&key.0).ok()?;
    Some(PeerId::from_public_key(&Libp2pKey::from(public)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peer_id_matches_keypair() {
        let id = Identity::from_secret([5; 32]);
        let kp = keypair_of(&id).unwrap();
        assert_eq!(Some(kp.public().to_peer_id()), peer_id_of(&id.public()));
    }
}
