//! Whole games between bots, for tests, benchmarks and tuning.
//!
//! Chance is sampled locally with the protocol's sampler walk from a seeded
//! `ChaCha20Rng`, so a seed names one game exactly; this is never how peers
//! draw cards (that is the table's commit-reveal beacon).

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_engine::{Game, GameResult, Knowledge, Next, Observer, Seat, sim};
use roundtable_port_royal::{Options, PortRoyal, View};

use crate::Bot;

/// Why a bot game did not finish.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// The game could not be set up.
    #[error("setting up the game: {0}")]
    Setup(#[from] roundtable_engine::SetupError),
    /// There is not one bot per seat.
    #[error("{bots} bots for {seats} seats")]
    BotCount {
        /// Bots given.
        bots: usize,
        /// Seats asked for.
        seats: u8,
    },
    /// The rules refused an input they had offered (a bug in the rules).
    #[error("the rules refused their own offer: {0}")]
    Refused(String),
    /// The game did not end within the input limit.
    #[error("the game did not end within {0} inputs")]
    TooLong(usize),
}

/// One decision a bot was asked for, kept for benchmarks.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The seat deciding.
    pub seat: Seat,
    /// Its view.
    pub view: View,
    /// Its legal actions.
    pub legal: Vec<roundtable_port_royal::Action>,
}

/// Play one game of Port Royal, one bot per seat (`bots[i]` sits at seat
/// `i`), chance from `seed`. `record` sees every decision before it is made.
pub fn play_port_royal(
    options: &Options,
    seed: u64,
    bots: &mut [Box<dyn Bot<PortRoyal>>],
    record: &mut dyn FnMut(&Decision),
) -> Result<GameResult, ArenaError> {
    const MAX_INPUTS: usize = 200_000;
    let seats = u8::try_from(bots.len()).unwrap_or(u8::MAX);
    let mut game = PortRoyal::new_game(seats, options)?;
    if bots.len() != usize::from(seats) {
        return Err(ArenaError::BotCount {
            bots: bots.len(),
            seats,
        });
    }
    let mut chance = ChaCha20Rng::seed_from_u64(seed);
    let mut events = Vec::new();
    let mut legal = Vec::new();
    for _ in 0..MAX_INPUTS {
        events.clear();
        match game.next() {
            Next::Over => {
                return game
                    .result()
                    .ok_or_else(|| ArenaError::Refused("over without a result".into()));
            }
            Next::Simultaneous(_) => {
                return Err(ArenaError::Refused(
                    "Port Royal has no simultaneous choices".into(),
                ));
            }
            Next::Private(_) => {
                return Err(ArenaError::Refused(
                    "Port Royal has no private cards".into(),
                ));
            }
            Next::Chance(request) => {
                let outcome = sim::sample(&request.distribution, &mut |n| {
                    sim::uniform_below(n, &mut || chance.next_u64())
                });
                game.apply_chance(&outcome, &mut events)
                    .map_err(|e| ArenaError::Refused(e.to_string()))?;
            }
            Next::Decision(seat) => {
                game.legal_actions(seat, &mut legal);
                let decision = Decision {
                    seat,
                    view: game.view(Observer::Seat(seat)),
                    legal: std::mem::take(&mut legal),
                };
                record(&decision);
                let bot = &mut bots[seat.index()];
                let pick = bot
                    .choose_in(seat, &game, &Knowledge::new(), &decision.legal)
                    .min(decision.legal.len().saturating_sub(1));
                let action = *decision
                    .legal
                    .get(pick)
                    .ok_or_else(|| ArenaError::Refused(format!("{seat} has no legal action")))?;
                legal = decision.legal;
                game.apply_action(seat, &action, &mut events)
                    .map_err(|e| ArenaError::Refused(e.to_string()))?;
            }
        }
    }
    Err(ArenaError::TooLong(MAX_INPUTS))
}
