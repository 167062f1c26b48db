//! What playing for the expansion's contracts is worth: 4-seat games with
//! "Just One More Contract", two contract-aware heuristic bots against two
//! contract-blind ones (the same heuristic that never declines coins and
//! hires, draws and keeps without regard to contracts), seats rotating.
//!
//! `cargo run --release -p roundtable-bots --example contracts -- [GAMES]`

use roundtable_bots::arena::play_port_royal;
use roundtable_bots::{Bot, PortRoyalBot};
use roundtable_port_royal::{Options, PortRoyal};

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let options = Options {
        expansion: true,
        ..Options::default()
    };
    // Per side: games won (a shared first place counts for each sharer),
    // and victory points summed.
    let mut wins = [0u64; 2];
    let mut vp = [0i64; 2];
    for g in 0..games {
        // Seats 0 and 2 aware in even games, 1 and 3 in odd ones.
        let aware = |s: u64| (s + g).is_multiple_of(2);
        let mut bots: Vec<Box<dyn Bot<PortRoyal>>> = (0..4u64)
            .map(|s| -> Box<dyn Bot<PortRoyal>> {
                if aware(s) {
                    Box::new(PortRoyalBot::new(&options))
                } else {
                    Box::new(PortRoyalBot::contract_blind(&options))
                }
            })
            .collect();
        let result = match play_port_royal(&options, 0xC0 + g, &mut bots, &mut |_| {}) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("game {g}: {e}");
                continue;
            }
        };
        for st in &result.standings {
            let side = usize::from(!aware(u64::from(st.seat.0)));
            vp[side] += st.score;
            if st.rank == 0 {
                wins[side] += 1;
            }
        }
    }
    let total = (wins[0] + wins[1]).max(1) as f64;
    println!(
        "{games} expansion games, 2 contract-aware vs 2 contract-blind heuristic bots: \
         aware won {:.1}% of first places ({} vs {}), {:.2} vs {:.2} VP per seat",
        100.0 * wins[0] as f64 / total,
        wins[0],
        wins[1],
        vp[0] as f64 / (2 * games) as f64,
        vp[1] as f64 / (2 * games) as f64,
    );
}
