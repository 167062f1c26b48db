//! Properties over many random games: conservation of cards, `apply` accepts
//! exactly `legal_actions`, every game ends, replay is deterministic.
//!
//! `PORT_ROYAL_GAMES` sets how many games per seat count (default 500).

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_engine::sim::{self, Playout};
use roundtable_engine::{ChanceOutcome, Game, Next, Seat};
use roundtable_port_royal::{Action, Options, PortRoyal, TakeMode};

const MAX_INPUTS: usize = 20_000;

fn games() -> u64 {
    std::env::var("PORT_ROYAL_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500)
}

fn uniform(rng: &mut ChaCha8Rng) -> impl FnMut(u64) -> u64 + '_ {
    move |n| rng.next_u64() % n
}

/// Every action the engine could conceivably be offered, to check that
/// exactly the legal ones are accepted.
fn candidate_actions(game: &PortRoyal) -> Vec<Action> {
    let v = game.view(roundtable_engine::Observer::Spectator);
    let mut all = vec![
        Action::Draw,
        Action::Repel,
        Action::Keep,
        Action::Stop,
        Action::Pass,
    ];
    for i in 0..=v.expeditions.len() as u8 {
        all.push(Action::Claim(i));
    }
    for i in 0..=v.harbor.len() as u8 {
        all.push(Action::Take(i, TakeMode::Normal));
        all.push(Action::Take(i, TakeMode::Decline));
        all.push(Action::Take(i, TakeMode::Gift(Seat(0))));
    }
    all
}

fn play_one(
    seats: u8,
    options: &Options,
    seed: u64,
    check_legality: bool,
) -> (PortRoyal, Playout, Vec<Input>) {
    let mut game = PortRoyal::new_game(seats, options).expect("valid set-up");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut policy_rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut inputs = Vec::new();
    let mut rng_fn = uniform(&mut rng);
    let mut last_next = String::new();
    let result = sim::play(
        &mut game,
        MAX_INPUTS,
        &mut rng_fn,
        &mut |seat, g: &PortRoyal, legal: &[Action]| {
            if check_legality {
                for a in candidate_actions(g) {
                    let mut copy = g.clone();
                    let accepted = copy.apply_action(seat, &a, &mut Vec::new()).is_ok();
                    assert_eq!(
                        accepted,
                        legal.contains(&a),
                        "seed {seed}: {a} accepted={accepted}, legal={legal:?}"
                    );
                    if !accepted {
                        assert_eq!(&copy, g, "seed {seed}: refused {a} changed the state");
                    }
                }
                for other in 0..seats {
                    if Seat(other) != seat {
                        assert!(g.legal_actions_vec(Seat(other)).is_empty());
                    }
                }
                let mut sorted = legal.to_vec();
                sorted.sort();
                assert_eq!(sorted, legal, "legal actions are sorted");
            }
            let i = (policy_rng.next_u64() % legal.len() as u64) as usize;
            inputs.push(Input::Action(seat, legal[i]));
            i
        },
        &mut |g: &PortRoyal| {
            if let Err(e) = g.check_conservation() {
                panic!("seed {seed}: {e}; after {last_next}");
            }
            last_next = format!("{:?}", g.next());
        },
    );
    let playout = result.unwrap_or_else(|e| panic!("seats {seats} seed {seed}: {e}"));
    (game, playout, inputs)
}

#[derive(Clone, Debug)]
enum Input {
    Action(Seat, Action),
}

#[test]
fn random_games_conserve_cards_accept_exactly_the_legal_actions_and_end() {
    let n = games();
    for seats in 2..=5 {
        for seed in 0..n {
            let options = match seed % 4 {
                0 => Options::default(),
                1 => Options {
                    pass_automatically: true,
                    ..Options::default()
                },
                2 => Options {
                    expedition_required: true,
                    ..Options::default()
                },
                _ => Options {
                    victory_points: 6 + (seed % 10) as u32,
                    ..Options::default()
                },
            };
            let check = seed < n / 10 + 1;
            let (game, _, _) = play_one(seats, &options, seed, check);
            let result = game.result().expect("the game is over");
            assert!(!result.winners().is_empty());
        }
    }
}

#[test]
fn replaying_the_same_inputs_gives_the_same_state_hash() {
    for seed in 0..games().min(50) {
        // Record chance outcomes and decisions, then replay them.
        let mut game = PortRoyal::new_game(4, &Options::default()).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut log: Vec<Result<ChanceOutcome, (Seat, Action)>> = Vec::new();
        let mut actions = Vec::new();
        let mut hashes = Vec::new();
        loop {
            match game.next() {
                Next::Over => break,
                Next::Chance(r) => {
                    let o = sim::sample(&r.distribution, &mut |n| rng.next_u64() % n);
                    game.apply_chance(&o, &mut Vec::new()).unwrap();
                    log.push(Ok(o));
                }
                Next::Decision(seat) => {
                    game.legal_actions(seat, &mut actions);
                    let a = actions[(rng.next_u64() % actions.len() as u64) as usize];
                    game.apply_action(seat, &a, &mut Vec::new()).unwrap();
                    log.push(Err((seat, a)));
                }
                Next::Simultaneous(_) => unreachable!(),
            }
            hashes.push(game.state_hash());
        }
        let mut replay = PortRoyal::new_game(4, &Options::default()).unwrap();
        for (input, hash) in log.iter().zip(&hashes) {
            match input {
                Ok(o) => replay.apply_chance(o, &mut Vec::new()).unwrap(),
                Err((s, a)) => replay.apply_action(*s, a, &mut Vec::new()).unwrap(),
            }
            assert_eq!(replay.state_hash(), *hash);
        }
    }
}
