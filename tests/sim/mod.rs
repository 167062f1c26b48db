//! A deterministic network simulator for the table protocol.
//!
//! Every peer is a full [`Table`] with its own key, chain, bot and transcript
//! log on disk. They talk over a seeded in-memory network that drops,
//! duplicates, delays and reorders messages, splits into partitions and
//! heals; peers crash (losing the unsynced tail of their log) and restart
//! from their transcript files. Time is simulated in milliseconds and is an
//! input like any other: the loop always carries out the earliest of the
//! pending events and the tables' own deadlines ([`Table::poll_timeout`]),
//! in the manner of quinn-proto's test `Pair` and str0m's netem, so a seed
//! names one run exactly and a failure replays bit for bit.
//!
//! Over 1,000 lines because the event loop and what a peer does on each
//! event are one concern; the cheats, configuration, network, outcome checks,
//! seeds and set-up are modules of their own.
//!
//! # What a peer does
//!
//! A peer carries out its table's outputs in order, as a real driver must:
//! `Persist` appends to its [`TranscriptLog`], `Broadcast` gossips to every
//! other peer, `Finished` replaces the log by the canonical transcript
//! (`TranscriptLog::finish`). Its bot ([`RandomBot`], or the game's own
//! heuristic bot at odd seats, see [`SimGame`]) thinks for a while, chooses
//! from the shared state and its seat's knowledge only, and submits through
//! the table, exactly as a person's move would be.
//!
//! The simulator plays any game that implements [`SimGame`]; its
//! configuration and outcome name the game as a type parameter, Port Royal
//! unless told otherwise.
//!
//! Lost messages are repaired the way the real network layer will repair
//! them: every half second or so a peer sends one peer it is connected to
//! its [`Table::heads`] and, per seat, a fingerprint of the last envelope it
//! holds; the other answers with what the requester lacks
//! ([`Table::envelopes_since`]) and with its own envelope for any slot whose
//! fingerprint differs (that is how two halves of an equivocation meet). A
//! peer that finds a violation gossips the envelopes of its proof and adds
//! them to every catch-up answer, so that a peer that saw only one half, or
//! none of it, learns it. Both model the libp2p
//! request-response sync and are what the network layer must do.
//!
//! A crash is a power loss: the log keeps what was synced (the table asks
//! for a sync before it sends its own envelopes) and loses a random part of
//! the rest, possibly in the middle of a frame. The restart reopens the log
//! (which cuts the torn tail), builds a table for the same seat, key and
//! chain, feeds every logged envelope back with `handle_envelope`, starts it
//! with `handle_timeout` and asks every peer to catch it up. Re-signed
//! envelopes of the replay are the same bytes (signatures are
//! deterministic) and are not appended twice.
//!
//! # Cheaters
//!
//! See [`Cheat`]: a cheater that blames itself signs the forgery in the
//! slot its honest table would use next, sends it and leaves; garbage that
//! anyone could send is thrown from outside at every peer while the
//! cheater's seat plays on honestly.
//!
//! # Replaying
//!
//! Every test prints, for a failing seed, a one-line command with `SIM_SEED`
//! that replays it; `SIM_TRACE=1` prints every event and output of the run.
//!
//! # What the simulator found that the table cannot do yet
//!
//! * Two seats that stop within one stall timeout of each other block the
//!   table for good: a forfeit needs a claim from every other seat still in,
//!   and a stopped seat signs none (`sim_stalls`, ignored test). A group
//!   rule (claims against a set S complete when every seat outside S has
//!   claimed every seat in S) is only safe with a strict majority outside
//!   S, or both sides of a network split forfeit each other; and it needs
//!   a seat that fails to countersign a due claim to become claimable
//!   itself, since at a decision only the decider is waited on. Not done.
//! * When the last seat still in stops, nobody is left to claim it and the
//!   game never ends.
//! * A seat's own table never applies its own resignation (authored into
//!   its log, never consumed): kept running, it is asked for the seat's
//!   decisions again and goes one position off the others. The simulator's
//!   resigning seat leaves, as a player who resigns does.
//!
//! [`run`] plays one game as configured by a [`SimConfig`] and returns an
//! [`Outcome`], whose checks state the properties the tests assert.

mod cheat;
mod config;
mod game;
mod net;
mod outcome;
mod seeds;
mod setup;

use std::collections::{BTreeMap, HashSet};
use std::fs::OpenOptions;
use std::path::PathBuf;

use roundtable_bots::{Bot, RandomBot};
use roundtable_engine::{Game, GameResult, Knowledge, Next, Seat};
use roundtable_table::transcript::{Frame, TranscriptLog};
use roundtable_table::{Config, Hash32, Output, Record, Signed, Table, TableError, Violation};

pub use cheat::Cheat;
pub use config::{Faults, Role, SimConfig};
pub use game::SimGame;
pub use outcome::{Outcome, PeerReport, Stats};
pub use seeds::{Premise, for_seeds, replay_command, seeds_from_env};
pub use setup::Players;

use net::{Event, Fingerprint, Msg, Queue, Rng};

/// Envelopes per seat in one catch-up answer.
const SYNC_LIMIT: usize = 64;
/// How long the simulation runs on after every honest peer is done (ms).
const GRACE_MS: u64 = 3_000;

/// Whether a peer's machine is running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Power {
    Up,
    /// Crashed; it will restart.
    Down,
    /// Crashed for good, or left after cheating.
    Gone,
}

struct Peer<G: SimGame> {
    seat: u8,
    role: Role,
    power: Power,
    table: Option<Table<G>>,
    /// `None` once the game is finished and the log became the transcript.
    log: Option<TranscriptLog>,
    path: PathBuf,
    /// Bytes of the log known to be synced.
    synced_len: u64,
    /// The envelopes in the log, by slot and signature (cheaper than their
    /// hashes), so that a restart's replay does not append them twice.
    logged: HashSet<(u8, u64, Hash32)>,
    bot: Box<dyn Bot<G>>,
    think_ms: (u64, u64),
    /// The position for which a bot decision is scheduled.
    bot_pending: Option<u64>,
    result: Option<GameResult>,
    finished_at: Option<u64>,
    file: Option<Vec<u8>>,
    /// The log's frames in arrival order, read when the game finished for
    /// the peer (before the log became the canonical transcript); frames
    /// logged after that (the log reopened) are added when it finishes again.
    arrival: Option<Vec<Frame>>,
    /// Frames of the canonical transcript a reopened log started from.
    reopened_at: usize,
    violations_seen: Vec<Violation>,
    forfeits: Vec<(Seat, &'static str)>,
    refusals: BTreeMap<String, u64>,
    restarts: u32,
    rewinds: u32,
    /// Position and envelopes held at the last catch-up tick.
    last_progress: Option<(u64, u64)>,
    /// Catch-up ticks so far.
    ticks: u64,
    /// The cheat was carried out.
    cheated: bool,
    /// What its table had opened of the private cards the last time it was
    /// running before every key was released (its own seat's cards only;
    /// the released keys open everyone's).
    knowledge_in_play: Knowledge,
    /// It resigned.
    resigned: bool,
}

impl<G: SimGame> Peer<G> {
    fn done(&self) -> bool {
        self.table
            .as_ref()
            .is_some_and(|t| t.is_finished() || t.violation().is_some())
    }
}

/// A running simulation of a game of `G`.
struct Sim<G: SimGame> {
    cfg: SimConfig<G>,
    rng: Rng,
    queue: Queue,
    now: u64,
    players: Players,
    genesis_frames: Vec<Frame>,
    peers: Vec<Peer<G>>,
    /// Group of each peer while the network is split.
    partition: Option<Vec<u8>>,
    stats: Stats,
    /// Envelopes cheaters sent.
    cheat_envelopes: Vec<Signed>,
    /// Every gossiped envelope, for attacks that replay or tamper with them.
    history: Vec<Signed>,
    /// The same players' other game, for replays from elsewhere.
    other_game: Option<Players>,
    /// Whether the far-ahead wraps of `Cheat::RewrappedReveal` were thrown.
    far_wraps_sent: bool,
    /// The second envelope of `Cheat::UnaskedShares`, held for some peers.
    held_stray: Option<cheat::HeldStray>,
    /// `SIM_TRACE` is set: print every event and output (for replays).
    trace: bool,
    _dir: tempfile::TempDir,
}

/// Play one game as `cfg` says.
pub fn run<G: SimGame>(cfg: SimConfig<G>) -> Outcome<G> {
    let mut sim = Sim::new(cfg);
    sim.start();
    let stuck = sim.run();
    sim.outcome(stuck)
}

impl<G: SimGame> Sim<G> {
    fn new(cfg: SimConfig<G>) -> Sim<G> {
        let mut rng = Rng::new(cfg.seed);
        let players =
            Players::new::<G>(cfg.seats, cfg.seed, &cfg.options, b"game", cfg.chain_length);
        let genesis = &players.genesis;
        let mut genesis_frames = vec![Frame::Proposal(genesis.proposal.clone())];
        genesis_frames.extend(genesis.acceptances.iter().cloned().map(Frame::Acceptance));
        let dir = tempfile::tempdir().expect("a temporary directory");
        let peers = (0..cfg.seats)
            .map(|seat| {
                let role = cfg.role(usize::from(seat));
                let smart = (cfg.smart_bots && seat % 2 == 1)
                    .then(|| G::smart_bot(&cfg.options))
                    .flatten();
                // A seed is drawn only for a random bot, so a seat with the
                // game's own bot leaves the run's later draws as they were.
                let bot = smart.unwrap_or_else(|| Box::new(RandomBot::new(rng.u64())));
                let think_ms = match role {
                    Role::Slow { think_ms } => think_ms,
                    _ => cfg.think_ms,
                };
                let path = dir.path().join(format!("seat-{}.rts", seat + 1));
                let log = TranscriptLog::create(&path, &genesis_frames).expect("a new log");
                let len = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
                let table = Table::new(
                    genesis.clone(),
                    Some(players.local(seat)),
                    table_config(&cfg),
                )
                .expect("a table for a valid genesis");
                Peer {
                    seat,
                    role,
                    power: Power::Up,
                    table: Some(table),
                    log: Some(log),
                    path,
                    synced_len: len,
                    logged: HashSet::new(),
                    bot,
                    think_ms,
                    bot_pending: None,
                    result: None,
                    finished_at: None,
                    file: None,
                    arrival: None,
                    reopened_at: 0,
                    violations_seen: Vec::new(),
                    forfeits: Vec::new(),
                    refusals: BTreeMap::new(),
                    restarts: 0,
                    rewinds: 0,
                    last_progress: None,
                    ticks: 0,
                    cheated: false,
                    knowledge_in_play: Knowledge::new(),
                    resigned: false,
                }
            })
            .collect();
        Sim {
            rng,
            queue: Queue::default(),
            now: 0,
            genesis_frames,
            peers,
            partition: None,
            stats: Stats::default(),
            cheat_envelopes: Vec::new(),
            history: Vec::new(),
            other_game: None,
            far_wraps_sent: false,
            held_stray: None,
            trace: std::env::var_os("SIM_TRACE").is_some(),
            players,
            _dir: dir,
            cfg,
        }
    }

    fn n(&self) -> usize {
        self.peers.len()
    }

    /// Start every table, schedule catch-up, faults and attacks.
    fn start(&mut self) {
        for i in 0..self.n() {
            if let Some(t) = self.peers[i].table.as_mut() {
                t.handle_timeout(0);
            }
            self.drain(i);
            let first = self.rng.range(1, self.cfg.sync_interval_ms);
            self.queue.push(first, Event::SyncTick { peer: i });
        }
        let f = self.cfg.faults.clone();
        let restartable: Vec<usize> = (0..self.n())
            .filter(|&i| self.peers[i].role.is_honest())
            .collect();
        // Crashes and partitions one after another, never overlapping, so
        // that no outage is longer than the longest single one: with the
        // default ranges honest peers are never claimed stalled by them.
        let mut kinds: Vec<bool> = (0..f.crashes)
            .map(|_| true)
            .chain((0..f.partitions).map(|_| false))
            .collect();
        for k in (1..kinds.len()).rev() {
            kinds.swap(k, self.rng.below(k as u64 + 1) as usize);
        }
        let slot = f.horizon_ms / (kinds.len() as u64).max(1);
        let mut cursor = 0;
        for crash in kinds {
            let at = cursor + self.rng.range(500, slot.max(500));
            if crash {
                if restartable.is_empty() {
                    continue;
                }
                let peer = restartable[self.rng.below(restartable.len() as u64) as usize];
                let down = self.rng.range(f.crash_down_ms.0, f.crash_down_ms.1);
                self.queue.push(
                    at,
                    Event::Crash {
                        peer,
                        down_ms: Some(down),
                    },
                );
                cursor = at + down;
            } else {
                let length = self.rng.range(f.partition_ms.0, f.partition_ms.1);
                let mut groups: Vec<u8> = (0..self.n()).map(|_| self.rng.below(2) as u8).collect();
                // Make it a real split.
                let lone = self.rng.below(self.n() as u64) as usize;
                groups[lone] = 1 - groups[(lone + 1) % self.n()];
                self.queue.push(at, Event::Partition { groups });
                self.queue.push(at + length, Event::Heal);
                cursor = at + length;
            }
        }
        for i in 0..self.n() {
            match self.peers[i].role.clone() {
                Role::Dies { at_ms } => self.queue.push(
                    at_ms,
                    Event::Crash {
                        peer: i,
                        down_ms: None,
                    },
                ),
                Role::Cheater { cheat, .. } if cheat.is_attack() => {
                    if cheat == Cheat::WrongGame {
                        self.other_game = Some(Players::new::<G>(
                            self.cfg.seats,
                            self.cfg.seed,
                            &self.cfg.options,
                            b"another game",
                            self.cfg.chain_length,
                        ));
                    }
                    self.queue.push(1_000, Event::Attack);
                }
                _ => {}
            }
        }
    }

    /// The earliest table deadline: (time, peer).
    fn next_timer(&self) -> Option<(u64, usize)> {
        self.peers
            .iter()
            .enumerate()
            .filter(|(_, p)| p.power == Power::Up)
            .filter_map(|(i, p)| Some((p.table.as_ref()?.poll_timeout()?, i)))
            .min()
    }

    fn all_done(&self) -> bool {
        self.peers
            .iter()
            .filter(|p| p.role.is_honest())
            .all(Peer::done)
    }

    /// Carry out events until every honest peer is done; returns why it
    /// stopped early, if it did.
    fn run(&mut self) -> Option<String> {
        // Livelock guard: this many steps without time moving means some
        // table keeps asking for the same instant.
        let mut same_instant = 0u32;
        // Once every honest peer is done, run on a little (with the network
        // whole) so that late evidence, such as a claim that makes a
        // finished peer rewind, still arrives: agreement must be stable, not
        // momentary.
        let mut grace_until: Option<u64> = None;
        loop {
            if self.all_done() && self.partition.is_none() {
                let until = *grace_until.get_or_insert(self.now + GRACE_MS);
                if self.now >= until && self.all_done() {
                    return None;
                }
            } else {
                grace_until = None;
            }
            let before = self.now;
            let timer = self.next_timer();
            let event = self.queue.next_time();
            match (timer, event) {
                (Some((t, i)), e) if e.is_none_or(|e| t <= e) => {
                    self.now = self.now.max(t);
                    if let Some(table) = self.peers[i].table.as_mut() {
                        table.handle_timeout(self.now);
                    }
                    self.drain(i);
                }
                (_, Some(_)) => {
                    let Some((t, ev)) = self.queue.pop() else {
                        return Some("the queue emptied".into());
                    };
                    self.now = self.now.max(t);
                    self.handle(ev);
                }
                _ => return Some(format!("nothing left to happen at {} ms", self.now)),
            }
            self.stats.events += 1;
            if self.now == before {
                same_instant += 1;
                if same_instant > 1_000_000 {
                    return Some(format!("livelock at {} ms", self.now));
                }
            } else {
                same_instant = 0;
            }
            if self.now > self.cfg.time_limit_ms {
                return Some(format!("time limit: {}", self.describe_tables()));
            }
        }
    }

    /// Where every running table stands, for a stuck run's message.
    fn describe_tables(&self) -> String {
        self.peers
            .iter()
            .filter_map(|p| {
                let t = p.table.as_ref()?;
                let forfeited: Vec<u8> = (0..self.cfg.seats)
                    .filter(|&s| t.is_forfeited(Seat(s)))
                    .map(|s| s + 1)
                    .collect();
                let next = match t.game().next() {
                    Next::Chance(r) => format!("chance ({})", r.purpose),
                    other => format!("{other:?}"),
                };
                Some(format!(
                    "seat {} at {} waits for {next} (forfeited {forfeited:?}, heads {:?})",
                    p.seat + 1,
                    t.position(),
                    t.heads()
                ))
            })
            .collect::<Vec<_>>()
            .join("; ")
    }

    fn handle(&mut self, event: Event) {
        if self.trace {
            let what = match &event {
                Event::Deliver { from, to, msg } => format!(
                    "deliver {from}->{to} {}",
                    match msg {
                        Msg::Envelope(b) => Signed::decode(b)
                            .map(|s| describe::<G>(&s))
                            .unwrap_or_else(|e| e.to_string()),
                        Msg::SyncRequest { heads, .. } => format!("sync request {heads:?}"),
                        Msg::SyncResponse(envs) => format!(
                            "sync response [{}]",
                            envs.iter()
                                .filter_map(|b| Signed::decode(b).ok())
                                .map(|s| describe::<G>(&s))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    }
                ),
                other => format!("{other:?}"),
            };
            eprintln!("{:>8} {what}", self.now);
        }
        match event {
            Event::Deliver { from, to, msg } => self.deliver(from, to, msg),
            Event::Bot { peer, position } => self.bot_move(peer, position),
            Event::SyncTick { peer } => {
                if self.peers[peer].power != Power::Up {
                    return;
                }
                // Catch up when nothing moved since the last tick (the table
                // waits for something that may have been lost), and every
                // fourth tick anyway. A finished peer asks too: a claim it
                // never heard of can still make it rewind (a two-seat game
                // cut in two).
                let p = &mut self.peers[peer];
                let progress = p
                    .table
                    .as_ref()
                    .map(|t| (t.position(), t.heads().iter().sum::<u64>()));
                let idle = progress == p.last_progress;
                p.last_progress = progress;
                p.ticks += 1;
                let due = idle || p.ticks.is_multiple_of(4);
                // Ask one peer it is connected to (as a connection manager
                // knows): a crashed peer answers nothing.
                let up: Vec<usize> = (0..self.n())
                    .filter(|&j| j != peer && self.peers[j].power == Power::Up)
                    .collect();
                if due && !up.is_empty() {
                    let to = up[self.rng.below(up.len() as u64) as usize];
                    self.request_sync(peer, Some(to));
                }
                let next = self.now
                    + self
                        .rng
                        .range(self.cfg.sync_interval_ms / 2, self.cfg.sync_interval_ms);
                self.queue.push(next, Event::SyncTick { peer });
            }
            Event::Crash { peer, down_ms } => self.crash(peer, down_ms),
            Event::Restart { peer } => self.restart(peer),
            Event::Partition { groups } => self.partition = Some(groups),
            Event::Heal => self.partition = None,
            Event::Attack => self.attack(),
        }
    }

    // ----- the network ------------------------------------------------------

    fn partitioned(&self, a: usize, b: usize) -> bool {
        match &self.partition {
            Some(g) if a < g.len() && b < g.len() => g[a] != g[b],
            _ => false,
        }
    }

    /// Put `msg` on the wire from `from` to `to`, with the network's faults.
    fn send(&mut self, from: usize, to: usize, msg: Msg) {
        self.stats.messages += 1;
        self.stats.wire_bytes += msg.wire_bytes() as u64;
        if self.partitioned(from, to) || self.rng.chance(self.cfg.faults.drop) {
            self.stats.lost += 1;
            return;
        }
        let copies = if self.rng.chance(self.cfg.faults.duplicate) {
            self.stats.duplicated += 1;
            2
        } else {
            1
        };
        for _ in 0..copies {
            let f = &self.cfg.faults;
            let (lo, hi, straggle, straggle_ms) =
                (f.delay_ms.0, f.delay_ms.1, f.straggle, f.straggle_ms);
            let mut delay = self.rng.range(lo, hi);
            if self.rng.chance(straggle) {
                delay += self.rng.range(0, straggle_ms);
            }
            self.queue.push(
                self.now + delay,
                Event::Deliver {
                    from,
                    to,
                    msg: msg.clone(),
                },
            );
        }
    }

    fn broadcast(&mut self, from: usize, signed: &Signed) {
        let bytes = signed.encode();
        self.stats.gossip_bytes += (bytes.len() * (self.n() - 1)) as u64;
        if self.needs_history() {
            self.history.push(signed.clone());
        }
        for to in 0..self.n() {
            if to != from {
                self.send(from, to, Msg::Envelope(bytes.clone()));
            }
        }
    }

    fn deliver(&mut self, from: usize, to: usize, msg: Msg) {
        if self.peers[to].power != Power::Up || self.partitioned(from, to) {
            self.stats.lost += 1;
            return;
        }
        let position = self.peers[to].table.as_ref().map(Table::position);
        if self
            .held_stray
            .as_ref()
            .is_some_and(|h| h.holds(to, position, self.now, &msg))
        {
            self.queue
                .push(self.now + 50, Event::Deliver { from, to, msg });
            return;
        }
        match msg {
            Msg::Envelope(bytes) => self.receive(to, &bytes),
            Msg::SyncRequest { heads, tips } => self.answer_sync(to, from, &heads, &tips),
            Msg::SyncResponse(envelopes) => {
                for bytes in &envelopes {
                    self.receive(to, bytes);
                }
            }
        }
        self.drain(to);
    }

    fn receive(&mut self, to: usize, bytes: &[u8]) {
        let now = self.now;
        let peer = &mut self.peers[to];
        let Some(table) = peer.table.as_mut() else {
            return;
        };
        self.stats.received += 1;
        match table.handle_bytes(now, bytes) {
            Ok(true) => self.stats.received_new += 1,
            Ok(false) => {}
            Err(e) => *peer.refusals.entry(refusal_name(&e)).or_default() += 1,
        }
    }

    /// Ask peer `to` (or every other peer) for what this one lacks.
    fn request_sync(&mut self, peer: usize, to: Option<usize>) {
        let Some(table) = self.peers[peer].table.as_ref() else {
            return;
        };
        let heads = table.heads();
        let tips = heads
            .iter()
            .enumerate()
            .map(|(seat, &h)| {
                let last = h.checked_sub(1)?;
                table
                    .envelopes_since(seat as u8, last, 1)
                    .first()
                    .map(fingerprint)
            })
            .collect::<Vec<_>>();
        for j in 0..self.n() {
            if j != peer && to.is_none_or(|to| to == j) {
                self.send(
                    peer,
                    j,
                    Msg::SyncRequest {
                        heads: heads.clone(),
                        tips: tips.clone(),
                    },
                );
            }
        }
    }

    /// Send `requester` every consumed envelope it lacks, and the envelope
    /// in its last slot of a seat when ours differs (an equivocation).
    fn answer_sync(
        &mut self,
        me: usize,
        requester: usize,
        heads: &[u64],
        tips: &[Option<Fingerprint>],
    ) {
        let Some(table) = self.peers[me].table.as_ref() else {
            return;
        };
        let mine = table.heads();
        let mut out = Vec::new();
        for (seat, (&theirs, &have)) in heads.iter().zip(&mine).enumerate() {
            let seat = seat as u8;
            // A different envelope in the requester's last slot of this
            // seat: send ours, the other half of an equivocation.
            if let Some(last) = theirs.checked_sub(1).filter(|_| theirs <= have)
                && let Some(e) = table.envelopes_since(seat, last, 1).first()
                && tips.get(usize::from(seat)).copied().flatten() != Some(fingerprint(e))
            {
                out.push(e.encode());
            }
            if have > theirs {
                out.extend(
                    table
                        .envelopes_since(seat, theirs, SYNC_LIMIT)
                        .iter()
                        .map(Signed::encode),
                );
            }
        }
        // A table that failed sends its proof with every answer, as the
        // network layer does (SPEC 4.4).
        if let Some(v) = table.violation() {
            for e in v.envelopes() {
                let bytes = e.encode();
                if !out.contains(&bytes) {
                    out.push(bytes);
                }
            }
        }
        if !out.is_empty() {
            self.send(me, requester, Msg::SyncResponse(out));
        }
    }

    // ----- a peer's outputs -----------------------------------------------

    /// Carry out a peer's outputs in order, then let its bot or its cheat act.
    fn drain(&mut self, i: usize) {
        // A finish is acted on once the queue is empty: an envelope taken in
        // after the table finished can make it go back (a `Rewound` later in
        // the queue, its `Persist` after the `Finished`), and the file
        // written at a finish the table has left would hold that envelope
        // before the log did.
        let mut finished = None;
        while let Some(output) = self.peers[i].table.as_mut().and_then(Table::poll_output) {
            if self.trace {
                match &output {
                    Output::Persist { .. } => {}
                    Output::Broadcast(s) => {
                        eprintln!("{:>8}   peer {i} sends {}", self.now, describe::<G>(s))
                    }
                    Output::Applied {
                        position, record, ..
                    } => {
                        eprintln!("{:>8}   peer {i} applied {position}: {record:?}", self.now)
                    }
                    other => eprintln!("{:>8}   peer {i}: {other:?}", self.now),
                }
            }
            match output {
                Output::Persist { envelope, sync } => self.persist(i, envelope, sync),
                Output::Broadcast(signed) => {
                    self.stats.authored += 1;
                    if self.stops_before(i, &signed) {
                        if let Some(result) = finished.take() {
                            self.finish(i, result);
                        }
                        self.leave(i);
                        return;
                    }
                    if let Some(forged) = self.tamper_outgoing(i, &signed) {
                        for (to, s) in forged {
                            self.send(i, to, Msg::Envelope(s.encode()));
                        }
                        if let Some(result) = finished.take() {
                            self.finish(i, result);
                        }
                        self.leave(i);
                        return;
                    }
                    self.broadcast(i, &signed);
                }
                Output::Applied { .. } => {}
                Output::Rewound { .. } => {
                    finished = None;
                    self.rewound(i);
                }
                Output::Forfeited { seat, reason } => self.peers[i].forfeits.push((seat, reason)),
                Output::Violation(v) => {
                    // Gossip the proof's envelopes, as the network layer
                    // will: a peer that got only one side of an
                    // equivocation learns it from whoever saw both.
                    for signed in v.envelopes() {
                        self.broadcast(i, signed);
                    }
                    self.peers[i].violations_seen.push(*v);
                }
                Output::Finished(result) => finished = Some(result),
            }
        }
        if let Some(result) = finished {
            self.finish(i, result);
        }
        self.note_knowledge(i);
        self.schedule_bot(i);
        self.cheat_after_input(i);
    }

    /// Whether peer `i` stops for good instead of sending `signed`
    /// ([`Role::StopsBefore`]).
    fn stops_before(&self, i: usize, signed: &Signed) -> bool {
        let peer = &self.peers[i];
        matches!(peer.role, Role::StopsBefore { kind, after }
            if signed.envelope.body.kind() == kind
                && peer.table.as_ref().is_some_and(|t| t.position() >= after))
    }

    /// Keep what the peer's seat has opened before the keys are released,
    /// to hold it against the released keys after the game. (Not only while
    /// the game is on: a peer that restarts after its last deal may replay
    /// its log straight to the game's end.)
    fn note_knowledge(&mut self, i: usize) {
        let peer = &mut self.peers[i];
        let Some(table) = peer.table.as_ref() else {
            return;
        };
        if table.every_key_released() {
            return;
        }
        if let Some(knowledge) = table.knowledge()
            && *knowledge != peer.knowledge_in_play
        {
            peer.knowledge_in_play = knowledge.clone();
        }
    }

    fn persist(&mut self, i: usize, envelope: Signed, sync: bool) {
        let fsync = self.cfg.fsync;
        // After the game the file is the canonical transcript; what the table
        // still takes in (a late claim that will make it rewind) goes into
        // it again as a log, as a real peer's does.
        self.reopen_log(i);
        let peer = &mut self.peers[i];
        let Some(log) = peer.log.as_mut() else {
            return;
        };
        if !peer.logged.insert(log_key(&envelope)) {
            return;
        }
        log.append(&Frame::Envelope(envelope), sync && fsync)
            .expect("appending to the log");
        if sync {
            // Where a power loss can cut the file back to, at the earliest.
            peer.synced_len = std::fs::metadata(&peer.path).map_or(0, |m| m.len());
        }
    }

    /// The game is over for this peer: its log becomes the canonical
    /// transcript, as a real peer's does.
    fn finish(&mut self, i: usize, result: GameResult) {
        let peer = &mut self.peers[i];
        peer.result = Some(result);
        peer.finished_at = Some(self.now);
        self.write_canonical(i);
    }

    /// Read the log as it arrived, then replace it by the canonical
    /// transcript.
    fn write_canonical(&mut self, i: usize) {
        let peer = &mut self.peers[i];
        let (Some(log), Some(table)) = (peer.log.take(), peer.table.as_ref()) else {
            return;
        };
        let frames = roundtable_table::transcript::read(&peer.path)
            .map(|r| r.frames)
            .unwrap_or_default();
        match &mut peer.arrival {
            // Reopened after the game: the canonical part is not arrival
            // order; what came after it is.
            Some(arrival) => arrival.extend(frames.into_iter().skip(peer.reopened_at)),
            None => peer.arrival = Some(frames),
        }
        let path = log.finish(&table.transcript()).expect("finishing the log");
        peer.file = std::fs::read(path).ok();
    }

    /// The table went back to apply a forfeit it had passed. When the game
    /// had finished for this peer, its file already holds the transcript:
    /// open it as the log again (every envelope is in it), so the next
    /// finish rewrites it.
    fn rewound(&mut self, i: usize) {
        let peer = &mut self.peers[i];
        peer.rewinds += 1;
        peer.result = None;
        self.reopen_log(i);
    }

    /// Open the finished transcript as the peer's log again, if the game had
    /// finished for it.
    fn reopen_log(&mut self, i: usize) {
        let peer = &mut self.peers[i];
        if peer.log.is_some() || peer.file.is_none() {
            return;
        }
        let (log, read) = TranscriptLog::open(&peer.path).expect("reopening the finished log");
        peer.logged = read
            .frames
            .iter()
            .filter_map(|f| match f {
                Frame::Envelope(s) => Some(log_key(s)),
                _ => None,
            })
            .collect();
        peer.synced_len = read.valid_len;
        peer.reopened_at = read.frames.len();
        peer.log = Some(log);
        peer.file = None;
    }

    fn schedule_bot(&mut self, i: usize) {
        let peer = &self.peers[i];
        let Some(table) = peer.table.as_ref() else {
            return;
        };
        let seat = Seat(peer.seat);
        if peer.power != Power::Up
            || table.violation().is_some()
            || table.is_forfeited(seat)
            || table.game().next() != Next::Decision(seat)
            || peer.bot_pending == Some(table.position())
        {
            return;
        }
        let position = table.position();
        let (lo, hi) = peer.think_ms;
        let at = self.now + self.rng.range(lo, hi);
        self.peers[i].bot_pending = Some(position);
        self.queue.push(at, Event::Bot { peer: i, position });
    }

    fn bot_move(&mut self, i: usize, position: u64) {
        let now = self.now;
        let peer = &mut self.peers[i];
        if peer.bot_pending == Some(position) {
            peer.bot_pending = None;
        }
        let seat = Seat(peer.seat);
        let Some(table) = peer.table.as_ref() else {
            return;
        };
        if peer.power != Power::Up
            || table.position() != position
            || table.game().next() != Next::Decision(seat)
            || table.is_forfeited(seat)
        {
            return;
        }
        if self.cheat_at_decision(i) {
            return;
        }
        let peer = &mut self.peers[i];
        if let Role::Resigns { after, stays } = peer.role
            && position >= after
            && let Some(table) = peer.table.as_mut()
        {
            if peer.resigned {
                // Its table plays the seat as a zombie from here on.
                return;
            }
            peer.resigned = true;
            if let Err(e) = table.resign(now) {
                *peer.refusals.entry(refusal_name(&e)).or_default() += 1;
            }
            // Its resignation and key release go out; then it leaves, or
            // its table follows the game to the end.
            self.drain(i);
            if !stays {
                self.leave(i);
            }
            return;
        }
        let peer = &mut self.peers[i];
        let Some(table) = peer.table.as_mut() else {
            return;
        };
        let knowledge = table.knowledge().cloned().unwrap_or_default();
        let mut legal = Vec::new();
        table
            .game()
            .legal_actions_with(seat, &knowledge, &mut legal);
        let pick = peer.bot.choose_in(seat, table.game(), &knowledge, &legal);
        let Some(action) = legal.get(pick).or(legal.first()).cloned() else {
            return;
        };
        if let Err(e) = table.submit(now, action) {
            *peer.refusals.entry(refusal_name(&e)).or_default() += 1;
        }
        self.drain(i);
    }

    // ----- crashes ----------------------------------------------------------

    fn crash(&mut self, i: usize, down_ms: Option<u64>) {
        let torn = self.cfg.faults.torn_tails;
        let peer = &self.peers[i];
        // A finished peer's file is the transcript; crashing it proves
        // nothing more, and a dead-for-good peer dies whatever it was doing.
        if peer.power != Power::Up || (down_ms.is_some() && peer.result.is_some()) {
            return;
        }
        let len = std::fs::metadata(&peer.path).map_or(0, |m| m.len());
        let synced = peer.synced_len.min(len);
        let cut = if torn && len > synced {
            Some(self.rng.range(synced, len))
        } else {
            None
        };
        let peer = &mut self.peers[i];
        peer.table = None;
        peer.bot_pending = None;
        if let Some(log) = peer.log.take() {
            drop(log);
            if let Some(cut) = cut {
                // Power loss: bytes written since the last sync may be gone,
                // possibly in the middle of a frame.
                let f = OpenOptions::new()
                    .write(true)
                    .open(&peer.path)
                    .expect("opening the log");
                f.set_len(cut).expect("tearing the log");
            }
        }
        match down_ms {
            Some(d) => {
                peer.power = Power::Down;
                self.queue.push(self.now + d, Event::Restart { peer: i });
            }
            None => peer.power = Power::Gone,
        }
    }

    /// Restart from the transcript log: reopen it (cutting a torn tail),
    /// rebuild the table for the same seat, key and chain, feed every logged
    /// envelope back, and go on.
    fn restart(&mut self, i: usize) {
        if self.peers[i].power != Power::Down {
            return;
        }
        let now = self.now;
        let local = self.players.local(self.peers[i].seat);
        let config = table_config(&self.cfg);
        let genesis = self.players.genesis.clone();
        let peer = &mut self.peers[i];
        let (log, read) = TranscriptLog::open(&peer.path).expect("reopening the log");
        assert_eq!(
            read.frames.get(..self.genesis_frames.len()),
            Some(&self.genesis_frames[..]),
            "the log starts with the genesis"
        );
        let mut table = Table::new(genesis, Some(local), config).expect("a table");
        peer.logged.clear();
        for frame in &read.frames {
            if let Frame::Envelope(signed) = frame {
                peer.logged.insert(log_key(signed));
                if let Err(e) = table.handle_envelope(now, signed.clone()) {
                    *peer
                        .refusals
                        .entry(format!("replay: {}", refusal_name(&e)))
                        .or_default() += 1;
                }
            }
        }
        table.handle_timeout(now);
        peer.synced_len = read.valid_len;
        peer.log = Some(log);
        peer.table = Some(table);
        peer.power = Power::Up;
        peer.restarts += 1;
        self.drain(i);
        // Catch up from everyone at once rather than at the next tick.
        self.request_sync(i, None);
        self.queue
            .push(now + self.cfg.sync_interval_ms, Event::SyncTick { peer: i });
    }

    /// A peer leaves for good (a cheater after its cheat, or a peer that
    /// stops where its role says).
    fn leave(&mut self, i: usize) {
        self.note_knowledge(i);
        let peer = &mut self.peers[i];
        peer.cheated = true;
        peer.power = Power::Gone;
        peer.bot_pending = None;
    }

    fn outcome(mut self, stuck: Option<String>) -> Outcome<G> {
        // A peer whose finished game took in more since writes its canonical
        // transcript again when it stops.
        for i in 0..self.peers.len() {
            let peer = &self.peers[i];
            if peer.log.is_some() && peer.table.as_ref().is_some_and(Table::is_finished) {
                self.write_canonical(i);
            }
        }
        self.stats.sim_ms = self.now;
        self.stats.inputs = self
            .peers
            .iter()
            .filter(|p| p.role.is_honest())
            .find_map(|p| p.table.as_ref().map(Table::position))
            .unwrap_or(0);
        let peers = self
            .peers
            .into_iter()
            .map(|p| PeerReport {
                seat: Seat(p.seat),
                finished: p.table.as_ref().is_some_and(Table::is_finished),
                violation: p.table.as_ref().and_then(|t| t.violation().cloned()),
                transcript: p.table.as_ref().map(Table::transcript).unwrap_or_default(),
                forfeit_records: p
                    .table
                    .as_ref()
                    .map(|t| {
                        t.records()
                            .iter()
                            .enumerate()
                            .flat_map(|(i, r)| match r {
                                Record::Forfeit { seat, .. } => vec![(i as u64, *seat)],
                                Record::Abandon { stopped, .. } => {
                                    stopped.iter().map(|s| (i as u64, *s)).collect()
                                }
                                _ => Vec::new(),
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
                role: p.role,
                result: p.result,
                finished_at: p.finished_at,
                violations_seen: p.violations_seen,
                forfeits: p.forfeits,
                arrival: p
                    .arrival
                    .or_else(|| {
                        {
                            p.log.as_ref()?;
                            roundtable_table::transcript::read(&p.path).ok()
                        }
                        .map(|r| r.frames)
                    })
                    .unwrap_or_default(),
                file: p.file,
                refusals: p.refusals,
                left: p.cheated,
                restarts: p.restarts,
                rewinds: p.rewinds,
                knowledge: p.knowledge_in_play,
                opened: p
                    .table
                    .as_ref()
                    .map(|t| {
                        (0..self.cfg.seats)
                            .map(|s| t.opened(Seat(s)).cloned().unwrap_or_default())
                            .collect()
                    })
                    .unwrap_or_default(),
                dealt: p
                    .table
                    .as_ref()
                    .map(|t| t.dealt().to_vec())
                    .unwrap_or_default(),
                every_key_released: p.table.as_ref().is_some_and(Table::every_key_released),
            })
            .collect();
        Outcome {
            config: self.cfg,
            genesis: self.players.genesis,
            peers,
            stats: self.stats,
            cheat_envelopes: self.cheat_envelopes,
            stuck,
        }
    }
}

/// A one-line description of an envelope of a game of `G` for traces.
fn describe<G: Game>(s: &Signed) -> String {
    let e = &s.envelope;
    let body = match &e.body {
        roundtable_table::Body::Action { action, reveal } => format!(
            "action {:?}{}",
            postcard::from_bytes::<G::Action>(action)
                .map(|a| a.to_string())
                .unwrap_or_default(),
            reveal
                .map(|r| format!(" +reveal {}", r.event))
                .unwrap_or_default()
        ),
        roundtable_table::Body::Reveal(r) => format!("reveal {}", r.event),
        roundtable_table::Body::StallClaim { accused, position } => {
            format!("claim seat {} at {position}", accused + 1)
        }
        other => other.kind().to_owned(),
    };
    format!("[seat {} #{} @{}: {body}]", e.seat + 1, e.seq, e.position)
}

fn log_key(signed: &Signed) -> (u8, u64, Hash32) {
    (signed.seat(), signed.seq(), signed.hash())
}

/// A fingerprint of an envelope for catch-up: its signature's first half.
/// Two different envelopes of one slot differ there, and it costs no
/// hashing.
fn fingerprint(signed: &Signed) -> Fingerprint {
    let mut f = [0; 32];
    f.copy_from_slice(&signed.signature.0[..32]);
    f
}

fn table_config<G: SimGame>(cfg: &SimConfig<G>) -> Config {
    Config {
        stall_timeout_ms: cfg.stall_timeout_ms,
        ..Config::default()
    }
}

/// A short name for a refusal, to count them by kind.
fn refusal_name(e: &TableError) -> String {
    match e {
        TableError::Failed(_) => "failed".into(),
        TableError::Refused { rule, .. } => format!("refused: {rule}"),
        TableError::Malformed(_) => "malformed".into(),
        other => other.to_string(),
    }
}

/// The legal actions `seat` has in `game` (for cheats that need one).
fn legal<G: Game>(game: &G, seat: Seat) -> Vec<G::Action> {
    game.legal_actions_vec(seat)
}
