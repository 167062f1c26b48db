//! `roundtable play`: a local game between bots, printed as a log. Every bot
//! is a full peer at its own in-process table (own key, own hash chain,
//! signed envelopes), so this is the same protocol as a game over the network.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use roundtable_bots::RandomBot;
use roundtable_local::{LocalGame, Player, Progress};
use roundtable_port_royal::{Options, PortRoyal};
use roundtable_table::Config;

/// Options of `roundtable play`.
#[derive(Debug, clap::Args)]
pub(crate) struct PlayArgs {
    /// Seats at the table (2 to 5).
    #[arg(long, default_value_t = 4)]
    seats: u8,
    /// Seed for the keys, the chains and the bots; a fresh one when omitted.
    #[arg(long)]
    seed: Option<u64>,
    /// A rule option as key=value (victory_points=8, pass_automatically=true, ...).
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// Also write the game's transcript here (check it with `roundtable audit`).
    #[arg(long)]
    transcript: Option<PathBuf>,
}

impl Default for PlayArgs {
    fn default() -> Self {
        PlayArgs {
            seats: 4,
            seed: None,
            options: Vec::new(),
            transcript: None,
        }
    }
}

pub(crate) fn run(args: &PlayArgs) -> crate::Outcome {
    Ok(play(args, &mut crate::output::stdout())?)
}

fn play(args: &PlayArgs, out: &mut impl Write) -> Result<ExitCode> {
    let options: Options = crate::parse_options(&args.options)?;
    roundtable_table::genesis::check_terms::<PortRoyal>(args.seats, &options)?;
    let seed = args.seed.unwrap_or_else(roundtable_tui::local::fresh_seed);
    let players = (0..args.seats)
        .map(|i| {
            let bot = RandomBot::new(seed.wrapping_add(u64::from(i) + 1));
            (
                format!("bot {}", i + 1),
                Player::<PortRoyal>::Bot(Box::new(bot)),
            )
        })
        .collect();
    let mut game = LocalGame::new(
        &options,
        seed,
        players,
        args.transcript.as_deref(),
        Config::default(),
    )
    .context("setting up the game")?;
    writeln!(
        out,
        "Port Royal, {} seats, seed {seed} (replay with --seed {seed})",
        args.seats
    )?;
    loop {
        let progress = game.settle()?;
        for applied in game.drain_applied() {
            for e in &applied.events {
                writeln!(out, "{e}")?;
            }
        }
        match progress {
            Progress::Bot(seat) => game.move_bot(seat)?,
            Progress::Finished => break,
            Progress::Human(_) => anyhow::bail!("no person sits at this table"),
        }
    }
    let result = game
        .result()
        .context("the game ended without a result")?
        .clone();
    writeln!(out, "\nResult:")?;
    let mut standings = result.standings;
    standings.sort_by_key(|s| (s.rank, s.seat));
    for s in &standings {
        writeln!(
            out,
            "  #{} {} ({}): {} VP, {} coins",
            s.rank + 1,
            s.seat,
            game.names()[s.seat.index()],
            s.score,
            s.tie_break
        )?;
    }
    if let Some(path) = &args.transcript {
        writeln!(out, "transcript: {}", path.display())?;
    }
    Ok(ExitCode::SUCCESS)
}
