//! A heuristic Port Royal player.
//!
//! It values everything in coins. A ship is worth its income; a person is
//! worth its victory points (at [`VP_IN_COINS`] each) plus an estimate of
//! what its ability will still earn, which shrinks as the game nears its
//! end. From that it values a harbor as the best cards it could take there.
//!
//! * **Discover**: it draws while the expected value of one more card beats
//!   stopping now. The expectation runs over the cards that may come next,
//!   so the chance of a bust (a ship of a colour already in the harbor that
//!   its swords cannot repel) is priced against what the harbor already holds.
//! * **Repel or keep**: it keeps a ship when the harbor with it (and the
//!   chance to draw on) is worth more than without it.
//! * **Trade & Hire**: it takes the card that starts its best plan for the
//!   takes it has left (ships first pay for persons), and passes when nothing
//!   is worth the compensation coin.
//! * **Expeditions**: it claims one whenever it can, since every expedition
//!   is worth more victory points than the persons it costs, plus coins.
//!
//! Which cards may come next is estimated from the view: every card of the
//! game minus those lying face up in the harbor, among the expeditions, in
//! the players' displays and (the expansion's Pack of Pirates) kept aside.
//! The discard pile's faces are not in the view, so they count as unseen;
//! that overstates the ships a little (traded ships are discarded) and makes
//! the bot slightly careful.
//!
//! # "Just One More Contract"
//!
//! A contract is worth what completing it pays this seat now: the coins of
//! the next free space plus the victory points of its 2nd or 3rd contract.
//! Only face-up contracts the seat has not completed count, and only while
//! it has a cube for them (a progress cube already placed is enough).
//!
//! * **Declining** a Frigate's or Galleon's coins for Frigate Foe or Galleon
//!   Foe is worth the contract's reward spread over the declines still
//!   needed, discounted for each later one that must still happen (and by
//!   how much game is left for them); the last decline is worth the whole
//!   reward. It declines when that beats the ship's income.
//! * **Gift ships** give their extra coin to the player furthest behind
//!   (fewest victory points, then fewest coins), never to a leader when
//!   anyone else can take it.
//! * **Hires** add the reward of every contract they complete (as many as
//!   there are cubes for) and a share of the reward of those they bring a
//!   person closer to.
//! * **Discover** prices Jinx into a bust, Gamester and Tiny Gamester into a
//!   ship that brings the harbor to 4 or 3 colours, and Pack of Pirates into
//!   repelling a ship of a colour not yet kept aside.
//!
//! Over 1,000 seeded 4-seat expansion games, two such bots against two
//! [`PortRoyalBot::contract_blind`] ones took 65% of the first places and
//! 10.9 against 10.0 victory points per seat (`examples/contracts.rs`).

use std::cell::Cell;

use roundtable_engine::{Knowledge, Seat};
use roundtable_port_royal::catalog::CATALOG;
use roundtable_port_royal::contracts::{CONTRACT_VP, ContractId, Requirement};
use roundtable_port_royal::odds::unseen_cards;
use roundtable_port_royal::{
    Action, CardId, CardKind, CardName, Colour, Options, PersonKind, PlayerView, PortRoyal,
    TakeMode, View,
};
use smallvec::SmallVec;

use crate::Bot;

/// What one victory point is worth in coins. The cheap persons charge about
/// 3 coins a point; a little more than that makes the bot hire rather than
/// hoard (tuned over seeded games: 3.0 won 98.1% against random bots, 3.5
/// won 99.5%, 2.5 only 86%).
pub const VP_IN_COINS: f64 = 3.5;

/// Catalog rows the bot keeps counts for.
const ROWS: usize = 96;

/// A heuristic Port Royal player; deterministic, so seeded games replay.
#[derive(Clone, Debug)]
pub struct PortRoyalBot {
    /// Victory points that end the game: how far along the game is.
    target_vp: u32,
    /// Whether the deck holds the expansion's cards.
    expansion: bool,
    /// Whether it ignores the expansion's contracts
    /// ([`PortRoyalBot::contract_blind`]).
    blind_to_contracts: bool,
}

impl Default for PortRoyalBot {
    fn default() -> Self {
        PortRoyalBot::new(&Options::default())
    }
}

impl PortRoyalBot {
    /// A bot for a game with these options (the table's options are public).
    pub fn new(options: &Options) -> Self {
        PortRoyalBot {
            target_vp: options.victory_points.max(1),
            expansion: options.expansion,
            blind_to_contracts: false,
        }
    }

    /// The same bot blind to the expansion's contracts: it never declines
    /// coins and draws, keeps and hires without regard to contracts. A baseline that shows what contract play is
    /// worth (`examples/contracts.rs`); nobody should want it at a table.
    pub fn contract_blind(options: &Options) -> Self {
        PortRoyalBot {
            blind_to_contracts: true,
            ..PortRoyalBot::new(options)
        }
    }

    /// Whether it plays for contracts: in an expansion game, unless blind.
    fn plays_contracts(&self) -> bool {
        self.expansion && !self.blind_to_contracts
    }
}

impl Bot<PortRoyal> for PortRoyalBot {
    fn name(&self) -> &'static str {
        "heuristic"
    }

    fn table_options(&mut self, options: &Options) {
        *self = PortRoyalBot {
            blind_to_contracts: self.blind_to_contracts,
            ..PortRoyalBot::new(options)
        };
    }

    fn choose(&mut self, seat: Seat, view: &View, legal: &[Action]) -> usize {
        if legal.len() <= 1 {
            return 0;
        }
        let ctx = Ctx::new(self, seat, view);
        let position = |wanted: Action| legal.iter().position(|&a| a == wanted);
        // An expedition is always worth more than the persons it costs.
        if let Some(i) = best_claim(view, legal) {
            return i;
        }
        if legal.contains(&Action::Repel) || legal.contains(&Action::Keep) {
            let harbor = view_harbor(view);
            let keep = match view.pending_ship {
                Some(CardName(ship)) if !ctx.busts(&harbor, ship) => {
                    let mut with = harbor.clone();
                    with.push(ship);
                    ctx.continuation(&with) + ctx.dock_bonus(&harbor, ship)
                        > ctx.continuation(&harbor) + ctx.repel_bonus(ship)
                }
                _ => false,
            };
            let wanted = if keep { Action::Keep } else { Action::Repel };
            return position(wanted).unwrap_or(0);
        }
        if legal.contains(&Action::Draw) || legal.contains(&Action::Stop) {
            let harbor = view_harbor(view);
            let draw = legal.contains(&Action::Draw)
                && (!legal.contains(&Action::Stop)
                    || ctx.draw_value(&harbor) > ctx.stop_value(&harbor));
            let wanted = if draw { Action::Draw } else { Action::Stop };
            return position(wanted).unwrap_or(0);
        }
        ctx.best_trade(legal)
            .unwrap_or_else(|| position(Action::Pass).unwrap_or(0))
    }

    /// Each seat's worth in coins against the best other seat's, a lead of
    /// ten VP's worth or more counting as a sure win. A seat is worth its VP
    /// (at [`VP_IN_COINS`] each) and coins, and what its persons' abilities
    /// will still earn ([`ability_worth`]): without them a cut-off playout
    /// scores a hire of a Governor or a Trader as coins thrown away, and the
    /// search steers away from every person that pays later.
    fn prospects(&self, state: &PortRoyal, _knowledge: &Knowledge) -> Option<Vec<f64>> {
        // The public part only, read from the state: a spectator's view of
        // the whole table cost a tenth of the playouts of a decision.
        let seats = state.public_displays().map(|d| {
            let abilities = d.persons.iter().map(|&c| ability_worth(c)).sum();
            (d.vp, d.coins, abilities)
        });
        Some(self.prospects_of(state.last_round(), seats))
    }
}

impl PortRoyalBot {
    /// [`Bot::prospects`] read from a view of the table.
    #[cfg(test)]
    fn prospects_in(&self, view: &View) -> Vec<f64> {
        let seats = view.players.iter().map(|p| {
            let abilities = p.persons.iter().map(|c| ability_worth(c.0)).sum();
            (p.vp, p.coins, abilities)
        });
        self.prospects_of(view.last_round, seats)
    }

    /// [`Bot::prospects`] of seats given as (VP, coins, [`ability_worth`] of
    /// their persons), in seat order.
    fn prospects_of(
        &self,
        last_round: bool,
        seats: impl ExactSizeIterator<Item = (u32, u32, f64)>,
    ) -> Vec<f64> {
        let mut leader = 0;
        let mut worth = Vec::with_capacity(seats.len());
        for (vp, coins, abilities) in seats {
            leader = leader.max(vp);
            worth.push((f64::from(vp) * VP_IN_COINS + f64::from(coins), abilities));
        }
        let future = if last_round {
            0.0
        } else {
            (1.0 - f64::from(leader) / f64::from(self.target_vp)).clamp(0.0, 1.0)
        };
        let worth: Vec<f64> = worth
            .into_iter()
            .map(|(now, abilities)| now + abilities * future)
            .collect();
        worth
            .iter()
            .enumerate()
            .map(|(seat, own)| {
                let best_other = worth
                    .iter()
                    .enumerate()
                    .filter(|&(other, _)| other != seat)
                    .map(|(_, w)| *w)
                    .fold(f64::NEG_INFINITY, f64::max);
                let lead = if best_other.is_finite() {
                    own - best_other
                } else {
                    0.0
                };
                (lead / (10.0 * VP_IN_COINS)).clamp(-1.0, 1.0) / 2.0 + 0.5
            })
            .collect()
    }
}

/// What a hired person's ability is worth in coins over a whole game still
/// to come (its points not included): the heuristic's prices for a hire
/// ([`Ctx::person_alone`]) with a seat's swords and expeditions left out, so
/// that a display is priced alike whoever looks at it.
fn ability_worth(card: CardId) -> f64 {
    let CardKind::Person { kind, .. } = card.kind() else {
        return 0.0;
    };
    match kind {
        PersonKind::Trader => 2.5,
        PersonKind::Sailor => 2.0,
        PersonKind::Pirate => 3.5,
        // An expedition symbol: a step toward an expedition's VP and coins.
        PersonKind::Captain | PersonKind::Priest | PersonKind::Settler => 1.5,
        PersonKind::Jack => 2.0,
        PersonKind::Mademoiselle => 4.0,
        PersonKind::Jester => 3.0,
        PersonKind::Admiral => 4.0,
        PersonKind::Governor => 9.0,
        PersonKind::Clerk => 2.0,
        PersonKind::Gunner => 3.0,
        PersonKind::ViceAdmiral => 3.5,
    }
}

fn view_harbor(view: &View) -> Cards {
    view.harbor.iter().map(|c| c.0).collect()
}

/// The legal claim of the expedition with the most victory points.
fn best_claim(view: &View, legal: &[Action]) -> Option<usize> {
    legal
        .iter()
        .enumerate()
        .filter_map(|(i, a)| match a {
            Action::Claim(n) => {
                let vp = view
                    .expeditions
                    .get(usize::from(*n))
                    .map_or(0, |c| expedition_vp(c.0));
                Some((vp, i))
            }
            _ => None,
        })
        .max()
        .map(|(_, i)| i)
}

fn expedition_vp(card: CardId) -> u32 {
    match card.kind() {
        CardKind::Expedition { vp, .. } => u32::from(vp),
        _ => 0,
    }
}

/// A face-up contract this seat can still complete.
#[derive(Clone, Copy, Debug)]
struct Open {
    requirement: Requirement,
    /// What completing it now pays, in coins: the next space's coins and
    /// the points of this seat's next contract.
    reward: f64,
    /// Times its requirement was met so far (a progress cube's space).
    step: u8,
}

/// The contracts this seat can still complete, read from the view.
#[derive(Clone, Debug, Default)]
struct Contracts {
    open: Vec<Open>,
    /// Cubes not yet on a contract.
    free_cubes: u32,
    /// Colours of the ships this seat keeps aside for Pack of Pirates.
    kept_aside: u8,
}

impl Contracts {
    fn of(view: &View, seat: Seat, coin_value: f64) -> Contracts {
        let (Some(x), Some(me)) = (&view.expansion, view.players.get(seat.index())) else {
            return Contracts::default();
        };
        let i = seat.index();
        let free_cubes = x.cubes.get(i).copied().unwrap_or(0);
        let kept_aside = x
            .kept_aside
            .get(i)
            .into_iter()
            .flatten()
            .filter_map(|c| c.0.ship_colour())
            .fold(0u8, |m, c| m | c.bit());
        // The 4th contract earns nothing: every cube is on one already.
        let Some(&vp) = CONTRACT_VP.get(me.contracts.len()) else {
            return Contracts::default();
        };
        let progress = x.progress.get(i);
        let open = x
            .contract_status
            .iter()
            .filter(|c| !c.completed_by.iter().any(|s| s.0 == seat))
            .filter_map(|c| {
                let step = progress
                    .into_iter()
                    .flatten()
                    .find(|p| p.contract == c.name)
                    .map_or(0, |p| p.step);
                // Without a free cube only a contract holding one of this
                // seat's progress cubes can still be completed.
                (free_cubes > 0 || step > 0).then_some(())?;
                Some(Open {
                    requirement: ContractId::parse(&c.name)?.requirement(),
                    reward: f64::from(c.next_coins) * coin_value + f64::from(vp) * VP_IN_COINS,
                    step,
                })
            })
            .collect();
        Contracts {
            open,
            free_cubes,
            kept_aside,
        }
    }
}

/// Everything the bot derives from one view before it weighs its options.
struct Ctx<'a> {
    view: &'a View,
    me: Option<&'a PlayerView>,
    active: bool,
    coins: u32,
    swords: u32,
    discount: u32,
    traders: [u32; 5],
    counts: [u32; 14],
    /// Symbols held for expeditions: Captains, Priests, Settlers, Jacks.
    symbols: [u32; 4],
    /// The part of the game still to come, from 1 down to 0.
    future: f64,
    coin_value: f64,
    /// Cards that may come next, per catalog row, and their total.
    unseen: [u32; ROWS],
    unseen_total: u32,
    contracts: Contracts,
    /// [`Ctx::person_value`] per catalog row once worked out: weighing a
    /// Discover prices every card that may come next in every imagined
    /// harbor, so the same persons are priced over and over (most of a
    /// heuristic playout's time went there).
    person_values: [Cell<Option<f64>>; ROWS],
}

impl<'a> Ctx<'a> {
    fn new(bot: &PortRoyalBot, seat: Seat, view: &'a View) -> Ctx<'a> {
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

    fn count(&self, kind: PersonKind) -> u32 {
        self.counts[kind as usize]
    }

    /// What hiring `card` is worth before its price: points, ability and
    /// contracts.
    fn person_value(&self, card: CardId) -> f64 {
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
    fn person_alone(&self, card: CardId) -> f64 {
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
    fn step_value(&self, reward: f64, remaining: u32) -> f64 {
        if remaining <= 1 {
            return reward;
        }
        let later = i32::try_from(remaining - 1).unwrap_or(i32::MAX);
        let chance = 0.85f64.powi(later) * (2.0 * self.future).min(1.0);
        reward / f64::from(remaining) * chance
    }

    /// What trading `ship` and declining its coins is worth (Frigate Foe,
    /// Galleon Foe), if a face-up Foe contract of its colour is open to us.
    fn decline_value(&self, ship: CardId) -> Option<f64> {
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
    fn missing(&self, requirement: Requirement, extra: Option<CardId>) -> u32 {
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
    fn contract_gain(&self, card: CardId) -> f64 {
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
    fn jinx_bonus(&self) -> f64 {
        self.contracts
            .open
            .iter()
            .filter(|o| self.active && o.requirement == Requirement::Bust)
            .map(|o| o.reward)
            .sum()
    }

    /// Gamester and Tiny Gamester: what `ship` docking in `harbor` pays in
    /// contracts when it brings the harbor to 4 or 3 colours.
    fn dock_bonus(&self, harbor: &[CardId], ship: CardId) -> f64 {
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
    fn repel_bonus(&self, ship: CardId) -> f64 {
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
    fn gift_rank(&self, seat: Seat) -> (u32, u32, u8) {
        let p = self.view.players.get(seat.index());
        (p.map_or(0, |p| p.vp), p.map_or(0, |p| p.coins), seat.0)
    }

    /// What `extra` more swords are worth: most for the first few, which
    /// repel the many 1- and 2-sword ships, nothing past 7.
    fn sword_value(&self, extra: u32) -> f64 {
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
    fn symbol_value(&self, symbol: Option<usize>) -> f64 {
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
    fn income(&self, card: CardId) -> u32 {
        match card.kind() {
            CardKind::Ship { colour, coins, .. } => {
                u32::from(coins) + self.traders[colour as usize]
            }
            _ => 0,
        }
    }

    /// Whether keeping `ship` in `harbor` would end the turn in a bust.
    fn busts(&self, harbor: &[CardId], ship: CardId) -> bool {
        ship.ship_colour()
            .is_some_and(|c| harbor.iter().any(|h| h.ship_colour() == Some(c)))
    }

    fn repellable(&self, ship: CardId) -> bool {
        matches!(ship.kind(), CardKind::Ship { swords: Some(s), .. } if self.swords >= u32::from(s))
    }

    /// Takes the active player gets from `harbor`.
    fn active_takes(&self, harbor: &[CardId]) -> u32 {
        let colours = colour_bits(harbor).count_ones();
        let base = match colours {
            0..=3 => 1,
            4 => 2,
            _ => 3,
        };
        base + self.count(PersonKind::Governor)
    }

    /// The value of stopping Discover with `harbor`, as the active player.
    fn stop_value(&self, harbor: &[CardId]) -> f64 {
        self.stop_value_with(harbor, &self.take_options(harbor, self.coins, 0))
    }

    /// [`Self::stop_value`] with the `harbor`'s cards already priced as
    /// [`Self::take_options`] prices them for the active player.
    fn stop_value_with(&self, harbor: &[CardId], options: &TakeOptions) -> f64 {
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
    fn continuation(&self, harbor: &[CardId]) -> f64 {
        self.stop_value(harbor).max(self.draw_value(harbor))
    }

    /// The expected value of drawing one more card and then stopping (or,
    /// for a ship that can be repelled, the better of repelling and keeping).
    fn draw_value(&self, harbor: &[CardId]) -> f64 {
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
    fn best_takes(
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
    fn take_options(&self, harbor: &[CardId], coins: u32, compensation: u32) -> TakeOptions {
        let mut options = TakeOptions::default();
        for (position, &card) in harbor.iter().enumerate() {
            self.add_take_option(&mut options, position, card, coins, compensation);
        }
        options
    }

    /// Price `card`, at harbor `position` after every card `options` holds;
    /// what it added, for [`TakeOptions::take_back`].
    fn add_take_option(
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
    fn best_trade(&self, legal: &[Action]) -> Option<usize> {
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

/// Cards of a harbor and what the bot weighs in it, kept inline: the bot
/// weighs dozens of imagined harbors a decision (every card that may come
/// next), and a search calls it at every step of every playout, where
/// allocating them was a fifth of its time. A harbor rarely holds more
/// (more spill to the heap); bigger arrays cost more to copy.
const INLINE: usize = 8;

/// A harbor's cards.
type Cards = SmallVec<[CardId; INLINE]>;

/// The cards of a harbor worth taking, each priced once
/// ([`Ctx::take_options`]): the bot weighs a harbor with each card that may
/// come next, and pricing the harbor's own cards again for each was most of
/// a search's playout time.
#[derive(Debug, Default, PartialEq)]
struct TakeOptions {
    /// Ships as (value, net coins, position, declined), most valuable
    /// first, then by position.
    ships: SmallVec<[(f64, i64, usize, bool); INLINE]>,
    /// Persons as (price, value net of price, position), in harbor order.
    persons: SmallVec<[(u32, f64, usize); INLINE]>,
}

/// What [`Ctx::add_take_option`] added to a [`TakeOptions`].
#[derive(Clone, Copy)]
enum Added {
    /// A ship, at this index of the ships.
    Ship(usize),
    /// A person, the last one.
    Person,
    /// Nothing: the card is not worth taking.
    Nothing,
}

impl TakeOptions {
    /// [`Ctx::best_takes`] of the cards priced here.
    fn best_plan(&self, takes: u32, coins: u32) -> (f64, Option<(usize, bool)>) {
        let TakeOptions { ships, persons } = self;
        let mut best = (0.0, None);
        let most_ships = (takes as usize).min(ships.len());
        for s in 0..=most_ships {
            let income: i64 = ships[..s].iter().map(|x| x.1).sum();
            let traded: f64 = ships[..s].iter().map(|x| x.0).sum();
            let budget = u32::try_from((i64::from(coins) + income).max(0)).unwrap_or(u32::MAX);
            let (hired, first_person) = best_persons(persons, takes as usize - s, budget);
            let value = traded + hired;
            let first = if s > 0 {
                Some((ships[0].2, ships[0].3))
            } else {
                first_person.map(|p| (p, false))
            };
            if value > best.0 + 1e-9 {
                best = (value, first);
            }
        }
        best
    }

    /// Undo the [`Ctx::add_take_option`] that returned `added`: weighing
    /// each card that may come next with a copy of the harbor's options
    /// was a fifth of a playout's time.
    fn take_back(&mut self, added: Added) {
        match added {
            Added::Ship(at) => {
                self.ships.remove(at);
            }
            Added::Person => {
                self.persons.pop();
            }
            Added::Nothing => {}
        }
    }
}

/// Positions of the persons a plan hires: at most one per take.
type Chosen = SmallVec<[usize; 4]>;

/// The ship colours in `harbor`, one bit each.
fn colour_bits(harbor: &[CardId]) -> u8 {
    harbor
        .iter()
        .filter_map(|c| c.ship_colour())
        .fold(0u8, |m, c| m | c.bit())
}

/// The best total net value of at most `slots` persons costing at most
/// `budget`, and the position of one of them (the dearest: hire it first).
fn best_persons(persons: &[(u32, f64, usize)], slots: usize, budget: u32) -> (f64, Option<usize>) {
    let mut best = (0.0, Chosen::new());
    let mut chosen = Chosen::new();
    search_persons(persons, 0, slots, budget, &mut chosen, &mut best, 0.0);
    let first = best
        .1
        .iter()
        .max_by_key(|&&i| persons[i].0)
        .map(|&i| persons[i].2);
    (best.0, first)
}

/// Depth-first search over subsets of `persons[from..]` (absolute indices).
fn search_persons(
    persons: &[(u32, f64, usize)],
    from: usize,
    slots: usize,
    budget: u32,
    chosen: &mut Chosen,
    best: &mut (f64, Chosen),
    value: f64,
) {
    if value > best.0 + 1e-9 {
        *best = (value, chosen.clone());
    }
    if slots == 0 {
        return;
    }
    for i in from..persons.len() {
        let (price, net, _) = persons[i];
        if price <= budget {
            chosen.push(i);
            search_persons(
                persons,
                i + 1,
                slots - 1,
                budget - price,
                chosen,
                best,
                value + net,
            );
            chosen.pop();
        }
    }
}

/// Symbols an expedition still lacks, Jacks covering any.
fn shortfall(have: [u32; 4], need: [u32; 3]) -> u32 {
    let short: u32 = (0..3).map(|i| need[i].saturating_sub(have[i])).sum();
    short.saturating_sub(have[3])
}

/// Cards that may come next ([`unseen_cards`]) in the bot's fixed-size
/// rows, and their total.
fn unseen_estimate(view: &View, expansion: bool) -> ([u32; ROWS], u32) {
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

#[cfg(test)]
mod tests {
    use roundtable_port_royal::{PlayerView, SeatNumber};

    use super::*;

    fn card(name: &str) -> CardName {
        CardName(CardId::parse(name).unwrap_or_else(|| panic!("no card {name}")))
    }

    /// A real game's view to start from, so that fields the game crate
    /// adds later need no change here.
    fn base_view() -> View {
        use roundtable_engine::{Game, Observer};
        PortRoyal::new_game(2, &Options::default())
            .unwrap_or_else(|e| panic!("{e}"))
            .view(Observer::Seat(Seat(0)))
    }

    fn player(coins: u32, persons: &[&str]) -> PlayerView {
        let persons: Vec<CardName> = persons.iter().map(|p| card(p)).collect();
        let mut p = base_view().players[0].clone();
        p.vp = persons
            .iter()
            .map(|p| match p.0.kind() {
                CardKind::Person { vp, .. } => u32::from(vp),
                _ => 0,
            })
            .sum();
        p.swords = persons
            .iter()
            .map(|p| match p.0.kind() {
                CardKind::Person { kind, .. } => kind.swords(),
                _ => 0,
            })
            .sum();
        p.coins = coins;
        p.persons = persons;
        p
    }

    fn view(phase: &'static str, harbor: &[&str], me: PlayerView) -> View {
        let mut v = base_view();
        v.active = SeatNumber(Seat(0));
        v.phase = phase;
        v.turn = 3;
        v.harbor = harbor.iter().map(|c| card(c)).collect();
        v.draw_pile = 80;
        v.discard_pile = 10;
        v.players = vec![me, player(3, &[])];
        v.start_player = Some(SeatNumber(Seat(0)));
        v
    }

    fn choose(view: &View, legal: &[Action]) -> Action {
        let mut bot = PortRoyalBot::default();
        legal[Bot::<PortRoyal>::choose(&mut bot, Seat(0), view, legal)]
    }

    /// A search cut short scores the position by these prospects: early in
    /// the game a Governor must count for more than the 8 coins it cost, or
    /// the search would never hire a person that pays later; in the last
    /// round, when it will pay no more, the coins count for more.
    #[test]
    fn prospects_count_what_persons_will_still_earn() {
        let bot = PortRoyalBot::default();
        let mut early = view("trade", &[], player(0, &["person:governor:8:0"]));
        early.players[1] = player(8, &[]);
        let p = bot.prospects_in(&early);
        assert!(p[0] > 0.5 && p[1] < 0.5, "{p:?}");
        let mut last = early.clone();
        last.last_round = true;
        let p = bot.prospects_in(&last);
        assert!(p[0] < 0.5 && p[1] > 0.5, "{p:?}");
    }

    /// The prospects a search scores read the state itself; they are the
    /// ones a spectator's view of the same position gives, at every input
    /// of random games of both rule sets.
    #[test]
    fn prospects_from_the_state_are_the_spectators_views() {
        use rand_chacha::ChaCha8Rng;
        use rand_core::{RngCore, SeedableRng};
        use roundtable_engine::{Game, Observer, sim};
        use roundtable_port_royal::Options;

        let bot = PortRoyalBot::default();
        let knowledge = Knowledge::default();
        let mut positions = 0;
        for (seed, expansion) in [(1, false), (2, true), (3, false), (4, true)] {
            let options = Options {
                expansion,
                ..Options::default()
            };
            let seats = 2 + (seed % 4) as u8;
            let mut game = PortRoyal::new_game(seats, &options).expect("a valid set-up");
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut picks = ChaCha8Rng::seed_from_u64(seed + 100);
            sim::play(
                &mut game,
                100_000,
                &mut |n| rng.next_u64() % n,
                &mut |_, _, legal| (picks.next_u64() % legal.len() as u64) as usize,
                &mut |state: &PortRoyal| {
                    let from_view =
                        bot.prospects_in(&state.view_with(Observer::Spectator, &knowledge));
                    assert_eq!(bot.prospects(state, &knowledge), Some(from_view));
                    positions += 1;
                },
            )
            .expect("a random game ends");
        }
        assert!(positions > 1000, "only {positions} positions compared");
    }

    /// A bot made before its table was known (a network seat) plays, once
    /// told the table's options, exactly as one made for them; a blind one
    /// stays blind.
    #[test]
    fn a_bot_told_the_tables_options_plays_by_them() {
        let options = Options {
            expansion: true,
            victory_points: 7,
            ..Options::default()
        };
        let mut told = PortRoyalBot::default();
        Bot::<PortRoyal>::table_options(&mut told, &options);
        let made = PortRoyalBot::new(&options);
        assert_eq!(told.target_vp, 7);
        assert!(told.plays_contracts());
        assert_eq!(
            (told.target_vp, told.expansion, told.blind_to_contracts),
            (made.target_vp, made.expansion, made.blind_to_contracts)
        );
        let mut blind = PortRoyalBot::contract_blind(&Options::default());
        Bot::<PortRoyal>::table_options(&mut blind, &options);
        assert!(!blind.plays_contracts());
        assert_eq!(blind.target_vp, 7);
    }

    #[test]
    fn draws_on_an_empty_harbor_and_stops_when_a_bust_is_likely() {
        let discover = [Action::Draw, Action::Stop];
        let empty = view("discover", &["person:sailor:3:1"], player(3, &[]));
        assert_eq!(choose(&empty, &discover), Action::Draw);
        // Four colours in the harbor and no swords: most ships now bust.
        let risky = view(
            "discover",
            &[
                "ship:yellow:1:1",
                "ship:blue:2:3",
                "ship:green:3:3",
                "ship:red:3:2",
            ],
            player(3, &[]),
        );
        assert_eq!(choose(&risky, &discover), Action::Stop);
    }

    #[test]
    fn repels_a_ship_that_would_bust_it() {
        let mut v = view(
            "discover",
            &["ship:yellow:1:1"],
            player(3, &["person:sailor:3:1"]),
        );
        v.pending_ship = Some(card("ship:yellow:1:2"));
        assert_eq!(choose(&v, &[Action::Repel, Action::Keep]), Action::Repel);
        // A rich ship of a new colour is worth keeping.
        v.pending_ship = Some(card("ship:blue:1:2"));
        assert_eq!(choose(&v, &[Action::Repel, Action::Keep]), Action::Keep);
    }

    #[test]
    fn claims_an_expedition_whenever_it_can() {
        let mut v = view(
            "discover",
            &[],
            player(3, &["person:captain:4:1", "person:captain:4:1"]),
        );
        v.expeditions = vec![card("expedition:anchor+anchor")];
        let legal = [Action::Draw, Action::Claim(0)];
        assert_eq!(choose(&v, &legal), Action::Claim(0));
    }

    #[test]
    fn trades_a_ship_first_to_pay_for_a_person() {
        // Four colours: two takes. The 3-coin ship pays for the Governor.
        let mut v = view(
            "trade",
            &[
                "ship:yellow:1:1",
                "person:governor:8:0",
                "ship:blue:2:3",
                "ship:green:3:3",
                "ship:red:1:1",
            ],
            player(5, &[]),
        );
        v.taker = Some(SeatNumber(Seat(0)));
        v.takes_left = Some(2);
        let legal = [
            Action::Take(0, roundtable_port_royal::TakeMode::Normal),
            Action::Take(2, roundtable_port_royal::TakeMode::Normal),
            Action::Take(3, roundtable_port_royal::TakeMode::Normal),
            Action::Take(4, roundtable_port_royal::TakeMode::Normal),
            Action::Pass,
        ];
        let first = choose(&v, &legal);
        assert!(
            matches!(first, Action::Take(2 | 3, _)),
            "took {first} instead of a 3-coin ship"
        );
    }

    /// An expansion game played from scenario-style text: `chance` answers
    /// every chance request in order, `steps` are "SEAT: action" (seats
    /// from 1). Real rules build the situation, so the view and the legal
    /// actions are exactly what a table would hand the bot.
    fn expansion_game(seats: u8, chance: &[&str], steps: &[&str]) -> PortRoyal {
        use roundtable_engine::{Game, Next};
        let options = Options {
            expansion: true,
            ..Options::default()
        };
        let mut game = PortRoyal::new_game(seats, &options).unwrap_or_else(|e| panic!("{e}"));
        let mut chance = chance.iter();
        let mut settle = |game: &mut PortRoyal| {
            let mut events = Vec::new();
            while let Next::Chance(_) = game.next() {
                let text = chance.next().unwrap_or_else(|| panic!("chance ran out"));
                let outcome = game
                    .parse_outcome(text)
                    .unwrap_or_else(|e| panic!("{text}: {e}"));
                game.apply_chance(&outcome, &mut events)
                    .unwrap_or_else(|e| panic!("{text}: {e}"));
            }
        };
        settle(&mut game);
        for step in steps {
            let (seat, action) = step.split_once(": ").unwrap_or_else(|| panic!("{step}"));
            let seat = Seat(seat.parse::<u8>().unwrap_or_else(|e| panic!("{e}")) - 1);
            let action = Action::parse(action).unwrap_or_else(|e| panic!("{e}"));
            game.apply_action(seat, &action, &mut Vec::new())
                .unwrap_or_else(|e| panic!("{step}: {e}"));
            settle(&mut game);
        }
        game
    }

    /// The bot's choice for `seat` in `game`, with the legal actions.
    fn bot_choice(game: &PortRoyal, seat: Seat) -> (Action, Vec<Action>) {
        use roundtable_engine::{Game, Observer};
        let legal = game.legal_actions_vec(seat);
        let options = Options {
            expansion: true,
            ..Options::default()
        };
        let mut bot = PortRoyalBot::new(&options);
        let view = game.view(Observer::Seat(seat));
        (
            legal[Bot::<PortRoyal>::choose(&mut bot, seat, &view, &legal)],
            legal,
        )
    }

    const FOES: [&str; 5] = [
        "seat:1",
        "contract:galleon-foe",
        "contract:frigate-foe",
        "contract:jinx",
        "contract:explorer",
    ];

    #[test]
    fn declines_a_galleon_when_galleon_foe_pays_more_than_the_ship() {
        // Seat 1 declined a Galleon before (progress 1 of 2); the second
        // decline completes Galleon Foe for 6 coins, the ship pays 2.
        let chance = [
            &FOES[..],
            &["ship:black:2:1", "ship:yellow:1:1", "ship:black:4:2"],
        ]
        .concat();
        let steps = [
            "1: draw",
            "1: stop",
            "1: take 0 decline",
            "2: draw",
            "2: stop",
            "2: take 0",
            "1: draw",
            "1: stop",
        ];
        let game = expansion_game(2, &chance, &steps);
        let (choice, legal) = bot_choice(&game, Seat(0));
        assert!(legal.contains(&Action::Take(0, TakeMode::Normal)));
        assert_eq!(choice, Action::Take(0, TakeMode::Decline), "{legal:?}");
    }

    #[test]
    fn trades_a_rich_frigate_when_frigate_foe_is_far_off() {
        // No progress yet: the first of three declines is worth a third of
        // 8 coins at most, less than the Frigate's 3.
        let chance = [&FOES[..], &["ship:red:6:3"]].concat();
        let game = expansion_game(2, &chance, &["1: draw", "1: stop"]);
        let (choice, legal) = bot_choice(&game, Seat(0));
        assert!(legal.contains(&Action::Take(0, TakeMode::Decline)));
        assert_eq!(choice, Action::Take(0, TakeMode::Normal));
        // A 1-coin Frigate is worth less than the step it buys.
        let chance = [&FOES[..], &["ship:red:1:1"]].concat();
        let game = expansion_game(2, &chance, &["1: draw", "1: stop"]);
        assert_eq!(
            bot_choice(&game, Seat(0)).0,
            Action::Take(0, TakeMode::Decline)
        );
    }

    #[test]
    fn gives_the_gift_coin_to_the_player_furthest_behind() {
        // Seat 2 hires a Sailor (1 VP); seat 3 then trades a gift ship and
        // chooses between seat 1 (0 VP) and seat 2, the leader.
        let chance = [
            &FOES[..],
            &[
                "ship:green:1:1",
                "person:sailor:3:1",
                "ship:yellow:4:3:gift",
            ],
        ]
        .concat();
        let steps = [
            "1: draw",
            "1: stop",
            "1: take 0", // seat 1 trades: 4 coins
            "2: draw",
            "2: stop",
            "2: take 0", // seat 2 hires: 1 VP
            "3: draw",
            "3: stop",
        ];
        let game = expansion_game(3, &chance, &steps);
        let (choice, legal) = bot_choice(&game, Seat(2));
        assert!(
            legal.contains(&Action::Take(0, TakeMode::Gift(Seat(1)))),
            "{legal:?}"
        );
        assert_eq!(
            choice,
            Action::Take(0, TakeMode::Gift(Seat(0))),
            "{legal:?}"
        );
    }

    #[test]
    fn a_hire_that_completes_a_contract_is_worth_its_coins() {
        let options = Options {
            expansion: true,
            ..Options::default()
        };
        let chance = [
            "seat:1",
            "contract:lady-killer",
            "contract:jinx",
            "contract:tax-officer",
            "contract:explorer",
        ];
        let game = expansion_game(2, &chance, &[]);
        use roundtable_engine::{Game, Observer};
        let mut view = game.view(Observer::Seat(Seat(0)));
        view.players[0].persons = vec![card("person:captain:4:1")];
        let bot = PortRoyalBot::new(&options);
        let ctx = Ctx::new(&bot, Seat(0), &view);
        let mlle = card("person:mademoiselle:7:2").0;
        // Lady Killer's first space: 3 coins (a first contract has no VP).
        let gain = ctx.person_value(mlle) - ctx.person_alone(mlle);
        assert!((gain - 3.0).abs() < 1e-9, "{gain}");
        let blind = PortRoyalBot::contract_blind(&options);
        let ctx = Ctx::new(&blind, Seat(0), &view);
        assert_eq!(ctx.person_value(mlle), ctx.person_alone(mlle));
    }

    proptest::proptest! {
        /// Weighing a card that may come next adds its price to the
        /// harbor's options and takes it back after: the options are then
        /// the ones priced from scratch, with and without the card.
        #[test]
        fn a_card_added_to_priced_options_and_taken_back_prices_alike(
            rows in proptest::collection::vec(0..CATALOG.len(), 0..7),
            next in 0..CATALOG.len(),
            coins in 0u32..15,
            compensation in 0u32..2,
            persons in proptest::collection::vec(0..CATALOG.len(), 0..6),
        ) {
            let cards = |rows: &[usize]| -> Vec<CardId> {
                rows.iter().filter_map(|&r| CardId::from_index(r as u32)).collect()
            };
            let harbor = cards(&rows);
            let Some(next) = CardId::from_index(next as u32) else {
                return Ok(());
            };
            let mut me = player(coins, &[]);
            me.persons = cards(&persons)
                .into_iter()
                .filter(|c| matches!(c.kind(), CardKind::Person { .. }))
                .map(CardName)
                .collect();
            let v = view("discover", &[], me);
            let bot = PortRoyalBot::default();
            let ctx = Ctx::new(&bot, Seat(0), &v);
            let mut with = harbor.clone();
            with.push(next);
            let mut options = ctx.take_options(&harbor, coins, compensation);
            let added = ctx.add_take_option(&mut options, harbor.len(), next, coins, compensation);
            proptest::prop_assert_eq!(&options, &ctx.take_options(&with, coins, compensation));
            options.take_back(added);
            proptest::prop_assert_eq!(&options, &ctx.take_options(&harbor, coins, compensation));
        }
    }

    #[test]
    fn a_non_active_seat_passes_on_a_one_coin_ship() {
        let mut v = view("trade", &["ship:yellow:1:1"], player(4, &[]));
        v.active = SeatNumber(Seat(1));
        v.taker = Some(SeatNumber(Seat(0)));
        v.takes_left = Some(1);
        let legal = [
            Action::Take(0, roundtable_port_royal::TakeMode::Normal),
            Action::Pass,
        ];
        assert_eq!(choose(&v, &legal), Action::Pass);
    }
}
