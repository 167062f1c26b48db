//! Properties of every proof: an honest proof passes; a swapped card, a
//! duplicated card, a wrong context, a wrong key and a flipped byte fail.
//! Decks stay small (2 to 12 cards) so that the suite is fast on CI's two
//! cores; `flow.rs` has the 120-card deck.

#![allow(missing_docs)]

use proptest::prelude::*;
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use roundtable_deal::{
    CardTable, Ciphertext, Context, DealError, Deck, DeckKey, DecryptionShare, KeyShare,
    KeyShareMessage, SecretShare, ShuffleMessage, card_point, open_card, own_share,
};

const CASES: u32 = 24;

fn context(game: u8, epoch: u32, seat: u8) -> Context {
    Context {
        game_id: [game; 32],
        epoch,
        seat,
    }
}

/// A context that differs from `c` in exactly one field, chosen by `which`.
fn other_context(c: &Context, which: u8) -> Context {
    let mut o = *c;
    match which % 3 {
        0 => o.game_id[usize::from(which) % 32] ^= 1,
        1 => o.epoch = o.epoch.wrapping_add(1),
        _ => o.seat = o.seat.wrapping_add(1),
    }
    o
}

struct Table {
    secrets: Vec<SecretShare>,
    shares: Vec<KeyShare>,
    key: DeckKey,
}

fn table(seats: usize, rng: &mut ChaCha20Rng) -> Table {
    let secrets: Vec<SecretShare> = (0..seats).map(|_| SecretShare::generate(rng)).collect();
    let shares: Vec<KeyShare> = secrets.iter().map(SecretShare::public).collect();
    let key = DeckKey::combine(&shares).expect("non-zero shares");
    Table {
        secrets,
        shares,
        key,
    }
}

/// An input deck of `n` cards that has been shuffled once already, so that
/// its ciphertexts are not the open ones.
fn masked_deck(ctx: &Context, key: &DeckKey, n: u32, rng: &mut ChaCha20Rng) -> Deck {
    let all: Vec<u32> = (0..n).collect();
    let open = Deck::open(&ctx.game_id, &all).expect("valid size");
    let first = Context {
        seat: ctx.seat.wrapping_add(1),
        ..*ctx
    };
    ShuffleMessage::shuffle(&first, key, &open, &SecretShare::generate(rng), rng)
        .output()
        .clone()
}

/// Decodes and verifies a shuffle from bytes; `Ok` only if both succeed.
fn shuffle_accepted(bytes: &[u8], ctx: &Context, key: &DeckKey, input: &Deck) -> bool {
    ShuffleMessage::from_bytes(bytes).is_ok_and(|m| m.verify(ctx, key, input).is_ok())
}

/// The byte range of output slot `slot` inside a shuffle message.
fn output_slot(slot: usize) -> std::ops::Range<usize> {
    2 + 64 * slot..2 + 64 * (slot + 1)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: CASES, ..ProptestConfig::default() })]

    #[test]
    fn key_share_proofs(seed in any::<u64>(), which in any::<u8>(), flip in any::<(usize, u8)>()) {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let ctx = context(1, 0, which % 5);
        let secret = SecretShare::generate(&mut rng);
        let message = KeyShareMessage::prove(&ctx, &secret, &mut rng);
        let bytes = message.to_bytes();
        // Honest: passes, and yields the seat's public share.
        let decoded = KeyShareMessage::from_bytes(&bytes).expect("decodes");
        prop_assert_eq!(decoded.verify(&ctx), Ok(secret.public()));
        // Wrong context.
        prop_assert_eq!(
            decoded.verify(&other_context(&ctx, which)),
            Err(DealError::ProofFailed { proof: "key share" })
        );
        // Wrong key: another seat's key share with this proof.
        let mut forged = bytes;
        forged[..32].copy_from_slice(&SecretShare::generate(&mut rng).public().to_bytes());
        prop_assert!(KeyShareMessage::from_bytes(&forged).expect("decodes").verify(&ctx).is_err());
        // A flipped bit anywhere.
        let mut flipped = bytes;
        flipped[flip.0 % flipped.len()] ^= 1 << (flip.1 % 8);
        prop_assert!(KeyShareMessage::from_bytes(&flipped).and_then(|m| m.verify(&ctx)).is_err());
    }

    #[test]
    fn shuffle_proofs(
        seed in any::<u64>(),
        n in 2u32..=12,
        which in any::<u8>(),
        pick in any::<(usize, usize)>(),
        flip in any::<(usize, u8)>(),
    ) {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let t = table(1 + usize::from(which % 4), &mut rng);
        let ctx = context(2, u32::from(which), which % 5);
        let input = masked_deck(&ctx, &t.key, n, &mut rng);
        let message = ShuffleMessage::shuffle(&ctx, &t.key, &input, &t.secrets[0], &mut rng);
        let bytes = message.to_bytes();
        prop_assert_eq!(bytes.len(), ShuffleMessage::encoded_len(n as usize));

        // Honest: passes, and the output holds the same cards.
        prop_assert!(shuffle_accepted(&bytes, &ctx, &t.key, &input));
        let cards = CardTable::new(&ctx.game_id, n).expect("valid size");
        let open = |d: &Deck| -> Vec<u32> {
            let mut v: Vec<u32> = d.ciphertexts().iter().map(|c| {
                let shares: Vec<_> = t.secrets.iter().map(|s| own_share(s, c)).collect();
                open_card(c, &shares, &cards).expect("a card of the deck")
            }).collect();
            v.sort();
            v
        };
        prop_assert_eq!(open(message.output()), open(&input));

        let i = pick.0 % n as usize;
        let j = (i + 1 + pick.1 % (n as usize - 1)) % n as usize;
        // Two output cards swapped: still a permutation, but not the one proved.
        let mut swapped = bytes.clone();
        let slot_i = swapped[output_slot(i)].to_vec();
        let slot_j = swapped[output_slot(j)].to_vec();
        swapped[output_slot(i)].copy_from_slice(&slot_j);
        swapped[output_slot(j)].copy_from_slice(&slot_i);
        prop_assert!(!shuffle_accepted(&swapped, &ctx, &t.key, &input));
        // A card swapped for one that was not in the deck.
        let mut substituted = bytes.clone();
        let foreign = Ciphertext::encrypt(&t.key, card_point(&ctx.game_id, n + 7), &rng_scalar(&mut rng));
        substituted[output_slot(i)].copy_from_slice(&foreign.to_bytes());
        prop_assert!(!shuffle_accepted(&substituted, &ctx, &t.key, &input));
        // A duplicated card (slot j's ciphertext also in slot i).
        let mut duplicated = bytes.clone();
        duplicated[output_slot(i)].copy_from_slice(&slot_j);
        prop_assert!(!shuffle_accepted(&duplicated, &ctx, &t.key, &input));
        // A re-encrypted duplicate, which looks fresh.
        let mut duplicated_fresh = bytes.clone();
        let copy = message.output().get(j as u32).expect("slot").reencrypt(&t.key, &rng_scalar(&mut rng));
        duplicated_fresh[output_slot(i)].copy_from_slice(&copy.to_bytes());
        prop_assert!(!shuffle_accepted(&duplicated_fresh, &ctx, &t.key, &input));
        // The proof checked against a different input deck.
        let other_input = masked_deck(&ctx, &t.key, n, &mut rng);
        prop_assert!(!shuffle_accepted(&bytes, &ctx, &t.key, &other_input));
        // Wrong context.
        prop_assert!(!shuffle_accepted(&bytes, &other_context(&ctx, which), &t.key, &input));
        // Wrong key.
        let other_key = table(1, &mut rng).key;
        prop_assert!(!shuffle_accepted(&bytes, &ctx, &other_key, &input));
        // A flipped bit anywhere.
        let mut flipped = bytes.clone();
        flipped[flip.0 % bytes.len()] ^= 1 << (flip.1 % 8);
        prop_assert!(!shuffle_accepted(&flipped, &ctx, &t.key, &input));
    }

    #[test]
    fn decryption_share_proofs(
        seed in any::<u64>(),
        n in 2u32..=12,
        which in any::<u8>(),
        slot in any::<u32>(),
        flip in any::<(usize, u8)>(),
    ) {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let t = table(2 + usize::from(which % 3), &mut rng);
        let seat = usize::from(which) % t.secrets.len();
        let ctx = context(3, 0, seat as u8);
        let deck = masked_deck(&ctx, &t.key, n, &mut rng);
        let slot = slot % n;
        let other_slot = (slot + 1) % n;
        let card = deck.get(slot).expect("slot");
        let share = DecryptionShare::prove(&ctx, slot, &t.secrets[seat], card, &mut rng);
        let bytes = share.to_bytes();
        let accepted = |bytes: &[u8], ctx: &Context, slot: u32, key: &KeyShare, card: &Ciphertext| {
            DecryptionShare::from_bytes(bytes).is_ok_and(|s| s.verify(ctx, slot, key, card).is_ok())
        };

        // Honest: passes, and with every other seat's share opens the card.
        let point = DecryptionShare::from_bytes(&bytes)
            .expect("decodes")
            .verify(&ctx, slot, &t.shares[seat], card)
            .expect("honest share verifies");
        prop_assert_eq!(point, own_share(&t.secrets[seat], card));
        let shares: Vec<_> = t.secrets.iter().map(|s| own_share(s, card)).collect();
        let cards = CardTable::new(&ctx.game_id, n).expect("valid size");
        prop_assert!(open_card(card, &shares, &cards).is_ok());
        // A swapped card: the share presented for another slot's ciphertext.
        let other_card = deck.get(other_slot).expect("slot");
        prop_assert!(!accepted(&bytes, &ctx, slot, &t.shares[seat], other_card));
        prop_assert!(!accepted(&bytes, &ctx, other_slot, &t.shares[seat], card));
        // A duplicated share: this share's point reused with a proof made for
        // another slot.
        let other = DecryptionShare::prove(&ctx, other_slot, &t.secrets[seat], other_card, &mut rng).to_bytes();
        let mut spliced = other;
        spliced[..32].copy_from_slice(&bytes[..32]);
        prop_assert!(!accepted(&spliced, &ctx, slot, &t.shares[seat], card));
        // Wrong context.
        prop_assert!(!accepted(&bytes, &other_context(&ctx, which), slot, &t.shares[seat], card));
        // Wrong key: checked against another seat's key share, and a share
        // made with a secret that is not the seat's.
        let other_seat = (seat + 1) % t.secrets.len();
        prop_assert!(!accepted(&bytes, &ctx, slot, &t.shares[other_seat], card));
        let impostor = SecretShare::generate(&mut rng);
        let forged = DecryptionShare::prove(&ctx, slot, &impostor, card, &mut rng).to_bytes();
        prop_assert!(!accepted(&forged, &ctx, slot, &t.shares[seat], card));
        // A flipped bit anywhere.
        let mut flipped = bytes;
        flipped[flip.0 % flipped.len()] ^= 1 << (flip.1 % 8);
        prop_assert!(!accepted(&flipped, &ctx, slot, &t.shares[seat], card));
    }

    #[test]
    fn key_release(seed in any::<u64>(), flip in any::<(usize, u8)>()) {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let secret = SecretShare::generate(&mut rng);
        let released = secret.to_bytes();
        prop_assert!(secret.public().verify_release(&released).is_ok());
        let other = SecretShare::generate(&mut rng);
        prop_assert_eq!(
            other.public().verify_release(&released).err(),
            Some(DealError::ReleaseMismatch)
        );
        let mut flipped = released;
        flipped[flip.0 % 32] ^= 1 << (flip.1 % 8);
        prop_assert!(secret.public().verify_release(&flipped).is_err());
        prop_assert!(secret.public().verify_release(&released[..31]).is_err());
    }

    /// No byte string makes a decoder panic, and whatever decodes encodes
    /// back to the same bytes (one encoding per value).
    #[test]
    fn decoders_are_total_and_canonical(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        if let Ok(m) = KeyShareMessage::from_bytes(&bytes) {
            prop_assert_eq!(m.to_bytes().to_vec(), bytes.clone());
        }
        if let Ok(s) = DecryptionShare::from_bytes(&bytes) {
            prop_assert_eq!(s.to_bytes().to_vec(), bytes.clone());
        }
        if let Ok(c) = Ciphertext::from_bytes(&bytes) {
            prop_assert_eq!(c.to_bytes().to_vec(), bytes.clone());
        }
        if let Ok(d) = Deck::from_bytes(&bytes) {
            prop_assert_eq!(d.to_bytes(), bytes.clone());
        }
        if let Ok(m) = ShuffleMessage::from_bytes(&bytes) {
            prop_assert_eq!(m.to_bytes(), bytes.clone());
        }
    }
}

fn rng_scalar(rng: &mut ChaCha20Rng) -> curve25519_dalek::scalar::Scalar {
    let mut wide = [0u8; 64];
    rand_core::RngCore::fill_bytes(rng, &mut wide);
    curve25519_dalek::scalar::Scalar::from_bytes_mod_order_wide(&wide)
}

#[test]
fn decoders_name_the_broken_rule() {
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    let secret = SecretShare::generate(&mut rng);
    let ctx = context(4, 0, 0);
    let good = KeyShareMessage::prove(&ctx, &secret, &mut rng).to_bytes();

    assert_eq!(
        KeyShareMessage::from_bytes(&good[..95]),
        Err(DealError::WrongLength {
            what: "key share message",
            expected: 96,
            got: 95
        })
    );
    // 2^255 − 1 is no canonical point: its top bit is set.
    let mut bad_point = good;
    bad_point[..32].copy_from_slice(&[0xff; 32]);
    assert_eq!(
        KeyShareMessage::from_bytes(&bad_point),
        Err(DealError::NonCanonicalPoint { what: "key share" })
    );
    // The group order ℓ itself is the smallest non-canonical scalar.
    let order: [u8; 32] = [
        0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde,
        0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
    ];
    let mut bad_scalar = good;
    bad_scalar[64..].copy_from_slice(&order);
    assert_eq!(
        KeyShareMessage::from_bytes(&bad_scalar),
        Err(DealError::NonCanonicalScalar {
            what: "key share proof response"
        })
    );
    // The identity is a canonical point but no key share.
    let mut identity = good;
    identity[..32].copy_from_slice(&[0; 32]);
    assert_eq!(
        KeyShareMessage::from_bytes(&identity).map(|m| m.verify(&ctx)),
        Ok(Err(DealError::IdentityPoint {
            what: "a key share"
        }))
    );
    // Decks: count 0, count above the limit, a count that disagrees with the length.
    assert_eq!(
        Deck::from_bytes(&[0, 0]),
        Err(DealError::DeckSize { max: 512, got: 0 })
    );
    assert_eq!(
        Deck::from_bytes(&[0x01, 0x02]),
        Err(DealError::DeckSize { max: 512, got: 513 })
    );
    let deck = Deck::open(&ctx.game_id, &[0, 1]).expect("valid");
    let mut long = deck.to_bytes();
    long.push(0);
    assert_eq!(
        Deck::from_bytes(&long),
        Err(DealError::WrongLength {
            what: "deck",
            expected: 130,
            got: 131
        })
    );
    // A shuffle of a different size than its input.
    let key = DeckKey::combine(&[secret.public()]).expect("one share");
    let three = Deck::open(&ctx.game_id, &[0, 1, 2]).expect("valid");
    let shuffled = ShuffleMessage::shuffle(&ctx, &key, &three, &secret, &mut rng);
    assert_eq!(
        shuffled.verify(&ctx, &key, &deck).err(),
        Some(DealError::ShuffleSize {
            input: 2,
            output: 3
        })
    );
    assert_eq!(
        ShuffleMessage::from_bytes(&shuffled.to_bytes()[..100]).err(),
        Some(DealError::WrongLength {
            what: "shuffle message",
            expected: 192 * 3 + 162,
            got: 100
        })
    );
    assert_eq!(DeckKey::combine(&[]), Err(DealError::NoKeyShares));
    assert_eq!(
        CardTable::new(&ctx.game_id, 0).err(),
        Some(DealError::DeckSize { max: 512, got: 0 })
    );
}

/// A random source that has failed: every byte zero.
struct BrokenRng;

impl rand_core::RngCore for BrokenRng {
    fn next_u32(&mut self) -> u32 {
        0
    }
    fn next_u64(&mut self) -> u64 {
        0
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        dest.fill(0);
    }
}

impl rand_core::CryptoRng for BrokenRng {}

/// With a broken random source, a shuffle still depends on the seat's
/// secret: someone who knows everything public but the secret does not get
/// the same permutation by running the shuffle himself.
#[test]
fn a_broken_random_source_does_not_make_the_shuffle_predictable() {
    let mut rng = ChaCha20Rng::seed_from_u64(11);
    let ctx = context(6, 0, 2);
    let seat_secret = SecretShare::generate(&mut rng);
    let key = DeckKey::combine(&[seat_secret.public()]).expect("one share");
    let deck = Deck::open(&ctx.game_id, &(0..12).collect::<Vec<_>>()).expect("valid");
    let guess_secret = SecretShare::generate(&mut rng);

    let seat = ShuffleMessage::shuffle(&ctx, &key, &deck, &seat_secret, &mut BrokenRng);
    let guess = ShuffleMessage::shuffle(&ctx, &key, &deck, &guess_secret, &mut BrokenRng);
    assert!(seat.verify(&ctx, &key, &deck).is_ok());
    assert_ne!(seat.output(), guess.output());
    // The same secret and the same broken source repeat themselves: the
    // secret is what hides the permutation.
    let again = ShuffleMessage::shuffle(&ctx, &key, &deck, &seat_secret, &mut BrokenRng);
    assert_eq!(seat.output(), again.output());
}
