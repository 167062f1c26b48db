//! What a seat can afford, claim and do: the costs and checks made before
//! an input is applied (a refused input never changes the state).

use roundtable_engine::Seat;

use super::player::{MIN_EXPEDITION_SYMBOLS, fulfils};
use super::{Phase, PortRoyal, Purse, TradeStage, wait_purpose};
use crate::action::{Action, TakeMode};
use crate::catalog::{CardId, CardKind, PersonKind};
use crate::error::RuleViolation;

impl PortRoyal {
    pub(super) fn mademoiselle_discount(&self, seat: Seat) -> u32 {
        self.player(seat).count(PersonKind::Mademoiselle)
    }

    pub(super) fn income(&self, seat: Seat, card: CardId) -> u32 {
        match card.kind() {
            CardKind::Ship { colour, coins, .. } => {
                u32::from(coins) + self.player(seat).traders(colour)
            }
            _ => 0,
        }
    }

    /// Coins a non-active taker pays the active seat per card.
    pub(super) fn compensation(&self, seat: Seat) -> u32 {
        u32::from(seat != self.active)
    }

    /// What `seat` has to pay harbor cards with now. Legal actions and the
    /// automatic skip ask this of every harbor card, so it is gathered once.
    pub(super) fn purse(&self, seat: Seat) -> Purse {
        Purse {
            coins: self.player(seat).coins(),
            compensation: self.compensation(seat),
            discount: self.mademoiselle_discount(seat),
            supply: self.deck.draw_pile() + self.discard_total(),
        }
    }

    /// Check that `seat` can take harbor card `card` now.
    pub(super) fn check_affordable(&self, seat: Seat, card: CardId) -> Result<(), RuleViolation> {
        let purse = self.purse(seat);
        match purse.unaffordable_cost(card) {
            None => Ok(()),
            Some(cost) => Err(RuleViolation::CannotAfford {
                seat,
                cost,
                coins: purse.coins,
            }),
        }
    }

    /// Whether the "pass automatically" variant skips `seat` for `card`: a
    /// non-active seat and a ship that earns nothing once compensation is paid.
    pub(super) fn worthless_for(&self, seat: Seat, card: CardId) -> bool {
        seat != self.active
            && matches!(card.kind(), CardKind::Ship { .. })
            && self.income(seat, card) <= self.compensation(seat)
            // Declining it for a Foe contract is worth something.
            && !(self.options.expansion && self.check_decline(seat, card).is_ok())
    }

    pub(super) fn can_take_something(&self, seat: Seat) -> bool {
        let purse = self.purse(seat);
        let affordable = |c: &CardId| purse.affords(*c);
        if self.options.pass_automatically && seat != self.active {
            self.harbor
                .iter()
                .any(|c| affordable(c) && !self.worthless_for(seat, *c))
        } else {
            self.harbor.iter().any(affordable)
        }
    }

    pub(super) fn check_claim(&self, seat: Seat, position: u8) -> Result<(), RuleViolation> {
        if seat != self.active {
            return Err(RuleViolation::OnlyActiveClaims);
        }
        let card = *self.expeditions.get(usize::from(position)).ok_or(
            RuleViolation::NoSuchExpedition {
                position,
                len: self.expeditions.len(),
            },
        )?;
        if self.harbor_has_duplicate_colour() {
            return Err(RuleViolation::DuplicateColourInHarbor);
        }
        match card.kind() {
            CardKind::Expedition {
                anchors,
                crosses,
                houses,
                ..
            } if self.player(seat).can_fulfil(anchors, crosses, houses) => Ok(()),
            _ => Err(RuleViolation::ExpeditionRequirements { seat }),
        }
    }

    /// The positions of the expeditions `seat` may claim now, as a bit set;
    /// the same conditions as [`Self::check_claim`], with the persons counted once.
    #[inline(always)]
    pub(super) fn claimable(&self, seat: Seat) -> u32 {
        // Inlined up to here: nearly every decision asks, and nearly always
        // the seat is not active, no expedition lies face up, or the seat
        // holds too few of the persons any expedition needs.
        if seat != self.active || self.expeditions.is_empty() {
            return 0;
        }
        let persons = self.player(seat).expedition_persons();
        if persons.iter().sum::<u32>() < MIN_EXPEDITION_SYMBOLS {
            return 0;
        }
        self.claimable_with(persons)
    }

    /// [`Self::claimable`] for the active seat holding `persons`.
    pub(super) fn claimable_with(&self, persons: [u32; 4]) -> u32 {
        let mut set = 0;
        for (i, card) in self.expeditions.iter().enumerate() {
            if let CardKind::Expedition {
                anchors,
                crosses,
                houses,
                ..
            } = card.kind()
                && fulfils(persons, anchors, crosses, houses)
            {
                set |= 1 << i;
            }
        }
        // The harbor's colours are checked last: they are the dearest
        // condition, and most players cannot fulfil any expedition anyway.
        if set != 0 && self.harbor_has_duplicate_colour() {
            return 0;
        }
        set
    }

    #[inline(always)]
    pub(super) fn can_claim_something(&self, seat: Seat) -> bool {
        self.claimable(seat) != 0
    }

    /// The seat that must decide now, if any.
    #[inline]
    pub(super) fn decider(&self) -> Option<Seat> {
        if self.waiting.is_some() {
            return None;
        }
        match self.phase {
            Phase::Discover { .. } => Some(self.active),
            Phase::Trade {
                taker,
                stage: TradeStage::Choosing { .. },
            } => Some(taker),
            _ => None,
        }
    }

    pub(super) fn check_action(&self, seat: Seat, action: Action) -> Result<(), RuleViolation> {
        if let Some(wait) = self.waiting {
            return Err(RuleViolation::WaitingForChance(wait_purpose(wait)));
        }
        if self.phase == Phase::Over {
            return Err(RuleViolation::GameOver);
        }
        let expected = self.decider().ok_or(RuleViolation::GameOver)?;
        if seat != expected {
            return Err(RuleViolation::NotYourTurn { seat, expected });
        }
        let wrong_phase = Err(RuleViolation::WrongPhase {
            action,
            phase: self.phase.name(),
        });
        match self.phase {
            Phase::Discover {
                drawn,
                pending_ship,
                ..
            } => match action {
                Action::Repel | Action::Keep => {
                    pending_ship.map(|_| ()).ok_or(RuleViolation::NoShipToRepel)
                }
                _ if pending_ship.is_some() => Err(RuleViolation::RepelOrKeepFirst),
                Action::Draw => {
                    if self.can_draw() {
                        Ok(())
                    } else {
                        Err(RuleViolation::NothingToDraw)
                    }
                }
                Action::Stop => {
                    if drawn || !self.can_draw() {
                        Ok(())
                    } else {
                        Err(RuleViolation::MustDrawFirst)
                    }
                }
                Action::Claim(n) => self.check_claim(seat, n),
                Action::Take(..) | Action::Pass => wrong_phase,
            },
            Phase::Trade {
                stage: TradeStage::Choosing { takes_left },
                ..
            } => match action {
                Action::Pass => Ok(()),
                Action::Claim(n) => self.check_claim(seat, n),
                Action::Take(position, mode) => {
                    if takes_left == 0 {
                        return Err(RuleViolation::NoTakesLeft);
                    }
                    let card = *self.harbor.get(usize::from(position)).ok_or(
                        RuleViolation::NoSuchCard {
                            position,
                            len: self.harbor.len(),
                        },
                    )?;
                    if self.options.expansion {
                        self.check_take_mode(seat, card, mode)?;
                    } else if mode != TakeMode::Normal {
                        return Err(RuleViolation::TakeModeNotAllowed(
                            "declining coins and gift ships need the expansion's contracts",
                        ));
                    }
                    self.check_affordable(seat, card)
                }
                Action::Draw | Action::Repel | Action::Keep | Action::Stop => wrong_phase,
            },
            _ => wrong_phase,
        }
    }
}
