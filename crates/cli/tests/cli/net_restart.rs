//! A peer killed with SIGKILL in the middle of a game and restarted with the
//! same data directory resumes from its transcript log, catches up, and the
//! game finishes with byte-identical transcripts everywhere.

use crate::net_support;

use std::time::Duration;

use net_support::*;

const LIMIT: Duration = Duration::from_secs(50);
/// Give-up bound of a wait for the end of a whole game: the pace of one
/// game on loopback varies fourfold between runs (13 to 74 s from start to
/// end for the same scenario at 8438d6d on an idle machine, over 120 s
/// under load; cause not yet found), so a bound of one `LIMIT` failed CI
/// runs whose games were merely slow.
const WHOLE_GAME: Duration = Duration::from_secs(200);

#[test]
fn a_joiner_killed_mid_game_resumes_and_the_game_finishes() {
    let dir = tempfile::tempdir().unwrap();
    let slow = ["--bot-delay-ms", "15"];
    let (mut host, ticket) = host(
        dir.path(),
        3,
        1,
        11,
        &["--stall-timeout-ms", "20000", "--bot-delay-ms", "15"],
    );
    let jdir = dir.path().join("joiner");
    let mut joiner = join(&jdir, "joiner", &ticket, 12, &slow);
    let killed_at = joiner
        .wait_line(LIMIT, |l| {
            l.strip_prefix('[')
                .and_then(|r| r.split(']').next())
                .and_then(|n| n.parse::<u64>().ok())
                .is_some_and(|n| n >= 40)
        })
        .expect("the game gets going");
    // SIGKILL: no chance to flush or say goodbye.
    joiner.child.kill().unwrap();
    joiner.child.wait().unwrap();
    assert!(
        !joiner.output().iter().any(|l| l == "game over"),
        "killed too late: {killed_at}"
    );
    let mut again = join(&jdir, "joiner", &ticket, 12, &[&slow[..], &["-v"]].concat());
    assert!(
        again.wait(WHOLE_GAME).success(),
        "the restarted joiner failed"
    );
    assert!(host.wait(WHOLE_GAME).success(), "host failed");
    let out = again.output();
    assert!(out.iter().any(|l| l.contains("resumed:")), "did not resume");
    assert!(out.iter().any(|l| l == "game over"));
    check_transcripts(&transcripts_under(dir.path()), 3);
}

#[test]
fn a_host_killed_with_its_bots_resumes_them_all() {
    let dir = tempfile::tempdir().unwrap();
    let slow = ["--bot-delay-ms", "15"];
    let (mut host, ticket) = host(
        dir.path(),
        4,
        2,
        21,
        &["--stall-timeout-ms", "20000", "--bot-delay-ms", "15"],
    );
    let mut joiner = join(&dir.path().join("joiner"), "joiner", &ticket, 22, &slow);
    host.wait_line(LIMIT, |l| {
        l.strip_prefix('[')
            .and_then(|r| r.split(']').next())
            .and_then(|n| n.parse::<u64>().ok())
            .is_some_and(|n| n >= 40)
    })
    .expect("the game gets going");
    host.child.kill().unwrap();
    host.child.wait().unwrap();
    // `resume` finds the unfinished game in the data directory and brings
    // back the host's seat and its two bots.
    let mut args = vec!["resume".to_string()];
    args.extend(common(&dir.path().join("host"), "host", 21));
    args.extend(slow.iter().map(|s| s.to_string()));
    args.push("-v".into());
    let mut resumed = Peer::start("resumed host", &args);
    // A long game (one ran 80 turns, 690 inputs) plus the finished host's
    // serving time after the end (SPEC 4.4) passed 50 s under load; see
    // WHOLE_GAME.
    assert!(
        resumed.wait(WHOLE_GAME).success(),
        "the resumed host failed"
    );
    assert!(joiner.wait(WHOLE_GAME).success(), "joiner failed");
    check_transcripts(&transcripts_under(dir.path()), 4);
}

/// The flags of a seat played by its heuristic bot, paced so that a kill
/// lands mid-game.
fn heuristic_seat(dir: &std::path::Path, name: &str) -> Vec<String> {
    let mut args = spectator(dir, name);
    args.extend(["--bot", "heuristic", "--bot-delay-ms", "15"].map(String::from));
    args
}

/// A 3-seat `game` hosted with one bot and joined by one: the host is
/// killed (SIGKILL) once it has applied `kill_after` inputs, and `resume`
/// on its data directory learns the game from the genesis its saved
/// transcript starts with, brings back its bot (and its private cards),
/// and the game finishes with byte-identical transcripts everywhere; the
/// resumed host's ranking line holds `ranking_words`.
fn a_host_killed_mid_game_resumes(game: &str, kill_after: u64, ranking_words: &str) {
    let dir = tempfile::tempdir().unwrap();
    let ticket_file = dir.path().join("ticket.txt");
    let mut args: Vec<String> = [
        "host",
        "--game",
        game,
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
    args.extend(heuristic_seat(&dir.path().join("host"), "host"));
    let mut host = Peer::start("host", &args);
    let ticket = read_ticket(&ticket_file, Duration::from_secs(20));
    let mut args = vec!["join".to_string(), ticket];
    args.extend(heuristic_seat(&dir.path().join("joiner"), "joiner"));
    let mut joiner = Peer::start("joiner", &args);
    host.wait_line(LIMIT, |l| {
        l.strip_prefix('[')
            .and_then(|r| r.split(']').next())
            .and_then(|n| n.parse::<u64>().ok())
            .is_some_and(|n| n >= kill_after)
    })
    .expect("the game gets going");
    host.child.kill().unwrap();
    host.child.wait().unwrap();
    assert!(
        !host.output().iter().any(|l| l == "game over"),
        "killed too late"
    );
    let mut args = vec!["resume".to_string()];
    args.extend(heuristic_seat(&dir.path().join("host"), "host"));
    args.push("-v".into());
    let mut resumed = Peer::start("resumed host", &args);
    assert!(
        resumed.wait(WHOLE_GAME).success(),
        "the resumed host failed"
    );
    assert!(joiner.wait(WHOLE_GAME).success(), "joiner failed");
    let out = resumed.output();
    assert!(out.iter().any(|l| l.contains(ranking_words)), "{out:#?}");
    assert!(
        !out.iter()
            .any(|l| l.contains("VIOLATION") || l.contains("forfeit")),
        "{out:#?}"
    );
    check_transcripts(&transcripts_under(dir.path()), 3);
}

/// `resume` learns the game from the genesis: a Guildhall host comes back
/// with its bot, private hands and all (it once knew only Port Royal).
#[test]
fn a_guildhall_host_killed_mid_game_resumes_from_its_saved_genesis() {
    a_host_killed_mid_game_resumes("guildhall", 40, "completed chapter");
}

/// A Waters of Nereus host comes back with its science cards and answers
/// the secret crew choices again.
#[test]
fn a_nereus_host_killed_mid_game_resumes_from_its_saved_genesis() {
    a_host_killed_mid_game_resumes("nereus", 60, "in incomplete holds");
}
