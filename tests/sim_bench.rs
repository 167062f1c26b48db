//! Simulator throughput and protocol cost: plays whole games between peers
//! on the simulated network and reports games per second and, per game
//! input, messages, bytes on the wire and envelopes signed.
//!
//! ```text
//! cargo run --release -p roundtable-tests --example sim_bench [GAMES]
//! ```
//!
//! `SIM_THREADS` sets the parallelism (default: every core). The figures
//! are for this machine and build; the run is deterministic, so only the
//! times change between runs.

use std::time::Instant;

use roundtable_tests::sim::{self, Faults, SimConfig, Stats};

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200);
    let seeds: Vec<u64> = (0..games).collect();
    for (label, config) in [
        (
            "perfect network, 4 seats",
            (|seed| SimConfig {
                faults: Faults::none(),
                ..SimConfig::calm(seed, 4)
            }) as fn(u64) -> SimConfig,
        ),
        (
            "random faults, 2-5 seats",
            SimConfig::random as fn(u64) -> SimConfig,
        ),
    ] {
        let started = Instant::now();
        let results = sim::for_seeds(&seeds, |seed| {
            let outcome = sim::run(config(seed));
            let ok = outcome.check_agreement().is_ok();
            (outcome.stats, ok)
        });
        let secs = started.elapsed().as_secs_f64();
        let mut total = Stats::default();
        let mut failed = 0;
        for (_, r) in &results {
            match r {
                Ok((s, ok)) => {
                    total.messages += s.messages;
                    total.wire_bytes += s.wire_bytes;
                    total.gossip_bytes += s.gossip_bytes;
                    total.authored += s.authored;
                    total.inputs += s.inputs;
                    total.received += s.received;
                    total.sim_ms += s.sim_ms;
                    failed += u64::from(!ok);
                }
                Err(_) => failed += 1,
            }
        }
        let inputs = total.inputs.max(1) as f64;
        let n = results.len().max(1) as f64;
        println!("{label}: {games} games in {secs:.2} s");
        println!("  {:.1} games/s, {:.0} inputs/s", n / secs, inputs / secs);
        println!(
            "  per game: {:.0} inputs, {:.0} envelopes signed, {:.0} messages, {:.1} KiB on the wire ({:.1} KiB gossip), {:.0} s simulated",
            inputs / n,
            total.authored as f64 / n,
            total.messages as f64 / n,
            total.wire_bytes as f64 / n / 1024.0,
            total.gossip_bytes as f64 / n / 1024.0,
            total.sim_ms as f64 / n / 1000.0
        );
        println!(
            "  per input: {:.2} envelopes signed, {:.1} messages, {:.0} bytes on the wire, {:.1} envelopes verified",
            total.authored as f64 / inputs,
            total.messages as f64 / inputs,
            total.wire_bytes as f64 / inputs,
            total.received as f64 / inputs
        );
        if failed > 0 {
            println!("  {failed} games broke agreement (run the sim_games tests)");
        }
    }
}
