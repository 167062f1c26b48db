//! What a front end talks to: a session at a table, seen from one seat.
//!
//! A front end never touches a game's state. It asks a [`Session`] for a
//! [`Snapshot`] (the seat's view, its legal actions, the log, who sits
//! where), submits the seat's decisions, and polls it so that it can make
//! progress (bots move, peers' messages arrive, clocks run). A local game
//! (the terminal UI's `LocalSession`) and a game at a networked table (the
//! binary's) implement the same trait.

use std::time::{Duration, Instant};

use roundtable_engine::{GameResult, Next, Observer, Seat, SetupError};
use roundtable_table::{PrivateStep, Record};

use crate::words::{Ending, LogLine, seat_name};
use crate::{Listed, Milestone};

/// A game in progress, seen from one seat (or by a spectator).
pub trait Session<G: Listed> {
    /// Everything the screen shows, as of now.
    fn snapshot(&self) -> Snapshot<G>;

    /// Submit this seat's decision. An error is a sentence for the player
    /// ("it is not your turn"); the game is unchanged by a refused action.
    fn submit(&mut self, action: G::Action) -> Result<(), String>;

    /// Let the session make progress; `true` when something changed that
    /// the screen should show.
    fn poll(&mut self, now: Instant) -> bool;

    /// When [`Session::poll`] next has something to do, if the session knows
    /// (a bot's next move, a clock running out); the front end sleeps at
    /// most until then.
    fn next_wakeup(&self) -> Option<Instant> {
        None
    }
}

impl<G: Listed, S: Session<G> + ?Sized> Session<G> for Box<S> {
    fn snapshot(&self) -> Snapshot<G> {
        (**self).snapshot()
    }

    fn submit(&mut self, action: G::Action) -> Result<(), String> {
        (**self).submit(action)
    }

    fn poll(&mut self, now: Instant) -> bool {
        (**self).poll(now)
    }

    fn next_wakeup(&self) -> Option<Instant> {
        (**self).next_wakeup()
    }
}

/// Who sits at a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatKind {
    /// The person at this terminal.
    You,
    /// A computer player.
    Bot,
    /// A person at another terminal.
    Remote,
}

/// Whether a seat's peer can be reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Connection {
    /// In this process: always there.
    Local,
    /// Connected and answering, directly.
    Online,
    /// Connected and answering, but only through a relay (a hole could not
    /// be punched, or not yet): the game goes on, a little slower, and
    /// through a third machine.
    Relayed,
    /// Not heard from lately; the table is trying to reach it.
    Reconnecting,
    /// Gone: the table waits for it or for its forfeit.
    Offline,
}

impl Connection {
    /// The state in words (never by colour alone).
    pub fn words(self) -> &'static str {
        match self {
            Connection::Local => "here",
            Connection::Online => "online",
            Connection::Relayed => "relayed",
            Connection::Reconnecting => "reconnecting",
            Connection::Offline => "offline",
        }
    }
}

/// One seat as the screen shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatInfo {
    /// The player's name.
    pub name: String,
    /// Who sits there.
    pub kind: SeatKind,
    /// Whether its peer can be reached.
    pub connection: Connection,
    /// Time left on its turn clock, when the table keeps one.
    pub clock: Option<Duration>,
    /// Whether the seat forfeited (it stalled or resigned): the table plays
    /// its decisions automatically from then on.
    pub forfeited: bool,
}

/// Everything the screen shows about a game at one moment.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot<G: Listed> {
    /// A title for the game ("Local game, seed 42").
    pub title: String,
    /// The game as this seat may see it.
    pub view: G::View,
    /// This seat, or `None` for a spectator.
    pub me: Option<Seat>,
    /// The actions this seat may take now (empty when it is not its move).
    pub legal: Vec<G::Action>,
    /// The move log, oldest first.
    pub log: Vec<LogLine>,
    /// Every seat, in seat order.
    pub seats: Vec<SeatInfo>,
    /// Victory points of every seat at the start of each turn (and at the
    /// end), oldest first: the post-game chart.
    pub vp_by_turn: Vec<Vec<u32>>,
    /// How the game ended, once it has.
    pub result: Option<GameResult>,
    /// Who forfeited and whether the game was abandoned, so far: with
    /// [`Snapshot::result`], what the headline and the ranking say.
    pub ending: Ending,
    /// What the table is doing, when it is not this seat's move ("waiting
    /// for Anne Bonny").
    pub status: Option<String>,
    /// Where the game's transcript is saved, if it is.
    pub transcript: Option<String>,
    /// While the table still gathers its seats: the lobby screen's content
    /// (the view above is then only a placeholder).
    pub lobby: Option<Lobby>,
    /// The game's rule options (the defaults until a networked table's
    /// genesis is known).
    pub options: G::Options,
    /// How long a seat may take over a decision before it is played
    /// automatically, when the table keeps turn clocks.
    pub stall_timeout: Option<Duration>,
}

/// A table gathering its seats, as the lobby screen shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lobby {
    /// The invitation others join with, when this peer has it (the host).
    pub ticket: Option<String>,
    /// Who can reach the table when not everyone can (the ticket's
    /// addresses reach no further than a private network or this machine),
    /// and what would let others in, shown under the ticket; empty when
    /// the ticket reaches the internet.
    pub reach: Vec<String>,
    /// Seats at the table.
    pub seats: u8,
    /// Seats taken so far.
    pub filled: u8,
    /// Who sits where so far, in seat order, when this peer knows (the host
    /// does; a joiner learns the names when the game starts).
    pub seated: Vec<SeatInfo>,
    /// Whether this peer watches rather than plays.
    pub spectator: bool,
    /// Set when the table stopped before the game began: why, in words.
    pub stopped: Option<String>,
}

impl<G: Listed> Snapshot<G> {
    /// The players' names in seat order.
    pub fn names(&self) -> Vec<String> {
        self.seats.iter().map(|s| s.name.clone()).collect()
    }

    /// Whether the game is still being played.
    pub fn live(&self) -> bool {
        self.result.is_none()
    }
}

/// The history of a game as the log and the chart show it, built from the
/// game's inputs and events; any session implementation can keep one.
///
/// Built with [`Chronicle::following`], it keeps its own copy of the game
/// and applies every input to it ([`Chronicle::apply`]), so the chart's
/// victory points are those after each input, however late the inputs are
/// read (a resumed table hands over its whole history at once, long after
/// the table's own game moved on), and a table that goes back to apply a
/// forfeit ([`Chronicle::rewind`]) takes the history back with it.
#[derive(Clone, Debug)]
pub struct Chronicle<G: Listed> {
    log: Vec<LogLine>,
    vp_by_turn: Vec<Vec<u32>>,
    turn: u32,
    /// The game as the inputs applied so far left it, when following.
    follower: Option<Follower<G>>,
    /// Per input applied, where the history stood before it.
    marks: Vec<Mark>,
    /// The seat whose decision was just played automatically: the chance it
    /// asked for (its draw) is part of the automatic move.
    auto: Option<Seat>,
    /// Who forfeited and whether the game was abandoned.
    ending: Ending,
}

/// A chronicle's own copy of the game.
#[derive(Clone, Debug)]
struct Follower<G: Listed> {
    seats: u8,
    options: G::Options,
    game: G,
    /// The inputs applied, to rebuild the game after a rewind.
    records: Vec<Record<G>>,
}

/// Where a chronicle stood before an input.
#[derive(Clone, Copy, Debug)]
struct Mark {
    log: usize,
    vp_by_turn: usize,
    turn: u32,
    auto: Option<Seat>,
}

/// What a log line says after a move the table played for a forfeited seat.
pub const AUTO_MARK: &str = "(auto)";

/// `line` marked as a move the table played automatically: "You stop
/// (auto)." (the mark goes before a closing full stop).
pub fn auto_marked(line: &str) -> String {
    match line.strip_suffix('.') {
        Some(body) => format!("{body} {AUTO_MARK}."),
        None => format!("{line} {AUTO_MARK}"),
    }
}

/// The line that tells a seat forfeited, for a person to read.
pub fn forfeit_line(names: &[String], seat: Seat, me: Option<Seat>, resigned: bool) -> String {
    match (me == Some(seat), resigned) {
        (true, false) => "You took too long; your seat is played automatically from now on.".into(),
        (true, true) => "You resigned; your seat is played automatically from now on.".into(),
        (false, false) => format!(
            "{} took too long and is played automatically from now on.",
            seat_name(names, seat)
        ),
        (false, true) => format!(
            "{} resigned and is played automatically from now on.",
            seat_name(names, seat)
        ),
    }
}

/// Why a chronicle could not follow the game.
#[derive(Debug, thiserror::Error)]
pub enum ChronicleError {
    /// The game's set-up (seats, options) is refused.
    #[error("the game cannot be set up: {0}")]
    Setup(#[from] SetupError),
}

impl<G: Listed> Default for Chronicle<G> {
    fn default() -> Self {
        Chronicle {
            log: Vec::new(),
            vp_by_turn: Vec::new(),
            turn: 0,
            follower: None,
            marks: Vec::new(),
            auto: None,
            ending: Ending::default(),
        }
    }
}

impl<G: Listed> Chronicle<G> {
    /// An empty history, fed with [`Chronicle::record`] by a caller that has
    /// the game's view after each batch of events.
    pub fn new() -> Self {
        Chronicle::default()
    }

    /// An empty history of a game of `seats` seats with `options`, fed input
    /// by input with [`Chronicle::apply`].
    pub fn following(seats: u8, options: &G::Options) -> Result<Self, ChronicleError> {
        let game = G::new_game(seats, options)?;
        Ok(Chronicle {
            follower: Some(Follower {
                seats,
                options: options.clone(),
                game,
                records: Vec::new(),
            }),
            ..Chronicle::default()
        })
    }

    /// Add what `events` tell; `view` is the game after them (for the
    /// chart), and lines about `me` say "You".
    pub fn record(
        &mut self,
        events: &[G::Event],
        view: &G::View,
        names: &[String],
        me: Option<Seat>,
    ) {
        let vp = G::scores(view);
        self.push_events(events, &vp, names, me, None);
    }

    /// Add the input the table applied at `position` (from 0): `record` is
    /// what it was, `events` what it did. A forfeit or a resignation gets a
    /// line of its own, and every choice the table made for a forfeited
    /// seat is marked [`AUTO_MARK`]. An input at a position already applied
    /// first takes the history back there (the table went back to apply a
    /// forfeit).
    pub fn apply(
        &mut self,
        position: u64,
        record: &Record<G>,
        events: &[G::Event],
        names: &[String],
        me: Option<Seat>,
    ) {
        let position = usize::try_from(position).unwrap_or(usize::MAX);
        if position < self.marks.len() {
            self.rewind(position as u64);
        } else if position > self.marks.len() {
            // Inputs that never reached us (a full event channel): the chart
            // cannot be right from here on, and the log says so.
            let missing = position - self.marks.len();
            self.follower = None;
            self.note(format!(
                "{missing} moves are missing from this log; the transcript has them all."
            ));
            let mark = self.mark();
            self.marks.resize(position, mark);
        }
        self.marks.push(self.mark());
        let vp = match self.follower.as_mut().map(|f| f.apply(record)) {
            Some(Some(vp)) => Some(vp),
            Some(None) => {
                self.follower = None;
                self.note(
                    "The chart stops here: this copy of the game refused a move the table took.",
                );
                None
            }
            None => None,
        };
        let vp = vp.unwrap_or_else(|| self.vp_by_turn.last().cloned().unwrap_or_default());
        self.ending.follow(position as u64, record);
        match record {
            Record::Action { .. } => self.auto = None,
            Record::Zombie { seat, .. } => self.auto = Some(*seat),
            // A private deal is the game's own step, not a seat's choice.
            Record::Chance { .. } | Record::Private { .. } => {}
            Record::Forfeit { seat, .. } => {
                self.note(forfeit_line(names, *seat, me, false));
            }
            Record::Resign { seat, .. } => {
                self.note(forfeit_line(names, *seat, me, true));
            }
            Record::Abandon { stopped, claims } => {
                let stopped: Vec<String> = stopped.iter().map(|s| seat_name(names, *s)).collect();
                self.note(if claims.is_empty() {
                    format!(
                        "The game ends here: {} gone, and it could not go on without them.",
                        stopped.join(", ")
                    )
                } else {
                    format!(
                        "The game is abandoned: {} stopped, and only seats that claimed them were left.",
                        stopped.join(", ")
                    )
                });
            }
        }
        let auto = match record {
            Record::Zombie { seat, .. } => Some(*seat),
            Record::Chance { .. } => self.auto,
            _ => None,
        };
        // Every chance up to the next decision follows from the automatic
        // one: a draw from an empty pile first turns up the spent coins and
        // reshuffles, each a chance of its own, before the card it drew.
        self.push_events(events, &vp, names, me, auto);
    }

    /// Take the history back to before the input at `position` (the table
    /// went back there to apply a forfeit).
    pub fn rewind(&mut self, position: u64) {
        let Ok(position) = usize::try_from(position) else {
            return;
        };
        let Some(mark) = self.marks.get(position).copied() else {
            return;
        };
        self.marks.truncate(position);
        self.ending.rewind(position as u64);
        self.log.truncate(mark.log);
        self.vp_by_turn.truncate(mark.vp_by_turn);
        self.turn = mark.turn;
        self.auto = mark.auto;
        if let Some(f) = self.follower.take() {
            self.follower = f.rebuilt(position);
        }
    }

    fn mark(&self) -> Mark {
        Mark {
            log: self.log.len(),
            vp_by_turn: self.vp_by_turn.len(),
            turn: self.turn,
            auto: self.auto,
        }
    }

    fn push_events(
        &mut self,
        events: &[G::Event],
        vp: &[u32],
        names: &[String],
        me: Option<Seat>,
        auto: Option<Seat>,
    ) {
        if self.vp_by_turn.is_empty() {
            self.vp_by_turn.push(vp.iter().map(|_| 0).collect());
        }
        for event in events {
            let milestone = G::milestone(event);
            let heading = matches!(milestone, Some(Milestone::TurnStarted(_)));
            match milestone {
                Some(Milestone::TurnStarted(turn)) => {
                    self.turn = turn;
                    if turn > 1 {
                        self.vp_by_turn.push(vp.to_vec());
                    }
                }
                Some(Milestone::TurnEnded) => self.vp_by_turn.push(vp.to_vec()),
                Some(Milestone::GameOver) => self.vp_by_turn.push(vp.to_vec()),
                None => {}
            }
            if let Some(mut text) = G::event_line(event, names, me) {
                if auto.is_some() && G::chosen_by(event) == auto {
                    text = auto_marked(&text);
                }
                self.log.push(LogLine {
                    turn: self.turn,
                    heading,
                    text,
                });
            }
            if milestone == Some(Milestone::TurnEnded) {
                // The turn's own lines, its end included, carry its number.
                self.turn += 1;
            }
        }
    }

    /// Add a line about the table rather than the game (the network gave
    /// up, say): the log panel wraps it, where a status line cannot.
    pub fn note(&mut self, text: impl Into<String>) {
        self.log.push(LogLine {
            turn: self.turn,
            heading: false,
            text: text.into(),
        });
    }

    /// Who forfeited and whether the game was abandoned, as the inputs
    /// applied so far tell.
    pub fn ending(&self) -> &Ending {
        &self.ending
    }

    /// The log lines so far.
    pub fn log(&self) -> &[LogLine] {
        &self.log
    }

    /// Victory points per seat at the start of each turn and at the end.
    pub fn vp_by_turn(&self) -> &[Vec<u32>] {
        &self.vp_by_turn
    }

    /// What the game followed so far waits for, or `None` when this
    /// chronicle does not follow the game ([`Chronicle::following`]): a
    /// session's "waiting for ..." line, told the same way for every game.
    pub fn awaited(&self) -> Option<Awaited> {
        let follower = self.follower.as_ref()?;
        Some(match follower.game.next() {
            Next::Decision(seat) => Awaited::Seats(vec![seat]),
            Next::Simultaneous(set) => Awaited::Seats(set.iter().collect()),
            Next::Chance(_) | Next::Private(_) => Awaited::Table,
            Next::Over => Awaited::Nothing,
        })
    }
}

/// What a game waits for, in the terms a status line needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Awaited {
    /// These seats' decisions.
    Seats(Vec<Seat>),
    /// The table's own step: a draw or a deal, which every peer takes part in.
    Table,
    /// Nothing: the game is over.
    Nothing,
}

impl<G: Listed> Follower<G> {
    /// Apply `record`; the victory points after it, or `None` (and the
    /// follower stops) when the game refuses it, which only a bug makes
    /// happen: the table applied the same input to the same game.
    fn apply(&mut self, record: &Record<G>) -> Option<Vec<u32>> {
        let mut events = Vec::new();
        let game = &mut self.game;
        let applied = match record {
            Record::Action { seat, action, .. } | Record::Zombie { seat, action } => {
                game.apply_action(*seat, action, &mut events).is_ok()
            }
            Record::Chance { outcome, .. } => game.apply_chance(outcome, &mut events).is_ok(),
            // A private step changes the shared state (handles dealt, cards
            // shown), as at the table.
            Record::Private { step, .. } => match step {
                PrivateStep::Reshuffle { .. } => game.apply_reshuffle(&mut events).is_ok(),
                PrivateStep::Deal { .. } => game.apply_deal(&mut events).is_ok(),
                PrivateStep::Reveal { cards } => game.apply_reveal(cards, &mut events).is_ok(),
                PrivateStep::Play {
                    seat,
                    action,
                    revealed,
                    ..
                } => game
                    .apply_action_revealing(*seat, action, revealed, &mut events)
                    .is_ok(),
            },
            Record::Forfeit { .. } | Record::Resign { .. } | Record::Abandon { .. } => true,
        };
        self.records.push(record.clone());
        applied.then_some(())?;
        Some(G::scores(&self.game.view(Observer::Spectator)))
    }

    /// The game again from the start, with its first `inputs` inputs.
    fn rebuilt(self, inputs: usize) -> Option<Follower<G>> {
        let mut fresh = Follower {
            seats: self.seats,
            options: self.options.clone(),
            game: G::new_game(self.seats, &self.options).ok()?,
            records: Vec::new(),
        };
        for record in self.records.iter().take(inputs) {
            fresh.apply(record)?;
        }
        Some(fresh)
    }
}

#[cfg(test)]
mod tests {
    use roundtable_bots::PortRoyalBot;
    use roundtable_local::{Applied, LocalGame, Player, Progress};
    use roundtable_port_royal::Options;
    use roundtable_table::Config;

    use roundtable_port_royal::PortRoyal;

    use super::*;

    /// Every input of a whole bots-only game, as its tables applied them.
    fn a_whole_game(seed: u64) -> (Vec<String>, Vec<Applied<PortRoyal>>) {
        let options = Options {
            victory_points: 8,
            ..Options::default()
        };
        let players = ["Anne Bonny", "Calico Jack", "Mary Read"]
            .iter()
            .map(|name| {
                let bot: Player<PortRoyal> = Player::Bot(Box::new(PortRoyalBot::new(&options)));
                (name.to_string(), bot)
            })
            .collect();
        let mut game =
            LocalGame::new(&options, seed, players, None, Config::default()).expect("a game");
        let mut applied = Vec::new();
        loop {
            let progress = game.settle().expect("the tables settle");
            applied.extend(game.drain_applied());
            match progress {
                Progress::Bot(seat) => game.move_bot(seat).expect("the bot moves"),
                Progress::Human(_) => panic!("no person sits here"),
                Progress::Finished => break,
            }
        }
        (game.names().to_vec(), applied)
    }

    fn fed(names: &[String], inputs: &[Applied<PortRoyal>]) -> Chronicle<PortRoyal> {
        let options = Options {
            victory_points: 8,
            ..Options::default()
        };
        let mut chronicle = Chronicle::following(3, &options).expect("a chronicle");
        for a in inputs {
            chronicle.apply(a.position, &a.record, &a.events, names, Some(Seat(1)));
        }
        chronicle
    }

    #[test]
    fn the_chart_rises_with_the_game_not_with_when_it_is_read() {
        let (names, inputs) = a_whole_game(5);
        let chronicle = fed(&names, &inputs);
        let chart = chronicle.vp_by_turn();
        assert_eq!(chart.first(), Some(&vec![0, 0, 0]));
        // At least one seat reached 8 VP, and not from the start.
        let last = chart.last().expect("rows");
        assert!(last.iter().any(|&vp| vp >= 8), "{last:?}");
        assert!(chart.iter().any(|row| row.iter().all(|&vp| vp < 8)));
        assert!(
            !chronicle.log().iter().any(|l| l.text.contains("missing")),
            "the tables' positions run on without a gap"
        );
    }

    /// A table that goes back to apply a forfeit applies the inputs after
    /// it again: the history then is as if they had come once.
    #[test]
    fn a_rewound_history_is_the_history_of_the_inputs_applied_again() {
        let (names, inputs) = a_whole_game(9);
        let once = fed(&names, &inputs);
        let half = inputs.len() / 2;
        let mut again = fed(&names, &inputs);
        again.rewind(half as u64);
        assert!(again.log().len() < once.log().len());
        for a in &inputs[half..] {
            again.apply(a.position, &a.record, &a.events, &names, Some(Seat(1)));
        }
        assert_eq!(again.log(), once.log());
        assert_eq!(again.vp_by_turn(), once.vp_by_turn());
        // An input at a position already applied takes the history back
        // there by itself.
        let mut replayed = fed(&names, &inputs);
        for a in &inputs[half..] {
            replayed.apply(a.position, &a.record, &a.events, &names, Some(Seat(1)));
        }
        assert_eq!(replayed.log(), once.log());
        assert_eq!(replayed.vp_by_turn(), once.vp_by_turn());
    }

    /// Every draw the table made for a forfeited seat is marked, also one
    /// that first had to turn up the spent coins and reshuffle (several
    /// chance inputs between the decision and the card it drew): the mark
    /// once stopped after the first of them.
    #[test]
    fn every_draw_played_for_a_seat_is_marked_even_after_a_reshuffle() {
        let mut several_chances = 0;
        for seed in 1..=4 {
            let (names, inputs) = a_whole_game(seed);
            // Seat 2 plays every decision automatically, as after a forfeit.
            // Chance inputs since seat 2's last automatic decision.
            let mut chances_in_a_row: Option<u32> = None;
            let zombie: Vec<Applied<PortRoyal>> = inputs
                .into_iter()
                .map(|a| {
                    let record = match a.record {
                        Record::Action { seat, action, .. } if seat == Seat(1) => {
                            chances_in_a_row = Some(0);
                            Record::Zombie { seat, action }
                        }
                        Record::Chance { .. } => {
                            if let Some(n) = chances_in_a_row.as_mut() {
                                *n += 1;
                                if *n == 2 {
                                    several_chances += 1;
                                }
                            }
                            a.record
                        }
                        other => {
                            chances_in_a_row = None;
                            other
                        }
                    };
                    Applied { record, ..a }
                })
                .collect();
            let chronicle = fed(&names, &zombie);
            for line in chronicle.log() {
                if line.text.starts_with("You draw") {
                    assert!(
                        line.text.contains(AUTO_MARK),
                        "seed {seed}: {:?}",
                        line.text
                    );
                }
            }
        }
        assert!(several_chances > 0, "no draw needed several chance inputs");
    }

    #[test]
    fn the_automatic_mark_goes_before_the_full_stop() {
        assert_eq!(auto_marked("You stop."), "You stop (auto).");
        assert_eq!(auto_marked("You stop"), "You stop (auto)");
    }
}
