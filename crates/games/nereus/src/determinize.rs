//! A guess at the cards one seat cannot see, for searching bots.

use roundtable_engine::{CardHandle, Determinize, Knowledge, Seat};

use crate::{Nereus, data};

impl Determinize for Nereus {
    fn sample_hidden(
        &self,
        seat: Seat,
        knowledge: &Knowledge,
        uniform: &mut dyn FnMut(u64) -> u64,
    ) -> Knowledge {
        let mut unseen: Vec<u32> = (0..data::SCIENCE_DECK.len() as u32).collect();
        let remove = |card: u32, pool: &mut Vec<u32>| {
            if let Some(i) = pool.iter().position(|&c| c == card) {
                pool.swap_remove(i);
            }
        };
        for &c in &self.discard {
            remove(c, &mut unseen);
        }
        let mut out = Knowledge::new();
        for &h in self.science.get(seat.index()).into_iter().flatten() {
            if let Some(c) = knowledge.card(h) {
                remove(c, &mut unseen);
                out.learn(h, c);
            }
        }
        unseen.sort_unstable();
        let mut hidden: Vec<CardHandle> = Vec::new();
        for (i, hand) in self.science.iter().enumerate() {
            for &h in hand {
                if i != seat.index() || knowledge.card(h).is_none() {
                    hidden.push(h);
                }
            }
        }
        hidden.extend(self.deck.iter().flat_map(|deck| deck.undealt()));
        for h in hidden {
            if unseen.is_empty() {
                break;
            }
            let i = uniform(unseen.len() as u64) as usize;
            out.learn(h, unseen.swap_remove(i.min(unseen.len() - 1)));
        }
        out
    }
}
