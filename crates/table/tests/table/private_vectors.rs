//! Known-answer vectors for the table's private deal (protocol/SPEC.md
//! 5.11–5.16): a whole two-seat game of Hands dealt by two tables, as a
//! transcript file, with each seat's derived deal secret, one envelope of
//! every new body, and every hand the audit opens after the keys are
//! released.
//!
//! The test plays the game again and compares it with
//! `protocol/vectors/table-private.json`; to regenerate the file after a
//! deliberate protocol change:
//!
//! ```text
//! REGENERATE_VECTORS=1 cargo test -p roundtable-table --test table private_vectors::
//! ```

use std::path::PathBuf;

use roundtable_engine::{Game, Next};
use roundtable_fairdeck::ChainSecret;
use roundtable_hands::{Action, Hands, Options};
use roundtable_table::transcript::{Frame, encode_file};
use roundtable_table::{
    Body, Config, DEAL_ROOT_DOMAIN, DEAL_SECRET_DOMAIN, Genesis, Identity, Local, Output, Proposal,
    SeatInfo, Table, audit,
};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

fn label(l: &str) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"roundtable/vectors/");
    h.update(l.as_bytes());
    h.finalize().into()
}

/// The body's variant index in the postcard encoding (SPEC 3.4).
fn variant(body: &Body) -> u8 {
    match body {
        Body::KeyShare { .. } => 8,
        Body::Shuffle { .. } => 9,
        Body::Shares { .. } => 10,
        Body::ActionRevealing { .. } => 11,
        Body::KeyRelease { .. } => 12,
        Body::ShuffleFromPile { .. } => 13,
        _ => 0,
    }
}

fn play() -> (Genesis, Vec<[u8; 32]>, Vec<Frame>) {
    let seeds: Vec<[u8; 32]> = (0..2).map(|i| label(&format!("hands chain {i}"))).collect();
    let identities: Vec<Identity> = (0..2)
        .map(|i| Identity::from_secret(label(&format!("hands key {i}"))))
        .collect();
    let chains: Vec<ChainSecret> = seeds
        .iter()
        .map(|s| ChainSecret::new(*s, 16).unwrap())
        .collect();
    let infos = identities
        .iter()
        .zip(&chains)
        .enumerate()
        .map(|(i, (id, c))| SeatInfo {
            key: id.public(),
            name: format!("player {}", i + 1),
            chain_commitment: c.commitment(),
            chain_length: c.length(),
        })
        .collect();
    let proposal =
        Proposal::new::<Hands>(&Options { rounds: 2 }, infos, label("hands nonce")).unwrap();
    let acceptances: Vec<_> = identities
        .iter()
        .map(|id| proposal.accept(id).unwrap())
        .collect();
    let genesis = Genesis::assemble::<Hands>(proposal.clone(), &acceptances).unwrap();
    let mut by_seat: Vec<Option<(Local, [u8; 32])>> = vec![None, None];
    for ((identity, chain), seed) in identities.into_iter().zip(chains).zip(&seeds) {
        let seat = proposal.seat_of(&identity.public()).unwrap();
        by_seat[seat.index()] = Some((
            Local {
                seat,
                identity,
                chain,
            },
            *seed,
        ));
    }
    let mut seeds_by_seat = Vec::new();
    let mut tables: Vec<Table<Hands>> = by_seat
        .into_iter()
        .map(|l| {
            let (local, seed) = l.unwrap();
            seeds_by_seat.push(seed);
            Table::new(genesis.clone(), Some(local), Config::default()).unwrap()
        })
        .collect();
    for t in tables.iter_mut() {
        t.handle_timeout(0);
    }
    loop {
        let mut wire = Vec::new();
        for (i, t) in tables.iter_mut().enumerate() {
            while let Some(o) = t.poll_output() {
                match o {
                    Output::Broadcast(s) => wire.push((i, s)),
                    Output::Violation(v) => panic!("{v}"),
                    _ => {}
                }
            }
        }
        if !wire.is_empty() {
            for (from, s) in wire {
                tables[1 - from].handle_envelope(0, s).unwrap();
            }
            continue;
        }
        let Next::Decision(seat) = tables[0].game().next() else {
            break;
        };
        // The highest card it may play, else a pass: a fixed choice.
        let table = &mut tables[seat.index()];
        let knowledge = table.knowledge().unwrap().clone();
        let mut legal = Vec::new();
        table
            .game()
            .legal_actions_with(seat, &knowledge, &mut legal);
        let pick = legal
            .iter()
            .copied()
            .filter(|a| matches!(a, Action::Play { .. }))
            .max_by_key(|a| match a {
                Action::Play { card, .. } => *card,
                Action::Pass => 0,
            })
            .unwrap_or(Action::Pass);
        table.submit(0, pick).unwrap();
    }
    assert!(tables.iter().all(Table::is_finished));
    let frames = tables[0].transcript();
    assert!(tables[1].transcript() == frames);
    (genesis, seeds_by_seat, frames)
}

fn vectors() -> Value {
    let (genesis, seeds, frames) = play();
    let report = audit::audit::<Hands>(&frames).unwrap();
    assert!(report.is_valid());
    let hands = report.hands.clone().unwrap();
    let seats: Vec<Value> = seeds
        .iter()
        .enumerate()
        .map(|(i, seed)| {
            let root: [u8; 32] = Sha256::new()
                .chain_update(DEAL_ROOT_DOMAIN)
                .chain_update(seed)
                .finalize()
                .into();
            let secret_seed: [u8; 32] = Sha256::new()
                .chain_update(DEAL_SECRET_DOMAIN)
                .chain_update(root)
                .finalize()
                .into();
            let released = frames.iter().find_map(|f| match f {
                Frame::Envelope(s) if usize::from(s.seat()) == i => match s.envelope.body {
                    Body::KeyRelease { secret } => Some(secret),
                    _ => None,
                },
                _ => None,
            });
            json!({
                "seat": i,
                "chain_seed": hex::encode(seed),
                "deal_root": hex::encode(root),
                "secret_stream_seed": hex::encode(secret_seed),
                "released_secret": hex::encode(released.unwrap()),
                "hand": hands[i].iter().map(|r| json!({
                    "epoch": r.handle.epoch.0, "slot": r.handle.slot, "card": r.card,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    let bodies: Vec<Value> = frames
        .iter()
        .filter_map(|f| match f {
            Frame::Envelope(s) if variant(&s.envelope.body) != 0 => Some(s),
            _ => None,
        })
        .filter(|s| seen.insert(variant(&s.envelope.body)))
        .map(|s| {
            json!({
                "kind": s.envelope.body.kind(),
                "variant": variant(&s.envelope.body),
                "seat": s.seat(),
                "seq": s.seq(),
                "signed": hex::encode(s.encode()),
                "hash": hex::encode(s.hash().0),
            })
        })
        .collect();
    assert_eq!(bodies.len(), 6, "every new body appears in the game");
    let result = report.result.clone().unwrap();
    let game = Hands::new_game(2, &Options { rounds: 2 }).unwrap();
    json!({
        "description": "A two-seat game of Hands (2 rounds) dealt by two tables (SPEC 5.11-5.16); the transcript file holds every key share, shuffle (the first of the epoch naming its pile), share, revealing action and key release.",
        "game_id": hex::encode(genesis.proposal.game_id().0),
        "initial_state_hash": hex::encode(game.state_hash().0),
        "seats": seats,
        "bodies": bodies,
        "result": result.standings.iter().map(|s| json!({
            "seat": s.seat.0, "rank": s.rank, "score": s.score, "tie_break": s.tie_break,
        })).collect::<Vec<_>>(),
        "inputs": report.inputs,
        "file": hex::encode(encode_file(&frames)),
    })
}

fn path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../protocol/vectors/table-private.json")
}

#[test]
fn private_vectors_match_the_file() {
    let fresh = serde_json::to_string_pretty(&vectors()).unwrap() + "\n";
    if std::env::var_os("REGENERATE_VECTORS").is_some() {
        std::fs::write(path(), &fresh).unwrap();
    }
    let stored =
        std::fs::read_to_string(path()).expect("protocol/vectors/table-private.json exists");
    assert!(
        stored == fresh,
        "the private-deal vectors changed; see this file's docs to regenerate"
    );
}

/// The stored file audits valid on its own, and every hand it opens is the
/// one the vectors list.
#[test]
fn the_stored_game_audits_valid() {
    let stored: Value = serde_json::from_str(&std::fs::read_to_string(path()).unwrap()).unwrap();
    let bytes = hex_decode(stored["file"].as_str().unwrap());
    let frames = roundtable_table::transcript::decode_file(&path(), &bytes)
        .unwrap()
        .frames;
    let report = audit::audit::<Hands>(&frames).unwrap();
    assert!(report.is_valid(), "{:?}", report.problems);
    let hands = report.hands.unwrap();
    for seat in stored["seats"].as_array().unwrap() {
        let i = seat["seat"].as_u64().unwrap() as usize;
        let listed: Vec<u64> = seat["hand"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["card"].as_u64().unwrap())
            .collect();
        let opened: Vec<u64> = hands[i].iter().map(|r| u64::from(r.card)).collect();
        assert_eq!(listed, opened);
    }
}

fn hex_decode(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap()
}
