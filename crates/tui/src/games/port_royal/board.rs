//! Port Royal's table: header, harbor, players, contracts and the move list.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget};
use roundtable_engine::Seat;
use roundtable_port_royal::{
    Action, CardId, CardKind, Colour, ContractId, ExpansionView, PersonKind, PlayerView,
};

use roundtable_games::port_royal::{
    self as text, action_words, card_short, colour_letter, contract_words, expedition_symbols,
    goal_words, phase_words, phase_words_short,
};
use roundtable_games::words::seat_name;
use roundtable_port_royal::PortRoyal;

use crate::app::App;
use crate::theme::Theme;
use crate::ui::log::{log_max_scroll, log_panel};
use crate::ui::widgets::{TWO_COLUMNS, choice, panel, wrap, wrap_list};
use crate::ui::{
    clock_lines, replay_lines, replay_panel, replay_status, seat_presence, waiting_lines,
};

/// The board draws a game of Port Royal only.
type Snapshot = crate::session::Snapshot<PortRoyal>;

/// Where the table's panels go in a body of `area`, and the harbor's and
/// players' lines that decided it. Drawing and the side log's scrolling
/// (how far back it can go) both ask this one function.
struct TableLayout {
    status: Rect,
    harbor: Rect,
    players: Rect,
    lower: Rect,
    log: Rect,
    harbor_lines: Vec<Line<'static>>,
    player_lines: Vec<Line<'static>>,
    /// One column, panels framed by their top border only.
    compact: bool,
}

fn layout(app: &App, s: &Snapshot, area: Rect) -> TableLayout {
    let theme = app.theme;
    let [status, main] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    let seats = s.seats.len() as u16;
    let replay = replay_status(app).is_some();
    if main.width < TWO_COLUMNS {
        let harbor = fitted_harbor(
            app,
            s,
            usize::from(main.width),
            (main.height / 3).saturating_sub(1),
        );
        let players = player_lines(s, true, replay, usize::from(main.width), theme);
        let action_rows = lower_rows(app, s, usize::from(main.width));
        let harbor_h = (harbor.len() as u16 + 1).min(main.height / 3).max(3);
        let actions_h = (action_rows + 1).clamp(2, main.height / 4 + 1);
        let [h, p, a, l] = Layout::vertical([
            Constraint::Length(harbor_h),
            Constraint::Length(seats + 1),
            Constraint::Length(actions_h),
            Constraint::Min(0),
        ])
        .areas(main);
        return TableLayout {
            status,
            harbor: h,
            players: p,
            lower: a,
            log: l,
            harbor_lines: harbor,
            player_lines: players,
            compact: true,
        };
    }
    let left_w = (main.width * 11 / 20).max(44);
    let [left, right] =
        Layout::horizontal([Constraint::Length(left_w), Constraint::Min(0)]).areas(main);
    let inner_w = usize::from(left_w.saturating_sub(2));
    let action_rows = lower_rows(app, s, inner_w);
    // The harbor (with its expeditions and contracts) gets the rows it
    // needs as long as the moves keep three; the moves get the rest, and
    // say when more are out of sight. A board too short for that shows
    // the persons' abilities on one row each.
    let moves_min = 5;
    let harbor = fitted_harbor(app, s, inner_w, left.height.saturating_sub(1 + moves_min));
    // The harbor's frame has no bottom: the moves' top border closes it.
    let harbor_h = harbor.len() as u16 + 1;
    let room = left.height.saturating_sub(harbor_h).max(moves_min);
    let actions_h = (action_rows + 2).clamp(moves_min, room);
    let [h, a] = Layout::vertical([Constraint::Min(0), Constraint::Length(actions_h)]).areas(left);
    let right_w = usize::from(right.width.saturating_sub(2));
    let players = player_lines(s, false, replay, right_w, theme);
    // Like the harbor's, the players' frame is closed by the log's.
    let players_h = (players.len() as u16 + 1).min(right.height.saturating_sub(5));
    let [p, l] = Layout::vertical([Constraint::Length(players_h), Constraint::Min(0)]).areas(right);
    TableLayout {
        status,
        harbor: h,
        players: p,
        lower: a,
        log: l,
        harbor_lines: harbor,
        player_lines: players,
        compact: false,
    }
}

/// Draw Port Royal's table: status, harbor, players, moves or the replay
/// panel, and the log.
pub fn table(app: &App, s: &Snapshot, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    let at = layout(app, s, area);
    status_line(s, at.status, buf, theme);
    harbor_panel(s, at.harbor_lines, at.harbor, buf, theme, at.compact);
    players_panel(s, at.player_lines, at.players, buf, theme, at.compact);
    match replay_status(app) {
        Some(r) => replay_panel(app, s, r, at.lower, buf, at.compact),
        None => actions_panel(app, s, at.lower, buf, at.compact),
    }
    log_panel(app, s, at.log, buf, at.compact);
}

/// How far back the table's side log can scroll in a terminal of `width`
/// x `height`: until its oldest row shows at the top.
pub fn side_log_max_scroll(app: &App, s: &Snapshot, width: u16, height: u16) -> usize {
    let body = crate::ui::widgets::body_area(Rect::new(0, 0, width, height));
    let at = layout(app, s, body);
    let inner = panel("Log", app.theme, at.compact).inner(at.log);
    log_max_scroll(s, inner.width, inner.height)
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
    let counts = format!(" draw {} | discard {} ", v.draw_pile, v.discard_pile);
    // The pile counts keep their place: the status gives way, first to
    // fewer words, then to a shorter turn, and last it is cut.
    let room = usize::from(area.width).saturating_sub(counts.len());
    let last = if v.last_round && v.phase != "over" {
        "LAST ROUND "
    } else {
        ""
    };
    let (long_turn, short_turn) = if v.turn > 0 {
        (format!("Turn {}: ", v.turn), format!("T{} ", v.turn))
    } else {
        (String::new(), String::new())
    };
    let short = phase_words_short(v, &names, s.me, false);
    let candidates = [
        (long_turn.clone(), phase_words(v, &names, s.me)),
        (long_turn, short.clone()),
        (short_turn.clone(), short),
        (short_turn, phase_words_short(v, &names, s.me, true)),
    ];
    let width = |(turn, words): &(String, String)| {
        last.len() + turn.chars().count() + words.chars().count()
    };
    let (turn, mut words) = candidates
        .iter()
        .find(|c| width(c) <= room)
        .unwrap_or(&candidates[3])
        .clone();
    let over = width(&(turn.clone(), words.clone())).saturating_sub(room);
    if over > 0 {
        let keep = words.chars().count().saturating_sub(over + 2);
        words = format!("{}..", words.chars().take(keep).collect::<String>());
    }
    let mut spans = Vec::new();
    if !last.is_empty() {
        spans.push(Span::styled(last, theme.warn()));
    }
    if !turn.is_empty() {
        spans.push(Span::styled(turn, theme.title()));
    }
    spans.push(Span::raw(words));
    let used: usize = spans.iter().map(|s| s.content.chars().count()).sum();
    spans.push(Span::raw(" ".repeat(room.saturating_sub(used))));
    spans.push(Span::styled(counts, theme.dim()));
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

/// A harbor card's rows at `width`: a person's ability wraps under the row
/// rather than being cut, because its complete text is what a player hires.
pub(super) fn card_rows(n: usize, card: CardId, width: usize, theme: Theme) -> Vec<Line<'static>> {
    match card.kind() {
        CardKind::Ship { .. } => vec![Line::from(vec![
            Span::raw(format!("{n:>2} ")),
            ship_span(card, theme),
        ])],
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
            let head = format!("{n:>2} {name:<12} {cost}$ {vp}VP  ");
            let style = match colour {
                Some(c) => theme.ship(c),
                None => theme.dim(),
            };
            let rows = hanging_wrap(
                &text::ability(kind, colour),
                width.saturating_sub(head.chars().count()),
                width.saturating_sub(ABILITY_INDENT.len()),
            );
            rows.into_iter()
                .enumerate()
                .map(|(i, row)| {
                    let lead = if i == 0 {
                        head.clone()
                    } else {
                        ABILITY_INDENT.to_owned()
                    };
                    Line::from(vec![Span::raw(lead), Span::styled(row, style)])
                })
                .collect()
        }
        _ => vec![Line::from(format!("{n:>2} {}", card_short(card)))],
    }
}

/// `line`'s first row marked as cut (".." at the end) so that it shows it
/// continues, within `width`.
fn cut_line(line: Line<'static>, width: usize) -> Line<'static> {
    let mut spans = line.spans;
    let used: usize = spans.iter().map(|s| s.content.chars().count()).sum();
    if let Some(last) = spans.last_mut() {
        let keep = last
            .content
            .chars()
            .count()
            .saturating_sub((used + 2).saturating_sub(width));
        let cut: String = last.content.chars().take(keep).collect();
        last.content = format!("{}..", cut.trim_end()).into();
    }
    Line::from(spans)
}

/// Where a person's ability continues on the rows under its card.
const ABILITY_INDENT: &str = "      ";

/// `text` word-wrapped to a first row of `first` characters and further rows
/// of `rest` (a word wider than its row is cut there rather than lost).
fn hanging_wrap(text: &str, first: usize, rest: usize) -> Vec<String> {
    let mut rows = vec![String::new()];
    let mut room = first.max(8);
    for word in text.split_whitespace() {
        let len = rows.last().map_or(0, |r| r.chars().count());
        if len > 0 && len + 1 + word.chars().count() > room {
            rows.push(String::new());
            room = rest.max(8);
        }
        if let Some(row) = rows.last_mut() {
            if !row.is_empty() {
                row.push(' ');
            }
            row.extend(word.chars().take(room));
        }
    }
    rows
}

/// The face-up contracts, each wrapped (or with `one_row_each`, for a board
/// too short, cut to a row marked ".."): title, the coins the next
/// completion pays, and the requirement in words. Where `width` is wide
/// enough it also says who completed it and every player's progress cube;
/// narrower, the player panel says both.
pub fn contract_lines(
    s: &Snapshot,
    x: &ExpansionView,
    width: usize,
    one_row_each: bool,
    theme: Theme,
) -> Vec<Line<'static>> {
    let names = s.names();
    let wide = width >= 70;
    let who = |seat| {
        if s.me == Some(seat) {
            "You".to_owned()
        } else {
            seat_name(&names, seat)
        }
    };
    let title = if wide {
        format!(
            "Contracts: the next to complete one gains its +$ ({} face down)",
            x.contract_pile
        )
    } else {
        "Contracts: the next to complete gains +$".to_owned()
    };
    let mut lines: Vec<Line<'static>> = wrap(&title, width.saturating_sub(1))
        .into_iter()
        .map(|row| Line::styled(format!(" {row}"), theme.title()))
        .collect();
    if x.contract_status.is_empty() {
        lines.push(Line::styled("   (being laid out)", theme.dim()));
    }
    for c in &x.contract_status {
        let mut text = contract_words(c);
        if wide {
            if !c.completed_by.is_empty() {
                let done: Vec<String> = c.completed_by.iter().map(|seat| who(seat.0)).collect();
                text.push_str(&format!("; done: {}", done.join(", ")));
            }
            let progress: Vec<String> = x
                .progress
                .iter()
                .enumerate()
                .filter_map(|(i, cubes)| {
                    let step = cubes.iter().find(|p| p.contract == c.name)?.step;
                    Some(format!("{} {step}/{}", who(Seat(i as u8)), c.steps))
                })
                .collect();
            if !progress.is_empty() {
                text.push_str(&format!("; {}", progress.join(", ")));
            }
        }
        let rows = wrap(&text, width.saturating_sub(3));
        if one_row_each && rows.len() > 1 {
            lines.push(cut_line(Line::from(format!("   {}", rows[0])), width));
        } else {
            lines.extend(rows.into_iter().map(|row| Line::from(format!("   {row}"))));
        }
    }
    lines
}

/// How much of its texts the harbor panel wraps rather than cuts to one row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Squeeze {
    /// Every text whole.
    None,
    /// Persons' abilities on one row each (the help's legend has every text).
    Abilities,
    /// Contracts on one row each too: every contract's title and reward
    /// stay in sight.
    Contracts,
}

/// The harbor's lines at `width`, squeezed as little as fits `rows`.
fn fitted_harbor(app: &App, s: &Snapshot, width: usize, rows: u16) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for squeeze in [Squeeze::None, Squeeze::Abilities, Squeeze::Contracts] {
        lines = harbor_lines(app, s, width, squeeze, app.theme);
        if lines.len() <= usize::from(rows) {
            break;
        }
    }
    lines
}

/// The harbor panel's lines at `width`: the cards, the expeditions and the
/// contracts, with texts cut to one row as `squeeze` says.
pub(super) fn harbor_lines(
    app: &App,
    s: &Snapshot,
    width: usize,
    squeeze: Squeeze,
    theme: Theme,
) -> Vec<Line<'static>> {
    let v = &s.view;
    let pointed = pointed_card(app, s);
    let mut lines = Vec::new();
    if v.harbor.is_empty() {
        lines.push(Line::styled("   (empty)", theme.dim()));
    }
    for (i, card) in v.harbor.iter().enumerate() {
        let mut rows = card_rows(i + 1, card.0, width.saturating_sub(2), theme);
        if squeeze >= Squeeze::Abilities && rows.len() > 1 {
            rows = vec![cut_line(rows.swap_remove(0), width.saturating_sub(2))];
        }
        if pointed == Some(i) {
            for row in &mut rows {
                *row = std::mem::take(row).style(theme.selected());
            }
            if let Some(first) = rows.first_mut() {
                first.push_span(Span::styled(" <", theme.selected()));
            }
        }
        lines.extend(rows);
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
        lines.extend(contract_lines(
            s,
            x,
            width,
            squeeze >= Squeeze::Contracts,
            theme,
        ));
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
        .block(open_bottom(panel(title, theme, compact), compact))
        .render(area, buf);
}

/// A two-column panel's frame without its bottom border: the panel under it
/// closes it, which gives the cramped column one more row.
fn open_bottom(block: Block<'static>, compact: bool) -> Block<'static> {
    if compact {
        block
    } else {
        block.borders(Borders::TOP | Borders::LEFT | Borders::RIGHT)
    }
}

/// A player's abilities summed in the legend's words: "3sw, trader Y Y,
/// 2 anchors, gov".
pub fn abilities(p: &PlayerView) -> String {
    text::player_abilities(p)
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
    // Progress cubes are the player's too: the contract lines of a narrow
    // board leave them out.
    for cube in x.progress.get(seat).into_iter().flatten() {
        if let Some(c) = x.contract_status.iter().find(|c| c.name == cube.contract) {
            parts.push(format!("{} {}/{}", c.title, cube.step, c.steps));
        }
    }
    parts.join(", ")
}

/// The players' lines: seat, name, coins and points, then (wrapped to
/// `width`, or in a cramped terminal on the same line) who plays the seat,
/// its abilities and its contracts.
pub(super) fn player_lines(
    s: &Snapshot,
    compact: bool,
    replay: bool,
    width: usize,
    theme: Theme,
) -> Vec<Line<'static>> {
    let v = &s.view;
    let mut lines = Vec::new();
    let name_w = s
        .seats
        .iter()
        .map(|x| x.name.chars().count())
        .max()
        .unwrap_or(4)
        // Up to 14 columns of a name where the row has room for them (the
        // marker, seat number, coins and points take 12): wider names would
        // push the ACTIVE tag to a row of its own at 80 columns.
        .min(if compact {
            12
        } else {
            width.saturating_sub(12).clamp(4, 14)
        });
    for (i, p) in v.players.iter().enumerate() {
        let seat = Seat(i as u8);
        let info = s.seats.get(i);
        // Before the start player is drawn, and after the end, no one is.
        let active = v.active.0 == seat && !matches!(v.phase, "setup" | "over");
        let taking = v.taker.is_some_and(|t| t.0 == seat);
        let marker = if active { '>' } else { ' ' };
        let name: String = seat_name(&s.names(), seat).chars().take(name_w).collect();
        let about = info.map(seat_presence).unwrap_or_default();
        let mut spans = vec![
            Span::raw(format!("{marker}")),
            Span::styled(format!("{} {name:<name_w$}", seat.number()), theme.seat(i)),
            Span::raw(format!(" {:>2}$ {:>2}VP", p.coins, p.vp)),
        ];
        let tag = match (active, taking) {
            (true, true) => "ACTIVE TAKING",
            (true, false) => "ACTIVE",
            (false, true) => "TAKING",
            _ => "",
        };
        let mut summary = abilities(p);
        if let Some(needed) = text::expedition_needed(v, p) {
            summary.push_str(&format!(", {needed}"));
        }
        // A replay's seats are names in a file: nobody is here or online.
        let mut details = if replay {
            summary
        } else {
            format!("{about}: {summary}")
        };
        let contracts = v.expansion.as_ref().map(|x| contract_details(p, x, i));
        if compact {
            if !tag.is_empty() {
                spans.push(Span::styled(format!(" {tag}"), theme.good()));
            }
            spans.push(Span::styled(format!(" {details}"), theme.dim()));
            if let Some(c) = contracts {
                spans.push(Span::styled(format!("; {c}"), theme.dim()));
            }
            lines.push(Line::from(spans));
            continue;
        }
        // The tag leads the next row when the first has no room for it.
        let head: usize = spans.iter().map(|s| s.content.chars().count()).sum();
        let mut lead = None;
        if !tag.is_empty() {
            if head + 1 + tag.len() <= width {
                spans.push(Span::styled(format!(" {tag}"), theme.good()));
            } else {
                lead = Some(tag);
            }
        }
        lines.push(Line::from(spans));
        if let Some(tag) = lead {
            details = format!("{tag}; {details}");
        }
        for (k, row) in wrap_list(&details, width.saturating_sub(3))
            .into_iter()
            .enumerate()
        {
            let mut row_spans = vec![Span::raw("   ")];
            match lead.filter(|tag| k == 0 && row.starts_with(tag)) {
                Some(tag) => {
                    row_spans.push(Span::styled(tag, theme.good()));
                    row_spans.push(Span::styled(row[tag.len()..].to_owned(), theme.dim()));
                }
                None => row_spans.push(Span::styled(row, theme.dim())),
            }
            lines.push(Line::from(row_spans));
        }
        for row in contracts
            .iter()
            .flat_map(|c| wrap_list(c, width.saturating_sub(3)))
        {
            lines.push(Line::styled(format!("   {row}"), theme.dim()));
        }
    }
    lines
}

pub(super) fn players_panel(
    s: &Snapshot,
    lines: Vec<Line<'static>>,
    area: Rect,
    buf: &mut Buffer,
    theme: Theme,
    compact: bool,
) {
    let title = format!("Players: {}", goal_words(&s.view));
    Paragraph::new(lines)
        .block(open_bottom(panel(title, theme, compact), compact))
        .render(area, buf);
}

pub(super) fn actions_panel(app: &App, s: &Snapshot, area: Rect, buf: &mut Buffer, compact: bool) {
    let theme = app.theme;
    let names = s.names();
    let width = usize::from(area.width.saturating_sub(if compact { 0 } else { 2 }));
    let mut lines = clock_lines(s, width, theme);
    let title;
    let mut more = None;
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
        let mut whole = 0;
        for (is_selected, wrapped) in &items[first..] {
            if used + wrapped.len() <= rows {
                whole += 1;
            }
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
        more = scroll_mark(first, items.len() - first - whole);
    }
    if let Some(notice) = &app.notice {
        lines.push(Line::styled(notice.clone(), theme.warn()));
    }
    let title_style = if s.legal.is_empty() {
        theme.title()
    } else {
        theme.good()
    };
    let mut frame = if compact {
        Block::new().borders(Borders::TOP)
    } else {
        Block::bordered()
    };
    frame = frame.title(Span::styled(format!(" {title} "), title_style));
    // Moves out of sight are said on the frame, which costs no row: the
    // bottom border, or the top one where a cramped panel has no other.
    if let Some(more) = more {
        let mark = Line::styled(format!(" {more} "), theme.warn()).right_aligned();
        frame = if compact {
            frame.title(mark)
        } else {
            frame.title_bottom(mark)
        };
    }
    Paragraph::new(lines).block(frame).render(area, buf);
}

/// What the move list says about moves out of sight: `above` the first
/// shown and `below` the last whole one.
fn scroll_mark(above: usize, below: usize) -> Option<String> {
    match (above, below) {
        (0, 0) => None,
        (0, b) => Some(format!("{b} more below, j/k")),
        (a, 0) => Some(format!("{a} more above, j/k")),
        (a, b) => Some(format!("{a} above, {b} below, j/k")),
    }
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
                let risk = roundtable_port_royal::odds::bust_chance(&s.view, me);
                words.push_str(&format!(" (bust risk {:.0}%)", risk * 100.0));
            }
            // Continuation rows line up under the words, past "> 12 ".
            let rows = wrap(&format!("{} {words}", i + 1), width.saturating_sub(6));
            (i == app.action_selected, rows)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_wraps_between_its_items_so_that_none_breaks_in_two() {
        let rows = wrap_list(
            "bot: 4sw, trader Y K B, 2 anchors, house, gov, 2 admirals",
            24,
        );
        assert_eq!(
            rows,
            [
                "bot: 4sw, trader Y K B,",
                "  2 anchors, house, gov,",
                "  2 admirals"
            ]
        );
        // An item wider than a row still shows every word.
        let rows = wrap_list("cubes 1, Maritime Supremacy Frigate Foe Jinx (1VP)", 16);
        let words: Vec<&str> = rows.iter().flat_map(|r| r.split_whitespace()).collect();
        assert_eq!(
            words.join(" "),
            "cubes 1, Maritime Supremacy Frigate Foe Jinx (1VP)"
        );
        assert!(rows.iter().all(|r| r.chars().count() <= 16), "{rows:?}");
    }

    #[test]
    fn an_ability_wraps_under_its_card_with_every_word() {
        let rows = hanging_wrap("+1$ on any bust; +1$ if the harbor is empty", 12, 30);
        assert_eq!(rows, ["+1$ on any", "bust; +1$ if the harbor is", "empty"]);
    }

    #[test]
    fn the_scroll_mark_counts_what_is_out_of_sight() {
        assert_eq!(scroll_mark(0, 0), None);
        assert_eq!(scroll_mark(0, 2).as_deref(), Some("2 more below, j/k"));
        assert_eq!(scroll_mark(3, 0).as_deref(), Some("3 more above, j/k"));
        assert_eq!(scroll_mark(1, 4).as_deref(), Some("1 above, 4 below, j/k"));
    }
}
