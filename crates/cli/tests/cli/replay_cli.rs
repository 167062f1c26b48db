//! `roundtable replay FILE` outside a terminal: it checks the transcript
//! like `audit` (exit 2 unreadable, 1 invalid, one line on stderr) and
//! prints the game input by input. The terminal itself is driven in
//! `replay_tmux.rs`; the screens are snapshot-tested in the tui crate.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use roundtable_table::transcript::{self, Frame, encode_file};

fn roundtable(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_roundtable"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("the binary runs: {e}"))
}

fn path_str(path: &Path) -> &str {
    path.to_str().unwrap_or_else(|| panic!("a UTF-8 path"))
}

fn selfplay(dir: &Path, seed: u64, seats: u8) -> PathBuf {
    let path = dir.join(format!("game-{seed}.rts"));
    let out = roundtable(&[
        "selfplay",
        "--seats",
        &seats.to_string(),
        "--seed",
        &seed.to_string(),
        "--transcript",
        path_str(&path),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    path
}

fn stderr_lines(out: &Output) -> usize {
    String::from_utf8_lossy(&out.stderr).lines().count()
}

#[test]
fn garbage_and_missing_files_are_unreadable_in_one_line() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let garbage = dir.path().join("garbage.rts");
    std::fs::write(&garbage, b"not a transcript").unwrap_or_else(|e| panic!("{e}"));
    for path in [garbage, dir.path().join("missing.rts")] {
        let out = roundtable(&["replay", path_str(&path)]);
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        assert_eq!(stderr_lines(&out), 1, "{out:?}");
        assert!(out.stdout.is_empty(), "{out:?}");
    }
}

#[test]
fn a_forged_envelope_is_invalid() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = selfplay(dir.path(), 5, 2);
    let mut frames = transcript::read(&path)
        .unwrap_or_else(|e| panic!("{e}"))
        .frames;
    // Change what a seat said without its key: the signature no longer holds.
    let i = frames
        .iter()
        .rposition(|f| matches!(f, Frame::Envelope(_)))
        .unwrap_or_else(|| panic!("no envelope"));
    if let Frame::Envelope(s) = &mut frames[i] {
        s.envelope.position += 1;
    }
    std::fs::write(&path, encode_file(&frames)).unwrap_or_else(|e| panic!("{e}"));
    let out = roundtable(&["replay", path_str(&path)]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(stderr_lines(&out), 1, "{out:?}");
}

#[test]
fn a_selfplayed_game_prints_input_by_input_to_its_result() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = selfplay(dir.path(), 1, 2);
    let audit = roundtable(&["audit", "--json", path_str(&path)]);
    let report: serde_json::Value =
        serde_json::from_slice(&audit.stdout).unwrap_or(serde_json::Value::Null);
    let inputs = report["inputs"].as_u64().unwrap_or(0);
    assert!(inputs > 0, "{report}");

    let out = roundtable(&["replay", path_str(&path)]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let first = text.lines().next().unwrap_or("");
    assert!(
        first.contains(&format!("{inputs} inputs")),
        "the replay has the audit's inputs: {first}"
    );
    // One numbered line per input, the last numbered as the count.
    let numbered = text
        .lines()
        .filter(|l| l.len() > 6 && l[..5].trim().parse::<u64>().is_ok())
        .count() as u64;
    assert_eq!(numbered, inputs);
    assert!(text.contains("is the start player."), "{text}");
    assert!(text.contains("Game over"), "{text}");
    let winner = report["standings"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["rank"] == 1))
        .and_then(|s| s["name"].as_str())
        .unwrap_or("?")
        .to_owned();
    assert!(
        text.lines()
            .any(|l| l.starts_with("#1 ") && l.contains(&winner)),
        "{winner} first:\n{}",
        text.lines().rev().take(4).collect::<Vec<_>>().join("\n")
    );
}

/// The cards the audit opened for each seat, as `audit --json` lists them
/// (in slot order), named as the replay names them.
fn audited_hands(path: &Path) -> Vec<Vec<String>> {
    let audit = roundtable(&["audit", "--json", path_str(path)]);
    let report: serde_json::Value =
        serde_json::from_slice(&audit.stdout).unwrap_or(serde_json::Value::Null);
    let hands = report["hands"]
        .as_array()
        .unwrap_or_else(|| panic!("the audit opens every hand: {report}"));
    hands
        .iter()
        .map(|seat| {
            seat.as_array()
                .map(|cards| {
                    cards
                        .iter()
                        .map(|c| {
                            let card = u32::try_from(c["card"].as_u64().unwrap_or(u64::MAX))
                                .unwrap_or(u32::MAX);
                            roundtable_games::guildhall::card_words(card)
                        })
                        .collect()
                })
                .unwrap_or_default()
        })
        .collect()
}

#[test]
fn a_guildhall_replay_prints_every_hand_as_the_audit_opened_it() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("guildhall.rts");
    crate::common::selfplay(
        &path,
        &[
            "--game",
            "guildhall",
            "--seats",
            "3",
            "--seed",
            "4",
            "--bot",
            "easy",
        ],
    );
    let dealt = audited_hands(&path);
    assert_eq!(dealt.len(), 3);

    let out = roundtable(&["replay", path_str(&path)]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("hands hidden"), "{text}");
    let names = ["Bot 1", "Bot 2", "Bot 3"];
    let mut first_deal = [None, None, None];
    let mut printed = 0;
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix("hand of ") else {
            continue;
        };
        printed += 1;
        let seat = names
            .iter()
            .position(|n| rest.starts_with(&format!("{n} (")))
            .unwrap_or_else(|| panic!("a seat's name: {line}"));
        let (count, cards) = rest
            .split_once("): ")
            .unwrap_or_else(|| panic!("a count and cards: {line}"));
        let count: usize = count
            .rsplit('(')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("a count: {line}"));
        let cards: Vec<&str> = if cards == "empty" {
            Vec::new()
        } else {
            cards.split(", ").collect()
        };
        assert_eq!(cards.len(), count, "{line}");
        // Every card is named (a card taken from a guildhall is public, so
        // a hand may hold cards dealt to another seat: the tui crate's test
        // checks each hand against the audit at every position).
        assert!(!cards.contains(&"?"), "{line}");
        if count == 9 && first_deal[seat].is_none() {
            first_deal[seat] = Some(cards.iter().map(|c| c.to_string()).collect::<Vec<_>>());
        }
    }
    assert!(printed > 20, "{text}");
    // The first nine cards each seat holds are the first nine it was dealt.
    for (seat, shown) in first_deal.iter().enumerate() {
        let mut shown = shown
            .clone()
            .unwrap_or_else(|| panic!("{} is dealt nine: {text}", names[seat]));
        let mut opened = dealt[seat][..9].to_vec();
        shown.sort();
        opened.sort();
        assert_eq!(shown, opened, "{}", names[seat]);
    }
    assert!(
        text.lines()
            .any(|l| l.starts_with("#1 ") && l.contains("completed chapter")),
        "{text}"
    );

    // Cut short before the keys are released: the game is printed without
    // hands, and one line says why.
    let frames = transcript::read(&path)
        .unwrap_or_else(|e| panic!("{e}"))
        .frames;
    std::fs::write(&path, encode_file(&frames[..frames.len() / 2]))
        .unwrap_or_else(|e| panic!("{e}"));
    let out = roundtable(&["replay", path_str(&path)]);
    // Printed as far as it goes, then invalid as `audit` calls it.
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("before the game does"),
        "{out:?}"
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text.lines()
            .filter(|l| *l
                == "note: hands hidden: the transcript ends before every seat released its key")
            .count(),
        1,
        "{text}"
    );
    assert!(!text.contains("hand of "), "{text}");
}
