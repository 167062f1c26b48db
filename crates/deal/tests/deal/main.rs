//! The private-card deal's tests: whole flows, properties and known-answer vectors.
//!
//! One test binary for the crate (each file a module) so that `cargo test`
//! links one executable here instead of one per file.

mod flow;
mod properties;
mod vectors;
