//! Reachable with nobody's server (SPEC 4.9), on a simulated internet
//! (`net_support::internet`): a UPnP router that cannot map costs one line;
//! matrix (a): a host behind a cone NAT whose router maps a port by UPnP,
//! reached directly at the mapped address by a joiner behind another cone
//! NAT, the mapping gone when the host leaves; matrix (b): a public host and two
//! joiners behind two cone NATs: the host learns by AutoNAT that it is
//! reachable and relays for its table, the joiners reach each other
//! through it, then punch. Each plays a whole Port Royal game to identical,
//! audited transcripts and prints its figures.
//!
//! Needs root, iproute2, nftables, conntrack, miniupnpd and python3: ignored by
//! default, run by `.ci/run` with `--ignored`.

use crate::net_support;

use std::path::Path;
use std::time::{Duration, Instant};

use net_support::internet::Internet;
use net_support::*;

const LIMIT: Duration = Duration::from_secs(180);

/// A peer's flags on a simulated internet: those of [`common`] listening
/// on every interface rather than loopback only, with verbose notes.
fn flags(dir: &Path, name: &str, seed: u64) -> Vec<String> {
    let mut args = common(dir, name, seed);
    for arg in &mut args {
        if arg.starts_with("/ip4/127.0.0.1/") {
            *arg = arg.replacen("127.0.0.1", "0.0.0.0", 1);
        }
    }
    args.push("-v".into());
    args
}

/// The simulated internet `description` names, or the test fails saying
/// why it cannot be built here.
fn internet(description: &str) -> Internet {
    Internet::build(description)
        .unwrap_or_else(|why| panic!("cannot build a simulated internet here: {why}"))
}

/// Wait for every peer to finish its game, each successfully.
fn all_finish(peers: &mut [&mut Peer]) {
    for p in peers.iter_mut() {
        let name = p.name.clone();
        assert!(p.wait(LIMIT).success(), "{name} failed");
    }
}

/// Host a `seats`-seat table in `ns`; the peer and its ticket.
fn host_in(net: &Internet, ns_of: &str, dir: &Path, game: &str, seats: u8) -> (Peer, String) {
    let ticket_file = dir.join("ticket.txt");
    let mut args: Vec<String> = vec![
        "host".into(),
        "--game".into(),
        game.into(),
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

/// The first of `peer`'s lines that `pred` picks.
fn first_line(peer: &Peer, pred: impl Fn(&str) -> bool) -> Option<String> {
    peer.output().into_iter().find(|l| pred(l))
}

/// A home router whose UPnP answers but cannot map a port: miniupnpd on a
/// reserved WAN address with no STUN to tell it the address is public
/// takes itself for a router behind another NAT, answers the search and
/// then gives an empty "external IP address". The joiner behind it says
/// so in one line, and the game is played regardless.
#[test]
#[ignore = "needs root, ip netns, nftables and miniupnpd; .ci/run runs this with --ignored"]
fn a_upnp_router_that_cannot_map_costs_one_line_and_nothing_else() {
    let net = internet("public host; cone+upnp-behind-nat joiner");
    let dir = tempfile::tempdir().unwrap();
    let (mut host, ticket) = host_in(&net, "host", dir.path(), "port-royal", 2);
    let mut joiner = join_in(&net, "joiner", dir.path(), &ticket, 62);
    all_finish(&mut [&mut joiner, &mut host]);
    check_honest_transcripts(&transcripts_under(dir.path()), 2);
    let out = joiner.output();
    let told: Vec<&String> = out.iter().filter(|l| l.contains("UPnP")).collect();
    assert_eq!(
        told.len(),
        1,
        "the joiner said {} lines of UPnP:\n{}",
        told.len(),
        out.join("\n")
    );
    assert!(
        told[0].contains("no router answered UPnP sensibly"),
        "{}",
        told[0]
    );
}

/// A UPnP router that refuses the mapping: the joiner behind it says so,
/// one line per listener with the router's reason, and the game is played.
#[test]
#[ignore = "needs root, ip netns, nftables, miniupnpd and python3; .ci/run runs this with --ignored"]
fn a_upnp_router_that_refuses_the_mapping_is_told_once_per_listener() {
    let net = internet("public host; cone+upnp-refusing joiner");
    let dir = tempfile::tempdir().unwrap();
    let (mut host, ticket) = host_in(&net, "host", dir.path(), "port-royal", 2);
    let mut joiner = join_in(&net, "joiner", dir.path(), &ticket, 62);
    all_finish(&mut [&mut joiner, &mut host]);
    check_honest_transcripts(&transcripts_under(dir.path()), 2);
    assert!(net.upnp_mappings("joiner").is_empty());
    let out = joiner.output();
    let told: Vec<&String> = out.iter().filter(|l| l.contains("UPnP")).collect();
    assert_eq!(
        told.len(),
        2,
        "one line per listener (TCP, QUIC):\n{}",
        out.join("\n")
    );
    for line in told {
        assert!(
            line.contains("the UPnP router refused to map /ip4/"),
            "{line}"
        );
        println!("a refusing UPnP router, the joiner said: {line}");
    }
}

/// Matrix (a): the host's router maps its port (UPnP), its ticket names
/// the mapped public address first, the joiner behind another cone NAT
/// dials it directly with no relay anywhere, a whole game is played, and
/// the router holds no mapping once the host has gone.
#[test]
#[ignore = "needs root, ip netns, nftables, miniupnpd and python3; .ci/run runs this with --ignored"]
fn a_a_host_behind_a_upnp_router_is_reached_directly_at_its_mapped_address() {
    matrix_a("port-royal");
}

/// Matrix (a) with private cards.
#[test]
#[ignore = "needs root, ip netns, nftables, miniupnpd and python3; .ci/run runs this with --ignored"]
fn a_guildhall_a_host_behind_a_upnp_router_is_reached_directly_at_its_mapped_address() {
    matrix_a("guildhall");
}

/// (a): a host behind a cone NAT with UPnP, a joiner behind another cone
/// NAT, no relay, a whole game of `game`.
fn matrix_a(game: &str) {
    let net = internet("cone+upnp host; cone joiner");
    let log = net.upnp_log("host");
    assert!(
        log.contains("Port forwarding is now enabled"),
        "the router's miniupnpd does not forward:\n{log}"
    );
    assert!(net.upnp_mappings("host").is_empty());
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let (mut host, _) = host_in(&net, "host", dir.path(), game, 2);
    let mapped = host
        .wait_line(Duration::from_secs(30), |l| l.contains("(UPnP)"))
        .unwrap_or_else(|| {
            panic!(
                "the host heard nothing of UPnP:\n{}",
                host.output().join("\n")
            )
        });
    let mapped_after = started.elapsed();
    let public = net.public_addr("host");
    assert!(
        mapped.contains(&format!("the router mapped /ip4/{public}/")),
        "{mapped}"
    );
    // The ticket is rewritten once the mapping is confirmed: wait for the
    // one that names the mapped address first.
    let ticket_file = dir.path().join("ticket.txt");
    let deadline = Instant::now() + Duration::from_secs(10);
    let ticket = loop {
        let text = read_ticket(&ticket_file, Duration::from_secs(10));
        let decoded = roundtable_net::Ticket::decode(&text).unwrap();
        let first = decoded.addrs.first().map(ToString::to_string);
        if first
            .as_deref()
            .is_some_and(|a| a.starts_with(&format!("/ip4/{public}/")))
        {
            break text;
        }
        assert!(
            Instant::now() < deadline,
            "the ticket never named the mapped address first: {:?}",
            decoded.addrs
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let held = net.upnp_mappings("host");
    assert!(!held.is_empty(), "the router holds no mapping");
    let host_id = roundtable_net::Ticket::decode(&ticket)
        .unwrap()
        .host_peer()
        .unwrap()
        .to_string();
    let joined = Instant::now();
    let mut joiner = join_in(&net, "joiner", dir.path(), &ticket, 62);
    let connected = joiner
        .wait_line(Duration::from_secs(30), |l| {
            l.starts_with(&format!("note: connection to {host_id} via "))
        })
        .unwrap_or_else(|| {
            panic!(
                "the joiner never reached the host:\n{}",
                joiner.output().join("\n")
            )
        });
    let first_connection = joined.elapsed();
    assert!(
        connected.ends_with("(direct)") && connected.contains(&format!("/ip4/{public}/")),
        "{connected}"
    );
    all_finish(&mut [&mut joiner, &mut host]);
    check_honest_transcripts(&transcripts_under(dir.path()), 2);
    let left = net.upnp_mappings("host");
    assert!(
        left.is_empty(),
        "the router still maps {left:?} after the host left"
    );
    println!(
        "matrix (a), {game}: the router mapped the host's port {mapped_after:?} after it \
         started; the joiner's first connection to the host {first_connection:?} after it \
         started, direct at the mapped address; no relay; mappings on the router: {} while \
         hosting ({}), 0 after the host left",
        held.len(),
        held.join("; ")
    );
}

#[test]
#[ignore = "needs root, ip netns and nftables; .ci/run runs this with --ignored"]
fn b_a_public_host_relays_for_joiners_behind_cone_nats_until_they_punch() {
    matrix_b("port-royal");
}

/// Matrix (b) with private cards: every seat's shares reach every seat.
#[test]
#[ignore = "needs root, ip netns and nftables; .ci/run runs this with --ignored"]
fn b_guildhall_a_public_host_relays_for_joiners_behind_cone_nats_until_they_punch() {
    matrix_b("guildhall");
}

/// (b): a public host, two joiners behind two cone NATs, a whole game of
/// `game`.
fn matrix_b(game: &str) {
    let net = internet("public host; cone alice; cone bob");
    let dir = tempfile::tempdir().unwrap();
    let (mut host, ticket) = host_in(&net, "host", dir.path(), game, 3);
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
    all_finish(&mut [&mut alice, &mut bob, &mut host]);
    check_honest_transcripts(&transcripts_under(dir.path()), 3);
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
        "matrix (b), {game}: joiners relayed through the host {first_relayed:?} after the second \
         joined, direct (hole punched) after {punched_at:?}; bytes across the host's public \
         interface: {} before the punch, {} after (its own game traffic included)",
        at_punch - before,
        after - at_punch
    );
}
