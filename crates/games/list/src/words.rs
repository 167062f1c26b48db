//! Words every game's lines share: a seat's name, "You", a place in the
//! ranking, a finished game's headline, and a replay's words for events.

pub use roundtable_engine::plural;
use roundtable_engine::{GameResult, Seat};

use crate::Listed;

/// One line of the move log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    /// The turn it happened in (0 before the first turn).
    pub turn: u32,
    /// Whether it heads a turn.
    pub heading: bool,
    /// The words.
    pub text: String,
}

/// What a seat is called on screen.
pub fn seat_name(names: &[String], seat: Seat) -> String {
    names
        .get(seat.index())
        .cloned()
        .unwrap_or_else(|| format!("Seat {}", seat.number()))
}

/// The headline of a finished game: "Game over: Anne Bonny wins", or
/// "Game over: You and Anne Bonny share the win".
pub fn game_over_headline(result: &GameResult, names: &[String]) -> String {
    let winners: Vec<String> = result
        .winners()
        .into_iter()
        .map(|w| seat_name(names, w))
        .collect();
    match winners.as_slice() {
        [one] => format!("Game over: {one} wins"),
        many => format!("Game over: {} share the win", many.join(" and ")),
    }
}

/// "You" for `me`, else the seat's name.
pub fn who(names: &[String], me: Option<Seat>, seat: Seat) -> String {
    if me == Some(seat) {
        "You".to_owned()
    } else {
        seat_name(names, seat)
    }
}

/// "1st", "2nd", "3rd", "4th" for a 0-based rank.
pub fn place(rank: u8) -> String {
    let n = u32::from(rank) + 1;
    let suffix = match (n % 10, n % 100) {
        (1, r) if r != 11 => "st",
        (2, r) if r != 12 => "nd",
        (3, r) if r != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Names joined with "and", "You" first (so the verb after reads right).
pub fn joined(names: &[String], seats: &[Seat], me: Option<Seat>) -> String {
    let mut seats = seats.to_vec();
    seats.sort_by_key(|seat| (Some(*seat) != me, seat.0));
    let who: Vec<String> = seats.iter().map(|seat| who(names, me, *seat)).collect();
    and_list(&who)
}

/// Items joined as a sentence lists them: "a", "a and b", "a, b and c".
pub fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The log lines `events` make, as one sentence list.
pub fn event_words<G: Listed>(events: &[G::Event], names: &[String]) -> String {
    let lines: Vec<String> = events
        .iter()
        .filter_map(|e| G::event_line(e, names, None))
        .collect();
    lines.join(" ")
}

/// What became of a seat that did not play its game to the end, in the
/// words every report of the game uses (the results screen, a headless
/// peer, `replay`, `audit`, a tournament).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// It took too long over a decision; the table played its seat from
    /// then on (a game without private cards, SPEC 3.6).
    Stalled,
    /// It resigned; the table played its seat from then on.
    Resigned,
    /// It stopped answering and the game was abandoned there: nobody
    /// played its seat after that (SPEC 3.6).
    Stopped,
}

impl Fate {
    /// What happened to the seat, after its name: "stopped answering".
    pub fn words(self) -> &'static str {
        match self {
            Fate::Stalled => "took too long and was played automatically",
            Fate::Resigned => "resigned and was played automatically",
            Fate::Stopped => "stopped answering",
        }
    }

    /// The same, short enough for a column of the ranking.
    pub fn short(self) -> &'static str {
        match self {
            Fate::Stalled => "played automatically",
            Fate::Resigned => "resigned",
            Fate::Stopped => "stopped answering",
        }
    }
}

/// How a game ended: which seats forfeited and how, and whether it was
/// abandoned. Built from the table's records as they are applied
/// ([`Ending::follow`]), or from an audit ([`Ending::audited`]): one source
/// for the words of every report, so that they agree with `audit`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ending {
    /// Per forfeit or abandonment, in order: the input it was recorded at,
    /// and what it did (a rewind drops those at or after its position).
    changes: Vec<(u64, Change)>,
}

/// One forfeit or abandonment.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Change {
    Forfeit(Seat, Fate),
    Abandon(Vec<Seat>),
}

impl Ending {
    /// Take in the record the table applied at `position` (from 0). A
    /// record at a position already taken in first takes the ending back
    /// there, as the table went back to apply a forfeit.
    pub fn follow<G: roundtable_engine::Game>(
        &mut self,
        position: u64,
        record: &roundtable_table::Record<G>,
    ) {
        use roundtable_table::Record;
        self.rewind(position);
        let change = match record {
            Record::Forfeit { seat, .. } => Change::Forfeit(*seat, Fate::Stalled),
            Record::Resign { seat, .. } => Change::Forfeit(*seat, Fate::Resigned),
            Record::Abandon { stopped, .. } => Change::Abandon(stopped.clone()),
            Record::Action { .. }
            | Record::Chance { .. }
            | Record::Zombie { .. }
            | Record::Private { .. } => return,
        };
        self.changes.push((position, change));
    }

    /// Forget what was recorded at `position` or after.
    pub fn rewind(&mut self, position: u64) {
        self.changes.retain(|(at, _)| *at < position);
    }

    /// The ending as it stood before the input at `position`.
    pub fn before(&self, position: u64) -> Ending {
        let mut ending = self.clone();
        ending.rewind(position);
        ending
    }

    /// The ending an audit found: its forfeits (by the reasons the table
    /// gives, "stalled" and "resigned"; any other is an abandonment's) and
    /// the seats that had stopped when the game was abandoned.
    pub fn audited(report: &roundtable_table::audit::AuditReport) -> Ending {
        let mut changes: Vec<(u64, Change)> = report
            .forfeited
            .iter()
            .filter_map(|(seat, reason)| {
                let fate = match *reason {
                    "stalled" => Fate::Stalled,
                    "resigned" => Fate::Resigned,
                    _ => return None,
                };
                Some((0, Change::Forfeit(*seat, fate)))
            })
            .collect();
        if let Some(stopped) = &report.abandoned {
            changes.push((0, Change::Abandon(stopped.clone())));
        }
        Ending { changes }
    }

    /// The seats that had stopped when the game was abandoned, if it was.
    pub fn abandoned(&self) -> Option<&[Seat]> {
        self.changes.iter().rev().find_map(|(_, c)| match c {
            Change::Abandon(stopped) => Some(stopped.as_slice()),
            Change::Forfeit(..) => None,
        })
    }

    /// Every seat that forfeited or stopped, in seat order: the seats an
    /// abandoned game ranks last.
    pub fn forfeited(&self) -> Vec<Seat> {
        let mut seats: Vec<Seat> = self
            .changes
            .iter()
            .flat_map(|(_, c)| match c {
                Change::Forfeit(seat, _) => vec![*seat],
                Change::Abandon(stopped) => stopped.clone(),
            })
            .collect();
        seats.sort();
        seats.dedup();
        seats
    }

    /// The result of a game that stands at `standing` with this ending:
    /// the game's own when it is over, or, abandoned, the standing of the
    /// moment with every seat that forfeited last (SPEC 3.6), as the table
    /// finishes it.
    pub fn result<G: roundtable_engine::Game>(&self, game: &G) -> Option<GameResult> {
        game.result().or_else(|| {
            self.abandoned()
                .map(|_| game.standing().with_last(&self.forfeited()))
        })
    }

    /// What became of `seat`, if it did not play to the end: a seat that
    /// forfeited before the game was abandoned keeps its first fate (it
    /// was played automatically until then).
    pub fn fate(&self, seat: Seat) -> Option<Fate> {
        let forfeited = self.changes.iter().find_map(|(_, c)| match c {
            Change::Forfeit(s, fate) if *s == seat => Some(*fate),
            _ => None,
        });
        forfeited.or_else(|| {
            self.abandoned()
                .is_some_and(|stopped| stopped.contains(&seat))
                .then_some(Fate::Stopped)
        })
    }

    /// The headline of the finished game: "Game over: Anne Bonny wins",
    /// or, abandoned, "Game abandoned: bob stopped answering" (nobody wins
    /// a game that did not reach its end; the ranking below says how it
    /// stood).
    pub fn headline(&self, result: &GameResult, names: &[String]) -> String {
        match self.abandoned() {
            None => game_over_headline(result, names),
            Some(stopped) => format!("Game abandoned: {}", self.who_stopped(stopped, names)),
        }
    }

    /// "bob stopped answering", "bob resigned and was played automatically
    /// and cat stopped answering": each stopped seat with its fate.
    pub fn who_stopped(&self, stopped: &[Seat], names: &[String]) -> String {
        let mut by_fate: Vec<(Fate, Vec<Seat>)> = Vec::new();
        for &seat in stopped {
            let fate = self.fate(seat).unwrap_or(Fate::Stopped);
            match by_fate.iter_mut().find(|(f, _)| *f == fate) {
                Some((_, seats)) => seats.push(seat),
                None => by_fate.push((fate, vec![seat])),
            }
        }
        let parts: Vec<String> = by_fate
            .iter()
            .map(|(fate, seats)| format!("{} {}", joined(names, seats, None), fate.words()))
            .collect();
        match parts.as_slice() {
            [] => "every seat stopped".to_owned(),
            [one] => one.clone(),
            [rest @ .., last] => format!("{}; {last}", rest.join("; ")),
        }
    }
}
