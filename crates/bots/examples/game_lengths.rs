//! How long Port Royal games last, in rounds and chance events, by seat
//! count, expansion and victory-point target, for heuristic and random bots:
//! the figures behind the victory-point range and the round limit
//! (`roundtable_port_royal::VICTORY_POINTS`, `ROUND_LIMIT`).
//!
//! A game that has not ended after `--cap` rounds is stopped and counted as
//! one that never ends. A chance event is one link of every seat's hash chain
//! (protocol/SPEC.md 2.3), so the chance figures say whether a game can
//! outlive a chain.
//!
//! ```sh
//! cargo run --release -p roundtable-bots --example game_lengths -- \
//!     [--games N] [--random-games N] [--cap ROUNDS] [--vp LIST] [--seats LIST] \
//!     [--expansion no|yes|both]
//! ```
//!
//! `LIST` is comma-separated numbers or `A-B` ranges (`--vp 1-60`).

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_bots::{Bot, PortRoyalBot, RandomBot};
use roundtable_engine::{Game, Next, Observer, sim};
use roundtable_port_royal::{Event, Options, PortRoyal};

/// How one game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    /// A seat reached the target and the round was finished.
    Target,
    /// The round limit ended it.
    RoundLimit,
    /// No card could move for a whole round.
    DeadEnd,
    /// Still running at the cap.
    Capped,
}

/// One game's length.
#[derive(Clone, Copy, Debug)]
struct Length {
    rounds: u32,
    chances: u32,
    /// The most chance events in one turn.
    turn_chances: u32,
    ending: Ending,
}

fn play(options: &Options, seats: u8, seed: u64, heuristic: bool, cap: u32) -> Length {
    let mut game = match PortRoyal::new_game(seats, options) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("cannot set up {seats} seats with {options:?}: {e}");
            std::process::exit(2);
        }
    };
    let mut bots: Vec<Box<dyn Bot<PortRoyal>>> = (0..u64::from(seats))
        .map(|i| -> Box<dyn Bot<PortRoyal>> {
            if heuristic {
                Box::new(PortRoyalBot::new(options))
            } else {
                Box::new(RandomBot::new(seed.wrapping_mul(31).wrapping_add(i)))
            }
        })
        .collect();
    let mut chance = ChaCha20Rng::seed_from_u64(seed);
    let mut events = Vec::new();
    let mut legal = Vec::new();
    let mut chances = 0u32;
    let mut turn_start = 0u32;
    let mut turn_chances = 0u32;
    let mut ending = None;
    let rounds = |g: &PortRoyal| g.view(Observer::Spectator).turn.div_ceil(u32::from(seats));
    loop {
        events.clear();
        match game.next() {
            Next::Over => break,
            Next::Simultaneous(_) | Next::Private(_) => {
                unreachable!("Port Royal has no simultaneous choices or private cards")
            }
            Next::Chance(request) => {
                let outcome = sim::sample(&request.distribution, &mut |n| {
                    sim::uniform_below(n, &mut || chance.next_u64())
                });
                if let Err(e) = game.apply_chance(&outcome, &mut events) {
                    panic!("the rules refused their own chance outcome: {e}");
                }
                chances += 1;
                turn_chances = turn_chances.max(chances - turn_start);
            }
            Next::Decision(seat) => {
                game.legal_actions(seat, &mut legal);
                let view = game.view(Observer::Seat(seat));
                let pick = bots[seat.index()].choose(seat, &view, &legal);
                let action = legal[pick.min(legal.len() - 1)];
                if let Err(e) = game.apply_action(seat, &action, &mut events) {
                    panic!("the rules refused their own offer: {e}");
                }
            }
        }
        for e in &events {
            match e {
                Event::TurnStarted { .. } => turn_start = chances,
                Event::EndTriggered { .. } => ending = Some(Ending::Target),
                Event::RoundLimitReached { .. } => ending = Some(Ending::RoundLimit),
                Event::GameOver { .. } if ending.is_none() => ending = Some(Ending::DeadEnd),
                _ => {}
            }
        }
        if rounds(&game) > cap {
            ending = Some(Ending::Capped);
            break;
        }
    }
    Length {
        rounds: rounds(&game).min(cap),
        chances,
        turn_chances,
        ending: ending.unwrap_or(Ending::Capped),
    }
}

fn parse_list(text: &str) -> Vec<u32> {
    let mut out = Vec::new();
    for part in text.split(',') {
        let bounds: Vec<u32> = part
            .split('-')
            .filter_map(|n| n.trim().parse().ok())
            .collect();
        match bounds[..] {
            [n] => out.push(n),
            [a, b] => out.extend(a..=b),
            _ => {
                eprintln!("not a number or a range: {part:?}");
                std::process::exit(2);
            }
        }
    }
    out
}

fn percentile(sorted: &[u32], p: f64) -> u32 {
    if sorted.is_empty() {
        return 0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

fn main() {
    let mut games = 200u64;
    let mut random_games = 40u64;
    let mut cap = 1000u32;
    let mut targets = parse_list("1-60");
    let mut seat_counts = parse_list("2-5");
    let mut expansions = vec![false, true];
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().unwrap_or_default();
        match flag.as_str() {
            "--games" => games = value.parse().unwrap_or(games),
            "--random-games" => random_games = value.parse().unwrap_or(random_games),
            "--cap" => cap = value.parse().unwrap_or(cap),
            "--vp" => targets = parse_list(&value),
            "--seats" => seat_counts = parse_list(&value),
            "--expansion" => {
                expansions = match value.as_str() {
                    "no" => vec![false],
                    "yes" => vec![true],
                    _ => vec![false, true],
                }
            }
            _ => {
                eprintln!("unknown flag {flag}");
                std::process::exit(2);
            }
        }
    }
    println!(
        "bots      exp seats vp  games  rounds:med p99 max  chances:med max turn  \
         ended:target limit dead never  most-chances-seed"
    );
    for heuristic in [true, false] {
        let n = if heuristic { games } else { random_games };
        if n == 0 {
            continue;
        }
        for &expansion in &expansions {
            for &seats in &seat_counts {
                for &vp in &targets {
                    let options = Options {
                        expansion,
                        victory_points: vp,
                        ..Options::default()
                    };
                    let lengths: Vec<Length> = (0..n)
                        .map(|seed| play(&options, seats as u8, seed, heuristic, cap))
                        .collect();
                    let worst_seed = (0..n)
                        .zip(&lengths)
                        .max_by_key(|(_, l)| l.chances)
                        .map_or(0, |(seed, _)| seed);
                    let mut rounds: Vec<u32> = lengths.iter().map(|l| l.rounds).collect();
                    let mut chances: Vec<u32> = lengths.iter().map(|l| l.chances).collect();
                    rounds.sort_unstable();
                    chances.sort_unstable();
                    let count = |e: Ending| lengths.iter().filter(|l| l.ending == e).count();
                    println!(
                        "{:<9} {:<3} {:>5} {:>3} {:>6}  {:>10} {:>3} {:>4}  {:>11} {:>4} {:>4}  \
                         {:>12} {:>5} {:>4} {:>5}  {:>17}",
                        if heuristic { "heuristic" } else { "random" },
                        if expansion { "yes" } else { "no" },
                        seats,
                        vp,
                        n,
                        percentile(&rounds, 0.5),
                        percentile(&rounds, 0.99),
                        rounds.last().copied().unwrap_or(0),
                        percentile(&chances, 0.5),
                        chances.last().copied().unwrap_or(0),
                        lengths.iter().map(|l| l.turn_chances).max().unwrap_or(0),
                        count(Ending::Target),
                        count(Ending::RoundLimit),
                        count(Ending::DeadEnd),
                        count(Ending::Capped),
                        worst_seed,
                    );
                }
            }
        }
    }
}
