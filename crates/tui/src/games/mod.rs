//! Each game's screen, reached through the one list of games.
//!
//! What every front end needs of a game (its title, bots, words, ranking)
//! (and its set-up rows) is its [`Listed`] impl in `roundtable-games`; what
//! the terminal needs on top (its board, how a move is picked step by step)
//! is its [`GameScreen`] impl, in this module's file for the game. Code that shows
//! a game is written once, generic over `G: GameScreen`, and reached from a
//! [`GameId`] with [`visit`], made from the same lines as
//! [`GameId::visit`] ([`roundtable_games::for_each_game!`]): a listed game
//! without a screen does not compile.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use roundtable_games::{GameId, Listed};

use crate::app::App;
use crate::session::Snapshot;

pub mod guildhall;
pub mod nereus;
pub mod port_royal;
pub mod steps;

pub use steps::{Pick, Step, StepOption};

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

/// What the terminal needs of a listed game besides what every front end
/// does: its board and its keys.
pub trait GameScreen: Listed {
    /// Draw the table (the game's board, its moves, the log) into `area`.
    fn table(app: &App, snap: &Snapshot<Self>, area: Rect, buf: &mut Buffer);

    /// How far back the table's side log can scroll in a terminal of
    /// `width` x `height`: until its oldest row shows at the top (for a
    /// board laid out with its log beside or under it by `ui::side_log`,
    /// what that module says).
    fn side_log_max_scroll(app: &App, snap: &Snapshot<Self>, width: u16, height: u16) -> usize;

    /// Whether the board shows in pages where it is short ([`Msg::Page`](crate::keymap::Msg::Page),
    /// [`Msg::Cabin`](crate::keymap::Msg::Cabin)): the hint bar offers their keys then.
    const PAGED: bool = false;

    /// The move an arrow key selects when the game chooses on its board
    /// (a Nereus ship's destination) rather than down its list, from the
    /// move selected now; `None` (the default) leaves up and down to the
    /// list of moves and the side arrows to turning a paged board's page.
    fn arrow_pick(snap: &Snapshot<Self>, selected: usize, arrow: Arrow) -> Option<usize> {
        let _ = (snap, selected, arrow);
        None
    }

    /// What the abbreviations on the table mean, for the help screen's "On
    /// the table" section: lines of at most 60 characters. The default,
    /// none, leaves the section out.
    fn legend() -> Vec<String> {
        Vec::new()
    }

    /// How a player picks `action` (one of `snap`'s legal actions) step by
    /// step, the way the player thinks of it: a card, then its level, then
    /// each target. Legal actions whose first picks read the same are one
    /// choice until they differ, so every path ends at an action the engine
    /// accepts. The default, no picks, lists every legal action at once.
    fn picks(snap: &Snapshot<Self>, action: &Self::Action) -> Vec<Pick> {
        let _ = (snap, action);
        Vec::new()
    }
}

/// Code to run for whichever game a [`GameId`] names, with its screen.
pub trait VisitScreen {
    /// What the code returns.
    type Output;

    /// Run it for game `G`.
    fn visit<G: GameScreen>(self) -> Self::Output;
}

/// Makes [`visit`] from the lines of the list of games.
macro_rules! screens {
    ($($id:ident => $game:ty),+ $(,)?) => {
        /// Run `code` for `game`, with its screen.
        pub fn visit<V: VisitScreen>(game: GameId, code: V) -> V::Output {
            match game {
                $(GameId::$id => code.visit::<$game>(),)+
            }
        }
    };
}

roundtable_games::for_each_game!(screens);
