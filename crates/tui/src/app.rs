//! The front end's own state and its update function (the Elm
//! architecture's model and update). Rendering reads it ([`crate::ui`]);
//! only [`App::update`] and [`App::observe`] change it, and neither touches
//! the game: moves leave as [`Effect`]s for the runner to submit.

use std::path::PathBuf;

use roundtable_port_royal::Action;

use crate::keymap::{Context, Msg};
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
}

/// Why a start-menu entry is not available yet.
pub const NEEDS_TABLE: &str = "needs the network table";

/// The start menu: entry, and why it is unavailable (if it is).
pub const MENU: [(&str, Option<&str>); 7] = [
    ("Local game against bots", None),
    ("Host a table", Some(NEEDS_TABLE)),
    ("Join a table by ticket", Some(NEEDS_TABLE)),
    ("Tables on this LAN", Some(NEEDS_TABLE)),
    ("Watch a table", Some(NEEDS_TABLE)),
    ("Replay a transcript", None),
    ("Quit", None),
];

/// The start-menu entry that replays a transcript.
pub const MENU_REPLAY: usize = 5;

/// Rows of the local game set-up.
pub const SETUP_ROWS: usize = 7;
/// The set-up row that starts the game.
pub const SETUP_START: usize = 6;

/// Lines one page of the log scrolls.
const LOG_PAGE: usize = 5;

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
            Screen::Setup => Context::Setup,
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
        let (label, unavailable) = MENU[self.menu_selected.min(MENU.len() - 1)];
        match (self.menu_selected, unavailable) {
            (_, Some(why)) => {
                self.notice = Some(format!("{label}: {why}, which is not built yet."));
                None
            }
            (0, None) => {
                self.notice = None;
                self.screen = Screen::Setup;
                None
            }
            (MENU_REPLAY, None) => {
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
                    s.options.victory_points =
                        step(i64::from(s.options.victory_points), delta, 1, 60) as u32
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
