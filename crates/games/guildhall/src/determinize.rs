//! A guess at the cards one seat cannot see, for searching bots.

use roundtable_engine::{CardHandle, Determinize, Knowledge, Seat};

use crate::catalog::{CARD_KINDS, COLOURS, Card, PROFESSION_TABLE};
use crate::{AreaCard, Guildhall, HandCard};

impl Determinize for Guildhall {
    /// Every profession card is face up (discard pile, guildhalls, completed
    /// chapters, the action area, a hand card known to all) or behind a live
    /// handle (in a hand or an undealt slot). The seat's own opened cards
    /// keep their identity; the other live handles get the remaining
    /// identities in a uniform random order.
    fn sample_hidden(
        &self,
        seat: Seat,
        knowledge: &Knowledge,
        uniform: &mut dyn FnMut(u64) -> u64,
    ) -> Knowledge {
        let mut left: Vec<u32> = PROFESSION_TABLE
            .iter()
            .flat_map(|p| COLOURS.iter().map(move |_| p.copies_per_colour))
            .collect();
        fn account(left: &mut [u32], card: u32) {
            if let Some(n) = left.get_mut(card as usize) {
                *n = n.saturating_sub(1);
            }
        }
        self.discard.iter().for_each(|&c| account(&mut left, c));
        for s in 0..self.seats {
            for card in self.guildhall_cards(Seat(s)) {
                account(&mut left, card.index());
            }
        }
        for chapters in &self.completed {
            for &profession in chapters {
                for colour in COLOURS {
                    account(&mut left, Card { profession, colour }.index());
                }
            }
        }
        for &card in &self.area {
            if let AreaCard::Profession(c) = card {
                account(&mut left, c);
            }
        }
        let mut world = Knowledge::new();
        let mut unknown: Vec<CardHandle> = Vec::new();
        for (holder, hand) in self.hands.iter().enumerate() {
            for &h in hand {
                match h {
                    HandCard::Open(c) => account(&mut left, c),
                    HandCard::Dealt(handle) => {
                        let own = (holder == seat.index())
                            .then(|| knowledge.card(handle))
                            .flatten();
                        match own {
                            Some(c) if left.get(c as usize).is_some_and(|&n| n > 0) => {
                                account(&mut left, c);
                                world.learn(handle, c);
                            }
                            _ => unknown.push(handle),
                        }
                    }
                }
            }
        }
        unknown.extend(self.deck.iter().flat_map(|deck| deck.undealt()));
        let cards: Vec<u32> = (0..CARD_KINDS)
            .flat_map(|c| std::iter::repeat_n(c, left[c as usize] as usize))
            .collect();
        world.learn_shuffled(unknown, cards, uniform);
        world
    }
}
