//! `roundtable tournament`: a whole bot tournament played in process, then
//! standings recomputed from its files alone; and every way a file can fail
//! to count (a forged pairing, another tournament's game, a duplicate, a
//! tampered or foreign file) refused with one line while the rest counts, a
//! proven cheater losing, and bad manifests and registrations refused.

use std::path::Path;
use std::process::{Command, Output};

use roundtable_engine::Game;
use roundtable_local::{LocalGame, Player, Progress};
use roundtable_port_royal::PortRoyal;
use roundtable_table::transcript::{self, Frame, encode_file};
use roundtable_table::{Body, Config, Identity, PublicKey, Signed};
use roundtable_tournament::{
    Manifest, OpenedShares, SeedReveal, Standings, standings, table_nonce,
};
use serde_json::Value;
use sha2::{Digest, Sha256};

fn roundtable(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_roundtable"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn demo(dir: &Path, players: u16, rounds: u32, seed: u64) -> Output {
    let out = roundtable(&[
        "tournament",
        "demo",
        "--players",
        &players.to_string(),
        "--rounds",
        &rounds.to_string(),
        "--seed",
        &seed.to_string(),
        "--dir",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    out
}

fn standings_of(dir: &Path, extra: &[&str]) -> Output {
    let manifest = dir.join("manifest.json");
    let mut args = vec![
        "tournament",
        "standings",
        manifest.to_str().unwrap(),
        dir.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    roundtable(&args)
}

fn json_standings(dir: &Path) -> (Output, Value) {
    let file = dir.join("standings.json.out");
    let out = standings_of(dir, &["--json", file.to_str().unwrap()]);
    let json = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    (out, json)
}

/// The demo's secret of player `i` (from 0), as `tournament demo` derives it.
fn demo_secret(seed: u64, i: u32) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"roundtable/tournament-demo/v1");
    h.update(seed.to_le_bytes());
    h.update(b"player");
    h.update(i.to_le_bytes());
    h.update(0u32.to_le_bytes());
    h.finalize().into()
}

fn identity_of(seed: u64, players: u32, key: &PublicKey) -> Identity {
    (0..players)
        .map(|i| Identity::from_secret(demo_secret(seed, i)))
        .find(|id| id.public() == *key)
        .expect("a demo player's key")
}

fn manifest_of(dir: &Path) -> Manifest {
    Manifest::from_json(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

/// Bots with the keys of `seats` play one game bound to `round`/`table`.
fn play(
    path: &Path,
    manifest: &Manifest,
    seed: u64,
    seats: &[PublicKey],
    round: u32,
    table: u32,
    chain: u8,
) {
    let players = manifest.registrations.len() as u32;
    let secrets = seats
        .iter()
        .map(|k| (identity_of(seed, players, k).secret(), [chain; 32]))
        .collect();
    let bots = seats
        .iter()
        .map(|k| {
            (
                manifest.name_of(k).unwrap().to_owned(),
                Player::Bot(Box::new(roundtable_bots::PortRoyalBot::default()) as _),
            )
        })
        .collect();
    let options: <PortRoyal as Game>::Options =
        roundtable_table::decode_exact(&manifest.terms.options).unwrap();
    let mut game = LocalGame::<PortRoyal>::with_secrets(
        &options,
        secrets,
        table_nonce(&manifest.id(), round, table),
        bots,
        Some(path),
        Config::default(),
    )
    .unwrap();
    assert_eq!(game.run().unwrap(), Progress::Finished);
}

/// The seed shares the demo's reveal files open.
fn shares_of(dir: &Path, manifest: &Manifest) -> OpenedShares {
    std::fs::read_dir(dir.join("reveals"))
        .unwrap()
        .map(|entry| {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            let reveal = SeedReveal::from_json(&text).unwrap();
            manifest.check_reveal(&reveal).unwrap();
            (reveal.key, reveal.share)
        })
        .collect()
}

/// The standings the library computes from no game (every table
/// unplayed), whose first pairing depends on no result.
fn first_round(dir: &Path, manifest: &Manifest) -> Standings {
    standings(manifest, &shares_of(dir, manifest), Vec::new(), Vec::new())
}

/// Whether `players` can sit at tables of four where no two have met.
fn can_seat_without_repeats(
    players: &[String],
    met: &std::collections::BTreeSet<(String, String)>,
) -> bool {
    let Some((first, rest)) = players.split_first() else {
        return true;
    };
    let fresh = |a: &String, b: &String| !met.contains(&(a.min(b).clone(), a.max(b).clone()));
    for i in 0..rest.len() {
        for j in i + 1..rest.len() {
            for k in j + 1..rest.len() {
                let table = [first, &rest[i], &rest[j], &rest[k]];
                let ok = (0..4).all(|x| (x + 1..4).all(|y| fresh(table[x], table[y])));
                if ok {
                    let left: Vec<String> = rest
                        .iter()
                        .enumerate()
                        .filter(|(n, _)| ![i, j, k].contains(n))
                        .map(|(_, p)| p.clone())
                        .collect();
                    if can_seat_without_repeats(&left, met) {
                        return true;
                    }
                }
            }
        }
    }
    false
}

#[test]
fn a_sixteen_player_swiss_played_by_bots_is_recomputed_from_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let played = demo(dir.path(), 16, 4, 0);
    let demo_text = text(&played.stdout);
    assert_eq!(
        std::fs::read_dir(dir.path().join("games")).unwrap().count(),
        16
    );
    assert_eq!(
        std::fs::read_dir(dir.path().join("registrations"))
            .unwrap()
            .count(),
        16
    );

    let csv = dir.path().join("standings.csv.out");
    let (out, json) = {
        let file = dir.path().join("standings.json.out");
        let out = standings_of(
            dir.path(),
            &[
                "--json",
                file.to_str().unwrap(),
                "--csv",
                csv.to_str().unwrap(),
            ],
        );
        (out, std::fs::read(&file).unwrap())
    };
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("16 transcripts (") && stderr.contains("16 games counted, 0 refused"),
        "{stderr}"
    );
    // The standings from the files are the ones the demo played to.
    let table = text(&out.stdout);
    assert!(demo_text.contains(&table), "{demo_text}\n---\n{table}");

    let value: Value = serde_json::from_slice(&json).unwrap();
    let rounds = value["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 4);
    let mut met = std::collections::BTreeSet::new();
    for round in rounds {
        let before = met.clone();
        let mut repeats = Vec::new();
        let mut seen = std::collections::BTreeSet::new();
        for t in round["tables"].as_array().unwrap() {
            assert_eq!(t["status"], "played");
            let players: Vec<&str> = t["players"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap())
                .collect();
            assert_eq!(players.len(), 4);
            for (i, p) in players.iter().enumerate() {
                assert!(seen.insert(*p), "{p} at two tables");
                for q in &players[i + 1..] {
                    if !met.insert((p.min(q).to_string(), p.max(q).to_string())) {
                        repeats.push(format!("{p} and {q}"));
                    }
                }
            }
            let points: f64 = t["points"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_f64().unwrap())
                .sum();
            assert_eq!(points, 6.0, "a four-seat table shares six points");
        }
        assert_eq!(seen.len(), 16);
        // Nobody meets twice while that can be avoided.
        if !repeats.is_empty() {
            let everyone: Vec<String> = seen.iter().map(|p| p.to_string()).collect();
            assert!(
                !can_seat_without_repeats(&everyone, &before),
                "round {}: {repeats:?} met again though tables without a repeat exist",
                round["round"]
            );
        }
    }
    assert_eq!(value["players"].as_array().unwrap().len(), 16);
    assert_eq!(value["tie_breaks"][0], "buchholz");
    let csv = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(csv.lines().count(), 17);
    assert!(csv.starts_with("rank,name,key,points,buchholz,game_score,games,cheats,rating"));

    // The same inputs give the same bytes.
    let again = dir.path().join("again.json.out");
    standings_of(dir.path(), &["--json", again.to_str().unwrap()]);
    assert_eq!(std::fs::read(&again).unwrap(), json);
}

#[test]
fn forged_foreign_duplicate_tampered_and_junk_files_are_refused_and_the_rest_counts() {
    let dir = tempfile::tempdir().unwrap();
    let other = tempfile::tempdir().unwrap();
    demo(dir.path(), 8, 2, 5);
    demo(other.path(), 8, 2, 6);
    let games = dir.path().join("games");
    let manifest = manifest_of(dir.path());

    // A copy of a game, and a second game for a table of the last round
    // (its result cannot change a later pairing).
    std::fs::copy(
        games.join("round-01-table-01.rts"),
        games.join("round-01-table-01-copy.rts"),
    )
    .unwrap();
    let Some(Frame::Proposal(last_round)) = transcript::read(&games.join("round-02-table-01.rts"))
        .unwrap()
        .frames
        .first()
        .cloned()
    else {
        panic!("no proposal")
    };
    let keys: Vec<PublicKey> = last_round.seats.iter().map(|s| s.key).collect();
    play(
        &games.join("round-02-table-01-again.rts"),
        &manifest,
        5,
        &keys,
        2,
        1,
        77,
    );

    // Another tournament's game, a file that is no transcript, and a game
    // whose signed bytes were changed.
    std::fs::copy(
        other.path().join("games/round-01-table-02.rts"),
        games.join("from-another-tournament.rts"),
    )
    .unwrap();
    std::fs::write(games.join("junk.rts"), b"not a transcript at all").unwrap();
    let tampered = games.join("round-02-table-02.rts");
    let mut frames = transcript::read(&tampered).unwrap().frames;
    let last = frames
        .iter()
        .rposition(|f| matches!(f, Frame::Envelope(_)))
        .unwrap();
    if let Frame::Envelope(s) = &mut frames[last] {
        s.envelope.position += 1;
    }
    std::fs::write(&tampered, encode_file(&frames)).unwrap();

    let (out, json) = json_standings(dir.path());
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let refused: Vec<&str> = stderr.lines().filter(|l| l.contains("refused ")).collect();
    assert_eq!(refused.len(), 6, "{stderr}");
    let line = |file: &str, why: &str| {
        assert!(
            refused.iter().any(|l| l.contains(file) && l.contains(why)),
            "no refusal of {file} for {why:?} in\n{stderr}"
        )
    };
    // Of two copies, the first by file name counts.
    line(
        "games/round-01-table-01.rts",
        "round 1 table 1: a second copy of the game in games/round-01-table-01-copy.rts",
    );
    line(
        "games/round-02-table-01.rts",
        "round 2 table 1: a second game for the table (games/round-02-table-01-again.rts too), so neither counts",
    );
    line(
        "games/round-02-table-01-again.rts",
        "round 2 table 1: a second game for the table (games/round-02-table-01.rts too)",
    );
    line(
        "from-another-tournament.rts",
        "names no table of this tournament",
    );
    line("junk.rts", "not a roundtable transcript");
    line("round-02-table-02.rts", "the audit refuses it");
    // The rest still counts: round 1 whole, round 2's tables without a game.
    assert!(stderr.contains("2 games counted, 6 refused"), "{stderr}");
    assert_eq!(json["rounds"][1]["tables"][0]["status"], "unplayed");
    assert_eq!(json["rounds"][1]["tables"][1]["status"], "unplayed");
    assert_eq!(json["rounds"][0]["tables"][1]["status"], "played");
    assert_eq!(json["rounds"][0]["tables"][0]["status"], "played");
}

#[test]
fn a_directors_forged_pairing_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    demo(dir.path(), 8, 1, 7);
    let manifest = manifest_of(dir.path());
    let pairing = first_round(dir.path(), &manifest).pairings[0].clone();
    // The director seats one player of table 2 at table 1 instead of one
    // of table 1's, and the other way round.
    let mut one = pairing.tables[0].players.clone();
    let mut two = pairing.tables[1].players.clone();
    std::mem::swap(&mut one[0], &mut two[0]);
    let games = dir.path().join("games");
    std::fs::remove_file(games.join("round-01-table-01.rts")).unwrap();
    std::fs::remove_file(games.join("round-01-table-02.rts")).unwrap();
    play(
        &games.join("round-01-table-01.rts"),
        &manifest,
        7,
        &one,
        1,
        1,
        3,
    );
    play(
        &games.join("round-01-table-02.rts"),
        &manifest,
        7,
        &two,
        1,
        2,
        4,
    );

    let (out, json) = json_standings(dir.path());
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    for table in [1, 2] {
        assert!(
            stderr.contains(&format!(
                "round-01-table-0{table}.rts: round 1 table {table}: its players are not the pairing's"
            )),
            "{stderr}"
        );
        assert_eq!(json["rounds"][0]["tables"][table - 1]["status"], "unplayed");
    }
    assert!(
        json["players"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["points"] == 0.0)
    );
}

#[test]
fn a_proven_cheater_loses_the_game() {
    let dir = tempfile::tempdir().unwrap();
    demo(dir.path(), 8, 1, 9);
    let path = dir.path().join("games/round-01-table-01.rts");
    let mut frames = transcript::read(&path).unwrap().frames;
    let Some(Frame::Proposal(proposal)) = frames.first().cloned() else {
        panic!("no proposal")
    };
    // The seat that did best signs a second, different envelope for one of
    // its slots with its real key: an equivocation, proven by both.
    let manifest = manifest_of(dir.path());
    let key = proposal.seats[0].key;
    let cheater = identity_of(9, 8, &key);
    let original = frames
        .iter()
        .find_map(|f| match f {
            Frame::Envelope(s)
                if s.seat() == 0 && matches!(s.envelope.body, Body::Action { .. }) =>
            {
                Some(s.clone())
            }
            _ => None,
        })
        .unwrap();
    let mut forged = original.envelope.clone();
    forged.body = Body::Resign;
    let second: Signed = forged.sign(&cheater);
    frames.push(Frame::Envelope(second));
    std::fs::write(&path, encode_file(&frames)).unwrap();

    let (out, json) = json_standings(dir.path());
    let stderr = text(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(0),
        "a cheat is counted, not refused: {stderr}"
    );
    let name = manifest.name_of(&key).unwrap();
    let table = &json["rounds"][0]["tables"][0];
    assert_eq!(table["status"]["cheat"]["cheaters"][0], name, "{table}");
    let players: Vec<&str> = table["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    let at = players.iter().position(|p| *p == name).unwrap();
    assert_eq!(table["points"][at], 0.0, "{table}");
    // Everyone else at the table ranks above the cheater.
    for (i, p) in table["points"].as_array().unwrap().iter().enumerate() {
        if i != at {
            assert!(p.as_f64().unwrap() >= 1.0, "{table}");
        }
    }
    let row = json["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap();
    assert_eq!(row["cheats"], 1);
    assert!(
        text(&out.stdout).contains("(1 proven cheat)"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn bad_manifests_are_one_line_and_exit_two() {
    let dir = tempfile::tempdir().unwrap();
    demo(dir.path(), 4, 1, 11);
    let good = std::fs::read_to_string(dir.path().join("manifest.json")).unwrap();
    let mut manifest: Value = serde_json::from_str(&good).unwrap();
    // A changed signature, and a manifest whose name was changed after the
    // players registered.
    let signature = manifest["signature"].as_str().unwrap().to_owned();
    let flipped = format!(
        "{}{}",
        if signature.starts_with('0') { "1" } else { "0" },
        &signature[1..]
    );
    manifest["signature"] = Value::String(flipped);
    let cases = [
        (
            serde_json::to_string(&manifest).unwrap(),
            "the signature of the director does not verify",
        ),
        (
            good.replace("\"Demo 11\"", "\"Demo 12\""),
            "is for tournament",
        ),
        (
            "{ \"not\": \"a manifest\" }".to_owned(),
            "not a tournament manifest",
        ),
    ];
    for (content, why) in cases {
        std::fs::write(dir.path().join("manifest.json"), &content).unwrap();
        let out = standings_of(dir.path(), &[]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(why), "{why:?} not in {stderr}");
    }
}

#[test]
fn new_register_and_close_sign_a_manifest_and_refuse_bad_registrations() {
    let dir = tempfile::tempdir().unwrap();
    let d = |p: &str| dir.path().join(p).to_str().unwrap().to_owned();
    let new = roundtable(&[
        "tournament",
        "new",
        "--name",
        "Club night",
        "--rounds",
        "3",
        "--seats",
        "2",
        "--data-dir",
        &d("director"),
        "--out",
        &d("terms.json"),
    ]);
    assert!(new.status.success(), "{}", text(&new.stderr));
    assert!(text(&new.stdout).starts_with("tournament "));
    let other = roundtable(&[
        "tournament",
        "new",
        "--name",
        "Elsewhere",
        "--seats",
        "2",
        "--data-dir",
        &d("director"),
        "--out",
        &d("other.json"),
    ]);
    assert!(other.status.success());
    for (who, terms) in [
        ("ann", "terms.json"),
        ("bob", "terms.json"),
        ("cat", "terms.json"),
        ("dan", "other.json"),
    ] {
        let out = roundtable(&[
            "tournament",
            "register",
            &d(terms),
            "--name",
            who,
            "--data-dir",
            &d(who),
            "--out",
            &d(&format!("{who}.json")),
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    // Bob's registration edited after he signed it.
    let bob = std::fs::read_to_string(d("bob.json")).unwrap();
    std::fs::write(d("bob.json"), bob.replace("\"bob\"", "\"eve\"")).unwrap();
    let out = roundtable(&[
        "tournament",
        "close",
        &d("terms.json"),
        &d("ann.json"),
        &d("bob.json"),
        &d("cat.json"),
        &d("dan.json"),
        "--data-dir",
        &d("director"),
        "--out",
        &d("manifest.json"),
    ]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 2, "{stderr}");
    assert!(
        stderr.contains("bob.json: the signature of the registration of \"eve\" does not verify"),
        "{stderr}"
    );
    assert!(
        stderr.contains("dan.json: the registration of \"dan\" is for tournament"),
        "{stderr}"
    );
    let manifest = manifest_of(dir.path());
    assert!(manifest.verify().is_ok());
    let mut names: Vec<&str> = manifest
        .registrations
        .iter()
        .map(|r| r.name.as_str())
        .collect();
    names.sort();
    assert_eq!(names, ["ann", "cat"]);

    // Once the manifest is signed, each player opens its seed share with
    // the key it registered with; a key not registered cannot.
    let games = dir.path().join("games");
    std::fs::create_dir(&games).unwrap();
    let reveal = |who: &str, data: &str| {
        roundtable(&[
            "tournament",
            "reveal",
            &d("manifest.json"),
            "--data-dir",
            &d(data),
            "--out",
            games.join(format!("{who}.reveal.json")).to_str().unwrap(),
        ])
    };
    let ann = reveal("ann", "ann");
    assert!(ann.status.success(), "{}", text(&ann.stderr));
    assert!(text(&ann.stdout).starts_with("ann opens its seed share"));
    let dan = reveal("dan", "dan");
    assert_eq!(dan.status.code(), Some(1));
    assert!(
        text(&dan.stderr).contains("is not registered in tournament"),
        "{}",
        text(&dan.stderr)
    );
    // Cat's reveal, edited to open another share: refused with one line,
    // and Cat is withdrawn while the rest still counts.
    assert!(reveal("cat", "cat").status.success());
    let cat = games.join("cat.reveal.json");
    let mut forged = SeedReveal::from_json(&std::fs::read_to_string(&cat).unwrap()).unwrap();
    forged.share[0] ^= 1;
    std::fs::write(&cat, forged.to_json()).unwrap();
    let out = roundtable(&[
        "tournament",
        "standings",
        &d("manifest.json"),
        games.to_str().unwrap(),
    ]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "refused cat.reveal.json: the seed reveal of \"cat\" does not open the commitment of its registration"
        ),
        "{stderr}"
    );
    assert!(
        text(&out.stdout).contains("withdrawn (seed share not opened): cat"),
        "{}",
        text(&out.stdout)
    );

    // Someone else's key cannot sign the manifest.
    let out = roundtable(&[
        "tournament",
        "close",
        &d("terms.json"),
        &d("ann.json"),
        &d("cat.json"),
        "--data-dir",
        &d("ann"),
        "--out",
        &d("manifest2.json"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("not the director's"),
        "{}",
        text(&out.stderr)
    );
}

/// `tournament demo` of `game`: 8 players, 2 rounds of 4-seat tables.
fn small_demo_of(dir: &Path, game: &str, seed: u64) -> Output {
    let out = roundtable(&[
        "tournament",
        "demo",
        "--game",
        game,
        "--players",
        "8",
        "--rounds",
        "2",
        "--seed",
        &seed.to_string(),
        "--dir",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{game}: {}", text(&out.stderr));
    out
}

#[test]
fn every_listed_game_plays_a_tournament_and_a_game_of_another_is_refused() {
    let guildhall = tempfile::tempdir().unwrap();
    let nereus = tempfile::tempdir().unwrap();
    // Both deal private cards: the tables' hands are dealt by mental poker
    // and the transcripts must audit from the files alone.
    for (dir, game) in [(&guildhall, "guildhall"), (&nereus, "nereus")] {
        let played = small_demo_of(dir.path(), game, 3);
        let demo_text = text(&played.stdout);
        assert_eq!(manifest_of(dir.path()).terms.game, game);
        assert_eq!(
            std::fs::read_dir(dir.path().join("games")).unwrap().count(),
            4
        );
        let out = standings_of(dir.path(), &[]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{game}: {stderr}");
        assert!(
            stderr.contains("4 games counted, 0 refused"),
            "{game}: {stderr}"
        );
        let table = text(&out.stdout);
        assert!(demo_text.contains(&table), "{demo_text}\n---\n{table}");
    }

    // A Nereus game in the Guildhall tournament's folder is refused with
    // one line naming both games; the Guildhall games still count.
    std::fs::copy(
        nereus.path().join("games/round-01-table-01.rts"),
        guildhall.path().join("games/stray.rts"),
    )
    .unwrap();
    let out = standings_of(guildhall.path(), &[]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let refused: Vec<&str> = stderr.lines().filter(|l| l.contains("refused")).collect();
    assert_eq!(refused.len(), 2, "{stderr}");
    assert!(
        refused[0].contains("games/stray.rts")
            && refused[0]
                .contains("a game of \"nereus\", not of the tournament's game \"guildhall\""),
        "{stderr}"
    );
    assert!(stderr.contains("4 games counted, 1 refused"), "{stderr}");
}

#[test]
fn a_game_not_in_the_list_is_one_line_naming_the_list() {
    let dir = tempfile::tempdir().unwrap();
    let terms = dir.path().join("terms.json");
    let data = dir.path().join("data");
    for args in [
        vec![
            "tournament",
            "demo",
            "--game",
            "chess",
            "--dir",
            dir.path().to_str().unwrap(),
        ],
        vec![
            "tournament",
            "new",
            "--name",
            "Club",
            "--game",
            "chess",
            "--data-dir",
            data.to_str().unwrap(),
            "--out",
            terms.to_str().unwrap(),
        ],
    ] {
        let out = roundtable(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        // One prefix for every line of a subcommand: its whole name.
        assert_eq!(
            stderr.trim_end(),
            format!(
                "roundtable tournament {}: no game is called \"chess\"; the games are port-royal, guildhall, nereus",
                args[1]
            ),
            "{args:?}"
        );
    }
    assert!(!terms.exists() && !dir.path().join("manifest.json").exists());
}
