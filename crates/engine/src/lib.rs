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
//!
//! # Cards known to one seat
//!
//! Guildhall hands and Nereus science cards are seen by one seat only. They
//! are dealt by all seats together (mental poker, `roundtable-deal`): the deck
//! is a list of ciphertexts no seat can open alone, and a card is opened only
//! with a decryption share of every seat. The engine's side of it:
//!
//! * **The state holds handles only.** A private card is a [`CardHandle`],
//!   slot `slot` of the deck shuffled in epoch `epoch`. Which card lies in it
//!   is never in the state, so the state stays identical, and hashes
//!   identically, on every peer, whoever holds what.
//! * **Deals, reveals and reshuffles are requests**, like chance requests:
//!   [`Game::next`] returns [`Next::Private`] with a [`PrivateRequest`]. One
//!   variant for the three, not three variants of [`Next`]: the table serves
//!   all three from the same protocol (decryption shares and shuffles from
//!   every seat, as obligations with deadlines) and never from the beacon,
//!   and a driver that deals no private cards refuses them with one arm.
//!   - [`PrivateRequest::Deal`] gives the next slots of the current deck to a
//!     seat. The answer, [`Game::apply_deal`], carries no card: the other
//!     seats' shares go to the receiving seat's table, which opens the cards
//!     into that seat's [`Knowledge`], and the state only records the handles
//!     as held.
//!   - [`PrivateRequest::Reveal`] asks for cards to be shown to everyone
//!     (hands shown at the end); [`Game::apply_reveal`] receives each
//!     handle's card, opened from every seat's share, so the identity becomes
//!     part of the public state.
//!   - [`PrivateRequest::Reshuffle`] turns a public pile, whose cards are all
//!     known, back into a deck: the answer, [`Game::apply_reshuffle`], opens a
//!     new epoch whose slots are fresh handles of unknown identity; the
//!     multiset of the new deck is the pile's (public) multiset.
//!
//!   A game keeps its deck as a [`DeckSlots`] (the epoch, its size, the
//!   next slot to deal): the same bookkeeping of deals and reshuffles in
//!   every game. A searching bot's guess at the unseen cards
//!   ([`Determinize`]) gives the undealt and hidden handles the unaccounted
//!   cards with [`Knowledge::learn_shuffled`].
//! * **A seat's own knowledge reaches that seat only.** The identities a
//!   seat's table opened are its [`Knowledge`], kept outside the state.
//!   [`Game::view_with`] and [`Game::legal_actions_with`] take it; a game
//!   reads from it only the handles the observing seat holds, so passing a
//!   wrong seat's knowledge reveals nothing, and a spectator's view ignores
//!   it. Without knowledge (the plain [`Game::view`] and
//!   [`Game::legal_actions`]) a seat sees its handles but not its cards.
//! * **Playing a card face up names the handle and the card.** The table
//!   attaches the holder's decryption share to the action, opens the card
//!   and passes the opened identity to [`Game::apply_action_revealing`]
//!   ([`Game::claims`] tells it which handles an action plays). The game
//!   refuses, by a named rule (such as `card-not-held`) and without any
//!   change, an action whose handle is not the seat's or whose claimed card
//!   is not the opened one. So a false claim is a rule error anyone can
//!   check, never a disagreement between peers.
//! * **Only rules checkable at the time.** Every rule that refuses a play
//!   must be decidable from the public state and the revealed card: an
//!   honest peer has to be able to prove a violation the moment it happens.
//!   A rule like "you must play higher if you can" depends on the rest of a
//!   hidden hand and could be checked only after the keys are released; a
//!   game that needs one checks it in the audit, not in `apply_action`.
//!
//! How the requests map onto the deal (protocol/SPEC.md part 5): a handle's
//! `epoch` is the epoch of the deal's contexts and of the deck, its `slot`
//! the slot whose decryption shares open it. A game's first deck is a
//! [`PrivateRequest::Reshuffle`] too, of its cards lying face up into epoch
//! 0, because the deal's first deck is exactly such an open deck (5.4) that
//! every seat then shuffles; the `pile` slice is the order in which the open
//! deck lists the cards (5.8). A [`PrivateRequest::Deal`] names its slots, so
//! an honest peer gives shares for exactly those and no others.
//!
//! Every private-card method has a default that refuses
//! ([`PrivateError::Unsupported`]) or falls back to the public method, so a
//! game without private cards (Port Royal) implements none of them.
//! `roundtable-hands` is a small game that uses all of them;
//! [`sim::play_private`] plays such games with a local oracle dealer.

use std::fmt;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

mod pool;
mod private;
pub mod sim;

pub use pool::{Deck, EpochId, FaceDown, PoolError, UnseenPool};
pub use private::{
    CardHandle, DeckSlots, Knowledge, MAX_PRIVATE_DECK, PrivateError, PrivateRequest, RequestError,
    Revealed,
};

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

/// `count` and a noun, the singular for one: "1 completed chapter", "3
/// rounds". `plural` is the noun's plural ("chapters", "people"). The one
/// helper for counts people read, in every crate that words them.
pub fn plural<N>(count: N, singular: &str, plural: &str) -> String
where
    N: Copy + std::fmt::Display + PartialEq + From<u8>,
{
    let noun = if count == N::from(1) {
        singular
    } else {
        plural
    };
    format!("{count} {noun}")
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

/// Counts per entry of [`Distribution::Multiset::blocks`]: the runs of
/// consecutive catalog entries whose sums a holder of a multiset may keep.
pub const MULTISET_BLOCK: usize = 8;

/// The exact distribution a chance request asks to be sampled from.
///
/// Two distributions are equal when they draw alike: a multiset's `blocks`
/// are a cache of its counts and take no part in the comparison.
#[derive(Clone, Copy, Debug)]
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
        /// The sum of `counts`. Whoever holds the multiset keeps it (the
        /// unseen pool counts every epoch's cards anyway), so a sampler need
        /// not add up the whole catalog at every draw; a wrong total makes
        /// samplers that rely on it draw wrongly.
        total: u32,
        /// How many cards to draw; at most the sum of `counts`.
        take: u32,
        /// The sums of `counts` in runs of [`MULTISET_BLOCK`] entries, the
        /// last run possibly shorter; empty when the holder keeps none, and
        /// then a sampler adds the runs up itself. A one-card draw finds the
        /// run holding its card from these sums rather than from every
        /// count of the catalog, which was most of its cost. Like `total`,
        /// wrong sums make samplers that rely on them draw wrongly.
        blocks: &'a [u32],
    },
}

impl PartialEq for Distribution<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Distribution::Uniform { n: a }, Distribution::Uniform { n: b }) => a == b,
            (
                Distribution::Multiset {
                    counts: a,
                    total: ta,
                    take: ka,
                    ..
                },
                Distribution::Multiset {
                    counts: b,
                    total: tb,
                    take: kb,
                    ..
                },
            ) => a == b && ta == tb && ka == kb,
            _ => false,
        }
    }
}

impl Eq for Distribution<'_> {}

impl<'a> Distribution<'a> {
    /// A multiset distribution of `take` cards from `counts`, its total
    /// added up here (for multisets nobody keeps a total of; the total
    /// stops at `u32::MAX`, beyond what any deck holds).
    pub fn multiset(counts: &'a [u32], take: u32) -> Distribution<'a> {
        Distribution::Multiset {
            counts,
            total: counts.iter().fold(0u32, |sum, &c| sum.saturating_add(c)),
            take,
            blocks: &[],
        }
    }

    /// Whether `outcome` is a possible result of this distribution.
    pub fn admits(&self, outcome: &ChanceOutcome) -> bool {
        match (self, outcome) {
            (Distribution::Uniform { n }, ChanceOutcome::Index(v)) => v < n,
            (Distribution::Multiset { counts, take, .. }, ChanceOutcome::Cards(cards)) => {
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
    /// A step of the private deal is needed: a deal to one seat, a public
    /// reveal or a reshuffle (see the crate docs, "Cards known to one seat").
    Private(PrivateRequest<'a>),
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

    /// The standings of seats scoring `scores` (in seat order, each a
    /// `(score, tie_break)`): a seat's rank is how many seats have a pair
    /// strictly greater, so equal pairs share a place.
    pub fn from_scores(scores: &[(i64, i64)]) -> GameResult {
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

impl SetupError {
    /// `Ok` when a game of `G` is played at `seats` seats, else the
    /// [`SetupError::SeatCount`] that names the game's range: the one check
    /// every game's `new_game` and every front end make.
    pub fn check_seats<G: Game>(seats: u8) -> Result<(), SetupError> {
        if (G::MIN_SEATS..=G::MAX_SEATS).contains(&seats) {
            Ok(())
        } else {
            Err(SetupError::SeatCount {
                seats,
                min: G::MIN_SEATS,
                max: G::MAX_SEATS,
            })
        }
    }
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

    /// Apply `action`, which [`Game::legal_actions`] listed for `seat` in
    /// this very state, in a playout whose events nobody reads: a game may
    /// skip checking the action again and may record no events. Playouts
    /// (the simulator, a bot's search) spend their time here, and the check
    /// and the events were a fifth of a Port Royal playout.
    ///
    /// Only for actions the caller took from that list: an input from a
    /// peer, a file or a user goes through [`Game::apply_action`], since a
    /// game may apply an action its list did not hold inconsistently here.
    /// The state afterwards is the one [`Game::apply_action`] leaves.
    /// `scratch` is only for games that do record: the default is
    /// [`Game::apply_action`] into `scratch` (cleared first), which the
    /// caller keeps for reuse and never reads.
    fn apply_legal_action(
        &mut self,
        seat: Seat,
        action: &Self::Action,
        scratch: &mut Vec<Self::Event>,
    ) -> Result<(), Self::Error> {
        scratch.clear();
        self.apply_action(seat, action, scratch)
    }

    /// Apply `outcome`, sampled from the pending request's own
    /// distribution, in a playout whose events nobody reads: the chance
    /// counterpart of [`Game::apply_legal_action`], under the same terms (a
    /// game may skip the check and the events; outcomes from the table's
    /// beacon, a file or a user go through [`Game::apply_chance`]; the
    /// default is [`Game::apply_chance`] into `scratch`).
    fn apply_sampled_chance(
        &mut self,
        outcome: &ChanceOutcome,
        scratch: &mut Vec<Self::Event>,
    ) -> Result<(), Self::Error> {
        scratch.clear();
        self.apply_chance(outcome, scratch)
    }

    /// In a playout whose events nobody reads: if a chance outcome is
    /// pending, sample it with `uniform` and apply it, and say so with
    /// `Some`; `None` (and nothing changed) when none is pending.
    ///
    /// The outcome and the state must be the ones [`sim::sample_into`] on
    /// [`Game::next`]'s distribution followed by
    /// [`Game::apply_sampled_chance`] give, drawing the same numbers from
    /// `uniform` in the same order: that is the default. A game overrides it
    /// to sample straight from the pile it holds, without building the
    /// request and the outcome in between, which playouts do at nearly every
    /// other input. `outcome` is scratch space the default samples into.
    fn apply_random_chance(
        &mut self,
        uniform: &mut impl FnMut(u64) -> u64,
        outcome: &mut ChanceOutcome,
        scratch: &mut Vec<Self::Event>,
    ) -> Option<Result<(), Self::Error>> {
        sim::apply_next_chance(self, uniform, outcome, scratch)
    }

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

    /// Apply the answer to a pending [`PrivateRequest::Deal`]: the dealt
    /// slots are now the receiving seat's. No card is passed, because the
    /// shared state never holds a private identity.
    fn apply_deal(
        &mut self,
        events: &mut Vec<Self::Event>,
    ) -> Result<(), PrivateError<Self::Error>> {
        let _ = events;
        Err(PrivateError::Unsupported { game: Self::NAME })
    }

    /// Apply the answer to a pending [`PrivateRequest::Reveal`]: the card of
    /// every requested handle, in the request's order.
    fn apply_reveal(
        &mut self,
        cards: &[Revealed],
        events: &mut Vec<Self::Event>,
    ) -> Result<(), PrivateError<Self::Error>> {
        let _ = (cards, events);
        Err(PrivateError::Unsupported { game: Self::NAME })
    }

    /// Apply the answer to a pending [`PrivateRequest::Reshuffle`]: the pile
    /// becomes a deck of fresh handles in the requested epoch.
    fn apply_reshuffle(
        &mut self,
        events: &mut Vec<Self::Event>,
    ) -> Result<(), PrivateError<Self::Error>> {
        let _ = events;
        Err(PrivateError::Unsupported { game: Self::NAME })
    }

    /// The private cards `action` plays face up, each with the card the
    /// action claims it is. The table opens each handle with the holder's
    /// share attached to the action and passes the opened cards to
    /// [`Game::apply_action_revealing`]. None by default.
    fn claims(action: &Self::Action) -> Vec<Revealed> {
        let _ = action;
        Vec::new()
    }

    /// Apply a seat's decision together with the cards it reveals (opened
    /// from the holder's shares, one per [`Game::claims`] entry). A game
    /// with private cards checks every claim against `revealed` and refuses
    /// a handle the seat does not hold or a card that is not the opened one,
    /// leaving the state unchanged. The default accepts only an action that
    /// reveals nothing and applies it with [`Game::apply_action`].
    fn apply_action_revealing(
        &mut self,
        seat: Seat,
        action: &Self::Action,
        revealed: &[Revealed],
        events: &mut Vec<Self::Event>,
    ) -> Result<(), PrivateError<Self::Error>> {
        if !revealed.is_empty() {
            return Err(PrivateError::Unsupported { game: Self::NAME });
        }
        Ok(self.apply_action(seat, action, events)?)
    }

    /// What `observer` may know, given what its seat's table opened. A game
    /// reads from `knowledge` only the handles `observer` holds, and nothing
    /// for a spectator. The default is [`Game::view`].
    fn view_with(&self, observer: Observer, knowledge: &Knowledge) -> Self::View {
        let _ = knowledge;
        self.view(observer)
    }

    /// Every action `seat` may take now, given what its table opened, in
    /// ascending order, appended to `out` (cleared first). A game reads from
    /// `knowledge` only the handles `seat` holds. The default is
    /// [`Game::legal_actions`].
    fn legal_actions_with(&self, seat: Seat, knowledge: &Knowledge, out: &mut Vec<Self::Action>) {
        let _ = knowledge;
        self.legal_actions(seat, out);
    }
}

/// Sampling what one seat cannot see, for bots that look ahead.
///
/// A search bot plays many imagined continuations from the table's state.
/// The shared state is public by construction (every peer holds the same
/// one, and private cards are handles in it), so cloning it tells the bot
/// nothing its seat could not know. What the state lacks is the identity of
/// the private cards still in play. To imagine a continuation the bot needs
/// one guess at those, drawn only from what its seat knows: this trait.
///
/// Cards nobody has seen ([`UnseenPool`]) need nothing here: they have no
/// identity in the state, and a continuation reveals them through ordinary
/// chance requests over the unseen multiset, as the table would.
pub trait Determinize: Game {
    /// A card for every private handle still in play (in any hand, or not
    /// yet dealt from the current deck): `seat`'s own opened cards copied
    /// from `knowledge`, every other handle given a card drawn uniformly, by
    /// `uniform(n)` (uniform in `[0, n)`), from the identities no public
    /// card and none of `seat`'s opened cards accounts for. A game reads
    /// from `knowledge` only the handles `seat` holds, so the guess depends
    /// on nothing the seat cannot see. A game without private cards returns
    /// an empty [`Knowledge`].
    fn sample_hidden(
        &self,
        seat: Seat,
        knowledge: &Knowledge,
        uniform: &mut dyn FnMut(u64) -> u64,
    ) -> Knowledge;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ranks count the seats strictly better on (score, tie_break): equal
    /// pairs share a place, and the next place skips past them.
    #[test]
    fn from_scores_ranks_by_score_then_tie_break() {
        let result = GameResult::from_scores(&[(5, 1), (7, 0), (5, 1), (5, 2)]);
        let ranks: Vec<u8> = result.standings.iter().map(|s| s.rank).collect();
        assert_eq!(ranks, vec![2, 0, 2, 1]);
        assert_eq!(result.winners(), vec![Seat(1)]);
        assert_eq!(result.standings[3].tie_break, 2);
    }
}
