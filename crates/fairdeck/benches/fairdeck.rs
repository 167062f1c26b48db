//! Criterion benchmarks: chain generation (links/s), reveals and their
//! verification (ns), beacons, and the sampler (samples/s).
//!
//! `cargo bench -p roundtable-fairdeck -- --warm-up-time 1 --measurement-time 3`

#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use roundtable_fairdeck::{
    ChainSecret, ChainTracker, Chance, DEFAULT_CHAIN_LENGTH, Sampler, answer, beacon,
    chain_commitment, commit_secret, verify_opened_chain, verify_reveal,
};

fn chains(c: &mut Criterion) {
    let mut g = c.benchmark_group("chain");
    g.throughput(Throughput::Elements(DEFAULT_CHAIN_LENGTH));
    g.bench_function("generate 4096 links (ChainSecret::new)", |b| {
        b.iter(|| ChainSecret::new(black_box([7; 32]), DEFAULT_CHAIN_LENGTH))
    });
    g.bench_function("commitment of 4096 links (no checkpoints)", |b| {
        b.iter(|| chain_commitment(black_box(&[7; 32]), DEFAULT_CHAIN_LENGTH))
    });
    g.finish();

    let mut g = c.benchmark_group("reveal");
    let chain = ChainSecret::new([7; 32], DEFAULT_CHAIN_LENGTH).ok();
    if let Some(chain) = &chain {
        let mut k = 0u64;
        g.bench_function(
            "ChainSecret::reveal, 4096 links, C = 64 (all k in turn)",
            |b| {
                b.iter(|| {
                    k = k % DEFAULT_CHAIN_LENGTH + 1;
                    chain.reveal(black_box(k))
                })
            },
        );
        let c0 = chain.commitment();
        let r1 = chain.reveal(1).unwrap_or_default();
        g.bench_function("verify_reveal (one hash)", |b| {
            b.iter(|| verify_reveal(black_box(&c0), black_box(&r1)))
        });
        g.bench_function("ChainTracker::accept", |b| {
            b.iter_batched(
                || ChainTracker::new(c0, DEFAULT_CHAIN_LENGTH),
                |t| t.map(|mut t| t.accept(1, black_box(&r1))),
                criterion::BatchSize::SmallInput,
            )
        });
        let reveals: Vec<[u8; 32]> = (1..=400).filter_map(|k| chain.reveal(k).ok()).collect();
        g.bench_function("verify_opened_chain, 4096 links, 400 reveals", |b| {
            b.iter(|| verify_opened_chain(black_box(&[7; 32]), DEFAULT_CHAIN_LENGTH, &c0, &reveals))
        });
    }
    g.finish();
}

fn beacons(c: &mut Criterion) {
    let reveals = [
        Some([1; 32]),
        Some([2; 32]),
        None,
        Some([4; 32]),
        Some([5; 32]),
    ];
    c.bench_function("beacon, 5 seats, one forfeited", |b| {
        b.iter(|| beacon(black_box(&[9; 32]), black_box(17), black_box(&reveals)))
    });
    c.bench_function("commit_secret, 16-byte choice", |b| {
        b.iter(|| {
            commit_secret(
                black_box(&[9; 32]),
                2,
                5,
                black_box(&[3; 16]),
                black_box(&[4; 32]),
            )
        })
    });
}

fn sampling(c: &mut Criterion) {
    let mut g = c.benchmark_group("sampler");
    g.throughput(Throughput::Elements(1000));
    g.bench_function("1000 x uniform(120), one stream", |b| {
        b.iter(|| {
            let mut s = Sampler::new(black_box(&[1; 32]));
            let mut acc = 0u64;
            for _ in 0..1000 {
                acc ^= s.uniform(120).unwrap_or(0);
            }
            acc
        })
    });
    g.bench_function("1000 x uniform(2^63+1), one stream", |b| {
        b.iter(|| {
            let mut s = Sampler::new(black_box(&[1; 32]));
            let mut acc = 0u64;
            for _ in 0..1000 {
                acc ^= s.uniform((1 << 63) + 1).unwrap_or(0);
            }
            acc
        })
    });
    g.finish();

    let mut g = c.benchmark_group("chance event");
    g.throughput(Throughput::Elements(1));
    g.bench_function("answer: new sampler + uniform(6)", |b| {
        b.iter(|| answer(black_box(&[2; 32]), Chance::Uniform { n: 6 }))
    });
    let deck: Vec<u32> = (0..30).map(|i| [2, 3, 4, 5, 6][i % 5]).collect();
    g.bench_function("answer: new sampler + draw 5 of a 120-card deck", |b| {
        b.iter(|| {
            answer(
                black_box(&[2; 32]),
                Chance::Multiset {
                    counts: &deck,
                    take: 5,
                },
            )
        })
    });
    g.finish();
}

criterion_group!(benches, chains, beacons, sampling);
criterion_main!(benches);
