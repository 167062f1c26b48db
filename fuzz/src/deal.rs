//! The `deal` target's oracle (every decoder of the private-card messages,
//! SPEC part 5): decoding never panics, whatever decodes encodes back to the
//! same bytes, and checking a decoded proof against a real key and deck never
//! panics (and never accepts: the fuzzer cannot make a proof). Here, not in
//! the target, so that a test replays the committed seeds through it.

use std::sync::OnceLock;

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

/// The `deal` target's oracle: `data` is a kind byte (its remainder mod 5
/// picks the decoder) and the bytes to decode. Panics when a decoder breaks
/// its promise: a value that does not encode back to its bytes, or a fuzzed
/// shuffle proof that verifies. Returns the kind tried and whether the bytes
/// decoded, so that a replay can tell a seed that reaches a check from one
/// that the decoder refuses at once.
pub fn check(data: &[u8]) -> Option<(u8, bool)> {
    let (&kind, bytes) = data.split_first()?;
    let (share, key) = key();
    let kind = kind % 5;
    let decoded = match kind {
        0 => KeyShareMessage::from_bytes(bytes)
            .map(|m| {
                assert_eq!(m.to_bytes().as_slice(), bytes);
                let _ = m.verify(&CONTEXT);
            })
            .is_ok(),
        1 => Ciphertext::from_bytes(bytes)
            .map(|c| assert_eq!(c.to_bytes().as_slice(), bytes))
            .is_ok(),
        2 => Deck::from_bytes(bytes)
            .map(|d| assert_eq!(d.to_bytes(), bytes))
            .is_ok(),
        3 => ShuffleMessage::from_bytes(bytes)
            .map(|m| {
                assert_eq!(m.to_bytes(), bytes);
                let cards: Vec<u32> = (0..m.output().len() as u32).collect();
                let input = Deck::open(&CONTEXT.game_id, &cards).expect("a decoded size is valid");
                assert!(
                    m.verify(&CONTEXT, key, &input).is_err(),
                    "a fuzzed shuffle proof verified"
                );
            })
            .is_ok(),
        _ => match bytes.split_at_checked(64).map(|(card, share_bytes)| {
            (
                Ciphertext::from_bytes(card),
                DecryptionShare::from_bytes(share_bytes),
                share_bytes,
            )
        }) {
            Some((Ok(card), Ok(s), share_bytes)) => {
                assert_eq!(s.to_bytes().as_slice(), share_bytes);
                let _ = s.verify(&CONTEXT, 0, share, &card);
                true
            }
            _ => false,
        },
    };
    Some((kind, decoded))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every committed seed of the `deal` target passes the oracle, and
    /// decodes: a seed the decoder refused at once would test nothing
    /// beyond its first check. Together they reach all five decoders.
    #[test]
    fn committed_deal_seeds_decode_and_pass_the_oracle() {
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("seeds/deal");
        let mut kinds = std::collections::BTreeSet::new();
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
            let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let (kind, decoded) =
                check(&data).unwrap_or_else(|| panic!("{} is empty", path.display()));
            assert!(decoded, "{} does not decode (kind {kind})", path.display());
            kinds.insert(kind);
        }
        assert_eq!(kinds.len(), 5, "the seeds reach kinds {kinds:?} of 0..5");
    }
}
