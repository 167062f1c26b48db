//! `roundtable play`: a local game between bots, printed as a log. Every bot
//! is a full peer at its own in-process table (own key, own hash chain,
//! signed envelopes), so this is the same protocol as a game over the network.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use roundtable_local::{LocalGame, Progress};
use roundtable_port_royal::{Options, PortRoyal};
use roundtable_table::Config;
use roundtable_tui::text::event_line;

use crate::bot_choice::{BotArgs, BotKind, seated_bots};

/// Options of `roundtable play`.
#[derive(Debug, clap::Args)]
pub(crate) struct PlayArgs {
    /// Seats at the table (2 to 5).
    #[arg(long, default_value_t = 4)]
    seats: u8,
    /// Seed for the keys, the chains and the bots; a fresh one when omitted.
    #[arg(long)]
    seed: Option<u64>,
    #[command(flatten)]
    bots: BotArgs,
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
            bots: BotArgs::default(),
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
    let bot_seed = args.bots.bot_seed.unwrap_or(seed);
    let players = seated_bots(args.bots.bot, seed, bot_seed, args.seats);
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
        "Port Royal, {} seats, {} bots, seed {seed} (replay with --seed {seed}{})",
        args.seats,
        args.bots.bot.name(),
        replay_flags(&args.bots)
    )?;
    // The names are in the genesis, fixed for the game.
    let names = game.names().to_vec();
    loop {
        let progress = game.settle()?;
        for applied in game.drain_applied() {
            // In the words of the terminal UI's log; events another line
            // already tells have none.
            for line in applied
                .events
                .iter()
                .filter_map(|e| event_line(e, &names, None))
            {
                writeln!(out, "{line}")?;
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
            "  #{} {}: {} VP, {} coins",
            s.rank + 1,
            roundtable_tui::text::seat_name(&names, s.seat),
            s.score,
            s.tie_break
        )?;
    }
    if let Some(path) = &args.transcript {
        writeln!(out, "transcript: {}", path.display())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The bot flags that, with `--seed`, play the same game again.
fn replay_flags(bots: &BotArgs) -> String {
    match (bots.bot, bots.bot_seed) {
        (BotKind::Heuristic, _) => String::new(),
        (BotKind::Random, None) => " --bot random".into(),
        (BotKind::Random, Some(seed)) => format!(" --bot random --bot-seed {seed}"),
    }
}
