//! A game of bots at in-process tables as `play` and `selfplay` set it up
//! and rank it: the same flags, the same checks, the same ranking lines.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use roundtable_engine::GameResult;
use roundtable_games::Listed;
use roundtable_local::LocalGame;
use roundtable_table::Config;

use crate::bot_choice::{BotArgs, BotKind, Lineup, lineup_for_seats, seated_bots};

/// The flags a game of bots is set up from.
pub(crate) struct BotsSetup<'a> {
    /// `--option KEY=VALUE`, each.
    pub(crate) options: &'a [String],
    /// `--seats`.
    pub(crate) seats: Option<u8>,
    /// `--bots`.
    pub(crate) lineup: Option<&'a Lineup>,
    /// `--bot`, `--bot-seed`, `--think-ms`.
    pub(crate) bots: &'a BotArgs,
    /// The seed of the keys and chains (and of the bots without
    /// `--bot-seed`).
    pub(crate) seed: u64,
    /// Where to write the transcript, if anywhere.
    pub(crate) transcript: Option<&'a Path>,
}

/// A game of bots, founded and not yet played.
pub(crate) struct BotsGame<G: Listed> {
    /// The in-process tables.
    pub(crate) game: LocalGame<G>,
    /// The bot of each seat, in seat order.
    pub(crate) kinds: Vec<BotKind>,
}

impl BotsSetup<'_> {
    /// Check the options and the seats against the game's terms, seat the
    /// bots and found the game.
    pub(crate) fn start<G: Listed>(&self) -> Result<BotsGame<G>> {
        let options: G::Options = crate::parse_options::<G>(self.options)?;
        let kinds = lineup_for_seats(self.seats, self.lineup, self.bots)?;
        let seats = u8::try_from(kinds.len()).unwrap_or(u8::MAX);
        roundtable_table::genesis::check_terms::<G>(seats, &options)?;
        let bot_seed = self.bots.bot_seed.unwrap_or(self.seed);
        let players = seated_bots::<G>(&kinds, self.bots.think(), self.seed, bot_seed);
        let game = LocalGame::new(
            &options,
            self.seed,
            players,
            self.transcript,
            Config::default(),
        )
        .context("setting up the game")?;
        Ok(BotsGame { game, kinds })
    }
}

/// Write the ranking, one line a seat from the winner, each line started
/// with `indent`: rank, name, score and the game's tie-break in words; a
/// table of mixed bots says which bot is which.
pub(crate) fn write_standings<G: Listed>(
    out: &mut impl Write,
    indent: &str,
    result: &GameResult,
    names: &[String],
    kinds: &[BotKind],
) -> std::io::Result<()> {
    let mut standings = result.standings.clone();
    standings.sort_by_key(|s| (s.rank, s.seat));
    let mixed = kinds.iter().any(|k| Some(k) != kinds.first());
    for s in &standings {
        let kind = kinds
            .get(s.seat.index())
            .filter(|_| mixed)
            .map(|k| format!(" ({})", k.name()))
            .unwrap_or_default();
        writeln!(
            out,
            "{indent}#{} {}{kind}: {} VP, {}",
            s.rank + 1,
            roundtable_games::words::seat_name(names, s.seat),
            s.score,
            G::tie_break_words(s.tie_break)
        )?;
    }
    Ok(())
}
