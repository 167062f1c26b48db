//! A Guildhall seat gone before the set-up ends, between processes of the
//! real binary on 127.0.0.1 (protocol/SPEC.md 3.6, "Gone seats"): every
//! remaining process must exit with the same audited, valid, ended
//! transcript, the gone seat last. Both games used to wait for ever at the
//! gone seat's set-up placement, where its zombie has no move.
//!
//! Each test prints how long each remaining peer took to end, from the
//! moment the table could start (`cargo test -- --nocapture`).

use crate::net_support;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use net_support::*;

/// The shortest stall timeout a host accepts.
const STALL_MS: &str = "10000";

/// Long enough for a forfeit (a stall timeout), the co-claims (three more)
/// and the rest of the set-up.
const LIMIT: Duration = Duration::from_secs(90);

/// A Guildhall host with `bots` in-process bots at a table of three, the
/// game's heuristic bot playing its seat.
fn guildhall_host(dir: &Path, bots: &str) -> (Peer, String) {
    let ticket_file = dir.join("ticket.txt");
    let mut args: Vec<String> = [
        "host",
        "--game",
        "guildhall",
        "--seats",
        "3",
        "--bots",
        bots,
        "--stall-timeout-ms",
        STALL_MS,
        "--ticket-file",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.push(ticket_file.display().to_string());
    args.extend(spectator(&dir.join("host"), "host"));
    args.extend(["--bot".into(), "heuristic".into()]);
    let host = Peer::start("host", &args);
    (host, read_ticket(&ticket_file, Duration::from_secs(20)))
}

fn guildhall_joiner(dir: &Path, name: &str, ticket: &str, extra: &[&str]) -> Peer {
    let mut args = vec!["join".to_string(), ticket.to_string()];
    args.extend(spectator(&dir.join(name), name));
    args.extend(["--bot".into(), "heuristic".into()]);
    args.extend(extra.iter().map(|s| s.to_string()));
    Peer::start(name, &args)
}

/// Wait for every peer still playing to exit successfully, printing how
/// long each took from `start`; then check their transcripts (the same
/// bytes, audited valid) and that the audit ranks the seat named `gone`
/// last in an abandoned game.
fn every_remaining_peer_ends(
    peers: &mut [Peer],
    start: Instant,
    dir: &Path,
    transcripts: usize,
    gone: &str,
) {
    for p in peers.iter_mut() {
        let name = p.name.clone();
        assert!(p.wait(LIMIT).success(), "{name} failed");
        eprintln!(
            "{name} ended {:.1} s after the table could start",
            start.elapsed().as_secs_f64()
        );
        assert_game_over_without_violation(p);
        // The headless result says the game was abandoned and by whom,
        // in the words of `audit` and the results screen.
        let output = p.output();
        assert!(
            output
                .iter()
                .any(|l| l.starts_with("Game abandoned: ") && l.contains(gone)),
            "{name}: {output:#?}"
        );
        assert!(!output.iter().any(|l| l.contains("wins")), "{output:#?}");
    }
    let files: Vec<PathBuf> = transcripts_under(dir);
    check_transcripts(&files, transcripts);
    let report = audit_json(&files[0]);
    assert_eq!(report["verdict"], "valid", "{report}");
    let standings = report["standings"].as_array().expect("standings");
    let gone_seat = standings
        .iter()
        .find(|s| s["name"] == gone)
        .unwrap_or_else(|| panic!("no seat named {gone}: {report}"));
    let last = standings.iter().filter_map(|s| s["rank"].as_u64()).max();
    assert_eq!(gone_seat["rank"].as_u64(), last, "{report}");
    let stopped = report["abandoned"].as_array().expect("abandoned");
    assert!(stopped.contains(&gone_seat["seat"]), "{report}");
}

/// A seat that never comes: its peer accepted the table and then failed
/// before its first envelope (its transcript log cannot be created, as on
/// a full or broken disk), so its key share never comes. The others claim
/// it stalled, it forfeits holding no part of the key, the deal goes on
/// without it, and the game ends abandoned at its set-up placement.
#[test]
fn a_guildhall_seat_that_never_sends_its_key_share_ends_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let (host, ticket) = guildhall_host(dir.path(), "0");
    let _gone = guildhall_joiner(dir.path(), "gone", &ticket, &[]);
    // Its table's directory appears when it joins (its chain seed); a
    // directory where its log goes makes it fail as the game starts. The
    // table starts only when the third seat joins, after this.
    let games = dir.path().join("gone").join("games");
    let began = Instant::now();
    let game_dir = loop {
        if let Some(d) = std::fs::read_dir(&games)
            .ok()
            .and_then(|mut entries| entries.next())
            .and_then(Result::ok)
        {
            break d.path();
        }
        assert!(
            began.elapsed() < Duration::from_secs(30),
            "the joiner never joined"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let blocker = game_dir.join("transcript.rtlog");
    std::fs::create_dir_all(blocker.join("not-a-log")).unwrap();
    let start = Instant::now();
    let stays = guildhall_joiner(dir.path(), "stays", &ticket, &[]);
    let mut peers = [stays, host];
    // The host and the seat that stayed.
    every_remaining_peer_ends(&mut peers, start, dir.path(), 2, "gone");
}

/// A seat resigns (a `Resign`, then its key release, as `GameHandle::resign`
/// sends) after the first deal: its resignation is applied at its next
/// step, its zombie discards at the set-up, and the game ends abandoned at
/// its set-up placement. The resigner follows the game to its end too.
#[test]
fn a_guildhall_seat_that_resigns_in_the_set_up_ends_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let (host, ticket) = guildhall_host(dir.path(), "1");
    let start = Instant::now();
    let resigner = guildhall_joiner(
        dir.path(),
        "resigner",
        &ticket,
        &["--resign-after-inputs", "2"],
    );
    let mut peers = [resigner, host];
    // The host, its bot and the resigner.
    every_remaining_peer_ends(&mut peers, start, dir.path(), 3, "resigner");
    assert!(
        peers[0].output().iter().any(|l| l.contains("resigns")),
        "{:#?}",
        peers[0].output()
    );
}
