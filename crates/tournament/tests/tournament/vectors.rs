//! Known answers for the tournament's constructions (SPEC 6.1): the
//! tournament id of fixed terms and the genesis nonce of several tables,
//! with the exact bytes hashed, so another implementation can check its
//! own. The file is `protocol/vectors/tournament.json`; regenerate it with
//! `REGENERATE_VECTORS=1 cargo test -p roundtable-tournament --test tournament vectors::`.

use std::path::PathBuf;

use roundtable_table::Identity;
use roundtable_tournament::manifest::{TABLE_DOMAIN, TOURNAMENT_DOMAIN};
use roundtable_tournament::{Format, Terms, table_nonce};
use sha2::{Digest, Sha256};

/// `SHA256("roundtable/vectors/" || label)`: inputs that look random.
fn labelled(label: &str) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"roundtable/vectors/");
    h.update(label.as_bytes());
    h.finalize().into()
}

fn path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../protocol/vectors/tournament.json")
}

fn vectors() -> serde_json::Value {
    let director = Identity::from_secret(labelled("tournament-director"));
    let terms = Terms {
        name: "Club night".into(),
        game: "port-royal".into(),
        options: vec![0, 0, 0, 12],
        format: Format::Swiss { rounds: 4 },
        seats_per_table: 4,
        stall_timeout_ms: 120_000,
        show_up_ms: 300_000,
        director: director.public(),
        nonce: labelled("tournament-nonce"),
    };
    let encoded = postcard::to_allocvec(&terms).expect("terms encode");
    let mut preimage = TOURNAMENT_DOMAIN.to_vec();
    preimage.extend_from_slice(&encoded);
    let id = terms.id();
    let tables: Vec<serde_json::Value> = [(1u32, 1u32), (1, 2), (2, 1), (4, 3), (u32::MAX, 65_536)]
        .into_iter()
        .map(|(round, table)| {
            let mut bytes = TABLE_DOMAIN.to_vec();
            bytes.extend_from_slice(&id.0);
            bytes.extend_from_slice(&round.to_le_bytes());
            bytes.extend_from_slice(&table.to_le_bytes());
            serde_json::json!({
                "round": round,
                "table": table,
                "preimage": hex::encode(&bytes),
                "nonce": hex::encode(table_nonce(&id, round, table)),
            })
        })
        .collect();
    serde_json::json!({
        "director_secret": hex::encode(labelled("tournament-director")),
        "terms": serde_json::to_value(&terms).expect("terms as JSON"),
        "terms_postcard": hex::encode(&encoded),
        "tournament_id_preimage": hex::encode(&preimage),
        "tournament_id": id.to_string(),
        "tables": tables,
    })
}

#[test]
fn tournament_vectors_match_the_file() {
    let fresh = serde_json::to_string_pretty(&vectors()).expect("vectors as JSON") + "\n";
    if std::env::var_os("REGENERATE_VECTORS").is_some() {
        std::fs::write(path(), &fresh).expect("writes the vectors");
    }
    let stored = std::fs::read_to_string(path()).expect("protocol/vectors/tournament.json exists");
    assert_eq!(
        stored, fresh,
        "the tournament vectors changed; see this file's docs to regenerate"
    );
}

#[test]
fn every_table_nonce_is_the_hash_of_its_preimage() {
    // Checked from the bytes alone, not through the crate's function.
    let stored: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(path()).expect("protocol/vectors/tournament.json exists"),
    )
    .expect("the vectors are JSON");
    let tables = stored["tables"].as_array().expect("a list of tables");
    assert!(!tables.is_empty());
    for case in tables {
        let preimage = hex::decode(case["preimage"].as_str().expect("hex")).expect("hex");
        let digest: [u8; 32] = Sha256::digest(&preimage).into();
        assert_eq!(hex::encode(digest), case["nonce"].as_str().expect("hex"));
    }
    let preimage =
        hex::decode(stored["tournament_id_preimage"].as_str().expect("hex")).expect("hex");
    let digest: [u8; 32] = Sha256::digest(&preimage).into();
    assert_eq!(
        hex::encode(digest),
        stored["tournament_id"].as_str().expect("hex")
    );
}
