//! The rules: Discover, Trade & Hire, expeditions, taxes, the end of the game.
//!
//! The state moves in two kinds of steps. An input (a decision or a chance
//! outcome) is validated in full first and only then applied, so a refused
//! input never changes the state. Applying it queues *effects* (coins to
//! draw, a turn to end, ...) which [`PortRoyal::run`] resolves in order until
//! the game needs a decision or a chance outcome again; drawing coins may
//! have to stop half-way for a reshuffle whose spent coins must first be
//! revealed by chance.

mod expansion;
mod queue;

use roundtable_engine::{
    ChanceOutcome, ChanceRequest, Deck, Distribution, EpochId, FaceDown, Game, GameResult, Next,
    Observer, ParseError, Seat, SeatSet, SetupError, Standing,
};
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use crate::action::{Action, TakeMode};
use crate::catalog::{CATALOG, CardId, CardKind, Colour, PersonKind, TaxKind, deck_counts};
use crate::contracts::{CUBES, ContractId, FACE_UP_CONTRACTS, contract_pile, contract_vp};
use crate::error::RuleViolation;
use crate::event::{CoinReason, Event};
use crate::view::View;
use crate::{Options, ROUND_LIMIT};
use queue::EffectQueue;

/// Coins every player starts with.
const STARTING_COINS: u32 = 3;
/// A tax increase halves the coins of players holding at least this many.
const TAX_THRESHOLD: u32 = 12;
/// Harbor size from which Admirals pay.
const ADMIRAL_HARBOR: usize = 5;
/// Coins per Admiral.
const ADMIRAL_COINS: u32 = 2;
/// Harbor sizes at which Vice Admirals pay (expansion).
const VICE_ADMIRAL_HARBOR: std::ops::RangeInclusive<usize> = 3..=4;
/// Coins per Vice Admiral.
const VICE_ADMIRAL_COINS: u32 = 1;

/// One player's display.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Player {
    /// Face-down coins, by the epoch they were drawn in.
    pub(crate) coins: FaceDown,
    /// Hired persons in the order they were hired.
    persons: Vec<CardId>,
    /// Claimed expeditions in the order they were claimed.
    expeditions: Vec<CardId>,
    /// Abilities and points of the display, kept in step with it: the rules
    /// ask for them at nearly every input, and counting the persons each time
    /// was the largest cost in profiles of random games.
    tally: Tally,
    /// Expansion: the contracts this player completed, in the order completed
    /// (each holds one of the player's cubes).
    completed: Vec<ContractId>,
    /// Expansion: progress cubes, as (contract, times met so far), in the
    /// order placed. Each holds one of the player's cubes until the contract
    /// is completed, when the same cube moves onto its coin space.
    progress: Vec<(ContractId, u8)>,
    /// Expansion (Pack of Pirates): the first repelled ship of each colour,
    /// kept aside in front of the player until all five colours are there.
    kept_aside: Vec<CardId>,
}

/// Counts over a player's display.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Tally {
    /// Persons per kind, indexed by `PersonKind as usize`.
    kinds: [u8; 14],
    /// Traders per colour, indexed by `Colour as usize`.
    traders: [u8; 5],
    /// Clerks per colour, indexed by `Colour as usize` (expansion).
    clerks: [u8; 5],
    /// Persons per printed hire cost (the last entry counts every higher
    /// cost), for Cheap Staff.
    by_cost: [u8; COST_BUCKETS],
    /// Victory points of persons and expeditions.
    vp: u32,
}

/// Printed hire costs the tally tells apart (0 up to 15; the catalog's
/// highest is 9).
const COST_BUCKETS: usize = 16;

fn cost_bucket(cost: u8) -> usize {
    usize::from(cost).min(COST_BUCKETS - 1)
}

impl Tally {
    fn add(&mut self, card: CardId) {
        match card.kind() {
            CardKind::Person {
                kind,
                colour,
                cost,
                vp,
            } => {
                self.kinds[kind as usize] += 1;
                match (kind, colour) {
                    (PersonKind::Trader, Some(c)) => self.traders[c as usize] += 1,
                    (PersonKind::Clerk, Some(c)) => self.clerks[c as usize] += 1,
                    _ => {}
                }
                self.by_cost[cost_bucket(cost)] += 1;
                self.vp += u32::from(vp);
            }
            CardKind::Expedition { vp, .. } => self.vp += u32::from(vp),
            CardKind::Ship { .. } | CardKind::Tax(_) => {}
        }
    }

    fn remove(&mut self, card: CardId) {
        if let CardKind::Person {
            kind,
            colour,
            cost,
            vp,
        } = card.kind()
        {
            self.kinds[kind as usize] -= 1;
            match (kind, colour) {
                (PersonKind::Trader, Some(c)) => self.traders[c as usize] -= 1,
                (PersonKind::Clerk, Some(c)) => self.clerks[c as usize] -= 1,
                _ => {}
            }
            self.by_cost[cost_bucket(cost)] -= 1;
            self.vp -= u32::from(vp);
        }
    }
}

impl Player {
    pub(crate) fn coins(&self) -> u32 {
        self.coins.total()
    }

    pub(crate) fn persons(&self) -> &[CardId] {
        &self.persons
    }

    pub(crate) fn expeditions(&self) -> &[CardId] {
        &self.expeditions
    }

    fn hire(&mut self, card: CardId) {
        self.persons.push(card);
        self.tally.add(card);
    }

    fn dismiss(&mut self, position: usize) -> CardId {
        let card = self.persons.remove(position);
        self.tally.remove(card);
        card
    }

    fn add_expedition(&mut self, card: CardId) {
        self.expeditions.push(card);
        self.tally.add(card);
    }

    pub(crate) fn count(&self, kind: PersonKind) -> u32 {
        u32::from(self.tally.kinds[kind as usize])
    }

    pub(crate) fn swords(&self) -> u32 {
        self.count(PersonKind::Sailor) * PersonKind::Sailor.swords()
            + self.count(PersonKind::Pirate) * PersonKind::Pirate.swords()
    }

    /// Victory points: persons, expeditions and (expansion) contracts.
    pub(crate) fn vp(&self) -> u32 {
        self.tally.vp + self.contract_vp()
    }

    /// Victory points from completed contracts.
    pub(crate) fn contract_vp(&self) -> u32 {
        contract_vp(self.completed.len())
    }

    fn traders(&self, colour: Colour) -> u32 {
        u32::from(self.tally.traders[colour as usize])
    }

    fn clerks(&self, colour: Colour) -> u32 {
        u32::from(self.tally.clerks[colour as usize])
    }

    /// Persons whose printed hire cost is at most `max_cost`.
    fn persons_costing_at_most(&self, max_cost: u8) -> u32 {
        self.tally.by_cost[..=cost_bucket(max_cost)]
            .iter()
            .map(|&n| u32::from(n))
            .sum()
    }

    /// Completed contracts, in the order completed.
    pub(crate) fn completed(&self) -> &[ContractId] {
        &self.completed
    }

    /// Progress cubes: (contract, times met so far).
    pub(crate) fn progress(&self) -> &[(ContractId, u8)] {
        &self.progress
    }

    /// Ships kept aside for Pack of Pirates.
    pub(crate) fn kept_aside(&self) -> &[CardId] {
        &self.kept_aside
    }

    /// Cubes not on any contract yet.
    pub(crate) fn free_cubes(&self) -> u32 {
        CUBES.saturating_sub((self.completed.len() + self.progress.len()) as u32)
    }

    fn has_completed(&self, contract: ContractId) -> bool {
        self.completed.contains(&contract)
    }

    /// Times this player met a multi-step contract so far (0: no cube on it).
    fn progress_of(&self, contract: ContractId) -> u8 {
        self.progress
            .iter()
            .find(|(c, _)| *c == contract)
            .map_or(0, |&(_, step)| step)
    }

    /// Captains, Priests, Settlers and Jacks of all Trades.
    fn expedition_persons(&self) -> [u32; 4] {
        [
            PersonKind::Captain,
            PersonKind::Priest,
            PersonKind::Settler,
            PersonKind::Jack,
        ]
        .map(|k| self.count(k))
    }

    /// Whether this player has the persons an expedition needs.
    fn can_fulfil(&self, anchors: u8, crosses: u8, houses: u8) -> bool {
        fulfils(self.expedition_persons(), anchors, crosses, houses)
    }

    /// The positions of the persons this player discards for an expedition
    /// it can fulfil. Matching persons go first and Jacks of all Trades only
    /// cover what they lack: a Jack can stand in for any symbol, so keeping
    /// Jacks never leaves a player worse off. Kept inline: the catalog's
    /// dearest expedition asks for [`PAYMENT_INLINE`] persons at most, and a
    /// playout claims one or two expeditions a game.
    fn expedition_payment(&self, anchors: u8, crosses: u8, houses: u8) -> Payment {
        let mut chosen = Payment::new();
        let mut short = 0;
        for (kind, need) in [
            (PersonKind::Captain, anchors),
            (PersonKind::Priest, crosses),
            (PersonKind::Settler, houses),
        ] {
            let mut need = usize::from(need);
            for (i, c) in self.persons.iter().enumerate() {
                if need == 0 {
                    break;
                }
                if matches!(c.kind(), CardKind::Person { kind: k, .. } if k == kind) {
                    chosen.push(i);
                    need -= 1;
                }
            }
            short += need;
        }
        for (i, c) in self.persons.iter().enumerate() {
            if short == 0 {
                break;
            }
            if matches!(
                c.kind(),
                CardKind::Person {
                    kind: PersonKind::Jack,
                    ..
                }
            ) {
                chosen.push(i);
                short -= 1;
            }
        }
        chosen
    }
}

/// Persons a claim pays with, by position in the display.
type Payment = SmallVec<[usize; PAYMENT_INLINE]>;

/// The fewest and the most symbols (anchors, crosses, houses) an
/// expedition of the catalog needs.
const EXPEDITION_SYMBOLS: (u32, u32) = {
    let (mut fewest, mut most) = (u32::MAX, 0);
    let mut i = 0;
    while i < CATALOG.len() {
        if let CardKind::Expedition {
            anchors,
            crosses,
            houses,
            ..
        } = CATALOG[i].kind
        {
            let symbols = anchors as u32 + crosses as u32 + houses as u32;
            if symbols < fewest {
                fewest = symbols;
            }
            if symbols > most {
                most = symbols;
            }
        }
        i += 1;
    }
    (fewest, most)
};

/// The persons one claim discards at most.
const PAYMENT_INLINE: usize = EXPEDITION_SYMBOLS.1 as usize;

/// A seat with fewer Captains, Priests, Settlers and Jacks together than
/// this can claim no expedition.
const MIN_EXPEDITION_SYMBOLS: u32 = EXPEDITION_SYMBOLS.0;

/// `index` (below twice `seats`) brought into `0..seats`: a seat index
/// counted on past the last seat, without a division.
fn wrap_seat(index: u8, seats: u8) -> u8 {
    if index >= seats { index - seats } else { index }
}

/// Whether Captains, Priests, Settlers and Jacks (in that order) cover an
/// expedition's anchors, crosses and houses, Jacks standing in for any symbol.
fn fulfils(persons: [u32; 4], anchors: u8, crosses: u8, houses: u8) -> bool {
    let [captains, priests, settlers, jacks] = persons;
    let short = u32::from(anchors).saturating_sub(captains)
        + u32::from(crosses).saturating_sub(priests)
        + u32::from(houses).saturating_sub(settlers);
    short <= jacks
}

/// Where the rules report what happened: the caller's event list, or
/// nowhere when nobody reads it. Playouts (a bot's search, the benchmark)
/// read no events, and building, dropping and clearing them was an eighth
/// of a random game's time. Every rule is written once against this trait,
/// so the quiet path cannot apply an input differently from the recorded
/// one; [`record!`] builds an event only for a log that keeps it.
pub(crate) trait Log {
    /// Whether pushed events are kept.
    const RECORDS: bool;
    /// Record `event`.
    fn push(&mut self, event: Event);
}

impl Log for Vec<Event> {
    const RECORDS: bool = true;
    #[inline]
    fn push(&mut self, event: Event) {
        Vec::push(self, event);
    }
}

/// A [`Log`] that keeps nothing, for inputs whose events nobody reads.
pub(crate) struct Unrecorded;

impl Log for Unrecorded {
    const RECORDS: bool = false;
    #[inline]
    fn push(&mut self, _event: Event) {}
}

/// `record!(log, event)`: push `event` onto `log`, building it only if the
/// log keeps events.
macro_rules! record {
    ($log:expr, $event:expr) => {
        if log_records($log) {
            Log::push($log, $event);
        }
    };
}
pub(crate) use record;

/// Whether `log` keeps events (its type's [`Log::RECORDS`]), for [`record!`].
#[inline(always)]
pub(crate) fn log_records<L: Log>(_log: &L) -> bool {
    L::RECORDS
}

/// Where a Trade & Hire stands for the seat whose time it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum TradeStage {
    /// Bonuses that come "whenever it is your time to take" are still due.
    Bonus,
    /// The number of takes is still to be fixed.
    Offer,
    /// The seat decides; it may take this many more cards.
    Choosing { takes_left: u8 },
    /// The seat is done; the next seat's time comes.
    Done,
}

/// The phase of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Phase {
    /// Before the start player is known.
    Setup,
    /// The active seat discovers.
    Discover {
        /// Whether a card was drawn this turn.
        drawn: bool,
        /// A repellable ship just revealed, waiting for repel or keep.
        pending_ship: Option<CardId>,
        /// Reshuffles so far in this Discover.
        reshuffles: u8,
        /// An extra tax increase was resolved for the refill under way.
        extra_tax_armed: bool,
    },
    /// Trade & Hire: `taker` has its time to take.
    Trade { taker: Seat, stage: TradeStage },
    /// The game is over.
    Over,
}

impl Phase {
    fn discover() -> Phase {
        Phase::Discover {
            drawn: false,
            pending_ship: None,
            reshuffles: 0,
            extra_tax_armed: false,
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Phase::Setup => "setup",
            Phase::Discover { .. } => "discover",
            Phase::Trade { .. } => "trade",
            Phase::Over => "over",
        }
    }
}

/// A chance outcome the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Wait {
    /// The start player.
    StartPlayer,
    /// Expansion: a contract from the face-down contracts, laid face up.
    Contract,
    /// The top card of the draw pile, drawn in Discover.
    RevealTop,
    /// A spent coin of this epoch on the discard pile, before a reshuffle.
    RevealSpent(EpochId),
}

/// Work that follows from an input, resolved in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Effect {
    /// `seat` gains `n` coins from the draw pile.
    Coins {
        seat: Seat,
        n: u32,
        reason: CoinReason,
    },
    /// `from` pays `to` one coin (a compensation paid out of a ship's income).
    Compensate { from: Seat, to: Seat },
    /// Reveal the next card of the draw pile for Discover.
    RevealForDiscover,
    /// A resolved card goes onto the discard pile.
    Discard(CardId),
    /// The active seat's turn ends.
    EndTurn,
}

/// What refilling an empty draw pile came to.
enum Refill {
    /// The draw pile has cards again.
    Done,
    /// A spent coin must be revealed first.
    Waiting,
    /// Both piles are empty.
    Exhausted,
}

/// What a seat has to pay a harbor card with: its coins, the compensation
/// it owes per card, its Mademoiselles' discount and the coins the piles can
/// still pay out.
#[derive(Clone, Copy)]
struct Purse {
    coins: u32,
    compensation: u32,
    discount: u32,
    supply: u32,
}

impl Purse {
    /// Whether the seat can take `card`.
    fn affords(self, card: CardId) -> bool {
        self.unaffordable_cost(card).is_none()
    }

    /// The cost of `card` to the seat, compensation included, if it cannot
    /// pay it; `None` if it can.
    #[inline(always)]
    fn unaffordable_cost(self, card: CardId) -> Option<u32> {
        let facts = card.facts();
        if facts.person {
            let cost = u32::from(facts.hire_cost).saturating_sub(self.discount) + self.compensation;
            (self.coins < cost).then_some(cost)
        } else if facts.ship_bit != 0 {
            // A ship's own income may pay the compensation coin, as long as
            // the piles can still pay out at least one coin.
            let stuck = self.compensation != 0 && self.coins == 0 && self.supply == 0;
            stuck.then_some(self.compensation)
        } else {
            None
        }
    }
}

/// A face-up contract (expansion) and the cubes on its coin spaces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct FaceUpContract {
    /// Which contract.
    pub(crate) id: ContractId,
    /// The seats that completed it, in the order they did.
    pub(crate) completed_by: Vec<Seat>,
}

/// A game of Port Royal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PortRoyal {
    pub(crate) options: Options,
    pub(crate) seats: u8,
    pub(crate) deck: Deck,
    /// Face-up cards on the discard pile, per catalog index.
    pub(crate) discard_known: Vec<u32>,
    pub(crate) discard_known_total: u32,
    /// Spent coins on the discard pile, still face down.
    pub(crate) discard_unseen: FaceDown,
    pub(crate) harbor: Vec<CardId>,
    pub(crate) expeditions: Vec<CardId>,
    pub(crate) players: Vec<Player>,
    pub(crate) start: Seat,
    pub(crate) active: Seat,
    pub(crate) turn: u32,
    pub(crate) phase: Phase,
    effects: EffectQueue,
    pub(crate) waiting: Option<Wait>,
    pub(crate) end_triggered: bool,
    /// Turns in a row in which nothing could be drawn.
    idle_turns: u8,
    /// Expansion: the face-up contracts in the order they were laid out
    /// (empty in the base game).
    pub(crate) contracts: Vec<FaceUpContract>,
    /// Expansion: the face-down contracts, a count per contract table row
    /// (empty in the base game). Never revealed: they have no identity.
    pub(crate) contract_pile: Vec<u32>,
}

impl PortRoyal {
    pub(crate) fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }

    fn player_mut(&mut self, seat: Seat) -> &mut Player {
        &mut self.players[seat.index()]
    }

    /// Cards on the discard pile, face up or not.
    pub(crate) fn discard_total(&self) -> u32 {
        self.discard_known_total + self.discard_unseen.total()
    }

    fn discard(&mut self, card: CardId) {
        self.discard_known[usize::from(card.0)] += 1;
        self.discard_known_total += 1;
    }

    /// Every harbor card onto the discard pile, in harbor order. The harbor
    /// keeps its allocation: it fills again every turn, and a fresh one each
    /// time was most of a random game's allocations.
    fn discard_harbor(&mut self) {
        let Self {
            harbor,
            discard_known,
            discard_known_total,
            ..
        } = self;
        for c in harbor.drain(..) {
            discard_known[usize::from(c.0)] += 1;
            *discard_known_total += 1;
        }
    }

    fn harbor_colours(&self) -> u8 {
        self.harbor.iter().fold(0, |m, c| m | c.ship_bit())
    }

    fn harbor_has_duplicate_colour(&self) -> bool {
        let mut seen = 0u8;
        let mut twice = 0u8;
        for c in &self.harbor {
            let bit = c.ship_bit();
            twice |= seen & bit;
            seen |= bit;
        }
        twice != 0
    }

    fn qualifies_for_end(&self, seat: Seat) -> bool {
        let p = self.player(seat);
        p.vp() >= self.options.victory_points
            && (!self.options.expedition_required || !p.expeditions.is_empty())
    }

    fn check_end(&mut self, seat: Seat, events: &mut impl Log) {
        if !self.end_triggered && self.qualifies_for_end(seat) {
            self.end_triggered = true;
            record!(events, Event::EndTriggered { seat });
        }
    }

    /// Whether the active seat could reveal a card now: the draw pile has
    /// cards, a reshuffle can refill it, or the online table's extra tax
    /// increase would put hoarded coins on the discard pile.
    fn can_draw(&self) -> bool {
        let extra_tax_armed = matches!(
            self.phase,
            Phase::Discover {
                extra_tax_armed: true,
                ..
            }
        );
        self.deck.draw_pile() > 0
            || self.discard_total() > 0
            || (!extra_tax_armed && self.players.iter().any(|p| p.coins() >= TAX_THRESHOLD))
    }

    // ----- costs --------------------------------------------------------

    fn mademoiselle_discount(&self, seat: Seat) -> u32 {
        self.player(seat).count(PersonKind::Mademoiselle)
    }

    fn income(&self, seat: Seat, card: CardId) -> u32 {
        match card.kind() {
            CardKind::Ship { colour, coins, .. } => {
                u32::from(coins) + self.player(seat).traders(colour)
            }
            _ => 0,
        }
    }

    /// Coins a non-active taker pays the active seat per card.
    fn compensation(&self, seat: Seat) -> u32 {
        u32::from(seat != self.active)
    }

    /// What `seat` has to pay harbor cards with now. Legal actions and the
    /// automatic skip ask this of every harbor card, so it is gathered once.
    fn purse(&self, seat: Seat) -> Purse {
        Purse {
            coins: self.player(seat).coins(),
            compensation: self.compensation(seat),
            discount: self.mademoiselle_discount(seat),
            supply: self.deck.draw_pile() + self.discard_total(),
        }
    }

    /// Check that `seat` can take harbor card `card` now.
    fn check_affordable(&self, seat: Seat, card: CardId) -> Result<(), RuleViolation> {
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
    fn worthless_for(&self, seat: Seat, card: CardId) -> bool {
        seat != self.active
            && matches!(card.kind(), CardKind::Ship { .. })
            && self.income(seat, card) <= self.compensation(seat)
            // Declining it for a Foe contract is worth something.
            && !(self.options.expansion && self.check_decline(seat, card).is_ok())
    }

    fn can_take_something(&self, seat: Seat) -> bool {
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

    fn check_claim(&self, seat: Seat, position: u8) -> Result<(), RuleViolation> {
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
    fn claimable(&self, seat: Seat) -> u32 {
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
    fn claimable_with(&self, persons: [u32; 4]) -> u32 {
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
    fn can_claim_something(&self, seat: Seat) -> bool {
        self.claimable(seat) != 0
    }

    /// The seat that must decide now, if any.
    #[inline]
    fn decider(&self) -> Option<Seat> {
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

    // ----- validation ---------------------------------------------------

    fn check_action(&self, seat: Seat, action: Action) -> Result<(), RuleViolation> {
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

    // ----- applying -----------------------------------------------------

    fn perform(&mut self, seat: Seat, action: Action, events: &mut impl Log) {
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

    fn take_pending_ship(&mut self) -> Option<CardId> {
        match &mut self.phase {
            Phase::Discover { pending_ship, .. } => pending_ship.take(),
            _ => None,
        }
    }

    fn claim(&mut self, seat: Seat, position: u8, events: &mut impl Log) {
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

    fn take(&mut self, seat: Seat, position: u8, mode: TakeMode, events: &mut impl Log) {
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

    fn pay_compensation(&mut self, from: Seat, to: Seat, events: &mut impl Log) {
        // Straight from pile to pile, oldest coin first, with no coin pile
        // in between to allocate.
        if let Some(epoch) = self.player_mut(from).coins.take_oldest() {
            self.player_mut(to).coins.add(epoch, 1);
            record!(events, Event::Compensation { from, to });
        }
    }

    /// A ship goes into the harbor, unless one of its colour is there: bust.
    fn dock(&mut self, card: CardId, events: &mut impl Log) {
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

    fn bust(&mut self, card: CardId, events: &mut impl Log) {
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
    fn seats_from(&self, first: Seat) -> impl Iterator<Item = Seat> + use<> {
        let seats = self.seats;
        (0..seats).map(move |i| Seat(wrap_seat(first.0 + i, seats)))
    }

    /// The seat after `seat` in clockwise order: [`Seat::next`] for the
    /// seats of this table, without its division (the turn passes seat to
    /// seat several times an input).
    fn seat_after(&self, seat: Seat) -> Seat {
        Seat(wrap_seat(seat.0 + 1, self.seats))
    }

    /// A revealed card in Discover.
    fn discovered(&mut self, card: CardId, events: &mut impl Log) {
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
    fn tax(&mut self, card: Option<CardId>, events: &mut impl Log) {
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

    fn tax_bonus(&mut self, kind: TaxKind) {
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
    fn refill(&mut self, events: &mut impl Log) -> Refill {
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

    fn resolve(&mut self, effect: Effect, events: &mut impl Log) {
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
    fn begin(&mut self, events: &mut impl Log) {
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

    fn end_turn(&mut self, events: &mut impl Log) {
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
    fn advance(&mut self, events: &mut impl Log) -> bool {
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
    fn pay_time_to_take_bonuses(&mut self, taker: Seat) {
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
    fn takes(&self, taker: Seat) -> u8 {
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
    fn run(&mut self, events: &mut impl Log) {
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
    fn run_queued(&mut self, events: &mut impl Log) {
        while self.waiting.is_none() && !matches!(self.phase, Phase::Over) {
            if let Some(effect) = self.effects.pop_front() {
                self.resolve(effect, events);
            } else if !self.advance(events) {
                return;
            }
        }
    }

    /// Apply a chance outcome for `wait` that was checked (or sampled from
    /// the distribution) and resolve what follows.
    fn resolve_outcome(&mut self, wait: Wait, outcome: &ChanceOutcome, events: &mut impl Log) {
        self.waiting = None;
        match (wait, outcome) {
            (Wait::StartPlayer, ChanceOutcome::Index(i)) => {
                let seat = Seat(u8::try_from(*i).unwrap_or(0));
                self.start = seat;
                self.active = seat;
                record!(events, Event::StartPlayer { seat });
                if self.options.expansion {
                    self.waiting = Some(Wait::Contract);
                } else {
                    self.begin(events);
                }
            }
            (Wait::Contract, ChanceOutcome::Cards(cards)) => {
                if let Some(id) = cards.first().and_then(|&c| ContractId::from_index(c)) {
                    if let Some(n) = self.contract_pile.get_mut(usize::from(id.0)) {
                        *n = n.saturating_sub(1);
                    }
                    self.contracts.push(FaceUpContract {
                        id,
                        completed_by: Vec::new(),
                    });
                    record!(events, Event::ContractRevealed { contract: id });
                }
                if self.contracts.len() < FACE_UP_CONTRACTS {
                    self.waiting = Some(Wait::Contract);
                } else {
                    self.begin(events);
                }
            }
            (Wait::RevealTop, ChanceOutcome::Cards(cards)) => {
                self.top_revealed(cards.first().copied(), events);
            }
            (Wait::RevealSpent(epoch), ChanceOutcome::Cards(cards)) => {
                self.spent_revealed(epoch, cards.first().copied(), events);
            }
            // The outcome was admitted by the distribution, so its kind matches.
            _ => {}
        }
        self.run(events);
    }

    /// The top card of the draw pile turned out to be catalog index `card`.
    #[inline(always)]
    fn top_revealed(&mut self, card: Option<u32>, events: &mut impl Log) {
        if let Some(card) = card.and_then(CardId::from_index)
            && self.deck.reveal_top(u32::from(card.0)).is_ok()
        {
            self.discovered(card, events);
        }
    }

    /// A spent coin of `epoch` turned out to be catalog index `card`.
    #[inline(always)]
    fn spent_revealed(&mut self, epoch: EpochId, card: Option<u32>, events: &mut impl Log) {
        if let Some(card) = card.and_then(CardId::from_index)
            && self.deck.reveal_held(epoch, u32::from(card.0)).is_ok()
        {
            self.discard_unseen.take_oldest();
            self.discard(card);
            record!(events, Event::SpentCoinRevealed { card });
        }
    }

    fn check_outcome(&self, outcome: &ChanceOutcome) -> Result<Wait, RuleViolation> {
        let wait = self.waiting.ok_or(RuleViolation::NoChancePending)?;
        if self.chance_distribution(wait).admits(outcome) {
            Ok(wait)
        } else {
            Err(RuleViolation::ImpossibleOutcome(self.outcome_name(outcome)))
        }
    }

    #[inline]
    fn chance_distribution(&self, wait: Wait) -> Distribution<'_> {
        match wait {
            Wait::StartPlayer => Distribution::Uniform {
                n: u64::from(self.seats),
            },
            // Four draws a game: not worth a total kept in the state.
            Wait::Contract => Distribution::multiset(&self.contract_pile, 1),
            Wait::RevealTop => self.deck.top_distribution(),
            Wait::RevealSpent(epoch) => self.deck.held_distribution(epoch),
        }
    }

    /// Check that every card is in exactly one place: each face-up card is
    /// counted where it lies (ships kept aside for Pack of Pirates too), and
    /// each epoch's unseen multiset has exactly as many cards as lie face
    /// down from that epoch (draw pile, coin piles, spent coins). With the
    /// expansion, every contract is face up or face down exactly once and
    /// every cube on exactly one contract ([`Self::check_contracts`]).
    /// Property tests and audits call this after every input.
    pub fn check_conservation(&self) -> Result<(), String> {
        self.check_contracts()?;
        let mut expected = deck_counts(self.options.expansion);
        if self.seats == 5 {
            for c in CardId::all() {
                if matches!(
                    c.kind(),
                    CardKind::Expedition {
                        five_players: true,
                        ..
                    }
                ) {
                    expected[usize::from(c.0)] += 1;
                }
            }
        }
        let mut found = self.discard_known.clone();
        let pending = match self.phase {
            Phase::Discover { pending_ship, .. } => pending_ship,
            _ => None,
        };
        // A tax card lies on the table until its bonus is paid.
        let resolving = self.effects.iter().filter_map(|e| match e {
            Effect::Discard(card) => Some(card),
            _ => None,
        });
        let face_up = self
            .harbor
            .iter()
            .chain(&self.expeditions)
            .chain(pending.iter())
            .chain(resolving)
            .chain(
                self.players
                    .iter()
                    .flat_map(|p| p.persons.iter().chain(&p.expeditions).chain(&p.kept_aside)),
            );
        for c in face_up {
            found[usize::from(c.0)] += 1;
        }
        let pool = self.deck.pool();
        for e in 0..pool.epoch_count() {
            let epoch = EpochId(e as u16);
            for (i, n) in pool.unseen(epoch).iter().enumerate() {
                found[i] += n;
            }
            let face_down = self
                .players
                .iter()
                .map(|p| p.coins.count(epoch))
                .sum::<u32>()
                + self.discard_unseen.count(epoch)
                + if epoch == self.deck.draw_epoch() {
                    self.deck.draw_pile()
                } else {
                    0
                };
            if face_down != pool.unseen_total(epoch) {
                return Err(format!(
                    "epoch {e}: {} unseen cards but {face_down} lie face down",
                    pool.unseen_total(epoch)
                ));
            }
        }
        for (seat, p) in self.players.iter().enumerate() {
            let mut tally = Tally::default();
            for &c in p.persons.iter().chain(&p.expeditions) {
                tally.add(c);
            }
            if tally != p.tally {
                return Err(format!(
                    "seat {}: the tally does not match the display",
                    seat + 1
                ));
            }
        }
        let known: u32 = self.discard_known.iter().sum();
        if known != self.discard_known_total {
            return Err(format!(
                "discard pile counts {known} face-up cards but records {}",
                self.discard_known_total
            ));
        }
        for c in CardId::all() {
            let i = usize::from(c.0);
            if found[i] != expected[i] {
                return Err(format!(
                    "{c}: {} in play, {} in the game",
                    found[i], expected[i]
                ));
            }
        }
        Ok(())
    }

    /// The current phase (for views).
    pub(crate) fn phase(&self) -> Phase {
        self.phase
    }

    /// The ranking key of a seat: the expedition (in that variant), VP, coins.
    fn rank_key(&self, seat: Seat) -> (bool, u32, u32) {
        let p = self.player(seat);
        (
            self.options.expedition_required && !p.expeditions.is_empty(),
            p.vp(),
            p.coins(),
        )
    }
}

pub(crate) fn wait_purpose(wait: Wait) -> &'static str {
    match wait {
        Wait::StartPlayer => "choose the start player",
        Wait::Contract => "lay out a face-up contract",
        Wait::RevealTop => "reveal the top card of the draw pile",
        Wait::RevealSpent(_) => "reveal a spent coin before the reshuffle",
    }
}

impl Game for PortRoyal {
    const NAME: &'static str = "port-royal";
    const MIN_SEATS: u8 = 2;
    const MAX_SEATS: u8 = 5;

    type Options = Options;
    type Action = Action;
    type Event = Event;
    type View = View;
    type Error = RuleViolation;

    fn new_game(seats: u8, options: &Options) -> Result<Self, SetupError> {
        SetupError::check_seats::<Self>(seats)?;
        options.validate()?;
        let counts = deck_counts(options.expansion);
        let catalog_len = counts.len();
        let mut deck = Deck::new(counts);
        let mut players = vec![Player::default(); usize::from(seats)];
        for p in &mut players {
            for _ in 0..STARTING_COINS {
                if let Some(epoch) = deck.draw_face_down() {
                    p.coins.add(epoch, 1);
                }
            }
        }
        let expeditions = if seats == 5 {
            CardId::all()
                .filter(|c| {
                    matches!(
                        c.kind(),
                        CardKind::Expedition {
                            five_players: true,
                            ..
                        }
                    )
                })
                .collect()
        } else {
            Vec::new()
        };
        Ok(PortRoyal {
            options: options.clone(),
            seats,
            deck,
            discard_known: vec![0; catalog_len],
            discard_known_total: 0,
            discard_unseen: FaceDown::default(),
            harbor: Vec::new(),
            expeditions,
            players,
            start: Seat(0),
            active: Seat(0),
            turn: 0,
            phase: Phase::Setup,
            effects: EffectQueue::default(),
            waiting: Some(Wait::StartPlayer),
            end_triggered: false,
            idle_turns: 0,
            contracts: Vec::new(),
            contract_pile: if options.expansion {
                contract_pile()
            } else {
                Vec::new()
            },
        })
    }

    // Inlined into the driver's loop: it returns a large enum the loop
    // matches on at once, once an input in a playout.
    #[inline]
    fn next(&self) -> Next<'_> {
        if let Some(wait) = self.waiting {
            return Next::Chance(ChanceRequest {
                purpose: wait_purpose(wait),
                distribution: self.chance_distribution(wait),
            });
        }
        match self.decider() {
            Some(seat) => Next::Decision(seat),
            None => Next::Over,
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        if self.decider() != Some(seat) {
            return;
        }
        // Positions in ascending order, visiting only the claimable ones.
        // Inlined: as a closure it was a call at every decision.
        #[inline(always)]
        fn claims(game: &PortRoyal, seat: Seat, out: &mut Vec<Action>) {
            let mut set = game.claimable(seat);
            while set != 0 {
                out.push(Action::Claim(set.trailing_zeros() as u8));
                set &= set - 1;
            }
        }
        match self.phase {
            Phase::Discover {
                pending_ship: Some(_),
                ..
            } => {
                out.push(Action::Repel);
                out.push(Action::Keep);
            }
            Phase::Discover { drawn, .. } => {
                let can_draw = self.can_draw();
                if can_draw {
                    out.push(Action::Draw);
                }
                if drawn || !can_draw {
                    out.push(Action::Stop);
                }
                claims(self, seat, out);
            }
            Phase::Trade {
                stage: TradeStage::Choosing { takes_left },
                ..
            } => {
                claims(self, seat, out);
                let purse = self.purse(seat);
                if takes_left > 0 && self.options.expansion {
                    for (i, c) in self.harbor.iter().enumerate() {
                        if purse.affords(*c) {
                            self.expansion_takes(seat, i as u8, *c, out);
                        }
                    }
                } else if takes_left > 0 {
                    for (i, c) in self.harbor.iter().enumerate() {
                        if purse.affords(*c) {
                            out.push(Action::Take(i as u8, TakeMode::Normal));
                        }
                    }
                }
                out.push(Action::Pass);
            }
            _ => {}
        }
    }

    fn apply_action(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleViolation> {
        self.check_action(seat, *action)?;
        self.perform(seat, *action, events);
        self.run(events);
        Ok(())
    }

    fn apply_chance(
        &mut self,
        outcome: &ChanceOutcome,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleViolation> {
        let wait = self.check_outcome(outcome)?;
        self.resolve_outcome(wait, outcome, events);
        Ok(())
    }

    /// Playouts skip the check of the action and its events; a debug build
    /// still checks it, so a caller that passes an unlisted action fails
    /// its tests.
    fn apply_legal_action(
        &mut self,
        seat: Seat,
        action: &Action,
        _scratch: &mut Vec<Event>,
    ) -> Result<(), RuleViolation> {
        debug_assert_eq!(self.check_action(seat, *action), Ok(()));
        self.perform(seat, *action, &mut Unrecorded);
        self.run(&mut Unrecorded);
        Ok(())
    }

    /// Playouts skip the check of the outcome against the distribution and
    /// its events (a debug build still checks it); that a chance outcome is
    /// pending at all is still checked, as it costs nothing.
    fn apply_sampled_chance(
        &mut self,
        outcome: &ChanceOutcome,
        _scratch: &mut Vec<Event>,
    ) -> Result<(), RuleViolation> {
        debug_assert_eq!(self.check_outcome(outcome).map(|_| ()), Ok(()));
        let wait = self.waiting.ok_or(RuleViolation::NoChancePending)?;
        self.resolve_outcome(wait, outcome, &mut Unrecorded);
        Ok(())
    }

    /// The card revealed from the draw pile or a spent coin is sampled
    /// straight from its epoch's unseen cards; the start player and the
    /// face-up contracts (five draws a game) take the general path.
    #[inline]
    fn apply_random_chance(
        &mut self,
        uniform: &mut impl FnMut(u64) -> u64,
        outcome: &mut ChanceOutcome,
        scratch: &mut Vec<Event>,
    ) -> Option<Result<(), RuleViolation>> {
        let (epoch, top) = match self.waiting? {
            Wait::RevealTop => (self.deck.draw_epoch(), true),
            Wait::RevealSpent(epoch) => (epoch, false),
            Wait::StartPlayer | Wait::Contract => {
                return roundtable_engine::sim::apply_next_chance(self, uniform, outcome, scratch);
            }
        };
        let card = self.deck.sample_held(epoch, uniform);
        self.waiting = None;
        if top {
            self.top_revealed(card, &mut Unrecorded);
        } else {
            self.spent_revealed(epoch, card, &mut Unrecorded);
        }
        self.run(&mut Unrecorded);
        Some(Ok(()))
    }

    fn view(&self, observer: Observer) -> View {
        View::of(self, observer)
    }

    /// Most victory points, then most coins (with "expedition required",
    /// players with an expedition first); tied players share the place.
    fn standing(&self) -> GameResult {
        let standings = self
            .seats_from(Seat(0))
            .map(|seat| {
                let key = self.rank_key(seat);
                let better = self
                    .seats_from(Seat(0))
                    .filter(|&o| self.rank_key(o) > key)
                    .count();
                let p = self.player(seat);
                Standing {
                    seat,
                    rank: better as u8,
                    score: i64::from(p.vp()),
                    tie_break: i64::from(p.coins()),
                }
            })
            .collect();
        GameResult { standings }
    }

    /// A forfeited seat takes nothing and risks nothing: it passes, stops as
    /// soon as it may, keeps a ship it could repel (repelling would be a
    /// choice), and draws only when it must.
    fn zombie_action(&self, seat: Seat) -> Option<Action> {
        let mut legal = Vec::new();
        self.legal_actions(seat, &mut legal);
        [Action::Pass, Action::Stop, Action::Keep, Action::Draw]
            .into_iter()
            .find(|a| legal.contains(a))
            .or_else(|| legal.first().copied())
    }

    fn parse_action(text: &str) -> Result<Action, ParseError> {
        Action::parse(text)
    }

    fn parse_outcome(&self, text: &str) -> Result<ChanceOutcome, ParseError> {
        let text = text.trim();
        if let Some(n) = text.strip_prefix("seat:") {
            let seat = n
                .parse::<u64>()
                .ok()
                .and_then(|n| n.checked_sub(1))
                .ok_or_else(|| ParseError::new(text, "seats count from 1"))?;
            return Ok(ChanceOutcome::Index(seat));
        }
        // Contracts and cards are rows of two different tables, so the same
        // index means a contract while contracts are laid out and a card
        // otherwise: a name of the other kind is refused here rather than
        // read as the wrong thing.
        let laying_out = self.waiting == Some(Wait::Contract);
        if text.starts_with("contract:") {
            let contract = ContractId::parse(text)
                .ok_or_else(|| ParseError::new(text, "not a contract name"))?;
            if !laying_out {
                return Err(ParseError::new(
                    text,
                    "a contract, but the game does not wait for a contract",
                ));
            }
            return Ok(ChanceOutcome::Cards(vec![u32::from(contract.0)]));
        }
        let card = CardId::parse(text)
            .ok_or_else(|| ParseError::new(text, "not a card name, contract:NAME or seat:N"))?;
        if laying_out {
            return Err(ParseError::new(
                text,
                "a card, but the game waits for a face-up contract",
            ));
        }
        Ok(ChanceOutcome::Cards(vec![u32::from(card.0)]))
    }

    fn outcome_name(&self, outcome: &ChanceOutcome) -> String {
        match outcome {
            ChanceOutcome::Index(i) => format!("seat:{}", i + 1),
            ChanceOutcome::Cards(cards) if self.waiting == Some(Wait::Contract) => cards
                .iter()
                .map(|&c| {
                    ContractId::from_index(c).map_or_else(|| format!("contract#{c}"), |c| c.name())
                })
                .collect::<Vec<_>>()
                .join(","),
            ChanceOutcome::Cards(cards) => cards
                .iter()
                .map(|&c| CardId::from_index(c).map_or_else(|| format!("card#{c}"), |c| c.name()))
                .collect::<Vec<_>>()
                .join(","),
        }
    }
}
