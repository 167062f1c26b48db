//! The contract every roundtable game implements.
//!
//! A game is a pure, deterministic state machine in the style of OpenSpiel's
//! `State` API with explicit chance: it never draws a random number, reads a
//! clock or does I/O. When the rules need chance, [`Game::next`] returns
//! [`Next::Chance`] with the exact distribution, and whoever drives the game
//! (the table's commit-reveal beacon, a test, a bot simulation) answers with
//! [`Game::apply_chance`].
//!
//! # Information model
//!
//! A card nobody has seen has no identity in the state: [`UnseenPool`] keeps,
//! per shuffle epoch, the multiset of cards not yet seen, and a face-down draw
//! moves only a count ([`Deck::draw_face_down`], [`FaceDown`]). Revealing a
//! card is a chance request over its epoch's unseen multiset. Because unseen
//! cards are exchangeable this is the same distribution as a shuffled physical
//! deck, and no peer's memory ever holds a future card.
//!
//! # Room for the later games
//!
//! * **Simultaneous secret choices** (Waters of Nereus crews): `next` returns
//!   [`Next::Simultaneous`] with the seats that must choose. The table collects
//!   a salted commitment from each, then the openings, and only then calls
//!   `apply_action` for every seat in seat order; the engine never sees a
//!   choice before all are committed, so the contract needs nothing more.
//! * **Cards known to one seat** (Guildhall hands, Nereus science cards): these
//!   need mental poker, because two private draws must not collide. The plan is
//!   a further [`Distribution`] kind, a private deal to one seat, answered by
//!   an opaque [`CardHandle`] that only that seat's table can open; the engine
//!   then stores handles, a seat's view shows its own opened cards, and a later
//!   public reveal arrives as an ordinary chance outcome naming the card of a
//!   handle. Nothing in this crate's current types has to change for that.

use std::fmt;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

mod pool;
pub mod sim;

pub use pool::{Deck, EpochId, FaceDown, PoolError, UnseenPool};

/// A seat at the table, counted from 0 in seat order (clockwise).
///
/// People see seats counted from 1; [`Seat::number`] gives that number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat's index, counted from 0.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The seat's number as people count it, from 1.
    pub fn number(self) -> u32 {
        u32::from(self.0) + 1
    }

    /// The seat after this one in clockwise order at a table of `seats`.
    #[must_use]
    pub fn next(self, seats: u8) -> Seat {
        Seat((self.0 + 1) % seats)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.number())
    }
}

/// A set of seats (at most 32), for simultaneous decisions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatSet(u32);

impl SeatSet {
    /// The empty set.
    pub const EMPTY: SeatSet = SeatSet(0);

    /// This set with `seat` added.
    #[must_use]
    pub fn with(self, seat: Seat) -> SeatSet {
        SeatSet(self.0 | (1 << seat.0))
    }

    /// Whether `seat` is in the set.
    pub fn contains(self, seat: Seat) -> bool {
        self.0 & (1 << seat.0) != 0
    }

    /// The seats in seat order.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        (0..32u8).filter(move |i| self.0 & (1 << i) != 0).map(Seat)
    }
}

/// Who is looking at the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Observer {
    /// A player: sees the public part and what the rules show that seat.
    Seat(Seat),
    /// A spectator: sees the public part only.
    Spectator,
}

/// The exact distribution a chance request asks to be sampled from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distribution<'a> {
    /// A uniform integer in `[0, n)`.
    Uniform {
        /// Exclusive upper bound, at least 1.
        n: u64,
    },
    /// `take` cards drawn without replacement from a multiset, given as a
    /// count per catalog index. The outcome lists catalog indices in draw
    /// order.
    Multiset {
        /// How many copies of each catalog entry are in the multiset.
        counts: &'a [u32],
        /// How many cards to draw; at most the sum of `counts`.
        take: u32,
    },
}

impl Distribution<'_> {
    /// Whether `outcome` is a possible result of this distribution.
    pub fn admits(&self, outcome: &ChanceOutcome) -> bool {
        match (self, outcome) {
            (Distribution::Uniform { n }, ChanceOutcome::Index(v)) => v < n,
            (Distribution::Multiset { counts, take }, ChanceOutcome::Cards(cards)) => {
                if cards.len() != *take as usize {
                    return false;
                }
                if let [card] = cards.as_slice() {
                    return counts.get(*card as usize).is_some_and(|&n| n > 0);
                }
                let mut left = counts.to_vec();
                cards.iter().all(|&c| match left.get_mut(c as usize) {
                    Some(n) if *n > 0 => {
                        *n -= 1;
                        true
                    }
                    _ => false,
                })
            }
            _ => false,
        }
    }
}

/// What the game waits for and why, with the exact distribution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChanceRequest<'a> {
    /// A short label for logs ("start player", "reveal the next card", ...).
    pub purpose: &'static str,
    /// The distribution to sample from.
    pub distribution: Distribution<'a>,
}

/// The answer to a chance request.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ChanceOutcome {
    /// An integer, for [`Distribution::Uniform`].
    Index(u64),
    /// Catalog indices in draw order, for [`Distribution::Multiset`].
    Cards(Vec<u32>),
}

/// An opaque reference to a card whose identity is known to one seat only.
///
/// Reserved for the mental-poker games (see the crate docs); no game uses it yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CardHandle(pub u32);

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next<'a> {
    /// One seat must decide; [`Game::legal_actions`] lists its choices.
    Decision(Seat),
    /// Several seats choose secretly and at once; each choice is applied only
    /// after all of them have been committed and opened.
    Simultaneous(SeatSet),
    /// A chance outcome is needed.
    Chance(ChanceRequest<'a>),
    /// The game is over; [`Game::result`] tells how it ended.
    Over,
}

/// One seat's place in the final ranking.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// The seat.
    pub seat: Seat,
    /// 0 for the winners; tied seats share a rank.
    pub rank: u8,
    /// The score that ranks first (victory points in most games).
    pub score: i64,
    /// The score that breaks ties of `score` (coins in Port Royal).
    pub tie_break: i64,
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// Every seat's standing, in seat order.
    pub standings: Vec<Standing>,
}

impl GameResult {
    /// The seats ranked first (several when they share the win).
    pub fn winners(&self) -> Vec<Seat> {
        self.standings
            .iter()
            .filter(|s| s.rank == 0)
            .map(|s| s.seat)
            .collect()
    }

    /// The same standings with `last` ranked below every other seat, all of
    /// them sharing the last place; the others keep their order. This is the
    /// result of a game abandoned when those seats stopped.
    pub fn with_last(&self, last: &[Seat]) -> GameResult {
        let others: Vec<&Standing> = self
            .standings
            .iter()
            .filter(|s| !last.contains(&s.seat))
            .collect();
        let standings = self
            .standings
            .iter()
            .map(|s| {
                let rank = if last.contains(&s.seat) {
                    others.len()
                } else {
                    others.iter().filter(|o| o.rank < s.rank).count()
                };
                Standing {
                    rank: u8::try_from(rank).unwrap_or(u8::MAX),
                    ..s.clone()
                }
            })
            .collect();
        GameResult { standings }
    }
}

/// An error that names the rule an input broke.
pub trait RuleError: std::error::Error + Send + Sync + 'static {
    /// The broken rule as a short kebab-case name ("not-your-turn", ...);
    /// scenarios and transcripts refer to rules by this name.
    fn rule(&self) -> &'static str;
}

/// Why a game could not be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The game is not for this many seats.
    #[error("this game is for {min} to {max} seats, not {seats}")]
    SeatCount {
        /// Seats asked for.
        seats: u8,
        /// Fewest seats allowed.
        min: u8,
        /// Most seats allowed.
        max: u8,
    },
    /// An option has a value the game does not accept.
    #[error("option {name}: {reason}")]
    Option {
        /// The option's name.
        name: String,
        /// What is wrong with its value.
        reason: String,
    },
}

/// A text that does not name an action or chance outcome of the game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot read {text:?}: {reason}")]
pub struct ParseError {
    /// The text that was read.
    pub text: String,
    /// Why it does not parse.
    pub reason: String,
}

impl ParseError {
    /// A parse error for `text` with `reason`.
    pub fn new(text: &str, reason: impl Into<String>) -> Self {
        ParseError {
            text: text.to_owned(),
            reason: reason.into(),
        }
    }
}

/// The SHA-256 of a state's canonical (postcard) encoding.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct StateHash(pub [u8; 32]);

impl fmt::Debug for StateHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "StateHash({self})")
    }
}

impl fmt::Display for StateHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

/// A game: its state type implements this trait.
///
/// Every method is deterministic. `apply_action` and `apply_chance` either
/// succeed or return an error and leave the state exactly as it was.
pub trait Game: Clone + fmt::Debug + Serialize + Send + Sync + 'static {
    /// The game's name as used in files and on the wire ("port-royal").
    const NAME: &'static str;
    /// Fewest seats.
    const MIN_SEATS: u8;
    /// Most seats.
    const MAX_SEATS: u8;

    /// Rule options and variants.
    type Options: Clone + fmt::Debug + Default + PartialEq + Serialize + for<'de> Deserialize<'de>;
    /// A decision of one seat. Ordered, so legal actions have a canonical order.
    type Action: Clone
        + fmt::Debug
        + fmt::Display
        + Eq
        + Ord
        + std::hash::Hash
        + Serialize
        + for<'de> Deserialize<'de>;
    /// Something that happened, for the log and the UI.
    type Event: Clone + fmt::Debug + Serialize;
    /// What one observer may know.
    type View: Clone + fmt::Debug + PartialEq + Serialize;
    /// A refused input, naming the rule it broke.
    type Error: RuleError;

    /// A new game at its first chance request or decision.
    fn new_game(seats: u8, options: &Self::Options) -> Result<Self, SetupError>;

    /// What the game waits for.
    fn next(&self) -> Next<'_>;

    /// Every action `seat` may take now, in ascending order, appended to `out`
    /// (which is cleared first). Empty unless `seat` has a decision to make.
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Self::Action>);

    /// Apply a seat's decision. Events are appended to `events`.
    fn apply_action(
        &mut self,
        seat: Seat,
        action: &Self::Action,
        events: &mut Vec<Self::Event>,
    ) -> Result<(), Self::Error>;

    /// Apply the outcome of the pending chance request.
    fn apply_chance(
        &mut self,
        outcome: &ChanceOutcome,
        events: &mut Vec<Self::Event>,
    ) -> Result<(), Self::Error>;

    /// What `observer` may know of the game now.
    fn view(&self, observer: Observer) -> Self::View;

    /// The ranking by the game's own rules if the game ended now: at the end
    /// it is the result, and a game abandoned on the way ends with it (its
    /// stopped seats put last, [`GameResult::with_last`]).
    fn standing(&self) -> GameResult;

    /// How the game ended, once it is over.
    fn result(&self) -> Option<GameResult> {
        (self.next() == Next::Over).then(|| self.standing())
    }

    /// Read an action from its text form (the inverse of `Display`).
    fn parse_action(text: &str) -> Result<Self::Action, ParseError>;

    /// Read a chance outcome for the pending request from its text form.
    fn parse_outcome(&self, text: &str) -> Result<ChanceOutcome, ParseError>;

    /// The text form of an outcome of the pending request.
    fn outcome_name(&self, outcome: &ChanceOutcome) -> String;

    /// The action a forfeited seat takes when the game needs its decision: a
    /// deterministic "zombie" move every peer agrees on without messages.
    /// Games override this with their cheapest move (pass, stop); the default
    /// is the first legal action.
    fn zombie_action(&self, seat: Seat) -> Option<Self::Action> {
        let mut legal = Vec::new();
        self.legal_actions(seat, &mut legal);
        legal.into_iter().next()
    }

    /// The canonical hash of the state: SHA-256 of its postcard encoding.
    fn state_hash(&self) -> StateHash {
        // postcard writes into memory and derived serialisation of plain data
        // cannot fail, so an error here is a bug in the game's own types.
        #[allow(clippy::expect_used)]
        let bytes = postcard::to_allocvec(self).expect("game state serialises");
        StateHash(Sha256::digest(&bytes).into())
    }

    /// Legal actions as a fresh vector (convenience over [`Game::legal_actions`]).
    fn legal_actions_vec(&self, seat: Seat) -> Vec<Self::Action> {
        let mut out = Vec::new();
        self.legal_actions(seat, &mut out);
        out
    }
}
