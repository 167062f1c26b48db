//! A game in this process: you at seat 1, heuristic bots at the others.
//!
//! Chance is sampled locally from a seeded `ChaCha20Rng` with the protocol's
//! sampler walk ([`roundtable_engine::sim`]), so a seed names the whole game.
//! This is the local game until the networked table lands; it implements the
//! same [`Session`] trait a table-backed session will.

use std::time::{Duration, Instant};

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_bots::{Bot, PortRoyalBot};
use roundtable_engine::{Game, Next, Observer, Seat, SetupError, sim};
use roundtable_port_royal::{Action, Event, Options, PortRoyal};

use crate::session::{Chronicle, Connection, SeatInfo, SeatKind, Session, Snapshot};

/// How quickly the bots move, so that a person can follow them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pace {
    /// No pause: bots move as soon as it is their turn.
    Instant,
    /// A short pause between bot moves.
    Fast,
    /// A pause long enough to read each move.
    #[default]
    Normal,
    /// A long pause.
    Slow,
}

impl Pace {
    /// Every pace, slowest last.
    pub const ALL: [Pace; 4] = [Pace::Instant, Pace::Fast, Pace::Normal, Pace::Slow];

    /// The pause between two bot moves.
    pub fn delay(self) -> Duration {
        match self {
            Pace::Instant => Duration::ZERO,
            Pace::Fast => Duration::from_millis(150),
            Pace::Normal => Duration::from_millis(500),
            Pace::Slow => Duration::from_millis(1200),
        }
    }

    /// The pace in words.
    pub fn words(self) -> &'static str {
        match self {
            Pace::Instant => "instant",
            Pace::Fast => "fast",
            Pace::Normal => "normal",
            Pace::Slow => "slow",
        }
    }
}

/// How to set up a local game.
#[derive(Clone, Debug, PartialEq)]
pub struct LocalConfig {
    /// Seats at the table, 2 to 5; you sit at the first.
    pub seats: u8,
    /// Rule options and variants.
    pub options: Options,
    /// Seed for the shuffle; a fresh one when `None`.
    pub seed: Option<u64>,
    /// How quickly the bots move.
    pub pace: Pace,
    /// Your name at the table.
    pub name: String,
}

impl Default for LocalConfig {
    fn default() -> Self {
        LocalConfig {
            seats: 4,
            options: Options::default(),
            seed: None,
            pace: Pace::Normal,
            name: "You".into(),
        }
    }
}

/// Why a local game could not start.
#[derive(Debug, thiserror::Error)]
pub enum LocalError {
    /// The rules refused the set-up (seat count, options).
    #[error("cannot set up the game: {0}")]
    Setup(#[from] SetupError),
}

/// Names of the computer players, one per bot seat.
const BOT_NAMES: [&str; 4] = ["Anne Bonny", "Calico Jack", "Mary Read", "Black Bart"];

/// A local game of Port Royal against bots. Cloning it forks the game,
/// bots and chance included (benchmarks replay one moment many times).
#[derive(Clone)]
pub struct LocalSession {
    game: PortRoyal,
    me: Seat,
    bots: Vec<Option<PortRoyalBot>>,
    chance: ChaCha20Rng,
    seed: u64,
    names: Vec<String>,
    chronicle: Chronicle,
    delay: Duration,
    /// When the bot whose turn it is may move.
    bot_due: Option<Instant>,
    events: Vec<Event>,
}

impl std::fmt::Debug for LocalSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalSession")
            .field("seed", &self.seed)
            .field("me", &self.me)
            .finish_non_exhaustive()
    }
}

/// A seed from the clock and the standard library's per-process random
/// state: a local game only needs variety, not secrecy.
pub fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    h.finish()
}

impl LocalSession {
    /// Set up a game as `config` says, with chance resolved up to the first
    /// decision (the start player is drawn).
    pub fn new(config: &LocalConfig) -> Result<Self, LocalError> {
        let game = PortRoyal::new_game(config.seats, &config.options)?;
        let seed = config.seed.unwrap_or_else(fresh_seed);
        let me = Seat(0);
        let names = (0..config.seats)
            .map(|i| {
                if Seat(i) == me {
                    config.name.clone()
                } else {
                    BOT_NAMES[usize::from(i - 1) % BOT_NAMES.len()].to_owned()
                }
            })
            .collect();
        let bots = (0..config.seats)
            .map(|i| (Seat(i) != me).then(|| PortRoyalBot::new(&config.options)))
            .collect();
        let mut session = LocalSession {
            game,
            me,
            bots,
            chance: ChaCha20Rng::seed_from_u64(seed),
            seed,
            names,
            chronicle: Chronicle::new(),
            delay: config.pace.delay(),
            bot_due: None,
            events: Vec::new(),
        };
        session.resolve_chance();
        Ok(session)
    }

    /// The seed that replays this game.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The game's state (for tests and tools; the screen uses snapshots).
    pub fn game(&self) -> &PortRoyal {
        &self.game
    }

    fn record(&mut self) {
        let view = self.game.view(Observer::Spectator);
        self.chronicle
            .record(&self.events, &view, &self.names, Some(self.me));
        self.events.clear();
    }

    /// Apply chance outcomes until the game needs a decision; `true` if any.
    fn resolve_chance(&mut self) -> bool {
        let mut any = false;
        while let Next::Chance(request) = self.game.next() {
            let chance = &mut self.chance;
            let outcome = sim::sample(&request.distribution, &mut |n| {
                sim::uniform_below(n, &mut || chance.next_u64())
            });
            // The outcome was sampled from the game's own request, so the
            // rules accept it; a refusal would be a bug in the sampler.
            if self.game.apply_chance(&outcome, &mut self.events).is_err() {
                break;
            }
            any = true;
        }
        if any {
            self.record();
        }
        any
    }

    /// The bot whose decision the game waits for, if any.
    fn bot_to_move(&self) -> Option<Seat> {
        match self.game.next() {
            Next::Decision(seat) if seat != self.me => Some(seat),
            _ => None,
        }
    }

    fn bot_move(&mut self, seat: Seat) -> bool {
        let legal = self.game.legal_actions_vec(seat);
        let view = self.game.view(Observer::Seat(seat));
        let Some(bot) = self.bots.get_mut(seat.index()).and_then(Option::as_mut) else {
            return false;
        };
        let pick = Bot::<PortRoyal>::choose(bot, seat, &view, &legal);
        let Some(action) = legal.get(pick).or(legal.first()).copied() else {
            return false;
        };
        let ok = self
            .game
            .apply_action(seat, &action, &mut self.events)
            .is_ok();
        self.record();
        ok
    }
}

impl Session for LocalSession {
    fn snapshot(&self) -> Snapshot {
        let view = self.game.view(Observer::Seat(self.me));
        let legal = self.game.legal_actions_vec(self.me);
        let status = match self.game.next() {
            Next::Decision(seat) if seat == self.me => None,
            Next::Decision(seat) => Some(format!(
                "Waiting for {} (bot)",
                crate::text::seat_name(&self.names, seat)
            )),
            Next::Chance(request) => Some(format!("Waiting to {}", request.purpose)),
            Next::Simultaneous(_) => Some("Waiting for secret choices".into()),
            Next::Over => None,
        };
        Snapshot {
            title: format!("Local game, seed {}", self.seed),
            view,
            me: Some(self.me),
            legal,
            log: self.chronicle.log().to_vec(),
            seats: self
                .names
                .iter()
                .enumerate()
                .map(|(i, name)| SeatInfo {
                    name: name.clone(),
                    kind: if Seat(i as u8) == self.me {
                        SeatKind::You
                    } else {
                        SeatKind::Bot
                    },
                    connection: Connection::Local,
                    clock: None,
                })
                .collect(),
            vp_by_turn: self.chronicle.vp_by_turn().to_vec(),
            result: self.game.result(),
            status,
            transcript: None,
        }
    }

    fn submit(&mut self, action: Action) -> Result<(), String> {
        if self.game.next() != Next::Decision(self.me) {
            return Err("It is not your move.".into());
        }
        self.game
            .apply_action(self.me, &action, &mut self.events)
            .map_err(|e| e.to_string())?;
        self.record();
        self.resolve_chance();
        // The bots answer after a pause, so the player sees their own move.
        self.bot_due = None;
        Ok(())
    }

    fn poll(&mut self, now: Instant) -> bool {
        let mut progressed = self.resolve_chance();
        while let Some(seat) = self.bot_to_move() {
            if !self.delay.is_zero() {
                match self.bot_due {
                    None => {
                        self.bot_due = Some(now + self.delay);
                        break;
                    }
                    Some(due) if now < due => break,
                    Some(_) => {}
                }
            }
            if !self.bot_move(seat) {
                break;
            }
            progressed = true;
            self.resolve_chance();
            if !self.delay.is_zero() {
                // One bot move per pause; the next one waits its turn.
                self.bot_due = Some(now + self.delay);
                break;
            }
        }
        progressed
    }

    fn next_wakeup(&self) -> Option<Instant> {
        if self.bot_to_move().is_some() {
            self.bot_due
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn instant(seats: u8, seed: u64) -> LocalSession {
        let config = LocalConfig {
            seats,
            seed: Some(seed),
            pace: Pace::Instant,
            options: Options {
                victory_points: 6,
                ..Options::default()
            },
            ..LocalConfig::default()
        };
        LocalSession::new(&config).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_whole_game_through_the_session_trait() {
        let mut session = instant(3, 7);
        let mut me = PortRoyalBot::default();
        let start = Instant::now();
        for _ in 0..10_000 {
            session.poll(start);
            let snap = session.snapshot();
            if !snap.live() {
                assert!(snap.log.iter().any(|l| l.text.starts_with("Game over")));
                assert!(snap.vp_by_turn.len() >= 2);
                return;
            }
            assert!(!snap.legal.is_empty(), "instant bots leave only my move");
            let i = Bot::<PortRoyal>::choose(&mut me, Seat(0), &snap.view, &snap.legal);
            session
                .submit(snap.legal[i])
                .unwrap_or_else(|e| panic!("{e}"));
        }
        panic!("the game did not end");
    }

    #[test]
    fn refuses_moves_out_of_turn_and_illegal_moves() {
        let mut session = instant(2, 1);
        session.poll(Instant::now());
        let snap = session.snapshot();
        assert!(snap.live());
        // Take is never legal in Discover.
        assert!(
            session
                .submit(Action::Take(0, roundtable_port_royal::TakeMode::Normal))
                .is_err()
        );
        assert_eq!(session.snapshot(), snap, "a refused move changes nothing");
    }

    #[test]
    fn paced_bots_wait_between_moves() {
        let config = LocalConfig {
            seats: 3,
            seed: Some(3),
            pace: Pace::Slow,
            ..LocalConfig::default()
        };
        let mut session = LocalSession::new(&config).unwrap_or_else(|e| panic!("{e}"));
        let t0 = Instant::now();
        // Play my moves until a bot is to move, then check the pause.
        for _ in 0..100 {
            session.poll(t0);
            if session.bot_to_move().is_some() {
                break;
            }
            let snap = session.snapshot();
            session.submit(snap.legal[snap.legal.len() - 1]).ok();
        }
        assert!(session.bot_to_move().is_some());
        let before = session.snapshot();
        assert!(!session.poll(t0), "no bot move before its pause");
        assert_eq!(session.next_wakeup(), Some(t0 + Pace::Slow.delay()));
        assert!(session.poll(t0 + Pace::Slow.delay()));
        assert_ne!(session.snapshot(), before);
    }
}
