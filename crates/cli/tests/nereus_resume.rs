//! `resume` for Waters of Nereus: a host killed with SIGKILL mid-game and
//! restarted on the same data directory learns the game from its saved
//! genesis, comes back with its bot and its science cards, answers the
//! secret crew choices again, and the game finishes with byte-identical
//! transcripts everywhere.

mod net_support;

use std::time::Duration;

use net_support::*;

const LIMIT: Duration = Duration::from_secs(50);

/// The flags of a Nereus seat: its heuristic bot, paced so that the kill
/// lands mid-game.
fn nereus_seat(dir: &std::path::Path, name: &str) -> Vec<String> {
    let mut args = spectator(dir, name);
    args.extend(["--bot", "heuristic", "--bot-delay-ms", "15"].map(String::from));
    args
}

#[test]
fn a_nereus_host_killed_mid_game_resumes_from_its_saved_genesis() {
    let dir = tempfile::tempdir().unwrap();
    let ticket_file = dir.path().join("ticket.txt");
    let mut args: Vec<String> = [
        "host",
        "--game",
        "nereus",
        "--seats",
        "3",
        "--bots",
        "1",
        "--stall-timeout-ms",
        "20000",
        "--ticket-file",
    ]
    .map(String::from)
    .to_vec();
    args.push(ticket_file.display().to_string());
    args.extend(nereus_seat(&dir.path().join("host"), "host"));
    let mut host = Peer::start("host", &args);
    let ticket = read_ticket(&ticket_file, Duration::from_secs(20));
    let mut args = vec!["join".to_string(), ticket];
    args.extend(nereus_seat(&dir.path().join("joiner"), "joiner"));
    let mut joiner = Peer::start("joiner", &args);
    host.wait_line(LIMIT, |l| {
        l.strip_prefix('[')
            .and_then(|r| r.split(']').next())
            .and_then(|n| n.parse::<u64>().ok())
            .is_some_and(|n| n >= 60)
    })
    .expect("the game gets going");
    host.child.kill().unwrap();
    host.child.wait().unwrap();
    assert!(
        !host.output().iter().any(|l| l == "game over"),
        "killed too late"
    );
    let mut args = vec!["resume".to_string()];
    args.extend(nereus_seat(&dir.path().join("host"), "host"));
    args.push("-v".into());
    let mut resumed = Peer::start("resumed host", &args);
    assert!(resumed.wait(LIMIT * 2).success(), "the resumed host failed");
    assert!(joiner.wait(LIMIT * 2).success(), "joiner failed");
    let out = resumed.output();
    assert!(
        out.iter().any(|l| l.contains("in incomplete holds")),
        "{out:#?}"
    );
    assert!(
        !out.iter()
            .any(|l| l.contains("VIOLATION") || l.contains("forfeit")),
        "{out:#?}"
    );
    check_transcripts(&transcripts_under(dir.path()), 3);
}
