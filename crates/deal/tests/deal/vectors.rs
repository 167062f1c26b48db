//! The known-answer vectors of SPEC part 5, `protocol/vectors/deal.json`.
//!
//! The file is generated here from a seeded random source (so it is
//! reproduced byte for byte) and checked two ways: by this crate, and by a
//! second verifier written from SPEC part 5 alone (module `reference`,
//! plain curve arithmetic on curve25519-dalek and SHA-512, no type or
//! function of this crate), which also writes out every intermediate value
//! a stranger's implementation can compare against.
//!
//! ```text
//! cargo test -p roundtable-deal --test deal vectors::
//! REGENERATE_VECTORS=1 cargo test -p roundtable-deal --test deal vectors::
//! ```

#![allow(missing_docs)]

use std::path::PathBuf;

use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use roundtable_deal::{
    CardTable, Context, Deck, DeckKey, DecryptionShare, KeyShare, KeyShareMessage, SecretShare,
    ShuffleMessage, open_card, own_share,
};
use serde_json::{Value, json};

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// Verification from SPEC part 5 alone.
mod reference {
    use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoPoint};
    use curve25519_dalek::scalar::Scalar;
    use curve25519_dalek::traits::Identity;
    use sha2::{Digest, Sha512};

    pub(super) type Error = Box<dyn std::error::Error>;

    pub(super) fn sha512(parts: &[&[u8]]) -> [u8; 64] {
        let mut h = Sha512::new();
        for p in parts {
            h.update(p);
        }
        h.finalize().into()
    }

    /// SPEC 5.2: SHA-512 of the input, then the RFC 9496 element derivation.
    pub(super) fn hash_to_point(input: &[u8]) -> RistrettoPoint {
        RistrettoPoint::from_uniform_bytes(&sha512(&[input]))
    }

    /// SPEC 5.2: a challenge is the 64-byte SHA-512 digest, little-endian, mod ℓ.
    pub(super) fn challenge(parts: &[&[u8]]) -> Scalar {
        Scalar::from_bytes_mod_order_wide(&sha512(parts))
    }

    pub(super) fn generator(k: u32) -> RistrettoPoint {
        let mut input = b"roundtable/deal/generator/v1".to_vec();
        input.extend_from_slice(&k.to_le_bytes());
        hash_to_point(&input)
    }

    pub(super) fn point(bytes: &[u8]) -> Result<RistrettoPoint, Error> {
        let array: [u8; 32] = bytes.try_into()?;
        CompressedRistretto(array)
            .decompress()
            .ok_or_else(|| "not a canonical point".into())
    }

    pub(super) fn scalar(bytes: &[u8]) -> Result<Scalar, Error> {
        let array: [u8; 32] = bytes.try_into()?;
        Option::from(Scalar::from_canonical_bytes(array))
            .ok_or_else(|| "not a canonical scalar".into())
    }

    pub(super) fn enc(p: &RistrettoPoint) -> [u8; 32] {
        p.compress().to_bytes()
    }

    fn sum(terms: &[(Scalar, RistrettoPoint)]) -> RistrettoPoint {
        terms
            .iter()
            .fold(RistrettoPoint::identity(), |acc, (s, p)| acc + s * p)
    }

    /// SPEC 5.5: returns the recomputed commitment T and whether c matches.
    pub(super) fn key_share(context: &[u8], message: &[u8]) -> Result<([u8; 32], bool), Error> {
        if message.len() != 96 {
            return Err("a key share message is 96 bytes".into());
        }
        let x = point(&message[..32])?;
        let c = scalar(&message[32..64])?;
        let s = scalar(&message[64..])?;
        let t = enc(&sum(&[(s, generator(0)), (-c, x)]));
        let expected = challenge(&[b"roundtable/deal/key-share/v1", context, &message[..32], &t]);
        Ok((t, expected == c && x != RistrettoPoint::identity()))
    }

    /// SPEC 5.7: returns T1, T2 and whether c matches.
    pub(super) fn decryption_share(
        context: &[u8],
        slot: u32,
        key_share: &[u8],
        ciphertext: &[u8],
        message: &[u8],
    ) -> Result<([u8; 32], [u8; 32], bool), Error> {
        if message.len() != 96 || ciphertext.len() != 64 {
            return Err("a decryption share is 96 bytes, a ciphertext 64".into());
        }
        let x = point(key_share)?;
        let a = point(&ciphertext[..32])?;
        let d = point(&message[..32])?;
        let c = scalar(&message[32..64])?;
        let s = scalar(&message[64..])?;
        let t1 = enc(&sum(&[(s, generator(0)), (-c, x)]));
        let t2 = enc(&sum(&[(s, a), (-c, d)]));
        let expected = challenge(&[
            b"roundtable/deal/decryption-share/v1",
            context,
            &slot.to_le_bytes(),
            key_share,
            ciphertext,
            &message[..32],
            &t1,
            &t2,
        ]);
        Ok((t1, t2, expected == c))
    }

    /// Every value SPEC 5.6's verification computes.
    pub(super) struct ShuffleTrace {
        pub(super) statement: [u8; 64],
        pub(super) u_seed: [u8; 64],
        pub(super) u: Vec<Scalar>,
        pub(super) t: [[u8; 32]; 5],
        pub(super) t_hat: Vec<[u8; 32]>,
        pub(super) challenge: Scalar,
        pub(super) valid: bool,
    }

    /// SPEC 5.6, step by step, with plain sums.
    pub(super) fn shuffle(
        context: &[u8],
        key: &[u8],
        input: &[u8],
        message: &[u8],
    ) -> Result<ShuffleTrace, Error> {
        let n = usize::from(u16::from_le_bytes([message[0], message[1]]));
        if n == 0
            || message.len() != 192 * n + 162
            || input.len() != 2 + 64 * n
            || input[..2] != message[..2]
        {
            return Err("lengths do not match the card count".into());
        }
        let k = point(key)?;
        let out_start = 2;
        let c_start = out_start + 64 * n;
        let chain_start = c_start + 32 * n;
        let scalars_start = chain_start + 32 * n;
        let chunk = |start: usize, i: usize| &message[start + 32 * i..start + 32 * (i + 1)];
        let points = |bytes: &[u8]| -> Result<Vec<RistrettoPoint>, Error> {
            bytes.chunks(32).map(point).collect()
        };
        let in_points = points(&input[2..])?; // A_0, B_0, A_1, B_1, ...
        let out_points = points(&message[out_start..c_start])?;
        let commitments = points(&message[c_start..chain_start])?;
        let chain = points(&message[chain_start..scalars_start])?;
        let c = scalar(chunk(scalars_start, 0))?;
        let s: Vec<Scalar> = (1..5)
            .map(|i| scalar(chunk(scalars_start, i)))
            .collect::<Result<_, _>>()?;
        let s_hat: Vec<Scalar> = (0..n)
            .map(|i| scalar(chunk(scalars_start, 5 + i)))
            .collect::<Result<_, _>>()?;
        let s_prime: Vec<Scalar> = (0..n)
            .map(|i| scalar(chunk(scalars_start, 5 + n + i)))
            .collect::<Result<_, _>>()?;

        let statement = sha512(&[
            b"roundtable/deal/shuffle-statement/v1",
            context,
            key,
            &input[..2],
            &input[2..],
            &message[out_start..c_start],
        ]);
        let u_seed = sha512(&[
            b"roundtable/deal/shuffle-u-seed/v1",
            &statement,
            &message[c_start..chain_start],
        ]);
        let u: Vec<Scalar> = (0..n as u32)
            .map(|j| challenge(&[b"roundtable/deal/shuffle-u/v1", &u_seed, &j.to_le_bytes()]))
            .collect();
        let g = generator(0);
        let h = generator(1);
        let h_i: Vec<RistrettoPoint> = (0..n as u32).map(|i| generator(2 + i)).collect();

        let c_bar = commitments
            .iter()
            .fold(RistrettoPoint::identity(), |a, p| a + p)
            - h_i.iter().fold(RistrettoPoint::identity(), |a, p| a + p);
        let u_product = u.iter().fold(Scalar::ONE, |a, x| a * x);
        let c_hat = chain[n - 1] - u_product * h;
        let t1 = c * c_bar + s[0] * g;
        let t2 = c * c_hat + s[1] * g;
        let mut t3 = s[2] * g;
        let mut t4a = -s[3] * g;
        let mut t4b = -s[3] * k;
        for j in 0..n {
            t3 += c * u[j] * commitments[j] + s_prime[j] * h_i[j];
            t4a += c * u[j] * in_points[2 * j] + s_prime[j] * out_points[2 * j];
            t4b += c * u[j] * in_points[2 * j + 1] + s_prime[j] * out_points[2 * j + 1];
        }
        let t_hat: Vec<[u8; 32]> = (0..n)
            .map(|i| {
                let previous = if i == 0 { h } else { chain[i - 1] };
                enc(&(c * chain[i] + s_hat[i] * g + s_prime[i] * previous))
            })
            .collect();
        let t = [enc(&t1), enc(&t2), enc(&t3), enc(&t4a), enc(&t4b)];
        let mut parts: Vec<&[u8]> = vec![
            b"roundtable/deal/shuffle-challenge/v1",
            &statement,
            &message[c_start..scalars_start],
        ];
        parts.extend(t.iter().map(|x| x.as_slice()));
        parts.extend(t_hat.iter().map(|x| x.as_slice()));
        let expected = challenge(&parts);
        Ok(ShuffleTrace {
            statement,
            u_seed,
            u,
            t,
            t_hat,
            challenge: expected,
            valid: expected == c,
        })
    }
}

const GAME_LABEL: &str = "deal game";
const SEATS: u8 = 3;
const DECK_SIZE: u32 = 5;

fn derived(label: &str) -> [u8; 32] {
    let digest = reference::sha512(&[b"roundtable/vectors/", label.as_bytes()]);
    let mut out = [0u8; 32];
    out.copy_from_slice(&digest[..32]);
    out
}

fn hx(bytes: &[u8]) -> Value {
    Value::String(hex::encode(bytes))
}

fn context(epoch: u32, seat: u8) -> Context {
    Context {
        game_id: derived(GAME_LABEL),
        epoch,
        seat,
    }
}

/// The whole file, from a seeded random source.
fn vectors() -> Result<Value, Box<dyn std::error::Error>> {
    let game_id = derived(GAME_LABEL);
    let mut rng = ChaCha20Rng::from_seed(derived("deal rng"));

    let generators: Vec<Value> = [0u32, 1, 2, 3, 513]
        .iter()
        .map(|&k| {
            let mut input = b"roundtable/deal/generator/v1".to_vec();
            input.extend_from_slice(&k.to_le_bytes());
            json!({
                "index": k,
                "input": hx(&input),
                "sha512": hx(&reference::sha512(&[&input])),
                "point": hx(&roundtable_deal::generator(k).compress().to_bytes()),
            })
        })
        .collect();
    let cards: Vec<Value> = (0..DECK_SIZE)
        .map(|i| {
            let mut input = b"roundtable/deal/card/v1".to_vec();
            input.extend_from_slice(&game_id);
            input.extend_from_slice(&i.to_le_bytes());
            json!({
                "index": i,
                "input": hx(&input),
                "point": hx(&roundtable_deal::card_point(&game_id, i).compress().to_bytes()),
            })
        })
        .collect();

    // Keys.
    let secrets: Vec<SecretShare> = (0..SEATS)
        .map(|_| SecretShare::generate(&mut rng))
        .collect();
    let mut key_shares = Vec::new();
    let mut keys = Vec::new();
    for seat in 0..SEATS {
        let ctx = context(0, seat);
        let message =
            KeyShareMessage::prove(&ctx, &secrets[usize::from(seat)], &mut rng).to_bytes();
        let (t, valid) = reference::key_share(&ctx.to_bytes(), &message)?;
        assert!(valid, "the reference accepts the honest key share");
        key_shares.push(KeyShareMessage::from_bytes(&message)?.verify(&ctx)?);
        keys.push(json!({
            "seat": seat,
            "context": hx(&ctx.to_bytes()),
            "message": hx(&message),
            "commitment": hx(&t),
            "secret": hx(&secrets[usize::from(seat)].to_bytes()),
        }));
    }
    let key = DeckKey::combine(&key_shares)?;

    // Three shuffles of the open deck.
    let all: Vec<u32> = (0..DECK_SIZE).collect();
    let open_deck = Deck::open(&game_id, &all)?;
    let mut deck = open_deck.clone();
    let mut shuffles = Vec::new();
    for seat in 0..SEATS {
        let ctx = context(0, seat);
        let message =
            ShuffleMessage::shuffle(&ctx, &key, &deck, &secrets[usize::from(seat)], &mut rng);
        let bytes = message.to_bytes();
        let trace = reference::shuffle(&ctx.to_bytes(), &key.to_bytes(), &deck.to_bytes(), &bytes)?;
        assert!(trace.valid, "the reference accepts the honest shuffle");
        shuffles.push(json!({
            "seat": seat,
            "context": hx(&ctx.to_bytes()),
            "input": hx(&deck.to_bytes()),
            "message": hx(&bytes),
            "statement_digest": hx(&trace.statement),
            "u_seed": hx(&trace.u_seed),
            "u": trace.u.iter().map(|u| hx(u.as_bytes())).collect::<Vec<_>>(),
            "t1_t2_t3_t4a_t4b": trace.t.iter().map(|t| hx(t)).collect::<Vec<_>>(),
            "t_hat": trace.t_hat.iter().map(|t| hx(t)).collect::<Vec<_>>(),
            "challenge": hx(trace.challenge.as_bytes()),
        }));
        deck = message.verify(&ctx, &key, &deck)?.clone();
    }

    // Every slot opened: the shares of all three seats with their proofs.
    let table = CardTable::new(&game_id, DECK_SIZE)?;
    let mut openings = Vec::new();
    for slot in 0..DECK_SIZE {
        let ciphertext = deck.get(slot)?;
        let mut shares = Vec::new();
        let mut points = Vec::new();
        for seat in 0..SEATS {
            let ctx = context(0, seat);
            let share = DecryptionShare::prove(
                &ctx,
                slot,
                &secrets[usize::from(seat)],
                ciphertext,
                &mut rng,
            );
            let bytes = share.to_bytes();
            let (t1, t2, valid) = reference::decryption_share(
                &ctx.to_bytes(),
                slot,
                &key_shares[usize::from(seat)].to_bytes(),
                &ciphertext.to_bytes(),
                &bytes,
            )?;
            assert!(valid, "the reference accepts the honest share");
            points.push(own_share(&secrets[usize::from(seat)], ciphertext));
            shares.push(json!({
                "seat": seat,
                "context": hx(&ctx.to_bytes()),
                "share": hx(&bytes),
                "t1": hx(&t1),
                "t2": hx(&t2),
            }));
        }
        let card = open_card(ciphertext, &points, &table)?;
        openings.push(json!({
            "slot": slot,
            "ciphertext": hx(&ciphertext.to_bytes()),
            "shares": shares,
            "card": card,
        }));
    }

    // Rejections, each with the rule the crate names.
    let ctx0 = context(0, 0);
    let key_message = hex::decode(keys[0]["message"].as_str().ok_or("message")?)?;
    let first_shuffle = hex::decode(shuffles[0]["message"].as_str().ok_or("message")?)?;
    let mut flipped_challenge = key_message.clone();
    flipped_challenge[32] ^= 1;
    let mut order = [0u8; 32];
    order.copy_from_slice(&hex::decode(
        "edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010",
    )?);
    let mut scalar_at_order = key_message.clone();
    scalar_at_order[64..].copy_from_slice(&order);
    let mut high_bit_point = key_message.clone();
    high_bit_point[31] |= 0x80;
    let mut swapped = first_shuffle.clone();
    let (a, b) = (swapped[2..66].to_vec(), swapped[66..130].to_vec());
    swapped[2..66].copy_from_slice(&b);
    swapped[66..130].copy_from_slice(&a);
    let rejections = vec![
        rejection_key("a flipped challenge bit", &ctx0, &flipped_challenge),
        rejection_key(
            "the proof of seat 0 presented as seat 1's",
            &context(0, 1),
            &key_message,
        ),
        rejection_key(
            "a response equal to the group order",
            &ctx0,
            &scalar_at_order,
        ),
        rejection_key("a key share with its top bit set", &ctx0, &high_bit_point),
        rejection_key("95 bytes", &ctx0, &key_message[..95]),
        rejection_shuffle(
            "output slots 0 and 1 swapped",
            &ctx0,
            &key,
            &open_deck,
            &swapped,
        ),
        rejection_shuffle(
            "one byte missing",
            &ctx0,
            &key,
            &open_deck,
            &first_shuffle[..first_shuffle.len() - 1],
        ),
        rejection_shuffle(
            "seat 0's shuffle checked as epoch 1's",
            &context(1, 0),
            &key,
            &open_deck,
            &first_shuffle,
        ),
    ];

    Ok(json!({
        "about": "SPEC part 5 (private cards): generators, card points, key shares, shuffles, decryption shares, key release, rejections. Every input that looks random comes from ChaCha20 seeded with SHA-512(\"roundtable/vectors/deal rng\")[..32]; the game id is SHA-512(\"roundtable/vectors/deal game\")[..32].",
        "game_id": hx(&game_id),
        "generators": generators,
        "cards": cards,
        "key_shares": keys,
        "deck_key": hx(&key.to_bytes()),
        "open_deck": hx(&open_deck.to_bytes()),
        "shuffles": shuffles,
        "final_deck": hx(&deck.to_bytes()),
        "openings": openings,
        "rejections": rejections,
    }))
}

fn rejection_key(case: &str, ctx: &Context, bytes: &[u8]) -> Value {
    let error = KeyShareMessage::from_bytes(bytes)
        .and_then(|m| m.verify(ctx))
        .err()
        .map(|e| e.to_string());
    json!({
        "case": case,
        "kind": "key share",
        "context": hx(&ctx.to_bytes()),
        "message": hx(bytes),
        "rule": error,
    })
}

fn rejection_shuffle(
    case: &str,
    ctx: &Context,
    key: &DeckKey,
    input: &Deck,
    bytes: &[u8],
) -> Value {
    let error = ShuffleMessage::from_bytes(bytes)
        .and_then(|m| m.verify(ctx, key, input).map(|_| ()))
        .err()
        .map(|e| e.to_string());
    json!({
        "case": case,
        "kind": "shuffle",
        "context": hx(&ctx.to_bytes()),
        "input": hx(&input.to_bytes()),
        "message": hx(bytes),
        "rule": error,
    })
}

fn path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../protocol/vectors/deal.json")
}

#[test]
fn vectors_match_the_file() -> TestResult {
    let fresh = serde_json::to_string_pretty(&vectors()?)? + "\n";
    if std::env::var_os("REGENERATE_VECTORS").is_some() {
        std::fs::write(path(), &fresh)?;
    }
    let stored = std::fs::read_to_string(path())?;
    assert!(
        stored == fresh,
        "protocol/vectors/deal.json differs from the generator's output; see this file's docs to regenerate"
    );
    Ok(())
}

/// HashToPoint's map is RFC 9496's element derivation: the example of
/// libsodium's `crypto_core_ristretto255_from_hash` (the same map) gives
/// the same point here.
#[test]
fn the_map_is_rfc_9496_element_derivation() -> TestResult {
    let uniform: [u8; 64] = hex::decode(
        "5d1be09e3d0c82fc538112490e35701979d99e06ca3e2b5b54bffe8b4dc772c1\
         4d98b696a1bbfb5ca32c436cc61c16563790306c79eaca7705668b47dffe5bb6",
    )?
    .as_slice()
    .try_into()?;
    let point = curve25519_dalek::ristretto::RistrettoPoint::from_uniform_bytes(&uniform);
    assert_eq!(
        hex::encode(point.compress().as_bytes()),
        "3066f82a1a747d45120d1740f14358531a8f04bbffe6a819f86dfe50f44a0a46"
    );
    Ok(())
}

fn bytes_of(v: &Value) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    Ok(hex::decode(v.as_str().ok_or("not a string")?)?)
}

fn context_of(v: &Value) -> Result<Context, Box<dyn std::error::Error>> {
    let b = bytes_of(v)?;
    if b.len() != 37 {
        return Err("a context is 37 bytes".into());
    }
    Ok(Context {
        game_id: b[..32].try_into()?,
        epoch: u32::from_le_bytes(b[32..36].try_into()?),
        seat: b[36],
    })
}

/// Reads the stored file (not the generator) and checks every case with the
/// crate and with the reference.
#[test]
fn stored_vectors_verify_both_ways() -> TestResult {
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path())?)?;
    let game_id: [u8; 32] = bytes_of(&v["game_id"])?.as_slice().try_into()?;
    for g in v["generators"].as_array().ok_or("generators")? {
        let k = u32::try_from(g["index"].as_u64().ok_or("index")?)?;
        let point = bytes_of(&g["point"])?;
        assert_eq!(
            reference::enc(&reference::hash_to_point(&bytes_of(&g["input"])?)).to_vec(),
            point
        );
        assert_eq!(
            roundtable_deal::generator(k).compress().to_bytes().to_vec(),
            point
        );
    }
    for c in v["cards"].as_array().ok_or("cards")? {
        let i = u32::try_from(c["index"].as_u64().ok_or("index")?)?;
        let point = bytes_of(&c["point"])?;
        assert_eq!(
            reference::enc(&reference::hash_to_point(&bytes_of(&c["input"])?)).to_vec(),
            point
        );
        assert_eq!(
            roundtable_deal::card_point(&game_id, i)
                .compress()
                .to_bytes()
                .to_vec(),
            point
        );
    }
    let mut shares: Vec<KeyShare> = Vec::new();
    for k in v["key_shares"].as_array().ok_or("key shares")? {
        let ctx = context_of(&k["context"])?;
        let message = bytes_of(&k["message"])?;
        let (t, valid) = reference::key_share(&ctx.to_bytes(), &message)?;
        assert!(valid);
        assert_eq!(t.to_vec(), bytes_of(&k["commitment"])?);
        let share = KeyShareMessage::from_bytes(&message)?.verify(&ctx)?;
        // Key release: the stored secret matches the share.
        share.verify_release(&bytes_of(&k["secret"])?)?;
        shares.push(share);
    }
    let key = DeckKey::combine(&shares)?;
    assert_eq!(key.to_bytes().to_vec(), bytes_of(&v["deck_key"])?);
    let mut deck = Deck::from_bytes(&bytes_of(&v["open_deck"])?)?;
    for s in v["shuffles"].as_array().ok_or("shuffles")? {
        let ctx = context_of(&s["context"])?;
        let message = bytes_of(&s["message"])?;
        assert_eq!(deck.to_bytes(), bytes_of(&s["input"])?);
        let trace =
            reference::shuffle(&ctx.to_bytes(), &key.to_bytes(), &deck.to_bytes(), &message)?;
        assert!(trace.valid);
        assert_eq!(trace.statement.to_vec(), bytes_of(&s["statement_digest"])?);
        assert_eq!(
            trace.t_hat.len(),
            s["t_hat"].as_array().ok_or("t_hat")?.len()
        );
        deck = ShuffleMessage::from_bytes(&message)?
            .verify(&ctx, &key, &deck)?
            .clone();
    }
    assert_eq!(deck.to_bytes(), bytes_of(&v["final_deck"])?);
    let table = CardTable::new(
        &game_id,
        u32::try_from(v["cards"].as_array().ok_or("cards")?.len())?,
    )?;
    let mut opened = Vec::new();
    for o in v["openings"].as_array().ok_or("openings")? {
        let slot = u32::try_from(o["slot"].as_u64().ok_or("slot")?)?;
        let ciphertext = deck.get(slot)?;
        assert_eq!(ciphertext.to_bytes().to_vec(), bytes_of(&o["ciphertext"])?);
        let mut points = Vec::new();
        for (seat, s) in o["shares"].as_array().ok_or("shares")?.iter().enumerate() {
            let ctx = context_of(&s["context"])?;
            let bytes = bytes_of(&s["share"])?;
            let (_, _, valid) = reference::decryption_share(
                &ctx.to_bytes(),
                slot,
                &shares[seat].to_bytes(),
                &ciphertext.to_bytes(),
                &bytes,
            )?;
            assert!(valid);
            points.push(DecryptionShare::from_bytes(&bytes)?.verify(
                &ctx,
                slot,
                &shares[seat],
                ciphertext,
            )?);
        }
        let card = open_card(ciphertext, &points, &table)?;
        assert_eq!(u64::from(card), o["card"].as_u64().ok_or("card")?);
        opened.push(card);
    }
    opened.sort();
    assert_eq!(opened, (0..table.size()).collect::<Vec<_>>());
    let open_deck = Deck::from_bytes(&bytes_of(&v["open_deck"])?)?;
    for r in v["rejections"].as_array().ok_or("rejections")? {
        let ctx = context_of(&r["context"])?;
        let message = bytes_of(&r["message"])?;
        let rule = r["rule"].as_str().ok_or("every rejection names its rule")?;
        let (crate_error, reference_ok) = match r["kind"].as_str() {
            Some("key share") => (
                KeyShareMessage::from_bytes(&message)
                    .and_then(|m| m.verify(&ctx))
                    .err(),
                reference::key_share(&ctx.to_bytes(), &message).is_ok_and(|(_, ok)| ok),
            ),
            Some("shuffle") => (
                ShuffleMessage::from_bytes(&message)
                    .and_then(|m| m.verify(&ctx, &key, &open_deck).map(|_| ()))
                    .err(),
                reference::shuffle(
                    &ctx.to_bytes(),
                    &key.to_bytes(),
                    &open_deck.to_bytes(),
                    &message,
                )
                .is_ok_and(|t| t.valid),
            ),
            _ => return Err("unknown rejection kind".into()),
        };
        assert_eq!(
            crate_error.map(|e| e.to_string()).as_deref(),
            Some(rule),
            "{}",
            r["case"]
        );
        assert!(!reference_ok, "the reference rejects {}", r["case"]);
    }
    Ok(())
}
