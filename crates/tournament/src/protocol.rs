//! The messages of a round over the network (SPEC 6.2,
//! `/roundtable/tournament/1`): what a player asks the tournament node and
//! what the node answers, the [`RoundDesk`](crate::RoundDesk)'s
//! [`Answer`] with the table nonce added. Framing, connections and
//! limits are the network crate's; the messages, their bounds and their
//! known answers (`protocol/vectors/tournament-wire.json`) are here, next
//! to the desk that decides them.

use serde::{Deserialize, Serialize};

use crate::{Answer, TournamentId, table_nonce};

/// The protocol's name.
pub const TOURNAMENT_PROTOCOL: &str = "/roundtable/tournament/1";
/// A request carries at most a transcript: the largest game's file, with
/// room to spare (SPEC 6.2). Only a registered player's request is read at
/// all: the node lets no other peer connect.
pub const MAX_REQUEST_BYTES: usize = 4 * 1024 * 1024;
/// A response is at most a table and a ticket.
pub const MAX_RESPONSE_BYTES: usize = 64 * 1024;
/// Longest reason or ticket carried.
pub const MAX_TEXT: usize = 2048;
/// Most keys a response lists: a table's players and those who arrived.
pub const MAX_KEYS: usize = 2 * u8::MAX as usize;

/// What a player asks the node (SPEC 6.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TourRequest {
    /// I am here: what do I do?
    Arrive {
        /// The round the player plays.
        round_id: [u8; 32],
    },
    /// I opened my table's lobby: here is its ticket.
    Opened {
        /// The round.
        round_id: [u8; 32],
        /// The table.
        table: u32,
        /// The lobby's ticket.
        ticket: String,
    },
    /// My table's game is over: its transcript file.
    Result {
        /// The round.
        round_id: [u8; 32],
        /// The table.
        table: u32,
        /// The transcript file's bytes.
        transcript: Vec<u8>,
    },
    /// My table's game has applied this many inputs (sent every 2 s while
    /// it plays).
    Playing {
        /// The round.
        round_id: [u8; 32],
        /// The table.
        table: u32,
        /// Inputs applied.
        position: u64,
    },
}

impl TourRequest {
    /// The round the request is for.
    pub fn round_id(&self) -> [u8; 32] {
        match self {
            TourRequest::Arrive { round_id }
            | TourRequest::Opened { round_id, .. }
            | TourRequest::Result { round_id, .. }
            | TourRequest::Playing { round_id, .. } => *round_id,
        }
    }

    /// Check the bounds postcard does not: a ticket of at most
    /// [`MAX_TEXT`] bytes.
    pub fn check(&self) -> Result<(), String> {
        match self {
            TourRequest::Opened { ticket, .. } if ticket.len() > MAX_TEXT => {
                Err("ticket too long".into())
            }
            _ => Ok(()),
        }
    }
}

/// What the node answers (SPEC 6.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TourResponse {
    /// [`Answer::Wait`].
    Wait {
        /// The table.
        table: u32,
        /// Its players, the pairing's order.
        players: Vec<[u8; 32]>,
        /// Those who arrived.
        arrived: Vec<[u8; 32]>,
        /// Milliseconds until the show-up time passes.
        show_up_left_ms: u64,
    },
    /// [`Answer::Host`], with the table's genesis nonce.
    Host {
        /// The table.
        table: u32,
        /// The players to seat.
        seats: Vec<[u8; 32]>,
        /// The table nonce (SPEC 6.1).
        nonce: [u8; 32],
    },
    /// [`Answer::Join`], with the table's genesis nonce.
    Join {
        /// The table.
        table: u32,
        /// The players seated.
        seats: Vec<[u8; 32]>,
        /// The table nonce (SPEC 6.1).
        nonce: [u8; 32],
        /// The lobby's ticket.
        ticket: String,
    },
    /// [`Answer::Opening`].
    Opening {
        /// The table.
        table: u32,
    },
    /// [`Answer::Forfeited`].
    Forfeited {
        /// The table.
        table: u32,
        /// Why, in one line.
        reason: String,
    },
    /// [`Answer::Done`].
    Done {
        /// The table.
        table: u32,
    },
    /// [`Answer::Bye`].
    Bye,
    /// The request is refused.
    Refused {
        /// Why, in one line.
        reason: String,
    },
    /// Taken.
    Ok,
    /// [`Answer::GaveUp`].
    GaveUp {
        /// The table.
        table: u32,
    },
}

fn keys(list: &[roundtable_table::PublicKey]) -> Vec<[u8; 32]> {
    list.iter().map(|k| k.0).collect()
}

impl TourResponse {
    /// The message that carries the desk's `answer` to a player of round
    /// `round` of `tournament`: a table's seats come with its nonce, and a
    /// player not paired is refused.
    pub fn answer(answer: Answer, tournament: &TournamentId, round: u32) -> TourResponse {
        match answer {
            Answer::Wait {
                table,
                players,
                arrived,
                show_up_left_ms,
            } => TourResponse::Wait {
                table,
                players: keys(&players),
                arrived: keys(&arrived),
                show_up_left_ms,
            },
            Answer::Host { table, seats } => TourResponse::Host {
                table,
                seats: keys(&seats),
                nonce: table_nonce(tournament, round, table),
            },
            Answer::Join {
                table,
                seats,
                ticket,
            } => TourResponse::Join {
                table,
                seats: keys(&seats),
                nonce: table_nonce(tournament, round, table),
                ticket,
            },
            Answer::Opening { table } => TourResponse::Opening { table },
            Answer::Forfeited { table, reason } => TourResponse::Forfeited { table, reason },
            Answer::Done { table } => TourResponse::Done { table },
            Answer::GaveUp { table } => TourResponse::GaveUp { table },
            Answer::Bye => TourResponse::Bye,
            Answer::NotPaired => TourResponse::Refused {
                reason: format!(
                    "you are not paired in round {round} (withdrawn: no seed share opened)"
                ),
            },
        }
    }

    /// Check the bounds postcard does not: at most [`MAX_KEYS`] keys and
    /// texts of at most [`MAX_TEXT`] bytes.
    pub fn check(&self) -> Result<(), String> {
        let (keys, text) = match self {
            TourResponse::Wait {
                players, arrived, ..
            } => (players.len() + arrived.len(), 0),
            TourResponse::Host { seats, .. } => (seats.len(), 0),
            TourResponse::Join { seats, ticket, .. } => (seats.len(), ticket.len()),
            TourResponse::Forfeited { reason, .. } | TourResponse::Refused { reason } => {
                (0, reason.len())
            }
            _ => (0, 0),
        };
        if keys > MAX_KEYS || text > MAX_TEXT {
            return Err("too many keys or too long a text".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use roundtable_table::PublicKey;

    use super::*;

    #[test]
    fn a_tables_seats_come_with_its_nonce_and_a_player_not_paired_is_refused() {
        let id = TournamentId([7; 32]);
        let seats = vec![PublicKey([1; 32]), PublicKey([2; 32])];
        let host = TourResponse::answer(
            Answer::Host {
                table: 3,
                seats: seats.clone(),
            },
            &id,
            2,
        );
        assert_eq!(
            host,
            TourResponse::Host {
                table: 3,
                seats: vec![[1; 32], [2; 32]],
                nonce: table_nonce(&id, 2, 3),
            }
        );
        let join = TourResponse::answer(
            Answer::Join {
                table: 3,
                seats,
                ticket: "rt1_x".into(),
            },
            &id,
            2,
        );
        assert!(
            matches!(join, TourResponse::Join { nonce, .. } if nonce == table_nonce(&id, 2, 3))
        );
        let refused = TourResponse::answer(Answer::NotPaired, &id, 2);
        assert!(
            matches!(&refused, TourResponse::Refused { reason } if reason.contains("round 2")),
            "{refused:?}"
        );
    }

    #[test]
    fn texts_and_key_lists_are_bounded() {
        let long = "x".repeat(MAX_TEXT + 1);
        let opened = TourRequest::Opened {
            round_id: [0; 32],
            table: 1,
            ticket: long.clone(),
        };
        assert!(opened.check().is_err());
        assert!(TourResponse::Refused { reason: long }.check().is_err());
        let keys = vec![[0; 32]; MAX_KEYS + 1];
        let host = TourResponse::Host {
            table: 1,
            seats: keys,
            nonce: [0; 32],
        };
        assert!(host.check().is_err());
        assert!(TourResponse::Ok.check().is_ok());
    }
}
