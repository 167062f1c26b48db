//! How long a random 4-seat game of each game takes on the playout path a
//! search bot uses, and the ratio of Guildhall's and Nereus's to Port
//! Royal's: issue 31's figure (Guildhall at most 18 times a Port Royal game,
//! Nereus at most 9). The ratio is what to compare, not the times: this
//! machine switches speeds on its own for minutes at a time, and all three
//! games are measured in the same run, alternated round by round, so a
//! switch touches them alike.
//!
//! Each game is played by uniform random legal actions drawn as the search
//! draws them (Xoshiro256++ and `sim::uniform_by_multiply`): Port Royal,
//! which has no private cards, through `sim::play`, Guildhall and Nereus
//! through `sim::play_private` with the oracle dealer, as their benches do.
//! Time is the thread's own CPU time (Linux `/proc/thread-self/schedstat`,
//! wall-clock time elsewhere), so a busy machine slows the run but moves
//! the figure less. Pin it to one core:
//!
//! `taskset -c 1 cargo run --release -p roundtable-bots --example engine_ratio`
//!
//! `ENGINE_RATIO_GAMES` (default 300) sets the Guildhall and Nereus games a
//! round, Port Royal plays 20 times as many (its games are that much
//! shorter); `ENGINE_RATIO_ROUNDS` (default 3) the rounds. The same seeded
//! games are played every round and every build, and the decisions they
//! took are printed as a checksum: a build that changes no rule prints the
//! same ones.

use std::process::ExitCode;
use std::time::Instant;

use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use roundtable_engine::{Game, sim};
use roundtable_guildhall::Guildhall;
use roundtable_nereus::Nereus;
use roundtable_port_royal::PortRoyal;

/// Seats at every game measured.
const SEATS: u8 = 4;

/// How many more Port Royal games a round plays than of the others.
const PORT_ROYAL_FACTOR: u64 = 20;

/// What the runs of one game add up to.
#[derive(Default)]
struct Tally {
    games: u64,
    cpu_ns: u64,
    decisions: u64,
}

fn env_count(name: &str, default: u64) -> Result<u64, String> {
    match std::env::var(name) {
        Err(_) => Ok(default),
        Ok(text) => match text.parse::<u64>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(format!(
                "{name} must be a whole number above 0, not {text:?}"
            )),
        },
    }
}

fn main() -> ExitCode {
    let (games, rounds) = match (
        env_count("ENGINE_RATIO_GAMES", 300),
        env_count("ENGINE_RATIO_ROUNDS", 3),
    ) {
        (Ok(games), Ok(rounds)) => (games, rounds),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let [port_royal, guildhall, nereus] = match measure_rounds(games, rounds) {
        Ok(tallies) => tallies,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let per_game = |t: &Tally| t.cpu_ns as f64 / 1e3 / t.games as f64;
    let base = per_game(&port_royal);
    println!(
        "{:<10} {:>8} {:>12} {:>10} {:>16}",
        "game", "games", "µs/game", "ratio", "decisions"
    );
    for (name, tally) in [
        ("port-royal", &port_royal),
        ("guildhall", &guildhall),
        ("nereus", &nereus),
    ] {
        println!(
            "{name:<10} {:>8} {:>12.1} {:>10.1} {:>16}",
            tally.games,
            per_game(tally),
            per_game(tally) / base,
            tally.decisions
        );
    }
    ExitCode::SUCCESS
}

/// Port Royal's, Guildhall's and Nereus's tallies over `rounds` rounds,
/// the games alternated within each round.
fn measure_rounds(games: u64, rounds: u64) -> Result<[Tally; 3], String> {
    let mut tallies: [Tally; 3] = Default::default();
    for _ in 0..rounds {
        let measured = [
            measure(games * PORT_ROYAL_FACTOR, play_port_royal)?,
            measure(games, play_private::<Guildhall>)?,
            measure(games, play_private::<Nereus>)?,
        ];
        for (total, round) in tallies.iter_mut().zip(measured) {
            total.games += round.games;
            total.cpu_ns += round.cpu_ns;
            total.decisions += round.decisions;
        }
    }
    Ok(tallies)
}

/// Play `games` seeded games with `play` (given the game's number, returns
/// the decisions it took) and time them.
fn measure(games: u64, play: fn(u64) -> Result<usize, String>) -> Result<Tally, String> {
    let wall = Instant::now();
    let cpu_start = on_cpu_ns();
    let mut decisions = 0u64;
    for seed in 0..games {
        decisions += play(seed)? as u64;
    }
    let cpu_ns = match (cpu_start, on_cpu_ns()) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => wall.elapsed().as_nanos() as u64,
    };
    Ok(Tally {
        games,
        cpu_ns,
        decisions,
    })
}

/// One random 4-seat Port Royal game (base rules); its decisions.
fn play_port_royal(seed: u64) -> Result<usize, String> {
    let mut game = PortRoyal::new_game(SEATS, &Default::default()).map_err(|e| e.to_string())?;
    let mut chance = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut picks = Xoshiro256PlusPlus::seed_from_u64(!seed);
    let playout = sim::play(
        &mut game,
        1_000_000,
        &mut |n| sim::uniform_by_multiply(n, &mut || chance.next_u64()),
        &mut |_, _, legal| {
            sim::uniform_by_multiply(legal.len() as u64, &mut || picks.next_u64()) as usize
        },
        &mut |_| {},
    )
    .map_err(|e| format!("port royal game {seed}: {e}"))?;
    Ok(playout.decisions)
}

/// One random 4-seat game of `G` (default options) with private cards,
/// dealt by the oracle dealer; its decisions.
fn play_private<G: Game>(seed: u64) -> Result<usize, String> {
    let mut game = G::new_game(SEATS, &Default::default()).map_err(|e| e.to_string())?;
    let mut dealer = sim::OracleDealer::new(SEATS);
    let mut chance = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut picks = Xoshiro256PlusPlus::seed_from_u64(!seed);
    let playout = sim::play_private(
        &mut game,
        &mut dealer,
        1_000_000,
        &mut |n| sim::uniform_by_multiply(n, &mut || chance.next_u64()),
        &mut |_, _, _, legal| {
            sim::uniform_by_multiply(legal.len() as u64, &mut || picks.next_u64()) as usize
        },
        &mut |_, _| {},
    )
    .map_err(|e| format!("{} game {seed}: {e}", G::NAME))?;
    Ok(playout.decisions)
}

/// Nanoseconds this thread has run on a CPU, where Linux tells.
fn on_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}
