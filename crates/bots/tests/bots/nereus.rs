//! The heuristic Nereus bot against three random bots in 4-seat games.
//!
//! `BOTS_GAMES` sets the number of seeded games (default 24, for a debug
//! build on two cores); the heuristic bot takes each seat in turn and must
//! win (rank first) at least 90% of them. The release example
//! `heuristic_strength nereus` measures more games and the time per
//! decision.

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_bots::{Bot, NereusBot, RandomBot};
use roundtable_engine::{Game, Seat, sim};
use roundtable_nereus::{Nereus, Options};

fn games() -> u64 {
    std::env::var("BOTS_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24)
}

fn hero_wins(seats: u8, options: &Options, seed: u64) -> bool {
    let hero = Seat((seed % u64::from(seats)) as u8);
    let mut game = Nereus::new_game(seats, options).expect("a legal seat count");
    let mut dealer = sim::OracleDealer::new(seats);
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut bot = NereusBot::new();
    let mut randoms: Vec<RandomBot> = (0..u64::from(seats))
        .map(|i| RandomBot::new(seed * 4 + i))
        .collect();
    sim::play_private(
        &mut game,
        &mut dealer,
        1_000_000,
        &mut |n| sim::uniform_below(n, &mut || rng.next_u64()),
        &mut |seat, state, knowledge, legal| {
            if seat == hero {
                bot.choose_in(seat, state, knowledge, legal)
            } else {
                Bot::<Nereus>::choose_in(&mut randoms[seat.index()], seat, state, knowledge, legal)
            }
        },
        &mut |_, _| {},
    )
    .unwrap_or_else(|e| panic!("game {seed}: {e}"));
    let result = game.result().expect("the game is over");
    result.standings[hero.index()].rank == 0
}

#[test]
fn heuristic_beats_three_random_bots() {
    let games = games();
    let wins = (0..games)
        .filter(|&g| hero_wins(4, &Options::default(), g))
        .count() as u64;
    println!("nereus heuristic vs 3 random: won {wins} of {games} 4-seat games");
    assert!(wins * 10 >= games * 9, "won only {wins} of {games}");
}

#[test]
fn heuristic_beats_a_random_bot_with_the_neutral_ship() {
    let games = games() / 2;
    let options = Options { neutral_ship: true };
    let wins = (0..games).filter(|&g| hero_wins(2, &options, g)).count() as u64;
    println!("nereus heuristic vs random, neutral ship: won {wins} of {games}");
    assert!(wins * 10 >= games * 9, "won only {wins} of {games}");
}
