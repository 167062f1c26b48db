//! Figures for the table protocol (issue 4), printed, not asserted:
//! bytes on the wire per game and per input, messages per input, CPU per
//! input (sign, verify, apply), and audit time for a full 5-seat game.
//!
//! `cargo bench -p roundtable-local --bench table`
//! (`TABLE_BENCH_GAMES` sets games per seat count, default 20).

use std::hint::black_box;
use std::time::Instant;

use roundtable_bots::RandomBot;
use roundtable_engine::Game;
use roundtable_local::{LocalGame, Player, Progress};
use roundtable_port_royal::{Options, PortRoyal};
use roundtable_table::audit::audit;
use roundtable_table::{Body, Config, Envelope, GameId, Hash32, Identity};

fn game(seats: u8, seed: u64, transcript: Option<&std::path::Path>) -> LocalGame<PortRoyal> {
    let players = (0..seats)
        .map(|i| {
            (
                format!("bot {i}"),
                Player::Bot(Box::new(RandomBot::new(seed * 7 + u64::from(i))) as _),
            )
        })
        .collect();
    let mut g = LocalGame::new(
        &Options::default(),
        seed,
        players,
        transcript,
        Config::default(),
    )
    .expect("set up");
    assert_eq!(g.run().expect("plays"), Progress::Finished);
    g
}

fn main() {
    let games: u64 = std::env::var("TABLE_BENCH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    println!("in-process tables, perfect network, random bots, {games} games per seat count");
    println!(
        "{:>5} {:>9} {:>12} {:>12} {:>13} {:>12} {:>14}",
        "seats",
        "inputs",
        "envelopes",
        "bytes/game",
        "bytes/input",
        "msgs/input",
        "µs/input (all peers)"
    );
    for seats in 2..=5u8 {
        let (mut inputs, mut envelopes, mut bytes) = (0u64, 0u64, 0u64);
        let start = Instant::now();
        for seed in 0..games {
            let g = game(seats, seed, None);
            inputs += g.table(g.observed_seat()).position();
            envelopes += g.traffic().envelopes;
            bytes += g.traffic().bytes;
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{seats:>5} {:>9.0} {:>12.0} {:>12.0} {:>13.1} {:>12.2} {:>14.1}",
            inputs as f64 / games as f64,
            envelopes as f64 / games as f64,
            bytes as f64 / games as f64,
            bytes as f64 / inputs as f64,
            envelopes as f64 / inputs as f64,
            secs * 1e6 / inputs as f64
        );
    }

    // Per-operation costs.
    let id = Identity::from_secret([5; 32]);
    let envelope = Envelope {
        game_id: GameId([1; 32]),
        seat: 0,
        seq: 10,
        prev: Hash32([2; 32]),
        position: 100,
        state_hash: Hash32([3; 32]),
        body: Body::Action {
            action: vec![5, 1, 0],
            reveal: None,
        },
    };
    let n = 2000;
    let t = Instant::now();
    for _ in 0..n {
        black_box(envelope.clone().sign(&id));
    }
    let sign = t.elapsed().as_secs_f64() * 1e6 / f64::from(n);
    let signed = envelope.sign(&id);
    let key = id.public();
    let t = Instant::now();
    for _ in 0..n {
        black_box(signed.verify(&key)).expect("valid");
    }
    let verify = t.elapsed().as_secs_f64() * 1e6 / f64::from(n);
    let state = PortRoyal::new_game(5, &Options::default()).expect("set up");
    let t = Instant::now();
    for _ in 0..n {
        black_box(state.state_hash());
    }
    let hash = t.elapsed().as_secs_f64() * 1e6 / f64::from(n);
    println!(
        "\nsign an envelope {sign:.1} µs, verify (strict) {verify:.1} µs, state hash (5 seats) {hash:.1} µs"
    );

    // Audit of a full 5-seat game, from its transcript file.
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("five.rts");
    let g = game(5, 99, Some(&path));
    let frames = roundtable_table::transcript::read(&path)
        .expect("readable")
        .frames;
    reveal_costs(&frames, sign, verify);

    let runs = 10;
    let t = Instant::now();
    for _ in 0..runs {
        let report = audit::<PortRoyal>(black_box(&frames)).expect("audits");
        assert!(report.is_valid());
    }
    let ms = t.elapsed().as_secs_f64() * 1e3 / f64::from(runs);
    println!(
        "audit of a 5-seat game ({} inputs, {} frames): {ms:.1} ms (target < 50 ms)",
        g.table(g.observed_seat()).position(),
        frames.len()
    );
}

/// What a game's reveals cost under the three designs SPEC 3.4 weighed
/// (issue 12): unsigned envelopes in the seat's sequence, signed envelopes in
/// the sequence, and a bare `(game, seat, event, link)` message outside it.
/// Bytes are each design's postcard encoding of the same reveals; CPU is the
/// signature work the design adds per game (the link's hash check is the
/// same in all three).
fn reveal_costs(frames: &[roundtable_table::transcript::Frame], sign_us: f64, verify_us: f64) {
    let mut reveals = 0u64;
    let mut riding = 0u64;
    let mut seats = 0u64;
    let (mut unsigned, mut signed, mut bare) = (0u64, 0u64, 0u64);
    for frame in frames {
        let roundtable_table::transcript::Frame::Envelope(envelope) = frame else {
            continue;
        };
        seats = seats.max(u64::from(envelope.envelope.seat) + 1);
        match &envelope.envelope.body {
            Body::Reveal(r) => {
                reveals += 1;
                let bytes = envelope.encode().len() as u64;
                signed += bytes;
                // Unsigned, an `Option` tag of 0 stood where the signature's
                // length (one byte) and its 64 bytes stand.
                unsigned += bytes - 64;
                let message = (
                    envelope.envelope.game_id,
                    envelope.envelope.seat,
                    r.event,
                    r.link,
                );
                bare += postcard::to_allocvec(&message).map_or(0, |b| b.len() as u64);
            }
            Body::Action {
                reveal: Some(_), ..
            } => riding += 1,
            _ => {}
        }
    }
    let kb = |b: u64| b as f64 / 1e3;
    println!("\nreveals in a 5-seat game: {reveals} on their own, {riding} riding in actions");
    println!(
        "  bytes of the lone reveals: unsigned in sequence {:.1} kB, signed in sequence {:.1} kB, bare outside the sequence {:.1} kB",
        kb(unsigned),
        kb(signed),
        kb(bare)
    );
    println!(
        "  signature work signing them adds per game: {:.1} ms signing (spread over the seats), {:.1} ms verifying on each of the {seats} peers",
        reveals as f64 * sign_us / 1e3,
        reveals as f64 * verify_us / 1e3
    );
}
