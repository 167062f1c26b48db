//! Computer players.
//!
//! A bot sees exactly what its seat may know (the seat's view) and the legal
//! actions, and returns one of them. Whoever drives it submits that action the
//! same way a person's move is submitted, so a bot has no powers a player lacks.
//!
//! * [`RandomBot`] picks uniformly among the legal actions (any game).
//! * [`PortRoyalBot`] plays Port Royal by weighing the risk of a bust against
//!   the harbor's value, hiring for points and abilities and claiming
//!   expeditions; [`port_royal`] describes the heuristic and [`bust_chance`]
//!   is the risk estimate it uses.

pub mod arena;
pub mod port_royal;

pub use port_royal::{PortRoyalBot, VP_IN_COINS, bust_chance};

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_engine::{Game, Seat};

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
}

/// Picks a legal action uniformly at random from its own seeded stream.
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    /// A random bot whose choices are reproducible from `seed`.
    pub fn new(seed: u64) -> Self {
        RandomBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Bot<G> for RandomBot {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose(&mut self, _seat: Seat, _view: &G::View, legal: &[G::Action]) -> usize {
        // Modulo bias is irrelevant for a bot's choice among a few actions.
        (self.rng.next_u64() % legal.len().max(1) as u64) as usize
    }
}
