//! Every command and flag the README names exists: each `roundtable …` or
//! `cargo run --release -- …` line's subcommand has the flags it shows (in
//! its comment too), and every flag the prose names in a `code` span
//! belongs to some subcommand. The README had promised flags the program did not take.

use std::collections::BTreeSet;
use std::process::{Command, Stdio};

const README: &str = include_str!("../../../../README.md");

/// The subcommands, as `roundtable --help` lists them.
const COMMANDS: [&str; 12] = [
    "play",
    "scenario",
    "fairdeck",
    "selfplay",
    "audit",
    "replay",
    "host",
    "join",
    "watch",
    "resume",
    "relay",
    "tournament",
];

/// Flags the README gives to cargo, not to roundtable.
const CARGO_FLAGS: [&str; 1] = ["--ignored"];

/// `roundtable COMMAND… --help`, if that is a command.
fn help(command: &[&str]) -> Option<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_roundtable"))
        .args(command)
        .arg("--help")
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("the binary runs: {e}"));
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The long flags in `text` (`--bot`, `--data-dir`).
fn flags(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|t| t.len() > 2 && t.starts_with("--") && t.as_bytes()[2].is_ascii_lowercase())
        .filter(|t| !CARGO_FLAGS.contains(t))
        .map(str::to_owned)
        .collect()
}

/// `flag` as a help text lists it: alone, or before its value.
fn offers(help: &str, flag: &str) -> bool {
    help.lines()
        .any(|l| l.trim_start().split([' ', ',']).any(|word| word == flag))
}

#[test]
fn every_command_line_of_the_readme_exists_with_its_flags() {
    let mut lines = 0;
    for line in README.lines() {
        let rest = if let Some(rest) = line.strip_prefix("roundtable ") {
            rest
        } else if let Some(rest) = line.strip_prefix("cargo run --release -- ") {
            rest
        } else {
            continue;
        };
        lines += 1;
        let words: Vec<&str> = rest.split_whitespace().collect();
        let first = words.first().copied().unwrap_or_default();
        let mut command: Vec<&str> = COMMANDS.iter().copied().filter(|c| *c == first).collect();
        assert!(
            !command.is_empty() || first.starts_with("--"),
            "{line}: no command {first:?}"
        );
        // A command of a command (`fairdeck chain`).
        if let Some(second) = words
            .get(1)
            .filter(|w| w.bytes().all(|b| b.is_ascii_lowercase()))
            && !command.is_empty()
            && help(&[first, second]).is_some()
        {
            command.push(second);
        }
        let help = help(&command).unwrap_or_else(|| panic!("{line}: {command:?} --help failed"));
        for flag in flags(rest) {
            assert!(offers(&help, &flag), "{line}: {command:?} has no {flag}");
        }
    }
    assert!(lines >= 15, "only {lines} command lines found");
}

#[test]
fn every_flag_the_readme_names_belongs_to_a_command() {
    let helps: Vec<String> = std::iter::once(&[][..])
        .chain(COMMANDS.iter().map(std::slice::from_ref))
        .map(|c| help(c).unwrap_or_else(|| panic!("{c:?} --help failed")))
        .collect();
    // The prose outside the code blocks: its `code` spans that are flags.
    let prose: Vec<&str> = README
        .split("```")
        .step_by(2)
        .flat_map(|text| text.split('`').skip(1).step_by(2))
        .filter(|span| span.starts_with("--"))
        .collect();
    let named = flags(&prose.join(" "));
    assert!(named.contains("--data-dir") && named.contains("--headless"));
    for flag in named {
        assert!(
            helps.iter().any(|h| offers(h, &flag)),
            "no command takes {flag}"
        );
    }
}
