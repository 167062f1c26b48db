//! Issue 12: no corruption of an honest transcript makes the audit blame a
//! seat. A violation needs something the seat signed; a flipped byte, a lost,
//! repeated or moved frame, or a signature moved to another envelope can
//! make a file unreadable, unfinished or full of problems, never a proof.

use crate::common;

use std::sync::OnceLock;

use common::{play_until_with, tables_with};
use proptest::prelude::*;
use roundtable_port_royal::{Options, PortRoyal};
use roundtable_table::audit::audit;
use roundtable_table::transcript::Frame;
use roundtable_table::{Signed, Table};

/// One honest 3-seat game's canonical transcript, made once.
fn honest_transcript() -> &'static [Frame] {
    static FRAMES: OnceLock<Vec<Frame>> = OnceLock::new();
    FRAMES.get_or_init(|| {
        let mut tables = tables_with(3, &Options::default(), 4096);
        play_until_with(
            &mut tables,
            |t| t.iter().all(Table::is_finished),
            |_, _, _| {},
        );
        tables[0].transcript()
    })
}

#[derive(Clone, Debug)]
enum Corruption {
    /// Flip one bit of a frame's envelope encoding (kept if it still decodes).
    FlipBit {
        frame: usize,
        byte: usize,
        bit: u8,
    },
    Drop {
        frame: usize,
    },
    Repeat {
        frame: usize,
        at: usize,
    },
    Swap {
        a: usize,
        b: usize,
    },
    Truncate {
        keep: usize,
    },
    /// Put one envelope's signature on another.
    MoveSignature {
        from: usize,
        to: usize,
    },
}

fn corruption() -> impl Strategy<Value = Corruption> {
    let index = any::<prop::sample::Index>();
    prop_oneof![
        4 => (index.clone(), 0usize..400, 0u8..8).prop_map(|(f, byte, bit)| Corruption::FlipBit {
            frame: f.index(usize::MAX >> 1),
            byte,
            bit,
        }),
        1 => index.clone().prop_map(|f| Corruption::Drop { frame: f.index(usize::MAX >> 1) }),
        1 => (index.clone(), index.clone()).prop_map(|(f, a)| Corruption::Repeat {
            frame: f.index(usize::MAX >> 1),
            at: a.index(usize::MAX >> 1),
        }),
        1 => (index.clone(), index.clone()).prop_map(|(a, b)| Corruption::Swap {
            a: a.index(usize::MAX >> 1),
            b: b.index(usize::MAX >> 1),
        }),
        1 => index.clone().prop_map(|k| Corruption::Truncate { keep: k.index(usize::MAX >> 1) }),
        2 => (index.clone(), index).prop_map(|(f, t)| Corruption::MoveSignature {
            from: f.index(usize::MAX >> 1),
            to: t.index(usize::MAX >> 1),
        }),
    ]
}

fn apply(frames: &mut Vec<Frame>, corruption: &Corruption) {
    let n = frames.len();
    match *corruption {
        Corruption::FlipBit { frame, byte, bit } => {
            if let Frame::Envelope(signed) = &frames[frame % n] {
                let mut bytes = signed.encode();
                let i = byte % bytes.len();
                bytes[i] ^= 1 << bit;
                if let Ok(changed) = Signed::decode(&bytes) {
                    frames[frame % n] = Frame::Envelope(changed);
                }
            }
        }
        Corruption::Drop { frame } => {
            frames.remove(frame % n);
        }
        Corruption::Repeat { frame, at } => {
            let copy = frames[frame % n].clone();
            frames.insert(at % (n + 1), copy);
        }
        Corruption::Swap { a, b } => frames.swap(a % n, b % n),
        Corruption::Truncate { keep } => frames.truncate(keep % (n + 1)),
        Corruption::MoveSignature { from, to } => {
            if let (Frame::Envelope(a), Frame::Envelope(b)) =
                (frames[from % n].clone(), &mut frames[to % n])
            {
                b.signature = a.signature;
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("CORRUPTION_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(32)
    ))]

    /// Up to three corruptions of an honest transcript: the audit may
    /// refuse it or find problems, but it never proves a violation.
    #[test]
    fn no_corruption_of_an_honest_transcript_blames_a_seat(
        corruptions in proptest::collection::vec(corruption(), 1..=3)
    ) {
        let mut frames = honest_transcript().to_vec();
        for c in &corruptions {
            apply(&mut frames, c);
        }
        if let Ok(report) = audit::<PortRoyal>(&frames) {
            prop_assert!(
                report.violations.is_empty(),
                "{corruptions:?} made the audit blame: {:?}",
                report.violations.iter().map(ToString::to_string).collect::<Vec<_>>()
            );
        }
    }
}

/// The property's premise: the untouched transcript audits valid.
#[test]
fn the_honest_transcript_is_valid() {
    let report = audit::<PortRoyal>(honest_transcript()).unwrap();
    assert!(report.is_valid(), "{:?}", report.problems);
}
