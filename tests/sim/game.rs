//! What the simulator needs of a game beyond the engine's contract: its bots
//! and the actions its cheaters forge.

use roundtable_bots::{Bot, PortRoyalBot};
use roundtable_engine::{CardHandle, EpochId, Game};
use roundtable_hands::Hands;
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

    /// `action`, which plays private cards face up, claiming another card
    /// for one of them (`Cheat::FalseClaim`); `None` when it plays none.
    fn false_claim(action: &Self::Action) -> Option<Self::Action>;
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

    /// Port Royal has no private cards to claim.
    fn false_claim(_action: &Action) -> Option<Action> {
        None
    }
}

/// Hands, the small game with private hands: random bots only, choosing
/// from their seat's opened cards.
impl SimGame for Hands {
    fn smart_bot(_options: &roundtable_hands::Options) -> Option<Box<dyn Bot<Self>>> {
        None
    }

    /// Plays of the first slots of the first deck: one of them names a card
    /// the cheater does not hold there, and a play in a plain action (with
    /// no share to open the card) is refused whatever it names.
    fn illegal_candidates() -> Vec<roundtable_hands::Action> {
        (0..2)
            .flat_map(|slot| {
                (0..2).map(move |card| roundtable_hands::Action::Play {
                    handle: CardHandle::new(EpochId(0), slot),
                    card,
                })
            })
            .collect()
    }

    fn stray_action() -> roundtable_hands::Action {
        roundtable_hands::Action::Pass
    }

    /// The next card of the catalog in place of the one in the slot.
    fn false_claim(action: &roundtable_hands::Action) -> Option<roundtable_hands::Action> {
        match *action {
            roundtable_hands::Action::Play { handle, card } => {
                let cards = roundtable_hands::CATALOG.len() as u32;
                Some(roundtable_hands::Action::Play {
                    handle,
                    card: (card + 1) % cards,
                })
            }
            roundtable_hands::Action::Pass => None,
        }
    }
}
