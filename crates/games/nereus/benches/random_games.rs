//! Whole random 4-seat games with the oracle dealer: how long a playout of
//! Waters of Nereus takes (the rules, the deal's bookkeeping and the legal lists).

// criterion's macros generate undocumented items.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_engine::{Game, sim};
use roundtable_nereus::{Nereus, Options};

fn random_game(seed: u64) -> usize {
    let mut game = Nereus::new_game(4, &Options::default()).expect("4 seats");
    let mut dealer = sim::OracleDealer::new(4);
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut picks = ChaCha20Rng::seed_from_u64(!seed);
    let playout = sim::play_private(
        &mut game,
        &mut dealer,
        1_000_000,
        &mut |n| sim::uniform_below(n, &mut || rng.next_u64()),
        &mut |_, _, _, legal| (picks.next_u64() % legal.len() as u64) as usize,
        &mut |_, _| {},
    )
    .expect("a random game ends");
    playout.decisions
}

fn bench(c: &mut Criterion) {
    let mut seed = 0;
    c.bench_function("nereus random 4-seat game", |b| {
        b.iter(|| {
            seed += 1;
            random_game(seed)
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
