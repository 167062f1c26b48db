//! The flow of turns and rounds: beginning, ending a turn, advancing the
//! phase, and running queued effects until an input is needed.

use roundtable_engine::{Game, Seat};

use super::{
    ADMIRAL_COINS, ADMIRAL_HARBOR, Effect, Log, Phase, PortRoyal, TradeStage, VICE_ADMIRAL_COINS,
    VICE_ADMIRAL_HARBOR, log_records, record,
};
use crate::ROUND_LIMIT;
use crate::catalog::PersonKind;
use crate::event::{CoinReason, Event};

impl PortRoyal {
    /// The round being played, from 1 (0 before the first turn): a round is
    /// one turn of every seat, from the start player on.
    pub(crate) fn round(&self) -> u32 {
        self.turn.div_ceil(u32::from(self.seats))
    }

    /// Whether the round being played is the last one: a seat reached the
    /// victory points, or it is the project's round limit.
    pub fn last_round(&self) -> bool {
        self.end_triggered || self.round() >= ROUND_LIMIT
    }

    /// The first turn begins, once the start player (and, with the
    /// expansion, the face-up contracts) are known.
    pub(super) fn begin(&mut self, events: &mut impl Log) {
        self.turn = 1;
        self.phase = Phase::discover();
        record!(
            events,
            Event::TurnStarted {
                seat: self.active,
                turn: 1,
            }
        );
    }

    pub(super) fn end_turn(&mut self, events: &mut impl Log) {
        let next = self.seat_after(self.active);
        let round_over = next == self.start;
        // Nothing could be drawn for a whole round: every card is in someone's
        // display and no tax can free one, so no one can ever gain again.
        let dead = usize::from(self.idle_turns) >= usize::from(self.seats);
        let out_of_rounds = round_over && self.round() >= ROUND_LIMIT;
        if (self.end_triggered && round_over) || dead || out_of_rounds {
            self.phase = Phase::Over;
            if out_of_rounds && !self.end_triggered && !dead {
                record!(
                    events,
                    Event::RoundLimitReached {
                        rounds: self.round(),
                    }
                );
            }
            // The ranking is worked out only for a log that keeps it: a
            // playout ends every game here and reads no event.
            record!(
                events,
                Event::GameOver {
                    winners: self.result().map(|r| r.winners()).unwrap_or_default(),
                }
            );
            return;
        }
        self.active = next;
        self.turn += 1;
        self.phase = Phase::discover();
        record!(
            events,
            Event::TurnStarted {
                seat: next,
                turn: self.turn,
            }
        );
    }

    /// Automatic progress when no effect is queued; `false` when the game
    /// waits for a decision.
    ///
    /// The stages of Trade & Hire follow one another in one pass, seat after
    /// seat, until an effect is queued (bonus coins, the end of the turn) or
    /// a seat must decide: a return to [`Self::run`] between stages was a
    /// mispredicted jump for each of them, every seat, every turn. The phase
    /// is written back wherever the pass stops, so the states between
    /// inputs are the ones a step at a time left.
    pub(super) fn advance(&mut self, events: &mut impl Log) -> bool {
        let Phase::Trade {
            mut taker,
            mut stage,
        } = self.phase
        else {
            return false;
        };
        loop {
            if stage == TradeStage::Bonus {
                self.pay_time_to_take_bonuses(taker);
                stage = TradeStage::Offer;
                if !self.effects.is_empty() {
                    self.phase = Phase::Trade { taker, stage };
                    return true;
                }
            }
            if stage == TradeStage::Offer {
                stage = TradeStage::Choosing {
                    takes_left: self.takes(taker),
                };
            }
            if let TradeStage::Choosing { takes_left } = stage {
                let can_take = takes_left > 0 && self.can_take_something(taker);
                let can_claim = taker == self.active && self.can_claim_something(taker);
                if can_take || can_claim {
                    self.phase = Phase::Trade { taker, stage };
                    return false;
                }
                if takes_left > 0 {
                    record!(events, Event::Skipped { seat: taker });
                }
            }
            // The seat is done: the next seat's time comes, or the turn ends.
            let next = self.seat_after(taker);
            if next == self.active {
                self.phase = Phase::Trade {
                    taker,
                    stage: TradeStage::Done,
                };
                if !self.harbor.is_empty() {
                    record!(
                        events,
                        Event::LeftoversDiscarded {
                            cards: self.harbor.len() as u32,
                        }
                    );
                }
                self.discard_harbor();
                self.effects.push_back(Effect::EndTurn);
                return true;
            }
            taker = next;
            stage = TradeStage::Bonus;
        }
    }

    /// Bonuses that come "whenever it is your time to take" (Admirals,
    /// Jesters on an empty harbor; with the expansion Gunners and Vice
    /// Admirals), queued as coins for `taker`.
    pub(super) fn pay_time_to_take_bonuses(&mut self, taker: Seat) {
        // Without the expansion only Admirals (a harbor of 5 or more cards)
        // and Jesters (an empty one) pay here. Most harbors are neither, and
        // then no seat's persons need counting, every seat, every turn.
        let harbor = self.harbor.len();
        if !self.options.expansion && harbor != 0 && harbor < ADMIRAL_HARBOR {
            return;
        }
        let p = self.player(taker);
        let admirals = p.count(PersonKind::Admiral);
        let jesters = p.count(PersonKind::Jester);
        let (gunners, vice_admirals) = if self.options.expansion {
            (
                p.count(PersonKind::Gunner),
                p.count(PersonKind::ViceAdmiral),
            )
        } else {
            (0, 0)
        };
        if admirals > 0 && self.harbor.len() >= ADMIRAL_HARBOR {
            self.effects.push_back(Effect::Coins {
                seat: taker,
                n: ADMIRAL_COINS * admirals,
                reason: CoinReason::Admiral,
            });
        }
        if jesters > 0 && taker != self.active && self.harbor.is_empty() {
            self.effects.push_back(Effect::Coins {
                seat: taker,
                n: jesters,
                reason: CoinReason::JesterEmptyHarbor,
            });
        }
        if gunners > 0 {
            let ships = self.harbor.iter().filter(|c| c.ship_bit() != 0);
            // Each Gunner pays ships − 1; an empty harbor pays nothing.
            let n = gunners * (ships.count() as u32).saturating_sub(1);
            if n > 0 {
                self.effects.push_back(Effect::Coins {
                    seat: taker,
                    n,
                    reason: CoinReason::Gunner,
                });
            }
        }
        if vice_admirals > 0 && VICE_ADMIRAL_HARBOR.contains(&self.harbor.len()) {
            self.effects.push_back(Effect::Coins {
                seat: taker,
                n: VICE_ADMIRAL_COINS * vice_admirals,
                reason: CoinReason::ViceAdmiral,
            });
        }
    }

    /// How many cards `taker` may take, fixed at the start of its time to
    /// take: colours in the harbor for the active seat (1 up to 3 colours, 2
    /// for 4, 3 for 5), 1 for the others, plus one per Governor.
    pub(super) fn takes(&self, taker: Seat) -> u8 {
        let governors = self.player(taker).count(PersonKind::Governor);
        let base = if taker == self.active {
            match self.harbor_colours().count_ones() {
                0..=3 => 1,
                4 => 2,
                _ => 3,
            }
        } else {
            1
        };
        u8::try_from(base + governors).unwrap_or(u8::MAX)
    }

    /// Resolve queued effects and automatic steps until a decision or a
    /// chance outcome is needed or the game is over.
    #[inline(always)]
    pub(super) fn run(&mut self, events: &mut impl Log) {
        // Most inputs leave nothing to do: a draw waits for its card, a
        // revealed person or docked ship leaves the seat to decide again.
        // The loop below is a large function (Trade & Hire's stages are
        // inlined into it), and entering it cost more than this check.
        let idle = self.waiting.is_some()
            || (self.effects.is_empty() && matches!(self.phase, Phase::Discover { .. }));
        if !idle {
            self.run_queued(events);
        }
    }

    /// [`Self::run`] once there may be something to resolve.
    #[inline(never)]
    pub(super) fn run_queued(&mut self, events: &mut impl Log) {
        while self.waiting.is_none() && !matches!(self.phase, Phase::Over) {
            if let Some(effect) = self.effects.pop_front() {
                self.resolve(effect, events);
            } else if !self.advance(events) {
                return;
            }
        }
    }
}
