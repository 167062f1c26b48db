//! `roundtable play`: a local game between bots, printed as a log.

use std::process::ExitCode;

use anyhow::{Context, Result};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_bots::{Bot, RandomBot};
use roundtable_engine::{Game, Next, Observer, sim};
use roundtable_port_royal::{Options, PortRoyal};

/// Options of `roundtable play`.
#[derive(Debug, clap::Args)]
pub(crate) struct PlayArgs {
    /// Seats at the table (2 to 5).
    #[arg(long, default_value_t = 4)]
    seats: u8,
    /// Seed for the shuffle and the bots; a fresh one when omitted.
    #[arg(long)]
    seed: Option<u64>,
    /// A rule option as key=value (victory_points=8, pass_automatically=true, ...).
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
}

impl Default for PlayArgs {
    fn default() -> Self {
        PlayArgs {
            seats: 4,
            seed: None,
            options: Vec::new(),
        }
    }
}

fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    // The standard library seeds each RandomState from the OS; this is a
    // local demonstration game, not a protocol shuffle.
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    h.finish()
}

pub(crate) fn run(args: &PlayArgs) -> Result<ExitCode> {
    let options: Options = crate::parse_options(&args.options)?;
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let mut game = PortRoyal::new_game(args.seats, &options).context("setting up the game")?;
    let mut chance = ChaCha20Rng::seed_from_u64(seed);
    let mut bots: Vec<RandomBot> = (0..args.seats)
        .map(|i| RandomBot::new(seed.wrapping_add(u64::from(i) + 1)))
        .collect();
    println!(
        "Port Royal, {} seats, seed {seed} (replay with --seed {seed})",
        args.seats
    );
    let mut events = Vec::new();
    let mut legal = Vec::new();
    loop {
        events.clear();
        match game.next() {
            Next::Over => break,
            Next::Chance(request) => {
                let outcome = sim::sample(&request.distribution, &mut |n| {
                    sim::uniform_below(n, &mut || chance.next_u64())
                });
                game.apply_chance(&outcome, &mut events)
                    .context("applying chance")?;
            }
            Next::Decision(seat) => {
                game.legal_actions(seat, &mut legal);
                let view = game.view(Observer::Seat(seat));
                let bot = &mut bots[seat.index()];
                let pick = Bot::<PortRoyal>::choose(bot, seat, &view, &legal).min(legal.len() - 1);
                let action = legal[pick];
                println!("  {seat}: {action}");
                game.apply_action(seat, &action, &mut events)
                    .context("applying a bot's move")?;
            }
            Next::Simultaneous(_) => anyhow::bail!("Port Royal has no simultaneous choices"),
        }
        for e in &events {
            println!("{e}");
        }
    }
    let result = game.result().context("the game ended without a result")?;
    println!("\nResult:");
    let mut standings = result.standings.clone();
    standings.sort_by_key(|s| (s.rank, s.seat));
    for s in &standings {
        println!(
            "  #{} {}: {} VP, {} coins",
            s.rank + 1,
            s.seat,
            s.score,
            s.tie_break
        );
    }
    Ok(ExitCode::SUCCESS)
}
