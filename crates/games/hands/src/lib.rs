//! Hands: a small card game with private hands, built on the engine's
//! contract for cards known to one seat (see `roundtable-engine`, "Cards
//! known to one seat"). It exists so that the contract, the table's private
//! deal and the simulator have a real game to run; it is not meant to be
//! deep.
//!
//! # Rules
//!
//! * 2 to 4 seats; a deck of 24 cards, four suits of ranks 1 to 6
//!   ([`CATALOG`]).
//! * The deck is shuffled by everyone (the first private request is a
//!   reshuffle of the whole catalog, lying face up, into epoch 0) and every
//!   seat, in seat order, is dealt a private hand of [`HAND_SIZE`] cards.
//! * Seat 1 begins; turns go clockwise. On its turn a seat plays one card
//!   from its hand face up onto the pile, or passes. A card may be played on
//!   an empty pile, or if it outranks the card on top of the pile or has its
//!   suit (rule `card-too-low` otherwise).
//! * A seat that played draws a replacement privately. When the deck is
//!   empty, the pile under its top card is reshuffled into a new deck (a new
//!   epoch); with nothing to reshuffle, no card is drawn.
//! * The game ends after [`Options::rounds`] rounds (a round is one turn of
//!   every seat). Then every hand is shown (a public reveal).
//! * A seat scores the ranks of the cards it played. Ties are broken by the
//!   cards shown at the end: fewer points left in hand is better.
//!
//! # Choices
//!
//! * **Passing is always allowed.** "Play higher if you can" would make a
//!   pass illegal only when the hidden hand holds a playable card, which no
//!   peer can check until the keys are released after the game. The
//!   engine's contract asks that every refusal be provable at the time from
//!   the public state and the revealed card, so a pass is always legal and
//!   the hidden hand decides only which plays are offered.
//! * **The top card stays** when the pile is reshuffled, so the next play
//!   still has a card to beat, as at a physical table.
//! * **No replacement after the last turn**: a deal nobody can use would
//!   only cost the table a round of decryption shares.

mod action;
mod catalog;
mod determinize;
mod error;

use roundtable_engine::{
    CardHandle, ChanceOutcome, DeckSlots, EpochId, Game, GameResult, Knowledge, Next, Observer,
    ParseError, PrivateError, PrivateRequest, Revealed, Seat, SetupError,
};
use serde::{Deserialize, Serialize};

pub use action::Action;
pub use catalog::{CATALOG, CardSpec, Suit, beats, spec};
pub use error::HandsError;

/// Cards in a hand after the deal.
pub const HAND_SIZE: u32 = 3;

/// Rule options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// Rounds played, 1 to 20 (default 6).
    pub rounds: u8,
}

impl Default for Options {
    fn default() -> Self {
        Options { rounds: 6 }
    }
}

/// What the game waits for, apart from the deck's own needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Phase {
    /// Cards are owed (`Hands::owed`); dealt before anything else.
    Dealing,
    /// The seat in `Hands::turn` decides.
    Turn,
    /// Every hand is to be shown.
    Showing,
    /// The game is over.
    Over,
}

/// A game of Hands. Private cards are handles only; the state is the same
/// on every peer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hands {
    seats: u8,
    rounds: u8,
    round: u8,
    turn: Seat,
    phase: Phase,
    /// The current deck; none before the first shuffle.
    deck: Option<DeckSlots>,
    /// Cards owed to each seat by the deal.
    owed: Vec<u32>,
    /// Every seat's hand, in handle order.
    hands: Vec<Vec<CardHandle>>,
    /// Face-up cards, oldest first; the last is the top. Before the first
    /// shuffle it is the whole catalog.
    pile: Vec<u32>,
    /// Whether the last card of `pile` is a played card to beat.
    top_played: bool,
    /// The cards each seat played.
    played: Vec<Vec<u32>>,
    /// The cards each seat showed at the end.
    shown: Vec<Vec<u32>>,
    /// The handles the end-of-game reveal asks for, in seat order.
    to_show: Vec<CardHandle>,
}

/// A card in the observing seat's hand: its handle, and its card if the
/// seat's table has opened it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeldCard {
    /// The slot.
    pub handle: CardHandle,
    /// The card, if known to the observer.
    pub card: Option<u32>,
}

/// What one observer may know.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// Seats at the table.
    pub seats: u8,
    /// The current round, from 1.
    pub round: u8,
    /// Rounds in the game.
    pub rounds: u8,
    /// Whose turn it is, while the game is on.
    pub turn: Option<Seat>,
    /// The card to beat, if any.
    pub top: Option<u32>,
    /// The face-up pile, oldest first.
    pub pile: Vec<u32>,
    /// Cards left in the deck.
    pub deck_left: u32,
    /// Every seat's handles (public: everyone sees who holds which slots).
    pub hands: Vec<Vec<CardHandle>>,
    /// The cards each seat played.
    pub played: Vec<Vec<u32>>,
    /// The cards each seat showed at the end.
    pub shown: Vec<Vec<u32>>,
    /// The observer's own hand with what it knows of it; empty for a
    /// spectator.
    pub my_hand: Vec<HeldCard>,
}

impl Hands {
    fn deck_left(&self) -> u32 {
        self.deck.map_or(0, |d| d.left())
    }

    /// How many cards of the pile a reshuffle takes: all but a played top.
    fn reshufflable(&self) -> usize {
        self.pile.len() - usize::from(self.top_played)
    }

    fn top(&self) -> Option<u32> {
        self.top_played.then(|| self.pile.last().copied()).flatten()
    }

    fn next_epoch(&self) -> EpochId {
        self.deck
            .map_or(EpochId(0), |d| EpochId(d.epoch.0.saturating_add(1)))
    }

    /// The first seat still owed cards, if the deck or the pile can serve it.
    fn owed_seat(&self) -> Option<Seat> {
        (0..self.seats).map(Seat).find(|s| self.owed[s.index()] > 0)
    }

    /// Move past states that need no input: a deal nobody can serve, a
    /// finished deal, an empty reveal.
    fn settle(&mut self) {
        loop {
            match self.phase {
                Phase::Dealing => {
                    if self.owed_seat().is_none() {
                        self.phase = if self.round > self.rounds {
                            Phase::Showing
                        } else {
                            Phase::Turn
                        };
                    } else if self.deck_left() == 0 && self.reshufflable() == 0 {
                        // Every card is in a hand or on top: nothing to draw.
                        self.owed.iter_mut().for_each(|n| *n = 0);
                    } else {
                        return;
                    }
                }
                Phase::Showing => {
                    if self.to_show.is_empty() {
                        self.to_show = self.hands.iter().flatten().copied().collect();
                        if self.to_show.is_empty() {
                            self.phase = Phase::Over;
                        }
                    }
                    return;
                }
                Phase::Turn | Phase::Over => return,
            }
        }
    }

    /// The seat whose decision it is, or why no decision is due.
    fn decider(&self, seat: Seat) -> Result<(), HandsError> {
        match self.phase {
            Phase::Over => Err(HandsError::GameOver),
            Phase::Dealing | Phase::Showing => Err(HandsError::WaitingForDeal),
            Phase::Turn if seat != self.turn => Err(HandsError::NotYourTurn {
                seat,
                expected: self.turn,
            }),
            Phase::Turn => Ok(()),
        }
    }

    /// Check a play against the seat's hand, the opened card and the pile.
    fn check_play(
        &self,
        seat: Seat,
        handle: CardHandle,
        claimed: u32,
        revealed: &[Revealed],
    ) -> Result<(), HandsError> {
        if !self.hands[seat.index()].contains(&handle) {
            return Err(HandsError::HandleNotHeld { seat, handle });
        }
        let held = match revealed {
            [] => return Err(HandsError::CardNotRevealed),
            [opened] if opened.handle == handle => opened.card,
            _ => return Err(HandsError::RevealMismatch),
        };
        if spec(held).is_none() {
            return Err(HandsError::NoSuchCard(held));
        }
        if claimed != held {
            return Err(HandsError::CardNotHeld {
                seat,
                handle,
                claimed,
                held,
            });
        }
        match self.top() {
            Some(top) if !beats(Some(top), held) => Err(HandsError::CardTooLow { card: held, top }),
            _ => Ok(()),
        }
    }

    /// End the seat's turn: the next seat, and the next round after the last.
    fn advance_turn(&mut self) {
        self.turn = self.turn.next(self.seats);
        if self.turn == Seat(0) {
            self.round += 1;
        }
    }

    fn scores(&self) -> Vec<(i64, i64)> {
        let points = |cards: &[u32]| -> i64 {
            cards
                .iter()
                .filter_map(|&c| spec(c))
                .map(|c| i64::from(c.rank))
                .sum()
        };
        (0..usize::from(self.seats))
            .map(|i| (points(&self.played[i]), -points(&self.shown[i])))
            .collect()
    }
}

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// The pile became a new deck.
    Shuffled {
        /// The new deck's epoch.
        epoch: EpochId,
        /// Its size.
        cards: u32,
    },
    /// Slots were dealt to a seat.
    Dealt {
        /// The receiving seat.
        seat: Seat,
        /// The slots.
        handles: Vec<CardHandle>,
    },
    /// A seat played a card face up.
    Played {
        /// Who played.
        seat: Seat,
        /// The card.
        card: u32,
    },
    /// A seat passed.
    Passed(Seat),
    /// The hands were shown.
    Shown(Vec<Revealed>),
}

impl Game for Hands {
    const NAME: &'static str = "hands";
    const MIN_SEATS: u8 = 2;
    const MAX_SEATS: u8 = 4;

    type Options = Options;
    type Action = Action;
    type Event = Event;
    type View = View;
    type Error = HandsError;

    fn new_game(seats: u8, options: &Options) -> Result<Self, SetupError> {
        SetupError::check_seats::<Self>(seats)?;
        if !(1..=20).contains(&options.rounds) {
            return Err(SetupError::Option {
                name: "rounds".into(),
                reason: format!("must be 1 to 20, not {}", options.rounds),
            });
        }
        let seat_count = usize::from(seats);
        let mut game = Hands {
            seats,
            rounds: options.rounds,
            round: 1,
            turn: Seat(0),
            phase: Phase::Dealing,
            deck: None,
            owed: vec![HAND_SIZE; seat_count],
            hands: vec![Vec::new(); seat_count],
            pile: (0..CATALOG.len() as u32).collect(),
            top_played: false,
            played: vec![Vec::new(); seat_count],
            shown: vec![Vec::new(); seat_count],
            to_show: Vec::new(),
        };
        game.settle();
        Ok(game)
    }

    fn next(&self) -> Next<'_> {
        match self.phase {
            Phase::Over => Next::Over,
            Phase::Turn => Next::Decision(self.turn),
            Phase::Showing => Next::Private(PrivateRequest::Reveal {
                handles: &self.to_show,
            }),
            Phase::Dealing => match (self.owed_seat(), self.deck) {
                (Some(to), Some(deck)) if self.deck_left() > 0 => {
                    Next::Private(PrivateRequest::Deal {
                        to,
                        first: CardHandle::new(deck.epoch, deck.next_slot),
                        count: self.owed[to.index()].min(self.deck_left()),
                    })
                }
                _ => Next::Private(PrivateRequest::Reshuffle {
                    pile: &self.pile[..self.reshufflable()],
                    epoch: self.next_epoch(),
                }),
            },
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        self.legal_actions_with(seat, &Knowledge::new(), out);
    }

    fn legal_actions_with(&self, seat: Seat, knowledge: &Knowledge, out: &mut Vec<Action>) {
        out.clear();
        if self.decider(seat).is_err() {
            return;
        }
        out.push(Action::Pass);
        let top = self.top();
        for &handle in &self.hands[seat.index()] {
            if let Some(card) = knowledge.card(handle)
                && beats(top, card)
            {
                out.push(Action::Play { handle, card });
            }
        }
        out.sort();
    }

    fn apply_action(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), HandsError> {
        match self.apply_action_revealing(seat, action, &[], events) {
            Ok(()) => Ok(()),
            Err(PrivateError::Rule(e)) => Err(e),
            // Hands implements every private-card method itself.
            Err(PrivateError::Unsupported { .. }) => Err(HandsError::CardNotRevealed),
        }
    }

    fn apply_action_revealing(
        &mut self,
        seat: Seat,
        action: &Action,
        revealed: &[Revealed],
        events: &mut Vec<Event>,
    ) -> Result<(), PrivateError<HandsError>> {
        self.decider(seat)?;
        match *action {
            Action::Pass => {
                if !revealed.is_empty() {
                    return Err(HandsError::RevealMismatch.into());
                }
                events.push(Event::Passed(seat));
            }
            Action::Play { handle, card } => {
                self.check_play(seat, handle, card, revealed)?;
                self.hands[seat.index()].retain(|&h| h != handle);
                self.pile.push(card);
                self.top_played = true;
                self.played[seat.index()].push(card);
                events.push(Event::Played { seat, card });
                self.owed[seat.index()] = 1;
            }
        }
        self.advance_turn();
        if self.round > self.rounds {
            self.owed.iter_mut().for_each(|n| *n = 0);
        }
        self.phase = Phase::Dealing;
        self.settle();
        Ok(())
    }

    fn apply_chance(
        &mut self,
        _outcome: &ChanceOutcome,
        _events: &mut Vec<Event>,
    ) -> Result<(), HandsError> {
        Err(HandsError::NoChance)
    }

    fn apply_deal(&mut self, events: &mut Vec<Event>) -> Result<(), PrivateError<HandsError>> {
        let Next::Private(PrivateRequest::Deal { to, first, count }) = self.next() else {
            return Err(HandsError::NoDealPending.into());
        };
        let handles: Vec<CardHandle> = DeckSlots::deal(&mut self.deck, first, count).collect();
        self.owed[to.index()] -= count;
        self.hands[to.index()].extend(&handles);
        self.hands[to.index()].sort();
        events.push(Event::Dealt { seat: to, handles });
        self.settle();
        Ok(())
    }

    fn apply_reshuffle(&mut self, events: &mut Vec<Event>) -> Result<(), PrivateError<HandsError>> {
        let Next::Private(PrivateRequest::Reshuffle { pile, epoch }) = self.next() else {
            return Err(HandsError::NoReshufflePending.into());
        };
        let size = pile.len() as u32;
        self.pile.drain(..self.reshufflable());
        self.deck = Some(DeckSlots::shuffled(epoch, size));
        events.push(Event::Shuffled { epoch, cards: size });
        self.settle();
        Ok(())
    }

    fn apply_reveal(
        &mut self,
        cards: &[Revealed],
        events: &mut Vec<Event>,
    ) -> Result<(), PrivateError<HandsError>> {
        if self.phase != Phase::Showing {
            return Err(HandsError::NoRevealPending.into());
        }
        let answers_request = cards.len() == self.to_show.len()
            && cards.iter().zip(&self.to_show).all(|(c, h)| c.handle == *h);
        if !answers_request {
            return Err(HandsError::RevealMismatch.into());
        }
        if let Some(bad) = cards.iter().find(|c| spec(c.card).is_none()) {
            return Err(HandsError::NoSuchCard(bad.card).into());
        }
        for (i, hand) in self.hands.iter_mut().enumerate() {
            for handle in hand.drain(..) {
                if let Some(c) = cards.iter().find(|c| c.handle == handle) {
                    self.shown[i].push(c.card);
                }
            }
        }
        self.to_show.clear();
        events.push(Event::Shown(cards.to_vec()));
        self.phase = Phase::Over;
        Ok(())
    }

    fn claims(action: &Action) -> Vec<Revealed> {
        match *action {
            Action::Pass => Vec::new(),
            Action::Play { handle, card } => vec![Revealed { handle, card }],
        }
    }

    fn view(&self, observer: Observer) -> View {
        self.view_with(observer, &Knowledge::new())
    }

    fn view_with(&self, observer: Observer, knowledge: &Knowledge) -> View {
        let my_hand = match observer {
            Observer::Spectator => Vec::new(),
            Observer::Seat(seat) => self
                .hands
                .get(seat.index())
                .into_iter()
                .flatten()
                .map(|&handle| HeldCard {
                    handle,
                    card: knowledge.card(handle),
                })
                .collect(),
        };
        View {
            seats: self.seats,
            round: self.round.min(self.rounds),
            rounds: self.rounds,
            turn: (self.phase == Phase::Turn).then_some(self.turn),
            top: self.top(),
            pile: self.pile.clone(),
            deck_left: self.deck_left(),
            hands: self.hands.clone(),
            played: self.played.clone(),
            shown: self.shown.clone(),
            my_hand,
        }
    }

    fn standing(&self) -> GameResult {
        let scores = self.scores();
        GameResult::from_scores(&scores)
    }

    fn parse_action(text: &str) -> Result<Action, ParseError> {
        Action::parse(text)
    }

    fn parse_outcome(&self, text: &str) -> Result<ChanceOutcome, ParseError> {
        Err(ParseError::new(text, "hands asks for no chance outcomes"))
    }

    fn outcome_name(&self, outcome: &ChanceOutcome) -> String {
        format!("{outcome:?}")
    }
}
