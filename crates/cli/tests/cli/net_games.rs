//! Whole games between processes of the real binary on 127.0.0.1: the
//! transcripts of every peer are byte-identical and pass `roundtable audit`.

use crate::net_support;

use std::time::Duration;

use net_support::*;

const LIMIT: Duration = Duration::from_secs(50);

#[test]
fn five_peers_and_a_spectator_play_a_whole_game() {
    let dir = tempfile::tempdir().unwrap();
    // Host + 2 bots in its process, two joiners, and a spectator (this
    // also covers three peers' game: a host, its bot and a joiner). To 5
    // victory points: a game's length tests nothing here.
    let (mut host, ticket) = host(
        dir.path(),
        5,
        2,
        3,
        &[
            "--stall-timeout-ms",
            "20000",
            "--option",
            "victory_points=5",
        ],
    );
    let mut a = join(&dir.path().join("a"), "alice", &ticket, 4, &[]);
    let mut b = join(&dir.path().join("b"), "bob", &ticket, 5, &[]);
    let watched = dir.path().join("watched.rtlog");
    let mut args = vec!["watch".to_string(), ticket.clone()];
    args.extend(spectator(&dir.path().join("w"), "watcher"));
    args.extend(["--transcript".to_string(), watched.display().to_string()]);
    let mut watcher = Peer::start("watcher", &args);
    for p in [&mut a, &mut b, &mut host, &mut watcher] {
        let name = p.name.clone();
        assert!(p.wait(LIMIT).success(), "{name} failed");
    }
    let mut files = transcripts_under(dir.path());
    assert_eq!(files.len(), 6, "five seats and the spectator: {files:?}");
    files.push(watched);
    check_transcripts(&files, 7);
}

/// The flags of a seat the game's heuristic bot plays (a random bot's
/// Guildhall may run to the round cap).
fn heuristic_seat(dir: &std::path::Path, name: &str) -> Vec<String> {
    let mut args = spectator(dir, name);
    args.extend(["--bot".into(), "heuristic".into()]);
    args
}

/// Plays `game` over libp2p: the host (flags `host_flags`, one in-process
/// bot per `bots`) and a joiner process per name of `joiners`, every seat
/// the game's heuristic bot, and a spectator writing its own transcript.
/// Every peer ends the game without a violation; every transcript is the
/// same bytes and audits valid. Returns the spectator's output and the
/// audit's JSON report of its transcript.
fn play_over_the_network(
    game: &str,
    seats: u8,
    bots: u8,
    host_flags: &[&str],
    joiners: &[&str],
) -> (Vec<String>, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let ticket_file = dir.path().join("ticket.txt");
    let mut args: Vec<String> = ["host", "--game", game, "--seats"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    args.push(seats.to_string());
    args.extend(["--bots".to_string(), bots.to_string()]);
    args.extend(["--stall-timeout-ms".to_string(), "20000".to_string()]);
    args.extend(host_flags.iter().map(|s| s.to_string()));
    args.push("--ticket-file".to_string());
    args.push(ticket_file.display().to_string());
    args.extend(heuristic_seat(&dir.path().join("host"), "host"));
    let mut host = Peer::start("host", &args);
    let ticket = read_ticket(&ticket_file, Duration::from_secs(20));
    let mut joined: Vec<Peer> = joiners
        .iter()
        .map(|name| {
            let mut args = vec!["join".to_string(), ticket.clone()];
            args.extend(heuristic_seat(&dir.path().join(name), name));
            Peer::start(name, &args)
        })
        .collect();
    let watched = dir.path().join("watched.rtlog");
    let mut args = vec!["watch".to_string(), ticket.clone()];
    args.extend(spectator(&dir.path().join("w"), "watcher"));
    args.extend(["--transcript".to_string(), watched.display().to_string()]);
    let mut watcher = Peer::start("watcher", &args);
    for p in joined.iter_mut().chain([&mut host, &mut watcher]) {
        let name = p.name.clone();
        assert!(p.wait(LIMIT * 2).success(), "{name} failed");
        assert_game_over_without_violation(p);
    }
    let mut files = transcripts_under(dir.path());
    assert_eq!(
        files.len(),
        usize::from(seats) + 1,
        "every seat and the spectator: {files:?}"
    );
    files.push(watched.clone());
    check_transcripts(&files, usize::from(seats) + 2);
    let report = audit_json(&watched);
    assert_eq!(report["verdict"], "valid", "{report}");
    (watcher.output(), report)
}

/// A game with private hands over libp2p: four seats of Guildhall (the
/// host with an in-process bot, two joiners in processes of their own) and
/// a spectator. Every hand is dealt by all four seats over gossip; every
/// peer writes the same bytes, the audit checks every proof and share, and
/// after the game opens every hand.
#[test]
fn four_guildhall_seats_and_a_spectator_play_a_whole_game_over_the_network() {
    let (log, report) = play_over_the_network("guildhall", 4, 1, &[], &["ann", "bob"]);
    // The log is Guildhall's, in words, and the ranking counts chapters.
    assert!(log.iter().any(|l| l.contains("End of")), "{log:#?}");
    assert!(
        log.iter().any(|l| l.contains("completed chapter")),
        "{log:#?}"
    );
    let hands = report["hands"].as_array().expect("the hands were opened");
    assert_eq!(hands.len(), 4, "{report}");
}

/// Waters of Nereus over libp2p: four seats (the host with an in-process
/// bot, two joiners) and a spectator. Every crew choice goes through the
/// tables' secret commit and open, the science cards are dealt by all four
/// seats, and the audit opens every seat's hand after the game.
#[test]
fn four_nereus_seats_and_a_spectator_play_a_whole_game_over_the_network() {
    let (log, report) = play_over_the_network("nereus", 4, 1, &[], &["ann", "bob"]);
    // The log is Nereus's, in words, and the ranking tells both tie-breaks.
    assert!(log.iter().any(|l| l.contains("End of")), "{log:#?}");
    assert!(
        log.iter().any(|l| l.contains("in incomplete holds")),
        "{log:#?}"
    );
    let hands = report["hands"].as_array().expect("the hands were opened");
    assert_eq!(hands.len(), 4, "{report}");
}

/// The two-player neutral-ship variant over libp2p: the host and one
/// joiner, the neutral player's crew cards and die drawn from the tables'
/// shared randomness.
#[test]
fn two_nereus_seats_with_the_neutral_ship_play_a_whole_game_over_the_network() {
    let (log, report) =
        play_over_the_network("nereus", 2, 0, &["--option", "neutral_ship=true"], &["ann"]);
    assert!(
        log.iter().any(|l| l.contains("neutral")),
        "the neutral ship plays: {log:#?}"
    );
    assert_eq!(report["verdict"], "valid", "{report}");
}
