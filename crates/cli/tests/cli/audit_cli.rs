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
    frames.push(Frame::Envelope(second.clone()));
    std::fs::write(&path, encode_file(&frames)).unwrap();
    let (code, report) = audit_json(&path);
    assert_eq!(code, 1, "{report}");
    assert_eq!(report["verdict"], "invalid");
    let v = &report["violations"][0];
    assert_eq!(v["kind"], "equivocation");
    assert_eq!(v["seat"], u32::from(seat) + 1);
    // The proof is both envelopes in their wire encoding, as SPEC 3.9 says:
    // hex of the signed envelope, whose seat byte counts from 0.
    let proof: Vec<Signed> = v["proof"]["envelopes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| Signed::decode(&hex::decode(e.as_str().unwrap()).unwrap()).unwrap())
        .collect();
    assert_eq!(proof.len(), 2);
    assert!(proof.contains(&original) && proof.contains(&second));
    assert!(proof.iter().all(|e| u32::from(e.seat()) + 1 == v["seat"]));
}

#[test]
fn the_json_report_has_every_field_the_spec_names_with_seats_from_1() {
    let dir = tempfile::tempdir().unwrap();
    let path = selfplay(dir.path(), 8, 3);
    let (code, report) = audit_json(&path);
    assert_eq!(code, 0, "{report}");
    let fields: Vec<&str> = report
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut expected = vec![
        "file",
        "verdict",
        "game_id",
        "inputs",
        "canonical",
        "audit_micros",
        "standings",
        "forfeited",
        "abandoned",
        "violations",
        "problems",
    ];
    expected.sort_unstable();
    let mut fields = fields;
    fields.sort_unstable();
    assert_eq!(fields, expected);
    assert_eq!(report["file"], path.to_str().unwrap());
    assert_eq!(report["game_id"].as_str().unwrap().len(), 64);
    assert!(report["inputs"].is_u64() && report["audit_micros"].is_u64());
    assert!(report["abandoned"].is_null(), "a game played to its end");
    // Standings in seat order, seats counted from 1, ranks from 1.
    let standings = report["standings"].as_array().unwrap();
    let seats: Vec<u64> = standings
        .iter()
        .map(|s| s["seat"].as_u64().unwrap())
        .collect();
    assert_eq!(seats, [1, 2, 3]);
    for s in standings {
        assert!(s["name"].is_string() && s["score"].is_i64() && s["tie_break"].is_i64());
        assert!((1..=3).contains(&s["rank"].as_u64().unwrap()));
    }
}

#[test]
fn a_non_utf8_file_name_is_reported_not_a_panic() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let path = selfplay(dir.path(), 10, 2);
    let odd = dir
        .path()
        .join(std::ffi::OsStr::from_bytes(b"game-\xff.rts"));
    std::fs::copy(&path, &odd).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_roundtable"))
        .arg("audit")
        .arg("--json")
        .arg(&odd)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["verdict"], "valid");
    assert!(
        report["file"]
            .as_str()
            .unwrap()
            .ends_with("game-\u{fffd}.rts")
    );
}

#[test]
fn a_valid_file_out_of_canonical_order_says_so_in_text_too() {
    let dir = tempfile::tempdir().unwrap();
    let path = selfplay(dir.path(), 11, 2);
    let out = roundtable(&["audit", path.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("canonical"), "{text}");
    // A frame written twice: the same game, but not the file honest peers write.
    let mut frames = transcript::read(&path).unwrap().frames;
    let i = frames
        .iter()
        .position(|f| matches!(f, Frame::Envelope(_)))
        .unwrap();
    frames.insert(i, frames[i].clone());
    std::fs::write(&path, encode_file(&frames)).unwrap();
    let (code, report) = audit_json(&path);
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["canonical"], false);
    let out = roundtable(&["audit", path.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("VALID"), "{text}");
    assert!(text.contains("not in canonical order"), "{text}");
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

/// A game the binary itself ended abandoned (two of three players killed
/// at once; `tests/fixtures/README.md`): valid, and it says so in text and
/// in JSON, the stopped seats last.
#[test]
fn an_abandoned_game_is_valid_and_says_which_seats_stopped() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/abandoned-3-seats.rtlog");
    let out = roundtable(&["audit", path.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let abandoned = text
        .lines()
        .find(|l| l.trim_start().starts_with("ABANDONED: seat 1 "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        abandoned.contains(" and seat 2 ") && abandoned.contains(" stopped answering;"),
        "{abandoned}"
    );
    let (code, report) = audit_json(&path);
    assert_eq!(code, 0);
    assert_eq!(report["abandoned"], serde_json::json!([1, 2]));
    let ranks: Vec<u64> = report["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["rank"].as_u64().unwrap())
        .collect();
    assert_eq!(ranks, [2, 2, 1]);
}
