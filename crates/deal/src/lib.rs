//! Private cards for roundtable: a deck dealt by all players, with no dealer
//! and no trusted peer (mental poker), on Ristretto255.
//!
//! The protocol, in the order a game uses it (SPEC part 5):
//!
//! 1. Every seat draws a [`SecretShare`] and publishes a [`KeyShareMessage`]
//!    (its key share with a Schnorr proof of knowledge). The [`DeckKey`] is
//!    the sum of the checked key shares.
//! 2. The deck starts open ([`Deck::open`]: every card publicly encrypted
//!    with randomness 0). Every seat in turn publishes a [`ShuffleMessage`]:
//!    the deck re-encrypted and permuted, with a Terelius–Wikström proof
//!    that it is a permutation of re-encryptions of its input. A seat's
//!    cards stay hidden as long as its own shuffle was honest.
//! 3. To open a slot, seats publish [`DecryptionShare`]s (Chaum–Pedersen
//!    proofs); the card is `B − Σ shares` ([`open_card`]). For a private
//!    draw the drawer keeps its own share ([`own_share`]) to itself.
//! 4. A public pile is reshuffled by opening it again as a new deck of its
//!    known cards ([`Deck::open`]) and shuffling that in a new epoch.
//! 5. After the game every seat releases its secret share, and anyone checks
//!    it against the key share ([`KeyShare::verify_release`]).
//!
//! The crate is sans-IO: no clock, no I/O, no random source of its own.
//! Randomness comes in as an argument, and every secret scalar is derived
//! from a hash of the prover's secret, the statement and that randomness
//! (hedged nonces). The crate never asks where that randomness came from;
//! the table passes streams derived from the seat's chain seed, so that a
//! restarted peer signs the very same messages again (SPEC 5.16 says so,
//! and what a leaked seed exposes). Secret scalars and the bytes that seed
//! them are wiped when dropped. Every message has one fixed-width canonical encoding;
//! decoders refuse every other byte string with a [`DealError`] that names
//! the broken rule.
//!
//! A deal between two seats, every message through its bytes:
//!
//! ```
//! use rand_chacha::ChaCha20Rng;
//! use rand_core::SeedableRng;
//! use roundtable_deal::*;
//!
//! # fn main() -> Result<(), DealError> {
//! // Any secret random source will do: a peer of the table passes a stream
//! // derived from its chain seed (SPEC 5.16), which it drew from the OS.
//! let mut rng = ChaCha20Rng::from_seed([1; 32]);
//! let ctx = |seat| Context { game_id: [7; 32], epoch: 0, seat };
//!
//! let secrets = [SecretShare::generate(&mut rng), SecretShare::generate(&mut rng)];
//! let mut shares = Vec::new();
//! for seat in 0..2u8 {
//!     let bytes = KeyShareMessage::prove(&ctx(seat), &secrets[usize::from(seat)], &mut rng).to_bytes();
//!     shares.push(KeyShareMessage::from_bytes(&bytes)?.verify(&ctx(seat))?);
//! }
//! let key = DeckKey::combine(&shares)?;
//!
//! let mut deck = Deck::open(&[7; 32], &[0, 1, 2, 3, 4, 5])?;
//! for seat in 0..2u8 {
//!     let bytes = ShuffleMessage::shuffle(&ctx(seat), &key, &deck, &secrets[usize::from(seat)], &mut rng)
//!         .to_bytes();
//!     deck = ShuffleMessage::from_bytes(&bytes)?.verify(&ctx(seat), &key, &deck)?.clone();
//! }
//!
//! // Seat 1 draws slot 0: seat 0 publishes its share, seat 1 adds its own.
//! let slot = deck.get(0)?;
//! let bytes = DecryptionShare::prove(&ctx(0), 0, &secrets[0], slot, &mut rng).to_bytes();
//! let from_seat_0 = DecryptionShare::from_bytes(&bytes)?.verify(&ctx(0), 0, &shares[0], slot)?;
//! let cards = CardTable::new(&[7; 32], 6)?;
//! let card = open_card(slot, &[from_seat_0, own_share(&secrets[1], slot)], &cards)?;
//! assert!(card < 6);
//! # Ok(())
//! # }
//! ```

mod elgamal;
mod error;
mod group;
mod keys;
mod share;
mod shuffle;

pub use elgamal::{CIPHERTEXT_LEN, Ciphertext, Deck};
pub use error::DealError;
pub use group::{
    CARD_DOMAIN, CardTable, Context, Element, GENERATOR_DOMAIN, MAX_DECK_SIZE, base_point,
    card_point, generator,
};
pub use keys::{
    DeckKey, KEY_SHARE_DOMAIN, KEY_SHARE_MESSAGE_LEN, KeyShare, KeyShareMessage, SecretShare,
};
pub use share::{DECRYPTION_SHARE_LEN, DecryptionShare, SHARE_DOMAIN, open_card, own_share};
pub use shuffle::{
    SHUFFLE_CHALLENGE_DOMAIN, SHUFFLE_STATEMENT_DOMAIN, SHUFFLE_U_DOMAIN, SHUFFLE_U_SEED_DOMAIN,
    ShuffleMessage,
};

/// The nonce domain, exported for the spec's table of domain strings.
pub use group::NONCE_DOMAIN;
