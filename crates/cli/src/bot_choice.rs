//! Which computer player plays a seat: `--bot` for every bot of a command,
//! `--bots` for each bot in turn, `--think-ms` for how long a search bot
//! thinks, parsed the same way by `play`, `selfplay`, `host`, `join` and
//! `resume`.

use std::time::Duration;

use roundtable_bots::{Bot, Level, RandomBot};
use roundtable_games::Listed;

/// A kind of computer player, as `--bot` and `--bots` name it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum BotKind {
    /// Plays the game by rules of thumb, at once (the normal level).
    #[default]
    #[value(alias = "normal")]
    Heuristic,
    /// Picks any legal move at random (from `--bot-seed`).
    Random,
    /// Plays the heuristic's move half the time, else a random one.
    Easy,
    /// Searches ahead, up to `--think-ms` a decision (the hard level).
    #[value(alias = "hard")]
    Search,
}

impl BotKind {
    /// The name `--bot` takes.
    pub(crate) fn name(self) -> &'static str {
        match self {
            BotKind::Heuristic => "heuristic",
            BotKind::Random => "random",
            BotKind::Easy => "easy",
            BotKind::Search => "search",
        }
    }

    /// A bot of this kind for game `G`, thinking `think` a move if it
    /// searches; `seed` steers its random choices. The table tells a bot its
    /// options from the genesis (`Bot::table_options`): a joiner does not
    /// know them beforehand.
    pub(crate) fn make<G: Listed>(self, think: Duration, seed: u64) -> Box<dyn Bot<G>> {
        let options = G::Options::default();
        let level = match self {
            BotKind::Random => return Box::new(RandomBot::new(seed)),
            BotKind::Easy => Level::Easy,
            BotKind::Heuristic => Level::Normal,
            BotKind::Search => Level::Hard,
        };
        G::bot(level, &options, think, seed)
    }
}

/// Longest `--think-ms` anywhere: a minute a decision. At a network table
/// each answer is cut further, to a share of the time the seat has left on
/// its table's turn clock (`roundtable_bots::answer_limit`), so that the
/// table never claims a thinking bot stalled, whatever its stall timeout,
/// and to at most `roundtable_net::LONGEST_BOT_ANSWER`, the silence a node's
/// peers bear while its bot thinks.
pub(crate) const MAX_THINK_MS: u64 = 60_000;

/// The bot flags of every command where bots play.
#[derive(Clone, Debug, clap::Args)]
pub(crate) struct BotArgs {
    /// The computer player (`normal` is `heuristic`, `hard` is `search`).
    #[arg(long, value_enum, default_value_t = BotKind::Heuristic)]
    pub(crate) bot: BotKind,
    /// Seed of the bots' random choices (default: from `--seed` where the
    /// command has one, else a fresh one).
    #[arg(long)]
    pub(crate) bot_seed: Option<u64>,
    /// Milliseconds a search bot thinks at most on one decision, none when
    /// the move is forced (1 to 60000; at a network table at most 5000, and
    /// at most a quarter of the time left before the table may claim the
    /// seat stalled).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=MAX_THINK_MS))]
    pub(crate) think_ms: u64,
}

impl Default for BotArgs {
    fn default() -> Self {
        BotArgs {
            bot: BotKind::Heuristic,
            bot_seed: None,
            think_ms: 1000,
        }
    }
}

impl BotArgs {
    /// The most a search bot thinks on one decision.
    pub(crate) fn think(&self) -> Duration {
        Duration::from_millis(self.think_ms)
    }
}

/// The bots `--bots` asks for: a number of bots of the `--bot` kind, or a
/// kind for each bot in turn (`search,heuristic,easy`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Lineup {
    /// This many bots of the `--bot` kind.
    Count(u8),
    /// One bot of each kind, in seat order.
    Kinds(Vec<BotKind>),
}

impl Default for Lineup {
    fn default() -> Self {
        Lineup::Count(0)
    }
}

impl std::str::FromStr for Lineup {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        use clap::ValueEnum;
        if let Ok(count) = text.trim().parse::<u8>() {
            return Ok(Lineup::Count(count));
        }
        let kinds = text
            .split(',')
            .map(|word| {
                let word = word.trim();
                BotKind::from_str(word, true).map_err(|_| {
                    format!(
                        "{word:?} is not a bot (a number of bots, or bots from: \
                         easy, normal or heuristic, hard or search, random)"
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Lineup::Kinds(kinds))
    }
}

impl Lineup {
    /// Each bot's kind, `default` where only a count was given.
    pub(crate) fn kinds(&self, default: BotKind) -> Vec<BotKind> {
        match self {
            Lineup::Count(n) => vec![default; usize::from(*n)],
            Lineup::Kinds(kinds) => kinds.clone(),
        }
    }

    /// How many bots.
    pub(crate) fn len(&self) -> usize {
        match self {
            Lineup::Count(n) => usize::from(*n),
            Lineup::Kinds(kinds) => kinds.len(),
        }
    }
}

/// The kinds as `--bots` takes them back.
pub(crate) fn lineup_words(kinds: &[BotKind]) -> String {
    kinds.iter().map(|k| k.name()).collect::<Vec<_>>().join(",")
}

/// The seats of a bots-only game (`play`, `selfplay`): `--bots` if given
/// (its length is the seat count unless `--seats` says otherwise, which
/// must then agree), else `--seats` (default 4) bots of the `--bot` kind.
pub(crate) fn lineup_for_seats(
    seats: Option<u8>,
    lineup: Option<&Lineup>,
    bots: &BotArgs,
) -> anyhow::Result<Vec<BotKind>> {
    let kinds = match (lineup, seats) {
        (None, seats) => vec![bots.bot; usize::from(seats.unwrap_or(4))],
        (Some(lineup), _) => lineup.kinds(bots.bot),
    };
    if let Some(seats) = seats
        && usize::from(seats) != kinds.len()
    {
        anyhow::bail!(
            "--bots names {} bots for --seats {seats}: give one bot a seat",
            kinds.len()
        );
    }
    Ok(kinds)
}

/// One bot per seat of a game whose keys come from `game_seed`
/// ([`roundtable_local::LocalGame::new`]), `kinds[i]` at seat `i + 1`, in
/// joining order, each named after the seat it will take ("Bot 3" sits at
/// seat 3), so that the log, the result and the transcript agree. A bot's
/// seed is `bot_seed` plus its seat number.
pub(crate) fn seated_bots<G: Listed>(
    kinds: &[BotKind],
    think: Duration,
    game_seed: u64,
    bot_seed: u64,
) -> Vec<(String, roundtable_local::Player<G>)> {
    let seats = u8::try_from(kinds.len()).unwrap_or(u8::MAX);
    roundtable_local::seeded_seats(game_seed, seats)
        .into_iter()
        .map(|seat| {
            let number = u64::from(seat.number());
            let kind = kinds.get(seat.index()).copied().unwrap_or_default();
            (
                format!("Bot {number}"),
                roundtable_local::Player::Bot(kind.make(think, bot_seed.wrapping_add(number))),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use clap::ValueEnum;

    use super::*;

    /// The name a log prints for a kind is the one `--bot` takes back.
    #[test]
    fn each_kind_is_named_as_bot_takes_it() {
        for kind in BotKind::value_variants() {
            assert_eq!(BotKind::from_str(kind.name(), false), Ok(*kind));
        }
    }

    #[test]
    fn a_lineup_is_a_count_or_a_kind_per_bot() {
        assert_eq!("2".parse(), Ok(Lineup::Count(2)));
        assert_eq!(
            "hard,normal, easy,random,search".parse(),
            Ok(Lineup::Kinds(vec![
                BotKind::Search,
                BotKind::Heuristic,
                BotKind::Easy,
                BotKind::Random,
                BotKind::Search
            ]))
        );
        let refused = "hard,clever".parse::<Lineup>().unwrap_err();
        assert!(refused.contains("\"clever\" is not a bot"), "{refused}");
        assert!("".parse::<Lineup>().is_err());
        assert!("hard,".parse::<Lineup>().is_err());
    }
}
