//! `roundtable audit` on a game with private cards (SPEC 5.11-5.16): the
//! Hands game pinned in `protocol/vectors/table-private.json`.

use std::process::Command;

use serde_json::Value;

fn stored_game() -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../protocol/vectors/table-private.json"
    );
    let stored: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    hex::decode(stored["file"].as_str().unwrap()).unwrap()
}

#[test]
fn a_hands_game_audits_valid_and_shows_every_hand() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hands.rtscript");
    std::fs::write(&file, stored_game()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_roundtable"))
        .args(["audit", "--json"])
        .arg(&file)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    let report: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(report["verdict"], "valid");
    let hands = report["hands"].as_array().unwrap();
    assert_eq!(hands.len(), 2);
    assert!(hands.iter().all(|h| !h.as_array().unwrap().is_empty()));

    let out = Command::new(env!("CARGO_BIN_EXE_roundtable"))
        .arg("audit")
        .arg(&file)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("VALID"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("seat 1 ") && l.contains(" was dealt ")),
        "{text}"
    );
}

/// The game cut short (its last frames lost) is not valid: the keys were
/// never all released, and the audit says so in one line, not a panic.
#[test]
fn a_hands_game_cut_short_is_not_valid() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cut.rtscript");
    let bytes = stored_game();
    std::fs::write(&file, &bytes[..bytes.len() * 2 / 3]).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_roundtable"))
        .arg("audit")
        .arg(&file)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_ne!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("INVALID"), "{text}");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}
