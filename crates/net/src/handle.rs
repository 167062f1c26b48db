//! The API a front end (or a script) uses to drive one peer: start it with
//! [`spawn`], then read its events and snapshot and submit the seat's
//! decisions through its [`GameHandle`]. Everything crosses bounded channels;
//! the node never blocks on a slow reader (events that do not fit are
//! dropped and counted, and the snapshot always holds the latest state).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use libp2p::Multiaddr;
use roundtable_bots::Bot;
use roundtable_engine::{Game, GameResult, Seat};
use roundtable_table::{GameId, Record, Violation};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;

use crate::NetError;
use crate::counting::ByteCounter;
use crate::store::DataDir;
use crate::ticket::Ticket;
use crate::wire::LobbyId;

/// Capacity of a handle's command channel.
pub const COMMAND_CAPACITY: usize = 64;
/// Capacity of a handle's event channel.
pub const EVENT_CAPACITY: usize = 4096;

/// How a peer starts.
pub enum Role<G: Game> {
    /// Open a table and take its first seat.
    Host {
        /// Seats at the table, the host's included.
        seats: u8,
        /// The game's options.
        options: G::Options,
        /// The stall timeout every seat will use, in milliseconds.
        stall_timeout_ms: u64,
    },
    /// Take a seat at the table a ticket names (or resume it, when this data
    /// directory already plays there).
    Join {
        /// The invitation.
        ticket: Ticket,
    },
    /// Follow a table as a spectator.
    Watch {
        /// The invitation.
        ticket: Ticket,
    },
    /// Resume a game this data directory plays (after a crash or restart).
    Resume {
        /// The table.
        lobby: LobbyId,
    },
}

/// Who makes the local seat's decisions.
pub enum Controller<G: Game> {
    /// A bot, driven by the node itself.
    Bot(Box<dyn Bot<G>>),
    /// Whoever holds the [`GameHandle`] ([`GameHandle::submit`]).
    Handle,
}

/// Timing knobs (defaults suit play over the internet; tests shorten them).
#[derive(Clone, Debug)]
pub struct Timing {
    /// The catch-up interval (SPEC 4.4): a spectator compares heads with
    /// every seat's peer this often; a seat's peer once its heads have
    /// stood still this long, and then once an interval while it knows it
    /// lacks something.
    pub sync_interval: Duration,
    /// How long a finished seat keeps answering catch-up at least, even
    /// when every peer it knows has the end: a spectator or a seat that
    /// arrives late still finds someone to ask (SPEC 4.4).
    pub linger_min: Duration,
    /// How long a finished seat keeps answering catch-up to peers that do
    /// not have the end yet, at most.
    pub linger: Duration,
    /// A peer whose game is unfinished gives up when no other seat's peer
    /// was connected and the game did not move for this long (a seat waits
    /// its stall timeout on top: the table may still settle the game by
    /// stall claims alone).
    pub give_up: Duration,
    /// A joiner or spectator gives up when it has not reached the host at
    /// the ticket's addresses for this long.
    pub dial_give_up: Duration,
    /// A bot waits this long before it acts (0 for tests and benchmarks).
    pub bot_delay: Duration,
    /// Lobby requests are retried this often.
    pub lobby_retry: Duration,
    /// Disconnected seats are redialled this often.
    pub redial: Duration,
    /// The host frees the seat of a joiner it has not heard from for this
    /// long before the game starts (joiners repeat `Join` every
    /// [`Timing::lobby_retry`]).
    pub lobby_timeout: Duration,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            sync_interval: Duration::from_secs(1),
            linger_min: Duration::from_secs(5),
            linger: Duration::from_secs(30),
            give_up: Duration::from_secs(60),
            dial_give_up: Duration::from_secs(20),
            bot_delay: Duration::from_millis(0),
            lobby_retry: Duration::from_millis(500),
            redial: Duration::from_secs(2),
            lobby_timeout: Duration::from_secs(10),
        }
    }
}

/// The stall timeouts a peer accepts by default, in milliseconds (also the
/// command line's bounds for `--stall-timeout-ms`): from 10 s (a seat must
/// have time to hear the table and act; below that honest peers are claimed
/// stalled) to a day (a clock deadline this far ahead cannot overflow).
pub const STALL_TIMEOUT_BOUNDS_MS: std::ops::RangeInclusive<u64> = 10_000..=86_400_000;

impl NodeConfig {
    /// Be reached only through [`NodeConfig::relays`] (`--no-listen`): no
    /// direct address of ours is told to anyone, yet we still listen on
    /// system-chosen ports of every interface. Hole punching needs that:
    /// our dials then leave from the port our connection to the relay
    /// left from, the one the relay saw and the home router mapped, and a
    /// dial from a fresh port meets no mapping at the other end.
    pub fn reachable_only_through_relays(&mut self) {
        self.listen = default_listen();
        self.announce_direct = false;
    }
}

/// Everything a peer needs besides its role.
#[derive(Clone, Debug)]
pub struct NodeConfig {
    /// Keys, chain secrets and transcripts.
    pub data_dir: DataDir,
    /// The display name (at most 32 bytes).
    pub name: String,
    /// Addresses to listen on (default: every interface, TCP and QUIC,
    /// ports chosen by the system).
    pub listen: Vec<Multiaddr>,
    /// Discover peers on the LAN with mDNS.
    pub mdns: bool,
    /// Relay servers to reserve a slot on, so peers behind NAT can reach us.
    pub relays: Vec<Multiaddr>,
    /// Ask the home router (UPnP IGD) to map a public port to our
    /// listeners, and remove the mapping on exit (SPEC 4.9). Off by
    /// default here; the command line turns it on for peers that listen.
    pub upnp: bool,
    /// Tell others our direct addresses (tickets, identify, peer lists).
    /// `false` ([`NodeConfig::reachable_only_through_relays`]): only relay
    /// circuits are told, and the direct listeners serve hole punching only.
    pub announce_direct: bool,
    /// Timing knobs.
    pub timing: Timing,
    /// Count wire bytes (switches to TCP only), for measurements and tests.
    pub counter: Option<Arc<ByteCounter>>,
    /// Spectators: also write the canonical transcript here at the end.
    pub transcript_copy: Option<PathBuf>,
    /// The stall timeouts this peer plays with, in milliseconds: a host
    /// whose terms fall outside is refused (and hosting with one outside
    /// fails). Default [`STALL_TIMEOUT_BOUNDS_MS`]; tests widen it.
    pub stall_timeout_bounds_ms: std::ops::RangeInclusive<u64>,
    /// The genesis nonce this peer's table must carry, when it is fixed
    /// before the table opens (a tournament table's nonce names its
    /// tournament, round and table, SPEC 4.5). A host proposes with it; a
    /// joiner accepts no proposal and no genesis with another. `None`: the
    /// host draws fresh random bytes, and a joiner takes any.
    pub genesis_nonce: Option<[u8; 32]>,
    /// The players this peer's table is for, when they are fixed before it
    /// opens (a tournament table's): a host seats no other key, and a
    /// joiner accepts no proposal that seats another. `None`: anyone with
    /// the ticket.
    pub seat_keys: Option<Vec<roundtable_table::PublicKey>>,
}

impl NodeConfig {
    /// Defaults for `data_dir`.
    pub fn new(data_dir: DataDir, name: impl Into<String>) -> Self {
        NodeConfig {
            data_dir,
            name: name.into(),
            listen: default_listen(),
            mdns: true,
            relays: Vec::new(),
            upnp: false,
            announce_direct: true,
            timing: Timing::default(),
            counter: None,
            transcript_copy: None,
            stall_timeout_bounds_ms: STALL_TIMEOUT_BOUNDS_MS,
            genesis_nonce: None,
            seat_keys: None,
        }
    }
}

/// Every interface, TCP and QUIC, system-chosen ports.
pub fn default_listen() -> Vec<Multiaddr> {
    ["/ip4/0.0.0.0/tcp/0", "/ip4/0.0.0.0/udp/0/quic-v1"]
        .iter()
        .filter_map(|a| a.parse().ok())
        .collect()
}

/// `addr` with its TCP or UDP port replaced by 0 (system-chosen).
pub fn any_port(addr: &Multiaddr) -> Multiaddr {
    use libp2p::multiaddr::Protocol;
    addr.iter()
        .map(|p| match p {
            Protocol::Tcp(_) => Protocol::Tcp(0),
            Protocol::Udp(_) => Protocol::Udp(0),
            other => other,
        })
        .collect()
}

/// A command to the node.
#[derive(Debug)]
pub enum Command<G: Game> {
    /// The local seat's decision; the reply says whether the table took it.
    Submit(G::Action, oneshot::Sender<Result<(), String>>),
    /// The local seat resigns.
    Resign,
    /// Stop the node now.
    Shutdown,
}

/// Something that happened, for a log or a screen.
#[derive(Clone, Debug)]
pub enum NetEvent<G: Game> {
    /// Listening on an address.
    Listening(Multiaddr),
    /// The host's ticket (again when the host's addresses change).
    Ticket(Ticket),
    /// Lobby progress.
    Lobby {
        /// Seats taken.
        filled: u8,
        /// Seats in all.
        seats: u8,
    },
    /// The game started (or was resumed).
    Started {
        /// The game id.
        game_id: GameId,
        /// The local seat (none for a spectator).
        seat: Option<Seat>,
        /// Names in seat order.
        names: Vec<String>,
        /// The transcript log.
        transcript: PathBuf,
        /// The game's options, from the genesis: what a screen needs to
        /// follow the game input by input on its own copy (the applied
        /// inputs that follow start from the first).
        options: G::Options,
        /// How long a seat may take over a decision before the others may
        /// claim it stalled and its seat is played automatically.
        stall_timeout: Duration,
    },
    /// An input was applied.
    Applied {
        /// Its position.
        position: u64,
        /// What it was.
        record: Record<G>,
        /// What happened.
        events: Vec<G::Event>,
    },
    /// A seat forfeited.
    Forfeited {
        /// The seat.
        seat: Seat,
        /// Why.
        reason: &'static str,
    },
    /// The table went back to a position to apply a forfeit.
    Rewound {
        /// The position.
        position: u64,
    },
    /// A seat's peer connected (`true`) or went away.
    Peer {
        /// The seat.
        seat: Seat,
        /// Whether it is connected now.
        online: bool,
    },
    /// A proven violation: the table stopped.
    Violation(Box<Violation>),
    /// A diagnostic line (connections, refused input, bans).
    Note(String),
    /// A line for the player whatever the verbosity, told once: something
    /// asked for will not work (a relay given with `--relay` refused us a
    /// reservation), and what would help.
    Warning(String),
    /// The node gives up: every peer it needs is gone (or the ticket's host
    /// never answered). One line for the player, which names where the
    /// game so far is saved; the node then stops with
    /// [`NetError::GaveUp`](crate::NetError::GaveUp).
    GaveUp(String),
    /// The game is over and the canonical transcript is written.
    Finished {
        /// The result.
        result: GameResult,
        /// Where the transcript is.
        transcript: PathBuf,
    },
}

/// Where the node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Starting up.
    Starting,
    /// Waiting for seats, a proposal or the genesis.
    Lobby,
    /// The game runs.
    Playing,
    /// The game is over.
    Finished,
    /// The table stopped after a violation.
    Failed,
}

/// The latest state of the node, for a screen.
#[derive(Clone, Debug)]
pub struct Snapshot<G: Game> {
    /// Where the node is.
    pub phase: Phase,
    /// The game id once the genesis exists.
    pub game_id: Option<GameId>,
    /// The local seat.
    pub seat: Option<Seat>,
    /// Names in seat order; in a lobby, the players seated so far, the host
    /// first (with [`Snapshot::online`] saying who is still connected).
    pub names: Vec<String>,
    /// In a lobby, which of [`Snapshot::names`] is the local player (none
    /// for a spectator, or before the host answered).
    pub lobby_seat: Option<usize>,
    /// Inputs applied.
    pub position: u64,
    /// What the local seat (or a spectator) may see.
    pub view: Option<G::View>,
    /// The local seat's legal actions now (empty unless it must decide).
    pub legal: Vec<G::Action>,
    /// Per seat, whether its peer is connected (the local seat always is).
    pub online: Vec<bool>,
    /// Per seat, whether its peer is reached only through a relay (every
    /// open connection to it is relayed; false while it is offline).
    pub relayed: Vec<bool>,
    /// Per seat, whether it forfeited.
    pub forfeited: Vec<bool>,
    /// Per seat, when the game waits on it: the moment its turn clock runs
    /// out and the others may claim it stalled.
    pub clock_ends: Vec<Option<Instant>>,
    /// Whether every seat's peer subscribed, so the first move may go out.
    pub ready: bool,
    /// The result once finished.
    pub result: Option<GameResult>,
    /// Events dropped because the event channel was full.
    pub dropped_events: u64,
}

impl<G: Game> Default for Snapshot<G> {
    fn default() -> Self {
        Snapshot {
            phase: Phase::Starting,
            game_id: None,
            seat: None,
            names: Vec::new(),
            lobby_seat: None,
            position: 0,
            view: None,
            legal: Vec::new(),
            online: Vec::new(),
            relayed: Vec::new(),
            forfeited: Vec::new(),
            clock_ends: Vec::new(),
            ready: false,
            result: None,
            dropped_events: 0,
        }
    }
}

/// How a node ended.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The game, if it started.
    pub game_id: Option<GameId>,
    /// The result, if the game finished.
    pub result: Option<GameResult>,
    /// The transcript, if the game started.
    pub transcript: Option<PathBuf>,
    /// The violation that stopped the table, if any.
    pub violation: Option<Violation>,
    /// Wire bytes (sent, received) when counted.
    pub bytes: Option<(u64, u64)>,
}

/// A running peer.
pub struct GameHandle<G: Game> {
    pub(crate) commands: mpsc::Sender<Command<G>>,
    pub(crate) events: mpsc::Receiver<NetEvent<G>>,
    pub(crate) snapshot: watch::Receiver<Arc<Snapshot<G>>>,
    pub(crate) task: JoinHandle<Result<Outcome, NetError>>,
}

impl<G: Game> GameHandle<G> {
    /// Submit the local seat's decision and wait for the table's answer.
    pub async fn submit(&self, action: G::Action) -> Result<(), NetError> {
        let (tx, rx) = oneshot::channel();
        self.commands
            .send(Command::Submit(action, tx))
            .await
            .map_err(|_| NetError::Stopped)?;
        rx.await
            .map_err(|_| NetError::Stopped)?
            .map_err(NetError::Refused)
    }

    /// Submit without waiting (for a synchronous front end); the answer is
    /// dropped, and a refusal shows as a [`NetEvent::Note`].
    pub fn try_submit(&self, action: G::Action) -> Result<(), NetError> {
        let (tx, _rx) = oneshot::channel();
        self.commands
            .try_send(Command::Submit(action, tx))
            .map_err(|_| NetError::Busy)
    }

    /// Resign the local seat.
    pub fn resign(&self) -> Result<(), NetError> {
        self.commands
            .try_send(Command::Resign)
            .map_err(|_| NetError::Busy)
    }

    /// Stop the node.
    pub fn shutdown(&self) {
        let _ = self.commands.try_send(Command::Shutdown);
    }

    /// Stop the node at once without a word to anyone, as a crash or a
    /// killed process would: its connections drop, and a lobby it sat in
    /// frees the seat only when the host gives up on it.
    pub fn abort(self) {
        self.task.abort();
    }

    /// The next event, waiting for it; `None` once the node has stopped and
    /// every event was read.
    pub async fn next_event(&mut self) -> Option<NetEvent<G>> {
        self.events.recv().await
    }

    /// The table's ticket, as soon as the node listens: the events before
    /// it are read and dropped. `None` if the node stopped without one.
    /// Whoever must hand the ticket on before the screen opens (the bots
    /// that join, a tournament node) waits for it so.
    pub async fn first_ticket(&mut self) -> Option<Ticket> {
        while let Some(event) = self.next_event().await {
            if let NetEvent::Ticket(ticket) = event {
                return Some(ticket);
            }
        }
        None
    }

    /// The next event if one is waiting.
    pub fn try_next_event(&mut self) -> Option<NetEvent<G>> {
        self.events.try_recv().ok()
    }

    /// The latest snapshot.
    pub fn snapshot(&self) -> Arc<Snapshot<G>> {
        self.snapshot.borrow().clone()
    }

    /// A receiver that wakes when the snapshot changes.
    pub fn watch(&self) -> watch::Receiver<Arc<Snapshot<G>>> {
        self.snapshot.clone()
    }

    /// Whether the node has stopped (its game ended, it failed, or it was
    /// shut down); a synchronous front end polls this instead of awaiting
    /// [`GameHandle::outcome`].
    pub fn is_stopped(&self) -> bool {
        self.task.is_finished()
    }

    /// Wait for the node to end.
    pub async fn outcome(self) -> Result<Outcome, NetError> {
        self.task
            .await
            .map_err(|e| NetError::Transport(format!("the node task failed: {e}")))?
    }

    /// Split into the event receiver and the rest (to read events in one
    /// task while waiting for the outcome in another).
    pub fn split(self) -> (mpsc::Receiver<NetEvent<G>>, GameHandle<G>) {
        let (_tx, empty) = mpsc::channel(1);
        let events = self.events;
        (
            events,
            GameHandle {
                commands: self.commands,
                events: empty,
                snapshot: self.snapshot,
                task: self.task,
            },
        )
    }
}

/// Start a peer on the current tokio runtime.
pub fn spawn<G: crate::NetGame>(
    config: NodeConfig,
    role: Role<G>,
    controller: Controller<G>,
) -> Result<GameHandle<G>, NetError> {
    let (commands_tx, commands_rx) = mpsc::channel(COMMAND_CAPACITY);
    let (events_tx, events_rx) = mpsc::channel(EVENT_CAPACITY);
    let (snapshot_tx, snapshot_rx) = watch::channel(Arc::new(Snapshot::default()));
    let node = crate::node::Node::new(
        config,
        role,
        controller,
        commands_rx,
        events_tx,
        snapshot_tx,
    )?;
    let task = tokio::spawn(node.run());
    Ok(GameHandle {
        commands: commands_tx,
        events: events_rx,
        snapshot: snapshot_rx,
        task,
    })
}
