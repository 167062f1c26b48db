//! The heuristic bot against three random bots in 4-seat games.
//!
//! `BOTS_GAMES` sets the number of seeded games (default 200, which keeps CI
//! on two cores fast); the heuristic bot takes each seat in turn and must win
//! (rank first, alone or shared) at least 95% of them.

use roundtable_bots::arena::play_port_royal;
use roundtable_bots::{Bot, PortRoyalBot, RandomBot};
use roundtable_engine::Seat;
use roundtable_port_royal::{Options, PortRoyal};

#[test]
fn heuristic_bot_beats_random_bots() {
    let games: u64 = std::env::var("BOTS_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let options = Options::default();
    let (mut wins, mut shared) = (0u64, 0u64);
    let mut vp_total = 0i64;
    for g in 0..games {
        let hero = Seat((g % 4) as u8);
        let mut bots: Vec<Box<dyn Bot<PortRoyal>>> = (0..4u8)
            .map(|s| -> Box<dyn Bot<PortRoyal>> {
                if s == hero.0 {
                    Box::new(PortRoyalBot::new(&options))
                } else {
                    Box::new(RandomBot::new(g * 16 + u64::from(s)))
                }
            })
            .collect();
        let result = play_port_royal(&options, 0xB07 + g, &mut bots, &mut |_| {})
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
        "heuristic vs 3 random: won {wins} of {games} 4-seat games ({:.1}%, {shared} shared), {:.1} VP on average",
        rate * 100.0,
        vp_total as f64 / games as f64
    );
    assert!(rate >= 0.95, "won only {wins} of {games}");
}
