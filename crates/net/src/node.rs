//! The node: one task that owns a swarm and, once the game starts, the
//! sans-IO [`Table`] of one seat (or of a spectator). It turns swarm events
//! into table inputs and table outputs into gossip, transcript appends and
//! events for the handle, in the order the table gives them (str0m's run
//! loop: one input, then drain every output, then wait).

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use libp2p::gossipsub::{self, IdentTopic, MessageAcceptance, MessageId, PublishError, TopicHash};
use libp2p::multiaddr::Protocol;
use libp2p::request_response::{self, OutboundRequestId};
use libp2p::swarm::SwarmEvent;
use libp2p::swarm::dial_opts::DialOpts;
use libp2p::{Multiaddr, PeerId, Swarm, autonat, dcutr, identify, mdns, relay};
use roundtable_engine::{Game, GameResult, Next, Observer, Seat};
use roundtable_fairdeck::{ChainSecret, PORT_ROYAL_CHAIN_LENGTH};
use roundtable_table::genesis::{ACCEPT_DOMAIN, MAX_NAME_BYTES};
use roundtable_table::transcript::{self, Frame, TranscriptLog};
use roundtable_table::{
    Acceptance, Config, Genesis, Hash32, Identity, Local, Output, Proposal, SeatInfo, Signed,
    Table, TableError,
};
use tokio::sync::{mpsc, watch};

use crate::NetError;
use crate::handle::{Command, Controller, NetEvent, NodeConfig, Outcome, Phase, Role, Snapshot};
use crate::identity::{keypair_of, peer_id_of};
use crate::store::{random_bytes, write_durably};
use crate::swarm::{Behaviour, BehaviourEvent, SwarmOptions, build_swarm};
use crate::ticket::Ticket;
use crate::wire::{
    Announce, LOBBY_TOPIC, LobbyId, LobbyInfo, LobbyRequest, LobbyResponse, LobbySeat, MAX_ADDRS,
    MAX_ANNOUNCE_BYTES, MAX_SYNC_ENVELOPES, MAX_SYNC_RESPONSE_BYTES, PeerAddrs, SyncRequest,
    SyncResponse, decode, encode,
};

/// Envelopes waiting to be published, at most. Own envelopes are in the
/// table's log and served by catch-up, so dropping the oldest when a peer
/// is cut off for long loses nothing.
pub const OUTBOX_CAPACITY: usize = 1024;
/// Strikes (refused messages) after which a peer is banned.
pub const BAN_STRIKES: u32 = 20;
/// Peers tracked for rate limits at most.
const MAX_GUARDS: usize = 1024;
/// Gossip messages per second one peer may make us validate (burst twice).
const GOSSIP_RATE: f64 = 400.0;
/// Requests per second one peer may make (burst twice).
const REQUEST_RATE: f64 = 50.0;
/// How long a joiner that leaves the lobby waits for the host to take note.
const LEAVE_GRACE: Duration = Duration::from_secs(1);

/// A token bucket.
#[derive(Debug)]
struct Bucket {
    tokens: f64,
    last: Instant,
    rate: f64,
}

impl Bucket {
    fn new(rate: f64, now: Instant) -> Bucket {
        Bucket {
            tokens: rate * 2.0,
            last: now,
            rate,
        }
    }

    fn take(&mut self, now: Instant) -> bool {
        let dt = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * self.rate).min(self.rate * 2.0);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// What we keep about a remote peer to bound what it can make us do.
#[derive(Debug)]
struct Guard {
    gossip: Bucket,
    requests: Bucket,
    strikes: u32,
}

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
    sync_inflight: HashSet<PeerId>,
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
    guards: HashMap<PeerId, Guard>,
    lobby_topic: IdentTopic,
    asks: HashMap<OutboundRequestId, Ask>,
    next_sync: Instant,
    next_redial: Instant,
    next_lobby: Instant,
    /// A joiner told the host it leaves: stop when the host answers or at
    /// this deadline, whichever comes first.
    leaving: Option<Instant>,
    stop: Option<Result<(), NetError>>,
}

fn blameless(e: &TableError) -> bool {
    // Input anyone could have sent: refused, and counted against the peer
    // that passed it on (honest peers check before forwarding).
    matches!(
        e,
        TableError::BadKey
            | TableError::WeakKey
            | TableError::BadSignature
            | TableError::BadLink(_)
            | TableError::Malformed(_)
            | TableError::TooLarge(_)
            | TableError::WrongGame
            | TableError::UnknownSeat(_)
            | TableError::NotSeated
    )
}

fn with_peer(addr: &Multiaddr, peer: PeerId) -> Multiaddr {
    match addr.iter().last() {
        Some(Protocol::P2p(_)) => addr.clone(),
        _ => addr.clone().with(Protocol::P2p(peer)),
    }
}

fn is_loopback(addr: &Multiaddr) -> bool {
    addr.iter().any(|p| match p {
        Protocol::Ip4(ip) => ip.is_loopback(),
        Protocol::Ip6(ip) => ip.is_loopback(),
        _ => false,
    })
}

fn addrs_from_bytes(bytes: &[Vec<u8>]) -> Vec<Multiaddr> {
    bytes
        .iter()
        .take(MAX_ADDRS)
        .filter_map(|b| Multiaddr::try_from(b.clone()).ok())
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
        let swarm = build_swarm(
            key,
            &SwarmOptions {
                mdns: cfg.mdns,
                counter: cfg.counter.clone(),
            },
        )?;
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
            controller,
            role: Some(role),
            stage: Stage::Idle,
            listen_addrs: Vec::new(),
            guards: HashMap::new(),
            lobby_topic: IdentTopic::new(LOBBY_TOPIC),
            asks: HashMap::new(),
            next_sync: now,
            next_redial: now,
            next_lobby: now,
            leaving: None,
            stop: None,
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

    // ----- the loop -------------------------------------------------------

    pub(crate) async fn run(mut self) -> Result<Outcome, NetError> {
        let result = self.run_inner().await;
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
                listening |= self.swarm.listen_on(addr).is_ok();
            }
        }
        if !listening {
            for addr in self.cfg.listen.clone() {
                self.swarm
                    .listen_on(addr.clone())
                    .map_err(|e| NetError::Listen {
                        addr: addr.to_string(),
                        reason: e.to_string(),
                    })?;
            }
        }
        for relay in self.cfg.relays.clone() {
            // Ask the relay for a reservation: peers behind NAT then reach
            // us at relay/p2p-circuit/p2p/us, and DCUtR tries to punch a
            // direct connection. The relay client dials the relay itself;
            // dialling it here as well made two connections race, and the
            // reservation then never completed (the relay decided to accept
            // but neither side ever reported it; rust-libp2p issue #6141
            // describes the same symptom).
            if let Err(e) = self
                .swarm
                .listen_on(relay.clone().with(Protocol::P2pCircuit))
            {
                self.note(format!("relay {relay}: {e}"));
            }
        }
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

    /// Stop. A joiner still in the lobby first tells the host, so its seat
    /// frees at once rather than when the host gives up on it.
    fn shutdown(&mut self) {
        if self.leaving.is_some() {
            return;
        }
        if let Stage::Join(j) = &self.stage
            && self.swarm.is_connected(&j.host)
        {
            let request = LobbyRequest::Leave {
                lobby: j.ticket.lobby,
            };
            let host = j.host;
            self.ask(host, request, Ask::Leave);
            self.leaving = Some(Instant::now() + LEAVE_GRACE);
            return;
        }
        self.stop = Some(Ok(()));
    }

    /// The host frees the seats of joiners that stopped repeating `Join`
    /// (crashed, or lost their connection for good).
    fn evict_silent_joiners(&mut self, now: Instant) {
        let Stage::Host(host) = &mut self.stage else {
            return;
        };
        let me = self.me;
        let timeout = self.cfg.timing.lobby_timeout;
        let before = host.members.len();
        host.members
            .retain(|m| m.peer == me || now.saturating_duration_since(m.seen) < timeout);
        let gone = before - host.members.len();
        if gone == 0 {
            return;
        }
        host.withdraw_proposal();
        let (filled, seats) = (host.members.len() as u8, host.info.seats);
        self.note(format!("{gone} silent joiner(s) lost their seat"));
        self.emit(NetEvent::Lobby { filled, seats });
    }

    fn on_tick(&mut self) -> Result<(), NetError> {
        let now = Instant::now();
        let now_ms = self.now_ms();
        if self.leaving.is_some_and(|deadline| now >= deadline) {
            self.stop = Some(Ok(()));
            return Ok(());
        }
        self.evict_silent_joiners(now);
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
                let all = play
                    .seat_peers
                    .iter()
                    .all(|p| *p == self.me || play.subscribed.contains(p));
                if all || now >= play.ready_deadline {
                    play.ready = true;
                }
            }
        }
        if now >= self.next_sync {
            self.next_sync = now + self.cfg.timing.sync_interval;
            self.sync_all();
            self.save_peer_addrs();
            if let Stage::Host(host) = &self.stage
                && host.proposal.is_none()
            {
                self.announce();
            }
        }
        if now >= self.next_redial {
            self.next_redial = now + self.cfg.timing.redial;
            self.redial();
        }
        if now >= self.next_lobby {
            self.next_lobby = now + self.cfg.timing.lobby_retry;
            self.lobby_retry()?;
        }
        self.maybe_emit_ticket(now);
        self.check_done(now);
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

    // ----- starting -------------------------------------------------------

    fn start(&mut self, role: Role<G>) -> Result<(), NetError> {
        match role {
            Role::Host {
                seats,
                options,
                stall_timeout_ms,
            } => {
                if seats < G::MIN_SEATS || seats > G::MAX_SEATS {
                    return Err(NetError::Lobby(format!(
                        "{} takes {} to {} seats",
                        G::NAME,
                        G::MIN_SEATS,
                        G::MAX_SEATS
                    )));
                }
                let info = LobbyInfo {
                    protocol: roundtable_table::genesis::PROTOCOL_VERSION,
                    game: G::NAME.to_owned(),
                    options: encode(&options),
                    seats,
                    host: self.identity.public(),
                    host_name: self.cfg.name.clone(),
                    stall_timeout_ms,
                    nonce: random_bytes::<32>()?,
                };
                let lobby = info.id();
                let chain = self.chain_for(&lobby)?;
                self.save_stall(&lobby, stall_timeout_ms)?;
                let seat = SeatInfo {
                    key: self.identity.public(),
                    name: self.cfg.name.clone(),
                    chain_commitment: chain.commitment(),
                    chain_length: chain.length(),
                };
                self.stage = Stage::Host(Box::new(HostLobby {
                    info,
                    lobby,
                    options,
                    chain,
                    members: vec![Member {
                        peer: self.me,
                        seat,
                        addrs: Vec::new(),
                        seen: Instant::now(),
                    }],
                    proposal: None,
                    acceptances: BTreeMap::new(),
                    ticket_emitted: None,
                    ticket_due: Instant::now() + Duration::from_millis(300),
                    announce_counter: 0,
                }));
                self.emit(NetEvent::Lobby { filled: 1, seats });
                Ok(())
            }
            Role::Join { ticket } => {
                if !self.cfg.data_dir.unfinished().contains(&ticket.lobby)
                    && !self.cfg.data_dir.transcript_path(&ticket.lobby).exists()
                {
                    self.start_join(ticket)
                } else {
                    self.resume(ticket.lobby, Some(ticket))
                }
            }
            Role::Watch { ticket } => {
                if self.cfg.data_dir.transcript_path(&ticket.lobby).exists() {
                    return self.resume(ticket.lobby, Some(ticket));
                }
                let host = ticket
                    .host_peer()
                    .ok_or(NetError::Lobby("bad host key".into()))?;
                self.dial_ticket(&ticket, host);
                self.cfg
                    .data_dir
                    .save_ticket(&ticket.lobby, &ticket.encode())?;
                self.stage = Stage::Watch(Box::new(WatchLobby {
                    ticket,
                    host,
                    seated: Vec::new(),
                }));
                Ok(())
            }
            Role::Resume { lobby } => {
                let ticket = self
                    .cfg
                    .data_dir
                    .ticket(&lobby)
                    .and_then(|t| Ticket::decode(&t).ok());
                self.resume(lobby, ticket)
            }
        }
    }

    fn chain_for(&self, lobby: &LobbyId) -> Result<ChainSecret, NetError> {
        let seed = self.cfg.data_dir.chain_seed(lobby)?;
        ChainSecret::new(seed, PORT_ROYAL_CHAIN_LENGTH).map_err(|e| NetError::Random(e.to_string()))
    }

    fn save_stall(&self, lobby: &LobbyId, ms: u64) -> Result<(), NetError> {
        write_durably(
            &self.cfg.data_dir.game_dir(lobby).join("stall_timeout_ms"),
            ms.to_string().as_bytes(),
        )
    }

    fn load_stall(&self, lobby: &LobbyId) -> u64 {
        std::fs::read_to_string(self.cfg.data_dir.game_dir(lobby).join("stall_timeout_ms"))
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or_else(|| Config::default().stall_timeout_ms)
    }

    fn dial_ticket(&mut self, ticket: &Ticket, host: PeerId) {
        for addr in &ticket.addrs {
            self.swarm.add_peer_address(host, addr.clone());
        }
        let _ = self.swarm.dial(
            DialOpts::peer_id(host)
                .addresses(ticket.addrs.clone())
                .build(),
        );
    }

    fn start_join(&mut self, ticket: Ticket) -> Result<(), NetError> {
        if ticket.game != G::NAME {
            return Err(NetError::Lobby(format!(
                "the ticket is for {:?}, not {}",
                ticket.game,
                G::NAME
            )));
        }
        let host = ticket
            .host_peer()
            .ok_or(NetError::Lobby("bad host key".into()))?;
        if host == self.me {
            return Err(NetError::Lobby("this is your own table".into()));
        }
        self.cfg
            .data_dir
            .save_ticket(&ticket.lobby, &ticket.encode())?;
        // The chain seed is saved (and synced) before its commitment leaves
        // this machine.
        let chain = self.chain_for(&ticket.lobby)?;
        let seat = SeatInfo {
            key: self.identity.public(),
            name: self.cfg.name.clone(),
            chain_commitment: chain.commitment(),
            chain_length: chain.length(),
        };
        self.dial_ticket(&ticket, host);
        self.stage = Stage::Join(Box::new(JoinLobby {
            ticket,
            host,
            info: None,
            seat,
            accepted: None,
            filled: 0,
            seated: Vec::new(),
        }));
        Ok(())
    }

    /// Rebuild the table from the transcript log and carry on.
    fn resume(&mut self, lobby: LobbyId, ticket: Option<Ticket>) -> Result<(), NetError> {
        let path = self.cfg.data_dir.transcript_path(&lobby);
        if !path.exists() {
            // Never got past the lobby: join again with the same chain.
            return match ticket {
                Some(t) => self.start_join(t),
                None => Err(NetError::NothingToResume(path)),
            };
        }
        let (log, read) = TranscriptLog::open(&path)?;
        if read.torn_bytes > 0 {
            self.note(format!(
                "cut a torn tail of {} bytes from the log",
                read.torn_bytes
            ));
        }
        let mut proposal = None;
        let mut acceptances = Vec::new();
        let mut envelopes = Vec::new();
        for frame in read.frames {
            match frame {
                Frame::Proposal(p) => proposal = Some(p),
                Frame::Acceptance(a) => acceptances.push(a),
                Frame::Envelope(e) => envelopes.push(e),
            }
        }
        let proposal = proposal.ok_or_else(|| NetError::NothingToResume(path.clone()))?;
        let genesis = Genesis::assemble::<G>(proposal, &acceptances)?;
        let local = match genesis.proposal.seat_of(&self.identity.public()) {
            Some(seat) => {
                let info = &genesis.proposal.seats[seat.index()];
                let seed = self.cfg.data_dir.chain_seed(&lobby)?;
                let chain = ChainSecret::new(seed, info.chain_length)
                    .map_err(|e| NetError::Random(e.to_string()))?;
                Some(Local {
                    seat,
                    identity: self.identity.clone(),
                    chain,
                })
            }
            None => None,
        };
        let mut peers: Vec<PeerAddrs> = Vec::new();
        for line in self.cfg.data_dir.peers(&lobby) {
            let mut parts = line.split_whitespace();
            let (Some(p), Some(a)) = (parts.next(), parts.next()) else {
                continue;
            };
            let (Ok(peer), Ok(addr)) = (p.parse::<PeerId>(), a.parse::<Multiaddr>()) else {
                continue;
            };
            if let Some(s) = genesis
                .proposal
                .seats
                .iter()
                .find(|s| peer_id_of(&s.key) == Some(peer))
            {
                match peers.iter_mut().find(|x| x.key == s.key) {
                    Some(x) if x.addrs.len() < MAX_ADDRS => x.addrs.push(addr.to_vec()),
                    Some(_) => {}
                    None => peers.push(PeerAddrs {
                        key: s.key,
                        addrs: vec![addr.to_vec()],
                    }),
                }
            }
        }
        if let Some(t) = &ticket
            && let Some(host) = t.host_peer()
        {
            for a in &t.addrs {
                self.swarm.add_peer_address(host, a.clone());
            }
        }
        let stall = self.load_stall(&lobby);
        let table = Table::new(
            genesis,
            local,
            Config {
                stall_timeout_ms: stall,
                ..Config::default()
            },
        )?;
        self.enter_play(lobby, table, log, path, &peers, envelopes, true)
    }

    /// Start playing: the table exists and its log holds the genesis.
    #[allow(clippy::too_many_arguments)]
    fn enter_play(
        &mut self,
        lobby: LobbyId,
        table: Table<G>,
        log: TranscriptLog,
        transcript_path: PathBuf,
        peers: &[PeerAddrs],
        replay: Vec<Signed>,
        resumed: bool,
    ) -> Result<(), NetError> {
        let proposal = table.genesis().proposal.clone();
        let seat_peers = proposal
            .seats
            .iter()
            .map(|s| peer_id_of(&s.key))
            .collect::<Option<Vec<_>>>()
            .ok_or(NetError::Lobby("a seat's key is not an ed25519 key".into()))?;
        let names = proposal.seats.iter().map(|s| s.name.clone()).collect();
        let topic = crate::swarm::table_topic(&table.game_id());
        let topic_hash = topic.hash();
        self.swarm
            .behaviour_mut()
            .gossipsub
            .subscribe(&topic)
            .map_err(|e| NetError::Transport(format!("subscribing: {e}")))?;
        let mut peer_addrs = HashMap::new();
        for p in peers {
            if let Some(peer) = peer_id_of(&p.key) {
                peer_addrs.insert(peer, addrs_from_bytes(&p.addrs));
            }
        }
        for &peer in &seat_peers {
            if peer == self.me {
                continue;
            }
            // Every seat gets every publish and forward, whatever the mesh.
            self.swarm
                .behaviour_mut()
                .gossipsub
                .add_explicit_peer(&peer);
            let addrs = peer_addrs.get(&peer).cloned().unwrap_or_default();
            for a in &addrs {
                self.swarm.add_peer_address(peer, a.clone());
            }
            if !self.swarm.is_connected(&peer) {
                let _ = self
                    .swarm
                    .dial(DialOpts::peer_id(peer).addresses(addrs).build());
            }
        }
        let stall = self.load_stall(&lobby);
        let now = Instant::now();
        let logged = replay.iter().map(Signed::hash).collect();
        let mut play = Play {
            lobby,
            table,
            log: Some(log),
            transcript_path: transcript_path.clone(),
            topic,
            topic_hash,
            seat_peers,
            names,
            peer_addrs,
            subscribed: HashSet::new(),
            // A resumed peer does not wait for everyone: some may be gone
            // for good, and the stall claims that settle that must go out.
            ready: resumed,
            ready_deadline: now + Duration::from_millis(stall),
            outbox: VecDeque::new(),
            sync_inflight: HashSet::new(),
            peer_heads: HashMap::new(),
            finished_at: None,
            result: None,
            failed: false,
            start_pending: HashMap::new(),
            logged,
            replaying: true,
            last_bot_position: None,
            bot_due: None,
        };
        let now_ms = self.now_ms();
        let mut fed = 0usize;
        for envelope in replay {
            match play.table.handle_envelope(now_ms, envelope) {
                Ok(_) => fed += 1,
                Err(e) => self.emit(NetEvent::Note(format!("replaying the log: {e}"))),
            }
        }
        let game_id = play.table.game_id();
        let seat = play.table.local_seat();
        let names = play.names.clone();
        self.stage = Stage::Play(Box::new(play));
        self.emit(NetEvent::Started {
            game_id,
            seat,
            names,
            transcript: transcript_path,
        });
        if resumed {
            self.note(format!("resumed: {fed} envelopes read back from the log"));
        }
        self.drain_table()?;
        if let Stage::Play(play) = &mut self.stage {
            play.replaying = false;
            // Publish our latest envelopes again: a crash between the fsync
            // and the publish left them known to us alone. Copies others
            // have are dropped by gossipsub's duplicate cache; catch-up
            // repairs anything older.
            if let Some(seat) = play.table.local_seat() {
                let head = play.table.heads()[seat.index()];
                for e in play
                    .table
                    .envelopes_since(seat.0, head.saturating_sub(8), 8)
                {
                    play.outbox.push_back(e.encode());
                }
            }
            play.table.handle_timeout(now_ms);
        }
        self.save_peer_addrs();
        self.sync_all();
        Ok(())
    }

    /// A fresh game: write the log's genesis and enter play.
    fn begin_play(
        &mut self,
        lobby: LobbyId,
        genesis: Genesis,
        peers: &[PeerAddrs],
        local: Option<Local>,
    ) -> Result<(), NetError> {
        let path = self.cfg.data_dir.transcript_path(&lobby);
        let mut frames = vec![Frame::Proposal(genesis.proposal.clone())];
        frames.extend(genesis.acceptances.iter().cloned().map(Frame::Acceptance));
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|source| NetError::Io {
                path: dir.to_owned(),
                source,
            })?;
        }
        let log = TranscriptLog::create(&path, &frames)?;
        let stall = self.load_stall(&lobby);
        let table = Table::new(
            genesis,
            local,
            Config {
                stall_timeout_ms: stall,
                ..Config::default()
            },
        )?;
        self.enter_play(lobby, table, log, path, peers, Vec::new(), false)
    }

    // ----- the table ------------------------------------------------------

    /// Carry out the table's outputs in order. Returns whether there were any.
    fn drain_table(&mut self) -> Result<bool, NetError> {
        let Stage::Play(play) = &mut self.stage else {
            return Ok(false);
        };
        let mut any = false;
        let mut events = Vec::new();
        while let Some(output) = play.table.poll_output() {
            any = true;
            match output {
                Output::Persist { envelope, sync } => {
                    if (play.replaying && !sync) || play.logged.contains(&envelope.hash()) {
                        continue;
                    }
                    if let Some(log) = &mut play.log {
                        // An own envelope is synced before it is sent, so a
                        // crash can never make us sign another in its place.
                        log.append(&Frame::Envelope(envelope), sync)?;
                    }
                }
                Output::Broadcast(envelope) => {
                    if play.outbox.len() >= OUTBOX_CAPACITY {
                        play.outbox.pop_front();
                    }
                    play.outbox.push_back(envelope.encode());
                }
                Output::Applied {
                    position,
                    record,
                    events: ev,
                } => events.push(NetEvent::Applied {
                    position,
                    record,
                    events: ev,
                }),
                Output::Forfeited { seat, reason } => {
                    events.push(NetEvent::Forfeited { seat, reason })
                }
                Output::Violation(v) => {
                    play.failed = true;
                    play.finished_at = Some(Instant::now());
                    events.push(NetEvent::Violation(v));
                }
                Output::Rewound { position } => {
                    play.last_bot_position = None;
                    events.push(NetEvent::Rewound { position });
                }
                Output::Finished(result) => {
                    let frames = play.table.transcript();
                    let path = match play.log.take() {
                        Some(log) => log.finish(&frames)?,
                        None => play.transcript_path.clone(),
                    };
                    if let Some(copy) = &self.cfg.transcript_copy {
                        write_durably(copy, &transcript::encode_file(&frames))?;
                    }
                    let mut standings = result.standings.clone();
                    standings.sort_by_key(|s| (s.rank, s.seat));
                    let summary: Vec<String> = standings
                        .iter()
                        .map(|s| format!("#{} seat {} {} points", s.rank + 1, s.seat, s.score))
                        .collect();
                    self.cfg
                        .data_dir
                        .mark_done(&play.lobby, &format!("{}\n", summary.join("\n")))?;
                    play.result = Some(result.clone());
                    play.finished_at = Some(Instant::now());
                    events.push(NetEvent::Finished {
                        result,
                        transcript: self.cfg.transcript_copy.clone().unwrap_or(path),
                    });
                }
            }
        }
        let finished = play.finished_at.is_some();
        let peers: Vec<PeerId> = play.seat_peers.clone();
        for e in events {
            self.emit(e);
        }
        if finished && any {
            // Tell everyone our heads now, so that peers that finished too
            // learn it without waiting for the next round.
            for p in peers {
                self.request_sync(p);
            }
        }
        Ok(any)
    }

    /// A bot in the local seat decides, when it is its turn.
    fn bot_move(&mut self) -> bool {
        let Controller::Bot(bot) = &mut self.controller else {
            return false;
        };
        let Stage::Play(play) = &mut self.stage else {
            return false;
        };
        if !play.ready || play.failed || play.finished_at.is_some() {
            return false;
        }
        let Some(seat) = play.table.local_seat() else {
            return false;
        };
        if play.table.is_forfeited(seat) || play.table.game().next() != Next::Decision(seat) {
            return false;
        }
        let position = play.table.position();
        if play.last_bot_position == Some(position) {
            return false;
        }
        let delay = self.cfg.timing.bot_delay;
        if !delay.is_zero() {
            match play.bot_due {
                Some((p, at)) if p == position => {
                    if Instant::now() < at {
                        return false;
                    }
                }
                _ => {
                    play.bot_due = Some((position, Instant::now() + delay));
                    return false;
                }
            }
        }
        let legal = play.table.game().legal_actions_vec(seat);
        if legal.is_empty() {
            return false;
        }
        let view = play.table.game().view(Observer::Seat(seat));
        let pick = bot.choose(seat, &view, &legal).min(legal.len() - 1);
        play.last_bot_position = Some(position);
        let now = self.clock.elapsed().as_millis() as u64;
        match play.table.submit(now, legal[pick].clone()) {
            Ok(()) => true,
            Err(e) => {
                self.note(format!("the bot's move was refused: {e}"));
                false
            }
        }
    }

    fn flush_outbox(&mut self) {
        let Stage::Play(play) = &mut self.stage else {
            return;
        };
        if !play.ready {
            return;
        }
        while let Some(bytes) = play.outbox.front() {
            match self
                .swarm
                .behaviour_mut()
                .gossipsub
                .publish(play.topic.clone(), bytes.clone())
            {
                Ok(_) | Err(PublishError::Duplicate) => {
                    play.outbox.pop_front();
                }
                // Nobody to send to yet, or every queue is full: keep it and
                // try again on the next subscription or tick. Gossipsub does
                // not keep a message it could not send, so we must.
                Err(PublishError::NoPeersSubscribedToTopic | PublishError::AllQueuesFull(_)) => {
                    break;
                }
                Err(e) => {
                    play.outbox.pop_front();
                    let _ = self
                        .events
                        .try_send(NetEvent::Note(format!("publish failed: {e}")));
                }
            }
        }
    }

    fn update_snapshot(&mut self) {
        let (mut snap, connected) = match &self.stage {
            Stage::Play(play) => {
                let table = &play.table;
                let seat = table.local_seat();
                let observer = seat.map_or(Observer::Spectator, Observer::Seat);
                let legal = match seat {
                    Some(s)
                        if table.game().next() == Next::Decision(s) && !table.is_forfeited(s) =>
                    {
                        table.game().legal_actions_vec(s)
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
                    view: Some(table.game().view(observer)),
                    legal,
                    online: Vec::new(),
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

    /// Whether the node has done its work: a finished (or failed) game whose
    /// peers have caught up, or the linger time is over.
    fn check_done(&mut self, now: Instant) {
        let Stage::Play(play) = &self.stage else {
            return;
        };
        let Some(at) = play.finished_at else {
            return;
        };
        if play.failed {
            if now >= at + Duration::from_secs(1) {
                self.stop = Some(Ok(()));
            }
            return;
        }
        if play.table.local_seat().is_none() {
            self.stop = Some(Ok(()));
            return;
        }
        let mine = play.table.heads();
        let n = mine.len();
        let caught_up = play.seat_peers.iter().enumerate().all(|(s, p)| {
            *p == self.me
                || play.table.is_forfeited(Seat(s as u8))
                || play.peer_heads.get(p).is_some_and(|h| {
                    h.len() == n
                        && (0..n).all(|i| play.table.is_forfeited(Seat(i as u8)) || h[i] >= mine[i])
                })
        });
        if (caught_up && play.outbox.is_empty()) || now >= at + self.cfg.timing.linger {
            self.stop = Some(Ok(()));
        }
    }

    // ----- catch-up -------------------------------------------------------

    fn sync_all(&mut self) {
        let peers = match &self.stage {
            Stage::Play(play)
                if play.finished_at.is_none() || play.table.local_seat().is_some() =>
            {
                play.seat_peers.clone()
            }
            _ => return,
        };
        for p in peers {
            self.request_sync(p);
        }
    }

    fn request_sync(&mut self, peer: PeerId) {
        if peer == self.me || !self.swarm.is_connected(&peer) {
            return;
        }
        let Stage::Play(play) = &mut self.stage else {
            return;
        };
        if !play.sync_inflight.insert(peer) {
            return;
        }
        let request = SyncRequest {
            game: play.table.game_id(),
            heads: play.table.heads(),
        };
        self.swarm.behaviour_mut().sync.send_request(&peer, request);
    }

    fn answer_sync(&mut self, peer: PeerId, request: SyncRequest) -> SyncResponse {
        let empty = SyncResponse {
            heads: Vec::new(),
            envelopes: Vec::new(),
            more: false,
        };
        let Stage::Play(play) = &mut self.stage else {
            return empty;
        };
        if request.game != play.table.game_id() {
            return empty;
        }
        let mine = play.table.heads();
        if request.heads.len() != mine.len() {
            return empty;
        }
        let mut envelopes = Vec::new();
        let mut bytes = 0usize;
        let mut more = false;
        let mut they_have_more = false;
        for (s, (&my, &theirs)) in mine.iter().zip(&request.heads).enumerate() {
            they_have_more |= theirs > my;
            if my <= theirs {
                continue;
            }
            let room = MAX_SYNC_ENVELOPES.saturating_sub(envelopes.len());
            let batch = play.table.envelopes_since(s as u8, theirs, room);
            if (batch.len() as u64) < my - theirs {
                more = true;
            }
            for e in batch {
                let b = e.encode();
                // Leave room for the response's own framing.
                if bytes + b.len() + 16 > MAX_SYNC_RESPONSE_BYTES - 4096 {
                    more = true;
                    break;
                }
                bytes += b.len() + 4;
                envelopes.push(b);
            }
        }
        play.peer_heads.insert(peer, request.heads);
        let response = SyncResponse {
            heads: mine,
            envelopes,
            more,
        };
        if they_have_more {
            self.request_sync(peer);
        }
        response
    }

    fn on_sync_response(&mut self, peer: PeerId, response: SyncResponse) {
        let now = self.now_ms();
        let Stage::Play(play) = &mut self.stage else {
            return;
        };
        play.sync_inflight.remove(&peer);
        if response.heads.len() == play.seat_peers.len() {
            play.peer_heads.insert(peer, response.heads.clone());
        }
        let mut bad = 0;
        for bytes in &response.envelopes {
            if let Err(e) = play.table.handle_bytes(now, bytes)
                && blameless(&e)
            {
                bad += 1;
            }
        }
        let more = response.more;
        for _ in 0..bad {
            self.strike(peer, "sent an invalid envelope in catch-up");
        }
        if more {
            self.request_sync(peer);
        }
    }

    // ----- guards ---------------------------------------------------------

    fn guard(&mut self, peer: PeerId) -> &mut Guard {
        if self.guards.len() >= MAX_GUARDS && !self.guards.contains_key(&peer) {
            let swarm = &self.swarm;
            self.guards
                .retain(|p, g| swarm.is_connected(p) || g.strikes > 0);
            if self.guards.len() >= MAX_GUARDS {
                self.guards.clear();
            }
        }
        let now = Instant::now();
        self.guards.entry(peer).or_insert_with(|| Guard {
            gossip: Bucket::new(GOSSIP_RATE, now),
            requests: Bucket::new(REQUEST_RATE, now),
            strikes: 0,
        })
    }

    fn allow_gossip(&mut self, peer: PeerId) -> bool {
        let now = Instant::now();
        self.guard(peer).gossip.take(now)
    }

    fn allow_request(&mut self, peer: PeerId) -> bool {
        let now = Instant::now();
        self.guard(peer).requests.take(now)
    }

    /// Count a refused message against `peer`; ban it after [`BAN_STRIKES`].
    fn strike(&mut self, peer: PeerId, why: &str) {
        let strikes = {
            let g = self.guard(peer);
            g.strikes += 1;
            g.strikes
        };
        if strikes == 1 {
            self.note(format!("peer {peer} {why}"));
        }
        if strikes == BAN_STRIKES {
            self.note(format!("banning peer {peer}: {strikes} refused messages"));
            let b = self.swarm.behaviour_mut();
            b.blocked.block_peer(peer);
            b.gossipsub.blacklist_peer(&peer);
        }
    }

    // ----- swarm events ---------------------------------------------------

    fn on_swarm(&mut self, event: SwarmEvent<BehaviourEvent>) -> Result<(), NetError> {
        match event {
            SwarmEvent::NewListenAddr { address, .. } => {
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
            SwarmEvent::ConnectionEstablished {
                peer_id, endpoint, ..
            } => {
                let addr = endpoint.get_remote_address().clone();
                // Which path a connection took (through a relay or not) is
                // what tells a relayed table from a direct one.
                let path = if addr.iter().any(|p| matches!(p, Protocol::P2pCircuit)) {
                    "relayed"
                } else {
                    "direct"
                };
                self.note(format!("connection to {peer_id} via {addr} ({path})"));
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
                num_established: 0,
                ..
            } => {
                if let Stage::Play(play) = &mut self.stage {
                    play.sync_inflight.remove(&peer_id);
                    if let Some(s) = play.seat_peers.iter().position(|p| *p == peer_id) {
                        self.emit(NetEvent::Peer {
                            seat: Seat(s as u8),
                            online: false,
                        });
                    }
                }
            }
            SwarmEvent::ListenerClosed {
                addresses,
                reason: Err(e),
                ..
            } => self.note(format!("stopped listening on {addresses:?}: {e}")),
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
                        let response = if self.allow_request(peer) {
                            self.on_lobby_request(peer, request)?
                        } else {
                            self.strike(peer, "sends lobby requests too fast");
                            LobbyResponse::Refused {
                                reason: "too many requests".into(),
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
                request_id, ..
            }) => {
                let ask = self.asks.remove(&request_id);
                // The host could not be told: stop anyway, it will free the
                // seat when the lobby timeout runs out.
                if ask == Some(Ask::Leave) {
                    self.stop = Some(Ok(()));
                }
            }
            BehaviourEvent::Lobby(request_response::Event::InboundFailure {
                peer, error, ..
            }) => {
                if matches!(error, request_response::InboundFailure::Io(_)) {
                    self.strike(peer, "sent a malformed lobby request");
                }
            }
            BehaviourEvent::Sync(request_response::Event::Message { peer, message, .. }) => {
                match message {
                    request_response::Message::Request {
                        request, channel, ..
                    } => {
                        let response = if self.allow_request(peer) {
                            self.answer_sync(peer, request)
                        } else {
                            self.strike(peer, "sends catch-up requests too fast");
                            SyncResponse {
                                heads: Vec::new(),
                                envelopes: Vec::new(),
                                more: false,
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
            BehaviourEvent::Sync(request_response::Event::OutboundFailure { peer, .. }) => {
                if let Stage::Play(play) = &mut self.stage {
                    play.sync_inflight.remove(&peer);
                }
            }
            BehaviourEvent::Sync(request_response::Event::InboundFailure {
                peer, error, ..
            }) => {
                if matches!(error, request_response::InboundFailure::Io(_)) {
                    self.strike(peer, "sent a malformed catch-up request");
                }
            }
            BehaviourEvent::RelayClient(relay::client::Event::ReservationReqAccepted {
                relay_peer_id,
                ..
            }) => self.note(format!("relay {relay_peer_id} accepted our reservation")),
            BehaviourEvent::Dcutr(dcutr::Event {
                remote_peer_id,
                result,
            }) => match result {
                Ok(_) => self.note(format!(
                    "direct connection to {remote_peer_id} (hole punched)"
                )),
                Err(e) => self.note(format!("hole punching to {remote_peer_id} failed: {e}")),
            },
            BehaviourEvent::Autonat(autonat::Event::StatusChanged { new, .. }) => {
                self.note(format!("reachability: {new:?}"))
            }
            _ => {}
        }
        Ok(())
    }

    fn on_gossip(&mut self, source: PeerId, id: MessageId, message: gossipsub::Message) {
        let now = self.now_ms();
        let verdict = if !self.allow_gossip(source) {
            self.strike(source, "floods gossip");
            MessageAcceptance::Ignore
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
                        // by catch-up within one sync interval.
                        Ok(true) => MessageAcceptance::Ignore,
                        Ok(false) => MessageAcceptance::Ignore,
                        Err(e) if blameless(&e) => {
                            self.strike(source, &format!("sent a bad envelope ({e})"));
                            MessageAcceptance::Reject
                        }
                        Err(_) => MessageAcceptance::Ignore,
                    }
                }
                _ if message.topic == self.lobby_topic.hash() => {
                    match decode::<Announce>(&message.data, MAX_ANNOUNCE_BYTES) {
                        Ok(_) => MessageAcceptance::Accept,
                        Err(_) => {
                            self.strike(source, "sent a malformed announcement");
                            MessageAcceptance::Reject
                        }
                    }
                }
                _ => MessageAcceptance::Ignore,
            }
        };
        self.swarm
            .behaviour_mut()
            .gossipsub
            .report_message_validation_result(&id, &source, verdict);
    }

    // ----- the lobby ------------------------------------------------------

    fn our_addrs(&self) -> Vec<Multiaddr> {
        let mut addrs: Vec<Multiaddr> = self
            .swarm
            .external_addresses()
            .cloned()
            .chain(self.listen_addrs.iter().cloned())
            .collect();
        // Relayed and routable addresses first; loopback last (it only helps
        // on this machine).
        addrs.sort_by_key(|a| {
            (
                !a.iter().any(|p| matches!(p, Protocol::P2pCircuit)),
                is_loopback(a),
            )
        });
        addrs.dedup();
        addrs.truncate(MAX_ADDRS);
        addrs
    }

    fn maybe_emit_ticket(&mut self, now: Instant) {
        let addrs: Vec<Multiaddr> = self
            .our_addrs()
            .iter()
            .map(|a| with_peer(a, self.me))
            .collect();
        let Stage::Host(host) = &mut self.stage else {
            return;
        };
        if now < host.ticket_due || addrs.is_empty() {
            return;
        }
        let ticket = Ticket {
            lobby: host.lobby,
            game: G::NAME.to_owned(),
            host: host.info.host,
            addrs,
        };
        if host.ticket_emitted.as_ref() == Some(&ticket) {
            return;
        }
        host.ticket_emitted = Some(ticket.clone());
        let lobby = host.lobby;
        let _ = self.cfg.data_dir.save_ticket(&lobby, &ticket.encode());
        self.emit(NetEvent::Ticket(ticket));
    }

    fn announce(&mut self) {
        let Stage::Host(host) = &mut self.stage else {
            return;
        };
        let Some(ticket) = &host.ticket_emitted else {
            return;
        };
        host.announce_counter += 1;
        let announce = Announce {
            info: host.info.clone(),
            filled: host.members.len() as u8,
            ticket: ticket.encode(),
            counter: host.announce_counter,
        };
        // Nobody listening is the normal case; an announcement is not
        // worth queueing.
        let _ = self
            .swarm
            .behaviour_mut()
            .gossipsub
            .publish(self.lobby_topic.clone(), encode(&announce));
    }

    fn send_join(&mut self) {
        let Stage::Join(j) = &self.stage else { return };
        if self.asks.values().any(|a| *a == Ask::Join) {
            return;
        }
        let request = LobbyRequest::Join {
            lobby: j.ticket.lobby,
            seat: j.seat.clone(),
            addrs: self.our_addrs().iter().map(Multiaddr::to_vec).collect(),
        };
        let host = j.host;
        self.ask(host, request, Ask::Join);
    }

    /// Send a lobby request, remembering what it asked so that its answer
    /// (or failure) can be told apart.
    fn ask(&mut self, peer: PeerId, request: LobbyRequest, ask: Ask) {
        let id = self
            .swarm
            .behaviour_mut()
            .lobby
            .send_request(&peer, request);
        self.asks.insert(id, ask);
    }

    fn send_watch(&mut self) {
        let Stage::Watch(w) = &self.stage else { return };
        if self.asks.values().any(|a| *a == Ask::Watch) {
            return;
        }
        let request = LobbyRequest::Watch {
            lobby: w.ticket.lobby,
        };
        let host = w.host;
        self.ask(host, request, Ask::Watch);
    }

    fn lobby_retry(&mut self) -> Result<(), NetError> {
        match &self.stage {
            Stage::Join(_) if self.leaving.is_some() => {}
            Stage::Join(j) => {
                let host = j.host;
                if self.swarm.is_connected(&host) {
                    self.send_join();
                } else {
                    let ticket = j.ticket.clone();
                    self.dial_ticket(&ticket, host);
                }
            }
            Stage::Watch(w) => {
                let host = w.host;
                if self.swarm.is_connected(&host) {
                    self.send_watch();
                } else {
                    let ticket = w.ticket.clone();
                    self.dial_ticket(&ticket, host);
                }
            }
            Stage::Host(host) => {
                let Some(proposal) = host.proposal.clone() else {
                    return Ok(());
                };
                let lobby = host.lobby;
                let waiting: Vec<PeerId> = host
                    .members
                    .iter()
                    .filter(|m| {
                        m.peer != self.me
                            && proposal
                                .seat_of(&m.seat.key)
                                .is_some_and(|s| !host.acceptances.contains_key(&s.0))
                    })
                    .map(|m| m.peer)
                    .collect();
                for peer in waiting {
                    if self.asks.values().any(|a| *a == Ask::Propose(peer)) {
                        continue;
                    }
                    let request = LobbyRequest::Propose {
                        lobby,
                        proposal: proposal.clone(),
                    };
                    self.ask(peer, request, Ask::Propose(peer));
                }
            }
            Stage::Play(play) => {
                let pending: Vec<(PeerId, LobbyRequest)> = play
                    .start_pending
                    .iter()
                    .map(|(p, r)| (*p, r.clone()))
                    .collect();
                for (peer, request) in pending {
                    if self.asks.values().any(|a| *a == Ask::Start(peer)) {
                        continue;
                    }
                    self.ask(peer, request, Ask::Start(peer));
                }
            }
            Stage::Idle => {}
        }
        Ok(())
    }

    fn redial(&mut self) {
        let Stage::Play(play) = &self.stage else {
            return;
        };
        if play.finished_at.is_some() {
            return;
        }
        let targets: Vec<(PeerId, Vec<Multiaddr>)> = play
            .seat_peers
            .iter()
            .filter(|p| **p != self.me)
            .map(|p| (*p, play.peer_addrs.get(p).cloned().unwrap_or_default()))
            .collect();
        for (peer, addrs) in targets {
            if !self.swarm.is_connected(&peer) {
                let _ = self
                    .swarm
                    .dial(DialOpts::peer_id(peer).addresses(addrs).build());
            }
        }
    }

    fn save_peer_addrs(&mut self) {
        let Stage::Play(play) = &self.stage else {
            return;
        };
        let mut lines = Vec::new();
        for (peer, addrs) in &play.peer_addrs {
            for a in addrs {
                lines.push(format!("{peer} {a}"));
            }
        }
        lines.sort();
        let lobby = play.lobby;
        if lines != self.cfg.data_dir.peers(&lobby) {
            let _ = self.cfg.data_dir.save_peers(&lobby, &lines);
        }
        let ours: Vec<Multiaddr> = self
            .listen_addrs
            .iter()
            .filter(|a| !a.iter().any(|p| matches!(p, Protocol::P2pCircuit)))
            .cloned()
            .collect();
        if !ours.is_empty() && ours != self.cfg.data_dir.listen_addrs(&lobby) {
            let _ = self.cfg.data_dir.save_listen_addrs(&lobby, &ours);
        }
    }

    /// Every seat's addresses as we know them (for Start and Started).
    fn peer_list(me: PeerId, ours: &[Multiaddr], play: &Play<G>) -> Vec<PeerAddrs> {
        play.table
            .genesis()
            .proposal
            .seats
            .iter()
            .map(|s| {
                let peer = peer_id_of(&s.key);
                let addrs = if peer == Some(me) {
                    ours.to_vec()
                } else {
                    peer.and_then(|p| play.peer_addrs.get(&p).cloned())
                        .unwrap_or_default()
                };
                PeerAddrs {
                    key: s.key,
                    addrs: addrs
                        .iter()
                        .take(MAX_ADDRS)
                        .map(Multiaddr::to_vec)
                        .collect(),
                }
            })
            .collect()
    }

    fn on_lobby_request(
        &mut self,
        peer: PeerId,
        request: LobbyRequest,
    ) -> Result<LobbyResponse, NetError> {
        let refuse = |reason: &str| LobbyResponse::Refused {
            reason: reason.to_owned(),
        };
        let ours = self.our_addrs();
        let me = self.me;
        match (&mut self.stage, request) {
            (Stage::Host(host), LobbyRequest::Join { lobby, seat, addrs }) => {
                if lobby != host.lobby {
                    return Ok(refuse("no such table here"));
                }
                if peer_id_of(&seat.key) != Some(peer) {
                    return Ok(refuse("the seat's key is not the sender's key"));
                }
                if seat.name.len() > MAX_NAME_BYTES || seat.name.chars().any(char::is_control) {
                    return Ok(refuse(
                        "the display name is too long or has control characters",
                    ));
                }
                if seat.chain_length != PORT_ROYAL_CHAIN_LENGTH {
                    return Ok(refuse("the chain length is not the game's"));
                }
                let addrs = addrs_from_bytes(&addrs);
                let seen = Instant::now();
                if let Some(m) = host.members.iter_mut().find(|m| m.peer == peer) {
                    if host.proposal.is_none() {
                        m.seat = seat;
                    }
                    m.addrs = addrs;
                    m.seen = seen;
                } else if host.members.len() >= usize::from(host.info.seats) {
                    return Ok(refuse("the table is full"));
                } else {
                    host.members.push(Member {
                        peer,
                        seat,
                        addrs,
                        seen,
                    });
                }
                let filled = host.members.len() as u8;
                let response = LobbyResponse::Welcome {
                    info: host.info.clone(),
                    filled,
                    seated: host.seated(),
                };
                let seats = host.info.seats;
                let proposed = host.proposal.is_some();
                self.emit(NetEvent::Lobby { filled, seats });
                // A joiner's retried request must not make a second proposal:
                // acceptances of the first would then be struck as bad.
                if filled == seats && !proposed {
                    self.propose()?;
                }
                Ok(response)
            }
            (Stage::Host(host), LobbyRequest::Leave { lobby }) => {
                let before = host.members.len();
                if lobby == host.lobby {
                    host.members.retain(|m| m.peer != peer || m.peer == me);
                }
                if host.members.len() != before {
                    host.withdraw_proposal();
                    let (filled, seats) = (host.members.len() as u8, host.info.seats);
                    self.emit(NetEvent::Lobby { filled, seats });
                }
                Ok(LobbyResponse::Ok)
            }
            (Stage::Host(host), LobbyRequest::Watch { lobby }) => {
                if lobby != host.lobby {
                    return Ok(refuse("no such table here"));
                }
                Ok(LobbyResponse::Welcome {
                    info: host.info.clone(),
                    filled: host.members.len() as u8,
                    seated: host.seated(),
                })
            }
            (Stage::Join(_), LobbyRequest::Propose { lobby, proposal }) => {
                self.on_proposal(peer, lobby, proposal)
            }
            (
                Stage::Join(j),
                LobbyRequest::Start {
                    lobby,
                    genesis,
                    peers,
                },
            ) => {
                if peer != j.host || lobby != j.ticket.lobby {
                    return Ok(refuse("not from this table's host"));
                }
                self.on_genesis(genesis, &peers)?;
                Ok(LobbyResponse::Ok)
            }
            (Stage::Play(play), LobbyRequest::Join { lobby, .. })
            | (Stage::Play(play), LobbyRequest::Watch { lobby }) => {
                if lobby != play.lobby {
                    return Ok(refuse("no such table here"));
                }
                let genesis = play.table.genesis().clone();
                let peers = Self::peer_list(me, &ours, play);
                Ok(LobbyResponse::Started { genesis, peers })
            }
            (Stage::Play(_), LobbyRequest::Start { .. } | LobbyRequest::Propose { .. }) => {
                Ok(LobbyResponse::Ok)
            }
            _ => Ok(refuse("not now")),
        }
    }

    /// The host's lobby is full: propose.
    fn propose(&mut self) -> Result<(), NetError> {
        let Stage::Host(host) = &mut self.stage else {
            return Ok(());
        };
        let infos = host.members.iter().map(|m| m.seat.clone()).collect();
        let proposal = match Proposal::new::<G>(&host.options, infos, random_bytes::<32>()?) {
            Ok(p) => p,
            Err(e) => {
                // A joiner's seat made the proposal invalid (a weak key):
                // drop the latest joiner and wait for another.
                host.members.pop();
                let _ = self
                    .events
                    .try_send(NetEvent::Note(format!("proposal refused: {e}")));
                return Ok(());
            }
        };
        let mine = proposal.accept(&self.identity)?;
        host.acceptances.insert(mine.seat, mine);
        host.proposal = Some(proposal);
        self.next_lobby = Instant::now();
        Ok(())
    }

    fn on_proposal(
        &mut self,
        peer: PeerId,
        lobby: LobbyId,
        proposal: Proposal,
    ) -> Result<LobbyResponse, NetError> {
        let Stage::Join(j) = &mut self.stage else {
            return Ok(LobbyResponse::Ok);
        };
        let refuse = |reason: String| LobbyResponse::Refused { reason };
        if self.leaving.is_some() {
            return Ok(refuse("leaving the table".into()));
        }
        if peer != j.host || lobby != j.ticket.lobby {
            return Ok(refuse("not from this table's host".into()));
        }
        let Some(info) = &j.info else {
            return Ok(refuse("not welcomed yet".into()));
        };
        if let Err(e) = proposal.validate::<G>() {
            return Ok(refuse(format!("invalid proposal: {e}")));
        }
        if proposal.game != info.game
            || proposal.options != info.options
            || proposal.seats.len() != usize::from(info.seats)
        {
            return Ok(refuse("the proposal differs from the lobby's terms".into()));
        }
        if proposal.seat_of(&info.host).is_none() || !proposal.seats.contains(&j.seat) {
            return Ok(refuse(
                "the proposal does not seat the host and me as agreed".into(),
            ));
        }
        let acceptance = proposal.accept(&self.identity)?;
        j.accepted = Some(proposal);
        Ok(LobbyResponse::Accepted(acceptance))
    }

    /// A genesis from the host (Start) or any seat (Started): check it, then
    /// play.
    fn on_genesis(&mut self, genesis: Genesis, peers: &[PeerAddrs]) -> Result<(), NetError> {
        let (lobby, local) = match &self.stage {
            Stage::Join(j) => {
                if genesis.verify::<G>().is_err() || !genesis.proposal.seats.contains(&j.seat) {
                    self.note("refused a genesis that does not seat me as agreed");
                    return Ok(());
                }
                let seat = genesis
                    .proposal
                    .seat_of(&self.identity.public())
                    .ok_or(TableError::NotSeated)?;
                let chain = self.chain_for(&j.ticket.lobby)?;
                if let Some(info) = &j.info {
                    self.save_stall(&j.ticket.lobby, info.stall_timeout_ms)?;
                }
                (
                    j.ticket.lobby,
                    Some(Local {
                        seat,
                        identity: self.identity.clone(),
                        chain,
                    }),
                )
            }
            Stage::Watch(w) => {
                if genesis.verify::<G>().is_err()
                    || genesis.proposal.seat_of(&w.ticket.host).is_none()
                {
                    self.note("refused a genesis that does not seat the host");
                    return Ok(());
                }
                (w.ticket.lobby, None)
            }
            _ => return Ok(()),
        };
        self.begin_play(lobby, genesis, peers, local)
    }

    fn on_lobby_response(
        &mut self,
        peer: PeerId,
        ask: Option<Ask>,
        response: LobbyResponse,
    ) -> Result<(), NetError> {
        if ask == Some(Ask::Leave) {
            self.stop = Some(Ok(()));
            return Ok(());
        }
        match (&mut self.stage, response) {
            (
                Stage::Join(j),
                LobbyResponse::Welcome {
                    info,
                    filled,
                    seated,
                },
            ) => {
                if peer != j.host || info.id() != j.ticket.lobby || info.game != G::NAME {
                    self.stop = Some(Err(NetError::Lobby(
                        "the host's terms do not match the ticket".into(),
                    )));
                    return Ok(());
                }
                let seats = info.seats;
                let changed = j.filled != filled || j.seated != seated;
                j.filled = filled;
                j.info = Some(info);
                j.seated = seated;
                if changed {
                    self.emit(NetEvent::Lobby { filled, seats });
                }
            }
            (
                Stage::Watch(w),
                LobbyResponse::Welcome {
                    info,
                    filled,
                    seated,
                },
            ) if info.id() == w.ticket.lobby => {
                let seats = info.seats;
                w.seated = seated;
                self.emit(NetEvent::Lobby { filled, seats });
            }
            (Stage::Join(_) | Stage::Watch(_), LobbyResponse::Started { genesis, peers }) => {
                self.on_genesis(genesis, &peers)?;
            }
            (Stage::Join(_) | Stage::Watch(_), LobbyResponse::Refused { reason }) => {
                self.stop = Some(Err(NetError::Refused(reason)));
            }
            (Stage::Host(host), LobbyResponse::Accepted(a)) => {
                let Some(proposal) = &host.proposal else {
                    return Ok(());
                };
                let Some(member) = host.members.iter().find(|m| m.peer == peer) else {
                    return Ok(());
                };
                let Some(seat) = proposal.seat_of(&member.seat.key) else {
                    return Ok(());
                };
                if a.game_id != proposal.game_id() {
                    // An answer to a proposal withdrawn since (a seat left
                    // while it was out): not wrong, just late.
                    return Ok(());
                }
                let mut message = ACCEPT_DOMAIN.to_vec();
                message.extend_from_slice(&a.game_id.0);
                message.push(a.seat);
                if a.seat != seat.0 || member.seat.key.verify(&message, &a.signature).is_err() {
                    self.strike(peer, "sent a bad acceptance");
                    return Ok(());
                }
                host.acceptances.insert(a.seat, a);
                if host.acceptances.len() == proposal.seats.len() {
                    self.launch()?;
                }
            }
            (Stage::Play(play), LobbyResponse::Ok) => {
                if let Some(Ask::Start(p)) = ask {
                    play.start_pending.remove(&p);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The host has every acceptance: assemble the genesis, start, and tell
    /// every joiner.
    fn launch(&mut self) -> Result<(), NetError> {
        let Stage::Host(host) = std::mem::replace(&mut self.stage, Stage::Idle) else {
            return Ok(());
        };
        let host = *host;
        let Some(proposal) = host.proposal.clone() else {
            return Ok(());
        };
        let acceptances: Vec<Acceptance> = host.acceptances.values().cloned().collect();
        let genesis = Genesis::assemble::<G>(proposal.clone(), &acceptances)?;
        let seat = proposal
            .seat_of(&self.identity.public())
            .ok_or(TableError::NotSeated)?;
        let local = Local {
            seat,
            identity: self.identity.clone(),
            chain: host.chain,
        };
        let peers: Vec<PeerAddrs> = proposal
            .seats
            .iter()
            .map(|s| {
                let addrs = match host.members.iter().find(|m| m.seat.key == s.key) {
                    Some(m) if m.peer == self.me => self.our_addrs(),
                    Some(m) => m.addrs.clone(),
                    None => Vec::new(),
                };
                PeerAddrs {
                    key: s.key,
                    addrs: addrs
                        .iter()
                        .take(MAX_ADDRS)
                        .map(Multiaddr::to_vec)
                        .collect(),
                }
            })
            .collect();
        self.begin_play(host.lobby, genesis.clone(), &peers, Some(local))?;
        if let Stage::Play(play) = &mut self.stage {
            for m in host.members.iter().filter(|m| m.peer != self.me) {
                play.start_pending.insert(
                    m.peer,
                    LobbyRequest::Start {
                        lobby: host.lobby,
                        genesis: genesis.clone(),
                        peers: peers.clone(),
                    },
                );
            }
        }
        self.next_lobby = Instant::now();
        Ok(())
    }
}
