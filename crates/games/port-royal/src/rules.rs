//! The rules: Discover, Trade & Hire, expeditions, taxes, the end of the game.
//!
//! The state moves in two kinds of steps. An input (a decision or a chance
//! outcome) is validated in full first and only then applied, so a refused
//! input never changes the state. Applying it queues *effects* (coins to
//! draw, a turn to end, ...) which [`PortRoyal::run`] resolves in order until
//! the game needs a decision or a chance outcome again; drawing coins may
//! have to stop half-way for a reshuffle whose spent coins must first be
//! revealed by chance.
//!
//! This file holds the state's types and its basic queries. The rest is one
//! concern a file: `player.rs` (a display and its counts), `check.rs` (costs
//! and the checks before an input), `apply.rs` (applying an action and its
//! effects), `turn.rs` (turns, rounds, running the effect queue),
//! `chance.rs` (chance outcomes), `conservation.rs` (the card-count check),
//! `expansion.rs` (the expansion's rules), `queue.rs` (the effect queue) and
//! `game.rs` (the `Game` impl with its playout fast paths).

mod apply;
mod chance;
mod check;
mod conservation;
mod expansion;
mod game;
mod player;
mod queue;
mod turn;

use roundtable_engine::{Deck, EpochId, FaceDown, Seat};
use serde::{Deserialize, Serialize};

use crate::Options;
use crate::catalog::CardId;
use crate::contracts::ContractId;
use crate::event::{CoinReason, Event};
use player::Player;
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

/// `index` (below twice `seats`) brought into `0..seats`: a seat index
/// counted on past the last seat, without a division.
fn wrap_seat(index: u8, seats: u8) -> u8 {
    if index >= seats { index - seats } else { index }
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
