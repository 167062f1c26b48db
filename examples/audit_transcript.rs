//! An audit of a Port Royal transcript from one library call: replay every
//! signed input as an observer, checking every signature, hash-chain link,
//! beacon, state hash and rule, and say whether the game is valid and who
//! won.
//!
//!     cargo run -p roundtable-examples --example audit_transcript [FILE]
//!
//! Without FILE it first plays a game between bots at in-process tables and
//! writes its transcript to a temporary file (as `roundtable selfplay
//! --transcript FILE` does).

use std::path::PathBuf;

use roundtable_bots::RandomBot;
use roundtable_local::{LocalGame, Player};
use roundtable_port_royal::{Options, PortRoyal};
use roundtable_table::{Config, audit, transcript};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = match std::env::args_os().nth(1) {
        Some(file) => PathBuf::from(file),
        None => play_a_game()?,
    };
    let file = transcript::read(&path)?;
    let report = audit::audit::<PortRoyal>(&file.frames)?;
    println!("{}: game {}", path.display(), report.game_id);
    println!("{} inputs replayed", report.inputs);
    for violation in &report.violations {
        println!("violation: {violation:?}");
    }
    for problem in &report.problems {
        println!("problem: {problem}");
    }
    if let Some(result) = &report.result {
        for seat in result.winners() {
            println!("winner: {}", report.names[seat.index()]);
        }
    }
    println!(
        "{}",
        if report.is_valid() {
            "VALID"
        } else {
            "NOT VALID"
        }
    );
    Ok(())
}

/// Play a game between two bots and write its transcript to a temporary
/// file.
fn play_a_game() -> Result<PathBuf, Box<dyn std::error::Error>> {
    let path =
        std::env::temp_dir().join(format!("roundtable-example-{}.rtlog", std::process::id()));
    let players = (0..2)
        .map(|i| {
            let bot: Player<PortRoyal> = Player::Bot(Box::new(RandomBot::new(i)));
            (format!("bot {}", i + 1), bot)
        })
        .collect();
    let mut game = LocalGame::<PortRoyal>::new(
        &Options::default(),
        7,
        players,
        Some(&path),
        Config::default(),
    )?;
    game.run()?;
    Ok(path)
}
