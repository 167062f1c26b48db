//! What the commands say to a person (issue 29, items 4 and 6): how a game
//! ended, in the same words in `replay` and `audit`; where a damaged
//! transcript is damaged, with `replay` failing where `audit` does; a file
//! of the wrong kind named for what it is; the help naming every game of
//! the list. Every case runs the real binary.

use std::path::{Path, PathBuf};

use roundtable_table::transcript::{self, encode_frame};

use crate::common::{self, path_str, roundtable};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(name)
}

/// A finished two-seat Port Royal game between bots.
fn selfplay(dir: &Path, seed: u64) -> PathBuf {
    let path = dir.join(format!("game-{seed}.rts"));
    common::selfplay(&path, &["--seats", "2", "--seed", &seed.to_string()]);
    path
}

/// An abandoned game (two of three players killed at once) says so in
/// `replay` as `audit` decides it: "Game abandoned: … stopped answering",
/// with no winner and no seat "played automatically" that stopped. The
/// replay used to print no result at all (the game never reached its end
/// by its rules), and the screens said "Game over: … wins".
#[test]
fn an_abandoned_game_says_who_stopped_and_names_no_winner() {
    let path = fixture("abandoned-3-seats.rtlog");
    let replay = roundtable(&["replay", path_str(&path)]);
    let shown = text(&replay.stdout);
    assert_eq!(replay.status.code(), Some(0), "{}", text(&replay.stderr));
    let headline = shown
        .lines()
        .find(|l| l.starts_with("Game abandoned: "))
        .unwrap_or_else(|| panic!("no abandoned headline:\n{shown}"));
    assert!(headline.ends_with(" stopped answering"), "{headline}");
    assert!(!shown.contains("wins"), "{shown}");
    assert!(!shown.contains("Game over"), "{shown}");
    assert!(!shown.contains("played automatically"), "{shown}");
    // The two stopped seats rank last, each with what became of it.
    let stopped = shown
        .lines()
        .filter(|l| l.starts_with("#2 ") && l.ends_with("(stopped answering)"))
        .count();
    assert_eq!(stopped, 2, "{shown}");

    let audit = roundtable(&["audit", path_str(&path)]);
    let audited = text(&audit.stdout);
    assert_eq!(audit.status.code(), Some(0), "{audited}");
    let said = headline.trim_start_matches("Game abandoned: ");
    assert!(
        audited
            .lines()
            .any(|l| l.trim_start().starts_with("ABANDONED: ") && l.contains("stopped answering")),
        "{audited}"
    );
    // The same seats in the same words, the audit adding their numbers.
    for name in said.trim_end_matches(" stopped answering").split(" and ") {
        assert!(audited.contains(name), "{name} in\n{audited}");
    }
    assert!(!audited.contains("forfeited (stopped"), "{audited}");
}

/// The frame starts of the transcript at `path`.
fn frame_starts(path: &Path) -> Vec<usize> {
    let read = transcript::read(path).unwrap_or_else(|e| panic!("{e}"));
    let mut at = 12;
    read.frames
        .iter()
        .map(|f| {
            let start = at;
            at += encode_frame(f).len();
            start
        })
        .collect()
}

/// `replay` and `audit` of `path`: both fail with exit 1, `replay` after
/// printing the inputs it could, and both say `expected`.
fn both_call_it_invalid(path: &Path, expected: &str) {
    let replay = roundtable(&["replay", path_str(path)]);
    let stderr = text(&replay.stderr);
    assert_eq!(replay.status.code(), Some(1), "replay: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("INVALID") && stderr.contains(expected),
        "{stderr}"
    );
    assert!(
        text(&replay.stdout).lines().count() > 1,
        "the replay prints what it could"
    );
    let audit = roundtable(&["audit", path_str(path)]);
    let audited = text(&audit.stdout);
    assert_eq!(audit.status.code(), Some(1), "audit: {audited}");
    assert!(audited.contains(expected), "{audited}");
    assert!(!audited.contains("torn frame"), "{audited}");
}

/// One byte changed in the middle of a transcript is damage there: the
/// frame is named, and `replay` no longer exits 0 on what `audit` calls
/// invalid (both used to say "N bytes of a torn frame at the end", and
/// `replay` succeeded).
#[test]
fn a_damaged_frame_in_the_middle_is_named_and_fails_both_commands() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = selfplay(dir.path(), 5);
    let starts = frame_starts(&path);
    let middle = starts.len() / 2;
    let mut bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{e}"));
    // A payload byte: the length stays whole, the checksum fails.
    bytes[starts[middle] + 5] ^= 0x20;
    let damaged = dir.path().join("damaged.rts");
    std::fs::write(&damaged, &bytes).unwrap_or_else(|e| panic!("{e}"));
    both_call_it_invalid(
        &damaged,
        &format!("frame {} is damaged (checksum)", middle + 1),
    );
}

/// Two transcripts joined with `cat`: the second is named as such, and
/// the first game's whole result does not make the file valid.
#[test]
fn a_second_game_after_the_first_is_named() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let first = std::fs::read(selfplay(dir.path(), 6)).unwrap_or_else(|e| panic!("{e}"));
    let second = std::fs::read(selfplay(dir.path(), 7)).unwrap_or_else(|e| panic!("{e}"));
    let joined = dir.path().join("joined.rts");
    std::fs::write(&joined, [first.clone(), second].concat()).unwrap_or_else(|e| panic!("{e}"));
    both_call_it_invalid(
        &joined,
        &format!(
            "a second game's transcript follows the first at byte {}",
            first.len()
        ),
    );
}

/// A file cut inside a frame is cut short after the frame before it.
#[test]
fn a_truncated_transcript_is_cut_short_after_its_last_whole_frame() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = selfplay(dir.path(), 8);
    let starts = frame_starts(&path);
    let last = starts.len() / 2;
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{e}"));
    let cut = dir.path().join("cut.rts");
    std::fs::write(&cut, &bytes[..starts[last] + 3]).unwrap_or_else(|e| panic!("{e}"));
    both_call_it_invalid(&cut, &format!("the file is cut short after frame {last}"));
    // Cut inside its first frame, nothing can be read: unreadable, and why.
    let stub = dir.path().join("stub.rts");
    std::fs::write(&stub, &bytes[..starts[0] + 40]).unwrap_or_else(|e| panic!("{e}"));
    for command in ["replay", "audit"] {
        let out = roundtable(&[command, path_str(&stub)]);
        let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(2), "{command}: {said}");
        assert!(
            said.contains("the file is cut short in its first frame"),
            "{command}: {said}"
        );
    }
}

/// A transcript given where a text file belongs says what it is, in one
/// line with exit 2, not "stream did not contain valid UTF-8".
#[test]
fn a_transcript_given_as_a_scenario_or_a_manifest_is_called_a_transcript() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = selfplay(dir.path(), 9);
    let games = dir.path().join("games");
    std::fs::create_dir_all(&games).unwrap_or_else(|e| panic!("{e}"));
    for (args, kind) in [
        (vec!["scenario", path_str(&path)], "scenario file"),
        (
            vec!["tournament", "standings", path_str(&path), path_str(&games)],
            "tournament manifest",
        ),
    ] {
        let out = roundtable(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains(&format!("is a game transcript, not a {kind}"))
                && stderr.contains("roundtable replay"),
            "{stderr}"
        );
        assert!(!stderr.contains("UTF-8"), "{stderr}");
    }
}

/// `join` with a tournament node's ticket says to use `tournament play`
/// (it said "no game is called \"tournament\"").
#[test]
fn join_with_a_tournament_ticket_points_to_tournament_play() {
    let ticket = roundtable_net::Ticket {
        lobby: roundtable_net::LobbyId([5; 32]),
        game: "tournament".into(),
        host: roundtable_table::Identity::from_secret([9; 32]).public(),
        addrs: vec![
            "/ip4/127.0.0.1/tcp/9"
                .parse()
                .unwrap_or_else(|e| panic!("{e}")),
        ],
    }
    .encode();
    let out = roundtable(&["join", &ticket, "--headless"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("roundtable tournament play"), "{stderr}");
    assert!(!stderr.contains("no game is called"), "{stderr}");
}

/// The help names every game of the list, and `host --seats` every game's
/// seat counts (they named Port Royal, then Port Royal and Guildhall).
#[test]
fn the_help_names_every_game_of_the_list() {
    let help = text(&roundtable(&["--help"]).stdout);
    let host = text(&roundtable(&["host", "--help"]).stdout);
    for game in roundtable_games::GameId::ALL {
        assert!(help.contains(game.title()), "{game} in\n{help}");
        let seats = game.seats();
        let counts = format!("{} {} to {}", game.title(), seats.start(), seats.end());
        assert!(
            host.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .contains(&counts),
            "{counts} in\n{host}"
        );
    }
}

/// `audit` names private cards as `replay` does, in text and in JSON
/// (which keeps the numbers too); it printed `0:0=13 0:1=4 …`.
#[test]
fn audit_names_private_cards_as_the_replay_does() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("guildhall.rts");
    common::selfplay(
        &path,
        &[
            "--game",
            "guildhall",
            "--seats",
            "2",
            "--seed",
            "3",
            "--bot",
            "easy",
        ],
    );
    let audit = text(&roundtable(&["audit", path_str(&path)]).stdout);
    let dealt: Vec<&str> = audit
        .lines()
        .filter(|l| l.contains(" was dealt "))
        .collect();
    assert_eq!(dealt.len(), 2, "{audit}");
    for line in &dealt {
        assert!(!line.contains("=") && !line.contains("0:0"), "{line}");
        let (_, cards) = line.split_once(": ").unwrap_or_else(|| panic!("{line}"));
        for card in cards.split(", ") {
            assert!(
                card.ends_with(')') && card.contains(" ("),
                "{card} in {line}"
            );
        }
    }
    let json: serde_json::Value =
        serde_json::from_slice(&roundtable(&["audit", "--json", path_str(&path)]).stdout)
            .unwrap_or(serde_json::Value::Null);
    let first = &json["hands"][0][0];
    let card = u32::try_from(first["card"].as_u64().unwrap_or(u64::MAX)).unwrap_or(u32::MAX);
    assert_eq!(
        first["name"].as_str(),
        Some(roundtable_games::guildhall::card_words(card).as_str()),
        "{json}"
    );
}

/// Counts read right for one: "1 completed chapter", "1 coin".
#[test]
fn a_count_of_one_is_singular() {
    use roundtable_games::Listed;
    use roundtable_games::guildhall::Guildhall;
    use roundtable_games::nereus::Nereus;
    use roundtable_port_royal::PortRoyal;
    assert_eq!(Guildhall::tie_break_words(1), "1 completed chapter");
    assert_eq!(Guildhall::tie_break_words(2), "2 completed chapters");
    assert_eq!(PortRoyal::tie_break_words(1), "1 coin");
    assert_eq!(
        Nereus::tie_break_words(1003),
        "1 completed hold, 3 in incomplete holds"
    );
}
