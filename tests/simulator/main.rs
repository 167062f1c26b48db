//! The simulator's tests: whole games between `Table`s over a faulty
//! in-memory network (random faults, stalls, Byzantine seats, private cards).
//!
//! One test binary (each file a module) so that `cargo test` links one
//! executable here instead of one per file.

mod sim_byzantine;
mod sim_games;
mod sim_private;
mod sim_stalls;
