//! The replay's position panel under the table.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget};

use super::widgets::wrap;
use roundtable_games::Listed;
use roundtable_games::words::seat_name;

use crate::app::{App, Screen};
use crate::replay::ReplayStatus;
use crate::session::Snapshot;
use crate::theme::Theme;

/// Where the replay shown stands, when the screen is a replay.
pub(crate) fn replay_status(app: &App) -> Option<&ReplayStatus> {
    app.replay.as_ref().filter(|_| app.screen == Screen::Replay)
}

/// A bar of `width` cells, `done` of `total` filled: `#` and `.`, so it
/// reads without colour.
pub(super) fn gauge(done: usize, total: usize, width: usize) -> String {
    let filled = (done * width)
        .checked_div(total)
        .unwrap_or(width)
        .min(width);
    format!("[{}{}]", "#".repeat(filled), ".".repeat(width - filled))
}

/// The replay panel's rows: a bar of the position, what the last input
/// was, why the transcript ends early (if it does), why the hands of a game
/// with private cards stay hidden (if they do), and the result at the end.
pub(crate) fn replay_lines<G: Listed>(
    s: &Snapshot<G>,
    r: &ReplayStatus,
    width: usize,
    theme: Theme,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let pct = (r.position * 100).checked_div(r.total).unwrap_or(100);
    let tail = format!(" {pct:>3}%");
    let bar = width.saturating_sub(tail.len() + 3).max(4);
    lines.push(Line::from(format!(
        " {}{tail}",
        gauge(r.position, r.total, bar)
    )));
    let input = match &r.input {
        Some(words) => format!("Input {}: {words}", r.position),
        None => "The start: no input applied yet.".to_owned(),
    };
    for row in wrap(&input, width.saturating_sub(1)) {
        lines.push(Line::from(format!(" {row}")));
    }
    if let Some(note) = &r.note {
        for row in wrap(&format!("Note: {note}."), width.saturating_sub(1)) {
            lines.push(Line::styled(format!(" {row}"), theme.warn()));
        }
    }
    if let Some(hidden) = &r.hidden {
        for row in wrap(&format!("Note: {hidden}."), width.saturating_sub(1)) {
            lines.push(Line::styled(format!(" {row}"), theme.warn()));
        }
    }
    if let Some(result) = &s.result {
        let names = s.names();
        let headline = s.ending.headline(result, &names);
        let style = if s.ending.abandoned().is_some() {
            theme.warn()
        } else {
            theme.good()
        };
        lines.push(Line::styled(format!(" {headline}"), style));
        let mut standings = result.standings.clone();
        standings.sort_by_key(|x| (x.rank, x.seat));
        // The game's own words for its tie-break (coins, chapters, holds),
        // and what became of a seat that did not play to the end.
        for st in standings {
            let fate = s
                .ending
                .fate(st.seat)
                .map_or(String::new(), |f| format!(" ({})", f.short()));
            lines.push(Line::from(format!(
                " #{} {} {} VP, {}{fate}",
                st.rank + 1,
                seat_name(&names, st.seat),
                st.score,
                G::tie_break_words(st.tie_break)
            )));
        }
    }
    lines
}

/// The replay panel: the position in a bar, the last input, notes, the
/// result.
pub(crate) fn replay_panel<G: Listed>(
    app: &App,
    s: &Snapshot<G>,
    r: &ReplayStatus,
    area: Rect,
    buf: &mut Buffer,
    compact: bool,
) {
    let theme = app.theme;
    let width = usize::from(area.width.saturating_sub(if compact { 0 } else { 2 }));
    let mut lines = replay_lines(s, r, width, theme);
    if let Some(notice) = &app.notice {
        lines.push(Line::styled(notice.clone(), theme.warn()));
    }
    let title = if r.turn > 0 {
        format!(
            "Replay: input {} / {}, turn {}",
            r.position, r.total, r.turn
        )
    } else {
        format!("Replay: input {} / {}", r.position, r.total)
    };
    let frame = if compact {
        Block::new().borders(Borders::TOP)
    } else {
        Block::bordered()
    };
    Paragraph::new(lines)
        .block(frame.title(Span::styled(format!(" {title} "), theme.title())))
        .render(area, buf);
}

// ----- the replay prompt --------------------------------------------------
