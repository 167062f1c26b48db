//! A person at a tournament table: `roundtable tournament play` without
//! `--bot` in a tmux pane, two bot players in their own processes. The
//! person is told its table and opponents before the game, the table's
//! lobby screen names the tournament, the round, the table and its
//! players, the person plays its seat by keys to the post-game screen, and
//! the game lands in the tournament's folder, where it audits and counts.
//!
//! Ignored by default, since it needs tmux (as crates/cli/tests/
//! net_tui_tmux.rs): `.ci/run` runs it with `--ignored`.

use crate::common;
use crate::net_support;
use crate::tournament_support;

use std::time::Duration;

use common::tmux::Tmux;
use net_support::BIN;
use tournament_support::{Tournament, roundtable, s};

/// Long enough for a loaded 2-core machine; a passing run takes far less.
const STEP: Duration = Duration::from_secs(60);
/// A whole game, at most.
const GAME: Duration = Duration::from_secs(240);

fn wait(tmux: &Tmux, what: &str, ok: impl Fn(&str) -> bool) -> String {
    tmux.expect_within(STEP, what, ok)
}

/// The person (p1) hosts its table's lobby: it sends the node the lobby's
/// ticket before its screen opens.
#[test]
#[ignore = "needs tmux; .ci/run installs it and runs this with --ignored"]
fn a_person_hosting_their_tournament_table_plays_it_in_the_terminal_ui() {
    person_at_a_tournament_table("tournament-host", 1);
}

/// The person (p1) joins the lobby another player (p2) hosts, with the
/// ticket the node hands on.
#[test]
#[ignore = "needs tmux; .ci/run installs it and runs this with --ignored"]
fn a_person_joining_their_tournament_table_plays_it_in_the_terminal_ui() {
    person_at_a_tournament_table("tournament-join", 2);
}

/// p1 plays in a tmux pane of session `session`, p2 and p3 are bots;
/// player `host` comes first in key order, so it hosts the table's lobby.
fn person_at_a_tournament_table(session: &'static str, host: usize) {
    common::tmux::require_tmux();
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let t = Tournament::set_up(
        tmp.path(),
        3,
        &[
            "--rounds",
            "1",
            "--seats",
            "3",
            "--option",
            "victory_points=5",
            "--stall-timeout-ms",
            "60000",
            "--show-up-secs",
            "120",
        ],
        Some(host),
    );
    let (mut node, ticket) = t.start_node(1);
    let tmux = Tmux::new(session);
    tmux.start(
        (80, 24),
        &["NO_COLOR=1".to_owned()],
        BIN,
        &t.play_args(1, &ticket, &[]),
        &tmp.path().join("status"),
    );
    // Before its table opens, the person sees the table and opponents.
    wait(&tmux, "the table and who is there", |s| {
        s.contains("table 1: p") && s.contains("waiting at table 1: 1 of 3 here")
    });
    let screen = tmux.screen();
    for name in ["p1", "p2", "p3"] {
        assert!(screen.contains(name), "{name} not shown:\n{screen}");
    }
    let mut bots = [
        t.start_bot(2, &ticket, "random"),
        t.start_bot(3, &ticket, "random"),
    ];

    // The table's lobby, then the game, in the terminal UI.
    wait(&tmux, "the table's screen", |s| {
        s.contains("Loopback open (Port Royal), round 1, table 1: p") || s.contains("Your move")
    });
    let moves = tmux.play_first_moves(STEP, GAME, "Your move");
    println!("played {moves} moves through the keyboard");
    let (ended, screen) = tmux.wait_for(GAME, |s| s.contains("Victory points over the turns"));
    assert!(ended, "the person never saw the end:\n{screen}");

    // The node files the table's game and ends the round.
    let status = node.wait(STEP * 2);
    let log = node.output();
    assert!(status.success(), "the node: {log:#?}");
    assert!(log.iter().any(|l| l == "round 1 is over"), "{log:#?}");
    assert!(log.iter().any(|l| l == "table 1: played"), "{log:#?}");
    for bot in &mut bots {
        let status = bot.wait(STEP);
        assert!(status.success(), "{}: {:#?}", bot.name, bot.output());
    }
    tmux.keys(&["q"]);
    let status = tmux.exit_status(&tmp.path().join("status"), STEP);
    assert_eq!(status.as_deref(), Some("0"), "{}", tmux.screen());

    // The game in the tournament's folder audits and counts.
    let game = t.games.join("round-01-table-01.rts");
    let audit = roundtable(&["audit", s(&game)]);
    assert!(
        audit.status.success(),
        "{}",
        String::from_utf8_lossy(&audit.stdout)
    );
    let out = roundtable(&["tournament", "standings", s(&t.manifest), s(&t.games)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("(1 game counted, 0 refused)"), "{stderr}");
}
