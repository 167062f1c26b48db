//! What the front end talks to: a session at a table, seen from one seat.
//!
//! The TUI never touches a game's state. It asks a [`Session`] for a
//! [`Snapshot`] (the seat's view, its legal actions, the log, who sits
//! where), submits the seat's decisions, and polls it so that it can make
//! progress (bots move, peers' messages arrive, clocks run). A local game
//! ([`crate::LocalSession`]) and a game at a networked table implement the
//! same trait.

use std::time::{Duration, Instant};

use roundtable_engine::{GameResult, Seat};
use roundtable_port_royal::{Action, Event, View};

use crate::text::{LogLine, event_line};

/// A game in progress, seen from one seat (or by a spectator).
pub trait Session {
    /// Everything the screen shows, as of now.
    fn snapshot(&self) -> Snapshot;

    /// Submit this seat's decision. An error is a sentence for the player
    /// ("it is not your turn"); the game is unchanged by a refused action.
    fn submit(&mut self, action: Action) -> Result<(), String>;

    /// Let the session make progress; `true` when something changed that
    /// the screen should show.
    fn poll(&mut self, now: Instant) -> bool;

    /// When [`Session::poll`] next has something to do, if the session knows
    /// (a bot's next move, a clock running out); the front end sleeps at
    /// most until then.
    fn next_wakeup(&self) -> Option<Instant> {
        None
    }
}

impl<S: Session + ?Sized> Session for Box<S> {
    fn snapshot(&self) -> Snapshot {
        (**self).snapshot()
    }

    fn submit(&mut self, action: Action) -> Result<(), String> {
        (**self).submit(action)
    }

    fn poll(&mut self, now: Instant) -> bool {
        (**self).poll(now)
    }

    fn next_wakeup(&self) -> Option<Instant> {
        (**self).next_wakeup()
    }
}

/// Who sits at a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatKind {
    /// The person at this terminal.
    You,
    /// A computer player.
    Bot,
    /// A person at another terminal.
    Remote,
}

/// Whether a seat's peer can be reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Connection {
    /// In this process: always there.
    Local,
    /// Connected and answering.
    Online,
    /// Not heard from lately; the table is trying to reach it.
    Reconnecting,
    /// Gone: the table waits for it or for its forfeit.
    Offline,
}

impl Connection {
    /// The state in words (never by colour alone).
    pub fn words(self) -> &'static str {
        match self {
            Connection::Local => "here",
            Connection::Online => "online",
            Connection::Reconnecting => "reconnecting",
            Connection::Offline => "offline",
        }
    }
}

/// One seat as the screen shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatInfo {
    /// The player's name.
    pub name: String,
    /// Who sits there.
    pub kind: SeatKind,
    /// Whether its peer can be reached.
    pub connection: Connection,
    /// Time left on its turn clock, when the table keeps one.
    pub clock: Option<Duration>,
}

/// Everything the screen shows about a game at one moment.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    /// A title for the game ("Local game, seed 42").
    pub title: String,
    /// The game as this seat may see it.
    pub view: View,
    /// This seat, or `None` for a spectator.
    pub me: Option<Seat>,
    /// The actions this seat may take now (empty when it is not its move).
    pub legal: Vec<Action>,
    /// The move log, oldest first.
    pub log: Vec<LogLine>,
    /// Every seat, in seat order.
    pub seats: Vec<SeatInfo>,
    /// Victory points of every seat at the start of each turn (and at the
    /// end), oldest first: the post-game chart.
    pub vp_by_turn: Vec<Vec<u32>>,
    /// How the game ended, once it has.
    pub result: Option<GameResult>,
    /// What the table is doing, when it is not this seat's move ("waiting
    /// for Anne Bonny").
    pub status: Option<String>,
    /// Where the game's transcript is saved, if it is.
    pub transcript: Option<String>,
    /// While the table still gathers its seats: the lobby screen's content
    /// (the view above is then only a placeholder).
    pub lobby: Option<Lobby>,
}

/// A table gathering its seats, as the lobby screen shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lobby {
    /// The invitation others join with, when this peer has it (the host).
    pub ticket: Option<String>,
    /// Seats at the table.
    pub seats: u8,
    /// Seats taken so far.
    pub filled: u8,
    /// Who sits where so far, in seat order, when this peer knows (the host
    /// does; a joiner learns the names when the game starts).
    pub seated: Vec<SeatInfo>,
    /// Whether this peer watches rather than plays.
    pub spectator: bool,
    /// Set when the table stopped before the game began: why, in words.
    pub stopped: Option<String>,
}

impl Snapshot {
    /// The players' names in seat order.
    pub fn names(&self) -> Vec<String> {
        self.seats.iter().map(|s| s.name.clone()).collect()
    }

    /// Whether the game is still being played.
    pub fn live(&self) -> bool {
        self.result.is_none()
    }
}

/// The history of a game as the log and the chart show it, built from the
/// game's events; any session implementation can keep one.
#[derive(Clone, Debug, Default)]
pub struct Chronicle {
    log: Vec<LogLine>,
    vp_by_turn: Vec<Vec<u32>>,
    turn: u32,
}

impl Chronicle {
    /// An empty history.
    pub fn new() -> Self {
        Chronicle::default()
    }

    /// Add what `events` tell; `view` is the game after them (for the
    /// chart), and lines about `me` say "You".
    pub fn record(&mut self, events: &[Event], view: &View, names: &[String], me: Option<Seat>) {
        if self.vp_by_turn.is_empty() {
            self.vp_by_turn
                .push(view.players.iter().map(|_| 0).collect());
        }
        for event in events {
            let heading = matches!(event, Event::TurnStarted { .. });
            if let Event::TurnStarted { turn, .. } = event {
                self.turn = *turn;
            }
            if matches!(event, Event::TurnStarted { turn, .. } if *turn > 1)
                || matches!(event, Event::GameOver { .. })
            {
                self.vp_by_turn
                    .push(view.players.iter().map(|p| p.vp).collect());
            }
            if let Some(text) = event_line(event, names, me) {
                self.log.push(LogLine {
                    turn: self.turn,
                    heading,
                    text,
                });
            }
        }
    }

    /// Add a line about the table rather than the game (the network gave
    /// up, say): the log panel wraps it, where a status line cannot.
    pub fn note(&mut self, text: impl Into<String>) {
        self.log.push(LogLine {
            turn: self.turn,
            heading: false,
            text: text.into(),
        });
    }

    /// The log lines so far.
    pub fn log(&self) -> &[LogLine] {
        &self.log
    }

    /// Victory points per seat at the start of each turn and at the end.
    pub fn vp_by_turn(&self) -> &[Vec<u32>] {
        &self.vp_by_turn
    }
}
