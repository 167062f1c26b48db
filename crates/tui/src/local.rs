//! A game in this process: you and bots of the levels you chose, every one
//! a full peer.
//!
//! Each seat has its own key, hash chain and table ([`roundtable_local`]):
//! your moves and the bots' go out as signed envelopes, chance comes from
//! every seat's reveals, and the game ends with a transcript that
//! `roundtable audit` accepts — the same protocol as a game over the network.
//!
//! The bots move by themselves ([`DrivenGame`]: paced, a thinking bot on a
//! thread of its own); this is only the screen's view of that game, as a
//! [`Session`]: the bots the list of games makes for the levels chosen,
//! the log in words, and the snapshots.

use std::path::PathBuf;
use std::time::Instant;

use roundtable_engine::{Next, Observer, Seat};
use roundtable_games::{Bot, Listed};
use roundtable_local::{DrivenGame, LocalGame, Player};
use roundtable_table::Config;

use crate::session::{
    Chronicle, ChronicleError, Connection, SeatInfo, SeatKind, Session, Snapshot,
};
pub use crate::setup::{LocalConfig, Pace, fresh_seed};

/// Why a local game could not start or go on.
#[derive(Debug, thiserror::Error)]
pub enum LocalError {
    /// The tables refused the set-up (seat count, options) or failed.
    #[error("local game: {0}")]
    Tables(#[from] roundtable_local::LocalError),
    /// The log cannot follow the game (its set-up is refused).
    #[error("{0}")]
    Chronicle(#[from] ChronicleError),
    /// The transcript folder could not be made.
    #[error("cannot make {dir}: {source}")]
    Folder {
        /// The folder.
        dir: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// A bot to seat at a local game.
pub(crate) struct LocalBot<G: Listed> {
    name: String,
    bot: Box<dyn Bot<G>>,
    /// Whether it decides on a thread of its own (it takes long enough to
    /// be seen).
    thinks: bool,
}

/// A local game of any listed game against bots at in-process tables.
pub struct LocalSession<G: Listed> {
    driven: DrivenGame<G>,
    me: Seat,
    seed: Option<u64>,
    options: G::Options,
    chronicle: Chronicle<G>,
    transcript: Option<PathBuf>,
}

impl<G: Listed> std::fmt::Debug for LocalSession<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalSession")
            .field("seed", &self.seed)
            .field("me", &self.me)
            .finish_non_exhaustive()
    }
}

impl<G: Listed> LocalSession<G> {
    /// Set up a game of `G` as `config` says (the rule options its set-up
    /// form chose), with the tables settled up to the first decision.
    pub fn new(config: &LocalConfig) -> Result<Self, LocalError> {
        Self::with_options(config, &config.options::<G>())
    }

    /// Set up a game of `G` with `options`, seated and paced as `config`
    /// says, with the tables settled up to the first decision. The bots
    /// are the list's for the levels `config` chose, named for the game's
    /// world.
    pub fn with_options(config: &LocalConfig, options: &G::Options) -> Result<Self, LocalError> {
        // The bots' own choices need variety, not secrecy: their moves are
        // signed and checked like anyone's.
        let bot_seed = config.seed.unwrap_or_else(fresh_seed);
        let bots = (1..config.seats)
            .map(|i| {
                let at = usize::from(i - 1);
                let level = config.bot_levels[at % config.bot_levels.len()];
                LocalBot {
                    name: roundtable_games::bot_name(G::BOT_NAMES, at).to_owned(),
                    bot: G::bot(
                        level,
                        options,
                        config.think,
                        bot_seed.wrapping_add(u64::from(i)),
                    ),
                    thinks: level.thinks(),
                }
            })
            .collect();
        Self::with_bots(config, options, bots)
    }

    /// As [`LocalSession::new`], with these bots in the seats after yours.
    pub(crate) fn with_bots(
        config: &LocalConfig,
        options: &G::Options,
        bots: Vec<LocalBot<G>>,
    ) -> Result<Self, LocalError> {
        let seed = config.seed;
        let mut players = vec![(config.name.clone(), Player::Human)];
        let mut thinks = vec![false];
        for bot in bots {
            players.push((bot.name, Player::Bot(bot.bot)));
            thinks.push(bot.thinks);
        }
        let transcript = match &config.transcript_dir {
            Some(dir) => {
                std::fs::create_dir_all(dir).map_err(|source| LocalError::Folder {
                    dir: dir.clone(),
                    source,
                })?;
                // The name of an unseeded game's file is random and says
                // nothing about the game's secrets.
                let name = match seed {
                    Some(seed) => format!("local-{seed}.rts"),
                    None => format!("local-{:016x}.rts", fresh_seed()),
                };
                Some(dir.join(name))
            }
            None => None,
        };
        let game = match seed {
            Some(seed) => LocalGame::new(
                options,
                seed,
                players,
                transcript.as_deref(),
                Config::default(),
            )?,
            None => LocalGame::with_fresh_secrets(
                options,
                players,
                transcript.as_deref(),
                Config::default(),
            )?,
        };
        // Seats follow the players' keys, so "you" may sit anywhere.
        let me = game.seat_of_player(0).unwrap_or(Seat(0));
        let mut session = LocalSession {
            driven: DrivenGame::new(game, &thinks, config.pace.delay()),
            me,
            seed,
            options: options.clone(),
            chronicle: Chronicle::following(config.seats, options)?,
            transcript,
        };
        session.follow();
        Ok(session)
    }

    /// The seed that replays this game, if it was given one.
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// Your seat.
    pub fn me(&self) -> Seat {
        self.me
    }

    /// The game's state at your table (for tests and tools; the screen uses snapshots).
    pub fn game(&self) -> &G {
        self.driven.game().game()
    }

    /// The seat whose bot is thinking on its own thread, if one is.
    pub fn thinking(&self) -> Option<Seat> {
        self.driven.thinking()
    }

    /// Take the inputs applied since last time into the log; whether there
    /// were any.
    fn follow(&mut self) -> bool {
        let names = self.driven.game().names().to_vec();
        let mut any = false;
        for applied in self.driven.drain_applied() {
            self.chronicle.apply(
                applied.position,
                &applied.record,
                &applied.events,
                &names,
                Some(self.me),
            );
            any = true;
        }
        any
    }
}

impl<G: Listed> Session<G> for LocalSession<G> {
    fn snapshot(&self) -> Snapshot<G> {
        let local = self.driven.game();
        let game = local.game();
        let table = local.table(self.me);
        // Your own cards are in what your table opened, not in the shared
        // state (a game with private cards holds handles there).
        let knowledge = table.knowledge().cloned().unwrap_or_default();
        let view = game.view_with(Observer::Seat(self.me), &knowledge);
        let mut legal = Vec::new();
        // A secret choice already made is no longer offered, though the
        // game waits for the others' until every seat has committed.
        if table.awaits_decision(self.me) {
            game.legal_actions_with(self.me, &knowledge, &mut legal);
        }
        let names = local.names();
        let status = match (self.driven.failure(), game.next()) {
            (Some(f), _) => Some(format!("The tables failed: {f}")),
            (None, _) if table.awaits_decision(self.me) => None,
            (None, Next::Decision(seat)) if self.thinking() == Some(seat) => Some(format!(
                "{} (bot) is thinking...",
                roundtable_games::words::seat_name(names, seat)
            )),
            (None, Next::Decision(seat)) => Some(format!(
                "Waiting for {} (bot)",
                roundtable_games::words::seat_name(names, seat)
            )),
            (None, Next::Chance(request)) => Some(format!("Waiting to {}", request.purpose)),
            (None, Next::Simultaneous(_)) => Some("Waiting for secret choices".into()),
            (None, Next::Private(_)) => Some("Waiting for the deal".into()),
            (None, Next::Over) => None,
        };
        Snapshot {
            title: match self.seed {
                Some(seed) => format!("Local game, seed {seed}"),
                None => "Local game".to_owned(),
            },
            view,
            me: Some(self.me),
            legal,
            log: self.chronicle.log().to_vec(),
            seats: names
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
                    forfeited: table.is_forfeited(Seat(i as u8)),
                })
                .collect(),
            vp_by_turn: self.chronicle.vp_by_turn().to_vec(),
            result: game.result(),
            ending: self.chronicle.ending().clone(),
            status,
            transcript: self
                .transcript
                .as_ref()
                .filter(|_| self.driven.finished())
                .map(|p| p.display().to_string()),
            // Every seat of a local game is there from the start.
            lobby: None,
            options: self.options.clone(),
            // Nobody here is waited for: the bots move when it is their turn.
            stall_timeout: None,
        }
    }

    fn submit(&mut self, action: G::Action) -> Result<(), String> {
        if !self.driven.game().table(self.me).awaits_decision(self.me) {
            return Err("It is not your move.".into());
        }
        self.driven.submit(self.me, action).map_err(|e| match e {
            roundtable_table::TableError::Refused { message, .. } => message,
            other => other.to_string(),
        })?;
        self.follow();
        Ok(())
    }

    fn poll(&mut self, now: Instant) -> bool {
        let moved = self.driven.poll(now);
        self.follow() || moved
    }

    fn next_wakeup(&self) -> Option<Instant> {
        self.driven.next_wakeup(Instant::now())
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use roundtable_bots::PortRoyalBot;
    use roundtable_port_royal::Action;

    use roundtable_port_royal::{Options, PortRoyal};

    use super::*;

    fn instant(seats: u8, seed: u64) -> LocalSession<PortRoyal> {
        let config = LocalConfig {
            seats,
            seed: Some(seed),
            pace: Pace::Instant,
            ..LocalConfig::default()
        }
        .with_options::<PortRoyal>(&Options {
            victory_points: 6,
            ..Options::default()
        });
        LocalSession::<PortRoyal>::new(&config).unwrap_or_else(|e| panic!("{e}"))
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
            let i = Bot::<PortRoyal>::choose(&mut me, session.me(), &snap.view, &snap.legal);
            session
                .submit(snap.legal[i])
                .unwrap_or_else(|e| panic!("{e}"));
        }
        panic!("the game did not end");
    }

    #[test]
    fn an_expansion_game_plays_through_with_contracts_in_the_log() {
        let config = LocalConfig {
            seats: 4,
            seed: Some(11),
            pace: Pace::Instant,
            ..LocalConfig::default()
        }
        .with_options::<PortRoyal>(&Options {
            expansion: true,
            ..Options::default()
        });
        let mut session = LocalSession::<PortRoyal>::new(&config).unwrap_or_else(|e| panic!("{e}"));
        let mut me = PortRoyalBot::new(&config.options::<PortRoyal>());
        let start = Instant::now();
        for _ in 0..10_000 {
            session.poll(start);
            let snap = session.snapshot();
            if !snap.live() {
                let faced = snap
                    .log
                    .iter()
                    .filter(|l| l.text.starts_with("Contract face up"))
                    .count();
                assert_eq!(faced, 4, "four contracts laid out");
                assert!(snap.view.expansion.is_some());
                return;
            }
            let i = Bot::<PortRoyal>::choose(&mut me, session.me(), &snap.view, &snap.legal);
            session
                .submit(snap.legal[i])
                .unwrap_or_else(|e| panic!("{e}"));
        }
        panic!("the game did not end");
    }

    /// The transcript's name and the screen's title are all a player sees
    /// of an unseeded solo game: no number in them derives the bots' chains
    /// (as the printed seed once did), and the game still audits, its chains
    /// proven by the seed openings at its end.
    #[test]
    fn what_a_solo_game_shows_does_not_give_away_the_bots_chains() {
        let dir = tempfile::tempdir().unwrap();
        let config = LocalConfig {
            seats: 3,
            pace: Pace::Instant,
            transcript_dir: Some(dir.path().to_owned()),
            ..LocalConfig::default()
        }
        .with_options::<PortRoyal>(&Options {
            victory_points: 5,
            ..Options::default()
        });
        let mut session = LocalSession::<PortRoyal>::new(&config).unwrap_or_else(|e| panic!("{e}"));
        let path = session.transcript.clone().expect("a transcript");
        let shown = format!(
            "{} {}",
            path.file_name().unwrap().to_string_lossy(),
            session.snapshot().title
        );
        let numbers: Vec<u64> = shown
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|run| run.parse().ok())
            .collect();
        let genesis = session.driven.game().table(Seat(0)).genesis().clone();
        let commitments: Vec<[u8; 32]> = genesis
            .proposal
            .seats
            .iter()
            .map(|s| s.chain_commitment)
            .collect();
        for number in numbers {
            for i in 0..config.seats {
                let derived = roundtable_fairdeck::ChainSecret::new(
                    roundtable_local::derive(number, "chain", i),
                    roundtable_fairdeck::DEFAULT_CHAIN_LENGTH,
                )
                .unwrap();
                assert!(
                    !commitments.contains(&derived.commitment()),
                    "{shown:?}: {number} derives seat {i}'s chain"
                );
            }
        }

        let mut me = PortRoyalBot::new(&config.options::<PortRoyal>());
        let start = Instant::now();
        for _ in 0..10_000 {
            session.poll(start);
            let snap = session.snapshot();
            if !snap.live() {
                break;
            }
            let i = Bot::<PortRoyal>::choose(&mut me, session.me(), &snap.view, &snap.legal);
            session
                .submit(snap.legal[i])
                .unwrap_or_else(|e| panic!("{e}"));
        }
        assert!(!session.snapshot().live(), "the game did not end");
        let frames = roundtable_table::transcript::read(&path).unwrap().frames;
        let report = roundtable_table::audit::audit::<PortRoyal>(&frames).unwrap();
        assert!(report.is_valid(), "{:?}", report.problems);
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

    /// A bot that decides only once the test opens its gate, or after a
    /// long wait: a session that blocked on it would find it done by the
    /// time it looked, and the test would fail rather than hang.
    struct GatedBot {
        gate: std::sync::mpsc::Receiver<()>,
        open: bool,
    }

    impl Bot<PortRoyal> for GatedBot {
        fn name(&self) -> &'static str {
            "gated"
        }

        fn choose(
            &mut self,
            _seat: Seat,
            _view: &roundtable_port_royal::View,
            _legal: &[Action],
        ) -> usize {
            // Once open, it stays open.
            if !self.open {
                let _ = self.gate.recv_timeout(Duration::from_secs(20));
                self.open = true;
            }
            0
        }
    }

    fn screen_text(runner: &mut crate::Runner) -> String {
        let mut terminal =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(100, 30)).unwrap();
        runner.draw(&mut terminal).unwrap();
        let buffer = terminal.backend().buffer();
        buffer
            .content()
            .chunks(usize::from(buffer.area.width))
            .map(|row| row.iter().map(|c| c.symbol()).collect::<String>() + "\n")
            .collect()
    }

    /// While a thinking bot decides, the screen shows that it thinks, keys
    /// are answered and the screen redraws; its move lands once it is done.
    #[test]
    fn keys_are_answered_while_a_bot_thinks() {
        let (open, gate) = std::sync::mpsc::channel();
        let config = LocalConfig {
            seats: 2,
            seed: Some(5),
            pace: Pace::Instant,
            ..LocalConfig::default()
        };
        let bots = vec![LocalBot {
            name: "Anne Bonny".into(),
            bot: Box::new(GatedBot { gate, open: false }),
            thinks: true,
        }];
        let session = LocalSession::with_bots(&config, &config.options::<PortRoyal>(), bots)
            .unwrap_or_else(|e| panic!("{e}"));
        let mut runner = crate::Runner::new(crate::App::at_table(crate::Theme::plain()))
            .with_session(Box::new(session));
        let press = |runner: &mut crate::Runner, c: char| {
            runner.key(&crossterm::event::KeyEvent::new(
                crossterm::event::KeyCode::Char(c),
                crossterm::event::KeyModifiers::NONE,
            ))
        };
        // My moves (the first offered) until it is the bot's turn.
        let thinking = |runner: &crate::Runner| {
            runner
                .snapshot::<PortRoyal>()
                .and_then(|s| s.status.clone())
                .is_some_and(|s| s.contains("Anne Bonny (bot) is thinking"))
        };
        for _ in 0..200 {
            runner.poll(Instant::now());
            if thinking(&runner) {
                break;
            }
            press(&mut runner, '1');
        }
        assert!(thinking(&runner), "the bot never thought on its own");
        let before = runner.snapshot::<PortRoyal>().cloned();
        assert!(screen_text(&mut runner).contains("Anne Bonny (bot) is thinking"));
        // Keys go on working: the log screen opens and closes.
        press(&mut runner, 'L');
        assert_eq!(runner.app.screen, crate::Screen::Log);
        runner.poll(Instant::now());
        assert!(thinking(&runner));
        runner.key(&crossterm::event::KeyEvent::new(
            crossterm::event::KeyCode::Esc,
            crossterm::event::KeyModifiers::NONE,
        ));
        assert_eq!(runner.app.screen, crate::Screen::Table);
        // A move of mine is refused while the bot thinks.
        press(&mut runner, '1');
        assert_eq!(runner.snapshot::<PortRoyal>().cloned(), before);
        open.send(()).unwrap();
        // However busy the machine, the bot's thread gets its turn.
        for _ in 0..20_000 {
            if !thinking(&runner) {
                break;
            }
            runner.poll(Instant::now());
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(!thinking(&runner), "the bot's moves never landed");
        assert_ne!(runner.snapshot::<PortRoyal>().cloned(), before);
    }
}
