//! Refused inputs, each naming the rule it broke.

use roundtable_engine::{CardHandle, RuleError, Seat};

use crate::action::Slot;
use crate::data::{Colour, Crew};

/// An input the rules refuse. The state is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NereusError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// Another seat has the decision, or none does.
    #[error("{0} has no decision to make now")]
    NotYourTurn(Seat),
    /// A chance outcome that the pending request cannot produce, or none is pending.
    #[error("that is not an outcome of the pending chance request")]
    BadOutcome,
    /// A deal, reveal or reshuffle answered while none was pending.
    #[error("no {0} is pending")]
    NotPending(&'static str),
    /// The action does not belong to the step the game is at.
    #[error("{0} is not possible now")]
    WrongStep(&'static str),
    /// The crew card was already played today.
    #[error("the {0} was already played today")]
    CrewAlreadyPlayed(Crew),
    /// The action space is taken or not on this board side.
    #[error("space {0} of the row is not free")]
    SpaceTaken(u8),
    /// A crew action while no marker was placed, or of another crew.
    #[error("the {0} action is not the chosen crew's")]
    NotYourCrew(&'static str),
    /// The basic, gold or enhanced action was used already this turn.
    #[error("the {0} action was used already this turn")]
    AlreadyUsed(&'static str),
    /// The enhanced action needs the crew's hold complete before this turn.
    #[error("the {0}'s hold was not complete before this turn")]
    HoldNotComplete(Crew),
    /// Not enough gold.
    #[error("this costs {cost} gold and {seat} has {gold}")]
    NotEnoughGold {
        /// Who pays.
        seat: Seat,
        /// What it costs.
        cost: u32,
        /// What the seat has.
        gold: u32,
    },
    /// A move through the board's edge.
    #[error("the move leaves the board")]
    OffBoard,
    /// A move ending on a ship.
    #[error("a ship may not stop on another ship")]
    StopOnShip,
    /// A move the space's heading or length does not allow.
    #[error("the move is not allowed: {0}")]
    BadMove(&'static str),
    /// Nothing of that colour to take there.
    #[error("no {0} treasure there")]
    NoSuchTreasure(Colour),
    /// The cabin space is not free, or its icon does not take the colour.
    #[error("{colour} does not fit {slot}")]
    DoesNotFit {
        /// The treasure.
        colour: Colour,
        /// The space.
        slot: Slot,
    },
    /// No such treasure in the hand.
    #[error("no {0} treasure in hand")]
    NotInHand(Colour),
    /// The cabin space holds nothing movable (empty, chest, completed).
    #[error("nothing can be moved from {0}")]
    NothingThere(Slot),
    /// The cabin space named does not exist.
    #[error("{0} is not a space of the cabin")]
    NoSuchSlot(Slot),
    /// No gem in storage, or no free gem space.
    #[error("{0}")]
    Gems(&'static str),
    /// No boatswain moves left.
    #[error("no treasure moves left this turn")]
    NoMovesLeft,
    /// Another crew action while the boatswain's open action still has
    /// treasure moves it could make.
    #[error(
        "the boatswain's treasure moves are not finished: a crew's basic, gold and enhanced actions are each done whole, one after the other"
    )]
    ActionUnfinished,
    /// Free actions wait until the crew's actions are done.
    #[error("selling, gems and science cards wait until the crew's actions are done")]
    CrewInProgress,
    /// A science card with no science power left.
    #[error("playing a science card needs science power, and it is 0")]
    NoSciencePower,
    /// A game-end card during a turn, or a turn card at game end.
    #[error("that science card is played {0}")]
    WrongTime(&'static str),
    /// A game-end card whose condition is not met.
    #[error("the card's condition is not met")]
    ConditionNotMet,
    /// The revealed cards do not answer the claim.
    #[error("the revealed card is not the one claimed")]
    RevealMismatch,
    /// The card was played without its opened identity.
    #[error("a science card must be revealed with the action")]
    CardNotRevealed,
    /// A slot that is not in the seat's hand.
    #[error("{seat} does not hold slot {} of epoch {}", .handle.slot, .handle.epoch.0)]
    HandleNotHeld {
        /// Who acted.
        seat: Seat,
        /// The handle named.
        handle: CardHandle,
    },
    /// The explorer's extra turn names a crew with no free space.
    #[error("the {0}'s row has no free space")]
    RowFull(Crew),
    /// The treasures in hand must be placed or let go first.
    #[error("the turn cannot end while the crew's actions are open")]
    MustCloseCrew,
    /// The marker must be placed before the turn ends.
    #[error("the action marker must be placed first")]
    MustPlace,
}

impl RuleError for NereusError {
    fn rule(&self) -> &'static str {
        match self {
            NereusError::GameOver => "game-over",
            NereusError::NotYourTurn(_) => "not-your-turn",
            NereusError::BadOutcome => "bad-outcome",
            NereusError::NotPending(_) => "not-pending",
            NereusError::WrongStep(_) => "wrong-step",
            NereusError::CrewAlreadyPlayed(_) => "crew-already-played",
            NereusError::SpaceTaken(_) => "space-taken",
            NereusError::NotYourCrew(_) => "not-your-crew",
            NereusError::AlreadyUsed(_) => "action-already-used",
            NereusError::HoldNotComplete(_) => "hold-not-complete",
            NereusError::NotEnoughGold { .. } => "not-enough-gold",
            NereusError::OffBoard => "off-board",
            NereusError::StopOnShip => "stop-on-ship",
            NereusError::BadMove(_) => "bad-move",
            NereusError::NoSuchTreasure(_) => "no-such-treasure",
            NereusError::DoesNotFit { .. } => "does-not-fit",
            NereusError::NotInHand(_) => "not-in-hand",
            NereusError::NothingThere(_) => "nothing-there",
            NereusError::NoSuchSlot(_) => "no-such-space",
            NereusError::Gems(_) => "gems",
            NereusError::NoMovesLeft => "no-moves-left",
            NereusError::ActionUnfinished => "action-unfinished",
            NereusError::CrewInProgress => "crew-in-progress",
            NereusError::NoSciencePower => "no-science-power",
            NereusError::WrongTime(_) => "wrong-time",
            NereusError::ConditionNotMet => "condition-not-met",
            NereusError::RevealMismatch => "reveal-mismatch",
            NereusError::CardNotRevealed => "card-not-revealed",
            NereusError::HandleNotHeld { .. } => "card-not-held",
            NereusError::RowFull(_) => "row-full",
            NereusError::MustCloseCrew => "crew-not-done",
            NereusError::MustPlace => "must-place",
        }
    }
}
