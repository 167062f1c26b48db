//! Known-answer vectors for the table topic of SPEC 4.2: game ids and the
//! topic each table's envelopes travel on, built here from the spec's rule
//! (`t2/`, then the game id's first 8 bytes in lower-case hex) as well as
//! by the code under test. To regenerate the file after a deliberate
//! protocol change:
//!
//! ```text
//! REGENERATE_VECTORS=1 cargo test -p roundtable-net --test net topic_vectors::
//! ```

use std::path::PathBuf;

use roundtable_net::swarm::{RoundtableTopics, table_topic};
use roundtable_table::GameId;
use serde_json::{Value, json};

use crate::announce_vectors::{label, match_file};

fn path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../protocol/vectors/topic.json")
}

fn vectors() -> Value {
    let games = [
        GameId([0; 32]),
        GameId([0xff; 32]),
        GameId(label("topic game 1")),
        GameId(label("topic game 2")),
    ];
    let tables: Vec<Value> = games
        .iter()
        .map(|game| {
            let by_spec = format!("t2/{}", hex::encode(&game.0[..8]));
            let topic = table_topic(game).hash();
            assert_eq!(topic.as_str(), by_spec, "the topic of {game}");
            assert!(RoundtableTopics::allows(&topic), "{by_spec} is followed");
            json!({ "game_id": game.to_string(), "topic": by_spec })
        })
        .collect();
    json!({ "table_topics": tables })
}

#[test]
fn topic_vectors_match_the_file() {
    match_file(&path(), &vectors());
}
