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
//!   are allowed at any time of one's own turn. Each of the basic, gold
//!   and enhanced actions is done whole before the next begins ("atomic
//!   ... performed consecutively"): while the boatswain's basic or gold
//!   action has treasure moves left that it could make, no other crew
//!   action is taken (`action-unfinished`). Its moves end unused when the
//!   crew's actions end, or when the next action begins once none of them
//!   can be made.
//! * **The list of actions** offers closing the crew's actions and ending
//!   the turn last while a treasure waits in hand (ending the turn loses
//!   it).
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
//!
//! # Layout
//!
//! This file holds the [`Game`] impl and what it reports (events, views).
//! The state's types and queries are in `state.rs`, the moves the rules
//! make in `rules.rs`, the legal-action lists in `legal.rs`, chance outcomes
//! in `chance.rs` and the guess at hidden science cards in `determinize.rs`.
//!
//! # Applying an action
//!
//! Every rule makes all its checks before its first change, so a refused
//! action leaves the state as it was and the checked path applies in
//! place, without a copy (a new rule must keep this; the legal-list test
//! in `tests/nereus/legal_lists.rs` holds thousands of refusals at every
//! decision of random games to it). A crew step's checks are one function,
//! `check_crew_step`, which the list of legal actions asks too. The rules
//! write events through a log that the playout path
//! ([`Game::apply_legal_action`]) keeps empty, so that it builds none.

use roundtable_engine::{
    CardHandle, ChanceOutcome, ChanceRequest, DeckSlots, Distribution, EpochId, Game, GameResult,
    Knowledge, Next, Observer, ParseError, PrivateError, PrivateRequest, Revealed, Seat, SeatSet,
    SetupError,
};
use serde::Serialize;

pub mod action;
mod chance;
pub mod data;
mod determinize;
mod error;
mod legal;
mod rules;
#[cfg(feature = "scenario")]
pub mod scenario;
mod state;

pub use action::{Action, Aim, Cell, Dir, Half, Slot};
pub use data::{Colour, Crew, Science, Space};
pub use error::NereusError;
pub use state::{Cabin, Job, Nereus, Neutral, Options, Owner, Phase, Piece, Stage, Turn};

use NereusError as E;
use state::bit;

/// What happened, for logs and screens.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Event {
    /// A seat acted (the action's text form), with what it cost and gave.
    /// It comes before the events the action caused (a hold it completes).
    Acted(Seat, String, Effect),
    /// The crews chosen in secret this cycle, opened together, in seat order.
    CrewsChosen(Vec<Crew>),
    /// A seat's game-end conversion: storage sold, then gold to VP.
    EndScored(Seat, EndScore),
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

/// What an action cost and gave the seat that took it, for the log.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Effect {
    /// Gold gained; negative when paid.
    pub gold: i64,
    /// Victory points gained.
    pub vp: i64,
    /// Science power gained; negative when spent.
    pub power: i64,
    /// Treasures the action took from the seat: the one sold, or those
    /// still in hand when the turn ended (lost to the bag).
    pub treasures: Vec<Colour>,
}

/// One seat's game-end conversion (its science cards were played before,
/// each an action of its own).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct EndScore {
    /// Treasures in storage, sold for 2 gold each.
    pub stored: u32,
    /// Gems in storage, sold for 5 gold each.
    pub gems: u32,
    /// Gold the storage sold for.
    pub storage_gold: u32,
    /// Gold held before the storage was sold.
    pub gold_before: u32,
    /// Victory points the gold bought, 1 per 5.
    pub vp: u32,
    /// Gold left over.
    pub gold_left: u32,
}

/// What one observer may see.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    /// The shared state, other seats' secret crew choices hidden.
    pub game: Nereus,
    /// The observer's own science cards, with the ones it knows.
    pub my_science: Vec<(CardHandle, Option<u32>)>,
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
                Job::Deal { seat, count } => match self.deck.and_then(|d| d.next_handle()) {
                    Some(first) => Next::Private(PrivateRequest::Deal {
                        to: *seat,
                        first,
                        count: (*count).min(self.deck_left()),
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
        // The list is built in the actions' own order (the order of their
        // kinds, then of their parts), so it needs no sorting: a sort of
        // the list was a tenth of a random game. While a treasure waits in
        // hand, closing the crew's actions or the turn (which loses it) is
        // offered last, never first.
        let closing_last = !turn.hand.is_empty();
        match turn.stage {
            Stage::Before => {
                if let Some(crew) = turn.crew {
                    for (i, m) in self.markers[crew.index()].iter().enumerate() {
                        if m.is_none() {
                            out.push(Action::Place(i as u8));
                        }
                    }
                }
            }
            Stage::After => {}
            Stage::Crew => {
                // The crew's steps, each checked as applying it checks it.
                let mut step = |a: Action| {
                    if self.check_crew_step(seat, turn, &a).is_ok() {
                        out.push(a);
                    }
                };
                const PLAIN: [Action; 3] = [
                    Action::Basic(Half::Plain),
                    Action::Gold(Half::Plain),
                    Action::Enhanced,
                ];
                const SCIENTIST: [Action; 6] = [
                    Action::Basic(Half::Plain),
                    Action::Basic(Half::Power),
                    Action::Basic(Half::Draw),
                    Action::Gold(Half::Power),
                    Action::Gold(Half::Draw),
                    Action::Enhanced,
                ];
                match turn.crew {
                    Some(Crew::Captain | Crew::Pilot) if !turn.basic => {
                        self.move_actions(turn, out)
                    }
                    Some(Crew::Explorer) if !turn.basic => {
                        for d in [Dir(0), Dir(2), Dir(4), Dir(6)] {
                            for c in Colour::ALL {
                                step(Action::Pick(d, c));
                            }
                        }
                    }
                    Some(Crew::Boatswain) => {
                        PLAIN.into_iter().for_each(&mut step);
                        if turn.shifts > 0 {
                            out.extend(self.shift_moves(seat).map(|(a, b)| Action::Shift(a, b)));
                        }
                    }
                    Some(Crew::Scientist) => SCIENTIST.into_iter().for_each(step),
                    Some(_) => PLAIN.into_iter().for_each(step),
                    None => {}
                }
                if !closing_last {
                    out.push(Action::Done);
                }
            }
        }
        for c in Colour::ALL.into_iter().filter(|c| turn.hand.contains(c)) {
            for slot in Self::cabin_slots() {
                if self.fits(seat, Piece::Treasure(c), slot).is_ok() {
                    out.push(Action::Stow(c, slot));
                }
            }
        }
        if self.cabins[s].gems > 0 {
            for slot in Self::cabin_slots() {
                if !matches!(slot, Slot::Store(_)) && self.fits(seat, Piece::Gem, slot).is_ok() {
                    out.push(Action::Gem(slot));
                }
            }
        }
        match turn.stage {
            Stage::Crew if closing_last => out.push(Action::Done),
            Stage::Crew => {}
            Stage::Before => self.free_actions(seat, knowledge, out, false),
            Stage::After => {
                self.free_actions(seat, knowledge, out, false);
                out.push(Action::End);
            }
        }
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
        self.apply_inner(seat, action, None, &mut rules::Quiet)
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
        // `apply_outcome` refuses before it changes anything.
        let mark = events.len();
        let applied = self.apply_outcome(outcome, events);
        if applied.is_err() {
            events.truncate(mark);
        }
        applied
    }

    fn apply_sampled_chance(
        &mut self,
        outcome: &ChanceOutcome,
        scratch: &mut Vec<Event>,
    ) -> Result<(), NereusError> {
        scratch.clear();
        self.apply_outcome(outcome, &mut rules::Quiet)
    }

    fn apply_deal(&mut self, events: &mut Vec<Event>) -> Result<(), PrivateError<NereusError>> {
        let Next::Private(PrivateRequest::Deal { to, first, count }) = self.next() else {
            return Err(E::NotPending("deal").into());
        };
        self.science[to.index()].extend(DeckSlots::deal(&mut self.deck, first, count));
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
        self.deck = Some(DeckSlots::shuffled(epoch, size));
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
        GameResult::from_scores(&scores)
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
