//! The relays given with `--relay` (`NodeConfig::relays`): the listener
//! that holds our reservation on each, and what the player is told when
//! one refuses us or drops us (SPEC 4.9).

use std::collections::{HashMap, HashSet};

use libp2p::core::transport::ListenerId;
use libp2p::multiaddr::Protocol;
use libp2p::{Multiaddr, PeerId};

use crate::relay::{RELAY_FULL, refused_reservation};

/// Refusals after which a relay given with `--relay` is not asked again:
/// a full relay may have room a redial later, but one that serves only
/// its own table, or no relay at all, never will, and asking it at every
/// redial for the whole game is traffic for nothing.
pub const MAX_RELAY_REFUSALS: u32 = 3;

/// Why a listener closed, in words.
pub(super) fn closed_why(reason: &Result<(), std::io::Error>) -> String {
    match reason {
        Ok(()) => "closed".to_owned(),
        Err(e) => e.to_string(),
    }
}

/// What to tell the player about a relay.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Tell {
    /// A line for the player, whatever the verbosity.
    Warning(String),
    /// A diagnostic for `-v`.
    Note(String),
}

/// Our reservations on the relays given with `--relay`.
#[derive(Default)]
pub(super) struct RelayAsks {
    /// The listener of each relay we reserve on; a relay without one is
    /// asked again at every redial.
    listeners: HashMap<ListenerId, Multiaddr>,
    /// Relays that accepted a reservation at least once: a listener of one
    /// that closes lost it, one of another was never granted.
    granted: HashSet<Multiaddr>,
    /// Relays whose failure was told, until one accepts again (asked at
    /// every redial, a failure is told once).
    told: HashSet<Multiaddr>,
    /// How often each relay refused us since it last accepted.
    refusals: HashMap<Multiaddr, u32>,
}

impl RelayAsks {
    /// Which of `relays` to ask for a reservation now: those we hold no
    /// listener on that have not refused us [`MAX_RELAY_REFUSALS`] times.
    pub(super) fn to_ask(&self, relays: &[Multiaddr]) -> Vec<Multiaddr> {
        relays
            .iter()
            .filter(|relay| !self.listeners.values().any(|r| r == *relay))
            .filter(|relay| self.refusals.get(*relay).copied().unwrap_or(0) < MAX_RELAY_REFUSALS)
            .cloned()
            .collect()
    }

    /// `id` listens through `relay`.
    pub(super) fn listening(&mut self, id: ListenerId, relay: Multiaddr) {
        self.listeners.insert(id, relay);
    }

    /// The relay with peer id `relay_peer` accepted our reservation.
    pub(super) fn accepted(&mut self, relay_peer: PeerId) {
        let named = |relay: &Multiaddr| {
            relay
                .iter()
                .any(|p| matches!(p, Protocol::P2p(id) if id == relay_peer))
        };
        for relay in self.listeners.values().filter(|r| named(r)) {
            self.granted.insert(relay.clone());
        }
        self.told.retain(|relay| !named(relay));
        self.refusals.retain(|relay, _| !named(relay));
    }

    /// Listener `id` closed with `reason`: `None` when it was not one of a
    /// relay's; else what to tell, if anything. A refusal is told to the
    /// player once, plainly, with what would help; a lost or failed
    /// reservation is a diagnostic, once until the relay accepts again.
    pub(super) fn closed(
        &mut self,
        id: ListenerId,
        reason: &Result<(), std::io::Error>,
    ) -> Option<Option<Tell>> {
        let relay = self.listeners.remove(&id)?;
        let refused = reason.as_ref().err().and_then(refused_reservation);
        let Some(why) = refused else {
            if !self.told.insert(relay.clone()) {
                return Some(None);
            }
            let why = closed_why(reason);
            return Some(Some(Tell::Note(if self.granted.contains(&relay) {
                format!("lost the reservation on relay {relay} ({why}): asking again")
            } else {
                format!("could not ask relay {relay} for a reservation ({why}): asking again")
            })));
        };
        let times = self.refusals.entry(relay.clone()).or_insert(0);
        *times += 1;
        Some(match *times {
            1 => {
                self.told.insert(relay.clone());
                let also = if why == RELAY_FULL {
                    " (a player's table relay says so to anyone not at its table)"
                } else {
                    ""
                };
                Some(Tell::Warning(format!(
                    "relay {relay} refused us a reservation: {why}{also}; nobody can reach us \
                     through it: pass another --relay (a `roundtable relay` on a machine with a \
                     public address), or play on a LAN"
                )))
            }
            MAX_RELAY_REFUSALS => Some(Tell::Note(format!(
                "relay {relay} refused us {MAX_RELAY_REFUSALS} times: not asking it again"
            ))),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use libp2p::relay::client::transport::Error as ClientError;
    use libp2p::relay::outbound::hop::ReserveError;

    use super::*;

    fn relay() -> (Multiaddr, PeerId) {
        let id = PeerId::random();
        let addr: Multiaddr = "/ip4/198.51.100.7/tcp/4001".parse().unwrap();
        (addr.with(Protocol::P2p(id)), id)
    }

    /// What the swarm reports when the relay answers a reservation with
    /// `refused` (the transport's error, boxed).
    fn refused(refused: ReserveError) -> Result<(), std::io::Error> {
        Err(std::io::Error::other(ClientError::Reservation(refused)))
    }

    /// Ask `relay` as the node does at a redial, and have the listener
    /// close with `reason`.
    fn ask_and_close(
        asks: &mut RelayAsks,
        relay: &Multiaddr,
        reason: Result<(), std::io::Error>,
    ) -> Option<Tell> {
        assert_eq!(
            asks.to_ask(std::slice::from_ref(relay)),
            vec![relay.clone()]
        );
        let id = ListenerId::next();
        asks.listening(id, relay.clone());
        assert!(asks.to_ask(std::slice::from_ref(relay)).is_empty());
        asks.closed(id, &reason)
            .expect("the listener was the relay's")
    }

    /// Issue 30: a refusal was a `-v` note "lost the reservation … asking
    /// again", repeated at every redial for ever. It is one plain line,
    /// with the relay's reason and what would help, then silence, and the
    /// relay is asked at most `MAX_RELAY_REFUSALS` times.
    #[test]
    fn a_refusing_relay_is_told_once_plainly_and_asked_a_bounded_number_of_times() {
        let (relay, _) = relay();
        let mut asks = RelayAsks::default();
        let Some(Tell::Warning(line)) = ask_and_close(
            &mut asks,
            &relay,
            refused(ReserveError::ResourceLimitExceeded),
        ) else {
            panic!("a refusal is a line for the player");
        };
        assert!(line.contains(&format!(
            "relay {relay} refused us a reservation: the relay is full"
        )));
        assert!(line.contains("not at its table"), "{line}");
        assert!(
            line.contains("another --relay") && line.contains("LAN"),
            "{line}"
        );
        for _ in 2..MAX_RELAY_REFUSALS {
            let told = ask_and_close(
                &mut asks,
                &relay,
                refused(ReserveError::ResourceLimitExceeded),
            );
            assert_eq!(told, None);
        }
        let last = ask_and_close(&mut asks, &relay, refused(ReserveError::Refused));
        assert!(
            matches!(&last, Some(Tell::Note(n)) if n.contains("not asking it again")),
            "{last:?}"
        );
        assert!(
            asks.to_ask(&[relay]).is_empty(),
            "asked again after the last refusal"
        );
    }

    /// A peer that runs no relay (no hop protocol) refuses as plainly.
    #[test]
    fn a_peer_that_serves_no_relay_is_a_refusal() {
        let (relay, _) = relay();
        let mut asks = RelayAsks::default();
        let told = ask_and_close(&mut asks, &relay, refused(ReserveError::Unsupported));
        assert!(
            matches!(&told, Some(Tell::Warning(l)) if l.contains(crate::relay::SERVES_NO_RELAY)),
            "{told:?}"
        );
    }

    /// A reservation that was granted and then dropped is "lost" (a `-v`
    /// note, once, asked again without bound: the relay restarted, or our
    /// router forgot the connection); one never granted is not called lost.
    #[test]
    fn lost_after_granted_and_never_granted_are_told_apart() {
        let (relay, relay_id) = relay();
        let mut asks = RelayAsks::default();
        let gone = || Err(std::io::Error::from(std::io::ErrorKind::ConnectionReset));
        let first = ask_and_close(&mut asks, &relay, gone());
        assert!(
            matches!(&first, Some(Tell::Note(n)) if n.starts_with("could not ask relay")),
            "{first:?}"
        );
        assert_eq!(ask_and_close(&mut asks, &relay, gone()), None, "told twice");

        let id = ListenerId::next();
        asks.listening(id, relay.clone());
        asks.accepted(relay_id);
        let lost = asks.closed(id, &gone()).expect("the relay's listener");
        assert!(
            matches!(&lost, Some(Tell::Note(n)) if n.starts_with("lost the reservation")),
            "{lost:?}"
        );
        for _ in 0..MAX_RELAY_REFUSALS + 1 {
            ask_and_close(&mut asks, &relay, gone());
        }
        assert_eq!(asks.to_ask(std::slice::from_ref(&relay)), vec![relay]);
    }

    /// A listener that is not a relay's is none of this.
    #[test]
    fn another_listener_is_not_a_relays() {
        assert_eq!(
            RelayAsks::default().closed(ListenerId::next(), &Ok(())),
            None
        );
    }
}
