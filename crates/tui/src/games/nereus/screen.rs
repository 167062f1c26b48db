//! Waters of Nereus's table: the day and phase, every player's gold and VP,
//! the board as a grid, the crew rows with their markers, your cabin, the
//! moves in words, and the shared log panel.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use roundtable_engine::Seat;
use roundtable_games::nereus::action_words;
use roundtable_games::words::{seat_name, who};
use roundtable_nereus::data::{
    self, CHEST, HOLDS, Heading, HoldRule, Icon, STORAGE, Science, science_name,
};
use roundtable_nereus::{Action, Cell, Colour, Crew, Nereus, Owner, Phase, Piece, Space, Stage};

use crate::app::App;
use crate::games::Arrow;
use crate::session::Snapshot;
use crate::theme::Theme;
use crate::ui::side_log::board_and_log;

/// A board area at least this tall shows the crew rows and the cabin above
/// the moves; a shorter one puts the moves beside the grid.
const TALL_BOARD: u16 = 40;

/// A treasure colour's style; its letter carries the meaning without colour.
fn colour_style(theme: Theme, colour: Colour) -> Style {
    if !theme.colour {
        return Style::new();
    }
    Style::new().fg(match colour {
        Colour::White => Color::White,
        Colour::Yellow => Color::Yellow,
        Colour::Green => Color::Green,
        Colour::Red => Color::Red,
        Colour::Purple => Color::Magenta,
        // Bright black: readable on dark and light backgrounds.
        Colour::Black => Color::DarkGray,
    })
}

/// What the game waits for, in words.
fn phase_words(g: &Nereus, names: &[String], me: Option<Seat>) -> String {
    let day = format!("Day {} of {}", g.day.min(data::DAYS - 1) + 1, data::DAYS);
    let cycle = g.cycle.min(data::CYCLES - 1) + 1;
    let turn = g.turn.as_ref().map(|t| {
        let crew = t
            .crew
            .map_or_else(|| "no crew (row full)".to_owned(), |c| format!("the {c}"));
        let stage = match t.stage {
            Stage::Before => "",
            Stage::Crew => ", crew actions open",
            Stage::After => ", crew actions done",
        };
        let extra = if t.extra { " (extra turn)" } else { "" };
        format!(
            "{} turn{extra} with {crew}{stage}",
            if me == Some(t.seat) {
                "your".to_owned()
            } else {
                format!("{}'s", seat_name(names, t.seat))
            }
        )
    });
    match &g.phase {
        Phase::Setup => format!("{day}: setting up"),
        Phase::Choose => format!(
            "{day}, cycle {cycle} of {}: crews chosen in secret",
            data::CYCLES
        ),
        Phase::Turns(_) => format!(
            "{day}, cycle {cycle} of {}: {}",
            data::CYCLES,
            turn.unwrap_or_default()
        ),
        Phase::Explorer { .. } => format!(
            "{day}, explorers' extra turns: {}",
            turn.unwrap_or_else(|| "paying for an extra turn".into())
        ),
        Phase::Final(s) => format!(
            "Game end: {} playing game-end cards and selling",
            who(names, me, Seat(*s))
        ),
        Phase::Over => "The game is over".into(),
    }
}

/// Every player's line: VP, gold, science power and cards, completed
/// holds, the ship's space, and who holds the sun and hourglass.
fn player_lines(s: &Snapshot<Nereus>, theme: Theme) -> Vec<Line<'static>> {
    let g = &s.view.game;
    let names = s.names();
    (0..usize::from(g.seats))
        .map(|i| {
            let seat = Seat(i as u8);
            let name = seat_name(&names, seat);
            let you = if s.me == Some(seat) && name != "You" {
                " (you)"
            } else {
                ""
            };
            let mut marks = String::new();
            if g.sun == seat {
                marks.push_str(" sun");
            }
            if g.hourglass == seat {
                marks.push_str(" hourglass");
            }
            let holds = g.cabins[i].complete.count_ones();
            let ship = g.ships.get(i).map(ToString::to_string).unwrap_or_default();
            Line::from(vec![
                Span::styled(format!("{} {name}{you}", seat.number()), theme.seat(i)),
                Span::raw(format!(
                    ": {} VP {} gold {ship} P{} S{} H{holds}{marks}",
                    g.vp[i],
                    g.gold[i],
                    g.power[i],
                    g.science[i].len(),
                )),
            ])
        })
        .collect()
}

/// The ship on a cell as one character: the seat's number, `N` for the
/// neutral ship, else a blank.
fn ship_mark(g: &Nereus, cell: Cell) -> char {
    match g.ship_at(cell) {
        Some(Owner::Seat(seat)) => char::from(b'1' + seat.0),
        Some(Owner::Neutral) => 'N',
        None => ' ',
    }
}

/// Where the ship of the seat whose turn it is ends after `action`, if it
/// is a move.
pub fn destination(g: &Nereus, action: &Action) -> Option<Cell> {
    let Action::Move(path) = action else {
        return None;
    };
    let seat = g.turn.as_ref()?.seat;
    let mut at = *g.ships.get(seat.index())?;
    for dir in path {
        let (dr, dc) = dir.delta();
        at = Cell {
            row: at.row.checked_add_signed(dr)?,
            col: at.col.checked_add_signed(dc)?,
        };
    }
    Some(at)
}

/// The move an arrow key selects on the grid: from the selected move's
/// destination (keeping the ship still: its own cell), the nearest legal
/// destination that way (a step across counts twice a step along). Where
/// none lies that way, up and down go back to the list; left and right
/// stay on a move that sails, and from one that does not (keeping still,
/// or no move at all) go to the first that does, so a side arrow always
/// starts a choice on the grid, even from a ship on the board's edge.
pub fn arrow_pick(s: &Snapshot<Nereus>, selected: usize, arrow: Arrow) -> Option<usize> {
    let g = &s.view.game;
    let sails = |a: &Action| matches!(a, Action::Move(p) if !p.is_empty());
    let selected_sails = s.legal.get(selected).is_some_and(sails);
    let from = match s.legal.get(selected) {
        Some(a @ Action::Move(_)) => destination(g, a)?,
        _ => {
            return match arrow {
                Arrow::Left | Arrow::Right => s.legal.iter().position(sails),
                Arrow::Up | Arrow::Down => None,
            };
        }
    };
    let (row, col) = (i32::from(from.row), i32::from(from.col));
    let best = s
        .legal
        .iter()
        .enumerate()
        .filter(|(_, a)| sails(a))
        .filter_map(|(i, a)| {
            let to = destination(g, a)?;
            let (dr, dc) = (i32::from(to.row) - row, i32::from(to.col) - col);
            let (along, across) = match arrow {
                Arrow::Up => (-dr, dc),
                Arrow::Down => (dr, dc),
                Arrow::Left => (-dc, dr),
                Arrow::Right => (dc, dr),
            };
            (along > 0).then_some((along + 2 * across.abs(), i))
        })
        .min();
    match (best, arrow) {
        (Some((_, i)), _) => Some(i),
        (None, Arrow::Up | Arrow::Down) => None,
        (None, Arrow::Left | Arrow::Right) if selected_sails => Some(selected),
        (None, Arrow::Left | Arrow::Right) => s.legal.iter().position(sails),
    }
}

/// The board as a grid: a column letter and row number around it, in each
/// cell the ship (its seat's number, `N` the neutral ship) or the mark
/// `marks` give it (a legal destination), then the treasures' colour
/// letters.
fn board_lines(g: &Nereus, theme: Theme, marks: &[(Cell, char)]) -> Vec<Line<'static>> {
    let size = g.size;
    let mut head = String::from("   ");
    for col in 0..size {
        head.push_str(&format!("  {}  ", char::from(b'a' + col)));
    }
    let mut lines = vec![Line::styled(head, theme.dim())];
    for row in 0..size {
        let mut spans = vec![Span::styled(format!("{:>2} ", row + 1), theme.dim())];
        for col in 0..size {
            let cell = Cell { row, col };
            spans.push(Span::raw("|"));
            let marked = marks.iter().find(|(c, _)| *c == cell).map(|(_, m)| *m);
            let (ship, ship_style) = match (g.ship_at(cell), marked) {
                (Some(Owner::Seat(seat)), _) => (ship_mark(g, cell), theme.seat(seat.index())),
                (Some(Owner::Neutral), _) => ('N', Style::new()),
                (None, Some(mark)) => (mark, theme.selected()),
                (None, None) => (' ', Style::new()),
            };
            spans.push(Span::styled(ship.to_string(), ship_style));
            let counts = g.treasures_at(cell);
            let mut shown = 0;
            for c in Colour::ALL {
                for _ in 0..counts[c.index()] {
                    spans.push(Span::styled(c.letter().to_string(), colour_style(theme, c)));
                    shown += 1;
                }
            }
            spans.push(Span::raw(" ".repeat(3usize.saturating_sub(shown))));
        }
        spans.push(Span::raw("|"));
        lines.push(Line::from(spans));
    }
    lines
}

/// What the grid's letters and the players' lines mean.
fn legend_lines(theme: Theme, marked: bool) -> Vec<Line<'static>> {
    let mut lines = vec![
        Line::styled("w white  y yellow  g green", theme.dim()),
        Line::styled("r red  p purple  b black", theme.dim()),
        Line::styled("1-4 ships, N neutral ship", theme.dim()),
        Line::styled("P power, S science, H holds", theme.dim()),
    ];
    if marked {
        lines.push(Line::styled(
            "* the move chosen, + other moves",
            theme.dim(),
        ));
    }
    lines
}

/// An action space's effect in a few words ("move 2 diag").
fn space_words(space: Space) -> String {
    match space {
        Space::Move { max, heading } => {
            let way = match heading {
                Heading::Any => "",
                Heading::Diagonal => " diag",
                Heading::Orthogonal => " orth",
            };
            format!("move {max}{way}")
        }
        Space::Shift { vp, moves } => format!("{vp} VP, shift {moves}"),
        Space::Gold(n) => format!("{n} gold"),
        Space::Sell { pay, vp } => format!("{pay} gold: {vp} VP"),
        Space::Research {
            power,
            draw,
            either,
        } => {
            if either {
                format!("+{power} power or {draw} card")
            } else if draw == 0 {
                format!("+{power} power")
            } else {
                format!("+{power} power, {draw} card")
            }
        }
        Space::Pick(None) => "take any".into(),
        Space::Pick(Some([a, b])) => format!("take {} or {}", a.letter(), b.letter()),
    }
}

/// The crew rows: each space's effect and the marker on it (a seat's
/// number, `N` neutral, `.` free).
fn crew_lines(s: &Snapshot<Nereus>, theme: Theme) -> Vec<Line<'static>> {
    let g = &s.view.game;
    let mut lines = vec![Line::styled("Crew rows", theme.title())];
    for crew in Crew::ALL {
        let mut spans = vec![Span::raw(format!("{:<10}", crew.name()))];
        let markers = &g.markers[crew.index()];
        for (i, space) in data::spaces(crew, g.seats).into_iter().enumerate() {
            let (mark, style) = match markers.get(i).copied().flatten() {
                Some(Owner::Seat(seat)) => (
                    char::from(b'1' + seat.0).to_string(),
                    theme.seat(seat.index()),
                ),
                Some(Owner::Neutral) => ("N".to_owned(), Style::new()),
                None => (".".to_owned(), theme.dim()),
            };
            spans.push(Span::raw(" ["));
            spans.push(Span::styled(mark, style));
            spans.push(Span::raw(format!("] {}", space_words(space))));
        }
        if let Some(me) = s.me
            && g.played[me.index()] & (1 << crew.index()) != 0
        {
            spans.push(Span::styled("  (played today)", theme.dim()));
        }
        lines.push(Line::from(spans));
    }
    lines
}

/// An icon's colour letters ("b", "b/p", "any").
fn icon_words(icon: Icon) -> String {
    match icon {
        Icon::One(c) => c.letter().to_string(),
        Icon::Two(a, b) => format!("{}/{}", a.letter(), b.letter()),
        Icon::Any => "any".into(),
    }
}

/// A cabin piece as a letter (`*` a gem).
fn piece_mark(piece: Option<Piece>) -> String {
    match piece {
        None => ".".into(),
        Some(Piece::Gem) => "*".into(),
        Some(Piece::Treasure(c)) => c.letter().to_string(),
    }
}

/// Your cabin: every hold with what each space needs and holds, the chest,
/// the storage, gems, and your science power and hand.
fn cabin_lines(s: &Snapshot<Nereus>, theme: Theme) -> Vec<Line<'static>> {
    let Some(me) = s.me else {
        return Vec::new();
    };
    let g = &s.view.game;
    let Some(cabin) = g.cabins.get(me.index()) else {
        return Vec::new();
    };
    let mut lines = vec![Line::styled("Your cabin", theme.title())];
    for (crew, hold) in Crew::ALL.iter().zip(HOLDS.iter()) {
        let held = &cabin.holds[crew.index()];
        let spaces: Vec<String> = hold
            .icons
            .iter()
            .zip(held)
            .map(|(icon, piece)| format!("{}={}", icon_words(*icon), piece_mark(*piece)))
            .collect();
        let rule = match hold.rule {
            HoldRule::Icons => "",
            HoldRule::AllDifferent => ", all different",
            HoldRule::AllSame => ", all the same",
        };
        let state = if cabin.is_complete(*crew) {
            "complete".to_owned()
        } else {
            let missing = held.iter().filter(|p| p.is_none()).count();
            format!("needs {missing}")
        };
        lines.push(Line::from(format!(
            "  {:<10} {} ({} VP{rule}): {state}",
            crew.name(),
            spaces.join(" "),
            hold.vp
        )));
    }
    let chest: Vec<String> = Colour::ALL
        .iter()
        .map(|c| {
            let reward = CHEST[c.index()];
            let mut gives = Vec::new();
            if reward.gold > 0 {
                gives.push(format!("{}g", reward.gold));
            }
            if reward.vp > 0 {
                gives.push(format!("{}VP", reward.vp));
            }
            if reward.treasures > 0 {
                gives.push(format!("{}t", reward.treasures));
            }
            format!(
                "{}:{}={}",
                c.letter(),
                gives.join("+"),
                piece_mark(cabin.chest[c.index()])
            )
        })
        .collect();
    lines.push(Line::from(format!("  chest      {}", chest.join(" "))));
    let store: Vec<String> = STORAGE
        .iter()
        .zip(cabin.store.iter())
        .map(|(fits, held)| {
            format!(
                "{}{}={}",
                fits[0].letter(),
                fits[1].letter(),
                held.map_or_else(|| ".".to_owned(), |c| c.letter().to_string())
            )
        })
        .collect();
    lines.push(Line::from(format!(
        "  storage    {}  gems {}/{}",
        store.join(" "),
        cabin.gems,
        data::GEM_SPACES
    )));
    let hand: Vec<String> = s
        .view
        .my_science
        .iter()
        .map(|(_, card)| card.map_or_else(|| "?".to_owned(), science_words))
        .collect();
    lines.push(Line::from(format!(
        "  science    power {}/{}; hand: {}",
        g.power[me.index()],
        data::MAX_POWER,
        if hand.is_empty() {
            "none".to_owned()
        } else {
            hand.join(", ")
        }
    )));
    if let Some(turn) = g
        .turn
        .as_ref()
        .filter(|t| t.seat == me && !t.hand.is_empty())
    {
        lines.push(Line::from(format!(
            "  to place   {}",
            turn.hand
                .iter()
                .map(|c| c.letter().to_string())
                .collect::<Vec<_>>()
                .join(" ")
        )));
    }
    lines
}

/// A science card with what it does ("hop (3 gold: 1 space, pick up)").
fn science_words(card: u32) -> String {
    let what = match data::SCIENCE_DECK.get(card as usize) {
        Some(Science::DrawTwo) => "draw 2 treasures".to_owned(),
        Some(Science::PickAny) => "pick up 1 anywhere".to_owned(),
        Some(Science::Hop) => "3 gold: 1 space, pick up".to_owned(),
        Some(Science::InChest { colour, vp }) => {
            format!("end: {vp} VP for {} in chest", colour.letter())
        }
        Some(Science::InStorage { colour, vp }) => {
            format!("end: {vp} VP for {} in storage", colour.letter())
        }
        Some(Science::Holds { crews, vp }) => {
            let names: Vec<&str> = crews.iter().map(|c| c.name()).collect();
            format!("end: {vp} VP for {} holds", names.join("+"))
        }
        None => String::new(),
    };
    format!("{} ({what})", science_name(card))
}

/// The board's panel: phase, grid, players, and (`all`) crew rows and
/// cabin.
fn top_lines(s: &Snapshot<Nereus>, app: &App, all: bool) -> Vec<Line<'static>> {
    let theme = app.theme;
    let g = &s.view.game;
    let names = s.names();
    // The legal moves' destinations, the selected one apart.
    let mut marks: Vec<(Cell, char)> = Vec::new();
    let chosen = s
        .legal
        .get(app.action_selected)
        .and_then(|a| destination(g, a));
    for action in &s.legal {
        if let Some(to) = destination(g, action)
            && Some(to) != chosen
            && !marks.iter().any(|(c, _)| *c == to)
        {
            marks.push((to, '+'));
        }
    }
    if let Some(to) = chosen {
        marks.retain(|(c, _)| *c != to);
        marks.push((to, '*'));
    }
    let mut lines = vec![Line::styled(phase_words(g, &names, s.me), theme.title())];
    lines.extend(board_lines(g, theme, &marks));
    lines.extend(player_lines(s, theme));
    lines.extend(legend_lines(theme, !marks.is_empty()));
    if all {
        lines.extend(crew_lines(s, theme));
        lines.extend(cabin_lines(s, theme));
    }
    lines
}

/// The moves, numbered, in words.
fn move_lines(app: &App, s: &Snapshot<Nereus>) -> Vec<Line<'static>> {
    let theme = app.theme;
    if s.legal.is_empty() {
        let status = s
            .status
            .clone()
            .unwrap_or_else(|| "Waiting for the other players".into());
        return vec![Line::styled(status, theme.dim())];
    }
    s.legal
        .iter()
        .enumerate()
        .map(|(i, action)| {
            let mut words = match (action, destination(&s.view.game, action)) {
                (Action::Move(path), Some(to)) if !path.is_empty() => {
                    let steps: Vec<String> = path.iter().map(ToString::to_string).collect();
                    format!("sail to {to} ({})", steps.join(" "))
                }
                _ => action_words(action, true),
            };
            if let Some(first) = words.get_mut(0..1) {
                first.make_ascii_uppercase();
            }
            let text = format!("{:>2} {words}", i + 1);
            if i == app.action_selected {
                Line::styled(format!("> {text}"), theme.selected())
            } else {
                Line::from(format!("  {text}"))
            }
        })
        .collect()
}

/// Draw Waters of Nereus's table. A tall board area shows everything
/// above the moves; a short one puts the moves (or the replay's panel)
/// beside the grid and the players, and the crew rows and cabin under them
/// where there is room.
pub fn table(app: &App, s: &Snapshot<Nereus>, area: Rect, buf: &mut Buffer) {
    let (board, log) = board_and_log(area);
    let title = "Waters of Nereus".to_owned();
    let replay = crate::ui::replay_status(app);
    let mut lower = Vec::new();
    if replay.is_none() {
        lower = move_lines(app, s);
        if let Some(notice) = &app.notice {
            lower.push(Line::styled(notice.clone(), app.theme.warn()));
        }
    }
    let tall = board.height >= TALL_BOARD;
    let (top, bottom) = if tall {
        let rows = match replay {
            Some(r) => {
                let width = usize::from(board.width.saturating_sub(2));
                crate::ui::replay_lines(s, r, width, app.theme).len() as u16
                    + u16::from(app.notice.is_some())
            }
            None => lower.len() as u16,
        };
        let lower_h = (rows + 2).min(board.height / 2);
        let [top, bottom] =
            Layout::vertical([Constraint::Min(4), Constraint::Length(lower_h)]).areas(board);
        (top, bottom)
    } else {
        let grid = Constraint::Length(u16::from(s.view.game.size) * 5 + 6);
        let [top, bottom] = Layout::horizontal([grid, Constraint::Min(20)]).areas(board);
        (top, bottom)
    };
    Paragraph::new(top_lines(s, app, tall))
        .wrap(Wrap { trim: false })
        .block(crate::ui::widgets::block(title, app.theme))
        .render(top, buf);
    match replay {
        Some(r) => crate::ui::replay_panel(app, s, r, bottom, buf, false),
        None => {
            // Keep the selected move in sight in a short panel.
            let inner = bottom.height.saturating_sub(2) as usize;
            let skip = app.action_selected.saturating_sub(inner.saturating_sub(1));
            Paragraph::new(lower.into_iter().skip(skip).collect::<Vec<_>>())
                .block(crate::ui::widgets::block("Moves".to_owned(), app.theme))
                .render(bottom, buf);
        }
    }
    crate::ui::log::log_panel(app, s, log, buf, false);
}

/// The treasures of `view`'s board by cell, for tests: "b2 wy".
#[cfg(test)]
fn treasure_cells(view: &roundtable_nereus::View) -> Vec<String> {
    let g = &view.game;
    let mut out = Vec::new();
    for row in 0..g.size {
        for col in 0..g.size {
            let cell = Cell { row, col };
            let counts = g.treasures_at(cell);
            let letters: String = Colour::ALL
                .iter()
                .flat_map(|c| std::iter::repeat_n(c.letter(), usize::from(counts[c.index()])))
                .collect();
            if !letters.is_empty() {
                out.push(format!("{cell} {letters}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use roundtable_engine::{Game, Observer};

    #[test]
    fn the_grid_shows_every_treasure_by_its_letter() {
        let mut g = match Nereus::new_game(4, &Default::default()) {
            Ok(g) => g,
            Err(e) => panic!("{e}"),
        };
        g.board[7] = [1, 0, 0, 2, 0, 0];
        let view = g.view(Observer::Spectator);
        let lines = board_lines(&view.game, Theme::plain(), &[]);
        let text: Vec<String> = lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect();
        // Row 2, column b: a white and two reds.
        assert!(text[2].contains("| wrr|"), "{text:?}");
        assert!(treasure_cells(&view).contains(&"b2 wrr".to_owned()));
        // Seat 1's ship in the top-left corner.
        assert!(text[1].starts_with(" 1 |1"), "{text:?}");
    }
}
