//! Stepping through a finished game's transcript, forwards and backwards.
//!
//! A transcript is checked the way an auditor checks it: an observer table
//! (no seat of its own) takes in every envelope, verifying signatures,
//! links, reveals and every proof of the private deal, and decides the
//! order of the inputs. Its records are then applied to a fresh game here,
//! one by one, and the state after each input is kept, so that stepping
//! back costs nothing: position `k` is the game after its first `k` inputs,
//! from 0 (nothing applied) to the number of inputs.
//!
//! A game with private cards shows every seat's hand at every position once
//! every seat released its key after the game: the observer table then
//! opened every card dealt, and each seat's hand at a position is that
//! seat's view of the state there, built from those cards.
//!
//! A transcript that proves a violation (an equivocation, a forged or
//! illegal move) is refused like `roundtable audit` refuses it; one that
//! ends before the game does (a crash) is replayed as far as it goes.

use std::path::Path;

use crate::words::{Ending, LogLine, event_words, seat_name};
use crate::{GameId, Listed, Milestone};
use roundtable_engine::{Knowledge, Observer, Seat};
pub use roundtable_table::transcript::ReadTranscript;
use roundtable_table::transcript::{self, Frame};
use roundtable_table::{Config, Output, PrivateStep, Record, Table, TableError};

use crate::session::{Chronicle, Connection, SeatInfo, SeatKind, Snapshot};

/// A move through the recorded game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seek {
    /// One input on.
    Forward,
    /// One input back.
    Back,
    /// To the start of the next turn (or the end).
    NextTurn,
    /// To the start of this turn, or of the one before when already there.
    PrevTurn,
    /// Before the first input.
    Start,
    /// After the last input.
    End,
}

/// Why a transcript cannot be replayed.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The file cannot be read, is not a transcript, or is not a game this
    /// front end knows.
    #[error("{0}")]
    Unreadable(String),
    /// The transcript proves a violation or holds envelopes that do not
    /// verify: `roundtable audit` says who to blame.
    #[error("{0}")]
    Invalid(String),
}

impl ReplayError {
    /// The exit status `roundtable replay` gives for it, as `audit` does:
    /// 2 unreadable, 1 invalid.
    pub fn exit_code(&self) -> u8 {
        match self {
            ReplayError::Unreadable(_) => 2,
            ReplayError::Invalid(_) => 1,
        }
    }
}

/// One seat's hand at a position, as the replay shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShownHand {
    /// The seat.
    pub seat: Seat,
    /// Its cards in words, in the order its view lists them.
    pub cards: Vec<String>,
}

/// Where a replay stands, as the replay screen shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayStatus {
    /// Inputs applied, from 0.
    pub position: usize,
    /// Inputs in the transcript.
    pub total: usize,
    /// The turn at this position (0 before the first).
    pub turn: u32,
    /// What the last applied input was, in words (`None` at the start).
    pub input: Option<String>,
    /// Why the transcript ends before the game does, if it does.
    pub note: Option<String>,
    /// In a game with private cards whose keys were all released: every
    /// seat's hand at this position, in seat order (empty otherwise).
    pub hands: Vec<ShownHand>,
    /// In a game with private cards whose hands cannot be opened: why, in
    /// one line.
    pub hidden: Option<String>,
}

/// Which game a transcript's genesis names: the first frame's proposal.
pub fn game_of(frames: &[Frame]) -> Result<GameId, ReplayError> {
    let Some(Frame::Proposal(proposal)) = frames.first() else {
        return Err(ReplayError::Unreadable(
            "the transcript does not start with a proposal".into(),
        ));
    };
    GameId::from_name(&proposal.game).map_err(|e| ReplayError::Unreadable(e.to_string()))
}

/// Read the transcript at `path` for a replay: its frames, and which game
/// they are of.
pub fn read(path: &Path) -> Result<(ReadTranscript, GameId), ReplayError> {
    let read = transcript::read(path).map_err(|e| ReplayError::Unreadable(e.to_string()))?;
    // Nothing whole to replay: what stopped the reader says why.
    if let (true, Some(tail)) = (read.frames.is_empty(), &read.tail) {
        return Err(ReplayError::Unreadable(tail.to_string()));
    }
    let game = game_of(&read.frames)?;
    Ok((read, game))
}

/// A transcript's game, ready to step through.
#[derive(Debug)]
pub struct Replay<G: Listed> {
    title: String,
    file: String,
    names: Vec<String>,
    options: G::Options,
    /// The game after each input: `states[k]` after the first `k`.
    states: Vec<G>,
    /// Per input, what it was in words.
    inputs: Vec<String>,
    /// The whole game's log and chart; how much of each stands after each
    /// input.
    log: Vec<LogLine>,
    log_len: Vec<usize>,
    vp_by_turn: Vec<Vec<u32>>,
    vp_len: Vec<usize>,
    /// The turn at each position.
    turn_at: Vec<u32>,
    /// Positions at which a turn has just started, ascending.
    turn_starts: Vec<usize>,
    /// Per seat, every card dealt to it, when every key was released: the
    /// game reads from it only what the seat holds at a position.
    opened: Option<Vec<Knowledge>>,
    /// Why the hands of a game with private cards stay hidden.
    hidden: Option<String>,
    note: Option<String>,
    /// Who forfeited and whether the game was abandoned, over the whole
    /// transcript.
    ending: Ending,
    position: usize,
}

impl<G: Listed> Replay<G> {
    /// Read and check the transcript at `path`, which must be of game `G`.
    pub fn open(path: &Path) -> Result<Replay<G>, ReplayError> {
        let (read, _) = read(path)?;
        Replay::from_read(&read, &path.display().to_string())
    }

    /// Check a transcript as read, and replay it; `file` names it on screen.
    pub fn from_read(read: &ReadTranscript, file: &str) -> Result<Replay<G>, ReplayError> {
        let mut replay = Replay::from_frames(&read.frames, file)?;
        // Where the reading stopped says why a game ends early, and is a
        // fault of the file even after a whole game (a second one joined on).
        if let Some(tail) = &read.tail {
            replay.note = Some(match replay.note.take() {
                Some(note) => format!("{note}: {tail}"),
                None => tail.to_string(),
            });
        }
        Ok(replay)
    }

    /// Check `frames` (a transcript's, in file order) and replay them;
    /// `file` names them on screen.
    pub fn from_frames(frames: &[Frame], file: &str) -> Result<Replay<G>, ReplayError> {
        let unreadable = |why: String| ReplayError::Unreadable(why);
        let Some(Frame::Proposal(proposal)) = frames.first() else {
            return Err(unreadable(
                "the transcript does not start with a proposal".into(),
            ));
        };
        if proposal.game != G::NAME {
            return Err(unreadable(format!("unknown game {:?}", proposal.game)));
        }
        let genesis = roundtable_table::transcript::genesis::<G>(frames)
            .map_err(|e| unreadable(format!("genesis: {e}")))?;
        let options = proposal
            .options::<G>()
            .map_err(|e| unreadable(e.to_string()))?;
        let names: Vec<String> = proposal.seats.iter().map(|s| s.name.clone()).collect();
        let seats = u8::try_from(names.len()).unwrap_or(u8::MAX);
        let game_id = proposal.game_id();
        // The whole file is in memory: the bound that protects a live peer
        // from a flood must not refuse a long game (as in the audit).
        let config = Config {
            max_buffered_per_seat: usize::MAX,
            ..Config::default()
        };
        let mut table = Table::<G>::new(genesis, None, config)
            .map_err(|e| unreadable(format!("genesis: {e}")))?;
        for frame in frames {
            let Frame::Envelope(signed) = frame else {
                continue;
            };
            match table.handle_envelope(0, signed.clone()) {
                // A failed table has a violation, reported below.
                Ok(_) | Err(TableError::Failed(_)) => {}
                Err(e) => {
                    return Err(ReplayError::Invalid(format!(
                        "seat {} envelope {}: {e}",
                        u32::from(signed.seat()) + 1,
                        signed.seq()
                    )));
                }
            }
        }
        while let Some(output) = table.poll_output() {
            if let Output::Violation(v) = output {
                return Err(ReplayError::Invalid(format!("violation: {v}")));
            }
        }

        let mut game = G::new_game(seats, &options)
            .map_err(|e| unreadable(format!("setting up the game: {e}")))?;
        let records = table.records();
        let mut states = Vec::with_capacity(records.len() + 1);
        let mut inputs = Vec::with_capacity(records.len());
        let mut chronicle = Chronicle::<G>::following(seats, &options)
            .map_err(|e| unreadable(format!("setting up the game: {e}")))?;
        let mut log_len = vec![0];
        let mut vp_len = vec![0];
        let mut turn = 0;
        let mut turn_at = vec![0];
        let mut turn_starts = Vec::new();
        states.push(game.clone());
        let mut events = Vec::new();
        for (i, record) in records.iter().enumerate() {
            events.clear();
            let before = game.clone();
            // A forfeit changes who decides, not the game: from now on
            // the forfeited seat's decisions are zombie moves.
            let applied = record.apply_to(&mut game, &mut events);
            // The table applied this very record to the same game, so a
            // refusal here is a bug, not a bad file; it is still reported
            // rather than trusted.
            applied.map_err(|e| {
                ReplayError::Invalid(format!("input {}: the rules refuse it: {e}", i + 1))
            })?;
            inputs.push(input_words(&before, record, &events, &names));
            chronicle.apply(i as u64, record, &events, &names, None);
            let mut started = false;
            for event in &events {
                match G::milestone(event) {
                    Some(Milestone::TurnStarted(n)) => {
                        turn = n;
                        started = true;
                    }
                    // A game that tells only turns' ends: the next starts.
                    Some(Milestone::TurnEnded) => {
                        turn = turn.max(1) + 1;
                        started = true;
                    }
                    Some(Milestone::GameOver) | None => {}
                }
            }
            if started {
                turn_starts.push(i + 1);
            }
            turn_at.push(turn);
            log_len.push(chronicle.log().len());
            vp_len.push(chronicle.vp_by_turn().len());
            states.push(game.clone());
        }
        // An abandoned game ends there (SPEC 3.6): its last input says so.
        let ended = game.result().is_some() || table.abandoned().is_some();
        let note = (!ended).then(|| {
            format!(
                "the transcript ends after {}, before the game does",
                crate::words::plural(records.len(), "input", "inputs")
            )
        });
        let dealt_privately = !table.dealt().is_empty();
        let (opened, hidden) = if !dealt_privately {
            (None, None)
        } else if table.every_key_released() {
            let opened = (0..seats)
                .map(|s| table.opened(Seat(s)).cloned().unwrap_or_default())
                .collect();
            (Some(opened), None)
        } else {
            (
                None,
                Some("hands hidden: the transcript ends before every seat released its key".into()),
            )
        };
        Ok(Replay {
            title: format!("Replay of game {game_id}"),
            file: file.to_owned(),
            names,
            options,
            states,
            inputs,
            log: chronicle.log().to_vec(),
            log_len,
            vp_by_turn: chronicle.vp_by_turn().to_vec(),
            vp_len,
            turn_at,
            turn_starts,
            opened,
            hidden,
            note,
            ending: chronicle.ending().clone(),
            position: 0,
        })
    }

    /// Inputs in the transcript.
    pub fn len(&self) -> usize {
        self.inputs.len()
    }

    /// Whether the transcript holds no inputs at all.
    pub fn is_empty(&self) -> bool {
        self.inputs.is_empty()
    }

    /// Inputs applied at the position shown.
    pub fn position(&self) -> usize {
        self.position
    }

    /// The game at the position shown.
    pub fn game(&self) -> &G {
        &self.states[self.position]
    }

    /// The players' names in seat order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Move as `seek` says; `true` when the position changed.
    pub fn seek(&mut self, seek: Seek) -> bool {
        let end = self.len();
        let p = self.position;
        let to = match seek {
            Seek::Forward => (p + 1).min(end),
            Seek::Back => p.saturating_sub(1),
            Seek::NextTurn => self
                .turn_starts
                .iter()
                .copied()
                .find(|&t| t > p)
                .unwrap_or(end),
            Seek::PrevTurn => self
                .turn_starts
                .iter()
                .rev()
                .copied()
                .find(|&t| t < p)
                .unwrap_or(0),
            Seek::Start => 0,
            Seek::End => end,
        };
        self.position = to;
        to != p
    }

    /// Every input in order: its position after it (from 1), what it was
    /// in words, and the log lines it added.
    pub fn steps(&self) -> impl Iterator<Item = (usize, &str, &[LogLine])> {
        self.inputs.iter().enumerate().map(|(i, input)| {
            let from = self.log_len.get(i).copied().unwrap_or(0);
            let to = self.log_len.get(i + 1).copied().unwrap_or(from);
            (i + 1, input.as_str(), self.log.get(from..to).unwrap_or(&[]))
        })
    }

    /// The game's title ("Replay of game ...").
    pub fn title(&self) -> &str {
        &self.title
    }

    /// Why the transcript ends before the game does, or what follows the
    /// game in its file that is not a part of it, if anything: what makes
    /// `roundtable audit` call the file invalid though every input shown
    /// is sound.
    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// Why the hands of a game with private cards are not shown, if they
    /// are not.
    pub fn hidden(&self) -> Option<&str> {
        self.hidden.as_deref()
    }

    /// Per seat, every card dealt to it, once every seat released its key.
    pub fn opened(&self) -> Option<&[Knowledge]> {
        self.opened.as_deref()
    }

    /// Who had forfeited at the position shown, and whether the game was
    /// abandoned by then.
    pub fn ending(&self) -> Ending {
        self.ending.before(self.position as u64)
    }

    /// How the game ended, once the position shown is its end: played out,
    /// or abandoned there.
    pub fn result(&self) -> Option<roundtable_engine::GameResult> {
        self.ending().result(self.game())
    }

    /// Go to `position` (clamped to the transcript).
    pub fn go_to(&mut self, position: usize) {
        self.position = position.min(self.len());
    }

    /// Every seat's view at the position, as that seat saw it then (its own
    /// cards named), when every key was released.
    pub fn seat_views(&self) -> Option<Vec<G::View>> {
        let opened = self.opened.as_ref()?;
        Some(
            opened
                .iter()
                .enumerate()
                .map(|(s, known)| {
                    let seat = Seat(u8::try_from(s).unwrap_or(u8::MAX));
                    self.game().view_with(Observer::Seat(seat), known)
                })
                .collect(),
        )
    }

    /// Every seat's hand at the position, in words, when every key was
    /// released (empty otherwise).
    pub fn hands(&self) -> Vec<ShownHand> {
        let Some(views) = self.seat_views() else {
            return Vec::new();
        };
        views
            .iter()
            .enumerate()
            .filter_map(|(s, view)| {
                let seat = Seat(u8::try_from(s).unwrap_or(u8::MAX));
                G::own_hand(view).map(|cards| ShownHand { seat, cards })
            })
            .collect()
    }

    /// Where the replay stands.
    pub fn status(&self) -> ReplayStatus {
        ReplayStatus {
            position: self.position,
            total: self.len(),
            turn: self.turn_at.get(self.position).copied().unwrap_or(0),
            input: self
                .position
                .checked_sub(1)
                .and_then(|i| self.inputs.get(i))
                .cloned(),
            note: self.note.clone(),
            hands: self.hands(),
            hidden: self.hidden.clone(),
        }
    }

    /// What the screen shows at the position: the public table as a
    /// spectator sees it (every hand, when shown, is in the status), the
    /// log up to here, and the result once the game is over.
    pub fn snapshot(&self) -> Snapshot<G> {
        let p = self.position;
        let log_len = self.log_len.get(p).copied().unwrap_or(self.log.len());
        let vp_len = self.vp_len.get(p).copied().unwrap_or(self.vp_by_turn.len());
        Snapshot {
            title: self.title.clone(),
            view: self.game().view(Observer::Spectator),
            me: None,
            legal: Vec::new(),
            log: self.log[..log_len.min(self.log.len())].to_vec(),
            seats: self
                .names
                .iter()
                .map(|name| SeatInfo {
                    name: name.clone(),
                    kind: SeatKind::Remote,
                    connection: Connection::Local,
                    clock: None,
                    forfeited: false,
                })
                .collect(),
            vp_by_turn: self.vp_by_turn[..vp_len.min(self.vp_by_turn.len())].to_vec(),
            result: self.result(),
            ending: self.ending(),
            status: self.status().input,
            transcript: Some(self.file.clone()),
            lobby: None,
            options: self.options.clone(),
            stall_timeout: None,
        }
    }
}

/// An input in words: who did what, from the game it was applied to
/// (`before`) and the events it made.
fn input_words<G: Listed>(
    before: &G,
    record: &Record<G>,
    events: &[G::Event],
    names: &[String],
) -> String {
    let name = |seat: Seat| seat_name(names, seat);
    match record {
        Record::Action { seat, action, .. } => who_did(
            &name(*seat),
            G::action_words(before, *seat, action, events, names),
        ),
        Record::Zombie { seat, action } => format!(
            "{} (forfeited) moves for itself: {}",
            name(*seat),
            G::action_words(before, *seat, action, events, names)
        ),
        Record::Chance { outcome, .. } => G::chance_words(before, outcome, events, names),
        Record::Forfeit { seat, .. } => format!(
            "{} forfeits: every other seat claimed it stalled",
            name(*seat)
        ),
        Record::Resign { seat, .. } => format!("{} resigns", name(*seat)),
        Record::Abandon { stopped, claims } => {
            let stopped: Vec<String> = stopped.iter().map(|s| name(*s)).collect();
            if claims.is_empty() {
                format!(
                    "the game ends here: {} gone, and it could not go on without them",
                    stopped.join(", ")
                )
            } else {
                format!(
                    "the game is abandoned: {} stopped, and only seats that claimed them were left",
                    stopped.join(", ")
                )
            }
        }
        Record::Private { step, .. } => match step {
            PrivateStep::Reshuffle { epoch } => format!(
                "Every seat shuffles the deck (epoch {}), each proving its shuffle",
                epoch.0
            ),
            PrivateStep::Deal { to, count, .. } => {
                let cards = if *count == 1 { "card" } else { "cards" };
                format!(
                    "{} is dealt {count} {cards}: only that seat opens them",
                    name(*to)
                )
            }
            PrivateStep::Reveal { .. } => {
                format!(
                    "Cards shown to every seat: {}",
                    event_words::<G>(events, names)
                )
            }
            PrivateStep::Play { seat, action, .. } => who_did(
                &name(*seat),
                G::action_words(before, *seat, action, events, names),
            ),
        },
    }
}

/// A seat's decision in words, after its name ("Ann: take ..."), unless
/// the words name it already (a log line: "Ann plays ...").
fn who_did(name: &str, words: String) -> String {
    if words.starts_with(name) {
        words
    } else {
        format!("{name}: {words}")
    }
}

#[cfg(test)]
mod tests {
    use roundtable_bots::PortRoyalBot;
    use roundtable_local::{LocalGame, Player, Progress};
    use roundtable_port_royal::Options;

    use roundtable_engine::Game;
    use roundtable_port_royal::PortRoyal;

    use super::*;

    /// A whole game between heuristic bots at in-process tables, written
    /// to a transcript in `dir`.
    fn transcript(dir: &Path, options: &Options, seats: u8, seed: u64) -> std::path::PathBuf {
        let path = dir.join(format!("game-{seed}.rts"));
        let players = (0..seats)
            .map(|i| {
                (
                    format!("Bot {}", i + 1),
                    Player::<PortRoyal>::Bot(Box::new(PortRoyalBot::new(options))),
                )
            })
            .collect();
        let mut game =
            LocalGame::<PortRoyal>::new(options, seed, players, Some(&path), Config::default())
                .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            game.run().unwrap_or_else(|e| panic!("{e}")),
            Progress::Finished
        );
        path
    }

    /// A game that ended abandoned (SPEC 3.6) ends there: no note that the
    /// transcript stops before the game does.
    #[test]
    fn an_abandoned_game_is_replayed_to_its_end() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../tests/fixtures/abandoned-3-seats.rtlog");
        let read = transcript::read(&path).unwrap_or_else(|e| panic!("{e}"));
        let replay = Replay::<PortRoyal>::from_frames(&read.frames, "abandoned")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(replay.note(), None);
        assert!(
            replay
                .inputs
                .last()
                .is_some_and(|l| l.contains("the game is abandoned")),
            "the last input says so"
        );
    }

    fn tempdir() -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "roundtable-replay-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        dir
    }

    #[test]
    fn stepping_to_the_end_and_back_gives_the_states_of_a_straight_replay() {
        let dir = tempdir();
        let options = Options {
            expansion: true,
            ..Options::default()
        };
        let path = transcript(&dir, &options, 3, 5);
        let read = transcript::read(&path).unwrap_or_else(|e| panic!("{e}"));
        // The straight replay: the audit's observer table, its records
        // applied to a fresh game, the state hash after each.
        let Some(Frame::Proposal(proposal)) = read.frames.first() else {
            panic!("no proposal");
        };
        let acceptances: Vec<_> = read
            .frames
            .iter()
            .filter_map(|f| match f {
                Frame::Acceptance(a) => Some(a.clone()),
                _ => None,
            })
            .collect();
        let genesis =
            roundtable_table::Genesis::assemble::<PortRoyal>(proposal.clone(), &acceptances)
                .unwrap_or_else(|e| panic!("{e}"));
        let mut table = Table::<PortRoyal>::new(genesis, None, Config::default())
            .unwrap_or_else(|e| panic!("{e}"));
        for f in &read.frames {
            if let Frame::Envelope(s) = f {
                table
                    .handle_envelope(0, s.clone())
                    .unwrap_or_else(|e| panic!("{e}"));
            }
        }
        let mut game = PortRoyal::new_game(3, &options).unwrap_or_else(|e| panic!("{e}"));
        let mut straight = vec![game.state_hash()];
        for record in table.records() {
            match record {
                Record::Action { seat, action, .. } | Record::Zombie { seat, action } => {
                    game.apply_action(*seat, action, &mut Vec::new())
                }
                Record::Chance { outcome, .. } => game.apply_chance(outcome, &mut Vec::new()),
                Record::Forfeit { .. }
                | Record::Resign { .. }
                | Record::Abandon { .. }
                | Record::Private { .. } => Ok(()),
            }
            .unwrap_or_else(|e| panic!("{e}"));
            straight.push(game.state_hash());
        }
        assert_eq!(game.state_hash(), table.game().state_hash());

        let mut replay = Replay::<PortRoyal>::open(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(replay.len() + 1, straight.len());
        assert_eq!(replay.position(), 0);
        let mut forward = vec![replay.game().state_hash()];
        while replay.seek(Seek::Forward) {
            forward.push(replay.game().state_hash());
        }
        assert_eq!(forward, straight, "forward");
        assert!(
            replay.snapshot().result.is_some(),
            "the end shows the result"
        );
        let mut backward = vec![replay.game().state_hash()];
        while replay.seek(Seek::Back) {
            backward.push(replay.game().state_hash());
        }
        backward.reverse();
        assert_eq!(backward, straight, "backward");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn turns_jump_to_turn_starts_and_the_log_follows_the_position() {
        let dir = tempdir();
        let path = transcript(&dir, &Options::default(), 2, 9);
        let mut replay = Replay::<PortRoyal>::open(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(replay.snapshot().log.is_empty(), "nothing happened yet");
        let mut turns = Vec::new();
        while replay.seek(Seek::NextTurn) {
            turns.push(replay.status().turn);
            let log = replay.snapshot().log;
            if replay.position() < replay.len() {
                let last_heading = log.iter().rev().find(|l| l.heading);
                assert_eq!(
                    last_heading.map(|l| l.turn),
                    Some(replay.status().turn),
                    "a turn start shows the turn's heading last"
                );
            }
        }
        assert_eq!(replay.position(), replay.len());
        let n = turns.len();
        assert!(n > 3, "{turns:?}");
        assert!(
            turns[..n - 1].windows(2).all(|w| w[1] == w[0] + 1),
            "{turns:?}"
        );
        // Back from the end: the start of the last turn, then the one before.
        replay.seek(Seek::PrevTurn);
        let last = replay.status().turn;
        replay.seek(Seek::Forward);
        replay.seek(Seek::PrevTurn);
        assert_eq!(replay.status().turn, last, "back to this turn's start");
        replay.seek(Seek::PrevTurn);
        assert_eq!(replay.status().turn, last - 1);
        replay.seek(Seek::Start);
        assert_eq!(replay.position(), 0);
        assert!(!replay.seek(Seek::Back), "nothing before the start");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn garbage_is_unreadable_and_a_tampered_transcript_invalid() {
        let dir = tempdir();
        let junk = dir.join("junk.rts");
        std::fs::write(&junk, b"not a transcript at all").unwrap_or_else(|e| panic!("{e}"));
        let err = Replay::<PortRoyal>::open(&junk)
            .err()
            .unwrap_or_else(|| panic!("opened junk"));
        assert_eq!(err.exit_code(), 2, "{err}");
        assert!(matches!(
            Replay::<PortRoyal>::open(&dir.join("missing.rts")),
            Err(ReplayError::Unreadable(_))
        ));
        let path = transcript(&dir, &Options::default(), 2, 3);
        let mut frames = transcript::read(&path)
            .unwrap_or_else(|e| panic!("{e}"))
            .frames;
        // Swap two envelopes' signatures: one no longer verifies.
        let (a, b) = {
            let mut envs = frames
                .iter()
                .enumerate()
                .filter(|(_, f)| matches!(f, Frame::Envelope(_)));
            let a = envs.next().map(|(i, _)| i).unwrap_or(0);
            let b = envs.next().map(|(i, _)| i).unwrap_or(0);
            (a, b)
        };
        if let (Frame::Envelope(x), Frame::Envelope(y)) = (frames[a].clone(), frames[b].clone()) {
            let mut forged = x.clone();
            forged.signature = y.signature;
            frames[a] = Frame::Envelope(forged);
        }
        let err = Replay::<PortRoyal>::from_frames(&frames, "tampered")
            .err()
            .unwrap_or_else(|| panic!("replayed a forgery"));
        assert_eq!(err.exit_code(), 1, "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
