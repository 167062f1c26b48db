//! A second implementation of the randomness protocol written from
//! `protocol/SPEC.md` alone (SHA-256 from `sha2`, ChaCha20 written out here,
//! no code from this crate), checked against every vector file and against
//! the crate on inputs the vectors do not cover.
//!
//! If the spec leaves anything out, this file is where it shows.

#![allow(missing_docs)]

use std::path::PathBuf;

use serde_json::Value;
use sha2::{Digest, Sha256};

type TestResult = Result<(), Box<dyn std::error::Error>>;

// ---- ChaCha20 (RFC 8439 section 2.3, with the 32-bit counter at word 12 and
// the 96-bit nonce at words 13..16 all zero; the spec's 64-bit counter equals
// it for the first 2^32 blocks).

fn quarter(s: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
    s[a] = s[a].wrapping_add(s[b]);
    s[d] = (s[d] ^ s[a]).rotate_left(16);
    s[c] = s[c].wrapping_add(s[d]);
    s[b] = (s[b] ^ s[c]).rotate_left(12);
    s[a] = s[a].wrapping_add(s[b]);
    s[d] = (s[d] ^ s[a]).rotate_left(8);
    s[c] = s[c].wrapping_add(s[d]);
    s[b] = (s[b] ^ s[c]).rotate_left(7);
}

fn chacha20_block(key: &[u8; 32], counter: u32, nonce: &[u8; 12]) -> [u8; 64] {
    let mut state = [0u32; 16];
    state[0] = 0x6170_7865;
    state[1] = 0x3320_646e;
    state[2] = 0x7962_2d32;
    state[3] = 0x6b20_6574;
    for i in 0..8 {
        state[4 + i] =
            u32::from_le_bytes([key[4 * i], key[4 * i + 1], key[4 * i + 2], key[4 * i + 3]]);
    }
    state[12] = counter;
    for i in 0..3 {
        state[13 + i] = u32::from_le_bytes([
            nonce[4 * i],
            nonce[4 * i + 1],
            nonce[4 * i + 2],
            nonce[4 * i + 3],
        ]);
    }
    let mut w = state;
    for _ in 0..10 {
        quarter(&mut w, 0, 4, 8, 12);
        quarter(&mut w, 1, 5, 9, 13);
        quarter(&mut w, 2, 6, 10, 14);
        quarter(&mut w, 3, 7, 11, 15);
        quarter(&mut w, 0, 5, 10, 15);
        quarter(&mut w, 1, 6, 11, 12);
        quarter(&mut w, 2, 7, 8, 13);
        quarter(&mut w, 3, 4, 9, 14);
    }
    let mut out = [0u8; 64];
    for i in 0..16 {
        out[4 * i..4 * i + 4].copy_from_slice(&w[i].wrapping_add(state[i]).to_le_bytes());
    }
    out
}

/// The sampler as the spec describes it.
struct RefSampler {
    key: [u8; 32],
    block: u32,
    buf: Vec<u8>,
}

impl RefSampler {
    fn new(beacon: [u8; 32]) -> Self {
        RefSampler {
            key: beacon,
            block: 0,
            buf: Vec::new(),
        }
    }

    fn next_u64(&mut self) -> u64 {
        if self.buf.len() < 8 {
            let b = chacha20_block(&self.key, self.block, &[0; 12]);
            self.block += 1;
            self.buf.extend_from_slice(&b);
        }
        let mut w = [0u8; 8];
        w.copy_from_slice(&self.buf[..8]);
        self.buf.drain(..8);
        u64::from_le_bytes(w)
    }

    fn uniform(&mut self, n: u64) -> u64 {
        assert!(n > 0);
        let limit: u128 = (1u128 << 64) - ((1u128 << 64) % u128::from(n));
        loop {
            let v = self.next_u64();
            if u128::from(v) < limit {
                return v % n;
            }
        }
    }

    fn draw(&mut self, counts: &[u32], take: u32) -> Vec<u32> {
        let mut left: Vec<u64> = counts.iter().map(|&c| u64::from(c)).collect();
        let mut total: u64 = left.iter().sum();
        let mut out = Vec::new();
        for _ in 0..take {
            let mut r = self.uniform(total);
            let mut i = 0;
            while r >= left[i] {
                r -= left[i];
                i += 1;
            }
            left[i] -= 1;
            total -= 1;
            out.push(i as u32);
        }
        out
    }
}

fn sha(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

fn ref_chain(seed: &[u8; 32], length: u64) -> Vec<[u8; 32]> {
    let mut links = vec![sha(&[b"roundtable/chain/v1", seed])];
    for j in 0..length as usize {
        let next = sha(&[&links[j]]);
        links.push(next);
    }
    links
}

fn ref_beacon(game_id: &[u8; 32], event: u64, reveals: &[Option<[u8; 32]>]) -> [u8; 32] {
    let forfeited: Vec<String> = reveals
        .iter()
        .enumerate()
        .filter(|(_, r)| r.is_none())
        .map(|(i, _)| i.to_string())
        .collect();
    let mut msg = if forfeited.is_empty() {
        b"roundtable/beacon/v1".to_vec()
    } else {
        format!("roundtable/beacon-forfeited/v1:{};", forfeited.join(",")).into_bytes()
    };
    msg.extend_from_slice(game_id);
    msg.extend_from_slice(&event.to_le_bytes());
    for r in reveals.iter().flatten() {
        msg.extend_from_slice(r);
    }
    sha(&[&msg])
}

fn ref_secret(
    game_id: &[u8; 32],
    seat: u8,
    index: u64,
    choice: &[u8],
    nonce: &[u8; 32],
) -> Vec<u8> {
    let mut msg = b"roundtable/secret/v1".to_vec();
    msg.extend_from_slice(game_id);
    msg.push(seat);
    msg.extend_from_slice(&index.to_le_bytes());
    msg.extend_from_slice(&(choice.len() as u64).to_le_bytes());
    msg.extend_from_slice(choice);
    msg.extend_from_slice(nonce);
    msg
}

// ---- vector plumbing

fn load(name: &str) -> Result<Value, Box<dyn std::error::Error>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../protocol/vectors")
        .join(name);
    Ok(serde_json::from_str(&std::fs::read_to_string(path)?)?)
}

fn h32(v: &Value) -> Result<[u8; 32], Box<dyn std::error::Error>> {
    let bytes = hex::decode(v.as_str().ok_or("not a string")?)?;
    Ok(<[u8; 32]>::try_from(bytes.as_slice())?)
}

fn u(v: &Value) -> Result<u64, Box<dyn std::error::Error>> {
    Ok(v.as_u64().ok_or("not an unsigned integer")?)
}

fn arr(v: &Value) -> Result<&Vec<Value>, Box<dyn std::error::Error>> {
    Ok(v.as_array().ok_or("not an array")?)
}

#[test]
fn chacha20_matches_rfc8439_block_test_vector() -> TestResult {
    // RFC 8439 section 2.3.2.
    let mut key = [0u8; 32];
    for (i, k) in key.iter_mut().enumerate() {
        *k = i as u8;
    }
    let nonce = [0, 0, 0, 9, 0, 0, 0, 0x4a, 0, 0, 0, 0];
    let block = chacha20_block(&key, 1, &nonce);
    assert_eq!(
        hex::encode(block),
        "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e\
         d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e"
    );
    Ok(())
}

#[test]
fn reference_matches_chain_vectors() -> TestResult {
    let file = load("chain.json")?;
    for case in arr(&file["cases"])? {
        let seed = h32(&case["seed"])?;
        let length = u(&case["length"])?;
        let links = ref_chain(&seed, length);
        assert_eq!(links[0], h32(&case["x0"])?);
        assert_eq!(links[length as usize], h32(&case["commitment"])?);
        for r in arr(&case["reveals"])? {
            let k = u(&r["k"])?;
            assert_eq!(links[(length - k) as usize], h32(&r["reveal"])?);
        }
    }
    for check in arr(&file["verify_reveal"])? {
        let ok = sha(&[&h32(&check["reveal"])?]) == h32(&check["previous"])?;
        assert_eq!(Some(ok), check["valid"].as_bool());
    }
    for case in arr(&file["continuations"])? {
        let first_event = u(&case["first_event"])?;
        let length = u(&case["length"])?;
        let seed = sha(&[
            b"roundtable/chain-continuation/v1",
            &h32(&case["genesis_seed"])?,
            &first_event.to_le_bytes(),
        ]);
        assert_eq!(seed, h32(&case["seed"])?);
        let links = ref_chain(&seed, length);
        assert_eq!(links[length as usize], h32(&case["commitment"])?);
        assert_eq!(links[length as usize - 1], h32(&case["first_reveal"])?);
    }
    Ok(())
}

#[test]
fn reference_matches_beacon_vectors() -> TestResult {
    let file = load("beacon.json")?;
    for case in arr(&file["cases"])? {
        let reveals = arr(&case["reveals"])?
            .iter()
            .map(|r| {
                if r.is_null() {
                    Ok(None)
                } else {
                    h32(r).map(Some)
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        let b = ref_beacon(&h32(&case["game_id"])?, u(&case["event"])?, &reveals);
        assert_eq!(b, h32(&case["beacon"])?, "{}", case["what"]);
    }
    Ok(())
}

#[test]
fn reference_matches_stream_uniform_draw_vectors() -> TestResult {
    for case in arr(&load("stream.json")?["cases"])? {
        let mut s = RefSampler::new(h32(&case["beacon"])?);
        for w in arr(&case["words"])? {
            assert_eq!(s.next_u64(), u(w)?);
        }
    }
    let uniform = load("uniform.json")?;
    for case in arr(&uniform["cases"])? {
        let mut s = RefSampler::new(h32(&case["beacon"])?);
        let n = u(&case["n"])?;
        for v in arr(&case["values"])? {
            assert_eq!(s.uniform(n), u(v)?, "n = {n}");
        }
    }
    for case in arr(&uniform["thresholds"])? {
        let n = u128::from(u(&case["n"])?);
        let r = (1u128 << 64) % n;
        assert_eq!(r, u128::from(u(&case["two64_mod_n"])?));
        assert_eq!(
            (1u128 << 64) - r - 1,
            u128::from(u(&case["largest_accepted"])?)
        );
    }
    for case in arr(&uniform["seats"])? {
        let mut s = RefSampler::new(h32(&case["beacon"])?);
        assert_eq!(s.uniform(u(&case["seats"])?), u(&case["seat"])?);
    }
    for case in arr(&load("draw.json")?["cases"])? {
        let counts = arr(&case["counts"])?
            .iter()
            .map(|c| u(c).map(|c| c as u32))
            .collect::<Result<Vec<_>, _>>()?;
        let want = arr(&case["indices"])?
            .iter()
            .map(|c| u(c).map(|c| c as u32))
            .collect::<Result<Vec<_>, _>>()?;
        let mut s = RefSampler::new(h32(&case["beacon"])?);
        assert_eq!(
            s.draw(&counts, u(&case["take"])? as u32),
            want,
            "{}",
            case["what"]
        );
    }
    Ok(())
}

#[test]
fn reference_matches_secret_vectors() -> TestResult {
    for case in arr(&load("secret.json")?["cases"])? {
        let choice = hex::decode(case["choice"].as_str().ok_or("choice")?)?;
        let pre = ref_secret(
            &h32(&case["game_id"])?,
            u(&case["seat"])? as u8,
            u(&case["index"])?,
            &choice,
            &h32(&case["nonce"])?,
        );
        assert_eq!(
            hex::encode(&pre),
            case["preimage"].as_str().ok_or("preimage")?
        );
        assert_eq!(sha(&[&pre]), h32(&case["commitment"])?);
    }
    Ok(())
}

#[test]
fn reference_matches_the_crate_on_many_streams() {
    use roundtable_fairdeck::Sampler;
    // Many beacons and bounds, including long streams that run through
    // several of rand_chacha's 256-byte buffers.
    for i in 0u32..64 {
        let b = sha(&[b"reference/stream", &i.to_le_bytes()]);
        let mut ours = Sampler::new(&b);
        let mut theirs = RefSampler::new(b);
        let n = [1, 2, 3, 6, 52, 120, (1 << 33) + 7, (1 << 63) + 1, u64::MAX][i as usize % 9];
        for _ in 0..100 {
            assert_eq!(ours.uniform(n).ok(), Some(theirs.uniform(n)));
        }
        let counts = [i % 4, 0, 7, 1, i % 3 + 2];
        let total: u32 = counts.iter().sum();
        assert_eq!(
            ours.draw(&counts, total).ok(),
            Some(theirs.draw(&counts, total))
        );
    }
}
