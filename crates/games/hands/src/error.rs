//! Refused inputs, each naming the rule it broke.

use roundtable_engine::{CardHandle, RuleError, Seat};

/// An input the rules refuse. The state is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HandsError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// Another seat has the decision.
    #[error("it is {expected}'s turn, not {seat}'s")]
    NotYourTurn {
        /// Who tried.
        seat: Seat,
        /// Whose turn it is.
        expected: Seat,
    },
    /// The game waits for a step of the private deal, not a decision.
    #[error("the game waits for the deal, not for a decision")]
    WaitingForDeal,
    /// A chance outcome was given; this game has no chance requests.
    #[error("this game asks for no chance outcomes")]
    NoChance,
    /// A deal was applied while none was pending.
    #[error("no deal is pending")]
    NoDealPending,
    /// A reveal was applied while none was pending.
    #[error("no reveal is pending")]
    NoRevealPending,
    /// A reshuffle was applied while none was pending.
    #[error("no reshuffle is pending")]
    NoReshufflePending,
    /// The revealed cards do not answer the request or the claim: other
    /// handles, a different number, or another order.
    #[error("the revealed cards are not the ones asked for")]
    RevealMismatch,
    /// A card index outside the catalog.
    #[error("catalog index {0} is not a card of this game")]
    NoSuchCard(u32),
    /// A play names a handle that is not in the seat's hand.
    #[error("{seat} does not hold slot {} of epoch {}", .handle.slot, .handle.epoch.0)]
    HandleNotHeld {
        /// Who played.
        seat: Seat,
        /// The handle named.
        handle: CardHandle,
    },
    /// A play arrived without the opened identity of its card.
    #[error("a played card must be revealed with the play")]
    CardNotRevealed,
    /// A play claims a card other than the one its handle holds.
    #[error("{seat} claims card {claimed} but slot {} of epoch {} holds card {held}", .handle.slot, .handle.epoch.0)]
    CardNotHeld {
        /// Who played.
        seat: Seat,
        /// The handle played.
        handle: CardHandle,
        /// The card the play claimed.
        claimed: u32,
        /// The card the handle was opened to.
        held: u32,
    },
    /// The card neither outranks the top of the pile nor follows its suit.
    #[error("card {card} is neither higher than nor the same suit as card {top} on the pile")]
    CardTooLow {
        /// The card played.
        card: u32,
        /// The card on top of the pile.
        top: u32,
    },
}

impl RuleError for HandsError {
    fn rule(&self) -> &'static str {
        match self {
            HandsError::GameOver => "game-over",
            HandsError::NotYourTurn { .. } => "not-your-turn",
            HandsError::WaitingForDeal => "waiting-for-deal",
            HandsError::NoChance => "no-chance",
            HandsError::NoDealPending => "no-deal-pending",
            HandsError::NoRevealPending => "no-reveal-pending",
            HandsError::NoReshufflePending => "no-reshuffle-pending",
            HandsError::RevealMismatch => "reveal-mismatch",
            HandsError::NoSuchCard(_) => "no-such-card",
            HandsError::HandleNotHeld { .. } => "handle-not-held",
            HandsError::CardNotRevealed => "card-not-revealed",
            HandsError::CardNotHeld { .. } => "card-not-held",
            HandsError::CardTooLow { .. } => "card-too-low",
        }
    }
}
