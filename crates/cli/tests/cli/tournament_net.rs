//! Rounds of a tournament over real libp2p processes on 127.0.0.1: a
//! tournament node (`tournament host`) and bot players (`tournament play
//! --bot`).
//!
//! 1. Seven of eight registered players at two four-seat tables. The
//!    eighth never comes: its table starts without it once the manifest's
//!    show-up time has passed, and it loses by forfeit. Then the standings
//!    come from the files in the tournament's folder alone.
//! 2. A table whose players die after it opened: the node gives up on it
//!    and keeps the other table's game.
//! 3. A round of Nereus, a game that deals private cards.

use crate::net_support;
use crate::tournament_support;

use std::time::Duration;

use net_support::Peer;
use serde_json::Value;
use tournament_support::{Tournament, roundtable, s};

const PLAYERS: usize = 8;
/// The manifest's show-up time: long enough for seven processes to start
/// on a loaded machine, short enough for a test.
const SHOW_UP_SECS: &str = "20";

#[test]
fn a_round_over_the_network_forfeits_the_no_show_and_counts_from_the_files() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let t = Tournament::set_up(
        tmp.path(),
        PLAYERS,
        &[
            "--rounds",
            "2",
            "--seats",
            "4",
            "--show-up-secs",
            SHOW_UP_SECS,
        ],
        None,
    );
    let (manifest, games) = (&t.manifest, &t.games);
    let (mut node, ticket) = t.start_node(1);

    // p8 never comes.
    let mut players: Vec<Peer> = (1..PLAYERS)
        .map(|i| t.start_bot(i, &ticket, "random"))
        .collect();

    let status = node.wait(Duration::from_secs(300));
    let log = node.output();
    assert!(status.success(), "the node: {log:#?}");
    assert!(log.iter().any(|l| l == "round 1 is over"), "{log:#?}");
    // Its ticket holds loopback addresses only, and it says so as `host`
    // does under such a ticket.
    assert!(
        log.iter()
            .any(|l| l.starts_with("this ticket holds only loopback addresses")),
        "{log:#?}"
    );
    assert!(
        log.iter()
            .any(|l| l.ends_with("played; lost by forfeit (not there in time): p8")),
        "{log:#?}"
    );
    for p in &mut players {
        let status = p.wait(Duration::from_secs(60));
        let out = p.output();
        assert!(status.success(), "{}: {out:#?}", p.name);
        // Each was shown its table and opponents before it played.
        assert!(
            out.iter()
                .any(|l| l.starts_with("table ") && l.contains(&p.name)),
            "{}: {out:#?}",
            p.name
        );
        assert!(out.iter().any(|l| l == "game over"), "{}: {out:#?}", p.name);
    }

    // The standings from the folder alone: both games count, p8 lost its
    // table's game by forfeit, and every other player played one game.
    let json = tmp.path().join("standings.json");
    let out = roundtable(&[
        "tournament",
        "standings",
        s(manifest),
        s(games),
        "--json",
        s(&json),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("lost by forfeit (not at the table in time): round 1 table "),
        "{stdout}"
    );
    let standings: Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("the JSON")).expect("JSON");
    let tables = standings["rounds"][0]["tables"]
        .as_array()
        .expect("round 1's tables");
    assert_eq!(tables.len(), 2);
    assert!(
        tables.iter().all(|t| t["status"] == "played"),
        "{tables:#?}"
    );
    let no_shows: Vec<&Value> = tables
        .iter()
        .flat_map(|t| t["no_shows"].as_array().unwrap())
        .collect();
    assert_eq!(no_shows, [&Value::from("p8")]);
    for p in standings["players"].as_array().expect("players") {
        let (games, points) = (p["games"].as_u64(), p["points"].as_f64());
        if p["name"] == "p8" {
            assert_eq!((games, points), (Some(0), Some(0.0)), "{p}");
        } else {
            assert_eq!(games, Some(1), "{p}");
        }
    }
    let files: Vec<String> = std::fs::read_dir(games)
        .expect("the folder")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".rts"))
        .collect();
    assert_eq!(files.len(), 2, "{files:?}");

    // Bad input: one line each, a non-zero exit, before anything is dialled.
    let stranger = tmp.path().join("stranger");
    let p8 = t.player_dir(8);
    let bad: [(Vec<&str>, i32, &str); 4] = [
        (
            vec![
                "tournament",
                "play",
                s(manifest),
                "rt1_nonsense",
                "--data-dir",
                s(&stranger),
            ],
            1,
            "checksum",
        ),
        (
            vec![
                "tournament",
                "play",
                s(manifest),
                &ticket,
                "--data-dir",
                s(&stranger),
            ],
            1,
            "is not registered in tournament",
        ),
        (
            vec![
                "tournament",
                "play",
                s(manifest),
                &ticket,
                "--data-dir",
                s(&p8),
            ],
            1,
            "the terminal UI needs a terminal; use --bot LEVEL to let a bot play your table",
        ),
        (
            vec!["tournament", "host", s(manifest), s(games), "--round", "3"],
            2,
            "the tournament has rounds 1 to 2",
        ),
    ];
    for (args, code, says) in bad {
        let out = roundtable(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

/// A table whose players all die after it opened (its host among them)
/// never sends a game back: the node gives up on it once its game has
/// stood still for four stall timeouts and the presence time, says so
/// in one line naming the table and exits non-zero, and the other table's
/// game, which came back, is in the folder and counts.
#[test]
fn a_node_gives_up_on_a_table_that_stands_still_and_keeps_what_came_back() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let t = Tournament::set_up(
        tmp.path(),
        4,
        &[
            "--rounds",
            "1",
            "--seats",
            "2",
            "--option",
            "victory_points=5",
            "--stall-timeout-ms",
            "10000",
            "--show-up-secs",
            "60",
        ],
        None,
    );
    let (mut node, ticket) = t.start_node(1);
    // The node prints the round's tables before its ticket.
    let seated_at = |table: u32| -> Vec<usize> {
        let prefix = format!("table {table}: ");
        let line = node
            .output()
            .into_iter()
            .find(|l| l.starts_with(&prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} in {:#?}", node.output()));
        line[prefix.len()..]
            .split(", ")
            .map(|name| name.trim_start_matches('p').parse().expect("a player"))
            .collect()
    };
    let (table_1, table_2) = (seated_at(1), seated_at(2));
    let mut players: Vec<(usize, Peer)> = (1..=4)
        .map(|i| (i, t.start_bot(i, &ticket, "random")))
        .collect();
    // Table 2's players die as soon as its lobby is open.
    let opened = node.wait_line(Duration::from_secs(60), |l| {
        l.starts_with("table 2: ") && l.ends_with(" opened its lobby")
    });
    assert!(
        opened.is_some(),
        "table 2 never opened: {:#?}",
        node.output()
    );
    for (i, p) in &mut players {
        if table_2.contains(i) {
            let _ = p.child.kill();
        }
    }

    let status = node.wait(Duration::from_secs(180));
    let log = node.output();
    let errors = node.error_lines();
    assert_eq!(status.code(), Some(1), "{log:#?}\n{errors:#?}");
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(
        errors[0].starts_with(
            "roundtable tournament host: round 1 ends without a result for table 2: \
             its game stood still for 45 s (4 stall timeouts and 5 s); \
             the games that came back are in "
        ),
        "{errors:#?}"
    );
    assert!(log.iter().any(|l| l == "table 1: played"), "{log:#?}");
    assert!(
        log.iter()
            .any(|l| l == "table 2: no result (its game stood still for 45 s)"),
        "{log:#?}"
    );
    for (i, p) in &mut players {
        if table_1.contains(i) {
            let status = p.wait(Duration::from_secs(60));
            assert!(status.success(), "{}: {:#?}", p.name, p.output());
        }
    }
    // What came back is kept, and counts.
    assert!(t.games.join("round-01-table-01.rts").exists());
    assert!(!t.games.join("round-01-table-02.rts").exists());
    let out = roundtable(&["tournament", "standings", s(&t.manifest), s(&t.games)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("(1 game counted, 0 refused)"), "{stderr}");
}

/// A round of a tournament of another game than Port Royal over the
/// network: Nereus, whose science cards are dealt by mental poker, at one
/// two-seat table of bots; the game the node files audits and counts.
#[test]
fn a_nereus_round_over_the_network_counts_from_the_files() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let t = Tournament::set_up(
        tmp.path(),
        2,
        &["--game", "nereus", "--rounds", "1", "--seats", "2"],
        None,
    );
    let (mut node, ticket) = t.start_node(1);
    let mut players: Vec<Peer> = (1..=2).map(|i| t.start_bot(i, &ticket, "random")).collect();
    let status = node.wait(Duration::from_secs(240));
    let log = node.output();
    assert!(status.success(), "the node: {log:#?}");
    assert!(log.iter().any(|l| l == "table 1: played"), "{log:#?}");
    for p in &mut players {
        let status = p.wait(Duration::from_secs(60));
        assert!(status.success(), "{}: {:#?}", p.name, p.output());
    }
    let out = roundtable(&["tournament", "standings", s(&t.manifest), s(&t.games)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("(1 game counted, 0 refused)"), "{stderr}");
}
