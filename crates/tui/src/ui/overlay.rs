//! What draws over any screen: the help overlay and the quit question.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget};

use super::widgets::{block, centered, wrap};
use crate::app::{App, GameKind};
use crate::keymap::{self, Context};
use crate::theme::Theme;

/// The help screen's text: every key from the keymap, then what the
/// abbreviations on the game's table mean (`legend`, the game's own).
pub fn help_lines(theme: Theme, current: Context, legend: &[String]) -> Vec<Line<'static>> {
    let sections = keymap::help_sections(current);
    // One key column for every section, as wide as the widest keys and a
    // space, so that no keys run into what they do.
    let key_w = sections
        .iter()
        .flat_map(|(_, keys)| keys.iter().map(|(k, _)| k.chars().count()))
        .max()
        .unwrap_or(0);
    let mut lines = Vec::new();
    for (title, keys) in sections {
        if keys.is_empty() {
            continue;
        }
        lines.push(Line::styled(title, theme.title()));
        for (k, d) in keys {
            lines.push(Line::from(vec![
                Span::styled(format!("  {k:<key_w$} "), theme.key()),
                Span::raw(d),
            ]));
        }
    }
    if !legend.is_empty() {
        lines.push(Line::styled("On the table", theme.title()));
    }
    for text in legend {
        lines.push(Line::from(format!("  {text}")));
    }
    lines
}

pub(super) fn help(
    scroll: u16,
    current: Context,
    legend: &[String],
    area: Rect,
    buf: &mut Buffer,
    theme: Theme,
) {
    let rect = centered(area, 64, area.height.saturating_sub(2));
    let lines = help_lines(theme, current, legend);
    let max = (lines.len() as u16).saturating_sub(rect.height.saturating_sub(2));
    Clear.render(rect, buf);
    Paragraph::new(lines)
        .scroll((scroll.min(max), 0))
        .block(block("Help: ? or Esc closes", theme))
        .render(rect, buf);
}

/// The question before leaving a live game: what leaving means here (a
/// local game ends for good, a network seat can come back, a spectator
/// just stops watching), and what each answer does.
pub(super) fn confirm_quit(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let leave = if app.has_menu {
        "back to the start menu"
    } else {
        "quit"
    };
    let (title, why, yes, no) = match (app.spectator, app.kind) {
        (true, _) => (
            "Stop watching?",
            "The players go on without you.",
            leave,
            "keep watching",
        ),
        (false, GameKind::Local) => (
            "Quit the game?",
            "A local game cannot be resumed: quitting ends it.",
            leave,
            "keep playing",
        ),
        (false, GameKind::Network) => (
            "Leave the table?",
            "The others wait for you, then play your seat automatically; roundtable resume brings you back.",
            leave,
            "keep playing",
        ),
    };
    let width = 52u16.min(area.width);
    let mut lines: Vec<Line<'static>> = wrap(why, usize::from(width.saturating_sub(2)))
        .into_iter()
        .map(Line::from)
        .collect();
    lines.push(Line::from(vec![
        Span::styled("y", theme.key()),
        Span::raw(format!(" {yes}   ")),
        Span::styled("n", theme.key()),
        Span::raw(format!(" {no}")),
    ]));
    let rect = centered(area, width, lines.len() as u16 + 2);
    Clear.render(rect, buf);
    Paragraph::new(lines)
        .block(block(title, theme))
        .render(rect, buf);
}
