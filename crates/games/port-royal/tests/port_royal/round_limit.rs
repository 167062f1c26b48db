//! The project's round limit and victory-point range (crate docs): every
//! game ends, even one whose players never buy anything, and the end comes
//! at the end of the limit's round, ranked as usual.

use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_engine::{Game, Next, Observer, Seat, SetupError, sim};
use roundtable_port_royal::{Event, Options, PortRoyal, ROUND_LIMIT, VICTORY_POINTS};

/// Far more inputs than a game of `ROUND_LIMIT` rounds needs: a game that
/// uses them all did not end.
const MAX_INPUTS: usize = 1_000_000;

/// How a played game went.
struct Played {
    game: PortRoyal,
    /// Whether a seat reached the victory points.
    end_triggered: bool,
    /// Whether the game ended in the dead end (nothing to draw for a round).
    nothing_to_draw: bool,
    /// The rounds given by `RoundLimitReached`, one entry per event.
    limit_events: Vec<u32>,
    /// Whether `RoundLimitReached` came right before `GameOver`.
    limit_event_last: bool,
    /// `last_round` in the view at the first decision of each round, by round.
    last_round_at: Vec<bool>,
}

/// Play a game to its end; `choose` picks an index into the legal actions.
fn play(
    seats: u8,
    options: &Options,
    seed: u64,
    choose: &mut dyn FnMut(&PortRoyal, Seat, &[roundtable_port_royal::Action]) -> usize,
) -> Played {
    let mut game = PortRoyal::new_game(seats, options).unwrap_or_else(|e| panic!("{e}"));
    let mut chance = ChaCha8Rng::seed_from_u64(seed);
    let mut events = Vec::new();
    let mut legal = Vec::new();
    let mut played = Played {
        game: game.clone(),
        end_triggered: false,
        nothing_to_draw: false,
        limit_events: Vec::new(),
        limit_event_last: false,
        last_round_at: Vec::new(),
    };
    let mut previous: Option<Event> = None;
    for _ in 0..MAX_INPUTS {
        events.clear();
        match game.next() {
            Next::Over => {
                played.game = game;
                return played;
            }
            Next::Simultaneous(_) | Next::Private(_) => {
                panic!("Port Royal has no simultaneous choices or private cards")
            }
            Next::Chance(request) => {
                let outcome = sim::sample(&request.distribution, &mut |n| {
                    sim::uniform_below(n, &mut || chance.next_u64())
                });
                game.apply_chance(&outcome, &mut events)
                    .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            }
            Next::Decision(seat) => {
                let view = game.view(Observer::Spectator);
                if played.last_round_at.len() < view.round as usize {
                    played.last_round_at.push(view.last_round);
                }
                game.legal_actions(seat, &mut legal);
                let pick = choose(&game, seat, &legal).min(legal.len() - 1);
                game.apply_action(seat, &legal[pick], &mut events)
                    .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            }
        }
        for e in &events {
            match e {
                Event::EndTriggered { .. } => played.end_triggered = true,
                Event::NothingToDraw => played.nothing_to_draw = true,
                Event::RoundLimitReached { rounds } => played.limit_events.push(*rounds),
                Event::GameOver { .. } => {
                    played.limit_event_last =
                        matches!(previous, Some(Event::RoundLimitReached { .. }));
                }
                _ => {}
            }
            previous = Some(e.clone());
        }
    }
    panic!("seats {seats} seed {seed}: no end within {MAX_INPUTS} inputs");
}

/// Every seat plays as a forfeited seat does: it never takes anything, so
/// nobody ever gains a victory point.
fn never_buys(game: &PortRoyal, seat: Seat, legal: &[roundtable_port_royal::Action]) -> usize {
    game.zombie_action(seat)
        .and_then(|a| legal.iter().position(|l| *l == a))
        .unwrap_or(0)
}

#[test]
fn a_game_nobody_can_win_ends_after_the_limits_round() {
    for seats in 2..=5 {
        let options = Options::default();
        let played = play(seats, &options, u64::from(seats), &mut never_buys);
        let view = played.game.view(Observer::Spectator);
        assert_eq!(view.phase, "over", "{seats} seats");
        assert_eq!(view.round, ROUND_LIMIT, "{seats} seats");
        assert_eq!(view.round_limit, ROUND_LIMIT);
        assert_eq!(view.turn, ROUND_LIMIT * u32::from(seats), "{seats} seats");
        assert!(!played.end_triggered && !played.nothing_to_draw);
        assert_eq!(played.limit_events, vec![ROUND_LIMIT], "{seats} seats");
        assert!(
            played.limit_event_last,
            "the limit is said right before the end"
        );
        // Only the limit's own round is announced as the last.
        let expected: Vec<bool> = (1..=ROUND_LIMIT).map(|r| r == ROUND_LIMIT).collect();
        assert_eq!(played.last_round_at, expected, "{seats} seats");
        // Ranked as usual: nobody has a point, so the most coins win.
        let result = played.game.result().unwrap_or_else(|| panic!("a result"));
        let most = view.players.iter().map(|p| p.coins).max().unwrap_or(0);
        for s in &result.standings {
            let coins = view.players[s.seat.index()].coins;
            assert_eq!(s.rank == 0, coins == most, "{seats} seats: {s:?}");
        }
    }
}

#[test]
fn the_limit_event_is_one_line_naming_the_limit() {
    let line = Event::RoundLimitReached {
        rounds: ROUND_LIMIT,
    }
    .to_string();
    assert!(line.contains(&ROUND_LIMIT.to_string()), "{line}");
    assert!(line.contains("round limit"), "{line}");
    assert_eq!(line.lines().count(), 1, "{line}");
}

#[test]
fn victory_points_outside_the_range_are_refused() {
    let with = |victory_points| Options {
        victory_points,
        ..Options::default()
    };
    for vp in [*VICTORY_POINTS.start(), *VICTORY_POINTS.end()] {
        assert!(PortRoyal::new_game(4, &with(vp)).is_ok(), "{vp}");
    }
    for vp in [
        0,
        VICTORY_POINTS.start() - 1,
        VICTORY_POINTS.end() + 1,
        60,
        u32::MAX,
    ] {
        match PortRoyal::new_game(4, &with(vp)) {
            Err(SetupError::Option { name, reason }) => {
                assert_eq!(name, "victory_points");
                let range = format!("{} and {}", VICTORY_POINTS.start(), VICTORY_POINTS.end());
                assert!(reason.contains(&range), "{reason}");
            }
            other => panic!("{vp}: {other:?}"),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Random players at the highest target, the first `random_seats` of
    /// them choosing at random and the others never buying anything: the
    /// game ends, by the target, the dead end or, at the latest, the round
    /// limit, and a game the limit ends has played exactly its rounds.
    #[test]
    fn every_random_game_ends_within_the_round_limit(
        seed in any::<u64>(),
        seats in 2u8..=5,
        random_seats in 0u8..=5,
        expansion in any::<bool>(),
    ) {
        let options = Options {
            expansion,
            victory_points: *VICTORY_POINTS.end(),
            ..Options::default()
        };
        let mut policy = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
        let played = play(seats, &options, seed, &mut |game, seat, legal| {
            if seat.0 < random_seats {
                (policy.next_u64() % legal.len() as u64) as usize
            } else {
                never_buys(game, seat, legal)
            }
        });
        let view = played.game.view(Observer::Spectator);
        prop_assert_eq!(view.phase, "over");
        prop_assert!(view.round <= ROUND_LIMIT);
        prop_assert!(played.limit_events.len() <= 1);
        if !played.limit_events.is_empty() {
            prop_assert!(!played.end_triggered && !played.nothing_to_draw);
            prop_assert!(played.limit_event_last);
            prop_assert_eq!(view.turn, ROUND_LIMIT * u32::from(seats));
        }
        if !played.end_triggered && !played.nothing_to_draw {
            prop_assert_eq!(played.limit_events, vec![ROUND_LIMIT]);
        }
    }
}
