//! The front end's own state and its update function (the Elm
//! architecture's model and update). Rendering reads it ([`crate::ui`]);
//! only [`App::update`] and [`App::observe`] change it, and neither touches
//! the game: moves leave as [`Effect`]s for the runner to submit.

use std::path::PathBuf;

use roundtable_port_royal::{Action, VICTORY_POINTS};

use crate::keymap::{Context, Msg};
use crate::launch::{FoundTable, HostConfig};
use crate::local::{LocalConfig, Pace};
use crate::replay::{ReplayStatus, Seek};
use crate::session::Snapshot;
use crate::theme::Theme;

/// The screens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    /// The start menu.
    Menu,
    /// Setting up a local game.
    Setup,
    /// Setting up a table to host on the network.
    HostSetup,
    /// Typing (or pasting) a ticket to join a table.
    JoinPrompt,
    /// Typing (or pasting) a ticket to watch a table.
    WatchPrompt,
    /// The tables found on the LAN.
    Tables,
    /// A networked table gathering its seats.
    Lobby,
    /// At the table.
    Table,
    /// The whole move log.
    Log,
    /// After the game.
    PostGame,
    /// Typing the path of a transcript to replay.
    ReplayPrompt,
    /// Stepping through a transcript.
    Replay,
}

/// Something shown over the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overlay {
    /// The help screen, scrolled down this many lines.
    Help {
        /// Lines scrolled.
        scroll: u16,
    },
    /// "Quit the game in progress?"
    ConfirmQuit,
}

/// What the runner must do after an update.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Start a local game.
    Start(LocalConfig),
    /// Submit this seat's move.
    Submit(Action),
    /// Leave the finished game (or the replay) for the start menu.
    Leave,
    /// Quit the program.
    Quit,
    /// Open the transcript at this path and replay it.
    OpenReplay(PathBuf),
    /// Move through the replay.
    Seek(Seek),
    /// Open a table on the network.
    Host(HostConfig),
    /// Join the table this ticket names.
    Join(String),
    /// Watch the table this ticket names.
    Watch(String),
    /// Look for tables on the LAN (the screen already says it is looking).
    FindTables,
}

/// The start menu's entries.
pub const MENU: [&str; 7] = [
    "Local game against bots",
    "Host a table",
    "Join a table by ticket",
    "Tables on this LAN",
    "Watch a table",
    "Replay a transcript",
    "Quit",
];

/// The start-menu entry that hosts a table.
pub const MENU_HOST: usize = 1;
/// The start-menu entry that joins by ticket.
pub const MENU_JOIN: usize = 2;
/// The start-menu entry that lists the LAN's tables.
pub const MENU_LAN: usize = 3;
/// The start-menu entry that watches a table.
pub const MENU_WATCH: usize = 4;
/// The start-menu entry that replays a transcript.
pub const MENU_REPLAY: usize = 5;

/// Rows of the host set-up.
pub const HOST_ROWS: usize = 7;
/// The host set-up row that opens the table.
pub const HOST_START: usize = 6;

/// Rows of the local game set-up.
pub const SETUP_ROWS: usize = 7;
/// The set-up row that starts the game.
pub const SETUP_START: usize = 6;

/// Lines one page of the log scrolls.
const LOG_PAGE: usize = 5;

/// The victory points after one step left or right, kept in the range the
/// game accepts (the same range `play` and `host` check).
fn step_victory_points(victory_points: u32, delta: i64) -> u32 {
    let (lo, hi) = (*VICTORY_POINTS.start(), *VICTORY_POINTS.end());
    (i64::from(victory_points) + delta).clamp(i64::from(lo), i64::from(hi)) as u32
}

/// The front end's state.
#[derive(Clone, Debug, PartialEq)]
pub struct App {
    /// The screen shown.
    pub screen: Screen,
    /// What is shown over it.
    pub overlay: Option<Overlay>,
    /// The selected start-menu entry.
    pub menu_selected: usize,
    /// A one-line notice (an unavailable entry, a refused move).
    pub notice: Option<String>,
    /// The local game being set up.
    pub setup: LocalConfig,
    /// The selected set-up row.
    pub setup_selected: usize,
    /// The selected legal action.
    pub action_selected: usize,
    /// How far the log is scrolled back from its newest line (0 follows it).
    pub log_scroll: usize,
    /// Colours.
    pub theme: Theme,
    /// Whether there is a start menu to return to after a game.
    pub has_menu: bool,
    /// Where the replay shown stands, when one is.
    pub replay: Option<ReplayStatus>,
    /// The path typed at the replay prompt.
    pub prompt: String,
    /// The table being set up to host.
    pub host: HostConfig,
    /// The selected host set-up row.
    pub host_selected: usize,
    /// The ticket typed (or pasted) at the join or watch prompt.
    pub ticket: String,
    /// The LAN's tables: `None` while looking, else what was found or why
    /// looking failed.
    pub tables: Option<Result<Vec<FoundTable>, String>>,
    /// The selected LAN table.
    pub table_selected: usize,
    /// The legal actions the selection refers to.
    last_legal: Vec<Action>,
}

impl App {
    /// A front end that starts at the start menu.
    pub fn with_menu(setup: LocalConfig, theme: Theme) -> Self {
        App {
            screen: Screen::Menu,
            overlay: None,
            menu_selected: 0,
            notice: None,
            setup,
            setup_selected: 0,
            action_selected: 0,
            log_scroll: 0,
            theme,
            has_menu: true,
            replay: None,
            prompt: String::new(),
            host: HostConfig::default(),
            host_selected: 0,
            ticket: String::new(),
            tables: None,
            table_selected: 0,
            last_legal: Vec::new(),
        }
    }

    /// A front end that starts at a replay, with no start menu behind it.
    pub fn at_replay(theme: Theme, status: ReplayStatus) -> Self {
        let mut app = App {
            has_menu: false,
            ..App::with_menu(LocalConfig::default(), theme)
        };
        app.entered_replay(status);
        app
    }

    /// A front end that starts at the table of a game already under way.
    pub fn at_table(theme: Theme) -> Self {
        App {
            screen: Screen::Table,
            has_menu: false,
            ..App::with_menu(LocalConfig::default(), theme)
        }
    }

    /// Where keys are pressed now.
    pub fn context(&self) -> Context {
        match self.overlay {
            Some(Overlay::Help { .. }) => Context::Help,
            Some(Overlay::ConfirmQuit) => Context::ConfirmQuit,
            None => self.screen_context(),
        }
    }

    /// The screen's context, under any overlay (the help screen lists its
    /// keys first).
    pub fn screen_context(&self) -> Context {
        match self.screen {
            Screen::Menu => Context::Menu,
            Screen::Setup | Screen::HostSetup => Context::Setup,
            Screen::JoinPrompt | Screen::WatchPrompt => Context::Prompt,
            Screen::Tables => Context::Tables,
            Screen::Lobby => Context::Lobby,
            Screen::Table => Context::Table,
            Screen::Log => Context::Log,
            Screen::PostGame => Context::PostGame,
            Screen::ReplayPrompt => Context::Prompt,
            Screen::Replay => Context::Replay,
        }
    }

    /// Take in a new snapshot: keep the selection on the same move when the
    /// choices are the same, and show the result when the game ends.
    pub fn observe(&mut self, snap: &Snapshot) {
        if snap.legal != self.last_legal {
            self.action_selected = 0;
            self.last_legal = snap.legal.clone();
        }
        self.action_selected = self.action_selected.min(snap.legal.len().saturating_sub(1));
        // A networked table shows its lobby until the game begins.
        match (snap.lobby.is_some(), self.screen) {
            (true, Screen::Table) => self.screen = Screen::Lobby,
            (false, Screen::Lobby) => self.screen = Screen::Table,
            _ => {}
        }
        if !snap.live() && self.screen == Screen::Table {
            self.screen = Screen::PostGame;
            self.notice = None;
        }
    }

    /// The game started: show the table.
    pub fn entered_game(&mut self) {
        self.screen = Screen::Table;
        self.overlay = None;
        self.notice = None;
        self.action_selected = 0;
        self.log_scroll = 0;
        self.last_legal.clear();
    }

    /// A replay opened: show it.
    pub fn entered_replay(&mut self, status: ReplayStatus) {
        self.screen = Screen::Replay;
        self.overlay = None;
        self.notice = None;
        self.log_scroll = 0;
        self.replay = Some(status);
    }

    /// The game (or the replay) was left: back to the menu.
    pub fn left_game(&mut self) {
        self.screen = Screen::Menu;
        self.overlay = None;
        self.notice = None;
        self.replay = None;
    }

    /// Apply one message; `snap` is the game as last seen, if there is one.
    pub fn update(&mut self, msg: Msg, snap: Option<&Snapshot>) -> Option<Effect> {
        let live = snap.is_some_and(Snapshot::live);
        if msg == Msg::ForceQuit {
            return Some(Effect::Quit);
        }
        match self.overlay {
            Some(Overlay::ConfirmQuit) => {
                match msg {
                    Msg::Yes => return Some(Effect::Quit),
                    Msg::No | Msg::Back => self.overlay = None,
                    _ => {}
                }
                return None;
            }
            Some(Overlay::Help { scroll }) => {
                match msg {
                    Msg::Help | Msg::Back => self.overlay = None,
                    Msg::Quit => return self.quit(live),
                    Msg::Up => {
                        self.overlay = Some(Overlay::Help {
                            scroll: scroll.saturating_sub(1),
                        })
                    }
                    Msg::Down => {
                        self.overlay = Some(Overlay::Help {
                            scroll: scroll.saturating_add(1),
                        })
                    }
                    Msg::LogOlder => {
                        self.overlay = Some(Overlay::Help {
                            scroll: scroll.saturating_sub(10),
                        })
                    }
                    Msg::LogNewer => {
                        self.overlay = Some(Overlay::Help {
                            scroll: scroll.saturating_add(10),
                        })
                    }
                    Msg::Home => self.overlay = Some(Overlay::Help { scroll: 0 }),
                    Msg::End => self.overlay = Some(Overlay::Help { scroll: u16::MAX }),
                    _ => {}
                }
                return None;
            }
            None => {}
        }
        match msg {
            Msg::Help => {
                self.overlay = Some(Overlay::Help { scroll: 0 });
                return None;
            }
            Msg::Quit => {
                // A replay is never live: nothing is lost by quitting it.
                let playing =
                    self.replay.is_none() && matches!(self.screen, Screen::Table | Screen::Log);
                return self.quit(live && playing);
            }
            _ => {}
        }
        match self.screen {
            Screen::Menu => self.update_menu(msg),
            Screen::Setup => self.update_setup(msg),
            Screen::HostSetup => self.update_host(msg),
            Screen::JoinPrompt | Screen::WatchPrompt => self.update_ticket(msg),
            Screen::Tables => self.update_tables(msg),
            // Nothing to lose before the game begins: leaving needs no
            // confirmation.
            Screen::Lobby => match msg {
                Msg::Back if self.has_menu => Some(Effect::Leave),
                Msg::Back => Some(Effect::Quit),
                _ => None,
            },
            Screen::Table => self.update_table(msg, snap),
            Screen::Log => {
                self.update_log(msg, snap);
                None
            }
            Screen::PostGame => match msg {
                Msg::Confirm if self.has_menu => Some(Effect::Leave),
                Msg::Log => {
                    self.screen = Screen::Log;
                    None
                }
                Msg::Replay => match snap.and_then(|s| s.transcript.as_ref()) {
                    Some(path) => Some(Effect::OpenReplay(PathBuf::from(path))),
                    None => {
                        self.notice = Some("This game saved no transcript to replay.".into());
                        None
                    }
                },
                _ => None,
            },
            Screen::ReplayPrompt => self.update_prompt(msg),
            Screen::Replay => match msg {
                Msg::Seek(seek) => Some(Effect::Seek(seek)),
                Msg::Log => {
                    self.screen = Screen::Log;
                    None
                }
                Msg::Back if self.has_menu => Some(Effect::Leave),
                Msg::Back => Some(Effect::Quit),
                _ => None,
            },
        }
    }

    fn update_prompt(&mut self, msg: Msg) -> Option<Effect> {
        match msg {
            Msg::Type(c) => self.prompt.push(c),
            Msg::Erase => {
                self.prompt.pop();
            }
            Msg::Back => {
                self.screen = Screen::Menu;
                self.notice = None;
            }
            Msg::Confirm => {
                let path = self.prompt.trim();
                if path.is_empty() {
                    self.notice = Some("Type the path of a transcript file.".into());
                } else {
                    return Some(Effect::OpenReplay(PathBuf::from(path)));
                }
            }
            _ => {}
        }
        None
    }

    fn quit(&mut self, ask: bool) -> Option<Effect> {
        if ask {
            self.overlay = Some(Overlay::ConfirmQuit);
            None
        } else {
            Some(Effect::Quit)
        }
    }

    fn update_menu(&mut self, msg: Msg) -> Option<Effect> {
        let n = MENU.len();
        match msg {
            Msg::Up => self.menu_selected = (self.menu_selected + n - 1) % n,
            Msg::Down => self.menu_selected = (self.menu_selected + 1) % n,
            Msg::Pick(k) if usize::from(k) <= n => {
                self.menu_selected = usize::from(k) - 1;
                return self.activate_menu();
            }
            Msg::Confirm => return self.activate_menu(),
            _ => {}
        }
        None
    }

    fn activate_menu(&mut self) -> Option<Effect> {
        self.notice = None;
        match self.menu_selected {
            0 => {
                self.screen = Screen::Setup;
                None
            }
            MENU_HOST => {
                self.screen = Screen::HostSetup;
                None
            }
            MENU_JOIN => {
                self.screen = Screen::JoinPrompt;
                None
            }
            MENU_WATCH => {
                self.screen = Screen::WatchPrompt;
                None
            }
            MENU_LAN => self.find_tables(),
            MENU_REPLAY => {
                self.notice = None;
                self.screen = Screen::ReplayPrompt;
                // Start in the folder local games save their transcripts in.
                if let (true, Some(dir)) = (self.prompt.is_empty(), &self.setup.transcript_dir) {
                    self.prompt = format!("{}/", dir.display());
                }
                None
            }
            _ => Some(Effect::Quit),
        }
    }

    fn find_tables(&mut self) -> Option<Effect> {
        self.screen = Screen::Tables;
        self.tables = None;
        self.table_selected = 0;
        Some(Effect::FindTables)
    }

    /// The LAN search finished.
    pub fn found_tables(&mut self, found: Result<Vec<FoundTable>, String>) {
        self.table_selected = 0;
        self.tables = Some(found);
    }

    fn update_tables(&mut self, msg: Msg) -> Option<Effect> {
        let found = match &self.tables {
            Some(Ok(list)) => list.as_slice(),
            _ => &[],
        };
        match msg {
            Msg::Up => self.table_selected = self.table_selected.saturating_sub(1),
            Msg::Down => {
                self.table_selected = (self.table_selected + 1).min(found.len().saturating_sub(1))
            }
            Msg::Confirm => match found.get(self.table_selected) {
                Some(t) => return Some(Effect::Join(t.ticket.clone())),
                // Enter on an empty list looks again rather than do nothing.
                None if self.tables.is_some() => return self.find_tables(),
                None => {}
            },
            Msg::Refresh if self.tables.is_some() => return self.find_tables(),
            Msg::Back => {
                self.screen = Screen::Menu;
                self.notice = None;
            }
            _ => {}
        }
        None
    }

    fn update_ticket(&mut self, msg: Msg) -> Option<Effect> {
        match msg {
            // A pasted ticket may carry spaces or line breaks from where it
            // was copied; none belongs to a ticket.
            Msg::Type(c) if !c.is_whitespace() => {
                self.ticket.push(c);
                // "roundtable join rt1_..." pasted whole keeps the ticket.
                if let Some(at) = self.ticket.find("rt1_").filter(|at| *at > 0) {
                    self.ticket.drain(..at);
                }
            }
            Msg::Erase => {
                self.ticket.pop();
            }
            Msg::Back => {
                self.screen = Screen::Menu;
                self.notice = None;
            }
            Msg::Confirm => {
                let ticket = self.ticket.clone();
                if ticket.is_empty() {
                    self.notice = Some("Paste the ticket the host shows (rt1_...).".into());
                } else if self.screen == Screen::WatchPrompt {
                    return Some(Effect::Watch(ticket));
                } else {
                    return Some(Effect::Join(ticket));
                }
            }
            _ => {}
        }
        None
    }

    fn update_host(&mut self, msg: Msg) -> Option<Effect> {
        let h = &mut self.host;
        let step = |v: u8, d: i64, lo: i64, hi: i64| (i64::from(v) + d).clamp(lo, hi) as u8;
        let delta = match msg {
            Msg::Left => -1,
            Msg::Right => 1,
            _ => 0,
        };
        let o = &mut h.options;
        match msg {
            Msg::Up => self.host_selected = (self.host_selected + HOST_ROWS - 1) % HOST_ROWS,
            Msg::Down => self.host_selected = (self.host_selected + 1) % HOST_ROWS,
            Msg::Back => self.screen = Screen::Menu,
            Msg::Left | Msg::Right => match self.host_selected {
                0 => {
                    h.seats = step(h.seats, delta, 2, 5);
                    // The host keeps a seat for the person at the keyboard.
                    h.bots = h.bots.min(h.seats - 1);
                }
                1 => h.bots = step(h.bots, delta, 0, i64::from(h.seats) - 1),
                2 => o.victory_points = step_victory_points(o.victory_points, delta),
                3 => o.pass_automatically = !o.pass_automatically,
                4 => o.expedition_required = !o.expedition_required,
                5 => o.expansion = !o.expansion,
                _ => {}
            },
            Msg::Confirm => match self.host_selected {
                3 => o.pass_automatically = !o.pass_automatically,
                4 => o.expedition_required = !o.expedition_required,
                _ => {
                    self.notice = None;
                    return Some(Effect::Host(self.host.clone()));
                }
            },
            _ => {}
        }
        None
    }

    fn update_setup(&mut self, msg: Msg) -> Option<Effect> {
        let s = &mut self.setup;
        let step = |v: i64, d: i64, lo: i64, hi: i64| (v + d).clamp(lo, hi);
        let delta = match msg {
            Msg::Left => -1,
            Msg::Right => 1,
            _ => 0,
        };
        match msg {
            Msg::Up => self.setup_selected = (self.setup_selected + SETUP_ROWS - 1) % SETUP_ROWS,
            Msg::Down => self.setup_selected = (self.setup_selected + 1) % SETUP_ROWS,
            Msg::Back => self.screen = Screen::Menu,
            Msg::Left | Msg::Right => match self.setup_selected {
                0 => s.seats = step(i64::from(s.seats), delta, 2, 5) as u8,
                1 => {
                    s.options.victory_points = step_victory_points(s.options.victory_points, delta)
                }
                2 => s.options.pass_automatically = !s.options.pass_automatically,
                3 => s.options.expedition_required = !s.options.expedition_required,
                4 => {
                    let i = Pace::ALL.iter().position(|p| *p == s.pace).unwrap_or(2) as i64;
                    s.pace = Pace::ALL[step(i, delta, 0, Pace::ALL.len() as i64 - 1) as usize];
                }
                // A choice between two, like the pace, so Enter on it starts
                // the game as on every "< >" row.
                5 => s.options.expansion = !s.options.expansion,
                _ => {}
            },
            Msg::Confirm => match self.setup_selected {
                2 => s.options.pass_automatically = !s.options.pass_automatically,
                3 => s.options.expedition_required = !s.options.expedition_required,
                _ => return Some(Effect::Start(self.setup.clone())),
            },
            _ => {}
        }
        None
    }

    fn update_table(&mut self, msg: Msg, snap: Option<&Snapshot>) -> Option<Effect> {
        let legal = snap.map_or(&[][..], |s| s.legal.as_slice());
        match msg {
            Msg::Up => self.action_selected = self.action_selected.saturating_sub(1),
            Msg::Down => {
                self.action_selected = (self.action_selected + 1).min(legal.len().saturating_sub(1))
            }
            Msg::Pick(k) => match legal.get(usize::from(k).wrapping_sub(1)) {
                Some(&action) => {
                    self.action_selected = usize::from(k) - 1;
                    self.notice = None;
                    return Some(Effect::Submit(action));
                }
                None => {
                    self.notice = Some(if legal.is_empty() {
                        "It is not your move.".into()
                    } else {
                        format!("There is no move {k}: pick 1 to {}.", legal.len())
                    });
                }
            },
            Msg::Confirm => match legal.get(self.action_selected) {
                Some(&action) => {
                    self.notice = None;
                    return Some(Effect::Submit(action));
                }
                None => self.notice = Some("It is not your move.".into()),
            },
            Msg::LogOlder | Msg::LogNewer | Msg::End | Msg::Home => {
                self.scroll_log(msg, snap, LOG_PAGE)
            }
            Msg::Log => {
                self.screen = Screen::Log;
            }
            _ => {}
        }
        None
    }

    fn update_log(&mut self, msg: Msg, snap: Option<&Snapshot>) {
        match msg {
            Msg::Up => self.scroll_log(Msg::LogOlder, snap, 1),
            Msg::Down => self.scroll_log(Msg::LogNewer, snap, 1),
            Msg::LogOlder | Msg::LogNewer | Msg::Home | Msg::End => {
                self.scroll_log(msg, snap, LOG_PAGE * 3)
            }
            Msg::Back | Msg::Log => {
                self.screen = if self.replay.is_some() {
                    Screen::Replay
                } else if snap.is_some_and(Snapshot::live) {
                    Screen::Table
                } else {
                    Screen::PostGame
                };
            }
            _ => {}
        }
    }

    fn scroll_log(&mut self, msg: Msg, snap: Option<&Snapshot>, page: usize) {
        let max = snap.map_or(0, |s| s.log.len());
        self.log_scroll = match msg {
            Msg::LogOlder => (self.log_scroll + page).min(max),
            Msg::LogNewer => self.log_scroll.saturating_sub(page),
            Msg::Home => max,
            _ => 0,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both set-up screens stop at the ends of the range `play` and `host`
    /// accept, so the terminal UI never offers a game the CLI refuses.
    #[test]
    fn victory_points_stay_in_the_range_the_game_accepts() {
        let (lo, hi) = (*VICTORY_POINTS.start(), *VICTORY_POINTS.end());
        let mut app = App::with_menu(LocalConfig::default(), Theme::default());
        app.screen = Screen::Setup;
        app.setup_selected = 1;
        app.setup.options.victory_points = hi;
        app.update(Msg::Right, None);
        assert_eq!(app.setup.options.victory_points, hi);
        app.setup.options.victory_points = lo;
        app.update(Msg::Left, None);
        assert_eq!(app.setup.options.victory_points, lo);

        app.screen = Screen::HostSetup;
        app.host_selected = 2;
        app.host.options.victory_points = hi;
        app.update(Msg::Right, None);
        assert_eq!(app.host.options.victory_points, hi);
        app.host.options.victory_points = lo;
        app.update(Msg::Left, None);
        assert_eq!(app.host.options.victory_points, lo);
    }
}
