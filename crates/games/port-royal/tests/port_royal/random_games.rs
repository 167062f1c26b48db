//! Properties over many random games, base game and "Just One More Contract":
//! conservation of cards (and of contracts and cubes), `apply` accepts
//! exactly `legal_actions`, every game ends, replay is deterministic.
//!
//! `PORT_ROYAL_GAMES` sets how many games per seat count and rule set
//! (default 500).

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
        // One seat past the table, to check that it is refused too.
        for s in 0..=v.seats {
            all.push(Action::Take(i, TakeMode::Gift(Seat(s))));
            all.push(Action::Take(i, TakeMode::DeclineGift(Seat(s))));
        }
    }
    all
}

fn play_one(seats: u8, options: &Options, seed: u64, check_legality: bool) -> (PortRoyal, Playout) {
    let mut game = PortRoyal::new_game(seats, options).expect("valid set-up");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut policy_rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
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
            (policy_rng.next_u64() % legal.len() as u64) as usize
        },
        &mut |g: &PortRoyal| {
            if let Err(e) = g.check_conservation() {
                panic!("seed {seed}: {e}; after {last_next}");
            }
            last_next = format!("{:?}", g.next());
        },
    );
    let playout = result.unwrap_or_else(|e| panic!("seats {seats} seed {seed}: {e}"));
    (game, playout)
}

/// The options of random game `seed`: the variants in turn, with or
/// without the expansion.
fn options(seed: u64, expansion: bool) -> Options {
    let base = Options {
        expansion,
        ..Options::default()
    };
    match seed % 4 {
        0 => base,
        1 => Options {
            pass_automatically: true,
            ..base
        },
        2 => Options {
            expedition_required: true,
            ..base
        },
        _ => Options {
            victory_points: 6 + (seed % 10) as u32,
            ..base
        },
    }
}

fn random_games(expansion: bool) {
    let n = games();
    for seats in 2..=5 {
        for seed in 0..n {
            let check = seed < n / 10 + 1;
            let (game, _) = play_one(seats, &options(seed, expansion), seed, check);
            let result = game.result().expect("the game is over");
            assert!(!result.winners().is_empty());
        }
    }
}

#[test]
fn random_games_conserve_cards_accept_exactly_the_legal_actions_and_end() {
    random_games(false);
}

#[test]
fn random_expansion_games_conserve_cards_and_contracts_accept_exactly_the_legal_actions_and_end() {
    random_games(true);
}

/// Random expansion games do reach every contract rule: completions,
/// progress cubes, declines, gifts and ships kept aside all happen.
#[test]
fn random_expansion_games_exercise_every_contract_rule() {
    use roundtable_port_royal::Event;
    let mut completed = std::collections::BTreeSet::new();
    let (mut progress, mut declined, mut gifts, mut kept, mut returned, mut clerks) =
        (0, 0, 0, 0, 0, 0);
    for seed in 0..games().max(200) {
        let mut game = PortRoyal::new_game(3, &options(seed, true)).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut events = Vec::new();
        let mut actions = Vec::new();
        loop {
            events.clear();
            match game.next() {
                Next::Over => break,
                Next::Chance(r) => {
                    let o = sim::sample(&r.distribution, &mut |n| rng.next_u64() % n);
                    game.apply_chance(&o, &mut events).unwrap();
                }
                Next::Decision(seat) => {
                    game.legal_actions(seat, &mut actions);
                    // Prefer declining and hiring so that contracts come often.
                    let keen = actions
                        .iter()
                        .filter(|a| {
                            matches!(
                                a,
                                Action::Take(_, TakeMode::Decline | TakeMode::DeclineGift(_))
                            )
                        })
                        .copied()
                        .next();
                    let a = match keen {
                        Some(a) if rng.next_u64() % 2 == 0 => a,
                        _ => actions[(rng.next_u64() % actions.len() as u64) as usize],
                    };
                    game.apply_action(seat, &a, &mut events).unwrap();
                }
                Next::Simultaneous(_) | Next::Private(_) => unreachable!(),
            }
            for e in &events {
                match e {
                    Event::ContractCompleted { contract, .. } => {
                        completed.insert(contract.name());
                    }
                    Event::ContractProgress { .. } => progress += 1,
                    Event::Declined { .. } => declined += 1,
                    Event::Coins {
                        reason: roundtable_port_royal::CoinReason::Gift,
                        ..
                    } => gifts += 1,
                    Event::KeptAside { .. } => kept += 1,
                    Event::PackReturned { .. } => returned += 1,
                    Event::ClerkExtraTake { .. } => clerks += 1,
                    _ => {}
                }
            }
            game.check_conservation().unwrap();
        }
    }
    assert_eq!(completed.len(), 16, "completed only {completed:?}");
    for (what, n) in [
        ("progress", progress),
        ("declined", declined),
        ("gifts", gifts),
        ("kept aside", kept),
        ("returned", returned),
        ("clerk takes", clerks),
    ] {
        assert!(n > 0, "no {what} in random expansion games");
    }
}

#[test]
fn replaying_the_same_inputs_gives_the_same_state_hash() {
    for seed in 0..games().min(50) {
        // Record chance outcomes and decisions, then replay them; every
        // other game with the expansion.
        let options = options(0, seed % 2 == 1);
        let mut game = PortRoyal::new_game(4, &options).unwrap();
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
                Next::Simultaneous(_) | Next::Private(_) => unreachable!(),
            }
            hashes.push(game.state_hash());
        }
        let mut replay = PortRoyal::new_game(4, &options).unwrap();
        for (input, hash) in log.iter().zip(&hashes) {
            match input {
                Ok(o) => replay.apply_chance(o, &mut Vec::new()).unwrap(),
                Err((s, a)) => replay.apply_action(*s, a, &mut Vec::new()).unwrap(),
            }
            assert_eq!(replay.state_hash(), *hash);
        }
    }
}
