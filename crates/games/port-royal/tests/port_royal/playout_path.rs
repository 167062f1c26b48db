//! The playout path (`apply_legal_action`, `apply_sampled_chance`: no
//! second check, no events) must reach exactly the states the checked,
//! recorded path reaches, and so must `apply_random_chance`, which samples
//! a chance outcome itself. Three copies of each seeded game are played in
//! lockstep, one input at a time, with every option the rules read.
//!
//! `PORT_ROYAL_GAMES` sets how many games per seat count and rule set
//! (default 12).

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_engine::{ChanceOutcome, Game, Next, Seat, sim};
use roundtable_port_royal::{CardId, Event, Options, PortRoyal};

fn games() -> u64 {
    std::env::var("PORT_ROYAL_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12)
}

/// Varied options, so the fast path runs through every variant's rules.
fn options(seed: u64, expansion: bool) -> Options {
    Options {
        expansion,
        pass_automatically: seed % 2 == 1,
        expedition_required: seed % 3 == 2,
        victory_points: [12, 4, 20, 8][(seed % 4) as usize],
    }
}

/// Play one game through both paths and check after every input that the
/// states are equal and that the playout path recorded nothing.
fn lockstep(seats: u8, expansion: bool, seed: u64) {
    let options = options(seed, expansion);
    let mut checked = PortRoyal::new_game(seats, &options).expect("valid set-up");
    let mut fast = checked.clone();
    let mut sampling = checked.clone();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut legal = Vec::new();
    let mut events: Vec<Event> = Vec::new();
    let mut scratch: Vec<Event> = Vec::new();
    for input in 0.. {
        assert!(
            input < 100_000,
            "game {seats}/{expansion}/{seed} does not end"
        );
        events.clear();
        match checked.next() {
            Next::Over => break,
            Next::Chance(request) => {
                let mut same_stream = rng.clone();
                let outcome = sim::sample(&request.distribution, &mut |n| rng.next_u64() % n);
                checked
                    .apply_chance(&outcome, &mut events)
                    .expect("the game accepts its own distribution's outcome");
                fast.apply_sampled_chance(&outcome, &mut scratch)
                    .expect("the playout path accepts the same outcome");
                let mut unused = ChanceOutcome::Index(0);
                sampling
                    .apply_random_chance(
                        &mut |n| same_stream.next_u64() % n,
                        &mut unused,
                        &mut scratch,
                    )
                    .expect("a chance outcome is pending")
                    .expect("the game accepts what it sampled itself");
                assert_eq!(
                    same_stream.get_word_pos(),
                    rng.get_word_pos(),
                    "apply_random_chance drew other numbers than sampling the request"
                );
            }
            Next::Decision(seat) => {
                checked.legal_actions(seat, &mut legal);
                let action = legal[(rng.next_u64() % legal.len() as u64) as usize];
                let before = persons_of(&checked, seat);
                checked
                    .apply_action(seat, &action, &mut events)
                    .expect("the game accepts its own legal action");
                claims_list_their_persons(&events, &before, &persons_of(&checked, seat));
                fast.apply_legal_action(seat, &action, &mut scratch)
                    .expect("the playout path accepts the same action");
                assert!(
                    sampling
                        .apply_random_chance(&mut |_| 0, &mut ChanceOutcome::Index(0), &mut scratch)
                        .is_none(),
                    "apply_random_chance applied a chance outcome while a seat decides"
                );
                sampling
                    .apply_legal_action(seat, &action, &mut scratch)
                    .expect("the playout path accepts the same action");
            }
            other => panic!("Port Royal asked for {other:?}"),
        }
        assert!(
            fast == checked,
            "seats {seats}, expansion {expansion}, seed {seed}: the states part at input {input}"
        );
        assert!(
            sampling == checked,
            "seats {seats}, expansion {expansion}, seed {seed}: apply_random_chance parts at input {input}"
        );
        assert!(scratch.is_empty(), "the playout path recorded events");
        if let Some(Event::GameOver { winners }) = events.last() {
            let result = checked.result().expect("the game is over");
            assert_eq!(winners, &result.winners(), "the recorded winners");
        }
    }
    assert_eq!(fast.state_hash(), checked.state_hash());
    assert_eq!(sampling.state_hash(), checked.state_hash());
}

/// The persons `seat` holds, in the order hired.
fn persons_of(game: &PortRoyal, seat: Seat) -> Vec<CardId> {
    game.public_displays()
        .nth(seat.index())
        .map(|d| d.persons.to_vec())
        .unwrap_or_default()
}

/// A recorded claim lists the persons it discarded, in display order: the
/// ones the display held `before` and no longer holds `after` (the quiet
/// path builds no such list, and must not stop the recorded one doing so).
fn claims_list_their_persons(events: &[Event], before: &[CardId], after: &[CardId]) {
    let Some(discarded) = events.iter().find_map(|e| match e {
        Event::Claimed { discarded, .. } => Some(discarded),
        _ => None,
    }) else {
        return;
    };
    let mut left = after.to_vec();
    let mut gone = Vec::new();
    for card in before {
        match left.iter().position(|c| c == card) {
            Some(i) => {
                left.remove(i);
            }
            None => gone.push(*card),
        }
    }
    assert!(!discarded.is_empty(), "a claim discards persons");
    assert_eq!(
        discarded, &gone,
        "the claim's event lists the discarded persons"
    );
}

#[test]
fn the_playout_path_reaches_the_states_of_the_checked_path() {
    for expansion in [false, true] {
        for seats in 2..=5 {
            for seed in 0..games() {
                lockstep(seats, expansion, seed);
            }
        }
    }
}
