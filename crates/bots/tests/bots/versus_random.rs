//! The heuristic bot against three random bots in 4-seat games, in the base
//! game and with the "Just One More Contract" expansion.
//!
//! `BOTS_GAMES` sets the number of seeded games per test (default 200,
//! which keeps CI on two cores fast); the heuristic bot takes each seat in
//! turn and must win (rank first, alone or shared) at least 95% of them.

use roundtable_bots::arena::play_port_royal;
use roundtable_bots::{Bot, PortRoyalBot, RandomBot};
use roundtable_engine::Seat;
use roundtable_port_royal::{Options, PortRoyal};

fn games() -> u64 {
    std::env::var("BOTS_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200)
}

/// Play `games` seeded games and return the heuristic bot's win rate.
fn win_rate(options: &Options, label: &str, games: u64) -> f64 {
    let (mut wins, mut shared) = (0u64, 0u64);
    let mut vp_total = 0i64;
    for g in 0..games {
        let hero = Seat((g % 4) as u8);
        let mut bots: Vec<Box<dyn Bot<PortRoyal>>> = (0..4u8)
            .map(|s| -> Box<dyn Bot<PortRoyal>> {
                if s == hero.0 {
                    Box::new(PortRoyalBot::new(options))
                } else {
                    Box::new(RandomBot::new(g * 16 + u64::from(s)))
                }
            })
            .collect();
        let result = play_port_royal(options, 0xB07 + g, &mut bots, &mut |_| {})
            .unwrap_or_else(|e| panic!("game {g}: {e}"));
        let standing = &result.standings[hero.index()];
        vp_total += standing.score;
        if standing.rank == 0 {
            wins += 1;
            if result.winners().len() > 1 {
                shared += 1;
            }
        }
    }
    let rate = wins as f64 / games as f64;
    println!(
        "{label}: heuristic vs 3 random: won {wins} of {games} 4-seat games ({:.1}%, {shared} shared), {:.1} VP on average",
        rate * 100.0,
        vp_total as f64 / games as f64
    );
    rate
}

#[test]
fn heuristic_bot_beats_random_bots() {
    let games = games();
    let rate = win_rate(&Options::default(), "base game", games);
    assert!(rate >= 0.95, "won only {:.1}% of {games}", rate * 100.0);
}

#[test]
fn heuristic_bot_beats_random_bots_with_the_expansion() {
    let games = games();
    let options = Options {
        expansion: true,
        ..Options::default()
    };
    let rate = win_rate(&options, "expansion", games);
    assert!(rate >= 0.95, "won only {:.1}% of {games}", rate * 100.0);
}
