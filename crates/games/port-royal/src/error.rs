//! Refused inputs, each naming the rule it broke.

use roundtable_engine::{RuleError, Seat};

use crate::action::Action;
use crate::contracts::ContractId;

/// An input the rules refuse. The state is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleViolation {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The game waits for a chance outcome, not a decision.
    #[error("the game waits for chance ({0}), not for a decision")]
    WaitingForChance(&'static str),
    /// The game waits for a decision, not a chance outcome.
    #[error("no chance outcome is pending")]
    NoChancePending,
    /// The outcome is not possible under the pending distribution.
    #[error("{0} is not a possible outcome now")]
    ImpossibleOutcome(String),
    /// Another seat has the decision.
    #[error("it is {expected}'s decision, not {seat}'s")]
    NotYourTurn {
        /// Who tried.
        seat: Seat,
        /// Who decides now.
        expected: Seat,
    },
    /// The action belongs to another phase.
    #[error("{action} is not possible in the {phase} phase")]
    WrongPhase {
        /// The action.
        action: Action,
        /// The phase now.
        phase: &'static str,
    },
    /// A revealed ship waits for repel or keep.
    #[error("decide first whether to repel or keep the ship just revealed")]
    RepelOrKeepFirst,
    /// Repel or keep without a ship waiting for it.
    #[error("there is no ship waiting to be repelled or kept")]
    NoShipToRepel,
    /// Stop before the first card of the turn.
    #[error("the active player must draw at least one card before stopping")]
    MustDrawFirst,
    /// Both piles are empty and no tax can refill them.
    #[error("both piles are empty: there is nothing to draw")]
    NothingToDraw,
    /// No harbor card at that position.
    #[error("the harbor has no card at position {position} (it holds {len})")]
    NoSuchCard {
        /// The position asked for.
        position: u8,
        /// Cards in the harbor.
        len: usize,
    },
    /// No face-up expedition at that position.
    #[error("there is no expedition at position {position} (there are {len})")]
    NoSuchExpedition {
        /// The position asked for.
        position: u8,
        /// Expeditions face up.
        len: usize,
    },
    /// Every take of this Trade & Hire is used.
    #[error("no more cards may be taken this Trade & Hire")]
    NoTakesLeft,
    /// Not enough coins for the card.
    #[error("taking that card costs {cost} coins; {seat} has {coins}")]
    CannotAfford {
        /// The taker.
        seat: Seat,
        /// Coins it would cost (hire cost after discounts, plus compensation).
        cost: u32,
        /// Coins the taker has.
        coins: u32,
    },
    /// Only the active player claims expeditions.
    #[error("only the active player may claim an expedition")]
    OnlyActiveClaims,
    /// Two ships of one colour in the harbor forbid claiming.
    #[error("no expedition may be claimed while two ships of one colour are in the harbor")]
    DuplicateColourInHarbor,
    /// The seat lacks the persons an expedition needs.
    #[error("{seat} lacks the persons this expedition needs")]
    ExpeditionRequirements {
        /// The seat.
        seat: Seat,
    },
    /// A trade mode that needs the expansion or does not fit the card.
    #[error("{0}")]
    TakeModeNotAllowed(&'static str),
    /// Expansion: a gift ship is taken naming the player who gains its coin.
    #[error("a gift ship gives another player 1 coin: take it as \"take N gift S\"")]
    GiftSeatRequired,
    /// Expansion: only gift ships give a coin to another player.
    #[error("only the expansion's gift ships give another player a coin")]
    NotAGiftShip,
    /// Expansion: the gift goes to another player, not the taker.
    #[error("a gift ship's coin goes to another player of the taker's choice")]
    GiftToAnotherPlayer,
    /// A seat that is not at the table.
    #[error("{seat} is not at this table")]
    NoSuchSeat {
        /// The seat named.
        seat: Seat,
    },
    /// Expansion: coins are declined only for Frigate Foe or Galleon Foe.
    #[error(
        "declining a ship's coins is only for a face-up Frigate Foe or Galleon Foe of its colour"
    )]
    DeclineNeedsFoeContract,
    /// Expansion: each player completes each contract once.
    #[error("{contract} is already completed by this player; each contract is completed once")]
    ContractAlreadyCompleted {
        /// The contract.
        contract: ContractId,
    },
    /// Expansion: a progress cube needs a cube not yet on a contract.
    #[error("all 3 cubes are on contracts: none is left for a progress cube")]
    NoFreeCube,
    /// Expansion: a non-active player pays the compensation coin before it declines.
    #[error(
        "a non-active player must pay the active player a coin before declining a ship's coins"
    )]
    DeclineNeedsCompensationCoin,
}

impl RuleError for RuleViolation {
    fn rule(&self) -> &'static str {
        match self {
            RuleViolation::GameOver => "game-over",
            RuleViolation::WaitingForChance(_) => "waiting-for-chance",
            RuleViolation::NoChancePending => "no-chance-pending",
            RuleViolation::ImpossibleOutcome(_) => "impossible-outcome",
            RuleViolation::NotYourTurn { .. } => "not-your-turn",
            RuleViolation::WrongPhase { .. } => "wrong-phase",
            RuleViolation::RepelOrKeepFirst => "repel-or-keep-first",
            RuleViolation::NoShipToRepel => "no-ship-to-repel",
            RuleViolation::MustDrawFirst => "must-draw-first",
            RuleViolation::NothingToDraw => "nothing-to-draw",
            RuleViolation::NoSuchCard { .. } => "no-such-card",
            RuleViolation::NoSuchExpedition { .. } => "no-such-expedition",
            RuleViolation::NoTakesLeft => "no-takes-left",
            RuleViolation::CannotAfford { .. } => "cannot-afford",
            RuleViolation::OnlyActiveClaims => "only-active-claims",
            RuleViolation::DuplicateColourInHarbor => "duplicate-colour-in-harbor",
            RuleViolation::ExpeditionRequirements { .. } => "expedition-requirements",
            RuleViolation::TakeModeNotAllowed(_) => "take-mode-not-allowed",
            RuleViolation::GiftSeatRequired => "gift-seat-required",
            RuleViolation::NotAGiftShip => "not-a-gift-ship",
            RuleViolation::GiftToAnotherPlayer => "gift-to-another-player",
            RuleViolation::NoSuchSeat { .. } => "no-such-seat",
            RuleViolation::DeclineNeedsFoeContract => "decline-needs-foe-contract",
            RuleViolation::ContractAlreadyCompleted { .. } => "contract-already-completed",
            RuleViolation::NoFreeCube => "no-free-cube",
            RuleViolation::DeclineNeedsCompensationCoin => "decline-needs-compensation-coin",
        }
    }
}
