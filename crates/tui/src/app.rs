//! The front end's own state and its update function (the Elm
//! architecture's model and update). Rendering reads it ([`crate::ui`]);
//! only [`App::update`] and [`App::observe`] change it, and neither touches
//! the game: moves leave as [`Effect`]s for the runner to submit.
//!
//! One concern in one file (over a thousand lines with its tests): every
//! key of every screen changes this one state, and the screens' transitions
//! (menu to set-up to table to post-game and replay) are read best side by
//! side. What a set-up form holds is [`crate::setup`]'s; each game's own
//! option rows are the list's data ([`roundtable_games::setup`]), stepped
//! here like any other row.

use std::path::PathBuf;
use std::time::Duration;

use roundtable_games::{GameId, Level};

use crate::games::{Arrow, GameScreen};
use crate::keymap::{Context, Msg};
use crate::launch::{FoundTable, HostConfig};
use crate::prefs;
use crate::replay::{ReplayStatus, Seek};
use crate::saved::SavedGame;
use crate::session::Snapshot;
pub use crate::setup::SetupRow;
use crate::setup::{Change, LocalConfig, Pace};
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
    /// Choosing a saved game, or typing the path of a transcript, to replay.
    ReplayPrompt,
    /// Typing the name to play under.
    NamePrompt,
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

/// Where the game shown is played, which decides what quitting it means.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GameKind {
    /// In this process against bots: quitting ends it for good.
    Local,
    /// At a networked table: the others play on, and `roundtable resume`
    /// brings this peer back.
    #[default]
    Network,
}

/// What the runner must do after an update.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Start a local game.
    Start(LocalConfig),
    /// Submit this seat's move: the legal action at this place in the
    /// list of the snapshot the app last observed.
    Submit(usize),
    /// Leave the game (or the replay) for the start menu.
    Leave,
    /// Close the replay and show the results of the game it was opened from.
    CloseReplay,
    /// Remember this name (the app already plays under it).
    SaveName(String),
    /// List the saved games to replay.
    ListSaved,
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
pub const MENU: [&str; 8] = [
    "Local game against bots",
    "Host a table",
    "Join a table by ticket",
    "Tables on this LAN",
    "Watch a table",
    "Replay a transcript",
    "Your name:",
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
/// The start-menu entry that shows and changes the name played under.
pub const MENU_NAME: usize = 6;

/// The think times the local set-up offers a hard bot (the most it thinks
/// on one decision), shortest first.
pub const THINK_TIMES: [Duration; 6] = [
    Duration::from_millis(100),
    Duration::from_millis(250),
    Duration::from_millis(500),
    Duration::from_millis(1000),
    Duration::from_millis(2000),
    Duration::from_millis(5000),
];

/// Lines one page of the log scrolls.
const LOG_PAGE: usize = 5;

/// The pages of a paged board (Waters of Nereus where it is short: the
/// grid, the crew rows, a cabin).
pub const BOARD_PAGES: usize = 3;

/// The board page that shows a cabin (the grid is page 0, the crew rows
/// page 1): the cabin key turns to it.
pub const CABIN_PAGE: usize = 2;

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
    /// The selected choice of the step shown (for a game that lists its
    /// legal actions at once, the selected legal action).
    pub action_selected: usize,
    /// The answers picked so far for the move being chosen step by step
    /// ([`GameScreen::picks`]); Esc takes the last one back.
    pub choice: Vec<String>,
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
    /// The saved games the replay prompt offers, newest first.
    pub saved: Vec<SavedGame>,
    /// The saved game chosen at the replay prompt; `None` while the typed
    /// path is what Enter opens.
    pub saved_selected: Option<usize>,
    /// The name being typed at the name prompt.
    pub name_draft: String,
    /// The terminal's size at the last frame (columns, rows), when known:
    /// the log screen's scrolling stops where its oldest line shows.
    pub viewport: Option<(u16, u16)>,
    /// Where the game shown is played.
    pub kind: GameKind,
    /// Whether this peer watches the game shown rather than plays in it.
    pub spectator: bool,
    /// The page a paged board shows where it is short (Waters of Nereus:
    /// the grid, the crew rows, a cabin); the game takes it modulo its
    /// pages.
    pub board_page: usize,
    /// How many seats on from one's own (seat 1's, watching) the cabin
    /// shown belongs to.
    pub cabin_offset: u8,
    /// Whether the replay shown was opened from a game's results, which
    /// Esc then goes back to.
    replay_from_results: bool,
    /// The legal actions the selection refers to, in words (which tell any
    /// game's actions apart).
    last_legal: Vec<String>,
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
            choice: Vec::new(),
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
            saved: Vec::new(),
            saved_selected: None,
            name_draft: String::new(),
            viewport: None,
            kind: GameKind::default(),
            spectator: false,
            board_page: 0,
            cabin_offset: 0,
            replay_from_results: false,
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

    /// A front end that starts at the table of a network game already
    /// under way (the `host`, `join` and `watch` commands).
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
            Screen::Table if self.spectator => Context::Watch,
            Screen::Table => Context::Table,
            Screen::Log => Context::Log,
            Screen::PostGame => Context::PostGame,
            Screen::ReplayPrompt => Context::ReplayPrompt,
            Screen::NamePrompt => Context::Prompt,
            Screen::Replay => Context::Replay,
        }
    }

    /// Take in a new snapshot: keep the selection on the same move when the
    /// choices are the same, and show the result when the game ends.
    pub fn observe<G: GameScreen>(&mut self, snap: &Snapshot<G>) {
        let legal: Vec<String> = snap.legal.iter().map(ToString::to_string).collect();
        if legal != self.last_legal {
            self.action_selected = 0;
            self.choice.clear();
            self.last_legal = legal;
        }
        let options = crate::games::steps::step(snap, &self.choice).options.len();
        self.action_selected = self.action_selected.min(options.saturating_sub(1));
        self.spectator = snap.me.is_none();
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

    /// A game of `kind` started: show the table.
    pub fn entered_game(&mut self, kind: GameKind) {
        self.kind = kind;
        self.screen = Screen::Table;
        self.overlay = None;
        self.notice = None;
        self.action_selected = 0;
        self.choice.clear();
        self.log_scroll = 0;
        self.last_legal.clear();
    }

    /// A replay opened: show it.
    pub fn entered_replay(&mut self, status: ReplayStatus) {
        self.replay_from_results = self.screen == Screen::PostGame;
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
        self.replay_from_results = false;
        self.log_scroll = 0;
    }

    /// The replay opened from a game's results closed: back to them.
    pub fn left_replay(&mut self) {
        self.screen = Screen::PostGame;
        self.overlay = None;
        self.notice = None;
        self.replay = None;
        self.replay_from_results = false;
        self.log_scroll = 0;
    }

    /// The saved games were listed (newest first): the newest is chosen,
    /// so Enter replays the last game.
    pub fn listed_saved(&mut self, saved: Vec<SavedGame>) {
        self.saved_selected = (!saved.is_empty()).then_some(0);
        self.saved = saved;
    }

    /// Apply one message; `snap` is the game as last seen, if there is one.
    pub fn update<G: GameScreen>(
        &mut self,
        msg: Msg,
        snap: Option<&Snapshot<G>>,
    ) -> Option<Effect> {
        let live = snap.is_some_and(Snapshot::live);
        if msg == Msg::ForceQuit {
            return Some(Effect::Quit);
        }
        match self.overlay {
            Some(Overlay::ConfirmQuit) => {
                match msg {
                    // A game begun at the start menu is left for the menu,
                    // where q then quits.
                    Msg::Yes if self.has_menu => {
                        self.overlay = None;
                        return Some(Effect::Leave);
                    }
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
            Screen::NamePrompt => self.update_name(msg),
            Screen::Replay => match msg {
                Msg::Seek(seek) => Some(Effect::Seek(seek)),
                Msg::Page | Msg::Cabin => {
                    self.turn_page(msg);
                    None
                }
                Msg::Log => {
                    self.screen = Screen::Log;
                    None
                }
                Msg::Back if self.replay_from_results => Some(Effect::CloseReplay),
                Msg::Back if self.has_menu => Some(Effect::Leave),
                Msg::Back => Some(Effect::Quit),
                _ => None,
            },
        }
    }

    fn update_prompt(&mut self, msg: Msg) -> Option<Effect> {
        // Typing goes to the path field, and Enter then opens what is typed;
        // the arrows go to the list of saved games.
        match msg {
            Msg::Type(c) => {
                self.prompt.push(c);
                self.saved_selected = None;
            }
            Msg::Erase => {
                self.prompt.pop();
                self.saved_selected = None;
            }
            Msg::Clear => {
                self.prompt.clear();
                self.saved_selected = None;
            }
            Msg::Down if !self.saved.is_empty() => {
                self.saved_selected = Some(
                    self.saved_selected
                        .map_or(0, |i| (i + 1).min(self.saved.len() - 1)),
                );
            }
            // Up from the newest game goes back to the path field.
            Msg::Up => self.saved_selected = self.saved_selected.and_then(|i| i.checked_sub(1)),
            Msg::Back => {
                self.screen = Screen::Menu;
                self.notice = None;
            }
            Msg::Confirm => {
                if let Some(game) = self.saved_selected.and_then(|i| self.saved.get(i)) {
                    return Some(Effect::OpenReplay(game.path.clone()));
                }
                let path = self.prompt.trim();
                if !path.is_empty() {
                    return Some(Effect::OpenReplay(PathBuf::from(path)));
                }
                self.notice = Some(if self.saved.is_empty() {
                    "Type the path of a transcript file.".into()
                } else {
                    "Type the path of a transcript file, or choose a saved game with ↓.".into()
                });
            }
            _ => {}
        }
        None
    }

    fn update_name(&mut self, msg: Msg) -> Option<Effect> {
        match msg {
            Msg::Type(c) => {
                let mut longer = self.name_draft.clone();
                longer.push(c);
                // The box holds what may be kept, spaces too: a space past
                // the limit, though trimmed from the name, would still move
                // the cursor away from the text. A character that does not
                // fit is left out whole (the name is never cut inside one),
                // and the notice says so.
                if longer.len() > prefs::MAX_NAME_BYTES {
                    self.notice = Some(format!(
                        "{}; the rest is left out.",
                        prefs::NameError::TooLong.to_string().trim_end_matches('.')
                    ));
                } else {
                    self.name_draft = longer;
                }
            }
            Msg::Erase => {
                self.name_draft.pop();
                self.notice = None;
            }
            Msg::Clear => {
                self.name_draft.clear();
                self.notice = None;
            }
            Msg::Back => {
                self.screen = Screen::Menu;
                self.notice = None;
            }
            Msg::Confirm => match prefs::check_name(&self.name_draft) {
                Ok(name) => {
                    self.setup.name = name.clone();
                    self.screen = Screen::Menu;
                    self.notice = None;
                    return Some(Effect::SaveName(name));
                }
                Err(e) => self.notice = Some(e.to_string()),
            },
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
            // Every visit starts with an empty field: the last ticket is
            // of a table that has most likely gone.
            MENU_JOIN => {
                self.ticket.clear();
                self.screen = Screen::JoinPrompt;
                None
            }
            MENU_WATCH => {
                self.ticket.clear();
                self.screen = Screen::WatchPrompt;
                None
            }
            MENU_LAN => self.find_tables(),
            MENU_REPLAY => {
                self.screen = Screen::ReplayPrompt;
                self.prompt.clear();
                self.saved.clear();
                self.saved_selected = None;
                Some(Effect::ListSaved)
            }
            MENU_NAME => {
                self.name_draft = self.setup.name.clone();
                self.screen = Screen::NamePrompt;
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
            Msg::Clear => self.ticket.clear(),
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
        let row = self.host_selected;
        let rows = self.host_start() + 1;
        match msg {
            Msg::Up => self.host_selected = (row + rows - 1) % rows,
            Msg::Down => self.host_selected = (row + 1) % rows,
            Msg::Back => self.screen = Screen::Menu,
            Msg::Left => self.change_host_row(Change::Less),
            Msg::Right => self.change_host_row(Change::More),
            Msg::Confirm if row == self.host_start() => {
                self.notice = None;
                return Some(Effect::Host(self.host.clone()));
            }
            Msg::Confirm => self.change_host_row(Change::Cycle),
            _ => {}
        }
        None
    }

    fn change_host_row(&mut self, change: Change) {
        let Some(&row) = self.host_rows().get(self.host_selected) else {
            return;
        };
        let h = &mut self.host;
        match row {
            SetupRow::Bots => {
                h.bots = change.apply(h.bots.into(), 0, i64::from(h.table.seats) - 1) as u8;
            }
            SetupRow::BotLevel => {
                let at = Level::ALL
                    .iter()
                    .position(|l| *l == h.bot_level)
                    .unwrap_or(1) as i64;
                let last = Level::ALL.len() as i64 - 1;
                h.bot_level = Level::ALL[change.apply(at, 0, last) as usize];
            }
            _ => {
                change_table_row(&mut h.table, row, change);
                // The host keeps a seat for the person at the keyboard.
                h.bots = h.bots.min(h.table.seats.saturating_sub(1));
            }
        }
    }

    /// The rows of the host set-up, in order, for the game chosen: the
    /// local set-up's rows of the game and its options, with the bots
    /// that run here instead of the local bots and their pace.
    pub fn host_rows(&self) -> Vec<SetupRow> {
        let mut rows = vec![SetupRow::Game, SetupRow::Seats, SetupRow::Bots];
        rows.extend(option_rows(&self.host.table));
        rows.extend([SetupRow::BotLevel, SetupRow::Start]);
        rows
    }

    /// The host set-up's last row, which opens the table.
    pub fn host_start(&self) -> usize {
        self.host_rows().len() - 1
    }

    /// The bots of the local set-up: one per seat but yours.
    pub fn setup_bots(&self) -> usize {
        usize::from(self.setup.seats.saturating_sub(1)).min(self.setup.bot_levels.len())
    }

    /// The rows of the local set-up, in order, for the game chosen: its
    /// options, the bots' pace, a row per bot, their think time.
    pub fn setup_rows(&self) -> Vec<SetupRow> {
        let mut rows = vec![SetupRow::Game, SetupRow::Seats];
        rows.extend(option_rows(&self.setup));
        rows.push(SetupRow::Pace);
        rows.extend((0..self.setup_bots()).map(SetupRow::Bot));
        rows.extend([SetupRow::Think, SetupRow::Start]);
        rows
    }

    /// The local set-up's think-time row (after a row per bot).
    pub fn setup_think_row(&self) -> usize {
        self.setup_start() - 1
    }

    /// The local set-up's last row, which starts the game.
    pub fn setup_start(&self) -> usize {
        self.setup_rows().len() - 1
    }

    fn update_setup(&mut self, msg: Msg) -> Option<Effect> {
        let row = self.setup_selected;
        let rows = self.setup_start() + 1;
        match msg {
            Msg::Up => self.setup_selected = (row + rows - 1) % rows,
            Msg::Down => self.setup_selected = (row + 1) % rows,
            Msg::Back => self.screen = Screen::Menu,
            Msg::Left => self.change_setup_row(Change::Less),
            Msg::Right => self.change_setup_row(Change::More),
            Msg::Confirm if row == self.setup_start() => {
                return Some(Effect::Start(self.setup.clone()));
            }
            Msg::Confirm => self.change_setup_row(Change::Cycle),
            _ => {}
        }
        None
    }

    fn change_setup_row(&mut self, change: Change) {
        let Some(&row) = self.setup_rows().get(self.setup_selected) else {
            return;
        };
        change_table_row(&mut self.setup, row, change);
    }

    fn update_table<G: GameScreen>(
        &mut self,
        msg: Msg,
        snap: Option<&Snapshot<G>>,
    ) -> Option<Effect> {
        let options = snap.map_or_else(Vec::new, |s| {
            crate::games::steps::step(s, &self.choice).options
        });
        let arrow = match msg {
            Msg::Up => Some(Arrow::Up),
            Msg::Down => Some(Arrow::Down),
            Msg::Left => Some(Arrow::Left),
            Msg::Right => Some(Arrow::Right),
            _ => None,
        };
        // A game that chooses on its board takes the arrows first; it names
        // a legal action, which is selected where an option plays just it.
        if let (Some(s), Some(arrow)) = (snap, arrow) {
            let selected = options
                .get(self.action_selected)
                .and_then(|o| o.action)
                .unwrap_or(0);
            if let Some(legal) = G::arrow_pick(s, selected, arrow)
                && let Some(i) = options.iter().position(|o| o.action == Some(legal))
            {
                self.action_selected = i;
                return None;
            }
        }
        match msg {
            Msg::Up => self.action_selected = self.action_selected.saturating_sub(1),
            Msg::Down => {
                self.action_selected =
                    (self.action_selected + 1).min(options.len().saturating_sub(1))
            }
            Msg::Pick(k) => match usize::from(k).checked_sub(1).filter(|&i| i < options.len()) {
                Some(i) => {
                    self.action_selected = i;
                    return self.choose(&options[i]);
                }
                None => {
                    self.notice = Some(if options.is_empty() {
                        "It is not your move.".into()
                    } else {
                        format!("There is no move {k}: pick 1 to {}.", options.len())
                    });
                }
            },
            Msg::Confirm => match options.get(self.action_selected) {
                Some(option) => return self.choose(option),
                None => self.notice = Some("It is not your move.".into()),
            },
            // Back to the step before, with the choice taken back selected
            // again; with nothing picked yet, Esc has nothing to take back.
            Msg::Back => {
                if let Some(answer) = self.choice.pop() {
                    self.notice = None;
                    let before = snap.map_or_else(Vec::new, |s| {
                        crate::games::steps::step(s, &self.choice).options
                    });
                    self.action_selected =
                        before.iter().position(|o| o.answer == answer).unwrap_or(0);
                }
            }
            Msg::LogOlder | Msg::LogNewer | Msg::End | Msg::Home => {
                self.scroll_log(msg, snap, LOG_PAGE)
            }
            Msg::Log => {
                self.screen = Screen::Log;
            }
            // The side arrows that choose nothing on the board page it.
            Msg::Left => self.board_page = (self.board_page + BOARD_PAGES - 1) % BOARD_PAGES,
            Msg::Right | Msg::Page | Msg::Cabin => self.turn_page(msg),
            _ => {}
        }
        None
    }

    /// The next page of a paged board; or (`Msg::Cabin`) the cabin page,
    /// and from there the next seat's cabin.
    fn turn_page(&mut self, msg: Msg) {
        if msg == Msg::Cabin && self.board_page == CABIN_PAGE {
            self.cabin_offset = self.cabin_offset.wrapping_add(1);
        } else if msg == Msg::Cabin {
            self.board_page = CABIN_PAGE;
        } else {
            self.board_page = (self.board_page + 1) % BOARD_PAGES;
        }
    }

    /// Take `option` of the step shown: submit its action when it is the
    /// last pick, else go on to the next step.
    fn choose(&mut self, option: &crate::games::StepOption) -> Option<Effect> {
        self.notice = None;
        match option.action {
            Some(i) => {
                self.choice.clear();
                Some(Effect::Submit(i))
            }
            None => {
                self.choice.push(option.answer.clone());
                self.action_selected = 0;
                None
            }
        }
    }

    fn update_log<G: GameScreen>(&mut self, msg: Msg, snap: Option<&Snapshot<G>>) {
        match msg {
            Msg::Up => self.scroll_log(Msg::LogOlder, snap, 1),
            Msg::Down => self.scroll_log(Msg::LogNewer, snap, 1),
            Msg::LogOlder | Msg::LogNewer | Msg::Home | Msg::End => {
                self.scroll_log(msg, snap, LOG_PAGE * 3)
            }
            Msg::Back | Msg::Log => {
                // The side log follows the game again, whatever was browsed.
                self.log_scroll = 0;
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

    fn scroll_log<G: GameScreen>(&mut self, msg: Msg, snap: Option<&Snapshot<G>>, page: usize) {
        // The oldest row shows at the top at most, on the log screen and in
        // the table's side log alike: past that, a key back towards the
        // newest would seem to do nothing.
        let max = match (snap, self.viewport, self.screen) {
            (Some(s), Some((width, height)), Screen::Log) => {
                crate::ui::log::log_screen_max_scroll(s, width, height)
            }
            (Some(s), Some((width, height)), _) => G::side_log_max_scroll(self, s, width, height),
            (Some(s), None, _) => s.log.len(),
            (None, ..) => 0,
        };
        let from = self.log_scroll.min(max);
        self.log_scroll = match msg {
            Msg::LogOlder => (from + page).min(max),
            Msg::LogNewer => from.saturating_sub(page),
            Msg::Home => max,
            _ => 0,
        };
    }
}

/// The rows of a set-up over `s` that set its game's rule options, in
/// the game's order: those that belong at its seats.
fn option_rows(s: &LocalConfig) -> impl Iterator<Item = SetupRow> {
    s.game
        .option_rows()
        .into_iter()
        .enumerate()
        .filter(|(_, row)| row.shown_at(s.seats))
        .map(|(at, _)| SetupRow::Option(at))
}

/// Change `row` of a set-up over `s` (the local game, or the table to
/// host) as `change` says: the one place both set-ups change the game, its
/// seats and its options.
fn change_table_row(s: &mut LocalConfig, row: SetupRow, change: Change) {
    match row {
        SetupRow::Game => {
            let at = GameId::ALL.iter().position(|g| *g == s.game).unwrap_or(0);
            s.game = change.step(GameId::ALL, at);
            // Seats the new game is not played with become the
            // nearest it is.
            let seats = s.game.seats();
            s.seats = s.seats.clamp(*seats.start(), *seats.end());
        }
        SetupRow::Seats => {
            let seats = s.game.seats();
            s.seats = change.apply(
                s.seats.into(),
                (*seats.start()).into(),
                (*seats.end()).into(),
            ) as u8;
        }
        // The game's own options: only its own rows show.
        SetupRow::Option(at) => s.chosen.change(s.game, at, change),
        SetupRow::Pace => {
            let at = Pace::ALL.iter().position(|p| *p == s.pace).unwrap_or(2);
            s.pace = change.step(&Pace::ALL, at);
        }
        SetupRow::Bot(i) => {
            if let Some(level) = s.bot_levels.get_mut(i) {
                let at = Level::ALL.iter().position(|l| l == level).unwrap_or(1);
                *level = change.step(&Level::ALL, at);
            }
        }
        SetupRow::Think => {
            let at = THINK_TIMES
                .iter()
                .position(|t| *t >= s.think)
                .unwrap_or(THINK_TIMES.len() - 1);
            s.think = change.step(&THINK_TIMES, at);
        }
        // The host's own rows, and the rows that change nothing.
        SetupRow::Bots | SetupRow::BotLevel | SetupRow::Start => {}
    }
}

#[cfg(test)]
mod tests {
    use roundtable_port_royal::{Options, PortRoyal, VICTORY_POINTS};

    use super::*;

    /// Rows of Port Royal's local set-up before the bots' levels: the game,
    /// seats, its four options, the pace.
    const SETUP_FIXED_ROWS: usize = 7;

    /// The set-up row of Port Royal's option `key`.
    fn port_royal_row(key: &str) -> SetupRow {
        GameId::PortRoyal
            .option_rows()
            .iter()
            .position(|r| r.key == key)
            .map(SetupRow::Option)
            .unwrap_or_else(|| panic!("Port Royal has no option {key}"))
    }

    fn port_royal(config: &LocalConfig) -> Options {
        config.options::<PortRoyal>()
    }

    fn set_victory_points(config: &mut LocalConfig, victory_points: u32) {
        let options = Options {
            victory_points,
            ..port_royal(config)
        };
        config.chosen.set::<PortRoyal>(&options);
    }

    /// Both set-up screens stop at the ends of the range `play` and `host`
    /// accept, so the terminal UI never offers a game the CLI refuses.
    #[test]
    fn victory_points_stay_in_the_range_the_game_accepts() {
        let (lo, hi) = (*VICTORY_POINTS.start(), *VICTORY_POINTS.end());
        let mut app = App::with_menu(LocalConfig::default(), Theme::default());
        app.screen = Screen::Setup;
        app.setup_selected = setup_row(&app, port_royal_row("victory_points"));
        set_victory_points(&mut app.setup, hi);
        app.update(Msg::Right, None::<&Snapshot<PortRoyal>>);
        assert_eq!(port_royal(&app.setup).victory_points, hi);
        set_victory_points(&mut app.setup, lo);
        app.update(Msg::Left, None::<&Snapshot<PortRoyal>>);
        assert_eq!(port_royal(&app.setup).victory_points, lo);
        app.update(Msg::Right, None::<&Snapshot<PortRoyal>>);
        assert_eq!(port_royal(&app.setup).victory_points, lo + 1);

        app.screen = Screen::HostSetup;
        app.host_selected = host_row(&app, port_royal_row("victory_points"));
        set_victory_points(&mut app.host.table, hi);
        app.update(Msg::Right, None::<&Snapshot<PortRoyal>>);
        assert_eq!(port_royal(&app.host.table).victory_points, hi);
        set_victory_points(&mut app.host.table, lo);
        app.update(Msg::Left, None::<&Snapshot<PortRoyal>>);
        assert_eq!(port_royal(&app.host.table).victory_points, lo);
    }

    /// Where `row` is in the local set-up.
    fn setup_row(app: &App, row: SetupRow) -> usize {
        app.setup_rows()
            .iter()
            .position(|r| *r == row)
            .unwrap_or_else(|| panic!("no {row:?} row"))
    }

    /// Where `row` is in the host set-up.
    fn host_row(app: &App, row: SetupRow) -> usize {
        app.host_rows()
            .iter()
            .position(|r| *r == row)
            .unwrap_or_else(|| panic!("no {row:?} row"))
    }

    fn setup_app(screen: Screen) -> App {
        let mut app = App::with_menu(LocalConfig::default(), Theme::default());
        app.screen = screen;
        app
    }

    /// Enter on a setting changes that setting (a toggle, or the next value
    /// round and round); only Enter on the last row starts or opens.
    #[test]
    fn enter_on_a_set_up_row_changes_it_and_only_the_last_row_starts() {
        let mut app = setup_app(Screen::Setup);
        app.setup.seats = 4;
        app.setup_selected = 1;
        for seats in [5, 2, 3] {
            assert_eq!(app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>), None);
            assert_eq!(app.setup.seats, seats);
        }
        app.setup_selected = setup_row(&app, SetupRow::Pace);
        let pace = app.setup.pace;
        assert_eq!(app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>), None);
        assert_ne!(app.setup.pace, pace, "Enter cycles the pace");
        app.setup_selected = setup_row(&app, port_royal_row("expansion"));
        let expansion = port_royal(&app.setup).expansion;
        assert_eq!(
            app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>),
            None,
            "Expansion starts nothing"
        );
        assert_eq!(port_royal(&app.setup).expansion, !expansion);
        // A row per bot (3 seats: 2 bots), then the think time.
        assert_eq!(app.setup_start(), SETUP_FIXED_ROWS + 3);
        app.setup_selected = SETUP_FIXED_ROWS + 1;
        assert_eq!(app.update(Msg::Right, None::<&Snapshot<PortRoyal>>), None);
        assert_eq!(
            app.update(Msg::Right, None::<&Snapshot<PortRoyal>>),
            None,
            "hard is the last"
        );
        app.setup_selected = SETUP_FIXED_ROWS;
        assert_eq!(app.update(Msg::Left, None::<&Snapshot<PortRoyal>>), None);
        app.setup_selected = app.setup_think_row();
        assert_eq!(app.update(Msg::Left, None::<&Snapshot<PortRoyal>>), None);
        app.setup_selected = app.setup_start();
        match app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>) {
            Some(Effect::Start(config)) => {
                assert_eq!(config.bot_levels[..2], [Level::Easy, Level::Hard]);
                assert_eq!(config.think, Duration::from_millis(500));
            }
            other => panic!("{other:?}"),
        }

        let mut app = setup_app(Screen::HostSetup);
        app.host_selected = host_row(&app, port_royal_row("expansion"));
        let expansion = port_royal(&app.host.table).expansion;
        assert_eq!(app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>), None);
        assert_eq!(port_royal(&app.host.table).expansion, !expansion);
        app.host_selected = host_row(&app, SetupRow::Bots);
        app.host.table.seats = 3;
        app.host.bots = 2;
        assert_eq!(app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>), None);
        assert_eq!(app.host.bots, 0, "bots wrap round below the seats");
        app.host_selected = host_row(&app, port_royal_row("victory_points"));
        set_victory_points(&mut app.host.table, *VICTORY_POINTS.end());
        app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>);
        assert_eq!(
            port_royal(&app.host.table).victory_points,
            *VICTORY_POINTS.start()
        );
        app.host_selected = app.host_start();
        assert!(matches!(
            app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>),
            Some(Effect::Host(_))
        ));
    }

    /// Quitting a game begun at the start menu goes back to the menu; with
    /// no menu behind it, it quits.
    #[test]
    fn yes_to_quitting_a_game_from_the_menu_returns_to_the_menu() {
        let mut app = setup_app(Screen::Table);
        app.kind = GameKind::Local;
        app.overlay = Some(Overlay::ConfirmQuit);
        assert_eq!(
            app.update(Msg::Yes, None::<&Snapshot<PortRoyal>>),
            Some(Effect::Leave)
        );
        assert_eq!(app.overlay, None);
        let mut app = App::at_table(Theme::default());
        app.overlay = Some(Overlay::ConfirmQuit);
        assert_eq!(
            app.update(Msg::Yes, None::<&Snapshot<PortRoyal>>),
            Some(Effect::Quit)
        );
    }

    /// A ticket typed for one table is gone the next time the prompt opens.
    #[test]
    fn the_ticket_fields_start_empty_each_time() {
        let mut app = setup_app(Screen::Menu);
        for entry in [MENU_JOIN, MENU_WATCH] {
            app.update(Msg::Pick(entry as u8 + 1), None::<&Snapshot<PortRoyal>>);
            for c in "rt1_abc".chars() {
                app.update(Msg::Type(c), None::<&Snapshot<PortRoyal>>);
            }
            assert_eq!(app.ticket, "rt1_abc");
            app.update(Msg::Back, None::<&Snapshot<PortRoyal>>);
            app.update(Msg::Pick(entry as u8 + 1), None::<&Snapshot<PortRoyal>>);
            assert_eq!(app.ticket, "", "{entry}");
            for c in "rt1_x".chars() {
                app.update(Msg::Type(c), None::<&Snapshot<PortRoyal>>);
            }
            app.update(Msg::Clear, None::<&Snapshot<PortRoyal>>);
            assert_eq!(app.ticket, "", "Ctrl-U clears");
            app.update(Msg::Back, None::<&Snapshot<PortRoyal>>);
        }
    }

    fn saved(name: &str) -> SavedGame {
        SavedGame {
            path: PathBuf::from(name),
            modified: None,
            game: None,
            players: Vec::new(),
            network: false,
        }
    }

    /// The replay prompt lists the saved games, Enter opens the chosen one
    /// (the newest at first), and typing a path opens the path instead.
    #[test]
    fn the_replay_prompt_offers_the_saved_games_and_still_takes_a_path() {
        let mut app = setup_app(Screen::Menu);
        app.prompt = "left/over".into();
        assert_eq!(
            app.update(
                Msg::Pick(MENU_REPLAY as u8 + 1),
                None::<&Snapshot<PortRoyal>>
            ),
            Some(Effect::ListSaved)
        );
        assert_eq!(app.screen, Screen::ReplayPrompt);
        assert_eq!(app.prompt, "", "the field starts empty");
        app.listed_saved(vec![saved("new.rts"), saved("old.rts")]);
        assert_eq!(
            app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>),
            Some(Effect::OpenReplay("new.rts".into()))
        );
        app.update(Msg::Down, None::<&Snapshot<PortRoyal>>);
        app.update(Msg::Down, None::<&Snapshot<PortRoyal>>);
        assert_eq!(
            app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>),
            Some(Effect::OpenReplay("old.rts".into()))
        );
        for c in "x.rts".chars() {
            app.update(Msg::Type(c), None::<&Snapshot<PortRoyal>>);
        }
        assert_eq!(app.saved_selected, None, "typing goes to the field");
        assert_eq!(
            app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>),
            Some(Effect::OpenReplay("x.rts".into()))
        );
        app.update(Msg::Clear, None::<&Snapshot<PortRoyal>>);
        assert_eq!(app.prompt, "");
        assert_eq!(app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>), None);
        assert!(app.notice.is_some());
        app.update(Msg::Down, None::<&Snapshot<PortRoyal>>);
        app.update(Msg::Up, None::<&Snapshot<PortRoyal>>);
        assert_eq!(app.saved_selected, None, "up from the newest is the field");
    }

    /// The name typed in the start menu is played under and remembered; a
    /// name a table would refuse is said, not taken.
    #[test]
    fn the_name_entry_changes_the_name_played_under() {
        let mut app = setup_app(Screen::Menu);
        app.setup.name = "ann".into();
        app.update(Msg::Pick(MENU_NAME as u8 + 1), None::<&Snapshot<PortRoyal>>);
        assert_eq!(app.screen, Screen::NamePrompt);
        assert_eq!(app.name_draft, "ann");
        app.update(Msg::Clear, None::<&Snapshot<PortRoyal>>);
        assert_eq!(app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>), None);
        assert_eq!(app.screen, Screen::NamePrompt, "an empty name is refused");
        for c in "Mary Read".chars() {
            app.update(Msg::Type(c), None::<&Snapshot<PortRoyal>>);
        }
        for _ in 0..40 {
            app.update(Msg::Type('x'), None::<&Snapshot<PortRoyal>>);
        }
        assert_eq!(app.name_draft.len(), crate::prefs::MAX_NAME_BYTES);
        while app.name_draft.len() > "Mary Read".len() {
            app.update(Msg::Erase, None::<&Snapshot<PortRoyal>>);
        }
        assert_eq!(
            app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>),
            Some(Effect::SaveName("Mary Read".into()))
        );
        assert_eq!(app.screen, Screen::Menu);
        assert_eq!(app.setup.name, "Mary Read");
        app.setup_selected = app.setup_start();
        app.screen = Screen::Setup;
        match app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>) {
            Some(Effect::Start(config)) => assert_eq!(config.name, "Mary Read"),
            other => panic!("{other:?}"),
        }
    }
}
