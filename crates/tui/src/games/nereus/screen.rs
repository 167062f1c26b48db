//! Waters of Nereus's table: the day and phase, every player's gold and VP,
//! the board as a grid, the crew rows with their markers, your cabin, the
//! moves in words, and the shared log panel.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use roundtable_engine::{Game, Seat};
use roundtable_games::nereus::{action_words, effect_words, end_turn_words};
use roundtable_games::words::{seat_name, who};
use roundtable_nereus::data::{
    self, CHEST, HOLDS, Heading, HoldRule, Icon, STORAGE, Science, science_name,
};
use roundtable_nereus::{
    Action, Cell, Colour, Crew, Event, Half, Nereus, Owner, Phase, Piece, Slot, Space, Stage,
};

use crate::app::App;
use crate::games::Arrow;
use crate::session::Snapshot;
use crate::theme::Theme;
use crate::ui::seat_presence;
use crate::ui::side_log::board_and_log;
use crate::ui::widgets::wrap;

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
/// holds, the ship's space (`ship`; the grid shows it too), and who holds
/// the sun and hourglass. A line wraps rather than lose its end.
fn player_lines(
    s: &Snapshot<Nereus>,
    theme: Theme,
    ship: bool,
    replay: bool,
) -> Vec<Line<'static>> {
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
            // Who plays the seat (a remote one offline) and its clock; one's
            // own line has its name.
            let presence = match s
                .seats
                .get(seat.index())
                .filter(|_| !replay)
                .map(seat_presence)
                .unwrap_or_default()
            {
                p if p.is_empty() || s.me == Some(seat) && p == "you" => String::new(),
                p => format!(", {p}"),
            };
            let holds = g.cabins[i].complete.count_ones();
            let ship = if ship {
                g.ships.get(i).map(|c| format!("{c} ")).unwrap_or_default()
            } else {
                String::new()
            };
            Line::from(vec![
                Span::styled(format!("{} {name}{you}", seat.number()), theme.seat(i)),
                Span::raw(format!(
                    ": {} VP {} gold {ship}P{} S{} H{holds}{marks}{presence}",
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

/// An action space's effect in a sentence, for the option that puts the
/// marker there ("move the ship up to 2 spaces, diagonally").
fn space_sentence(space: Space) -> String {
    match space {
        Space::Move { max, heading } => {
            let way = match heading {
                Heading::Any => "",
                Heading::Diagonal => ", diagonally",
                Heading::Orthogonal => ", orthogonally",
            };
            let spaces = if max == 1 { "space" } else { "spaces" };
            format!("move the ship up to {max} {spaces}{way}")
        }
        Space::Shift { vp, moves } => {
            format!("{vp} VP and move up to {moves} treasures in the cabin")
        }
        Space::Gold(n) => format!("take {n} gold"),
        Space::Sell { pay, vp } => format!("pay {pay} gold for {vp} VP"),
        Space::Research {
            power,
            draw,
            either,
        } => match (either, power, draw) {
            (true, ..) => format!("+{power} science power or draw {draw} science card"),
            (false, 0, _) => format!("draw {draw} science card"),
            (false, _, 0) => format!("+{power} science power"),
            (false, ..) => format!("+{power} science power and draw {draw} science card"),
        },
        Space::Pick(None) => "take a treasure of any colour next to the ship".into(),
        Space::Pick(Some([a, b])) => format!(
            "take a {} or {} treasure next to the ship",
            a.name(),
            b.name()
        ),
    }
}

/// What a crew's gold or enhanced action does beyond the gold, VP and
/// power its option's price tells ("move 1 more treasure"), if anything.
fn crew_action_sentence(crew: Crew, action: &Action) -> Option<&'static str> {
    match (crew, action) {
        (Crew::Boatswain, Action::Gold(_)) => Some("move 1 more treasure"),
        (Crew::Boatswain, Action::Enhanced) => Some("draw 1 treasure from the bag"),
        (Crew::Purser, Action::Gold(_)) => Some("draw 1 treasure from the bag"),
        (Crew::Scientist, Action::Gold(Half::Draw) | Action::Basic(Half::Draw)) => {
            Some("draw 1 science card")
        }
        (Crew::Scientist, Action::Enhanced) => Some("draw 1 science card, then discard 1"),
        _ => None,
    }
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
        Space::Shift { vp, moves } => format!("{vp}VP shift {moves}"),
        Space::Gold(n) => format!("{n} gold"),
        Space::Sell { pay, vp } => format!("{pay} gold: {vp} VP"),
        Space::Research {
            power,
            draw,
            either,
        } => {
            if either {
                format!("+{power} power or {draw} card")
            } else if power == 0 {
                format!("{draw} card")
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
fn crew_lines(s: &Snapshot<Nereus>, theme: Theme, compact: bool) -> Vec<Line<'static>> {
    let g = &s.view.game;
    let mut lines = vec![Line::styled("Crew rows", theme.title())];
    for crew in Crew::ALL {
        let name = if compact {
            crew.name().to_owned()
        } else {
            format!("{:<10}", crew.name())
        };
        let mut spans = vec![Span::raw(name)];
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
            let gap = if compact { "" } else { " " };
            spans.push(Span::raw(format!("]{gap}{}", space_words(space))));
        }
        if let Some(me) = s.me
            && g.played[me.index()] & (1 << crew.index()) != 0
        {
            let played = if compact {
                " (played)"
            } else {
                "  (played today)"
            };
            spans.push(Span::styled(played, theme.dim()));
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

/// The seat whose cabin shows: one's own (seat 1's, watching), then as
/// many seats on as the cabin key was pressed.
pub fn cabin_seat(s: &Snapshot<Nereus>, app: &App) -> Seat {
    let seats = s.view.game.seats.max(1);
    let base = s.me.map_or(0, |m| m.0);
    Seat((base + app.cabin_offset % seats) % seats)
}

/// A seat's cabin: every hold with what each space needs and holds, the
/// chest, the storage, gems, and science power and cards (their names
/// only for one's own).
fn cabin_lines(
    s: &Snapshot<Nereus>,
    theme: Theme,
    seat: Seat,
    compact: bool,
) -> Vec<Line<'static>> {
    let g = &s.view.game;
    let Some(cabin) = g.cabins.get(seat.index()) else {
        return Vec::new();
    };
    let mine = s.me == Some(seat);
    let title = if mine {
        "Your cabin (c: the next one)".to_owned()
    } else {
        format!(
            "Cabin of {} {} (c: the next one)",
            seat.number(),
            seat_name(&s.names(), seat)
        )
    };
    let mut lines = vec![Line::styled(title, theme.title())];
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
            HoldRule::AllDifferent if compact => " ≠",
            HoldRule::AllSame if compact => " =",
            HoldRule::AllDifferent => ", all different",
            HoldRule::AllSame => ", all the same",
        };
        let complete = cabin.is_complete(*crew);
        let state = if complete {
            "complete".to_owned()
        } else {
            let missing = held.iter().filter(|p| p.is_none()).count();
            format!("needs {missing}")
        };
        lines.push(Line::from(if compact && complete {
            format!("{:<10}{:>2}VP complete", crew.name(), hold.vp)
        } else if compact {
            format!(
                "{:<10}{:>2}VP {}{rule}",
                crew.name(),
                hold.vp,
                spaces.join(" ")
            )
        } else {
            format!(
                "  {:<10} {} ({} VP{rule}): {state}",
                crew.name(),
                spaces.join(" "),
                hold.vp
            )
        }));
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
    if compact {
        let (first, rest) = chest.split_at(3);
        lines.push(Line::from(format!("chest     {}", first.join(" "))));
        lines.push(Line::from(format!("          {}", rest.join(" "))));
    } else {
        lines.push(Line::from(format!("  chest      {}", chest.join(" "))));
    }
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
    if compact {
        lines.push(Line::from(format!("storage   {}", store.join(" "))));
    } else {
        lines.push(Line::from(format!(
            "  storage    {}  gems {}/{}",
            store.join(" "),
            cabin.gems,
            data::GEM_SPACES
        )));
    }
    let hand = if mine {
        let named: Vec<String> = s
            .view
            .my_science
            .iter()
            .map(|(_, card)| card.map_or_else(|| "?".to_owned(), science_words))
            .collect();
        if named.is_empty() {
            "none".to_owned()
        } else {
            named.join(", ")
        }
    } else {
        let held = g.science.get(seat.index()).map_or(0, Vec::len);
        format!("{held} card{} (hidden)", if held == 1 { "" } else { "s" })
    };
    let power = g.power.get(seat.index()).copied().unwrap_or(0);
    if compact {
        lines.push(Line::from(format!(
            "gems {}/{}, science power {power}/{}",
            cabin.gems,
            data::GEM_SPACES,
            data::MAX_POWER
        )));
        lines.push(Line::from(format!("science   {hand}")));
    } else {
        lines.push(Line::from(format!(
            "  science    power {power}/{}; hand: {hand}",
            data::MAX_POWER,
        )));
    }
    if let Some(turn) = g
        .turn
        .as_ref()
        .filter(|t| t.seat == seat && !t.hand.is_empty())
    {
        lines.push(Line::from(format!(
            "{}to place   {}",
            if compact { "" } else { "  " },
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

/// The legal moves' destinations on the grid: `*` the selected one, `+`
/// the others.
fn move_marks(s: &Snapshot<Nereus>, app: &App) -> Vec<(Cell, char)> {
    let g = &s.view.game;
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
    marks
}

/// The board's panel where there is room for all of it: phase, grid,
/// players, legend, crew rows and a cabin.
fn tall_lines(s: &Snapshot<Nereus>, app: &App) -> Vec<Line<'static>> {
    let theme = app.theme;
    let g = &s.view.game;
    let marks = move_marks(s, app);
    let mut lines = vec![Line::styled(
        phase_words(g, &s.names(), s.me),
        theme.title(),
    )];
    lines.extend(board_lines(g, theme, &marks));
    lines.extend(player_lines(
        s,
        theme,
        true,
        crate::ui::replay_status(app).is_some(),
    ));
    lines.extend(legend_lines(theme, !marks.is_empty()));
    lines.extend(crew_lines(s, theme, false));
    lines.extend(cabin_lines(s, theme, cabin_seat(s, app), false));
    lines
}

/// What a short board shows at a time: the page key turns them in this
/// order, the cabin key goes to the cabin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Page {
    /// The grid and the players.
    Grid,
    /// The crew rows, what each space does, and the legend.
    Crews,
    /// A seat's cabin.
    Cabin,
}

/// The page `app` shows of a short board.
fn page(app: &App) -> Page {
    match app.board_page % crate::app::BOARD_PAGES {
        0 => Page::Grid,
        1 => Page::Crews,
        _ => Page::Cabin,
    }
}

/// A short board's page: its title and lines.
fn page_lines(s: &Snapshot<Nereus>, app: &App) -> (String, Vec<Line<'static>>) {
    let theme = app.theme;
    let g = &s.view.game;
    match page(app) {
        Page::Grid => {
            let mut lines = board_lines(g, theme, &move_marks(s, app));
            lines.extend(player_lines(
                s,
                theme,
                false,
                crate::ui::replay_status(app).is_some(),
            ));
            ("Board (v: crews, c: cabin)".to_owned(), lines)
        }
        Page::Crews => {
            let mut lines = crew_lines(s, theme, true);
            lines.remove(0);
            lines.extend(legend_lines(theme, false).into_iter().take(2));
            ("Crew rows (v: cabin)".to_owned(), lines)
        }
        Page::Cabin => {
            let mut lines = cabin_lines(s, theme, cabin_seat(s, app), true);
            let title = if lines.is_empty() {
                "Cabin".to_owned()
            } else {
                let head = lines.remove(0);
                let text: String = head.spans.iter().map(|x| x.content.as_ref()).collect();
                format!("{} (v: board)", text.trim_end_matches(" (c: the next one)"))
            };
            lines.push(Line::styled(
                "c: next cabin. x=. an empty space for x; ≠ all different, = all the same",
                theme.dim(),
            ));
            (title, lines)
        }
    }
}

/// What taking `action` would cost and give the deciding seat, found by
/// taking it on a copy (" (pays 2 gold, +5 VP)"), or "" when nothing.
/// Taken by the recorded path, whose events say it (the playout path,
/// `apply_legal_action`, records none), with the seat's own science card
/// opened as the action names it.
fn option_effect(g: &Nereus, action: &Action) -> String {
    let Some(seat) = g.decider() else {
        return String::new();
    };
    let mut probe = g.clone();
    let mut events = Vec::new();
    let own_cards = Nereus::claims(action);
    if probe
        .apply_action_revealing(seat, action, &own_cards, &mut events)
        .is_err()
    {
        return String::new();
    }
    events
        .iter()
        .find_map(|e| match e {
            Event::Acted(s, _, effect) if *s == seat => Some(effect_words(effect)),
            _ => None,
        })
        .unwrap_or_default()
}

/// An option's words: a move says where the ship ends and what it costs;
/// ending the turn says which treasures in hand it loses; every other one
/// what it costs and gives.
fn option_words(g: &Nereus, action: &Action) -> String {
    let mut words = match (action, destination(g, action)) {
        (Action::Move(path), Some(to)) if !path.is_empty() => {
            let steps: Vec<String> = path.iter().map(ToString::to_string).collect();
            let price = match g.move_price(path) {
                Some((0, 0)) | None => String::new(),
                Some((gold, 0)) => format!(", {gold} gold (gold action)"),
                Some((0, fees)) => format!(", {fees} gold to pass ships"),
                Some((gold, fees)) => format!(
                    ", {} gold ({gold} gold action, {fees} to pass ships)",
                    gold + fees
                ),
            };
            format!("sail to {to} ({}){price}", steps.join(" "))
        }
        (Action::End, _) => {
            let hand = g.turn.as_ref().map(|t| t.hand.clone()).unwrap_or_default();
            end_turn_words(&hand, true)
        }
        // The space's effect, so the choice needs no other page.
        (Action::Place(n), _) => {
            let space = g
                .turn
                .as_ref()
                .and_then(|t| t.crew)
                .and_then(|crew| data::spaces(crew, g.seats).get(usize::from(*n)).copied());
            match space {
                Some(space) => format!("{}: {}", action_words(action, true), space_sentence(space)),
                None => action_words(action, true),
            }
        }
        (Action::Sell(Slot::Store(i)), _) => {
            let colour = g.turn.as_ref().and_then(|t| {
                g.cabins
                    .get(t.seat.index())
                    .and_then(|c| c.store.get(usize::from(*i)).copied().flatten())
            });
            match colour {
                Some(c) => format!("sell the {} treasure on storage space {}", c.name(), i + 1),
                None => action_words(action, true),
            }
        }
        (Action::Basic(_) | Action::Gold(_) | Action::Enhanced, _) => {
            let crew = g.turn.as_ref().and_then(|t| t.crew);
            match crew.and_then(|c| crew_action_sentence(c, action)) {
                Some(does) => format!("{}: {does}", action_words(action, true)),
                None => action_words(action, true),
            }
        }
        _ => action_words(action, true),
    };
    if !matches!(action, Action::Move(_) | Action::Choose(_)) {
        words.push_str(&option_effect(g, action));
    }
    if let Some(first) = words.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    words
}

/// The moves, numbered, in words, each wrapped to `width` columns under
/// its number (never cut); with the rows the selected one takes.
fn move_lines(
    app: &App,
    s: &Snapshot<Nereus>,
    width: usize,
) -> (Vec<Line<'static>>, std::ops::Range<usize>) {
    let theme = app.theme;
    if s.legal.is_empty() {
        let status = s
            .status
            .clone()
            .unwrap_or_else(|| "Waiting for the other players".into());
        let rows: Vec<Line<'static>> = wrap(&status, width)
            .into_iter()
            .map(|r| Line::styled(r, theme.dim()))
            .collect();
        let n = rows.len();
        return (rows, n..n);
    }
    let mut rows = Vec::new();
    let mut selected = 0..0;
    for (i, action) in s.legal.iter().enumerate() {
        let words = option_words(&s.view.game, action);
        let chosen = i == app.action_selected;
        let start = rows.len();
        // "> 12 " before the first row, five spaces before the others.
        for (k, row) in wrap(&words, width.saturating_sub(5).max(8))
            .into_iter()
            .enumerate()
        {
            let text = match (k, chosen) {
                (0, true) => format!("> {:>2} {row}", i + 1),
                (0, false) => format!("  {:>2} {row}", i + 1),
                _ => format!("   {row}"),
            };
            rows.push(if chosen {
                Line::styled(text, theme.selected())
            } else {
                Line::from(text)
            });
        }
        if chosen {
            selected = start..rows.len();
        }
    }
    (rows, selected)
}

/// Draw Waters of Nereus's table. A tall board area shows everything
/// above the moves; a short one puts the moves (or the replay's panel)
/// beside one page of the board: the grid and the players, the crew rows,
/// or a cabin (the page and cabin keys turn them).
pub fn table(app: &App, s: &Snapshot<Nereus>, area: Rect, buf: &mut Buffer) {
    let (board, log) = board_and_log(area);
    let replay = crate::ui::replay_status(app);
    let tall = board.height >= TALL_BOARD;
    let g = &s.view.game;
    let (top, bottom) = if tall {
        let rows = match replay {
            Some(r) => {
                let width = usize::from(board.width.saturating_sub(2));
                crate::ui::replay_lines(s, r, width, app.theme).len() as u16
                    + u16::from(app.notice.is_some())
            }
            None => {
                let width = usize::from(board.width.saturating_sub(2));
                move_lines(app, s, width).0.len() as u16 + u16::from(app.notice.is_some())
            }
        };
        let lower_h = (rows + 2).min(board.height / 2);
        let [top, bottom] =
            Layout::vertical([Constraint::Min(4), Constraint::Length(lower_h)]).areas(board);
        (top, bottom)
    } else {
        // The grid's page is as wide as the grid; the crew rows and a
        // cabin take half the width, their lines being longer.
        let left = match page(app) {
            Page::Grid => Constraint::Length(u16::from(g.size) * 5 + 6),
            _ => Constraint::Percentage(50),
        };
        let [top, bottom] = Layout::horizontal([left, Constraint::Min(20)]).areas(board);
        (top, bottom)
    };
    let (title, lines) = if tall {
        ("Waters of Nereus".to_owned(), tall_lines(s, app))
    } else {
        page_lines(s, app)
    };
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(crate::ui::widgets::block(title, app.theme))
        .render(top, buf);
    match replay {
        Some(r) => crate::ui::replay_panel(app, s, r, bottom, buf, false),
        None => {
            let width = usize::from(bottom.width.saturating_sub(2));
            // A clock running low, this seat's or another's, heads the moves.
            let mut rows = crate::ui::clock_lines(s, width, app.theme);
            if !tall {
                // The phase line is the grid page's no longer: it heads the moves.
                rows.extend(
                    wrap(&phase_words(g, &s.names(), s.me), width)
                        .into_iter()
                        .map(|r| Line::styled(r, app.theme.title())),
                );
            }
            let head = rows.len();
            let (moves, selected) = move_lines(app, s, width);
            rows.extend(moves);
            if let Some(notice) = &app.notice {
                rows.extend(
                    wrap(notice, width)
                        .into_iter()
                        .map(|r| Line::styled(r, app.theme.warn())),
                );
            }
            // Keep the selected move in sight in a short panel.
            let inner = usize::from(bottom.height.saturating_sub(2));
            let skip = (head + selected.end).saturating_sub(inner);
            Paragraph::new(rows.into_iter().skip(skip).collect::<Vec<_>>())
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
    use roundtable_engine::Observer;

    /// An option says what it costs and gives, as the log will.
    #[test]
    fn options_say_what_they_cost_and_give() {
        let mut g = match Nereus::new_game(4, &Default::default()) {
            Ok(g) => g,
            Err(e) => panic!("{e}"),
        };
        g.jobs.clear();
        g.phase = Phase::Turns(0);
        let turn = |crew: Crew| {
            let mut turn = roundtable_nereus::Turn::new(Seat(0), Some(crew), false);
            turn.stage = Stage::Crew;
            turn.space = Some(0);
            turn
        };
        g.turn = Some(turn(Crew::Purser));
        let basic = roundtable_nereus::Action::Basic(roundtable_nereus::Half::Plain);
        assert_eq!(option_words(&g, &basic), "Take the basic action (+6 gold)");
        g.turn = Some(turn(Crew::Boatswain));
        let gold = roundtable_nereus::Action::Gold(roundtable_nereus::Half::Plain);
        assert_eq!(
            option_words(&g, &gold),
            "Take the gold action: move 1 more treasure (pays 1 gold)"
        );
        g.turn = Some(turn(Crew::Merchant));
        assert_eq!(
            option_words(&g, &basic),
            "Take the basic action (pays 2 gold, +5 VP)"
        );
        // Before the marker is placed, each space says what it does.
        let mut before = turn(Crew::Purser);
        before.stage = Stage::Before;
        before.space = None;
        g.turn = Some(before);
        assert_eq!(
            option_words(&g, &roundtable_nereus::Action::Place(1)),
            "Put the action marker on space 2: take 5 gold"
        );
    }

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
