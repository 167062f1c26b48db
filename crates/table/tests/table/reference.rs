//! A second reading of the envelope encoding, written from
//! `protocol/SPEC.md` 3.1 and 3.4 alone (no type of the table crate is used
//! to decode): every envelope of `protocol/vectors/table.json` is parsed by
//! the grammar, must use every byte, and its signed encoding, signed message,
//! signature and hash must follow from the spec's rules. The vectors are made
//! by the implementation; this test is what ties them to the text a stranger
//! implements from.

use ed25519_dalek::{Signature, VerifyingKey};
use sha2::{Digest, Sha256};

fn unhex(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap()
}

/// A reader of the SPEC 3.1 encoding.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl Reader<'_> {
    fn byte(&mut self) -> u8 {
        let (first, rest) = self.bytes.split_first().expect("a byte");
        self.bytes = rest;
        *first
    }

    fn fixed(&mut self, n: usize) -> Vec<u8> {
        assert!(self.bytes.len() >= n, "{n} bytes");
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        head.to_vec()
    }

    /// Unsigned LEB128, at most 10 bytes, shortest form.
    fn varint(&mut self) -> u64 {
        let mut value = 0u64;
        for i in 0..10 {
            let b = self.byte();
            value |= u64::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                assert!(i == 0 || b != 0, "not the shortest form");
                return value;
            }
        }
        panic!("a varint longer than 10 bytes");
    }

    fn bytes(&mut self) -> Vec<u8> {
        let n = self.varint() as usize;
        self.fixed(n)
    }

    fn option(&mut self) -> bool {
        match self.byte() {
            0 => false,
            1 => true,
            t => panic!("option tag {t}"),
        }
    }
}

/// What the grammar of SPEC 3.4 reads from an `Envelope` encoding.
struct Parsed {
    game_id: Vec<u8>,
    seat: u8,
    seq: u64,
    prev: Vec<u8>,
    position: u64,
    state_hash: Vec<u8>,
    body: u64,
}

fn parse_envelope(bytes: &[u8]) -> Parsed {
    let mut r = Reader { bytes };
    let game_id = r.fixed(32);
    let seat = r.byte();
    let seq = r.varint();
    let prev = r.fixed(32);
    let position = r.varint();
    let state_hash = r.fixed(32);
    let body = r.varint();
    match body {
        0 => {
            r.bytes();
            if r.option() {
                r.varint();
                r.fixed(32);
            }
        }
        1 => {
            r.varint();
            r.fixed(32);
        }
        2 => {
            r.varint();
            r.fixed(32);
        }
        3 => {
            r.varint();
            r.bytes();
            r.fixed(32);
        }
        4 => {
            r.byte();
            r.varint();
        }
        5 => {}
        6 => {
            r.fixed(32);
        }
        7 => {
            r.varint();
            r.varint();
            r.fixed(32);
        }
        t => panic!("body tag {t}"),
    }
    assert!(r.bytes.is_empty(), "{} trailing bytes", r.bytes.len());
    Parsed {
        game_id,
        seat,
        seq,
        prev,
        position,
        state_hash,
        body,
    }
}

fn sha256(parts: &[&[u8]]) -> Vec<u8> {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().to_vec()
}

#[test]
fn every_envelope_vector_follows_the_spec_text() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../protocol/vectors/table.json"),
    )
    .unwrap();
    let vectors: serde_json::Value = serde_json::from_str(&text).unwrap();
    let game_id = unhex(vectors["genesis"]["game_id"].as_str().unwrap());
    let keys: Vec<VerifyingKey> = vectors["genesis"]["seat_order_keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| {
            let bytes: [u8; 32] = unhex(k.as_str().unwrap()).try_into().unwrap();
            VerifyingKey::from_bytes(&bytes).unwrap()
        })
        .collect();
    let cases = vectors["envelopes"].as_array().unwrap();
    assert!(cases.len() >= 3);
    let mut last_hash: Vec<Option<Vec<u8>>> = vec![None; keys.len()];
    let mut bodies = Vec::new();
    for case in cases {
        let field = |name: &str| unhex(case[name].as_str().unwrap());
        let envelope = field("envelope");
        let parsed = parse_envelope(&envelope);
        assert_eq!(parsed.game_id, game_id);
        assert_eq!(u64::from(parsed.seat), case["seat"].as_u64().unwrap());
        assert_eq!(parsed.seq, case["seq"].as_u64().unwrap());
        // `prev` names the seat's previous envelope, zeros for the first.
        let seat = usize::from(parsed.seat);
        match &last_hash[seat] {
            Some(h) if parsed.seq > 0 => assert_eq!(&parsed.prev, h),
            _ => assert_eq!(parsed.prev, vec![0; 32]),
        }
        // A reveal is placed by its event: no position, no state hash.
        if parsed.body == 1 {
            assert_eq!(parsed.position, 0);
            assert_eq!(parsed.state_hash, vec![0; 32]);
        }
        // The signed message, the signature, the signed encoding, the hash.
        let message = [b"roundtable/envelope/v1".as_slice(), &envelope].concat();
        assert_eq!(field("signed_message"), message);
        let signature: [u8; 64] = field("signature").try_into().unwrap();
        keys[seat]
            .verify_strict(&message, &Signature::from_bytes(&signature))
            .unwrap();
        let signed = [envelope.as_slice(), &[64], &signature].concat();
        assert_eq!(field("signed"), signed);
        let hash = sha256(&[b"roundtable/envelope-hash/v1", &signed]);
        assert_eq!(field("hash"), hash);
        last_hash[seat] = Some(hash);
        bodies.push(parsed.body);
    }
    // The vectors show a reveal, an action and a continuation.
    for body in [0, 1, 7] {
        assert!(bodies.contains(&body), "no envelope with body {body}");
    }
}
