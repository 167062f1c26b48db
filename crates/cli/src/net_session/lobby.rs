//! The lobby screen's content while a networked table gathers its seats.

use roundtable_games::Listed;
use roundtable_net::{Phase, Ticket};
use roundtable_tui::{Connection, Lobby, SeatInfo, SeatKind};

use super::NetSession;

impl<G: Listed> NetSession<G> {
    /// The lobby screen's content while the table gathers its seats.
    pub(super) fn lobby(&self, net: &roundtable_net::Snapshot<G>) -> Option<Lobby> {
        if net.game_id.is_some() || !matches!(net.phase, Phase::Starting | Phase::Lobby) {
            return None;
        }
        // The host lists who sat down; a joiner and a spectator show the
        // list the host last sent them.
        let seated: Vec<SeatInfo> = net
            .names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let online = net.online.get(i).copied().unwrap_or(false);
                let (kind, connection) = match (net.lobby_seat == Some(i), online) {
                    (true, _) => (SeatKind::You, Connection::Local),
                    (false, true) => (seat_kind(name), connected(net, i)),
                    (false, false) => (seat_kind(name), Connection::Offline),
                };
                SeatInfo {
                    name: name.clone(),
                    kind,
                    connection,
                    clock: None,
                    forfeited: false,
                }
            })
            .collect();
        let (filled, seats) = match (self.lobby, self.seats) {
            (Some((filled, seats)), _) => (filled, seats),
            (None, Some(seats)) => (seated.len() as u8, seats),
            // A joiner before the host answered: nothing known yet.
            (None, None) => (0, 0),
        };
        Some(Lobby {
            ticket: self.ticket.as_ref().map(Ticket::to_string),
            reach: self
                .ticket
                .iter()
                .filter_map(Ticket::reach_warning)
                .flatten()
                .map(|line| {
                    // The printed lines start lower case; the screen shows sentences.
                    let mut chars = line.chars();
                    let first = chars.next().map(|c| c.to_uppercase().collect::<String>());
                    format!("{}{}.", first.unwrap_or_default(), chars.as_str())
                })
                .collect(),
            seats,
            filled: filled.max(seated.len() as u8),
            seated,
            spectator: self.spectator,
            stopped: self.stopped.clone(),
        })
    }
}

/// In-process bots of a host are named "bot N" (see `spawn_bots`); anyone
/// else is a person elsewhere.
pub(super) fn seat_kind(name: &str) -> SeatKind {
    if name.starts_with("bot ") {
        SeatKind::Bot
    } else {
        SeatKind::Remote
    }
}

/// How seat `i`'s connected peer is reached: directly, or only through a
/// relay (the lobby and the table say which, beside the seat).
pub(super) fn connected<G: Listed>(net: &roundtable_net::Snapshot<G>, i: usize) -> Connection {
    if net.relayed.get(i).copied().unwrap_or(false) {
        Connection::Relayed
    } else {
        Connection::Online
    }
}
