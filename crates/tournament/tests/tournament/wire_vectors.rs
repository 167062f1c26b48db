//! Known answers for the messages of SPEC 6.2: every request and response
//! variant with fixed field values and its postcard bytes (the frame's body
//! of 4.3), in `protocol/vectors/tournament-wire.json`, so another
//! implementation can check its encoder and decoder against ours.
//! Regenerate with `REGENERATE_VECTORS=1 cargo test -p
//! roundtable-tournament --test tournament wire_vectors::`.

use roundtable_tournament::{TourRequest, TourResponse};

fn key(byte: u8) -> [u8; 32] {
    [byte; 32]
}

fn requests() -> Vec<(&'static str, TourRequest)> {
    let round_id = key(0xa1);
    vec![
        ("Arrive", TourRequest::Arrive { round_id }),
        (
            "Opened",
            TourRequest::Opened {
                round_id,
                table: 2,
                ticket: "rt1_example".into(),
            },
        ),
        (
            "Result",
            TourRequest::Result {
                round_id,
                table: 300,
                transcript: vec![0x52, 0x54, 0x53, 0x00, 0xff],
            },
        ),
        (
            "Playing",
            TourRequest::Playing {
                round_id,
                table: 1,
                position: 70_000,
            },
        ),
    ]
}

fn responses() -> Vec<(&'static str, TourResponse)> {
    let seats = vec![key(0x01), key(0x02)];
    vec![
        (
            "Wait",
            TourResponse::Wait {
                table: 3,
                players: seats.clone(),
                arrived: vec![key(0x02)],
                show_up_left_ms: 299_500,
            },
        ),
        (
            "Host",
            TourResponse::Host {
                table: 1,
                seats: seats.clone(),
                nonce: key(0xc3),
            },
        ),
        (
            "Join",
            TourResponse::Join {
                table: 1,
                seats,
                nonce: key(0xc3),
                ticket: "rt1_example".into(),
            },
        ),
        ("Opening", TourResponse::Opening { table: 4 }),
        (
            "Forfeited",
            TourResponse::Forfeited {
                table: 2,
                reason: "not here in time".into(),
            },
        ),
        ("Done", TourResponse::Done { table: 128 }),
        ("Bye", TourResponse::Bye),
        (
            "Refused",
            TourResponse::Refused {
                reason: "not registered".into(),
            },
        ),
        ("Ok", TourResponse::Ok),
        ("GaveUp", TourResponse::GaveUp { table: 5 }),
    ]
}

fn cases<T: serde::Serialize>(list: &[(&str, T)]) -> Vec<serde_json::Value> {
    list.iter()
        .enumerate()
        .map(|(tag, (name, message))| {
            serde_json::json!({
                "variant": name,
                "tag": tag,
                "fields": hexify(serde_json::to_value(message).expect("a message as JSON")),
                "postcard": hex::encode(postcard::to_allocvec(message).expect("encodes")),
            })
        })
        .collect()
}

/// The fields for a reader: byte strings (keys, ids, nonces, a
/// transcript) as hex rather than lists of numbers.
fn hexify(value: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::Array(items)
            if items.len() >= 4 && items.iter().all(|i| i.as_u64().is_some_and(|b| b < 256)) =>
        {
            let bytes: Vec<u8> = items
                .iter()
                .filter_map(|i| i.as_u64().and_then(|b| u8::try_from(b).ok()))
                .collect();
            Value::String(hex::encode(bytes))
        }
        Value::Array(items) => Value::Array(items.into_iter().map(hexify).collect()),
        Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (k, hexify(v))).collect()),
        other => other,
    }
}

fn path() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../protocol/vectors/tournament-wire.json")
}

#[test]
fn tournament_messages_match_the_vectors_file() {
    let fresh = serde_json::to_string_pretty(&serde_json::json!({
        "requests": cases(&requests()),
        "responses": cases(&responses()),
    }))
    .expect("vectors as JSON")
        + "\n";
    if std::env::var_os("REGENERATE_VECTORS").is_some() {
        std::fs::write(path(), &fresh).expect("writes the vectors");
    }
    let stored = std::fs::read_to_string(path()).expect("the vectors file exists");
    assert_eq!(
        stored, fresh,
        "the tournament messages changed; see this module's docs to regenerate"
    );
}

/// Each stored encoding decodes to its variant (its tag is the first
/// byte, as the list in SPEC 6.2 numbers it) and encodes back to the
/// same bytes.
#[test]
fn every_stored_message_decodes_and_encodes_back() {
    let stored: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path()).expect("the vectors file"))
            .expect("JSON");
    for (list, is_request) in [("requests", true), ("responses", false)] {
        for case in stored[list].as_array().expect("a list") {
            let bytes = hex::decode(case["postcard"].as_str().expect("hex")).expect("hex");
            assert_eq!(u64::from(bytes[0]), case["tag"].as_u64().expect("tag"));
            let again = if is_request {
                let m: TourRequest = postcard::from_bytes(&bytes).expect("decodes");
                postcard::to_allocvec(&m)
            } else {
                let m: TourResponse = postcard::from_bytes(&bytes).expect("decodes");
                postcard::to_allocvec(&m)
            }
            .expect("encodes");
            assert_eq!(again, bytes, "{case}");
        }
    }
}
