//! The rules' moves on the state: settling what needs no input, and
//! applying a seat's action (checked, on a copy, or as the game end's).

use roundtable_engine::{CardHandle, Revealed, Seat};

use crate::data::{self, CHEST, Colour, Crew, HOLDS, HoldRule, STORAGE, Science, Space};
use crate::error::NereusError as E;
use crate::state::bit;
use crate::{
    Action, Aim, Cell, Dir, Effect, EndScore, Event, Half, Job, Nereus, Owner, Phase, Piece, Slot,
    Stage, Turn,
};

impl Nereus {
    /// Move past every state that needs no input.
    pub(crate) fn settle(&mut self, events: &mut impl Log) {
        loop {
            if let Some(job) = self.jobs.first() {
                let done = match job {
                    Job::Deal { count, .. } => {
                        *count == 0 || (self.deck_left() == 0 && self.discard.is_empty())
                    }
                    Job::Fill(cells) => cells.is_empty(),
                    Job::Draw(n) => *n == 0 || self.turn.is_none(),
                    Job::NeutralFlip { .. } => {
                        self.neutral.as_ref().is_none_or(|n| n.deck.is_empty())
                    }
                    _ => false,
                };
                if done {
                    self.jobs.remove(0);
                    continue;
                }
                if matches!(job, Job::Fill(_) | Job::Draw(_)) && self.bag_total() == 0 {
                    for (c, n) in data::EMPTY_BAG_SET.iter().enumerate() {
                        self.bag[c] += n;
                        self.extra_out[c] += n;
                    }
                    self.sets_added += 1;
                    events.record(|| Event::Chance("the bag was empty: a set of 8 added".into()));
                    continue;
                }
                return;
            }
            match self.phase.clone() {
                Phase::Setup => self.phase = Phase::Choose,
                Phase::Choose => {
                    if self.chosen.iter().any(Option::is_none) {
                        return;
                    }
                    for (s, c) in self.chosen.iter().enumerate() {
                        if let Some(c) = c {
                            self.played[s] |= bit(*c);
                        }
                    }
                    events.record(|| {
                        Event::CrewsChosen(self.chosen.iter().flatten().copied().collect())
                    });
                    if self.neutral.is_some() {
                        self.jobs.push(Job::NeutralFlip {
                            from_explorer: false,
                        });
                    }
                    self.phase = Phase::Turns(0);
                }
                Phase::Turns(pos) => {
                    if self.turn.is_some() {
                        return;
                    }
                    if pos == self.seats {
                        self.cycle += 1;
                        self.chosen = vec![None; usize::from(self.seats)];
                        if self.cycle == data::CYCLES {
                            let queue = self.markers[Crew::Explorer.index()]
                                .iter()
                                .flatten()
                                .copied()
                                .collect();
                            self.phase = Phase::Explorer { queue, pos: 0 };
                        } else {
                            self.hourglass = self.hourglass.next(self.seats);
                            self.phase = Phase::Choose;
                        }
                        continue;
                    }
                    let seat = Seat((self.hourglass.0 + pos) % self.seats);
                    let crew = self.chosen[seat.index()].filter(|&c| self.free_space(c).is_some());
                    self.turn = Some(Turn::new(seat, crew, false));
                }
                Phase::Explorer { queue, pos } => {
                    if self.turn.is_some() {
                        return;
                    }
                    match queue.get(usize::from(pos)) {
                        None => self.conclude(),
                        Some(Owner::Neutral) => {
                            self.jobs.push(Job::NeutralFlip {
                                from_explorer: true,
                            });
                            self.phase = Phase::Explorer {
                                queue,
                                pos: pos + 1,
                            };
                        }
                        Some(Owner::Seat(s)) => {
                            if !self.explore_options(*s).is_empty() {
                                return;
                            }
                            self.phase = Phase::Explorer {
                                queue,
                                pos: pos + 1,
                            };
                        }
                    }
                }
                Phase::Final(s) => {
                    if s < self.seats {
                        return;
                    }
                    for i in 0..usize::from(self.seats) {
                        let cabin = &mut self.cabins[i];
                        let stored = cabin.store.iter().flatten().count() as u32;
                        let gold =
                            stored * data::TREASURE_PRICE + u32::from(cabin.gems) * data::GEM_PRICE;
                        let colours: Vec<Colour> = cabin.store.iter().flatten().copied().collect();
                        let gems = u32::from(cabin.gems);
                        cabin.store = [None; 6];
                        cabin.gems = 0;
                        for c in colours {
                            self.return_treasure(c);
                        }
                        let gold_before = self.gold[i];
                        self.gold[i] += gold;
                        let vp = self.gold[i] / 5;
                        self.vp[i] += vp;
                        self.gold[i] %= 5;
                        events.record(|| {
                            Event::EndScored(
                                Seat(i as u8),
                                EndScore {
                                    stored,
                                    gems,
                                    storage_gold: gold,
                                    gold_before,
                                    vp,
                                    gold_left: self.gold[i],
                                },
                            )
                        });
                    }
                    self.phase = Phase::Over;
                }
                Phase::Over => return,
            }
        }
    }

    pub(crate) fn conclude(&mut self) {
        for row in &mut self.markers {
            row.iter_mut().for_each(|m| *m = None);
        }
        self.played = vec![0; usize::from(self.seats)];
        if let Some(n) = &mut self.neutral {
            n.deck = Crew::ALL.to_vec();
        }
        self.discovery = None;
        self.sun = self.sun.next(self.seats);
        self.hourglass = self.sun;
        self.day += 1;
        self.cycle = 0;
        if self.day == data::DAYS {
            self.phase = Phase::Final(0);
        } else {
            self.jobs.push(Job::Discovery);
            self.phase = Phase::Choose;
        }
    }

    pub(crate) fn end_turn(&mut self) {
        if let Some(turn) = self.turn.take() {
            for c in turn.hand {
                self.return_treasure(c);
            }
        }
        self.phase = match self.phase.clone() {
            Phase::Turns(p) => Phase::Turns(p + 1),
            Phase::Explorer { queue, pos } => Phase::Explorer {
                queue,
                pos: pos + 1,
            },
            other => other,
        };
    }

    pub(crate) fn pay(&mut self, seat: Seat, cost: u32) -> Result<(), E> {
        let gold = self.gold[seat.index()];
        if gold < cost {
            return Err(E::NotEnoughGold { seat, cost, gold });
        }
        self.gold[seat.index()] -= cost;
        Ok(())
    }

    /// Check that `piece` may go on `slot` of `seat`'s cabin.
    pub(crate) fn fits(&self, seat: Seat, piece: Piece, slot: Slot) -> Result<(), E> {
        self.fits_lifted(seat, piece, slot, None)
    }

    /// [`Nereus::fits`] with the piece on `lifted` (another space than
    /// `slot`) taken off first, as a boatswain's move takes it: listing
    /// every move so needs no copy of the cabin.
    pub(crate) fn fits_lifted(
        &self,
        seat: Seat,
        piece: Piece,
        slot: Slot,
        lifted: Option<Slot>,
    ) -> Result<(), E> {
        let cabin = &self.cabins[seat.index()];
        let colour_or = |c: Colour| match piece {
            Piece::Treasure(t) => t,
            Piece::Gem => c,
        };
        let refuse = |colour: Colour| E::DoesNotFit { colour, slot };
        match slot {
            Slot::Hold(crew, i) => {
                let hold = HOLDS[crew.index()];
                let icon = *hold.icons.get(usize::from(i)).ok_or(E::NoSuchSlot(slot))?;
                let here = &cabin.holds[crew.index()];
                let Piece::Treasure(colour) = piece else {
                    return if here[usize::from(i)].is_none() && !cabin.is_complete(crew) {
                        Ok(())
                    } else {
                        Err(refuse(Colour::White))
                    };
                };
                let others = here
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| lifted != Some(Slot::Hold(crew, j as u8)))
                    .filter_map(|(_, p)| match p {
                        Some(Piece::Treasure(c)) => Some(*c),
                        _ => None,
                    });
                let rule_ok = match hold.rule {
                    HoldRule::Icons => true,
                    HoldRule::AllDifferent => others.clone().all(|c| c != colour),
                    HoldRule::AllSame => others.clone().all(|c| c == colour),
                };
                if cabin.is_complete(crew)
                    || here[usize::from(i)].is_some()
                    || !icon.fits(colour)
                    || !rule_ok
                {
                    return Err(refuse(colour));
                }
                Ok(())
            }
            Slot::Chest(c) => {
                if cabin.chest[c.index()].is_some() || colour_or(c) != c {
                    return Err(refuse(colour_or(c)));
                }
                Ok(())
            }
            Slot::Store(i) => {
                let pair = STORAGE.get(usize::from(i)).ok_or(E::NoSuchSlot(slot))?;
                match piece {
                    Piece::Gem => Err(E::Gems("a gem goes on a gem space, not a treasure space")),
                    Piece::Treasure(t) => {
                        if cabin.store[usize::from(i)].is_some() || !pair.contains(&t) {
                            Err(refuse(t))
                        } else {
                            Ok(())
                        }
                    }
                }
            }
        }
    }

    /// Put `piece` on `slot` (checked by `fits`) and take its effect.
    pub(crate) fn put(&mut self, seat: Seat, piece: Piece, slot: Slot, events: &mut impl Log) {
        let s = seat.index();
        match slot {
            Slot::Hold(crew, i) => {
                self.cabins[s].holds[crew.index()][usize::from(i)] = Some(piece);
                if self.cabins[s].holds[crew.index()]
                    .iter()
                    .all(Option::is_some)
                {
                    let pieces: Vec<Piece> = self.cabins[s].holds[crew.index()]
                        .iter_mut()
                        .filter_map(Option::take)
                        .collect();
                    for p in pieces {
                        if let Piece::Treasure(c) = p {
                            self.return_treasure(c);
                        }
                    }
                    self.cabins[s].complete |= bit(crew);
                    self.vp[s] += HOLDS[crew.index()].vp;
                    if let Some(t) = &mut self.turn {
                        t.fresh |= bit(crew);
                    }
                    events.record(|| Event::HoldComplete(seat, crew));
                }
            }
            Slot::Chest(c) => {
                self.cabins[s].chest[c.index()] = Some(piece);
                let reward = CHEST[c.index()];
                self.gold[s] += reward.gold;
                self.vp[s] += reward.vp;
                if reward.treasures > 0 {
                    self.jobs.push(Job::Draw(reward.treasures));
                }
            }
            Slot::Store(i) => {
                if let Piece::Treasure(t) = piece {
                    self.cabins[s].store[usize::from(i)] = Some(t);
                }
            }
        }
    }

    /// The cost and fees of a ship move along `path`, checked.
    pub(crate) fn check_move(&self, turn: &Turn, path: &[Dir]) -> Result<MovePlan, E> {
        let crew = turn.crew.ok_or(E::NotYourCrew("move"))?;
        let space = turn.space.and_then(|i| self.space(crew, i));
        let Some(Space::Move { max, heading }) = space else {
            return Err(E::NotYourCrew("move"));
        };
        if turn.basic {
            return Err(E::AlreadyUsed("basic"));
        }
        let enhanced = self.enhanced_ready(turn.seat, crew);
        let len = path.len() as u8;
        let mut gold_cost = 0;
        if crew == Crew::Captain {
            if path.windows(2).any(|w| w[0] != w[1]) {
                return Err(E::BadMove("the captain moves in a straight line"));
            }
            if heading == data::Heading::Diagonal && path.iter().any(|d| !d.diagonal()) {
                return Err(E::BadMove("this space moves diagonally only"));
            }
            let base = max + u8::from(enhanced);
            let extra = len.saturating_sub(base);
            gold_cost = match extra {
                0 => 0,
                1 => 2,
                2 => 3,
                _ => {
                    return Err(E::BadMove(
                        "longer than the space and its gold action allow",
                    ));
                }
            };
        } else {
            if path.iter().any(|d| d.diagonal()) {
                return Err(E::BadMove("the pilot moves orthogonally only"));
            }
            if len > max {
                return Err(E::BadMove("longer than the space allows"));
            }
            if path.windows(2).any(|w| w[0] != w[1]) && !enhanced {
                gold_cost = 2;
            }
        }
        if gold_cost > 0 && turn.gold {
            return Err(E::AlreadyUsed("gold"));
        }
        let mut at = self.ships[turn.seat.index()];
        // The spaces visited, a bit a space (a board has at most 36), so
        // that listing a pilot's hundreds of paths allocates nothing.
        let mut visited = 1u64 << self.cell_index(at);
        let mut fees = Fees::default();
        for (i, &d) in path.iter().enumerate() {
            at = self.step(at, d).ok_or(E::OffBoard)?;
            let here = 1u64 << self.cell_index(at);
            if visited & here != 0 {
                return Err(E::BadMove("the path visits a space twice"));
            }
            visited |= here;
            if let Some(owner) = self.ship_at(at) {
                if i + 1 == path.len() {
                    return Err(E::StopOnShip);
                }
                fees.add(owner);
            }
        }
        let cost = gold_cost + fees.count();
        let gold = self.gold[turn.seat.index()];
        if gold < cost {
            return Err(E::NotEnoughGold {
                seat: turn.seat,
                cost,
                gold,
            });
        }
        Ok(MovePlan {
            to: at,
            gold_cost,
            fees,
        })
    }

    pub(crate) fn take_all(&mut self, cell: Cell) -> Vec<Colour> {
        let i = self.cell_index(cell);
        let mut taken = Vec::new();
        for c in Colour::ALL {
            for _ in 0..self.board[i][c.index()] {
                taken.push(c);
            }
        }
        self.board[i] = [0; 6];
        taken
    }

    pub(crate) fn turn_mut(&mut self) -> Result<&mut Turn, E> {
        self.turn.as_mut().ok_or(E::WrongStep("a turn action"))
    }

    pub(crate) fn science_claim(
        &self,
        seat: Seat,
        handle: CardHandle,
        card: u32,
        revealed: Option<&[Revealed]>,
    ) -> Result<Science, E> {
        if !self.science[seat.index()].contains(&handle) {
            return Err(E::HandleNotHeld { seat, handle });
        }
        if let Some(revealed) = revealed {
            match revealed.iter().find(|r| r.handle == handle) {
                None => return Err(E::CardNotRevealed),
                Some(r) if r.card != card => return Err(E::RevealMismatch),
                Some(_) => {}
            }
        }
        data::SCIENCE_DECK
            .get(card as usize)
            .copied()
            .ok_or(E::RevealMismatch)
    }

    pub(crate) fn discard_card(&mut self, seat: Seat, handle: CardHandle, card: u32) {
        self.science[seat.index()].retain(|&h| h != handle);
        self.discard.push(card);
    }

    /// Whether a game-end card's condition holds with pieces not yet used,
    /// and which it would use.
    pub(crate) fn end_card_use(&self, seat: Seat, card: Science) -> Option<(u8, u8, u8)> {
        let s = seat.index();
        let cabin = &self.cabins[s];
        let (store_used, chest_used, gems_used) = self.end_used[s];
        match card {
            Science::InChest { colour, .. } => {
                let i = colour.index();
                (cabin.chest[i].is_some() && chest_used & (1 << i) == 0).then_some((
                    store_used,
                    chest_used | (1 << i),
                    gems_used,
                ))
            }
            Science::InStorage { colour, .. } => {
                if let Some(i) =
                    (0..6).find(|&i| cabin.store[i] == Some(colour) && store_used & (1 << i) == 0)
                {
                    return Some((store_used | (1 << i), chest_used, gems_used));
                }
                (gems_used < cabin.gems).then_some((store_used, chest_used, gems_used + 1))
            }
            Science::Holds { crews, .. } => crews
                .iter()
                .all(|&c| cabin.is_complete(c))
                .then_some((store_used, chest_used, gems_used)),
            _ => None,
        }
    }

    /// Apply a decision. `revealed` is `None` for a caller that did not
    /// open cards (a legal action from the game's own list).
    pub(crate) fn apply_inner(
        &mut self,
        seat: Seat,
        action: &Action,
        revealed: Option<&[Revealed]>,
        events: &mut impl Log,
    ) -> Result<(), E> {
        if self.phase == Phase::Over {
            return Err(E::GameOver);
        }
        if let Action::Choose(crew) = action {
            if !self.choosing().contains(seat) {
                return Err(E::NotYourTurn(seat));
            }
            if self.played[seat.index()] & bit(*crew) != 0 {
                return Err(E::CrewAlreadyPlayed(*crew));
            }
            self.chosen[seat.index()] = Some(*crew);
            self.settle(events);
            return Ok(());
        }
        if self.decider() != Some(seat) {
            return Err(E::NotYourTurn(seat));
        }
        let s = seat.index();
        let mark = events.len();
        let (gold, vp, power) = (self.gold[s], self.vp[s], self.power[s]);
        let treasures = if !events.keeps() {
            Vec::new()
        } else {
            match action {
                Action::Sell(Slot::Store(i)) => self.cabins[s]
                    .store
                    .get(usize::from(*i))
                    .copied()
                    .flatten()
                    .into_iter()
                    .collect(),
                Action::End => self
                    .turn
                    .as_ref()
                    .map(|t| t.hand.clone())
                    .unwrap_or_default(),
                _ => Vec::new(),
            }
        };
        self.apply_seat(seat, action, revealed, events)?;
        // The action's line comes before what it caused (a completed hold).
        events.record_at(mark, || {
            let effect = Effect {
                gold: i64::from(self.gold[s]) - i64::from(gold),
                vp: i64::from(self.vp[s]) - i64::from(vp),
                power: i64::from(self.power[s]) - i64::from(power),
                treasures,
            };
            Event::Acted(seat, action.to_string(), effect)
        });
        self.settle(events);
        Ok(())
    }

    /// Apply a seat's decision other than a crew choice, without settling.
    fn apply_seat(
        &mut self,
        seat: Seat,
        action: &Action,
        revealed: Option<&[Revealed]>,
        events: &mut impl Log,
    ) -> Result<(), E> {
        let s = seat.index();
        if let Phase::Final(_) = self.phase {
            return self.apply_final(seat, action, revealed);
        }
        if self.turn.is_none() {
            // The explorer's offer.
            let Phase::Explorer { queue, pos } = self.phase.clone() else {
                return Err(E::WrongStep("that action"));
            };
            match action {
                Action::Decline => {
                    self.phase = Phase::Explorer {
                        queue,
                        pos: pos + 1,
                    };
                }
                Action::Explore(crew) => {
                    if self.played[s] & bit(*crew) != 0 {
                        return Err(E::CrewAlreadyPlayed(*crew));
                    }
                    if self.free_space(*crew).is_none() {
                        return Err(E::RowFull(*crew));
                    }
                    let cost = self.explorer_cost(seat).ok_or(E::WrongStep("explore"))?;
                    self.pay(seat, cost)?;
                    self.played[s] |= bit(*crew);
                    for m in &mut self.markers[Crew::Explorer.index()] {
                        if *m == Some(Owner::Seat(seat)) {
                            *m = None;
                        }
                    }
                    self.turn = Some(Turn::new(seat, Some(*crew), true));
                }
                _ => return Err(E::WrongStep("only explore or decline")),
            }
            return Ok(());
        }
        let turn = self.turn.clone().ok_or(E::WrongStep("a turn action"))?;
        let owes_discard = turn
            .discard_over
            .is_some_and(|n| self.science[s].len() > usize::from(n));
        if owes_discard && !matches!(action, Action::Discard(..)) {
            return Err(E::WrongStep("anything before the scientist's discard"));
        }
        let in_crew = turn.stage == Stage::Crew;
        let crew_is = |c: Crew, what: &'static str| {
            if in_crew && turn.crew == Some(c) {
                Ok(())
            } else {
                Err(E::NotYourCrew(what))
            }
        };
        let space = self.turn_space(&turn);
        if matches!(
            action,
            Action::Basic(_) | Action::Gold(_) | Action::Enhanced | Action::Pick(..)
        ) {
            self.check_crew_step(seat, &turn, action)?;
        }
        match action {
            Action::Choose(_) => return Err(E::WrongStep("choosing a crew during a turn")),
            Action::Place(n) => {
                if turn.stage != Stage::Before {
                    return Err(E::WrongStep("placing the marker"));
                }
                let crew = turn.crew.ok_or(E::WrongStep("placing the marker"))?;
                let row = &self.markers[crew.index()];
                if row.get(usize::from(*n)) != Some(&None) {
                    return Err(E::SpaceTaken(*n + 1));
                }
                self.markers[crew.index()][usize::from(*n)] = Some(Owner::Seat(seat));
                let t = self.turn_mut()?;
                t.space = Some(*n);
                t.stage = Stage::Crew;
            }
            Action::Move(path) => {
                if !in_crew || !matches!(turn.crew, Some(Crew::Captain | Crew::Pilot)) {
                    return Err(E::NotYourCrew("move"));
                }
                let plan = self.check_move(&turn, path)?;
                self.gold[s] -= plan.gold_cost + plan.fees.count();
                for o in plan.fees.seats() {
                    self.gold[o.index()] += 1;
                }
                self.ships[s] = plan.to;
                let taken = self.take_all(plan.to);
                let t = self.turn_mut()?;
                t.hand.extend(taken);
                t.basic = true;
                if plan.gold_cost > 0 {
                    t.gold = true;
                }
            }
            Action::Basic(half) => {
                match space {
                    Some(Space::Shift { vp, moves }) => {
                        self.vp[s] += vp;
                        self.turn_mut()?.shifts = moves;
                    }
                    Some(Space::Gold(n)) => self.gold[s] += n,
                    Some(Space::Sell { pay, vp }) => {
                        self.pay(seat, pay)?;
                        self.vp[s] += vp;
                    }
                    Some(Space::Research {
                        power,
                        draw,
                        either,
                    }) => {
                        let (power, draw) = research(power, draw, either, *half)?;
                        self.power[s] = (self.power[s] + power).min(data::MAX_POWER);
                        if draw > 0 {
                            self.jobs.push(Job::Deal {
                                seat,
                                count: u32::from(draw),
                            });
                        }
                    }
                    // Refused by `check_crew_step`.
                    _ => return Err(E::NotYourCrew("basic")),
                }
                self.turn_mut()?.basic = true;
            }
            Action::Pick(dir, colour) => {
                let cell = self.step(self.ships[s], *dir).ok_or(E::OffBoard)?;
                let i = self.cell_index(cell);
                self.board[i][colour.index()] -= 1;
                let t = self.turn_mut()?;
                t.hand.push(*colour);
                t.basic = true;
            }
            Action::Gold(half) => {
                self.pay(seat, gold_action_price(turn.crew, *half)?)?;
                match (turn.crew, half) {
                    (Some(Crew::Boatswain), _) => self.turn_mut()?.shifts = 1,
                    (Some(Crew::Purser), _) => self.jobs.push(Job::Draw(1)),
                    (Some(Crew::Merchant), _) => self.vp[s] += 1,
                    (Some(Crew::Scientist), Half::Power) => {
                        self.power[s] = (self.power[s] + 1).min(data::MAX_POWER);
                    }
                    (Some(Crew::Scientist), _) => self.jobs.push(Job::Deal { seat, count: 1 }),
                    // Refused by `gold_action_price`.
                    _ => {}
                }
                self.turn_mut()?.gold = true;
            }
            Action::Enhanced => {
                match turn.crew {
                    Some(Crew::Boatswain) => self.jobs.push(Job::Draw(1)),
                    Some(Crew::Purser) => self.gold[s] += 2,
                    Some(Crew::Merchant) => self.vp[s] += 2,
                    Some(Crew::Scientist) => {
                        let before = self.science[s].len() as u8;
                        self.jobs.push(Job::Deal { seat, count: 1 });
                        self.turn_mut()?.discard_over = Some(before);
                    }
                    // Refused by `check_crew_step`.
                    _ => {}
                }
                let t = self.turn_mut()?;
                t.enhanced = true;
                // Moves an earlier action could not make end with it.
                t.shifts = 0;
            }
            Action::Shift(from, to) => {
                crew_is(Crew::Boatswain, "shift")?;
                if turn.shifts == 0 {
                    return Err(E::NoMovesLeft);
                }
                let cabin = &self.cabins[s];
                let piece = match *from {
                    Slot::Hold(c, i) => cabin.holds[c.index()]
                        .get(usize::from(i))
                        .copied()
                        .flatten(),
                    Slot::Store(i) => cabin
                        .store
                        .get(usize::from(i))
                        .copied()
                        .flatten()
                        .map(Piece::Treasure),
                    Slot::Chest(_) => None,
                }
                .ok_or(E::NothingThere(*from))?;
                if from == to {
                    return Err(E::NothingThere(*from));
                }
                self.fits_lifted(seat, piece, *to, Some(*from))?;
                self.clear_slot(seat, *from);
                self.put(seat, piece, *to, events);
                self.turn_mut()?.shifts -= 1;
            }
            Action::Discard(handle, card) => {
                if !owes_discard {
                    return Err(E::WrongStep("a discard"));
                }
                self.science_claim(seat, *handle, *card, revealed)?;
                self.discard_card(seat, *handle, *card);
                self.turn_mut()?.discard_over = None;
            }
            Action::Done => {
                if !in_crew {
                    return Err(E::WrongStep("done"));
                }
                self.turn_mut()?.stage = Stage::After;
            }
            Action::Stow(colour, slot) => {
                if !turn.hand.contains(colour) {
                    return Err(E::NotInHand(*colour));
                }
                self.fits(seat, Piece::Treasure(*colour), *slot)?;
                let t = self.turn_mut()?;
                if let Some(i) = t.hand.iter().position(|c| c == colour) {
                    t.hand.remove(i);
                }
                self.put(seat, Piece::Treasure(*colour), *slot, events);
            }
            Action::Gem(slot) => {
                if self.cabins[s].gems == 0 {
                    return Err(E::Gems("no gem in storage"));
                }
                if matches!(slot, Slot::Store(_)) {
                    return Err(E::Gems("a gem goes on a gem space, not a treasure space"));
                }
                self.fits(seat, Piece::Gem, *slot)?;
                self.cabins[s].gems -= 1;
                self.put(seat, Piece::Gem, *slot, events);
            }
            Action::Sell(_) | Action::SellGem | Action::Trade(_) | Action::Play(..) => {
                if in_crew {
                    return Err(E::CrewInProgress);
                }
                self.free_action(seat, action, revealed)?;
            }
            Action::End => match turn.stage {
                Stage::Crew => return Err(E::MustCloseCrew),
                Stage::Before if turn.crew.is_some() => return Err(E::MustPlace),
                _ => self.end_turn(),
            },
            Action::Explore(_) | Action::Decline | Action::Finish => {
                return Err(E::WrongStep("that action in a turn"));
            }
        }
        Ok(())
    }

    /// The space the turn's marker is on, if it is placed.
    pub(crate) fn turn_space(&self, turn: &Turn) -> Option<Space> {
        turn.crew
            .zip(turn.space)
            .and_then(|(c, i)| self.space(c, i))
    }

    /// Every refusal of a crew step (a basic, gold or enhanced action, or
    /// the explorer's pick) in `seat`'s turn `turn`, in the order the rules
    /// check them, before anything changes. Applying the step asks this
    /// first; the list of legal actions asks it of each candidate instead
    /// of trying the step on a copy of the whole state.
    pub(crate) fn check_crew_step(
        &self,
        seat: Seat,
        turn: &Turn,
        action: &Action,
    ) -> Result<(), E> {
        let in_crew = turn.stage == Stage::Crew;
        let space = self.turn_space(turn);
        if in_crew
            && matches!(
                action,
                Action::Basic(_) | Action::Gold(_) | Action::Enhanced
            )
            && self.moves_open(seat, turn)
        {
            return Err(E::ActionUnfinished);
        }
        let gold = self.gold[seat.index()];
        let afford = |cost: u32| {
            if gold < cost {
                Err(E::NotEnoughGold { seat, cost, gold })
            } else {
                Ok(())
            }
        };
        match action {
            Action::Basic(half) => {
                if !in_crew {
                    return Err(E::NotYourCrew("basic"));
                }
                if turn.basic {
                    return Err(E::AlreadyUsed("basic"));
                }
                match (space, half) {
                    (Some(Space::Shift { .. } | Space::Gold(_)), Half::Plain) => Ok(()),
                    (Some(Space::Sell { pay, .. }), Half::Plain) => afford(pay),
                    (
                        Some(Space::Research {
                            power,
                            draw,
                            either,
                        }),
                        h,
                    ) => research(power, draw, either, *h).map(|_| ()),
                    _ => Err(E::NotYourCrew("basic")),
                }
            }
            Action::Pick(dir, colour) => {
                if !in_crew || turn.crew != Some(Crew::Explorer) {
                    return Err(E::NotYourCrew("pick"));
                }
                if turn.basic {
                    return Err(E::AlreadyUsed("basic"));
                }
                let Some(Space::Pick(allowed)) = space else {
                    return Err(E::NotYourCrew("pick"));
                };
                if dir.diagonal() {
                    return Err(E::BadMove(
                        "the explorer reaches orthogonal neighbours only",
                    ));
                }
                let enhanced = self.enhanced_ready(seat, Crew::Explorer);
                if !enhanced && allowed.is_some_and(|a| !a.contains(colour)) {
                    return Err(E::NoSuchTreasure(*colour));
                }
                let cell = self
                    .step(self.ships[seat.index()], *dir)
                    .ok_or(E::OffBoard)?;
                if self.treasures_at(cell)[colour.index()] == 0 {
                    return Err(E::NoSuchTreasure(*colour));
                }
                Ok(())
            }
            Action::Gold(half) => {
                if !in_crew {
                    return Err(E::NotYourCrew("gold"));
                }
                if turn.gold {
                    return Err(E::AlreadyUsed("gold"));
                }
                afford(gold_action_price(turn.crew, *half)?)
            }
            Action::Enhanced => {
                if !in_crew {
                    return Err(E::NotYourCrew("enhanced"));
                }
                let crew = turn.crew.ok_or(E::NotYourCrew("enhanced"))?;
                if turn.enhanced {
                    return Err(E::AlreadyUsed("enhanced"));
                }
                if !self.enhanced_ready(seat, crew) {
                    return Err(E::HoldNotComplete(crew));
                }
                match crew {
                    Crew::Boatswain | Crew::Purser | Crew::Merchant | Crew::Scientist => Ok(()),
                    _ => Err(E::WrongStep(
                        "a separate enhanced action (it is part of the basic one)",
                    )),
                }
            }
            _ => Ok(()),
        }
    }

    pub(crate) fn clear_slot(&mut self, seat: Seat, slot: Slot) {
        let cabin = &mut self.cabins[seat.index()];
        match slot {
            Slot::Hold(c, i) => cabin.holds[c.index()][usize::from(i)] = None,
            Slot::Store(i) => cabin.store[usize::from(i)] = None,
            Slot::Chest(c) => cabin.chest[c.index()] = None,
        }
    }

    /// Selling, gems and science cards (outside the crew's actions).
    pub(crate) fn free_action(
        &mut self,
        seat: Seat,
        action: &Action,
        revealed: Option<&[Revealed]>,
    ) -> Result<(), E> {
        let s = seat.index();
        match action {
            Action::Sell(slot) => {
                let Slot::Store(i) = *slot else {
                    return Err(E::NothingThere(*slot));
                };
                let colour = self.cabins[s]
                    .store
                    .get(usize::from(i))
                    .copied()
                    .flatten()
                    .ok_or(E::NothingThere(*slot))?;
                self.cabins[s].store[usize::from(i)] = None;
                self.return_treasure(colour);
                self.gold[s] += data::TREASURE_PRICE;
            }
            Action::SellGem => {
                if self.cabins[s].gems == 0 {
                    return Err(E::Gems("no gem in storage"));
                }
                self.cabins[s].gems -= 1;
                let used = &mut self.end_used[s].2;
                *used = (*used).min(self.cabins[s].gems);
                self.gold[s] += data::GEM_PRICE;
            }
            Action::Trade(colour) => {
                let places: Vec<usize> = (0..6)
                    .filter(|&i| self.cabins[s].store[i] == Some(*colour))
                    .collect();
                if places.len() < 2 {
                    return Err(E::NoSuchTreasure(*colour));
                }
                if self.cabins[s].gems >= data::GEM_SPACES {
                    return Err(E::Gems("every gem space is taken"));
                }
                for &i in &places[..2] {
                    self.cabins[s].store[i] = None;
                    self.return_treasure(*colour);
                }
                self.cabins[s].gems += 1;
            }
            Action::Play(handle, card, aim) => {
                let science = self.science_claim(seat, *handle, *card, revealed)?;
                if self.power[s] == 0 {
                    return Err(E::NoSciencePower);
                }
                if science.at_game_end() {
                    return Err(E::WrongTime("at game end"));
                }
                match (science, aim) {
                    (Science::DrawTwo, Aim::None) => self.jobs.push(Job::Draw(2)),
                    (Science::PickAny, Aim::Pick(cell, colour)) => {
                        if cell.row >= self.size || cell.col >= self.size {
                            return Err(E::OffBoard);
                        }
                        let i = self.cell_index(*cell);
                        if self.board[i][colour.index()] == 0 {
                            return Err(E::NoSuchTreasure(*colour));
                        }
                        self.board[i][colour.index()] -= 1;
                        self.turn_mut()?.hand.push(*colour);
                    }
                    (Science::Hop, Aim::Hop(dir)) => {
                        let to = self.step(self.ships[s], *dir).ok_or(E::OffBoard)?;
                        if self.ship_at(to).is_some() {
                            return Err(E::StopOnShip);
                        }
                        self.pay(seat, 3)?;
                        self.ships[s] = to;
                        let taken = self.take_all(to);
                        self.turn_mut()?.hand.extend(taken);
                    }
                    _ => return Err(E::WrongStep("that aim for this card")),
                }
                self.power[s] -= 1;
                self.discard_card(seat, *handle, *card);
            }
            _ => return Err(E::WrongStep("that action")),
        }
        Ok(())
    }

    pub(crate) fn apply_final(
        &mut self,
        seat: Seat,
        action: &Action,
        revealed: Option<&[Revealed]>,
    ) -> Result<(), E> {
        let s = seat.index();
        match action {
            Action::Finish => self.phase = Phase::Final(seat.0 + 1),
            Action::Sell(_) | Action::SellGem | Action::Trade(_) => {
                self.free_action(seat, action, revealed)?;
            }
            Action::Play(handle, card, Aim::None) => {
                let science = self.science_claim(seat, *handle, *card, revealed)?;
                if self.power[s] == 0 {
                    return Err(E::NoSciencePower);
                }
                if !science.at_game_end() {
                    return Err(E::WrongTime("during one's turn"));
                }
                let used = self.end_card_use(seat, science).ok_or(E::ConditionNotMet)?;
                let vp = match science {
                    Science::InChest { vp, .. }
                    | Science::InStorage { vp, .. }
                    | Science::Holds { vp, .. } => vp,
                    _ => 0,
                };
                self.end_used[s] = used;
                self.vp[s] += vp;
                self.power[s] -= 1;
                self.discard_card(seat, *handle, *card);
            }
            _ => return Err(E::WrongStep("that action at game end")),
        }
        Ok(())
    }

    /// Apply a seat's decision in place, recording its events. Every rule
    /// refuses before the first change it makes (the crew steps through
    /// `check_crew_step`, the others each in its arm), so a refused input
    /// leaves the state as it was without a copy to throw away: the copy
    /// was most of a recorded input's time. The legal-list test holds every
    /// refusal of thousands of actions at every decision to this.
    pub(crate) fn apply_checked(
        &mut self,
        seat: Seat,
        action: &Action,
        revealed: Option<&[Revealed]>,
        events: &mut Vec<Event>,
    ) -> Result<(), E> {
        let mark = events.len();
        let applied = self.apply_inner(seat, action, revealed, events);
        if applied.is_err() {
            events.truncate(mark);
        }
        applied
    }
}

/// The power gained and the cards drawn by the scientist's basic action on
/// a space giving `power` and `draw` (`either`: one of the two), in the
/// form `half`.
fn research(power: u8, draw: u8, either: bool, half: Half) -> Result<(u8, u8), E> {
    match (either, half) {
        (false, Half::Plain) => Ok((power, draw)),
        (true, Half::Power) => Ok((power, 0)),
        (true, Half::Draw) => Ok((0, draw)),
        _ => Err(E::WrongStep("that form of the scientist's action")),
    }
}

/// What the gold action of `crew` in the form `half` costs, or why there
/// is no such gold action.
fn gold_action_price(crew: Option<Crew>, half: Half) -> Result<u32, E> {
    match (crew, half) {
        (Some(Crew::Boatswain), Half::Plain) => Ok(1),
        (Some(Crew::Purser), Half::Plain) => Ok(3),
        (Some(Crew::Merchant), Half::Plain) => Ok(2),
        (Some(Crew::Scientist), Half::Power | Half::Draw) => Ok(3),
        (Some(Crew::Captain | Crew::Pilot), _) => Err(E::WrongStep(
            "a separate gold action (it is paid in the move)",
        )),
        (Some(Crew::Explorer), _) => {
            Err(E::WrongStep("the explorer's gold action before Phase III"))
        }
        _ => Err(E::WrongStep("that form of the gold action")),
    }
}

/// Where the rules write what happened: a list of events for the log and
/// the screens, or [`Quiet`] for a playout whose events nobody reads
/// (there, building the events, an action's text among them, was a large
/// share of applying an input). The rules write every event once, through
/// this, so a quiet input cannot be applied otherwise than a recorded one.
pub(crate) trait Log {
    /// Whether events are kept (else what an event needs is not gathered).
    fn keeps(&self) -> bool;
    /// How many events are kept so far.
    fn len(&self) -> usize;
    /// Keep the event `make` builds, if events are kept.
    fn record(&mut self, make: impl FnOnce() -> Event);
    /// Keep the event `make` builds at position `at`, before those that
    /// came after it (an action's line before the completion it caused).
    fn record_at(&mut self, at: usize, make: impl FnOnce() -> Event);
}

impl Log for Vec<Event> {
    fn keeps(&self) -> bool {
        true
    }
    fn len(&self) -> usize {
        Vec::len(self)
    }
    fn record(&mut self, make: impl FnOnce() -> Event) {
        self.push(make());
    }
    fn record_at(&mut self, at: usize, make: impl FnOnce() -> Event) {
        self.insert(at.min(Vec::len(self)), make());
    }
}

/// A [`Log`] that keeps nothing: the playout path's.
pub(crate) struct Quiet;

impl Log for Quiet {
    fn keeps(&self) -> bool {
        false
    }
    fn len(&self) -> usize {
        0
    }
    fn record(&mut self, _make: impl FnOnce() -> Event) {}
    fn record_at(&mut self, _at: usize, _make: impl FnOnce() -> Event) {}
}

pub(crate) struct MovePlan {
    pub(crate) to: Cell,
    pub(crate) gold_cost: u32,
    pub(crate) fees: Fees,
}

/// The owners of the ships a move passes, each paid 1 gold. A path visits
/// no space twice and no two ships share a space, so each owner is passed
/// at most once: a set, kept as bits (seats from bit 0, the neutral ship
/// in the top bit).
#[derive(Clone, Copy, Default)]
pub(crate) struct Fees(u8);

impl Fees {
    const NEUTRAL: u8 = 1 << 7;

    fn add(&mut self, owner: Owner) {
        self.0 |= match owner {
            Owner::Seat(seat) => 1 << seat.0,
            Owner::Neutral => Self::NEUTRAL,
        };
    }

    /// How many ships are passed.
    pub(crate) fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The seats paid, in seat order (the neutral ship's fee goes to the bank).
    fn seats(self) -> impl Iterator<Item = Seat> {
        (0..7u8).filter(move |s| self.0 & (1 << s) != 0).map(Seat)
    }
}

#[cfg(test)]
mod tests {
    use roundtable_engine::Game;

    use super::*;
    use crate::Options;

    /// The log tells a move before the completion it causes, with what the
    /// move gave: it once told the completion first.
    #[test]
    fn a_completion_is_told_after_the_move_that_makes_it() {
        let mut game = match Nereus::new_game(2, &Options::default()) {
            Ok(game) => game,
            Err(e) => panic!("{e}"),
        };
        let seat = Seat(0);
        game.jobs.clear();
        game.phase = Phase::Turns(0);
        let mut turn = Turn::new(seat, Some(Crew::Boatswain), false);
        turn.stage = Stage::Crew;
        turn.space = Some(0);
        turn.hand = game.take_from_bag(&[Colour::White.index() as u32]);
        game.turn = Some(turn);
        // The boatswain's hold (green, yellow, white) lacks its white.
        let held =
            game.take_from_bag(&[Colour::Green.index() as u32, Colour::Yellow.index() as u32]);
        game.cabins[0].holds[Crew::Boatswain.index()] = held
            .into_iter()
            .map(|c| Some(Piece::Treasure(c)))
            .chain([None])
            .collect();
        let mut events = Vec::new();
        let stow = Action::Stow(Colour::White, Slot::Hold(Crew::Boatswain, 2));
        if let Err(e) = game.apply_action(seat, &stow, &mut events) {
            panic!("{stow}: {e}");
        }
        let vp = i64::from(HOLDS[Crew::Boatswain.index()].vp);
        assert!(
            matches!(&events[..2], [Event::Acted(s, text, effect), Event::HoldComplete(c, Crew::Boatswain)]
                if *s == seat && *c == seat && *text == stow.to_string() && effect.vp == vp),
            "{events:?}"
        );
    }
}
