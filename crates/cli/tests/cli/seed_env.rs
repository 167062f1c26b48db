//! `ROUNDTABLE_SEED`: a game whose command line gives no seed plays the
//! seed the environment names (so CI's terminal games repeat on a commit),
//! `--seed` still wins, and a value that is not a seed is refused in one
//! line rather than quietly replaced by a fresh game.

use std::process::{Command, Output, Stdio};

fn play(seed_var: Option<&str>, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_roundtable"));
    command
        .args(["play", "--seats", "2", "--option", "victory_points=4"])
        .args(args)
        .stdin(Stdio::null())
        .env_remove("ROUNDTABLE_SEED");
    if let Some(value) = seed_var {
        command.env("ROUNDTABLE_SEED", value);
    }
    command
        .output()
        .unwrap_or_else(|e| panic!("the binary runs: {e}"))
}

fn log(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn an_unseeded_play_takes_the_seed_from_the_environment() {
    let from_env = log(&play(Some("4242"), &[]));
    let first = from_env.lines().next().unwrap_or_default();
    assert!(first.contains("seed 4242"), "{first}");
    assert_eq!(from_env, log(&play(None, &["--seed", "4242"])));
}

#[test]
fn the_command_lines_seed_wins_over_the_environment() {
    assert_eq!(
        log(&play(Some("1"), &["--seed", "4242"])),
        log(&play(None, &["--seed", "4242"]))
    );
}

#[test]
fn a_seed_that_is_not_a_number_is_refused_in_one_line() {
    let out = play(Some("forty-two"), &[]);
    assert!(!out.status.success());
    assert!(out.stdout.is_empty(), "a game was played");
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(said.contains("ROUNDTABLE_SEED"), "{said}");
}
