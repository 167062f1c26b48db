//! Port Royal's tests: pinned hashes, the playout path, random games, the round limit and views.
//!
//! One test binary for the crate (each file a module) so that `cargo test`
//! links one executable here instead of one per file.

mod pinned_hashes;
mod playout_path;
mod random_games;
mod round_limit;
mod views;
