//! Known-answer vectors for part 3 of `protocol/SPEC.md` (the table):
//! encodings, game id, acceptance and envelope signatures, envelope hashes,
//! Port Royal action encodings and state hashes, and transcript file bytes.
//!
//! The test rebuilds every vector and compares it with
//! `protocol/vectors/table.json`; to regenerate the file after a deliberate
//! protocol change:
//!
//! ```text
//! REGENERATE_VECTORS=1 cargo test -p roundtable-table --test table vectors::
//! ```

use std::path::PathBuf;

use roundtable_engine::{ChanceOutcome, Game, Seat};
use roundtable_fairdeck::ChainSecret;
use roundtable_port_royal::{Action, Options, PortRoyal, TakeMode};
use roundtable_table::transcript::{Frame, encode_file};
use roundtable_table::{
    Body, Envelope, GameId, Genesis, Hash32, Identity, Proposal, Reveal, SeatInfo, Signed,
};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

fn label(l: &str) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"roundtable/vectors/");
    h.update(l.as_bytes());
    h.finalize().into()
}

fn vectors() -> Value {
    let seats = 3u8;
    let identities: Vec<Identity> = (0..seats)
        .map(|i| Identity::from_secret(label(&format!("key {i}"))))
        .collect();
    let chains: Vec<ChainSecret> = (0..seats)
        .map(|i| ChainSecret::new(label(&format!("chain {i}")), 16).unwrap())
        .collect();
    let infos: Vec<SeatInfo> = identities
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
    let options = Options {
        victory_points: 10,
        ..Options::default()
    };
    let proposal = Proposal::new::<PortRoyal>(&options, infos, label("nonce")).unwrap();
    let game_id = proposal.game_id();
    let acceptances: Vec<_> = identities
        .iter()
        .map(|id| proposal.accept(id).unwrap())
        .collect();
    let genesis = Genesis::assemble::<PortRoyal>(proposal.clone(), &acceptances).unwrap();

    let player_at = |seat: u8| {
        identities
            .iter()
            .position(|id| proposal.seat_of(&id.public()) == Some(Seat(seat)))
            .unwrap()
    };
    let key_of = |seat: u8| &identities[player_at(seat)];
    let game = PortRoyal::new_game(seats, &options).unwrap();
    let mut after_start = game.clone();
    after_start
        .apply_chance(&ChanceOutcome::Index(1), &mut Vec::new())
        .unwrap();

    let first = Envelope {
        game_id,
        seat: 1,
        seq: 0,
        prev: Hash32::default(),
        // A reveal names no position and is not signed.
        position: 0,
        state_hash: Hash32::default(),
        body: Body::Reveal(Reveal {
            event: 1,
            link: chains[player_at(1)].reveal(1).unwrap(),
        }),
    }
    .sign(key_of(1));
    let second = Envelope {
        game_id,
        seat: 1,
        seq: 1,
        prev: first.hash(),
        position: 1,
        state_hash: Hash32(after_start.state_hash().0),
        body: Body::Action {
            action: postcard::to_allocvec(&Action::Draw).unwrap(),
            reveal: None,
        },
    }
    .sign(key_of(1));
    // Seat 2 (index 1) announces the chain that answers events 17 to 32:
    // its seed derives from the genesis seed and the first event.
    let continued =
        roundtable_fairdeck::ChainSecret::continued(chains[player_at(1)].seed(), 17, 16).unwrap();
    let third = Envelope {
        game_id,
        seat: 1,
        seq: 2,
        prev: second.hash(),
        position: 1,
        state_hash: Hash32(after_start.state_hash().0),
        body: Body::ChainContinuation {
            first_event: 17,
            length: 16,
            commitment: continued.commitment(),
        },
    }
    .sign(key_of(1));
    let envelope_case = |s: &Signed| {
        let mut signing = b"roundtable/envelope/v1".to_vec();
        signing.extend_from_slice(&postcard::to_allocvec(&s.envelope).unwrap());
        json!({
            "seat": s.envelope.seat,
            "seq": s.envelope.seq,
            "envelope": hex::encode(postcard::to_allocvec(&s.envelope).unwrap()),
            "signed_message": hex::encode(&signing),
            "signature": hex::encode(s.signature.0),
            "signed": hex::encode(s.encode()),
            "hash": hex::encode(s.hash().0),
        })
    };

    let actions = [
        Action::Draw,
        Action::Repel,
        Action::Keep,
        Action::Stop,
        Action::Claim(2),
        Action::Take(1, TakeMode::Normal),
        Action::Take(0, TakeMode::Decline),
        Action::Take(3, TakeMode::Gift(Seat(2))),
        Action::Pass,
    ];
    let frames = vec![
        Frame::Proposal(proposal.clone()),
        Frame::Acceptance(acceptances[0].clone()),
        Frame::Envelope(first.clone()),
    ];

    json!({
        "about": "protocol/SPEC.md part 3; keys, chain seeds and the nonce are SHA256(\"roundtable/vectors/\" || label)",
        "genesis": {
            "secret_keys": (0..seats).map(|i| hex::encode(label(&format!("key {i}")))).collect::<Vec<_>>(),
            "public_keys": identities.iter().map(|id| hex::encode(id.public().0)).collect::<Vec<_>>(),
            "chain_seeds": (0..seats).map(|i| hex::encode(label(&format!("chain {i}")))).collect::<Vec<_>>(),
            "chain_length": 16,
            "options": hex::encode(postcard::to_allocvec(&options).unwrap()),
            "seat_order_keys": proposal.seats.iter().map(|s| hex::encode(s.key.0)).collect::<Vec<_>>(),
            "proposal": hex::encode(postcard::to_allocvec(&proposal).unwrap()),
            "game_id": hex::encode(game_id.0),
            "acceptances": genesis.acceptances.iter().map(|a| json!({
                "seat": a.seat,
                "message": hex::encode([b"roundtable/accept/v1".as_slice(), &a.game_id.0, &[a.seat]].concat()),
                "signature": hex::encode(a.signature.0),
                "encoded": hex::encode(postcard::to_allocvec(a).unwrap()),
            })).collect::<Vec<_>>(),
        },
        "envelopes": [envelope_case(&first), envelope_case(&second), envelope_case(&third)],
        "port_royal": {
            "actions": actions.iter().map(|a| json!({"action": a.to_string(), "encoded": hex::encode(postcard::to_allocvec(a).unwrap())})).collect::<Vec<_>>(),
            "state_hash_after_setup": hex::encode(game.state_hash().0),
            "state_hash_after_start_player_seat_2": hex::encode(after_start.state_hash().0),
        },
        "transcript": {
            "frames": "proposal, acceptance of seat 1, the first envelope above",
            "file": hex::encode(encode_file(&frames)),
        },
    })
}

fn path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../protocol/vectors/table.json")
}

#[test]
fn vectors_match_the_file() {
    let fresh = serde_json::to_string_pretty(&vectors()).unwrap() + "\n";
    if std::env::var_os("REGENERATE_VECTORS").is_some() {
        std::fs::write(path(), &fresh).unwrap();
    }
    let stored = std::fs::read_to_string(path()).expect("protocol/vectors/table.json exists");
    assert_eq!(
        stored, fresh,
        "the table vectors changed; see this file's docs to regenerate"
    );
}

#[test]
fn stored_envelopes_decode_and_verify() {
    let stored: Value = serde_json::from_str(&std::fs::read_to_string(path()).unwrap()).unwrap();
    let proposal: Proposal =
        postcard::from_bytes(&hex_decode(stored["genesis"]["proposal"].as_str().unwrap())).unwrap();
    assert_eq!(
        hex::encode(proposal.game_id().0),
        stored["genesis"]["game_id"].as_str().unwrap()
    );
    let GameId(_) = proposal.game_id();
    for case in stored["envelopes"].as_array().unwrap() {
        let signed = Signed::decode(&hex_decode(case["signed"].as_str().unwrap())).unwrap();
        let seat = usize::from(signed.seat());
        signed.verify(&proposal.seats[seat].key).unwrap();
        assert_eq!(hex::encode(signed.hash().0), case["hash"].as_str().unwrap());
    }
}

fn hex_decode(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap()
}
