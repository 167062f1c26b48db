//! The one list of games.
//!
//! Every command and screen that can play more than one game (the start
//! menu's game picker, a local game, `host`/`join`/`watch`/`resume`, `play`,
//! `selfplay`, `audit`, `replay`, `scenario`) takes its game from here: by
//! name (`--game guildhall`), or by the name a transcript's genesis carries.
//! A game is listed by one line of [`list!`]; what a front end needs of it
//! besides its rules (its bots, and its screen) is its [`Listed`] impl, in
//! this module's file for the game. Code that runs a game is written once,
//! generic over `G: Listed`, and reached from a [`GameId`] with
//! [`GameId::visit`].

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use roundtable_bots::{Bot, Level};
use roundtable_engine::{ChanceOutcome, Determinize, Game, Seat, Standing};

use crate::app::{App, SetupRow};
use crate::local::LocalConfig;
use crate::session::Snapshot;

pub mod guildhall;
pub mod nereus;
pub mod port_royal;
pub mod steps;

pub use steps::{Pick, Step, StepOption};

/// Where an event stands in the course of a game, for the log's headings
/// and the post-game chart's rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Milestone {
    /// Turn number `n` (from 1) starts.
    TurnStarted(u32),
    /// The turn under way ends (a game that tells no turn's start).
    TurnEnded,
    /// The game is over.
    GameOver,
}

/// An arrow key, for a game whose board chooses among its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrow {
    /// Up.
    Up,
    /// Down.
    Down,
    /// Left.
    Left,
    /// Right.
    Right,
}

/// What the front ends need of a game besides its rules. What a game
/// moves between a network driver's tasks can be sent there (every listed
/// game can be played over the network).
pub trait Listed:
    Game<Options: Send + Sync, Action: Send + Sync, Event: Send + Sync, View: Send + Sync>
    + Determinize
    + PartialEq
{
    /// The game's name for people ("Port Royal").
    const TITLE: &'static str;

    /// What a standing's tie-break counts, in the words of a ranking
    /// ("coins": "#1 Ann: 12 VP, 7 coins").
    const TIE_BREAK: &'static str;

    /// A standing's tie-break in words for a ranking line ("7 coins"). The
    /// default counts [`Listed::TIE_BREAK`]; a game whose tie-break packs
    /// more than one count tells them apart.
    fn tie_break_words(tie_break: i64) -> String {
        format!("{tie_break} {}", Self::TIE_BREAK)
    }

    /// A bot of `level` for a table with `options`; a hard one thinks
    /// `think` a move, and `seed` steers its random choices.
    fn bot(level: Level, options: &Self::Options, think: Duration, seed: u64)
    -> Box<dyn Bot<Self>>;

    /// An event as a line of the move log, or `None` for events another
    /// line already tells; lines about `me` say "You". `names` are the
    /// players' names in seat order.
    fn event_line(event: &Self::Event, names: &[String], me: Option<Seat>) -> Option<String>;

    /// Every seat's victory points in `view`, in seat order: the score the
    /// post-game chart follows.
    fn scores(view: &Self::View) -> Vec<u32>;

    /// Whether `event` starts or ends a turn, or ends the game.
    fn milestone(event: &Self::Event) -> Option<Milestone>;

    /// The seat whose own choice `event` shows (a draw, a take, a pass), if
    /// any: what gets the automatic mark when the table chose for it.
    fn chosen_by(event: &Self::Event) -> Option<Seat>;

    /// Draw the table (the game's board, its moves, the log) into `area`.
    fn table(app: &App, snap: &Snapshot<Self>, area: Rect, buf: &mut Buffer);

    /// How far back the table's side log can scroll in a terminal of
    /// `width` x `height`: until its oldest row shows at the top.
    fn side_log_max_scroll(app: &App, snap: &Snapshot<Self>, width: u16, height: u16) -> usize;

    /// A seat's line in the post-game ranking after its name (its score
    /// and what breaks ties).
    fn ranking_details(view: &Self::View, standing: &Standing) -> String;

    /// The order the ranking follows, in words ("VP, then coins").
    fn ranking_order(view: &Self::View) -> &'static str;

    /// Why seats with equal scores rank as they do, in words.
    fn tie_breaks(snap: &Snapshot<Self>) -> Vec<String>;

    /// A replay's words for `seat`'s decision `action`, applied to `before`
    /// and making `events`. The default tells what the events tell.
    fn action_words(
        before: &Self,
        seat: Seat,
        action: &Self::Action,
        events: &[Self::Event],
        names: &[String],
    ) -> String {
        let _ = (before, seat);
        let told = crate::replay::event_words::<Self>(events, names);
        if told.is_empty() {
            action.to_string()
        } else {
            told
        }
    }

    /// A replay's words for a chance `outcome` applied to `before`, making
    /// `events`. The default names the outcome as the game does.
    fn chance_words(
        before: &Self,
        outcome: &ChanceOutcome,
        events: &[Self::Event],
        names: &[String],
    ) -> String {
        let told = crate::replay::event_words::<Self>(events, names);
        if told.is_empty() {
            format!("Chance: {}", before.outcome_name(outcome))
        } else {
            format!("Chance: {told}")
        }
    }

    /// The observer's own private hand in `view`, card by card in words, or
    /// `None` for a game without private hands (the default): what a replay
    /// shows of each seat, from that seat's view.
    fn own_hand(view: &Self::View) -> Option<Vec<String>> {
        let _ = view;
        None
    }

    /// The move an arrow key selects when the game chooses on its board
    /// (a Nereus ship's destination) rather than down its list, from the
    /// move selected now; `None` (the default) leaves up and down to the
    /// list of moves and the side arrows to nothing.
    fn arrow_pick(snap: &Snapshot<Self>, selected: usize, arrow: Arrow) -> Option<usize> {
        let _ = (snap, selected, arrow);
        None
    }

    /// The rows of a set-up form that set this game's rule options (and
    /// the bots' pace, at its place among them), in order; what they set
    /// reaches the game through [`Listed::local_options`].
    const SETUP_ROWS: &'static [SetupRow];

    /// The rule options the local set-up form chose for this game.
    fn local_options(config: &LocalConfig) -> Self::Options;

    /// How a player picks `action` (one of `snap`'s legal actions) step by
    /// step, the way the player thinks of it: a card, then its level, then
    /// each target. Legal actions whose first picks read the same are one
    /// choice until they differ, so every path ends at an action the engine
    /// accepts. The default, no picks, lists every legal action at once.
    fn picks(snap: &Snapshot<Self>, action: &Self::Action) -> Vec<Pick> {
        let _ = (snap, action);
        Vec::new()
    }

    /// What the post-game chart and VP table count along the game: each
    /// turn (the default; the table falls back to rounds where the turns do
    /// not fit), or each round, for a game that tells its players rounds.
    const CHART_UNIT: ChartUnit = ChartUnit::Turn;
}

/// What the post-game VP table counts in its columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChartUnit {
    /// One column per turn where they fit, else per round.
    Turn,
    /// One column per round (every seat's turn once), as the game counts.
    Round,
}

/// Code to run for whichever game a [`GameId`] names: the one place a
/// game's type is chosen at run time.
pub trait Visit {
    /// What the code returns.
    type Output;

    /// Run it for game `G`.
    fn visit<G: Listed>(self) -> Self::Output;
}

/// Lists the games: each line names the variant of [`GameId`] and the type
/// whose [`Listed`] impl plays it, in the order the game picker shows them.
macro_rules! list {
    ($($id:ident => $game:ty),+ $(,)?) => {
        /// A game of the list.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum GameId {
            $(
                #[doc = concat!("Played by [`", stringify!($game), "`].")]
                $id,
            )+
        }

        impl GameId {
            /// Every game, in the order the game picker shows them.
            pub const ALL: &'static [GameId] = &[$(GameId::$id),+];

            /// Run `code` for this game.
            pub fn visit<V: Visit>(self, code: V) -> V::Output {
                match self {
                    $(GameId::$id => code.visit::<$game>(),)+
                }
            }
        }
    };
}

list! {
    PortRoyal => roundtable_port_royal::PortRoyal,
    Guildhall => roundtable_guildhall::Guildhall,
    Nereus => roundtable_nereus::Nereus,
}

/// The facts of a game every front end shows, read through [`GameId::visit`].
struct Facts;

impl Visit for Facts {
    type Output = (&'static str, &'static str, u8, u8);

    fn visit<G: Listed>(self) -> Self::Output {
        (G::NAME, G::TITLE, G::MIN_SEATS, G::MAX_SEATS)
    }
}

impl GameId {
    /// The game's name in files, on the wire and after `--game`
    /// ("port-royal").
    pub fn name(self) -> &'static str {
        self.visit(Facts).0
    }

    /// The game's name for people ("Port Royal").
    pub fn title(self) -> &'static str {
        self.visit(Facts).1
    }

    /// The seat counts the game is played with.
    pub fn seats(self) -> std::ops::RangeInclusive<u8> {
        let (_, _, min, max) = self.visit(Facts);
        min..=max
    }

    /// The game with this name (as [`Game::NAME`]).
    pub fn from_name(name: &str) -> Result<GameId, UnknownGame> {
        GameId::ALL
            .iter()
            .copied()
            .find(|g| g.name() == name)
            .ok_or_else(|| UnknownGame {
                given: name.to_owned(),
            })
    }

    /// Every game's name, comma-separated, for messages and help.
    pub fn names() -> String {
        GameId::ALL
            .iter()
            .map(|g| g.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameId {
    type Err = UnknownGame;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameId::from_name(s)
    }
}

/// A name that is not a game of the list.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no game is called {given:?}; the games are {}", GameId::names())]
pub struct UnknownGame {
    /// The name given.
    pub given: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_is_found_by_its_own_name_and_names_differ() {
        for &game in GameId::ALL {
            assert_eq!(GameId::from_name(game.name()), Ok(game));
            assert!(game.seats().contains(&2), "{game} is played by two");
        }
        let mut names: Vec<_> = GameId::ALL.iter().map(|g| g.name()).collect();
        names.dedup();
        assert_eq!(names.len(), GameId::ALL.len());
        assert_eq!(GameId::PortRoyal.name(), "port-royal");
        assert_eq!(GameId::Guildhall.name(), "guildhall");
        assert_eq!(GameId::Nereus.name(), "nereus");
    }

    #[test]
    fn an_unknown_name_lists_the_games() {
        let err = GameId::from_name("chess").unwrap_err();
        assert_eq!(
            err.to_string(),
            "no game is called \"chess\"; the games are port-royal, guildhall, nereus"
        );
    }
}
