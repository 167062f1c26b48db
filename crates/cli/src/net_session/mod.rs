//! The terminal UI's [`Session`] over a networked table of any listed game:
//! a [`GameHandle`] read without blocking, so that the UI loop (a plain
//! thread) and the node (a tokio task) never wait on each other. The lobby
//! screen's content is in [`lobby`], the nodes' lifetimes (quiet bots, a
//! grace to stop) in [`nodes`], and the start menu's [`NetLauncher`] in
//! [`launcher`].

mod launcher;
mod lobby;
mod nodes;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use roundtable_engine::{Observer, Seat};
use roundtable_games::Listed;
use roundtable_games::words::Fate;
use roundtable_net::{GameHandle, NetEvent, Phase, Ticket};
use roundtable_tui::session::{Awaited, Chronicle};
use roundtable_tui::{Connection, SeatInfo, SeatKind, Session, Snapshot};
use tokio::sync::watch;

pub(crate) use launcher::{NetLauncher, Reach};
pub(crate) use nodes::{NodeEnd, shut_down, start_quiet_bots};

/// One seat's (or a spectator's) table over the network, for the TUI.
pub(crate) struct NetSession<G: Listed> {
    handle: GameHandle<G>,
    /// Marks which of the handle's snapshots the screen has seen.
    watch: watch::Receiver<Arc<roundtable_net::Snapshot<G>>>,
    /// Shown on the lobby screen, so the host can copy it.
    ticket: Option<Ticket>,
    /// What the table is called before the game has names.
    title: String,
    chronicle: Chronicle<G>,
    /// The game's options and turn clock, from the start of the game.
    options: G::Options,
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
    placeholder: G::View,
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
    companions: Vec<GameHandle<G>>,
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

impl<G: Listed> NetSession<G> {
    /// A session over `handle`; `seats` is the table size if known (the
    /// host's), for the picture shown before the game starts.
    pub(crate) fn new(
        handle: GameHandle<G>,
        title: String,
        ticket: Option<Ticket>,
        seats: u8,
    ) -> anyhow::Result<Self> {
        let placeholder = G::new_game(
            seats.clamp(G::MIN_SEATS, G::MAX_SEATS),
            &G::Options::default(),
        )
        .map_err(|e| anyhow::anyhow!("{e}"))?
        .view(Observer::Spectator);
        let seats = ticket_seats(&ticket, seats);
        Ok(NetSession {
            watch: handle.watch(),
            handle,
            ticket,
            title,
            chronicle: Chronicle::new(),
            options: G::Options::default(),
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
            .map(NodeEnd::of)
            .collect()
    }

    /// Where the line the node gives up with (if it does) will be, for
    /// after the screen closed.
    pub(crate) fn gave_up(&self) -> GaveUp {
        self.gave_up.clone()
    }

    /// Bots started for this table, stopped when the session ends.
    pub(crate) fn with_companions(mut self, bots: Vec<GameHandle<G>>) -> Self {
        self.companions = bots;
        self
    }
}

impl<G: Listed> Drop for NetSession<G> {
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

fn name_of(names: &[String], seat: Seat) -> String {
    names
        .get(seat.index())
        .cloned()
        .unwrap_or_else(|| seat.to_string())
}

/// The status line while the table waits for others: whose decision, or
/// the draw every peer takes part in.
fn waiting_for(awaited: Option<Awaited>, names: &[String]) -> String {
    match awaited {
        Some(Awaited::Seats(seats)) if !seats.is_empty() => {
            let who: Vec<String> = seats.iter().map(|s| name_of(names, *s)).collect();
            format!("waiting for {}", who.join(", "))
        }
        Some(Awaited::Table) => "waiting for the draw".into(),
        // The log cannot follow the game, or it is just over.
        _ => "waiting for the others".into(),
    }
}

/// Time left on a seat's turn clock, as of `now`.
fn clock_left<G: Listed>(
    net: &roundtable_net::Snapshot<G>,
    seat: usize,
    now: Instant,
) -> Option<Duration> {
    net.clock_ends
        .get(seat)
        .copied()
        .flatten()
        .map(|end| end.saturating_duration_since(now))
}

impl<G: Listed> Session<G> for NetSession<G> {
    fn snapshot(&self) -> Snapshot<G> {
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
                    let kind = lobby::seat_kind(name);
                    let online = net.online.get(i).copied().unwrap_or(false);
                    let connection = match (online, net.phase) {
                        (true, _) => lobby::connected(&net, i),
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
                Some(waiting_for(self.chronicle.awaited(), names))
            }
            Phase::Playing | Phase::Finished => None,
            Phase::Failed => Some("the table stopped after a violation".into()),
        };
        // A seat that stopped when the game was abandoned was never played
        // for: the words say what became of each, as the results do.
        let ending = self.chronicle.ending();
        let (stopped, played_for): (Vec<Seat>, Vec<Seat>) = net
            .forfeited
            .iter()
            .enumerate()
            .filter(|(_, f)| **f)
            .map(|(i, _)| Seat(i as u8))
            .partition(|seat| ending.fate(*seat) == Some(Fate::Stopped));
        for (words, seats) in [
            ("played automatically", played_for),
            ("stopped answering", stopped),
        ] {
            if seats.is_empty() {
                continue;
            }
            let who: Vec<String> = seats.iter().map(|s| name_of(names, *s)).collect();
            let line = format!("{words}: {}", who.join(", "));
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
            ending: self.chronicle.ending().clone(),
            status,
            transcript: self.transcript.as_ref().map(|p| p.display().to_string()),
            lobby,
            options: self.options.clone(),
            stall_timeout: self.stall_timeout,
        }
    }

    fn submit(&mut self, action: G::Action) -> Result<(), String> {
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
                NetEvent::Warning(line) => {
                    // Long: the log wraps it whole, the status line shows
                    // what fits.
                    self.chronicle.note(line.clone());
                    self.notice = Some(line);
                }
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

#[cfg(test)]
mod tests {
    //! Sessions over real tables on 127.0.0.1: what the screen gets when a
    //! seat is forfeited, and when a peer resumes its game from its log.

    use std::path::Path;

    use roundtable_bots::RandomBot;
    use roundtable_net::{Controller, DataDir, NodeConfig, Role, Timing, spawn};
    use roundtable_port_royal::{Options, PortRoyal};
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
    ) -> (NetSession<PortRoyal>, Ticket) {
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
    ) -> NetSession<PortRoyal> {
        let _inside = rt.enter();
        let handle = spawn::<PortRoyal>(config, role, controller).unwrap();
        NetSession::new(handle, "joiner".into(), None, 2).unwrap()
    }

    /// Poll `sessions` as the screen does until `done` holds for the first.
    fn poll_until(
        sessions: &mut [&mut NetSession<PortRoyal>],
        what: &str,
        done: impl Fn(&NetSession<PortRoyal>) -> bool,
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

    fn over(s: &NetSession<PortRoyal>) -> bool {
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
        let mut replay: Replay<PortRoyal> = Replay::open(Path::new(&transcript)).unwrap();
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
        let shape = |log: &[roundtable_games::words::LogLine]| {
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
            assert!(
                line.contains("(auto)"),
                "not marked automatic: {line:?} in {lines:#?}"
            );
        }
        // The other seat is told too, by name.
        let host_log = host.snapshot().log;
        assert!(
            host_log.iter().any(|l| l.text
                == "staller took too long and is played automatically from now on."),
            "{host_log:#?}"
        );
        // So is the replay of the transcript, from the same words.
        let mut replay: Replay<PortRoyal> =
            Replay::open(Path::new(&snap.transcript.unwrap())).unwrap();
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

#[cfg(test)]
mod private_cards {
    //! A session over a table of a game with private hands, on 127.0.0.1.

    use std::time::{Duration, Instant};

    use roundtable_bots::RandomBot;
    use roundtable_guildhall::{Guildhall, Options};
    use roundtable_net::{Controller, DataDir, NetEvent, NodeConfig, Role, spawn};
    use roundtable_tui::Session;

    use super::NetSession;

    /// Generous bound for what must happen (never an assertion on how fast).
    const LIMIT: Duration = Duration::from_secs(90);

    fn config(dir: &std::path::Path, name: &str) -> NodeConfig {
        let mut c = NodeConfig::new(DataDir::new(dir.join(name)), name.to_owned());
        c.listen = vec!["/ip4/127.0.0.1/tcp/0".parse().unwrap()];
        c.mdns = false;
        c
    }

    /// A person's seat at a Guildhall table sees its own hand by name and
    /// is offered the moves that name its cards: the node's view once
    /// left every card of the hand unknown ("?") and offered only the moves
    /// that name none.
    #[test]
    fn a_guildhall_seat_sees_its_own_hand_and_the_moves_that_name_it() {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let _inside = rt.enter();
        let mut host = spawn::<Guildhall>(
            config(dir.path(), "host"),
            Role::Host {
                seats: 2,
                options: Options::default(),
                stall_timeout_ms: 60_000,
            },
            Controller::Bot(Box::new(RandomBot::new(1))),
        )
        .unwrap();
        let ticket = rt.block_on(async {
            loop {
                match host.next_event().await {
                    Some(NetEvent::Ticket(t)) => return t,
                    Some(_) => {}
                    None => panic!("the host stopped"),
                }
            }
        });
        let handle = spawn::<Guildhall>(
            config(dir.path(), "joiner"),
            Role::Join { ticket },
            Controller::Handle,
        )
        .unwrap();
        let mut joiner = NetSession::new(handle, "joiner".into(), None, 2).unwrap();
        let deadline = Instant::now() + LIMIT;
        let snap = loop {
            joiner.poll(Instant::now());
            let snap = joiner.snapshot();
            if !snap.legal.is_empty() {
                break snap;
            }
            assert!(Instant::now() < deadline, "no move for the joiner");
            std::thread::sleep(Duration::from_millis(5));
        };
        let hand = &snap.view.my_hand;
        assert!(!hand.is_empty(), "the joiner holds cards at its move");
        assert!(
            hand.iter().all(|(_, card)| card.is_some()),
            "the joiner's own hand is unknown to it: {hand:?}"
        );
        let named: Vec<String> = snap
            .legal
            .iter()
            .map(ToString::to_string)
            .filter(|a| a.contains(':'))
            .collect();
        assert!(
            !named.is_empty(),
            "no move names a card of the hand: {:?}",
            snap.legal
        );
        host.shutdown();
    }
}
