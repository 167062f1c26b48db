//! The simulated network: a seeded random source, the event queue ordered by
//! simulated time, and the messages peers exchange.

use std::collections::BTreeMap;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// The simulator's only source of randomness: one seeded stream, so a seed
/// names a whole run.
#[derive(Debug)]
pub(crate) struct Rng(ChaCha8Rng);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(ChaCha8Rng::seed_from_u64(seed))
    }

    pub(crate) fn u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A value in `[0, n)` (`0` when `n` is 0). The modulo bias is irrelevant
    /// for choosing faults.
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.u64() % n }
    }

    /// A value in `[lo, hi]`.
    pub(crate) fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi.saturating_sub(lo) + 1)
    }

    /// True with probability `p`.
    pub(crate) fn chance(&mut self, p: f64) -> bool {
        p > 0.0 && ((self.u64() >> 11) as f64 / (1u64 << 53) as f64) < p
    }

    /// A uniform value in `[lo, hi)`.
    pub(crate) fn float(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.u64() >> 11) as f64 / (1u64 << 53) as f64)
    }
}

/// Identifies an envelope cheaply in catch-up requests (see
/// `sim::fingerprint`).
pub(crate) type Fingerprint = [u8; 32];

/// What travels between peers.
#[derive(Clone, Debug)]
pub(crate) enum Msg {
    /// A gossiped envelope, as encoded bytes (receivers decode untrusted
    /// bytes, as the real network layer does).
    Envelope(Vec<u8>),
    /// Catch-up request: per seat, the next sequence number the sender
    /// expects and the hash of the last envelope it has (so that a peer that
    /// holds a different envelope in that slot sends it: that is how an
    /// equivocation sent to different peers is found).
    SyncRequest {
        heads: Vec<u64>,
        tips: Vec<Option<Fingerprint>>,
    },
    /// Catch-up answer: envelopes the requester lacks, encoded.
    SyncResponse(Vec<Vec<u8>>),
}

impl Msg {
    /// Bytes on the wire (payload only; framing is the transport's).
    pub(crate) fn wire_bytes(&self) -> usize {
        match self {
            Msg::Envelope(b) => b.len(),
            Msg::SyncRequest { heads, tips } => heads.len() * 8 + tips.len() * 33,
            Msg::SyncResponse(envs) => envs.iter().map(Vec::len).sum(),
        }
    }
}

/// Something that happens at a simulated time.
#[derive(Clone, Debug)]
pub(crate) enum Event {
    /// A message arrives.
    Deliver { from: usize, to: usize, msg: Msg },
    /// A peer's bot has finished thinking about the decision at `position`.
    Bot { peer: usize, position: u64 },
    /// A peer asks every other peer for what it lacks.
    SyncTick { peer: usize },
    /// A peer crashes (power loss: unsynced log bytes may be torn off); it
    /// restarts after `down_ms`, or never.
    Crash { peer: usize, down_ms: Option<u64> },
    /// A crashed peer restarts from its transcript log.
    Restart { peer: usize },
    /// The network splits: peers talk only within their group.
    Partition { groups: Vec<u8> },
    /// The network heals.
    Heal,
    /// An outside attacker acts (see [`crate::sim::Cheat`]).
    Attack,
}

/// Events ordered by time, then by when they were scheduled, so that the
/// run is deterministic.
#[derive(Debug, Default)]
pub(crate) struct Queue {
    events: BTreeMap<(u64, u64), Event>,
    counter: u64,
}

impl Queue {
    pub(crate) fn push(&mut self, at: u64, event: Event) {
        self.counter += 1;
        self.events.insert((at, self.counter), event);
    }

    pub(crate) fn next_time(&self) -> Option<u64> {
        self.events.first_key_value().map(|(&(t, _), _)| t)
    }

    pub(crate) fn pop(&mut self) -> Option<(u64, Event)> {
        self.events.pop_first().map(|((t, _), e)| (t, e))
    }
}
