//! A driven game moves its bots by itself: after a pause of its pace, and a
//! thinking bot on a thread of its own, whose move lands once it is done.

use std::time::{Duration, Instant};

use roundtable_bots::RandomBot;
use roundtable_engine::{Game, Seat};
use roundtable_local::{DrivenGame, LocalGame, Player};
use roundtable_port_royal::{Options, PortRoyal};
use roundtable_table::Config;

fn short_game() -> Options {
    Options {
        victory_points: 5,
        ..Options::default()
    }
}

/// A person and two random bots, seeded.
fn with_a_person(seed: u64, thinks: &[bool], pace: Duration) -> DrivenGame<PortRoyal> {
    let mut players = vec![("ann".to_owned(), Player::Human)];
    for (i, name) in ["bob", "cat"].into_iter().enumerate() {
        players.push((
            name.to_owned(),
            Player::Bot(Box::new(RandomBot::new(seed + i as u64))),
        ));
    }
    let game = LocalGame::new(&short_game(), seed, players, None, Config::default())
        .unwrap_or_else(|e| panic!("{e}"));
    DrivenGame::new(game, thinks, pace)
}

#[test]
fn paced_bots_wait_their_pause_then_move_one_at_a_time() {
    let pace = Duration::from_millis(1200);
    let mut driven = with_a_person(3, &[false, false, false], pace);
    let me = driven.game().seat_of_player(0).unwrap_or(Seat(0));
    let t0 = Instant::now();
    // The person's moves (the last offered) until a bot is to move.
    for _ in 0..100 {
        driven.poll(t0);
        if driven.bot_to_move().is_some() {
            break;
        }
        let table = driven.game().table(me);
        let knowledge = table.knowledge().cloned().unwrap_or_default();
        let mut legal = Vec::new();
        driven
            .game()
            .game()
            .legal_actions_with(me, &knowledge, &mut legal);
        let last = legal
            .pop()
            .unwrap_or_else(|| panic!("no move for the person"));
        driven.submit(me, last).unwrap_or_else(|e| panic!("{e}"));
    }
    let bot = driven
        .bot_to_move()
        .unwrap_or_else(|| panic!("no bot's turn"));
    driven.drain_applied().for_each(drop);
    assert!(!driven.poll(t0), "no bot move before its pause");
    assert_eq!(driven.next_wakeup(t0), Some(t0 + pace));
    assert!(!driven.poll(t0 + pace / 2), "nor halfway through it");
    assert!(driven.poll(t0 + pace));
    let moved: Vec<_> = driven.drain_applied().collect();
    assert!(!moved.is_empty(), "{bot}'s move was applied");
    assert!(driven.failure().is_none(), "{:?}", driven.failure());
}

#[test]
fn thinking_bots_decide_on_threads_and_their_moves_land() {
    let players = (0..3)
        .map(|i| {
            (
                format!("bot {}", i + 1),
                Player::<PortRoyal>::Bot(Box::new(RandomBot::new(i))),
            )
        })
        .collect();
    let game = LocalGame::new(&short_game(), 8, players, None, Config::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut driven = DrivenGame::new(game, &[true, false, true], Duration::ZERO);
    let mut threads = 0;
    for _ in 0..1_000_000 {
        if driven.finished() {
            break;
        }
        driven.poll(Instant::now());
        if driven.thinking().is_some() {
            threads += 1;
            std::thread::yield_now();
        }
    }
    assert!(driven.failure().is_none(), "{:?}", driven.failure());
    assert!(driven.finished(), "the game did not end");
    assert!(threads > 0, "no bot thought on a thread");
    assert!(driven.game().result().is_some());
}
