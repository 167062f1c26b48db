//! How many playouts the search bot makes in 100 ms of CPU time, for 4-seat
//! Port Royal with heuristic and with random playouts: the figure that turns
//! a think time into a playout budget (`STRENGTH_PLAYOUTS` of the strength
//! example).
//!
//! Positions are the decisions with a real choice in seeded games of four
//! heuristic bots; at each the search makes a fixed number of playouts, and
//! the thread's own CPU time (Linux `/proc/thread-self/schedstat`, falling
//! back to wall-clock time elsewhere) is what counts, so a busy machine
//! slows the run but changes the figure less. Pin it to one core:
//!
//! `taskset -c 1 cargo run --release -p roundtable-bots --example search_speed`
//!
//! `SPEED_POSITIONS` (default 40) and `SPEED_PLAYOUTS` (default 500) set the
//! work; `SPEED_HORIZON` (default 0: whole playouts) cuts playouts at that
//! many decisions, as the hard bot's do ([`Tuning::horizon`]); `SPEED_ONLY` (`heuristic` or `random`) measures one policy only. The decisions made are printed as a checksum, so two builds that
//! should search alike can be compared.

use std::time::Instant;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_bots::{Bot, Budget, PortRoyalBot, RandomBot, SearchBot, Tuning};
use roundtable_engine::{Game, Knowledge, Seat, sim};
use roundtable_port_royal::{Options, PortRoyal};

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Every fifth decision with a real choice in seeded heuristic games, until
/// `count` are collected.
fn positions(count: usize) -> Vec<(Seat, PortRoyal)> {
    let options = Options::default();
    let mut out = Vec::new();
    let mut game_seed = 0u64;
    while out.len() < count {
        let mut game = PortRoyal::new_game(4, &options).expect("4 seats");
        let mut chance = ChaCha8Rng::seed_from_u64(game_seed);
        let mut bot = PortRoyalBot::new(&options);
        let mut seen = 0usize;
        let played = sim::play(
            &mut game,
            100_000,
            &mut |n| sim::uniform_below(n, &mut || chance.next_u64()),
            &mut |seat, state: &PortRoyal, legal| {
                if legal.len() > 1 {
                    if seen.is_multiple_of(5) && out.len() < count {
                        out.push((seat, state.clone()));
                    }
                    seen += 1;
                }
                bot.choose_in(seat, state, &Knowledge::new(), legal)
            },
            &mut |_| {},
        );
        if let Err(e) = played {
            eprintln!("game {game_seed}: {e}");
        }
        game_seed += 1;
    }
    out
}

/// Nanoseconds this thread has run on a CPU, where Linux tells.
fn on_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Search every position with `playouts` playouts; print playouts per
/// 100 ms of CPU and a checksum of the decisions.
fn measure<P: Bot<PortRoyal>>(
    label: &str,
    positions: &[(Seat, PortRoyal)],
    playouts: u32,
    horizon: u32,
    policy: impl Fn(u64) -> P,
) {
    let mut total_playouts = 0u64;
    let mut checksum = 0u64;
    let started = Instant::now();
    let cpu_started = on_cpu_ns();
    for (i, (seat, state)) in positions.iter().enumerate() {
        let seed = i as u64;
        let mut bot =
            SearchBot::new(Budget::playouts(playouts), policy(seed), seed).with_tuning(Tuning {
                horizon,
                ..Tuning::default()
            });
        let legal = state.legal_actions_vec(*seat);
        let pick = bot.choose_in(*seat, state, &Knowledge::new(), &legal);
        total_playouts += bot.stats().playouts;
        checksum = checksum.wrapping_mul(31).wrapping_add(pick as u64 + 1);
    }
    let wall = started.elapsed().as_secs_f64();
    let cpu = match (cpu_started, on_cpu_ns()) {
        (Some(a), Some(b)) if b > a => (b - a) as f64 / 1e9,
        _ => wall,
    };
    println!(
        "{label:>9} policy: {total_playouts} playouts in {cpu:.2} CPU-s ({wall:.2} s wall) = \
         {:.0} playouts per 100 ms of CPU, {:.1} us a playout; decisions checksum {checksum:016x}",
        total_playouts as f64 / cpu / 10.0,
        cpu * 1e6 / total_playouts.max(1) as f64,
    );
}

fn main() {
    let count: usize = env_or("SPEED_POSITIONS", 40);
    let playouts: u32 = env_or("SPEED_PLAYOUTS", 500);
    let horizon: u32 = env_or("SPEED_HORIZON", 0);
    let positions = positions(count);
    println!(
        "4-seat Port Royal, {} positions, {playouts} playouts each, horizon {horizon}",
        positions.len()
    );
    let only: String = env_or("SPEED_ONLY", String::new());
    let options = Options::default();
    if only.is_empty() || only == "heuristic" {
        measure("heuristic", &positions, playouts, horizon, |_| {
            PortRoyalBot::new(&options)
        });
    }
    if only.is_empty() || only == "random" {
        measure("random", &positions, playouts, horizon, RandomBot::new);
    }
}
