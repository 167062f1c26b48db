//! What a set-up form chooses for a local game (or a hosted table's own
//! part of it): the game, seats, each game's rule options, the bots' levels
//! and pace, and the rows the form shows them in. Plain data: the forms
//! ([`crate::app`]) change it, the sessions ([`crate::local`]) read it.

use std::path::PathBuf;
use std::time::Duration;

use roundtable_games::{DEFAULT_THINK, GameId, Level};
use roundtable_guildhall::Options as GuildhallOptions;
use roundtable_nereus::Options as NereusOptions;
use roundtable_port_royal::Options;

/// How quickly the bots move, so that a person can follow them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pace {
    /// No pause: bots move as soon as it is their turn.
    Instant,
    /// A short pause between bot moves.
    Fast,
    /// A pause long enough to read each move.
    #[default]
    Normal,
    /// A long pause.
    Slow,
}

impl Pace {
    /// Every pace, slowest last.
    pub const ALL: [Pace; 4] = [Pace::Instant, Pace::Fast, Pace::Normal, Pace::Slow];

    /// The pause between two bot moves.
    pub fn delay(self) -> Duration {
        match self {
            Pace::Instant => Duration::ZERO,
            Pace::Fast => Duration::from_millis(150),
            Pace::Normal => Duration::from_millis(500),
            Pace::Slow => Duration::from_millis(1200),
        }
    }

    /// The pace in words.
    pub fn words(self) -> &'static str {
        match self {
            Pace::Instant => "instant",
            Pace::Fast => "fast",
            Pace::Normal => "normal",
            Pace::Slow => "slow",
        }
    }
}

/// How to set up a local game.
#[derive(Clone, Debug, PartialEq)]
pub struct LocalConfig {
    /// The game to play.
    pub game: GameId,
    /// Seats at the table, within the game's range; you sit at the first.
    pub seats: u8,
    /// Port Royal's rule options and variants.
    pub options: Options,
    /// Guildhall's rule options (Yucata's changes, the end guard).
    pub guildhall: GuildhallOptions,
    /// Waters of Nereus's rule options (the 2-player neutral ship, which
    /// a table of any other size leaves out).
    pub nereus: NereusOptions,
    /// A seed the seats' keys and chains are derived from, which makes the
    /// game replay exactly, and lets whoever knows it compute every draw:
    /// for tests and demonstrations. `None` (the default) draws every secret
    /// from the operating system, so the bots' draws are as secret as a
    /// network peer's.
    pub seed: Option<u64>,
    /// How quickly the bots move.
    pub pace: Pace,
    /// The level of each bot, in seat order after yours (only the first
    /// `seats - 1` play).
    pub bot_levels: [Level; 4],
    /// How long a hard bot thinks a move.
    pub think: Duration,
    /// Your name at the table.
    pub name: String,
    /// The folder to save each game's transcript in (as `local-SEED.rts`
    /// for a seeded game, else under a random name), if anywhere.
    pub transcript_dir: Option<PathBuf>,
}

impl Default for LocalConfig {
    fn default() -> Self {
        LocalConfig {
            game: GameId::PortRoyal,
            seats: 4,
            options: Options::default(),
            guildhall: GuildhallOptions::default(),
            nereus: NereusOptions::default(),
            seed: None,
            pace: Pace::Normal,
            bot_levels: [Level::Normal; 4],
            think: DEFAULT_THINK,
            name: "You".into(),
            transcript_dir: None,
        }
    }
}

/// Names of the computer players, one per bot seat.
pub const BOT_NAMES: [&str; 4] = ["Anne Bonny", "Calico Jack", "Mary Read", "Black Bart"];

pub use roundtable_local::fresh_seed;

/// A row of the local game set-up or the host set-up. Which rows show
/// depends on the game chosen in the first ([`crate::App::setup_rows`],
/// [`crate::App::host_rows`]); a row the two share changes the same way in both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupRow {
    /// The game to play.
    Game,
    /// Seats at the table.
    Seats,
    /// Port Royal: the victory points that end the game.
    VictoryPoints,
    /// Port Royal: skip takes that earn nothing.
    PassAutomatically,
    /// Port Royal: winners need an expedition.
    ExpeditionRequired,
    /// Port Royal: Just One More Contract.
    Expansion,
    /// Guildhall, Yucata 1: the centre row is refilled after paying.
    RefillAfterPaying,
    /// Guildhall, Yucata 2: a fourth chapter is shed on the next turn.
    LateChapterCap,
    /// Guildhall, Yucata 3: a discarded chapter's top card is chosen.
    ChooseChapterOrder,
    /// Guildhall: the rounds after which the game ends whatever the scores.
    MaxRounds,
    /// Waters of Nereus, two players only: the neutral ship plays too.
    NeutralShip,
    /// The pause between bot moves.
    Pace,
    /// Host: seats filled by bots that run in this process.
    Bots,
    /// Host: how well those bots play.
    BotLevel,
    /// The level of the bot at this place after you.
    Bot(usize),
    /// How long a hard bot thinks a move.
    Think,
    /// Start the game.
    Start,
}

impl SetupRow {
    /// Whether the row belongs in a set-up of `seats` seats: the neutral
    /// ship is a variant for two players, so its row shows only then.
    pub fn shown_at(self, seats: u8) -> bool {
        match self {
            SetupRow::NeutralShip => seats == 2,
            _ => true,
        }
    }
}

/// How a key changes a set-up row: the arrows step and stop at the ends;
/// Enter steps up and wraps around, so that it alone reaches every value
/// (on a row of two values it is a toggle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// One step down, stopping at the first value.
    Less,
    /// One step up, stopping at the last value.
    More,
    /// One step up, from the last value round to the first.
    Cycle,
}

impl Change {
    /// `value` changed, kept within `lo..=hi`.
    pub fn apply(self, value: i64, lo: i64, hi: i64) -> i64 {
        match self {
            Change::Less => (value - 1).clamp(lo, hi),
            Change::More => (value + 1).clamp(lo, hi),
            Change::Cycle if value >= hi => lo,
            Change::Cycle => (value + 1).max(lo),
        }
    }

    /// The value after (or before) `all[at]` as the change says.
    pub fn step<T: Copy>(self, all: &[T], at: usize) -> T {
        let last = all.len() as i64 - 1;
        all[self.apply(at as i64, 0, last) as usize]
    }
}
