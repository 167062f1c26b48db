//! What a set-up form chooses for a local game (or a hosted table's own
//! part of it): the game, seats, each game's rule options, the bots' levels
//! and pace, and the rows the form shows them in. Plain data: the forms
//! ([`crate::app`]) change it, the sessions ([`crate::local`]) read it.
//! A game's own rows (its rule options) are the list's data
//! ([`roundtable_games::setup`]), not this crate's.

use std::path::PathBuf;
use std::time::Duration;

pub use roundtable_games::setup::{Change, ChosenOptions};
use roundtable_games::{DEFAULT_THINK, GameId, Level, Listed};

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
    /// Every game's rule options as the form's rows chose them (a game's
    /// choices are kept while another game is chosen).
    pub chosen: ChosenOptions,
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
    /// The most a hard bot thinks on one decision.
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
            chosen: ChosenOptions::default(),
            seed: None,
            pace: Pace::Normal,
            bot_levels: [Level::Normal; 4],
            think: DEFAULT_THINK,
            name: "You".into(),
            transcript_dir: None,
        }
    }
}

impl LocalConfig {
    /// The rule options of game `G` the form chose, for its seats (a
    /// variant for another table size keeps the game's default).
    pub fn options<G: Listed>(&self) -> G::Options {
        self.chosen.options::<G>(self.seats)
    }

    /// This set-up with `options` chosen for game `G`.
    pub fn with_options<G: Listed>(mut self, options: &G::Options) -> Self {
        self.chosen.set::<G>(options);
        self
    }

    /// The name of the bot at place `at` after you, in the chosen game's
    /// world.
    pub fn bot_name(&self, at: usize) -> &'static str {
        self.game.bot_name(at)
    }
}

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
    /// The game's rule option at this place among its option rows
    /// ([`GameId::option_rows`]).
    Option(usize),
    /// The pause between bot moves.
    Pace,
    /// Host: seats filled by bots that run in this process.
    Bots,
    /// Host: how well those bots play.
    BotLevel,
    /// The level of the bot at this place after you.
    Bot(usize),
    /// The most a hard bot thinks on one decision.
    Think,
    /// Start the game.
    Start,
}
