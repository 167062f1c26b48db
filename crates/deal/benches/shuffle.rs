//! The costs the design depends on (DESIGN.md "Private cards", issue 14):
//! a shuffle with its proof and its check for 52 and 120 cards, the size of
//! a shuffle message, and a decryption share's creation and check.
//!
//! Targets: 120 cards prove ≤ 40 ms, verify ≤ 20 ms, one message ≤ 24 KB;
//! a share ≤ 0.15 ms to create or to verify. Criterion runs on one thread,
//! so the figures are one core's.
//!
//! ```text
//! cargo bench -p roundtable-deal --bench shuffle
//! ```

#![allow(missing_docs)]

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use roundtable_deal::{
    CardTable, Context, Deck, DeckKey, DecryptionShare, KeyShareMessage, SecretShare,
    ShuffleMessage, open_card, own_share,
};

const GAME: [u8; 32] = [3u8; 32];

fn context(seat: u8) -> Context {
    Context {
        game_id: GAME,
        epoch: 0,
        seat,
    }
}

struct Setup {
    secrets: Vec<SecretShare>,
    key: DeckKey,
    /// A deck already shuffled once, so its ciphertexts are not open cards.
    deck: Deck,
}

fn setup(cards: u32, rng: &mut ChaCha20Rng) -> Setup {
    let secrets: Vec<SecretShare> = (0..4).map(|_| SecretShare::generate(rng)).collect();
    let shares: Vec<_> = secrets.iter().map(SecretShare::public).collect();
    let key = DeckKey::combine(&shares).expect("four non-zero shares");
    let all: Vec<u32> = (0..cards).collect();
    let open = Deck::open(&GAME, &all).expect("a valid deck size");
    let deck = ShuffleMessage::shuffle(&context(0), &key, &open, &secrets[0], rng)
        .output()
        .clone();
    Setup { secrets, key, deck }
}

fn shuffles(c: &mut Criterion) {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let mut group = c.benchmark_group("shuffle");
    group.sample_size(20);
    for cards in [52u32, 120] {
        let s = setup(cards, &mut rng);
        let message =
            ShuffleMessage::shuffle(&context(1), &s.key, &s.deck, &s.secrets[1], &mut rng);
        let bytes = message.to_bytes();
        println!(
            "shuffle message for {cards} cards: {} bytes ({:.1} KiB)",
            bytes.len(),
            bytes.len() as f64 / 1024.0
        );
        group.bench_with_input(BenchmarkId::new("shuffle+prove", cards), &s, |b, s| {
            b.iter(|| {
                ShuffleMessage::shuffle(&context(1), &s.key, &s.deck, &s.secrets[1], &mut rng)
            })
        });
        group.bench_with_input(
            BenchmarkId::new("decode+verify", cards),
            &(&s, &bytes),
            |b, (s, bytes)| {
                b.iter(|| {
                    let m = ShuffleMessage::from_bytes(bytes).expect("own encoding decodes");
                    m.verify(&context(1), &s.key, &s.deck)
                        .expect("honest proof verifies")
                        .len()
                })
            },
        );
    }
    group.finish();
}

fn shares(c: &mut Criterion) {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let s = setup(52, &mut rng);
    let card = *s.deck.get(0).expect("slot 0 exists");
    let key_share = s.secrets[2].public();
    let share = DecryptionShare::prove(&context(2), 0, &s.secrets[2], &card, &mut rng);
    let bytes = share.to_bytes();
    let mut group = c.benchmark_group("decryption share");
    group.bench_function("create", |b| {
        b.iter(|| DecryptionShare::prove(&context(2), 0, &s.secrets[2], &card, &mut rng))
    });
    group.bench_function("decode+verify", |b| {
        b.iter(|| {
            DecryptionShare::from_bytes(&bytes)
                .expect("own encoding decodes")
                .verify(&context(2), 0, &key_share, &card)
                .expect("honest share verifies")
        })
    });
    group.finish();

    let key_message = KeyShareMessage::prove(&context(2), &s.secrets[2], &mut rng).to_bytes();
    let mut group = c.benchmark_group("key share");
    group.bench_function("create", |b| {
        b.iter(|| KeyShareMessage::prove(&context(2), &s.secrets[2], &mut rng))
    });
    group.bench_function("decode+verify", |b| {
        b.iter(|| {
            KeyShareMessage::from_bytes(&key_message)
                .expect("own encoding decodes")
                .verify(&context(2))
                .expect("honest proof verifies")
        })
    });
    group.finish();
}

/// A private draw at 4 seats, as the drawer (seat 0) sees it: the other
/// three seats' shares decoded and checked, its own share added, the card
/// looked up. (Each other seat spends one share creation on it.)
fn private_draw(c: &mut Criterion) {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let s = setup(52, &mut rng);
    let cards = CardTable::new(&GAME, 52).expect("a valid deck size");
    let slot = 7;
    let card = *s.deck.get(slot).expect("slot 7 exists");
    let published: Vec<(u8, [u8; 96])> = (1..4u8)
        .map(|seat| {
            let share = DecryptionShare::prove(
                &context(seat),
                slot,
                &s.secrets[usize::from(seat)],
                &card,
                &mut rng,
            );
            (seat, share.to_bytes())
        })
        .collect();
    let key_shares: Vec<_> = s.secrets.iter().map(SecretShare::public).collect();
    c.bench_function("private draw at 4 seats (drawer's side)", |b| {
        b.iter(|| {
            let mut points: Vec<_> = published
                .iter()
                .map(|(seat, bytes)| {
                    DecryptionShare::from_bytes(bytes)
                        .expect("own encoding decodes")
                        .verify(
                            &context(*seat),
                            slot,
                            &key_shares[usize::from(*seat)],
                            &card,
                        )
                        .expect("honest share verifies")
                })
                .collect();
            points.push(own_share(&s.secrets[0], &card));
            open_card(&card, &points, &cards).expect("a card of the deck")
        })
    });
}

/// The same draw's whole cost at the table: the three other seats each
/// create their share, the drawer checks the three and opens the card. (At
/// a real table the creations run on three machines at once.)
fn private_draw_whole(c: &mut Criterion) {
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let s = setup(52, &mut rng);
    let cards = CardTable::new(&GAME, 52).expect("a valid deck size");
    let slot = 11;
    let card = *s.deck.get(slot).expect("slot 11 exists");
    let key_shares: Vec<_> = s.secrets.iter().map(SecretShare::public).collect();
    c.bench_function(
        "private draw at 4 seats (3 shares created and verified, open)",
        |b| {
            b.iter(|| {
                let mut points = vec![own_share(&s.secrets[0], &card)];
                for seat in 1..4u8 {
                    let bytes = DecryptionShare::prove(
                        &context(seat),
                        slot,
                        &s.secrets[usize::from(seat)],
                        &card,
                        &mut rng,
                    )
                    .to_bytes();
                    points.push(
                        DecryptionShare::from_bytes(&bytes)
                            .expect("own encoding decodes")
                            .verify(&context(seat), slot, &key_shares[usize::from(seat)], &card)
                            .expect("honest share verifies"),
                    );
                }
                open_card(&card, &points, &cards).expect("a card of the deck")
            })
        },
    );
}

criterion_group!(benches, shuffles, shares, private_draw, private_draw_whole);
criterion_main!(benches);
