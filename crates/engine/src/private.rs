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

/// The deck dealt by all seats that a game deals from: the slots of one
/// shuffle epoch, dealt in order from slot 0.
///
/// This is the whole of a game's bookkeeping for a deck of private cards:
/// the state answers [`PrivateRequest::Deal`] from [`DeckSlots::next_handle`],
/// records the deal with [`DeckSlots::deal`], and replaces the deck with
/// [`DeckSlots::shuffled`] when a [`PrivateRequest::Reshuffle`] is answered.
/// Its fields are serialised in this order as part of the game's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckSlots {
    /// The deck's shuffle epoch.
    pub epoch: EpochId,
    /// How many slots it holds.
    pub size: u32,
    /// The next slot to deal.
    pub next_slot: u32,
}

impl DeckSlots {
    /// The deck a reshuffle (or the first shuffle) of `size` cards made in
    /// `epoch`: nothing of it dealt yet.
    pub fn shuffled(epoch: EpochId, size: u32) -> Self {
        DeckSlots {
            epoch,
            size,
            next_slot: 0,
        }
    }

    /// How many slots are still to deal.
    pub fn left(&self) -> u32 {
        self.size.saturating_sub(self.next_slot)
    }

    /// The handle the next deal starts at, while a slot is left.
    pub fn next_handle(&self) -> Option<CardHandle> {
        (self.next_slot < self.size).then(|| CardHandle::new(self.epoch, self.next_slot))
    }

    /// The slots not dealt yet, in slot order: the cards nobody has seen.
    pub fn undealt(&self) -> impl Iterator<Item = CardHandle> + use<> {
        let epoch = self.epoch;
        (self.next_slot..self.size).map(move |slot| CardHandle::new(epoch, slot))
    }

    /// Records the answer to a [`PrivateRequest::Deal`] of `count` slots
    /// from `first`: the deck in play (if any) moves past them, and the
    /// handles dealt are returned in slot order for the receiving hand.
    pub fn deal(
        deck: &mut Option<DeckSlots>,
        first: CardHandle,
        count: u32,
    ) -> impl Iterator<Item = CardHandle> + use<> {
        if let Some(deck) = deck {
            deck.next_slot += count;
        }
        (0..count).map(move |i| CardHandle::new(first.epoch, first.slot + i))
    }
}

/// A step of the private deal the game waits for. Answered with
/// [`Game::apply_deal`](crate::Game::apply_deal),
/// [`Game::apply_reveal`](crate::Game::apply_reveal) or
/// [`Game::apply_reshuffle`](crate::Game::apply_reshuffle).
///
/// A game poses only requests [`PrivateRequest::check`] accepts: a pile of
/// 1 to [`MAX_PRIVATE_DECK`] cards, each below [`MAX_PRIVATE_DECK`], and
/// slots inside the deck of their epoch. Its rules must keep to that where
/// they make the request (deal no more than the deck has left, never
/// reshuffle an empty pile): a table stops at any other, blaming no seat.
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

/// The most slots a deck dealt by all seats holds, and one more than the
/// largest catalog index such a deck can carry: the deal crate's
/// `MAX_DECK_SIZE` (protocol/SPEC.md 5.10), which has a generator per slot
/// and a card point per index below it.
pub const MAX_PRIVATE_DECK: u32 = 512;

impl PrivateRequest<'_> {
    /// Whether the deal can serve this request at all: `deck_size` tells
    /// how many slots the deck of an epoch holds (`None` when no deck of
    /// that epoch was shuffled). A request that fails here would make every
    /// honest seat owe a message it cannot compute, or leave nobody owing
    /// anything while the game waits; a game never poses one, and a table
    /// that meets one anyway stops without blaming any seat.
    pub fn check(&self, deck_size: impl Fn(EpochId) -> Option<u32>) -> Result<(), RequestError> {
        match *self {
            PrivateRequest::Reshuffle { pile, .. } => {
                if pile.is_empty() {
                    return Err(RequestError::EmptyPile);
                }
                if pile.len() > MAX_PRIVATE_DECK as usize {
                    return Err(RequestError::PileTooLarge { cards: pile.len() });
                }
                match pile.iter().find(|&&card| card >= MAX_PRIVATE_DECK) {
                    Some(&card) => Err(RequestError::CardOutOfRange { card }),
                    None => Ok(()),
                }
            }
            PrivateRequest::Deal { first, count, .. } => {
                let size =
                    deck_size(first.epoch).ok_or(RequestError::NoDeck { epoch: first.epoch })?;
                match first.slot.checked_add(count) {
                    Some(end) if end <= size => Ok(()),
                    _ => Err(RequestError::PastTheDeck {
                        handle: first,
                        count,
                        size,
                    }),
                }
            }
            PrivateRequest::Reveal { handles } => handles.iter().try_for_each(|&handle| {
                let size = deck_size(handle.epoch).ok_or(RequestError::NoDeck {
                    epoch: handle.epoch,
                })?;
                if handle.slot < size {
                    Ok(())
                } else {
                    Err(RequestError::PastTheDeck {
                        handle,
                        count: 1,
                        size,
                    })
                }
            }),
        }
    }
}

/// A private request no deal can serve (see [`PrivateRequest::check`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// A reshuffle of an empty pile: a deck has at least one slot.
    #[error("a reshuffle of an empty pile")]
    EmptyPile,
    /// A reshuffle of more cards than a deck holds.
    #[error("a reshuffle of {cards} cards, more than a deck's {MAX_PRIVATE_DECK}")]
    PileTooLarge {
        /// The pile's length.
        cards: usize,
    },
    /// A pile holding a catalog index no deck can carry.
    #[error("card {card} in a pile, where a deck carries cards 0 to {}", MAX_PRIVATE_DECK - 1)]
    CardOutOfRange {
        /// The first such index in the pile.
        card: u32,
    },
    /// A deal or reveal in an epoch whose deck was never shuffled.
    #[error("no deck of epoch {} was shuffled", epoch.0)]
    NoDeck {
        /// The epoch named.
        epoch: EpochId,
    },
    /// A deal or reveal of slots past the end of their deck.
    #[error("{count} slots from slot {} of epoch {}, whose deck has {size}", handle.slot, handle.epoch.0)]
    PastTheDeck {
        /// The first slot asked for.
        handle: CardHandle,
        /// How many slots from it.
        count: u32,
        /// The slots the epoch's deck holds.
        size: u32,
    },
}

impl RuleError for RequestError {
    fn rule(&self) -> &'static str {
        match self {
            RequestError::EmptyPile => "empty-pile",
            RequestError::PileTooLarge { .. } => "pile-too-large",
            RequestError::CardOutOfRange { .. } => "card-out-of-range",
            RequestError::NoDeck { .. } => "no-such-deck",
            RequestError::PastTheDeck { .. } => "past-the-deck",
        }
    }
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

    /// Gives `handles`, in order, the `cards` in a uniformly random order:
    /// a Fisher–Yates shuffle of `cards` drawing from `uniform` (a number
    /// below its argument), for a [`Determinize`](crate::Determinize) guess
    /// at the cards a seat cannot see. Handles beyond the cards stay
    /// unknown; cards beyond the handles are dropped.
    pub fn learn_shuffled(
        &mut self,
        handles: impl IntoIterator<Item = CardHandle>,
        mut cards: Vec<u32>,
        uniform: &mut dyn FnMut(u64) -> u64,
    ) {
        for i in (1..cards.len()).rev() {
            let j = (uniform(i as u64 + 1) as usize).min(i);
            cards.swap(i, j);
        }
        for (handle, card) in handles.into_iter().zip(cards) {
            self.learn(handle, card);
        }
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

    /// A deal hands out the next slots and moves the deck past them; what
    /// is left, the next handle and the undealt slots agree at every step,
    /// down to an empty deck.
    #[test]
    fn deck_slots_deal_in_order_to_the_end() {
        let mut deck = Some(DeckSlots::shuffled(EpochId(2), 5));
        let first = deck.and_then(|d| d.next_handle());
        assert_eq!(first, Some(CardHandle::new(EpochId(2), 0)));
        let dealt: Vec<CardHandle> = first
            .into_iter()
            .flat_map(|first| DeckSlots::deal(&mut deck, first, 3))
            .collect();
        assert_eq!(
            dealt,
            (0..3)
                .map(|s| CardHandle::new(EpochId(2), s))
                .collect::<Vec<_>>()
        );
        let rest = deck.map(|d| (d.left(), d.next_handle(), d.undealt().collect::<Vec<_>>()));
        let undealt = vec![
            CardHandle::new(EpochId(2), 3),
            CardHandle::new(EpochId(2), 4),
        ];
        assert_eq!(rest, Some((2, Some(undealt[0]), undealt)));
        DeckSlots::deal(&mut deck, CardHandle::new(EpochId(2), 3), 2).for_each(drop);
        let empty = deck.map(|d| (d.left(), d.next_handle(), d.undealt().count()));
        assert_eq!(empty, Some((0, None, 0)));
    }

    /// The guess gives every handle one of the cards, each card once, and
    /// draws from `uniform` exactly as the games' Fisher–Yates did: with a
    /// `uniform` that always answers 0 the shuffle is a known rotation.
    #[test]
    fn learn_shuffled_is_a_fisher_yates_over_the_cards() {
        let handles: Vec<CardHandle> = (0..4).map(|s| CardHandle::new(EpochId(0), s)).collect();
        let mut asked = Vec::new();
        let mut world = Knowledge::new();
        world.learn_shuffled(handles.clone(), vec![10, 11, 12, 13], &mut |n| {
            asked.push(n);
            0
        });
        assert_eq!(asked, vec![4, 3, 2]);
        let cards: Vec<Option<u32>> = handles.iter().map(|&h| world.card(h)).collect();
        assert_eq!(cards, vec![Some(11), Some(12), Some(13), Some(10)]);
    }

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

    /// Every request the deal cannot serve is refused by the rule it
    /// breaks; the largest servable ones pass.
    #[test]
    fn unservable_requests_name_the_broken_rule() {
        let decks = |epoch: EpochId| (epoch == EpochId(0)).then_some(10);
        let full: Vec<u32> = (0..MAX_PRIVATE_DECK).collect();
        let rule = |r: PrivateRequest<'_>| r.check(decks).err().map(|e| e.rule());
        let epoch = EpochId(1);
        assert_eq!(rule(PrivateRequest::Reshuffle { pile: &full, epoch }), None);
        assert_eq!(
            rule(PrivateRequest::Reshuffle { pile: &[], epoch }),
            Some("empty-pile")
        );
        let long: Vec<u32> = (0..=MAX_PRIVATE_DECK).map(|i| i % 3).collect();
        assert_eq!(
            rule(PrivateRequest::Reshuffle { pile: &long, epoch }),
            Some("pile-too-large")
        );
        assert_eq!(
            rule(PrivateRequest::Reshuffle {
                pile: &[3, MAX_PRIVATE_DECK],
                epoch
            }),
            Some("card-out-of-range")
        );
        let deal = |slot, count| PrivateRequest::Deal {
            to: Seat(0),
            first: CardHandle::new(EpochId(0), slot),
            count,
        };
        assert_eq!(rule(deal(7, 3)), None);
        assert_eq!(rule(deal(8, 3)), Some("past-the-deck"));
        assert_eq!(rule(deal(1, u32::MAX)), Some("past-the-deck"));
        let elsewhere = PrivateRequest::Deal {
            to: Seat(0),
            first: CardHandle::new(epoch, 0),
            count: 1,
        };
        assert_eq!(rule(elsewhere), Some("no-such-deck"));
        let handles = [
            CardHandle::new(EpochId(0), 9),
            CardHandle::new(EpochId(0), 10),
        ];
        assert_eq!(
            rule(PrivateRequest::Reveal {
                handles: &handles[..1]
            }),
            None
        );
        assert_eq!(
            rule(PrivateRequest::Reveal { handles: &handles }),
            Some("past-the-deck")
        );
    }
}
