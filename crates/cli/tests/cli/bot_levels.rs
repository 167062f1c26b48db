//! `--bots` and `--think-ms` as a user meets them: a bot per seat by kind or
//! level, the ranking saying which bot is which, and one clear line for a
//! lineup that does not fit. Every case runs the real binary.

use std::process::{Command, Output, Stdio};

fn roundtable(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_roundtable"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("the binary runs: {e}"))
}

fn stdout_of(args: &[&str]) -> String {
    let out = roundtable(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The one line a refused command prints, and that it exits non-zero.
fn refusal(args: &[&str]) -> String {
    let out = roundtable(args);
    assert!(!out.status.success(), "{args:?} was accepted");
    assert!(out.stdout.is_empty(), "{args:?} printed a game");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn play_seats_a_bot_of_each_kind_and_ranks_them_by_kind() {
    let log = stdout_of(&[
        "play",
        "--bots",
        "search,heuristic,easy",
        "--think-ms",
        "5",
        "--seed",
        "8",
        "--option",
        "victory_points=5",
    ]);
    assert!(
        log.starts_with(
            "Port Royal, 3 seats, bots search,heuristic,easy, seed 8 \
             (replay with --seed 8 --bots search,heuristic,easy --think-ms 5)"
        ),
        "{log}"
    );
    let ranking: Vec<&str> = log
        .lines()
        .skip_while(|l| *l != "Result:")
        .skip(1)
        .collect();
    assert_eq!(ranking.len(), 3, "{log}");
    for (seat, kind) in [(1, "search"), (2, "heuristic"), (3, "easy")] {
        assert!(
            ranking
                .iter()
                .any(|l| l.contains(&format!(" Bot {seat} ({kind}): "))),
            "{log}"
        );
    }
}

#[test]
fn the_levels_name_the_same_bots_as_the_kinds() {
    let game = |bots: &str| {
        stdout_of(&[
            "play",
            "--bots",
            bots,
            "--seed",
            "4",
            "--bot-seed",
            "9",
            "--option",
            "victory_points=5",
        ])
        .lines()
        .skip(1)
        .collect::<Vec<_>>()
        .join("\n")
    };
    assert_eq!(game("normal,easy"), game("heuristic,easy"));
    // A number of bots is that many `--bot` bots.
    assert_eq!(
        stdout_of(&["play", "--bots", "2", "--seed", "4"]),
        stdout_of(&["play", "--seats", "2", "--seed", "4"])
    );
}

#[test]
fn selfplay_takes_a_bot_per_seat_too() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let transcript = dir.path().join("game.rts");
    let path = transcript
        .to_str()
        .unwrap_or_else(|| panic!("a UTF-8 path"));
    let out = stdout_of(&[
        "selfplay",
        "--bots",
        "hard,normal",
        "--think-ms",
        "5",
        "--option",
        "victory_points=5",
        "--transcript",
        path,
    ]);
    assert!(out.contains(" Bot 1 (search): "), "{out}");
    assert!(out.contains(" Bot 2 (heuristic): "), "{out}");
    let audit = roundtable(&["audit", path]);
    assert!(audit.status.success(), "{audit:?}");
}

#[test]
fn a_lineup_that_does_not_fit_is_one_clear_line() {
    let unknown = refusal(&["play", "--bots", "hard,clever"]);
    assert!(unknown.contains("\"clever\" is not a bot"), "{unknown}");
    assert!(unknown.contains("easy, normal"), "{unknown}");
    let mismatch = refusal(&["play", "--bots", "hard,normal", "--seats", "3"]);
    assert_eq!(
        mismatch.trim(),
        "roundtable play: --bots names 2 bots for --seats 3: give one bot a seat"
    );
    let alone = refusal(&["selfplay", "--bots", "hard", "--transcript", "x.rts"]);
    assert!(alone.contains("2 to 5 seats, not 1"), "{alone}");
    let never = refusal(&["play", "--think-ms", "0"]);
    assert!(never.contains("--think-ms"), "{never}");
    let both = refusal(&["play", "--bot", "random", "--bots", "hard,normal"]);
    assert!(both.contains("cannot be used with"), "{both}");
    let crowded = refusal(&[
        "host",
        "--headless",
        "--seats",
        "3",
        "--bots",
        "hard,easy,normal",
    ]);
    assert!(
        crowded.contains("3 bots leave no seat for the host"),
        "{crowded}"
    );
}
