//! Whole random Waters of Nereus games on one core, on the search bot's
//! playout path: uniform random legal actions (the seat's own science
//! cards known, as the dealer tells it), chance and the deal from a fast
//! seeded PRNG (Xoshiro256++ and `sim::uniform_by_multiply`, as the search
//! draws them), inputs through `apply_legal_action` and
//! `apply_random_chance` (no second check, no events), a science card
//! played opened by the oracle dealer and applied with its claim. Prints
//! games per CPU-second, inputs per game and µs per game for 2 to 4 seats.
//! Time is the thread's own CPU time (Linux `/proc/thread-self/schedstat`,
//! wall-clock time elsewhere). Pin it to one core:
//!
//! `taskset -c 1 cargo bench -p roundtable-nereus --bench random_games`
//!
//! (`NEREUS_BENCH_GAMES` sets games per seat count, default 300.) The
//! checked path, `sim::play_private`, is what `crates/bots/examples/
//! engine_ratio.rs` times, beside Port Royal and Guildhall.
//!
//! Issue 31 asked for a random 4-seat Nereus game in at most 9 times a
//! random 4-seat Port Royal game (60 times when it was filed), measured in
//! one run on one pinned core. Measured 2026-11-28 on this 2-core machine,
//! `taskset -c 1`, load average 11 to 12 (other engineers' builds: read
//! the ratios, not the times), two runs of each build alternated, the code
//! before (`8438d6d`) and after this change:
//!
//! | 4 seats | before: µs a game | ratio to Port Royal | after: µs a game | ratio |
//! |---|---|---|---|---|
//! | `engine_ratio` (`sim::play_private`, checked, events built) | 1,802 / 1,771 | 73.4 / 70.7 | 143 / 147 | 5.7 / 5.7 |
//! | this bench's path (the search bot's) | 1,341 | 53 | 111 | 4.4 |
//!
//! (`ENGINE_RATIO_GAMES=300 ENGINE_RATIO_ROUNDS=3 taskset -c 1 cargo run
//! --release -p roundtable-bots --example engine_ratio`; the bot's path by
//! this bench's driver beside Port Royal's `sim::play` in one program.)
//! Both builds play the same games: `engine_ratio`'s checksum of decisions
//! is the same, 349,152 for 900 Nereus games.
//!
//! This bench's own figures after the change, the same minutes (LTO bench
//! build, load 11): 2 seats 52.6 µs a game (19,010 games per CPU-second,
//! 199 inputs), 3 seats 85.3 µs (11,726, 286), 4 seats 106.2 µs (9,415,
//! 366).
//!
//! What the profile (callgrind, 30 random 4-seat games each way) said
//! before: on the bot's path 74 % of the time went into listing the legal
//! actions, which tried every crew step on a whole copy of the state (a
//! copy is some sixty allocations: the cabins' holds, the marker rows, the
//! hands), copied the state again for each boatswain piece lifted, built
//! each of a pilot's 340 candidate paths as a vector of its own and checked
//! it with two more, and sorted the list; applying an input built its
//! events (an action's text among them) though nobody read them. On the
//! checked path, copying the state for every action (so that a refused one
//! changed nothing) and dropping the old one were 72 % of applying it. Now
//! a crew step is asked of the checks that applying it makes first, a
//! lifted piece is checked in place, paths grow in one buffer and stop
//! where no longer path can be allowed, the list is built in order, the
//! playout path records nothing, and every rule refuses before it changes
//! anything, so the checked path applies an action or a chance outcome in
//! place. (Before the chance outcome too applied in place, the last two
//! figures were 150 / 160 µs and 6.1 / 6.4.)
use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use roundtable_engine::{ChanceOutcome, Game, Next, PrivateRequest, sim};
use roundtable_nereus::{Nereus, Options};

fn main() -> ExitCode {
    let games = match std::env::var("NEREUS_BENCH_GAMES") {
        Err(_) => 300,
        Ok(text) => match text.parse::<u64>() {
            Ok(n) if n > 0 => n,
            _ => {
                eprintln!("NEREUS_BENCH_GAMES must be a whole number above 0, not {text:?}");
                return ExitCode::from(2);
            }
        },
    };
    match print_rows(games) {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stopped early (`| head`) has what it wanted.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn print_rows(games: u64) -> io::Result<()> {
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{:>5} {:>12} {:>12} {:>12}",
        "seats", "games/cpu-s", "inputs/game", "µs/game"
    )?;
    for seats in 2..=4u8 {
        let start = Instant::now();
        let cpu_start = on_cpu_ns();
        let mut inputs = 0usize;
        for seed in 0..games {
            inputs += playout(seats, seed).map_err(io::Error::other)?;
        }
        let secs = match (cpu_start, on_cpu_ns()) {
            (Some(a), Some(b)) if b > a => (b - a) as f64 / 1e9,
            _ => start.elapsed().as_secs_f64(),
        };
        writeln!(
            out,
            "{seats:>5} {:>12.0} {:>12.1} {:>12.1}",
            games as f64 / secs,
            inputs as f64 / games as f64,
            secs * 1e6 / games as f64
        )?;
        out.flush()?;
    }
    Ok(())
}

/// One game through the search bot's path.
fn playout(seats: u8, seed: u64) -> Result<usize, String> {
    let mut game = Nereus::new_game(seats, &Options::default()).map_err(|e| e.to_string())?;
    let mut dealer = sim::OracleDealer::new(seats);
    let mut chance = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut picks = Xoshiro256PlusPlus::seed_from_u64(!seed);
    let (mut scratch, mut legal, mut choices) = (Vec::new(), Vec::new(), Vec::new());
    let mut outcome = ChanceOutcome::Index(0);
    let refused = |e: &dyn std::fmt::Display| format!("game {seed}: {e}");
    for inputs in 1..1_000_000 {
        let mut uniform = |n| sim::uniform_by_multiply(n, &mut || chance.next_u64());
        match game.next() {
            Next::Over => return Ok(inputs),
            Next::Chance(_) => {
                if let Some(applied) =
                    game.apply_random_chance(&mut uniform, &mut outcome, &mut scratch)
                {
                    applied.map_err(|e| refused(&e))?;
                }
            }
            Next::Private(PrivateRequest::Reshuffle { pile, epoch }) => {
                dealer
                    .reshuffle(pile, epoch, &mut uniform)
                    .map_err(|e| refused(&e))?;
                game.apply_reshuffle(&mut scratch)
                    .map_err(|e| refused(&e))?;
            }
            Next::Private(PrivateRequest::Deal { to, first, count }) => {
                dealer.deal(to, first, count).map_err(|e| refused(&e))?;
                game.apply_deal(&mut scratch).map_err(|e| refused(&e))?;
            }
            Next::Private(PrivateRequest::Reveal { .. }) => {
                return Err(refused(&"Nereus reveals nothing"));
            }
            Next::Simultaneous(set) => {
                for seat in set.iter() {
                    game.legal_actions_with(seat, dealer.knowledge(seat), &mut legal);
                    let i = sim::uniform_by_multiply(legal.len() as u64, &mut || picks.next_u64());
                    choices.push((seat, legal[i as usize].clone()));
                }
                for (seat, action) in choices.drain(..) {
                    game.apply_legal_action(seat, &action, &mut scratch)
                        .map_err(|e| refused(&e))?;
                }
            }
            Next::Decision(seat) => {
                game.legal_actions_with(seat, dealer.knowledge(seat), &mut legal);
                let i = sim::uniform_by_multiply(legal.len() as u64, &mut || picks.next_u64());
                let action = &legal[i as usize];
                let claims = Nereus::claims(action);
                if claims.is_empty() {
                    game.apply_legal_action(seat, action, &mut scratch)
                        .map_err(|e| refused(&e))?;
                } else {
                    let handles: Vec<_> = claims.iter().map(|c| c.handle).collect();
                    let revealed = dealer.reveal(&handles).map_err(|e| refused(&e))?;
                    game.apply_action_revealing(seat, action, &revealed, &mut scratch)
                        .map_err(|e| refused(&e))?;
                }
            }
        }
    }
    Err(refused(&"the game does not end"))
}

/// Nanoseconds this thread has run on a CPU, where Linux tells.
fn on_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}
