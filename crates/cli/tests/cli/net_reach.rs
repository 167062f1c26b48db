//! Reachable with nobody's server (SPEC 4.9), on a simulated internet
//! (`net_support::internet`): (a) a host behind a cone NAT whose router
//! maps a port by UPnP, a joiner behind another cone NAT, no relay: the
//! joiner dials the mapped address directly; (b) a public host and two
//! joiners behind two cone NATs: the host learns by AutoNAT that it is
//! reachable and relays for its table, the joiners reach each other
//! through it, then punch. Each plays a whole Port Royal game to identical,
//! audited transcripts and prints its figures.
//!
//! Needs root, iproute2, nftables, conntrack and miniupnpd: ignored by
//! default, run by `.ci/run` with `--ignored`.

use crate::net_support;

use std::path::Path;
use std::time::{Duration, Instant};

use net_support::internet::Internet;
use net_support::*;

const LIMIT: Duration = Duration::from_secs(180);

/// A peer's flags on a simulated internet: every interface, TCP and QUIC,
/// a random bot, verbose notes.
fn flags(dir: &Path, name: &str, seed: u64) -> Vec<String> {
    [
        "--data-dir",
        &dir.display().to_string(),
        "--name",
        name,
        "--headless",
        "--bot",
        "random",
        "--bot-seed",
        &seed.to_string(),
        "--listen",
        "/ip4/0.0.0.0/tcp/0",
        "--listen",
        "/ip4/0.0.0.0/udp/0/quic-v1",
        "--no-mdns",
        "--sync-ms",
        "300",
        "--linger-ms",
        "1000",
        "-v",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// Host a `seats`-seat table in `ns`; the peer and its ticket.
fn host_in(net: &Internet, ns_of: &str, dir: &Path, seats: u8) -> (Peer, String) {
    let ticket_file = dir.join("ticket.txt");
    let mut args: Vec<String> = vec![
        "host".into(),
        "--seats".into(),
        seats.to_string(),
        "--ticket-file".into(),
        ticket_file.display().to_string(),
        "--stall-timeout-ms".into(),
        "30000".into(),
    ];
    args.extend(flags(&dir.join("host"), "host", 61));
    let peer = Peer::start_in(net.ns(ns_of), "host", &args);
    let ticket = read_ticket(&ticket_file, Duration::from_secs(30));
    (peer, ticket)
}

fn join_in(net: &Internet, ns_of: &str, dir: &Path, ticket: &str, seed: u64) -> Peer {
    let mut args: Vec<String> = vec!["join".into(), ticket.into()];
    args.extend(flags(&dir.join(ns_of), ns_of, seed));
    Peer::start_in(net.ns(ns_of), ns_of, &args)
}

/// The first of `peer`'s lines that `pred` picks, and when the test saw it.
fn first_line(peer: &Peer, pred: impl Fn(&str) -> bool) -> Option<String> {
    peer.output().into_iter().find(|l| pred(l))
}

#[test]
#[ignore = "needs root, ip netns, nftables and miniupnpd; .ci/run runs this with --ignored"]
fn a_a_host_behind_a_upnp_router_is_dialled_directly() {
    let net = Internet::build("cone+upnp host; cone joiner")
        .unwrap_or_else(|why| panic!("cannot build a simulated internet here: {why}"));
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let (mut host, _) = host_in(&net, "host", dir.path(), 2);
    // The ticket is printed again once the router has mapped a port.
    host.wait_line(Duration::from_secs(30), |l| l.contains("(UPnP)"))
        .unwrap_or_else(|| panic!("the router mapped no port:\n{}", host.output().join("\n")));
    let mapped = net.public_addr("host").to_string();
    let leads_with_mapped = |t: &roundtable_net::Ticket| {
        t.addrs
            .first()
            .is_some_and(|a| a.to_string().starts_with(&format!("/ip4/{mapped}/")))
    };
    // The ticket file is rewritten with the mapped address first.
    let ticket_file = dir.path().join("ticket.txt");
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut ticket = read_ticket(&ticket_file, Duration::from_secs(5));
    while !roundtable_net::Ticket::decode(&ticket).is_ok_and(|t| leads_with_mapped(&t))
        && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(50));
        ticket = read_ticket(&ticket_file, Duration::from_secs(5));
    }
    let parsed = roundtable_net::Ticket::decode(&ticket).unwrap();
    assert!(
        leads_with_mapped(&parsed),
        "the ticket does not start with the router's mapped address {mapped}: {:?}\n{}",
        parsed.addrs,
        host.output().join("\n")
    );
    let mut joiner = join_in(&net, "joiner", dir.path(), &ticket, 62);
    for p in [&mut joiner, &mut host] {
        let name = p.name.clone();
        assert!(p.wait(LIMIT).success(), "{name} failed");
    }
    check_transcripts(&transcripts_under(dir.path()), 2);
    let host_id = parsed.host_peer().unwrap().to_string();
    let first = first_line(&joiner, |l| {
        l.starts_with(&format!("note: connection to {host_id} "))
    })
    .expect("the joiner noted its connection to the host");
    assert!(first.ends_with("(direct)"), "{first}");
    println!(
        "matrix (a): game over in {:?}; first connection {first}; relayed: none",
        started.elapsed()
    );
}

#[test]
#[ignore = "needs root, ip netns and nftables; .ci/run runs this with --ignored"]
fn b_a_public_host_relays_for_joiners_behind_cone_nats_until_they_punch() {
    let net = Internet::build("public host; cone alice; cone bob")
        .unwrap_or_else(|why| panic!("cannot build a simulated internet here: {why}"));
    let dir = tempfile::tempdir().unwrap();
    let (mut host, ticket) = host_in(&net, "host", dir.path(), 3);
    let host_id = roundtable_net::Ticket::decode(&ticket)
        .unwrap()
        .host_peer()
        .unwrap()
        .to_string();
    let mut alice = join_in(&net, "alice", dir.path(), &ticket, 63);
    // The host is confirmed reachable once a joiner has dialled it back.
    host.wait_line(Duration::from_secs(30), |l| {
        l.contains("reachable from the internet at")
    })
    .unwrap_or_else(|| {
        panic!(
            "the host never learnt it is reachable:\n{}",
            host.output().join("\n")
        )
    });
    let bob_started = Instant::now();
    let before = net.public_bytes("host");
    let mut bob = join_in(&net, "bob", dir.path(), &ticket, 64);

    // The joiners meet through the host's table relay, then punch.
    let through = format!("(relayed through …{})", &host_id[host_id.len() - 8..]);
    let relayed = |p: &Peer| {
        first_line(p, |l| {
            l.starts_with("note: connection to ")
                && !l.starts_with(&format!("note: connection to {host_id}"))
                && l.ends_with(&through)
        })
    };
    let punched = |p: &Peer| first_line(p, |l| l.contains("(hole punched)"));
    let mut first_relayed = None;
    let mut punch = None;
    let deadline = Instant::now() + LIMIT;
    while Instant::now() < deadline && punch.is_none() {
        if first_relayed.is_none() && (relayed(&alice).is_some() || relayed(&bob).is_some()) {
            first_relayed = Some(bob_started.elapsed());
        }
        if punched(&alice).is_some() || punched(&bob).is_some() {
            punch = Some((bob_started.elapsed(), net.public_bytes("host")));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    for p in [&mut alice, &mut bob, &mut host] {
        let name = p.name.clone();
        assert!(p.wait(LIMIT).success(), "{name} failed");
    }
    check_transcripts(&transcripts_under(dir.path()), 3);
    let after = net.public_bytes("host");
    let (punched_at, at_punch) = punch.unwrap_or_else(|| {
        panic!(
            "the joiners never punched:\nalice:\n{}\nbob:\n{}",
            alice.output().join("\n"),
            bob.output().join("\n")
        )
    });
    let first_relayed = first_relayed.unwrap_or_else(|| {
        panic!(
            "the joiners never met through the host:\nalice:\n{}\nbob:\n{}",
            alice.output().join("\n"),
            bob.output().join("\n")
        )
    });
    println!(
        "matrix (b): joiners relayed through the host {first_relayed:?} after the second \
         joined, direct (hole punched) after {punched_at:?}; bytes across the host's public \
         interface: {} before the punch, {} after (its own game traffic included)",
        at_punch - before,
        after - at_punch
    );
}
