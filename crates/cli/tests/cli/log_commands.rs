//! `play` and `selfplay` as a new user meets them: the heuristic bot by
//! default or the random one on request, the terminal UI's words for cards
//! and events, bots named after the seats they sit at, and help texts that
//! say what the program does. Every case runs the real binary.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn roundtable(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_roundtable"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("the binary runs: {e}"))
}

/// Standard output of a command that must succeed.
fn stdout_of(args: &[&str]) -> String {
    let out = roundtable(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap_or_else(|e| panic!("{args:?}: not UTF-8: {e}"))
}

fn path_str(path: &Path) -> &str {
    path.to_str().unwrap_or_else(|| panic!("a UTF-8 path"))
}

/// The seat numbers and names of a transcript, as `audit --json` reads them.
fn seats_in(transcript: &Path) -> Vec<(u64, String)> {
    let json: Value = serde_json::from_str(&stdout_of(&["audit", "--json", path_str(transcript)]))
        .unwrap_or_else(|e| panic!("audit --json: {e}"));
    let standings = json["standings"]
        .as_array()
        .unwrap_or_else(|| panic!("no standings: {json}"));
    standings
        .iter()
        .map(|s| {
            let seat = s["seat"].as_u64().unwrap_or_else(|| panic!("no seat: {s}"));
            let name = s["name"].as_str().unwrap_or_else(|| panic!("no name: {s}"));
            (seat, name.to_owned())
        })
        .collect()
}

/// The report's game (`play --seats 3 --seed 42 --option victory_points=8`)
/// printed `seat 2 draws person:pirate:5:1`, `ship:blue:1:1`, `1 leftover
/// cards discarded` and ranked `seat 3 (bot 1)`.
#[test]
fn play_prints_the_terminal_uis_words_and_seats_named_as_they_sit() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let transcript = dir.path().join("game.rts");
    let args = [
        "play",
        "--seats",
        "3",
        "--seed",
        "42",
        "--option",
        "victory_points=8",
        "--transcript",
        path_str(&transcript),
    ];
    let log = stdout_of(&args);
    assert!(
        log.starts_with("Port Royal, 3 seats, heuristic bots, seed 42"),
        "{log}"
    );
    for internal in [
        "person:",
        "ship:",
        "tax:",
        "expedition:",
        "leftover cards discarded",
    ] {
        assert!(!log.contains(internal), "{internal:?} in:\n{log}");
    }
    // Ship names carry their colour letter, swords and coins; people are
    // named as players say them; turns are headed as on the screen.
    assert!(
        log.contains("] Pinnace ") || log.contains("] Flute "),
        "{log}"
    );
    assert!(log.contains("-- Turn 1: Bot "), "{log}");
    assert!(!log.contains("(bot "), "{log}");
    // Each bot is named after its seat, in the transcript too.
    let seats = seats_in(&transcript);
    assert_eq!(seats.len(), 3);
    for (seat, name) in &seats {
        assert_eq!(name, &format!("Bot {seat}"), "{seats:?}");
    }
    let result = log
        .split("\nResult:\n")
        .nth(1)
        .unwrap_or_else(|| panic!("no result in:\n{log}"));
    assert_eq!(
        result.lines().filter(|l| l.contains("Bot ")).count(),
        3,
        "{result}"
    );
    // The same seed prints the same game, byte for byte, and writes the
    // same transcript.
    let first = std::fs::read(&transcript).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(stdout_of(&args), log);
    assert_eq!(
        std::fs::read(&transcript).unwrap_or_else(|e| panic!("{e}")),
        first
    );
}

#[test]
fn play_and_selfplay_take_the_bot_flags_of_host_and_join() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let game = ["play", "--seats", "2", "--seed", "11"];
    let with = |extra: &[&str]| {
        let mut args = game.to_vec();
        args.extend_from_slice(extra);
        stdout_of(&args)
    };
    // The heuristic bot is the default.
    let default = with(&[]);
    assert_eq!(default, with(&["--bot", "heuristic"]));
    // The random bot plays another game, and says how to play it again.
    let random = with(&["--bot", "random"]);
    assert_ne!(random, default);
    assert!(
        random.starts_with(
            "Port Royal, 2 seats, random bots, seed 11 (replay with --seed 11 --bot random)"
        ),
        "{random}"
    );
    assert_eq!(with(&["--bot", "random"]), random);
    let reseeded = with(&["--bot", "random", "--bot-seed", "3"]);
    assert!(
        reseeded.contains("--bot random --bot-seed 3)"),
        "{reseeded}"
    );
    assert_eq!(with(&["--bot", "random", "--bot-seed", "3"]), reseeded);

    for bot in ["heuristic", "random"] {
        let transcript = dir.path().join(format!("{bot}.rts"));
        let out = stdout_of(&[
            "selfplay",
            "--seats",
            "4",
            "--seed",
            "5",
            "--bot",
            bot,
            "--transcript",
            path_str(&transcript),
        ]);
        assert!(!out.contains("(bot "), "{out}");
        for (seat, name) in seats_in(&transcript) {
            assert_eq!(name, format!("Bot {seat}"));
            assert!(out.contains(&format!(" Bot {seat}: ")), "{out}");
        }
    }

    // A bot nobody knows is refused by name, with the ones there are.
    let out = roundtable(&["play", "--bot", "clever"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("'clever'") && stderr.contains("heuristic, random"),
        "{stderr}"
    );
}

#[test]
fn the_help_says_what_runs_with_no_command() {
    for flag in ["-h", "--help"] {
        let help = stdout_of(&[flag]);
        assert!(help.contains("start menu"), "{flag}: {help}");
        assert!(help.contains("without a terminal"), "{flag}: {help}");
        assert!(
            !help.contains("the default when no command is given"),
            "{help}"
        );
    }
}

/// A spectator has no seat for a bot to play.
#[test]
fn watch_help_offers_a_spectator_no_bot() {
    let help = stdout_of(&["watch", "--help"]);
    assert!(!help.contains("--bot"), "{help}");
    assert!(!help.contains("Let a bot play"), "{help}");
    assert!(help.contains("--headless"), "{help}");
    // The players' commands keep them.
    for command in ["host", "join", "resume"] {
        let help = stdout_of(&[command, "--help"]);
        for flag in ["--headless", "--bot ", "--bot-seed", "--bot-delay-ms"] {
            assert!(help.contains(flag), "{command}: no {flag}: {help}");
        }
    }
    // And `watch` refuses them.
    let out = roundtable(&["watch", "rt1_x", "--bot", "random"]);
    assert_eq!(out.status.code(), Some(2));
}

/// `selfplay --game guildhall`: bots deal each other private hands through
/// the table protocol in one process; the transcript audits valid, and the
/// audit opens every seat's hand from the keys released after the game.
/// `selfplay` knew only Port Royal.
#[test]
fn a_guildhall_selfplay_transcript_audits_valid_with_every_hand_opened() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let transcript = dir.path().join("gh.rts");
    let shown = stdout_of(&[
        "selfplay",
        "--game",
        "guildhall",
        "--seats",
        "3",
        "--seed",
        "7",
        "--transcript",
        path_str(&transcript),
    ]);
    assert!(shown.contains("#1 Bot"), "{shown}");
    assert!(shown.contains("completed chapter"), "{shown}");
    let json: Value = serde_json::from_str(&stdout_of(&["audit", "--json", path_str(&transcript)]))
        .unwrap_or_else(|e| panic!("audit --json: {e}"));
    assert_eq!(json["verdict"], "valid", "{json}");
    let hands = json["hands"]
        .as_array()
        .unwrap_or_else(|| panic!("no hands: {json}"));
    assert_eq!(hands.len(), 3, "{json}");
    let text = stdout_of(&["audit", path_str(&transcript)]);
    assert!(text.contains("VP, "), "{text}");
    assert!(text.contains("completed chapter"), "{text}");
}
