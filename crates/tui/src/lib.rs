//! The roundtable terminal front end (ratatui + crossterm).
//!
//! It follows the Elm architecture: the screen is a pure function of the
//! front end's own state ([`App`]) and a [`Snapshot`] of the game that a
//! [`Session`] hands out ([`ui::render`]); keys become messages through one
//! keymap ([`keymap`]), which also writes the hint bar and the help screen;
//! [`App::update`] turns messages into new state and [`Effect`]s, and the
//! runner ([`run`], [`run_menu`]) carries effects out against the session.
//! The screens never touch a game's state: a local game ([`LocalSession`])
//! and a networked table implement the same [`Session`], and a finished
//! game's transcript steps forwards and backwards as a [`Replay`]
//! ([`run_replay`], the start menu, or `r` after a game), which hands out
//! snapshots of the same kind. The start menu's network entries (host,
//! join, LAN tables, watch) leave as effects too, carried out by a
//! [`Launcher`] the binary supplies; a networked table shows its lobby until
//! the game begins.
//!
//! Which games there are, and what every front end knows of them (titles,
//! rule options as set-up rows, bots by level and their names, log lines,
//! ranking words, the session and replay models), is `roundtable-games`;
//! this crate adds each game's board and how its moves are picked
//! ([`GameScreen`], one folder per game under [`games`]), and reaches them
//! from a game's id with [`games::visit`]. The set-up forms draw any
//! game's option rows, with no word of their own about a game. The screens
//! never build or drive a bot: a local game's session asks the list for
//! its bots, and `roundtable-local`'s `DrivenGame` moves them.
//!
//! Colour follows <https://no-color.org> and uses the 16 ANSI colours only;
//! whatever colour says, a letter or mark says too ([`theme`]).

pub mod app;
pub mod games;
pub mod keymap;
pub mod launch;
pub mod local;
pub mod prefs;
mod run;
pub mod saved;
pub mod setup;
pub mod theme;
pub mod ui;

pub use app::{App, Effect, GameKind, Screen};
pub use games::{Arrow, GameScreen, VisitScreen};
pub use launch::{FoundTable, HostConfig};
pub use local::{LocalConfig, LocalError, LocalSession, Pace};
pub use replay::{Replay, ReplayError, ReplayStatus, Seek, ShownHand};
pub use run::{Launched, Launcher, Outcome, Runner, run, run_menu, run_menu_with, run_replay};
pub use session::{Connection, Lobby, SeatInfo, SeatKind, Session, Snapshot};
pub use theme::Theme;

// The session and replay models every front end shows are the list's; the
// paths under this crate stay as they were.
pub use roundtable_games::{replay, session};
