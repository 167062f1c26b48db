//! The pinned sampler: every chance outcome is computed from its beacon by
//! exactly these steps, so every peer (and every other implementation) gets
//! the same outcome.
//!
//! * The stream: `ChaCha20Rng::from_seed(beacon)` from `rand_chacha` 0.9, read
//!   only with `next_u64`. That is the ChaCha20 keystream (key = beacon,
//!   block counter from 0, nonce 0) read 8 bytes at a time as little-endian
//!   `u64`s.
//! * A uniform integer in `[0, n)`: take `v = next_u64()`; if
//!   `v < 2^64 - (2^64 mod n)` the result is `v mod n`, otherwise take the
//!   next word and try again.
//! * `take` draws without replacement from a multiset given as counts in
//!   catalog order: with `total` cards left, `r = uniform(total)`; walk the
//!   counts from index 0, subtracting each count from `r` until `r` is below
//!   one; that index is drawn and its count and `total` go down by one.
//! * A seat: `uniform(seats)`.
//!
//! `rand`'s `gen_range`, `random_range` and `shuffle` are never used: their
//! algorithms are not part of anyone's compatibility promise.

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

use crate::FairdeckError;

/// A deterministic stream of uniform choices seeded by one beacon.
///
/// Use a fresh sampler for every chance event, seeded with that event's
/// beacon; [`answer`] does exactly that.
#[derive(Clone, Debug)]
pub struct Sampler {
    rng: ChaCha20Rng,
    words: u64,
}

impl Sampler {
    /// A sampler whose stream is the ChaCha20 keystream keyed by `beacon`.
    pub fn new(beacon: &[u8; 32]) -> Self {
        Sampler {
            rng: ChaCha20Rng::from_seed(*beacon),
            words: 0,
        }
    }

    /// The next raw 64-bit word of the stream (8 keystream bytes, little-endian).
    pub fn next_word(&mut self) -> u64 {
        self.words += 1;
        self.rng.next_u64()
    }

    /// How many words have been taken from the stream so far (accepted and
    /// rejected alike).
    pub fn words_used(&self) -> u64 {
        self.words
    }

    /// A uniform integer in `[0, n)` by rejection: a word `v` is accepted iff
    /// `v < 2^64 - (2^64 mod n)`, and then the result is `v mod n`.
    ///
    /// Each word is rejected with probability `(2^64 mod n) / 2^64 < 1/2`.
    pub fn uniform(&mut self, n: u64) -> Result<u64, FairdeckError> {
        if n == 0 {
            return Err(FairdeckError::EmptyRange);
        }
        // 2^64 mod n, computed without 128-bit arithmetic: (2^64 - n) mod n.
        let excess = n.wrapping_neg() % n;
        // The accepted words are those below 2^64 - excess (a multiple of n);
        // when excess is 0 every word is accepted.
        loop {
            let v = self.next_word();
            if excess == 0 || v < excess.wrapping_neg() {
                return Ok(v % n);
            }
        }
    }

    /// `take` draws without replacement from the multiset with `counts[i]`
    /// copies of catalog entry `i`, as catalog indices in draw order.
    pub fn draw(&mut self, counts: &[u32], take: u32) -> Result<Vec<u32>, FairdeckError> {
        let mut total: u64 = 0;
        for &c in counts {
            total = total
                .checked_add(u64::from(c))
                .ok_or(FairdeckError::CountsOverflow)?;
        }
        if u64::from(take) > total {
            return Err(FairdeckError::TakeExceedsTotal { take, total });
        }
        let mut left = counts.to_vec();
        let mut out = Vec::with_capacity(take as usize);
        for _ in 0..take {
            let mut r = self.uniform(total)?;
            let mut picked = None;
            for (i, c) in left.iter_mut().enumerate() {
                let c64 = u64::from(*c);
                if r < c64 {
                    *c -= 1;
                    picked = Some(i);
                    break;
                }
                r -= c64;
            }
            // r < total = sum(left), so the walk always stops at some index;
            // a catalog index past u32::MAX would need 2^32 empty entries first.
            let index = picked
                .and_then(|i| u32::try_from(i).ok())
                .ok_or(FairdeckError::CountsOverflow)?;
            out.push(index);
            total -= 1;
        }
        Ok(out)
    }

    /// A uniform seat index in `[0, seats)`.
    pub fn pick_seat(&mut self, seats: u8) -> Result<u8, FairdeckError> {
        if seats == 0 {
            return Err(FairdeckError::NoSeats);
        }
        let v = self.uniform(u64::from(seats))?;
        Ok(v as u8)
    }
}

/// What a chance event asks for (mirrors the engine's `Distribution`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chance<'a> {
    /// A uniform integer in `[0, n)`.
    Uniform {
        /// Exclusive upper bound, at least 1.
        n: u64,
    },
    /// `take` draws without replacement from the multiset with `counts[i]`
    /// copies of catalog entry `i`.
    Multiset {
        /// Copies per catalog index.
        counts: &'a [u32],
        /// How many to draw; at most the sum of `counts`.
        take: u32,
    },
}

/// The outcome of a chance event (mirrors the engine's `ChanceOutcome`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ChanceValue {
    /// For [`Chance::Uniform`]: the integer.
    Index(u64),
    /// For [`Chance::Multiset`]: catalog indices in draw order.
    Cards(Vec<u32>),
}

/// Answer one chance event from its beacon: a fresh [`Sampler`] seeded with
/// `beacon`, then one [`Sampler::uniform`] or [`Sampler::draw`].
///
/// This is the only way the table turns a beacon into an outcome, so every
/// peer computes the same one.
pub fn answer(beacon: &[u8; 32], chance: Chance<'_>) -> Result<ChanceValue, FairdeckError> {
    let mut sampler = Sampler::new(beacon);
    match chance {
        Chance::Uniform { n } => sampler.uniform(n).map(ChanceValue::Index),
        Chance::Multiset { counts, take } => sampler.draw(counts, take).map(ChanceValue::Cards),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_ranges_are_refused() {
        let mut s = Sampler::new(&[0; 32]);
        assert_eq!(s.uniform(0), Err(FairdeckError::EmptyRange));
        assert_eq!(s.pick_seat(0), Err(FairdeckError::NoSeats));
        assert_eq!(
            s.draw(&[3, 0, 2, 5], 11),
            Err(FairdeckError::TakeExceedsTotal {
                take: 11,
                total: 10
            })
        );
        assert_eq!(
            s.draw(&[], 1),
            Err(FairdeckError::TakeExceedsTotal { take: 1, total: 0 })
        );
        assert_eq!(s.words_used(), 0, "refusals consume nothing");
    }

    #[test]
    fn draw_takes_everything_exactly_once() -> Result<(), FairdeckError> {
        let mut s = Sampler::new(&[4; 32]);
        let mut got = s.draw(&[3, 0, 2, 5], 10)?;
        got.sort_unstable();
        assert_eq!(got, vec![0, 0, 0, 2, 2, 3, 3, 3, 3, 3]);
        assert_eq!(s.draw(&[], 0)?, Vec::<u32>::new());
        Ok(())
    }

    #[test]
    fn uniform_of_one_is_zero_and_takes_one_word() -> Result<(), FairdeckError> {
        let mut s = Sampler::new(&[1; 32]);
        assert_eq!(s.uniform(1)?, 0);
        assert_eq!(s.words_used(), 1);
        Ok(())
    }

    #[test]
    fn the_rejection_threshold_is_exact() {
        // Words at or above 2^64 - (2^64 mod n) are rejected: check the
        // arithmetic against 128-bit integers for awkward bounds.
        for n in [
            1u64,
            2,
            3,
            5,
            7,
            120,
            (1 << 32) + 1,
            1 << 63,
            (1 << 63) + 1,
            3 << 62,
            u64::MAX,
        ] {
            let excess = n.wrapping_neg() % n;
            assert_eq!(u128::from(excess), (1u128 << 64) % u128::from(n), "n = {n}");
            let limit = (1u128 << 64) - (1u128 << 64) % u128::from(n);
            if excess != 0 {
                assert_eq!(u128::from(excess.wrapping_neg()), limit);
            } else {
                assert_eq!(limit, 1u128 << 64);
            }
        }
    }

    #[test]
    fn answer_uses_a_fresh_sampler() -> Result<(), FairdeckError> {
        let b = [8; 32];
        assert_eq!(
            answer(&b, Chance::Uniform { n: 6 })?,
            ChanceValue::Index(Sampler::new(&b).uniform(6)?)
        );
        let counts = [2, 2];
        assert_eq!(
            answer(
                &b,
                Chance::Multiset {
                    counts: &counts,
                    take: 3
                }
            )?,
            ChanceValue::Cards(Sampler::new(&b).draw(&counts, 3)?)
        );
        assert_eq!(
            answer(&b, Chance::Uniform { n: 0 }),
            Err(FairdeckError::EmptyRange)
        );
        Ok(())
    }
}
