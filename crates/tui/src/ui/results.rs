//! The post-game screen: ranking, tie breaks and the VP chart.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};
use roundtable_engine::Seat;

use super::{block, wrap};
use crate::app::App;
use crate::session::Snapshot;
use crate::text::seat_name;
use crate::theme::Theme;

/// Why seats with equal victory points rank as they do, in words.
pub fn tie_breaks(s: &Snapshot) -> Vec<String> {
    let Some(result) = &s.result else {
        return Vec::new();
    };
    let names = s.names();
    let mut standings = result.standings.clone();
    standings.sort_by_key(|x| (x.rank, x.seat));
    let mut out = Vec::new();
    let mut scores: Vec<i64> = standings.iter().map(|x| x.score).collect();
    scores.dedup();
    for score in scores {
        let group: Vec<_> = standings.iter().filter(|x| x.score == score).collect();
        if group.len() < 2 {
            continue;
        }
        let who: Vec<String> = group.iter().map(|x| seat_name(&names, x.seat)).collect();
        let coins: Vec<String> = group
            .iter()
            .map(|x| format!("{} {}$", seat_name(&names, x.seat), x.tie_break))
            .collect();
        if group.iter().all(|x| x.rank == group[0].rank) {
            out.push(format!(
                "{} tie on {score} VP and {} coins: they share the place.",
                who.join(" and "),
                group[0].tie_break
            ));
        } else if group.iter().all(|x| x.tie_break == group[0].tie_break) {
            out.push(format!(
                "{} tie on {score} VP and coins: an expedition ranks first.",
                who.join(" and ")
            ));
        } else {
            out.push(format!(
                "{} tie on {score} VP; coins decide: {}.",
                who.join(" and "),
                coins.join(", ")
            ));
        }
    }
    out
}

pub(super) fn post_game(app: &App, s: &Snapshot, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let names = s.names();
    let Some(result) = &s.result else {
        return;
    };
    let mut standings = result.standings.clone();
    standings.sort_by_key(|x| (x.rank, x.seat));
    let winners: Vec<String> = result
        .winners()
        .into_iter()
        .map(|w| seat_name(&names, w))
        .collect();
    let headline = match winners.as_slice() {
        [one] => format!("Game over: {one} wins"),
        many => format!("Game over: {} share the win", many.join(" and ")),
    };
    let mut rank_lines = Vec::new();
    for st in &standings {
        let p = s.view.players.get(st.seat.index());
        let exp = p.map_or(0, |p| p.expeditions.len());
        let persons = p.map_or(0, |p| p.persons.len());
        let name: String = seat_name(&names, st.seat).chars().take(14).collect();
        let mark = if st.rank == 0 { "WINNER" } else { "" };
        rank_lines.push(Line::from(vec![
            Span::raw(format!(" #{} ", st.rank + 1)),
            Span::styled(
                format!("{} {name:<14}", st.seat.number()),
                theme.seat(st.seat.index()),
            ),
            Span::raw(format!(
                " {:>3} VP {:>3}$ {persons:>2} persons {exp} exp ",
                st.score, st.tie_break
            )),
            Span::styled(mark, theme.good()),
        ]));
    }
    for t in tie_breaks(s) {
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
    let [head, ranking, chart_area, foot] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(rank_lines.len() as u16 + 2),
        Constraint::Min(4),
        Constraint::Length(1),
    ])
    .areas(area);
    Paragraph::new(Line::styled(headline, theme.good())).render(head, buf);
    Paragraph::new(rank_lines)
        .block(block(
            format!("Ranking ({})", crate::text::ranking_order(&s.view)),
            theme,
        ))
        .render(ranking, buf);
    vp_chart(s, chart_area, buf, theme);
    let foot_line = match &app.notice {
        Some(notice) => Line::styled(notice.clone(), theme.warn()),
        None => Line::styled(saved, theme.dim()),
    };
    Paragraph::new(foot_line).render(foot, buf);
}

/// Victory points over the turns, each seat drawn with its own number (so
/// the chart reads without colour); `*` where seats overlap.
pub(super) fn vp_chart(s: &Snapshot, area: Rect, buf: &mut Buffer, theme: Theme) {
    let names = s.names();
    let outer = block("Victory points over the turns", theme);
    let inner = outer.inner(area);
    outer.render(area, buf);
    if inner.height < 3 || inner.width < 12 {
        return;
    }
    let data = &s.vp_by_turn;
    let legend: Vec<Span<'static>> = (0..s.seats.len())
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
    // Axis labels: the top and the bottom of the scale.
    buf.set_string(inner.x, plot.y, format!("{max_vp:>3}"), theme.dim());
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
                    ("*".to_owned(), Style::new())
                } else {
                    ((seat + 1).to_string(), theme.seat(seat))
                };
                buf.set_string(plot.x + x as u16, plot.y + y, symbol, style);
            }
        }
    }
    let axis = format!(
        "turn 1{:>width$}",
        format!("end ({} turns)", turns.saturating_sub(1)),
        width = usize::from(plot.width).saturating_sub(6)
    );
    buf.set_string(plot.x, inner.y + inner.height - 1, axis, theme.dim());
}

// ----- overlays ---------------------------------------------------------
