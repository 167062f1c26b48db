//! A tournament set up through the real binary for the tests of its
//! rounds over the network: terms, registrations, the signed manifest and
//! every player's seed reveal in a fresh folder; then a tournament node
//! and players started as processes on 127.0.0.1.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use crate::net_support::{BIN, Peer, read_ticket};

/// Run the binary with `args`.
pub(crate) fn roundtable(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Run the binary with `args`, which must succeed; its standard output.
pub(crate) fn ok(args: &[&str]) -> String {
    let out = roundtable(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A path as an argument.
pub(crate) fn s(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// Flags of a peer that stays on this machine.
pub(crate) fn loopback() -> Vec<String> {
    [
        "--listen",
        "/ip4/127.0.0.1/tcp/0",
        "--no-mdns",
        "--sync-ms",
        "300",
    ]
    .iter()
    .map(|a| a.to_string())
    .collect()
}

/// A tournament whose players p1, p2, ... registered and opened their
/// seed shares.
pub(crate) struct Tournament {
    /// The folder everything is in.
    pub(crate) root: PathBuf,
    /// The signed manifest.
    pub(crate) manifest: PathBuf,
    /// The tournament's folder of games and reveals.
    pub(crate) games: PathBuf,
    /// The director's data folder.
    pub(crate) director: PathBuf,
}

impl Tournament {
    /// Set up a tournament of `players` in `root`; `terms` are more flags
    /// of `tournament new` (`--game`, `--seats`, `--show-up-secs`...).
    /// `player_first`, if given, is the player whose key must come first
    /// in key order (the host of its table): the others' keys are drawn
    /// again until it does.
    pub(crate) fn set_up(
        root: &Path,
        players: usize,
        terms: &[&str],
        player_first: Option<usize>,
    ) -> Tournament {
        let t = Tournament {
            root: root.to_owned(),
            manifest: root.join("manifest.json"),
            games: root.join("games"),
            director: root.join("director"),
        };
        std::fs::create_dir_all(&t.games).expect("the games folder");
        let terms_file = root.join("terms.json");
        let mut new = vec![
            "tournament",
            "new",
            "--name",
            "Loopback open",
            "--data-dir",
            s(&t.director),
            "--out",
            s(&terms_file),
        ];
        new.extend_from_slice(terms);
        ok(&new);
        let mut registrations = Vec::new();
        let mut keys = Vec::new();
        for i in 1..=players {
            let file = root.join(format!("p{i}.json"));
            let key = loop {
                let _ = std::fs::remove_file(&file);
                let _ = std::fs::remove_dir_all(t.player_dir(i));
                ok(&[
                    "tournament",
                    "register",
                    s(&terms_file),
                    "--name",
                    &format!("p{i}"),
                    "--data-dir",
                    s(&t.player_dir(i)),
                    "--out",
                    s(&file),
                ]);
                let json: serde_json::Value =
                    serde_json::from_str(&std::fs::read_to_string(&file).expect("registration"))
                        .expect("JSON");
                let key = json["key"].as_str().expect("a key").to_owned();
                let first_so_far = |k: &String| keys.iter().all(|other: &String| k < other);
                match player_first {
                    Some(f) if f == i && !first_so_far(&key) => continue,
                    Some(f) if f < i && key < keys[f - 1] => continue,
                    _ => break key,
                }
            };
            keys.push(key);
            registrations.push(file);
        }
        let mut close = vec!["tournament", "close", s(&terms_file)];
        close.extend(registrations.iter().map(|p| s(p)));
        close.extend(["--data-dir", s(&t.director), "--out", s(&t.manifest)]);
        ok(&close);
        for i in 1..=players {
            ok(&[
                "tournament",
                "reveal",
                s(&t.manifest),
                "--data-dir",
                s(&t.player_dir(i)),
                "--out",
                s(&t.games.join(format!("p{i}.reveal.json"))),
            ]);
        }
        t
    }

    /// Player `i`'s data folder (its key).
    pub(crate) fn player_dir(&self, i: usize) -> PathBuf {
        self.root.join(format!("p{i}"))
    }

    /// Start the tournament node for `round`; it and its ticket.
    pub(crate) fn start_node(&self, round: u32) -> (Peer, String) {
        let ticket_file = self.root.join(format!("node-ticket-{round}.txt"));
        let mut args: Vec<String> = [
            "tournament",
            "host",
            s(&self.manifest),
            s(&self.games),
            "--round",
            &round.to_string(),
            "--data-dir",
            s(&self.director),
            "--ticket-file",
            s(&ticket_file),
        ]
        .iter()
        .map(|a| a.to_string())
        .collect();
        args.extend(loopback());
        let node = Peer::start("node", &args);
        let ticket = read_ticket(&ticket_file, Duration::from_secs(60));
        (node, ticket)
    }

    /// The arguments of `tournament play` for player `i` with the node's
    /// `ticket`, then `extra`.
    pub(crate) fn play_args(&self, i: usize, ticket: &str, extra: &[&str]) -> Vec<String> {
        let mut args: Vec<String> = [
            "tournament",
            "play",
            s(&self.manifest),
            ticket,
            "--data-dir",
            s(&self.player_dir(i)),
        ]
        .iter()
        .chain(extra)
        .map(|a| a.to_string())
        .collect();
        args.extend(loopback());
        args
    }

    /// Start player `i` as a bot of `level` in its own process.
    pub(crate) fn start_bot(&self, i: usize, ticket: &str, level: &str) -> Peer {
        let seed = i.to_string();
        Peer::start(
            &format!("p{i}"),
            &self.play_args(i, ticket, &["--bot", level, "--bot-seed", &seed]),
        )
    }
}
