//! Every decoder of the private-card messages (SPEC part 5): decoding never
//! panics, whatever decodes encodes back to the same bytes, and checking a
//! decoded proof against a real key and deck never panics (and never accepts:
//! the fuzzer cannot make a proof).
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use roundtable_deal::{
    Ciphertext, Context, Deck, DeckKey, DecryptionShare, KeyShare, KeyShareMessage, SecretShare,
    ShuffleMessage,
};

const CONTEXT: Context = Context {
    game_id: [9; 32],
    epoch: 0,
    seat: 0,
};

/// A fixed key share (secret 1·G) and the deck key it makes.
fn key() -> &'static (KeyShare, DeckKey) {
    static KEY: OnceLock<(KeyShare, DeckKey)> = OnceLock::new();
    KEY.get_or_init(|| {
        let mut one = [0u8; 32];
        one[0] = 1;
        let share = SecretShare::from_bytes(&one)
            .expect("1 is a canonical non-zero scalar")
            .public();
        let key = DeckKey::combine(&[share]).expect("one non-identity share");
        (share, key)
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&kind, bytes)) = data.split_first() else {
        return;
    };
    let (share, key) = key();
    match kind % 5 {
        0 => {
            if let Ok(m) = KeyShareMessage::from_bytes(bytes) {
                assert_eq!(m.to_bytes().as_slice(), bytes);
                let _ = m.verify(&CONTEXT);
            }
        }
        1 => {
            if let Ok(c) = Ciphertext::from_bytes(bytes) {
                assert_eq!(c.to_bytes().as_slice(), bytes);
            }
        }
        2 => {
            if let Ok(d) = Deck::from_bytes(bytes) {
                assert_eq!(d.to_bytes(), bytes);
            }
        }
        3 => {
            if let Ok(m) = ShuffleMessage::from_bytes(bytes) {
                assert_eq!(m.to_bytes(), bytes);
                let cards: Vec<u32> = (0..m.output().len() as u32).collect();
                let input = Deck::open(&CONTEXT.game_id, &cards).expect("a decoded size is valid");
                assert!(
                    m.verify(&CONTEXT, key, &input).is_err(),
                    "a fuzzed shuffle proof verified"
                );
            }
        }
        _ => {
            if let Some((card, share_bytes)) = bytes.split_at_checked(64)
                && let (Ok(card), Ok(s)) = (
                    Ciphertext::from_bytes(card),
                    DecryptionShare::from_bytes(share_bytes),
                )
            {
                assert_eq!(s.to_bytes().as_slice(), share_bytes);
                let _ = s.verify(&CONTEXT, 0, share, &card);
            }
        }
    }
});
