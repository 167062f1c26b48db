//! Tournament tests: pairing and standings properties, vectors.
//!
//! One test binary for the crate (each file a module) so that `cargo test`
//! links one executable here instead of one per file.

mod pairing_properties;
mod standings_properties;
mod vectors;
mod wire_vectors;
