//! One round played over the network: the tournament node's desk.
//!
//! The tournament node (`roundtable tournament host`, SPEC 6.2) runs a
//! [`RoundDesk`] for the round it serves. The desk is a pure state machine:
//! its driver tells it who arrived (an authenticated key), how long ago the
//! round opened (milliseconds, from the driver's clock), which table's host
//! opened its lobby, and which table's audited game came back; it answers
//! each player with what to do next ([`Answer`]).
//!
//! A table **opens** when the first of these holds:
//!
//! * every player paired at it has arrived: it opens with all of them;
//! * the show-up time of the terms ([`crate::Terms::show_up_ms`]) has passed
//!   since the round opened and at least two of its players have arrived:
//!   it opens with those; the others lose the game by forfeit (the
//!   standings count it from the game's genesis, which seats only the
//!   players who came: [`crate::standings`]);
//! * the show-up time has passed and fewer than two have arrived: no game
//!   can be played, the table is over with no game and scores nothing.
//!
//! A player counts as arrived while it keeps asking: one not heard from for
//! [`PRESENCE_MS`] (it asks every half second while its table gathers)
//! left, and a table does not open with it.
//!
//! When a table opens, the arrived player first in key order is its
//! **host**: it opens a lobby for exactly the seated players, with the
//! table's genesis nonce ([`crate::table_nonce`]), and sends the node its
//! lobby ticket; every other seated player is then sent that ticket. A
//! player of the table who arrives after it opened without it is told it
//! forfeited. The round is over when every table's game came back or the
//! table is over with no game.

use std::collections::BTreeMap;

use roundtable_table::{CO_CLAIM_TIMEOUTS, PublicKey};

use crate::Pairing;

/// A gathering player not heard from for this long (milliseconds) no
/// longer counts as arrived.
pub const PRESENCE_MS: u64 = 5_000;

/// How long a table's game may stand still before the node gives up on
/// it (see the module docs): a live game leaves a position within
/// [`CO_CLAIM_TIMEOUTS`] stall timeouts (a silent seat is claimed after
/// one, seats that stopped together are co-claimed and the game abandoned
/// after three); one more covers the lobby before the game starts, and
/// [`PRESENCE_MS`] the players' reports.
pub fn give_up_ms(stall_timeout_ms: u64) -> u64 {
    stall_timeout_ms
        .saturating_mul(CO_CLAIM_TIMEOUTS + 1)
        .saturating_add(PRESENCE_MS)
}

/// What the node tells a player who asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Your table is still gathering: its number, its players (the
    /// pairing's order), who has arrived, and how long until the show-up
    /// time passes (0 once it has).
    Wait {
        /// The table.
        table: u32,
        /// Its players.
        players: Vec<PublicKey>,
        /// Those who arrived.
        arrived: Vec<PublicKey>,
        /// Milliseconds until the show-up time passes.
        show_up_left_ms: u64,
    },
    /// Open a lobby for these players (yours included), with the table's
    /// genesis nonce, and send the node its ticket.
    Host {
        /// The table.
        table: u32,
        /// The players to seat.
        seats: Vec<PublicKey>,
    },
    /// Your table's host has opened its lobby: join with this ticket.
    Join {
        /// The table.
        table: u32,
        /// The players seated.
        seats: Vec<PublicKey>,
        /// The lobby's ticket.
        ticket: String,
    },
    /// Your table's host has not opened its lobby yet: ask again.
    Opening {
        /// The table.
        table: u32,
    },
    /// Your table started without you, or could not start: you lost it
    /// by forfeit (or, with no game, nobody scores).
    Forfeited {
        /// The table.
        table: u32,
        /// Why, in one line.
        reason: String,
    },
    /// Your table's game is over and came back to the node.
    Done {
        /// The table.
        table: u32,
    },
    /// The node gave up on your table: its game stood still too long
    /// (see the module docs). It has no result.
    GaveUp {
        /// The table.
        table: u32,
    },
    /// You sit this round out.
    Bye,
    /// You are not paired in this round (not an entrant).
    NotPaired,
}

/// Why the desk refuses what a player sent.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeskError {
    /// A lobby ticket from a player who is not the table's host.
    #[error("table {table}: only its host opens its lobby")]
    NotTheHost {
        /// The table.
        table: u32,
    },
    /// No such table in the round.
    #[error("the round has no table {0}")]
    NoTable(u32),
    /// A game for a table that is not playing (not opened, or done).
    #[error("table {table} is not playing")]
    NotPlaying {
        /// The table.
        table: u32,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum State {
    Gathering,
    Opening {
        host: PublicKey,
        seats: Vec<PublicKey>,
    },
    Open {
        seats: Vec<PublicKey>,
        ticket: String,
    },
    /// Given up: its game stood still too long.
    GivenUp {
        seats: Vec<PublicKey>,
    },
    /// Over: with a game that came back, or none.
    Over {
        seats: Vec<PublicKey>,
        played: bool,
    },
}

#[derive(Clone, Debug)]
struct DeskTable {
    number: u32,
    players: Vec<PublicKey>,
    /// Each arrived player, with when it last asked.
    arrived: BTreeMap<PublicKey, u64>,
    state: State,
    /// Once open: the furthest position a player reported, and when the
    /// game last went further (or the table opened).
    progress: (u64, u64),
}

/// The tournament node's state for one round (see the module docs).
#[derive(Clone, Debug)]
pub struct RoundDesk {
    round: u32,
    show_up_ms: u64,
    give_up_ms: u64,
    tables: Vec<DeskTable>,
    byes: Vec<PublicKey>,
}

/// How a table ended, for the node's report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableEnd {
    /// The table.
    pub table: u32,
    /// Its game came back.
    pub played: bool,
    /// The node gave up on it (its game stood still too long).
    pub given_up: bool,
    /// The paired players not seated: they lost by forfeit.
    pub no_shows: Vec<PublicKey>,
}

impl RoundDesk {
    /// The desk for `pairing`, with the terms' show-up time and stall
    /// timeout. Tables in `already_played` (their game is already in the
    /// tournament's folder) start over.
    pub fn new(
        pairing: &Pairing,
        show_up_ms: u64,
        stall_timeout_ms: u64,
        already_played: &[u32],
    ) -> RoundDesk {
        let tables = pairing
            .tables
            .iter()
            .map(|t| DeskTable {
                number: t.number,
                players: t.players.clone(),
                arrived: BTreeMap::new(),
                state: if already_played.contains(&t.number) {
                    State::Over {
                        seats: t.players.clone(),
                        played: true,
                    }
                } else {
                    State::Gathering
                },
                progress: (0, 0),
            })
            .collect();
        RoundDesk {
            round: pairing.round,
            show_up_ms,
            give_up_ms: give_up_ms(stall_timeout_ms),
            tables,
            byes: pairing.byes.clone(),
        }
    }

    /// The round.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// `key` asks, `elapsed_ms` after the round opened: note its arrival
    /// and answer it.
    pub fn arrive(&mut self, key: PublicKey, elapsed_ms: u64) -> Answer {
        if self.byes.contains(&key) {
            return Answer::Bye;
        }
        let Some(index) = self.tables.iter().position(|t| t.players.contains(&key)) else {
            return Answer::NotPaired;
        };
        if self.tables[index].state == State::Gathering {
            self.tables[index].arrived.insert(key, elapsed_ms);
        }
        self.tick(elapsed_ms);
        let show_up_left_ms = self.show_up_ms.saturating_sub(elapsed_ms);
        let t = &self.tables[index];
        let table = t.number;
        match &t.state {
            State::Gathering => Answer::Wait {
                table,
                players: t.players.clone(),
                arrived: t.arrived.keys().copied().collect(),
                show_up_left_ms,
            },
            State::Opening { host, seats } if seats.contains(&key) => {
                if *host == key {
                    Answer::Host {
                        table,
                        seats: seats.clone(),
                    }
                } else {
                    Answer::Opening { table }
                }
            }
            State::Open { seats, ticket } if seats.contains(&key) => Answer::Join {
                table,
                seats: seats.clone(),
                ticket: ticket.clone(),
            },
            State::Over { seats, played } if seats.contains(&key) && *played => {
                Answer::Done { table }
            }
            State::GivenUp { seats } if seats.contains(&key) => Answer::GaveUp { table },
            State::Over { played: false, .. } => Answer::Forfeited {
                table,
                reason: "fewer than two of the table's players came in time: no game".into(),
            },
            _ => Answer::Forfeited {
                table,
                reason: "the table started without you: you came after the show-up time".into(),
            },
        }
    }

    /// Time passed: open every table the rule opens, and give up on every
    /// open table whose game stood still too long (see the module docs).
    pub fn tick(&mut self, elapsed_ms: u64) {
        let late = elapsed_ms >= self.show_up_ms;
        for t in &mut self.tables {
            if let State::Opening { seats, .. } | State::Open { seats, .. } = &t.state
                && elapsed_ms.saturating_sub(t.progress.1) >= self.give_up_ms
            {
                t.state = State::GivenUp {
                    seats: seats.clone(),
                };
            }
            if t.state != State::Gathering {
                continue;
            }
            t.arrived
                .retain(|_, seen| elapsed_ms.saturating_sub(*seen) < PRESENCE_MS);
            let everyone = t.arrived.len() == t.players.len();
            let seats: Vec<PublicKey> = t.arrived.keys().copied().collect();
            if let (true, Some(host)) = (everyone || (late && seats.len() >= 2), seats.first()) {
                t.state = State::Opening { host: *host, seats };
                t.progress = (0, elapsed_ms);
            } else if late {
                t.state = State::Over {
                    seats: Vec::new(),
                    played: false,
                };
            }
        }
    }

    /// `key` opened table `table`'s lobby with `ticket`, `elapsed_ms`
    /// after the round opened.
    pub fn opened(
        &mut self,
        key: PublicKey,
        table: u32,
        ticket: String,
        elapsed_ms: u64,
    ) -> Result<(), DeskError> {
        let t = self.table_mut(table)?;
        match &t.state {
            State::Opening { host, seats } if *host == key => {
                t.state = State::Open {
                    seats: seats.clone(),
                    ticket,
                };
                t.progress.1 = elapsed_ms;
                Ok(())
            }
            // Told again (the answer to the first was lost): same table.
            State::Open { seats, .. } if seats.first() == Some(&key) => Ok(()),
            _ => Err(DeskError::NotTheHost { table }),
        }
    }

    /// `key`, seated at `table`, reports its game at `position` (inputs
    /// applied), `elapsed_ms` after the round opened: a position further
    /// than any reported before is progress.
    pub fn playing(
        &mut self,
        key: PublicKey,
        table: u32,
        position: u64,
        elapsed_ms: u64,
    ) -> Result<(), DeskError> {
        let t = self.table_mut(table)?;
        match &t.state {
            State::Opening { seats, .. } | State::Open { seats, .. } if seats.contains(&key) => {
                if position > t.progress.0 {
                    t.progress = (position, elapsed_ms);
                }
                Ok(())
            }
            _ => Err(DeskError::NotPlaying { table }),
        }
    }

    /// The players a game for `table` must seat, while it is playing.
    pub fn seats(&self, table: u32) -> Result<&[PublicKey], DeskError> {
        let t = self
            .tables
            .iter()
            .find(|t| t.number == table)
            .ok_or(DeskError::NoTable(table))?;
        match &t.state {
            State::Opening { seats, .. } | State::Open { seats, .. } | State::GivenUp { seats } => {
                Ok(seats)
            }
            _ => Err(DeskError::NotPlaying { table }),
        }
    }

    /// Table `table`'s game came back (the caller checked that it is that
    /// table's, seats [`RoundDesk::seats`], and passes the audit).
    pub fn finished(&mut self, table: u32) -> Result<(), DeskError> {
        let seats = self.seats(table)?.to_vec();
        self.table_mut(table)?.state = State::Over {
            seats,
            played: true,
        };
        Ok(())
    }

    /// Whether table `table` is over.
    pub fn is_table_over(&self, table: u32) -> bool {
        self.tables
            .iter()
            .any(|t| t.number == table && matches!(t.state, State::Over { .. }))
    }

    /// Whether every table is over or given up.
    pub fn is_over(&self) -> bool {
        self.tables
            .iter()
            .all(|t| matches!(t.state, State::Over { .. } | State::GivenUp { .. }))
    }

    /// How every table ended (meaningful once [`RoundDesk::is_over`]).
    pub fn ends(&self) -> Vec<TableEnd> {
        self.tables
            .iter()
            .map(|t| {
                let (seats, played) = match &t.state {
                    State::Over { seats, played } => (seats.as_slice(), *played),
                    _ => (&[][..], false),
                };
                TableEnd {
                    table: t.number,
                    played,
                    given_up: matches!(t.state, State::GivenUp { .. }),
                    no_shows: if played {
                        t.players
                            .iter()
                            .filter(|k| !seats.contains(k))
                            .copied()
                            .collect()
                    } else {
                        Vec::new()
                    },
                }
            })
            .collect()
    }

    fn table_mut(&mut self, table: u32) -> Result<&mut DeskTable, DeskError> {
        self.tables
            .iter_mut()
            .find(|t| t.number == table)
            .ok_or(DeskError::NoTable(table))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PairingTable;

    fn key(i: u8) -> PublicKey {
        PublicKey([i; 32])
    }

    fn pairing() -> Pairing {
        Pairing {
            round: 1,
            tables: vec![
                PairingTable {
                    number: 1,
                    players: vec![key(4), key(1), key(3)],
                },
                PairingTable {
                    number: 2,
                    players: vec![key(5), key(6), key(7)],
                },
            ],
            byes: vec![key(9)],
        }
    }

    #[test]
    fn a_full_table_opens_at_once_with_its_first_key_as_host() {
        let mut desk = RoundDesk::new(&pairing(), 10_000, 30_000, &[]);
        assert!(matches!(desk.arrive(key(4), 0), Answer::Wait { .. }));
        assert!(matches!(desk.arrive(key(3), 5), Answer::Wait { .. }));
        assert_eq!(
            desk.arrive(key(1), 6),
            Answer::Host {
                table: 1,
                seats: vec![key(1), key(3), key(4)]
            }
        );
        assert_eq!(desk.arrive(key(4), 7), Answer::Opening { table: 1 });
        assert_eq!(
            desk.opened(key(3), 1, "t".into(), 10_000),
            Err(DeskError::NotTheHost { table: 1 })
        );
        desk.opened(key(1), 1, "t".into(), 7).unwrap();
        assert!(matches!(desk.arrive(key(4), 8), Answer::Join { .. }));
        assert!(!desk.is_over());
        desk.finished(1).unwrap();
        assert_eq!(desk.arrive(key(4), 9), Answer::Done { table: 1 });
        assert_eq!(desk.arrive(key(9), 9), Answer::Bye);
        assert_eq!(desk.arrive(key(8), 9), Answer::NotPaired);
    }

    #[test]
    fn after_the_show_up_time_a_table_starts_without_who_is_missing() {
        let mut desk = RoundDesk::new(&pairing(), 10_000, 30_000, &[]);
        for at in [0, 4_000, 8_000] {
            desk.arrive(key(4), at);
            desk.arrive(key(3), at);
            desk.arrive(key(6), at);
        }
        // Before the time, nothing opens.
        desk.tick(9_999);
        assert!(matches!(desk.arrive(key(4), 9_999), Answer::Wait { .. }));
        desk.tick(10_000);
        assert_eq!(
            desk.arrive(key(3), 10_000),
            Answer::Host {
                table: 1,
                seats: vec![key(3), key(4)]
            }
        );
        // The latecomer lost table 1; table 2 had one player: no game.
        assert!(matches!(
            desk.arrive(key(1), 10_001),
            Answer::Forfeited { table: 1, .. }
        ));
        assert!(matches!(
            desk.arrive(key(6), 10_001),
            Answer::Forfeited { table: 2, .. }
        ));
        assert!(desk.is_table_over(2));
        desk.opened(key(3), 1, "t".into(), 10_000).unwrap();
        assert_eq!(desk.seats(1), Ok(&[key(3), key(4)][..]));
        desk.finished(1).unwrap();
        assert!(desk.is_over());
        assert_eq!(
            desk.ends(),
            vec![
                TableEnd {
                    table: 1,
                    played: true,
                    given_up: false,
                    no_shows: vec![key(1)]
                },
                TableEnd {
                    table: 2,
                    played: false,
                    given_up: false,
                    no_shows: vec![]
                }
            ]
        );
    }

    #[test]
    fn a_player_who_stops_asking_no_longer_counts_as_arrived() {
        let mut desk = RoundDesk::new(&pairing(), 10_000, 30_000, &[]);
        desk.arrive(key(4), 0);
        desk.arrive(key(1), 0);
        desk.arrive(key(4), 6_000);
        // key(1) has not asked since 0: it left, and key(3)'s arrival does
        // not complete the table.
        assert!(matches!(
            desk.arrive(key(3), 7_000),
            Answer::Wait { arrived, .. } if arrived == vec![key(3), key(4)]
        ));
        desk.tick(10_000);
        // It opens at the show-up time with the two who kept asking.
        assert_eq!(
            desk.arrive(key(3), 10_000),
            Answer::Host {
                table: 1,
                seats: vec![key(3), key(4)]
            }
        );
    }

    #[test]
    fn a_table_whose_game_stands_still_is_given_up_and_a_moving_one_is_not() {
        // Stall timeout 30 s: a table is given up after 125 s standing still.
        assert_eq!(give_up_ms(30_000), 125_000);
        let mut desk = RoundDesk::new(&pairing(), 10_000, 30_000, &[]);
        for k in [4, 1, 3, 5, 6, 7] {
            desk.arrive(key(k), 0);
        }
        // Both tables open at once; table 1's host opens its lobby at 1 s,
        // table 2's host never does (it died after the table opened).
        assert!(matches!(desk.arrive(key(1), 0), Answer::Host { .. }));
        desk.opened(key(1), 1, "t".into(), 1_000).unwrap();
        // Table 1's game moves until 60 s; a report of no new position is
        // not progress, nor is one from a player not at the table.
        desk.playing(key(3), 1, 40, 60_000).unwrap();
        desk.playing(key(4), 1, 40, 150_000).unwrap();
        assert_eq!(
            desk.playing(key(5), 1, 99, 150_000),
            Err(DeskError::NotPlaying { table: 1 })
        );
        desk.tick(124_999);
        assert!(!desk.is_over());
        // Table 2 stood still since it opened at 0.
        desk.tick(125_000);
        assert_eq!(desk.arrive(key(5), 125_000), Answer::GaveUp { table: 2 });
        assert!(!desk.is_table_over(2));
        desk.tick(184_999);
        assert!(!desk.is_over(), "table 1 moved at 60 s");
        desk.tick(185_000);
        assert!(desk.is_over());
        assert_eq!(desk.arrive(key(4), 185_000), Answer::GaveUp { table: 1 });
        // A game that still comes back for a given-up table is taken.
        assert_eq!(desk.seats(2), Ok(&[key(5), key(6), key(7)][..]));
        desk.finished(2).unwrap();
        let ends = desk.ends();
        assert!(ends[0].given_up && !ends[0].played);
        assert!(!ends[1].given_up && ends[1].played);
    }
}
