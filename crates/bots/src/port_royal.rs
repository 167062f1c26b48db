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
//! game minus those lying face up in the harbor, among the expeditions and in
//! the players' displays. The discard pile's faces are not in the view, so
//! they count as unseen; that overstates the ships a little (traded ships
//! are discarded) and makes the bot slightly careful.

use roundtable_engine::Seat;
use roundtable_port_royal::catalog::{CATALOG, deck_counts};
use roundtable_port_royal::{
    Action, CardId, CardKind, CardName, Options, PersonKind, PortRoyal, View,
};

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
        }
    }
}

impl Bot<PortRoyal> for PortRoyalBot {
    fn name(&self) -> &'static str {
        "heuristic"
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
            let keep = match view.pending_ship {
                Some(CardName(ship)) if !ctx.busts(&view_harbor(view), ship) => {
                    let mut with = view_harbor(view);
                    with.push(ship);
                    ctx.continuation(&with) > ctx.continuation(&view_harbor(view))
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
}

/// The chance that the next card `seat` draws ends its turn in a bust: a
/// ship of a colour already in the harbor that its swords cannot repel.
///
/// An estimate with the module's unseen-card model (the discard pile's faces
/// are not in the view); the screen shows it next to "draw".
pub fn bust_chance(view: &View, seat: Seat) -> f64 {
    let ctx = Ctx::new(&PortRoyalBot::default(), seat, view);
    if ctx.unseen_total == 0 {
        return 0.0;
    }
    let harbor = view_harbor(view);
    let busting: u32 = ctx
        .unseen
        .iter()
        .enumerate()
        .filter_map(|(row, &n)| Some((CardId::from_index(row as u32)?, n)))
        .filter(|&(c, _)| ctx.busts(&harbor, c) && !ctx.repellable(c))
        .map(|(_, n)| n)
        .sum();
    f64::from(busting) / f64::from(ctx.unseen_total)
}

fn view_harbor(view: &View) -> Vec<CardId> {
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

/// Everything the bot derives from one view before it weighs its options.
struct Ctx<'a> {
    view: &'a View,
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
        Ctx {
            view,
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
        }
    }

    fn count(&self, kind: PersonKind) -> u32 {
        self.counts[kind as usize]
    }

    /// What hiring `card` is worth before its price: points plus ability.
    fn person_value(&self, card: CardId) -> f64 {
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
            PersonKind::Clerk => 2.0 * f,
            PersonKind::Gunner => 3.0 * f,
            PersonKind::ViceAdmiral => 2.0 * f,
        };
        points + ability
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
        let colours = harbor
            .iter()
            .filter_map(|c| c.ship_colour())
            .fold(0u8, |m, c| m | c.bit())
            .count_ones();
        let base = match colours {
            0..=3 => 1,
            4 => 2,
            _ => 3,
        };
        base + self.count(PersonKind::Governor)
    }

    /// The value of stopping Discover with `harbor`, as the active player.
    fn stop_value(&self, harbor: &[CardId]) -> f64 {
        let takes = self.active_takes(harbor);
        let mut value = self.best_takes(harbor, takes, self.coins, 0).0;
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
        let now = self.stop_value(harbor);
        let bust = f64::from(self.count(PersonKind::Jester)) * self.coin_value;
        let mut with = harbor.to_vec();
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
                        (true, true) => now,
                        (false, true) => bust,
                        (repel, false) => {
                            with.push(card);
                            let keep = self.stop_value(&with);
                            with.pop();
                            if repel { keep.max(now) } else { keep }
                        }
                    }
                }
                CardKind::Person { .. } => {
                    with.push(card);
                    let v = self.stop_value(&with);
                    with.pop();
                    v
                }
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
    /// paying `compensation` per card, and the harbor position of the card
    /// that plan takes first (ships first: their income pays for persons).
    fn best_takes(
        &self,
        harbor: &[CardId],
        takes: u32,
        coins: u32,
        compensation: u32,
    ) -> (f64, Option<usize>) {
        let cv = self.coin_value;
        // (net coins, position), richest first.
        let mut ships: Vec<(u32, usize)> = harbor
            .iter()
            .enumerate()
            .filter(|(_, c)| matches!(c.kind(), CardKind::Ship { .. }))
            .map(|(i, &c)| (self.income(c).saturating_sub(compensation), i))
            .filter(|&(net, _)| net > 0)
            .collect();
        ships.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        // (price, value net of price, position) of persons worth hiring.
        let persons: Vec<(u32, f64, usize)> = harbor
            .iter()
            .enumerate()
            .filter_map(|(i, &c)| match c.kind() {
                CardKind::Person { cost, .. } => {
                    let price = u32::from(cost).saturating_sub(self.discount) + compensation;
                    let net = self.person_value(c) - f64::from(price) * cv;
                    (net > 0.0).then_some((price, net, i))
                }
                _ => None,
            })
            .collect();
        let mut best = (0.0, None);
        let most_ships = (takes as usize).min(ships.len());
        for s in 0..=most_ships {
            let income: u32 = ships[..s].iter().map(|x| x.0).sum();
            let budget = coins + income;
            let (hired, first_person) = best_persons(&persons, takes as usize - s, budget);
            let value = f64::from(income) * cv + hired;
            let first = if s > 0 {
                Some(ships[0].1)
            } else {
                first_person
            };
            if value > best.0 + 1e-9 {
                best = (value, first);
            }
        }
        best
    }

    /// The legal Take that starts the best plan, if it is worth anything.
    fn best_trade(&self, legal: &[Action]) -> Option<usize> {
        let harbor = view_harbor(self.view);
        let takes = u32::from(self.view.takes_left.unwrap_or(1));
        let compensation = u32::from(!self.active);
        let (value, first) = self.best_takes(&harbor, takes, self.coins, compensation);
        if value <= 0.0 {
            return None;
        }
        let first = first?;
        legal
            .iter()
            .position(|a| matches!(a, Action::Take(n, _) if usize::from(*n) == first))
    }
}

/// The best total net value of at most `slots` persons costing at most
/// `budget`, and the position of one of them (the dearest: hire it first).
fn best_persons(persons: &[(u32, f64, usize)], slots: usize, budget: u32) -> (f64, Option<usize>) {
    let mut best = (0.0, Vec::new());
    let mut chosen = Vec::new();
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
    chosen: &mut Vec<usize>,
    best: &mut (f64, Vec<usize>),
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

/// Cards that may come next: every card of the game minus the face-up ones
/// in the view (see the module docs for what this leaves out).
fn unseen_estimate(view: &View, expansion: bool) -> ([u32; ROWS], u32) {
    let mut counts = [0u32; ROWS];
    for (row, n) in deck_counts(expansion).into_iter().enumerate().take(ROWS) {
        counts[row] = n;
    }
    let visible = view
        .harbor
        .iter()
        .chain(&view.expeditions)
        .chain(view.pending_ship.iter())
        .chain(
            view.players
                .iter()
                .flat_map(|p| p.persons.iter().chain(&p.expeditions)),
        );
    for c in visible {
        let row = usize::from(c.0.0);
        if let Some(n) = counts.get_mut(row) {
            *n = n.saturating_sub(1);
        }
    }
    let total = counts.iter().sum();
    debug_assert!(CATALOG.len() <= ROWS);
    (counts, total)
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

    #[test]
    fn bust_chance_counts_unrepellable_ships_of_harbor_colours() {
        let empty = view("discover", &[], player(3, &[]));
        assert_eq!(bust_chance(&empty, Seat(0)), 0.0);
        let one = view("discover", &["ship:yellow:1:1"], player(3, &[]));
        let p = bust_chance(&one, Seat(0));
        // 9 yellow ships left among 118 unseen cards.
        assert!((p - 9.0 / 118.0).abs() < 1e-9, "{p}");
        let sailor = view(
            "discover",
            &["ship:yellow:1:1"],
            player(3, &["person:sailor:3:1"]),
        );
        // The Sailor repels the three 1-sword yellow ships left.
        assert!((bust_chance(&sailor, Seat(0)) - 6.0 / 117.0).abs() < 1e-9);
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
