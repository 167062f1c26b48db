//! How a network game ends for every process of the real binary on
//! 127.0.0.1: a spectator whose peers are all gone, and a dead ticket, get
//! one line and a failure instead of a wait for ever. (That a spectator
//! coming after the end still gets the whole game is the net crate's
//! `a_spectator_that_comes_after_the_end_gets_the_whole_game`, between
//! in-process peers: the binary adds nothing to it but `watch
//! --transcript`, which `net_games` checks.)

use crate::net_support;

use std::time::Duration;

use net_support::*;

/// Generous bound for anything that must happen (never an assertion on
/// how fast).
const LIMIT: Duration = Duration::from_secs(60);

fn watch(dir: &std::path::Path, ticket: &str, extra: &[&str]) -> Peer {
    let mut args = vec!["watch".to_string(), ticket.to_owned()];
    args.extend(spectator(dir, "watcher"));
    args.extend(extra.iter().map(|s| s.to_string()));
    Peer::start("watcher", &args)
}

#[test]
fn a_watcher_whose_peers_are_all_gone_says_so_and_keeps_the_game_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let slow = ["--bot-delay-ms", "200"];
    let (mut host, ticket) = host(
        dir.path(),
        2,
        0,
        41,
        &["--stall-timeout-ms", "60000", "--bot-delay-ms", "200"],
    );
    let mut joiner = join(&dir.path().join("joiner"), "joiner", &ticket, 42, &slow);
    let watched = dir.path().join("watched.rts");
    let mut watcher = watch(
        &dir.path().join("w"),
        &ticket,
        &[
            "--transcript",
            &watched.display().to_string(),
            "--give-up-secs",
            "3",
        ],
    );
    watcher
        .wait_line(LIMIT, |l| l.starts_with("[3]"))
        .expect("the watcher follows the game");
    // Both seats vanish mid-game.
    host.child.kill().unwrap();
    joiner.child.kill().unwrap();
    let status = watcher.wait(LIMIT);
    assert!(!status.success(), "a watcher left alone must fail");
    let errors = watcher.error_lines();
    assert_eq!(errors.len(), 1, "one line: {errors:?}");
    assert!(errors[0].contains("gone"), "{}", errors[0]);
    assert!(
        errors[0].contains(&watched.display().to_string()),
        "{}",
        errors[0]
    );
    let saved = roundtable_table::transcript::read(&watched).expect("the game so far is saved");
    assert!(saved.frames.len() > 3, "the watcher saved what it had");
}

#[test]
fn a_dead_ticket_gets_one_friendly_line_and_a_failure() {
    let dir = tempfile::tempdir().unwrap();
    let (mut host, ticket) = host(dir.path(), 2, 0, 51, &[]);
    host.child.kill().unwrap();
    host.child.wait().unwrap();
    for command in ["join", "watch"] {
        let mut args = vec![command.to_string(), ticket.clone()];
        let dir = dir.path().join(command);
        args.extend(match command {
            "watch" => spectator(&dir, command),
            _ => common(&dir, command, 52),
        });
        args.extend(["--give-up-secs".to_string(), "3".to_string()]);
        let mut peer = Peer::start(command, &args);
        let status = peer.wait(LIMIT);
        assert!(!status.success(), "{command} of a dead ticket must fail");
        let errors = peer.error_lines();
        assert_eq!(errors.len(), 1, "{command}: one line: {errors:?}");
        assert!(
            errors[0].contains("nobody answers at this ticket's addresses"),
            "{command}: {}",
            errors[0]
        );
        // A joiner says at once what it tries, not only when it gives up.
        if command == "join" {
            let said = peer.output();
            assert!(
                said.first()
                    .is_some_and(|l| l.starts_with("reaching the host at /ip4/127.0.0.1/")),
                "{said:#?}"
            );
        }
    }
}
