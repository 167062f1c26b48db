//! Seeded random games whose every state hash and every event are pinned.
//!
//! The canonical encoding of the state is what peers sign and audit, so any
//! change to the engine's speed must leave it byte-identical: these digests
//! were taken before the hot path was reworked and must never move unless a
//! rule deliberately changes (and then the transcripts' fixtures move too).
//! Each digest is SHA-256 over, for every input, the state hash after it and
//! the postcard encoding of the events it produced.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_engine::{Game, Next, sim};
use roundtable_port_royal::{Event, Options, PortRoyal};
use sha2::{Digest, Sha256};

/// Play the game seeded `seed` input by input, as the benchmark and bots'
/// playouts do, and digest every state and every event along the way.
fn digest_of_game(seats: u8, expansion: bool, seed: u64) -> (String, usize, String) {
    let options = Options {
        expansion,
        ..Options::default()
    };
    let mut game = PortRoyal::new_game(seats, &options).expect("valid set-up");
    let mut chance = ChaCha8Rng::seed_from_u64(seed);
    let mut policy = ChaCha8Rng::seed_from_u64(seed ^ 0x0dd5_eed5);
    let mut digest = Sha256::new();
    let mut legal = Vec::new();
    let mut events: Vec<Event> = Vec::new();
    let mut inputs = 0;
    loop {
        events.clear();
        match game.next() {
            Next::Over => break,
            Next::Chance(request) => {
                let outcome = sim::sample(&request.distribution, &mut |n| chance.next_u64() % n);
                game.apply_chance(&outcome, &mut events)
                    .expect("the game accepts its own distribution's outcome");
            }
            Next::Decision(seat) => {
                game.legal_actions(seat, &mut legal);
                let pick = (policy.next_u64() % legal.len() as u64) as usize;
                game.apply_action(seat, &legal[pick], &mut events)
                    .expect("the game accepts its own legal action");
            }
            other => panic!("Port Royal asked for {other:?}"),
        }
        inputs += 1;
        digest.update(game.state_hash().0);
        digest.update(postcard::to_allocvec(&events).expect("events serialise"));
    }
    (
        hex::encode(digest.finalize()),
        inputs,
        game.state_hash().to_string(),
    )
}

/// The same game through `sim::play`, which reuses its buffers: its final
/// state hash must be the one the input-by-input game ends with.
fn final_hash_through_sim(seats: u8, expansion: bool, seed: u64) -> String {
    let options = Options {
        expansion,
        ..Options::default()
    };
    let mut game = PortRoyal::new_game(seats, &options).expect("valid set-up");
    let mut chance = ChaCha8Rng::seed_from_u64(seed);
    let mut policy = ChaCha8Rng::seed_from_u64(seed ^ 0x0dd5_eed5);
    sim::play(
        &mut game,
        100_000,
        &mut |n| chance.next_u64() % n,
        &mut |_, _, legal| (policy.next_u64() % legal.len() as u64) as usize,
        &mut |_| {},
    )
    .expect("random games end");
    game.state_hash().to_string()
}

/// (seats, expansion, seed, digest, inputs), taken before the speed work.
const PINNED: &[(u8, bool, u64, &str, usize)] = &[
    (
        2,
        false,
        1,
        "11e1a114dbd03550388bdaeec14d7d6bcb7d9feb3c2992c0a51306dc9af260e2",
        356,
    ),
    (
        2,
        false,
        2,
        "57b6779e2c563884c63f876f3c7bf2632655702262fae9c2139b6ff6876e58bc",
        383,
    ),
    (
        2,
        false,
        3,
        "7a204c4c59db60e171276650237f2b9b25a05c93f9aa41469d4e13ffd01b61a7",
        470,
    ),
    (
        2,
        true,
        1,
        "bafb769d1d5587086f7a71336e6248fc734a4afc17e2b5a39447b3efd3de761d",
        464,
    ),
    (
        2,
        true,
        2,
        "2d01d473b486c7ecbb1b328a9839223ee530d6e275fa4b672b264a5baa4302c9",
        435,
    ),
    (
        2,
        true,
        3,
        "766741f89cbfb7a08f028064131a621caaf5e8a27bbe92ac4855303688f9287f",
        267,
    ),
    (
        3,
        false,
        1,
        "6d11eb97c8b69ba84e6c98e2501815c0b4a58ec133325d9e1d5062c99fe29ab8",
        468,
    ),
    (
        3,
        false,
        2,
        "81b79215c7cd45dee22dce519ab15d3fc9b021e64a1f0664c94e17d104cda3b3",
        532,
    ),
    (
        3,
        false,
        3,
        "3e4c09610dce26ad53d7e132d54048e826c23d01004cd0f22905216aab2aff4a",
        560,
    ),
    (
        3,
        true,
        1,
        "e7b2a7cb6c9849fcf04dc213b21f2402096ab81e965a3c9326b9803d60f0cce4",
        492,
    ),
    (
        3,
        true,
        2,
        "311ea5f806a222c682d01db9260c1fae889df53d8972554aaea402775853e0f3",
        474,
    ),
    (
        3,
        true,
        3,
        "6b9d01ef83be761964e71d956ca7b0c8ab6b92576c5fad26508c4332aa03832f",
        479,
    ),
    (
        4,
        false,
        1,
        "f21512b8784bd1b5fcbbf45ffefeb4d96b3f8079b8f96cc1e4562eb5cd97f0b5",
        712,
    ),
    (
        4,
        false,
        2,
        "034d7ad47e36719a354f1bbe5fbe6cd5d6e50ff5c3e5e6563740469ea4d8a99f",
        614,
    ),
    (
        4,
        false,
        3,
        "e5e34677be980db457f4294b29cddf149bff8ae2c91e58f962e78deda87848c7",
        697,
    ),
    (
        4,
        true,
        1,
        "8ddca377b1675761d99c0f1c7787d756eba0affffd278c306dc29a4cdbcadb5d",
        520,
    ),
    (
        4,
        true,
        2,
        "ce9cc3d5052eeb57d53b7238851a652aa635e1527e87edd3c29987a52950e50d",
        572,
    ),
    (
        4,
        true,
        3,
        "f09f4dc71b6e29ec47b2825efbb63c5d0053f51cfee6c5d4dddf2db1f47c5daf",
        599,
    ),
    (
        5,
        false,
        1,
        "b981dcad800dfdc3d0b340267629b32c5981e6343e9d48df808b144d400127f8",
        696,
    ),
    (
        5,
        false,
        2,
        "5ca0181408831afd89c98acf2b4e8e3c8c9ce7d3f9c3387c092e0da6da433125",
        720,
    ),
    (
        5,
        false,
        3,
        "3343636b399ed00859b0baab034972f72ee9ff85c5ab55b4ce559a08edb36d22",
        562,
    ),
    (
        5,
        true,
        1,
        "7d55ed9b6fb37ae8c50f823274bdec22154e1a61d43941c5ce9703c33a761a35",
        528,
    ),
    (
        5,
        true,
        2,
        "8b3658ffb89b17f6eb02d8f000e6137aa87b7952c561cdedae00e5896a0293da",
        713,
    ),
    (
        5,
        true,
        3,
        "5cf3d4d5edb9d7c5b88b41b61b467ce12044d84d122b84a6857ba30c4627a3b9",
        457,
    ),
];

#[test]
fn seeded_games_keep_every_state_hash_and_event() {
    let mut found = Vec::new();
    for seats in 2..=5u8 {
        for expansion in [false, true] {
            for seed in [1u64, 2, 3] {
                let (digest, inputs, final_hash) = digest_of_game(seats, expansion, seed);
                assert_eq!(
                    final_hash_through_sim(seats, expansion, seed),
                    final_hash,
                    "seats {seats}, expansion {expansion}, seed {seed}: sim::play ends elsewhere"
                );
                found.push((seats, expansion, seed, digest, inputs));
            }
        }
    }
    assert_eq!(found.len(), PINNED.len());
    for (found, pinned) in found.iter().zip(PINNED) {
        assert_eq!(
            (found.0, found.1, found.2, found.3.as_str(), found.4),
            *pinned,
            "seats {}, expansion {}, seed {}: the states or events changed",
            found.0,
            found.1,
            found.2
        );
    }
}
