//! Runnable examples: `cargo run -p roundtable-examples --example NAME`.
