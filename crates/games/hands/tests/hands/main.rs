//! Hands' rules and properties.
//!
//! One test binary for the crate (each file a module) so that `cargo test`
//! links one executable here instead of one per file.

mod common;
mod properties;
mod rules;
