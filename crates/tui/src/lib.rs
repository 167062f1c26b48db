//! The roundtable terminal front end (ratatui + crossterm).
//!
//! It follows the Elm architecture: the screen is a pure function of the
//! front end's own state ([`App`]) and a [`Snapshot`] of the game that a
//! [`Session`] hands out ([`ui::render`]); keys become messages through one
//! keymap ([`keymap`]), which also writes the hint bar and the help screen;
//! [`App::update`] turns messages into new state and [`Effect`]s, and the
//! runner ([`run`], [`run_menu`]) carries effects out against the session.
//! Nothing here touches a game's state directly: a local game
//! ([`LocalSession`]) and a networked table implement the same [`Session`].
//!
//! Colour follows <https://no-color.org> and uses the 16 ANSI colours only;
//! whatever colour says, a letter or mark says too ([`theme`]).

pub mod app;
pub mod keymap;
pub mod local;
mod run;
pub mod session;
pub mod text;
pub mod theme;
pub mod ui;

pub use app::{App, Effect, Screen};
pub use local::{LocalConfig, LocalError, LocalSession, Pace};
pub use run::{Outcome, Runner, run, run_menu};
pub use session::{Connection, SeatInfo, SeatKind, Session, Snapshot};
pub use theme::Theme;
