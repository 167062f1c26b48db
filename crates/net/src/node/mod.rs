//! The node: one task that owns a swarm and, once the game starts, the
//! sans-IO [`Table`] of one seat (or of a spectator). It turns swarm events
//! into table inputs and table outputs into gossip, transcript appends and
//! events for the handle, in the order the table gives them (str0m's run
//! loop: one input, then drain every output, then wait).
//!
//! Over 1,000 lines because the loop, and the guards, buckets and addresses
//! that bound what a peer may make it do, are one concern: each input is
//! checked where it is taken. The lobby, play and catch-up halves are in
//! their own files; the last 70 lines are tests.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use libp2p::core::ConnectedPoint;
use libp2p::gossipsub::{self, IdentTopic, MessageAcceptance, MessageId, PublishError, TopicHash};
use libp2p::multiaddr::Protocol;
use libp2p::request_response::{self, OutboundRequestId};
use libp2p::swarm::dial_opts::DialOpts;
use libp2p::swarm::{ConnectionId, SwarmEvent};
use libp2p::{Multiaddr, PeerId, Swarm, autonat, dcutr, identify, mdns, ping, relay};
use roundtable_engine::{Game, GameResult, Observer, Seat};
use roundtable_fairdeck::{ChainSecret, DEFAULT_CHAIN_LENGTH};
use roundtable_table::genesis::{ACCEPT_DOMAIN, MAX_NAME_BYTES};
use roundtable_table::transcript::{self, Frame, TranscriptLog};
use roundtable_table::{
    Acceptance, Config, Genesis, Hash32, Identity, Local, Output, Proposal, SeatInfo, Signed,
    Table, TableError,
};
use tokio::sync::{mpsc, watch};

use crate::NetError;
use crate::ending::{self, Contact};
use crate::handle::{Command, Controller, NetEvent, NodeConfig, Outcome, Phase, Role, Snapshot};
use crate::identity::{keypair_of, peer_id_of};
use crate::store::{random_bytes, write_durably};
use crate::swarm::{Behaviour, BehaviourEvent, MAX_GOSSIP_BYTES, SwarmOptions, build_swarm};
use crate::ticket::Ticket;
use crate::wire::{
    Announce, LOBBY_TOPIC, LobbyId, LobbyInfo, LobbyRequest, LobbyResponse, LobbySeat, MAX_ADDRS,
    MAX_ANNOUNCE_BYTES, MAX_SYNC_ENVELOPES, MAX_SYNC_RESPONSE_BYTES, PeerAddrs, SyncRequest,
    SyncResponse, decode, encode,
};

mod catchup;
mod guards;
mod lobby;
mod paths;
use paths::Path;
mod play;
mod reach;
mod relays;

pub use guards::BAN_STRIKES;
pub(crate) use guards::Guards;
use guards::{Announcers, Bucket, WATCHERS_SYNC_BYTES_BURST, WATCHERS_SYNC_BYTES_RATE};
pub use reach::UPNP_RELEASE_WAIT;
pub use relays::MAX_RELAY_REFUSALS;

/// Envelopes waiting to be published, at most. Own envelopes are in the
/// table's log and served by catch-up, so dropping the oldest when a peer
/// is cut off for long loses nothing.
pub const OUTBOX_CAPACITY: usize = 1024;
/// Peers without a seat whose catch-up heads a finished seat keeps (and
/// waits for, SPEC 4.4) at most.
pub(crate) const MAX_WATCHER_HEADS: usize = 64;
/// Joiners a host remembers as having let a proposal lapse, at most.
const MAX_LAPSED: usize = 256;
/// How long a joiner that leaves the lobby waits for the host to take note.
const LEAVE_GRACE: Duration = Duration::from_secs(1);
/// The longest a bot of this node thinks on one answer, whatever its think
/// time and however much the table's turn clock leaves: while it thinks the
/// node's swarm is not polled, so its peers' messages and pings go
/// unanswered, and libp2p's ping gives up on a peer after 20 s of silence.
pub const LONGEST_BOT_ANSWER: Duration = Duration::from_secs(5);

/// The host's lobby.
struct HostLobby<G: Game> {
    info: LobbyInfo,
    lobby: LobbyId,
    options: G::Options,
    chain: ChainSecret,
    /// Seated players, the host first.
    members: Vec<Member>,
    proposal: Option<Proposal>,
    acceptances: BTreeMap<u8, Acceptance>,
    ticket_emitted: Option<Ticket>,
    ticket_due: Instant,
    announce_counter: u64,
    /// When the current proposal went out: joiners that have not accepted
    /// it a lobby timeout later lose their seat.
    proposed_at: Instant,
    /// Joiners that let a proposal lapse: their `Join`s are refused, so one
    /// that never accepts cannot take its seat back and hold the lobby open
    /// for ever. At most [`MAX_LAPSED`].
    lapsed: HashSet<PeerId>,
}

#[derive(Clone, Debug)]
struct Member {
    peer: PeerId,
    seat: SeatInfo,
    addrs: Vec<Multiaddr>,
    /// When its last `Join` came: a joiner repeats it until the game
    /// starts, so one that stopped asking has gone.
    seen: Instant,
}

impl<G: Game> HostLobby<G> {
    /// Who sat down so far, as the lobby's `Welcome` lists them.
    fn seated(&self) -> Vec<LobbySeat> {
        self.members
            .iter()
            .map(|m| LobbySeat {
                key: m.seat.key,
                name: m.seat.name.clone(),
            })
            .collect()
    }

    /// The seats changed after a proposal went out: it no longer seats the
    /// table, so it and its acceptances are dropped, and a new one follows
    /// when the table is full again.
    fn withdraw_proposal(&mut self) {
        self.proposal = None;
        self.acceptances.clear();
    }

    /// Free the seats of joiners that have not accepted a proposal out for
    /// `timeout` (SPEC 4.5), and refuse their `Join`s from now on. Returns
    /// how many lost their seat.
    fn evict_laggards(&mut self, me: PeerId, now: Instant, timeout: Duration) -> usize {
        let Some(proposal) = &self.proposal else {
            return 0;
        };
        if now.saturating_duration_since(self.proposed_at) < timeout {
            return 0;
        }
        let acceptances = &self.acceptances;
        let laggards: Vec<PeerId> = self
            .members
            .iter()
            .filter(|m| {
                m.peer != me
                    && proposal
                        .seat_of(&m.seat.key)
                        .is_none_or(|s| !acceptances.contains_key(&s.0))
            })
            .map(|m| m.peer)
            .collect();
        self.members.retain(|m| !laggards.contains(&m.peer));
        for peer in &laggards {
            if self.lapsed.len() < MAX_LAPSED {
                self.lapsed.insert(*peer);
            }
        }
        laggards.len()
    }
}

/// A joiner's lobby.
struct JoinLobby {
    ticket: Ticket,
    host: PeerId,
    info: Option<LobbyInfo>,
    seat: SeatInfo,
    accepted: Option<Proposal>,
    filled: u8,
    /// Who sat down so far, as the host last said.
    seated: Vec<LobbySeat>,
}

/// A spectator's lobby.
struct WatchLobby {
    ticket: Ticket,
    host: PeerId,
    /// Who sat down so far, as the host last said.
    seated: Vec<LobbySeat>,
}

/// A game in progress.
struct Play<G: Game> {
    lobby: LobbyId,
    table: Table<G>,
    log: Option<TranscriptLog>,
    transcript_path: PathBuf,
    topic: IdentTopic,
    topic_hash: TopicHash,
    seat_peers: Vec<PeerId>,
    names: Vec<String>,
    peer_addrs: HashMap<PeerId, Vec<Multiaddr>>,
    subscribed: HashSet<PeerId>,
    ready: bool,
    ready_deadline: Instant,
    outbox: VecDeque<Vec<u8>>,
    /// Our catch-up request in flight to each peer, by the heads it
    /// carried: an answer compares heads only if ours are still those.
    sync_inflight: HashMap<PeerId, Vec<u64>>,
    /// When we last sent each seat's peer a catch-up request: a seat that
    /// knows it lacks something asks again once an interval, not faster.
    asked_at: HashMap<PeerId, Instant>,
    /// When we last compared heads with each seat's peer (SPEC 4.4, "Who
    /// asks whom"): we answered its request, or it answered ours and moved
    /// none of our heads. Once our heads stand still, one comparison with
    /// each seat's peer since they last changed is all a caught-up seat
    /// needs; before, every pair of seats asked every second, which cost
    /// 4 % of a game's bytes while gossip had already delivered everything.
    compared_at: HashMap<PeerId, Instant>,
    /// Our heads when we last looked, and when they last changed.
    own_heads: Vec<u64>,
    heads_changed_at: Instant,
    /// The latest heads each peer reported: every seat's peer, and every
    /// other peer that asked for catch-up while it stays connected (at most
    /// [`MAX_WATCHER_HEADS`] of those, see `catchup::note_heads`).
    peer_heads: HashMap<PeerId, Vec<u64>>,
    finished_at: Option<Instant>,
    result: Option<GameResult>,
    failed: bool,
    /// Host only: Start messages not yet acknowledged, per joiner.
    start_pending: HashMap<PeerId, LobbyRequest>,
    /// Envelopes read back from the log on a resume: not appended again.
    logged: HashSet<Hash32>,
    replaying: bool,
    last_bot_position: Option<u64>,
    bot_due: Option<(u64, Instant)>,
    /// The table's stall timeout: how long a seat waits before it may
    /// claim another stalled.
    stall_timeout: Duration,
    /// When to announce our table subscription again, and when we last
    /// did (see `paths::Node::connection_closed`).
    resubscribe_due: Option<Instant>,
    resubscribed_at: Option<Instant>,
}

enum Stage<G: Game> {
    Idle,
    Host(Box<HostLobby<G>>),
    Join(Box<JoinLobby>),
    Watch(Box<WatchLobby>),
    Play(Box<Play<G>>),
}

/// Why we sent a lobby request (to retry it when it fails).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ask {
    Join,
    Watch,
    Leave,
    Propose(PeerId),
    Start(PeerId),
}

pub(crate) struct Node<G: Game> {
    cfg: NodeConfig,
    swarm: Swarm<Behaviour>,
    identity: Identity,
    me: PeerId,
    clock: Instant,
    commands: mpsc::Receiver<Command<G>>,
    commands_open: bool,
    events: mpsc::Sender<NetEvent<G>>,
    snapshot: watch::Sender<Arc<Snapshot<G>>>,
    dropped: u64,
    controller: Controller<G>,
    role: Option<Role<G>>,
    stage: Stage<G>,
    listen_addrs: Vec<Multiaddr>,
    /// Each connected peer's open connections, and which of them go
    /// through a relay: once a direct one is up, the relayed ones close.
    paths: HashMap<PeerId, HashMap<ConnectionId, Path>>,
    /// Our reservations on the relays of [`NodeConfig::relays`].
    relays: relays::RelayAsks,
    guards: Guards,
    /// Catch-up bytes answered to all peers without a seat together.
    watchers_sync_bytes: Bucket,
    announcers: Announcers,
    lobby_topic: IdentTopic,
    asks: HashMap<OutboundRequestId, Ask>,
    next_sync: Instant,
    next_redial: Instant,
    next_lobby: Instant,
    /// A joiner told the host it leaves: stop when the host answers or at
    /// this deadline, whichever comes first.
    leaving: Option<Instant>,
    /// When a peer that matters (the host in the lobby, another seat in
    /// play) was last connected, or the game last moved.
    contact: Contact,
    stop: Option<Result<(), NetError>>,
    /// Failures to save a restart's files already told (each once: saving
    /// is retried every sync round).
    unsaved_noted: HashSet<String>,
    /// Our reachability: AutoNAT, UPnP and the table relay.
    reach: reach::ReachState,
}

fn blameless(e: &TableError) -> bool {
    // Input anyone could have sent: refused, and counted against the peer
    // that passed it on (honest peers check before forwarding).
    matches!(
        e,
        TableError::BadKey
            | TableError::WeakKey
            | TableError::BadSignature
            | TableError::Malformed(_)
            | TableError::TooLarge(_)
            | TableError::WrongGame
            | TableError::UnknownSeat(_)
            | TableError::NotSeated
    )
}

/// A peer's advertised addresses (SPEC 4.5, `PeerAddrs` and `Join`):
/// those that decode, at most [`MAX_ADDRS`], with or without a final
/// `/p2p/<peer>`; one whose final `/p2p/` names another peer is dropped
/// (dialling it could only fail).
fn addrs_from_bytes(peer: PeerId, bytes: &[Vec<u8>]) -> Vec<Multiaddr> {
    bytes
        .iter()
        .take(MAX_ADDRS)
        .filter_map(|b| Multiaddr::try_from(b.clone()).ok())
        .filter(|a| match a.iter().last() {
            Some(Protocol::P2p(named)) => named == peer,
            _ => true,
        })
        .collect()
}

impl<G: crate::NetGame> Node<G> {
    pub(crate) fn new(
        cfg: NodeConfig,
        role: Role<G>,
        controller: Controller<G>,
        commands: mpsc::Receiver<Command<G>>,
        events: mpsc::Sender<NetEvent<G>>,
        snapshot: watch::Sender<Arc<Snapshot<G>>>,
    ) -> Result<Node<G>, NetError> {
        if cfg.name.len() > MAX_NAME_BYTES || cfg.name.chars().any(char::is_control) {
            return Err(NetError::BadName(cfg.name.clone()));
        }
        let identity = cfg.data_dir.identity()?;
        let key = keypair_of(&identity)?;
        let me = key.public().to_peer_id();
        let reach = reach::ReachState::default();
        let mut swarm = build_swarm(
            key,
            &SwarmOptions {
                mdns: cfg.mdns,
                upnp: cfg.upnp && !cfg.listen.is_empty(),
                counter: cfg.counter.clone(),
                table_peers: reach.table_peers.clone(),
                hide_listen_addrs: !cfg.announce_direct,
            },
        )?;
        // The table relay serves once an address the internet reaches is
        // confirmed, not on any confirmed address as libp2p would: a LAN's
        // peers reach one another directly (SPEC 4.9).
        swarm
            .behaviour_mut()
            .table_relay
            .set_status(Some(relay::Status::Disable));
        let now = Instant::now();
        Ok(Node {
            cfg,
            swarm,
            identity,
            me,
            clock: now,
            commands,
            commands_open: true,
            events,
            snapshot,
            dropped: 0,
            unsaved_noted: HashSet::new(),
            controller,
            role: Some(role),
            stage: Stage::Idle,
            listen_addrs: Vec::new(),
            paths: HashMap::new(),
            relays: relays::RelayAsks::default(),
            guards: Guards::default(),
            watchers_sync_bytes: Bucket::with_burst(
                WATCHERS_SYNC_BYTES_RATE,
                WATCHERS_SYNC_BYTES_BURST,
                now,
            ),
            announcers: Announcers::default(),
            lobby_topic: IdentTopic::new(LOBBY_TOPIC),
            asks: HashMap::new(),
            next_sync: now,
            next_redial: now,
            next_lobby: now,
            leaving: None,
            contact: Contact::new(now, 0),
            stop: None,
            reach,
        })
    }

    fn now_ms(&self) -> u64 {
        self.clock.elapsed().as_millis() as u64
    }

    fn emit(&mut self, event: NetEvent<G>) {
        if self.events.try_send(event).is_err() {
            self.dropped += 1;
        }
    }

    fn note(&mut self, text: impl Into<String>) {
        self.emit(NetEvent::Note(text.into()));
    }

    pub(crate) async fn run(mut self) -> Result<Outcome, NetError> {
        let result = self.run_inner().await;
        self.release_upnp().await;
        let outcome = self.outcome();
        result.map(|()| outcome)
    }

    /// The table this node resumes, if its role resumes one.
    fn resuming(&self) -> Option<LobbyId> {
        let lobby = match self.role.as_ref()? {
            Role::Resume { lobby } => *lobby,
            Role::Join { ticket } | Role::Watch { ticket } => ticket.lobby,
            Role::Host { .. } => return None,
        };
        self.cfg
            .data_dir
            .transcript_path(&lobby)
            .exists()
            .then_some(lobby)
    }

    async fn run_inner(&mut self) -> Result<(), NetError> {
        // A resumed peer listens where it listened before when it can: the
        // other seats saved those addresses and redial them.
        let mut listening = false;
        if let Some(lobby) = self.resuming() {
            for addr in self.cfg.data_dir.listen_addrs(&lobby) {
                if let Ok(id) = self.swarm.listen_on(addr) {
                    self.reach.listeners.push(id);
                    listening = true;
                }
            }
        }
        if !listening {
            for addr in self.cfg.listen.clone() {
                let id = self
                    .swarm
                    .listen_on(addr.clone())
                    .map_err(|e| NetError::Listen {
                        addr: addr.to_string(),
                        reason: e.to_string(),
                    })?;
                self.reach.listeners.push(id);
            }
        }
        // Ask each relay for a reservation: peers behind NAT then reach us
        // at relay/p2p-circuit/p2p/us, and DCUtR tries to punch a direct
        // connection.
        self.reserve_on_relays();
        let _ = self
            .swarm
            .behaviour_mut()
            .gossipsub
            .subscribe(&self.lobby_topic);
        if let Some(role) = self.role.take() {
            self.start(role)?;
        }
        self.pump()?;
        let mut tick = tokio::time::interval(Duration::from_millis(20));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                event = self.swarm.select_next_some() => self.on_swarm(event)?,
                command = self.commands.recv(), if self.commands_open => match command {
                    Some(c) => self.on_command(c),
                    None => self.commands_open = false,
                },
                _ = tick.tick() => self.on_tick()?,
            }
            self.pump()?;
            if let Some(result) = self.stop.take() {
                return result;
            }
        }
    }

    fn outcome(&self) -> Outcome {
        let bytes = self.cfg.counter.as_ref().map(|c| (c.sent(), c.received()));
        match &self.stage {
            Stage::Play(play) => Outcome {
                game_id: Some(play.table.game_id()),
                result: play.result.clone(),
                transcript: Some(play.transcript_path.clone()),
                violation: play.table.violation().cloned(),
                bytes,
            },
            _ => Outcome {
                game_id: None,
                result: None,
                transcript: None,
                violation: None,
                bytes,
            },
        }
    }

    fn on_command(&mut self, command: Command<G>) {
        let now = self.now_ms();
        match command {
            Command::Submit(action, reply) => {
                let answer = match &mut self.stage {
                    Stage::Play(play) if play.ready => {
                        play.table.submit(now, action).map_err(|e| e.to_string())
                    }
                    Stage::Play(_) => Err("waiting for every seat to connect".into()),
                    _ => Err("the game has not started".into()),
                };
                if let Err(e) = &answer {
                    self.note(format!("refused: {e}"));
                }
                let _ = reply.send(answer);
            }
            Command::Resign => {
                if let Stage::Play(play) = &mut self.stage {
                    let _ = play.table.resign(now);
                }
            }
            Command::Shutdown => self.shutdown(),
        }
    }

    fn on_tick(&mut self) -> Result<(), NetError> {
        let now = Instant::now();
        let now_ms = self.now_ms();
        if self.leaving.is_some_and(|deadline| now >= deadline) {
            self.stop = Some(Ok(()));
            return Ok(());
        }
        self.evict_silent_joiners(now);
        self.refresh_table_peers();
        self.resubscribe_if_due(now);
        let mut unready_line = None;
        if let Stage::Play(play) = &mut self.stage {
            if play.table.poll_timeout().is_some_and(|t| now_ms >= t) {
                play.table.handle_timeout(now_ms);
            }
            if !play.ready {
                // Gossipsub may have told us of a subscription before we
                // entered play (and will not repeat it): ask it directly.
                let topic = play.topic_hash.clone();
                let subscribed: HashSet<PeerId> = self
                    .swarm
                    .behaviour()
                    .gossipsub
                    .all_peers()
                    .filter(|(_, topics)| topics.contains(&&topic))
                    .map(|(p, _)| *p)
                    .collect();
                play.subscribed.extend(subscribed);
                let unseen = play
                    .seat_peers
                    .iter()
                    .filter(|p| **p != self.me && !play.subscribed.contains(p))
                    .count();
                if unseen == 0 {
                    play.ready = true;
                } else if now >= play.ready_deadline {
                    play.ready = true;
                    unready_line = Some(format!(
                        "{unseen} seat(s) not seen subscribed to the table topic after {} s: \
                         playing anyway (catch-up brings what gossip does not)",
                        play::ready_wait(play.stall_timeout).as_secs_f32()
                    ));
                }
            }
        }
        if let Some(line) = unready_line {
            self.note(line);
        }
        let periodic = now >= self.next_sync;
        if periodic {
            self.next_sync = now + self.cfg.timing.sync_interval;
        }
        self.sync_due(now, periodic);
        if periodic {
            self.save_peer_addrs();
            if let Stage::Host(host) = &self.stage
                && host.proposal.is_none()
            {
                self.announce();
            }
        }
        if now >= self.next_redial {
            self.next_redial = now + self.cfg.timing.redial;
            self.reserve_slots();
            self.redial();
            self.reserve_on_relays();
        }
        if now >= self.next_lobby {
            self.next_lobby = now + self.cfg.timing.lobby_retry;
            self.lobby_retry()?;
        }
        self.maybe_emit_ticket(now);
        self.check_done(now);
        self.check_alone(now);
        Ok(())
    }

    /// Drain the table's outputs, let a bot move, publish, and update the
    /// snapshot, until nothing more happens.
    fn pump(&mut self) -> Result<(), NetError> {
        for _ in 0..64 {
            let drained = self.drain_table()?;
            let moved = self.bot_move();
            if !drained && !moved {
                break;
            }
        }
        self.flush_outbox();
        self.update_snapshot();
        Ok(())
    }

    fn update_snapshot(&mut self) {
        let (mut snap, connected) = match &self.stage {
            Stage::Play(play) => {
                let table = &play.table;
                let seat = table.local_seat();
                let observer = seat.map_or(Observer::Spectator, Observer::Seat);
                // The seat's own private cards by name, as its table opened
                // them: without them a person sees its hand as "?" and is
                // offered none of the moves that name a card of it.
                let knowledge = table.knowledge().cloned().unwrap_or_default();
                let legal = match seat {
                    Some(s) if table.awaits_decision(s) => {
                        let mut legal = Vec::new();
                        table.game().legal_actions_with(s, &knowledge, &mut legal);
                        legal
                    }
                    _ => Vec::new(),
                };
                let n = play.seat_peers.len();
                let mut clock_ends = vec![None; n];
                if let Some((waited, at_ms)) = table.turn_clock() {
                    let end = self.clock + Duration::from_millis(at_ms);
                    for s in waited {
                        if let Some(c) = clock_ends.get_mut(s.index()) {
                            *c = Some(end);
                        }
                    }
                }
                let snap = Snapshot {
                    phase: if play.failed {
                        Phase::Failed
                    } else if play.result.is_some() {
                        Phase::Finished
                    } else {
                        Phase::Playing
                    },
                    game_id: Some(table.game_id()),
                    seat,
                    names: play.names.clone(),
                    lobby_seat: None,
                    position: table.position(),
                    view: Some(table.game().view_with(observer, &knowledge)),
                    legal,
                    online: Vec::new(),
                    relayed: Vec::new(),
                    forfeited: (0..n).map(|i| table.is_forfeited(Seat(i as u8))).collect(),
                    clock_ends,
                    ready: play.ready,
                    result: play.result.clone(),
                    dropped_events: 0,
                };
                (snap, Some(play.seat_peers.clone()))
            }
            Stage::Idle => (Snapshot::default(), None),
            // The host knows who sat down: the lobby screen shows their
            // names and whether each is still connected.
            Stage::Host(host) => (
                Snapshot {
                    phase: Phase::Lobby,
                    names: host.members.iter().map(|m| m.seat.name.clone()).collect(),
                    lobby_seat: Some(0),
                    ..Snapshot::default()
                },
                Some(host.members.iter().map(|m| m.peer).collect()),
            ),
            Stage::Join(j) => (self.guest_lobby(&j.seated, Some(j.seat.key), j.host), None),
            Stage::Watch(w) => (self.guest_lobby(&w.seated, None, w.host), None),
        };
        if let Some(connected) = connected {
            snap.online = connected
                .iter()
                .map(|p| *p == self.me || self.swarm.is_connected(p))
                .collect();
            snap.relayed = connected.iter().map(|p| self.only_relayed(p)).collect();
        }
        snap.dropped_events = self.dropped;
        self.snapshot.send_replace(Arc::new(snap));
    }

    /// A joiner's or spectator's lobby: the seats as the host last listed
    /// them. It is connected to the host alone; the others are seated at the
    /// host, which frees the seats of silent ones, so they count as
    /// connected.
    fn guest_lobby(
        &self,
        seated: &[LobbySeat],
        mine: Option<roundtable_table::PublicKey>,
        host: PeerId,
    ) -> Snapshot<G> {
        let host_online = self.swarm.is_connected(&host);
        Snapshot {
            phase: Phase::Lobby,
            names: seated.iter().map(|s| s.name.clone()).collect(),
            lobby_seat: mine.and_then(|k| seated.iter().position(|s| s.key == k)),
            online: (0..seated.len()).map(|i| i > 0 || host_online).collect(),
            ..Snapshot::default()
        }
    }

    fn on_swarm(&mut self, event: SwarmEvent<BehaviourEvent>) -> Result<(), NetError> {
        match event {
            SwarmEvent::NewListenAddr { address, .. } => {
                if !self.cfg.announce_direct && crate::slots::Circuit::of(&address).is_none() {
                    self.note(format!(
                        "listening on {address} for hole punching only (not told to anyone)"
                    ));
                    return Ok(());
                }
                if !self.listen_addrs.contains(&address) {
                    self.listen_addrs.push(address.clone());
                }
                self.emit(NetEvent::Listening(address));
                if let Stage::Host(host) = &mut self.stage {
                    host.ticket_due = Instant::now() + Duration::from_millis(200);
                }
            }
            SwarmEvent::ExpiredListenAddr { address, .. } => {
                self.listen_addrs.retain(|a| *a != address);
            }
            SwarmEvent::ExternalAddrConfirmed { address } => self.on_external_addr(&address, true),
            SwarmEvent::ExternalAddrExpired { address } => self.on_external_addr(&address, false),
            SwarmEvent::ConnectionEstablished {
                peer_id,
                connection_id,
                endpoint,
                ..
            } => {
                let addr = endpoint.get_remote_address().clone();
                // Which path a connection took (through a relay or not) is
                // what tells a relayed table from a direct one, on either
                // side: an inbound relayed connection's remote address
                // names no relay, its local one does.
                let (path, via) = match (crate::slots::Circuit::of_connection(&endpoint), &endpoint)
                {
                    (Some(circuit), ConnectedPoint::Listener { local_addr, .. }) => {
                        (circuit.to_string(), local_addr)
                    }
                    (Some(circuit), _) => (circuit.to_string(), &addr),
                    (None, _) => ("direct".to_owned(), &addr),
                };
                self.note(format!("connection to {peer_id} via {via} ({path})"));
                let path = match crate::slots::Circuit::of_connection(&endpoint) {
                    None => Path::Direct,
                    Some(_) => Path::Relayed {
                        dialled_by_me: endpoint.is_dialer(),
                    },
                };
                self.prefer_direct(peer_id, connection_id, path);
                match &mut self.stage {
                    Stage::Play(play) => {
                        if let Some(s) = play.seat_peers.iter().position(|p| *p == peer_id) {
                            if endpoint.is_dialer() {
                                let list = play.peer_addrs.entry(peer_id).or_default();
                                if !list.contains(&addr) && list.len() < MAX_ADDRS {
                                    list.push(addr);
                                }
                            }
                            self.emit(NetEvent::Peer {
                                seat: Seat(s as u8),
                                online: true,
                            });
                            self.request_sync(peer_id);
                        }
                    }
                    Stage::Join(j) if j.host == peer_id => self.send_join(),
                    Stage::Watch(w) if w.host == peer_id => self.send_watch(),
                    _ => {}
                }
            }
            SwarmEvent::ConnectionClosed {
                peer_id,
                connection_id,
                num_established,
                ..
            } => {
                self.connection_closed(peer_id, connection_id, num_established);
                if num_established > 0 {
                    // Another connection to the peer is still up (a
                    // relayed one closed for a direct one, say): nobody
                    // left.
                    return Ok(());
                }
                if let Stage::Play(play) = &mut self.stage {
                    play.sync_inflight.remove(&peer_id);
                    let seat = play.seat_peers.iter().position(|p| *p == peer_id);
                    if seat.is_none_or(|s| play.table.is_forfeited(Seat(s as u8))) {
                        // A spectator or a forfeited seat that left is no
                        // longer waited for (and its entry does not pile
                        // up); a seat in the game is, connected or not.
                        play.peer_heads.remove(&peer_id);
                    }
                    if let Some(s) = play.seat_peers.iter().position(|p| *p == peer_id) {
                        self.emit(NetEvent::Peer {
                            seat: Seat(s as u8),
                            online: false,
                        });
                    }
                }
            }
            SwarmEvent::ListenerClosed {
                listener_id,
                addresses,
                reason,
            } => self.on_listener_gone(listener_id, &addresses, reason),
            SwarmEvent::OutgoingConnectionError {
                peer_id: Some(peer),
                error,
                ..
            } => self.note(format!("dialling {peer} failed: {error}")),
            SwarmEvent::ListenerError { error, .. } => {
                self.note(format!("listener error: {error}"))
            }
            SwarmEvent::Behaviour(event) => self.on_behaviour(event)?,
            _ => {}
        }
        Ok(())
    }

    /// A listener closed: a slot on a table peer's relay is that peer's
    /// business (SPEC 4.9); a reservation on a relay given with `--relay`
    /// is asked for again at the next redial, unless that relay refused it
    /// too often, and a refusal is told plainly; anything else is noted.
    fn on_listener_gone(
        &mut self,
        id: libp2p::core::transport::ListenerId,
        addresses: &[Multiaddr],
        reason: Result<(), std::io::Error>,
    ) {
        if self.on_listener_closed(id, &reason) {
            return;
        }
        match self.relays.closed(id, &reason) {
            Some(Some(relays::Tell::Warning(line))) => self.emit(NetEvent::Warning(line)),
            Some(Some(relays::Tell::Note(line))) => self.note(line),
            Some(None) => {}
            None => self.note(format!(
                "stopped listening on {addresses:?}: {}",
                relays::closed_why(&reason)
            )),
        }
    }

    /// Listen through every relay we have no listener on: at the start,
    /// and again at each redial after a relay's listener closed (the relay
    /// restarted, or our router forgot the connection to it). The relay
    /// client dials the relay itself; dialling it here as well made two
    /// connections race, and the reservation then never completed (the
    /// relay decided to accept but neither side ever reported it;
    /// rust-libp2p issue #6141 describes the same symptom).
    fn reserve_on_relays(&mut self) {
        for relay in self.relays.to_ask(&self.cfg.relays) {
            match self
                .swarm
                .listen_on(relay.clone().with(Protocol::P2pCircuit))
            {
                Ok(id) => self.relays.listening(id, relay),
                Err(e) => self.note(format!("relay {relay}: {e}")),
            }
        }
    }

    fn on_behaviour(&mut self, event: BehaviourEvent) -> Result<(), NetError> {
        match event {
            BehaviourEvent::Gossipsub(gossipsub::Event::Message {
                propagation_source,
                message_id,
                message,
            }) => self.on_gossip(propagation_source, message_id, message),
            BehaviourEvent::Gossipsub(gossipsub::Event::Subscribed { peer_id, topic }) => {
                if let Stage::Play(play) = &mut self.stage
                    && topic == play.topic_hash
                {
                    play.subscribed.insert(peer_id);
                    let all = play
                        .seat_peers
                        .iter()
                        .all(|p| *p == self.me || play.subscribed.contains(p));
                    if all && !play.ready {
                        play.ready = true;
                    }
                }
            }
            BehaviourEvent::Gossipsub(gossipsub::Event::Unsubscribed { peer_id, topic }) => {
                if let Stage::Play(play) = &mut self.stage
                    && topic == play.topic_hash
                {
                    play.subscribed.remove(&peer_id);
                }
            }
            BehaviourEvent::Mdns(mdns::Event::Discovered(list)) => {
                for (peer, addr) in list.into_iter().take(32) {
                    self.swarm.add_peer_address(peer, addr.clone());
                    if !self.swarm.is_connected(&peer) {
                        let _ = self
                            .swarm
                            .dial(DialOpts::peer_id(peer).addresses(vec![addr]).build());
                    }
                }
            }
            BehaviourEvent::Identify(identify::Event::Received { peer_id, info, .. }) => {
                if self.reach.served.contains(&peer_id) {
                    self.note_relay_offer(peer_id, &info);
                }
                if let Stage::Play(play) = &mut self.stage
                    && play.seat_peers.contains(&peer_id)
                {
                    let addrs: Vec<Multiaddr> =
                        info.listen_addrs.into_iter().take(MAX_ADDRS).collect();
                    for a in &addrs {
                        self.swarm.add_peer_address(peer_id, a.clone());
                    }
                    let list = play.peer_addrs.entry(peer_id).or_default();
                    for a in addrs {
                        if !list.contains(&a) && list.len() < MAX_ADDRS {
                            list.push(a);
                        }
                    }
                }
            }
            BehaviourEvent::Lobby(request_response::Event::Message { peer, message, .. }) => {
                match message {
                    request_response::Message::Request {
                        request, channel, ..
                    } => {
                        let response = if !self.allow_request(peer) {
                            self.strike(peer, "sends lobby requests too fast");
                            LobbyResponse::Refused {
                                reason: "too many requests".into(),
                            }
                        } else {
                            match request {
                                Ok(request) => self.on_lobby_request(peer, request)?,
                                Err(e) => {
                                    self.strike(peer, &format!("sent a bad lobby request ({e})"));
                                    LobbyResponse::Refused {
                                        reason: e.to_string(),
                                    }
                                }
                            }
                        };
                        let _ = self
                            .swarm
                            .behaviour_mut()
                            .lobby
                            .send_response(channel, response);
                    }
                    request_response::Message::Response {
                        request_id,
                        response,
                    } => {
                        let ask = self.asks.remove(&request_id);
                        self.on_lobby_response(peer, ask, response)?;
                    }
                }
            }
            BehaviourEvent::Lobby(request_response::Event::OutboundFailure {
                peer,
                request_id,
                error,
                ..
            }) => {
                let ask = self.asks.remove(&request_id);
                self.strike_bad_response(peer, &error, "lobby");
                // The host could not be told: stop anyway, it will free the
                // seat when the lobby timeout runs out.
                if ask == Some(Ask::Leave) {
                    self.stop = Some(Ok(()));
                }
            }
            BehaviourEvent::Sync(request_response::Event::Message { peer, message, .. }) => {
                match message {
                    request_response::Message::Request {
                        request, channel, ..
                    } => {
                        let response = if !self.allow_request(peer) {
                            self.strike(peer, "sends catch-up requests too fast");
                            SyncResponse::default()
                        } else {
                            match request {
                                Ok(request) => self.answer_sync(peer, request),
                                Err(e) => {
                                    self.strike(
                                        peer,
                                        &format!("sent a bad catch-up request ({e})"),
                                    );
                                    SyncResponse::default()
                                }
                            }
                        };
                        let _ = self
                            .swarm
                            .behaviour_mut()
                            .sync
                            .send_response(channel, response);
                    }
                    request_response::Message::Response { response, .. } => {
                        self.on_sync_response(peer, response);
                    }
                }
            }
            BehaviourEvent::Sync(request_response::Event::OutboundFailure {
                peer, error, ..
            }) => {
                if let Stage::Play(play) = &mut self.stage {
                    play.sync_inflight.remove(&peer);
                }
                self.strike_bad_response(peer, &error, "catch-up");
            }
            BehaviourEvent::RelayClient(relay::client::Event::ReservationReqAccepted {
                relay_peer_id,
                ..
            }) => {
                self.relays.accepted(relay_peer_id);
                self.note(format!("relay {relay_peer_id} accepted our reservation"))
            }
            BehaviourEvent::Dcutr(dcutr::Event {
                remote_peer_id,
                result,
            }) => match result {
                Ok(_) => self.note(format!(
                    "direct connection to {remote_peer_id} (hole punched)"
                )),
                Err(e) => self.note(format!("hole punching to {remote_peer_id} failed: {e}")),
            },
            // A connection that stops answering pings is dead (a router
            // that rebooted forgot it, say) while TCP may retry it for
            // minutes: closed, the peer is redialled (through a relay if
            // need be) instead of being sent to in vain.
            BehaviourEvent::Ping(ping::Event {
                peer,
                connection,
                result: Err(e @ (ping::Failure::Timeout | ping::Failure::Other { .. })),
            }) => {
                self.note(format!(
                    "connection to {peer} stopped answering pings ({e}): closing it"
                ));
                self.swarm.close_connection(connection);
            }
            BehaviourEvent::Autonat(autonat::Event::StatusChanged { new, .. }) => {
                self.on_autonat(&new)
            }
            BehaviourEvent::TableRelay(event) => self.on_table_relay(&event),
            BehaviourEvent::Upnp(event) => self.on_upnp(&event),
            _ => {}
        }
        Ok(())
    }

    /// Count a response that did not decode (or broke a bound) against the
    /// peer that sent it. A broken connection, a timeout or a stream that
    /// ended early is not counted: an honest peer that crashed while
    /// sending a large response looks the same.
    fn strike_bad_response(
        &mut self,
        peer: PeerId,
        error: &request_response::OutboundFailure,
        protocol: &str,
    ) {
        let request_response::OutboundFailure::Io(e) = error else {
            return;
        };
        match crate::wire::remote_fault(e) {
            Some(crate::wire::WireError::Truncated { .. }) | None => {}
            Some(fault) => {
                let why = format!("sent a bad {protocol} response ({fault})");
                self.strike(peer, &why);
            }
        }
    }

    fn on_gossip(&mut self, source: PeerId, id: MessageId, message: gossipsub::Message) {
        let now = self.now_ms();
        let verdict = if !self.allow_gossip(source) {
            // Over the hop's budget: not validated, not forwarded, and not
            // held against the hop. The hop may be a seat relaying what
            // others authored (SPEC 4.2); what authors may make us forward
            // is bounded per author below, and what is invalid is scored
            // by gossipsub and struck by us.
            MessageAcceptance::Ignore
        } else if message.data.len() > MAX_GOSSIP_BYTES {
            // Gossipsub only bounds the whole frame (MAX_GOSSIP_FRAME).
            self.strike(source, "sent an oversized gossip message");
            MessageAcceptance::Reject
        } else {
            match &mut self.stage {
                Stage::Play(play) if message.topic == play.topic_hash => {
                    match play.table.handle_bytes(now, &message.data) {
                        // Valid, but not forwarded: its author flood-published
                        // it to every subscribed peer it is connected to, and
                        // every seat and spectator dials every seat, so a
                        // forward is a copy everyone already has (with 5
                        // peers, forwarding quadrupled the bytes on the
                        // wire). A peer without a link to the author gets it
                        // by catch-up, an interval after its heads stand
                        // still without it.
                        Ok(true) => MessageAcceptance::Ignore,
                        Ok(false) => MessageAcceptance::Ignore,
                        Err(e) if blameless(&e) => {
                            self.strike(source, &format!("sent a bad envelope ({e})"));
                            MessageAcceptance::Reject
                        }
                        Err(_) => MessageAcceptance::Ignore,
                    }
                }
                Stage::Play(_) => MessageAcceptance::Ignore,
                _ if message.topic == self.lobby_topic.hash() => {
                    self.check_announcement(source, &message.data)
                }
                _ => MessageAcceptance::Ignore,
            }
        };
        self.swarm
            .behaviour_mut()
            .gossipsub
            .report_message_validation_result(&id, &source, verdict);
    }

    /// What entering play changes on the network: the lobby topic is left
    /// (a seat forwards no announcements while it plays, so an outsider's
    /// flood cannot reach the other seats through it), the table topic is
    /// scored like the lobby topic, and the seats' peers are exempt from
    /// every connection bound (SPEC 4.1): no flood of strangers' connections
    /// can take their room.
    pub(super) fn network_for_play(&mut self, topic: &IdentTopic, seat_peers: &[PeerId]) {
        let b = self.swarm.behaviour_mut();
        b.gossipsub.unsubscribe(&self.lobby_topic);
        // Only fails for invalid parameters, which a unit test rules out.
        let _ = b
            .gossipsub
            .set_topic_params(topic.clone(), crate::swarm::topic_score_params());
        for peer in seat_peers.iter().filter(|p| **p != self.me) {
            b.limits.bypass_peer_id(peer);
            b.per_address.reserve(*peer);
        }
    }

    /// Validate an announcement on the lobby topic: a bad one is rejected
    /// (gossipsub scores it against the hop, and we strike the hop: an
    /// honest peer checks before forwarding, so it never passes one on);
    /// a valid one is forwarded within its author's budget, whoever
    /// relayed it.
    fn check_announcement(&mut self, source: PeerId, data: &[u8]) -> MessageAcceptance {
        let announce = match decode::<Announce>(data, MAX_ANNOUNCE_BYTES) {
            Ok(a) => a,
            Err(e) => {
                self.strike(source, &format!("sent a malformed announcement ({e})"));
                return MessageAcceptance::Reject;
            }
        };
        // Verified before the author's budget is taken, so that forgeries
        // under a host's key cannot use up that host's budget.
        if let Err(e) = announce.verify() {
            self.strike(source, &format!("sent a forged announcement ({e})"));
            return MessageAcceptance::Reject;
        }
        if self.announcers.allow(announce.info.host, Instant::now()) {
            MessageAcceptance::Accept
        } else if peer_id_of(&announce.info.host) == Some(source) {
            // The author itself floods: scored by gossipsub as invalid and
            // struck, as any other bad input from it.
            self.strike(source, "floods announcements");
            MessageAcceptance::Reject
        } else {
            // Relayed: the hop forwarded what it checked under its own
            // budget for this author, which ours need not match.
            MessageAcceptance::Ignore
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advertised_addresses_may_name_their_peer_but_not_another() {
        let me = PeerId::random();
        let other = PeerId::random();
        let direct: Multiaddr = "/ip4/10.0.0.1/tcp/4001".parse().unwrap();
        let relayed: Multiaddr = format!("/ip4/10.0.0.9/tcp/4001/p2p/{other}/p2p-circuit/p2p/{me}")
            .parse()
            .unwrap();
        let foreign = direct.clone().with(Protocol::P2p(other));
        let bytes: Vec<Vec<u8>> = [&direct, &relayed, &foreign]
            .iter()
            .map(|a| a.to_vec())
            .collect();
        assert_eq!(addrs_from_bytes(me, &bytes), vec![direct, relayed]);
    }
}
