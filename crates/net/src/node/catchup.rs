//! Catch-up (SPEC 4.4): asking the seats' peers for what we miss,
//! answering their requests, and when a finished peer may stop.

use super::*;

impl<G: crate::NetGame> Node<G> {
    /// Whether the node has done its work: a game seen by a spectator that
    /// finished (or failed, after a second), or a seat whose game finished
    /// or failed on a proof that has served catch-up long enough (SPEC
    /// 4.4, [`ending::may_stop_serving`]): a failed seat's proof reaches
    /// the others by that catch-up.
    pub(super) fn check_done(&mut self, now: Instant) {
        let Stage::Play(play) = &self.stage else {
            return;
        };
        let Some(at) = play.finished_at else {
            return;
        };
        if play.table.local_seat().is_none() {
            if !play.failed {
                self.stop = Some(self.close_finished_log());
            } else if now >= at + Duration::from_secs(1) {
                self.stop = Some(Ok(()));
            }
            return;
        }
        // The seat a proof blames needs no proof of its own doing: a failed
        // peer waits for the other seats' peers (and spectators) only.
        let blamed = play
            .table
            .violation()
            .and_then(|v| play.seat_peers.get(usize::from(v.seat())));
        let forfeited: Vec<bool> = (0..play.seat_peers.len())
            .map(|s| play.table.is_forfeited(Seat(s as u8)) || blamed == play.seat_peers.get(s))
            .collect();
        let mut heads = play.peer_heads.clone();
        if let Some(blamed) = blamed {
            heads.remove(blamed);
        }
        let behind = ending::still_behind(
            self.me,
            &play.seat_peers,
            &forfeited,
            &heads,
            &play.table.heads(),
        );
        let timing = &self.cfg.timing;
        if ending::may_stop_serving(
            now.saturating_duration_since(at),
            timing.linger_min,
            timing.linger,
            behind.is_empty() && play.outbox.is_empty(),
        ) {
            self.stop = Some(self.close_finished_log());
        }
    }

    /// A finished game's log, reopened for what the table took in after
    /// the end, is written canonical again when the node stops.
    fn close_finished_log(&mut self) -> Result<(), NetError> {
        let Stage::Play(play) = &mut self.stage else {
            return Ok(());
        };
        if play.table.is_finished()
            && let Some(log) = play.log.take()
        {
            log.finish(&play.table.transcript())?;
        }
        Ok(())
    }

    /// Give up when nobody the node needs was reachable and nothing moved
    /// for long ([`ending::Contact`]): a joiner or spectator that never
    /// reached the ticket's host, or a peer whose game is unfinished and
    /// whose peers are all gone. It says so in one line, makes the log
    /// durable, and stops with [`NetError::GaveUp`].
    pub(super) fn check_alone(&mut self, now: Instant) {
        let timing = &self.cfg.timing;
        let (reachable, position, patience) = match &self.stage {
            Stage::Join(_) if self.leaving.is_some() => return,
            Stage::Join(j) => (self.swarm.is_connected(&j.host), 0, timing.dial_give_up),
            Stage::Watch(w) => (self.swarm.is_connected(&w.host), 0, timing.dial_give_up),
            Stage::Play(play) if play.finished_at.is_none() => {
                let reachable = play
                    .seat_peers
                    .iter()
                    .any(|p| *p != self.me && self.swarm.is_connected(p));
                // A seat may still settle the game alone by stall claims:
                // give those their time first, up to the co-claims that
                // end a game whose other seats all stopped (SPEC 3.6).
                let stall = match play.table.local_seat() {
                    Some(_) => {
                        play.stall_timeout
                            * u32::try_from(roundtable_table::CO_CLAIM_TIMEOUTS).unwrap_or(3)
                    }
                    None => Duration::ZERO,
                };
                (reachable, play.table.position(), timing.give_up + stall)
            }
            _ => return,
        };
        self.contact.observe(now, reachable, position);
        if !self.contact.alone_for(now, patience) {
            return;
        }
        let line = match &self.stage {
            Stage::Play(play) => self.stranded_line(play, patience),
            _ if self.contact.ever_reached() => format!(
                "the host stopped answering before the game started (nothing heard for {} s)",
                patience.as_secs()
            ),
            Stage::Join(j) => unanswered(&j.ticket, patience),
            Stage::Watch(w) => unanswered(&w.ticket, patience),
            _ => format!(
                "nobody answers at this ticket's addresses; gave up after {} s",
                patience.as_secs()
            ),
        };
        self.emit(NetEvent::GaveUp(line.clone()));
        self.stop = Some(Err(NetError::GaveUp(line)));
    }

    /// The line of a peer left alone at an unfinished game. The log is on
    /// disk already (every envelope was appended as it came); it is synced
    /// here, and a spectator's copy is written, so the line can say where
    /// the game so far is.
    fn stranded_line(&self, play: &Play<G>, patience: Duration) -> String {
        let mut saved = format!("the game so far is in {}", play.transcript_path.display());
        let synced = std::fs::File::open(&play.transcript_path).and_then(|f| f.sync_all());
        if let Err(e) = synced {
            saved = format!("{saved} (syncing it failed: {e})");
        }
        if let Some(copy) = &self.cfg.transcript_copy {
            match write_durably(copy, &transcript::encode_file(&play.table.transcript())) {
                Ok(()) => saved = format!("{saved} and {}", copy.display()),
                Err(e) => saved = format!("{saved}; writing the copy failed: {e}"),
            }
        }
        let hint = match play.table.local_seat() {
            Some(_) => "; `roundtable resume` carries on if they come back",
            None => "",
        };
        format!(
            "every other peer of this table is gone (none reachable for {} s) and the game is \
             unfinished at move {}; {saved}{hint}",
            patience.as_secs(),
            play.table.position()
        )
    }

    /// Send the catch-up requests that are due (SPEC 4.4, "Who asks
    /// whom"); run on every tick, `periodic` once a sync interval. A peer
    /// without a seat asks every seat's peer each interval: no seat asks it
    /// back, so nobody else would tell it what it missed. A seat's peer asks
    /// by [`seat_ask_due`].
    pub(super) fn sync_due(&mut self, now: Instant, periodic: bool) {
        let interval = self.cfg.timing.sync_interval;
        let me = self.me;
        let peers: Vec<PeerId> = match &mut self.stage {
            Stage::Play(play) if play.table.local_seat().is_some() => {
                play.note_own_heads(now);
                let waiting = play.table.holds_waiting();
                play.seat_peers
                    .iter()
                    .filter(|p| **p != me)
                    .filter(|p| {
                        let behind = waiting
                            || play.peer_heads.get(*p).is_some_and(|theirs| {
                                theirs.iter().zip(&play.own_heads).any(|(t, m)| t > m)
                            });
                        seat_ask_due(
                            play.heads_changed_at,
                            play.compared_at.get(*p).copied(),
                            play.asked_at.get(*p).copied(),
                            behind,
                            now,
                            interval,
                        )
                    })
                    .copied()
                    .collect()
            }
            Stage::Play(play) if periodic && play.finished_at.is_none() => play.seat_peers.clone(),
            _ => return,
        };
        for p in peers {
            self.request_sync(p);
        }
    }

    /// Ask every seat's peer at once: on entering play (a resumed peer may
    /// lack much), and when our game finished (so that peers that finished
    /// too learn our final heads).
    pub(super) fn ask_every_seat(&mut self) {
        let peers = match &self.stage {
            Stage::Play(play) => play.seat_peers.clone(),
            _ => return,
        };
        for p in peers {
            self.request_sync(p);
        }
    }

    /// Ask `peer` for what we miss: only a seat's peer (SPEC 4.4; what
    /// anyone else sends is not a source), one request in flight per peer,
    /// and at most [`SYNC_ASK_RATE`] a second.
    pub(super) fn request_sync(&mut self, peer: PeerId) {
        if peer == self.me || !self.swarm.is_connected(&peer) {
            return;
        }
        match &self.stage {
            Stage::Play(play)
                if play.seat_peers.contains(&peer) && !play.sync_inflight.contains_key(&peer) => {}
            _ => return,
        }
        if !self.allow_sync_ask(peer) {
            return;
        }
        let Stage::Play(play) = &mut self.stage else {
            return;
        };
        play.asked_at.insert(peer, Instant::now());
        let request = SyncRequest {
            game: play.table.game_id(),
            heads: play.table.heads(),
        };
        play.sync_inflight.insert(peer, request.heads.clone());
        self.swarm
            .behaviour_mut()
            .sync
            .send_request(&peer, Ok(request));
    }

    /// Answer a catch-up request. Seats' peers are answered within the
    /// request budget every peer has; a peer without a seat (a spectator,
    /// or anyone) also within [`WATCHER_SYNC_RATE`], since each answer may
    /// be a MiB. The envelopes sent fit the asker's byte budget
    /// ([`Node::sync_bytes_allowed`]); a response the budget cut short says
    /// no `more`, so an honest asker waits for its next interval.
    pub(super) fn answer_sync(&mut self, peer: PeerId, request: SyncRequest) -> SyncResponse {
        let seated = match &self.stage {
            Stage::Play(play) => play.seat_peers.contains(&peer),
            _ => return SyncResponse::default(),
        };
        if !seated && !self.allow_watcher_sync(peer) {
            self.strike(peer, "asks for catch-up too often without a seat");
            return SyncResponse::default();
        }
        let whole = MAX_SYNC_RESPONSE_BYTES - 4096;
        let allowed = self.sync_bytes_allowed(peer, seated);
        let max_bytes = whole.min(allowed);
        let Stage::Play(play) = &mut self.stage else {
            return SyncResponse::default();
        };
        if request.game != play.table.game_id() {
            return SyncResponse::default();
        }
        let mine = play.table.heads();
        if request.heads.len() != mine.len() {
            return SyncResponse::default();
        }
        let they_have_more = request.heads.iter().zip(&mine).any(|(t, m)| t > m);
        let they_miss_some = request.heads.iter().zip(&mine).any(|(t, m)| t < m);
        // A table that failed on a proof sends it with every answer, whatever
        // the heads say and whatever the asker's budget: the second envelope
        // of an equivocation is in no seat's log, and a peer that holds the
        // proof's envelope unjudged learns nothing from heads (SPEC 4.4, "A
        // proven violation"). It is at most two envelopes, and it is counted
        // against the budget like any other.
        let proof: Vec<Vec<u8>> = play
            .table
            .violation()
            .map(|v| v.envelopes().into_iter().map(Signed::encode).collect())
            .unwrap_or_default();
        let proof_bytes: usize = proof.iter().map(|b| b.len() + 4).sum();
        let count_cap = MAX_SYNC_ENVELOPES.saturating_sub(proof.len());
        let (mut envelopes, next) = if they_miss_some && max_bytes > proof_bytes {
            // The responder's applied order first (a requester with the
            // same history can apply each envelope as it comes), then what
            // it holds but has not applied, seat by seat.
            let applied = play.table.transcript().into_iter().filter_map(|f| match f {
                Frame::Envelope(e) => Some(e),
                _ => None,
            });
            let logs = (0..mine.len() as u8)
                .flat_map(|s| play.table.envelopes_since(s, 0, usize::MAX))
                .collect::<Vec<_>>();
            catch_up_batch(
                applied.chain(logs),
                &request.heads,
                count_cap,
                max_bytes - proof_bytes,
            )
        } else {
            // Most requests: nothing to send, so no transcript to build.
            // Or nothing left of the budget: the heads alone.
            (Vec::new(), request.heads.clone())
        };
        // Left out by the budget (fewer envelopes than the count cap, and
        // bytes short of the response cap): no `more`, so the asker waits.
        let left_out = next.iter().zip(&mine).any(|(n, m)| n < m);
        let more = left_out && (envelopes.len() == count_cap || max_bytes == whole);
        for bytes in proof {
            if !envelopes.contains(&bytes) {
                envelopes.push(bytes);
            }
        }
        if seated {
            // Our answer carries our heads as they are now, its request
            // carried its own: compared, both ways.
            let now = Instant::now();
            play.note_own_heads(now);
            play.compared_at.insert(peer, now);
        }
        note_heads(&mut play.peer_heads, &play.seat_peers, peer, request.heads);
        let sent = envelopes.iter().map(|e| e.len() + 4).sum();
        let response = SyncResponse {
            heads: mine,
            envelopes,
            more,
        };
        self.spend_sync_bytes(peer, seated, sent);
        if they_have_more {
            self.request_sync(peer);
        }
        response
    }

    /// Take in a seat's catch-up response. Envelopes anyone could have
    /// forged count against the responder, one strike each; `more` with no
    /// envelope is a lie and counts too. We ask again at once only when the
    /// response moved us on: a responder that says `more` while sending
    /// what we have is asked again only when [`seat_ask_due`] says so.
    pub(super) fn on_sync_response(&mut self, peer: PeerId, response: SyncResponse) {
        let now = self.now_ms();
        let Stage::Play(play) = &mut self.stage else {
            return;
        };
        let told = play.sync_inflight.remove(&peer);
        if !play.seat_peers.contains(&peer) {
            // Never asked (we ask seats only): not a source of envelopes.
            return;
        }
        if response.heads.len() == play.seat_peers.len() {
            note_heads(
                &mut play.peer_heads,
                &play.seat_peers,
                peer,
                response.heads.clone(),
            );
        }
        let asked = Instant::now();
        play.note_own_heads(asked);
        let before = play.table.heads();
        let mut bad = 0;
        for bytes in &response.envelopes {
            if let Err(e) = play.table.handle_bytes(now, bytes)
                && blameless(&e)
            {
                bad += 1;
            }
        }
        let now_heads = play.table.heads();
        let moved = now_heads != before;
        if moved {
            // The peer knows our heads from before its answer only: they
            // are compared again once they stand still.
            play.note_own_heads(Instant::now());
        }
        if answer_compares(told.as_deref(), &now_heads) {
            play.compared_at.insert(peer, asked);
        }
        for _ in 0..bad {
            self.strike(peer, "sent an invalid envelope in catch-up");
        }
        if response.more && response.envelopes.is_empty() {
            self.strike(peer, "claims more catch-up but sends none");
        } else if response.more && moved {
            self.request_sync(peer);
        }
    }
}

/// Whether an answer to our catch-up request that carried `told` (our
/// heads when we asked) leaves its responder knowing our heads, now
/// `ours` (SPEC 4.4, "Who asks whom"). Not when the answer moved them, nor
/// when gossip moved them while the request was in flight: the responder
/// keeps the heads the request carried, which are behind ours. A peer
/// whose last envelopes came by gossip during its request, at the end of a
/// game, otherwise never told the others its final heads, and they
/// waited for them the whole 30 s of "After the end".
pub(super) fn answer_compares(told: Option<&[u64]>, ours: &[u64]) -> bool {
    told == Some(ours)
}

/// Keep the heads `peer` reported. A seat's peer's are always kept (a
/// finished seat waits for them); another peer's (a spectator's) only while
/// fewer than [`MAX_WATCHER_HEADS`] such peers are kept: past that, a
/// finished seat does not wait for it. They go when the peer disconnects.
pub(super) fn note_heads(
    heads: &mut HashMap<PeerId, Vec<u64>>,
    seat_peers: &[PeerId],
    peer: PeerId,
    reported: Vec<u64>,
) {
    if !seat_peers.contains(&peer) && !heads.contains_key(&peer) {
        let watchers = heads.keys().filter(|p| !seat_peers.contains(p)).count();
        if watchers >= MAX_WATCHER_HEADS {
            return;
        }
    }
    heads.insert(peer, reported);
}

/// What a requester at heads `theirs` misses, taken from `order` (each
/// envelope at most once, a seat's envelopes in sequence without a gap from
/// its head on), at most `max_envelopes` of at most `max_bytes` in all.
/// Returns their encodings and, per seat, the head the requester will have
/// after them (below the responder's where some were left out). SPEC 4.4:
/// the order is the responder's applied order, so a whole response is
/// applicable as it stands; envelopes in seat order starting with seat 0
/// could fill every response with one seat's envelopes that the requester
/// cannot apply without another's, and it would ask for the same ones for
/// ever.
pub(super) fn catch_up_batch(
    order: impl IntoIterator<Item = Signed>,
    theirs: &[u64],
    max_envelopes: usize,
    max_bytes: usize,
) -> (Vec<Vec<u8>>, Vec<u64>) {
    let mut next = theirs.to_vec();
    let mut out = Vec::new();
    let mut bytes = 0usize;
    for e in order {
        let Some(head) = next.get_mut(usize::from(e.seat())) else {
            continue;
        };
        if e.seq() != *head {
            continue;
        }
        let b = e.encode();
        // Each envelope costs its length prefix too.
        if out.len() == max_envelopes || bytes + b.len() + 4 > max_bytes {
            break;
        }
        bytes += b.len() + 4;
        *head += 1;
        out.push(b);
    }
    (out, next)
}

/// The line of a joiner or spectator that never reached a ticket's host.
fn unanswered(ticket: &Ticket, patience: Duration) -> String {
    format!(
        "nobody answers at this ticket's addresses ({}); gave up after {} s",
        ticket.unanswered_reason(),
        patience.as_secs()
    )
}

/// Whether a seat's peer's catch-up request to another seat's peer is due
/// (SPEC 4.4, "Who asks whom"). Only once its own heads have stood still
/// for an `interval` since `changed_at`: while they move, gossip delivers,
/// and a peer that misses an envelope can take in nothing after it, so its
/// heads stop. Then it asks once if it has not compared heads with that
/// peer since they changed (`compared_at`), and once an interval (since
/// `asked_at`) while it knows it lacks something (`behind`: the peer
/// reported heads beyond its own, or its table holds envelopes that wait
/// for a missing one).
pub(super) fn seat_ask_due(
    changed_at: Instant,
    compared_at: Option<Instant>,
    asked_at: Option<Instant>,
    behind: bool,
    now: Instant,
    interval: Duration,
) -> bool {
    let still = now.saturating_duration_since(changed_at) >= interval;
    let compared = compared_at.is_some_and(|at| at >= changed_at);
    let asked_lately = asked_at.is_some_and(|at| now.saturating_duration_since(at) < interval);
    still && (!compared || (behind && !asked_lately))
}

impl<G: Game> Play<G> {
    /// Note when our heads last changed.
    fn note_own_heads(&mut self, now: Instant) {
        let heads = self.table.heads();
        if heads != self.own_heads {
            self.own_heads = heads;
            self.heads_changed_at = now;
        }
    }
}

#[cfg(test)]
mod tests {
    use roundtable_table::{Body, Envelope, GameId};

    use super::*;

    fn envelope(seat: u8, seq: u64) -> Signed {
        Envelope {
            game_id: GameId([1; 32]),
            seat,
            seq,
            prev: Hash32::default(),
            position: seq,
            state_hash: Hash32::default(),
            body: Body::Resign,
        }
        .sign(&Identity::from_secret([seat + 1; 32]))
    }

    fn seat_seq(bytes: &[u8]) -> (u8, u64) {
        let e = Signed::decode(bytes).unwrap();
        (e.seat(), e.seq())
    }

    #[test]
    fn a_seat_asks_only_once_its_heads_stand_still() {
        let t0 = Instant::now();
        let second = Duration::from_secs(1);
        let at = |ms| t0 + Duration::from_millis(ms);
        // Heads that moved less than an interval ago: gossip is at work,
        // whatever else holds.
        assert!(!seat_ask_due(t0, None, None, true, at(999), second));
        // Still for an interval, never compared with this peer: ask.
        assert!(seat_ask_due(t0, None, None, false, at(1000), second));
        // Compared before the heads last changed: ask again.
        assert!(seat_ask_due(
            at(500),
            Some(t0),
            None,
            false,
            at(1500),
            second
        ));
    }

    #[test]
    fn a_caught_up_seat_whose_heads_stand_still_asks_no_more() {
        let t0 = Instant::now();
        let second = Duration::from_secs(1);
        let at = |ms| t0 + Duration::from_millis(ms);
        // Compared since the heads last changed, nothing known missing: no
        // request however long the table stays idle.
        for later in [1_000, 5_000, 3_600_000] {
            assert!(!seat_ask_due(
                t0,
                Some(at(1_000)),
                Some(at(1_000)),
                false,
                at(later),
                second
            ));
        }
        // A comparison stamped at the very instant of the change counts.
        assert!(!seat_ask_due(t0, Some(t0), None, false, at(2_000), second));
    }

    #[test]
    fn a_seat_that_knows_it_lacks_something_asks_once_an_interval() {
        let t0 = Instant::now();
        let second = Duration::from_secs(1);
        let at = |ms| t0 + Duration::from_millis(ms);
        let compared = Some(at(1_000));
        assert!(seat_ask_due(
            t0,
            compared,
            Some(at(1_000)),
            true,
            at(2_000),
            second
        ));
        assert!(!seat_ask_due(
            t0,
            compared,
            Some(at(1_500)),
            true,
            at(2_000),
            second
        ));
        assert!(seat_ask_due(t0, compared, None, true, at(2_000), second));
    }

    #[test]
    fn an_answer_to_a_request_with_older_heads_is_no_comparison() {
        assert!(answer_compares(Some(&[3, 4]), &[3, 4]));
        // Gossip brought an envelope while the request was in flight (or
        // the answer did): the responder holds our older heads.
        assert!(!answer_compares(Some(&[3, 4]), &[3, 5]));
        // No request of ours in flight (an unasked answer): nothing known.
        assert!(!answer_compares(None, &[3, 4]));
    }

    #[test]
    fn heads_of_peers_without_a_seat_are_bounded_and_a_seats_are_always_kept() {
        let seats = [PeerId::random(), PeerId::random()];
        let mut heads = HashMap::new();
        for _ in 0..MAX_WATCHER_HEADS * 4 {
            note_heads(&mut heads, &seats, PeerId::random(), vec![1, 1]);
        }
        note_heads(&mut heads, &seats, seats[1], vec![2, 2]);
        assert_eq!(heads.len(), MAX_WATCHER_HEADS + 1);
        assert_eq!(heads.get(&seats[1]), Some(&vec![2, 2]));
        // A watcher already kept still gets its heads updated.
        let kept = *heads.keys().find(|p| !seats.contains(p)).unwrap();
        note_heads(&mut heads, &seats, kept, vec![3, 3]);
        assert_eq!(heads.get(&kept), Some(&vec![3, 3]));
    }

    #[test]
    fn a_batch_follows_the_applied_order_across_seats() {
        // Two seats taking turns for 300 inputs each: a batch of 256 must
        // hold both seats' envelopes, as they were applied, not 256 of the
        // first seat (which could not be applied without the second's).
        let order: Vec<Signed> = (0..300)
            .flat_map(|i| [envelope(0, i), envelope(1, i)])
            .collect();
        let (batch, next) = catch_up_batch(order, &[10, 10], 256, usize::MAX);
        assert_eq!(batch.len(), 256);
        assert_eq!(next, vec![138, 138]);
        let got: Vec<(u8, u64)> = batch.iter().map(|b| seat_seq(b)).collect();
        assert_eq!(got[..4], [(0, 10), (1, 10), (0, 11), (1, 11)]);
    }

    #[test]
    fn a_batch_has_no_gaps_or_repeats_and_stops_at_the_byte_cap() {
        let order = vec![
            envelope(0, 1),
            envelope(0, 0),
            envelope(0, 0),
            envelope(0, 2),
            envelope(1, 0),
            envelope(0, 1),
        ];
        let (batch, next) = catch_up_batch(order.clone(), &[0, 0], 256, usize::MAX);
        let got: Vec<(u8, u64)> = batch.iter().map(|b| seat_seq(b)).collect();
        assert_eq!(got, vec![(0, 0), (1, 0), (0, 1)]);
        assert_eq!(next, vec![2, 1]);
        let one = order[0].encode().len() + 4;
        let (batch, next) = catch_up_batch(order, &[0, 0], 256, one);
        assert_eq!(batch.len(), 1);
        assert_eq!(next, vec![1, 0]);
    }
}
