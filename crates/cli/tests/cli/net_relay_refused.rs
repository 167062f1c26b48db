//! Issue 30, bad input: a host given a `--relay` that refuses it says so in
//! one plain line (no `-v` needed), asks no more than the bound, and is
//! still reached at its other addresses. The refusing "relay" is another
//! table's host: a player's peer serves a relay only to its own table, and
//! none at all until the internet reaches it (here, on loopback, never).

use crate::net_support;

use std::time::Duration;

use net_support::*;

const LIMIT: Duration = Duration::from_secs(90);

#[test]
fn a_relay_that_refuses_is_told_once_and_the_host_plays_on_its_own_addresses() {
    let dir = tempfile::tempdir().unwrap();
    // Another table, waiting for a joiner that never comes: its host is
    // the peer a player might mistake for a relay.
    let (_other, other_ticket) = host(&dir.path().join("other"), 2, 0, 41, &[]);
    let other_ticket = roundtable_net::Ticket::decode(&other_ticket).unwrap();
    let other_id = other_ticket.host_peer().unwrap();
    let tcp = other_ticket
        .addrs
        .iter()
        .find(|a| a.to_string().starts_with("/ip4/127.0.0.1/tcp/"))
        .expect("the other host listens on loopback TCP")
        .to_string();
    let not_a_relay = if tcp.contains("/p2p/") {
        tcp
    } else {
        format!("{tcp}/p2p/{other_id}")
    };

    let (mut host, ticket) = host(
        &dir.path().join("table"),
        2,
        0,
        42,
        &["--relay", &not_a_relay],
    );
    let mut joiner = join(&dir.path().join("table/joiner"), "joiner", &ticket, 43, &[]);
    for p in [&mut joiner, &mut host] {
        let name = p.name.clone();
        assert!(p.wait(LIMIT).success(), "{name} failed");
    }
    check_transcripts(&transcripts_under(&dir.path().join("table")), 2);

    let out = host.output();
    let told: Vec<&String> = out
        .iter()
        .filter(|l| l.contains("refused us a reservation"))
        .collect();
    assert_eq!(
        told.len(),
        1,
        "the refusal was told {} times:\n{}",
        told.len(),
        out.join("\n")
    );
    assert!(told[0].contains(&not_a_relay), "{}", told[0]);
    assert!(told[0].contains("another --relay"), "{}", told[0]);
    assert!(
        !out.iter().any(|l| l.contains("lost the reservation")),
        "a reservation never granted was called lost:\n{}",
        out.join("\n")
    );
    println!("a refusing relay, the host said: {}", told[0]);
}
