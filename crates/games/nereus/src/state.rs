//! The shared state: its types, the queries the rules and screens ask of it,
//! and the pieces of a turn.

use roundtable_engine::{CardHandle, DeckSlots, Seat, SeatSet};
use serde::{Deserialize, Serialize};

use crate::data::{self, Colour, Crew, HOLDS, Space};
use crate::{Cell, Dir};

/// Rule options.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// The 2-player neutral-ship variant (two seats only).
    #[serde(default)]
    pub neutral_ship: bool,
}

/// Who owns an action marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Owner {
    /// A player.
    Seat(Seat),
    /// The 2-player variant's neutral player.
    Neutral,
}

/// A piece on a cabin space: a treasure or a gem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Piece {
    /// A treasure.
    Treasure(Colour),
    /// A gem (wild).
    Gem,
}

/// One player's cabin.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cabin {
    /// Every hold's spaces, by crew row.
    pub holds: Vec<Vec<Option<Piece>>>,
    /// Completed holds (bit = crew row).
    pub complete: u8,
    /// The chest, by colour.
    pub chest: [Option<Piece>; 6],
    /// The storage spaces.
    pub store: [Option<Colour>; 6],
    /// Gems in storage.
    pub gems: u8,
}

impl Cabin {
    pub(crate) fn new() -> Cabin {
        let mut store = [None; 6];
        store[4] = Some(data::START_TREASURE);
        Cabin {
            holds: HOLDS.iter().map(|h| vec![None; h.icons.len()]).collect(),
            complete: 0,
            chest: [None; 6],
            store,
            gems: 0,
        }
    }

    /// Whether crew `crew`'s hold is complete.
    pub fn is_complete(&self, crew: Crew) -> bool {
        self.complete & (1 << crew.index()) != 0
    }

    /// Treasures (and gems) in holds not yet complete.
    pub fn in_incomplete_holds(&self) -> u32 {
        self.holds.iter().flatten().filter(|p| p.is_some()).count() as u32
    }

    pub(crate) fn treasures(&self, counts: &mut [u32; 6]) {
        let pieces = self.holds.iter().flatten().chain(self.chest.iter());
        for p in pieces {
            if let Some(Piece::Treasure(c)) = p {
                counts[c.index()] += 1;
            }
        }
        for c in self.store.iter().flatten() {
            counts[c.index()] += 1;
        }
    }
}

/// Where the turn is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// Before the action marker is placed.
    Before,
    /// The crew's actions are open.
    Crew,
    /// The crew's actions are done.
    After,
}

/// The turn being played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// Whose turn.
    pub seat: Seat,
    /// The crew played; `None` when its row was full.
    pub crew: Option<Crew>,
    /// The space the marker is on.
    pub space: Option<u8>,
    /// Where the turn is.
    pub stage: Stage,
    /// Basic action used.
    pub basic: bool,
    /// Gold action used.
    pub gold: bool,
    /// Enhanced action used.
    pub enhanced: bool,
    /// Treasure moves left to the boatswain's open action (its basic or
    /// gold action; each brings its own moves, none carries over).
    pub shifts: u8,
    /// Scientist's enhanced action: the science hand size before its draw
    /// (a discard is owed while the hand is larger).
    pub discard_over: Option<u8>,
    /// Treasures gained and not yet placed.
    pub hand: Vec<Colour>,
    /// Holds completed this turn (no enhanced action yet).
    pub fresh: u8,
    /// An explorer's extra turn (Phase III).
    pub extra: bool,
}

/// The phase of the day.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Dealing and filling the board.
    Setup,
    /// Phase II stage 1: crews being chosen.
    Choose,
    /// Phase II stage 2: turn `pos` of the cycle (hourglass first).
    Turns(u8),
    /// Phase III: explorer markers left to right, at `pos`.
    Explorer {
        /// Explorer-row markers, left to right.
        queue: Vec<Owner>,
        /// Whose extra turn is next.
        pos: u8,
    },
    /// Game end: seat by seat, game-end cards and selling.
    Final(u8),
    /// The game is over.
    Over,
}

/// The neutral player of the 2-player variant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Neutral {
    /// Its ship.
    pub ship: Cell,
    /// The compass disc, 0 = north, clockwise.
    pub compass: u8,
    /// Crew cards not flipped today.
    pub deck: Vec<Crew>,
}

/// Something the game waits for before anyone decides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Job {
    /// Shuffle the science discard pile into a deck.
    Reshuffle,
    /// Deal science cards.
    Deal {
        /// To whom.
        seat: Seat,
        /// How many are still owed.
        count: u32,
    },
    /// Pick the first player.
    FirstPlayer,
    /// Draw a treasure onto each of these spaces.
    Fill(Vec<Cell>),
    /// Flip the day's discovery card.
    Discovery,
    /// Draw treasures into the turn's hand.
    Draw(u32),
    /// Flip a neutral crew card (from the explorer row in Phase III).
    NeutralFlip {
        /// The flip moves the explorer marker.
        from_explorer: bool,
    },
    /// Roll the die for the neutral ship.
    NeutralRoll {
        /// Spaces it moves.
        distance: u8,
    },
}

/// The whole shared state. It holds no private identity: science cards in
/// hands are handles.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Nereus {
    /// Seats.
    pub seats: u8,
    /// Options.
    pub options: Options,
    /// Board size (square).
    pub size: u8,
    /// Treasures on every space (row-major), count per colour.
    pub board: Vec<[u8; 6]>,
    /// Every player's ship.
    pub ships: Vec<Cell>,
    /// The neutral player.
    pub neutral: Option<Neutral>,
    /// The bag, count per colour.
    pub bag: [u32; 6],
    /// Treasures the empty-bag sets brought that are out of the bag.
    pub extra_out: [u32; 6],
    /// Treasures out of the game.
    pub removed: [u32; 6],
    /// Empty-bag sets added.
    pub sets_added: u32,
    /// Discovery cards not used yet.
    pub discovery_left: Vec<u8>,
    /// Today's discovery card.
    pub discovery: Option<u8>,
    /// The day, from 0.
    pub day: u8,
    /// The cycle of Phase II, from 0.
    pub cycle: u8,
    /// Who holds the sun.
    pub sun: Seat,
    /// Who holds the hourglass.
    pub hourglass: Seat,
    /// Action markers, by crew row.
    pub markers: Vec<Vec<Option<Owner>>>,
    /// This cycle's chosen crews.
    pub chosen: Vec<Option<Crew>>,
    /// Crew cards played today (bit = row), per seat.
    pub played: Vec<u8>,
    /// Gold.
    pub gold: Vec<u32>,
    /// Victory points.
    pub vp: Vec<u32>,
    /// Science power.
    pub power: Vec<u8>,
    /// Cabins.
    pub cabins: Vec<Cabin>,
    /// Science hands.
    pub science: Vec<Vec<CardHandle>>,
    /// The science deck.
    pub deck: Option<DeckSlots>,
    /// The next shuffle's epoch.
    pub next_epoch: u16,
    /// Science cards face up (played or discarded), catalog indices.
    pub discard: Vec<u32>,
    /// The phase.
    pub phase: Phase,
    /// The turn being played.
    pub turn: Option<Turn>,
    /// What the game waits for first.
    pub jobs: Vec<Job>,
    /// Game end: per seat, storage spaces, chest spaces and gems a card used.
    pub end_used: Vec<(u8, u8, u8)>,
}

pub(crate) fn bit(crew: Crew) -> u8 {
    1 << crew.index()
}

impl Nereus {
    pub(crate) fn cell_index(&self, cell: Cell) -> usize {
        usize::from(cell.row) * usize::from(self.size) + usize::from(cell.col)
    }

    pub(crate) fn step(&self, cell: Cell, dir: Dir) -> Option<Cell> {
        let (dr, dc) = dir.delta();
        let row = i16::from(cell.row) + i16::from(dr);
        let col = i16::from(cell.col) + i16::from(dc);
        let size = i16::from(self.size);
        ((0..size).contains(&row) && (0..size).contains(&col)).then_some(Cell {
            row: row as u8,
            col: col as u8,
        })
    }

    /// The ship on `cell`, if any.
    pub fn ship_at(&self, cell: Cell) -> Option<Owner> {
        if let Some(i) = self.ships.iter().position(|&s| s == cell) {
            return Some(Owner::Seat(Seat(i as u8)));
        }
        self.neutral
            .as_ref()
            .filter(|n| n.ship == cell)
            .map(|_| Owner::Neutral)
    }

    /// Treasures on `cell`, count per colour.
    pub fn treasures_at(&self, cell: Cell) -> [u8; 6] {
        self.board[self.cell_index(cell)]
    }

    pub(crate) fn deck_left(&self) -> u32 {
        self.deck.map_or(0, |d| d.left())
    }

    pub(crate) fn bag_total(&self) -> u32 {
        self.bag.iter().sum()
    }

    /// Every treasure's place, per colour: bag, board, cabins, the turn's
    /// hand and out of the game. Always the 96 plus 8 per empty-bag set.
    pub fn census(&self) -> [u32; 6] {
        let mut counts = self.bag;
        for (c, n) in counts.iter_mut().enumerate() {
            *n += self.removed[c];
            *n += self.board.iter().map(|s| u32::from(s[c])).sum::<u32>();
        }
        for cabin in &self.cabins {
            cabin.treasures(&mut counts);
        }
        if let Some(turn) = &self.turn {
            for c in &turn.hand {
                counts[c.index()] += 1;
            }
        }
        counts
    }

    pub(crate) fn return_treasure(&mut self, colour: Colour) {
        let c = colour.index();
        if self.extra_out[c] > 0 {
            self.extra_out[c] -= 1;
            self.removed[c] += 1;
        } else {
            self.bag[c] += 1;
        }
    }

    pub(crate) fn take_from_bag(&mut self, colours: &[u32]) -> Vec<Colour> {
        colours
            .iter()
            .filter_map(|&i| Colour::from_index(i as usize))
            .inspect(|c| self.bag[c.index()] -= 1)
            .collect()
    }

    /// Space `index` of `crew`'s row on this game's board side.
    pub(crate) fn space(&self, crew: Crew, index: u8) -> Option<Space> {
        data::space(crew, self.seats, usize::from(index))
    }

    pub(crate) fn enhanced_ready(&self, seat: Seat, crew: Crew) -> bool {
        let fresh = self.turn.as_ref().map_or(0, |t| t.fresh);
        self.cabins[seat.index()].is_complete(crew) && fresh & bit(crew) == 0
    }

    /// The seat whose decision is due, if one is (not for simultaneous
    /// choices, which [`Game::next`](roundtable_engine::Game::next) reports as a set).
    pub fn decider(&self) -> Option<Seat> {
        if !self.jobs.is_empty() {
            return None;
        }
        match &self.phase {
            Phase::Turns(_) => self.turn.as_ref().map(|t| t.seat),
            Phase::Explorer { queue, pos } => match (&self.turn, queue.get(usize::from(*pos))) {
                (Some(t), _) => Some(t.seat),
                (None, Some(Owner::Seat(s))) => Some(*s),
                _ => None,
            },
            Phase::Final(s) => Some(Seat(*s)),
            _ => None,
        }
    }

    pub(crate) fn choosing(&self) -> SeatSet {
        if !self.jobs.is_empty() || self.phase != Phase::Choose {
            return SeatSet::EMPTY;
        }
        (0..self.seats)
            .filter(|&s| self.chosen[usize::from(s)].is_none())
            .fold(SeatSet::EMPTY, |set, s| set.with(Seat(s)))
    }

    pub(crate) fn free_space(&self, crew: Crew) -> Option<u8> {
        self.markers[crew.index()]
            .iter()
            .position(Option::is_none)
            .map(|i| i as u8)
    }

    pub(crate) fn explorer_cost(&self, seat: Seat) -> Option<u32> {
        self.markers[Crew::Explorer.index()]
            .iter()
            .position(|m| *m == Some(Owner::Seat(seat)))
            .map(|i| data::EXPLORER_TURN_COST[i])
    }

    pub(crate) fn explore_options(&self, seat: Seat) -> Vec<Crew> {
        let Some(cost) = self.explorer_cost(seat) else {
            return Vec::new();
        };
        if self.gold[seat.index()] < cost {
            return Vec::new();
        }
        Crew::ALL
            .into_iter()
            .filter(|&c| self.played[seat.index()] & bit(c) == 0 && self.free_space(c).is_some())
            .collect()
    }
}

impl Turn {
    /// `seat`'s turn with `crew` (`None`: its row was full, so the turn
    /// starts with the crew's actions done), before anything is taken;
    /// `extra` for an explorer's extra turn.
    pub fn new(seat: Seat, crew: Option<Crew>, extra: bool) -> Turn {
        Turn {
            seat,
            crew,
            space: None,
            stage: if crew.is_some() {
                Stage::Before
            } else {
                Stage::After
            },
            basic: false,
            gold: false,
            enhanced: false,
            shifts: 0,
            discard_over: None,
            hand: Vec::new(),
            fresh: 0,
            extra,
        }
    }
}
