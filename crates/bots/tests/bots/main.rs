//! The bots' integration tests: search, its fast path, private cards, strength against random play.
//!
//! One test binary for the crate (each file a module) so that `cargo test`
//! links one executable here instead of one per file.

mod nereus;
mod pace;
mod search;
mod search_fast_path;
mod search_private;
mod versus_random;
