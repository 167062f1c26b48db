//! A person and bots at in-process tables: the game waits for the person,
//! bots answer through the protocol, and the transcript audits valid.

use roundtable_bots::RandomBot;
use roundtable_engine::{Game, Next};
use roundtable_local::{LocalGame, Player, Progress};
use roundtable_port_royal::{Action, Options, PortRoyal, TakeMode};
use roundtable_table::Config;
use roundtable_table::audit::audit;

#[test]
fn a_person_plays_against_bots_through_the_protocol() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("solo.rts");
    let players = vec![
        ("you".to_owned(), Player::Human),
        (
            "bot a".to_owned(),
            Player::Bot(Box::new(RandomBot::new(1)) as _),
        ),
        (
            "bot b".to_owned(),
            Player::Bot(Box::new(RandomBot::new(2)) as _),
        ),
    ];
    let options = Options {
        victory_points: 6,
        ..Options::default()
    };
    let mut game =
        LocalGame::<PortRoyal>::new(&options, 77, players, Some(&path), Config::default()).unwrap();
    let me = game.seat_of_player(0).unwrap();
    assert_eq!(game.observed_seat(), me);
    let mut my_moves = 0;
    loop {
        match game.run().unwrap() {
            Progress::Finished => break,
            Progress::Bot(_) => unreachable!("run lets bots move"),
            Progress::Human(seat) => {
                assert_eq!(seat, me);
                assert_eq!(game.game().next(), Next::Decision(me));
                // A refused decision changes nothing and sends nothing.
                let before = game.game().state_hash();
                assert!(game.submit(me, Action::Take(99, TakeMode::Normal)).is_err());
                assert_eq!(game.game().state_hash(), before);
                let legal = game.game().legal_actions_vec(me);
                // The person plays the last legal action (pass, stop, ...).
                game.submit(me, *legal.last().unwrap()).unwrap();
                my_moves += 1;
            }
        }
    }
    assert!(my_moves > 0);
    assert!(game.result().is_some());
    assert!(game.drain_applied().count() > 0);
    let frames = roundtable_table::transcript::read(&path).unwrap().frames;
    assert!(audit::<PortRoyal>(&frames).unwrap().is_valid());
}

/// `seeded_seats` says before the game is founded where each player will
/// sit, so that `roundtable play` can name its bots after their seats; it
/// must agree with the seats the genesis gives them.
#[test]
fn seeded_seats_are_the_seats_the_game_gives() {
    for seats in 2..=5u8 {
        for seed in 0..20u64 {
            let players = (0..seats)
                .map(|i| {
                    (
                        format!("player {i}"),
                        Player::Bot(Box::new(RandomBot::new(u64::from(i))) as _),
                    )
                })
                .collect();
            let game = LocalGame::<PortRoyal>::new(
                &Options::default(),
                seed,
                players,
                None,
                Config::default(),
            )
            .unwrap();
            let given: Vec<_> = (0..usize::from(seats))
                .map(|i| game.seat_of_player(i).unwrap())
                .collect();
            assert_eq!(
                roundtable_local::seeded_seats(seed, seats),
                given,
                "{seats} seats, seed {seed}"
            );
        }
    }
}
