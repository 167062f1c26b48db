//! The post-game screen: ranking, tie breaks and the VP chart.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};
use roundtable_engine::Seat;

use super::widgets::{block, chunks, wrap};
use roundtable_games::words::{and_list, plural, seat_name};
use roundtable_games::{ChartUnit, Listed};

use crate::app::App;

use crate::session::Snapshot;
use crate::theme::Theme;

/// `text` in rows of `width`, broken at spaces where it can be and inside
/// a word (a file's path) only where the word is longer than a row: every
/// character shows.
fn wrap_whole(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut rows: Vec<String> = Vec::new();
    let mut row = String::new();
    for word in text.split(' ') {
        let used = row.chars().count();
        let len = word.chars().count();
        if used > 0 && used + 1 + len <= width {
            row.push(' ');
            row.push_str(word);
            continue;
        }
        if used > 0 {
            rows.push(std::mem::take(&mut row));
        }
        if len <= width {
            row.push_str(word);
        } else {
            let mut pieces = chunks(word, width);
            row = pieces.pop().unwrap_or_default();
            rows.extend(pieces);
        }
    }
    rows.push(row);
    rows
}

pub(super) fn post_game<G: Listed>(app: &App, s: &Snapshot<G>, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let names = s.names();
    let Some(result) = &s.result else {
        return;
    };
    let mut standings = result.standings.clone();
    standings.sort_by_key(|x| (x.rank, x.seat));
    let headline = s.ending.headline(result, &names);
    let mut rank_lines = Vec::new();
    for st in &standings {
        let name: String = seat_name(&names, st.seat).chars().take(14).collect();
        // Nobody wins a game that did not reach its end.
        let mark = if st.rank == 0 && s.ending.abandoned().is_none() {
            "WINNER"
        } else {
            ""
        };
        let mut line = Line::from(vec![
            Span::raw(format!(" #{} ", st.rank + 1)),
            Span::styled(
                format!("{} {name:<14}", st.seat.number()),
                theme.seat(st.seat.index()),
            ),
            Span::raw(G::ranking_details(&s.view, st)),
            Span::styled(mark, theme.good()),
        ]);
        // A seat the table played for, or that stopped: its result is not
        // the person's play.
        if let Some(fate) = s.ending.fate(st.seat) {
            line.push_span(Span::styled(fate.short(), theme.dim()));
        }
        rank_lines.push(line);
    }
    let tie_breaks = s.result.as_ref().map_or_else(Vec::new, |result| {
        G::tie_breaks(&s.view, result, &s.names(), s.me)
    });
    for t in tie_breaks {
        for row in wrap(&t, usize::from(area.width.saturating_sub(3))) {
            rank_lines.push(Line::styled(format!(" {row}"), theme.dim()));
        }
    }
    let saved = match &s.transcript {
        Some(path) => format!("Transcript saved to {path}"),
        None => format!(
            "{}: no transcript (transcripts come with the network table)",
            s.title
        ),
    };
    let foot_lines: Vec<Line<'_>> = match &app.notice {
        Some(notice) => wrap_whole(notice, usize::from(area.width))
            .into_iter()
            .map(|row| Line::styled(row, theme.warn()))
            .collect(),
        None => wrap_whole(&saved, usize::from(area.width))
            .into_iter()
            .map(|row| Line::styled(row, theme.dim()))
            .collect(),
    };
    // The game-end scoring step by step, where the game has one: it takes
    // what the VP table (a row per seat) leaves.
    let scoring: Vec<Line<'static>> = G::end_scoring(&s.view, &s.log, &names, s.me)
        .iter()
        .flat_map(|step| wrap(step, usize::from(area.width.saturating_sub(3))))
        .map(|row| Line::from(format!(" {row}")))
        .collect();
    let fixed = 1 + rank_lines.len() as u16 + 2 + foot_lines.len() as u16;
    let table_h = s.seats.len() as u16 + 3;
    let scoring_h = if scoring.is_empty() {
        0
    } else {
        (scoring.len() as u16 + 2).min(area.height.saturating_sub(fixed + table_h).max(3))
    };
    let [head, ranking, scoring_area, chart_area, foot] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(rank_lines.len() as u16 + 2),
        Constraint::Length(scoring_h),
        Constraint::Min(4),
        Constraint::Length(foot_lines.len() as u16),
    ])
    .areas(area);
    if !scoring.is_empty() {
        let shown = usize::from(scoring_h.saturating_sub(2));
        let title = if shown < scoring.len() {
            format!(
                "Game-end scoring (first {shown} of {} rows; L: the whole log)",
                scoring.len()
            )
        } else {
            "Game-end scoring".to_owned()
        };
        Paragraph::new(scoring)
            .block(block(title, theme))
            .render(scoring_area, buf);
    }
    let headline_style = if s.ending.abandoned().is_some() {
        theme.warn()
    } else {
        theme.good()
    };
    Paragraph::new(Line::styled(headline, headline_style)).render(head, buf);
    Paragraph::new(rank_lines)
        .block(block(
            format!("Ranking ({})", G::ranking_order(&s.view)),
            theme,
        ))
        .render(ranking, buf);
    vp_history(s, chart_area, buf, theme);
    Paragraph::new(foot_lines).render(foot, buf);
}

/// Rows the chart needs around its plot: borders, legend and turn axis.
const CHART_FRAME: u16 = 4;

/// The fewest rows a chart of more VP than rows plots on.
const SCALED_CHART_ROWS: u16 = 20;

/// The victory points over the game: a table of VP per round, which always
/// reads, and above it, where there is a row for every victory point (so
/// lines meet only where seats really have the same VP), the chart.
pub(super) fn vp_history<G: Listed>(s: &Snapshot<G>, area: Rect, buf: &mut Buffer, theme: Theme) {
    let seats = s.seats.len().max(1) as u16;
    let table_h = seats + 3;
    let max_vp = s.vp_by_turn.iter().flatten().copied().max().unwrap_or(0);
    let chart_rows = u16::try_from(max_vp).unwrap_or(u16::MAX).saturating_add(1);
    // A game of many VP (Nereus's 60) gets a chart of fewer rows than VP
    // where a row for each does not fit: lines then meet on a row at
    // nearly the same VP, and the table under it has the exact numbers.
    let chart_h = chart_rows
        .min(SCALED_CHART_ROWS)
        .saturating_add(CHART_FRAME);
    if area.height >= table_h + chart_h {
        let [chart, table] =
            Layout::vertical([Constraint::Min(chart_h), Constraint::Length(table_h)]).areas(area);
        vp_chart(s, chart, buf, theme);
        vp_table(s, table, buf, theme);
    } else {
        vp_table(s, area, buf, theme);
    }
}

/// Per seat, its victory points after each turn where every turn fits,
/// else after each round (one turn of every seat), and at the end; rounds
/// are left out evenly when even they do not all fit, the end never.
fn vp_table<G: Listed>(s: &Snapshot<G>, area: Rect, buf: &mut Buffer, theme: Theme) {
    let data = &s.vp_by_turn;
    let names = s.names();
    let seats = s.seats.len().max(1);
    let name_w = 17usize;
    let col_w = 5usize;
    let fit = (usize::from(area.width.saturating_sub(2)).saturating_sub(name_w) / col_w).max(1);
    // Row `t` of the data is the game after turn `t`; the last is the end.
    let last = data.len().saturating_sub(1);
    let (unit, steps) = if last <= fit && G::CHART_UNIT == ChartUnit::Turn {
        ("turn", 1)
    } else {
        ("round", seats)
    };
    let columns = last.div_ceil(steps);
    let shown: Vec<usize> = if columns <= fit {
        (1..=columns).collect()
    } else {
        // Evenly spread, the last always in.
        (1..=fit).map(|k| (k * columns).div_ceil(fit)).collect()
    };
    let height = (s.seats.len() as u16 + 3).min(area.height);
    let area = Rect { height, ..area };
    let mut outer = block(
        format!("Victory points over the turns, after each {unit}"),
        theme,
    );
    // Columns left out are named, so that a missing round is not read as
    // one that was never played.
    let left_out: Vec<usize> = (1..columns).filter(|c| !shown.contains(c)).collect();
    if !left_out.is_empty() {
        let listed: Vec<String> = left_out.iter().map(ToString::to_string).collect();
        let room = usize::from(area.width).saturating_sub(4);
        let units = format!("{unit}s");
        let mut note = format!(
            "{} {} not shown: widen the terminal",
            if listed.len() == 1 { unit } else { &units },
            and_list(&listed)
        );
        if note.chars().count() > room {
            note = format!(
                "{} not shown: widen the terminal",
                plural(left_out.len(), unit, &units)
            );
        }
        outer = outer.title_bottom(Line::styled(format!(" {note} "), theme.dim()));
    }
    let inner = outer.inner(area);
    outer.render(area, buf);
    if last == 0 {
        Paragraph::new(Line::styled(" no turns played", theme.dim())).render(inner, buf);
        return;
    }
    let mut header = format!("{:<name_w$}", format!(" after {unit}"));
    for &c in &shown {
        let label = if c == columns {
            "end".to_owned()
        } else {
            c.to_string()
        };
        header.push_str(&format!("{label:>col_w$}"));
    }
    let mut lines = vec![Line::styled(header, theme.dim())];
    for seat in 0..s.seats.len() {
        let name: String = seat_name(&names, Seat(seat as u8))
            .chars()
            .take(14)
            .collect();
        let mut spans = vec![Span::styled(
            format!(" {} {name:<14}", seat + 1),
            theme.seat(seat),
        )];
        let mut values = String::new();
        for &c in &shown {
            let row = &data[(c * steps).min(last)];
            let vp = row.get(seat).copied().unwrap_or(0);
            values.push_str(&format!("{vp:>col_w$}"));
        }
        spans.push(Span::raw(values));
        lines.push(Line::from(spans));
    }
    Paragraph::new(lines).render(inner, buf);
}

/// Victory points over the turns, each seat drawn with its own number (so
/// the chart reads without colour); `*` where seats have the same VP.
pub(super) fn vp_chart<G: Listed>(s: &Snapshot<G>, area: Rect, buf: &mut Buffer, theme: Theme) {
    let names = s.names();
    let outer = block("Victory points over the turns", theme);
    let inner = outer.inner(area);
    outer.render(area, buf);
    if inner.height < 3 || inner.width < 12 {
        return;
    }
    let data = &s.vp_by_turn;
    let mut legend: Vec<Span<'static>> = (0..s.seats.len())
        .flat_map(|i| {
            let name = seat_name(&names, Seat(i as u8));
            [
                Span::styled(
                    format!("{} ", i + 1),
                    theme.seat(i).add_modifier(Modifier::BOLD),
                ),
                Span::raw(format!("{name}  ")),
            ]
        })
        .collect();
    legend.push(Span::styled(
        "* ",
        Style::new().add_modifier(Modifier::BOLD),
    ));
    let max_vp = data.iter().flatten().copied().max().unwrap_or(0).max(1);
    let rows = inner.height.saturating_sub(2);
    legend.push(Span::raw(if u32::from(rows) > max_vp {
        "several seats"
    } else {
        "several seats at (nearly) the same VP"
    }));
    let legend_area = Rect { height: 1, ..inner };
    Paragraph::new(Line::from(legend)).render(legend_area, buf);
    let label_w = 4u16;
    let plot = Rect {
        x: inner.x + label_w,
        y: inner.y + 1,
        width: inner.width - label_w,
        height: inner.height - 2,
    };
    let h = u32::from(plot.height.max(1));
    let row_of = |vp: u32| -> u16 { (h - 1 - vp.min(max_vp) * (h - 1) / max_vp) as u16 };
    // Axis labels: the top, the middle and the bottom of the scale.
    buf.set_string(inner.x, plot.y, format!("{max_vp:>3}"), theme.dim());
    let mid = max_vp / 2;
    if mid > 0 && mid < max_vp {
        buf.set_string(
            inner.x,
            plot.y + row_of(mid),
            format!("{mid:>3}"),
            theme.dim(),
        );
    }
    buf.set_string(
        inner.x,
        plot.y + plot.height - 1,
        format!("{:>3}", 0),
        theme.dim(),
    );
    let turns = data.len();
    if turns > 0 {
        let w = usize::from(plot.width);
        for x in 0..w {
            let t = if turns == 1 || w == 1 {
                0
            } else {
                (x * (turns - 1) + (w - 1) / 2) / (w - 1)
            };
            let row = &data[t.min(turns - 1)];
            let mut cells: Vec<(u16, usize)> = Vec::new();
            for (seat, &vp) in row.iter().enumerate() {
                cells.push((row_of(vp), seat));
            }
            for &(y, seat) in &cells {
                let shared = cells.iter().filter(|(yy, _)| *yy == y).count() > 1;
                let (symbol, style) = if shared {
                    ("*".to_owned(), Style::new().add_modifier(Modifier::BOLD))
                } else {
                    ((seat + 1).to_string(), theme.seat(seat))
                };
                buf.set_string(plot.x + x as u16, plot.y + y, symbol, style);
            }
        }
    }
    // The axis counts what the game counts: turns, or rounds of one turn
    // per seat.
    let played = turns.saturating_sub(1);
    let (unit, count) = match G::CHART_UNIT {
        ChartUnit::Turn => ("turn", played),
        ChartUnit::Round => ("round", played.div_ceil(s.seats.len().max(1))),
    };
    let axis = format!(
        "{unit} 1{:>width$}",
        format!("end ({})", plural(count, unit, &format!("{unit}s"))),
        width = usize::from(plot.width).saturating_sub(unit.len() + 2)
    );
    buf.set_string(plot.x, inner.y + inner.height - 1, axis, theme.dim());
}

// ----- overlays ---------------------------------------------------------
