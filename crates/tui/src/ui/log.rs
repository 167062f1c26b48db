//! The game log: the side panel on the table and the full-screen log.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use super::widgets::{block, panel, wrap};
use roundtable_games::Listed;

use crate::app::App;
use crate::session::Snapshot;
use crate::theme::Theme;

/// The newest `want` rows of the log, wrapped and styled, oldest first, and
/// the total number of rows the whole log wraps to (only counted when
/// `count_all`: the log screen's title needs it, the table's panel does not).
pub(super) fn log_rows<G: Listed>(
    s: &Snapshot<G>,
    width: usize,
    want: usize,
    count_all: bool,
    theme: Theme,
) -> (Vec<Line<'static>>, usize) {
    let mut rows = Vec::new();
    let mut total = 0;
    // Wrap from the newest line back, and stop once enough rows are in: a
    // long game's log is not re-wrapped at every frame.
    for l in s.log.iter().rev() {
        let wrapped = wrap(&l.text, width);
        total += wrapped.len();
        if rows.len() < want {
            let style = if l.heading {
                theme.title()
            } else {
                Style::new()
            };
            for row in wrapped.into_iter().rev() {
                rows.push(Line::styled(row, style));
            }
        } else if !count_all {
            break;
        }
    }
    rows.reverse();
    (rows, total)
}

/// The rows that fit in `height`, `scroll` rows back from the newest.
pub(super) fn window(
    rows: Vec<Line<'static>>,
    height: usize,
    scroll: usize,
) -> (Vec<Line<'static>>, usize) {
    let scroll = scroll.min(rows.len().saturating_sub(height));
    let end = rows.len() - scroll;
    let start = end.saturating_sub(height);
    (rows[start..end].to_vec(), scroll)
}

pub(crate) fn log_panel<G: Listed>(
    app: &App,
    s: &Snapshot<G>,
    area: Rect,
    buf: &mut Buffer,
    compact: bool,
) {
    let theme = app.theme;
    let frame = panel("Log", theme, compact);
    let inner = frame.inner(area);
    let (inner_w, inner_h) = (usize::from(inner.width), usize::from(inner.height));
    let (rows, _) = log_rows(s, inner_w, inner_h + app.log_scroll, false, theme);
    let (rows, scroll) = window(rows, inner_h, app.log_scroll);
    Paragraph::new(rows)
        .block(panel(side_log_title(scroll, area.width), theme, compact))
        .render(area, buf);
}

/// The side log's title: when scrolled back, how far and how to follow the
/// game again, in as many words as fit on the top border of `width`
/// columns (its corners and the spaces around the title take 4).
fn side_log_title(scroll: usize, width: u16) -> String {
    if scroll == 0 {
        return "Log".to_owned();
    }
    let room = usize::from(width).saturating_sub(4);
    [
        format!("Log ({scroll} rows back, End for newest)"),
        format!("Log ({scroll} back, End: newest)"),
        format!("Log -{scroll} End"),
    ]
    .into_iter()
    .find(|t| t.chars().count() <= room)
    .unwrap_or_else(|| format!("-{scroll}"))
}

/// The log screen's text area (columns, rows) in a body of `area`.
fn log_screen_inner(area: Rect) -> (usize, usize) {
    (
        usize::from(area.width.saturating_sub(2)),
        usize::from(area.height.saturating_sub(2)),
    )
}

/// How far back the log screen can scroll in a terminal of `width` x
/// `height`: until the oldest row shows at the top.
pub fn log_screen_max_scroll<G: Listed>(s: &Snapshot<G>, width: u16, height: u16) -> usize {
    let body = super::widgets::body_area(Rect::new(0, 0, width, height));
    let (inner_w, inner_h) = log_screen_inner(body);
    log_max_scroll(s, inner_w as u16, inner_h as u16)
}

/// How far back a log panel whose text area is `width` x `height` can
/// scroll: the rows the whole log wraps to, less those that show at once.
pub(crate) fn log_max_scroll<G: Listed>(s: &Snapshot<G>, width: u16, height: u16) -> usize {
    let total: usize = s
        .log
        .iter()
        .map(|l| wrap(&l.text, usize::from(width)).len())
        .sum();
    total.saturating_sub(usize::from(height))
}

pub(super) fn log_screen<G: Listed>(app: &App, s: &Snapshot<G>, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let (inner_w, inner_h) = log_screen_inner(area);
    let (rows, total) = log_rows(s, inner_w, inner_h + app.log_scroll, true, theme);
    let (rows, scroll) = window(rows, inner_h, app.log_scroll);
    let title = format!(
        "Move log: {} lines, showing {} to {}",
        total,
        total.saturating_sub(scroll + rows.len()) + 1,
        total - scroll
    );
    Paragraph::new(rows)
        .block(block(title, theme))
        .render(area, buf);
}

// ----- after the game ---------------------------------------------------
