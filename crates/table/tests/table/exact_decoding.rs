//! SPEC 3.1: a reader refuses bytes left over after a structure. Postcard
//! ignores leftovers, so actions, secret choices, options and transcript
//! frames were read with trailing bytes that a conformant peer in another
//! language must refuse (review 2026-11-24, finding 6): the same input
//! meant one thing to Rust peers and another to the rest.

use crate::common;

use std::path::Path;

use common::{seated, tables_with};
use roundtable_engine::{Game, Next};
use roundtable_port_royal::{Action, Options, PortRoyal};
use roundtable_table::transcript::{Frame, TranscriptError, decode_file, encode_file};
use roundtable_table::{Body, Envelope, Hash32, Output, Signed, Violation, decode_exact};

#[test]
fn a_value_with_bytes_left_over_is_refused() {
    let mut bytes = postcard::to_allocvec(&Action::Draw).unwrap();
    assert_eq!(decode_exact::<Action>(&bytes), Ok(Action::Draw));
    bytes.push(0);
    assert_eq!(
        decode_exact::<Action>(&bytes),
        Err("1 trailing bytes".to_owned())
    );
}

/// An action whose bytes run on past the action is the seat's signed
/// statement of something no game action is: a proven illegal action.
#[test]
fn an_action_with_trailing_bytes_is_proven_illegal() {
    let options = Options::default();
    let mut t = tables_with(2, &options, 4096);
    for table in t.iter_mut() {
        table.handle_timeout(0);
    }
    let reveals: Vec<Signed> = t
        .iter_mut()
        .flat_map(|table| std::iter::from_fn(|| table.poll_output()))
        .filter_map(|o| match o {
            Output::Broadcast(s) => Some(s),
            _ => None,
        })
        .collect();
    for s in &reveals {
        for table in t.iter_mut() {
            let _ = table.handle_envelope(0, s.clone());
        }
    }
    let Next::Decision(actor) = t[0].game().next() else {
        panic!("the start player decides");
    };
    let watcher = 1 - actor.index();
    let log = t[watcher].envelopes_since(actor.0, 0, usize::MAX);
    let mut action = postcard::to_allocvec(&Action::Draw).unwrap();
    action.push(7);
    let (_, locals) = seated(2, &options, 4096);
    let signed = Envelope {
        game_id: t[watcher].game_id(),
        seat: actor.0,
        seq: log.len() as u64,
        prev: log.last().map(Signed::hash).unwrap_or_default(),
        position: t[watcher].position(),
        state_hash: Hash32(t[watcher].game().state_hash().0),
        body: Body::Action {
            action,
            reveal: None,
        },
    }
    .sign(&locals[actor.index()].identity);
    t[watcher].handle_envelope(0, signed).unwrap();
    match t[watcher].violation() {
        Some(Violation::IllegalAction { rule, .. }) => {
            assert!(rule.contains("trailing"), "{rule}")
        }
        other => panic!("expected an illegal action: {other:?}"),
    }
}

/// A proposal whose options carry a byte more than the options: refused
/// like any proposal whose options do not decode.
#[test]
fn options_with_trailing_bytes_are_refused() {
    let (genesis, _) = seated(2, &Options::default(), 16);
    let mut proposal = genesis.proposal.clone();
    proposal.options.push(0);
    let err = proposal.validate::<PortRoyal>().unwrap_err();
    assert!(err.to_string().contains("trailing"), "{err}");
}

/// A transcript frame whose payload holds more than the frame (its checksum
/// right, so it is no torn tail) is a bad frame, not silently shortened.
#[test]
fn a_transcript_frame_with_trailing_bytes_is_a_bad_frame() {
    let (genesis, _) = seated(2, &Options::default(), 16);
    let good = encode_file(&[Frame::Proposal(genesis.proposal.clone())]);
    assert!(decode_file(Path::new("t.rts"), &good).is_ok());
    let mut payload = postcard::to_allocvec(&Frame::Proposal(genesis.proposal)).unwrap();
    payload.push(0);
    let mut bad = good[..12].to_vec();
    bad.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    bad.extend_from_slice(&payload);
    bad.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
    match decode_file(Path::new("t.rts"), &bad) {
        Err(TranscriptError::BadFrame {
            index: 0, reason, ..
        }) => {
            assert!(reason.contains("trailing"), "{reason}")
        }
        other => panic!("expected a bad frame: {other:?}"),
    }
}
