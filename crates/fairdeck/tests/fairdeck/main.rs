//! Commit-reveal randomness tests: flows, properties, the reference sampler, statistics and vectors.
//!
//! One test binary for the crate (each file a module) so that `cargo test`
//! links one executable here instead of one per file.

mod flow;
mod properties;
mod reference;
mod statistics;
mod vectors;
