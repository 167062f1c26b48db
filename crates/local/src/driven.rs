//! A local game whose bots move by themselves, at a pace a person can
//! follow: what a front end's local session drives, so that no screen
//! ever asks a bot for a move.
//!
//! A bot that thinks (a search bot spends its think time) decides on a
//! thread of its own, so that the caller goes on (a terminal redraws and
//! answers keys) meanwhile; the others decide at once, in
//! [`DrivenGame::poll`]. The caller gives the time: nothing here sleeps.

use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use roundtable_engine::{Game, Seat};
use roundtable_table::TableError;

use crate::{Applied, BotMove, LocalGame, Progress};

/// How often a caller should look whether a thinking bot is done: its
/// thread says nothing when it is.
pub const THINKING_POLL: Duration = Duration::from_millis(30);

/// A bot deciding on its own thread.
struct Thinking<G: Game> {
    seat: Seat,
    worker: JoinHandle<BotMove<G>>,
}

/// A [`LocalGame`] whose bots the game itself moves when [`polled`]: a
/// pause of the pace before each bot move, thinking bots on threads of
/// their own.
///
/// [`polled`]: DrivenGame::poll
pub struct DrivenGame<G: Game> {
    game: LocalGame<G>,
    /// The pause before each bot move.
    pace: Duration,
    /// When the bot whose turn it is may move.
    bot_due: Option<Instant>,
    /// What the tables wait for once quiet.
    progress: Progress,
    /// A failure of the tables (a bug), after which no bot moves.
    failure: Option<String>,
    /// Which seats' bots think on a thread of their own.
    thinkers: Vec<bool>,
    /// The bot deciding on its own thread, if one is.
    thinking: Option<Thinking<G>>,
}

impl<G: Game> std::fmt::Debug for DrivenGame<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DrivenGame")
            .field("progress", &self.progress)
            .field("thinking", &self.thinking.as_ref().map(|t| t.seat))
            .finish_non_exhaustive()
    }
}

impl<G> DrivenGame<G>
where
    G: Game + Send + 'static,
    G::Action: Send,
{
    /// Drive `game`, whose players (in joining order) decide on threads of
    /// their own where `thinks` says so, pausing `pace` before each bot
    /// move; the tables are settled up to the first decision.
    pub fn new(game: LocalGame<G>, thinks: &[bool], pace: Duration) -> Self {
        let mut thinkers = vec![false; game.names().len()];
        for (player, thinks) in thinks.iter().enumerate() {
            if let Some(seat) = game.seat_of_player(player)
                && let Some(slot) = thinkers.get_mut(seat.index())
            {
                *slot = *thinks;
            }
        }
        let mut driven = DrivenGame {
            game,
            pace,
            bot_due: None,
            progress: Progress::Finished,
            failure: None,
            thinkers,
            thinking: None,
        };
        driven.settle();
        driven
    }

    /// The game driven.
    pub fn game(&self) -> &LocalGame<G> {
        &self.game
    }

    /// Inputs applied since the last call, as the observed table saw them.
    pub fn drain_applied(&mut self) -> impl Iterator<Item = Applied<G>> + '_ {
        self.game.drain_applied()
    }

    /// Why the tables failed (a bug), if they did.
    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }

    /// Whether the game is finished, every seed open.
    pub fn finished(&self) -> bool {
        self.progress == Progress::Finished
    }

    /// The seat whose bot is thinking on its own thread, if one is.
    pub fn thinking(&self) -> Option<Seat> {
        self.thinking.as_ref().map(|t| t.seat)
    }

    /// The bot whose decision the game waits for, if any.
    pub fn bot_to_move(&self) -> Option<Seat> {
        match self.progress {
            Progress::Bot(seat) if self.failure.is_none() => Some(seat),
            _ => None,
        }
    }

    /// A person's decision at `seat`; the bots answer after a pause, so
    /// that the person sees their own move first.
    pub fn submit(&mut self, seat: Seat, action: G::Action) -> Result<(), TableError> {
        self.game.submit(seat, action)?;
        self.settle();
        self.bot_due = None;
        Ok(())
    }

    /// Move the bots whose turn it is by `now`: at most one a pause, or
    /// all of them at once at no pace. Returns whether anything changed.
    pub fn poll(&mut self, now: Instant) -> bool {
        let mut progressed = false;
        while let Some(seat) = self.bot_to_move() {
            // A thinking bot starts at once; its pause runs while it thinks.
            if self.thinks(seat) && self.thinking.is_none() {
                self.start_thinking(seat);
                progressed = true;
            }
            if !self.pace.is_zero() {
                match self.bot_due {
                    None => {
                        self.bot_due = Some(now + self.pace);
                        break;
                    }
                    Some(due) if now < due => break,
                    Some(_) => {}
                }
            }
            let moved = if self.thinking.is_some() {
                match self.finish_thinking() {
                    None => break,
                    Some(moved) => moved,
                }
            } else {
                self.game.move_bot(seat).map_err(|e| e.to_string())
            };
            if let Err(e) = moved {
                self.failure = Some(e);
                return true;
            }
            self.settle();
            progressed = true;
            if !self.pace.is_zero() {
                // One bot move per pause; the next one waits its turn.
                self.bot_due = Some(now + self.pace);
                break;
            }
        }
        progressed
    }

    /// When to poll next: when the bot to move is due, and, while one
    /// thinks, every [`THINKING_POLL`] after `now`.
    pub fn next_wakeup(&self, now: Instant) -> Option<Instant> {
        self.bot_to_move()?;
        let look = self.thinking.as_ref().map(|_| now + THINKING_POLL);
        match (self.bot_due, look) {
            (Some(due), Some(look)) => Some(due.max(look)),
            (due, look) => due.or(look),
        }
    }

    /// Deliver what is in flight; the applied inputs wait for
    /// [`DrivenGame::drain_applied`].
    fn settle(&mut self) {
        match self.game.settle() {
            Ok(p) => self.progress = p,
            Err(e) => self.failure = Some(e.to_string()),
        }
    }

    /// Whether the bot at `seat` decides on a thread of its own.
    fn thinks(&self, seat: Seat) -> bool {
        self.thinkers.get(seat.index()).copied().unwrap_or(false)
    }

    /// Send the bot at `seat` to think on its own thread.
    fn start_thinking(&mut self, seat: Seat) {
        match self.game.take_bot_turn(seat) {
            Ok(turn) => {
                let worker = std::thread::spawn(move || turn.decide());
                self.thinking = Some(Thinking { seat, worker });
            }
            Err(e) => self.failure = Some(e.to_string()),
        }
    }

    /// The thinking bot's move, once its thread is done (`None` while it
    /// thinks).
    fn finish_thinking(&mut self) -> Option<Result<(), String>> {
        if !self.thinking.as_ref()?.worker.is_finished() {
            return None;
        }
        let thinking = self.thinking.take()?;
        Some(match thinking.worker.join() {
            Ok(decided) => self.game.play_bot_move(decided).map_err(|e| e.to_string()),
            Err(_) => Err(format!(
                "the bot {} (seat {}) failed while thinking",
                self.game
                    .names()
                    .get(thinking.seat.index())
                    .map_or("", String::as_str),
                thinking.seat.index() + 1
            )),
        })
    }
}
