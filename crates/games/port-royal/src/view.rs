//! What an observer may know: the public table, as the scenario JSON prints it.
//!
//! Port Royal has no private information: coins lie face down and nobody,
//! their owner included, knows their faces; the draw pile is a count. So a
//! seat's view is the public view plus who is looking, and neither holds the
//! identity of any unseen card — the state itself holds none.

use roundtable_engine::{Game, Observer, Seat};
use serde::{Serialize, Serializer};

use crate::catalog::CardId;
use crate::rules::{Phase, PortRoyal, TradeStage, wait_purpose};

/// A card, shown by its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardName(pub CardId);

impl Serialize for CardName {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0)
    }
}

/// A seat, shown by its number counted from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatNumber(pub Seat);

impl Serialize for SeatNumber {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(self.0.number())
    }
}

/// One player's public display.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    /// Coins (face-down cards).
    pub coins: u32,
    /// Victory points.
    pub vp: u32,
    /// Swords.
    pub swords: u32,
    /// Persons in hire order.
    pub persons: Vec<CardName>,
    /// Claimed expeditions.
    pub expeditions: Vec<CardName>,
    /// Completed contracts (the expansion).
    pub contracts: Vec<String>,
}

/// The table as one observer sees it; serialises to the scenario JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    /// Always "port-royal".
    pub game: &'static str,
    /// Seats at the table.
    pub seats: u8,
    /// The active seat.
    pub active: SeatNumber,
    /// "setup", "discover", "trade" or "over".
    pub phase: &'static str,
    /// The turn number, from 1.
    pub turn: u32,
    /// Harbor cards in the order they appeared.
    pub harbor: Vec<CardName>,
    /// Face-up expeditions in the order they appeared.
    pub expeditions: Vec<CardName>,
    /// Face-up contracts (the expansion).
    pub contracts: Vec<String>,
    /// Cards in the draw pile.
    pub draw_pile: u32,
    /// Cards on the discard pile (face up or spent coins).
    pub discard_pile: u32,
    /// Every player's display, in seat order.
    pub players: Vec<PlayerView>,
    /// The winners, once the game is over.
    pub winners: Vec<SeatNumber>,
    /// The start player, once chosen.
    pub start_player: Option<SeatNumber>,
    /// A revealed ship waiting for repel or keep.
    pub pending_ship: Option<CardName>,
    /// Whose time to take it is in Trade & Hire.
    pub taker: Option<SeatNumber>,
    /// How many more cards the taker may take.
    pub takes_left: Option<u8>,
    /// Whether someone has reached the victory points: this is the last round.
    pub last_round: bool,
    /// What chance outcome the game waits for, if any.
    pub waiting_for: Option<&'static str>,
    /// Who is looking: a seat, or `None` for a spectator.
    pub observer: Option<SeatNumber>,
}

impl View {
    pub(crate) fn of(game: &PortRoyal, observer: Observer) -> View {
        let names = |cards: &[CardId]| cards.iter().copied().map(CardName).collect::<Vec<_>>();
        let phase = game.phase();
        let (pending_ship, taker, takes_left) = match phase {
            Phase::Discover { pending_ship, .. } => (pending_ship.map(CardName), None, None),
            Phase::Trade { taker, stage } => {
                let takes = match stage {
                    TradeStage::Choosing { takes_left } => Some(takes_left),
                    _ => None,
                };
                (None, Some(SeatNumber(taker)), takes)
            }
            Phase::Setup | Phase::Over => (None, None, None),
        };
        View {
            game: PortRoyal::NAME,
            seats: game.seats,
            active: SeatNumber(game.active),
            phase: phase.name(),
            turn: game.turn,
            harbor: names(&game.harbor),
            expeditions: names(&game.expeditions),
            contracts: Vec::new(),
            draw_pile: game.deck.draw_pile(),
            discard_pile: game.discard_total(),
            players: game
                .players
                .iter()
                .map(|p| PlayerView {
                    coins: p.coins(),
                    vp: p.vp(),
                    swords: p.swords(),
                    persons: names(p.persons()),
                    expeditions: names(p.expeditions()),
                    contracts: Vec::new(),
                })
                .collect(),
            winners: game
                .result()
                .map(|r| r.winners().into_iter().map(SeatNumber).collect())
                .unwrap_or_default(),
            start_player: (phase != Phase::Setup).then_some(SeatNumber(game.start)),
            pending_ship,
            taker,
            takes_left,
            last_round: game.end_triggered,
            waiting_for: game.waiting.map(wait_purpose),
            observer: match observer {
                Observer::Seat(s) => Some(SeatNumber(s)),
                Observer::Spectator => None,
            },
        }
    }
}
