//! Guildhall's table: the hand, every guildhall by chapter, the action
//! area, the centre row, the moves in words, and the shared log panel.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};
use roundtable_engine::Seat;
use roundtable_games::guildhall::card_words;
use roundtable_games::words::seat_name;
use roundtable_guildhall::{
    AreaCard, Guildhall, HandCard, PROFESSIONS, Phase, Profession, SETUP_HAND, VP_TABLE, View,
    VpAbility,
};

use crate::app::App;
use crate::games::steps;
use crate::session::Snapshot;
use crate::ui::side_log::{SIDE_LOG_WIDTH, board_and_log};
use crate::ui::widgets::{wrap_items, wrap_list};

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

/// Whether the game is still before its first deal: the deck not yet
/// shuffled (the whole catalog lies where the discard pile will be) and no
/// hand dealt, as a replay shows it at input 0.
fn before_the_deal(v: &View) -> bool {
    matches!(v.phase, Phase::SetupDiscard(_))
        && v.deciding.is_none()
        && v.hands.iter().all(Vec::is_empty)
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
    if before_the_deal(v) {
        return format!(
            "Set-up: the {} profession cards are shuffled, then {SETUP_HAND} dealt to each player",
            v.discard.len() as u32 + v.deck_left
        );
    }
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

/// The status rows: where the game stands, then the piles.
fn status_text(v: &View, names: &[String], me: Option<Seat>) -> String {
    let phase = phase_words(v, names, me);
    if before_the_deal(v) {
        return format!("{phase} | VP deck {}", v.vp_deck_left);
    }
    let top = v
        .discard
        .last()
        .map_or_else(|| "empty".to_owned(), |&c| card_words(c));
    format!(
        "{phase} | deck {} | discard {} (top: {top}) | VP deck {}",
        v.deck_left,
        v.discard.len(),
        v.vp_deck_left
    )
}

/// A seat's chapters in the notation the legend explains: "Farmer r...p L1
/// | Trader rbg.. L2", or "empty".
fn chapters_text(v: &View, seat: usize) -> String {
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
    if chapters.is_empty() {
        "empty".to_owned()
    } else {
        chapters.join(" | ")
    }
}

/// A seat's heading: number, name, VP, hand, completed chapters and, at a
/// live table, who plays it and its clock ("offline 0:42").
fn seat_heading(
    s: &Snapshot<Guildhall>,
    seat: usize,
    live: bool,
    theme: crate::theme::Theme,
) -> Vec<Span<'static>> {
    let v = &s.view;
    let names = s.names();
    let at = Seat(seat as u8);
    let you = if s.me == Some(at) { " (you)" } else { "" };
    let hand = v.hands.get(seat).map_or(0, Vec::len);
    let open = v.hands.get(seat).map_or(0, |h| {
        h.iter().filter(|c| matches!(c, HandCard::Open(_))).count()
    });
    let count = v.completed_count.get(seat).copied().unwrap_or(0);
    let done: Vec<String> = v
        .completed
        .get(seat)
        .map(|c| c.iter().map(|p| title(*p)).collect())
        .unwrap_or_default();
    let completed = match (count, done.is_empty()) {
        (0, _) => "completed none".to_owned(),
        (n, true) => format!("completed {n}"),
        (_, false) => format!("completed {}", done.join(", ")),
    };
    // Your own seat says so in its name; its clock, when it runs, shows.
    let presence = s
        .seats
        .get(seat)
        .filter(|info| live && (s.me != Some(at) || info.clock.is_some()))
        .map(|info| format!(" | {}", crate::ui::seat_presence(info)))
        .unwrap_or_default();
    vec![
        Span::styled(
            format!("{} {}{you}", at.number(), seat_name(&names, at)),
            theme.seat(seat),
        ),
        Span::raw(format!(
            "  {} VP | hand {hand}{} | {completed}{presence}",
            v.vp.get(seat).copied().unwrap_or(0),
            if open > 0 {
                format!(" ({open} known)")
            } else {
                String::new()
            },
        )),
    ]
}

/// What the other seats did to you since your last turn ended, in the log's
/// words: the lines of their moves that name your cards.
fn done_to_you(s: &Snapshot<Guildhall>) -> Vec<String> {
    if s.me.is_none() {
        return Vec::new();
    }
    let since = s
        .log
        .iter()
        .rposition(|l| l.text.starts_with("-- End of your turn"))
        .map_or(0, |at| at + 1);
    s.log[since..]
        .iter()
        .filter(|l| !l.text.starts_with("You ") && !l.text.starts_with("--"))
        .filter(|l| l.text.contains(" your "))
        .map(|l| l.text.clone())
        .collect()
}

/// The notation of the board, in words.
pub const LEGEND: &str = "Legend: r b g y p = the colours a chapter holds (. = missing) | \
     L2 = the level its next card of that profession may use | \
     hand 4 (1 known) = cards in hand, 1 of them seen by everyone | \
     4-c: 4 VP for 1 ch. = a VP card, its VP and the completed chapters it costs | \
     completed chapters lie face down: others see only how many";

/// The legend's lines for the help screen, at most `width` columns each.
pub fn legend(width: usize) -> Vec<String> {
    wrap_items(LEGEND.trim_start_matches("Legend: "), " | ", width)
}

/// Rows wrapped to `width` between items as one style (a row ends with
/// its item, not with the " | " after it).
fn rows(text: &str, separator: &str, width: usize, style: Style) -> Vec<Line<'static>> {
    wrap_items(text, separator, width)
        .into_iter()
        .map(|row| Line::styled(row.trim_end_matches(" |").to_owned(), style))
        .collect()
}

/// The board's rows at `width` columns, what every decision needs first:
/// where the game stands, your guildhall and hand, the centre row, the
/// action area and what was done to you since your turn; then the other
/// seats and the legend. A short terminal cuts the board from its end, so
/// your guildhall and the centre row always show.
fn board_lines(s: &Snapshot<Guildhall>, app: &App, width: usize) -> Board {
    let theme = app.theme;
    let v = &s.view;
    let names = s.names();
    let replay = crate::ui::replay_status(app);
    let live = replay.is_none() && s.live();
    let inner = width.saturating_sub(2);
    let mut lines = rows(&status_text(v, &names, s.me), " | ", width, theme.title());
    let seat_lines = |seat: usize, lines: &mut Vec<Line<'static>>| {
        let at = Seat(seat as u8);
        let head = seat_heading(s, seat, live, theme);
        let text: String = head.iter().map(|span| span.content.as_ref()).collect();
        if text.chars().count() <= width {
            lines.push(Line::from(head));
        } else {
            lines.extend(rows(&text, " | ", width, Style::default()));
        }
        // A replay whose every key was released shows every seat's hand.
        if let Some(shown) = replay
            .and_then(|r| r.hands.iter().find(|h| h.seat == at))
            .filter(|shown| !shown.cards.is_empty())
        {
            lines.extend(rows(
                &format!("  hand: {}", shown.cards.join(", ")),
                ", ",
                width,
                Style::default(),
            ));
        }
        for row in wrap_items(&chapters_text(v, seat), " | ", inner) {
            lines.push(Line::from(format!("  {}", row.trim_end_matches(" |"))));
        }
    };
    if let Some(me) = s.me {
        seat_lines(me.index(), &mut lines);
        let hand: Vec<String> = v
            .my_hand
            .iter()
            .map(|(_, card)| card.map_or_else(|| "?".to_owned(), card_words))
            .collect();
        let count = hand.len();
        let hand = if hand.is_empty() {
            "none".to_owned()
        } else {
            hand.join(", ")
        };
        for row in wrap_list(&format!("your hand ({count}): {hand}"), inner) {
            lines.push(Line::from(format!("  {row}")));
        }
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
        lines.extend(rows(
            &format!("Action area: {}", area.join(", ")),
            ", ",
            width,
            Style::default(),
        ));
    }
    let row: Vec<String> = v
        .row
        .iter()
        .filter_map(|&kind| VP_TABLE.get(usize::from(kind)))
        .map(|spec| {
            let ability = match spec.ability {
                VpAbility::None => String::new(),
                other => format!(", {}", vp_ability(other)),
            };
            format!(
                "{}: {} VP for {} ch.{ability}",
                spec.name, spec.vp, spec.chapters
            )
        })
        .collect();
    let row = if row.is_empty() {
        "not dealt yet".to_owned()
    } else {
        row.join(" | ")
    };
    lines.extend(rows(
        &format!("Centre row: {row}"),
        " | ",
        width,
        theme.title(),
    ));
    let done = done_to_you(s);
    if !done.is_empty() {
        lines.extend(rows(
            &format!("Since your turn: {}", done.join(" ")),
            " ",
            width,
            theme.warn(),
        ));
    }
    let essential = lines.len();
    for seat in (0..usize::from(v.seats)).filter(|&seat| s.me != Some(Seat(seat as u8))) {
        seat_lines(seat, &mut lines);
    }
    lines.extend(rows(LEGEND, " | ", width, theme.dim()));
    Board { lines, essential }
}

/// The board's rows, and how many of the first must show whatever the
/// terminal's height (your guildhall and hand, the centre row, what was
/// done to you).
struct Board {
    lines: Vec<Line<'static>>,
    essential: usize,
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
    // A clock running low warns above everything, as at every table.
    let clock = crate::ui::clock_lines(s, width, theme);
    if s.legal.is_empty() {
        let mut list = clock;
        list.extend(if s.status.is_some() {
            crate::ui::waiting_lines(s, width, theme)
        } else {
            vec![Line::styled("Waiting for the other players", theme.dim())]
        });
        return MovesPanel {
            header: Vec::new(),
            list,
            selected: 0..0,
        };
    }
    let step = steps::step(s, &app.choice);
    let mut header: Vec<Line<'static>> = clock;
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

/// Rows of the board and the panel under it in a column `height` rows
/// high, in order of need: the board's essential rows and what the panel
/// needs (its question and selected choice); then the panel up to what it
/// wants or half the column; then the rest of the board; then the rest of
/// the panel.
fn split(height: u16, essential: u16, full: u16, needed: u16, wanted: u16) -> (u16, u16) {
    let (essential, full) = (essential + 2, full + 2);
    let needed = needed.max(3).min(wanted.max(3));
    if essential + needed >= height {
        let lower = needed.min(height.saturating_sub(4));
        return (height - lower, lower);
    }
    let mut lower = needed;
    let mut left = height - essential - lower;
    let grow = wanted.min(height / 2).saturating_sub(lower).min(left);
    lower += grow;
    left -= grow;
    // The rest of the board comes next; what it leaves goes to the panel.
    left -= full.saturating_sub(essential).min(left);
    lower += wanted.saturating_sub(lower).min(left);
    (height - lower, lower)
}

/// Where the board, the panel under it and the log go: the log beside a
/// wide board; under a narrow one only when the board and what the panel
/// needs still fit (a short terminal gives its rows to your guildhall and
/// the centre row, and the log is one key away).
fn areas(area: Rect, board: &Board, needed: u16, wanted: u16) -> (Rect, Rect, Option<Rect>) {
    let board_rows = board.lines.len() as u16;
    let (column, log) = if area.width >= SIDE_LOG_WIDTH {
        let (board, log) = board_and_log(area);
        (board, Some(log))
    } else {
        let log_h = area.height / 4;
        if area.height.saturating_sub(log_h)
            >= board_rows + 2 + wanted.min(area.height / 2).max(needed)
        {
            let [column, log] =
                Layout::vertical([Constraint::Min(0), Constraint::Length(log_h)]).areas(area);
            (column, Some(log))
        } else {
            (area, None)
        }
    };
    let (board_h, lower_h) = split(
        column.height,
        board.essential as u16,
        board_rows,
        needed,
        wanted,
    );
    let [top, bottom] =
        Layout::vertical([Constraint::Length(board_h), Constraint::Length(lower_h)]).areas(column);
    (top, bottom, log)
}

/// How far back the log of the table scrolls in a terminal of `width` x
/// `height` (none when a short one leaves it out).
pub fn side_log_max_scroll(app: &App, s: &Snapshot<Guildhall>, width: u16, height: u16) -> usize {
    let body = crate::ui::widgets::body_area(Rect::new(0, 0, width, height));
    match layout(app, s, body).2 {
        Some(log) => crate::ui::log::log_max_scroll(
            s,
            log.width.saturating_sub(2),
            log.height.saturating_sub(2),
        ),
        None => 0,
    }
}

/// The board's rows and the table's areas in `area`.
fn layout(
    app: &App,
    s: &Snapshot<Guildhall>,
    area: Rect,
) -> (Vec<Line<'static>>, (Rect, Rect), Option<Rect>) {
    let column_width = if area.width >= SIDE_LOG_WIDTH {
        board_and_log(area).0.width
    } else {
        area.width
    };
    let width = usize::from(column_width.saturating_sub(2));
    let board = board_lines(s, app, width);
    let (needed, wanted) = match crate::ui::replay_status(app) {
        Some(r) => {
            let rows = crate::ui::replay_lines(s, r, width, app.theme).len() as u16
                + u16::from(app.notice.is_some())
                + 2;
            (rows.min(area.height / 2), rows.min(area.height / 2))
        }
        None => {
            let panel = moves_panel(app, s, width);
            let notice = app
                .notice
                .as_ref()
                .map_or(0, |n| crate::ui::widgets::wrap(n, width).len());
            (
                (panel.header.len() + panel.selected.len()) as u16 + 2,
                (panel.header.len() + panel.list.len() + notice) as u16 + 2,
            )
        }
    };
    let (top, bottom, log) = areas(area, &board, needed, wanted);
    (board.lines, (top, bottom), log)
}

/// Draw Guildhall's table.
pub fn table(app: &App, s: &Snapshot<Guildhall>, area: Rect, buf: &mut Buffer) {
    let (board, (top, bottom), log) = layout(app, s, area);
    Paragraph::new(board)
        .block(crate::ui::widgets::block("Guildhall".to_owned(), app.theme))
        .render(top, buf);
    if let Some(log) = log {
        crate::ui::log::log_panel(app, s, log, buf, false);
    }
    // A replay shows where it stands where the moves would be.
    if let Some(r) = crate::ui::replay_status(app) {
        crate::ui::replay_panel(app, s, r, bottom, buf, false);
        return;
    }
    let width = usize::from(bottom.width.saturating_sub(2));
    let panel = moves_panel(app, s, width);
    let mut list = panel.list;
    if let Some(notice) = &app.notice {
        for row in crate::ui::widgets::wrap(notice, width) {
            list.push(Line::styled(row, app.theme.warn()));
        }
    }
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
}
