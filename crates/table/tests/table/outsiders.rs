//! Issue 12: nothing anyone could build from what a seat published may stand
//! where the seat's signed envelope belongs or serve as evidence against it.
//!
//! Reveals used to travel unsigned, so a reveal wrapped by anyone from a
//! published link for another slot of its seat's sequence was taken in: it
//! filled the seat's buffer, took slots, and paired with the seat's real
//! envelope as an "equivocation" in an audit of the arrival-order log. Every
//! envelope is signed now (protocol/SPEC.md 3.4); these tests feed a table
//! exactly the bytes such wraps had, and check that none is taken in, none
//! is logged, and the game and every peer's log stay clean.

use crate::common;

use common::{play_until_with, tables_with};
use roundtable_engine::Seat;
use roundtable_port_royal::{Options, PortRoyal};
use roundtable_table::audit::audit;
use roundtable_table::transcript::Frame;
use roundtable_table::{
    Body, Envelope, GameId, Hash32, Reveal, Signed, Table, TableError, Violation,
};

/// The bytes of an unsigned reveal of `seat` for slot `seq`: the envelope,
/// then the tag of an absent signature, as the old protocol sent them.
fn unsigned_wrap(game_id: GameId, seat: u8, seq: u64, prev: Hash32, reveal: Reveal) -> Vec<u8> {
    let envelope = Envelope {
        game_id,
        seat,
        seq,
        prev,
        position: 0,
        state_hash: Hash32::default(),
        body: Body::Reveal(reveal),
    };
    let mut bytes = postcard::to_allocvec(&envelope).unwrap();
    bytes.push(0);
    bytes
}

/// The link an envelope publishes, if it publishes one.
fn published_link(s: &Signed) -> Option<Reveal> {
    match &s.envelope.body {
        Body::Reveal(r)
        | Body::Action {
            reveal: Some(r), ..
        } => Some(*r),
        _ => None,
    }
}

/// The transcript frames of a peer's arrival-order log: the genesis frames
/// of the canonical transcript, then what the peer persisted, in order.
fn arrival_order(table: &Table<PortRoyal>, log: &[Signed]) -> Vec<Frame> {
    let mut frames: Vec<Frame> = table
        .transcript()
        .into_iter()
        .take_while(|f| !matches!(f, Frame::Envelope(_)))
        .collect();
    frames.extend(log.iter().cloned().map(Frame::Envelope));
    frames
}

/// Before each envelope that publishes a link reaches the watching peer,
/// it gets that link wrapped for the slots around the envelope's own (where
/// the seat signed something else, or will), for the envelope's own slot
/// with a wrong `prev`, and, once, for 600 slots far ahead (more than a
/// seat's buffer holds). The peer refuses every wrap without blame, logs
/// none, and finishes the game with the others; its arrival-order log and
/// the canonical transcript audit valid, blaming nobody.
#[test]
fn wrapped_reveals_are_refused_and_never_logged() {
    let watcher = 2;
    let mut tables = tables_with(3, &Options::default(), 4096);
    let game_id = tables[0].game_id();
    let mut refused = 0usize;
    let mut flooded = false;
    let logs = play_until_with(
        &mut tables,
        |t| t.iter().all(Table::is_finished),
        |to, s, table| {
            if to != watcher || s.seat() == watcher as u8 {
                return;
            }
            let Some(reveal) = published_link(s) else {
                return;
            };
            let seat = s.seat();
            let prev = s.envelope.prev;
            let mut slots = vec![
                (s.seq(), Hash32([0x77; 32])),
                (s.seq() + 1, s.hash()),
                (s.seq() + 2, Hash32::default()),
            ];
            if s.seq() > 0 {
                slots.push((s.seq() - 1, prev));
            }
            if !flooded {
                flooded = true;
                slots.extend((0..600).map(|i| ((1 << 40) + i, Hash32::default())));
            }
            for (seq, prev) in slots {
                let bytes = unsigned_wrap(game_id, seat, seq, prev, reveal);
                match table.handle_bytes(0, &bytes) {
                    Err(TableError::Malformed(_)) => refused += 1,
                    other => panic!("a wrap for seat {seat} slot {seq} was taken: {other:?}"),
                }
            }
        },
    );
    assert!(
        flooded && refused > 600,
        "the wraps reached the table: {refused}"
    );
    let canonical = tables[0].transcript();
    for t in &tables[1..] {
        assert_eq!(t.transcript(), canonical);
    }
    assert!(audit::<PortRoyal>(&canonical).unwrap().is_valid());
    for (peer, log) in logs.iter().enumerate() {
        let report = audit::<PortRoyal>(&arrival_order(&tables[peer], log)).unwrap();
        assert!(
            report.violations.is_empty() && report.is_valid(),
            "peer {peer}'s log: {:?} {:?}",
            report.violations,
            report.problems
        );
    }
}

/// A reveal re-signed by someone other than its seat is refused as a bad
/// signature, and a proof can only rest on envelopes its seat signed: an
/// "equivocation" of a seat's real envelope with an outsider's copy of its
/// link does not check.
#[test]
fn a_reveal_signed_by_anyone_else_proves_nothing() {
    let mut tables = tables_with(2, &Options::default(), 4096);
    let outsider = roundtable_table::Identity::from_secret([0xab; 32]);
    let mut real: Option<Signed> = None;
    play_until_with(
        &mut tables,
        |t| t.iter().all(Table::is_finished),
        |_, s, table| {
            if real.is_some() || !matches!(s.envelope.body, Body::Reveal(_)) {
                return;
            }
            let mut forged = s.envelope.clone();
            if let Body::Reveal(r) = &mut forged.body {
                r.link = [0x55; 32];
            }
            let forged = forged.sign(&outsider);
            assert_eq!(
                table.handle_envelope(0, forged.clone()),
                Err(TableError::BadSignature)
            );
            let proof = Violation::Equivocation {
                first: s.clone(),
                second: forged,
            };
            assert!(proof.check_signatures(table.genesis()).is_err());
            real = Some(s.clone());
        },
    );
    assert!(real.is_some(), "no reveal was sent");
    assert!(tables.iter().all(|t| t.violation().is_none()));
    assert!(!tables[0].is_forfeited(Seat(1)));
}
