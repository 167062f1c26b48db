//! The terminal: raw mode and the alternate screen (restored on exit and on
//! panic), and the loop that turns keys into messages, lets the session make
//! progress and redraws when something changed.

use std::any::Any;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crossterm::event::{self, Event as TermEvent, KeyEventKind};
use ratatui::Terminal;
use ratatui::backend::Backend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;
use roundtable_engine::GameResult;

use crate::app::{App, Effect, GameKind};
use crate::games::{GameScreen, VisitScreen};
use crate::keymap::{self, Msg};
use crate::launch::{FoundTable, HostConfig};
use crate::local::{LocalConfig, LocalSession};
use crate::prefs;
use crate::replay::{Replay, ReplayError, ReplayStatus, Seek};
use crate::session::{Session, Snapshot};
use crate::theme::Theme;
use crate::ui::Ui;

/// How the front end was left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The player quit; the last game's result, if it ended.
    Quit(Option<GameResult>),
}

/// The longest the loop sleeps without input: often enough to notice a
/// session that made progress on its own (a peer's message).
const IDLE: Duration = Duration::from_millis(250);

/// Play `session` in the terminal, starting at the table; returns when the
/// player quits.
pub fn run<G: GameScreen>(session: impl Session<G> + 'static) -> anyhow::Result<Outcome> {
    let runner = Runner::new(App::at_table(Theme::from_env())).with_session(Box::new(session));
    with_terminal(|t| runner.run(t))
}

/// Start at the start menu, where local games are set up from `defaults`;
/// returns when the player quits.
pub fn run_menu(defaults: LocalConfig) -> anyhow::Result<Outcome> {
    let app = App::with_menu(defaults, Theme::from_env());
    with_terminal(|t| Runner::new(app).run(t))
}

/// [`run_menu`] with the network entries carried out by `launcher`, and
/// the name played under remembered in the preferences file `prefs_file`
/// (read now, written when the name changes).
pub fn run_menu_with(
    defaults: LocalConfig,
    launcher: Box<dyn Launcher>,
    prefs_file: Option<PathBuf>,
) -> anyhow::Result<Outcome> {
    let app = App::with_menu(defaults, Theme::from_env());
    let mut runner = Runner::new(app).with_launcher(launcher);
    if let Some(path) = prefs_file {
        runner = runner.with_prefs_file(path);
    }
    with_terminal(|t| runner.run(t))
}

/// Step through `replay`, of any listed game, in the terminal; returns
/// when the player quits.
pub fn run_replay<G: GameScreen>(replay: Replay<G>) -> anyhow::Result<Outcome> {
    with_terminal(|t| Runner::replaying(Theme::from_env(), replay).run(t))
}

/// The transcript at `path`, of whichever game its genesis names, ready to
/// step through.
fn open_replay(path: &std::path::Path) -> Result<Box<dyn Stepping>, ReplayError> {
    let (read, game) = crate::replay::read(path)?;
    crate::games::visit(
        game,
        OpenReplay {
            read: &read,
            file: path.display().to_string(),
        },
    )
}

fn with_terminal<T>(
    body: impl FnOnce(&mut ratatui::DefaultTerminal) -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    // try_init enters raw mode and the alternate screen and installs a panic
    // hook that restores the terminal before the panic message is printed.
    let mut terminal = ratatui::try_init()?;
    // A pasted ticket then arrives as one event, line breaks and all,
    // rather than as keys (a pasted newline would press Enter).
    let _ = crossterm::execute!(std::io::stdout(), crossterm::event::EnableBracketedPaste);
    let result = body(&mut terminal);
    let _ = crossterm::execute!(std::io::stdout(), crossterm::event::DisableBracketedPaste);
    let restored = ratatui::try_restore();
    let value = result?;
    restored?;
    Ok(value)
}

/// A game under way, whichever game of the list it is: its session and
/// the snapshot last taken of it. The runner holds it behind this trait,
/// so the start menu can start any game ([`crate::games::visit`]) and everything
/// that needs the game's type (updating the app, drawing) happens inside.
trait Playing {
    /// Let the app handle `msg` over this game's snapshot.
    fn update(&self, app: &mut App, msg: Msg) -> Option<Effect>;
    /// Submit the legal action at `index` of the snapshot; `Ok(false)` when
    /// there is none there.
    fn submit(&mut self, index: usize) -> Result<bool, String>;
    /// Take a new snapshot and let the app observe it.
    fn refresh(&mut self, app: &mut App);
    /// Let the session make progress; `true` when it did.
    fn poll(&mut self, now: Instant) -> bool;
    /// When the session wants to be polled next, if it does.
    fn next_wakeup(&self) -> Option<Instant>;
    /// Draw the app's screen over this game.
    fn render(&self, app: &App, area: Rect, buf: &mut Buffer);
    /// How the game ended, if it has.
    fn result(&self) -> Option<GameResult>;
    /// Itself, for a caller that knows the game's type.
    fn as_any(&self) -> &dyn Any;
}

/// A session of game `G` and its last snapshot.
struct Table<G: GameScreen> {
    session: Box<dyn Session<G>>,
    snap: Snapshot<G>,
}

impl<G: GameScreen> Table<G> {
    /// At `session`, observed by `app`.
    fn new(session: Box<dyn Session<G>>, app: &mut App) -> Self {
        let snap = session.snapshot();
        app.observe(&snap);
        Table { session, snap }
    }
}

impl<G: GameScreen> Playing for Table<G> {
    fn update(&self, app: &mut App, msg: Msg) -> Option<Effect> {
        app.update(msg, Some(&self.snap))
    }

    fn submit(&mut self, index: usize) -> Result<bool, String> {
        let Some(action) = self.snap.legal.get(index).cloned() else {
            return Ok(false);
        };
        self.session.submit(action).map(|()| true)
    }

    fn refresh(&mut self, app: &mut App) {
        let snap = self.session.snapshot();
        app.observe(&snap);
        self.snap = snap;
    }

    fn poll(&mut self, now: Instant) -> bool {
        self.session.poll(now)
    }

    fn next_wakeup(&self) -> Option<Instant> {
        self.session.next_wakeup()
    }

    fn render(&self, app: &App, area: Rect, buf: &mut Buffer) {
        Ui {
            app,
            snap: Some(&self.snap),
        }
        .render(area, buf);
    }

    fn result(&self) -> Option<GameResult> {
        self.snap.result.clone()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// Carries out the start menu's network entries (implemented by the
/// binary, over the network crate). Errors are sentences for the player;
/// `name` is the name the player chose in the start menu. A table is of
/// whichever listed game the set-up or the ticket names.
pub trait Launcher {
    /// Open a table and take its first seat as `name`; bots join it.
    fn host(&mut self, config: &HostConfig, name: &str) -> Result<Launched, String>;
    /// Take a seat as `name` at the table `ticket` names.
    fn join(&mut self, ticket: &str, name: &str) -> Result<Launched, String>;
    /// Follow the table `ticket` names as a spectator called `name`.
    fn watch(&mut self, ticket: &str, name: &str) -> Result<Launched, String>;
    /// Listen on the LAN for a few seconds and return the open tables
    /// (blocks; the screen says it is looking first).
    fn find_tables(&mut self) -> Result<Vec<FoundTable>, String>;
}

/// A session of whichever listed game, as a [`Launcher`] starts it: the
/// runner shows it without knowing the game's type.
pub struct Launched(OpenTable);

/// Puts a launched session at the table, observed by the app.
type OpenTable = Box<dyn FnOnce(&mut App) -> Box<dyn Playing>>;

impl Launched {
    /// `session`, a table of game `G`.
    pub fn new<G: GameScreen>(session: impl Session<G> + 'static) -> Self {
        Launched(Box::new(move |app: &mut App| -> Box<dyn Playing> {
            Box::new(Table::new(Box::new(session), app))
        }))
    }
}

impl std::fmt::Debug for Launched {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Launched")
    }
}

/// A transcript being stepped through, whichever game of the list it is:
/// the runner holds it behind this trait as it holds a game under way.
trait Stepping {
    /// Let the app handle `msg` over the step shown.
    fn update(&self, app: &mut App, msg: Msg) -> Option<Effect>;
    /// Move through the replay; the new status when it moved.
    fn seek(&mut self, seek: Seek) -> Option<ReplayStatus>;
    /// Where the replay stands.
    fn status(&self) -> ReplayStatus;
    /// Draw the app's screen over the step shown.
    fn render(&self, app: &App, area: Rect, buf: &mut Buffer);
    /// How the game ended at the step shown, if it has.
    fn result(&self) -> Option<GameResult>;
    /// Itself, for a caller that knows the game's type.
    fn as_any(&self) -> &dyn Any;
}

/// A replay of game `G` and its snapshot at the step shown.
struct Stepped<G: GameScreen> {
    replay: Replay<G>,
    snap: Snapshot<G>,
}

impl<G: GameScreen> Stepped<G> {
    fn new(replay: Replay<G>) -> Self {
        Stepped {
            snap: replay.snapshot(),
            replay,
        }
    }
}

impl<G: GameScreen> Stepping for Stepped<G> {
    fn update(&self, app: &mut App, msg: Msg) -> Option<Effect> {
        app.update(msg, Some(&self.snap))
    }

    fn seek(&mut self, seek: Seek) -> Option<ReplayStatus> {
        if !self.replay.seek(seek) {
            return None;
        }
        self.snap = self.replay.snapshot();
        Some(self.replay.status())
    }

    fn status(&self) -> ReplayStatus {
        self.replay.status()
    }

    fn render(&self, app: &App, area: Rect, buf: &mut Buffer) {
        Ui {
            app,
            snap: Some(&self.snap),
        }
        .render(area, buf);
    }

    fn result(&self) -> Option<GameResult> {
        self.snap.result.clone()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The game type the screens are drawn over when no game is shown (the
/// menu, the set-up forms): any listed game would do, as nothing of it is
/// read.
type NoGame = roundtable_port_royal::PortRoyal;

/// Opens a transcript already read, of whichever game its genesis names.
struct OpenReplay<'a> {
    read: &'a crate::replay::ReadTranscript,
    file: String,
}

impl VisitScreen for OpenReplay<'_> {
    type Output = Result<Box<dyn Stepping>, ReplayError>;

    fn visit<G: GameScreen>(self) -> Self::Output {
        let replay = Replay::<G>::from_read(self.read, &self.file)?;
        Ok(Box::new(Stepped::new(replay)))
    }
}

/// Starts a local game of whichever game the set-up chose.
struct StartLocal<'a> {
    config: &'a LocalConfig,
    app: &'a mut App,
}

impl VisitScreen for StartLocal<'_> {
    type Output = Result<Box<dyn Playing>, String>;

    fn visit<G: GameScreen>(self) -> Self::Output {
        let session = LocalSession::<G>::new(self.config).map_err(|e| e.to_string())?;
        Ok(Box::new(Table::new(Box::new(session), self.app)))
    }
}

/// The event loop's state: the app, the game under way (if any) and the
/// replay shown (if any).
pub struct Runner {
    /// The front end's state.
    pub app: App,
    /// The game under way, of whichever game.
    playing: Option<Box<dyn Playing>>,
    /// The transcript being stepped through, of whichever game, instead
    /// of a session.
    replay: Option<Box<dyn Stepping>>,
    quit: bool,
    /// Looking for LAN tables blocks for a while; it waits until the screen
    /// saying so has been drawn.
    deferred: Option<Effect>,
    /// Where the name played under is remembered, if anywhere.
    prefs_file: Option<PathBuf>,
    /// Starts network games for the start menu; dropped last, after the
    /// session that may run on it.
    launcher: Option<Box<dyn Launcher>>,
}

impl std::fmt::Debug for Runner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runner")
            .field("app", &self.app)
            .field("playing", &self.playing.is_some())
            .finish_non_exhaustive()
    }
}

impl Runner {
    /// A runner for `app`, with no game under way.
    pub fn new(app: App) -> Self {
        Runner {
            app,
            playing: None,
            replay: None,
            quit: false,
            deferred: None,
            prefs_file: None,
            launcher: None,
        }
    }

    /// This runner, at `session`'s table.
    pub fn with_session<G: GameScreen>(mut self, session: Box<dyn Session<G>>) -> Self {
        self.playing = Some(Box::new(Table::new(session, &mut self.app)));
        self
    }

    /// This runner, with `launcher` to start the start menu's network games.
    pub fn with_launcher(mut self, launcher: Box<dyn Launcher>) -> Self {
        self.launcher = Some(launcher);
        self
    }

    /// This runner, playing under the name remembered in the preferences
    /// file at `path`, and remembering it there when it changes. A file
    /// that cannot be used keeps the name the app has, and the menu says
    /// why in one line.
    pub fn with_prefs_file(mut self, path: PathBuf) -> Self {
        match prefs::load(&path) {
            Ok(prefs::Prefs { name: Some(name) }) => self.app.setup.name = name,
            Ok(prefs::Prefs { name: None }) => {}
            Err(e) => {
                self.app.notice = Some(format!("{e}; playing as {}.", self.app.setup.name));
            }
        }
        self.prefs_file = Some(path);
        self
    }

    /// A runner at the start of `replay` (of any listed game), with no
    /// start menu behind it.
    pub fn replaying<G: GameScreen>(theme: Theme, replay: Replay<G>) -> Self {
        let app = App::at_replay(theme, replay.status());
        Runner {
            app,
            playing: None,
            replay: Some(Box::new(Stepped::new(replay))),
            quit: false,
            deferred: None,
            prefs_file: None,
            launcher: None,
        }
    }

    /// The replay shown, if one is and it is a game of `G`.
    pub fn replay<G: GameScreen>(&self) -> Option<&Replay<G>> {
        let stepped = self
            .replay
            .as_ref()?
            .as_any()
            .downcast_ref::<Stepped<G>>()?;
        Some(&stepped.replay)
    }

    /// The snapshot the screen shows (the replay's step, else the game
    /// under way), when it is a game of `G`.
    pub fn snapshot<G: GameScreen>(&self) -> Option<&Snapshot<G>> {
        if let Some(replay) = &self.replay {
            let stepped = replay.as_any().downcast_ref::<Stepped<G>>()?;
            return Some(&stepped.snap);
        }
        let table = self.playing.as_ref()?.as_any().downcast_ref::<Table<G>>()?;
        Some(&table.snap)
    }

    /// Whether the player has quit.
    pub fn quit(&self) -> bool {
        self.quit
    }

    /// Draw one frame.
    pub fn draw<B: Backend>(&mut self, terminal: &mut Terminal<B>) -> Result<(), B::Error> {
        // The size the frame was drawn at, for the keys that scroll: the
        // frame knows it already (asking the terminal again is a system
        // call, or two `tput` processes where there is no terminal).
        let completed = terminal.draw(|frame| {
            let (app, area, buf) = (&self.app, frame.area(), frame.buffer_mut());
            match (&self.replay, &self.playing) {
                (Some(replay), _) => replay.render(app, area, buf),
                (None, Some(playing)) => playing.render(app, area, buf),
                (None, None) => Ui::<NoGame> { app, snap: None }.render(area, buf),
            }
        })?;
        self.app.viewport = Some((completed.area.width, completed.area.height));
        Ok(())
    }

    fn refresh(&mut self) {
        // A replay opened from the results shows the replay's snapshots;
        // the finished game's session waits behind it.
        if self.replay.is_some() {
            return;
        }
        if let Some(playing) = &mut self.playing {
            playing.refresh(&mut self.app);
        }
    }

    /// Handle one key; `true` when the screen changed.
    pub fn key(&mut self, key: &event::KeyEvent) -> bool {
        let Some(msg) = keymap::lookup(self.app.context(), key) else {
            return false;
        };
        let effect = match (&self.replay, &self.playing) {
            (Some(replay), _) => replay.update(&mut self.app, msg),
            (None, Some(playing)) => playing.update(&mut self.app, msg),
            (None, None) => self.app.update(msg, None::<&Snapshot<NoGame>>),
        };
        match effect {
            None => {}
            Some(Effect::FindTables) => self.deferred = Some(Effect::FindTables),
            Some(Effect::Host(config)) => {
                let name = self.app.setup.name.clone();
                let started = self.launch(|l| l.host(&config, &name));
                self.entered(started);
            }
            Some(Effect::Join(ticket)) => {
                let name = self.app.setup.name.clone();
                let started = self.launch(|l| l.join(&ticket, &name));
                self.entered(started);
            }
            Some(Effect::Watch(ticket)) => {
                let name = self.app.setup.name.clone();
                let started = self.launch(|l| l.watch(&ticket, &name));
                self.entered(started);
            }
            Some(Effect::Quit) => self.quit = true,
            Some(Effect::Start(config)) => {
                let start = StartLocal {
                    config: &config,
                    app: &mut self.app,
                };
                match crate::games::visit(config.game, start) {
                    Ok(playing) => {
                        self.playing = Some(playing);
                        self.app.entered_game(GameKind::Local);
                        self.refresh();
                    }
                    Err(e) => self.app.notice = Some(e),
                }
            }
            Some(Effect::Submit(index)) => {
                if let Some(playing) = &mut self.playing {
                    match playing.submit(index) {
                        Ok(true) => self.refresh(),
                        Ok(false) => {}
                        Err(e) => self.app.notice = Some(e),
                    }
                }
            }
            Some(Effect::Leave) => {
                self.playing = None;
                self.replay = None;
                self.app.left_game();
            }
            Some(Effect::CloseReplay) => {
                self.replay = None;
                self.app.left_replay();
                self.refresh();
            }
            Some(Effect::SaveName(name)) => {
                if let Some(path) = &self.prefs_file {
                    let prefs = prefs::Prefs { name: Some(name) };
                    if let Err(e) = prefs::save(path, &prefs) {
                        self.app.notice =
                            Some(format!("Playing under it, but not remembered: {e}"));
                    }
                }
            }
            Some(Effect::ListSaved) => {
                let saved = match &self.app.setup.transcript_dir {
                    Some(games) => crate::saved::list(games),
                    None => Vec::new(),
                };
                self.app.listed_saved(saved);
            }
            Some(Effect::OpenReplay(path)) => match open_replay(&path) {
                Ok(replay) => {
                    // The finished game's session stays behind the replay:
                    // Esc goes back to its results.
                    self.app.entered_replay(replay.status());
                    self.replay = Some(replay);
                }
                Err(e) => {
                    // Say which file, unless the error does already.
                    let (shown, why) = (path.display().to_string(), e.to_string());
                    self.app.notice = Some(if why.contains(&shown) {
                        why
                    } else {
                        format!("{shown}: {why}")
                    });
                }
            },
            Some(Effect::Seek(seek)) => {
                if let Some(status) = self.replay.as_mut().and_then(|r| r.seek(seek)) {
                    self.app.replay = Some(status);
                }
            }
        }
        true
    }

    fn launch(
        &mut self,
        start: impl FnOnce(&mut dyn Launcher) -> Result<Launched, String>,
    ) -> Result<Launched, String> {
        match &mut self.launcher {
            Some(l) => start(l.as_mut()),
            None => Err("This program was started without networking.".into()),
        }
    }

    fn entered(&mut self, started: Result<Launched, String>) {
        match started {
            Ok(Launched(open)) => {
                self.playing = Some(open(&mut self.app));
                self.app.entered_game(GameKind::Network);
                self.refresh();
            }
            Err(e) => self.app.notice = Some(e),
        }
    }

    /// Carry out what had to wait for a frame (looking for LAN tables);
    /// `true` when the screen changed.
    pub fn settle(&mut self) -> bool {
        match self.deferred.take() {
            Some(Effect::FindTables) => {
                let found = match &mut self.launcher {
                    Some(l) => l.find_tables(),
                    None => Err("This program was started without networking.".into()),
                };
                self.app.found_tables(found);
                true
            }
            _ => false,
        }
    }

    /// Let the session make progress; `true` when the screen changed.
    pub fn poll(&mut self, now: Instant) -> bool {
        let progressed = self.playing.as_mut().is_some_and(|p| p.poll(now));
        if progressed {
            self.refresh();
        }
        progressed
    }

    /// How long the loop may wait for input before polling the session.
    fn timeout(&self, now: Instant) -> Duration {
        self.playing
            .as_ref()
            .and_then(|p| p.next_wakeup())
            .map_or(IDLE, |t| t.saturating_duration_since(now).min(IDLE))
    }

    /// Run until the player quits.
    pub fn run<B: Backend>(mut self, terminal: &mut Terminal<B>) -> anyhow::Result<Outcome>
    where
        B::Error: Send + Sync + 'static,
    {
        let mut dirty = true;
        loop {
            if self.poll(Instant::now()) {
                dirty = true;
            }
            if dirty {
                self.draw(terminal)?;
                dirty = false;
            }
            if self.settle() {
                // Keys pressed while it blocked are still queued for below.
                self.draw(terminal)?;
            }
            if event::poll(self.timeout(Instant::now()))? {
                // Take every queued event before drawing again, so a burst
                // of keys costs one frame.
                loop {
                    match event::read()? {
                        TermEvent::Key(k) if k.kind != KeyEventKind::Release => {
                            dirty |= self.key(&k);
                        }
                        // Pasting is typing, and only where there is text to type.
                        TermEvent::Paste(text) if self.app.context() == keymap::Context::Prompt => {
                            for c in text.chars() {
                                let k = event::KeyEvent::from(event::KeyCode::Char(c));
                                dirty |= self.key(&k);
                            }
                        }
                        TermEvent::Resize(..) => {
                            terminal.autoresize()?;
                            dirty = true;
                        }
                        _ => {}
                    }
                    if self.quit || !event::poll(Duration::ZERO)? {
                        break;
                    }
                }
            }
            if self.quit {
                let result = match (&self.replay, &self.playing) {
                    (Some(replay), _) => replay.result(),
                    (None, Some(playing)) => playing.result(),
                    (None, None) => None,
                };
                return Ok(Outcome::Quit(result));
            }
        }
    }
}
