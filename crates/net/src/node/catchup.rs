//! Catch-up (SPEC 4.4): asking the seats' peers for what we miss,
//! answering their requests, and when a finished peer may stop.

use super::*;

impl<G: crate::NetGame> Node<G> {
    /// Whether the node has done its work: a finished (or failed) game whose
    /// peers have caught up, or the linger time is over.
    pub(super) fn check_done(&mut self, now: Instant) {
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

    pub(super) fn sync_all(&mut self) {
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

    pub(super) fn request_sync(&mut self, peer: PeerId) {
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

    pub(super) fn answer_sync(&mut self, peer: PeerId, request: SyncRequest) -> SyncResponse {
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

    pub(super) fn on_sync_response(&mut self, peer: PeerId, response: SyncResponse) {
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
}
