//! Rendering: a pure function of the app's state and the session's snapshot.
//! Nothing here changes either; [`Ui`] draws one frame into a buffer.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use crate::app::{App, Overlay, Screen};
use crate::games::GameScreen;
use crate::keymap::{self, Context};
use crate::session::Snapshot;
use crate::theme::Theme;
use lobby::lobby;
use log::log_screen;
use menu::{host_setup, lan_tables, menu, name_prompt, replay_prompt, setup, ticket_prompt};
use overlay::{confirm_quit, help};
use results::post_game;
use widgets::body_and_hints;

mod clock;
mod lobby;
pub(crate) mod log;
mod menu;
mod overlay;
mod replay;
mod results;
pub(crate) mod seat_presence;
pub(crate) mod side_log;
pub(crate) mod widgets;

pub use clock::{MIN_WARNING, clock_warnings, warning_threshold};
pub(crate) use clock::{clock_lines, waiting_lines};
pub use log::log_screen_max_scroll;
pub use overlay::help_lines;
pub(crate) use replay::{replay_lines, replay_panel, replay_status};
pub use seat_presence::seat_presence;

/// The smallest terminal the screens are laid out for.
pub const MIN_SIZE: (u16, u16) = (40, 12);

/// One frame: the app's screen over the session's snapshot.
#[derive(Clone, Copy, Debug)]
pub struct Ui<'a, G: GameScreen> {
    /// The front end's state.
    pub app: &'a App,
    /// The game, when there is one.
    pub snap: Option<&'a Snapshot<G>>,
}

impl<G: GameScreen> Widget for Ui<'_, G> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        render(self.app, self.snap, area, buf);
    }
}

/// Draw the whole screen into `buf`.
pub fn render<G: GameScreen>(app: &App, snap: Option<&Snapshot<G>>, area: Rect, buf: &mut Buffer) {
    let theme = app.theme;
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        too_small(area, buf, theme);
        return;
    }
    let [body, hints] = body_and_hints(area);
    match (app.screen, snap) {
        (Screen::Menu, _) => menu(app, body, buf),
        (Screen::Setup, _) => setup(app, body, buf),
        (Screen::HostSetup, _) => host_setup(app, body, buf),
        (Screen::JoinPrompt | Screen::WatchPrompt, _) => ticket_prompt(app, body, buf),
        (Screen::Tables, _) => lan_tables(app, body, buf),
        (Screen::Lobby, Some(s)) => match &s.lobby {
            Some(l) => lobby(app, s, l, body, buf),
            None => G::table(app, s, body, buf),
        },
        (Screen::Table, Some(s)) => G::table(app, s, body, buf),
        (Screen::Log, Some(s)) => log_screen(app, s, body, buf),
        (Screen::PostGame, Some(s)) => post_game(app, s, body, buf),
        (Screen::Replay, Some(s)) => G::table(app, s, body, buf),
        (Screen::ReplayPrompt, _) => replay_prompt(app, body, buf),
        (Screen::NamePrompt, _) => name_prompt(app, body, buf),
        (_, None) => {
            Paragraph::new("Waiting for the game to start...").render(body, buf);
        }
    }
    hint_bar(app.context(), G::PAGED, hints, buf, theme);
    match app.overlay {
        Some(Overlay::Help { scroll }) => {
            help(scroll, app.screen_context(), &G::legend(), area, buf, theme)
        }
        Some(Overlay::ConfirmQuit) => confirm_quit(app, area, buf),
        None => {}
    }
}

pub(super) fn too_small(area: Rect, buf: &mut Buffer, theme: Theme) {
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
pub(super) fn hint_bar(ctx: Context, paged: bool, area: Rect, buf: &mut Buffer, theme: Theme) {
    let all: Vec<(&str, &str)> = keymap::hints(ctx, paged).collect();
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
