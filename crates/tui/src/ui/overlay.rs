//! What draws over any screen: the help overlay and the quit question.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Widget};

use super::{block, centered};
use crate::keymap::{self, Context};
use crate::theme::Theme;

/// The help screen's text: every key from the keymap, then what the
/// abbreviations on the table mean.
pub fn help_lines(theme: Theme, current: Context) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for (title, keys) in keymap::help_sections(current) {
        if keys.is_empty() {
            continue;
        }
        lines.push(Line::styled(title, theme.title()));
        for (k, d) in keys {
            lines.push(Line::from(vec![
                Span::styled(format!("  {k:<8}"), theme.key()),
                Span::raw(d),
            ]));
        }
    }
    lines.push(Line::styled("On the table", theme.title()));
    for text in crate::text::legend() {
        lines.push(Line::from(format!("  {text}")));
    }
    lines
}

pub(super) fn help(scroll: u16, current: Context, area: Rect, buf: &mut Buffer, theme: Theme) {
    let rect = centered(area, 64, area.height.saturating_sub(2));
    let lines = help_lines(theme, current);
    let max = (lines.len() as u16).saturating_sub(rect.height.saturating_sub(2));
    Clear.render(rect, buf);
    Paragraph::new(lines)
        .scroll((scroll.min(max), 0))
        .block(block("Help: ? or Esc closes", theme))
        .render(rect, buf);
}

pub(super) fn confirm_quit(area: Rect, buf: &mut Buffer, theme: Theme) {
    let rect = centered(area, 44, 5);
    Clear.render(rect, buf);
    let lines = vec![
        Line::from("The game is still being played."),
        Line::from(vec![
            Span::styled("y", theme.key()),
            Span::raw(" quit   "),
            Span::styled("n", theme.key()),
            Span::raw(" keep playing"),
        ]),
    ];
    Paragraph::new(lines)
        .block(block("Quit the game?", theme))
        .render(rect, buf);
}
