//! Chain continuation (protocol/SPEC.md 2.4): a game that outlives the
//! seats' hash chains goes on with the next chains each seat announced, and
//! the one seed opening after the game proves all of them.

use crate::common;

use common::{TIMEOUT, seated, tables_with};
use roundtable_engine::Game;
use roundtable_port_royal::{Options, PortRoyal};
use roundtable_table::audit::audit;
use roundtable_table::transcript::Frame;
use roundtable_table::{Body, Config, Envelope, Output, Signed, Table, Violation};

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(6))]

    /// Whatever the chains' length and the table's size, every peer ends
    /// the game with one transcript that audits valid.
    #[test]
    fn any_chain_length_ends_in_one_valid_transcript(length in 1u64..48, seats in 2u8..=5) {
        let mut t = tables_with(seats, &Options::default(), length);
        play_to_the_end(&mut t);
        let transcript = t[0].transcript();
        for other in &t[1..] {
            proptest::prop_assert_eq!(&other.transcript(), &transcript);
        }
        let report = audit::<PortRoyal>(&transcript).unwrap();
        proptest::prop_assert!(report.is_valid(), "{:?} {:?}", report.violations, report.problems);
    }
}

/// Deliver every broadcast to every other table and let the seat to move
/// play a varied move, until every table is finished. Panics on a
/// violation. Returns every envelope each table persisted, in order (its log).
fn play_to_the_end(tables: &mut [Table<PortRoyal>]) -> Vec<Vec<Signed>> {
    play_until(tables, |t| t.iter().all(Table::is_finished))
}

fn continuations(frames: &[Frame]) -> Vec<(u8, u64)> {
    frames
        .iter()
        .filter_map(|f| match f {
            Frame::Envelope(s) => match s.envelope.body {
                Body::ChainContinuation { first_event, .. } => Some((s.seat(), first_event)),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

fn chance_events(t: &Table<PortRoyal>) -> u64 {
    t.records()
        .iter()
        .filter(|r| matches!(r, roundtable_table::Record::Chance { .. }))
        .count() as u64
}

/// With chains far shorter than the game, every seat continues its chain
/// again and again; every peer ends with the same transcript, and the
/// audit checks every chain against the one seed each seat opened.
#[test]
fn a_game_outlives_short_chains_by_continuing_them() {
    for (seats, length) in [(2, 1), (3, 2), (3, 5), (4, 16)] {
        let mut t = tables_with(seats, &Options::default(), length);
        play_to_the_end(&mut t);
        let transcript = t[0].transcript();
        for other in &t[1..] {
            assert_eq!(
                other.transcript(),
                transcript,
                "{seats} seats, L = {length}"
            );
        }
        let events = chance_events(&t[0]);
        assert!(events > 4 * length, "the game outlived the chains");
        let announced = continuations(&transcript);
        for seat in 0..seats {
            let firsts: Vec<u64> = announced
                .iter()
                .filter(|(s, _)| *s == seat)
                .map(|(_, first)| *first)
                .collect();
            // Chain i (from 0) starts at event i * L + 1. A seat announces
            // the next chain once a quarter or less of its chains is left,
            // so the chains cover every event and reach past the last one
            // by at most that quarter.
            let expected: Vec<u64> = (1..=firsts.len() as u64).map(|i| i * length + 1).collect();
            assert_eq!(firsts, expected, "seat {seat}, L = {length}");
            let chains_end = (firsts.len() as u64 + 1) * length;
            assert!(chains_end >= events, "seat {seat}, L = {length}");
            assert!(
                chains_end - length <= events + (length / 4).max(1),
                "seat {seat} announced more than it needed (L = {length})"
            );
        }
        let report = audit::<PortRoyal>(&transcript).unwrap();
        assert!(report.violations.is_empty(), "{:?}", report.violations);
        assert!(report.result.is_some(), "the audit replays to the result");
    }
}

/// A peer that restarts feeds its log to a new table: it must take its own
/// continuations back in and derive the same chains, never announce new
/// ones, and finish the game with everyone else.
#[test]
fn a_restarted_peer_derives_its_continued_chains_again() {
    let options = Options::default();
    let length = 3;
    let mut t = tables_with(3, &options, length);
    let logs = play_until(&mut t, |t| chance_events(&t[0]) > 5 * length);
    // Peer 1 crashes and comes back with its log.
    let (genesis, mut locals) = seated(3, &options, length);
    let config = Config {
        stall_timeout_ms: TIMEOUT,
        ..Config::default()
    };
    let mut restarted = Table::new(genesis, Some(locals.remove(1)), config).unwrap();
    for envelope in &logs[1] {
        restarted.handle_envelope(0, envelope.clone()).unwrap();
    }
    // What it signs again while it replays must be what it signed before,
    // byte for byte (its continuations included), or it would equivocate.
    let mut republished = 0;
    while let Some(o) = restarted.poll_output() {
        match o {
            Output::Broadcast(s) => {
                assert_eq!(
                    s,
                    logs[1][..]
                        .iter()
                        .find(|e| e.seat() == s.seat() && e.seq() == s.seq())
                        .cloned()
                        .unwrap(),
                    "signed again differently"
                );
                republished += 1;
            }
            Output::Violation(v) => panic!("a violation on replay: {v}"),
            _ => {}
        }
    }
    assert!(republished > 0);
    assert_eq!(restarted.records(), t[1].records());
    t[1] = restarted;
    play_to_the_end(&mut t);
    assert_eq!(t[1].transcript(), t[0].transcript());
}

/// Run the game (every broadcast delivered to every other table, the seat
/// to move playing a varied move) until `until` holds; returns each table's
/// persisted envelopes.
fn play_until(
    tables: &mut [Table<PortRoyal>],
    until: impl Fn(&[Table<PortRoyal>]) -> bool,
) -> Vec<Vec<Signed>> {
    common::play_until_with(tables, until, |_, _, _| {})
}

/// Seat 1's next envelope as table `t` expects it: its sequence number and
/// the hash of the one before.
fn next_slot(t: &Table<PortRoyal>, seat: u8) -> (u64, roundtable_table::Hash32) {
    let log = t.envelopes_since(seat, 0, usize::MAX);
    (
        log.len() as u64,
        log.last().map(Signed::hash).unwrap_or_default(),
    )
}

/// A continuation that does not start right after the seat's chain, or a
/// second one for the chain in use, is a breach the seat's signature proves.
#[test]
fn a_misplaced_or_second_continuation_is_proven() {
    let options = Options::default();
    for (firsts, reason) in [
        (vec![4000], "it starts at event 4000"),
        (vec![4097, 8193], "a second continuation"),
    ] {
        let mut t = tables_with(2, &options, 4096);
        let (_, locals) = seated(2, &options, 4096);
        play_until(&mut t, |t| chance_events(&t[0]) >= 1);
        let (mut seq, mut prev) = next_slot(&t[1], 0);
        let mut violation = None;
        for first_event in firsts {
            let signed = Envelope {
                game_id: t[1].game_id(),
                seat: 0,
                seq,
                prev,
                position: t[1].position(),
                state_hash: roundtable_table::Hash32(t[1].game().state_hash().0),
                body: Body::ChainContinuation {
                    first_event,
                    length: 4096,
                    commitment: [7; 32],
                },
            }
            .sign(&locals[0].identity);
            (seq, prev) = (seq + 1, signed.hash());
            t[1].handle_envelope(0, signed).unwrap();
            while let Some(o) = t[1].poll_output() {
                if let Output::Violation(v) = o {
                    violation = Some(*v);
                }
            }
        }
        let Some(v @ Violation::BadContinuation { .. }) = violation else {
            panic!("no proof of a bad continuation: {violation:?}");
        };
        assert!(v.to_string().contains(reason), "{v}");
        assert_eq!(v.seat(), 0);
        v.check_signatures(t[1].genesis()).unwrap();
    }
}

/// The reveal of a chain's last link counts only after the seat announced
/// its next chain: signed, like every reveal, one that comes first in the
/// seat's sequence is a proven bad reveal.
#[test]
fn a_last_link_revealed_before_the_continuation_is_a_bad_reveal() {
    let options = Options::default();
    let mut t = tables_with(2, &options, 1);
    t[1].handle_timeout(0);
    while let Some(o) = t[1].poll_output() {
        assert!(!matches!(o, Output::Violation(_)));
    }
    // Seat 1's only link answers event 1, the start player: with no
    // continuation before it in the seat's sequence.
    let seat0 = seated(2, &options, 1).1.remove(0);
    let early_reveal = Envelope {
        game_id: t[1].game_id(),
        seat: 0,
        seq: 0,
        prev: roundtable_table::Hash32::default(),
        position: 0,
        state_hash: roundtable_table::Hash32::default(),
        body: Body::Reveal(roundtable_table::Reveal {
            event: 1,
            link: seat0.chain.reveal(1).unwrap(),
        }),
    }
    .sign(&seat0.identity);
    t[1].handle_envelope(0, early_reveal).unwrap();
    assert_eq!(t[1].position(), 0, "the reveal was not taken");
    let Some(v @ Violation::BadReveal { .. }) = t[1].violation().cloned() else {
        panic!("no proof of a bad reveal: {:?}", t[1].violation());
    };
    assert_eq!(v.seat(), 0);
    v.check_signatures(t[1].genesis()).unwrap();
}
