//! Port Royal's table: header, harbor, players, contracts and the move list.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget};
use roundtable_engine::Seat;
use roundtable_port_royal::{
    Action, CardId, CardKind, Colour, ContractId, ExpansionView, PersonKind, PlayerView,
};

use super::clock::{clock_lines, waiting_lines};
use super::log::log_panel;
use super::replay::{replay_lines, replay_panel, replay_status};
use super::{TWO_COLUMNS, choice, panel, wrap};
use crate::app::App;
use crate::session::{SeatKind, Snapshot};
use crate::text::{
    self, action_words, card_short, colour_letter, expedition_symbols, phase_words,
    requirement_words, seat_name,
};
use crate::theme::Theme;

pub(super) fn table(app: &App, s: &Snapshot, area: Rect, buf: &mut Buffer) {
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

/// Rows the panel under the harbor wants at `width`: the moves, or the
/// replay's position.
pub(super) fn lower_rows(app: &App, s: &Snapshot, width: usize) -> u16 {
    let rows = match replay_status(app) {
        Some(r) => replay_lines(s, r, width, app.theme).len(),
        None if s.legal.is_empty() => waiting_lines(s, width, app.theme).len(),
        None => action_items(app, s, width)
            .iter()
            .map(|(_, rows)| rows.len())
            .sum::<usize>()
            .max(1),
    };
    let clock = clock_lines(s, width, app.theme).len();
    (rows + clock) as u16 + u16::from(app.notice.is_some())
}

pub(super) fn status_line(s: &Snapshot, area: Rect, buf: &mut Buffer, theme: Theme) {
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
pub(super) fn pointed_card(app: &App, s: &Snapshot) -> Option<usize> {
    match s.legal.get(app.action_selected) {
        Some(Action::Take(i, _)) => Some(usize::from(*i)),
        _ => None,
    }
}

pub(super) fn pointed_expedition(app: &App, s: &Snapshot) -> Option<usize> {
    match s.legal.get(app.action_selected) {
        Some(Action::Claim(i)) => Some(usize::from(*i)),
        _ => None,
    }
}

pub(super) fn ship_span(card: CardId, theme: Theme) -> Span<'static> {
    match card.ship_colour() {
        Some(c) => Span::styled(card_short(card), theme.ship(c)),
        None => Span::raw(card_short(card)),
    }
}

pub(super) fn person_short(kind: PersonKind) -> &'static str {
    match kind {
        PersonKind::Jack => "Jack",
        PersonKind::Mademoiselle => "Mademoiselle",
        PersonKind::ViceAdmiral => "Vice Admiral",
        other => text::person_name(other),
    }
}

pub(super) fn card_row(n: usize, card: CardId, theme: Theme) -> Line<'static> {
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
pub(super) fn short_name(
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

pub(super) fn harbor_lines(
    app: &App,
    s: &Snapshot,
    width: usize,
    theme: Theme,
) -> Vec<Line<'static>> {
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

pub(super) fn harbor_panel(
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

pub(super) fn clock(d: std::time::Duration) -> String {
    let secs = d.as_secs();
    format!("{}:{:02}", secs / 60, secs % 60)
}

pub(super) fn players_panel(
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

pub(super) fn actions_panel(app: &App, s: &Snapshot, area: Rect, buf: &mut Buffer, compact: bool) {
    let theme = app.theme;
    let names = s.names();
    let width = usize::from(area.width.saturating_sub(if compact { 0 } else { 2 }));
    let mut lines = clock_lines(s, width, theme);
    let title;
    if s.legal.is_empty() {
        title = "Waiting".to_owned();
        lines.extend(waiting_lines(s, width, theme));
    } else {
        title = match text::compensation(&s.view, s.me, &names) {
            Some(c) => format!("Your move: {c}"),
            None => "Your move".to_owned(),
        };
        let frame = if compact { 1 } else { 2 };
        let rows = usize::from(area.height.saturating_sub(frame))
            .saturating_sub(usize::from(app.notice.is_some()) + lines.len())
            .max(1);
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
pub(super) fn action_items(app: &App, s: &Snapshot, width: usize) -> Vec<(bool, Vec<String>)> {
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
