//! `roundtable selfplay` writes transcripts that `roundtable audit` accepts;
//! tampered, cheating and unreadable files get exit codes 1 and 2.

use std::path::Path;
use std::process::{Command, Output};

use roundtable_local::derive;
use roundtable_table::transcript::{self, Frame, encode_file};
use roundtable_table::{Body, Identity, Signed};
use serde_json::Value;

fn roundtable(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_roundtable"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn selfplay(dir: &Path, seed: u64, seats: u8) -> std::path::PathBuf {
    let path = dir.join(format!("game-{seed}.rts"));
    let out = roundtable(&[
        "selfplay",
        "--seats",
        &seats.to_string(),
        "--seed",
        &seed.to_string(),
        "--transcript",
        path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    path
}

fn audit_json(path: &Path) -> (i32, Value) {
    let out = roundtable(&["audit", "--json", path.to_str().unwrap()]);
    let json = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code().unwrap_or(-1), json)
}

#[test]
fn a_selfplayed_game_audits_valid_and_names_the_winner() {
    let dir = tempfile::tempdir().unwrap();
    let path = selfplay(dir.path(), 3, 3);
    let (code, report) = audit_json(&path);
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["verdict"], "valid");
    assert_eq!(report["canonical"], true);
    let standings = report["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 3);
    assert!(standings.iter().any(|s| s["rank"] == 1));
    // The same seed gives the same transcript, byte for byte.
    let again = dir.path().join("again");
    std::fs::create_dir(&again).unwrap();
    let second = selfplay(&again, 3, 3);
    assert_eq!(
        std::fs::read(&path).unwrap(),
        std::fs::read(&second).unwrap()
    );
}

#[test]
fn an_equivocating_seat_is_blamed_with_a_proof() {
    let dir = tempfile::tempdir().unwrap();
    let path = selfplay(dir.path(), 4, 2);
    let mut frames = transcript::read(&path).unwrap().frames;
    let Some(Frame::Proposal(proposal)) = frames.first().cloned() else {
        panic!("no proposal")
    };
    // Seat of the player derived first; sign a second, different envelope
    // for one of its slots with its real key.
    let identity = Identity::from_secret(derive(4, "key", 0));
    let seat = proposal.seat_of(&identity.public()).unwrap().0;
    let original = frames
        .iter()
        .find_map(|f| match f {
            Frame::Envelope(s)
                if s.seat() == seat && matches!(s.envelope.body, Body::Action { .. }) =>
            {
                Some(s.clone())
            }
            _ => None,
        })
        .unwrap();
    let mut forged = original.envelope.clone();
    forged.body = Body::Resign;
    let second: Signed = forged.sign(&identity);
    frames.push(Frame::Envelope(second));
    std::fs::write(&path, encode_file(&frames)).unwrap();
    let (code, report) = audit_json(&path);
    assert_eq!(code, 1, "{report}");
    assert_eq!(report["verdict"], "invalid");
    let v = &report["violations"][0];
    assert_eq!(v["kind"], "equivocation");
    assert_eq!(v["seat"], u32::from(seat) + 1);
    assert!(v["proof"]["Equivocation"].is_object());
}

#[test]
fn a_tampered_frame_is_invalid_without_blame_and_garbage_is_unreadable() {
    let dir = tempfile::tempdir().unwrap();
    let path = selfplay(dir.path(), 5, 2);
    let mut frames = transcript::read(&path).unwrap().frames;
    // Change what a seat said without its key: the signature no longer holds.
    let i = frames
        .iter()
        .rposition(|f| matches!(f, Frame::Envelope(_)))
        .unwrap();
    if let Frame::Envelope(s) = &mut frames[i] {
        s.envelope.position += 1;
    }
    std::fs::write(&path, encode_file(&frames)).unwrap();
    let (code, report) = audit_json(&path);
    assert_eq!(code, 1, "{report}");
    assert!(report["violations"].as_array().unwrap().is_empty());
    assert!(!report["problems"].as_array().unwrap().is_empty());

    let garbage = dir.path().join("garbage.rts");
    std::fs::write(&garbage, b"not a transcript").unwrap();
    let (code, report) = audit_json(&garbage);
    assert_eq!(code, 2);
    assert_eq!(report["verdict"], "unreadable");
}

#[test]
fn many_files_get_a_summary_table() {
    let dir = tempfile::tempdir().unwrap();
    let a = selfplay(dir.path(), 6, 2);
    let b = selfplay(dir.path(), 7, 3);
    let out = roundtable(&["audit", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("VALID"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["2", "0", "0"]),
        "{text}"
    );
}
