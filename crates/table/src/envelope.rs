//! Signed envelopes: every message a seat sends about a game.

use serde::{Deserialize, Serialize};
use serde_big_array::BigArray;
use sha2::{Digest, Sha256};

use crate::identity::{Identity, PublicKey, SignatureBytes};
use crate::{GameId, Hash32, TableError};

/// Domain string signed before an envelope's postcard encoding.
pub const ENVELOPE_DOMAIN: &[u8] = b"roundtable/envelope/v1";
/// Domain string hashed before a signed envelope to make its hash.
pub const ENVELOPE_HASH_DOMAIN: &[u8] = b"roundtable/envelope-hash/v1";
/// Largest encoded envelope accepted from the network, in bytes: room for a
/// [`Body::Shuffle`] of a 120-card deck (its message alone is 23,202 bytes)
/// with the envelope around it (protocol/SPEC.md 4.8).
pub const MAX_ENVELOPE_BYTES: usize = 24 * 1024;
/// Longest chat text, in bytes.
pub const MAX_CHAT_BYTES: usize = 500;

/// A seat's reveal of its chain link for a chance event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Reveal {
    /// The chance event, counted from 1.
    pub event: u64,
    /// The link `x_{L-event}` of the seat's hash chain.
    pub link: [u8; 32],
}

/// A 96-byte proof message of the private deal (a key share message or a
/// decryption share, SPEC 5.5 and 5.7). On the wire it is its 96 bytes,
/// with no length (a fixed-size array in postcard).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Proof96(#[serde(with = "BigArray")] pub [u8; 96]);

impl std::fmt::Debug for Proof96 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Proof96({})", &hex::encode(self.0)[..16])
    }
}

/// What an envelope says.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Body {
    /// A decision, postcard-encoded. When it raises a chance event, the actor
    /// may carry its own reveal for it and save a message.
    Action {
        /// The game's action, postcard-encoded.
        action: Vec<u8>,
        /// The actor's reveal for the chance event the action raises.
        reveal: Option<Reveal>,
    },
    /// A reveal for a chance event, signed like every other body
    /// (protocol/SPEC.md 3.4 says why).
    Reveal(Reveal),
    /// A secret choice's commitment (simultaneous decisions).
    SecretCommit {
        /// Which simultaneous decision, counted from 1.
        index: u64,
        /// `fairdeck::commit_secret(...)`.
        commitment: [u8; 32],
    },
    /// The opening of a secret choice.
    SecretOpen {
        /// Which simultaneous decision.
        index: u64,
        /// The choice, postcard-encoded.
        choice: Vec<u8>,
        /// The commitment's nonce.
        nonce: [u8; 32],
    },
    /// The author has waited past the deadline for `accused` at `position`
    /// and will not accept its input there unless another seat shows it has
    /// moved past. Every other seat's claim forfeits the accused.
    StallClaim {
        /// The stalled seat.
        accused: u8,
        /// The transcript position at which it stalled.
        position: u64,
    },
    /// The author gives up; it forfeits when the game next needs it.
    Resign,
    /// After the game: the author's chain seed, so anyone can check every link.
    SeedOpening {
        /// The 32-byte seed.
        seed: [u8; 32],
    },
    /// The author's next hash chain, announced before its current one runs
    /// out: it answers events `first_event ..= first_event + length - 1`.
    /// Its seed derives from the genesis seed
    /// (`roundtable_fairdeck::continuation_seed`), so the seed opening after
    /// the game proves it too. Not a game input: taken in as soon as it is
    /// next in the author's sequence.
    ChainContinuation {
        /// The first event the new chain answers: the last event of the
        /// author's chains so far, plus one.
        first_event: u64,
        /// The new chain's length (1 to 2^20).
        length: u64,
        /// The new chain's tip.
        commitment: [u8; 32],
    },
    /// The author's key share for the private deal with its proof of
    /// knowledge (`roundtable_deal::KeyShareMessage` bytes), bound to the
    /// context (game id, epoch 0, author). Sent once, before the first
    /// shuffle (protocol/SPEC.md 5.11).
    KeyShare {
        /// `X || c || s`.
        message: Proof96,
    },
    /// The author's shuffle of the deck of `epoch`: the previous seat's
    /// output (or the open deck of the pile) re-encrypted and permuted, with
    /// its proof (`roundtable_deal::ShuffleMessage` bytes).
    Shuffle {
        /// The deck's epoch.
        epoch: u32,
        /// The shuffle message.
        message: Vec<u8>,
    },
    /// The author's decryption shares (`roundtable_deal::DecryptionShare`
    /// bytes) for exactly the slots the private request at the envelope's
    /// position asks of it, in the request's order.
    Shares {
        /// One share per slot.
        shares: Vec<Proof96>,
    },
    /// A decision that plays private cards face up: the action, and the
    /// holder's decryption share for each handle it claims, in claims order.
    /// An action that claims nothing is a plain [`Body::Action`].
    ActionRevealing {
        /// The game's action, postcard-encoded.
        action: Vec<u8>,
        /// The actor's reveal for the chance event the action raises.
        reveal: Option<Reveal>,
        /// One share per claimed handle.
        shares: Vec<Proof96>,
    },
    /// The author's secret key share, released after the game (after its
    /// seed opening) or right after its resignation: with it anyone computes
    /// the author's decryption shares.
    KeyRelease {
        /// The secret scalar, little-endian.
        secret: [u8; 32],
    },
    /// The first shuffle of the deck of `epoch`, which names the pile the
    /// deck starts from: without it a verifier that does not replay the
    /// game's rules could not rebuild the open deck the proof is about
    /// (protocol/SPEC.md 5.11). Every later shuffle of the epoch is a
    /// [`Body::Shuffle`].
    ShuffleFromPile {
        /// The deck's epoch.
        epoch: u32,
        /// The catalogue index of each card of the open deck, in the order
        /// the game's request lists them.
        pile: Vec<u32>,
        /// The shuffle message, of the open deck of `pile`.
        message: Vec<u8>,
    },
}

impl Body {
    /// A short name for errors and logs.
    pub fn kind(&self) -> &'static str {
        match self {
            Body::Action { .. } => "action",
            Body::Reveal(_) => "reveal",
            Body::SecretCommit { .. } => "secret commitment",
            Body::SecretOpen { .. } => "secret opening",
            Body::StallClaim { .. } => "stall claim",
            Body::Resign => "resignation",
            Body::SeedOpening { .. } => "seed opening",
            Body::ChainContinuation { .. } => "chain continuation",
            Body::KeyShare { .. } => "key share",
            Body::Shuffle { .. } | Body::ShuffleFromPile { .. } => "shuffle",
            Body::Shares { .. } => "decryption shares",
            Body::ActionRevealing { .. } => "action with revealed cards",
            Body::KeyRelease { .. } => "key release",
        }
    }
}

/// An envelope before signing.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Envelope {
    /// The game.
    pub game_id: GameId,
    /// The author's seat.
    pub seat: u8,
    /// The author's sequence number, from 0, one per envelope.
    pub seq: u64,
    /// The hash of the author's previous envelope (zeros for the first).
    pub prev: Hash32,
    /// Game inputs the author had applied when it wrote this.
    pub position: u64,
    /// The engine state hash the author saw at `position`.
    pub state_hash: Hash32,
    /// What it says.
    pub body: Body,
}

impl Envelope {
    fn signing_bytes(&self) -> Vec<u8> {
        let mut m = ENVELOPE_DOMAIN.to_vec();
        // Serialising plain data into memory cannot fail.
        m.extend_from_slice(&postcard::to_allocvec(self).unwrap_or_default());
        m
    }

    /// Sign as `identity`.
    pub fn sign(self, identity: &Identity) -> Signed {
        let signature = identity.sign(&self.signing_bytes());
        Signed {
            envelope: self,
            signature,
        }
    }
}

/// A signed envelope, as sent and stored.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Signed {
    /// The envelope.
    pub envelope: Envelope,
    /// The author's signature over `roundtable/envelope/v1 || postcard(envelope)`.
    pub signature: SignatureBytes,
}

impl Signed {
    /// Check the signature against the author's key.
    pub fn verify(&self, key: &PublicKey) -> Result<(), TableError> {
        self.verify_with(&key.verifier()?)
    }

    /// Check the signature against the author's decoded key. A reveal's
    /// link is checked against the seat's chain by the table.
    pub fn verify_with(&self, key: &ed25519_dalek::VerifyingKey) -> Result<(), TableError> {
        crate::identity::verify_with(key, &self.envelope.signing_bytes(), &self.signature)
    }

    /// The bytes the signature covers.
    pub fn signed_bytes(&self) -> Vec<u8> {
        self.envelope.signing_bytes()
    }

    /// The envelope's hash: SHA-256 of the domain string and the postcard
    /// encoding of the signed envelope. The next envelope's `prev` names it.
    pub fn hash(&self) -> Hash32 {
        let mut h = Sha256::new();
        h.update(ENVELOPE_HASH_DOMAIN);
        h.update(self.encode());
        Hash32(h.finalize().into())
    }

    /// The wire encoding (postcard).
    pub fn encode(&self) -> Vec<u8> {
        postcard::to_allocvec(self).unwrap_or_default()
    }

    /// Decode untrusted bytes: size-capped, and the whole input must be used.
    pub fn decode(bytes: &[u8]) -> Result<Signed, TableError> {
        if bytes.len() > MAX_ENVELOPE_BYTES {
            return Err(TableError::TooLarge(bytes.len()));
        }
        crate::decode_exact::<Signed>(bytes).map_err(TableError::Malformed)
    }

    /// Author's seat.
    pub fn seat(&self) -> u8 {
        self.envelope.seat
    }

    /// Author's sequence number.
    pub fn seq(&self) -> u64 {
        self.envelope.seq
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn sample() -> Signed {
        Envelope {
            game_id: GameId([1; 32]),
            seat: 2,
            seq: 5,
            prev: Hash32([3; 32]),
            position: 40,
            state_hash: Hash32([4; 32]),
            body: Body::Action {
                action: vec![1, 2, 3],
                reveal: Some(Reveal {
                    event: 9,
                    link: [5; 32],
                }),
            },
        }
        .sign(&Identity::from_secret([9; 32]))
    }

    #[test]
    fn envelopes_round_trip_and_verify() {
        let s = sample();
        let back = Signed::decode(&s.encode()).unwrap();
        assert_eq!(back, s);
        let key = Identity::from_secret([9; 32]).public();
        assert_eq!(back.verify(&key), Ok(()));
        let mut forged = back.clone();
        forged.envelope.position += 1;
        assert_eq!(forged.verify(&key), Err(TableError::BadSignature));
        assert_ne!(forged.hash(), back.hash());
    }

    /// Issue 12: an envelope without a signature is refused at decoding,
    /// whatever its body. The bytes are built by hand in the encoding an
    /// unsigned reveal had (`Option` tag 0 where the signature stands), so
    /// anyone could have built them from a published link.
    #[test]
    fn an_unsigned_reveal_does_not_decode() {
        let reveal = Envelope {
            game_id: GameId([1; 32]),
            seat: 2,
            seq: 6,
            prev: Hash32([3; 32]),
            position: 0,
            state_hash: Hash32::default(),
            body: Body::Reveal(Reveal {
                event: 9,
                link: [5; 32],
            }),
        };
        let mut bytes = postcard::to_allocvec(&reveal).unwrap();
        bytes.push(0);
        assert!(matches!(
            Signed::decode(&bytes),
            Err(TableError::Malformed(_))
        ));
        // Signed, the same reveal decodes and verifies under its seat's key
        // only.
        let sealed = reveal.sign(&Identity::from_secret([9; 32]));
        let back = Signed::decode(&sealed.encode()).unwrap();
        assert_eq!(
            back.verify(&Identity::from_secret([9; 32]).public()),
            Ok(())
        );
        assert_eq!(
            back.verify(&Identity::from_secret([8; 32]).public()),
            Err(TableError::BadSignature)
        );
    }

    /// SPEC 4.8: one envelope carries a whole 120-card shuffle, with the
    /// largest numbers its header can hold, and the pile it starts from
    /// with the largest card indices.
    #[test]
    fn a_shuffle_of_120_cards_fits_in_one_envelope() {
        let message_len = roundtable_deal::ShuffleMessage::encoded_len(120);
        assert_eq!(message_len, 23_202);
        let envelope = Envelope {
            game_id: GameId([0xff; 32]),
            seat: u8::MAX,
            seq: u64::MAX,
            prev: Hash32([0xff; 32]),
            position: u64::MAX,
            state_hash: Hash32([0xff; 32]),
            body: Body::ShuffleFromPile {
                epoch: u32::MAX,
                pile: vec![u32::MAX; 120],
                message: vec![0xff; message_len],
            },
        }
        .sign(&Identity::from_secret([9; 32]));
        let bytes = envelope.encode();
        println!("a 120-card shuffle envelope: {} bytes", bytes.len());
        assert!(
            bytes.len() <= MAX_ENVELOPE_BYTES,
            "{} bytes, the limit is {MAX_ENVELOPE_BYTES}",
            bytes.len()
        );
        assert_eq!(Signed::decode(&bytes).unwrap(), envelope);
    }

    #[test]
    fn trailing_and_oversized_input_is_refused() {
        let mut bytes = sample().encode();
        bytes.push(0);
        assert!(matches!(
            Signed::decode(&bytes),
            Err(TableError::Malformed(_))
        ));
        assert!(matches!(
            Signed::decode(&vec![0; MAX_ENVELOPE_BYTES + 1]),
            Err(TableError::TooLarge(_))
        ));
    }

    proptest! {
        /// A first shuffle's pile travels card for card: whatever its
        /// catalogue indices, the envelope decodes to the pile it was
        /// signed with, and the pile costs its count and one varint per
        /// card (SPEC 5.11).
        #[test]
        fn a_named_pile_round_trips(pile in proptest::collection::vec(any::<u32>(), 1..512)) {
            let shuffle = |body| Envelope {
                game_id: GameId([1; 32]),
                seat: 0,
                seq: 1,
                prev: Hash32([3; 32]),
                position: 0,
                state_hash: Hash32([4; 32]),
                body,
            }
            .sign(&Identity::from_secret([9; 32]));
            let named = shuffle(Body::ShuffleFromPile { epoch: 0, pile: pile.clone(), message: vec![7; 100] });
            let plain = shuffle(Body::Shuffle { epoch: 0, message: vec![7; 100] });
            prop_assert_eq!(Signed::decode(&named.encode()).unwrap(), named.clone());
            let varints: usize = pile.iter().map(|&c| postcard::to_allocvec(&c).unwrap().len()).sum();
            let count = postcard::to_allocvec(&(pile.len() as u64)).unwrap().len();
            prop_assert_eq!(named.encode().len(), plain.encode().len() + count + varints);
        }

        /// The decoder of network input never panics, whatever the bytes.
        #[test]
        fn decoding_arbitrary_bytes_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
            let _ = Signed::decode(&bytes);
        }

        /// Flipping any bit of a signed envelope breaks decoding or the signature.
        #[test]
        fn any_bit_flip_is_detected(i in 0usize..200, bit in 0u8..8) {
            let s = sample();
            let mut bytes = s.encode();
            let i = i % bytes.len();
            bytes[i] ^= 1 << bit;
            let key = Identity::from_secret([9; 32]).public();
            if let Ok(d) = Signed::decode(&bytes) { prop_assert!(d == s || d.verify(&key).is_err()) }
        }
    }
}
