//! The turn clock's warning, and what the table waits for: a seat that runs
//! out of time is played automatically, which a person must see coming.

use std::time::Duration;

use ratatui::text::Line;
use roundtable_engine::Seat;

use super::widgets::wrap;
use roundtable_games::Listed;
use roundtable_games::words::seat_name;

use crate::session::Snapshot;
use crate::theme::Theme;

/// The least warning a seat gets, whatever its table's clock: about the time
/// a person needs to notice a warning, read it and pick a move.
pub const MIN_WARNING: Duration = Duration::from_secs(10);

/// How long before its clock runs out a seat is warned: the last quarter of
/// the table's stall timeout (30 s of the start menu's two minutes: time to
/// choose, not a permanent alarm on a long clock), but never less than
/// [`MIN_WARNING`]; on a clock that short the warning shows all along.
/// Without a known timeout, [`MIN_WARNING`].
pub fn warning_threshold(stall_timeout: Option<Duration>) -> Duration {
    match stall_timeout {
        Some(timeout) => (timeout / 4).max(MIN_WARNING),
        None => MIN_WARNING,
    }
}

/// Minutes and seconds, "0:08".
pub(crate) fn clock_words(left: Duration) -> String {
    let secs = left.as_secs();
    format!("{}:{:02}", secs / 60, secs % 60)
}

/// The seats whose clocks run low, this seat first: each seat, whether it
/// is this seat, and the warning in words.
pub fn clock_warnings<G: Listed>(s: &Snapshot<G>) -> Vec<(Seat, bool, String)> {
    if !s.live() || s.lobby.is_some() {
        return Vec::new();
    }
    let threshold = warning_threshold(s.stall_timeout);
    let names = s.names();
    let mut warnings: Vec<(Seat, bool, String)> = s
        .seats
        .iter()
        .enumerate()
        .filter(|(_, info)| !info.forfeited)
        .filter_map(|(i, info)| {
            let left = info.clock.filter(|left| *left <= threshold)?;
            let seat = Seat(i as u8);
            let mine = s.me == Some(seat);
            let text = match (mine, left.is_zero()) {
                (true, false) => format!(
                    "Your move: {} left, then your seat is played automatically.",
                    clock_words(left)
                ),
                (true, true) => {
                    "Your time is up: move now, or your seat is played automatically.".to_owned()
                }
                (false, false) => format!(
                    "{}: {} left, then the seat is played automatically.",
                    seat_name(&names, seat),
                    clock_words(left)
                ),
                (false, true) => format!(
                    "{}: time is up; the seat is about to be played automatically.",
                    seat_name(&names, seat)
                ),
            };
            Some((seat, mine, text))
        })
        .collect();
    warnings.sort_by_key(|(seat, mine, _)| (!mine, seat.0));
    warnings
}

/// The warnings as the moves panel shows them at its top, wrapped to
/// `width`: this seat's in the warning style, others' plainer.
pub(crate) fn clock_lines<G: Listed>(
    s: &Snapshot<G>,
    width: usize,
    theme: Theme,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for (_, mine, text) in clock_warnings(s) {
        let style = if mine { theme.warn() } else { theme.title() };
        for row in wrap(&text, width.saturating_sub(2)) {
            lines.push(Line::styled(format!(" {row}"), style));
        }
    }
    lines
}

/// What the table waits for, wrapped to `width` (the names of seats played
/// automatically come last and must not be cut).
pub(crate) fn waiting_lines<G: Listed>(
    s: &Snapshot<G>,
    width: usize,
    theme: Theme,
) -> Vec<Line<'static>> {
    let status = s.status.clone().unwrap_or_else(|| "...".into());
    wrap(&status, width.saturating_sub(3))
        .into_iter()
        .map(|row| Line::styled(format!("  {row}"), theme.dim()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_warning_comes_in_the_last_quarter_but_never_later_than_ten_seconds() {
        assert_eq!(
            warning_threshold(Some(Duration::from_secs(120))),
            Duration::from_secs(30)
        );
        assert_eq!(
            warning_threshold(Some(Duration::from_secs(15))),
            MIN_WARNING
        );
        assert_eq!(warning_threshold(None), MIN_WARNING);
    }
}
