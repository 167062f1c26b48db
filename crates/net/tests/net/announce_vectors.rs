//! Known-answer vectors for the signed announcement of SPEC 4.5: the terms,
//! their lobby id, the ticket, the bytes the host signs, the signature and
//! the whole announcement, then forgeries with the rule each breaks.
//!
//! The test rebuilds every vector and compares it with
//! `protocol/vectors/announce.json`; the signed bytes are built here from
//! the spec's layout (domain, then the postcard fields one after the other),
//! not by the code under test. To regenerate the file after a deliberate
//! protocol change:
//!
//! ```text
//! REGENERATE_VECTORS=1 cargo test -p roundtable-net --test net announce_vectors::
//! ```

use std::path::PathBuf;

use roundtable_net::wire::{ANNOUNCE_DOMAIN, MAX_ANNOUNCE_BYTES, decode, encode};
use roundtable_net::{Announce, AnnounceError, LobbyInfo, Ticket};
use roundtable_table::Identity;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

pub(crate) fn label(l: &str) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"roundtable/vectors/");
    h.update(l.as_bytes());
    h.finalize().into()
}

fn path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../protocol/vectors/announce.json")
}

/// `"roundtable/announce/v1" || postcard(info) || filled u8 ||
/// postcard(ticket string) || varint(counter)`, as SPEC 4.5 writes it.
fn signed_bytes(info: &LobbyInfo, filled: u8, ticket: &str, counter: u64) -> Vec<u8> {
    let mut bytes = ANNOUNCE_DOMAIN.to_vec();
    bytes.extend(postcard::to_allocvec(info).unwrap());
    bytes.push(filled);
    bytes.extend(postcard::to_allocvec(ticket).unwrap());
    bytes.extend(postcard::to_allocvec(&counter).unwrap());
    bytes
}

fn refusal(e: AnnounceError) -> &'static str {
    match e {
        AnnounceError::BadSignature => "signature",
        AnnounceError::Ticket(_) => "ticket",
        AnnounceError::OtherHost => "other host",
        AnnounceError::OtherLobby => "other lobby",
        AnnounceError::OtherGame => "other game",
    }
}

fn vectors() -> Value {
    let host = Identity::from_secret(label("announce host"));
    let forger = Identity::from_secret(label("announce forger"));
    let info = LobbyInfo {
        protocol: 1,
        game: "port-royal".into(),
        options: encode(&roundtable_port_royal::Options::default()),
        seats: 3,
        host: host.public(),
        host_name: "alice".into(),
        stall_timeout_ms: 30_000,
        nonce: label("announce nonce"),
    };
    let host_peer = roundtable_net::identity::peer_id_of(&host.public()).unwrap();
    let ticket = Ticket {
        lobby: info.id(),
        game: info.game.clone(),
        host: host.public(),
        addrs: vec![
            format!("/ip4/192.0.2.1/tcp/4001/p2p/{host_peer}")
                .parse()
                .unwrap(),
        ],
    };
    let (filled, counter) = (1u8, 7u64);
    let text = ticket.encode();
    let signed = signed_bytes(&info, filled, &text, counter);
    let announce = Announce::sign(info.clone(), filled, text.clone(), counter, &host);
    assert_eq!(announce.verify(), Ok(ticket.clone()));
    host.public().verify(&signed, &announce.signature).unwrap();

    let mut forged = Vec::new();
    let mut case = |what: &str, a: Announce| {
        let bytes = encode(&a);
        let decoded = decode::<Announce>(&bytes, MAX_ANNOUNCE_BYTES).unwrap();
        let error = decoded.verify().expect_err(what);
        forged.push(json!({
            "what": what,
            "announce": hex::encode(&bytes),
            "refused": refusal(error),
        }));
    };
    let mut other_name = announce.clone();
    other_name.info.host_name = "mallory".into();
    case("a field changed after signing (host_name)", other_name);
    let mut alices_key = info.clone();
    alices_key.host_name = "alice".into();
    let forger_ticket = Ticket {
        host: forger.public(),
        ..ticket.clone()
    };
    case(
        "alice's terms and key, the forger's ticket, signed by the forger",
        Announce::sign(alices_key, filled, forger_ticket.encode(), counter, &forger),
    );
    let forgers_terms = LobbyInfo {
        host: forger.public(),
        ..info.clone()
    };
    case(
        "the forger's terms named alice, alice's ticket, signed by the forger",
        Announce::sign(
            forgers_terms.clone(),
            filled,
            text.clone(),
            counter,
            &forger,
        ),
    );
    let stale = Ticket {
        lobby: forgers_terms.id(),
        host: forger.public(),
        ..ticket.clone()
    };
    let mut other_terms = forgers_terms.clone();
    other_terms.seats = 2;
    case(
        "the forger's ticket for other terms than the ones shown",
        Announce::sign(other_terms, filled, stale.encode(), counter, &forger),
    );
    let other_game = Ticket {
        lobby: forgers_terms.id(),
        host: forger.public(),
        game: "another-game".into(),
        ..ticket.clone()
    };
    case(
        "the forger's ticket for another game",
        Announce::sign(forgers_terms, filled, other_game.encode(), counter, &forger),
    );

    json!({
        "host_secret": hex::encode(host.secret()),
        "host_key": hex::encode(host.public().0),
        "info": {
            "protocol": info.protocol,
            "game": info.game,
            "options": hex::encode(&info.options),
            "seats": info.seats,
            "host_name": info.host_name,
            "stall_timeout_ms": info.stall_timeout_ms,
            "nonce": hex::encode(info.nonce),
            "postcard": hex::encode(encode(&info)),
            "lobby_id": info.id().to_string(),
        },
        "ticket": text,
        "filled": filled,
        "counter": counter,
        "signed_bytes": hex::encode(&signed),
        "signature": hex::encode(announce.signature.0),
        "announce": hex::encode(encode(&announce)),
        "forged": forged,
    })
}

/// Compare freshly built vectors with the file at `path` (first writing
/// them there when `REGENERATE_VECTORS` is set).
pub(crate) fn match_file(path: &std::path::Path, vectors: &Value) {
    let fresh = serde_json::to_string_pretty(vectors).unwrap() + "\n";
    if std::env::var_os("REGENERATE_VECTORS").is_some() {
        std::fs::write(path, &fresh).unwrap();
    }
    let stored =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    assert_eq!(
        stored,
        fresh,
        "the vectors of {} changed; see its test's docs to regenerate",
        path.display()
    );
}

#[test]
fn announce_vectors_match_the_file() {
    match_file(&path(), &vectors());
}
