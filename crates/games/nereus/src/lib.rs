//! Waters of Nereus (Steve Finn; 2-4 players) as a roundtable [`Game`].
//!
//! The rules are Yucata's rules page, the data what the project gathered
//! around it (`docs/RULES.md` says which is which). Every
//! printed value is a table in [`data`]; the rules code reads only those.
//!
//! # Reconstructions
//!
//! The board, the discovery cards, the hold icons and the treasure chest
//! exist only in pictures nobody could find. These values are
//! reconstructions, each pinned by a scenario under
//! `tests/scenarios/nereus/` (file names start `reconstruction-`):
//!
//! * board sides: 6x6 for 4 players, 5x5 for 2-3 (the neutral ship's
//!   "centre" needs an odd size), no islands ([`data::SIDE_FOUR`],
//!   [`data::SIDE_TWO_THREE`]);
//! * start corners in seat order clockwise from the top-left
//!   ([`data::start_corner`]);
//! * the 2-3 player side's rows: the first three 4-player spaces, the
//!   scientist's third reading "advance 1 or draw 1" ([`data::spaces`]);
//! * the discovery masks: every cell checked on exactly 4 of the 12 cards,
//!   made once by `data/discovery_masks.py` ([`data::DISCOVERY_SIX`],
//!   [`data::DISCOVERY_FIVE`]);
//! * every hold's icons and VP except the captain's (12 VP, black, purple,
//!   red, green), the purser's "all different", the merchant's "all the
//!   same" and the scientist's 5 VP ([`data::HOLDS`]);
//! * the chest: one space per colour; white 2 gold + 1 VP, red 3 VP,
//!   purple 4 VP, black 5 VP (yellow 3 gold + 2 VP and green one treasure
//!   are stated) ([`data::CHEST`]);
//! * the explorer's fourth space costs 5 gold in Phase III
//!   ([`data::EXPLORER_TURN_COST`]);
//! * 5 starting gold and 2 starting science cards ([`data::START_GOLD`],
//!   [`data::START_SCIENCE`]); a random first player takes the sun and the
//!   hourglass.
//!
//! # Decisions on gaps the text leaves
//!
//! * **A full row**: a player whose chosen crew has no free space places no
//!   marker and takes no crew action; the card still counts as played. The
//!   neutral ship flips its next card instead.
//! * **Passing a ship one cannot pay for**: the move is refused
//!   (`not-enough-gold`). Passing the neutral ship costs 1 gold to the bank.
//! * **A pilot's path** may not visit a space twice.
//! * **Treasures left in hand** at the end of a turn go back to the bag.
//! * **The empty science deck** is reshuffled from the discard pile; with
//!   no discards no card is drawn. Discarded and played science cards are
//!   face up (the scientist's enhanced discard too).
//! * **The empty bag's set**: eight treasures are added; when a treasure of
//!   a colour the set brought is later returned, it leaves the game instead
//!   of going back to the bag (as many of each colour as the set brought).
//! * **Crew actions are one block**: after the marker is placed the crew's
//!   basic, gold and enhanced actions follow in any order until `done`;
//!   selling, gems-for-treasures and science cards wait before or after the
//!   block. Placing treasures from the hand and moving a gem out of storage
//!   are allowed at any time of one's own turn. The boatswain's basic and
//!   gold moves share one count of treasure moves.
//! * **Selling and game-end cards** happen in one's own turn, and at game
//!   end in seat order (Final phase), not between other players' turns.
//! * **Ties**: the standing's tie-break is completed holds x 1000 +
//!   treasures in incomplete holds.
//!
//! # Secrets
//!
//! Crew choices come through [`Next::Simultaneous`]; science cards are
//! private handles ([`PrivateRequest`]); the bag, the discovery stack and
//! the neutral ship are chance requests answered by the table's beacon.

use roundtable_engine::{
    CardHandle, ChanceOutcome, ChanceRequest, Determinize, Distribution, EpochId, Game, GameResult,
    Knowledge, Next, Observer, ParseError, PrivateError, PrivateRequest, Revealed, Seat, SeatSet,
    SetupError, Standing,
};
use serde::{Deserialize, Serialize};

pub mod action;
pub mod data;
mod error;
#[cfg(feature = "scenario")]
pub mod scenario;

pub use action::{Action, Aim, Cell, Dir, Half, Slot};
pub use data::{Colour, Crew, Science, Space};
pub use error::NereusError;

use NereusError as E;
use data::{CHEST, HOLDS, HoldRule, STORAGE};

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
    fn new() -> Cabin {
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

    fn treasures(&self, counts: &mut [u32; 6]) {
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
    /// Boatswain treasure moves left.
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

/// The science deck's slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckSlots {
    /// The deck's epoch.
    pub epoch: EpochId,
    /// Slots in it.
    pub size: u32,
    /// The next slot to deal.
    pub next: u32,
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

/// What happened, for logs and screens.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Event {
    /// A seat acted.
    Acted(Seat, String),
    /// Treasures were drawn.
    Drawn(Vec<Colour>),
    /// A chance step.
    Chance(String),
    /// Science cards were dealt.
    Dealt(Seat, u32),
    /// The science deck was shuffled.
    Shuffled(u32),
    /// A hold was completed.
    HoldComplete(Seat, Crew),
}

/// What one observer may see.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    /// The shared state, other seats' secret crew choices hidden.
    pub game: Nereus,
    /// The observer's own science cards, with the ones it knows.
    pub my_science: Vec<(CardHandle, Option<u32>)>,
}

fn bit(crew: Crew) -> u8 {
    1 << crew.index()
}

impl Nereus {
    fn cell_index(&self, cell: Cell) -> usize {
        usize::from(cell.row) * usize::from(self.size) + usize::from(cell.col)
    }

    fn step(&self, cell: Cell, dir: Dir) -> Option<Cell> {
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

    fn deck_left(&self) -> u32 {
        self.deck.map_or(0, |d| d.size - d.next)
    }

    fn bag_total(&self) -> u32 {
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

    fn return_treasure(&mut self, colour: Colour) {
        let c = colour.index();
        if self.extra_out[c] > 0 {
            self.extra_out[c] -= 1;
            self.removed[c] += 1;
        } else {
            self.bag[c] += 1;
        }
    }

    fn take_from_bag(&mut self, colours: &[u32]) -> Vec<Colour> {
        colours
            .iter()
            .filter_map(|&i| Colour::from_index(i as usize))
            .inspect(|c| self.bag[c.index()] -= 1)
            .collect()
    }

    fn spaces(&self, crew: Crew) -> Vec<Space> {
        data::spaces(crew, self.seats)
    }

    fn enhanced_ready(&self, seat: Seat, crew: Crew) -> bool {
        let fresh = self.turn.as_ref().map_or(0, |t| t.fresh);
        self.cabins[seat.index()].is_complete(crew) && fresh & bit(crew) == 0
    }

    /// The seat whose decision is due, if one is (not for simultaneous
    /// choices, which [`Game::next`] reports as a set).
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

    fn choosing(&self) -> SeatSet {
        if !self.jobs.is_empty() || self.phase != Phase::Choose {
            return SeatSet::EMPTY;
        }
        (0..self.seats)
            .filter(|&s| self.chosen[usize::from(s)].is_none())
            .fold(SeatSet::EMPTY, |set, s| set.with(Seat(s)))
    }

    fn free_space(&self, crew: Crew) -> Option<u8> {
        self.markers[crew.index()]
            .iter()
            .position(Option::is_none)
            .map(|i| i as u8)
    }

    fn explorer_cost(&self, seat: Seat) -> Option<u32> {
        self.markers[Crew::Explorer.index()]
            .iter()
            .position(|m| *m == Some(Owner::Seat(seat)))
            .map(|i| data::EXPLORER_TURN_COST[i])
    }

    fn explore_options(&self, seat: Seat) -> Vec<Crew> {
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

    /// Move past every state that needs no input.
    fn settle(&mut self, events: &mut Vec<Event>) {
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
                    events.push(Event::Chance("the bag was empty: a set of 8 added".into()));
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
                        cabin.store = [None; 6];
                        cabin.gems = 0;
                        for c in colours {
                            self.return_treasure(c);
                        }
                        self.gold[i] += gold;
                        self.vp[i] += self.gold[i] / 5;
                        self.gold[i] %= 5;
                    }
                    self.phase = Phase::Over;
                }
                Phase::Over => return,
            }
        }
    }

    fn conclude(&mut self) {
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

    fn end_turn(&mut self) {
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

    fn pay(&mut self, seat: Seat, cost: u32) -> Result<(), E> {
        let gold = self.gold[seat.index()];
        if gold < cost {
            return Err(E::NotEnoughGold { seat, cost, gold });
        }
        self.gold[seat.index()] -= cost;
        Ok(())
    }

    /// Check that `piece` may go on `slot` of `seat`'s cabin.
    fn fits(&self, seat: Seat, piece: Piece, slot: Slot) -> Result<(), E> {
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
                let others = here.iter().flatten().filter_map(|p| match p {
                    Piece::Treasure(c) => Some(*c),
                    Piece::Gem => None,
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
    fn put(&mut self, seat: Seat, piece: Piece, slot: Slot, events: &mut Vec<Event>) {
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
                    events.push(Event::HoldComplete(seat, crew));
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
    fn check_move(&self, turn: &Turn, path: &[Dir]) -> Result<MovePlan, E> {
        let crew = turn.crew.ok_or(E::NotYourCrew("move"))?;
        let space = turn
            .space
            .and_then(|i| self.spaces(crew).get(usize::from(i)).copied());
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
        let mut visited = vec![at];
        let mut fees = Vec::new();
        for (i, &d) in path.iter().enumerate() {
            at = self.step(at, d).ok_or(E::OffBoard)?;
            if visited.contains(&at) {
                return Err(E::BadMove("the path visits a space twice"));
            }
            visited.push(at);
            if let Some(owner) = self.ship_at(at) {
                if i + 1 == path.len() {
                    return Err(E::StopOnShip);
                }
                fees.push(owner);
            }
        }
        let cost = gold_cost + fees.len() as u32;
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

    fn take_all(&mut self, cell: Cell) -> Vec<Colour> {
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

    fn turn_mut(&mut self) -> Result<&mut Turn, E> {
        self.turn.as_mut().ok_or(E::WrongStep("a turn action"))
    }

    fn science_claim(
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

    fn discard_card(&mut self, seat: Seat, handle: CardHandle, card: u32) {
        self.science[seat.index()].retain(|&h| h != handle);
        self.discard.push(card);
    }

    /// Whether a game-end card's condition holds with pieces not yet used,
    /// and which it would use.
    fn end_card_use(&self, seat: Seat, card: Science) -> Option<(u8, u8, u8)> {
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
    fn apply_inner(
        &mut self,
        seat: Seat,
        action: &Action,
        revealed: Option<&[Revealed]>,
        events: &mut Vec<Event>,
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
        if let Phase::Final(_) = self.phase {
            return self.apply_final(seat, action, revealed, events);
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
            self.settle(events);
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
        let space = turn
            .crew
            .zip(turn.space)
            .and_then(|(c, i)| self.spaces(c).get(usize::from(i)).copied());
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
                self.gold[s] -= plan.gold_cost;
                for owner in plan.fees {
                    self.gold[s] -= 1;
                    if let Owner::Seat(o) = owner {
                        self.gold[o.index()] += 1;
                    }
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
                if !in_crew {
                    return Err(E::NotYourCrew("basic"));
                }
                if turn.basic {
                    return Err(E::AlreadyUsed("basic"));
                }
                match (space, half) {
                    (Some(Space::Shift { vp, moves }), Half::Plain) => {
                        self.vp[s] += vp;
                        self.turn_mut()?.shifts += moves;
                    }
                    (Some(Space::Gold(n)), Half::Plain) => self.gold[s] += n,
                    (Some(Space::Sell { pay, vp }), Half::Plain) => {
                        self.pay(seat, pay)?;
                        self.vp[s] += vp;
                    }
                    (
                        Some(Space::Research {
                            power,
                            draw,
                            either,
                        }),
                        h,
                    ) => {
                        let (power, draw) = match (either, h) {
                            (false, Half::Plain) => (power, draw),
                            (true, Half::Power) => (power, 0),
                            (true, Half::Draw) => (0, draw),
                            _ => return Err(E::WrongStep("that form of the scientist's action")),
                        };
                        self.power[s] = (self.power[s] + power).min(data::MAX_POWER);
                        if draw > 0 {
                            self.jobs.push(Job::Deal {
                                seat,
                                count: u32::from(draw),
                            });
                        }
                    }
                    _ => return Err(E::NotYourCrew("basic")),
                }
                self.turn_mut()?.basic = true;
            }
            Action::Pick(dir, colour) => {
                crew_is(Crew::Explorer, "pick")?;
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
                let cell = self.step(self.ships[s], *dir).ok_or(E::OffBoard)?;
                let i = self.cell_index(cell);
                if self.board[i][colour.index()] == 0 {
                    return Err(E::NoSuchTreasure(*colour));
                }
                self.board[i][colour.index()] -= 1;
                let t = self.turn_mut()?;
                t.hand.push(*colour);
                t.basic = true;
            }
            Action::Gold(half) => {
                if !in_crew {
                    return Err(E::NotYourCrew("gold"));
                }
                if turn.gold {
                    return Err(E::AlreadyUsed("gold"));
                }
                match (turn.crew, half) {
                    (Some(Crew::Boatswain), Half::Plain) => {
                        self.pay(seat, 1)?;
                        self.turn_mut()?.shifts += 1;
                    }
                    (Some(Crew::Purser), Half::Plain) => {
                        self.pay(seat, 3)?;
                        self.jobs.push(Job::Draw(1));
                    }
                    (Some(Crew::Merchant), Half::Plain) => {
                        self.pay(seat, 2)?;
                        self.vp[s] += 1;
                    }
                    (Some(Crew::Scientist), Half::Power) => {
                        self.pay(seat, 3)?;
                        self.power[s] = (self.power[s] + 1).min(data::MAX_POWER);
                    }
                    (Some(Crew::Scientist), Half::Draw) => {
                        self.pay(seat, 3)?;
                        self.jobs.push(Job::Deal { seat, count: 1 });
                    }
                    (Some(Crew::Captain | Crew::Pilot), _) => {
                        return Err(E::WrongStep(
                            "a separate gold action (it is paid in the move)",
                        ));
                    }
                    (Some(Crew::Explorer), _) => {
                        return Err(E::WrongStep("the explorer's gold action before Phase III"));
                    }
                    _ => return Err(E::WrongStep("that form of the gold action")),
                }
                self.turn_mut()?.gold = true;
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
                    Crew::Boatswain => self.jobs.push(Job::Draw(1)),
                    Crew::Purser => self.gold[s] += 2,
                    Crew::Merchant => self.vp[s] += 2,
                    Crew::Scientist => {
                        let before = self.science[s].len() as u8;
                        self.jobs.push(Job::Deal { seat, count: 1 });
                        self.turn_mut()?.discard_over = Some(before);
                    }
                    _ => {
                        return Err(E::WrongStep(
                            "a separate enhanced action (it is part of the basic one)",
                        ));
                    }
                }
                self.turn_mut()?.enhanced = true;
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
                let saved = self.cabins[s].clone();
                self.clear_slot(seat, *from);
                if let Err(e) = self.fits(seat, piece, *to) {
                    self.cabins[s] = saved;
                    return Err(e);
                }
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
        events.push(Event::Acted(seat, action.to_string()));
        self.settle(events);
        Ok(())
    }

    fn clear_slot(&mut self, seat: Seat, slot: Slot) {
        let cabin = &mut self.cabins[seat.index()];
        match slot {
            Slot::Hold(c, i) => cabin.holds[c.index()][usize::from(i)] = None,
            Slot::Store(i) => cabin.store[usize::from(i)] = None,
            Slot::Chest(c) => cabin.chest[c.index()] = None,
        }
    }

    /// Selling, gems and science cards (outside the crew's actions).
    fn free_action(
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

    fn apply_final(
        &mut self,
        seat: Seat,
        action: &Action,
        revealed: Option<&[Revealed]>,
        events: &mut Vec<Event>,
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
        events.push(Event::Acted(seat, action.to_string()));
        self.settle(events);
        Ok(())
    }

    fn apply_checked(
        &mut self,
        seat: Seat,
        action: &Action,
        revealed: Option<&[Revealed]>,
        events: &mut Vec<Event>,
    ) -> Result<(), E> {
        let mut next = self.clone();
        let mut local = Vec::new();
        next.apply_inner(seat, action, revealed, &mut local)?;
        *self = next;
        events.extend(local);
        Ok(())
    }

    fn known_science(&self, seat: Seat, knowledge: &Knowledge) -> Vec<(CardHandle, u32)> {
        self.science[seat.index()]
            .iter()
            .filter_map(|&h| knowledge.card(h).map(|c| (h, c)))
            .collect()
    }

    fn cabin_slots(&self) -> Vec<Slot> {
        let mut slots = Vec::new();
        for crew in Crew::ALL {
            for i in 0..HOLDS[crew.index()].icons.len() {
                slots.push(Slot::Hold(crew, i as u8));
            }
        }
        slots.extend(Colour::ALL.map(Slot::Chest));
        slots.extend((0..6).map(Slot::Store));
        slots
    }

    /// Every boatswain move: for each space holding a movable piece, the
    /// spaces it fits once lifted (as `Shift` checks it).
    fn shift_actions(&self, seat: Seat, slots: &[Slot], out: &mut Vec<Action>) {
        let cabin = &self.cabins[seat.index()];
        for &from in slots {
            let piece = match from {
                Slot::Hold(c, i) if !cabin.is_complete(c) => cabin.holds[c.index()][usize::from(i)],
                Slot::Store(i) => cabin.store[usize::from(i)].map(Piece::Treasure),
                _ => None,
            };
            let Some(piece) = piece else { continue };
            let mut lifted = self.clone();
            lifted.clear_slot(seat, from);
            for &to in slots {
                if to != from && lifted.fits(seat, piece, to).is_ok() {
                    out.push(Action::Shift(from, to));
                }
            }
        }
    }

    fn move_actions(&self, turn: &Turn, out: &mut Vec<Action>) {
        let Some(crew) = turn.crew else { return };
        let mut paths: Vec<Vec<Dir>> = vec![Vec::new()];
        if crew == Crew::Captain {
            for d in Dir::all() {
                for len in 1..=7 {
                    paths.push(vec![d; len]);
                }
            }
        } else {
            let mut frontier = vec![Vec::new()];
            for _ in 0..4 {
                let mut grown = Vec::new();
                for p in &frontier {
                    for d in [Dir(0), Dir(2), Dir(4), Dir(6)] {
                        let mut q: Vec<Dir> = p.clone();
                        q.push(d);
                        grown.push(q);
                    }
                }
                paths.extend(grown.iter().cloned());
                frontier = grown;
            }
        }
        for p in paths {
            if self.check_move(turn, &p).is_ok() {
                out.push(Action::Move(p));
            }
        }
    }

    fn free_actions(&self, seat: Seat, knowledge: &Knowledge, out: &mut Vec<Action>, end: bool) {
        let s = seat.index();
        let cabin = &self.cabins[s];
        for i in 0..6u8 {
            if cabin.store[usize::from(i)].is_some() {
                out.push(Action::Sell(Slot::Store(i)));
            }
        }
        if cabin.gems > 0 {
            out.push(Action::SellGem);
        }
        if cabin.gems < data::GEM_SPACES {
            for c in Colour::ALL {
                if cabin.store.iter().filter(|&&x| x == Some(c)).count() >= 2 {
                    out.push(Action::Trade(c));
                }
            }
        }
        if self.power[s] == 0 {
            return;
        }
        for (handle, card) in self.known_science(seat, knowledge) {
            let Some(&science) = data::SCIENCE_DECK.get(card as usize) else {
                continue;
            };
            match science {
                Science::DrawTwo if !end => out.push(Action::Play(handle, card, Aim::None)),
                Science::PickAny if !end => {
                    for row in 0..self.size {
                        for col in 0..self.size {
                            let cell = Cell { row, col };
                            for c in Colour::ALL {
                                if self.treasures_at(cell)[c.index()] > 0 {
                                    out.push(Action::Play(handle, card, Aim::Pick(cell, c)));
                                }
                            }
                        }
                    }
                }
                Science::Hop if !end && self.gold[s] >= 3 => {
                    for d in Dir::all() {
                        if let Some(to) = self.step(self.ships[s], d)
                            && self.ship_at(to).is_none()
                        {
                            out.push(Action::Play(handle, card, Aim::Hop(d)));
                        }
                    }
                }
                _ if end && science.at_game_end() && self.end_card_use(seat, science).is_some() => {
                    out.push(Action::Play(handle, card, Aim::None));
                }
                _ => {}
            }
        }
    }
}

struct MovePlan {
    to: Cell,
    gold_cost: u32,
    fees: Vec<Owner>,
}

impl Turn {
    fn new(seat: Seat, crew: Option<Crew>, extra: bool) -> Turn {
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

impl Game for Nereus {
    const NAME: &'static str = "nereus";
    const MIN_SEATS: u8 = 2;
    const MAX_SEATS: u8 = 4;

    type Options = Options;
    type Action = Action;
    type Event = Event;
    type View = View;
    type Error = NereusError;

    fn new_game(seats: u8, options: &Options) -> Result<Self, SetupError> {
        SetupError::check_seats::<Self>(seats)?;
        if options.neutral_ship && seats != 2 {
            return Err(SetupError::Option {
                name: "neutral_ship".into(),
                reason: "the neutral ship is a 2-player variant".into(),
            });
        }
        let n = usize::from(seats);
        let side = data::side(seats);
        let size = side.size;
        let ships: Vec<Cell> = (0..n)
            .map(|i| {
                let (row, col) = data::start_corner(i, size);
                Cell { row, col }
            })
            .collect();
        let neutral = options.neutral_ship.then(|| Neutral {
            ship: Cell {
                row: size / 2,
                col: size / 2,
            },
            compass: 0,
            deck: Crew::ALL.to_vec(),
        });
        let mut bag = data::TREASURES;
        bag[data::START_TREASURE.index()] -= seats as u32;
        let mut game = Nereus {
            seats,
            options: options.clone(),
            size,
            board: vec![[0; 6]; usize::from(size) * usize::from(size)],
            ships,
            neutral,
            bag,
            extra_out: [0; 6],
            removed: [0; 6],
            sets_added: 0,
            discovery_left: (0..12).collect(),
            discovery: None,
            day: 0,
            cycle: 0,
            sun: Seat(0),
            hourglass: Seat(0),
            markers: Crew::ALL
                .iter()
                .map(|&c| vec![None; data::spaces(c, seats).len()])
                .collect(),
            chosen: vec![None; n],
            played: vec![0; n],
            gold: vec![data::START_GOLD; n],
            vp: vec![0; n],
            power: vec![0; n],
            cabins: vec![Cabin::new(); n],
            science: vec![Vec::new(); n],
            deck: None,
            next_epoch: 0,
            discard: (0..data::SCIENCE_DECK.len() as u32).collect(),
            phase: Phase::Setup,
            turn: None,
            jobs: Vec::new(),
            end_used: vec![(0, 0, 0); n],
        };
        let empty: Vec<Cell> = (0..size)
            .flat_map(|row| (0..size).map(move |col| Cell { row, col }))
            .filter(|&c| game.ship_at(c).is_none())
            .collect();
        game.jobs.push(Job::Reshuffle);
        for s in 0..seats {
            game.jobs.push(Job::Deal {
                seat: Seat(s),
                count: data::START_SCIENCE,
            });
        }
        game.jobs.push(Job::FirstPlayer);
        game.jobs.push(Job::Fill(empty));
        game.jobs.push(Job::Discovery);
        game.settle(&mut Vec::new());
        Ok(game)
    }

    fn next(&self) -> Next<'_> {
        if self.phase == Phase::Over {
            return Next::Over;
        }
        if let Some(job) = self.jobs.first() {
            let uniform = |purpose, n: usize| {
                Next::Chance(ChanceRequest {
                    purpose,
                    distribution: Distribution::Uniform { n: n as u64 },
                })
            };
            let draw = |purpose, n: u32| {
                Next::Chance(ChanceRequest {
                    purpose,
                    distribution: Distribution::Multiset {
                        counts: &self.bag,
                        total: self.bag_total(),
                        take: n.min(self.bag_total()),
                        blocks: &[],
                    },
                })
            };
            return match job {
                Job::Reshuffle => Next::Private(PrivateRequest::Reshuffle {
                    pile: &self.discard,
                    epoch: EpochId(self.next_epoch),
                }),
                Job::Deal { seat, count } => match self.deck {
                    Some(d) if d.next < d.size => Next::Private(PrivateRequest::Deal {
                        to: *seat,
                        first: CardHandle::new(d.epoch, d.next),
                        count: (*count).min(d.size - d.next),
                    }),
                    _ => Next::Private(PrivateRequest::Reshuffle {
                        pile: &self.discard,
                        epoch: EpochId(self.next_epoch),
                    }),
                },
                Job::FirstPlayer => uniform("first player", usize::from(self.seats)),
                Job::Fill(cells) => draw("treasures onto the board", cells.len() as u32),
                Job::Discovery => uniform("the day's discovery card", self.discovery_left.len()),
                Job::Draw(n) => draw("treasures from the bag", *n),
                Job::NeutralFlip { .. } => uniform(
                    "the neutral crew card",
                    self.neutral.as_ref().map_or(1, |n| n.deck.len()),
                ),
                Job::NeutralRoll { .. } => uniform("the neutral ship's die", 6),
            };
        }
        let choosing = self.choosing();
        if choosing != SeatSet::EMPTY {
            return Next::Simultaneous(choosing);
        }
        match self.decider() {
            Some(seat) => Next::Decision(seat),
            None => Next::Over,
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        self.legal_actions_with(seat, &Knowledge::new(), out);
    }

    fn legal_actions_with(&self, seat: Seat, knowledge: &Knowledge, out: &mut Vec<Action>) {
        out.clear();
        if self.choosing().contains(seat) {
            out.extend(
                Crew::ALL
                    .into_iter()
                    .filter(|&c| self.played[seat.index()] & bit(c) == 0)
                    .map(Action::Choose),
            );
            return;
        }
        if self.decider() != Some(seat) {
            return;
        }
        let s = seat.index();
        if let Phase::Final(_) = self.phase {
            out.push(Action::Finish);
            self.free_actions(seat, knowledge, out, true);
            out.sort();
            return;
        }
        let Some(turn) = &self.turn else {
            out.push(Action::Decline);
            out.extend(self.explore_options(seat).into_iter().map(Action::Explore));
            out.sort();
            return;
        };
        if turn
            .discard_over
            .is_some_and(|n| self.science[s].len() > usize::from(n))
        {
            out.extend(
                self.known_science(seat, knowledge)
                    .into_iter()
                    .map(|(h, c)| Action::Discard(h, c)),
            );
            return;
        }
        let slots = self.cabin_slots();
        let mut hand = turn.hand.clone();
        hand.dedup();
        for &c in &hand {
            for &slot in &slots {
                if self.fits(seat, Piece::Treasure(c), slot).is_ok() {
                    out.push(Action::Stow(c, slot));
                }
            }
        }
        if self.cabins[s].gems > 0 {
            for &slot in &slots {
                if !matches!(slot, Slot::Store(_)) && self.fits(seat, Piece::Gem, slot).is_ok() {
                    out.push(Action::Gem(slot));
                }
            }
        }
        match turn.stage {
            Stage::Before => {
                if let Some(crew) = turn.crew {
                    for (i, m) in self.markers[crew.index()].iter().enumerate() {
                        if m.is_none() {
                            out.push(Action::Place(i as u8));
                        }
                    }
                }
                self.free_actions(seat, knowledge, out, false);
            }
            Stage::After => {
                out.push(Action::End);
                self.free_actions(seat, knowledge, out, false);
            }
            Stage::Crew => {
                out.push(Action::Done);
                let mut candidates = Vec::new();
                match turn.crew {
                    Some(Crew::Captain | Crew::Pilot) if !turn.basic => {
                        self.move_actions(turn, out)
                    }
                    Some(Crew::Explorer) if !turn.basic => {
                        for d in [Dir(0), Dir(2), Dir(4), Dir(6)] {
                            let Some(next) = self.step(self.ships[s], d) else {
                                continue;
                            };
                            for c in Colour::ALL {
                                if self.treasures_at(next)[c.index()] > 0 {
                                    candidates.push(Action::Pick(d, c));
                                }
                            }
                        }
                    }
                    Some(Crew::Boatswain) => {
                        candidates.extend([
                            Action::Basic(Half::Plain),
                            Action::Gold(Half::Plain),
                            Action::Enhanced,
                        ]);
                        if turn.shifts > 0 {
                            self.shift_actions(seat, &slots, out);
                        }
                    }
                    Some(Crew::Scientist) => candidates.extend([
                        Action::Basic(Half::Plain),
                        Action::Basic(Half::Power),
                        Action::Basic(Half::Draw),
                        Action::Gold(Half::Power),
                        Action::Gold(Half::Draw),
                        Action::Enhanced,
                    ]),
                    Some(_) => candidates.extend([
                        Action::Basic(Half::Plain),
                        Action::Gold(Half::Plain),
                        Action::Enhanced,
                    ]),
                    None => {}
                }
                for a in candidates {
                    let mut probe = self.clone();
                    if probe.apply_inner(seat, &a, None, &mut Vec::new()).is_ok() {
                        out.push(a);
                    }
                }
            }
        }
        out.sort();
        out.dedup();
    }

    fn apply_action(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), NereusError> {
        if matches!(action, Action::Play(..) | Action::Discard(..)) {
            return Err(E::CardNotRevealed);
        }
        self.apply_checked(seat, action, Some(&[]), events)
    }

    fn apply_legal_action(
        &mut self,
        seat: Seat,
        action: &Action,
        scratch: &mut Vec<Event>,
    ) -> Result<(), NereusError> {
        scratch.clear();
        self.apply_inner(seat, action, None, scratch)
    }

    fn apply_action_revealing(
        &mut self,
        seat: Seat,
        action: &Action,
        revealed: &[Revealed],
        events: &mut Vec<Event>,
    ) -> Result<(), PrivateError<NereusError>> {
        let claims = Self::claims(action);
        if claims.len() != revealed.len() {
            return Err(E::CardNotRevealed.into());
        }
        Ok(self.apply_checked(seat, action, Some(revealed), events)?)
    }

    fn claims(action: &Action) -> Vec<Revealed> {
        match *action {
            Action::Play(handle, card, _) | Action::Discard(handle, card) => {
                vec![Revealed { handle, card }]
            }
            _ => Vec::new(),
        }
    }

    fn apply_chance(
        &mut self,
        outcome: &ChanceOutcome,
        events: &mut Vec<Event>,
    ) -> Result<(), NereusError> {
        let Next::Chance(request) = self.next() else {
            return Err(E::BadOutcome);
        };
        if !request.distribution.admits(outcome) {
            return Err(E::BadOutcome);
        }
        let mut next = self.clone();
        next.apply_outcome(outcome, events)?;
        *self = next;
        Ok(())
    }

    fn apply_sampled_chance(
        &mut self,
        outcome: &ChanceOutcome,
        scratch: &mut Vec<Event>,
    ) -> Result<(), NereusError> {
        scratch.clear();
        self.apply_outcome(outcome, scratch)
    }

    fn apply_deal(&mut self, events: &mut Vec<Event>) -> Result<(), PrivateError<NereusError>> {
        let Next::Private(PrivateRequest::Deal { to, first, count }) = self.next() else {
            return Err(E::NotPending("deal").into());
        };
        self.science[to.index()]
            .extend((0..count).map(|i| CardHandle::new(first.epoch, first.slot + i)));
        if let Some(d) = &mut self.deck {
            d.next += count;
        }
        if let Some(Job::Deal { count: owed, .. }) = self.jobs.first_mut() {
            *owed -= count;
        }
        events.push(Event::Dealt(to, count));
        self.settle(events);
        Ok(())
    }

    fn apply_reshuffle(
        &mut self,
        events: &mut Vec<Event>,
    ) -> Result<(), PrivateError<NereusError>> {
        let Next::Private(PrivateRequest::Reshuffle { epoch, .. }) = self.next() else {
            return Err(E::NotPending("reshuffle").into());
        };
        let size = self.discard.len() as u32;
        self.discard.clear();
        self.deck = Some(DeckSlots {
            epoch,
            size,
            next: 0,
        });
        self.next_epoch += 1;
        if self.jobs.first() == Some(&Job::Reshuffle) {
            self.jobs.remove(0);
        }
        events.push(Event::Shuffled(size));
        self.settle(events);
        Ok(())
    }

    fn apply_reveal(
        &mut self,
        _cards: &[Revealed],
        _events: &mut Vec<Event>,
    ) -> Result<(), PrivateError<NereusError>> {
        Err(E::NotPending("reveal").into())
    }

    fn view(&self, observer: Observer) -> View {
        self.view_with(observer, &Knowledge::new())
    }

    fn view_with(&self, observer: Observer, knowledge: &Knowledge) -> View {
        let mut game = self.clone();
        if game.phase == Phase::Choose {
            for (i, c) in game.chosen.iter_mut().enumerate() {
                if observer != Observer::Seat(Seat(i as u8)) {
                    *c = None;
                }
            }
        }
        let my_science = match observer {
            Observer::Spectator => Vec::new(),
            Observer::Seat(seat) => self
                .science
                .get(seat.index())
                .into_iter()
                .flatten()
                .map(|&h| (h, knowledge.card(h)))
                .collect(),
        };
        View { game, my_science }
    }

    fn standing(&self) -> GameResult {
        let scores: Vec<(i64, i64)> = (0..usize::from(self.seats))
            .map(|s| {
                let cabin = &self.cabins[s];
                (
                    i64::from(self.vp[s]),
                    i64::from(cabin.complete.count_ones()) * 1000
                        + i64::from(cabin.in_incomplete_holds()),
                )
            })
            .collect();
        let standings = scores
            .iter()
            .enumerate()
            .map(|(i, &(score, tie_break))| Standing {
                seat: Seat(i as u8),
                rank: scores.iter().filter(|&&o| o > (score, tie_break)).count() as u8,
                score,
                tie_break,
            })
            .collect();
        GameResult { standings }
    }

    fn parse_action(text: &str) -> Result<Action, ParseError> {
        Action::parse(text)
    }

    fn parse_outcome(&self, text: &str) -> Result<ChanceOutcome, ParseError> {
        match self.jobs.first() {
            Some(Job::Fill(_) | Job::Draw(_)) => text
                .split_whitespace()
                .map(|w| {
                    Colour::parse(w)
                        .map(|c| c.index() as u32)
                        .ok_or_else(|| ParseError::new(text, format!("{w:?} is not a colour")))
                })
                .collect::<Result<Vec<u32>, _>>()
                .map(ChanceOutcome::Cards),
            Some(Job::NeutralFlip { .. }) => {
                let crew = Crew::parse(text.trim())
                    .ok_or_else(|| ParseError::new(text, "expected a crew member"))?;
                let deck = self
                    .neutral
                    .as_ref()
                    .map(|n| n.deck.as_slice())
                    .unwrap_or(&[]);
                deck.iter()
                    .position(|&c| c == crew)
                    .map(|i| ChanceOutcome::Index(i as u64))
                    .ok_or_else(|| ParseError::new(text, "not among the neutral's unflipped cards"))
            }
            Some(Job::NeutralRoll { .. }) => {
                let n: u64 = text
                    .trim()
                    .parse()
                    .ok()
                    .filter(|n| (1..=6).contains(n))
                    .ok_or_else(|| ParseError::new(text, "expected a die roll 1-6"))?;
                Ok(ChanceOutcome::Index(n - 1))
            }
            Some(Job::Discovery) => {
                let card: u8 = text
                    .trim()
                    .parse()
                    .ok()
                    .ok_or_else(|| ParseError::new(text, "expected a discovery card 1-12"))?;
                self.discovery_left
                    .iter()
                    .position(|&c| c + 1 == card)
                    .map(|i| ChanceOutcome::Index(i as u64))
                    .ok_or_else(|| ParseError::new(text, "that discovery card is not in the stack"))
            }
            _ => {
                let n: u64 = text
                    .trim()
                    .parse()
                    .map_err(|_| ParseError::new(text, "expected a number"))?;
                Ok(ChanceOutcome::Index(n))
            }
        }
    }

    fn outcome_name(&self, outcome: &ChanceOutcome) -> String {
        match (self.jobs.first(), outcome) {
            (_, ChanceOutcome::Cards(cards)) => cards
                .iter()
                .map(|&c| {
                    Colour::from_index(c as usize)
                        .map_or('?', Colour::letter)
                        .to_string()
                })
                .collect::<Vec<_>>()
                .join(" "),
            (Some(Job::NeutralFlip { .. }), ChanceOutcome::Index(i)) => self
                .neutral
                .as_ref()
                .and_then(|n| n.deck.get(*i as usize))
                .map_or_else(|| i.to_string(), |c| c.to_string()),
            (Some(Job::NeutralRoll { .. }), ChanceOutcome::Index(i)) => (i + 1).to_string(),
            (Some(Job::Discovery), ChanceOutcome::Index(i)) => self
                .discovery_left
                .get(*i as usize)
                .map_or_else(|| i.to_string(), |c| (c + 1).to_string()),
            (_, ChanceOutcome::Index(i)) => i.to_string(),
        }
    }

    fn zombie_action(&self, seat: Seat) -> Option<Action> {
        let legal = self.legal_actions_vec(seat);
        [Action::Done, Action::End, Action::Decline, Action::Finish]
            .into_iter()
            .find(|a| legal.contains(a))
            .or_else(|| legal.into_iter().next())
    }
}

impl Nereus {
    fn apply_outcome(&mut self, outcome: &ChanceOutcome, events: &mut Vec<Event>) -> Result<(), E> {
        let job = self.jobs.first().cloned().ok_or(E::BadOutcome)?;
        let index = match outcome {
            ChanceOutcome::Index(i) => Some(*i as usize),
            ChanceOutcome::Cards(_) => None,
        };
        let cards: &[u32] = match outcome {
            ChanceOutcome::Cards(c) => c,
            ChanceOutcome::Index(_) => &[],
        };
        self.jobs.remove(0);
        match job {
            Job::FirstPlayer => {
                let first = Seat(index.ok_or(E::BadOutcome)? as u8);
                self.sun = first;
                self.hourglass = first;
                events.push(Event::Chance(format!(
                    "{first} takes the sun and the hourglass"
                )));
            }
            Job::Fill(cells) => {
                let colours = self.take_from_bag(cards);
                for (cell, c) in cells.iter().zip(&colours) {
                    let i = self.cell_index(*cell);
                    self.board[i][c.index()] += 1;
                }
                let rest: Vec<Cell> = cells[colours.len().min(cells.len())..].to_vec();
                if !rest.is_empty() {
                    self.jobs.insert(0, Job::Fill(rest));
                }
                events.push(Event::Drawn(colours));
            }
            Job::Draw(n) => {
                let colours = self.take_from_bag(cards);
                let got = colours.len() as u32;
                if let Some(t) = &mut self.turn {
                    t.hand.extend(colours.iter().copied());
                }
                if got < n {
                    self.jobs.insert(0, Job::Draw(n - got));
                }
                events.push(Event::Drawn(colours));
            }
            Job::Discovery => {
                let i = index.ok_or(E::BadOutcome)?;
                let card = self.discovery_left.remove(i);
                self.discovery = Some(card);
                let mask = data::side(self.seats).discovery[usize::from(card)];
                let cells: Vec<Cell> = (0..self.size)
                    .flat_map(|row| (0..self.size).map(move |col| Cell { row, col }))
                    .filter(|&c| {
                        let bit = self.cell_index(c);
                        mask >> bit & 1 == 1
                            && self.ship_at(c).is_none()
                            && self.board[bit].iter().sum::<u8>() < 3
                    })
                    .collect();
                self.jobs.insert(0, Job::Fill(cells));
                events.push(Event::Chance(format!("discovery card {}", card + 1)));
            }
            Job::NeutralFlip { from_explorer } => {
                let i = index.ok_or(E::BadOutcome)?;
                let Some(neutral) = &mut self.neutral else {
                    return Err(E::BadOutcome);
                };
                let crew = neutral.deck.remove(i);
                events.push(Event::Chance(format!(
                    "the neutral player flips the {crew}"
                )));
                if from_explorer {
                    for m in &mut self.markers[Crew::Explorer.index()] {
                        if *m == Some(Owner::Neutral) {
                            *m = None;
                        }
                    }
                }
                match self.free_space(crew) {
                    None => self.jobs.insert(0, Job::NeutralFlip { from_explorer }),
                    Some(space) => {
                        self.markers[crew.index()][usize::from(space)] = Some(Owner::Neutral);
                        if matches!(crew, Crew::Captain | Crew::Pilot) {
                            let distance =
                                data::neutral_distance(self.spaces(crew)[usize::from(space)]);
                            self.jobs.insert(0, Job::NeutralRoll { distance });
                        }
                    }
                }
            }
            Job::NeutralRoll { distance } => {
                let roll = index.ok_or(E::BadOutcome)? as u8 + 1;
                let Some(neutral) = &self.neutral else {
                    return Err(E::BadOutcome);
                };
                let compass = (neutral.compass + roll) % 8;
                let mut at = neutral.ship;
                let mut moved = 0;
                while moved < distance {
                    match self.step(at, Dir(compass)) {
                        Some(c) => at = c,
                        None => break,
                    }
                    moved += 1;
                }
                if let Some(n) = &mut self.neutral {
                    n.compass = compass;
                    n.ship = at;
                }
                events.push(Event::Chance(format!(
                    "the neutral die shows {roll}: the ship goes {} {moved}",
                    Dir(compass)
                )));
                if moved == 0 {
                    self.jobs.insert(0, Job::NeutralRoll { distance });
                } else {
                    for c in self.take_all(at) {
                        self.return_treasure(c);
                    }
                }
            }
            Job::Reshuffle | Job::Deal { .. } => return Err(E::BadOutcome),
        }
        self.settle(events);
        Ok(())
    }
}

impl Determinize for Nereus {
    fn sample_hidden(
        &self,
        seat: Seat,
        knowledge: &Knowledge,
        uniform: &mut dyn FnMut(u64) -> u64,
    ) -> Knowledge {
        let mut unseen: Vec<u32> = (0..data::SCIENCE_DECK.len() as u32).collect();
        let remove = |card: u32, pool: &mut Vec<u32>| {
            if let Some(i) = pool.iter().position(|&c| c == card) {
                pool.swap_remove(i);
            }
        };
        for &c in &self.discard {
            remove(c, &mut unseen);
        }
        let mut out = Knowledge::new();
        for &h in self.science.get(seat.index()).into_iter().flatten() {
            if let Some(c) = knowledge.card(h) {
                remove(c, &mut unseen);
                out.learn(h, c);
            }
        }
        unseen.sort_unstable();
        let mut hidden: Vec<CardHandle> = Vec::new();
        for (i, hand) in self.science.iter().enumerate() {
            for &h in hand {
                if i != seat.index() || knowledge.card(h).is_none() {
                    hidden.push(h);
                }
            }
        }
        if let Some(d) = self.deck {
            hidden.extend((d.next..d.size).map(|slot| CardHandle::new(d.epoch, slot)));
        }
        for h in hidden {
            if unseen.is_empty() {
                break;
            }
            let i = uniform(unseen.len() as u64) as usize;
            out.learn(h, unseen.swap_remove(i.min(unseen.len() - 1)));
        }
        out
    }
}
