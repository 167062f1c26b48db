//! Small runnable programs that show the roundtable API, each a page of
//! code: `cargo run -p roundtable-examples --example NAME`.
//!
//! - `local_game`: a game of Port Royal between bots, each a full peer at
//!   its own in-process table (own key, own hash chain, signed envelopes),
//!   through `roundtable-local`.
//! - `audit_transcript`: an audit of a transcript from one library call,
//!   `roundtable_table::audit`: every signature, link, beacon and rule
//!   checked by replaying the game as an observer.
//!
//! The examples of one crate's own API (benchmarks, measurements) live in
//! that crate's `examples/`.
