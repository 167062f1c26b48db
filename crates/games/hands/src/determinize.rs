//! A guess at the cards one seat cannot see, for searching bots.

use roundtable_engine::{CardHandle, Determinize, Knowledge, Seat};

use crate::{CATALOG, Hands};

impl Determinize for Hands {
    /// Every card of the catalog is face up on the pile, shown at the end,
    /// or behind a live handle: in a hand or in an undealt slot of the
    /// current deck. The seat's own opened cards keep their identity; the
    /// other live handles get the remaining identities in a uniform random
    /// order. Passes and plays of the other seats are not read: a seat may
    /// pass holding anything (passing is always legal).
    fn sample_hidden(
        &self,
        seat: Seat,
        knowledge: &Knowledge,
        uniform: &mut dyn FnMut(u64) -> u64,
    ) -> Knowledge {
        let mut unaccounted = vec![true; CATALOG.len()];
        let public = self.pile.iter().chain(self.shown.iter().flatten());
        for &card in public {
            if let Some(slot) = unaccounted.get_mut(card as usize) {
                *slot = false;
            }
        }
        let mut world = Knowledge::new();
        let mut unknown: Vec<CardHandle> = Vec::new();
        for (holder, hand) in self.hands.iter().enumerate() {
            for &handle in hand {
                let own = (holder == seat.index()).then(|| knowledge.card(handle));
                match own.flatten() {
                    Some(card) if unaccounted.get(card as usize) == Some(&true) => {
                        unaccounted[card as usize] = false;
                        world.learn(handle, card);
                    }
                    _ => unknown.push(handle),
                }
            }
        }
        if let Some(deck) = self.deck {
            unknown
                .extend((deck.next_slot..deck.size).map(|slot| CardHandle::new(deck.epoch, slot)));
        }
        let mut cards: Vec<u32> = (0..CATALOG.len() as u32)
            .filter(|&c| unaccounted[c as usize])
            .collect();
        // Fisher–Yates: every order of the unaccounted cards equally likely.
        for i in (1..cards.len()).rev() {
            let j = (uniform(i as u64 + 1) as usize).min(i);
            cards.swap(i, j);
        }
        for (handle, card) in unknown.into_iter().zip(cards) {
            world.learn(handle, card);
        }
        world
    }
}
