//! The rules' moves on the state: settling what needs no input, the
//! legal-action helpers, and applying a turn's actions and abilities.

use roundtable_engine::{Game, Knowledge, Revealed, Seat};

use crate::error::GuildhallError as E;
use crate::state::{card_of, copy_of, keep_spare};
use crate::{
    Action, AreaCard, COLOURS, Card, ChapterOrder, Event, Guildhall, HandCard, Pending, Phase,
    Profession, REFILL_HAND, SETUP_HAND, SETUP_PLACE, VP_TABLE, VpAbility,
};

/// The 120 orders a discarded chapter's five cards can lie in, in the
/// order actions sort by: a legal list of them is born sorted, and they
/// are worked out once, not at every decision to pay or shed.
fn every_order() -> &'static [ChapterOrder] {
    static ORDERS: std::sync::OnceLock<Vec<ChapterOrder>> = std::sync::OnceLock::new();
    ORDERS.get_or_init(|| {
        let mut orders = Vec::with_capacity(120);
        let mut order = COLOURS;
        permute(&mut order, 0, &mut orders);
        orders.sort_unstable();
        orders
    })
}

fn permute(order: &mut ChapterOrder, from: usize, out: &mut Vec<ChapterOrder>) {
    if from == order.len() {
        out.push(*order);
        return;
    }
    for i in from..order.len() {
        order.swap(from, i);
        permute(order, from + 1, out);
        order.swap(from, i);
    }
}

/// The step a `profession` card's ability at `level` leaves pending, or
/// `None` for an ability done at once (a Dancer, a Farmer, a Historian at
/// level 0).
pub(crate) fn ability_step(profession: Profession, level: u8) -> Option<Pending> {
    use Profession as P;
    match profession {
        P::Assassin => Some(Pending::Assassinate {
            victim: None,
            left: if level == 0 { 1 } else { 2 },
            distinct: level == 2,
            hit: 0,
        }),
        P::Dancer | P::Farmer => None,
        P::Historian if level == 0 => None,
        P::Historian => Some(Pending::Search {
            left: if level >= 4 { 2 } else { 1 },
        }),
        P::Trader if level >= 4 => Some(Pending::SwapChapter),
        P::Trader => Some(Pending::Swap {
            with: None,
            left: if level >= 2 { 2 } else { 1 },
        }),
        P::Weaver => Some(match level {
            0 => Pending::Place {
                left: Some(1),
                then_return: 0,
            },
            2 => Pending::Place {
                left: Some(2),
                then_return: 1,
            },
            _ => Pending::Place {
                left: None,
                then_return: 2,
            },
        }),
    }
}

impl Guildhall {
    pub(crate) fn waiting(&self) -> bool {
        self.owed.iter().any(|&n| n > 0) || self.row_owed > 0
    }

    /// The seat whose decision is due, if one is.
    pub fn decider(&self) -> Option<Seat> {
        if self.phase == Phase::Over || self.waiting() {
            return None;
        }
        if let Some(seat) = self.shedding_seat() {
            return Some(seat);
        }
        match self.phase {
            Phase::SetupDiscard(s) | Phase::SetupPlace(s, _) => Some(s),
            Phase::Turn => Some(self.turn),
            Phase::Over => None,
        }
    }

    /// Move past every state that needs no input.
    pub(crate) fn settle(&mut self, events: &mut Vec<Event>) {
        loop {
            if self.phase == Phase::Over {
                return;
            }
            if let Some(i) = self.owed.iter().position(|&n| n > 0) {
                if self.deck_left() > 0 || !self.discard.is_empty() {
                    return;
                }
                // Deck and discard pile are both empty: nothing to draw.
                self.owed[i] = 0;
                continue;
            }
            if self.row_owed > 0 {
                if self.vp_left.iter().any(|&n| n > 0) {
                    return;
                }
                self.row_owed = 0;
                continue;
            }
            if self.phase == Phase::Turn
                && self.pending.is_none()
                && self.actions_left == 0
                && self.shedding_seat().is_none()
            {
                let seat = self.turn;
                self.end_turn();
                events.push(Event::TurnEnded {
                    seat,
                    vp: self.vp(seat),
                });
                continue;
            }
            return;
        }
    }

    /// Placements `seat`'s hand, known by `knowledge` or public, can make:
    /// its distinct cards its guildhall does not hold, and up to `twins`
    /// cards identical to one it holds (each swapped for its twin).
    /// `without`: a slot of the hand left out (the card being played).
    pub(crate) fn known_placeable(
        &self,
        seat: Seat,
        knowledge: &Knowledge,
        twins: u8,
        without: Option<HandCard>,
    ) -> u32 {
        let mut kinds = 0u32;
        let mut held = 0u32;
        let mut seen = [false; 30];
        // Playing takes the first slot that matches, so that one is skipped.
        let mut skip = without;
        for &h in &self.hands[seat.index()] {
            if skip == Some(h) {
                skip = None;
                continue;
            }
            let card = match h {
                HandCard::Dealt(handle) => knowledge.card(handle),
                HandCard::Open(c) => Some(c),
            };
            let Some(c) = card.and_then(Card::from_index) else {
                continue;
            };
            if self.holds(seat, c) {
                held += 1;
            } else if !seen[c.index() as usize] {
                seen[c.index() as usize] = true;
                kinds += 1;
            }
        }
        kinds + held.min(u32::from(twins))
    }

    /// Whether the pending step can be finished by `seat`, knowing its hand.
    pub(crate) fn finishable_with(&self, seat: Seat, knowledge: &Knowledge) -> bool {
        if let Some(Pending::Place {
            left: Some(n),
            then_return,
        }) = self.pending
        {
            return self.known_placeable(seat, knowledge, then_return, None) >= u32::from(n)
                && self.completable(seat, 3);
        }
        self.completable(seat, 3)
    }

    /// The cards of `seat`'s hand it knows (by `knowledge`, or open to all),
    /// walked where needed rather than collected at every decision.
    pub(crate) fn known_hand<'a>(
        &'a self,
        seat: Seat,
        knowledge: &'a Knowledge,
    ) -> impl Iterator<Item = (HandCard, u32)> + 'a {
        self.hands[seat.index()].iter().filter_map(|&h| match h {
            HandCard::Dealt(handle) => knowledge.card(handle).map(|c| (h, c)),
            HandCard::Open(c) => Some((h, c)),
        })
    }

    /// Paying or shedding each of `seat`'s completed chapters in each order,
    /// in the order actions sort by and without repeats.
    pub(crate) fn chapter_actions(&self, seat: Seat, out: &mut Vec<Action>, shed: bool) {
        let mut professions = self.completed[seat.index()].clone();
        professions.sort();
        professions.dedup();
        let orders: &[ChapterOrder] = if self.options.choose_chapter_order {
            every_order()
        } else {
            &[]
        };
        let orders = orders
            .iter()
            .copied()
            .map(Some)
            .chain(orders.is_empty().then_some(None));
        for profession in professions {
            for order in orders.clone() {
                out.push(if shed {
                    Action::Shed { profession, order }
                } else {
                    Action::Pay { profession, order }
                });
            }
        }
    }

    /// Whether `action` applied to a copy leaves a step `seat` can finish.
    pub(crate) fn keeps_finishable(
        &self,
        seat: Seat,
        action: &Action,
        opened: Option<u32>,
        knowledge: &Knowledge,
    ) -> bool {
        self.try_on_copy(|probe| {
            probe.apply_inner(seat, action, opened).is_ok()
                && probe.finishable_with(seat, knowledge)
        })
    }

    pub(crate) fn apply_inner(
        &mut self,
        seat: Seat,
        action: &Action,
        opened: Option<u32>,
    ) -> Result<(), E> {
        if self.shedding_seat() == Some(seat) {
            return match *action {
                Action::Shed { profession, order } => self.discard_chapter(seat, profession, order),
                _ => Err(E::WrongStep(
                    "anything but shedding chapters beyond the third",
                )),
            };
        }
        if let Action::Shed { .. } = action {
            return Err(E::NoExcessChapters(seat));
        }
        match self.phase {
            Phase::Over => Err(E::GameOver),
            Phase::SetupDiscard(s) => match *action {
                Action::Discard { from, card } => self.discard_from_hand(s, from, card, opened),
                Action::Draw => {
                    let held = self.hands[s.index()].len() as u32;
                    self.owed[s.index()] = SETUP_HAND.saturating_sub(held);
                    self.phase = Phase::SetupPlace(s, SETUP_PLACE);
                    Ok(())
                }
                _ => Err(E::WrongStep("in the setup, only discarding and drawing")),
            },
            Phase::SetupPlace(s, left) => match *action {
                Action::Place { from, card } => {
                    self.place_from_hand(s, from, card, opened)?;
                    self.phase = if left > 1 {
                        Phase::SetupPlace(s, left - 1)
                    } else if s.0 + 1 < self.seats {
                        Phase::SetupDiscard(Seat(s.0 + 1))
                    } else {
                        Phase::Turn
                    };
                    Ok(())
                }
                _ => Err(E::WrongStep("in the setup, only placing three cards")),
            },
            Phase::Turn => self.apply_turn(seat, action, opened),
        }
    }

    /// Take the claimed card out of `seat`'s hand, once checked.
    fn take_from_hand(
        &mut self,
        seat: Seat,
        from: HandCard,
        card: u32,
        opened: Option<u32>,
    ) -> Result<(), E> {
        let (at, _) = self.check_hand_card(seat, from, card, opened)?;
        self.hands[seat.index()].remove(at);
        Ok(())
    }

    pub(crate) fn discard_from_hand(
        &mut self,
        seat: Seat,
        from: HandCard,
        card: u32,
        opened: Option<u32>,
    ) -> Result<(), E> {
        self.take_from_hand(seat, from, card, opened)?;
        self.discard.push(card);
        Ok(())
    }

    pub(crate) fn place_from_hand(
        &mut self,
        seat: Seat,
        from: HandCard,
        card: u32,
        opened: Option<u32>,
    ) -> Result<(), E> {
        let (at, c) = self.check_hand_card(seat, from, card, opened)?;
        self.add_to_hall(seat, c)?;
        self.hands[seat.index()].remove(at);
        Ok(())
    }

    /// Swap a hand card for its identical twin in `seat`'s guildhall: the
    /// guildhall is unchanged and the hand card becomes one everyone knows.
    pub(crate) fn swap_twin(
        &mut self,
        seat: Seat,
        from: HandCard,
        card: u32,
        opened: Option<u32>,
    ) -> Result<(), E> {
        self.take_from_hand(seat, from, card, opened)?;
        self.hands[seat.index()].push(HandCard::Open(card));
        Ok(())
    }

    pub(crate) fn apply_turn(
        &mut self,
        seat: Seat,
        action: &Action,
        opened: Option<u32>,
    ) -> Result<(), E> {
        match self.pending {
            Some(Pending::Discarding) => match *action {
                Action::Discard { from, card } => self.discard_from_hand(seat, from, card, opened),
                Action::Draw => {
                    let held = self.hands[seat.index()].len() as u32;
                    self.owed[seat.index()] = REFILL_HAND.saturating_sub(held);
                    self.pending = None;
                    Ok(())
                }
                _ => Err(E::WrongStep(
                    "while discarding, only discarding and drawing",
                )),
            },
            Some(Pending::Place { left, then_return }) => {
                match *action {
                    Action::Place { from, card } => {
                        // Rules, "Duplicates": two identical cards may be
                        // swapped between hand and guildhall. A card the
                        // guildhall holds is placed over its twin, which is
                        // taken back at once as one of the level's returns
                        // (nothing else could be returned in its place
                        // without leaving a duplicate).
                        let twin = then_return > 0 && self.holds(seat, card_of(card)?);
                        if twin {
                            self.swap_twin(seat, from, card, opened)?;
                        } else {
                            self.place_from_hand(seat, from, card, opened)?;
                        }
                        let then_return = then_return - u8::from(twin);
                        self.pending = match left {
                            Some(n) if n <= 1 => {
                                self.placed_by_ability.clear();
                                (then_return > 0).then_some(Pending::Return { left: then_return })
                            }
                            Some(n) => {
                                // A twin swap leaves the guildhall as it was:
                                // giving the level up has nothing to undo.
                                if !twin {
                                    self.placed_by_ability.push(card);
                                }
                                Some(Pending::Place {
                                    left: Some(n - 1),
                                    then_return,
                                })
                            }
                            None => Some(Pending::Place {
                                left: None,
                                then_return,
                            }),
                        };
                    }
                    Action::Stop if left.is_none() => {
                        self.pending =
                            (then_return > 0).then_some(Pending::Return { left: then_return });
                    }
                    // A fixed number of placements: the hand (which only
                    // its holder sees) may not allow them, so the level can
                    // always be given up instead of done in part.
                    Action::Stop => {
                        self.give_up_placing(seat);
                        return Ok(());
                    }
                    _ => return Err(E::WrongStep("while placing, only placing cards")),
                }
                if !self.completable(seat, 3) {
                    return Err(E::AbilityIncomplete);
                }
                Ok(())
            }
            Some(Pending::Pay { kind, left }) => match *action {
                Action::Pay { profession, order } => {
                    self.discard_chapter(seat, profession, order)?;
                    if left > 1 {
                        self.pending = Some(Pending::Pay {
                            kind,
                            left: left - 1,
                        });
                    } else {
                        if self.options.refill_after_paying {
                            self.row_owed += 1;
                        }
                        let ability = VP_TABLE[usize::from(kind)].ability;
                        self.pending =
                            (ability != VpAbility::None).then_some(Pending::VpAbility(kind));
                    }
                    Ok(())
                }
                _ => Err(E::WrongStep("while buying, only paying chapters")),
            },
            Some(_) => {
                self.apply_step(seat, action)?;
                if !self.completable(seat, 3) {
                    return Err(E::AbilityIncomplete);
                }
                Ok(())
            }
            None => {
                if matches!(
                    action,
                    Action::Play { .. } | Action::Refill | Action::Buy { .. }
                ) && self.actions_left == 0
                {
                    return Err(E::NoActionsLeft);
                }
                match *action {
                    Action::Refill => {
                        self.pending = Some(Pending::Discarding);
                    }
                    Action::Buy { kind } => {
                        let spec = VP_TABLE
                            .get(usize::from(kind))
                            .ok_or(E::WrongStep("an unknown VP card"))?;
                        let at = self
                            .row
                            .iter()
                            .position(|&k| k == kind)
                            .ok_or(E::NotInRow(spec.name))?;
                        let has = self.completed[seat.index()].len() as u32;
                        if has < spec.chapters {
                            return Err(E::NotEnoughChapters {
                                seat,
                                cost: spec.chapters,
                                has,
                            });
                        }
                        self.row.remove(at);
                        self.area.push(AreaCard::Vp(kind));
                        if !self.options.refill_after_paying {
                            self.row_owed += 1;
                        }
                        self.pending = Some(Pending::Pay {
                            kind,
                            left: spec.chapters as u8,
                        });
                    }
                    Action::Play { from, card, level } => {
                        self.play(seat, from, card, level, opened)?
                    }
                    _ => return Err(E::WrongStep("this action outside an ability")),
                }
                self.actions_left -= 1;
                self.turn_started = false;
                Ok(())
            }
        }
    }

    pub(crate) fn play(
        &mut self,
        seat: Seat,
        from: HandCard,
        card: u32,
        level: Option<u8>,
        opened: Option<u32>,
    ) -> Result<(), E> {
        let (at, c) = self.check_hand_card(seat, from, card, opened)?;
        self.check_play(seat, c, level)?;
        let p = c.profession;
        self.hands[seat.index()].remove(at);
        self.area.push(AreaCard::Profession(card));
        self.played |= 1 << p.index();
        if let Some(l) = level {
            self.use_ability(seat, p, l);
            if !self.completable(seat, 3) {
                return Err(E::AbilityIncomplete);
            }
        }
        Ok(())
    }

    /// Whether `seat` may play `card` (at `level`, if one is named): the
    /// rules on the card itself, after the hand slot is checked. The legal
    /// list's fast judgement of a play asks this too, so the two agree.
    pub(crate) fn check_play(&self, seat: Seat, card: Card, level: Option<u8>) -> Result<(), E> {
        if self.holds(seat, card) {
            return Err(E::Duplicate { seat, card });
        }
        let p = card.profession;
        if self.played & (1 << p.index()) != 0 {
            return Err(E::ProfessionPlayedThisTurn(p));
        }
        let has = self.chapter_size(seat, p);
        if let Some(l) = level
            && (l > has || !p.thresholds().contains(&l))
        {
            return Err(E::LevelNotAvailable {
                level: l,
                has,
                levels: p.thresholds(),
            });
        }
        Ok(())
    }

    pub(crate) fn use_ability(&mut self, seat: Seat, profession: Profession, level: u8) {
        use Profession as P;
        self.pending = ability_step(profession, level);
        match profession {
            P::Dancer => {
                self.owed[seat.index()] += u32::from(level);
                self.actions_left += 1;
            }
            P::Farmer => {
                self.tokens[seat.index()] += if level >= 3 { 2 } else { 1 };
            }
            P::Historian if level == 0 => {
                if let Some(&top) = self.discard.last()
                    && let Some(card) = Card::from_index(top)
                    && !self.holds(seat, card)
                {
                    self.discard.pop();
                    // Not a duplicate: checked just above.
                    let _ = self.add_to_hall(seat, card);
                }
            }
            _ => {}
        }
    }

    /// Whether applying `action` may be refused after it has begun to
    /// change the state: only by the check that the ability under way can
    /// still be done in full (rule `ability-incomplete`), made after a
    /// level is played or a step of an ability is taken. Every other
    /// refusal comes before any change, so such actions are applied in
    /// place, not on a copy (the copy was a tenth of a random game).
    fn may_refuse_midway(&self, action: &Action) -> bool {
        match action {
            Action::Play { level, .. } => level.is_some(),
            _ => {
                self.phase == Phase::Turn
                    && !matches!(
                        self.pending,
                        None | Some(Pending::Discarding | Pending::Pay { .. })
                    )
            }
        }
    }

    pub(crate) fn apply_checked(
        &mut self,
        seat: Seat,
        action: &Action,
        revealed: &[Revealed],
        events: &mut Vec<Event>,
    ) -> Result<(), E> {
        if self.phase == Phase::Over {
            return Err(E::GameOver);
        }
        let expected = self.decider().ok_or(E::WaitingForDeal)?;
        if seat != expected {
            return Err(E::NotYourTurn { seat, expected });
        }
        let claims = Self::claims(action);
        let opened = match (claims.as_slice(), revealed) {
            ([], []) => None,
            ([claim], [open]) if claim.handle == open.handle => Some(open.card),
            // The slot is checked first: an unheld one is refused as such.
            ([_], []) => None,
            _ => return Err(E::RevealMismatch),
        };
        if self.may_refuse_midway(action) {
            // Applied to a copy, so a refused action leaves the state as it was.
            let mut next = copy_of(self);
            let applied = next.apply_inner(seat, action, opened);
            if applied.is_ok() {
                std::mem::swap(self, &mut next);
            }
            keep_spare(next);
            applied?;
        } else if cfg!(debug_assertions) {
            // Every refusal of these comes before any change: checked on
            // every action the tests and scenarios refuse.
            let before = copy_of(self);
            let applied = self.apply_inner(seat, action, opened);
            debug_assert!(
                applied.is_ok() || *self == *before,
                "{action} was refused after changing the state"
            );
            keep_spare(before);
            applied?;
        } else {
            self.apply_inner(seat, action, opened)?;
        }
        events.push(Event::Acted {
            seat,
            action: *action,
        });
        self.settle(events);
        Ok(())
    }
}
