//! Computer players.
//!
//! A bot sees exactly what its seat may know (the seat's view) and the legal
//! actions, and returns one of them. Whoever drives it submits that action the
//! same way a person's move is submitted, so a bot has no powers a player lacks.
//!
//! * [`RandomBot`] picks uniformly among the legal actions (any game).
//! * [`PortRoyalBot`] plays Port Royal by weighing the risk of a bust against
//!   the harbor's value, hiring for points and abilities and claiming
//!   expeditions; [`port_royal`] describes the heuristic, which prices draws
//!   over the unseen-card estimate of [`roundtable_port_royal::odds`].
//! * [`SearchBot`] searches any game that implements
//!   [`roundtable_engine::Determinize`] by information-set Monte Carlo tree
//!   search, from its seat's knowledge only ([`search`]); played as the
//!   hard level it thinks up to its think time a decision, none where one
//!   action is legal and less where the choice is small or settles early
//!   (the pace, in [`search`]).
//! * [`Level`] names the three a player chooses between (easy, normal,
//!   hard) and makes them ([`level`]).

pub mod arena;
pub mod guildhall;
pub mod level;
pub mod nereus;
pub mod port_royal;
pub mod search;

pub use guildhall::GuildhallBot;
pub use level::{DEFAULT_THINK, EasyBot, Level, Leveled};
pub use nereus::NereusBot;
pub use port_royal::{PortRoyalBot, VP_IN_COINS};
pub use search::{
    Budget, ENOUGH_PLAYOUTS_PER_ACTION, FULL_THINK_ACTIONS, STALL_CLOCK_SHARE, SearchBot,
    SearchStats, Tuning, answer_limit, settled,
};

use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use roundtable_engine::{Game, Knowledge, Observer, Seat, sim};

/// A computer player for game `G`.
pub trait Bot<G: Game>: Send {
    /// A short name for logs ("random").
    fn name(&self) -> &'static str;

    /// Pick one of `legal` (never empty) for `seat`, knowing only `view`.
    /// Returns an index into `legal`.
    fn choose(&mut self, seat: Seat, view: &G::View, legal: &[G::Action]) -> usize;

    /// The table's options (public in its genesis), told before the first
    /// decision. A bot made before its table was known (a network seat
    /// joining by ticket) plays by these, not by the options it was made
    /// with. A bot that plays alike under every option ignores them.
    fn table_options(&mut self, options: &G::Options) {
        let _ = options;
    }

    /// The most the next decision may take, told by a driver whose table
    /// claims a seat that answers too late ([`answer_limit`]): time is an
    /// input here, never read from a table. It bounds that one decision,
    /// below the bot's own budget. A bot that answers at once ignores it.
    fn answer_within(&mut self, limit: std::time::Duration) {
        let _ = limit;
    }

    /// Pick one of `legal` for `seat` given the shared state the table
    /// holds and the seat's own [`Knowledge`]. The shared state is public by
    /// construction (every peer holds the same one; private cards are
    /// handles in it, their identities only in each seat's knowledge), so
    /// this tells a bot nothing its seat could not know, and a bot must read
    /// from `knowledge` only what a game's `view_with` would. Drivers that
    /// hold the state call this; the default decides from the seat's view,
    /// as [`Bot::choose`].
    fn choose_in(
        &mut self,
        seat: Seat,
        state: &G,
        knowledge: &Knowledge,
        legal: &[G::Action],
    ) -> usize {
        let view = state.view_with(Observer::Seat(seat), knowledge);
        self.choose(seat, &view, legal)
    }

    /// Every seat's prospects in `state` (an imagined world of a search,
    /// `knowledge` its guessed cards), each in `[0, 1]`: what a search
    /// credits a seat when it cuts a playout short ([`Tuning::horizon`]),
    /// on the scale of a finished game's reward (1 for a sure win, 0.5 for
    /// level with the best other seat). `None` (the default) has the search
    /// rank the seats by the game's own standing.
    fn prospects(&self, state: &G, knowledge: &Knowledge) -> Option<Vec<f64>> {
        let _ = (state, knowledge);
        None
    }
}

/// Picks a legal action uniformly at random from its own seeded stream.
///
/// It is the search bot's cheapest playout policy, so its stream is a fast
/// one (Xoshiro256++, [`sim::uniform_by_multiply`]): a bot's choices need no
/// cryptographic strength, and a ChaCha block and a division per choice were
/// a tenth of a random playout.
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: Xoshiro256PlusPlus,
}

impl RandomBot {
    /// A random bot whose choices are reproducible from `seed`.
    pub fn new(seed: u64) -> Self {
        RandomBot {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }

    /// A uniform index below `len`.
    fn pick(&mut self, len: usize) -> usize {
        let rng = &mut self.rng;
        sim::uniform_by_multiply(len as u64, &mut || rng.next_u64()) as usize
    }
}

impl<G: Game> Bot<G> for RandomBot {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose(&mut self, _seat: Seat, _view: &G::View, legal: &[G::Action]) -> usize {
        self.pick(legal.len())
    }

    /// Reads nothing but `legal`, so it skips building a view (this is the
    /// search bot's cheapest playout policy).
    fn choose_in(
        &mut self,
        _seat: Seat,
        _state: &G,
        _knowledge: &Knowledge,
        legal: &[G::Action],
    ) -> usize {
        self.pick(legal.len())
    }
}

/// A boxed bot is a bot, so a search bot's playout policy can be chosen at
/// run time.
impl<G: Game, B: Bot<G> + ?Sized> Bot<G> for Box<B> {
    fn name(&self) -> &'static str {
        (**self).name()
    }

    fn choose(&mut self, seat: Seat, view: &G::View, legal: &[G::Action]) -> usize {
        (**self).choose(seat, view, legal)
    }

    fn table_options(&mut self, options: &G::Options) {
        (**self).table_options(options);
    }

    fn answer_within(&mut self, limit: std::time::Duration) {
        (**self).answer_within(limit);
    }

    fn choose_in(
        &mut self,
        seat: Seat,
        state: &G,
        knowledge: &Knowledge,
        legal: &[G::Action],
    ) -> usize {
        (**self).choose_in(seat, state, knowledge, legal)
    }

    fn prospects(&self, state: &G, knowledge: &Knowledge) -> Option<Vec<f64>> {
        (**self).prospects(state, knowledge)
    }
}
