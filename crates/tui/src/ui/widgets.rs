//! Small pieces every screen and every game's board draws with: frames,
//! selectable rows, word wrapping, the body above the hint bar.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders};

use crate::theme::Theme;

/// Below this width the table is one column.
pub(crate) const TWO_COLUMNS: u16 = 72;

/// The screen's body, and the hint bar's row under it.
pub(crate) fn body_and_hints(area: Rect) -> [Rect; 2] {
    Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(area)
}

/// The screen's body: all of `area` but the hint bar.
pub(crate) fn body_area(area: Rect) -> Rect {
    body_and_hints(area)[0]
}

pub(crate) fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let w = width.min(area.width);
    let h = height.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

pub(crate) fn block(title: impl Into<String>, theme: Theme) -> Block<'static> {
    Block::bordered().title(Span::styled(format!(" {} ", title.into()), theme.title()))
}

/// A panel's frame: all borders, or in a cramped terminal only the top one
/// (with the title), which saves a row and two columns per panel.
pub(crate) fn panel(title: impl Into<String>, theme: Theme, compact: bool) -> Block<'static> {
    let b = block(title, theme);
    if compact { b.borders(Borders::TOP) } else { b }
}

/// A selectable row: marked with `>` and reversed when selected, so the
/// selection shows without colour.
pub(crate) fn choice(selected: bool, text: String, theme: Theme) -> Line<'static> {
    if selected {
        Line::styled(format!("> {text}"), theme.selected())
    } else {
        Line::from(format!("  {text}"))
    }
}

/// `text` cut into rows of `width` characters (a ticket has no spaces to
/// wrap at; every character of it must show).
pub(crate) fn chunks(text: &str, width: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars
        .chunks(width.max(1))
        .map(|c| c.iter().collect())
        .collect()
}

/// Word-wrap `text` to `width` columns; continuation lines are indented.
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(8);
    let mut out = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let len = line.chars().count();
        let wlen = word.chars().count();
        if len > 0 && len + 1 + wlen > width {
            out.push(std::mem::take(&mut line));
            line.push_str("  ");
        }
        if !line.is_empty() && !line.ends_with("  ") {
            line.push(' ');
        }
        if wlen > width {
            // A word longer than the line is cut, not lost.
            line.push_str(
                &word
                    .chars()
                    .take(width.saturating_sub(2))
                    .collect::<String>(),
            );
        } else {
            line.push_str(word);
        }
    }
    out.push(line);
    out
}

/// A list ("1sw, 2 anchors, gov") wrapped to `width` between its items, so
/// that "2 anchors" never breaks in two; an item wider than a row is
/// word-wrapped. Continuation rows are indented by two, as [`wrap`]'s are.
pub(crate) fn wrap_list(text: &str, width: usize) -> Vec<String> {
    wrap_items(text, ", ", width)
}

/// [`wrap_list`] for items joined by `separator` (" | " where an item has
/// commas of its own).
pub(crate) fn wrap_items(text: &str, separator: &str, width: usize) -> Vec<String> {
    let mut rows: Vec<String> = vec![String::new()];
    for item in text.split_inclusive(separator) {
        let len = item.trim_end().chars().count();
        let row = rows.last().map_or(0, |r| r.chars().count());
        if row > 0 && row + len > width {
            rows.push("  ".to_owned());
        }
        let row = rows.last().map_or(0, |r| r.chars().count());
        if row + len > width {
            // Too wide for a row of its own: words, as everywhere else.
            let start = rows.pop().unwrap_or_default();
            rows.extend(wrap(&format!("{}{item}", start.trim()), width));
        } else if let Some(last) = rows.last_mut() {
            last.push_str(item);
        }
    }
    rows.iter().map(|r| r.trim_end().to_owned()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_keeps_every_word_and_indents_continuations() {
        let rows = wrap("Anne Bonny trades the [Y] Pinnace 1sw 1$ for 1$.", 20);
        assert!(rows.iter().all(|r| r.chars().count() <= 20), "{rows:?}");
        assert!(rows[1].starts_with("  "));
        let joined = rows
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(joined, "Anne Bonny trades the [Y] Pinnace 1sw 1$ for 1$.");
    }
}
