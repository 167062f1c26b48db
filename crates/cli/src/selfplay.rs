//! `roundtable selfplay`: bots play a whole game as full peers through the
//! table protocol in one process — real keys, real chains, real envelopes —
//! and the transcript is written for `roundtable audit`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use roundtable_games::{Listed, Visit};
use roundtable_local::Progress;

use crate::bot_choice::{BotArgs, Lineup};
use crate::bot_game::{BotsGame, BotsSetup, write_standings};

/// Options of `roundtable selfplay`.
#[derive(Debug, clap::Args)]
pub(crate) struct SelfplayArgs {
    /// The game, by its name in the list of games; a name not in the list
    /// is answered with the list.
    #[arg(long, default_value = "port-royal", value_name = "NAME")]
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
    /// A rule option of the game as key=value (as `play --option`).
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
}

pub(crate) fn run(args: &SelfplayArgs) -> crate::Outcome {
    let game = crate::game_named(&args.game)?;
    let out = &mut crate::output::stdout();
    Ok(game.visit(Selfplay { args, out })?)
}

/// `selfplay` for the game `--game` names.
struct Selfplay<'a, W> {
    args: &'a SelfplayArgs,
    out: &'a mut W,
}

impl<W: Write> Visit for Selfplay<'_, W> {
    type Output = Result<ExitCode>;

    fn visit<G: Listed>(self) -> Result<ExitCode> {
        selfplay::<G>(self.args, self.out)
    }
}

fn selfplay<G: Listed>(args: &SelfplayArgs, out: &mut impl Write) -> Result<ExitCode> {
    let BotsGame { mut game, kinds } = BotsSetup {
        options: &args.options,
        seats: args.seats,
        lineup: args.lineup.as_ref(),
        bots: &args.bots,
        seed: args.seed,
        transcript: Some(&args.transcript),
    }
    .start::<G>()?;
    if game.run()? != Progress::Finished {
        bail!("the game stopped before its end");
    }
    writeln!(out, "game {}", game.game_id())?;
    let result = game
        .result()
        .cloned()
        .ok_or_else(|| anyhow::anyhow!("no result"))?;
    write_standings::<G>(out, "", &result, game.names(), &kinds)?;
    writeln!(
        out,
        "{} inputs; transcript {}",
        game.table(game.observed_seat()).position(),
        args.transcript.display()
    )?;
    Ok(ExitCode::SUCCESS)
}
