//! Bots at in-process tables decide from the state their table holds (so a
//! search bot has something to search), and a bot's turn can be taken out
//! of the game and brought back, as a front end that lets bots think on a
//! thread of their own does.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use roundtable_bots::{Bot, RandomBot};
use roundtable_engine::{Game, Knowledge, Seat};
use roundtable_local::{LocalError, LocalGame, Player, Progress};
use roundtable_port_royal::{Action, Options, PortRoyal, View};
use roundtable_table::Config;

/// Counts how it was asked: with the table's state, or with a view only.
struct Counting {
    with_state: Arc<AtomicUsize>,
    with_view: Arc<AtomicUsize>,
    random: RandomBot,
}

impl Bot<PortRoyal> for Counting {
    fn name(&self) -> &'static str {
        "counting"
    }

    fn choose(&mut self, seat: Seat, view: &View, legal: &[Action]) -> usize {
        self.with_view.fetch_add(1, Ordering::Relaxed);
        Bot::<PortRoyal>::choose(&mut self.random, seat, view, legal)
    }

    fn choose_in(
        &mut self,
        seat: Seat,
        state: &PortRoyal,
        knowledge: &Knowledge,
        legal: &[Action],
    ) -> usize {
        self.with_state.fetch_add(1, Ordering::Relaxed);
        assert_eq!(&state.legal_actions_vec(seat)[..], legal);
        self.random.choose_in(seat, state, knowledge, legal)
    }
}

fn short_game() -> Options {
    Options {
        victory_points: 5,
        ..Options::default()
    }
}

#[test]
fn bots_decide_from_the_state_their_table_holds() {
    let with_state = Arc::new(AtomicUsize::new(0));
    let with_view = Arc::new(AtomicUsize::new(0));
    let players = (0..3)
        .map(|i| {
            let bot = Counting {
                with_state: Arc::clone(&with_state),
                with_view: Arc::clone(&with_view),
                random: RandomBot::new(i),
            };
            (format!("bot {i}"), Player::Bot(Box::new(bot) as _))
        })
        .collect();
    let mut game =
        LocalGame::<PortRoyal>::new(&short_game(), 9, players, None, Config::default()).unwrap();
    assert_eq!(game.run().unwrap(), Progress::Finished);
    assert!(with_state.load(Ordering::Relaxed) > 0);
    assert_eq!(with_view.load(Ordering::Relaxed), 0);
}

#[test]
fn a_bot_turn_taken_out_comes_back_once_and_only_where_it_was_taken() {
    let players = (0..2)
        .map(|i| {
            (
                format!("bot {i}"),
                Player::Bot(Box::new(RandomBot::new(i)) as _),
            )
        })
        .collect();
    let mut game =
        LocalGame::<PortRoyal>::new(&short_game(), 4, players, None, Config::default()).unwrap();
    let Progress::Bot(seat) = game.settle().unwrap() else {
        panic!("bots only: a bot moves first");
    };
    let other = Seat(1 - seat.0);
    assert!(game.take_bot_turn(other).is_err(), "not the other's turn");
    let turn = game.take_bot_turn(seat).unwrap();
    assert_eq!(turn.seat(), seat);
    // While the bot is out, the game waits for it and cannot lend it again.
    assert_eq!(game.settle().unwrap(), Progress::Bot(seat));
    assert!(matches!(
        game.take_bot_turn(seat),
        Err(LocalError::StaleBotMove(_))
    ));
    assert!(game.move_bot(seat).is_err());
    game.play_bot_move(turn.decide()).unwrap();
    // The bot is back at its seat: the game plays on to its end.
    assert_eq!(game.run().unwrap(), Progress::Finished);
}
