//! Cross-crate integration tests live in this package's test targets; this
//! library holds what they share: the deterministic network simulator
//! ([`sim`]) that plays whole games between peers as `Table`s over a faulty
//! in-memory network.
//!
//! ```text
//! cargo test -p roundtable-tests                      # every simulator test, CI seed counts
//! SIM_GAMES=1000 cargo test -p roundtable-tests --test simulator sim_games::random_faults
//! SIM_GAMES=50 cargo test -p roundtable-tests --test simulator sim_private  # Hands, private cards
//! SIM_SEED=1234 cargo test -p roundtable-tests --test simulator sim_games::NAME -- --exact --nocapture
//! SIM_TRACE=1 SIM_SEED=1234 ...                       # every event and output of the run
//! SIM_EXPLORE=1 cargo test -p roundtable-tests        # new seeds every run (else the commit's)
//! cargo run --release -p roundtable-tests --example sim_bench 200
//! ```
//!
//! `SIM_THREADS` sets how many games run at once (default: every core).

pub mod sim;
