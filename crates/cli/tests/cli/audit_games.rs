//! `roundtable audit` given several files of one game judges them together
//! (protocol/SPEC.md 3.9, "Several transcripts of one game"): one game,
//! one result. The fixtures are the two canonical transcripts of a two-seat
//! game cut in two, each side having forfeited the other
//! (`tests/fixtures/README.md`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use roundtable_table::transcript::{self, Frame, encode_file};
use roundtable_table::{Body, Identity};
use serde_json::Value;

fn roundtable(args: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_roundtable"))
        .arg("audit")
        .args(args)
        .output()
        .expect("the binary runs")
}

fn fixture(side: u8) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!(
        "../../tests/fixtures/crossing-forfeits-{side}.rtlog"
    ))
}

/// The JSON lines `audit --json` prints for `files`, and its exit code.
fn audit_json(files: &[&Path]) -> (i32, Vec<Value>) {
    let mut args = vec![Path::new("--json")];
    args.extend_from_slice(files);
    let out = roundtable(&args);
    let lines = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or(Value::Null))
        .collect();
    (out.status.code().unwrap_or(-1), lines)
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Issue 12, finding 11: two valid, canonical transcripts of one game with
/// opposite winners. Alone each audits valid; together no win stands, in
/// either order, and the exit code says so.
#[test]
fn two_transcripts_that_forfeited_each_other_have_no_result() {
    let (a, b) = (fixture(1), fixture(2));
    for alone in [&a, &b] {
        assert_eq!(roundtable(&[alone]).status.code(), Some(0));
    }
    for files in [[&a, &b], [&b, &a]] {
        let out = roundtable(&[files[0], files[1]]);
        let shown = text(&out);
        assert_eq!(out.status.code(), Some(1), "{shown}");
        assert!(
            shown.contains("NO RESULT: the files contradict each other from input 31"),
            "{shown}"
        );
        assert!(
            shown.contains(
                "crossing-forfeits-1.rtlog: seat 2 stopped at input 32 on the claims of seat 1"
            ),
            "{shown}"
        );
        assert!(
            shown.contains(
                "crossing-forfeits-2.rtlog: seat 1 stopped at input 31 on the claims of seat 2"
            ),
            "{shown}"
        );
    }
    let (code, lines) = audit_json(&[&a, &b]);
    assert_eq!(code, 1);
    assert_eq!(lines.len(), 3, "one object per file, then one for the game");
    assert_eq!(lines[0]["verdict"], "valid");
    assert_eq!(lines[1]["verdict"], "valid");
    let game = &lines[2];
    assert_eq!(game["game_id"], lines[0]["game_id"]);
    assert_eq!(game["files"].as_array().unwrap().len(), 2);
    assert_eq!(game["verdict"], "contradicted");
    assert_eq!(game["stands"], Value::Null);
    assert_eq!(game["standings"], Value::Null);
    assert_eq!(game["contradiction"]["input"], 31);
    let stops: Vec<(u64, u64, u64)> = game["contradiction"]["stops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["input"].as_u64().unwrap(),
                s["stopped"][0].as_u64().unwrap(),
                s["claimants"][0].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(stops, [(32, 2, 1), (31, 1, 2)]);
}

/// A peer's log cut short beside the transcript it is a part of: the
/// finished game's result stands and the audit exits 0, though the log
/// alone is unfinished (exit 1).
#[test]
fn a_log_cut_short_beside_its_finished_transcript_leaves_the_result() {
    let dir = tempfile::tempdir().unwrap();
    let whole = fixture(2);
    let frames = transcript::read(&whole).unwrap().frames;
    let part = dir.path().join("log.rtlog");
    std::fs::write(&part, encode_file(&frames[..frames.len() / 2])).unwrap();
    assert_eq!(roundtable(&[&part]).status.code(), Some(1));

    let out = roundtable(&[&part, &whole]);
    let shown = text(&out);
    assert_eq!(out.status.code(), Some(0), "{shown}");
    assert!(shown.contains("VALID: the result of"), "{shown}");
    let (code, lines) = audit_json(&[&part, &whole]);
    assert_eq!(code, 0);
    let game = &lines[2];
    assert_eq!(game["verdict"], "valid");
    assert_eq!(game["stands"], whole.to_string_lossy().as_ref());
    assert_eq!(game["standings"], lines[1]["standings"]);
    assert_eq!(game["contradiction"], Value::Null);
}

/// A seat that signed two different envelopes for one slot, each shown in
/// another file, is blamed with the proof though neither file shows it.
#[test]
fn an_equivocation_across_two_files_is_proven() {
    let dir = tempfile::tempdir().unwrap();
    let original = fixture(1);
    let mut frames = transcript::read(&original).unwrap().frames;
    let Some(Frame::Proposal(proposal)) = frames.first().cloned() else {
        panic!("no proposal");
    };
    // The fixtures' identities are those of the table's test tables
    // (secret [i + 1; 32] for the i-th).
    let identities: Vec<Identity> = (1..=2u8).map(|i| Identity::from_secret([i; 32])).collect();
    let at = frames
        .iter()
        .rposition(|f| matches!(f, Frame::Envelope(_)))
        .unwrap();
    let Frame::Envelope(last) = frames[at].clone() else {
        unreachable!()
    };
    let author = identities
        .iter()
        .find(|id| proposal.seat_of(&id.public()).map(|s| s.0) == Some(last.seat()))
        .unwrap();
    let mut other = last.envelope.clone();
    other.body = Body::Resign;
    frames[at] = Frame::Envelope(other.sign(author));
    let second = dir.path().join("second.rtlog");
    std::fs::write(&second, encode_file(&frames)).unwrap();

    let (code, lines) = audit_json(&[&original, &second]);
    assert_eq!(code, 1);
    let game = &lines[2];
    assert_eq!(game["verdict"], "invalid");
    let violations = game["violations"].as_array().unwrap();
    assert_eq!(violations.len(), 1, "{game}");
    assert_eq!(violations[0]["kind"], "equivocation");
    assert_eq!(violations[0]["seat"], u64::from(last.seat()) + 1);
    assert_eq!(
        violations[0]["proof"]["envelopes"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let out = roundtable(&[&original, &second]);
    assert!(
        text(&out).contains("INVALID: a seat is proven to have cheated"),
        "{}",
        text(&out)
    );
}

/// One file, or files of different games, print exactly what they did
/// before: no object or section for a game.
#[test]
fn files_of_different_games_are_judged_one_by_one() {
    let dir = tempfile::tempdir().unwrap();
    let selfplayed = dir.path().join("other.rtlog");
    let out = Command::new(env!("CARGO_BIN_EXE_roundtable"))
        .args(["selfplay", "--seats", "2", "--seed", "5", "--transcript"])
        .arg(&selfplayed)
        .output()
        .unwrap();
    assert!(out.status.success());
    let (code, lines) = audit_json(&[&fixture(1), &selfplayed]);
    assert_eq!(code, 0);
    assert_eq!(lines.len(), 2);
    assert!(lines.iter().all(|l| l.get("files").is_none()));
    let out = roundtable(&[&fixture(1), &selfplayed]);
    assert!(!text(&out).contains("judged together"), "{}", text(&out));
    let (_, one) = audit_json(&[&fixture(1)]);
    assert_eq!(one.len(), 1);
}
