//! `roundtable selfplay`: bots play a whole game as full peers through the
//! table protocol in one process — real keys, real chains, real envelopes —
//! and the transcript is written for `roundtable audit`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use roundtable_engine::Game;
use roundtable_local::{LocalGame, Progress};
use roundtable_port_royal::PortRoyal;
use roundtable_table::Config;

use crate::bot_choice::{BotArgs, seated_bots};

/// Options of `roundtable selfplay`.
#[derive(Debug, clap::Args)]
pub(crate) struct SelfplayArgs {
    /// The game.
    #[arg(long, default_value = "port-royal")]
    game: String,
    /// Seats (each a bot with its own key and chain).
    #[arg(long, default_value_t = 4)]
    seats: u8,
    /// Makes keys, chain seeds and the bots' choices reproducible.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    bots: BotArgs,
    /// Where to write the transcript.
    #[arg(long)]
    transcript: PathBuf,
    /// A rule option as key=value.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
}

pub(crate) fn run(args: &SelfplayArgs) -> crate::Outcome {
    Ok(selfplay(args, &mut crate::output::stdout())?)
}

fn selfplay(args: &SelfplayArgs, out: &mut impl Write) -> Result<ExitCode> {
    if args.game != PortRoyal::NAME {
        bail!("unknown game {:?} (known: {})", args.game, PortRoyal::NAME);
    }
    let options = crate::parse_options(&args.options)?;
    roundtable_table::genesis::check_terms::<PortRoyal>(args.seats, &options)?;
    let bot_seed = args.bots.bot_seed.unwrap_or(args.seed);
    let players = seated_bots(args.bots.bot, args.seed, bot_seed, args.seats);
    let mut game = LocalGame::<PortRoyal>::new(
        &options,
        args.seed,
        players,
        Some(&args.transcript),
        Config::default(),
    )?;
    if game.run()? != Progress::Finished {
        bail!("the game stopped before its end");
    }
    writeln!(out, "game {}", game.game_id())?;
    let result = game
        .result()
        .cloned()
        .ok_or_else(|| anyhow::anyhow!("no result"))?;
    let mut standings = result.standings;
    standings.sort_by_key(|s| (s.rank, s.seat));
    for s in &standings {
        writeln!(
            out,
            "#{} {}: {} VP, {} coins",
            s.rank + 1,
            roundtable_tui::text::seat_name(game.names(), s.seat),
            s.score,
            s.tie_break
        )?;
    }
    writeln!(
        out,
        "{} inputs; transcript {}",
        game.table(game.observed_seat()).position(),
        args.transcript.display()
    )?;
    Ok(ExitCode::SUCCESS)
}
