//! Regenerates the known-answer vectors in `protocol/vectors/`.
//!
//! ```text
//! cargo run -p roundtable-fairdeck --example gen_vectors            # writes protocol/vectors/
//! cargo run -p roundtable-fairdeck --example gen_vectors -- DIR     # writes DIR/
//! ```
//!
//! The output is deterministic: every input is either written out literally
//! here or derived as `SHA256("roundtable/vectors/" || label)`, so running it
//! again reproduces the committed files byte for byte (the test
//! `vectors_are_up_to_date` checks exactly that).

use std::path::PathBuf;

use roundtable_fairdeck::{
    ChainSecret, DEFAULT_CHAIN_LENGTH, Sampler, beacon, beacon_domain, chain_start, commit_secret,
    continuation_seed, hex32, secret_preimage, verify_reveal,
};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// A 32-byte input derived from a label, so the vectors look like real data.
fn derived(label: &str) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"roundtable/vectors/");
    h.update(label.as_bytes());
    h.finalize().into()
}

fn counting() -> [u8; 32] {
    let mut b = [0u8; 32];
    for (i, x) in b.iter_mut().enumerate() {
        *x = i as u8;
    }
    b
}

fn hx(b: &[u8; 32]) -> Value {
    Value::String(hex32(b))
}

fn chain_vectors() -> Result<Value, Box<dyn std::error::Error>> {
    let specs: Vec<([u8; 32], u64, Vec<u64>)> = vec![
        ([0u8; 32], 1, vec![1]),
        (counting(), 16, (1..=16).collect()),
        (derived("chain/a"), 100, vec![1, 2, 3, 4, 5, 50, 99, 100]),
        (
            [0xff; 32],
            DEFAULT_CHAIN_LENGTH,
            vec![1, 2, 3, 64, 65, 4095, 4096],
        ),
    ];
    let mut cases = Vec::new();
    for (seed, length, ks) in specs {
        let chain = ChainSecret::new(seed, length)?;
        let mut reveals = Vec::new();
        for k in ks {
            reveals.push(json!({ "k": k, "reveal": hx(&chain.reveal(k)?) }));
        }
        cases.push(json!({
            "seed": hx(&seed),
            "length": length,
            "x0": hx(&chain_start(&seed)),
            "commitment": hx(&chain.commitment()),
            "reveals": reveals,
        }));
    }
    // verify_reveal: a good pair and tampered ones.
    let chain = ChainSecret::new(derived("chain/verify"), 8)?;
    let (c, r1, r2) = (chain.commitment(), chain.reveal(1)?, chain.reveal(2)?);
    let mut flipped = r1;
    flipped[31] ^= 1;
    let mut checks = Vec::new();
    for (what, previous, reveal) in [
        ("reveal 1 against the commitment", c, r1),
        ("reveal 2 against reveal 1", r1, r2),
        ("reveal 2 against the commitment (skips a link)", c, r2),
        ("reveal 1 with its last bit flipped", c, flipped),
        ("the commitment against itself", c, c),
    ] {
        checks.push(json!({
            "what": what,
            "previous": hx(&previous),
            "reveal": hx(&reveal),
            "valid": verify_reveal(&previous, &reveal).is_ok(),
        }));
    }
    // Continuations: the chain from event `first_event` on grows from a
    // seed derived from the genesis seed.
    let mut continuations = Vec::new();
    for (genesis_seed, first_event, length) in [
        ([0u8; 32], 2, 1),
        (counting(), 17, 16),
        ([0xff; 32], DEFAULT_CHAIN_LENGTH + 1, DEFAULT_CHAIN_LENGTH),
    ] {
        let chain = ChainSecret::continued(&genesis_seed, first_event, length)?;
        continuations.push(json!({
            "genesis_seed": hx(&genesis_seed),
            "first_event": first_event,
            "length": length,
            "seed": hx(&continuation_seed(&genesis_seed, first_event)),
            "commitment": hx(&chain.commitment()),
            "first_reveal": hx(&chain.reveal(1)?),
        }));
    }
    Ok(json!({
        "description": "Hash chains: x_0 = SHA256(\"roundtable/chain/v1\" || seed), x_{j+1} = SHA256(x_j), commitment = x_L, reveal k = x_{L-k}. verify_reveal cases: valid iff SHA256(reveal) == previous. continuations: the chain answering events from first_event on has seed SHA256(\"roundtable/chain-continuation/v1\" || genesis_seed || first_event u64 LE); first_reveal answers event first_event.",
        "domain": "roundtable/chain/v1",
        "continuation_domain": "roundtable/chain-continuation/v1",
        "cases": cases,
        "verify_reveal": checks,
        "continuations": continuations,
    }))
}

fn beacon_vectors() -> Result<Value, Box<dyn std::error::Error>> {
    // (label, seats, forfeited seats, event)
    let specs: Vec<(&str, u8, Vec<usize>, u64)> = vec![
        ("2 seats, event 1", 2, vec![], 1),
        ("3 seats, event 2", 3, vec![], 2),
        ("4 seats, event 4096", 4, vec![], 4096),
        ("5 seats, event 2^32 + 5", 5, vec![], (1 << 32) + 5),
        ("3 seats, seat 1 forfeited, event 3", 3, vec![1], 3),
        (
            "5 seats, seats 0 and 3 forfeited, event 7",
            5,
            vec![0, 3],
            7,
        ),
        (
            "2 seats, seat 1 forfeited, event u64::MAX",
            2,
            vec![1],
            u64::MAX,
        ),
        (
            "12 seats, seats 10 and 11 forfeited, event 1",
            12,
            vec![10, 11],
            1,
        ),
    ];
    let mut cases = Vec::new();
    for (label, seats, forfeited, event) in specs {
        let game_id = derived(&format!("beacon/game/{label}"));
        let mut reveals = Vec::new();
        for seat in 0..usize::from(seats) {
            if forfeited.contains(&seat) {
                reveals.push(None);
            } else {
                let chain = ChainSecret::new(derived(&format!("beacon/seat/{seat}")), 8)?;
                reveals.push(Some(chain.reveal(1)?));
            }
        }
        let domain = String::from_utf8(beacon_domain(&reveals))?;
        cases.push(json!({
            "what": label,
            "game_id": hx(&game_id),
            "event": event,
            "reveals": reveals.iter().map(|r| r.as_ref().map_or(Value::Null, hx)).collect::<Vec<_>>(),
            "domain": domain,
            "beacon": hx(&beacon(&game_id, event, &reveals)),
        }));
    }
    Ok(json!({
        "description": "Beacons: SHA256(domain || game_id || event as u64 LE || the reveals of the seats still in, in seat order). reveals lists every seat in seat order; null = forfeited. domain is \"roundtable/beacon/v1\" when nobody forfeited, else \"roundtable/beacon-forfeited/v1:\" + forfeited seat indices (from 0, ascending, decimal, comma-separated) + \";\".",
        "cases": cases,
    }))
}

fn stream_vectors() -> Value {
    let mut cases = Vec::new();
    for (label, key) in [
        ("zero key", [0u8; 32]),
        ("counting key", counting()),
        ("derived", derived("stream/a")),
    ] {
        let mut s = Sampler::new(&key);
        // 40 words = 320 bytes: crosses the 64-byte ChaCha block boundary and
        // the 256-byte buffer rand_chacha fills at once.
        let words: Vec<u64> = (0..40).map(|_| s.next_word()).collect();
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        cases.push(json!({
            "what": label,
            "beacon": hx(&key),
            "keystream": hex::encode(&bytes[..128]),
            "words": words,
        }));
    }
    json!({
        "description": "The sampler's raw stream: ChaCha20 (20 rounds) keyed by the beacon, block counter from 0, nonce 0; keystream = the first 128 bytes; words = the first 40 next_u64 values (keystream read 8 bytes at a time, little-endian).",
        "cases": cases,
    })
}

fn uniform_vectors() -> Result<Value, Box<dyn std::error::Error>> {
    let bounds: [(&str, u64); 11] = [
        ("1", 1),
        ("2", 2),
        ("3", 3),
        ("5", 5),
        ("7", 7),
        ("120", 120),
        ("2^32+1", (1 << 32) + 1),
        ("2^63", 1 << 63),
        ("2^63+1", (1 << 63) + 1),
        ("2^64-1", u64::MAX),
        ("3*2^62", 3 << 62),
    ];
    let mut cases = Vec::new();
    for (name, n) in bounds {
        let b = derived(&format!("uniform/{name}"));
        let mut s = Sampler::new(&b);
        let values = (0..16)
            .map(|_| s.uniform(n))
            .collect::<Result<Vec<_>, _>>()?;
        let used = s.words_used();
        let mut raw = Sampler::new(&b);
        let words: Vec<u64> = (0..used).map(|_| raw.next_word()).collect();
        cases.push(json!({
            "n_name": name,
            "n": n,
            "beacon": hx(&b),
            "values": values,
            "words": words,
            "rejected": used - 16,
        }));
    }
    // The rejection threshold itself, for every bound: words up to
    // `largest_accepted` are accepted, larger ones rejected.
    let thresholds: Vec<Value> = bounds
        .iter()
        .map(|&(name, n)| {
            let excess = n.wrapping_neg() % n;
            json!({ "n_name": name, "n": n, "two64_mod_n": excess, "largest_accepted": excess.wrapping_neg().wrapping_sub(1) })
        })
        .collect();
    let mut seats = Vec::new();
    for n in 1..=5u8 {
        for i in 0..3 {
            let b = derived(&format!("seat/{n}/{i}"));
            seats.push(
                json!({ "seats": n, "beacon": hx(&b), "seat": Sampler::new(&b).pick_seat(n)? }),
            );
        }
    }
    Ok(json!({
        "description": "Uniform integers: from one sampler per beacon, 16 successive uniform(n) values. words = every raw next_u64 word consumed, accepted or rejected; a word v is accepted iff v < 2^64 - (2^64 mod n), giving v mod n. thresholds: r = 2^64 mod n and the largest accepted word 2^64 - r - 1. seats: pick_seat(seats) = uniform(seats) as the first draw of a fresh sampler.",
        "cases": cases,
        "thresholds": thresholds,
        "seats": seats,
    }))
}

fn draw_vectors() -> Result<Value, Box<dyn std::error::Error>> {
    // A Port Royal-like catalog: 120 cards over 30 entries.
    let port_royal: Vec<u32> = (0..30u32)
        .map(|i| [2, 3, 4, 5, 6][i as usize % 5])
        .collect();
    let specs: Vec<(&str, Vec<u32>, u32)> = vec![
        ("issue example", vec![3, 0, 2, 5], 3),
        ("take everything", vec![3, 0, 2, 5], 10),
        ("take nothing", vec![3, 0, 2, 5], 0),
        ("empty multiset", vec![], 0),
        ("one entry", vec![4], 4),
        ("a permutation of 8 distinct cards", vec![1; 8], 8),
        ("zeros around", vec![0, 0, 1, 0, 0, 1, 0], 2),
        ("port royal deck, 5 cards", port_royal.clone(), 5),
        ("port royal deck, 40 cards", port_royal, 40),
        ("huge counts", vec![u32::MAX, 1, u32::MAX], 6),
    ];
    let mut cases = Vec::new();
    for (label, counts, take) in specs {
        let b = derived(&format!("draw/{label}"));
        let mut s = Sampler::new(&b);
        let indices = s.draw(&counts, take)?;
        cases.push(json!({
            "what": label,
            "beacon": hx(&b),
            "counts": counts,
            "take": take,
            "indices": indices,
            "words_used": s.words_used(),
        }));
    }
    Ok(json!({
        "description": "Draws without replacement from a multiset (counts per catalog index) with a fresh sampler per beacon: for each draw r = uniform(cards left), walk the counts in catalog order subtracting each count until r < count, draw that index, decrement its count. indices are catalog indices in draw order.",
        "cases": cases,
    }))
}

fn secret_vectors() -> Value {
    let specs: Vec<(&str, u8, u64, Vec<u8>)> = vec![
        ("empty choice", 0, 0, vec![]),
        ("one byte", 1, 1, vec![7]),
        ("text choice, seat 4", 4, 2, b"crew:3,5".to_vec()),
        ("large index", 2, 1 << 40, vec![0; 40]),
        (
            "seat 255, index u64::MAX",
            255,
            u64::MAX,
            (0..=255).collect(),
        ),
    ];
    let mut cases = Vec::new();
    for (label, seat, index, choice) in specs {
        let game_id = derived(&format!("secret/game/{label}"));
        let nonce = derived(&format!("secret/nonce/{label}"));
        cases.push(json!({
            "what": label,
            "game_id": hx(&game_id),
            "seat": seat,
            "index": index,
            "choice": hex::encode(&choice),
            "nonce": hx(&nonce),
            "preimage": hex::encode(secret_preimage(&game_id, seat, index, &choice, &nonce)),
            "commitment": hx(&commit_secret(&game_id, seat, index, &choice, &nonce)),
        }));
    }
    json!({
        "description": "Secret-choice commitments: SHA256(\"roundtable/secret/v1\" || game_id (32) || seat (u8) || index (u64 LE) || len(choice) (u64 LE) || choice || nonce (32)). preimage = the exact hashed bytes.",
        "domain": "roundtable/secret/v1",
        "cases": cases,
    })
}

/// `value` with every object's keys in sorted order, so the files come out
/// the same whether or not some crate in the build enables serde_json's
/// `preserve_order` feature.
fn sorted(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sorted).collect()),
        other => other,
    }
}

/// Every vector file as (file name, contents).
pub(crate) fn generate() -> Result<Vec<(&'static str, String)>, Box<dyn std::error::Error>> {
    let files = vec![
        ("chain.json", chain_vectors()?),
        ("beacon.json", beacon_vectors()?),
        ("stream.json", stream_vectors()),
        ("uniform.json", uniform_vectors()?),
        ("draw.json", draw_vectors()?),
        ("secret.json", secret_vectors()),
    ];
    let mut out = Vec::new();
    for (name, value) in files {
        let mut text = serde_json::to_string_pretty(&sorted(value))?;
        text.push('\n');
        out.push((name, text));
    }
    Ok(out)
}

#[allow(dead_code)]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = match std::env::args_os().nth(1) {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../protocol/vectors"),
    };
    std::fs::create_dir_all(&dir)?;
    for (name, text) in generate()? {
        let path = dir.join(name);
        std::fs::write(&path, text)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
