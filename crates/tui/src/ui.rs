//! Rendering: a pure function of the app's state and the session's snapshot.
//! Nothing here changes either; [`Ui`] draws one frame into a buffer.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget};
use roundtable_engine::Seat;
use roundtable_port_royal::{
    Action, CardId, CardKind, Colour, ContractId, ExpansionView, PersonKind, PlayerView,
};

use crate::app::{App, HOST_ROWS, HOST_START, MENU, Overlay, SETUP_ROWS, SETUP_START, Screen};
use crate::keymap::{self, Context};
use crate::replay::ReplayStatus;
use crate::session::{Lobby, SeatKind, Snapshot};
use crate::text::{
    self, action_words, card_short, colour_letter, expedition_symbols, phase_words,
    requirement_words, seat_name,
};
use crate::theme::Theme;

/// The smallest terminal the screens are laid out for.
pub const MIN_SIZE: (u16, u16) = (40, 12);

/// Below this width the table is one column.
const TWO_COLUMNS: u16 = 72;

/// One frame: the app's screen over the session's snapshot.
#[derive(Clone, Copy, Debug)]
pub struct Ui<'a> {
    /// The front end's state.
    pub app: &'a App,
    /// The game, when there is one.
    pub snap: Option<&'a Snapshot>,
}

impl Widget for Ui<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        render(self.app, self.snap, area, buf);
    }
}

/// Draw the whole screen into `buf`.
pub fn render(app: &App, snap: Option<&Snapshot>, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        too_small(area, buf, theme);
        return;
    }
    let [body, hints] = Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(area);
    match (app.screen, snap) {
        (Screen::Menu, _) => menu(app, body, buf),
        (Screen::Setup, _) => setup(app, body, buf),
        (Screen::HostSetup, _) => host_setup(app, body, buf),
        (Screen::JoinPrompt | Screen::WatchPrompt, _) => ticket_prompt(app, body, buf),
        (Screen::Tables, _) => lan_tables(app, body, buf),
        (Screen::Lobby, Some(s)) => match &s.lobby {
            Some(l) => lobby(app, s, l, body, buf),
            None => table(app, s, body, buf),
        },
        (Screen::Table, Some(s)) => table(app, s, body, buf),
        (Screen::Log, Some(s)) => log_screen(app, s, body, buf),
        (Screen::PostGame, Some(s)) => post_game(app, s, body, buf),
        (Screen::Replay, Some(s)) => table(app, s, body, buf),
        (Screen::ReplayPrompt, _) => replay_prompt(app, body, buf),
        (_, None) => {
            Paragraph::new("Waiting for the game to start...").render(body, buf);
        }
    }
    hint_bar(app.context(), hints, buf, theme);
    match app.overlay {
        Some(Overlay::Help { scroll }) => help(scroll, app.screen_context(), area, buf, theme),
        Some(Overlay::ConfirmQuit) => confirm_quit(area, buf, theme),
        None => {}
    }
}

fn too_small(area: Rect, buf: &mut Buffer, theme: Theme) {
    let lines = vec![
        Line::styled("Terminal too small", theme.warn()),
        Line::from(format!("{}x{}", area.width, area.height)),
        Line::from(format!("need {}x{}", MIN_SIZE.0, MIN_SIZE.1)),
        Line::from("q quits"),
    ];
    Paragraph::new(lines).render(area, buf);
}

/// The hint bar: the keys of this context from the keymap, help and quit
/// kept at the right so they always show.
fn hint_bar(ctx: Context, area: Rect, buf: &mut Buffer, theme: Theme) {
    let all: Vec<(&str, &str)> = keymap::hints(ctx).collect();
    let (tail, head): (Vec<_>, Vec<_>) = all.into_iter().partition(|(k, _)| *k == "?" || *k == "q");
    let width = |items: &[(&str, &str)]| -> usize {
        items
            .iter()
            .map(|(k, d)| k.chars().count() + d.chars().count() + 3)
            .sum()
    };
    let mut room = usize::from(area.width).saturating_sub(width(&tail));
    let mut spans = Vec::new();
    let push = |spans: &mut Vec<Span<'static>>, k: &str, d: &str| {
        spans.push(Span::styled(format!(" {k}"), theme.key()));
        spans.push(Span::raw(format!(" {d} ")));
    };
    for (k, d) in head {
        let w = k.chars().count() + d.chars().count() + 3;
        if w > room {
            break;
        }
        room -= w;
        push(&mut spans, k, d);
    }
    if room > 0 {
        spans.push(Span::raw(" ".repeat(room)));
    }
    for (k, d) in tail {
        push(&mut spans, k, d);
    }
    Paragraph::new(Line::from(spans)).render(area, buf);
}

fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let w = width.min(area.width);
    let h = height.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

fn block(title: impl Into<String>, theme: Theme) -> Block<'static> {
    Block::bordered().title(Span::styled(format!(" {} ", title.into()), theme.title()))
}

/// A panel's frame: all borders, or in a cramped terminal only the top one
/// (with the title), which saves a row and two columns per panel.
fn panel(title: impl Into<String>, theme: Theme, compact: bool) -> Block<'static> {
    let b = block(title, theme);
    if compact { b.borders(Borders::TOP) } else { b }
}

/// A selectable row: marked with `>` and reversed when selected, so the
/// selection shows without colour.
fn choice(selected: bool, text: String, theme: Theme) -> Line<'static> {
    if selected {
        Line::styled(format!("> {text}"), theme.selected())
    } else {
        Line::from(format!("  {text}"))
    }
}

// ----- start menu -------------------------------------------------------

fn menu(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let mut lines = vec![
        Line::styled("Port Royal at your own table", theme.title()),
        Line::styled(
            "peer to peer, no server: every seat runs the rules",
            theme.dim(),
        ),
        Line::raw(""),
    ];
    for (i, label) in MENU.iter().enumerate() {
        lines.push(choice(
            i == app.menu_selected,
            format!("{} {label}", i + 1),
            theme,
        ));
    }
    lines.push(Line::raw(""));
    if let Some(notice) = &app.notice {
        for row in wrap(notice, 60) {
            lines.push(Line::styled(row, theme.warn()));
        }
    }
    let height = lines.len() as u16 + 2;
    let rect = centered(area, 64, height);
    Paragraph::new(lines)
        .block(block("roundtable", theme))
        .render(rect, buf);
}

// ----- local game set-up ------------------------------------------------

fn setup(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let s = &app.setup;
    let toggle = |on: bool| if on { "[x] on" } else { "[ ] off" };
    let bots = s.seats.saturating_sub(1);
    let rows: [(String, String); SETUP_ROWS] = [
        (
            format!("Seats               < {} >", s.seats),
            format!("you and {bots} bot{}", if bots == 1 { "" } else { "s" }),
        ),
        (
            format!("Victory points      < {} >", s.options.victory_points),
            "the round ends the game once someone has them".into(),
        ),
        (
            format!(
                "Pass automatically  {}",
                toggle(s.options.pass_automatically)
            ),
            "skip takes that earn nothing".into(),
        ),
        (
            format!(
                "Expedition required {}",
                toggle(s.options.expedition_required)
            ),
            "winners need an expedition".into(),
        ),
        (
            format!("Bot pace            < {} >", s.pace.words()),
            "pause between bot moves".into(),
        ),
        (
            format!(
                "Expansion           < {} >",
                if s.options.expansion { "on" } else { "off" }
            ),
            "Just One More Contract: contracts, new cards".into(),
        ),
        ("Start the game".into(), String::new()),
    ];
    let mut lines = vec![Line::raw("")];
    for (i, (row, note)) in rows.into_iter().enumerate() {
        let mut line = choice(i == app.setup_selected, row, theme);
        if !note.is_empty() && area.width >= 70 {
            line.push_span(Span::styled(format!("  {note}"), theme.dim()));
        }
        if i == SETUP_START {
            lines.push(Line::raw(""));
        }
        lines.push(line);
    }
    let rect = centered(area, 78, lines.len() as u16 + 2);
    Paragraph::new(lines)
        .block(block("Local game against bots", theme))
        .render(rect, buf);
}

// ----- hosting, joining, the LAN, the lobby ----------------------------

fn host_setup(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let h = &app.host;
    let toggle = |on: bool| if on { "[x] on" } else { "[ ] off" };
    let people = h.seats - h.bots.min(h.seats);
    let rows: [(String, String); HOST_ROWS] = [
        (
            format!("Seats               < {} >", h.seats),
            "yours included".into(),
        ),
        (
            format!("Bots                < {} >", h.bots),
            format!(
                "run here; {} seat{} for people who join",
                people - 1,
                if people == 2 { "" } else { "s" }
            ),
        ),
        (
            format!("Victory points      < {} >", h.options.victory_points),
            "the round ends the game once someone has them".into(),
        ),
        (
            format!(
                "Pass automatically  {}",
                toggle(h.options.pass_automatically)
            ),
            "skip takes that earn nothing".into(),
        ),
        (
            format!(
                "Expedition required {}",
                toggle(h.options.expedition_required)
            ),
            "winners need an expedition".into(),
        ),
        (
            format!(
                "Expansion           < {} >",
                if h.options.expansion { "on" } else { "off" }
            ),
            "Just One More Contract".into(),
        ),
        ("Open the table".into(), String::new()),
    ];
    let mut lines = vec![Line::raw("")];
    for (i, (row, note)) in rows.into_iter().enumerate() {
        let mut line = choice(i == app.host_selected, row, theme);
        if !note.is_empty() && area.width >= 70 {
            line.push_span(Span::styled(format!("  {note}"), theme.dim()));
        }
        if i == HOST_START {
            lines.push(Line::raw(""));
        }
        lines.push(line);
    }
    let inner = usize::from(area.width.min(78).saturating_sub(4));
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        " The next screen shows the ticket to give the others.",
        theme.dim(),
    ));
    if let Some(notice) = &app.notice {
        for row in wrap(notice, inner) {
            lines.push(Line::styled(format!(" {row}"), theme.warn()));
        }
    }
    let rect = centered(area, 78, lines.len() as u16 + 2);
    Paragraph::new(lines)
        .block(block("Host a table on the network", theme))
        .render(rect, buf);
}

/// `text` cut into rows of `width` characters (a ticket has no spaces to
/// wrap at; every character of it must show).
fn chunks(text: &str, width: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars
        .chunks(width.max(1))
        .map(|c| c.iter().collect())
        .collect()
}

fn ticket_prompt(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let watch = app.screen == Screen::WatchPrompt;
    let inner = usize::from(area.width.min(78).saturating_sub(4));
    let field = inner.saturating_sub(4).max(8);
    let mut lines = vec![
        Line::raw(""),
        Line::from(if watch {
            " The ticket of the table to watch:"
        } else {
            " The ticket of the table to join:"
        }),
    ];
    // The whole ticket shows, wrapped, so a paste can be checked by eye;
    // the cursor follows its last row.
    let typed = chunks(&app.ticket, field);
    let rows = typed.len().max(1);
    for i in 0..rows {
        let text = typed.get(i).cloned().unwrap_or_default();
        let mut spans = vec![
            Span::styled(if i == 0 { " > " } else { "   " }, theme.key()),
            Span::raw(text),
        ];
        if i + 1 == rows {
            spans.push(Span::styled("_", theme.key()));
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::raw(""));
    for row in wrap(
        "Paste it as the host's screen shows it (rt1_...); spaces and line breaks are left out.",
        inner.saturating_sub(1),
    ) {
        lines.push(Line::styled(format!(" {row}"), theme.dim()));
    }
    if let Some(notice) = &app.notice {
        for row in wrap(notice, inner.saturating_sub(1)) {
            lines.push(Line::styled(format!(" {row}"), theme.warn()));
        }
    }
    let title = if watch {
        "Watch a table"
    } else {
        "Join a table"
    };
    let rect = centered(area, 78, lines.len() as u16 + 2);
    Paragraph::new(lines)
        .block(block(title, theme))
        .render(rect, buf);
}

fn lan_tables(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let inner = usize::from(area.width.min(78).saturating_sub(4));
    let mut lines = vec![Line::raw("")];
    match &app.tables {
        None => lines.push(Line::from(
            " Looking for tables announced on this network...",
        )),
        Some(Err(why)) => {
            lines.push(Line::styled(" Could not look for tables:", theme.warn()));
            for row in wrap(why, inner.saturating_sub(1)) {
                lines.push(Line::styled(format!(" {row}"), theme.warn()));
            }
        }
        Some(Ok(found)) if found.is_empty() => {
            lines.push(Line::from(" No open table was announced on this network."));
            lines.push(Line::styled(
                " r looks again; a ticket joins tables elsewhere.",
                theme.dim(),
            ));
        }
        Some(Ok(found)) => {
            for (i, t) in found.iter().enumerate() {
                let open = t.seats.saturating_sub(t.filled);
                let text = format!(
                    "{} {}'s table: {}, {}/{} seats taken, {open} open",
                    i + 1,
                    t.host,
                    t.game,
                    t.filled,
                    t.seats
                );
                let mut line = choice(i == app.table_selected, text, theme);
                if open == 0 {
                    line.push_span(Span::styled(" (full)", theme.dim()));
                }
                lines.push(line);
            }
        }
    }
    if let Some(notice) = &app.notice {
        lines.push(Line::raw(""));
        for row in wrap(notice, inner.saturating_sub(1)) {
            lines.push(Line::styled(format!(" {row}"), theme.warn()));
        }
    }
    let rect = centered(area, 78, lines.len() as u16 + 2);
    Paragraph::new(lines)
        .block(block("Tables on this LAN", theme))
        .render(rect, buf);
}

fn lobby(app: &App, s: &Snapshot, l: &Lobby, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let inner = usize::from(area.width.saturating_sub(4));
    let mut lines = Vec::new();
    if let Some(t) = &l.ticket {
        for row in wrap(
            "Ticket: give it to the other players (they paste it at \"Join a table\" or run roundtable join TICKET)",
            inner.saturating_sub(1),
        ) {
            lines.push(Line::styled(format!(" {row}"), theme.title()));
        }
        for row in chunks(t, inner.saturating_sub(1)) {
            lines.push(Line::from(format!(" {row}")));
        }
        lines.push(Line::raw(""));
    }
    if l.seats == 0 {
        lines.push(Line::from(" Reaching the host..."));
    } else {
        lines.push(Line::styled(
            format!(" Seats: {} of {} taken", l.filled, l.seats),
            theme.title(),
        ));
    }
    for i in 0..usize::from(l.seats) {
        let row = match l.seated.get(i) {
            Some(seat) => {
                let who = match seat.kind {
                    SeatKind::You => "you",
                    SeatKind::Bot => "bot",
                    SeatKind::Remote => "player",
                };
                let (name, state) = (&seat.name, seat.connection.words());
                if inner >= 60 {
                    format!(" {}. [x] {name:<20} {who:<7} {state}", i + 1)
                } else {
                    format!(" {}. [x] {name} ({who}, {state})", i + 1)
                }
            }
            // A joiner counts the seats taken but learns names at the start.
            None if i < usize::from(l.filled) => format!(" {}. [x] taken", i + 1),
            None => format!(" {}. [ ] open", i + 1),
        };
        lines.push(Line::from(row));
    }
    lines.push(Line::raw(""));
    let next = match (&l.stopped, l.spectator) {
        (Some(why), _) => format!("The table stopped: {why}. Esc goes back."),
        (None, _) if l.seats == 0 => {
            "Asking the host for a seat at the ticket's addresses. Esc leaves.".into()
        }
        (None, true) => format!(
            "You will watch. The game shows once all {} seats are taken.",
            l.seats
        ),
        (None, false) if l.filled >= l.seats => {
            "Every seat is taken: the players agree on the terms and shuffle together; the game begins in a moment.".into()
        }
        (None, false) => format!(
            "The game begins by itself once all {} seats are taken. Esc leaves the table.",
            l.seats
        ),
    };
    let style = if l.stopped.is_some() {
        theme.warn()
    } else {
        theme.dim()
    };
    for row in wrap(&next, inner.saturating_sub(1)) {
        lines.push(Line::styled(format!(" {row}"), style));
    }
    if let Some(status) = s.status.as_ref().filter(|_| l.stopped.is_none()) {
        for row in wrap(status, inner.saturating_sub(1)) {
            lines.push(Line::styled(format!(" {row}"), theme.dim()));
        }
    }
    let height = (lines.len() as u16 + 2).min(area.height);
    let rect = Rect { height, ..area };
    Paragraph::new(lines)
        .block(block(s.title.clone(), theme))
        .render(rect, buf);
}

// ----- the table --------------------------------------------------------

fn table(app: &App, s: &Snapshot, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let [status, main] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    status_line(s, status, buf, theme);
    let seats = s.seats.len() as u16;
    let replay = replay_status(app);
    if main.width < TWO_COLUMNS {
        let harbor = harbor_lines(app, s, usize::from(main.width), theme);
        let action_rows = lower_rows(app, s, usize::from(main.width));
        // One column, panels framed by their top border only.
        let harbor_h = (harbor.len() as u16 + 1).min(main.height / 3).max(3);
        let actions_h = (action_rows + 1).clamp(2, main.height / 4 + 1);
        let [h, p, a, l] = Layout::vertical([
            Constraint::Length(harbor_h),
            Constraint::Length(seats + 1),
            Constraint::Length(actions_h),
            Constraint::Min(0),
        ])
        .areas(main);
        harbor_panel(s, harbor, h, buf, theme, true);
        players_panel(s, true, replay.is_some(), p, buf, theme);
        match replay {
            Some(r) => replay_panel(app, s, r, a, buf, true),
            None => actions_panel(app, s, a, buf, true),
        }
        log_panel(app, s, l, buf, true);
    } else {
        let left_w = (main.width * 11 / 20).max(44);
        let [left, right] =
            Layout::horizontal([Constraint::Length(left_w), Constraint::Min(0)]).areas(main);
        let inner_w = usize::from(left_w.saturating_sub(2));
        let harbor = harbor_lines(app, s, inner_w, theme);
        let action_rows = lower_rows(app, s, inner_w);
        // The expansion's contracts need room in the harbor panel: the moves
        // take at most a third of the column then, and scroll.
        let share = if s.view.expansion.is_some() { 3 } else { 2 };
        let actions_h = (action_rows + 2).clamp(5, (left.height / share).max(5));
        let [h, a] =
            Layout::vertical([Constraint::Min(0), Constraint::Length(actions_h)]).areas(left);
        // The expansion gives every player a third line: cubes, contracts
        // and ships kept aside.
        let per_seat = if s.view.expansion.is_some() { 3 } else { 2 };
        let players_h = (seats * per_seat + 2).min(right.height.saturating_sub(5));
        let [p, l] =
            Layout::vertical([Constraint::Length(players_h), Constraint::Min(0)]).areas(right);
        harbor_panel(s, harbor, h, buf, theme, false);
        players_panel(s, false, replay.is_some(), p, buf, theme);
        match replay {
            Some(r) => replay_panel(app, s, r, a, buf, false),
            None => actions_panel(app, s, a, buf, false),
        }
        log_panel(app, s, l, buf, false);
    }
}

/// Where the replay shown stands, when the screen is a replay.
fn replay_status(app: &App) -> Option<&ReplayStatus> {
    app.replay.as_ref().filter(|_| app.screen == Screen::Replay)
}

/// Rows the panel under the harbor wants at `width`: the moves, or the
/// replay's position.
fn lower_rows(app: &App, s: &Snapshot, width: usize) -> u16 {
    let rows = match replay_status(app) {
        Some(r) => replay_lines(s, r, width, app.theme).len(),
        None => action_items(app, s, width)
            .iter()
            .map(|(_, rows)| rows.len())
            .sum::<usize>()
            .max(1),
    };
    rows as u16 + u16::from(app.notice.is_some())
}

/// A bar of `width` cells, `done` of `total` filled: `#` and `.`, so it
/// reads without colour.
fn gauge(done: usize, total: usize, width: usize) -> String {
    let filled = (done * width)
        .checked_div(total)
        .unwrap_or(width)
        .min(width);
    format!("[{}{}]", "#".repeat(filled), ".".repeat(width - filled))
}

/// The replay panel's rows: a bar of the position, what the last input
/// was, why the transcript ends early (if it does), and the result at the
/// end.
fn replay_lines(s: &Snapshot, r: &ReplayStatus, width: usize, theme: Theme) -> Vec<Line<'static>> {
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
    if let Some(result) = &s.result {
        let names = s.names();
        let winners: Vec<String> = result
            .winners()
            .into_iter()
            .map(|w| seat_name(&names, w))
            .collect();
        let headline = match winners.as_slice() {
            [one] => format!(" Game over: {one} wins"),
            many => format!(" Game over: {} share the win", many.join(" and ")),
        };
        lines.push(Line::styled(headline, theme.good()));
        let mut standings = result.standings.clone();
        standings.sort_by_key(|x| (x.rank, x.seat));
        for st in standings {
            lines.push(Line::from(format!(
                " #{} {} {} VP {}$",
                st.rank + 1,
                seat_name(&names, st.seat),
                st.score,
                st.tie_break
            )));
        }
    }
    lines
}

fn replay_panel(
    app: &App,
    s: &Snapshot,
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

fn replay_prompt(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let inner = usize::from(area.width.min(78).saturating_sub(4));
    // The end of a long path shows, where the typing happens.
    let typed: Vec<char> = app.prompt.chars().collect();
    let shown: String = typed[typed.len().saturating_sub(inner.saturating_sub(3))..]
        .iter()
        .collect();
    let mut lines = vec![
        Line::raw(""),
        Line::from(" The transcript file to replay:"),
        Line::from(vec![
            Span::styled(" > ", theme.key()),
            Span::raw(shown),
            Span::styled("_", theme.key()),
        ]),
        Line::raw(""),
        Line::styled(
            " Local games save theirs as local-SEED.rts in the games folder.",
            theme.dim(),
        ),
    ];
    if let Some(notice) = &app.notice {
        for row in wrap(notice, inner) {
            lines.push(Line::styled(format!(" {row}"), theme.warn()));
        }
    }
    let rect = centered(area, 78, lines.len() as u16 + 2);
    Paragraph::new(lines)
        .block(block("Replay a transcript", theme))
        .render(rect, buf);
}

fn status_line(s: &Snapshot, area: Rect, buf: &mut Buffer, theme: Theme) {
    let v = &s.view;
    let names = s.names();
    let mut spans = Vec::new();
    if v.last_round && v.phase != "over" {
        spans.push(Span::styled("LAST ROUND ", theme.warn()));
    }
    if v.turn > 0 {
        spans.push(Span::styled(format!("Turn {}: ", v.turn), theme.title()));
    }
    spans.push(Span::raw(phase_words(v, &names, s.me)));
    let right = format!(" draw {} | discard {} ", v.draw_pile, v.discard_pile);
    let used: usize = spans.iter().map(|s| s.content.chars().count()).sum();
    let room = usize::from(area.width).saturating_sub(used);
    if room >= right.len() {
        spans.push(Span::raw(" ".repeat(room - right.len())));
        spans.push(Span::styled(right, theme.dim()));
    }
    Paragraph::new(Line::from(spans)).render(area, buf);
}

/// The harbor card a selected action points at, to highlight it.
fn pointed_card(app: &App, s: &Snapshot) -> Option<usize> {
    match s.legal.get(app.action_selected) {
        Some(Action::Take(i, _)) => Some(usize::from(*i)),
        _ => None,
    }
}

fn pointed_expedition(app: &App, s: &Snapshot) -> Option<usize> {
    match s.legal.get(app.action_selected) {
        Some(Action::Claim(i)) => Some(usize::from(*i)),
        _ => None,
    }
}

fn ship_span(card: CardId, theme: Theme) -> Span<'static> {
    match card.ship_colour() {
        Some(c) => Span::styled(card_short(card), theme.ship(c)),
        None => Span::raw(card_short(card)),
    }
}

fn person_short(kind: PersonKind) -> &'static str {
    match kind {
        PersonKind::Jack => "Jack",
        PersonKind::Mademoiselle => "Mademoiselle",
        PersonKind::ViceAdmiral => "Vice Admiral",
        other => text::person_name(other),
    }
}

fn card_row(n: usize, card: CardId, theme: Theme) -> Line<'static> {
    match card.kind() {
        CardKind::Ship { .. } => {
            Line::from(vec![Span::raw(format!("{n:>2} ")), ship_span(card, theme)])
        }
        CardKind::Person {
            kind,
            colour,
            cost,
            vp,
        } => {
            let name = match (kind, colour) {
                (PersonKind::Trader | PersonKind::Clerk, Some(c)) => {
                    format!("{} [{}]", person_short(kind), colour_letter(c))
                }
                _ => person_short(kind).to_owned(),
            };
            let mut spans = vec![Span::raw(format!("{n:>2} {name:<12} {cost}$ {vp}VP  "))];
            let ability = text::ability(kind, colour);
            spans.push(match colour {
                Some(c) => Span::styled(ability, theme.ship(c)),
                None => Span::styled(ability, theme.dim()),
            });
            Line::from(spans)
        }
        _ => Line::from(format!("{n:>2} {}", card_short(card))),
    }
}

/// A name cut to its first word ("Anne" for "Anne Bonny"), for lines that
/// name several players in a narrow panel.
fn short_name(
    names: &[String],
    seat: roundtable_engine::Seat,
    me: Option<roundtable_engine::Seat>,
) -> String {
    if me == Some(seat) {
        return "You".into();
    }
    let full = seat_name(names, seat);
    full.split_whitespace().next().unwrap_or(&full).to_owned()
}

/// The face-up contracts, one line each (two when `width` is wide enough
/// for the requirement in words): title, the coins the next completion
/// pays, who completed it in order, and every player's progress cube.
pub fn contract_lines(
    s: &Snapshot,
    x: &ExpansionView,
    width: usize,
    theme: Theme,
) -> Vec<Line<'static>> {
    let names = s.names();
    let wide = width >= 70;
    let who = |seat| {
        if wide {
            if s.me == Some(seat) {
                "You".to_owned()
            } else {
                seat_name(&names, seat)
            }
        } else {
            short_name(&names, seat, s.me)
        }
    };
    let mut lines = vec![Line::styled(
        format!(" Contracts ({} face down)", x.contract_pile),
        theme.title(),
    )];
    if x.contract_status.is_empty() {
        lines.push(Line::styled("   (being laid out)", theme.dim()));
    }
    for c in &x.contract_status {
        let mut text = format!("{} {}$", c.title, c.next_coins);
        if let (true, Some(id)) = (wide, ContractId::parse(&c.name)) {
            text.push_str(&format!(" ({})", requirement_words(id.requirement())));
        }
        if !c.completed_by.is_empty() {
            let done: Vec<String> = c.completed_by.iter().map(|seat| who(seat.0)).collect();
            text.push_str(&format!(" done: {}", done.join(", ")));
        }
        let progress: Vec<String> = x
            .progress
            .iter()
            .enumerate()
            .filter_map(|(i, cubes)| {
                let step = cubes.iter().find(|p| p.contract == c.name)?.step;
                Some(format!(
                    "{} {step}/{}",
                    who(roundtable_engine::Seat(i as u8)),
                    c.steps
                ))
            })
            .collect();
        if !progress.is_empty() {
            text.push_str(&format!("; {}", progress.join(", ")));
        }
        // Wrapped, not cut: the progress cubes come last and matter.
        for row in wrap(&text, width.saturating_sub(3)) {
            lines.push(Line::from(format!("   {row}")));
        }
    }
    lines
}

fn harbor_lines(app: &App, s: &Snapshot, width: usize, theme: Theme) -> Vec<Line<'static>> {
    let v = &s.view;
    let pointed = pointed_card(app, s);
    let mut lines = Vec::new();
    if v.harbor.is_empty() {
        lines.push(Line::styled("   (empty)", theme.dim()));
    }
    for (i, card) in v.harbor.iter().enumerate() {
        let mut line = card_row(i + 1, card.0, theme);
        if pointed == Some(i) {
            line = line.style(theme.selected());
            line.push_span(Span::styled(" <", theme.selected()));
        }
        lines.push(line);
    }
    if let Some(ship) = v.pending_ship {
        lines.push(Line::from(vec![
            Span::styled(" just drawn: ", theme.warn()),
            ship_span(ship.0, theme),
        ]));
    }
    lines.push(Line::styled(" Expeditions", theme.title()));
    if v.expeditions.is_empty() {
        lines.push(Line::styled("   (none face up)", theme.dim()));
    }
    let claim = pointed_expedition(app, s);
    for (i, card) in v.expeditions.iter().enumerate() {
        if let CardKind::Expedition {
            anchors,
            crosses,
            houses,
            vp,
            coins,
            ..
        } = card.0.kind()
        {
            let mut line = Line::from(format!(
                "   {} {vp}VP +{coins}$",
                expedition_symbols(anchors, crosses, houses)
            ));
            if claim == Some(i) {
                line = line.style(theme.selected());
            }
            lines.push(line);
        }
    }
    if let Some(x) = &v.expansion {
        lines.extend(contract_lines(s, x, width, theme));
    }
    lines
}

fn harbor_panel(
    s: &Snapshot,
    lines: Vec<Line<'static>>,
    area: Rect,
    buf: &mut Buffer,
    theme: Theme,
    compact: bool,
) {
    let v = &s.view;
    let colours: Vec<char> = Colour::ALL
        .into_iter()
        .filter(|c| v.harbor.iter().any(|h| h.0.ship_colour() == Some(*c)))
        .map(colour_letter)
        .collect();
    let colours = if colours.is_empty() {
        "no ships".to_owned()
    } else {
        format!(
            "ships {}",
            colours
                .iter()
                .map(char::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        )
    };
    let n = v.harbor.len();
    let title = format!(
        "Harbor: {n} card{}, {colours}",
        if n == 1 { "" } else { "s" }
    );
    Paragraph::new(lines)
        .block(panel(title, theme, compact))
        .render(area, buf);
}

/// A player's abilities summed: "3sw, trader Y Y, gov 1, anchor 2".
pub fn abilities(p: &PlayerView) -> String {
    let mut count = [0u32; 14];
    let mut traders = String::new();
    let mut clerks = String::new();
    for person in &p.persons {
        if let CardKind::Person { kind, colour, .. } = person.0.kind() {
            count[kind as usize] += 1;
            match (kind, colour) {
                (PersonKind::Trader, Some(c)) => {
                    traders.push(' ');
                    traders.push(colour_letter(c));
                }
                (PersonKind::Clerk, Some(c)) => {
                    clerks.push(' ');
                    clerks.push(colour_letter(c));
                }
                _ => {}
            }
        }
    }
    let mut parts = Vec::new();
    if p.swords > 0 {
        parts.push(format!("{}sw", p.swords));
    }
    if !traders.is_empty() {
        parts.push(format!("trader{traders}"));
    }
    if !clerks.is_empty() {
        parts.push(format!("clerk{clerks}"));
    }
    let named = [
        (PersonKind::Governor, "gov"),
        (PersonKind::Mademoiselle, "mlle"),
        (PersonKind::Jester, "jester"),
        (PersonKind::Admiral, "admiral"),
        (PersonKind::Captain, "anchor"),
        (PersonKind::Priest, "cross"),
        (PersonKind::Settler, "house"),
        (PersonKind::Jack, "jack"),
        (PersonKind::Gunner, "gunner"),
        (PersonKind::ViceAdmiral, "vice adm"),
    ];
    for (kind, word) in named {
        let n = count[kind as usize];
        if n > 0 {
            parts.push(format!("{word} {n}"));
        }
    }
    if !p.expeditions.is_empty() {
        parts.push(format!("exp {}", p.expeditions.len()));
    }
    if parts.is_empty() {
        "no persons".into()
    } else {
        parts.join(", ")
    }
}

/// A player's part of the expansion: free cubes, completed contracts (and
/// their points) and ships kept aside for Pack of Pirates.
pub fn contract_details(p: &PlayerView, x: &ExpansionView, seat: usize) -> String {
    let cubes = x.cubes.get(seat).copied().unwrap_or(0);
    let mut parts = vec![format!("cubes {cubes}")];
    let done: Vec<&str> = p
        .contracts
        .iter()
        .filter_map(|c| ContractId::parse(c).map(text::contract_title))
        .collect();
    if !done.is_empty() {
        let vp = x.contract_vp.get(seat).copied().unwrap_or(0);
        let vp = if vp > 0 {
            format!(" ({vp}VP)")
        } else {
            String::new()
        };
        parts.push(format!("{}{vp}", done.join(", ")));
    }
    let aside: Vec<String> = x
        .kept_aside
        .get(seat)
        .into_iter()
        .flatten()
        .filter_map(|c| c.0.ship_colour())
        .map(|c| colour_letter(c).to_string())
        .collect();
    if !aside.is_empty() {
        parts.push(format!("aside {}", aside.join(" ")));
    }
    parts.join(", ")
}

fn clock(d: std::time::Duration) -> String {
    let secs = d.as_secs();
    format!("{}:{:02}", secs / 60, secs % 60)
}

fn players_panel(
    s: &Snapshot,
    compact: bool,
    replay: bool,
    area: Rect,
    buf: &mut Buffer,
    theme: Theme,
) {
    let v = &s.view;
    let mut lines = Vec::new();
    let name_w = s
        .seats
        .iter()
        .map(|x| x.name.chars().count())
        .max()
        .unwrap_or(4)
        .min(12);
    for (i, p) in v.players.iter().enumerate() {
        let seat = Seat(i as u8);
        let info = s.seats.get(i);
        let active = v.active.0 == seat && v.phase != "over";
        let taking = v.taker.is_some_and(|t| t.0 == seat);
        let marker = if active { '>' } else { ' ' };
        let name: String = seat_name(&s.names(), seat).chars().take(name_w).collect();
        let who = match info.map(|x| (x.kind, x.connection)) {
            Some((SeatKind::You, _)) => "you".to_owned(),
            Some((SeatKind::Bot, _)) => "bot".to_owned(),
            Some((SeatKind::Remote, c)) => c.words().to_owned(),
            None => String::new(),
        };
        let mut spans = vec![
            Span::raw(format!("{marker}")),
            Span::styled(format!("{} {name:<name_w$}", seat.number()), theme.seat(i)),
            Span::raw(format!(" {:>2}$ {:>2}VP", p.coins, p.vp)),
        ];
        let tag = match (active, taking) {
            (true, true) => " ACTIVE TAKING",
            (true, false) => " ACTIVE",
            (false, true) => " TAKING",
            _ => "",
        };
        spans.push(Span::styled(tag, theme.good()));
        let mut about = who;
        if let Some(t) = info.and_then(|x| x.clock) {
            about.push_str(&format!(" {}", clock(t)));
        }
        // A replay's seats are names in a file: nobody is here or online.
        let details = if replay {
            abilities(p)
        } else {
            format!("{about}: {}", abilities(p))
        };
        let contracts = v.expansion.as_ref().map(|x| contract_details(p, x, i));
        if compact {
            spans.push(Span::styled(format!(" {details}"), theme.dim()));
            if let Some(c) = contracts {
                spans.push(Span::styled(format!("; {c}"), theme.dim()));
            }
            lines.push(Line::from(spans));
        } else {
            lines.push(Line::from(spans));
            lines.push(Line::styled(format!("   {details}"), theme.dim()));
            if let Some(c) = contracts {
                lines.push(Line::styled(format!("   {c}"), theme.dim()));
            }
        }
    }
    Paragraph::new(lines)
        .block(panel("Players", theme, compact))
        .render(area, buf);
}

fn actions_panel(app: &App, s: &Snapshot, area: Rect, buf: &mut Buffer, compact: bool) {
    let theme = app.theme;
    let names = s.names();
    let mut lines = Vec::new();
    let title;
    if s.legal.is_empty() {
        title = "Waiting".to_owned();
        let status = s.status.clone().unwrap_or_else(|| "...".into());
        lines.push(Line::styled(format!("  {status}"), theme.dim()));
    } else {
        title = match text::compensation(&s.view, s.me, &names) {
            Some(c) => format!("Your move: {c}"),
            None => "Your move".to_owned(),
        };
        let frame = if compact { 1 } else { 2 };
        let rows = usize::from(area.height.saturating_sub(frame))
            .saturating_sub(usize::from(app.notice.is_some()))
            .max(1);
        let width = usize::from(area.width.saturating_sub(if compact { 0 } else { 2 }));
        let items = action_items(app, s, width);
        // Scroll so that the selected move shows whole: drop moves from the
        // top until the rows up to it fit.
        let selected = app.action_selected.min(items.len().saturating_sub(1));
        let mut first = 0;
        while first < selected
            && items[first..=selected]
                .iter()
                .map(|(_, r)| r.len())
                .sum::<usize>()
                > rows
        {
            first += 1;
        }
        let mut used = 0;
        for (is_selected, wrapped) in &items[first..] {
            for (k, row) in wrapped.iter().enumerate() {
                if used == rows {
                    break;
                }
                let text = if k == 0 {
                    row.clone()
                } else {
                    row.trim_start().to_owned()
                };
                let line = if k == 0 {
                    choice(*is_selected, text, theme)
                } else if *is_selected {
                    Line::styled(format!("      {text}"), theme.selected())
                } else {
                    Line::from(format!("      {text}"))
                };
                lines.push(line);
                used += 1;
            }
        }
    }
    if let Some(notice) = &app.notice {
        lines.push(Line::styled(notice.clone(), theme.warn()));
    }
    let title_style = if s.legal.is_empty() {
        theme.title()
    } else {
        theme.good()
    };
    let frame = if compact {
        Block::new().borders(Borders::TOP)
    } else {
        Block::bordered()
    };
    Paragraph::new(lines)
        .block(frame.title(Span::styled(format!(" {title} "), title_style)))
        .render(area, buf);
}

/// The legal moves in words, each wrapped to `width` (less the selection
/// mark): whether it is selected, and its rows.
fn action_items(app: &App, s: &Snapshot, width: usize) -> Vec<(bool, Vec<String>)> {
    let names = s.names();
    s.legal
        .iter()
        .enumerate()
        .map(|(i, &action)| {
            let mut words = action_words(action, &s.view, s.me, &names);
            if let (Action::Draw, Some(me)) = (action, s.me) {
                let risk = roundtable_bots::bust_chance(&s.view, me);
                words.push_str(&format!(" (bust risk {:.0}%)", risk * 100.0));
            }
            // Continuation rows line up under the words, past "> 12 ".
            let rows = wrap(&format!("{} {words}", i + 1), width.saturating_sub(6));
            (i == app.action_selected, rows)
        })
        .collect()
}

/// Word-wrap `text` to `width` columns; continuation lines are indented.
fn wrap(text: &str, width: usize) -> Vec<String> {
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

/// The newest `want` rows of the log, wrapped and styled, oldest first, and
/// the total number of rows the whole log wraps to (only counted when
/// `count_all`: the log screen's title needs it, the table's panel does not).
fn log_rows(
    s: &Snapshot,
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
fn window(rows: Vec<Line<'static>>, height: usize, scroll: usize) -> (Vec<Line<'static>>, usize) {
    let scroll = scroll.min(rows.len().saturating_sub(height));
    let end = rows.len() - scroll;
    let start = end.saturating_sub(height);
    (rows[start..end].to_vec(), scroll)
}

fn log_panel(app: &App, s: &Snapshot, area: Rect, buf: &mut Buffer, compact: bool) {
    let theme = app.theme;
    let frame = panel("Log", theme, compact);
    let inner = frame.inner(area);
    let (inner_w, inner_h) = (usize::from(inner.width), usize::from(inner.height));
    let (rows, _) = log_rows(s, inner_w, inner_h + app.log_scroll, false, theme);
    let (rows, scroll) = window(rows, inner_h, app.log_scroll);
    let title = if scroll > 0 {
        format!("Log ({scroll} rows back, End for newest)")
    } else {
        "Log".to_owned()
    };
    Paragraph::new(rows)
        .block(panel(title, theme, compact))
        .render(area, buf);
}

fn log_screen(app: &App, s: &Snapshot, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let inner_w = usize::from(area.width.saturating_sub(2));
    let inner_h = usize::from(area.height.saturating_sub(2));
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

fn post_game(app: &App, s: &Snapshot, area: Rect, buf: &mut Buffer) {
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
        .block(block("Ranking (VP, then coins)", theme))
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
fn vp_chart(s: &Snapshot, area: Rect, buf: &mut Buffer, theme: Theme) {
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
    for text in [
        "[Y] yellow Pinnace, [B] blue Flute, [G] green Skiff,",
        "[R] red Frigate, [K] black Galleon",
        "2sw: swords needed to repel; skull: cannot be repelled",
        "3$: coins; 1VP: victory points",
        "> marks the active seat and the selected move",
        "a second ship of a colour in the harbor is a bust",
        "+gift: trading it gives a player of your choice 1$",
        "a contract's 6$: what the next to complete it gains",
        "Frigate Foe 2/3: a progress cube on step 2 of 3",
    ] {
        lines.push(Line::from(format!("  {text}")));
    }
    lines
}

fn help(scroll: u16, current: Context, area: Rect, buf: &mut Buffer, theme: Theme) {
    let rect = centered(area, 64, area.height.saturating_sub(2));
    let lines = help_lines(theme, current);
    let max = (lines.len() as u16).saturating_sub(rect.height.saturating_sub(2));
    Clear.render(rect, buf);
    Paragraph::new(lines)
        .scroll((scroll.min(max), 0))
        .block(block("Help: ? or Esc closes", theme))
        .render(rect, buf);
}

fn confirm_quit(area: Rect, buf: &mut Buffer, theme: Theme) {
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
