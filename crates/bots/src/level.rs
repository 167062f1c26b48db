//! The bots a player chooses between, by how well they play.
//!
//! * [`Level::Easy`]: the heuristic bot's move half the time, a random legal
//!   move otherwise ([`EasyBot`]), so it makes the mistakes a beginner makes;
//! * [`Level::Normal`]: the game's heuristic bot ([`PortRoyalBot`],
//!   [`GuildhallBot`], [`NereusBot`]);
//! * [`Level::Hard`]: the [`SearchBot`] with heuristic playouts cut at the
//!   game's horizon, thinking up to a given time a decision
//!   ([`Budget::up_to`]: none when the move is forced, less when the
//!   choice is small). Paced so, with the playouts 100 ms of one core's
//!   CPU buys, it won 51 % of 200 4-seat Port Royal games, 47.5 % of
//!   Guildhall's and 86 % of Nereus's against three normal bots
//!   (`examples/strength.rs`, 2026-11-28, issue 31).
//!
//! A game says which heuristic bot is its own by implementing [`Leveled`];
//! front ends (the terminal UI's set-up forms, `play`, `host`) make their
//! bots with [`Level::bot`], so a level means the same bot everywhere.

use std::time::Duration;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_engine::{Determinize, Game, Knowledge, Seat};
use roundtable_guildhall::Guildhall;
use roundtable_nereus::Nereus;
use roundtable_port_royal::{Options, PortRoyal};

use crate::{Bot, Budget, GuildhallBot, NereusBot, PortRoyalBot, SearchBot, Tuning};

/// Decisions a hard Port Royal bot's playouts look past its search tree
/// before the position is scored by VP and coins ([`Tuning::horizon`]).
pub const PORT_ROYAL_HORIZON: u32 = 16;

/// Decisions a hard Guildhall bot's playouts look past its search tree
/// before the heuristic scores the position ([`Tuning::horizon`]).
pub const GUILDHALL_HORIZON: u32 = 10;

/// Decisions a hard Nereus bot's playouts look past its search tree before
/// the heuristic scores the position ([`Tuning::horizon`]).
pub const NEREUS_HORIZON: u32 = 10;

/// The most a hard bot thinks on one decision unless told otherwise.
pub const DEFAULT_THINK: Duration = Duration::from_millis(1000);

/// How well a bot plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Level {
    /// Often plays a random legal move.
    Easy,
    /// Plays by the heuristic's rules of thumb, at once.
    #[default]
    Normal,
    /// Searches the game's possible continuations for its think time.
    Hard,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Normal, Level::Hard];

    /// The level in one word ("easy").
    pub fn word(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }

    /// How the level plays, in a few words for a set-up form.
    pub fn describe(self) -> &'static str {
        match self {
            Level::Easy => "plays at random half the time",
            Level::Normal => "plays by rules of thumb, at once",
            Level::Hard => "searches ahead, up to its think time a decision",
        }
    }

    /// Whether a bot of this level spends its think time on a move.
    pub fn thinks(self) -> bool {
        self == Level::Hard
    }

    /// A bot of this level for a table of game `G` with `options`; a hard
    /// one thinks up to `think` a decision, paced ([`Budget::up_to`]).
    /// `seed` steers its random choices (the normal bot has none).
    pub fn bot<G: Leveled>(
        self,
        options: &G::Options,
        think: Duration,
        seed: u64,
    ) -> Box<dyn Bot<G>> {
        match self {
            Level::Easy => Box::new(EasyBot::new(G::heuristic(options), seed)),
            Level::Normal => Box::new(G::heuristic(options)),
            Level::Hard => Box::new(
                SearchBot::new(Budget::up_to(think), G::heuristic(options), seed).with_tuning(
                    Tuning {
                        horizon: G::HORIZON,
                        ..Tuning::default()
                    },
                ),
            ),
        }
    }
}

/// A game a player can choose bots for by [`Level`]: its heuristic bot
/// plays the normal level, half the easy one's moves and the hard one's
/// playouts.
pub trait Leveled: Determinize {
    /// The game's heuristic bot.
    type Heuristic: Bot<Self> + 'static;

    /// Decisions a hard bot's playouts look past its search tree before
    /// the heuristic scores the position ([`Tuning::horizon`]).
    const HORIZON: u32;

    /// The heuristic bot for a table with `options`.
    fn heuristic(options: &Self::Options) -> Self::Heuristic;
}

impl Leveled for PortRoyal {
    type Heuristic = PortRoyalBot;

    // A cut playout costs a nineteenth of a whole one; at 700 cut playouts
    // a decision (then 100 ms of one core's CPU) the search won 46 % of 400
    // 4-seat games against three heuristic bots (95 % CI 41-51 %), against
    // 29 % of 114 with whole playouts (examples/strength.rs). Since the
    // heuristic prices a harbor once per decision, 100 ms of one core's CPU
    // buys about 1,900 cut playouts on this machine (the search thread's
    // CPU time, examples/strength.rs, 2026-11-28).
    const HORIZON: u32 = PORT_ROYAL_HORIZON;

    fn heuristic(options: &Options) -> PortRoyalBot {
        PortRoyalBot::new(options)
    }
}

impl Leveled for Guildhall {
    type Heuristic = GuildhallBot;

    // A whole heuristic playout of Guildhall costs milliseconds: cut at a
    // horizon, ten times as many fit in the think time.
    const HORIZON: u32 = GUILDHALL_HORIZON;

    fn heuristic(_options: &roundtable_guildhall::Options) -> GuildhallBot {
        GuildhallBot::new()
    }
}

impl Leveled for Nereus {
    type Heuristic = NereusBot;

    // Cut at a horizon like Guildhall's: whole playouts of a four-day game
    // would leave few in the think time. A cut playout is scored by the
    // heuristic's worth of every seat (`NereusBot`'s prospects), not by VP,
    // which come mostly at the end. The hard bot's search chooses its
    // own crew card and samples the others' secret choices from its
    // playout policy, never reading them.
    const HORIZON: u32 = NEREUS_HORIZON;

    fn heuristic(_options: &roundtable_nereus::Options) -> NereusBot {
        NereusBot::new()
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word())
    }
}

/// The easy bot of any game: its heuristic bot's move half the time, else a
/// legal move at random. Purely random play is no game for a person (it
/// hardly ever scores), and the heuristic's alone is hard to beat for a
/// beginner.
#[derive(Clone, Debug)]
pub struct EasyBot<B> {
    heuristic: B,
    rng: ChaCha8Rng,
}

impl<B> EasyBot<B> {
    /// An easy bot that follows `heuristic` half the time, its coin flips
    /// from `seed`.
    pub fn new(heuristic: B, seed: u64) -> Self {
        EasyBot {
            heuristic,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl<G: Game, B: Bot<G>> Bot<G> for EasyBot<B> {
    fn name(&self) -> &'static str {
        "easy"
    }

    fn choose(&mut self, seat: Seat, view: &G::View, legal: &[G::Action]) -> usize {
        let draw = self.rng.next_u64();
        if draw & 1 == 0 {
            self.heuristic.choose(seat, view, legal)
        } else {
            // Modulo bias is irrelevant among a few moves.
            ((draw >> 1) % legal.len().max(1) as u64) as usize
        }
    }

    fn table_options(&mut self, options: &G::Options) {
        self.heuristic.table_options(options);
    }

    fn choose_in(
        &mut self,
        seat: Seat,
        state: &G,
        knowledge: &Knowledge,
        legal: &[G::Action],
    ) -> usize {
        let draw = self.rng.next_u64();
        if draw & 1 == 0 {
            self.heuristic.choose_in(seat, state, knowledge, legal)
        } else {
            ((draw >> 1) % legal.len().max(1) as u64) as usize
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::play_port_royal;

    /// The levels are ordered by strength: over seeded 3-seat games the
    /// easy bot wins less often than the normal one it plays against.
    #[test]
    fn easy_loses_to_normal() {
        let options = Options::default();
        let mut easy_wins = 0;
        let games = 30;
        for g in 0..games {
            let easy_seat = (g % 3) as usize;
            let mut bots: Vec<Box<dyn Bot<PortRoyal>>> = (0..3)
                .map(|s| {
                    let level = if s == easy_seat {
                        Level::Easy
                    } else {
                        Level::Normal
                    };
                    level.bot::<PortRoyal>(&options, DEFAULT_THINK, g)
                })
                .collect();
            let result = play_port_royal(&options, 100 + g, &mut bots, &mut |_| {})
                .unwrap_or_else(|e| panic!("game {g}: {e}"));
            if result.standings[easy_seat].rank == 0 {
                easy_wins += 1;
            }
        }
        // An equal share would be 10 of 30.
        assert!(easy_wins < 8, "the easy bot won {easy_wins} of {games}");
    }
}
