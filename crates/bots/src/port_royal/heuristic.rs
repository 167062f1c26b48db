//! The heuristic's prices: everything the bot derives from one view (its
//! [`Ctx`]) and what a card, a harbor, a draw or a trade is worth in coins
//! to the seat looking.

use std::cell::Cell;

use roundtable_engine::Seat;
use roundtable_port_royal::catalog::CATALOG;
use roundtable_port_royal::contracts::Requirement;
use roundtable_port_royal::odds::unseen_cards;
use roundtable_port_royal::{
    Action, CardId, CardKind, Colour, PersonKind, PlayerView, TakeMode, View,
};

use super::contracts::Contracts;
use super::takes::{Added, Cards, TakeOptions, colour_bits, shortfall};
use super::{PortRoyalBot, ROWS, VP_IN_COINS, view_harbor};

/// Everything the bot derives from one view before it weighs its options.
pub(super) struct Ctx<'a> {
    pub(super) view: &'a View,
    pub(super) me: Option<&'a PlayerView>,
    pub(super) active: bool,
    pub(super) coins: u32,
    pub(super) swords: u32,
    pub(super) discount: u32,
    pub(super) traders: [u32; 5],
    pub(super) counts: [u32; 14],
    /// Symbols held for expeditions: Captains, Priests, Settlers, Jacks.
    pub(super) symbols: [u32; 4],
    /// The part of the game still to come, from 1 down to 0.
    pub(super) future: f64,
    pub(super) coin_value: f64,
    /// Cards that may come next, per catalog row, and their total.
    pub(super) unseen: [u32; ROWS],
    pub(super) unseen_total: u32,
    pub(super) contracts: Contracts,
    /// [`Ctx::person_value`] per catalog row once worked out: weighing a
    /// Discover prices every card that may come next in every imagined
    /// harbor, so the same persons are priced over and over (most of a
    /// heuristic playout's time went there).
    pub(super) person_values: [Cell<Option<f64>>; ROWS],
}

impl<'a> Ctx<'a> {
    pub(super) fn new(bot: &PortRoyalBot, seat: Seat, view: &'a View) -> Ctx<'a> {
        let me = view.players.get(seat.index());
        let mut counts = [0u32; 14];
        let mut traders = [0u32; 5];
        for p in me.iter().flat_map(|m| &m.persons) {
            if let CardKind::Person { kind, colour, .. } = p.0.kind() {
                counts[kind as usize] += 1;
                if let (PersonKind::Trader, Some(c)) = (kind, colour) {
                    traders[c as usize] += 1;
                }
            }
        }
        let leader = view.players.iter().map(|p| p.vp).max().unwrap_or(0);
        let my_vp = me.map_or(0, |m| m.vp);
        let progress = f64::from(leader.max(my_vp)) / f64::from(bot.target_vp);
        let future = if view.last_round {
            0.0
        } else {
            (1.0 - progress).clamp(0.0, 1.0)
        };
        // In the last round coins only break ties, but they still pay for
        // persons in the turns left, so they keep a little value.
        let coin_value = if view.last_round { 0.3 } else { 1.0 };
        let (unseen, unseen_total) = unseen_estimate(view, bot.expansion);
        let contracts = if bot.plays_contracts() {
            Contracts::of(view, seat, coin_value)
        } else {
            Contracts::default()
        };
        Ctx {
            view,
            me,
            active: view.active.0 == seat,
            coins: me.map_or(0, |m| m.coins),
            swords: me.map_or(0, |m| m.swords),
            discount: counts[PersonKind::Mademoiselle as usize],
            traders,
            symbols: [
                counts[PersonKind::Captain as usize],
                counts[PersonKind::Priest as usize],
                counts[PersonKind::Settler as usize],
                counts[PersonKind::Jack as usize],
            ],
            counts,
            future,
            coin_value,
            unseen,
            unseen_total,
            contracts,
            person_values: std::array::from_fn(|_| Cell::new(None)),
        }
    }

    pub(super) fn count(&self, kind: PersonKind) -> u32 {
        self.counts[kind as usize]
    }

    /// What hiring `card` is worth before its price: points, ability and
    /// contracts.
    pub(super) fn person_value(&self, card: CardId) -> f64 {
        let Some(memo) = self.person_values.get(usize::from(card.0)) else {
            return self.person_alone(card) + self.contract_gain(card);
        };
        if let Some(value) = memo.get() {
            return value;
        }
        let value = self.person_alone(card) + self.contract_gain(card);
        memo.set(Some(value));
        value
    }

    /// A person's points and ability.
    pub(super) fn person_alone(&self, card: CardId) -> f64 {
        let CardKind::Person { kind, vp, .. } = card.kind() else {
            return 0.0;
        };
        let points = f64::from(vp) * VP_IN_COINS;
        let f = self.future;
        let ability = match kind {
            // Every Trader pays on each trade of its colour, a second one
            // of a colour as much as the first.
            PersonKind::Trader => 2.5 * f,
            PersonKind::Sailor => self.sword_value(1) * f,
            PersonKind::Pirate => self.sword_value(2) * f,
            PersonKind::Captain => self.symbol_value(Some(0)),
            PersonKind::Priest => self.symbol_value(Some(1)),
            PersonKind::Settler => self.symbol_value(Some(2)),
            PersonKind::Jack => self.symbol_value(None),
            PersonKind::Mademoiselle => 4.0 * f,
            PersonKind::Jester => 3.0 * f,
            PersonKind::Admiral => 4.0 * f,
            PersonKind::Governor => 9.0 * f,
            // The expansion's persons, priced like the Jester and the
            // Admiral by what they paid per turn held in seeded bot games:
            // Jester 0.28 coins, Admiral 0.44, Gunner 0.28, Vice Admiral
            // 0.37; a Clerk gave 0.06 extra takes, each worth a card.
            PersonKind::Clerk => 2.0 * f,
            PersonKind::Gunner => 3.0 * f,
            PersonKind::ViceAdmiral => 3.5 * f,
        };
        points + ability
    }

    /// What meeting a contract's requirement once more is worth when it is
    /// still needed `remaining` times, this one included: the whole reward
    /// for the last time, else an even share of it, discounted for every
    /// later time that must still come and for how little game is left.
    pub(super) fn step_value(&self, reward: f64, remaining: u32) -> f64 {
        if remaining <= 1 {
            return reward;
        }
        let later = i32::try_from(remaining - 1).unwrap_or(i32::MAX);
        let chance = 0.85f64.powi(later) * (2.0 * self.future).min(1.0);
        reward / f64::from(remaining) * chance
    }

    /// What trading `ship` and declining its coins is worth (Frigate Foe,
    /// Galleon Foe), if a face-up Foe contract of its colour is open to us.
    pub(super) fn decline_value(&self, ship: CardId) -> Option<f64> {
        let colour = ship.ship_colour()?;
        self.contracts
            .open
            .iter()
            .find_map(|o| match o.requirement {
                Requirement::Decline { colour: c, times } if c == colour => {
                    Some(self.step_value(o.reward, u32::from(times.saturating_sub(o.step))))
                }
                _ => None,
            })
    }

    /// Persons, swords or expeditions this seat still lacks for a display
    /// contract, with `extra` hired; 0 when the requirement holds.
    pub(super) fn missing(&self, requirement: Requirement, extra: Option<CardId>) -> u32 {
        let (kind, cost) = match extra.map(CardId::kind) {
            Some(CardKind::Person { kind, cost, .. }) => (Some(kind), cost),
            _ => (None, u8::MAX),
        };
        let has = |k: PersonKind| self.count(k) + u32::from(kind == Some(k));
        match requirement {
            Requirement::Persons(a, b) if a == b => 2u32.saturating_sub(has(a)),
            Requirement::Persons(a, b) => 1u32.saturating_sub(has(a)) + 1u32.saturating_sub(has(b)),
            Requirement::CheapPersons { count, max_cost } => {
                let cheap = self
                    .me
                    .into_iter()
                    .flat_map(|m| &m.persons)
                    .filter(
                        |p| matches!(p.0.kind(), CardKind::Person { cost, .. } if cost <= max_cost),
                    )
                    .count() as u32
                    + u32::from(kind.is_some() && cost <= max_cost);
                u32::from(count).saturating_sub(cheap)
            }
            Requirement::Swords(n) => {
                u32::from(n).saturating_sub(self.swords + kind.map_or(0, PersonKind::swords))
            }
            Requirement::Expeditions(n) => {
                u32::from(n).saturating_sub(self.me.map_or(0, |m| m.expeditions.len() as u32))
            }
            _ => 0,
        }
    }

    /// What hiring `card` is worth in contracts: the reward of each one it
    /// completes (as many as there are free cubes for, richest first) and a
    /// share of the reward of each it brings closer.
    pub(super) fn contract_gain(&self, card: CardId) -> f64 {
        if self.contracts.open.is_empty() {
            return 0.0;
        }
        let mut complete = Vec::new();
        let mut partial = 0.0;
        for o in &self.contracts.open {
            if !o.requirement.is_display() {
                continue;
            }
            let before = self.missing(o.requirement, None);
            if before == 0 {
                // Met but not completed: no cube was free for it.
                continue;
            }
            match self.missing(o.requirement, Some(card)) {
                0 => complete.push(o.reward),
                after if after < before => {
                    partial += o.reward * 0.3 * self.future / f64::from(after);
                }
                _ => {}
            }
        }
        complete.sort_by(|a, b| b.total_cmp(a));
        let cubes = self.contracts.free_cubes as usize;
        complete.iter().take(cubes).sum::<f64>() + partial
    }

    /// Jinx: what going bust as the active player pays in contracts.
    pub(super) fn jinx_bonus(&self) -> f64 {
        self.contracts
            .open
            .iter()
            .filter(|o| self.active && o.requirement == Requirement::Bust)
            .map(|o| o.reward)
            .sum()
    }

    /// Gamester and Tiny Gamester: what `ship` docking in `harbor` pays in
    /// contracts when it brings the harbor to 4 or 3 colours.
    pub(super) fn dock_bonus(&self, harbor: &[CardId], ship: CardId) -> f64 {
        if !self.active || self.contracts.open.is_empty() {
            return 0.0;
        }
        let before = colour_bits(harbor);
        let after = before | ship.ship_colour().map_or(0, Colour::bit);
        if after == before {
            return 0.0;
        }
        let colours = after.count_ones();
        self.contracts
            .open
            .iter()
            .filter_map(|o| match o.requirement {
                Requirement::HarborColours { colours: c, times } if u32::from(c) == colours => {
                    Some(self.step_value(o.reward, u32::from(times.saturating_sub(o.step))))
                }
                _ => None,
            })
            .sum()
    }

    /// Pack of Pirates: what repelling `ship` is worth when no ship of its
    /// colour is kept aside yet.
    pub(super) fn repel_bonus(&self, ship: CardId) -> f64 {
        if !self.active || self.contracts.open.is_empty() {
            return 0.0;
        }
        let Some(colour) = ship.ship_colour() else {
            return 0.0;
        };
        let kept = self.contracts.kept_aside;
        if kept & colour.bit() != 0 {
            return 0.0;
        }
        let remaining = 5 - kept.count_ones();
        self.contracts
            .open
            .iter()
            .filter(|o| o.requirement == Requirement::RepelAllColours)
            .map(|o| self.step_value(o.reward, remaining))
            .sum()
    }

    /// How far behind `seat` is, for choosing who gains a gift coin: fewest
    /// victory points first, then fewest coins.
    pub(super) fn gift_rank(&self, seat: Seat) -> (u32, u32, u8) {
        let p = self.view.players.get(seat.index());
        (p.map_or(0, |p| p.vp), p.map_or(0, |p| p.coins), seat.0)
    }

    /// What `extra` more swords are worth: most for the first few, which
    /// repel the many 1- and 2-sword ships, nothing past 7.
    pub(super) fn sword_value(&self, extra: u32) -> f64 {
        (self.swords..self.swords + extra)
            .map(|s| match s {
                0 => 3.0,
                1 => 2.5,
                2 => 1.5,
                3 | 4 => 1.0,
                5 | 6 => 0.5,
                _ => 0.0,
            })
            .sum()
    }

    /// What one more expedition symbol is worth (`None` for a Jack, which
    /// stands in for any). Face-up expeditions it brings closer count most;
    /// with none face up, a little for the ones still to come.
    pub(super) fn symbol_value(&self, symbol: Option<usize>) -> f64 {
        let mut best = 1.5 * self.future;
        for exp in &self.view.expeditions {
            let CardKind::Expedition {
                anchors,
                crosses,
                houses,
                vp,
                coins,
                ..
            } = exp.0.kind()
            else {
                continue;
            };
            let need = [u32::from(anchors), u32::from(crosses), u32::from(houses)];
            let short_now = shortfall(self.symbols, need);
            let mut with = self.symbols;
            match symbol {
                Some(i) => with[i] += 1,
                None => with[3] += 1,
            }
            let short_after = shortfall(with, need);
            if short_after >= short_now {
                continue;
            }
            let symbols: u32 = need.iter().sum();
            let net = f64::from(vp) * VP_IN_COINS + f64::from(coins) * self.coin_value
                - f64::from(symbols) * VP_IN_COINS;
            let value = if short_after == 0 {
                net
            } else {
                net / f64::from(symbols)
            };
            best = best.max(value);
        }
        best
    }

    /// Coins a ship brings `self` when traded.
    pub(super) fn income(&self, card: CardId) -> u32 {
        match card.kind() {
            CardKind::Ship { colour, coins, .. } => {
                u32::from(coins) + self.traders[colour as usize]
            }
            _ => 0,
        }
    }

    /// Whether keeping `ship` in `harbor` would end the turn in a bust.
    pub(super) fn busts(&self, harbor: &[CardId], ship: CardId) -> bool {
        ship.ship_colour()
            .is_some_and(|c| harbor.iter().any(|h| h.ship_colour() == Some(c)))
    }

    pub(super) fn repellable(&self, ship: CardId) -> bool {
        matches!(ship.kind(), CardKind::Ship { swords: Some(s), .. } if self.swords >= u32::from(s))
    }

    /// Takes the active player gets from `harbor`.
    pub(super) fn active_takes(&self, harbor: &[CardId]) -> u32 {
        let colours = colour_bits(harbor).count_ones();
        let base = match colours {
            0..=3 => 1,
            4 => 2,
            _ => 3,
        };
        base + self.count(PersonKind::Governor)
    }

    /// The value of stopping Discover with `harbor`, as the active player.
    pub(super) fn stop_value(&self, harbor: &[CardId]) -> f64 {
        self.stop_value_with(harbor, &self.take_options(harbor, self.coins, 0))
    }

    /// [`Self::stop_value`] with the `harbor`'s cards already priced as
    /// [`Self::take_options`] prices them for the active player.
    pub(super) fn stop_value_with(&self, harbor: &[CardId], options: &TakeOptions) -> f64 {
        let takes = self.active_takes(harbor);
        let mut value = options.best_plan(takes, self.coins).0;
        if harbor.len() >= 5 {
            value += f64::from(2 * self.count(PersonKind::Admiral)) * self.coin_value;
        }
        // Others pay a coin for each card they take from what is left.
        let left = harbor.len().saturating_sub(takes as usize) as f64;
        let others = f64::from(self.view.seats.saturating_sub(1));
        value + 0.6 * left.min(others) * self.coin_value
    }

    /// The value of going on from `harbor`: stop now or draw once more.
    pub(super) fn continuation(&self, harbor: &[CardId]) -> f64 {
        self.stop_value(harbor).max(self.draw_value(harbor))
    }

    /// The expected value of drawing one more card and then stopping (or,
    /// for a ship that can be repelled, the better of repelling and keeping).
    pub(super) fn draw_value(&self, harbor: &[CardId]) -> f64 {
        if self.unseen_total == 0 {
            return self.stop_value(harbor);
        }
        // Every card that may come next is weighed with the harbor's cards,
        // which are priced once here rather than once per card.
        let mut priced = self.take_options(harbor, self.coins, 0);
        let now = self.stop_value_with(harbor, &priced);
        let bust = f64::from(self.count(PersonKind::Jester)) * self.coin_value + self.jinx_bonus();
        let mut with: Cards = harbor.iter().copied().collect();
        let mut stop_value_adding = |card: CardId| {
            let added = self.add_take_option(&mut priced, harbor.len(), card, self.coins, 0);
            with.push(card);
            let value = self.stop_value_with(&with, &priced);
            with.pop();
            priced.take_back(added);
            value
        };
        let mut total = 0.0;
        for (row, &n) in self.unseen.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let Some(card) = CardId::from_index(row as u32) else {
                continue;
            };
            let value = match card.kind() {
                CardKind::Ship { .. } => {
                    let dup = self.busts(harbor, card);
                    match (self.repellable(card), dup) {
                        (true, true) => now + self.repel_bonus(card),
                        (false, true) => bust,
                        (repel, false) => {
                            let keep = stop_value_adding(card) + self.dock_bonus(harbor, card);
                            if repel {
                                keep.max(now + self.repel_bonus(card))
                            } else {
                                keep
                            }
                        }
                    }
                }
                CardKind::Person { .. } => stop_value_adding(card),
                CardKind::Expedition {
                    anchors,
                    crosses,
                    houses,
                    vp,
                    coins,
                    ..
                } => {
                    let need = [u32::from(anchors), u32::from(crosses), u32::from(houses)];
                    if shortfall(self.symbols, need) == 0 {
                        let symbols: u32 = need.iter().sum();
                        now + f64::from(vp) * VP_IN_COINS + f64::from(coins) * self.coin_value
                            - f64::from(symbols) * VP_IN_COINS
                    } else {
                        now
                    }
                }
                CardKind::Tax(_) => {
                    if self.coins >= 12 {
                        now - f64::from(self.coins / 2) * self.coin_value
                    } else {
                        now
                    }
                }
            };
            total += f64::from(n) * value;
        }
        total / f64::from(self.unseen_total)
    }

    /// The best value of up to `takes` cards from `harbor` with `coins`,
    /// paying `compensation` per card, and the card that plan takes first:
    /// its harbor position and whether to decline its coins (ships first:
    /// their income pays for persons).
    pub(super) fn best_takes(
        &self,
        harbor: &[CardId],
        takes: u32,
        coins: u32,
        compensation: u32,
    ) -> (f64, Option<(usize, bool)>) {
        let options = self.take_options(harbor, coins, compensation);
        options.best_plan(takes, coins)
    }

    /// The cards of `harbor` worth taking with `coins`, paying
    /// `compensation` per card, each priced once.
    pub(super) fn take_options(
        &self,
        harbor: &[CardId],
        coins: u32,
        compensation: u32,
    ) -> TakeOptions {
        let mut options = TakeOptions::default();
        for (position, &card) in harbor.iter().enumerate() {
            self.add_take_option(&mut options, position, card, coins, compensation);
        }
        options
    }

    /// Price `card`, at harbor `position` after every card `options` holds;
    /// what it added, for [`TakeOptions::take_back`].
    pub(super) fn add_take_option(
        &self,
        options: &mut TakeOptions,
        position: usize,
        card: CardId,
        coins: u32,
        compensation: u32,
    ) -> Added {
        let cv = self.coin_value;
        match card.kind() {
            CardKind::Ship { .. } => {
                // A declined ship brings no coins; a non-active taker still
                // pays the compensation out of its own, so it needs one.
                let net = self.income(card).saturating_sub(compensation);
                let trade = (f64::from(net) * cv, i64::from(net), position, false);
                let decline = self
                    .decline_value(card)
                    .filter(|_| coins >= compensation)
                    .map(|v| {
                        let paid = f64::from(compensation) * cv;
                        (v - paid, -i64::from(compensation), position, true)
                    });
                let best = match decline {
                    Some(d) if d.0 > trade.0 => d,
                    _ => trade,
                };
                if best.0 > 0.0 {
                    // After every ship worth as much: the later position.
                    let at = options
                        .ships
                        .iter()
                        .position(|s| s.0.total_cmp(&best.0) == std::cmp::Ordering::Less)
                        .unwrap_or(options.ships.len());
                    options.ships.insert(at, best);
                    return Added::Ship(at);
                }
                Added::Nothing
            }
            CardKind::Person { cost, .. } => {
                let price = u32::from(cost).saturating_sub(self.discount) + compensation;
                let net = self.person_value(card) - f64::from(price) * cv;
                if net > 0.0 {
                    options.persons.push((price, net, position));
                    return Added::Person;
                }
                Added::Nothing
            }
            CardKind::Expedition { .. } | CardKind::Tax(_) => Added::Nothing,
        }
    }

    /// The legal Take that starts the best plan, if it is worth anything:
    /// declining the coins if the plan says so and the rules offer it, and
    /// a gift ship's coin to the player furthest behind.
    pub(super) fn best_trade(&self, legal: &[Action]) -> Option<usize> {
        let harbor = view_harbor(self.view);
        let takes = u32::from(self.view.takes_left.unwrap_or(1));
        let compensation = u32::from(!self.active);
        let (value, first) = self.best_takes(&harbor, takes, self.coins, compensation);
        if value <= 0.0 {
            return None;
        }
        let (first, decline) = first?;
        let takes_first =
            |i: &usize| matches!(legal[*i], Action::Take(n, _) if usize::from(n) == first);
        let declines = |i: &usize| {
            matches!(
                legal[*i],
                Action::Take(_, TakeMode::Decline | TakeMode::DeclineGift(_))
            )
        };
        let offered: Vec<usize> = (0..legal.len()).filter(takes_first).collect();
        // A planned decline the rules do not offer is a plain trade.
        let decline = decline && offered.iter().any(declines);
        offered
            .into_iter()
            .filter(|i| declines(i) == decline)
            .min_by_key(|&i| match legal[i] {
                Action::Take(_, TakeMode::Gift(s) | TakeMode::DeclineGift(s)) => {
                    Some(self.gift_rank(s))
                }
                _ => None,
            })
    }
}

/// Cards that may come next ([`unseen_cards`]) in the bot's fixed-size
/// rows, and their total.
pub(super) fn unseen_estimate(view: &View, expansion: bool) -> ([u32; ROWS], u32) {
    let mut counts = [0u32; ROWS];
    for (row, n) in unseen_cards(view, expansion)
        .into_iter()
        .enumerate()
        .take(ROWS)
    {
        counts[row] = n;
    }
    debug_assert!(CATALOG.len() <= ROWS);
    (counts, counts.iter().sum())
}
