//! A host reachable only through a relay: `roundtable relay` runs a relay
//! server on 127.0.0.1, the host tells no direct address to anyone
//! (`--no-listen --relay ADDR`: it listens only so that hole punching can
//! reuse its port), so its ticket holds only `/p2p-circuit` addresses, and
//! the joiners reach it through the circuit. The game must
//! finish with byte-identical transcripts that `roundtable audit` accepts.

use crate::net_support;

use std::time::Duration;

use net_support::*;

const LIMIT: Duration = Duration::from_secs(90);

/// Flags of a peer that tells no direct address and is reached through
/// `relay`.
fn behind_relay(dir: &std::path::Path, name: &str, seed: u64, relay: &str) -> Vec<String> {
    let mut args = verbose_bot_seat(dir, name, "random", seed);
    args.extend(["--no-listen".into(), "--relay".into(), relay.to_owned()]);
    args
}

#[test]
fn a_host_reachable_only_through_a_relay_plays_a_whole_game() {
    let dir = tempfile::tempdir().unwrap();
    let (_relay, relay_addr) = start_relay(&dir.path().join("relay"));
    let relay_id = last_peer_id(&relay_addr);

    let ticket_file = dir.path().join("ticket.txt");
    let mut args: Vec<String> = vec![
        "host".into(),
        "--seats".into(),
        "3".into(),
        "--ticket-file".into(),
        ticket_file.display().to_string(),
        "--stall-timeout-ms".into(),
        "30000".into(),
    ];
    args.extend(behind_relay(
        &dir.path().join("host"),
        "host",
        31,
        &relay_addr,
    ));
    let mut host = Peer::start("relayed host", &args);
    let ticket = read_ticket(&ticket_file, Duration::from_secs(30));

    // The host announces circuit addresses only, so nobody can dial it
    // directly before a hole is punched: every way in goes through the
    // relay.
    let listening: Vec<String> = host
        .output()
        .into_iter()
        .filter(|l| l.starts_with("listening on "))
        .collect();
    assert!(!listening.is_empty(), "the host reported no address");
    for l in &listening {
        assert!(l.contains("/p2p-circuit"), "the host listens directly: {l}");
    }

    let mut a = join(&dir.path().join("a"), "alice", &ticket, 32, &["-v"]);
    let mut b = join(&dir.path().join("b"), "bob", &ticket, 33, &["-v"]);
    for p in [&mut a, &mut b, &mut host] {
        let name = p.name.clone();
        assert!(p.wait(LIMIT).success(), "{name} failed");
    }
    check_transcripts(&transcripts_under(dir.path()), 3);

    // How a connection through the relay is reported: by the relay's id,
    // shortened to its last 8 characters.
    let through = format!(
        "(relayed through …{})",
        &relay_id[relay_id.len().saturating_sub(8)..]
    );

    // Each joiner connected to the host through the relay's circuit: the
    // host has no direct address to be dialled at, and it is the only peer
    // behind the relay, so a relayed connection is one to the host.
    let mut joiner_punches = 0;
    for joiner in [&a, &b] {
        let out = joiner.output();
        let relayed: Vec<&String> = out
            .iter()
            .filter(|l| l.starts_with("note: connection to ") && l.ends_with(&through))
            .collect();
        assert!(
            !relayed.is_empty(),
            "{} never connected through the relay:\n{}",
            joiner.name,
            out.join("\n")
        );
        for l in &relayed {
            assert!(
                l.contains(&format!("/p2p/{relay_id}/p2p-circuit")),
                "relayed through something else: {l}"
            );
        }
        let host_id = relayed[0]
            .trim_start_matches("note: connection to ")
            .split(' ')
            .next()
            .unwrap_or_default()
            .to_owned();
        // Hole punching may upgrade the link on loopback (DCUtR dials the
        // host's observed addresses); that is allowed, and reported.
        let punched = out.iter().filter(|l| l.contains("(hole punched)")).count();
        joiner_punches += punched;
        let direct_to_host = out
            .iter()
            .filter(|l| l.starts_with(&format!("note: connection to {host_id} ")))
            .filter(|l| l.ends_with("(direct)"))
            .count();
        // Nothing else may have opened a direct link: the host has no
        // address to be dialled at, and it only dials seats it is not
        // connected to already.
        assert!(
            direct_to_host == 0 || punched > 0,
            "{} reached the host directly without hole punching",
            joiner.name
        );
        eprintln!(
            "{}: {} relayed connection(s) to the host {host_id}, {punched} hole punch(es), \
             {direct_to_host} direct connection(s) to the host",
            joiner.name,
            relayed.len()
        );
    }

    // The host sees the same connections as relayed: an inbound relayed
    // connection's remote address names no relay (it is only the joiner's
    // id), so the host once called them direct.
    let out = host.output();
    let peer_of = |l: &str| {
        l.trim_start_matches("note: connection to ")
            .split(' ')
            .next()
            .unwrap_or_default()
            .to_owned()
    };
    let connections: Vec<&String> = out
        .iter()
        .filter(|l| {
            l.starts_with("note: connection to ") && !l.contains(&format!("to {relay_id} "))
        })
        .collect();
    let mut relayed_joiners: Vec<String> = connections
        .iter()
        .filter(|l| l.ends_with(&through))
        .map(|l| peer_of(l))
        .collect();
    relayed_joiners.sort();
    relayed_joiners.dedup();
    assert_eq!(
        relayed_joiners.len(),
        2,
        "the host did not report both joiners as relayed:\n{}",
        out.join("\n")
    );
    let punched = out.iter().filter(|l| l.contains("(hole punched)")).count();
    let direct = connections
        .iter()
        .filter(|l| l.ends_with("(direct)"))
        .count();
    // Only the side whose dial made the direct connection reports the
    // punch: the joiner's, often.
    assert!(
        direct == 0 || punched + joiner_punches > 0,
        "the host called a joiner's connection direct with no hole punch:\n{}",
        out.join("\n")
    );
}
