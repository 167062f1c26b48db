//! A game of Port Royal between three random bots, each a full peer at its
//! own in-process table: its own key and hash chain, every input a signed
//! envelope that every other table checks. It is the protocol of a network
//! game without the network.
//!
//!     cargo run -p roundtable-examples --example local_game [SEED]

use roundtable_bots::RandomBot;
use roundtable_local::{LocalGame, Player, Progress};
use roundtable_port_royal::{Options, PortRoyal};
use roundtable_table::Config;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seed: u64 = match std::env::args().nth(1) {
        Some(arg) => arg.parse()?,
        None => 1,
    };
    // One player per seat, in joining order; keys and chains come from the
    // seed, so the same seed plays the same game (fine for bots, never for
    // a person: see `LocalGame::with_fresh_secrets`).
    let players = ["Anne", "Mary", "Calico"]
        .into_iter()
        .zip(0..)
        .map(|(name, i)| {
            let bot: Player<PortRoyal> = Player::Bot(Box::new(RandomBot::new(seed + i)));
            (name.to_owned(), bot)
        })
        .collect();
    let mut game =
        LocalGame::<PortRoyal>::new(&Options::default(), seed, players, None, Config::default())?;
    // Every seat is a bot, so the tables play to the end.
    if game.run()? != Progress::Finished {
        return Err("the game stopped before its end".into());
    }
    let inputs = game.drain_applied().count();
    let result = game.result().ok_or("the game ended without a result")?;
    let mut standings = result.standings.clone();
    standings.sort_by_key(|s| (s.rank, s.seat));
    for s in &standings {
        println!(
            "#{} {}: {} VP",
            s.rank + 1,
            game.names()[s.seat.index()],
            s.score
        );
    }
    let traffic = game.traffic();
    println!(
        "{inputs} inputs applied; {} envelopes, {} bytes broadcast",
        traffic.envelopes, traffic.bytes
    );
    Ok(())
}
