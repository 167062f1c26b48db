//! Bounds on what each remote peer can make us do (SPEC 4.3, 4.4, 4.8):
//! token buckets per peer for gossip, requests and catch-up, the budgets
//! of announcing hosts, and the strikes that ban a peer.

use super::*;

/// Strikes (refused messages) after which a peer is banned.
pub const BAN_STRIKES: u32 = 20;
/// Peers tracked for rate limits at most. Past this, the guard of the
/// peer with the fewest strikes that was heard from longest ago makes room:
/// a flood of fresh identities never wipes the strikes of the others.
pub(crate) const MAX_GUARDS: usize = 1024;
/// Gossip messages per second one hop may make us validate (burst twice);
/// the rest are dropped unchecked, and not struck: the hop may be a seat
/// relaying what others authored. Hand-written because gossipsub has no
/// rate limit per peer, only scores for invalid messages.
const GOSSIP_RATE: f64 = 400.0;
/// Requests per second one peer may make (burst twice).
const REQUEST_RATE: f64 = 50.0;
/// Catch-up requests per second we send one peer at most (burst twice):
/// a responder that answers `more` for ever cannot make us ask hundreds of
/// times a second. An honest catch-up of a whole game takes a handful of
/// responses of 256 envelopes, well inside the burst.
const SYNC_ASK_RATE: f64 = 10.0;
/// Catch-up requests per second answered for a peer that holds no seat (a
/// spectator, or a stranger), burst twice: each answer may be 1 MiB, and a
/// spectator asks once a sync interval plus a few follow-ups.
const WATCHER_SYNC_RATE: f64 = 5.0;

/// Catch-up bytes answered to one seat's peer at most (SPEC 4.4): a burst
/// of 8 MiB, far above a whole game, so a seat that restarts has its game
/// back at once, then 1 MiB a second, so a seat that asks for the whole
/// game over and over (50 requests a second could each take 1 MiB) makes
/// us send no more than that.
const SEAT_SYNC_BYTES_BURST: f64 = 8.0 * 1024.0 * 1024.0;
/// See [`SEAT_SYNC_BYTES_BURST`].
const SEAT_SYNC_BYTES_RATE: f64 = 1024.0 * 1024.0;
/// Catch-up bytes answered to one peer without a seat at most: a burst of
/// 512 KiB (a spectator's first catch-up of most games, several hundred
/// inputs), then 64 KiB a second, far above what a live game adds (a few
/// envelopes a second, a 24 KiB shuffle now and then), so a spectator that
/// came late has the rest of a long game within seconds while a stranger
/// asking for the whole game over and over gets no more. Without it one
/// such stranger took 27.9 MB in 1.3 s, 1,700 bytes for each byte it sent.
const WATCHER_SYNC_BYTES_BURST: f64 = 512.0 * 1024.0;
/// See [`WATCHER_SYNC_BYTES_BURST`].
const WATCHER_SYNC_BYTES_RATE: f64 = 64.0 * 1024.0;
/// Catch-up bytes answered to all peers without a seat together at most:
/// 2 MiB of burst (four spectators arriving at once each get theirs), then
/// 256 KiB a second. Identities cost nothing, so without a shared budget
/// many of them would each take [`WATCHER_SYNC_BYTES_BURST`]. The seats'
/// peers are outside it: no number of strangers can slow a seat's catch-up.
pub(super) const WATCHERS_SYNC_BYTES_BURST: f64 = 2.0 * 1024.0 * 1024.0;
/// See [`WATCHERS_SYNC_BYTES_BURST`].
pub(super) const WATCHERS_SYNC_BYTES_RATE: f64 = 256.0 * 1024.0;

/// A token bucket.
#[derive(Debug)]
pub(crate) struct Bucket {
    tokens: f64,
    last: Instant,
    rate: f64,
    burst: f64,
}

impl Bucket {
    /// A bucket of `rate` tokens a second, bursts of twice that.
    pub(super) fn new(rate: f64, now: Instant) -> Bucket {
        Bucket::with_burst(rate, rate * 2.0, now)
    }

    /// A bucket of `rate` tokens a second, full at `burst`.
    pub(super) fn with_burst(rate: f64, burst: f64, now: Instant) -> Bucket {
        Bucket {
            tokens: burst,
            last: now,
            rate,
            burst,
        }
    }

    /// Whether the bucket has refilled to its burst (nothing taken lately).
    pub(super) fn is_full(&self, now: Instant) -> bool {
        let dt = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens + dt * self.rate >= self.burst
    }

    /// The tokens there are now.
    pub(super) fn available(&mut self, now: Instant) -> f64 {
        let dt = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * self.rate).min(self.burst);
        self.tokens
    }

    /// Take `amount` tokens, which [`Bucket::available`] said are there.
    pub(super) fn spend(&mut self, amount: f64) {
        self.tokens = (self.tokens - amount).max(0.0);
    }

    /// Take one token if there is one.
    pub(crate) fn take(&mut self, now: Instant) -> bool {
        if self.available(now) >= 1.0 {
            self.spend(1.0);
            true
        } else {
            false
        }
    }
}

/// Announcements per second one host key may have us forward (burst
/// twice); a host announces once a second.
const ANNOUNCE_RATE: f64 = 2.0;
/// Hosts whose announcement budgets we track at most.
const MAX_ANNOUNCERS: usize = 256;

/// Forwarding budgets per announcing host key: the author of an
/// announcement, not the hop that relayed it. Hand-written because
/// gossipsub has no per-author limit: our messages are anonymous to it (the
/// author is inside the payload), and its scoring counts invalid messages,
/// not valid ones sent too often.
#[derive(Debug, Default)]
pub(super) struct Announcers {
    buckets: HashMap<roundtable_table::PublicKey, Bucket>,
}

impl Announcers {
    /// Take one announcement of `host` from its budget. With the table of
    /// budgets full, idle budgets are dropped first; a new host that still
    /// finds no room is not forwarded (nothing is struck either way).
    pub(super) fn allow(&mut self, host: roundtable_table::PublicKey, now: Instant) -> bool {
        if self.buckets.len() >= MAX_ANNOUNCERS && !self.buckets.contains_key(&host) {
            self.buckets.retain(|_, b| !b.is_full(now));
            if self.buckets.len() >= MAX_ANNOUNCERS {
                return false;
            }
        }
        self.buckets
            .entry(host)
            .or_insert_with(|| Bucket::new(ANNOUNCE_RATE, now))
            .take(now)
    }
}

/// What we keep about a remote peer to bound what it can make us do.
#[derive(Debug)]
pub(crate) struct Guard {
    gossip: Bucket,
    /// Requests it sends us (every request-response protocol together).
    pub(crate) requests: Bucket,
    /// Catch-up requests we send it.
    sync_asks: Bucket,
    /// Catch-up requests of a peer without a seat that we answer.
    watcher_syncs: Bucket,
    /// Catch-up bytes we answer it: made at its first catch-up request,
    /// with a seat's or a stranger's budget (a game's seats never change).
    sync_bytes: Option<Bucket>,
    /// Messages of it we refused; at [`BAN_STRIKES`] it is banned.
    pub(crate) strikes: u32,
    /// When it last made us consult this guard.
    last_seen: Instant,
}

impl Guard {
    fn new(now: Instant) -> Guard {
        Guard {
            gossip: Bucket::new(GOSSIP_RATE, now),
            requests: Bucket::new(REQUEST_RATE, now),
            sync_asks: Bucket::new(SYNC_ASK_RATE, now),
            watcher_syncs: Bucket::new(WATCHER_SYNC_RATE, now),
            sync_bytes: None,
            strikes: 0,
            last_seen: now,
        }
    }
}

/// The guards of at most [`MAX_GUARDS`] peers.
#[derive(Debug, Default)]
pub(crate) struct Guards {
    by_peer: HashMap<PeerId, Guard>,
}

impl Guards {
    /// The guard of `peer`, made when it has none. When the table is full,
    /// one other guard goes first: the one with the fewest strikes, and of
    /// those the one heard from longest ago. A clean guard costs nothing to
    /// drop (a returning peer starts clean anyway), struck ones are kept as
    /// long as any clean one is left, and banned peers stay banned in the
    /// swarm's block list whatever happens here.
    pub(crate) fn get(&mut self, peer: PeerId, now: Instant) -> &mut Guard {
        if self.by_peer.len() >= MAX_GUARDS && !self.by_peer.contains_key(&peer) {
            let evict = self
                .by_peer
                .iter()
                .min_by_key(|(_, g)| (g.strikes, g.last_seen))
                .map(|(p, _)| *p);
            if let Some(evict) = evict {
                self.by_peer.remove(&evict);
            }
        }
        let guard = self.by_peer.entry(peer).or_insert_with(|| Guard::new(now));
        guard.last_seen = now;
        guard
    }
}

impl<G: crate::NetGame> Node<G> {
    pub(super) fn guard(&mut self, peer: PeerId) -> &mut Guard {
        self.guards.get(peer, Instant::now())
    }

    pub(super) fn allow_gossip(&mut self, peer: PeerId) -> bool {
        let now = Instant::now();
        self.guard(peer).gossip.take(now)
    }

    pub(super) fn allow_request(&mut self, peer: PeerId) -> bool {
        let now = Instant::now();
        self.guard(peer).requests.take(now)
    }

    /// Whether we may send `peer` another catch-up request now.
    pub(super) fn allow_sync_ask(&mut self, peer: PeerId) -> bool {
        let now = Instant::now();
        self.guard(peer).sync_asks.take(now)
    }

    /// Whether we answer another catch-up request of `peer`, which holds no
    /// seat, now.
    pub(super) fn allow_watcher_sync(&mut self, peer: PeerId) -> bool {
        let now = Instant::now();
        self.guard(peer).watcher_syncs.take(now)
    }

    /// The catch-up bytes we may answer `peer` now (SPEC 4.4): its own
    /// budget, and for a peer without a seat also what is left of the
    /// budget all of them share.
    pub(super) fn sync_bytes_allowed(&mut self, peer: PeerId, seated: bool) -> usize {
        let now = Instant::now();
        let (rate, burst) = if seated {
            (SEAT_SYNC_BYTES_RATE, SEAT_SYNC_BYTES_BURST)
        } else {
            (WATCHER_SYNC_BYTES_RATE, WATCHER_SYNC_BYTES_BURST)
        };
        let own = self
            .guard(peer)
            .sync_bytes
            .get_or_insert_with(|| Bucket::with_burst(rate, burst, now))
            .available(now);
        let allowed = if seated {
            own
        } else {
            own.min(self.watchers_sync_bytes.available(now))
        };
        // Whole bytes; the float is at most a few MiB.
        allowed as usize
    }

    /// Take `bytes` answered to `peer` from the budgets
    /// [`Node::sync_bytes_allowed`] consulted.
    pub(super) fn spend_sync_bytes(&mut self, peer: PeerId, seated: bool, bytes: usize) {
        let bytes = bytes as f64;
        if let Some(bucket) = &mut self.guard(peer).sync_bytes {
            bucket.spend(bytes);
        }
        if !seated {
            self.watchers_sync_bytes.spend(bytes);
        }
    }

    /// Count a refused message against `peer`; ban it after [`BAN_STRIKES`].
    pub(super) fn strike(&mut self, peer: PeerId, why: &str) {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_announcing_host_has_its_own_budget() {
        let now = Instant::now();
        let mut announcers = Announcers::default();
        let alice = roundtable_table::PublicKey([1; 32]);
        let bob = roundtable_table::PublicKey([2; 32]);
        let burst = (ANNOUNCE_RATE * 2.0) as usize;
        for _ in 0..burst {
            assert!(announcers.allow(alice, now));
        }
        assert!(!announcers.allow(alice, now), "alice is over her burst");
        assert!(announcers.allow(bob, now), "bob's budget is his own");
        assert!(announcers.allow(alice, now + Duration::from_secs(1)));
    }

    #[test]
    fn a_byte_budget_starts_full_and_refills_at_its_rate_up_to_its_burst() {
        let start = Instant::now();
        let mut budget = Bucket::with_burst(1000.0, 5000.0, start);
        assert_eq!(budget.available(start), 5000.0);
        budget.spend(4500.0);
        assert_eq!(budget.available(start), 500.0);
        let later = start + Duration::from_secs(2);
        assert_eq!(budget.available(later), 2500.0);
        assert_eq!(budget.available(later + Duration::from_secs(60)), 5000.0);
        budget.spend(9000.0);
        assert_eq!(budget.available(later + Duration::from_secs(60)), 0.0);
    }

    #[test]
    fn a_flood_of_fresh_identities_keeps_the_strikes_of_the_others() {
        // Past MAX_GUARDS identities the old code cleared every guard: a
        // flooder could wipe its own and everyone's strikes by making up
        // peer ids.
        let mut guards = Guards::default();
        let start = Instant::now();
        let struck = PeerId::random();
        guards.get(struck, start).strikes = BAN_STRIKES - 1;
        let recent = PeerId::random();
        for i in 0..MAX_GUARDS * 3 {
            let at = start + Duration::from_millis(i as u64 + 1);
            guards.get(PeerId::random(), at);
            // A clean peer that keeps being heard from is not the one to go.
            guards.get(recent, at);
        }
        assert_eq!(guards.by_peer.len(), MAX_GUARDS);
        assert_eq!(
            guards.by_peer.get(&struck).map(|g| g.strikes),
            Some(BAN_STRIKES - 1)
        );
        assert!(guards.by_peer.contains_key(&recent));
    }
}
