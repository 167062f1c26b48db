//! "Just One More Contract": the rules the expansion adds to the base game's
//! state machine — the take modes (gift ships, declining coins), the
//! contracts and their cubes, and Pack of Pirates' ships kept aside.
//!
//! Every contract is completed automatically as soon as its requirement
//! holds (the online table's rule). The base game's code calls in here only
//! behind `options.expansion`, so its behaviour stays as it was.

use std::cmp::Reverse;

use roundtable_engine::Seat;
use smallvec::SmallVec;

use super::{Effect, Log, PortRoyal, log_records, record};
use crate::action::{Action, TakeMode};
use crate::catalog::{CardId, CardKind, Colour};
use crate::contracts::{CONTRACTS, CUBES, ContractId, FACE_UP_CONTRACTS, Requirement};
use crate::error::RuleViolation;
use crate::event::{CoinReason, Event};

/// Positions of face-up contracts. There are at most four, so the list
/// lives on the stack: every dock, hire, claim and bust asks for one, and a
/// fresh vector each time was the expansion's main allocation.
type Positions = SmallVec<[usize; FACE_UP_CONTRACTS]>;

impl PortRoyal {
    /// The face-up contracts' positions whose requirement passes `pred`.
    fn face_up_where(&self, pred: impl Fn(Requirement) -> bool) -> Positions {
        self.contracts
            .iter()
            .enumerate()
            .filter(|(_, c)| pred(c.id.requirement()))
            .map(|(i, _)| i)
            .collect()
    }

    /// The face-up Foe contract of a ship colour, if any.
    fn foe_contract(&self, colour: Colour) -> Option<ContractId> {
        self.contracts.iter().map(|c| c.id).find(
            |id| matches!(id.requirement(), Requirement::Decline { colour: c, .. } if c == colour),
        )
    }

    /// The takes of harbor card `card` (affordable) at `position` in the
    /// expansion, in ascending order: a gift ship only with a chosen seat,
    /// and declining only where it moves a Foe contract on.
    pub(super) fn expansion_takes(
        &self,
        seat: Seat,
        position: u8,
        card: CardId,
        out: &mut Vec<Action>,
    ) {
        let (gift, decline) = match card.kind() {
            CardKind::Ship { gift, .. } => (gift, self.check_decline(seat, card).is_ok()),
            _ => (false, false),
        };
        if !gift {
            out.push(Action::Take(position, TakeMode::Normal));
            if decline {
                out.push(Action::Take(position, TakeMode::Decline));
            }
            return;
        }
        let others = || self.seats_from(Seat(0)).filter(move |&s| s != seat);
        for to in others() {
            out.push(Action::Take(position, TakeMode::Gift(to)));
        }
        if decline {
            for to in others() {
                out.push(Action::Take(position, TakeMode::DeclineGift(to)));
            }
        }
    }

    /// Check a take's mode against the card: a gift ship needs a seat to give
    /// to (another seat at the table), other cards take none, and declining
    /// must be allowed ([`Self::check_decline`]).
    pub(super) fn check_take_mode(
        &self,
        seat: Seat,
        card: CardId,
        mode: TakeMode,
    ) -> Result<(), RuleViolation> {
        let gift = matches!(card.kind(), CardKind::Ship { gift: true, .. });
        match mode {
            TakeMode::Gift(to) | TakeMode::DeclineGift(to) => {
                if !gift {
                    return Err(RuleViolation::NotAGiftShip);
                }
                if to.0 >= self.seats {
                    return Err(RuleViolation::NoSuchSeat { seat: to });
                }
                if to == seat {
                    return Err(RuleViolation::GiftToAnotherPlayer);
                }
            }
            TakeMode::Normal | TakeMode::Decline if gift => {
                return Err(RuleViolation::GiftSeatRequired);
            }
            TakeMode::Normal | TakeMode::Decline => {}
        }
        if matches!(mode, TakeMode::Decline | TakeMode::DeclineGift(_)) {
            self.check_decline(seat, card)?;
        }
        Ok(())
    }

    /// Whether `seat` may trade `card` declining its coins. The rules text
    /// has declining only for Frigate Foe and Galleon Foe, so it is allowed
    /// exactly when it moves such a contract on: a ship of a face-up Foe
    /// contract's colour that the seat has not completed, a cube for it (one
    /// already on its progress spaces, or a free one), and for a non-active
    /// seat a coin to pay the compensation first (declined income cannot pay it).
    pub(super) fn check_decline(&self, seat: Seat, card: CardId) -> Result<(), RuleViolation> {
        let contract = card
            .ship_colour()
            .and_then(|colour| self.foe_contract(colour))
            .ok_or(RuleViolation::DeclineNeedsFoeContract)?;
        let p = self.player(seat);
        if p.has_completed(contract) {
            return Err(RuleViolation::ContractAlreadyCompleted { contract });
        }
        if p.progress_of(contract) == 0 && p.free_cubes() == 0 {
            return Err(RuleViolation::NoFreeCube);
        }
        if seat != self.active && p.coins() == 0 {
            return Err(RuleViolation::DeclineNeedsCompensationCoin);
        }
        Ok(())
    }

    // ----- contracts ----------------------------------------------------

    /// Coins the next step of contract `position` pays `seat` now: the
    /// contract's coins for its completion order when the step completes
    /// it, nothing when it only places or moves a progress cube.
    fn step_coins(&self, seat: Seat, position: usize) -> u32 {
        let c = &self.contracts[position];
        let steps = c.id.requirement().steps();
        if self.player(seat).progress_of(c.id) + 1 >= steps {
            c.id.coins_for(c.completed_by.len())
        } else {
            0
        }
    }

    /// Whether `seat` can take the next step of `contract`: not completed
    /// yet, and a cube for it (its progress cube, or a free one).
    fn can_step(&self, seat: Seat, contract: ContractId) -> bool {
        let p = self.player(seat);
        !p.has_completed(contract) && (p.progress_of(contract) > 0 || p.free_cubes() > 0)
    }

    /// `seat` met the requirements of the face-up contracts at `met` at once.
    /// When its cubes cannot cover all, the steps paying the most coins go
    /// first (the online table's rule), ties in face-up order.
    fn contracts_met(&mut self, seat: Seat, mut met: Positions, events: &mut impl Log) {
        if met.len() > 1 {
            met.sort_by_key(|&i| (Reverse(self.step_coins(seat, i)), i));
        }
        for i in met {
            if self.can_step(seat, self.contracts[i].id) {
                self.step(seat, i, events);
            }
        }
    }

    /// One step of contract `position` for `seat`: place or move the
    /// progress cube, or complete the contract.
    fn step(&mut self, seat: Seat, position: usize, events: &mut impl Log) {
        let id = self.contracts[position].id;
        let steps = id.requirement().steps();
        let step = self.player(seat).progress_of(id) + 1;
        if step < steps {
            let progress = &mut self.player_mut(seat).progress;
            match progress.iter_mut().find(|(c, _)| *c == id) {
                Some(entry) => entry.1 = step,
                None => progress.push((id, step)),
            }
            record!(
                events,
                Event::ContractProgress {
                    seat,
                    contract: id,
                    step,
                    steps,
                }
            );
        } else {
            self.complete(seat, position, events);
        }
        self.return_hopeless_pack(seat, events);
    }

    /// `seat` completes contract `position`: a cube (its progress cube, if
    /// it has one there) goes onto the next coin space, the coins of that
    /// space are paid, and the 2nd and 3rd contract give victory points.
    fn complete(&mut self, seat: Seat, position: usize, events: &mut impl Log) {
        let id = self.contracts[position].id;
        let order = self.contracts[position].completed_by.len();
        let coins = id.coins_for(order);
        let vp_before = self.player(seat).contract_vp();
        self.contracts[position].completed_by.push(seat);
        let p = self.player_mut(seat);
        p.progress.retain(|(c, _)| *c != id);
        p.completed.push(id);
        let vp = p.contract_vp() - vp_before;
        record!(
            events,
            Event::ContractCompleted {
                seat,
                contract: id,
                coins,
                vp,
            }
        );
        if id.requirement() == Requirement::RepelAllColours {
            self.return_pack(seat, events);
        }
        if coins > 0 {
            self.effects.push_back(Effect::Coins {
                seat,
                n: coins,
                reason: CoinReason::Contract,
            });
        }
        self.check_end(seat, events);
    }

    /// Whether `seat`'s display meets a display requirement.
    fn display_meets(&self, seat: Seat, requirement: Requirement) -> bool {
        let p = self.player(seat);
        match requirement {
            Requirement::Persons(a, b) if a == b => p.count(a) >= 2,
            Requirement::Persons(a, b) => p.count(a) >= 1 && p.count(b) >= 1,
            Requirement::CheapPersons { count, max_cost } => {
                p.persons_costing_at_most(max_cost) >= u32::from(count)
            }
            Requirement::Swords(n) => p.swords() >= u32::from(n),
            Requirement::Expeditions(n) => p.expeditions.len() >= usize::from(n),
            _ => false,
        }
    }

    /// After `seat`'s display changed (a hire, a claim): complete every
    /// contract whose display requirement now holds.
    pub(super) fn check_display_contracts(&mut self, seat: Seat, events: &mut impl Log) {
        if self.player(seat).free_cubes() == 0 {
            return;
        }
        let p = self.player(seat);
        let mut met = Positions::new();
        for (i, contract) in self.contracts.iter().enumerate() {
            let requirement = contract.id.requirement();
            if requirement.is_display()
                && !p.has_completed(contract.id)
                && self.display_meets(seat, requirement)
            {
                met.push(i);
            }
        }
        if !met.is_empty() {
            self.contracts_met(seat, met, events);
        }
    }

    /// `seat` traded a ship of `colour` declining its coins (validated:
    /// a Foe contract of that colour is face up and can take the step).
    pub(super) fn declined(&mut self, seat: Seat, colour: Colour, events: &mut impl Log) {
        let met = self
            .face_up_where(|r| matches!(r, Requirement::Decline { colour: c, .. } if c == colour));
        self.contracts_met(seat, met, events);
    }

    /// A ship docked in the active seat's harbor: the Gamesters count the
    /// moment the harbor reaches their number of colours. Ships only join
    /// the harbor in Discover and a bust ends it, so each number is reached
    /// at most once a turn: a Tiny Gamester's second time is a later turn.
    pub(super) fn docked(&mut self, events: &mut impl Log) {
        let colours = self.harbor_colours().count_ones() as u8;
        let met = self.face_up_where(
            |r| matches!(r, Requirement::HarborColours { colours: n, .. } if n == colours),
        );
        if !met.is_empty() {
            self.contracts_met(self.active, met, events);
        }
    }

    /// The active seat went bust: Jinx.
    pub(super) fn went_bust(&mut self, events: &mut impl Log) {
        let met = self.face_up_where(|r| r == Requirement::Bust);
        if !met.is_empty() {
            self.contracts_met(self.active, met, events);
        }
    }

    /// `seat` lost coins to a tax increase: Tax Officer.
    pub(super) fn paid_taxes(&mut self, seat: Seat, events: &mut impl Log) {
        let met = self.face_up_where(|r| r == Requirement::PayTaxes);
        if !met.is_empty() {
            self.contracts_met(seat, met, events);
        }
    }

    /// The active seat repelled `card` (Pack of Pirates): the first ship of
    /// each colour is kept aside while the seat can still complete the
    /// contract; the fifth colour completes it. Returns whether the ship
    /// was kept aside (otherwise it goes onto the discard pile).
    pub(super) fn keep_aside(&mut self, seat: Seat, card: CardId, events: &mut impl Log) -> bool {
        let Some(position) = self
            .face_up_where(|r| r == Requirement::RepelAllColours)
            .first()
            .copied()
        else {
            return false;
        };
        let Some(colour) = card.ship_colour() else {
            return false;
        };
        let id = self.contracts[position].id;
        let p = self.player(seat);
        let have = p.kept_aside.iter().any(|c| c.ship_colour() == Some(colour));
        if have || !self.can_step(seat, id) {
            return false;
        }
        let p = self.player_mut(seat);
        p.kept_aside.push(card);
        let collected = p.kept_aside.len();
        record!(events, Event::KeptAside { seat, card });
        if collected == Colour::ALL.len() {
            self.contracts_met(seat, smallvec::smallvec![position], events);
        }
        true
    }

    /// The ships `seat` kept aside go onto the discard pile.
    fn return_pack(&mut self, seat: Seat, events: &mut impl Log) {
        let cards = std::mem::take(&mut self.player_mut(seat).kept_aside);
        if cards.is_empty() {
            return;
        }
        for &c in &cards {
            self.discard(c);
        }
        record!(events, Event::PackReturned { seat, cards });
    }

    /// Ships kept aside for a Pack of Pirates that `seat` can no longer
    /// complete (its last cube went onto another contract) would be out of
    /// the game for nothing: they go onto the discard pile.
    fn return_hopeless_pack(&mut self, seat: Seat, events: &mut impl Log) {
        if !self.player(seat).kept_aside.is_empty() && self.player(seat).free_cubes() == 0 {
            self.return_pack(seat, events);
        }
    }

    /// Check the contracts' own conservation: every contract is face up or
    /// face down exactly once (four face up once laid out), and every cube
    /// of every player is in one place — on a completed contract's coin
    /// space (recorded alike on the contract and by the player), on a
    /// progress space of a face-up multi-step contract the player has not
    /// completed, or in the player's supply. Ships kept aside are one per
    /// colour, only for a face-up Pack of Pirates the player can complete.
    pub(super) fn check_contracts(&self) -> Result<(), String> {
        if !self.options.expansion {
            if self.contracts.is_empty() && self.contract_pile.is_empty() {
                return Ok(());
            }
            return Err("contracts in a game without the expansion".into());
        }
        let mut seen = self.contract_pile.clone();
        if seen.len() != CONTRACTS.len() {
            return Err(format!(
                "the face-down contracts count {} rows, the table has {}",
                seen.len(),
                CONTRACTS.len()
            ));
        }
        for c in &self.contracts {
            seen[usize::from(c.id.0)] += 1;
        }
        if let Some(id) = ContractId::all().find(|c| seen[usize::from(c.0)] != 1) {
            return Err(format!(
                "{id} is {} times face up or face down",
                seen[usize::from(id.0)]
            ));
        }
        let laid_out = self.turn > 0;
        if laid_out && self.contracts.len() != FACE_UP_CONTRACTS {
            return Err(format!("{} contracts face up", self.contracts.len()));
        }
        for (i, p) in self.players.iter().enumerate() {
            let seat = Seat(i as u8);
            let used = p.completed.len() + p.progress.len();
            if used > CUBES as usize {
                return Err(format!("{seat} has {used} cubes on contracts"));
            }
            for &id in &p.completed {
                let on_card = self
                    .contracts
                    .iter()
                    .find(|c| c.id == id)
                    .map_or(0, |c| c.completed_by.iter().filter(|&&s| s == seat).count());
                if on_card != 1 {
                    return Err(format!("{seat} completed {id}, {on_card} cubes on it"));
                }
            }
            for &(id, step) in &p.progress {
                let face_up = self.contracts.iter().any(|c| c.id == id);
                if !face_up || p.has_completed(id) || step == 0 || step >= id.requirement().steps()
                {
                    return Err(format!("{seat}: a progress cube at step {step} of {id}"));
                }
            }
            if !p.kept_aside.is_empty() {
                let pack = self
                    .contracts
                    .iter()
                    .find(|c| c.id.requirement() == Requirement::RepelAllColours);
                let colours = p
                    .kept_aside
                    .iter()
                    .filter_map(|c| c.ship_colour())
                    .fold(0u8, |m, c| m | c.bit());
                let ok = pack.is_some_and(|c| !p.has_completed(c.id))
                    && p.free_cubes() > 0
                    && colours.count_ones() as usize == p.kept_aside.len()
                    && p.kept_aside.len() < Colour::ALL.len();
                if !ok {
                    return Err(format!("{seat}: ships kept aside {:?}", p.kept_aside));
                }
            }
        }
        for c in &self.contracts {
            for &s in &c.completed_by {
                let p = self.players.get(s.index()).ok_or("a cube of no seat")?;
                if !p.has_completed(c.id) {
                    return Err(format!("{s}'s cube on {} but not completed", c.id));
                }
            }
        }
        Ok(())
    }
}
