//! The one list of games, and what every front end needs of a game apart
//! from drawing it.
//!
//! Every command and screen that can play more than one game (the start
//! menu's game picker, a local game, `host`/`join`/`watch`/`resume`, `play`,
//! `selfplay`, `audit`, `replay`, `scenario`, `tournament`) takes its game
//! from here: by name (`--game guildhall`), or by the name a transcript's
//! genesis carries. A game is listed by one line of [`for_each_game!`];
//! what a front end needs of it besides its rules is its [`Listed`] impl,
//! in this crate's module for the game: its title, its rule options as
//! set-up rows ([`setup`]), its bots by level and their names, its log
//! lines and replay words, its ranking words and tie-breaks. Code that
//! runs a game is written once, generic over `G: Listed`, and reached from
//! a [`GameId`] with [`GameId::visit`].
//!
//! What a front end is shown of a game is here too, apart from any way of
//! drawing it: a [`session::Session`] at a table hands out
//! [`session::Snapshot`]s (the seat's view, its moves, the log in words),
//! and a finished game's transcript steps forwards and backwards as a
//! [`replay::Replay`], which `roundtable replay` prints as text and the
//! terminal UI shows.
//!
//! Nothing here draws: a front end's own per-game part (the terminal UI's
//! board of each game) is a trait of that front end, implemented for every
//! type of the list, and reached through the same list with
//! [`for_each_game!`].
//!
//! Adding a game touches its crate under `crates/games/`, its module here
//! (its [`Listed`] impl), its screen in the front end, its bot, and one line
//! of [`for_each_game!`].

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

pub use roundtable_bots::{Bot, DEFAULT_THINK, Level, Leveled};
use roundtable_engine::{ChanceOutcome, Determinize, Game, GameResult, Seat, Standing};

pub mod guildhall;
pub mod nereus;
pub mod port_royal;
pub mod replay;
pub mod session;
pub mod setup;
pub mod words;

/// The list of games: calls macro `$then` with one `Variant => Type` line
/// per game, in the order the game picker shows them. [`GameId`] and
/// [`GameId::visit`] are made from it here; a front end makes its own
/// dispatch to its per-game trait from the same lines, so a game it cannot
/// show is a compile error there, not a gap found at run time.
#[macro_export]
macro_rules! for_each_game {
    ($then:ident) => {
        $then! {
            PortRoyal => $crate::port_royal::PortRoyal,
            Guildhall => $crate::guildhall::Guildhall,
            Nereus => $crate::nereus::Nereus,
        }
    };
}

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

/// What the post-game VP table counts in its columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChartUnit {
    /// One column per turn where they fit, else per round.
    Turn,
    /// One column per round (every seat's turn once), as the game counts.
    Round,
}

/// What every front end needs of a game besides its rules. What a game
/// moves between a network driver's tasks can be sent there (every listed
/// game can be played over the network).
pub trait Listed:
    Game<Options: Send + Sync, Action: Send + Sync, Event: Send + Sync, View: Send + Sync>
    + Determinize
    + Leveled
    + PartialEq
{
    /// The game's name for people ("Port Royal").
    const TITLE: &'static str;

    /// What a standing's tie-break counts, in the words of a ranking, one
    /// and several (["coin", "coins"]: "#1 Ann: 12 VP, 7 coins").
    const TIE_BREAK: [&'static str; 2];

    /// The game's rule options as set-up rows, in the order a form shows
    /// them: what every front end offers to change before a game
    /// ([`setup`]). A game with no options lists none.
    const OPTIONS: &'static [setup::OptionField<Self::Options>];

    /// Names for the bots at a table of this game, in the game's world (a
    /// Guildhall table's bots are not Port Royal's pirates): the first bot
    /// takes the first, and so on round.
    const BOT_NAMES: &'static [&'static str];

    /// A standing's tie-break in words for a ranking line ("7 coins"). The
    /// default counts [`Listed::TIE_BREAK`]; a game whose tie-break packs
    /// more than one count tells them apart.
    fn tie_break_words(tie_break: i64) -> String {
        let [one, many] = Self::TIE_BREAK;
        words::plural(tie_break, one, many)
    }

    /// A bot of `level` for a table with `options`; a hard one thinks
    /// `think` a move, and `seed` steers its random choices. Every game's
    /// levels are made alike from its heuristic bot ([`Leveled`]).
    fn bot(
        level: Level,
        options: &Self::Options,
        think: Duration,
        seed: u64,
    ) -> Box<dyn Bot<Self>> {
        level.bot::<Self>(options, think, seed)
    }

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

    /// A seat's line in the post-game ranking after its name (its score
    /// and what breaks ties).
    fn ranking_details(view: &Self::View, standing: &Standing) -> String;

    /// The order the ranking follows, in words ("VP, then coins").
    fn ranking_order(view: &Self::View) -> &'static str;

    /// Why seats with equal scores rank as they do in `result`, in words,
    /// as `me` reads them in the final `view`.
    fn tie_breaks(
        view: &Self::View,
        result: &GameResult,
        names: &[String],
        me: Option<Seat>,
    ) -> Vec<String>;

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
        let told = words::event_words::<Self>(events, names);
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
        let told = words::event_words::<Self>(events, names);
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

    /// The game-end scoring step by step in words, as the results show it
    /// under the ranking, from the final `view` and the game's `log`; none
    /// (the default) for a game whose score is all made in play.
    fn end_scoring(
        view: &Self::View,
        log: &[words::LogLine],
        names: &[String],
        me: Option<Seat>,
    ) -> Vec<String> {
        let _ = (view, log, names, me);
        Vec::new()
    }

    /// A privately dealt card (its number in the game's deck, as the deal
    /// and an audit know it) in words, as [`Listed::own_hand`] names it;
    /// `None` for a game without private cards (the default).
    fn private_card_words(card: u32) -> Option<String> {
        let _ = card;
        None
    }

    /// What the post-game chart and VP table count along the game: each
    /// turn (the default; the table falls back to rounds where the turns do
    /// not fit), or each round, for a game that tells its players rounds.
    const CHART_UNIT: ChartUnit = ChartUnit::Turn;
}

/// Code to run for whichever game a [`GameId`] names: the one place a
/// game's type is chosen at run time.
pub trait Visit {
    /// What the code returns.
    type Output;

    /// Run it for game `G`.
    fn visit<G: Listed>(self) -> Self::Output;
}

/// Makes [`GameId`] and [`GameId::visit`] from the lines of
/// [`for_each_game!`].
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

for_each_game!(list);

/// The facts of a game every front end shows, read through [`GameId::visit`].
struct Facts;

impl Visit for Facts {
    type Output = (&'static str, &'static str, u8, u8, &'static [&'static str]);

    fn visit<G: Listed>(self) -> Self::Output {
        (G::NAME, G::TITLE, G::MIN_SEATS, G::MAX_SEATS, G::BOT_NAMES)
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
        let (_, _, min, max, _) = self.visit(Facts);
        min..=max
    }

    /// The name of the `n`th bot (from 0) at a table of this game, from
    /// its [`Listed::BOT_NAMES`], round again past the last.
    pub fn bot_name(self, n: usize) -> &'static str {
        bot_name(self.visit(Facts).4, n)
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

    /// Every game's title as a sentence lists them, for help: "Port
    /// Royal, Guildhall and Waters of Nereus".
    pub fn titles() -> String {
        let titles: Vec<String> = GameId::ALL.iter().map(|g| g.title().to_owned()).collect();
        words::and_list(&titles)
    }

    /// Every game's seat counts, for help: "Port Royal 2 to 5, Guildhall 2
    /// to 4".
    pub fn seat_counts() -> String {
        GameId::ALL
            .iter()
            .map(|g| {
                let seats = g.seats();
                format!("{} {} to {}", g.title(), seats.start(), seats.end())
            })
            .collect::<Vec<_>>()
            .join(", ")
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

/// The `n`th (from 0) of `names`, round again past the last; "Bot" if
/// there are none.
pub fn bot_name(names: &[&'static str], n: usize) -> &'static str {
    match names.len() {
        0 => "Bot",
        len => names[n % len],
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

    /// Every game names enough bots for its largest table, each name fits
    /// a name box, and no two games' bots share a name (a Guildhall table
    /// has no pirates).
    #[test]
    fn every_game_names_its_own_bots() {
        let mut all = Vec::new();
        for &game in GameId::ALL {
            let bots = usize::from(*game.seats().end()) - 1;
            let names: Vec<&str> = (0..bots).map(|n| game.bot_name(n)).collect();
            let mut distinct = names.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(distinct.len(), bots, "{game}: {names:?}");
            for name in &names {
                assert!(name.len() <= roundtable_table::genesis::MAX_NAME_BYTES);
                assert!(!all.contains(name), "{name} at two games' tables");
            }
            all.extend(names);
        }
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
