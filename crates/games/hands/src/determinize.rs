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
        unknown.extend(self.deck.iter().flat_map(|deck| deck.undealt()));
        let cards: Vec<u32> = (0..CATALOG.len() as u32)
            .filter(|&c| unaccounted[c as usize])
            .collect();
        world.learn_shuffled(unknown, cards, uniform);
        world
    }
}

#[cfg(test)]
mod tests {
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};
    use roundtable_engine::{Game, sim};

    use super::*;

    /// At every step of whole games, each seat's guess puts every card of
    /// the catalog exactly once on the pile, among the shown cards or behind
    /// a live handle, and keeps the seat's own cards as they are.
    #[test]
    fn every_guess_is_a_possible_deal_that_keeps_the_seats_own_cards() {
        for seed in 0..20u64 {
            let mut game = Hands::new_game(3, &Default::default()).expect("3 seats");
            let mut dealer = sim::OracleDealer::new(3);
            let mut rng = ChaCha20Rng::seed_from_u64(seed);
            let mut guesses = ChaCha20Rng::seed_from_u64(seed + 100);
            let mut checked = 0;
            sim::play_private(
                &mut game,
                &mut dealer,
                10_000,
                &mut |n| sim::uniform_below(n, &mut || rng.next_u64()),
                &mut |_, _, _, legal| legal.len() - 1,
                &mut |state: &Hands, dealer| {
                    for seat in (0..3u8).map(Seat) {
                        let known = dealer.knowledge(seat);
                        let world = state.sample_hidden(seat, known, &mut |n| {
                            sim::uniform_below(n, &mut || guesses.next_u64())
                        });
                        let mut live: Vec<CardHandle> =
                            state.hands.iter().flatten().copied().collect();
                        if let Some(deck) = state.deck {
                            live.extend(
                                (deck.next_slot..deck.size)
                                    .map(|slot| CardHandle::new(deck.epoch, slot)),
                            );
                        }
                        let mut cards: Vec<u32> = live
                            .iter()
                            .map(|&h| world.card(h).expect("every live handle guessed"))
                            .chain(state.pile.iter().copied())
                            .chain(state.shown.iter().flatten().copied())
                            .collect();
                        cards.sort_unstable();
                        assert_eq!(cards, (0..CATALOG.len() as u32).collect::<Vec<_>>());
                        for &handle in &state.hands[seat.index()] {
                            assert_eq!(world.card(handle), known.card(handle));
                        }
                        checked += 1;
                    }
                },
            )
            .expect("a whole game");
            assert!(checked > 30, "only {checked} positions checked");
        }
    }
}
