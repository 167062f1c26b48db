//! Refused inputs, each naming the rule it broke.

use roundtable_engine::{CardHandle, RuleError, Seat};

use crate::catalog::{Card, Profession};

/// An input the rules refuse. The state is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GuildhallError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// Another seat has the decision.
    #[error("it is {expected}'s decision, not {seat}'s")]
    NotYourTurn {
        /// Who tried.
        seat: Seat,
        /// Who decides.
        expected: Seat,
    },
    /// The game waits for the deal or the VP deck, not for a decision.
    #[error("the game waits for a deal or a VP card, not for a decision")]
    WaitingForDeal,
    /// A chance outcome was given while none was asked for, or one the
    /// request cannot produce.
    #[error("that is not an outcome of the pending VP-card draw")]
    BadOutcome,
    /// A deal, reveal or reshuffle was answered while none was pending.
    #[error("no {0} is pending")]
    NotPending(&'static str),
    /// The revealed cards do not answer the claim.
    #[error("the revealed cards are not the ones claimed")]
    RevealMismatch,
    /// A catalog index outside the catalog.
    #[error("catalog index {0} is not a Guildhall card")]
    NoSuchCard(u32),
    /// A face-down card was played without its opened identity.
    #[error("a card from the hand must be revealed with the action")]
    CardNotRevealed,
    /// A slot that is not in the seat's hand.
    #[error("{seat} does not hold slot {} of epoch {}", .handle.slot, .handle.epoch.0)]
    HandleNotHeld {
        /// Who acted.
        seat: Seat,
        /// The handle named.
        handle: CardHandle,
    },
    /// The claimed card is not the one the slot holds (or, for a card known
    /// to everyone, the seat holds no such card).
    #[error("{seat} claims {claimed} but does not hold it there")]
    CardNotHeld {
        /// Who acted.
        seat: Seat,
        /// The card claimed.
        claimed: Card,
    },
    /// The action does not belong to the step the game is at.
    #[error("{0} is not possible now")]
    WrongStep(&'static str),
    /// No action is left this turn.
    #[error("no action is left this turn")]
    NoActionsLeft,
    /// The card is already in the guildhall it would go to.
    #[error("{card} is already in {seat}'s guildhall")]
    Duplicate {
        /// The guildhall's seat.
        seat: Seat,
        /// The duplicated card.
        card: Card,
    },
    /// A profession was already played this turn.
    #[error("a {} was already played this turn", .0.name())]
    ProfessionPlayedThisTurn(Profession),
    /// The level is not one of the card's, or above the chapter.
    #[error(
        "level {level} is not available: the chapter has {has} cards and the card's levels are {levels:?}"
    )]
    LevelNotAvailable {
        /// The level asked for.
        level: u8,
        /// Cards of the profession in the guildhall.
        has: u8,
        /// The card's printed levels.
        levels: &'static [u8],
    },
    /// The ability at this level cannot be done in full (no part of a level).
    #[error("the whole effect of this level cannot be done")]
    AbilityIncomplete,
    /// A card that is not in that guildhall (completed chapters are immune).
    #[error("{card} is not in {seat}'s guildhall")]
    NotInGuildhall {
        /// The guildhall's seat.
        seat: Seat,
        /// The card named.
        card: Card,
    },
    /// The target is not another seat at the table.
    #[error("{0} is not another player")]
    NotAnOpponent(Seat),
    /// An ability's cards must all come from one opponent.
    #[error("this ability's cards all come from {0}")]
    OneOpponentOnly(Seat),
    /// Assassin level 2 takes its two cards from two different chapters.
    #[error("level 2 takes its cards from two different chapters")]
    SameChapter,
    /// The card is not in the discard pile.
    #[error("{0} is not in the discard pile")]
    NotInDiscard(Card),
    /// The VP card is not in the centre row.
    #[error("no {0} VP card is in the centre row")]
    NotInRow(&'static str),
    /// Too few completed chapters to pay for the VP card.
    #[error("the VP card costs {cost} completed chapters; {seat} has {has}")]
    NotEnoughChapters {
        /// Who buys.
        seat: Seat,
        /// The price.
        cost: u32,
        /// Completed chapters held.
        has: u32,
    },
    /// No completed chapter of that profession.
    #[error("{seat} has no completed {} chapter", .profession.name())]
    NoCompletedChapter {
        /// Whose chapters.
        seat: Seat,
        /// The profession named.
        profession: Profession,
    },
    /// No incomplete chapter of that profession (an empty chapter cannot move).
    #[error("{seat} has no {} cards in its guildhall", .profession.name())]
    EmptyChapter {
        /// Whose guildhall.
        seat: Seat,
        /// The profession named.
        profession: Profession,
    },
    /// The order of a chapter's cards is chosen only under Yucata's third
    /// change, and then it must be chosen.
    #[error("the top card of a discarded chapter {0}")]
    ChapterOrder(&'static str),
    /// A seat sheds chapters only with more than three completed.
    #[error("{0} does not hold more than three completed chapters")]
    NoExcessChapters(Seat),
}

impl RuleError for GuildhallError {
    fn rule(&self) -> &'static str {
        use GuildhallError as E;
        match self {
            E::GameOver => "game-over",
            E::NotYourTurn { .. } => "not-your-turn",
            E::WaitingForDeal => "waiting-for-deal",
            E::BadOutcome => "bad-outcome",
            E::NotPending(_) => "not-pending",
            E::RevealMismatch => "reveal-mismatch",
            E::NoSuchCard(_) => "no-such-card",
            E::CardNotRevealed => "card-not-revealed",
            E::HandleNotHeld { .. } => "handle-not-held",
            E::CardNotHeld { .. } => "card-not-held",
            E::WrongStep(_) => "wrong-step",
            E::NoActionsLeft => "no-actions-left",
            E::Duplicate { .. } => "duplicate",
            E::ProfessionPlayedThisTurn(_) => "one-per-profession",
            E::LevelNotAvailable { .. } => "level-not-available",
            E::AbilityIncomplete => "ability-incomplete",
            E::NotInGuildhall { .. } => "not-in-guildhall",
            E::NotAnOpponent(_) => "not-an-opponent",
            E::OneOpponentOnly(_) => "one-opponent-only",
            E::SameChapter => "same-chapter",
            E::NotInDiscard(_) => "not-in-discard",
            E::NotInRow(_) => "not-in-row",
            E::NotEnoughChapters { .. } => "not-enough-chapters",
            E::NoCompletedChapter { .. } => "no-completed-chapter",
            E::EmptyChapter { .. } => "empty-chapter",
            E::ChapterOrder(_) => "chapter-order",
            E::NoExcessChapters(_) => "no-excess-chapters",
        }
    }
}
