//! Every listed game ends when a seat is gone (protocol/SPEC.md 3.6, "Gone
//! seats"; 5.14): in-process tables of Port Royal, Guildhall, Waters of
//! Nereus and Hands, one seat removed at a random input (the key shares,
//! the shuffles, the deals and the set-up included) by a stall forfeit or
//! a resignation, and the game must end on every table still running, with
//! one transcript that audits valid, within a bounded number of stall
//! timeouts. Guildhall used to wait for ever at a gone seat's set-up
//! placement, and a two-seat resignation used to leave one seat that could
//! open the whole deck.
//!
//! `GONE_SEAT_CASES=n` sets the cases per game (default 6).

use crate::common;

use proptest::prelude::*;
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_engine::{Game, Next, Seat};
use roundtable_table::{Config, Output, Record, Signed, Table, audit};

use common::TIMEOUT;

/// Stall timeouts a game may take to end once nothing else moves it: the
/// forfeit (one, and the co-claims of `CO_CLAIM_TIMEOUTS`), with room.
const MAX_IDLE_TIMEOUTS: u32 = 12;

/// How a seat goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Gone {
    /// Nothing it signs at or after the input reaches anyone, nor does
    /// anything reach it: the others claim it stalled.
    Stalls,
    /// It resigns there (its key release follows) and its table runs on.
    Resigns,
}

/// One game with `victim` gone at input `at` in the way `gone` says, every
/// other seat playing random legal moves: the game must end on every table
/// still running, with one canonical transcript that audits valid, the
/// victim last when the game was abandoned.
fn a_gone_seat_ends_the_game<G: Game>(
    options: &G::Options,
    seats: u8,
    victim: Seat,
    at: u64,
    gone: Gone,
    seed: u64,
) -> Result<(), TestCaseError> {
    let (genesis, locals) = common::seated_at::<G>(seats, options, 64);
    let config = Config {
        stall_timeout_ms: TIMEOUT,
        ..Config::default()
    };
    let mut tables: Vec<Table<G>> = locals
        .into_iter()
        .map(|l| Table::new(genesis.clone(), Some(l), config.clone()).unwrap())
        .collect();
    let dealt_privately = matches!(tables[0].game().next(), Next::Private(_));
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut now = 0u64;
    let mut resigned = false;
    // A stalled victim's table is left out from the input it stops at.
    let running = |i: usize, cut: bool| !(cut && i == victim.index());
    let mut cut = false;
    if gone == Gone::Resigns && at == 0 {
        // Before its first envelope: before its key share.
        tables[victim.index()].resign(now).unwrap();
        resigned = true;
    }
    for t in tables.iter_mut() {
        t.handle_timeout(now);
    }
    let mut idle = 0u32;
    for _ in 0..200_000 {
        let mut wire: Vec<(usize, Signed)> = Vec::new();
        for (i, t) in tables.iter_mut().enumerate() {
            while let Some(o) = t.poll_output() {
                match o {
                    Output::Broadcast(s) => {
                        let stopped = gone == Gone::Stalls
                            && i == victim.index()
                            && (cut || s.envelope.position >= at);
                        if !stopped {
                            wire.push((i, s));
                        }
                    }
                    Output::Violation(v) => {
                        return Err(TestCaseError::fail(format!("table {i}: {v}")));
                    }
                    _ => {}
                }
            }
        }
        if !wire.is_empty() {
            for (from, s) in wire {
                for (i, t) in tables.iter_mut().enumerate() {
                    if i != from && running(i, cut) {
                        let _ = t.handle_envelope(now, s.clone());
                    }
                }
            }
            idle = 0;
            continue;
        }
        let reference = (0..tables.len())
            .find(|&i| i != victim.index())
            .expect("two seats at least");
        if (0..tables.len())
            .filter(|&i| running(i, cut))
            .all(|i| tables[i].is_finished())
        {
            break;
        }
        if tables[reference].position() >= at {
            if gone == Gone::Stalls {
                cut = true;
            } else if !resigned {
                tables[victim.index()].resign(now).unwrap();
                resigned = true;
                continue;
            }
        }
        let live: Vec<usize> = (0..tables.len()).filter(|&i| running(i, cut)).collect();
        // A decision of a seat still playing: a random legal one.
        let deciding = live.iter().copied().find(|&i| {
            let seat = Seat(i as u8);
            !(resigned && seat == victim)
                && tables[i].awaits_decision(seat)
                && match tables[i].game().next() {
                    Next::Decision(s) => s == seat,
                    Next::Simultaneous(set) => set.contains(seat),
                    _ => false,
                }
        });
        if let Some(i) = deciding {
            let seat = Seat(i as u8);
            let knowledge = tables[i].knowledge().cloned().unwrap_or_default();
            let mut legal = Vec::new();
            tables[i]
                .game()
                .legal_actions_with(seat, &knowledge, &mut legal);
            prop_assert!(!legal.is_empty(), "seat {} has no legal move", seat.0 + 1);
            let pick = legal[(rng.next_u64() % legal.len() as u64) as usize].clone();
            tables[i]
                .submit(now, pick)
                .map_err(|e| TestCaseError::fail(format!("table {i}: {e}")))?;
            idle = 0;
            continue;
        }
        // Nothing moves: only time can.
        idle += 1;
        prop_assert!(
            idle <= MAX_IDLE_TIMEOUTS,
            "the game waits for ever at input {} ({:?}), {} running",
            tables[reference].position(),
            tables[reference].game().next(),
            live.len()
        );
        now += TIMEOUT + 1;
        for &i in &live {
            tables[i].handle_timeout(now);
        }
    }
    let live: Vec<usize> = (0..tables.len()).filter(|&i| running(i, cut)).collect();
    for &i in &live {
        prop_assert!(tables[i].is_finished(), "table {i} never finished");
    }
    let transcript = tables[live[0]].transcript();
    for &i in &live[1..] {
        prop_assert!(
            tables[i].transcript() == transcript,
            "tables {} and {i} disagree",
            live[0]
        );
    }
    let report = audit::audit::<G>(&transcript).unwrap();
    prop_assert!(
        report.is_valid() && report.canonical,
        "audit: {:?} {:?}",
        report.problems,
        report.violations
    );
    let result = report.result.expect("a valid audit has a result");
    if let Some(stopped) = &report.abandoned {
        prop_assert!(stopped.contains(&victim), "{stopped:?}");
        let last = result.standings.iter().map(|s| s.rank).max().unwrap_or(0);
        prop_assert_eq!(result.standings[victim.index()].rank, last);
    }
    // One key holder left never plays on (5.14): once the victim is gone
    // from a two-seat game with private cards, the game ends there.
    let records = tables[live[0]].records();
    if seats == 2 && dealt_privately {
        for (p, record) in records.iter().enumerate() {
            if matches!(record, Record::Forfeit { seat, .. } | Record::Resign { seat, .. } if *seat == victim)
            {
                // Nothing after it (the game was over: a resignation there
                // is applied when the seeds are due, and nothing is played
                // after), or the abandonment.
                prop_assert!(
                    matches!(records.get(p + 1), None | Some(Record::Abandon { .. })),
                    "the game went on with one key holder after input {p}"
                );
            }
        }
    }
    Ok(())
}

fn cases() -> u32 {
    std::env::var("GONE_SEAT_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6)
}

fn gone() -> impl Strategy<Value = Gone> {
    prop_oneof![Just(Gone::Stalls), Just(Gone::Resigns)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Guildhall: the key shares, the shuffle, the deals and the set-up
    /// discards and placements are in the first forty inputs or so.
    #[test]
    fn a_gone_seat_ends_a_guildhall_game(
        seats in 2u8..=4, victim in 0u8..4, at in 0u64..48, gone in gone(), seed in any::<u64>()
    ) {
        let options = roundtable_guildhall::Options {
            max_rounds: 2,
            ..roundtable_guildhall::Options::default()
        };
        a_gone_seat_ends_the_game::<roundtable_guildhall::Guildhall>(
            &options, seats, Seat(victim % seats), at, gone, seed,
        )?;
    }

    #[test]
    fn a_gone_seat_ends_a_nereus_game(
        seats in 2u8..=4, victim in 0u8..4, at in 0u64..40, gone in gone(), seed in any::<u64>()
    ) {
        a_gone_seat_ends_the_game::<roundtable_nereus::Nereus>(
            &roundtable_nereus::Options::default(), seats, Seat(victim % seats), at, gone, seed,
        )?;
    }

    #[test]
    fn a_gone_seat_ends_a_hands_game(
        seats in 2u8..=4, victim in 0u8..4, at in 0u64..30, gone in gone(), seed in any::<u64>()
    ) {
        a_gone_seat_ends_the_game::<roundtable_hands::Hands>(
            &roundtable_hands::Options { rounds: 2 }, seats, Seat(victim % seats), at, gone, seed,
        )?;
    }

    #[test]
    fn a_gone_seat_ends_a_port_royal_game(
        seats in 2u8..=4, victim in 0u8..4, at in 0u64..40, gone in gone(), seed in any::<u64>()
    ) {
        let options = roundtable_port_royal::Options {
            victory_points: 5,
            ..roundtable_port_royal::Options::default()
        };
        a_gone_seat_ends_the_game::<roundtable_port_royal::PortRoyal>(
            &options, seats, Seat(victim % seats), at, gone, seed,
        )?;
    }
}
