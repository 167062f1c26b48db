//! The post-game screen: ranking, tie breaks and the VP chart.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};
use roundtable_engine::{Seat, Standing};
use roundtable_port_royal::View;

use super::{block, chunks, wrap};
use crate::app::App;
use crate::games::{ChartUnit, Listed};
use crate::session::Snapshot;
use crate::text::seat_name;
use crate::theme::Theme;

/// "1st", "2nd", "3rd", "4th" for a 0-based rank.
fn place(rank: u8) -> String {
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
fn joined(names: &[String], seats: &[Seat], me: Option<Seat>) -> String {
    let mut seats = seats.to_vec();
    seats.sort_by_key(|seat| (Some(*seat) != me, seat.0));
    let who: Vec<String> = seats
        .iter()
        .map(|seat| {
            if Some(*seat) == me {
                "You".to_owned()
            } else {
                seat_name(names, *seat)
            }
        })
        .collect();
    match who.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// A Port Royal seat's line in the ranking after its name: VP, coins,
/// persons and expeditions.
pub fn port_royal_ranking(view: &View, st: &Standing) -> String {
    let p = view.players.get(st.seat.index());
    let exp = p.map_or(0, |p| p.expeditions.len());
    let persons = p.map_or(0, |p| p.persons.len());
    format!(
        " {:>3} VP {:>3}$ {persons:>2} {:<7} {exp} exp ",
        st.score,
        st.tie_break,
        if persons == 1 { "person" } else { "persons" }
    )
}

/// Whether `seat` holds an expedition at the end.
fn has_expedition(s: &Snapshot, seat: Seat) -> bool {
    s.view
        .players
        .get(seat.index())
        .is_some_and(|p| !p.expeditions.is_empty())
}

/// Why seats with equal victory points rank as they do, and, with
/// "expedition required", why seats without an expedition rank after every
/// seat with one, in words.
pub fn tie_breaks(s: &Snapshot) -> Vec<String> {
    let Some(result) = &s.result else {
        return Vec::new();
    };
    let names = s.names();
    let me = s.me;
    let expedition_first = s.view.expedition_required;
    let mut standings = result.standings.clone();
    standings.sort_by_key(|x| (x.rank, x.seat));
    let mut out = Vec::new();
    if expedition_first {
        let without: Vec<Seat> = standings
            .iter()
            .map(|x| x.seat)
            .filter(|seat| !has_expedition(s, *seat))
            .collect();
        if !without.is_empty() && without.len() < standings.len() {
            let verb = if without.len() == 1 && Some(without[0]) != me {
                "has"
            } else {
                "have"
            };
            out.push(format!(
                "Expedition required: {} {verb} no expedition, so ranked after every seat that has one.",
                joined(&names, &without, me)
            ));
        }
    }
    let mut scores: Vec<i64> = standings.iter().map(|x| x.score).collect();
    scores.sort_unstable_by(|a, b| b.cmp(a));
    scores.dedup();
    for score in scores {
        let group: Vec<_> = standings.iter().filter(|x| x.score == score).collect();
        if group.len() < 2 {
            continue;
        }
        let seats: Vec<Seat> = group.iter().map(|x| x.seat).collect();
        let who = joined(&names, &seats, me);
        let includes_me = me.is_some_and(|m| seats.contains(&m));
        let expeditions_differ = expedition_first
            && group.iter().any(|x| has_expedition(s, x.seat))
            && group.iter().any(|x| !has_expedition(s, x.seat));
        if group.iter().all(|x| x.rank == group[0].rank) {
            let share = if group[0].rank == 0 {
                "the win".to_owned()
            } else {
                format!("{} place", place(group[0].rank))
            };
            out.push(format!(
                "{who} tie on {score} VP and {} coins: {} share {share}.",
                group[0].tie_break,
                if includes_me { "you" } else { "they" }
            ));
        } else if expeditions_differ {
            out.push(format!(
                "{who} tie on {score} VP: an expedition ranks first."
            ));
        } else {
            let coins: Vec<String> = group
                .iter()
                .map(|x| {
                    let name = if Some(x.seat) == me {
                        "You".to_owned()
                    } else {
                        seat_name(&names, x.seat)
                    };
                    format!("{name} {}$", x.tie_break)
                })
                .collect();
            out.push(format!(
                "{who} tie on {score} VP; coins decide: {}.",
                coins.join(", ")
            ));
        }
    }
    out
}

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
    let headline = crate::text::game_over_headline(result, &names);
    let mut rank_lines = Vec::new();
    for st in &standings {
        let name: String = seat_name(&names, st.seat).chars().take(14).collect();
        let mark = if st.rank == 0 { "WINNER" } else { "" };
        let mut line = Line::from(vec![
            Span::raw(format!(" #{} ", st.rank + 1)),
            Span::styled(
                format!("{} {name:<14}", st.seat.number()),
                theme.seat(st.seat.index()),
            ),
            Span::raw(G::ranking_details(&s.view, st)),
            Span::styled(mark, theme.good()),
        ]);
        // A seat the table played for: its result is not the person's play.
        if s.seats.get(st.seat.index()).is_some_and(|x| x.forfeited) {
            line.push_span(Span::styled("played automatically", theme.dim()));
        }
        rank_lines.push(line);
    }
    for t in G::tie_breaks(s) {
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
    let [head, ranking, chart_area, foot] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(rank_lines.len() as u16 + 2),
        Constraint::Min(4),
        Constraint::Length(foot_lines.len() as u16),
    ])
    .areas(area);
    Paragraph::new(Line::styled(headline, theme.good())).render(head, buf);
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

/// The victory points over the game: a table of VP per round, which always
/// reads, and above it, where there is a row for every victory point (so
/// lines meet only where seats really have the same VP), the chart.
pub(super) fn vp_history<G: Listed>(s: &Snapshot<G>, area: Rect, buf: &mut Buffer, theme: Theme) {
    let seats = s.seats.len().max(1) as u16;
    let table_h = seats + 3;
    let max_vp = s.vp_by_turn.iter().flatten().copied().max().unwrap_or(0);
    let chart_rows = u16::try_from(max_vp).unwrap_or(u16::MAX).saturating_add(1);
    let chart_h = chart_rows.saturating_add(CHART_FRAME);
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
    let outer = block(
        format!("Victory points over the turns, after each {unit}"),
        theme,
    );
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
    legend.push(Span::raw("several seats"));
    let legend_area = Rect { height: 1, ..inner };
    Paragraph::new(Line::from(legend)).render(legend_area, buf);
    let label_w = 4u16;
    let plot = Rect {
        x: inner.x + label_w,
        y: inner.y + 1,
        width: inner.width - label_w,
        height: inner.height - 2,
    };
    let max_vp = data.iter().flatten().copied().max().unwrap_or(0).max(1);
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
        format!("end ({count} {unit}s)"),
        width = usize::from(plot.width).saturating_sub(unit.len() + 2)
    );
    buf.set_string(plot.x, inner.y + inner.height - 1, axis, theme.dim());
}

// ----- overlays ---------------------------------------------------------
