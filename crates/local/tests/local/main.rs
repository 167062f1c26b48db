//! In-process tables: bot turns, secret choices and solo games.
//!
//! One test binary for the crate (each file a module) so that `cargo test`
//! links one executable here instead of one per file.

mod bot_turns;
mod driven;
mod secret_choices;
mod solo;
