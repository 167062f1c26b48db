//! The table's tests: ordering, stall claims and forfeits, private deals, verdicts, vectors.
//!
//! One test binary for the crate (each file a module) so that `cargo test`
//! links one executable here instead of one per file.

mod common;
mod continuation;
mod corruption;
mod exact_decoding;
mod gone_seats;
mod outsiders;
mod private_deal;
mod private_vectors;
mod reference;
mod regressions;
mod simultaneous;
mod stalls;
mod unservable;
mod vectors;
mod verdict;
