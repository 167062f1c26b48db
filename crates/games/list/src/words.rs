//! Words every game's lines share: a seat's name, "You", a place in the
//! ranking, a finished game's headline, and a replay's words for events.

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
    match who.as_slice() {
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
