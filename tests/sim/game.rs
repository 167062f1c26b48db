//! What the simulator needs of a game beyond the engine's contract: its bots
//! and the actions its cheaters forge.

use roundtable_bots::{Bot, PortRoyalBot};
use roundtable_engine::Game;
use roundtable_port_royal::{Action, PortRoyal, TakeMode};

/// A game the simulator can play between peers.
///
/// Every seat is played by a bot that decides through its table, from the
/// shared state and the seat's own knowledge (`Bot::choose_in` over
/// `Game::legal_actions_with`), exactly as a person's move is made. A seat
/// gets the game's own heuristic bot when the configuration asks for smart
/// bots at odd seats and the game has one; every other seat gets a
/// `RandomBot` seeded from the run.
pub trait SimGame: Game {
    /// The game's heuristic bot for a seat, if it has one.
    fn smart_bot(options: &Self::Options) -> Option<Box<dyn Bot<Self>>>;

    /// Actions among which a cheater looks for one the rules refuse at its
    /// decision (`Cheat::IllegalAction`); the first not legal is signed.
    fn illegal_candidates() -> Vec<Self::Action>;

    /// An action a cheater signs where the protocol owes no action at all
    /// (`Cheat::ActionForSeedOpening`).
    fn stray_action() -> Self::Action;
}

impl SimGame for PortRoyal {
    fn smart_bot(options: &roundtable_port_royal::Options) -> Option<Box<dyn Bot<Self>>> {
        Some(Box::new(PortRoyalBot::new(options)))
    }

    fn illegal_candidates() -> Vec<Action> {
        vec![
            Action::Draw,
            Action::Repel,
            Action::Keep,
            Action::Stop,
            Action::Pass,
            Action::Claim(0),
            Action::Claim(4),
            Action::Take(0, TakeMode::Normal),
            Action::Take(9, TakeMode::Normal),
        ]
    }

    fn stray_action() -> Action {
        Action::Pass
    }
}
