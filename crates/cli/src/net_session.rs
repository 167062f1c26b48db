//! The terminal UI's [`Session`] over a networked table: a
//! [`GameHandle`] read without blocking, so that the UI loop (a plain
//! thread) and the node (a tokio task) never wait on each other.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use roundtable_engine::{Game, Observer, Seat};
use roundtable_net::{GameHandle, NetEvent, Phase, Ticket};
use roundtable_port_royal::{Action, Options, PortRoyal, View};
use roundtable_tui::session::Chronicle;
use roundtable_tui::{Connection, SeatInfo, SeatKind, Session, Snapshot};
use tokio::sync::watch;

/// One seat's (or a spectator's) table over the network, for the TUI.
pub(crate) struct NetSession {
    handle: GameHandle<PortRoyal>,
    /// Marks which of the handle's snapshots the screen has seen.
    watch: watch::Receiver<Arc<roundtable_net::Snapshot<PortRoyal>>>,
    /// Shown in the title and, while seats fill, in the status line, so the
    /// host can copy it.
    ticket: Option<Ticket>,
    /// What the table is called before the game has names.
    title: String,
    chronicle: Chronicle,
    /// Seats taken and seats in all, from the lobby.
    lobby: Option<(u8, u8)>,
    /// Until the genesis exists there is no view; the screen shows a fresh
    /// table of the expected size instead.
    placeholder: View,
    transcript: Option<PathBuf>,
    /// The latest refusal or violation, for the status line.
    notice: Option<String>,
}

impl NetSession {
    /// A session over `handle`; `seats` is the table size if known (the
    /// host's), for the picture shown before the game starts.
    pub(crate) fn new(
        handle: GameHandle<PortRoyal>,
        title: String,
        ticket: Option<Ticket>,
        seats: u8,
    ) -> anyhow::Result<Self> {
        let placeholder = PortRoyal::new_game(seats.clamp(2, 5), &Options::default())
            .map_err(|e| anyhow::anyhow!("{e}"))?
            .view(Observer::Spectator);
        Ok(NetSession {
            watch: handle.watch(),
            handle,
            ticket,
            title,
            chronicle: Chronicle::new(),
            lobby: None,
            placeholder,
            transcript: None,
            notice: None,
        })
    }

    fn lobby_status(&self) -> String {
        let seated = match self.lobby {
            Some((filled, seats)) => format!("waiting for players: {filled}/{seats} seated"),
            None => "waiting for the table".to_owned(),
        };
        match &self.ticket {
            Some(t) => format!("{seated} — others join with: roundtable join {t}"),
            None => seated,
        }
    }
}

impl Drop for NetSession {
    fn drop(&mut self) {
        // Leaving the screen leaves the table: the node would otherwise keep
        // running in the background of a program that is about to exit.
        self.handle.shutdown();
    }
}

fn name_of(names: &[String], seat: Seat) -> String {
    names
        .get(seat.index())
        .cloned()
        .unwrap_or_else(|| seat.to_string())
}

impl Session for NetSession {
    fn snapshot(&self) -> Snapshot {
        let net = self.handle.snapshot();
        let names = &net.names;
        let seats = names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let seat = Seat(i as u8);
                let (kind, connection) = if net.seat == Some(seat) {
                    (SeatKind::You, Connection::Local)
                } else {
                    // In-process bots of a host are named "bot N" (see
                    // `spawn_bots`); anyone else is a person elsewhere.
                    let kind = if name.starts_with("bot ") {
                        SeatKind::Bot
                    } else {
                        SeatKind::Remote
                    };
                    let online = net.online.get(i).copied().unwrap_or(false);
                    let connection = match (online, net.phase) {
                        (true, _) => Connection::Online,
                        (false, Phase::Playing) => Connection::Reconnecting,
                        (false, _) => Connection::Offline,
                    };
                    (kind, connection)
                };
                SeatInfo {
                    name: name.clone(),
                    kind,
                    connection,
                    clock: None,
                }
            })
            .collect();
        let view = net.view.clone().unwrap_or_else(|| self.placeholder.clone());
        let mut status = match net.phase {
            Phase::Starting | Phase::Lobby => Some(self.lobby_status()),
            Phase::Playing if !net.ready => Some("waiting for every peer to subscribe".into()),
            Phase::Playing if net.legal.is_empty() => {
                let active = view.taker.unwrap_or(view.active).0;
                Some(format!("waiting for {}", name_of(names, active)))
            }
            Phase::Playing | Phase::Finished => None,
            Phase::Failed => Some("the table stopped after a violation".into()),
        };
        let forfeits: Vec<String> = net
            .forfeited
            .iter()
            .enumerate()
            .filter(|(_, f)| **f)
            .map(|(i, _)| name_of(names, Seat(i as u8)))
            .collect();
        if !forfeits.is_empty() {
            let line = format!("forfeited: {}", forfeits.join(", "));
            status = Some(match status {
                Some(s) => format!("{s}; {line}"),
                None => line,
            });
        }
        if let Some(n) = &self.notice {
            status = Some(match status {
                Some(s) => format!("{s} ({n})"),
                None => n.clone(),
            });
        }
        let title = match (&net.game_id, &self.ticket) {
            (Some(id), _) => format!("Network game {id}"),
            (None, Some(t)) => format!("{} — ticket {t}", self.title),
            (None, None) => self.title.clone(),
        };
        Snapshot {
            title,
            view,
            me: net.seat,
            legal: net.legal.clone(),
            log: self.chronicle.log().to_vec(),
            seats,
            vp_by_turn: self.chronicle.vp_by_turn().to_vec(),
            result: net.result.clone(),
            status,
            transcript: self.transcript.as_ref().map(|p| p.display().to_string()),
        }
    }

    fn submit(&mut self, action: Action) -> Result<(), String> {
        let net = self.handle.snapshot();
        if !net.legal.contains(&action) {
            return Err("It is not your move.".into());
        }
        self.notice = None;
        self.handle
            .try_submit(action)
            .map_err(|e| format!("the table did not take it: {e}"))
    }

    fn poll(&mut self, _now: Instant) -> bool {
        let mut changed = false;
        while let Some(event) = self.handle.try_next_event() {
            changed = true;
            match event {
                NetEvent::Ticket(t) => self.ticket = Some(t),
                NetEvent::Lobby { filled, seats } => self.lobby = Some((filled, seats)),
                NetEvent::Started { .. } => {
                    // A resumed game replays from the start: begin the log
                    // afresh rather than doubling it.
                    self.chronicle = Chronicle::new();
                }
                NetEvent::Applied { events, .. } => {
                    let net = self.handle.snapshot();
                    let view = net.view.clone().unwrap_or_else(|| self.placeholder.clone());
                    self.chronicle.record(&events, &view, &net.names, net.seat);
                }
                NetEvent::Rewound { position } => {
                    self.notice = Some(format!(
                        "the table went back to move {position} to apply a forfeit"
                    ));
                }
                NetEvent::Violation(v) => self.notice = Some(format!("violation: {v}")),
                NetEvent::Finished { transcript, .. } => self.transcript = Some(transcript),
                NetEvent::Note(n) if n.contains("refused") => self.notice = Some(n),
                _ => {}
            }
        }
        // The handle's snapshot moves on without events too (who is online).
        if self.watch.has_changed().unwrap_or(false) {
            self.watch.borrow_and_update();
            changed = true;
        }
        changed
    }
}
