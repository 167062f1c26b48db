//! The terminal UI's [`Session`] over a networked table: a
//! [`GameHandle`] read without blocking, so that the UI loop (a plain
//! thread) and the node (a tokio task) never wait on each other; and the
//! [`NetLauncher`] that starts such tables from the start menu.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use roundtable_bots::Bot;
use roundtable_engine::{Game, Observer, Seat};
use roundtable_net::{
    Controller, DataDir, GameHandle, NetEvent, NodeConfig, Phase, Role, Ticket, default_listen,
    spawn,
};
use roundtable_port_royal::{Action, Options, PortRoyal, View};
use roundtable_tui::session::Chronicle;
use roundtable_tui::{
    Connection, FoundTable, HostConfig, Launcher, Lobby, SeatInfo, SeatKind, Session, Snapshot,
};
use tokio::sync::watch;

/// Ends when a node has stopped (its snapshot sender is gone).
pub(crate) struct NodeEnd(watch::Receiver<Arc<roundtable_net::Snapshot<PortRoyal>>>);

impl NodeEnd {
    /// Wait until the node has stopped.
    async fn stopped(mut self) {
        while self.0.changed().await.is_ok() {}
    }

    fn is_stopped(&self) -> bool {
        self.0.has_changed().is_err()
    }
}

/// How long a program that quits waits for its nodes to stop.
const STOP_GRACE: Duration = Duration::from_secs(2);

/// Shut a runtime down once the nodes that were told to stop have finished
/// what they say on the way out (a joiner tells the host it leaves), for at
/// most [`STOP_GRACE`]: dropping a runtime cancels its tasks mid-sentence.
pub(crate) fn shut_down(rt: tokio::runtime::Runtime, ends: Vec<NodeEnd>) {
    rt.block_on(async {
        let all = async {
            for end in ends {
                end.stopped().await;
            }
        };
        let _ = tokio::time::timeout(STOP_GRACE, all).await;
    });
    rt.shutdown_timeout(Duration::from_millis(200));
}

/// One seat's (or a spectator's) table over the network, for the TUI.
pub(crate) struct NetSession {
    handle: GameHandle<PortRoyal>,
    /// Marks which of the handle's snapshots the screen has seen.
    watch: watch::Receiver<Arc<roundtable_net::Snapshot<PortRoyal>>>,
    /// Shown on the lobby screen, so the host can copy it.
    ticket: Option<Ticket>,
    /// What the table is called before the game has names.
    title: String,
    chronicle: Chronicle,
    /// The game's options and turn clock, from the start of the game.
    options: Options,
    stall_timeout: Option<Duration>,
    /// The names and this peer's seat as the game started with them: the
    /// applied inputs that follow are told with these (the handle's
    /// snapshot may not show the game yet when they are read).
    started_names: Vec<String>,
    started_seat: Option<Seat>,
    /// Seats taken and seats in all, from the lobby.
    lobby: Option<(u8, u8)>,
    /// Until the genesis exists there is no view; the screen shows a fresh
    /// table of the expected size instead.
    placeholder: View,
    transcript: Option<PathBuf>,
    /// The latest refusal or violation, for the status line.
    notice: Option<String>,
    /// Seats at the table, when known before the lobby says (the host's).
    seats: Option<u8>,
    /// Whether this peer only watches.
    spectator: bool,
    /// Set once the node has stopped before the game began.
    stopped: Option<String>,
    /// The latest diagnostic, to say why a table stopped.
    last_note: Option<String>,
    /// Bots this program started for the table; they leave with it.
    companions: Vec<GameHandle<PortRoyal>>,
    /// Set when the node gave up (its peers are gone, or the ticket's host
    /// never answered): the line, for the program to repeat and exit
    /// non-zero once the player leaves the screen.
    gave_up: GaveUp,
}

/// What the status line says once the node gave up (the log holds the
/// whole line: a status line does not wrap).
const GAVE_UP_STATUS: &str = "Everyone else is gone (see the log).";

/// The line a node gave up with, shared between the session (which the
/// screen owns) and the program that waits for the screen to close.
#[derive(Clone, Default)]
pub(crate) struct GaveUp(Arc<std::sync::OnceLock<String>>);

impl GaveUp {
    /// The line, if the node gave up.
    pub(crate) fn line(&self) -> Option<&str> {
        self.0.get().map(String::as_str)
    }
}

impl NetSession {
    /// A session over `handle`; `seats` is the table size if known (the
    /// host's), for the picture shown before the game starts.
    pub(crate) fn new(
        handle: GameHandle<PortRoyal>,
        title: String,
        ticket: Option<Ticket>,
        seats: u8,
    ) -> anyhow::Result<Self> {
        let placeholder = PortRoyal::new_game(seats.clamp(2, 5), &Options::default())
            .map_err(|e| anyhow::anyhow!("{e}"))?
            .view(Observer::Spectator);
        let seats = ticket_seats(&ticket, seats);
        Ok(NetSession {
            watch: handle.watch(),
            handle,
            ticket,
            title,
            chronicle: Chronicle::new(),
            options: Options::default(),
            stall_timeout: None,
            started_names: Vec::new(),
            started_seat: None,
            lobby: None,
            placeholder,
            transcript: None,
            notice: None,
            seats,
            spectator: false,
            stopped: None,
            last_note: None,
            companions: Vec::new(),
            gave_up: GaveUp::default(),
        })
    }

    /// This session only watches (the lobby screen says so).
    pub(crate) fn spectating(mut self) -> Self {
        self.spectator = true;
        self
    }

    /// Signals that end when this session's nodes (its own and its bots')
    /// have stopped: the program waits on them a moment after the screen
    /// closes, so that a joiner's word to the host that it leaves gets out.
    pub(crate) fn node_ends(&self) -> Vec<NodeEnd> {
        std::iter::once(&self.handle)
            .chain(&self.companions)
            .map(|h| NodeEnd(h.watch()))
            .collect()
    }

    /// Where the line the node gives up with (if it does) will be, for
    /// after the screen closed.
    pub(crate) fn gave_up(&self) -> GaveUp {
        self.gave_up.clone()
    }

    /// Bots started for this table, stopped when the session ends.
    pub(crate) fn with_companions(mut self, bots: Vec<GameHandle<PortRoyal>>) -> Self {
        self.companions = bots;
        self
    }

    /// The lobby screen's content while the table gathers its seats.
    fn lobby(&self, net: &roundtable_net::Snapshot<PortRoyal>) -> Option<Lobby> {
        if net.game_id.is_some() || !matches!(net.phase, Phase::Starting | Phase::Lobby) {
            return None;
        }
        // The host lists who sat down; a joiner and a spectator show the
        // list the host last sent them.
        let seated: Vec<SeatInfo> = net
            .names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let online = net.online.get(i).copied().unwrap_or(false);
                let (kind, connection) = match (net.lobby_seat == Some(i), online) {
                    (true, _) => (SeatKind::You, Connection::Local),
                    (false, true) => (seat_kind(name), Connection::Online),
                    (false, false) => (seat_kind(name), Connection::Offline),
                };
                SeatInfo {
                    name: name.clone(),
                    kind,
                    connection,
                    clock: None,
                    forfeited: false,
                }
            })
            .collect();
        let (filled, seats) = match (self.lobby, self.seats) {
            (Some((filled, seats)), _) => (filled, seats),
            (None, Some(seats)) => (seated.len() as u8, seats),
            // A joiner before the host answered: nothing known yet.
            (None, None) => (0, 0),
        };
        Some(Lobby {
            ticket: self.ticket.as_ref().map(Ticket::to_string),
            seats,
            filled: filled.max(seated.len() as u8),
            seated,
            spectator: self.spectator,
            stopped: self.stopped.clone(),
        })
    }
}

impl Drop for NetSession {
    fn drop(&mut self) {
        // Leaving the screen leaves the table: the node would otherwise keep
        // running in the background of a program that is about to exit (or
        // that goes back to its start menu), and so would its bots.
        self.handle.shutdown();
        for bot in &self.companions {
            bot.shutdown();
        }
    }
}

/// The host's table size, known from its own set-up; a joiner's (no ticket
/// of its own at the start) waits for the host's answer.
fn ticket_seats(ticket: &Option<Ticket>, seats: u8) -> Option<u8> {
    ticket.as_ref().map(|_| seats)
}

/// In-process bots of a host are named "bot N" (see `spawn_bots`); anyone
/// else is a person elsewhere.
fn seat_kind(name: &str) -> SeatKind {
    if name.starts_with("bot ") {
        SeatKind::Bot
    } else {
        SeatKind::Remote
    }
}

fn name_of(names: &[String], seat: Seat) -> String {
    names
        .get(seat.index())
        .cloned()
        .unwrap_or_else(|| seat.to_string())
}

/// Time left on a seat's turn clock, as of `now`.
fn clock_left(
    net: &roundtable_net::Snapshot<PortRoyal>,
    seat: usize,
    now: Instant,
) -> Option<Duration> {
    net.clock_ends
        .get(seat)
        .copied()
        .flatten()
        .map(|end| end.saturating_duration_since(now))
}

impl Session for NetSession {
    fn snapshot(&self) -> Snapshot {
        let net = self.handle.snapshot();
        let gave_up = self.gave_up.line().is_some();
        let now = Instant::now();
        let names = &net.names;
        let seats = names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let seat = Seat(i as u8);
                let (kind, connection) = if net.seat == Some(seat) {
                    (SeatKind::You, Connection::Local)
                } else {
                    let kind = seat_kind(name);
                    let online = net.online.get(i).copied().unwrap_or(false);
                    let connection = match (online, net.phase) {
                        (true, _) => Connection::Online,
                        (false, Phase::Playing) => Connection::Reconnecting,
                        (false, _) => Connection::Offline,
                    };
                    (kind, connection)
                };
                SeatInfo {
                    name: name.clone(),
                    kind,
                    connection,
                    clock: clock_left(&net, i, now),
                    forfeited: net.forfeited.get(i).copied().unwrap_or(false),
                }
            })
            .collect();
        let view = net.view.clone().unwrap_or_else(|| self.placeholder.clone());
        let lobby = self.lobby(&net);
        let mut status = match net.phase {
            // The lobby screen shows the seats and the ticket itself.
            Phase::Starting | Phase::Lobby => None,
            // Nobody to wait for any more: the notice says so alone.
            Phase::Playing if gave_up => None,
            Phase::Playing if !net.ready => Some("waiting for every peer to subscribe".into()),
            Phase::Playing if net.legal.is_empty() => {
                let active = view.taker.unwrap_or(view.active).0;
                Some(format!("waiting for {}", name_of(names, active)))
            }
            Phase::Playing | Phase::Finished => None,
            Phase::Failed => Some("the table stopped after a violation".into()),
        };
        let forfeits: Vec<String> = net
            .forfeited
            .iter()
            .enumerate()
            .filter(|(_, f)| **f)
            .map(|(i, _)| name_of(names, Seat(i as u8)))
            .collect();
        if !forfeits.is_empty() {
            let line = format!("played automatically: {}", forfeits.join(", "));
            status = Some(match status {
                Some(s) => format!("{s}; {line}"),
                None => line,
            });
        }
        if let Some(n) = &self.notice {
            status = Some(match status {
                Some(s) => format!("{s} ({n})"),
                None => n.clone(),
            });
        }
        let title = match &net.game_id {
            Some(id) => format!("Network game {id}"),
            None => self.title.clone(),
        };
        Snapshot {
            title,
            view,
            me: net.seat,
            legal: net.legal.clone(),
            log: self.chronicle.log().to_vec(),
            seats,
            vp_by_turn: self.chronicle.vp_by_turn().to_vec(),
            result: net.result.clone(),
            status,
            transcript: self.transcript.as_ref().map(|p| p.display().to_string()),
            lobby,
            options: self.options.clone(),
            stall_timeout: self.stall_timeout,
        }
    }

    fn submit(&mut self, action: Action) -> Result<(), String> {
        let net = self.handle.snapshot();
        if !net.legal.contains(&action) {
            return Err("It is not your move.".into());
        }
        self.notice = None;
        self.handle
            .try_submit(action)
            .map_err(|e| format!("the table did not take it: {e}"))
    }

    fn poll(&mut self, _now: Instant) -> bool {
        let mut changed = false;
        while let Some(event) = self.handle.try_next_event() {
            changed = true;
            match event {
                NetEvent::Ticket(t) => self.ticket = Some(t),
                NetEvent::Lobby { filled, seats } => self.lobby = Some((filled, seats)),
                NetEvent::Started {
                    seat,
                    names,
                    options,
                    stall_timeout,
                    ..
                } => {
                    // A resumed game replays from the start: begin the log
                    // afresh rather than doubling it, and follow the game on
                    // its own copy so that the chart is right for every
                    // input, however late it is read.
                    let seats = u8::try_from(names.len()).unwrap_or(u8::MAX);
                    self.chronicle = match Chronicle::following(seats, &options) {
                        Ok(chronicle) => chronicle,
                        Err(e) => {
                            let mut chronicle = Chronicle::new();
                            chronicle.note(format!("The log cannot follow this game: {e}."));
                            chronicle
                        }
                    };
                    self.options = options;
                    self.stall_timeout = Some(stall_timeout);
                    self.started_names = names;
                    self.started_seat = seat;
                }
                NetEvent::Applied {
                    position,
                    record,
                    events,
                } => {
                    self.chronicle.apply(
                        position,
                        &record,
                        &events,
                        &self.started_names,
                        self.started_seat,
                    );
                }
                NetEvent::Rewound { position } => {
                    self.chronicle.rewind(position);
                    self.notice = Some(format!(
                        "the table went back to move {position} to apply a forfeit"
                    ));
                }
                NetEvent::Violation(v) => self.notice = Some(format!("violation: {v}")),
                NetEvent::Finished { transcript, .. } => self.transcript = Some(transcript),
                // The node's own refusals ("refused: ...") are the player's
                // business; a dial error that merely mentions a refused
                // connection is a diagnostic, not a notice.
                NetEvent::Note(n) if n.starts_with("refused") => {
                    self.last_note = Some(n.clone());
                    self.notice = Some(n);
                }
                NetEvent::Note(n) => self.last_note = Some(n),
                NetEvent::GaveUp(line) => {
                    // The whole line goes to the log, which wraps it; the
                    // status says where to look.
                    let _ = self.gave_up.0.set(line.clone());
                    self.chronicle.note(line.clone());
                    self.notice = Some(GAVE_UP_STATUS.to_owned());
                    self.stopped = Some(line);
                }
                _ => {}
            }
        }
        // The handle's snapshot moves on without events too (who is online).
        if self.watch.has_changed().unwrap_or(false) {
            self.watch.borrow_and_update();
            changed = true;
        }
        if self.stopped.is_none() && self.handle.is_stopped() {
            let net = self.handle.snapshot();
            if net.game_id.is_none() {
                // Only the host's refusal is worth repeating: other notes
                // are libp2p's diagnostics (dial errors), not for a player.
                self.stopped = Some(match &self.last_note {
                    Some(n) if n.starts_with("refused") => n.clone(),
                    _ => "the table stopped before the game began".to_owned(),
                });
                changed = true;
            }
        }
        changed
    }

    /// A running turn clock shows whole seconds: wake when the next one
    /// begins.
    fn next_wakeup(&self) -> Option<Instant> {
        let now = Instant::now();
        let net = self.handle.snapshot();
        (0..net.clock_ends.len())
            .filter_map(|i| clock_left(&net, i, now))
            .filter(|left| !left.is_zero())
            .map(|left| now + Duration::from_nanos(u64::from(left.subsec_nanos())))
            .min()
    }
}

/// Start bots in `role` (joining a ticket, or resuming a game), one peer
/// each, without a word on the terminal (a terminal UI owns the screen: a
/// printed line would tear it). Their events are drained; the handles stop
/// them ([`NetSession`] does as it ends). If one cannot start, those started
/// are stopped.
pub(crate) fn start_quiet_bots(
    rt: &tokio::runtime::Runtime,
    bots: Vec<(NodeConfig, Box<dyn Bot<PortRoyal>>)>,
    role: &dyn Fn() -> Role<PortRoyal>,
) -> anyhow::Result<Vec<GameHandle<PortRoyal>>> {
    let _inside = rt.enter();
    let mut handles: Vec<GameHandle<PortRoyal>> = Vec::new();
    for (config, bot) in bots {
        let name = config.name.clone();
        match spawn::<PortRoyal>(config, role(), Controller::Bot(bot)) {
            Ok(h) => {
                let (mut events, h) = h.split();
                rt.spawn(async move { while events.recv().await.is_some() {} });
                handles.push(h);
            }
            Err(e) => {
                handles.iter().for_each(GameHandle::shutdown);
                anyhow::bail!("{name} could not start: {e}");
            }
        }
    }
    Ok(handles)
}

/// How long hosting waits for the node to listen and make its ticket.
const TICKET_WAIT: Duration = Duration::from_secs(15);

/// How long "Tables on this LAN" listens for announcements.
const DISCOVERY_WAIT: Duration = Duration::from_secs(3);

/// The start menu's network entries, over the network crate: the same
/// roles, controllers and in-process bots as `roundtable host | join |
/// watch`, on a runtime that lives as long as the menu.
pub(crate) struct NetLauncher {
    /// `None` only while dropping.
    rt: Option<tokio::runtime::Runtime>,
    data: DataDir,
    reach: Reach,
    /// The nodes of the sessions started so far that may still run.
    ends: Vec<NodeEnd>,
}

/// How the menu's peers make themselves reachable (the top-level
/// `--relay` and `--no-listen`, as `host --relay --no-listen`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Reach {
    /// Relay servers to reserve a slot on.
    pub(crate) relays: Vec<roundtable_net::Multiaddr>,
    /// Listen on no direct address: reachable through the relays only.
    pub(crate) no_listen: bool,
}

impl NetLauncher {
    /// A launcher keeping keys and transcripts in `data`.
    pub(crate) fn new(data: DataDir, reach: Reach) -> anyhow::Result<Self> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()?;
        Ok(NetLauncher {
            rt: Some(rt),
            data,
            reach,
            ends: Vec::new(),
        })
    }

    fn rt(&self) -> Result<&tokio::runtime::Runtime, String> {
        self.rt
            .as_ref()
            .ok_or_else(|| "the network runtime has stopped".to_owned())
    }

    fn start(
        &self,
        data: DataDir,
        name: &str,
        role: Role<PortRoyal>,
        controller: Controller<PortRoyal>,
    ) -> Result<GameHandle<PortRoyal>, String> {
        let _inside = self.rt()?.enter();
        spawn::<PortRoyal>(self.config(data, name), role, controller).map_err(|e| e.to_string())
    }

    fn config(&self, data: DataDir, name: &str) -> NodeConfig {
        let mut config = NodeConfig::new(data, name);
        config.relays = self.reach.relays.clone();
        if self.reach.no_listen {
            config.listen = Vec::new();
        }
        config
    }

    /// Hand a new session to the menu, remembering its nodes so that
    /// quitting lets them stop properly.
    fn launched(&mut self, session: NetSession) -> Box<dyn Session> {
        self.ends.retain(|e| !e.is_stopped());
        self.ends.extend(session.node_ends());
        Box::new(session)
    }

    fn ticket(text: &str) -> Result<Ticket, String> {
        Ticket::decode(text.trim()).map_err(|e| format!("That is not a ticket: {e}."))
    }
}

impl Drop for NetLauncher {
    fn drop(&mut self) {
        // Sessions shut their nodes down as they drop; give the nodes a
        // moment to say goodbye to their peers, no more.
        if let Some(rt) = self.rt.take() {
            shut_down(rt, std::mem::take(&mut self.ends));
        }
    }
}

impl Launcher for NetLauncher {
    fn host(&mut self, config: &HostConfig, name: &str) -> Result<Box<dyn Session>, String> {
        if config.bots >= config.seats {
            return Err(format!(
                "{} bots leave no seat for you at {} seats.",
                config.bots, config.seats
            ));
        }
        let mut handle = self.start(
            self.data.clone(),
            name,
            Role::Host {
                seats: config.seats,
                options: config.options.clone(),
                stall_timeout_ms: 120_000,
            },
            Controller::Handle,
        )?;
        // The bots need the ticket, which comes as soon as the node listens.
        let rt = self.rt()?;
        let ticket = rt.block_on(async {
            tokio::time::timeout(TICKET_WAIT, async {
                while let Some(event) = handle.next_event().await {
                    if let NetEvent::Ticket(t) = event {
                        return Some(t);
                    }
                }
                None
            })
            .await
            .ok()
            .flatten()
        });
        let Some(ticket) = ticket else {
            handle.shutdown();
            return Err("The table did not start listening; nothing to invite others to.".into());
        };
        let bots = (1..=usize::from(config.bots))
            .map(|n| {
                // A hard bot's default think time is far under the table's
                // stall timeout (`MAX_NET_THINK_MS`).
                let bot = config.bot_level.port_royal(
                    &config.options,
                    roundtable_bots::DEFAULT_THINK,
                    crate::net_cmd::fresh_seed().wrapping_add(n as u64),
                );
                (self.config(self.data.bot(n), &format!("bot {n}")), bot)
            })
            .collect();
        let join = || Role::Join {
            ticket: ticket.clone(),
        };
        let bots = match start_quiet_bots(rt, bots, &join) {
            Ok(bots) => bots,
            Err(e) => {
                handle.shutdown();
                return Err(e.to_string());
            }
        };
        let session = NetSession::new(
            handle,
            format!("Your table, {} seats", config.seats),
            Some(ticket),
            config.seats,
        )
        .map_err(|e| e.to_string())?
        .with_companions(bots);
        Ok(self.launched(session))
    }

    fn join(&mut self, ticket: &str, name: &str) -> Result<Box<dyn Session>, String> {
        let ticket = Self::ticket(ticket)?;
        let handle = self.start(
            self.data.clone(),
            name,
            Role::Join { ticket },
            Controller::Handle,
        )?;
        let session = NetSession::new(handle, "Joining a table".into(), None, 2)
            .map_err(|e| e.to_string())?;
        Ok(self.launched(session))
    }

    fn watch(&mut self, ticket: &str, name: &str) -> Result<Box<dyn Session>, String> {
        let ticket = Self::ticket(ticket)?;
        let handle = self.start(
            self.data.clone(),
            name,
            Role::Watch { ticket },
            Controller::Handle,
        )?;
        let session = NetSession::new(handle, "Watching a table".into(), None, 2)
            .map_err(|e| e.to_string())?
            .spectating();
        Ok(self.launched(session))
    }

    fn find_tables(&mut self) -> Result<Vec<FoundTable>, String> {
        let identity = self.data.identity().map_err(|e| e.to_string())?;
        let found = self
            .rt()?
            .block_on(roundtable_net::discover::discover_tables(
                &identity,
                default_listen(),
                Vec::new(),
                true,
                DISCOVERY_WAIT,
            ))
            .map_err(|e| e.to_string())?;
        Ok(found
            .into_iter()
            .map(|a| FoundTable {
                host: a.info.host_name.clone(),
                game: a.info.game.clone(),
                filled: a.filled,
                seats: a.info.seats,
                ticket: a.ticket,
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    //! Sessions over real tables on 127.0.0.1: what the screen gets when a
    //! seat is forfeited, and when a peer resumes its game from its log.

    use std::path::Path;

    use roundtable_bots::RandomBot;
    use roundtable_net::Timing;
    use roundtable_tui::{Replay, Seek};

    use super::*;

    /// Generous bound for what must happen (never an assertion on how fast).
    const LIMIT: Duration = Duration::from_secs(90);

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap()
    }

    fn config(dir: &Path, name: &str) -> NodeConfig {
        let mut c = NodeConfig::new(DataDir::new(dir.join(name)), name.to_owned());
        c.listen = vec!["/ip4/127.0.0.1/tcp/0".parse().unwrap()];
        c.mdns = false;
        c.timing = Timing {
            // Slow enough that a game lasts a few seconds: a peer can be
            // stopped in the middle of it.
            bot_delay: Duration::from_millis(10),
            sync_interval: Duration::from_millis(200),
            redial: Duration::from_millis(300),
            lobby_retry: Duration::from_millis(200),
            ..Timing::default()
        };
        // Stall claims within a test's patience.
        c.stall_timeout_bounds_ms = 1_000..=60_000;
        c
    }

    fn bot(seed: u64) -> Controller<PortRoyal> {
        Controller::Bot(Box::new(RandomBot::new(seed)))
    }

    /// A 2-seat table hosted by a bot; the host's session and its ticket.
    fn host(
        rt: &tokio::runtime::Runtime,
        dir: &Path,
        stall_timeout_ms: u64,
    ) -> (NetSession, Ticket) {
        let _inside = rt.enter();
        let mut handle = spawn::<PortRoyal>(
            config(dir, "host"),
            Role::Host {
                seats: 2,
                options: Options::default(),
                stall_timeout_ms,
            },
            bot(1),
        )
        .unwrap();
        let ticket = rt.block_on(async {
            loop {
                match handle.next_event().await {
                    Some(NetEvent::Ticket(t)) => return t,
                    Some(_) => {}
                    None => panic!("the host stopped"),
                }
            }
        });
        let session = NetSession::new(handle, "host".into(), Some(ticket.clone()), 2).unwrap();
        (session, ticket)
    }

    fn session(
        rt: &tokio::runtime::Runtime,
        config: NodeConfig,
        role: Role<PortRoyal>,
        controller: Controller<PortRoyal>,
    ) -> NetSession {
        let _inside = rt.enter();
        let handle = spawn::<PortRoyal>(config, role, controller).unwrap();
        NetSession::new(handle, "joiner".into(), None, 2).unwrap()
    }

    /// Poll `sessions` as the screen does until `done` holds for the first.
    fn poll_until(
        sessions: &mut [&mut NetSession],
        what: &str,
        done: impl Fn(&NetSession) -> bool,
    ) {
        let deadline = Instant::now() + LIMIT;
        loop {
            for s in sessions.iter_mut() {
                s.poll(Instant::now());
            }
            if done(sessions[0]) {
                return;
            }
            assert!(Instant::now() < deadline, "{what}: not within {LIMIT:?}");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn over(s: &NetSession) -> bool {
        let snap = s.snapshot();
        snap.result.is_some() && snap.transcript.is_some()
    }

    /// A peer stopped mid-game and resumed from its log shows the same
    /// chart and log as a peer that never stopped, and as the finished
    /// transcript: the resumed table hands its whole history over at once,
    /// long after its own game moved on.
    #[test]
    fn a_resumed_session_tells_the_game_as_one_that_never_stopped() {
        let rt = runtime();
        let dir = tempfile::tempdir().unwrap();
        let (mut host, ticket) = host(&rt, dir.path(), 60_000);
        let mut joiner = session(
            &rt,
            config(dir.path(), "joiner"),
            Role::Join { ticket },
            bot(2),
        );
        poll_until(&mut [&mut joiner, &mut host], "the game gets going", |s| {
            s.handle.snapshot().position >= 30
        });
        let stopped_at = joiner.handle.snapshot().position;
        let ends = joiner.node_ends();
        drop(joiner);
        shut_down_nodes(&rt, ends);
        let lobby = DataDir::new(dir.path().join("joiner")).unfinished();
        assert_eq!(lobby.len(), 1, "the joiner's game is unfinished: {lobby:?}");
        let mut resumed = session(
            &rt,
            config(dir.path(), "joiner"),
            Role::Resume { lobby: lobby[0] },
            bot(2),
        );
        poll_until(
            &mut [&mut resumed, &mut host],
            "the resumed game ends",
            over,
        );
        poll_until(&mut [&mut host], "the host's game ends", over);
        let resumed = resumed.snapshot();
        let host = host.snapshot();
        let transcript = resumed.transcript.clone().unwrap();
        let mut replay: Replay = Replay::open(Path::new(&transcript)).unwrap();
        replay.seek(Seek::End);
        let whole = replay.snapshot();
        let turns = whole.vp_by_turn.len();
        assert!(
            usize::try_from(stopped_at).unwrap() < replay.len(),
            "stopped after the end"
        );
        assert_eq!(
            resumed.vp_by_turn, whole.vp_by_turn,
            "resumed vs transcript"
        );
        assert_eq!(
            resumed.vp_by_turn, host.vp_by_turn,
            "resumed vs never stopped"
        );
        assert!(turns > 3, "a game of {turns} turns");
        // The logs name the other seat "You" each; the number of lines and
        // the turns they fall in are the same.
        let shape = |log: &[roundtable_tui::text::LogLine]| {
            log.iter().map(|l| (l.turn, l.heading)).collect::<Vec<_>>()
        };
        assert_eq!(shape(&resumed.log), shape(&host.log));
    }

    fn shut_down_nodes(rt: &tokio::runtime::Runtime, ends: Vec<NodeEnd>) {
        rt.block_on(async {
            tokio::time::timeout(LIMIT, async {
                for end in ends {
                    end.stopped().await;
                }
            })
            .await
            .expect("the stopped peer stops");
        });
    }

    /// A seat whose player never moves is forfeited: its log says so in
    /// words, and every choice the table makes for it afterwards is marked
    /// as automatic (the log once read "You stop. You pass." as if the
    /// person had moved).
    #[test]
    fn a_forfeited_seat_is_told_so_and_its_automatic_moves_are_marked() {
        let rt = runtime();
        let dir = tempfile::tempdir().unwrap();
        let (mut host, ticket) = host(&rt, dir.path(), 1_500);
        let mut staller = session(
            &rt,
            config(dir.path(), "staller"),
            Role::Join { ticket },
            Controller::Handle,
        );
        poll_until(&mut [&mut staller, &mut host], "the game ends", over);
        let snap = staller.snapshot();
        let me = snap.me.expect("a seat").index();
        assert!(snap.seats[me].forfeited, "the seat is shown forfeited");
        let lines: Vec<&str> = snap.log.iter().map(|l| l.text.as_str()).collect();
        let told = lines
            .iter()
            .position(|l| *l == "You took too long; your seat is played automatically from now on.")
            .unwrap_or_else(|| panic!("no forfeit line in {lines:#?}"));
        let mine_after: Vec<&&str> = lines[told..]
            .iter()
            .filter(|l| {
                ["You draw", "You stop", "You pass", "You trade", "You hire"]
                    .iter()
                    .any(|p| l.starts_with(p))
            })
            .collect();
        assert!(
            !mine_after.is_empty(),
            "the table played for the seat: {lines:#?}"
        );
        for line in mine_after {
            assert!(line.contains("(auto)"), "not marked automatic: {line:?}");
        }
        // The other seat is told too, by name.
        let host_log = host.snapshot().log;
        assert!(
            host_log.iter().any(|l| l.text
                == "staller took too long and is played automatically from now on."),
            "{host_log:#?}"
        );
        // So is the replay of the transcript, from the same words.
        let mut replay: Replay = Replay::open(Path::new(&snap.transcript.unwrap())).unwrap();
        replay.seek(Seek::End);
        let replayed = replay.snapshot().log;
        assert!(replayed.iter().any(|l| l.text
            == "staller took too long and is played automatically from now on."));
        assert!(
            replayed
                .iter()
                .any(|l| l.text.starts_with("staller ") && l.text.contains("(auto)"))
        );
    }
}
