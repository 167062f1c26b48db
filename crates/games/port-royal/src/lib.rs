//! Port Royal for roundtable: the card catalog and every rule of the base
//! game with the online table's rule changes and variants.
//!
//! [`PortRoyal`] implements [`roundtable_engine::Game`]. The rules text in
//! `shared/rules/port-royal.en.txt` is the authority; where it is silent or
//! ambiguous the choice made here is listed below, and each is pinned by a
//! scenario under `tests/scenarios/port-royal/`.
//!
//! # Decisions on ambiguities
//!
//! * **Extra tax increase** (the online table's stall rules): it halves the
//!   coins of every player with 12 or more, like a printed tax increase, but
//!   pays no bonus — there is no card, so there is no bonus symbol, and its
//!   only purpose in the text is to bring hoarded coins back into play. It is
//!   resolved *before* the reshuffle it precedes, so the halved coins join the
//!   new draw pile. It comes when a Discover needs a card and both piles are
//!   empty, and before the second (and every later) reshuffle of one Discover.
//!   Coin draws inside Discover count as well as the reveal itself.
//! * **A turn with nothing to draw**: if both piles are empty and no tax can
//!   refill them, the active player may stop without drawing. A whole round of
//!   such turns means no card can ever move again; the game then ends and is
//!   ranked as it stands (the text has no rule for this dead end).
//! * **Claiming expeditions** is allowed to the active player in Discover (not
//!   while a revealed ship waits for repel or keep) and during its own time to
//!   take in Trade & Hire, including after its last take — then the engine
//!   waits for it to claim or pass. Matching persons are discarded first and
//!   Jacks of all Trades only for what is missing (keeping a Jack is never
//!   worse). A bust ends the turn at once, so "two ships of one colour in the
//!   harbor" never leaves a claim open; the check exists and is enforced.
//! * **Keeping a repellable ship of a colour already in the harbor** busts
//!   like an unrepellable one: the text ends a Discover when "2 identically
//!   colored ships are in the harbor display", and keeping puts them there.
//! * **The active player may take nothing** ("may take 1-3 cards"); the other
//!   players still get their time to take, each paying him the compensation
//!   coin. A claim is also allowed before the first draw of a turn.
//! * **Compensation**: a non-active taker with coins pays the active player
//!   before taking; one with none pays out of the ship's income. A ship is
//!   takeable by a coinless non-active player only while the piles can pay.
//! * **Bonuses at "your time to take"** (Admirals, Jesters on an empty
//!   harbor) are paid before it is decided whether the seat can afford
//!   anything, so a skipped seat still gets them, as the online table says.
//!   The active player's number of takes is fixed at that moment (colours in
//!   the harbor plus Governors) and does not shrink as ships leave.
//! * **Abilities stack** per copy: each Jester pays 1 coin, each Admiral 2.
//! * **Payment order**: coins are paid in seat order from the active seat;
//!   spent coins leave a player's pile oldest shuffle epoch first.
//! * **The tax card** goes onto the discard pile after its bonus is paid.

mod action;
pub mod catalog;
pub mod contracts;
mod error;
mod event;
mod rules;
mod view;

use roundtable_engine::SetupError;
use serde::{Deserialize, Serialize};

pub use action::{Action, TakeMode};
pub use catalog::{CATALOG, CardId, CardKind, CardType, Colour, PersonKind, TaxKind};
pub use contracts::{CONTRACTS, ContractId, ContractType, Requirement};
pub use error::RuleViolation;
pub use event::{CoinReason, Event};
pub use rules::PortRoyal;
pub use view::{CardName, PlayerView, SeatNumber, View};

/// Rule options and the online table's variants.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// "Just One More Contract": new persons, ships and four face-up contracts.
    pub expansion: bool,
    /// Skip a non-active player whose only possible take is a ship that earns
    /// nothing after the compensation coin.
    pub pass_automatically: bool,
    /// A player needs an expedition to end the game, and players with one
    /// rank above players without.
    pub expedition_required: bool,
    /// Victory points that end the game after the round.
    pub victory_points: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            expansion: false,
            pass_automatically: false,
            expedition_required: false,
            victory_points: 12,
        }
    }
}

impl Options {
    fn validate(&self) -> Result<(), SetupError> {
        if self.expansion {
            return Err(SetupError::Option {
                name: "expansion".into(),
                reason: "\"Just One More Contract\" is not available yet".into(),
            });
        }
        if !(1..=60).contains(&self.victory_points) {
            return Err(SetupError::Option {
                name: "victory_points".into(),
                reason: format!("{} is outside 1..=60", self.victory_points),
            });
        }
        Ok(())
    }
}
