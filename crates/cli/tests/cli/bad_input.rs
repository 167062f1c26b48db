//! Bad settings and bad input fail at once, in one line that says each cause
//! once in the user's words; a reader that closes the output pipe ends a
//! command quietly. Every case runs the real binary.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common::{path_str, roundtable};

/// The one line a refused command printed on stderr (it must exit non-zero
/// and print exactly one line).
fn refusal(args: &[&str]) -> String {
    let out = roundtable(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        !out.status.success(),
        "{args:?} succeeded: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
    assert_eq!(
        stderr.lines().count(),
        1,
        "{args:?}: one line, got {stderr:?}"
    );
    stderr
}

/// Arguments that keep a `host` to loopback in its own data directory.
fn on_loopback(dir: &Path) -> Vec<String> {
    [
        "--headless",
        "--no-mdns",
        "--listen",
        "/ip4/127.0.0.1/tcp/0",
        "--data-dir",
        path_str(dir),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

#[test]
fn host_refuses_terms_that_cannot_start_before_a_lobby_opens() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let cases: &[(&[&str], &str)] = &[
        (&["--option", "victory_points=0"], "victory_points"),
        (&["--option", "victory_points=abc"], "victory_points"),
        (&["--option", "colour=blue"], "no option colour"),
        (&["--seats", "9"], "2 to 5 seats"),
        (&["--stall-timeout-ms", "0"], "--stall-timeout-ms"),
        (
            &["--stall-timeout-ms", "18446744073709551615"],
            "--stall-timeout-ms",
        ),
        // A name is held to the start menu's rules: an empty one opened a
        // lobby with a nameless seat.
        (&["--name", "  "], "at least one letter"),
        (&["--name", &"x".repeat(33)], "at most 32 bytes"),
        (&["--name", "ann\u{1b}[2J"], "no control characters"),
    ];
    for (bad, named) in cases {
        let line = host_refusal(&dir.path().join("host"), bad);
        assert!(line.contains(named), "{bad:?}: {line}");
    }
}

/// The one line a `host` with these extra arguments printed when it refused
/// them before opening a lobby (it must exit 1 and open none).
fn host_refusal(data_dir: &Path, bad: &[&str]) -> String {
    let mut args = vec!["host".to_string()];
    args.extend(on_loopback(data_dir));
    args.extend(bad.iter().map(|s| s.to_string()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_roundtable"))
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("the binary runs: {e}"));
    // A lobby that opened says so on stdout at once: the first line, or
    // the end of the output when the host refused.
    let mut first = String::new();
    if let Some(stdout) = child.stdout.take() {
        let _ = BufReader::new(stdout).read_line(&mut first);
    }
    if !first.is_empty() {
        let _ = child.kill();
    }
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
    assert!(first.is_empty(), "{bad:?}: a lobby opened: {first}");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{bad:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{bad:?}: {stderr:?}");
    stderr
}

/// The game's one victory-point range: `host`, `play` and `selfplay` refuse
/// a target just outside either end at once, in one line naming the range.
/// 37 is the newcomer report's `play --option victory_points=37 --seed 5`,
/// a game its random players could never finish: it played for ever, and
/// `host` opened a lobby for it.
#[test]
fn victory_points_outside_the_games_range_are_refused_everywhere() {
    use roundtable_port_royal::VICTORY_POINTS;
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (lo, hi) = (*VICTORY_POINTS.start(), *VICTORY_POINTS.end());
    let range = format!("between {lo} and {hi}");
    // The host first: on the old range it opened a lobby, where `play`
    // would have played for ever.
    for bad in [37, lo - 1, hi + 1] {
        let option = format!("victory_points={bad}");
        let line = host_refusal(&dir.path().join("host"), &["--option", &option]);
        assert!(line.contains(&range), "{line}");
        let transcript = dir.path().join("x.rts");
        for command in [
            &["play", "--option", &option][..],
            &[
                "selfplay",
                "--option",
                &option,
                "--transcript",
                path_str(&transcript),
            ],
        ] {
            let line = refusal(command);
            assert!(line.contains(&range), "{command:?}: {line}");
            assert_eq!(line.matches("victory_points").count(), 1, "{line}");
        }
    }
}

#[test]
fn each_cause_is_said_once_in_the_users_words() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let x = dir.path().join("x.rts");

    let line = refusal(&["play", "--option", "victory_points=0"]);
    assert_eq!(line.matches("victory_points").count(), 1, "{line}");
    assert!(!line.contains("genesis"), "{line}");

    for command in ["play", "selfplay"] {
        let line = refusal(&[command, "--seats", "9", "--transcript", path_str(&x)]);
        assert!(line.contains("2 to 5 seats"), "{line}");
        assert!(!line.contains("genesis"), "{line}");
    }

    let missing = dir.path().join("no/such/dir/x.rts");
    let line = refusal(&["selfplay", "--transcript", path_str(&missing)]);
    assert_eq!(line.matches("No such file").count(), 1, "{line}");
    assert_eq!(line.matches(path_str(&missing)).count(), 1, "{line}");

    let line = refusal(&["play", "--option", "victory_points=abc"]);
    assert!(line.contains("\"abc\" is not a whole number"), "{line}");
    assert!(!line.contains("invalid type"), "{line}");

    let line = refusal(&["host", "--data-dir", "/dev/null/x", "--headless"]);
    assert_eq!(line.matches("Not a directory").count(), 1, "{line}");

    for id in ["zzz", "deadbeef"] {
        let line = refusal(&["resume", id, "--data-dir", path_str(dir.path())]);
        assert!(line.contains("64 hex digits"), "{line}");
    }
}

#[test]
fn the_terminal_ui_without_a_terminal_says_use_headless() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut args = vec!["host".to_string(), "--seats".into(), "2".into()];
    args.extend(
        on_loopback(dir.path())
            .into_iter()
            .filter(|a| a != "--headless"),
    );
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    // stdout is a pipe here: no terminal to draw on.
    let line = refusal(&args);
    assert!(line.contains("--headless"), "{line}");
    assert!(!line.contains("os error"), "{line}");
}

#[test]
fn a_file_that_is_no_transcript_is_not_called_version_1() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let empty = dir.path().join("empty.rts");
    let random = dir.path().join("random.rts");
    std::fs::write(&empty, b"").unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(&random, [0x5a_u8; 100]).unwrap_or_else(|e| panic!("{e}"));
    for file in [&empty, &random] {
        let out = roundtable(&["audit", path_str(file)]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(2), "{text}");
        assert!(text.contains("not a roundtable transcript"), "{text}");
        assert!(!text.contains("version"), "{text}");
        assert_eq!(text.matches(path_str(file)).count(), 1, "{text}");
        let out = roundtable(&["replay", path_str(file)]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(!stderr.contains("version"), "{stderr}");
    }
    // A real transcript of a later format version is told apart.
    let later = dir.path().join("later.rts");
    let mut bytes = b"RTSCRIPT".to_vec();
    bytes.extend_from_slice(&2u32.to_le_bytes());
    std::fs::write(&later, bytes).unwrap_or_else(|e| panic!("{e}"));
    let out = roundtable(&["audit", path_str(&later)]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("format version 2"), "{text}");
}

fn selfplay(dir: &Path) -> PathBuf {
    let path = dir.join("game.rts");
    let out = roundtable(&[
        "selfplay",
        "--seats",
        "2",
        "--seed",
        "9",
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

/// Run with standard output a pipe whose reader has already gone, so that
/// the first write fails: the command must end quietly with `code`.
fn into_a_closed_pipe(args: &[&str], code: i32) {
    let (reader, writer) = std::io::pipe().unwrap_or_else(|e| panic!("{e}"));
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_roundtable"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::from(writer))
        .stderr(Stdio::piped())
        .output()
        .unwrap_or_else(|e| panic!("the binary runs: {e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(stderr.is_empty(), "{args:?}: not quiet: {stderr}");
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
}

#[test]
fn a_closed_output_pipe_ends_every_command_quietly() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let game = selfplay(dir.path());
    let game = path_str(&game);
    let beacon = "ab".repeat(32);
    let scenario = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/scenarios/port-royal")
        .read_dir()
        .unwrap_or_else(|e| panic!("{e}"))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "toml"))
        .unwrap_or_else(|| panic!("no scenario file"));
    let again = dir.path().join("again.rts");
    for args in [
        &["audit", game, game][..],
        &["audit", "--json", game],
        &["selfplay", "--seed", "2", "--transcript", path_str(&again)],
        &["play", "--seats", "2", "--seed", "1"],
        &["replay", game],
        &["scenario", path_str(&scenario)],
        &[
            "fairdeck", "sample", "--beacon", &beacon, "--below", "5", "--count", "1000",
        ],
    ] {
        into_a_closed_pipe(args, 0);
    }
}

fn sample_ticket() -> String {
    let addr = "/ip4/127.0.0.1/tcp/9"
        .parse()
        .unwrap_or_else(|e| panic!("{e}"));
    roundtable_net::Ticket {
        lobby: roundtable_net::LobbyId([3; 32]),
        game: "port-royal".into(),
        host: roundtable_table::Identity::from_secret([9; 32]).public(),
        addrs: vec![addr],
    }
    .encode()
}

#[test]
fn join_reads_a_ticket_pasted_wrapped_in_its_box() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let ticket = sample_ticket();
    // As copied from a box on the host's screen: rows with borders and
    // padding, over several lines.
    let boxed = ticket
        .as_bytes()
        .chunks(40)
        .map(|row| format!("│ {:<40} │", String::from_utf8_lossy(row)))
        .collect::<Vec<_>>()
        .join("\n");
    let piped = format!("| {ticket} |");
    for pasted in [&boxed, &piped] {
        // With stdout a pipe, a ticket that reads leads to the next thing
        // missing: a terminal for the UI.
        let line = refusal(&["join", pasted, "--data-dir", path_str(dir.path())]);
        assert!(line.contains("--headless"), "{pasted}: {line}");
    }
}

#[test]
fn a_truncated_ticket_is_called_truncated() {
    let ticket = sample_ticket();
    for cut in "rt1_x".len()..ticket.len() {
        let line = refusal(&["join", &ticket[..cut]]);
        assert!(
            line.contains("truncated or mistyped"),
            "cut at {cut}: {line}"
        );
    }
}

/// A ticket to a table of `game`, at an address nobody answers.
fn ticket_for(game: &str) -> String {
    let addr = "/ip4/127.0.0.1/tcp/9"
        .parse()
        .unwrap_or_else(|e| panic!("{e}"));
    roundtable_net::Ticket {
        lobby: roundtable_net::LobbyId([4; 32]),
        game: game.into(),
        host: roundtable_table::Identity::from_secret([9; 32]).public(),
        addrs: vec![addr],
    }
    .encode()
}

/// Every command that takes a game takes it from the one list: a name not
/// in it is a usage error (exit 2) in one line that lists the games, and a
/// game's options are refused for another game in one line that lists the
/// options it has. `play` and `host` took no `--game` at all, `selfplay`
/// knew only Port Royal.
#[test]
fn a_game_is_one_of_the_list_and_takes_only_its_own_options() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let x = dir.path().join("x.rts");
    let games = "no game is called \"chess\"; the games are port-royal, guildhall, nereus";
    for command in [
        &["play", "--game", "chess"][..],
        &["selfplay", "--game", "chess", "--transcript", path_str(&x)],
        &["host", "--game", "chess", "--headless"],
    ] {
        let out = roundtable(command);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{command:?}: {stderr:?}");
        assert!(stderr.contains(games), "{command:?}: {stderr}");
    }
    let line = refusal(&[
        "play",
        "--game",
        "guildhall",
        "--option",
        "victory_points=8",
    ]);
    assert!(
        line.contains("there is no option victory_points (the options: "),
        "{line}"
    );
    // The options are Guildhall's set-up rows, in the form's words.
    assert!(
        line.contains("max_rounds (a whole number such as 1, 5, 10, 20 or 100): the game ends after them whatever the VP"),
        "{line}"
    );
    assert!(
        line.contains(
            "late_chapter_cap (true or false): Yucata: a 4th chapter goes at your next turn"
        ),
        "{line}"
    );
    let line = refusal(&["play", "--game", "guildhall", "--seats", "5"]);
    assert!(line.contains("2 to 4 seats"), "{line}");
    let line = refusal(&[
        "play",
        "--game",
        "guildhall",
        "--option",
        "late_chapter_cap=maybe",
    ]);
    assert!(line.contains("\"maybe\" is not true or false"), "{line}");
    let line = host_refusal(
        &dir.path().join("host"),
        &["--game", "guildhall", "--option", "expansion=true"],
    );
    assert!(line.contains("no option expansion"), "{line}");
    // A joiner whose list has no such game refuses its ticket before
    // dialling anyone.
    for command in ["join", "watch"] {
        let line = refusal(&[
            command,
            &ticket_for("chess"),
            "--headless",
            "--data-dir",
            path_str(dir.path()),
        ]);
        assert!(line.contains(games), "{command}: {line}");
    }
}

/// A Guildhall option given alone keeps the game's other defaults:
/// Guildhall's options have no defaults of their own to deserialize from.
#[test]
fn a_guildhall_game_plays_with_one_of_its_options_changed() {
    let out = roundtable(&[
        "play",
        "--game",
        "guildhall",
        "--seed",
        "5",
        "--seats",
        "3",
        "--option",
        "refill_after_paying=false",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("Guildhall, 3 seats"), "{stdout}");
    assert!(stdout.contains("--game guildhall --seed 5"), "{stdout}");
    assert!(stdout.contains("#1 Bot"), "{stdout}");
    assert!(stdout.contains("completed chapter"), "{stdout}");
}
