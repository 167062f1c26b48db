//! Output on a terminal but no terminal to read keys from: a process
//! started by a service, or under `setsid` with standard input elsewhere.
//! The terminal library then failed with "No such device or address (os
//! error 6)"; now the commands that need the terminal UI say to use
//! `--headless`, and those that can print instead print.
//!
//! `script` gives the command a pseudo-terminal for its output, and
//! `setsid` takes away its controlling terminal (both from util-linux,
//! present on every Linux this project's CI runs on).

use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Run the binary with `args`, its standard output and error on a
/// terminal that is not its controlling terminal, and standard input
/// `/dev/null`. Returns what the terminal showed (both streams) and the
/// exit code. `timeout` ends a command that opened the UI after all (it
/// would wait for keys for ever); the test then fails on its output.
fn on_a_terminal_without_keys(args: &[&str]) -> (String, Option<i32>) {
    let quoted: Vec<String> = std::iter::once(env!("CARGO_BIN_EXE_roundtable"))
        .chain(args.iter().copied())
        .map(|a| format!("'{}'", a.replace('\'', r"'\''")))
        .collect();
    let inner = format!("setsid -w {} </dev/null", quoted.join(" "));
    let out: Output = Command::new("timeout")
        .args(["120", "script", "-qec", &inner, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("timeout and script (util-linux) run: {e}"));
    let text = String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n");
    (text, out.status.code())
}

fn path_str(path: &Path) -> &str {
    path.to_str().unwrap_or_else(|| panic!("a UTF-8 path"))
}

#[test]
fn the_terminal_ui_without_a_controlling_terminal_says_use_headless() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let (text, code) = on_a_terminal_without_keys(&[
        "host",
        "--seats",
        "2",
        "--no-mdns",
        "--listen",
        "/ip4/127.0.0.1/tcp/0",
        "--data-dir",
        path_str(dir.path()),
    ]);
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(
        text.trim(),
        "roundtable host: the terminal UI needs a terminal; \
         use --headless to let a bot play and print the log"
    );
}

#[test]
fn without_keys_the_start_menu_and_replay_print_instead() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let game = dir.path().join("game.rts");
    let selfplay = Command::new(env!("CARGO_BIN_EXE_roundtable"))
        .args(["selfplay", "--seats", "2", "--seed", "4", "--transcript"])
        .arg(&game)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(selfplay.status.success());

    let (text, code) = on_a_terminal_without_keys(&["replay", path_str(&game)]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.starts_with("Replay of game "), "{text}");

    // No command: the log of a bots' game, as without a terminal.
    let (text, code) = on_a_terminal_without_keys(&[]);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.starts_with("Port Royal, 4 seats, heuristic bots"),
        "{text}"
    );
    assert!(text.contains("\nResult:\n"), "{text}");
}

/// A spectator is told what `--headless` does for a spectator: no bot plays.
#[test]
fn a_spectator_without_a_terminal_is_told_what_headless_does_for_it() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let addr = "/ip4/127.0.0.1/tcp/9"
        .parse()
        .unwrap_or_else(|e| panic!("{e}"));
    let ticket = roundtable_net::Ticket {
        lobby: roundtable_net::LobbyId([3; 32]),
        game: "port-royal".into(),
        host: roundtable_table::Identity::from_secret([9; 32]).public(),
        addrs: vec![addr],
    }
    .encode();
    // Standard output a pipe: no terminal at all.
    let out = Command::new(env!("CARGO_BIN_EXE_roundtable"))
        .args(["watch", &ticket, "--data-dir", path_str(dir.path())])
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "roundtable watch: the terminal UI needs a terminal; \
         use --headless to print the game as it is played\n"
    );
}
