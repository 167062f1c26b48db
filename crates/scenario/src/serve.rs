//! What answers a scripted game's chance and private deals: the outcomes a
//! file lists, and a dealer whose decks the file stacks.

use std::collections::VecDeque;

use roundtable_engine::sim::OracleDealer;
use roundtable_engine::{CardHandle, Game, Knowledge, Next, PrivateRequest, Seat};

use crate::{Malformed, Refusal, Source, Stop};

/// A file's `chance` list: outcomes by name, given in the order the game
/// asks for them.
#[derive(Debug, Clone, Default)]
pub struct ChanceList {
    outcomes: Vec<String>,
    given: usize,
}

impl ChanceList {
    /// The outcomes of the file's `chance` key, in order.
    pub fn new(outcomes: Vec<String>) -> Self {
        ChanceList { outcomes, given: 0 }
    }

    /// Answer the chance request `game` has pending with the next outcome
    /// of the list; false when the list is used up. A name the game cannot
    /// read is malformed on its line; an outcome the rules refuse stops the
    /// run as refused.
    pub fn answer<G: Game>(&mut self, game: &mut G, source: Source<'_>) -> Result<bool, Stop> {
        let Some(name) = self.outcomes.get(self.given) else {
            return Ok(false);
        };
        let i = self.given;
        self.given += 1;
        let outcome = game.parse_outcome(name).map_err(|e| {
            Malformed::new(source.item_line("chance", name), format!("chance {i}: {e}"))
        })?;
        game.apply_chance(&outcome, &mut Vec::new())
            .map_err(|e| Stop::ChanceRefused {
                chance: i,
                refusal: Refusal::of(&e),
            })?;
        Ok(true)
    }

    /// How many outcomes the game never asked for.
    pub fn unused(&self) -> usize {
        self.outcomes.len() - self.given
    }
}

/// The oracle dealer of the engine's simulator playing every seat's part of
/// a game's private deals, with the decks the scenario stacks: the rules
/// see exactly what a table would give them.
#[derive(Debug, Clone)]
pub struct StackedDealer {
    dealer: OracleDealer,
    first_deck: Vec<u32>,
    reshuffles: VecDeque<Vec<u32>>,
}

impl StackedDealer {
    /// A dealer for `seats` that lays out the first deck (epoch 0) as
    /// `first_deck` and each later one as the next of `reshuffles`, or in
    /// the pile's own order when they run out.
    pub fn new(seats: u8, first_deck: Vec<u32>, reshuffles: Vec<Vec<u32>>) -> Self {
        StackedDealer {
            dealer: OracleDealer::new(seats),
            first_deck,
            reshuffles: reshuffles.into(),
        }
    }

    /// Answer the deal or reshuffle `game` asks for, if it asks for one
    /// (false when it waits for anything else).
    pub fn serve<G: Game>(&mut self, game: &mut G) -> Result<bool, String> {
        match game.next() {
            Next::Private(PrivateRequest::Reshuffle { pile, epoch }) => {
                let order = if epoch.0 == 0 {
                    std::mem::take(&mut self.first_deck)
                } else {
                    self.reshuffles.pop_front().unwrap_or_else(|| pile.to_vec())
                };
                self.dealer.stack_next(order);
                self.dealer
                    .reshuffle(pile, epoch, &mut |_| 0)
                    .map_err(|e| e.to_string())?;
                game.apply_reshuffle(&mut Vec::new())
                    .map_err(|e| e.to_string())?;
            }
            Next::Private(PrivateRequest::Deal { to, first, count }) => {
                self.dealer
                    .deal(to, first, count)
                    .map_err(|e| e.to_string())?;
                game.apply_deal(&mut Vec::new())
                    .map_err(|e| e.to_string())?;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// What `seat` was dealt.
    pub fn knowledge(&self, seat: Seat) -> &Knowledge {
        self.dealer.knowledge(seat)
    }

    /// Take `seat`'s `action`, opening the cards it plays face up as the
    /// seat's table would. A claim of a slot no deck has is passed on as
    /// claimed, for the rules to refuse as not held.
    pub fn act<G: Game>(
        &self,
        game: &mut G,
        seat: Seat,
        action: &G::Action,
    ) -> Result<(), Refusal> {
        let claims = G::claims(action);
        let handles: Vec<CardHandle> = claims.iter().map(|c| c.handle).collect();
        let revealed = self.dealer.reveal(&handles).unwrap_or(claims);
        game.apply_action_revealing(seat, action, &revealed, &mut Vec::new())
            .map_err(|e| Refusal::of(&e))
    }
}
