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

/// A ticket of a Port Royal table at `addrs`, whose host runs nowhere.
fn ticket_at(addrs: &[&str]) -> String {
    roundtable_net::Ticket {
        lobby: roundtable_net::LobbyId([4; 32]),
        game: "port-royal".into(),
        host: roundtable_table::Identity::from_secret([9; 32]).public(),
        addrs: addrs
            .iter()
            .map(|a| a.parse().unwrap_or_else(|e| panic!("{a}: {e}")))
            .collect(),
    }
    .encode()
}

/// The one line a joiner of a ticket at `addrs` fails with when it gives
/// up (after 3 s), having neither panicked nor succeeded.
fn give_up_line(dir: &std::path::Path, addrs: &[&str]) -> String {
    let mut args = vec!["join".to_string(), ticket_at(addrs)];
    args.extend(common(dir, "joiner", 60));
    args.extend(["--give-up-secs".to_string(), "3".to_string()]);
    let mut joiner = Peer::start("joiner", &args);
    let status = joiner.wait(LIMIT);
    assert!(!status.success(), "{addrs:?}: giving up fails");
    assert_ne!(status.code(), Some(101), "{addrs:?}: a panic");
    let errors = joiner.error_lines();
    assert_eq!(errors.len(), 1, "{addrs:?}: one line: {errors:?}");
    errors[0].clone()
}

/// A joiner that gives up on a ticket says why nobody answered: a ticket
/// holding only private and loopback addresses was never reachable from
/// another network (it once said the table may be over), while one with a
/// public address may be a table that is over.
#[test]
fn a_joiner_that_gives_up_on_private_addresses_says_the_host_is_on_a_private_network() {
    let dir = tempfile::tempdir().unwrap();
    for (i, (addrs, says, never)) in [
        (
            &["/ip4/10.255.255.1/tcp/9", "/ip4/127.0.0.1/tcp/9"][..],
            "the host is on a private network",
            "the table may be over",
        ),
        (
            &["/ip4/127.0.0.1/tcp/9"][..],
            "reachable from the host's machine only",
            "the table may be over",
        ),
        (
            &["/ip4/198.51.100.1/tcp/9", "/ip4/10.255.255.1/tcp/9"][..],
            "the table may be over or the host offline",
            "private",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let line = give_up_line(&dir.path().join(i.to_string()), addrs);
        assert!(line.contains(says), "{addrs:?}: {line}");
        assert!(!line.contains(never), "{addrs:?}: {line}");
        assert!(line.contains("nobody answers at this ticket's addresses"));
    }
}

/// A host whose ticket holds only loopback addresses (every test peer
/// listens on 127.0.0.1 only) says nobody elsewhere can use it, and what
/// would let others in; it said nothing.
#[test]
fn a_host_reachable_from_this_machine_only_says_so_with_its_ticket() {
    let dir = tempfile::tempdir().unwrap();
    let (mut host, _ticket) = host(dir.path(), 2, 0, 61, &[]);
    let said = host.wait_line(LIMIT, |l| l.starts_with("to let others in: "));
    host.child.kill().unwrap();
    host.child.wait().unwrap();
    let out = host.output();
    let help = said.unwrap_or_else(|| panic!("no help with the ticket:\n{}", out.join("\n")));
    assert!(
        help.contains("UPnP") && help.contains("roundtable relay") && help.contains("--relay"),
        "{help}"
    );
    let ticket_line = out.iter().position(|l| l.starts_with("ticket: "));
    let reach_line = out
        .iter()
        .position(|l| l.contains("the table is reachable from this machine only"));
    assert!(
        matches!((ticket_line, reach_line), (Some(t), Some(r)) if t < r),
        "the ticket, then who can use it:\n{}",
        out.join("\n")
    );
}

/// A ticket whose addresses no peer can dial (no transport, in-process
/// memory, a socket file) or that holds none: one line and a failure,
/// never a panic or a wait for ever.
#[test]
fn a_ticket_with_nonsense_addresses_gets_one_line_and_a_failure() {
    let dir = tempfile::tempdir().unwrap();
    for (i, addrs) in [
        &[
            "/ip4/1.2.3.4",
            "/memory/5",
            "/unix/tmp%2Fnowhere",
            "/p2p-circuit",
        ][..],
        &[][..],
    ]
    .into_iter()
    .enumerate()
    {
        let line = give_up_line(&dir.path().join(i.to_string()), addrs);
        assert!(line.contains("nobody answers"), "{addrs:?}: {line}");
    }
}
