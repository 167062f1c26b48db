//! What an observer may know: the public table, as the scenario JSON prints it.
//!
//! Port Royal has no private information: coins lie face down and nobody,
//! their owner included, knows their faces; the draw pile is a count. So a
//! seat's view is the public view plus who is looking, and neither holds the
//! identity of any unseen card — the state itself holds none.

use roundtable_engine::{Game, Observer, Seat};
use serde::{Serialize, Serializer};

use crate::ROUND_LIMIT;
use crate::catalog::CardId;
use crate::rules::{Phase, PortRoyal, TradeStage, Wait, wait_purpose};

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
    /// Completed contracts (the expansion), in the order completed.
    pub contracts: Vec<String>,
}

/// What the expansion adds to the table. Its fields appear at the top level
/// of the JSON (flattened), and only in games with the expansion, so a base
/// game's JSON is exactly what it was. Per-seat facts are lists in seat
/// order, like the scenario shorthand `coins = [3, 5, 3]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ExpansionView {
    /// The face-up contracts in the order laid out, with their cubes and the
    /// coins they pay next.
    pub contract_status: Vec<ContractView>,
    /// Contracts still face down (never revealed).
    pub contract_pile: u32,
    /// Per seat: cubes not yet on a contract.
    pub cubes: Vec<u32>,
    /// Per seat: progress cubes on multi-step contracts (Frigate Foe,
    /// Galleon Foe, Tiny Gamester).
    pub progress: Vec<Vec<ProgressView>>,
    /// Per seat (Pack of Pirates): repelled ships kept aside, one per colour.
    pub kept_aside: Vec<Vec<CardName>>,
    /// Per seat: victory points from contracts (already counted in `vp`).
    pub contract_vp: Vec<u32>,
}

/// A progress cube on a multi-step contract.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProgressView {
    /// The contract ("contract:frigate-foe").
    pub contract: String,
    /// Times its requirement was met so far (the space the cube is on).
    pub step: u8,
}

/// A face-up contract and the cubes on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ContractView {
    /// The contract ("contract:frigate-foe").
    pub name: String,
    /// The printed title ("Frigate Foe").
    pub title: &'static str,
    /// The seats that completed it, in the order they did.
    pub completed_by: Vec<SeatNumber>,
    /// Coins the next player to complete it gains (0 when its spaces pay none).
    pub next_coins: u32,
    /// Times the requirement must be met (3 for Frigate Foe, 2 for Galleon
    /// Foe and Tiny Gamester, else 1).
    pub steps: u8,
    /// Whether only the active player can complete it.
    pub active_only: bool,
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
    /// The round number, from 1: one turn of every seat, from the start
    /// player on (0 before the first turn).
    pub round: u32,
    /// The game ends after this round at the latest (the project's rule,
    /// `ROUND_LIMIT`).
    pub round_limit: u32,
    /// The victory points that make a round the last (option
    /// `victory_points`), so that every screen can say what the game is to.
    pub victory_points: u32,
    /// Whether a player also needs an expedition to end the game, and
    /// players with one rank above players without (option
    /// `expedition_required`).
    pub expedition_required: bool,
    /// Harbor cards in the order they appeared.
    pub harbor: Vec<CardName>,
    /// Face-up expeditions in the order they appeared.
    pub expeditions: Vec<CardName>,
    /// Face-up contracts (the expansion), in the order laid out.
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
    /// Whether this is the last round: someone has reached the victory
    /// points, or it is the round limit.
    pub last_round: bool,
    /// What chance outcome the game waits for, if any.
    pub waiting_for: Option<&'static str>,
    /// Who is looking: a seat, or `None` for a spectator.
    pub observer: Option<SeatNumber>,
    /// The expansion's contracts, cubes and ships kept aside; `None` (and
    /// absent from the JSON) in the base game.
    #[serde(flatten)]
    pub expansion: Option<ExpansionView>,
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
            round: game.round(),
            round_limit: ROUND_LIMIT,
            victory_points: game.options.victory_points,
            expedition_required: game.options.expedition_required,
            harbor: names(&game.harbor),
            expeditions: names(&game.expeditions),
            contracts: game.contracts.iter().map(|c| c.id.name()).collect(),
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
                    contracts: p.completed().iter().map(|c| c.name()).collect(),
                })
                .collect(),
            winners: game
                .result()
                .map(|r| r.winners().into_iter().map(SeatNumber).collect())
                .unwrap_or_default(),
            start_player: (game.waiting != Some(Wait::StartPlayer))
                .then_some(SeatNumber(game.start)),
            pending_ship,
            taker,
            takes_left,
            last_round: game.last_round(),
            waiting_for: game.waiting.map(wait_purpose),
            observer: match observer {
                Observer::Seat(s) => Some(SeatNumber(s)),
                Observer::Spectator => None,
            },
            expansion: game.options.expansion.then(|| ExpansionView::of(game)),
        }
    }
}

impl ExpansionView {
    fn of(game: &PortRoyal) -> ExpansionView {
        let players = &game.players;
        ExpansionView {
            contract_status: game
                .contracts
                .iter()
                .map(|c| ContractView {
                    name: c.id.name(),
                    title: c.id.contract().title,
                    completed_by: c.completed_by.iter().copied().map(SeatNumber).collect(),
                    next_coins: c.id.coins_for(c.completed_by.len()),
                    steps: c.id.requirement().steps(),
                    active_only: c.id.requirement().active_only(),
                })
                .collect(),
            contract_pile: game.contract_pile.iter().sum(),
            cubes: players.iter().map(|p| p.free_cubes()).collect(),
            progress: players
                .iter()
                .map(|p| {
                    p.progress()
                        .iter()
                        .map(|&(c, step)| ProgressView {
                            contract: c.name(),
                            step,
                        })
                        .collect()
                })
                .collect(),
            kept_aside: players
                .iter()
                .map(|p| p.kept_aside().iter().copied().map(CardName).collect())
                .collect(),
            contract_vp: players.iter().map(|p| p.contract_vp()).collect(),
        }
    }
}

/// A seat's display as everyone at the table sees it, read straight from the
/// state: the figures of its [`PlayerView`] that a search bot scores an
/// imagined position by, without building a whole [`View`] for each of the
/// thousands of positions it scores a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublicDisplay<'a> {
    /// Victory points, as [`PlayerView::vp`].
    pub vp: u32,
    /// How many coins the seat holds, as [`PlayerView::coins`].
    pub coins: u32,
    /// Hired persons in the order hired, as [`PlayerView::persons`].
    pub persons: &'a [CardId],
}

impl PortRoyal {
    /// Every seat's [`PublicDisplay`], the first seat first. Only what a
    /// spectator's view shows.
    pub fn public_displays(&self) -> impl ExactSizeIterator<Item = PublicDisplay<'_>> {
        self.players.iter().map(|p| PublicDisplay {
            vp: p.vp(),
            coins: p.coins(),
            persons: p.persons(),
        })
    }
}
