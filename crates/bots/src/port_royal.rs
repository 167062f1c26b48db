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
//!
//! This file holds the bot and its decisions; the prices are in
//! `heuristic.rs`, the take planning in `takes.rs` and the contracts as the
//! bot reads them in `contracts.rs`.

mod contracts;
mod heuristic;
mod takes;

use roundtable_engine::{Knowledge, Seat};
use roundtable_port_royal::{
    Action, CardId, CardKind, CardName, Options, PersonKind, PortRoyal, View,
};

use crate::Bot;
use crate::search::lead_prospects;
use heuristic::Ctx;
use takes::Cards;

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
        lead_prospects(&worth, 10.0 * VP_IN_COINS)
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

#[cfg(test)]
mod tests {
    use roundtable_port_royal::catalog::CATALOG;
    use roundtable_port_royal::{PlayerView, SeatNumber, TakeMode};

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
        let options = Options {
            expansion: true,
            ..Options::default()
        };
        PortRoyal::scripted(seats, &options, chance, steps).unwrap_or_else(|e| panic!("{e}"))
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
