//! Guildhall's table: the hand, every guildhall by chapter, the action
//! area, the centre row, the moves in words, and the shared log panel.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use roundtable_engine::Seat;
use roundtable_games::guildhall::{card_words, chapters};
use roundtable_games::words::seat_name;
use roundtable_guildhall::{
    AreaCard, Guildhall, HandCard, PROFESSIONS, Phase, Profession, VP_TABLE, View, VpAbility,
};

use crate::app::App;
use crate::games::steps;
use crate::session::Snapshot;
use crate::ui::side_log::board_and_log;

/// The colour letters of a chapter's cards ("r.g.p" for red, green and
/// purple held), in catalog colour order, so they read without colour.
fn colour_marks(held: u8) -> String {
    ['r', 'b', 'g', 'y', 'p']
        .iter()
        .enumerate()
        .map(|(i, c)| if held & (1 << i) != 0 { *c } else { '.' })
        .collect()
}

/// The level a chapter of `size` cards of `profession` gives: the highest
/// printed threshold it reaches.
pub fn chapter_level(profession: Profession, size: u32) -> u8 {
    profession
        .thresholds()
        .iter()
        .copied()
        .filter(|&t| u32::from(t) <= size)
        .max()
        .unwrap_or(0)
}

/// A profession's name with a capital.
pub(crate) fn title(profession: Profession) -> String {
    let name = profession.name();
    let mut chars = name.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A VP card's ability in words.
fn vp_ability(ability: VpAbility) -> String {
    match ability {
        VpAbility::None => "no ability".into(),
        VpAbility::MoveChapter => "move a chapter".into(),
        VpAbility::SwapOneForTwo => "swap one card for two".into(),
        VpAbility::PlaceAny => "place any number of cards".into(),
        VpAbility::DrawFive => "draw five".into(),
        VpAbility::ExtraActions(1) => "1 more action".into(),
        VpAbility::ExtraActions(n) => format!("{n} more actions"),
        VpAbility::TakeCard => "take a card".into(),
    }
}

/// What the game waits for, in words.
fn phase_words(v: &View, names: &[String], me: Option<Seat>) -> String {
    let who = |s: Seat| {
        if me == Some(s) {
            "You".to_owned()
        } else {
            seat_name(names, s)
        }
    };
    match v.phase {
        Phase::SetupDiscard(s) => format!("Set-up: {} discard and draw back to 9", who(s)),
        Phase::SetupPlace(s, left) => format!("Set-up: {} place {left} more", who(s)),
        Phase::Turn => format!(
            "Round {}: {} turn, {} action{} left",
            v.round,
            if me == Some(v.turn) {
                "your".to_owned()
            } else {
                format!("{}'s", seat_name(names, v.turn))
            },
            v.actions_left,
            if v.actions_left == 1 { "" } else { "s" }
        ),
        Phase::Over => "The game is over".into(),
    }
}

/// The board's lines: piles, your hand, each guildhall, the action area and
/// the centre row.
fn board_lines(s: &Snapshot<Guildhall>, app: &App) -> Vec<Line<'static>> {
    let theme = app.theme;
    let v = &s.view;
    let names = s.names();
    let mut lines = vec![Line::styled(phase_words(v, &names, s.me), theme.title())];
    let top = v
        .discard
        .last()
        .map_or_else(|| "empty".to_owned(), |&c| card_words(c));
    lines.push(Line::from(format!(
        "Deck {} | discard {} (top: {top}) | VP deck {}",
        v.deck_left,
        v.discard.len(),
        v.vp_deck_left
    )));
    if s.me.is_some() {
        let hand: Vec<String> = v
            .my_hand
            .iter()
            .map(|(_, card)| card.map_or_else(|| "?".to_owned(), card_words))
            .collect();
        lines.push(Line::styled(
            format!("Your hand ({})", hand.len()),
            theme.title(),
        ));
        lines.push(Line::from(format!("  {}", hand.join(", "))));
    }
    for seat in 0..usize::from(v.seats) {
        let at = Seat(seat as u8);
        let you = if s.me == Some(at) { " (you)" } else { "" };
        let hand = v.hands.get(seat).map_or(0, Vec::len);
        let open = v.hands.get(seat).map_or(0, |h| {
            h.iter().filter(|c| matches!(c, HandCard::Open(_))).count()
        });
        let done: Vec<String> = v
            .completed
            .get(seat)
            .map(|c| c.iter().map(|p| title(*p)).collect())
            .unwrap_or_default();
        let mut head = vec![Span::styled(
            format!("{} {}{you}", at.number(), seat_name(&names, at)),
            theme.seat(seat),
        )];
        head.push(Span::raw(format!(
            "  {} VP | hand {hand}{} | completed {}",
            v.vp.get(seat).copied().unwrap_or(0),
            if open > 0 {
                format!(" ({open} known)")
            } else {
                String::new()
            },
            if done.is_empty() {
                "none".to_owned()
            } else {
                done.join(", ")
            }
        )));
        lines.push(Line::from(head));
        // A replay whose every key was released shows every seat's hand.
        if let Some(shown) =
            crate::ui::replay_status(app).and_then(|r| r.hands.iter().find(|h| h.seat == at))
        {
            lines.push(Line::from(format!("  hand: {}", shown.cards.join(", "))));
        }
        let chapters: Vec<String> = PROFESSIONS
            .iter()
            .filter_map(|&p| {
                let held = v.halls.get(seat)?.get(p.index()).copied()?;
                let size = held.count_ones();
                (size > 0).then(|| {
                    format!(
                        "{} {} L{}",
                        title(p),
                        colour_marks(held),
                        chapter_level(p, size)
                    )
                })
            })
            .collect();
        lines.push(Line::from(format!(
            "  guildhall: {}",
            if chapters.is_empty() {
                "empty".to_owned()
            } else {
                chapters.join(" | ")
            }
        )));
    }
    if !v.area.is_empty() {
        let area: Vec<String> = v
            .area
            .iter()
            .map(|c| match *c {
                AreaCard::Profession(card) => card_words(card),
                AreaCard::Vp(kind) => VP_TABLE
                    .get(usize::from(kind))
                    .map_or_else(|| format!("VP card #{kind}"), |k| k.name.to_owned()),
            })
            .collect();
        lines.push(Line::from(format!("Action area: {}", area.join(", "))));
    }
    lines.push(Line::styled("Centre row", theme.title()));
    for &kind in &v.row {
        if let Some(spec) = VP_TABLE.get(usize::from(kind)) {
            lines.push(Line::from(format!(
                "  {}: {} VP for {}, {}",
                spec.name,
                spec.vp,
                chapters(u64::from(spec.chapters)),
                vp_ability(spec.ability)
            )));
        }
    }
    lines
}

/// The moves panel's lines at `width` columns: the step's question and
/// what is chosen so far (kept in sight), then the choices, numbered, and
/// what is still to pick. Also where the selected choice's lines are.
struct MovesPanel {
    /// The question and the choices so far.
    header: Vec<Line<'static>>,
    /// The choices, each wrapped, and the footer.
    list: Vec<Line<'static>>,
    /// The rows of `list` the selected choice spans.
    selected: std::ops::Range<usize>,
}

fn moves_panel(app: &App, s: &Snapshot<Guildhall>, width: usize) -> MovesPanel {
    let theme = app.theme;
    if s.legal.is_empty() {
        let status = s
            .status
            .clone()
            .unwrap_or_else(|| "Waiting for the other players".into());
        return MovesPanel {
            header: Vec::new(),
            list: vec![Line::styled(status, theme.dim())],
            selected: 0..0,
        };
    }
    let step = steps::step(s, &app.choice);
    let mut header: Vec<Line<'static>> = Vec::new();
    if let Some(question) = &step.question {
        header.extend(
            crate::ui::widgets::wrap(question, width)
                .into_iter()
                .map(|l| Line::styled(l, theme.title())),
        );
    }
    if !app.choice.is_empty() {
        header.extend(
            crate::ui::widgets::wrap(
                &format!("Chosen: {} (Esc: back a step)", app.choice.join(" > ")),
                width,
            )
            .into_iter()
            .map(|l| Line::styled(l, theme.dim())),
        );
    }
    let mut list = Vec::new();
    let mut selected = 0..0;
    for (i, option) in step.options.iter().enumerate() {
        let chosen = i == app.action_selected;
        let mark = if chosen { ">" } else { " " };
        let from = list.len();
        // The number stands out; a long choice goes on under its words.
        let rows = crate::ui::widgets::wrap(&option.answer, width.saturating_sub(5));
        for (k, row) in rows.into_iter().enumerate() {
            let row = if k == 0 {
                format!("{mark} {:>2} {row}", i + 1)
            } else {
                format!("     {row}")
            };
            list.push(if chosen {
                Line::styled(row, theme.selected())
            } else {
                Line::from(row)
            });
        }
        // What is still to pick after the selected choice, under it.
        if let Some(still) = step
            .still
            .get(i)
            .filter(|still| chosen && !still.is_empty())
        {
            let then = format!("then pick {}", still.join(", then "));
            for row in crate::ui::widgets::wrap(&then, width.saturating_sub(5)) {
                list.push(Line::styled(format!("     {row}"), theme.dim()));
            }
        }
        if chosen {
            selected = from..list.len();
        }
    }
    MovesPanel {
        header,
        list,
        selected,
    }
}

/// Draw Guildhall's table.
pub fn table(app: &App, s: &Snapshot<Guildhall>, area: Rect, buf: &mut Buffer) {
    let (board, log) = board_and_log(area);
    // A replay shows where it stands where the moves would be.
    if let Some(r) = crate::ui::replay_status(app) {
        let width = usize::from(board.width.saturating_sub(2));
        let rows = crate::ui::replay_lines(s, r, width, app.theme).len() as u16
            + u16::from(app.notice.is_some());
        let lower_h = (rows + 2).min(board.height / 2);
        let [top, bottom] =
            Layout::vertical([Constraint::Min(4), Constraint::Length(lower_h)]).areas(board);
        Paragraph::new(board_lines(s, app))
            .wrap(Wrap { trim: false })
            .block(crate::ui::widgets::block("Guildhall".to_owned(), app.theme))
            .render(top, buf);
        crate::ui::replay_panel(app, s, r, bottom, buf, false);
        crate::ui::log::log_panel(app, s, log, buf, false);
        return;
    }
    let width = usize::from(board.width.saturating_sub(2));
    let panel = moves_panel(app, s, width);
    let mut list = panel.list;
    if let Some(notice) = &app.notice {
        for row in crate::ui::widgets::wrap(notice, width) {
            list.push(Line::styled(row, app.theme.warn()));
        }
    }
    let wanted = (panel.header.len() + list.len()) as u16 + 2;
    // Half the board, or more when the question and the selected choice
    // need it (a level's words, wrapped in a narrow terminal).
    let needed = (panel.header.len() + panel.selected.len()) as u16 + 2;
    let lower_h = wanted
        .min((board.height / 2).max(needed))
        .min(board.height.saturating_sub(4))
        .max(3);
    let [top, bottom] =
        Layout::vertical([Constraint::Min(4), Constraint::Length(lower_h)]).areas(board);
    Paragraph::new(board_lines(s, app))
        .wrap(Wrap { trim: false })
        .block(crate::ui::widgets::block("Guildhall".to_owned(), app.theme))
        .render(top, buf);
    let outer = crate::ui::widgets::block("Moves".to_owned(), app.theme);
    let inner = outer.inner(bottom);
    outer.render(bottom, buf);
    // The question stays in sight (its last rows at least, when the panel
    // is very short); the choices scroll under it to keep the selected one.
    let header_h = (panel.header.len() as u16).min(inner.height.saturating_sub(1));
    let header_skip = panel.header.len().saturating_sub(usize::from(header_h));
    let [head, rest] =
        Layout::vertical([Constraint::Length(header_h), Constraint::Min(0)]).areas(inner);
    Paragraph::new(
        panel
            .header
            .into_iter()
            .skip(header_skip)
            .collect::<Vec<_>>(),
    )
    .render(head, buf);
    let rows = usize::from(rest.height);
    let skip = panel.selected.end.saturating_sub(rows);
    let skip = skip.min(panel.selected.start);
    Paragraph::new(list.into_iter().skip(skip).collect::<Vec<_>>()).render(rest, buf);
    crate::ui::log::log_panel(app, s, log, buf, false);
}
