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

use crate::bot_choice::{BotArgs, Lineup, lineup_for_seats, seated_bots};

/// Options of `roundtable selfplay`.
#[derive(Debug, clap::Args)]
pub(crate) struct SelfplayArgs {
    /// The game.
    #[arg(long, default_value = "port-royal")]
    game: String,
    /// Seats, each a bot with its own key and chain (default 4, or one for
    /// each of `--bots`).
    #[arg(long)]
    seats: Option<u8>,
    /// Makes keys, chain seeds and the bots' choices reproducible.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    bots: BotArgs,
    /// The bot of each seat in turn, comma-separated
    /// (`search,heuristic,heuristic,heuristic`), instead of `--bot` for
    /// every seat.
    #[arg(long = "bots", value_name = "BOT,BOT,...", conflicts_with = "bot")]
    lineup: Option<Lineup>,
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
    let kinds = lineup_for_seats(args.seats, args.lineup.as_ref(), &args.bots)?;
    let seats = u8::try_from(kinds.len()).unwrap_or(u8::MAX);
    roundtable_table::genesis::check_terms::<PortRoyal>(seats, &options)?;
    let bot_seed = args.bots.bot_seed.unwrap_or(args.seed);
    let players = seated_bots(&kinds, args.bots.think(), args.seed, bot_seed);
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
    let mixed = kinds.iter().any(|k| *k != kinds[0]);
    for s in &standings {
        // A mixed table's ranking says which bot is which.
        let kind = kinds
            .get(s.seat.index())
            .filter(|_| mixed)
            .map(|k| format!(" ({})", k.name()))
            .unwrap_or_default();
        writeln!(
            out,
            "#{} {}{kind}: {} VP, {} coins",
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
