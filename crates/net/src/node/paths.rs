//! Which paths a peer's connections take (direct, or through a relay), the
//! switch from a relayed connection to a punched one, and what a closing
//! connection may have taken along with it.

use super::*;

/// How often at most the node announces its table subscription again: a
/// peer that opens and closes connections to us cannot make us send to
/// everyone more often than this.
pub(super) const RESUBSCRIBE_GAP: Duration = Duration::from_secs(1);

/// How one connection to a peer goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Path {
    Direct,
    Relayed { dialled_by_me: bool },
}

/// Whether the open connections `open` to one peer are all relayed, and
/// there is one: a peer reached directly, or not at all, is not "relayed".
pub(super) fn only_relayed(open: Option<&HashMap<ConnectionId, Path>>) -> bool {
    open.is_some_and(|open| {
        !open.is_empty()
            && open
                .values()
                .all(|path| matches!(path, Path::Relayed { .. }))
    })
}

/// When to announce our table subscription again, now that one of a peer's
/// several connections closed at `now` (SPEC 4.2, "No move is lost"): at
/// once, unless one is already due, or one went out less than
/// [`RESUBSCRIBE_GAP`] ago (then that long after it).
pub(super) fn resubscribe_at(now: Instant, due: Option<Instant>, last: Option<Instant>) -> Instant {
    let earliest = last.map_or(now, |last| now.max(last + RESUBSCRIBE_GAP));
    due.unwrap_or(earliest)
}

impl<G: crate::NetGame> Node<G> {
    /// Whether `peer` is reached only through relays: what the lobby and
    /// the table show beside its seat.
    pub(super) fn only_relayed(&self, peer: &PeerId) -> bool {
        only_relayed(self.paths.get(peer))
    }

    /// Record a new connection to `peer`, and keep the table's traffic off
    /// relays where a direct path exists: gossipsub and catch-up send over
    /// whichever of a peer's connections is ready, so a relayed connection
    /// left open beside a punched one kept carrying most of the game. Once
    /// a direct connection is up, every relayed one to that peer closes
    /// (both ends do this; the peer stays connected throughout, so nothing
    /// takes it for a leaving one).
    ///
    /// Two seats that dial each other through a relay at once end up with
    /// two relayed connections, and hole punching runs on each: both
    /// attempts dial the same address from the same port, and neither got
    /// through. Both ends keep the one the smaller peer id dialled, the same
    /// one on either side, and close the other.
    pub(super) fn prefer_direct(&mut self, peer: PeerId, connection: ConnectionId, path: Path) {
        let me = self.me;
        let open = self.paths.entry(peer).or_default();
        open.insert(connection, path);
        let direct = open.values().any(|p| *p == Path::Direct);
        let kept = |p: &Path| match p {
            Path::Direct => true,
            Path::Relayed { .. } if direct => false,
            Path::Relayed { dialled_by_me } => *dialled_by_me == (me < peer),
        };
        let redundant: Vec<ConnectionId> = open
            .iter()
            .filter(|(_, p)| !kept(p))
            .map(|(id, _)| *id)
            .collect();
        // Only one relayed connection: nothing to choose between.
        if redundant.is_empty() || (!direct && open.len() == redundant.len()) {
            return;
        }
        for id in &redundant {
            open.remove(id);
            self.swarm.close_connection(*id);
        }
        if direct {
            self.note(format!(
                "connection to {peer} is now direct: closing {} relayed one(s)",
                redundant.len()
            ));
        } else {
            self.note(format!(
                "two relayed connections to {peer}: closing the one {} dialled",
                if me < peer { "it" } else { "we" }
            ));
        }
    }

    /// A connection to `peer` closed; `still_open` are its others. When the
    /// peer stays connected and shares our table, our subscription is
    /// announced again soon ([`resubscribe_at`]): gossipsub 0.50 sends to a
    /// peer through one queue that every connection's handler takes from,
    /// so the closing connection may have taken a message along, and a
    /// lost subscription is never repeated. The peer would then never send
    /// us a move by gossip, and, seeing a seat unsubscribed, wait its whole
    /// readiness time before it plays (a move lost so is repaired by
    /// catch-up; a subscription is not).
    pub(super) fn connection_closed(
        &mut self,
        peer: PeerId,
        connection: ConnectionId,
        still_open: u32,
    ) {
        if let Some(open) = self.paths.get_mut(&peer) {
            open.remove(&connection);
            if open.is_empty() {
                self.paths.remove(&peer);
            }
        }
        if still_open == 0 {
            return;
        }
        let Stage::Play(play) = &mut self.stage else {
            return;
        };
        let shares_table = play.seat_peers.contains(&peer)
            || self
                .swarm
                .behaviour()
                .gossipsub
                .all_peers()
                .any(|(p, topics)| *p == peer && topics.contains(&&play.topic_hash));
        if shares_table {
            let now = Instant::now();
            play.resubscribe_due = Some(resubscribe_at(
                now,
                play.resubscribe_due,
                play.resubscribed_at,
            ));
        }
    }

    /// Announce our table subscription again when [`Node::connection_closed`]
    /// made it due: gossipsub has no way to repeat one to one peer, so
    /// every peer gets an unsubscription and a subscription, in that order
    /// on one connection. The table's peers are explicit peers, outside any
    /// mesh, so nothing is pruned or grafted on the way.
    pub(super) fn resubscribe_if_due(&mut self, now: Instant) {
        let Stage::Play(play) = &mut self.stage else {
            return;
        };
        if play.resubscribe_due.is_none_or(|due| now < due) {
            return;
        }
        play.resubscribe_due = None;
        play.resubscribed_at = Some(now);
        let gossipsub = &mut self.swarm.behaviour_mut().gossipsub;
        gossipsub.unsubscribe(&play.topic);
        let line = match gossipsub.subscribe(&play.topic) {
            Ok(_) => "announced our table subscription again: a connection closed beside \
                      another and may have taken it along"
                .to_owned(),
            Err(e) => format!("subscribing to the table topic again failed: {e}"),
        };
        self.note(line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A seat is shown "relayed" while every connection to it is; once a
    /// punched one is up beside the relayed one, it is direct.
    #[test]
    fn a_peer_is_relayed_only_while_no_direct_connection_is_open() {
        assert!(!only_relayed(None), "not connected is not relayed");
        let mut open = HashMap::new();
        assert!(!only_relayed(Some(&open)));
        open.insert(
            ConnectionId::new_unchecked(1),
            Path::Relayed {
                dialled_by_me: true,
            },
        );
        assert!(only_relayed(Some(&open)));
        open.insert(ConnectionId::new_unchecked(2), Path::Direct);
        assert!(!only_relayed(Some(&open)), "a punched connection is up");
        open.remove(&ConnectionId::new_unchecked(1));
        assert!(!only_relayed(Some(&open)));
    }

    /// One announcement for any number of closes, and never two within
    /// the gap, however a peer opens and closes connections.
    #[test]
    fn a_subscription_is_announced_again_at_most_once_a_gap() {
        let t0 = Instant::now();
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        assert_eq!(resubscribe_at(t0, None, None), t0, "first close: at once");
        assert_eq!(
            resubscribe_at(at(10), Some(t0), None),
            t0,
            "already due: the same one"
        );
        assert_eq!(
            resubscribe_at(at(200), None, Some(t0)),
            t0 + RESUBSCRIBE_GAP,
            "one went out 200 ms ago: the next waits for the gap"
        );
        assert_eq!(
            resubscribe_at(at(5_000), None, Some(t0)),
            at(5_000),
            "long after the last: at once"
        );
    }
}
