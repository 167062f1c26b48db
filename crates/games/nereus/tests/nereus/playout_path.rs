//! The playout path (`apply_legal_action`, `apply_sampled_chance`: no
//! second check, no copy, a played card taken from the action itself) must
//! reach exactly the states the checked path reaches, and so must
//! `apply_random_chance`, which samples a chance outcome itself, and the
//! playout path records no events (nobody reads them there). Three
//! copies of each seeded game are played in lockstep, one input at a time,
//! with and without the 2-player neutral ship. A divergence would make the
//! searching bots reason about states the rules never reach.
//!
//! `NEREUS_GAMES` sets how many games per seat count and rule set
//! (default 12).

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_engine::{ChanceOutcome, Game, Next, PrivateRequest, sim};
use roundtable_nereus::{Nereus, Options};

fn games() -> u64 {
    std::env::var("NEREUS_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12)
}

/// Play one game through the three paths and check after every input that
/// the states are equal.
fn lockstep(seats: u8, neutral_ship: bool, seed: u64) {
    let options = Options { neutral_ship };
    let mut checked = Nereus::new_game(seats, &options).expect("valid set-up");
    let mut fast = checked.clone();
    let mut sampling = checked.clone();
    let mut dealer = sim::OracleDealer::new(seats);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut events = Vec::new();
    let mut scratch = Vec::new();
    let mut legal = Vec::new();
    let game = format!("seats {seats}, neutral ship {neutral_ship}, seed {seed}");
    for input in 0.. {
        assert!(input < 100_000, "{game}: the game does not end");
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
                sampling
                    .apply_random_chance(
                        &mut |n| same_stream.next_u64() % n,
                        &mut ChanceOutcome::Index(0),
                        &mut scratch,
                    )
                    .expect("a chance outcome is pending")
                    .expect("the game accepts what it sampled itself");
                assert_eq!(
                    same_stream.get_word_pos(),
                    rng.get_word_pos(),
                    "{game}: apply_random_chance drew other numbers than sampling the request"
                );
            }
            Next::Private(PrivateRequest::Reshuffle { pile, epoch }) => {
                dealer
                    .reshuffle(pile, epoch, &mut |n| rng.next_u64() % n)
                    .expect("the dealer reshuffles");
                for state in [&mut checked, &mut fast, &mut sampling] {
                    state
                        .apply_reshuffle(&mut events)
                        .expect("a reshuffle is due");
                }
            }
            Next::Private(PrivateRequest::Deal { to, first, count }) => {
                dealer.deal(to, first, count).expect("the dealer deals");
                for state in [&mut checked, &mut fast, &mut sampling] {
                    state.apply_deal(&mut events).expect("a deal is due");
                }
            }
            Next::Private(PrivateRequest::Reveal { .. }) => panic!("Nereus reveals nothing"),
            Next::Simultaneous(set) => {
                let mut choices = Vec::new();
                for seat in set.iter() {
                    checked.legal_actions(seat, &mut legal);
                    choices.push((
                        seat,
                        legal[(rng.next_u64() % legal.len() as u64) as usize].clone(),
                    ));
                }
                for (seat, action) in choices {
                    checked
                        .apply_action(seat, &action, &mut events)
                        .expect("the game accepts its own legal choice");
                    for state in [&mut fast, &mut sampling] {
                        state
                            .apply_legal_action(seat, &action, &mut scratch)
                            .expect("the playout path accepts the same choice");
                    }
                }
            }
            Next::Decision(seat) => {
                checked.legal_actions_with(seat, dealer.knowledge(seat), &mut legal);
                let action = legal[(rng.next_u64() % legal.len() as u64) as usize].clone();
                let handles: Vec<_> = Nereus::claims(&action).iter().map(|c| c.handle).collect();
                let revealed = dealer.reveal(&handles).expect("held cards open");
                checked
                    .apply_action_revealing(seat, &action, &revealed, &mut events)
                    .expect("the game accepts its own legal action");
                assert!(
                    sampling
                        .apply_random_chance(&mut |_| 0, &mut ChanceOutcome::Index(0), &mut scratch)
                        .is_none(),
                    "{game}: apply_random_chance applied a chance outcome while a seat decides"
                );
                for state in [&mut fast, &mut sampling] {
                    state
                        .apply_legal_action(seat, &action, &mut scratch)
                        .expect("the playout path accepts the same action");
                }
            }
        }
        assert!(
            fast == checked,
            "{game}: the playout path parts at input {input}"
        );
        assert!(
            sampling == checked,
            "{game}: apply_random_chance parts at input {input}"
        );
        assert!(
            scratch.is_empty(),
            "{game}: the playout path recorded events at input {input}"
        );
    }
    assert_eq!(fast.state_hash(), checked.state_hash());
    assert_eq!(sampling.state_hash(), checked.state_hash());
}

#[test]
fn the_playout_path_reaches_the_states_of_the_checked_path() {
    for seed in 0..games() {
        lockstep(2, true, seed);
        for seats in 2..=4 {
            lockstep(seats, false, seed);
        }
    }
}
