//! Cards known to one seat: handles, private requests, a seat's knowledge.
//!
//! The contract itself is described in the crate docs ("Cards known to one
//! seat"); this module holds its types.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::{EpochId, RuleError, Seat};

/// A card dealt by all seats together: slot `slot` of the deck shuffled in
/// epoch `epoch`.
///
/// The handle is all the shared state ever holds of a private card. Which
/// card lies in the slot is known to the seat it was dealt to (its
/// [`Knowledge`]), to everyone once the card is revealed, and to nobody else.
/// Handles order by epoch, then slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CardHandle {
    /// The shuffle epoch of the deck the slot belongs to (0 for the first
    /// deck, one more for every reshuffle).
    pub epoch: EpochId,
    /// The slot's index in that deck, from 0.
    pub slot: u32,
}

impl CardHandle {
    /// The handle of `slot` in the deck of `epoch`.
    pub fn new(epoch: EpochId, slot: u32) -> Self {
        CardHandle { epoch, slot }
    }
}

/// A handle with the card it holds (a catalog index): a card revealed to
/// everyone, or the card an action claims to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Revealed {
    /// The slot.
    pub handle: CardHandle,
    /// The card's catalog index.
    pub card: u32,
}

/// A step of the private deal the game waits for. Answered with
/// [`Game::apply_deal`](crate::Game::apply_deal),
/// [`Game::apply_reveal`](crate::Game::apply_reveal) or
/// [`Game::apply_reshuffle`](crate::Game::apply_reshuffle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrivateRequest<'a> {
    /// Deal the next `count` slots of the current deck, starting at `first`,
    /// to seat `to`. Every other seat publishes its decryption shares for
    /// those slots; only `to` opens them. The state learns nothing but that
    /// the slots are now in `to`'s hand.
    Deal {
        /// The seat that receives the cards.
        to: Seat,
        /// The first slot dealt; the others follow it in the same epoch.
        first: CardHandle,
        /// How many slots, at least 1.
        count: u32,
    },
    /// Show every peer the cards in `handles` (every holder publishes its
    /// share). Answered with each handle's card, in the same order.
    Reveal {
        /// The slots to open, in the order the answer lists them.
        handles: &'a [CardHandle],
    },
    /// Turn a public pile, whose cards everyone knows, into a fresh deck of
    /// `pile.len()` unknown slots in epoch `epoch`: every peer rebuilds the
    /// open deck of `pile` in this order and every seat shuffles it.
    Reshuffle {
        /// The pile's cards (catalog indices) in the order the game lists them.
        pile: &'a [u32],
        /// The new deck's epoch.
        epoch: EpochId,
    },
}

/// What one seat knows of the private cards: the identities its table
/// opened (the cards dealt to it). Kept by that seat's table, never in the
/// shared state, and passed to [`Game::view_with`](crate::Game::view_with)
/// and [`Game::legal_actions_with`](crate::Game::legal_actions_with).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Knowledge {
    cards: BTreeMap<CardHandle, u32>,
}

impl Knowledge {
    /// Knowing nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// Record that `handle` holds `card`.
    pub fn learn(&mut self, handle: CardHandle, card: u32) {
        self.cards.insert(handle, card);
    }

    /// The card in `handle`, if this seat has opened it.
    pub fn card(&self, handle: CardHandle) -> Option<u32> {
        self.cards.get(&handle).copied()
    }

    /// Every opened handle with its card, in handle order.
    pub fn iter(&self) -> impl Iterator<Item = Revealed> + '_ {
        self.cards
            .iter()
            .map(|(&handle, &card)| Revealed { handle, card })
    }

    /// How many handles this seat has opened.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Whether this seat has opened nothing.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }
}

/// A refused private-card input: the game deals no private cards, or it
/// refused the input by one of its rules.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PrivateError<E: RuleError> {
    /// The game has no private cards, so it has nothing to deal, reveal or
    /// reshuffle (the default of every private-card method).
    #[error("{game} has no private cards")]
    Unsupported {
        /// The game's name.
        game: &'static str,
    },
    /// The game refused the input by one of its rules.
    #[error(transparent)]
    Rule(#[from] E),
}

impl<E: RuleError> RuleError for PrivateError<E> {
    fn rule(&self) -> &'static str {
        match self {
            PrivateError::Unsupported { .. } => "no-private-cards",
            PrivateError::Rule(e) => e.rule(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knowledge_lists_opened_cards_in_handle_order() {
        let mut knowledge = Knowledge::new();
        let late = CardHandle::new(EpochId(1), 0);
        let early = CardHandle::new(EpochId(0), 5);
        knowledge.learn(late, 3);
        knowledge.learn(early, 9);
        assert_eq!(knowledge.card(early), Some(9));
        assert_eq!(knowledge.card(CardHandle::new(EpochId(0), 0)), None);
        let listed: Vec<CardHandle> = knowledge.iter().map(|r| r.handle).collect();
        assert_eq!(listed, vec![early, late]);
    }
}
