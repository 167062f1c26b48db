//! Properties of the pairing function: every player is at one table or
//! sits out, tables are full, byes are the remainder, no repeat meeting
//! while one can be avoided (checked against an exhaustive search on small
//! fields), and the same inputs give the same pairing.

use std::collections::BTreeSet;

use proptest::prelude::*;
use roundtable_table::PublicKey;
use roundtable_tournament::{Format, Pairing, Record, pair_round};

fn keys(n: usize) -> Vec<PublicKey> {
    (0..n)
        .map(|i| {
            let mut k = [0u8; 32];
            k[0] = i as u8;
            k[31] = 0xA5;
            PublicKey(k)
        })
        .collect()
}

/// Whether `players` split into tables of `seats` in which nobody has met
/// (every partition tried).
fn some_partition_has_no_repeat(players: &[PublicKey], seats: usize, record: &Record) -> bool {
    fn go(left: &[PublicKey], seats: usize, record: &Record) -> bool {
        let Some((first, rest)) = left.split_first() else {
            return true;
        };
        choose(rest, &mut vec![*first], 0, seats, record)
    }
    fn choose(
        rest: &[PublicKey],
        table: &mut Vec<PublicKey>,
        from: usize,
        seats: usize,
        record: &Record,
    ) -> bool {
        if table.len() == seats {
            let left: Vec<PublicKey> = rest
                .iter()
                .filter(|k| !table.contains(k))
                .copied()
                .collect();
            return go(&left, seats, record);
        }
        for i in from..rest.len() {
            let k = rest[i];
            if table.iter().any(|p| record.have_met(p, &k)) {
                continue;
            }
            table.push(k);
            if choose(rest, table, i + 1, seats, record) {
                return true;
            }
            table.pop();
        }
        false
    }
    go(players, seats, record)
}

fn repeats(pairing: &Pairing, record: &Record) -> usize {
    pairing
        .tables
        .iter()
        .map(|t| {
            let mut n = 0;
            for (i, a) in t.players.iter().enumerate() {
                n += t.players[i + 1..]
                    .iter()
                    .filter(|b| record.have_met(a, b))
                    .count();
            }
            n
        })
        .sum()
}

fn check_shape(
    players: &[PublicKey],
    seats: usize,
    pairing: &Pairing,
) -> Result<(), TestCaseError> {
    let mut seen = BTreeSet::new();
    for t in &pairing.tables {
        prop_assert_eq!(t.players.len(), seats);
        for k in &t.players {
            prop_assert!(seen.insert(*k), "a player at two tables");
        }
    }
    for k in &pairing.byes {
        prop_assert!(seen.insert(*k), "a player both seated and out");
    }
    prop_assert_eq!(seen.len(), players.len());
    prop_assert_eq!(pairing.byes.len(), players.len() % seats);
    let numbers: Vec<u32> = pairing.tables.iter().map(|t| t.number).collect();
    let expected: Vec<u32> = (1..=pairing.tables.len() as u32).collect();
    prop_assert_eq!(numbers, expected);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// On fields small enough to search exhaustively: a pairing has a
    /// repeat meeting only when every way of seating the round has one.
    #[test]
    fn no_repeat_meeting_while_avoidable(
        n in 4usize..=10,
        seats in 2usize..=3,
        met in proptest::collection::vec((0usize..10, 0usize..10), 0..25),
        points in proptest::collection::vec(0u64..8, 10),
        seed in any::<[u8; 32]>(),
        round in 1u32..6,
    ) {
        let players = keys(n);
        let mut record = Record::default();
        for (a, b) in met {
            if a < n && b < n && a != b {
                record.record_table(&[players[a], players[b]]);
            }
        }
        for (k, p) in players.iter().zip(&points) {
            record.add_half_points(*k, *p);
        }
        let format = Format::Swiss { rounds: 6 };
        let pairing = pair_round(&players, format, seats as u8, &seed, round, &record);
        check_shape(&players, seats, &pairing)?;
        let seated: Vec<PublicKey> = players.iter().filter(|k| !pairing.byes.contains(k)).copied().collect();
        if some_partition_has_no_repeat(&seated, seats, &record) {
            prop_assert_eq!(repeats(&pairing, &record), 0);
        }
        let again = pair_round(&players, format, seats as u8, &seed, round, &record);
        prop_assert_eq!(again, pairing);
    }

    /// A whole Swiss tournament with any results: each round every player
    /// is at exactly one table or sits out, nobody sits out twice while
    /// another has not, and the byes go to the lowest on points.
    #[test]
    fn every_round_seats_everyone_once(
        n in 4usize..=20,
        seats in 2usize..=5,
        results in proptest::collection::vec(0u64..=8, 20 * 6),
        seed in any::<[u8; 32]>(),
    ) {
        prop_assume!(n >= seats);
        let players = keys(n);
        let mut record = Record::default();
        let format = Format::Swiss { rounds: 6 };
        for round in 1..=6u32 {
            let pairing = pair_round(&players, format, seats as u8, &seed, round, &record);
            check_shape(&players, seats, &pairing)?;
            let fewest = players.iter().map(|k| record.byes(k)).min().unwrap_or(0);
            for k in &pairing.byes {
                prop_assert!(record.byes(k) <= fewest + 1);
                let sat_out_before = record.byes(k);
                for other in players.iter().filter(|o| !pairing.byes.contains(o)) {
                    if record.byes(other) == sat_out_before {
                        prop_assert!(record.half_points(other) >= record.half_points(k),
                            "a bye went to a player above one who plays");
                    }
                }
            }
            for (i, t) in pairing.tables.iter().enumerate() {
                for (j, k) in t.players.iter().enumerate() {
                    record.add_half_points(*k, results[(round as usize * 20 + i * 5 + j) % results.len()]);
                }
                record.record_table(&t.players);
            }
            for k in &pairing.byes {
                record.record_bye(*k);
            }
        }
    }
}
