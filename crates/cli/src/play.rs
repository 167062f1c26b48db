//! `roundtable play`: a local game between bots, printed as a log. Every bot
//! is a full peer at its own in-process table (own key, own hash chain,
//! signed envelopes), so this is the same protocol as a game over the network.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use roundtable_games::{GameId, Listed, Visit};
use roundtable_local::Progress;

use crate::bot_choice::{BotArgs, BotKind, Lineup, lineup_words};
use crate::bot_game::{BotsGame, BotsSetup, write_standings};

/// Options of `roundtable play`.
#[derive(Debug, Default, clap::Args)]
pub(crate) struct PlayArgs {
    /// The game, by its name in the list of games (port-royal by default);
    /// a name not in the list is answered with the list.
    #[arg(long, value_name = "NAME")]
    game: Option<String>,
    /// Seats at the table, as many as the game is played by (default 4, or
    /// one for each of `--bots`).
    #[arg(long)]
    seats: Option<u8>,
    /// Seed for the keys, the chains and the bots; when omitted,
    /// `ROUNDTABLE_SEED` if set, else a fresh one.
    #[arg(long)]
    seed: Option<u64>,
    #[command(flatten)]
    bots: BotArgs,
    /// The bot of each seat in turn, comma-separated
    /// (`search,heuristic,heuristic,heuristic`; `easy`, `normal`, `hard`
    /// name the levels), instead of `--bot` for every seat.
    #[arg(long = "bots", value_name = "BOT,BOT,...", conflicts_with = "bot")]
    lineup: Option<Lineup>,
    /// A rule option of the game as key=value (Port Royal: victory_points=8,
    /// expansion=true, ...; Guildhall: refill_after_paying=false,
    /// max_rounds=60, ...).
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// Also write the game's transcript here (check it with `roundtable audit`).
    #[arg(long)]
    transcript: Option<PathBuf>,
}

pub(crate) fn run(args: &PlayArgs) -> crate::Outcome {
    let game = crate::game_named(args.game.as_deref().unwrap_or(GameId::PortRoyal.name()))?;
    let out = &mut crate::output::stdout();
    Ok(game.visit(Play { args, out })?)
}

/// `play` for the game `--game` names.
struct Play<'a, W> {
    args: &'a PlayArgs,
    out: &'a mut W,
}

impl<W: Write> Visit for Play<'_, W> {
    type Output = Result<ExitCode>;

    fn visit<G: Listed>(self) -> Result<ExitCode> {
        play::<G>(self.args, self.out)
    }
}

fn play<G: Listed>(args: &PlayArgs, out: &mut impl Write) -> Result<ExitCode> {
    let seed = match args.seed {
        Some(seed) => seed,
        None => crate::seed_from_env()?.unwrap_or_else(roundtable_local::fresh_seed),
    };
    let BotsGame { mut game, kinds } = BotsSetup {
        options: &args.options,
        seats: args.seats,
        lineup: args.lineup.as_ref(),
        bots: &args.bots,
        seed,
        transcript: args.transcript.as_deref(),
    }
    .start::<G>()?;
    let seats = kinds.len();
    writeln!(
        out,
        "{}, {seats} seats, {}, seed {seed} (replay with{} --seed {seed}{}){}",
        G::TITLE,
        bots_words(&kinds),
        game_flag::<G>(),
        replay_flags(&kinds, &args.bots),
        if kinds.contains(&BotKind::Search) {
            "; a search bot thinks for a time, so its moves depend on the machine's speed"
        } else {
            ""
        }
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
                .filter_map(|e| G::event_line(e, &names, None))
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
    write_standings::<G>(out, "  ", &result, &names, &kinds)?;
    if let Some(path) = &args.transcript {
        writeln!(out, "transcript: {}", path.display())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The bots of a table in words: "heuristic bots", or each in seat order.
fn bots_words(kinds: &[BotKind]) -> String {
    match kinds.first() {
        Some(first) if kinds.iter().all(|k| k == first) => format!("{} bots", first.name()),
        _ => format!("bots {}", lineup_words(kinds)),
    }
}

/// The `--game` flag that plays `G` again (none for the default game).
fn game_flag<G: Listed>() -> String {
    if G::NAME == GameId::PortRoyal.name() {
        String::new()
    } else {
        format!(" --game {}", G::NAME)
    }
}

/// The bot flags that, with `--seed`, play the same game again.
fn replay_flags(kinds: &[BotKind], bots: &BotArgs) -> String {
    let mut flags = match kinds.first() {
        Some(BotKind::Heuristic) if kinds.iter().all(|k| *k == BotKind::Heuristic) => String::new(),
        Some(first) if kinds.iter().all(|k| k == first) => format!(" --bot {}", first.name()),
        _ => format!(" --bots {}", lineup_words(kinds)),
    };
    // Only the bots that draw at random have a seed to give.
    let random = kinds
        .iter()
        .any(|k| matches!(k, BotKind::Random | BotKind::Easy | BotKind::Search));
    if let (true, Some(seed)) = (random, bots.bot_seed) {
        flags.push_str(&format!(" --bot-seed {seed}"));
    }
    if kinds.contains(&BotKind::Search) {
        flags.push_str(&format!(" --think-ms {}", bots.think_ms));
    }
    flags
}
