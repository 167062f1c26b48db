//! Applying a checked action and the effects it queues: taking, hiring,
//! claiming, docking, busting, taxes and the harbor's refill.

use roundtable_engine::{Seat, SeatSet};

use super::player::Player;
use super::{
    Effect, Log, Phase, PortRoyal, Refill, TAX_THRESHOLD, TradeStage, Wait, log_records, record,
    wrap_seat,
};
use crate::action::{Action, TakeMode};
use crate::catalog::{CardId, CardKind, PersonKind, TaxKind};
use crate::event::{CoinReason, Event};

impl PortRoyal {
    pub(super) fn perform(&mut self, seat: Seat, action: Action, events: &mut impl Log) {
        match action {
            // A decision comes only once every effect is resolved, so a
            // draw from a pile with cards waits for its card at once, as
            // resolving `RevealForDiscover` would.
            Action::Draw if self.deck.draw_pile() > 0 => self.waiting = Some(Wait::RevealTop),
            Action::Draw => self.effects.push_back(Effect::RevealForDiscover),
            Action::Repel => {
                if let Some(card) = self.take_pending_ship() {
                    record!(events, Event::Repelled { seat, card });
                    if !(self.options.expansion && self.keep_aside(seat, card, events)) {
                        self.discard(card);
                    }
                }
            }
            Action::Keep => {
                if let Some(card) = self.take_pending_ship() {
                    self.dock(card, events);
                }
            }
            Action::Stop => {
                let drawn = matches!(self.phase, Phase::Discover { drawn: true, .. });
                self.idle_turns = if drawn {
                    0
                } else {
                    self.idle_turns.saturating_add(1)
                };
                record!(events, Event::Stopped { seat });
                self.phase = Phase::Trade {
                    taker: self.active,
                    stage: TradeStage::Bonus,
                };
            }
            Action::Claim(position) => self.claim(seat, position, events),
            Action::Take(position, mode) => self.take(seat, position, mode, events),
            Action::Pass => {
                record!(events, Event::Passed { seat });
                if let Phase::Trade { stage, .. } = &mut self.phase {
                    *stage = TradeStage::Done;
                }
            }
        }
    }

    pub(super) fn take_pending_ship(&mut self) -> Option<CardId> {
        match &mut self.phase {
            Phase::Discover { pending_ship, .. } => pending_ship.take(),
            _ => None,
        }
    }

    pub(super) fn claim(&mut self, seat: Seat, position: u8, events: &mut impl Log) {
        let card = self.expeditions.remove(usize::from(position));
        let CardKind::Expedition {
            anchors,
            crosses,
            houses,
            coins,
            ..
        } = card.kind()
        else {
            return;
        };
        let mut payment = self
            .player(seat)
            .expedition_payment(anchors, crosses, houses);
        payment.sort_unstable_by(|a, b| b.cmp(a));
        // Only the event lists the discarded persons.
        let mut discarded = Vec::new();
        for i in payment {
            let person = self.player_mut(seat).dismiss(i);
            self.discard(person);
            if log_records(events) {
                discarded.push(person);
            }
        }
        discarded.reverse();
        self.player_mut(seat).add_expedition(card);
        record!(
            events,
            Event::Claimed {
                seat,
                card,
                discarded,
            }
        );
        self.effects.push_back(Effect::Coins {
            seat,
            n: u32::from(coins),
            reason: CoinReason::Expedition,
        });
        if self.options.expansion {
            self.check_display_contracts(seat, events);
        }
        self.check_end(seat, events);
    }

    pub(super) fn take(&mut self, seat: Seat, position: u8, mode: TakeMode, events: &mut impl Log) {
        let card = self.harbor.remove(usize::from(position));
        let active = self.active;
        let mut compensation_due = self.compensation(seat) > 0;
        if compensation_due && self.player(seat).coins() > 0 {
            self.pay_compensation(seat, active, events);
            compensation_due = false;
        }
        let mut extra_takes = 0;
        match card.kind() {
            CardKind::Ship { colour, .. } => {
                let income = self.income(seat, card);
                self.discard(card);
                let (declined, gift_to) = match mode {
                    TakeMode::Normal => (false, None),
                    TakeMode::Decline => (true, None),
                    TakeMode::Gift(to) => (false, Some(to)),
                    TakeMode::DeclineGift(to) => (true, Some(to)),
                };
                if declined {
                    // Validation made sure a non-active decliner had the
                    // compensation coin, so it is paid already.
                    record!(
                        events,
                        Event::Declined {
                            seat,
                            card,
                            declined: income,
                        }
                    );
                } else {
                    record!(events, Event::Traded { seat, card, income });
                    self.effects.push_back(Effect::Coins {
                        seat,
                        n: income,
                        reason: CoinReason::Trade,
                    });
                    if compensation_due {
                        self.effects.push_back(Effect::Compensate {
                            from: seat,
                            to: active,
                        });
                    }
                }
                // A gift ship's coin goes to the chosen player whether or
                // not the taker declines its own coins.
                if let Some(to) = gift_to {
                    self.effects.push_back(Effect::Coins {
                        seat: to,
                        n: 1,
                        reason: CoinReason::Gift,
                    });
                }
                // Clerks count on every trade of their colour, declined or not.
                if self.options.expansion {
                    extra_takes = self.player(seat).clerks(colour);
                }
                if extra_takes > 0 {
                    record!(
                        events,
                        Event::ClerkExtraTake {
                            seat,
                            takes: extra_takes,
                        }
                    );
                }
                if declined {
                    self.declined(seat, colour, events);
                }
            }
            CardKind::Person { cost, .. } => {
                let paid = u32::from(cost).saturating_sub(self.mademoiselle_discount(seat));
                let Self {
                    players,
                    discard_unseen,
                    ..
                } = self;
                players[seat.index()].coins.move_to(discard_unseen, paid);
                self.player_mut(seat).hire(card);
                record!(events, Event::Hired { seat, card, paid });
                if self.options.expansion {
                    self.check_display_contracts(seat, events);
                }
                self.check_end(seat, events);
            }
            _ => {}
        }
        if let Phase::Trade {
            stage: TradeStage::Choosing { takes_left },
            ..
        } = &mut self.phase
        {
            let extra = u8::try_from(extra_takes).unwrap_or(u8::MAX);
            *takes_left = takes_left.saturating_sub(1).saturating_add(extra);
        }
    }

    pub(super) fn pay_compensation(&mut self, from: Seat, to: Seat, events: &mut impl Log) {
        // Straight from pile to pile, oldest coin first, with no coin pile
        // in between to allocate.
        if let Some(epoch) = self.player_mut(from).coins.take_oldest() {
            self.player_mut(to).coins.add(epoch, 1);
            record!(events, Event::Compensation { from, to });
        }
    }

    /// A ship goes into the harbor, unless one of its colour is there: bust.
    pub(super) fn dock(&mut self, card: CardId, events: &mut impl Log) {
        if self.harbor_colours() & card.ship_bit() != 0 {
            self.bust(card, events);
        } else {
            self.harbor.push(card);
            record!(events, Event::Docked { card });
            if self.options.expansion {
                self.docked(events);
            }
        }
    }

    pub(super) fn bust(&mut self, card: CardId, events: &mut impl Log) {
        let seat = self.active;
        record!(events, Event::Bust { seat, card });
        if self.options.expansion {
            self.went_bust(events);
        }
        self.discard(card);
        self.discard_harbor();
        if let Phase::Discover { pending_ship, .. } = &mut self.phase {
            *pending_ship = None;
        }
        for s in self.seats_from(seat) {
            let jesters = self.player(s).count(PersonKind::Jester);
            if jesters > 0 {
                self.effects.push_back(Effect::Coins {
                    seat: s,
                    n: jesters,
                    reason: CoinReason::JesterBust,
                });
            }
        }
        self.effects.push_back(Effect::EndTurn);
    }

    /// Seats in clockwise order starting with `first`.
    pub(super) fn seats_from(&self, first: Seat) -> impl Iterator<Item = Seat> + use<> {
        let seats = self.seats;
        (0..seats).map(move |i| Seat(wrap_seat(first.0 + i, seats)))
    }

    /// The seat after `seat` in clockwise order: [`Seat::next`] for the
    /// seats of this table, without its division (the turn passes seat to
    /// seat several times an input).
    pub(super) fn seat_after(&self, seat: Seat) -> Seat {
        Seat(wrap_seat(seat.0 + 1, self.seats))
    }

    /// A revealed card in Discover.
    pub(super) fn discovered(&mut self, card: CardId, events: &mut impl Log) {
        let seat = self.active;
        record!(events, Event::Revealed { seat, card });
        if let Phase::Discover { drawn, .. } = &mut self.phase {
            *drawn = true;
        }
        self.idle_turns = 0;
        match card.kind() {
            CardKind::Person { .. } => self.harbor.push(card),
            CardKind::Expedition { .. } => self.expeditions.push(card),
            CardKind::Tax(kind) => {
                // The bonus is paid before the tax card itself is
                // discarded, so a reshuffle for the bonus leaves it out.
                self.tax(Some(card), events);
                self.tax_bonus(kind);
                self.effects.push_back(Effect::Discard(card));
            }
            CardKind::Ship { swords, .. } => {
                let repellable = swords.is_some_and(|s| self.player(seat).swords() >= u32::from(s));
                if repellable {
                    if let Phase::Discover { pending_ship, .. } = &mut self.phase {
                        *pending_ship = Some(card);
                    }
                } else {
                    self.dock(card, events);
                }
            }
        }
    }

    /// The halving of a tax increase: every player with 12 or more coins
    /// discards half of them, rounded down.
    pub(super) fn tax(&mut self, card: Option<CardId>, events: &mut impl Log) {
        let mut halved = Vec::new();
        let mut paid = SeatSet::EMPTY;
        for s in self.seats_from(self.active) {
            let coins = self.player(s).coins();
            if coins >= TAX_THRESHOLD {
                let lost = coins / 2;
                let Self {
                    players,
                    discard_unseen,
                    ..
                } = self;
                players[s.index()].coins.move_to(discard_unseen, lost);
                // Only the event reads the list: a playout allocates none.
                if log_records(events) {
                    halved.push((s, lost));
                }
                paid = paid.with(s);
            }
        }
        record!(events, Event::Tax { card, halved });
        if self.options.expansion && paid != SeatSet::EMPTY {
            // In seat order from the active seat, like the halving.
            for s in self.seats_from(self.active).filter(|&s| paid.contains(s)) {
                self.paid_taxes(s, events);
            }
        }
    }

    pub(super) fn tax_bonus(&mut self, kind: TaxKind) {
        let score = |p: &Player| match kind {
            TaxKind::MostSwords => i64::from(p.swords()),
            TaxKind::FewestPoints => -i64::from(p.vp()),
        };
        let best = self.players.iter().map(score).max().unwrap_or(0);
        for s in self.seats_from(self.active) {
            if score(self.player(s)) == best {
                self.effects.push_back(Effect::Coins {
                    seat: s,
                    n: 1,
                    reason: CoinReason::TaxBonus,
                });
            }
        }
    }

    /// Refill an empty draw pile from the discard pile.
    ///
    /// Spent coins on the discard pile are revealed first, oldest epoch first,
    /// so that the new draw pile is a known multiset. In Discover the online
    /// table adds an extra tax increase before a refill when both piles are
    /// empty, and before the second and every later reshuffle of one Discover.
    pub(super) fn refill(&mut self, events: &mut impl Log) -> Refill {
        if let Phase::Discover {
            reshuffles,
            extra_tax_armed,
            ..
        } = self.phase
        {
            let stalled = self.discard_total() == 0 || reshuffles >= 1;
            if stalled && !extra_tax_armed {
                self.tax(None, events);
                if let Phase::Discover {
                    extra_tax_armed, ..
                } = &mut self.phase
                {
                    *extra_tax_armed = true;
                }
            }
        }
        if self.discard_total() == 0 {
            return Refill::Exhausted;
        }
        if let Some(epoch) = self.discard_unseen.oldest() {
            self.waiting = Some(Wait::RevealSpent(epoch));
            return Refill::Waiting;
        }
        let empty = vec![0; self.discard_known.len()];
        let counts = std::mem::replace(&mut self.discard_known, empty);
        self.discard_known_total = 0;
        // The draw pile is empty whenever a refill is asked for.
        if self.deck.reshuffle(counts).is_ok() {
            record!(
                events,
                Event::Reshuffled {
                    cards: self.deck.draw_pile(),
                }
            );
        }
        if let Phase::Discover {
            reshuffles,
            extra_tax_armed,
            ..
        } = &mut self.phase
        {
            *reshuffles = reshuffles.saturating_add(1);
            *extra_tax_armed = false;
        }
        Refill::Done
    }

    pub(super) fn resolve(&mut self, effect: Effect, events: &mut impl Log) {
        match effect {
            Effect::Coins { seat, n, reason } => {
                let mut gained = 0;
                while gained < n {
                    // All the coins the draw pile holds at once: the same
                    // count per epoch as drawing them one at a time.
                    let (epoch, drawn) = self.deck.draw_face_down_up_to(n - gained);
                    if drawn > 0 {
                        self.player_mut(seat).coins.add(epoch, drawn);
                        gained += drawn;
                        continue;
                    }
                    match self.refill(events) {
                        Refill::Done => {}
                        Refill::Waiting => {
                            self.effects.push_front(Effect::Coins {
                                seat,
                                n: n - gained,
                                reason,
                            });
                            if gained > 0 {
                                record!(
                                    events,
                                    Event::Coins {
                                        seat,
                                        gained,
                                        due: gained,
                                        reason,
                                    }
                                );
                            }
                            return;
                        }
                        Refill::Exhausted => break,
                    }
                }
                record!(
                    events,
                    Event::Coins {
                        seat,
                        gained,
                        due: n,
                        reason,
                    }
                );
            }
            Effect::Compensate { from, to } => self.pay_compensation(from, to, events),
            Effect::RevealForDiscover => {
                if self.deck.draw_pile() > 0 {
                    self.waiting = Some(Wait::RevealTop);
                    return;
                }
                match self.refill(events) {
                    Refill::Done | Refill::Waiting => {
                        self.effects.push_front(Effect::RevealForDiscover)
                    }
                    Refill::Exhausted => record!(events, Event::NothingToDraw),
                }
            }
            Effect::Discard(card) => self.discard(card),
            Effect::EndTurn => self.end_turn(events),
        }
    }
}
