//! Chance outcomes: applying one once checked or sampled, and the
//! distribution each wait draws from.

use roundtable_engine::{ChanceOutcome, Distribution, EpochId, Game, Seat};

use super::{FaceUpContract, Log, PortRoyal, Wait, log_records, record};
use crate::catalog::CardId;
use crate::contracts::{ContractId, FACE_UP_CONTRACTS};
use crate::error::RuleViolation;
use crate::event::Event;

impl PortRoyal {
    /// Apply a chance outcome for `wait` that was checked (or sampled from
    /// the distribution) and resolve what follows.
    pub(super) fn resolve_outcome(
        &mut self,
        wait: Wait,
        outcome: &ChanceOutcome,
        events: &mut impl Log,
    ) {
        self.waiting = None;
        match (wait, outcome) {
            (Wait::StartPlayer, ChanceOutcome::Index(i)) => {
                let seat = Seat(u8::try_from(*i).unwrap_or(0));
                self.start = seat;
                self.active = seat;
                record!(events, Event::StartPlayer { seat });
                if self.options.expansion {
                    self.waiting = Some(Wait::Contract);
                } else {
                    self.begin(events);
                }
            }
            (Wait::Contract, ChanceOutcome::Cards(cards)) => {
                if let Some(id) = cards.first().and_then(|&c| ContractId::from_index(c)) {
                    if let Some(n) = self.contract_pile.get_mut(usize::from(id.0)) {
                        *n = n.saturating_sub(1);
                    }
                    self.contracts.push(FaceUpContract {
                        id,
                        completed_by: Vec::new(),
                    });
                    record!(events, Event::ContractRevealed { contract: id });
                }
                if self.contracts.len() < FACE_UP_CONTRACTS {
                    self.waiting = Some(Wait::Contract);
                } else {
                    self.begin(events);
                }
            }
            (Wait::RevealTop, ChanceOutcome::Cards(cards)) => {
                self.top_revealed(cards.first().copied(), events);
            }
            (Wait::RevealSpent(epoch), ChanceOutcome::Cards(cards)) => {
                self.spent_revealed(epoch, cards.first().copied(), events);
            }
            // The outcome was admitted by the distribution, so its kind matches.
            _ => {}
        }
        self.run(events);
    }

    /// The top card of the draw pile turned out to be catalog index `card`.
    #[inline(always)]
    pub(super) fn top_revealed(&mut self, card: Option<u32>, events: &mut impl Log) {
        if let Some(card) = card.and_then(CardId::from_index)
            && self.deck.reveal_top(u32::from(card.0)).is_ok()
        {
            self.discovered(card, events);
        }
    }

    /// A spent coin of `epoch` turned out to be catalog index `card`.
    #[inline(always)]
    pub(super) fn spent_revealed(
        &mut self,
        epoch: EpochId,
        card: Option<u32>,
        events: &mut impl Log,
    ) {
        if let Some(card) = card.and_then(CardId::from_index)
            && self.deck.reveal_held(epoch, u32::from(card.0)).is_ok()
        {
            self.discard_unseen.take_oldest();
            self.discard(card);
            record!(events, Event::SpentCoinRevealed { card });
        }
    }

    pub(super) fn check_outcome(&self, outcome: &ChanceOutcome) -> Result<Wait, RuleViolation> {
        let wait = self.waiting.ok_or(RuleViolation::NoChancePending)?;
        if self.chance_distribution(wait).admits(outcome) {
            Ok(wait)
        } else {
            Err(RuleViolation::ImpossibleOutcome(self.outcome_name(outcome)))
        }
    }

    #[inline]
    pub(super) fn chance_distribution(&self, wait: Wait) -> Distribution<'_> {
        match wait {
            Wait::StartPlayer => Distribution::Uniform {
                n: u64::from(self.seats),
            },
            // Four draws a game: not worth a total kept in the state.
            Wait::Contract => Distribution::multiset(&self.contract_pile, 1),
            Wait::RevealTop => self.deck.top_distribution(),
            Wait::RevealSpent(epoch) => self.deck.held_distribution(epoch),
        }
    }
}
