//! The screens before a game: the start menu, a local game's set-up, hosting,
//! the ticket prompts, the LAN list and the replay prompt.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::widgets::{block, centered, choice, chunks, wrap};
use roundtable_games::GameId;

use crate::app::{App, MENU, MENU_NAME, Screen};
use crate::saved::SavedGame;
use crate::setup::{LocalConfig, SetupRow};

pub(super) fn menu(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let width = area.width.min(64);
    let inner_width = usize::from(width.saturating_sub(2)).max(1);
    let inner_height = usize::from(area.height.saturating_sub(2));
    let entries: Vec<Line<'static>> = MENU
        .iter()
        .enumerate()
        .map(|(i, label)| {
            let text = if i == MENU_NAME {
                format!("{} {label} {}", i + 1, app.setup.name)
            } else {
                format!("{} {label}", i + 1)
            };
            choice(i == app.menu_selected, text, theme)
        })
        .collect();
    let notice: Vec<Line<'static>> = app
        .notice
        .iter()
        .flat_map(|n| wrap(n, inner_width))
        .map(|row| Line::styled(row, theme.warn()))
        .collect();
    let intro = [
        Line::styled(
            format!("{} at your own table", game_titles()),
            theme.title(),
        ),
        Line::styled(
            "peer to peer, no server: every seat runs the rules",
            theme.dim(),
        ),
        Line::raw(""),
    ];
    // On a short terminal every entry stays reachable: the notice goes
    // before the introduction, which is only decoration.
    let mut lines = Vec::new();
    let with_notice = entries.len() + 1 + notice.len() <= inner_height && !notice.is_empty();
    let used = entries.len() + if with_notice { 1 + notice.len() } else { 0 };
    if used + intro.len() <= inner_height {
        lines.extend(intro);
    }
    lines.extend(entries);
    if with_notice {
        lines.push(Line::raw(""));
        lines.extend(notice);
    }
    let height = lines.len() as u16 + 2;
    let rect = centered(area, width, height);
    Paragraph::new(lines)
        .block(block("roundtable", theme))
        .render(rect, buf);
}

/// Every game's title, in the picker's order, as words ("Port Royal and
/// Guildhall").
fn game_titles() -> String {
    let titles: Vec<&str> = GameId::ALL.iter().map(|g| g.title()).collect();
    match titles.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => titles.concat(),
    }
}

// ----- local game set-up ------------------------------------------------

pub(super) fn setup(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let s = &app.setup;
    let bots = s.seats.saturating_sub(1);
    let rows: Vec<(String, String)> = app
        .setup_rows()
        .into_iter()
        .map(|row| match row {
            SetupRow::Seats => (
                labelled("Seats", &format!("< {} >", s.seats)),
                format!("you and {bots} bot{}", if bots == 1 { "" } else { "s" }),
            ),
            SetupRow::Start => ("Start the game".into(), String::new()),
            row => table_row_words(row, s),
        })
        .collect();
    let start = app.setup_start();
    let mut lines = vec![Line::raw("")];
    for (i, (row, note)) in rows.into_iter().enumerate() {
        let mut line = choice(i == app.setup_selected, row, theme);
        if !note.is_empty() && area.width >= 70 {
            line.push_span(Span::styled(format!("  {note}"), theme.dim()));
        }
        if i == start {
            lines.push(Line::raw(""));
        }
        lines.push(line);
    }
    let rect = centered(area, 78, lines.len() as u16 + 2);
    Paragraph::new(lines)
        .block(block("Local game against bots", theme))
        .render(rect, buf);
}

/// A set-up row over `s` (the local game, or the table to host) and its
/// note, in the words both set-ups use. A game's own rows are its data in
/// the list of games: its label, its value in the row's words, its note.
fn table_row_words(row: SetupRow, s: &LocalConfig) -> (String, String) {
    let think = think_words(s.think);
    match row {
        SetupRow::Game => (
            labelled("Game", &format!("< {} >", s.game.title())),
            format!(
                "game {} of {}: {} to {} players",
                GameId::ALL.iter().position(|g| *g == s.game).unwrap_or(0) + 1,
                GameId::ALL.len(),
                s.game.seats().start(),
                s.game.seats().end()
            ),
        ),
        SetupRow::Seats => (
            labelled("Seats", &format!("< {} >", s.seats)),
            String::new(),
        ),
        SetupRow::Option(at) => match s.game.option_rows().get(at) {
            Some(option) => (
                labelled(
                    option.label,
                    &option.values.words(s.chosen.value(s.game, at)),
                ),
                option.note.to_owned(),
            ),
            None => (String::new(), String::new()),
        },
        SetupRow::Pace => (
            labelled("Bot pace", &format!("< {} >", s.pace.words())),
            "pause between bot moves".into(),
        ),
        SetupRow::Bot(i) => {
            let level = s.bot_levels.get(i).copied().unwrap_or_default();
            (
                labelled(s.bot_name(i), &format!("< {level} >")),
                level_note(level, &think),
            )
        }
        SetupRow::Think => (
            labelled("Think time", &format!("< {think} >")),
            "the most a hard bot thinks on one decision".into(),
        ),
        // The rows of one set-up only, worded by it.
        SetupRow::Bots | SetupRow::BotLevel | SetupRow::Start => (String::new(), String::new()),
    }
}

/// A row's label and value, the values of a form's rows lined up.
fn labelled(label: &str, value: &str) -> String {
    format!("{label:<19} {value}")
}

/// What a bot of `level` does, in a note: a thinking bot's most time a
/// decision (the bots take none where one move is legal).
fn level_note(level: roundtable_games::Level, think: &str) -> String {
    if level.thinks() {
        format!("up to {think} a decision (none when forced)")
    } else {
        level.describe().to_owned()
    }
}

/// A think time in a few characters ("500 ms", "2 s").
fn think_words(think: std::time::Duration) -> String {
    let ms = think.as_millis();
    if ms < 1000 || !ms.is_multiple_of(1000) {
        format!("{ms} ms")
    } else {
        format!("{} s", ms / 1000)
    }
}

// ----- hosting, joining, the LAN, the lobby ----------------------------

pub(super) fn host_setup(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let h = &app.host;
    let seats = h.table.seats;
    let people = seats - h.bots.min(seats);
    let rows: Vec<(String, String)> = app
        .host_rows()
        .into_iter()
        .map(|row| match row {
            SetupRow::Seats => (
                labelled("Seats", &format!("< {seats} >")),
                "yours included".into(),
            ),
            SetupRow::Bots => (
                labelled("Bots", &format!("< {} >", h.bots)),
                format!(
                    "run here; {} seat{} for people who join",
                    people - 1,
                    if people == 2 { "" } else { "s" }
                ),
            ),
            SetupRow::BotLevel => (
                labelled("Bot level", &format!("< {} >", h.bot_level)),
                level_note(h.bot_level, &think_words(roundtable_games::DEFAULT_THINK)),
            ),
            SetupRow::Start => ("Open the table".into(), String::new()),
            row => table_row_words(row, &h.table),
        })
        .collect();
    let start = app.host_start();
    let mut lines = vec![Line::raw("")];
    for (i, (row, note)) in rows.into_iter().enumerate() {
        let mut line = choice(i == app.host_selected, row, theme);
        if !note.is_empty() && area.width >= 70 {
            line.push_span(Span::styled(format!("  {note}"), theme.dim()));
        }
        if i == start {
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

pub(super) fn ticket_prompt(app: &App, area: Rect, buf: &mut Buffer) {
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

pub(super) fn lan_tables(app: &App, area: Rect, buf: &mut Buffer) {
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

pub(super) fn replay_prompt(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let width = area.width.min(78);
    let inner = usize::from(width.saturating_sub(4));
    // The end of a long path shows, where the typing happens.
    let typed: Vec<char> = app.prompt.chars().collect();
    let shown: String = typed[typed.len().saturating_sub(inner.saturating_sub(3))..]
        .iter()
        .collect();
    // The cursor shows where typing goes: the path field, or the list.
    let typing = app.saved_selected.is_none();
    let mut lines = vec![
        Line::raw(""),
        Line::from(" The path of the transcript to replay:"),
        Line::from(vec![
            Span::styled(" > ", theme.key()),
            Span::raw(shown),
            Span::styled(if typing { "_" } else { "" }, theme.key()),
        ]),
    ];
    let mut tail = Vec::new();
    if let Some(notice) = &app.notice {
        for row in wrap(notice, inner) {
            tail.push(Line::styled(format!(" {row}"), theme.warn()));
        }
    }
    if app.saved.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::styled(
            " No saved games in the games folder yet: type a path.",
            theme.dim(),
        ));
    } else {
        lines.push(Line::raw(""));
        lines.push(Line::styled(
            format!(
                " Or a saved game, newest first, times UTC ({}; ↑↓ choose):",
                app.saved.len()
            ),
            theme.title(),
        ));
        // As many as fit in the box, scrolled to keep the chosen one.
        // The borders, and a row for "... older".
        let fixed = lines.len() + tail.len() + 3;
        let room = usize::from(area.height).saturating_sub(fixed).max(1);
        let chosen = app.saved_selected.unwrap_or(0);
        let first = (chosen + 1).saturating_sub(room);
        let last = (first + room).min(app.saved.len());
        for (i, game) in app.saved.iter().enumerate().take(last).skip(first) {
            let text: String = saved_line(game)
                .chars()
                .take(inner.saturating_sub(2))
                .collect();
            lines.push(choice(app.saved_selected == Some(i), text, theme));
        }
        if last < app.saved.len() {
            lines.push(Line::styled(
                format!("   ... {} older", app.saved.len() - last),
                theme.dim(),
            ));
        }
    }
    lines.extend(tail);
    let rect = centered(area, 78, lines.len() as u16 + 2);
    Paragraph::new(lines)
        .block(block("Replay a transcript", theme))
        .render(rect, buf);
}

/// A saved game in one line: when (UTC), where, which game, who.
fn saved_line(game: &SavedGame) -> String {
    let when = game.modified.map_or_else(
        || "????-??-?? ??:??".to_owned(),
        |t| {
            let t = time::OffsetDateTime::from(t);
            format!(
                "{:04}-{:02}-{:02} {:02}:{:02}",
                t.year(),
                u8::from(t.month()),
                t.day(),
                t.hour(),
                t.minute()
            )
        },
    );
    let kind = if game.network { "network" } else { "local  " };
    let who = if game.players.is_empty() {
        game.path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    } else {
        game.players.join(", ")
    };
    // A game this build does not know is named as its transcript names it.
    let game = match &game.game {
        Some(name) => {
            GameId::from_name(name).map_or_else(|_| name.clone(), |g| g.title().to_owned())
        }
        None => "?".to_owned(),
    };
    format!("{when} {kind} {game}: {who}")
}

pub(super) fn name_prompt(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let inner = usize::from(area.width.min(60).saturating_sub(4));
    let mut lines = vec![
        Line::raw(""),
        Line::from(" The name the other players see:"),
        Line::from(vec![
            Span::styled(" > ", theme.key()),
            Span::raw(app.name_draft.clone()),
            Span::styled("_", theme.key()),
        ]),
        Line::raw(""),
    ];
    for row in wrap(
        "At local and network tables alike; remembered for the next time.",
        inner.saturating_sub(1),
    ) {
        lines.push(Line::styled(format!(" {row}"), theme.dim()));
    }
    if let Some(notice) = &app.notice {
        for row in wrap(notice, inner.saturating_sub(1)) {
            lines.push(Line::styled(format!(" {row}"), theme.warn()));
        }
    }
    let rect = centered(area, 60, lines.len() as u16 + 2);
    Paragraph::new(lines)
        .block(block("Your name", theme))
        .render(rect, buf);
}
