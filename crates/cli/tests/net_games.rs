//! Whole games between processes of the real binary on 127.0.0.1: the
//! transcripts of every peer are byte-identical and pass `roundtable audit`.

mod net_support;

use std::time::Duration;

use net_support::*;

const LIMIT: Duration = Duration::from_secs(50);

#[test]
fn three_peers_play_a_whole_game() {
    let dir = tempfile::tempdir().unwrap();
    // The host and one in-process bot, and a joiner in its own process.
    let (mut host, ticket) = host(dir.path(), 3, 1, 1, &["--stall-timeout-ms", "20000"]);
    let mut joiner = join(&dir.path().join("joiner"), "joiner", &ticket, 2, &[]);
    assert!(joiner.wait(LIMIT).success(), "joiner failed");
    assert!(host.wait(LIMIT).success(), "host failed");
    assert!(joiner.output().iter().any(|l| l == "game over"));
    check_transcripts(&transcripts_under(dir.path()), 3);
}

#[test]
fn five_peers_and_a_spectator_play_a_whole_game() {
    let dir = tempfile::tempdir().unwrap();
    // Host + 2 bots in its process, two joiners, and a spectator.
    let (mut host, ticket) = host(dir.path(), 5, 2, 3, &["--stall-timeout-ms", "20000"]);
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
