//! Chi-square goodness-of-fit tests of the sampler over many beacons.
//!
//! Every sample comes from its own beacon `SHA256("roundtable/stat/v1" ||
//! test name || i as u64 LE)`, as in a game where each chance event has a
//! fresh beacon, so the tests are deterministic (same seeds, same verdict on
//! every run).
//!
//! **False-alarm rate.** Each check fails when its p-value is below
//! `ALPHA = 1e-4`. For a perfectly uniform sampler and beacons that behave
//! like random ones, each check therefore fails with probability 1e-4 over
//! the choice of seeds, and the whole file (20 checks) with
//! probability at most 0.2 %. Because the seeds are fixed, a pass stays a pass
//! until the sample count or the sampler changes. `biased_sampler_is_caught`
//! shows the tests have the power to see a real bias.
//!
//! The sample count per check is `FAIRDECK_STAT_SAMPLES` (default 10 000,
//! about five seconds in a debug build on two cores); raise it to look for smaller biases, e.g.
//! `FAIRDECK_STAT_SAMPLES=1000000 cargo test --release -p roundtable-fairdeck --test fairdeck statistics::`.

#![allow(missing_docs)]

use roundtable_fairdeck::{Sampler, beacon};
use sha2::{Digest, Sha256};
use statrs::distribution::{ChiSquared, ContinuousCDF};

const ALPHA: f64 = 1e-4;

fn samples() -> u64 {
    std::env::var("FAIRDECK_STAT_SAMPLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000)
}

fn stat_beacon(test: &str, i: u64) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"roundtable/stat/v1");
    h.update(test.as_bytes());
    h.update(i.to_le_bytes());
    h.finalize().into()
}

/// The p-value of Pearson's chi-square statistic for `observed` counts
/// against `expected` probabilities (which sum to 1).
fn chi_square_p(observed: &[u64], probabilities: &[f64]) -> (f64, f64) {
    let n: u64 = observed.iter().sum();
    let mut stat = 0.0;
    for (&o, &p) in observed.iter().zip(probabilities) {
        let e = p * n as f64;
        assert!(
            e >= 5.0,
            "expected count {e} too small for the chi-square approximation"
        );
        stat += (o as f64 - e).powi(2) / e;
    }
    (stat, chi_square_p_value((observed.len() - 1) as f64, stat))
}

/// The chance that a chi-square variable with `df` degrees of freedom is at
/// least `stat`.
fn chi_square_p_value(df: f64, stat: f64) -> f64 {
    ChiSquared::new(df)
        .unwrap_or_else(|e| panic!("{df} degrees of freedom: {e}"))
        .sf(stat)
}

fn check(name: &str, observed: &[u64], probabilities: &[f64]) {
    let (stat, p) = chi_square_p(observed, probabilities);
    eprintln!(
        "{name}: chi2 = {stat:.1}, df = {}, p = {p:.4}",
        observed.len() - 1
    );
    assert!(p >= ALPHA, "{name}: chi2 = {stat}, p = {p} < {ALPHA}");
}

#[test]
fn the_p_value_function_is_right() {
    // Known quantiles: chi2(1) at 3.841 -> 0.05; chi2(10) at 23.209 -> 0.01;
    // chi2(100) at 124.342 -> 0.05; chi2(2) at x -> exp(-x/2).
    let close = |a: f64, b: f64| (a - b).abs() < 1e-3 * b.max(1e-9);
    assert!(close(chi_square_p_value(1.0, 3.841_459), 0.05));
    assert!(close(chi_square_p_value(10.0, 23.209_25), 0.01));
    assert!(close(chi_square_p_value(100.0, 124.342_1), 0.05));
    assert!(close(chi_square_p_value(2.0, 7.0), (-3.5f64).exp()));
}

/// Bins of `[0, n)` into `bins` ranges `v * bins / n`, with exact probabilities.
fn range_bins(n: u64, bins: u64) -> (impl Fn(u64) -> usize, Vec<f64>) {
    let n128 = u128::from(n);
    let b128 = u128::from(bins);
    let start = |b: u128| (b * n128).div_ceil(b128);
    let probabilities = (0..b128)
        .map(|b| (start(b + 1) - start(b)) as f64 / n as f64)
        .collect();
    (
        move |v: u64| (u128::from(v) * b128 / n128) as usize,
        probabilities,
    )
}

fn uniform_histogram(
    test: &str,
    n: u64,
    bins: u64,
    sample: impl Fn(&mut Sampler, u64) -> u64,
) -> (Vec<u64>, Vec<f64>) {
    let (bin, probabilities) = range_bins(n, bins);
    let mut observed = vec![0u64; bins as usize];
    for i in 0..samples() {
        let mut s = Sampler::new(&stat_beacon(test, i));
        let v = sample(&mut s, n);
        assert!(v < n);
        observed[bin(v)] += 1;
    }
    (observed, probabilities)
}

#[test]
fn uniform_small_bounds() {
    for n in [2u64, 3, 5, 6, 7, 52, 120] {
        let name = format!("uniform n={n}");
        let (observed, probabilities) =
            uniform_histogram(&name, n, n, |s, n| s.uniform(n).unwrap_or(u64::MAX));
        check(&name, &observed, &probabilities);
    }
}

#[test]
fn uniform_awkward_large_bounds() {
    // Bounds where the rejection step matters (2^63 + 1 rejects almost half
    // the words, 3 * 2^62 a quarter): ranges of the value, and its low bits.
    for n in [(1u64 << 32) + 1, (1 << 63) + 1, 3 << 62, u64::MAX] {
        let name = format!("uniform n={n} by range");
        let (observed, probabilities) =
            uniform_histogram(&name, n, 64, |s, n| s.uniform(n).unwrap_or(u64::MAX));
        check(&name, &observed, &probabilities);
    }
    let n = (1u64 << 63) + 1;
    let name = "uniform n=2^63+1 low 4 bits";
    let mut observed = vec![0u64; 16];
    for i in 0..samples() {
        let v = Sampler::new(&stat_beacon(name, i))
            .uniform(n)
            .unwrap_or(u64::MAX);
        observed[(v % 16) as usize] += 1;
    }
    // Residue r occurs floor((n - 1 - r) / 16) + 1 times in [0, n).
    let probabilities: Vec<f64> = (0..16)
        .map(|r| (((n - 1 - r) / 16 + 1) as f64) / n as f64)
        .collect();
    check(name, &observed, &probabilities);
}

#[test]
fn successive_values_of_one_stream() {
    // Within one beacon's stream: pairs of successive values are independent.
    let name = "pairs n=6";
    let mut observed = vec![0u64; 36];
    for i in 0..samples() {
        let mut s = Sampler::new(&stat_beacon(name, i));
        let a = s.uniform(6).unwrap_or(0);
        let b = s.uniform(6).unwrap_or(0);
        observed[(a * 6 + b) as usize] += 1;
    }
    check(name, &observed, &[1.0 / 36.0; 36]);
}

#[test]
fn biased_sampler_is_caught() {
    // Plain `v mod n` without rejection, for n = 3 * 2^62: 2^64 = n + 2^62,
    // so the lowest third of the range is twice as likely as the rest. The
    // same test must see it.
    let n = 3u64 << 62;
    let (observed, probabilities) = uniform_histogram("biased", n, 64, |s, n| s.next_word() % n);
    let (stat, p) = chi_square_p(&observed, &probabilities);
    eprintln!("biased mod sampler: chi2 = {stat:.1}, p = {p:e}");
    assert!(
        p < 1e-12,
        "the chi-square test failed to see a 2:1 bias (p = {p})"
    );
}

/// Every ordered outcome of `take` draws from `counts`, with its probability.
fn ordered_outcomes(counts: &[u32], take: u32) -> Vec<(Vec<u32>, f64)> {
    fn walk(
        left: &mut Vec<u32>,
        take: u32,
        prefix: &mut Vec<u32>,
        p: f64,
        out: &mut Vec<(Vec<u32>, f64)>,
    ) {
        if take == 0 {
            out.push((prefix.clone(), p));
            return;
        }
        let total: u32 = left.iter().sum();
        for i in 0..left.len() {
            if left[i] > 0 {
                let q = f64::from(left[i]) / f64::from(total);
                left[i] -= 1;
                prefix.push(i as u32);
                walk(left, take - 1, prefix, p * q, out);
                prefix.pop();
                left[i] += 1;
            }
        }
    }
    let mut out = Vec::new();
    walk(&mut counts.to_vec(), take, &mut Vec::new(), 1.0, &mut out);
    out
}

fn draw_check(name: &str, counts: &[u32], take: u32) {
    let outcomes = ordered_outcomes(counts, take);
    let mut observed = vec![0u64; outcomes.len()];
    for i in 0..samples() {
        let got = Sampler::new(&stat_beacon(name, i))
            .draw(counts, take)
            .unwrap_or_default();
        let slot = outcomes.iter().position(|(seq, _)| *seq == got);
        assert!(slot.is_some(), "{name}: impossible outcome {got:?}");
        if let Some(slot) = slot {
            observed[slot] += 1;
        }
    }
    let probabilities: Vec<f64> = outcomes.iter().map(|(_, p)| *p).collect();
    check(name, &observed, &probabilities);
}

#[test]
fn multiset_draws_match_exact_sequence_probabilities() {
    // The example: every ordered outcome of 3 draws from {0,0,0,2,2,3,3,3,3,3}.
    draw_check("draw [3,0,2,5] take 3", &[3, 0, 2, 5], 3);
    // A full shuffle of 4 distinct cards: all 24 orders equally likely.
    draw_check("draw [1,1,1,1] take 4", &[1, 1, 1, 1], 4);
    // Port Royal coins: few kinds, many copies, two draws.
    draw_check("draw [7,1,4,2,6] take 2", &[7, 1, 4, 2, 6], 2);
}

#[test]
fn every_position_of_a_long_draw_is_a_fair_card() {
    // 12 draws from a 40-card deck of 8 kinds: by exchangeability each
    // position's card has the deck's proportions.
    let counts = [8u32, 1, 3, 5, 7, 2, 6, 8];
    let total: u32 = counts.iter().sum();
    let take = 12;
    let name = "positions of 12 from 40";
    let mut observed = vec![vec![0u64; counts.len()]; take as usize];
    for i in 0..samples() {
        let got = Sampler::new(&stat_beacon(name, i))
            .draw(&counts, take)
            .unwrap_or_default();
        for (pos, &card) in got.iter().enumerate() {
            observed[pos][card as usize] += 1;
        }
    }
    let probabilities: Vec<f64> = counts
        .iter()
        .map(|&c| f64::from(c) / f64::from(total))
        .collect();
    for pos in [0usize, 5, 11] {
        check(
            &format!("{name}, position {pos}"),
            &observed[pos],
            &probabilities,
        );
    }
}

#[test]
fn seat_picks_from_real_beacons() {
    // Through the whole pipeline: reveals -> beacon -> pick_seat, 5 seats.
    let name = "pick_seat 5";
    let mut observed = vec![0u64; 5];
    for i in 0..samples() {
        let reveals: Vec<Option<[u8; 32]>> = (0..5u64)
            .map(|seat| Some(stat_beacon(name, i * 5 + seat)))
            .collect();
        let b = beacon(&[0; 32], i + 1, &reveals);
        let seat = Sampler::new(&b).pick_seat(5).unwrap_or(0);
        observed[usize::from(seat)] += 1;
    }
    check(name, &observed, &[0.2; 5]);
}
