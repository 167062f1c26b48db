//! Pairings: a pure function of the manifest and the results so far.
//!
//! Round `r` is paired from the players (in key order), the format, the
//! seats per table, the seat seed ([`crate::Manifest::seat_seed`]) and the
//! [`Record`] of rounds `1..r`:
//!
//! 1. **Order.** Each player draws `SHA-256("roundtable/tournament-draw/v1"
//!    || seat seed || r u32 LE || key)` (round robin draws once, with
//!    `r = 0`). Swiss orders players by points, highest first, then by
//!    draw; round robin by draw alone. Players level on points are thus in
//!    an order nobody chose.
//! 2. **Byes.** When the count does not divide by the seats, the remainder
//!    sit out: those with the fewest byes so far, lowest in the order first.
//! 3. **Tables.** Round robin at two seats is the circle method over the
//!    drawn order: everyone meets everyone once in [`crate::Format::rounds`]
//!    rounds. Otherwise the first unseated player in the order sits with the
//!    next unseated players in the order that none at the table has met, and
//!    so on; when that leaves someone with no table, the search backs up
//!    (depth first, in order) until every table holds players who have not
//!    met. The search tries at most [`SEARCH_BUDGET`] placements; if it
//!    finds no such tables within them (none may exist: after enough rounds
//!    repeats are unavoidable), each table takes the first unseated player
//!    and then, one by one, the unseated player who has met the fewest of
//!    those already at it, earliest in the order on a tie.
//! 4. **Numbers.** Tables are numbered from 1 in the order they were formed
//!    (table 1 is the top of a Swiss round); players at a table are listed
//!    in the order. Seats in the game itself are in key order, as in every
//!    genesis, and the game draws who starts.

use std::collections::{BTreeMap, BTreeSet};

use roundtable_table::PublicKey;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::Format;

/// Hashed before the seed, the round and a key to make a player's draw.
pub const DRAW_DOMAIN: &[u8] = b"roundtable/tournament-draw/v1";
/// Most placements the table search tries before it settles for fewest
/// repeats (the same number everywhere, so the same tables everywhere).
pub const SEARCH_BUDGET: u64 = 200_000;

/// One table of a round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairingTable {
    /// The table's number, from 1.
    pub number: u32,
    /// Its players, in the round's order.
    #[serde(with = "keys")]
    pub players: Vec<PublicKey>,
}

/// A round's tables and byes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    /// The round, from 1.
    pub round: u32,
    /// The tables.
    pub tables: Vec<PairingTable>,
    /// Players who sit this round out.
    #[serde(with = "keys")]
    pub byes: Vec<PublicKey>,
}

mod keys {
    use roundtable_table::PublicKey;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(v: &[PublicKey], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|k| hex::encode(k.0)))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<PublicKey>, D::Error> {
        use serde::de::Error;
        <Vec<String>>::deserialize(d)?
            .iter()
            .map(|h| {
                let bytes = hex::decode(h).map_err(D::Error::custom)?;
                <[u8; 32]>::try_from(bytes.as_slice())
                    .map(PublicKey)
                    .map_err(|_| D::Error::custom("a key is 32 bytes"))
            })
            .collect()
    }
}

/// What earlier rounds left that pairing looks at: points (in half points),
/// who has met whom, and byes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    points: BTreeMap<PublicKey, u64>,
    met: BTreeSet<(PublicKey, PublicKey)>,
    byes: BTreeMap<PublicKey, u32>,
}

impl Record {
    /// `key`'s points so far, in half points.
    pub fn half_points(&self, key: &PublicKey) -> u64 {
        self.points.get(key).copied().unwrap_or(0)
    }

    /// Add `half_points` to `key`.
    pub fn add_half_points(&mut self, key: PublicKey, half_points: u64) {
        *self.points.entry(key).or_default() += half_points;
    }

    /// Every two players at `table` have met.
    pub fn record_table(&mut self, table: &[PublicKey]) {
        for (i, a) in table.iter().enumerate() {
            for b in &table[i + 1..] {
                self.met.insert(ordered(*a, *b));
            }
        }
    }

    /// `key` sat a round out.
    pub fn record_bye(&mut self, key: PublicKey) {
        *self.byes.entry(key).or_default() += 1;
    }

    /// Whether `a` and `b` have met.
    pub fn have_met(&self, a: &PublicKey, b: &PublicKey) -> bool {
        self.met.contains(&ordered(*a, *b))
    }

    /// How many rounds `key` sat out.
    pub fn byes(&self, key: &PublicKey) -> u32 {
        self.byes.get(key).copied().unwrap_or(0)
    }
}

fn ordered(a: PublicKey, b: PublicKey) -> (PublicKey, PublicKey) {
    if a <= b { (a, b) } else { (b, a) }
}

/// A player's draw for `round` (see the module documentation).
pub fn draw(seed: &[u8; 32], round: u32, key: &PublicKey) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(DRAW_DOMAIN);
    h.update(seed);
    h.update(round.to_le_bytes());
    h.update(key.0);
    h.finalize().into()
}

/// Pair round `round` (from 1) of `players` at tables of `seats` (see the
/// module documentation for the rule).
pub fn pair_round(
    players: &[PublicKey],
    format: Format,
    seats: u8,
    seed: &[u8; 32],
    round: u32,
    record: &Record,
) -> Pairing {
    let seats = usize::from(seats.max(2));
    let round_robin = matches!(format, Format::RoundRobin);
    let draw_round = if round_robin { 0 } else { round };
    let mut order: Vec<(u64, [u8; 32], PublicKey)> = players
        .iter()
        .map(|k| {
            let points = if round_robin {
                0
            } else {
                record.half_points(k)
            };
            (points, draw(seed, draw_round, k), *k)
        })
        .collect();
    order.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let order: Vec<PublicKey> = order.into_iter().map(|(_, _, k)| k).collect();

    if round_robin && seats == 2 {
        return circle(&order, round);
    }

    let bye_count = order.len() % seats;
    let mut by_need: Vec<(u32, usize)> = order
        .iter()
        .enumerate()
        .map(|(i, k)| (record.byes(k), i))
        .collect();
    by_need.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    let out: BTreeSet<usize> = by_need.iter().take(bye_count).map(|(_, i)| *i).collect();
    let byes = order
        .iter()
        .enumerate()
        .filter(|(i, _)| out.contains(i))
        .map(|(_, k)| *k)
        .collect();
    let seated: Vec<PublicKey> = order
        .iter()
        .enumerate()
        .filter(|(i, _)| !out.contains(i))
        .map(|(_, k)| *k)
        .collect();
    let groups = tables_without_repeats(&seated, seats, record)
        .unwrap_or_else(|| tables_with_fewest_repeats(&seated, seats, record));
    Pairing {
        round,
        tables: numbered(groups),
        byes,
    }
}

fn numbered(groups: Vec<Vec<PublicKey>>) -> Vec<PairingTable> {
    groups
        .into_iter()
        .enumerate()
        .map(|(i, players)| PairingTable {
            number: i as u32 + 1,
            players,
        })
        .collect()
}

/// Round robin at two seats: the first player stays, the others turn one
/// place a round; with an odd count, whoever meets the empty place sits out.
fn circle(order: &[PublicKey], round: u32) -> Pairing {
    let mut ring: Vec<Option<PublicKey>> = order.iter().copied().map(Some).collect();
    if ring.len() % 2 == 1 {
        ring.push(None);
    }
    let n = ring.len();
    if n >= 2 {
        let turns = (round.saturating_sub(1) as usize) % (n - 1);
        ring[1..].rotate_right(turns);
    }
    let mut groups = Vec::new();
    let mut byes = Vec::new();
    for i in 0..n / 2 {
        match (ring[i], ring[n - 1 - i]) {
            (Some(a), Some(b)) => groups.push(vec![a, b]),
            (Some(a), None) | (None, Some(a)) => byes.push(a),
            (None, None) => {}
        }
    }
    Pairing {
        round,
        tables: numbered(groups),
        byes,
    }
}

/// Tables of `seats` out of `order` in which nobody has met, found depth
/// first in order, or `None` if there are none or the budget ran out.
fn tables_without_repeats(
    order: &[PublicKey],
    seats: usize,
    record: &Record,
) -> Option<Vec<Vec<PublicKey>>> {
    let mut search = Search {
        order,
        seats,
        record,
        seated: vec![false; order.len()],
        table: Vec::with_capacity(seats),
        tables: Vec::new(),
        budget: SEARCH_BUDGET,
    };
    search.next_table().then(|| {
        search
            .tables
            .iter()
            .map(|t| t.iter().map(|&i| order[i]).collect())
            .collect()
    })
}

struct Search<'a> {
    order: &'a [PublicKey],
    seats: usize,
    record: &'a Record,
    seated: Vec<bool>,
    table: Vec<usize>,
    tables: Vec<Vec<usize>>,
    budget: u64,
}

impl Search<'_> {
    /// Seat the first unseated player at a new table and fill it.
    fn next_table(&mut self) -> bool {
        let Some(first) = self.seated.iter().position(|s| !s) else {
            return true;
        };
        self.seated[first] = true;
        self.table.push(first);
        if self.fill(first + 1) {
            return true;
        }
        self.table.pop();
        self.seated[first] = false;
        false
    }

    /// Add players after position `from` to the open table until it is
    /// full, then go on to the next table.
    fn fill(&mut self, from: usize) -> bool {
        if self.table.len() == self.seats {
            let table = std::mem::take(&mut self.table);
            self.tables.push(table);
            if self.next_table() {
                return true;
            }
            self.table = self.tables.pop().unwrap_or_default();
            return false;
        }
        for candidate in from..self.order.len() {
            if self.budget == 0 {
                return false;
            }
            self.budget -= 1;
            if self.seated[candidate]
                || self
                    .table
                    .iter()
                    .any(|&p| self.record.have_met(&self.order[p], &self.order[candidate]))
            {
                continue;
            }
            self.seated[candidate] = true;
            self.table.push(candidate);
            if self.fill(candidate + 1) {
                return true;
            }
            self.table.pop();
            self.seated[candidate] = false;
        }
        false
    }
}

/// Tables formed one at a time: the first unseated player, then whoever has
/// met the fewest at the table, earliest in the order on a tie.
fn tables_with_fewest_repeats(
    order: &[PublicKey],
    seats: usize,
    record: &Record,
) -> Vec<Vec<PublicKey>> {
    let mut unseated: Vec<PublicKey> = order.to_vec();
    let mut tables = Vec::new();
    while !unseated.is_empty() {
        let mut table = vec![unseated.remove(0)];
        while table.len() < seats && !unseated.is_empty() {
            let repeats = |k: &PublicKey| table.iter().filter(|p| record.have_met(p, k)).count();
            let best = (0..unseated.len())
                .min_by_key(|&i| (repeats(&unseated[i]), i))
                .unwrap_or(0);
            table.push(unseated.remove(best));
        }
        tables.push(table);
    }
    tables
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(n: u8) -> Vec<PublicKey> {
        (0..n).map(|i| PublicKey([i; 32])).collect()
    }

    #[test]
    fn round_robin_at_two_seats_meets_everyone_once() {
        for n in [4u8, 5, 8, 9] {
            let players = keys(n);
            let mut record = Record::default();
            let rounds = Format::RoundRobin.rounds(players.len(), 2);
            for r in 1..=rounds {
                let p = pair_round(&players, Format::RoundRobin, 2, &[3; 32], r, &record);
                for t in &p.tables {
                    assert!(
                        !record.have_met(&t.players[0], &t.players[1]),
                        "n={n} r={r}"
                    );
                    record.record_table(&t.players);
                }
            }
            for (i, a) in players.iter().enumerate() {
                for b in &players[i + 1..] {
                    assert!(record.have_met(a, b), "n={n}: not every pair met");
                }
            }
        }
    }

    #[test]
    fn swiss_puts_the_leaders_together() {
        let players = keys(8);
        let mut record = Record::default();
        for k in &players[4..] {
            record.add_half_points(*k, 6);
        }
        let p = pair_round(
            &players,
            Format::Swiss { rounds: 3 },
            4,
            &[1; 32],
            2,
            &record,
        );
        let mut top = p.tables[0].players.clone();
        top.sort();
        assert_eq!(top, players[4..].to_vec());
    }

    #[test]
    fn the_lowest_sits_out_and_not_twice_while_another_has_not() {
        let players = keys(5);
        let mut record = Record::default();
        record.add_half_points(players[0], 10);
        record.add_half_points(players[1], 8);
        record.add_half_points(players[2], 6);
        record.add_half_points(players[3], 4);
        let p = pair_round(
            &players,
            Format::Swiss { rounds: 3 },
            2,
            &[1; 32],
            2,
            &record,
        );
        assert_eq!(p.byes, vec![players[4]]);
        record.record_bye(players[4]);
        let p = pair_round(
            &players,
            Format::Swiss { rounds: 3 },
            2,
            &[1; 32],
            3,
            &record,
        );
        assert_eq!(p.byes, vec![players[3]]);
    }
}
