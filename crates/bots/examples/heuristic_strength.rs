//! How often a game's heuristic bot beats three random bots in 4-seat
//! games, and how long it takes to decide, for the games with private cards
//! (Guildhall, Waters of Nereus). Seeded: the same run prints the same
//! figure. `GUILDHALL_GAMES` or `NEREUS_GAMES` sets the number of games
//! (default 200).
//!
//! cargo run --release -p roundtable-bots --example heuristic_strength -- guildhall
//! cargo run --release -p roundtable-bots --example heuristic_strength -- nereus

use std::time::{Duration, Instant};

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_bots::{Bot, GuildhallBot, NereusBot, RandomBot};
use roundtable_engine::{Game, Seat, sim};
use roundtable_guildhall::Guildhall;
use roundtable_nereus::Nereus;

fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("guildhall") => {
            measure::<Guildhall>(|| Box::new(GuildhallBot::new()), "GUILDHALL_GAMES");
        }
        Some("nereus") => measure::<Nereus>(|| Box::new(NereusBot::new()), "NEREUS_GAMES"),
        _ => {
            eprintln!("which game: heuristic_strength guildhall|nereus");
            std::process::exit(2);
        }
    }
}

/// Play the games, the heuristic bot made by `hero_bot` at every seat in
/// turn, and print its wins and its decision times.
fn measure<G: Game>(hero_bot: impl Fn() -> Box<dyn Bot<G>>, games_variable: &str) {
    let games: u64 = std::env::var(games_variable)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let mut wins = 0;
    let mut times: Vec<Duration> = Vec::new();
    for seed in 0..games {
        let hero = Seat((seed % 4) as u8);
        let mut game = G::new_game(4, &G::Options::default()).expect("4 seats");
        let mut dealer = sim::OracleDealer::new(4);
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let mut bot = hero_bot();
        let mut randoms: Vec<RandomBot> = (0..4).map(|i| RandomBot::new(seed * 4 + i)).collect();
        sim::play_private(
            &mut game,
            &mut dealer,
            1_000_000,
            &mut |n| sim::uniform_below(n, &mut || rng.next_u64()),
            &mut |seat, state, knowledge, legal| {
                if seat != hero {
                    let random = &mut randoms[seat.index()];
                    return Bot::<G>::choose_in(random, seat, state, knowledge, legal);
                }
                // The machine is shared: the least of three timings of the
                // same (deterministic) decision is its own cost.
                let mut took = Duration::MAX;
                let mut pick = 0;
                for _ in 0..3 {
                    let start = Instant::now();
                    pick = bot.choose_in(seat, state, knowledge, legal);
                    took = took.min(start.elapsed());
                }
                times.push(took);
                pick
            },
            &mut |_, _| {},
        )
        .unwrap_or_else(|e| panic!("game {seed}: {e}"));
        let result = game.result().expect("the game is over");
        if result.winners() == vec![hero] {
            wins += 1;
        }
    }
    println!(
        "heuristic bot won {wins} of {games} 4-seat games against three random bots ({:.1} %)",
        100.0 * f64::from(wins) / games as f64
    );
    let thinking: Duration = times.iter().sum();
    let decisions = times.len();
    times.sort_unstable();
    let micros = |t: &Duration| t.as_secs_f64() * 1e6;
    let percentile = |p: f64| {
        let at = ((times.len() as f64 * p) as usize).min(times.len().saturating_sub(1));
        times.get(at).map_or(0.0, micros)
    };
    println!(
        "decision time percentiles: 50 % {:.1} µs, 99 % {:.1} µs, 99.9 % {:.1} µs",
        percentile(0.5),
        percentile(0.99),
        percentile(0.999)
    );
    println!(
        "{decisions} decisions, {:.1} µs on average, slowest {:.1} µs",
        micros(&thinking) / decisions.max(1) as f64,
        times.last().map_or(0.0, micros)
    );
}
