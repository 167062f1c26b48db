//! `roundtable relay`: a relay v2 server that a reachable player runs, so
//! that peers behind NAT can reach each other through it and then try to
//! punch a direct connection (DCUtR). Its limits are raised for game
//! traffic ([`crate::swarm::relay_config`]).

use futures::StreamExt;
use libp2p::relay::{self, StatusCode};
use libp2p::swarm::SwarmEvent;
use libp2p::{Multiaddr, identify};
use roundtable_table::Identity;
use tokio::sync::mpsc;

use crate::NetError;
use crate::identity::keypair_of;
use crate::swarm::{RelayBehaviourEvent, build_relay_swarm};

/// What a relay reports.
#[derive(Clone, Debug)]
pub enum RelayEvent {
    /// Listening here (with `/p2p/<relay>` appended: give this to players).
    Listening(Multiaddr),
    /// Something worth a log line.
    Note(String),
}

/// Run a relay server with `identity` on `listen` until the task is
/// dropped; events go to `events` (dropped when it is full).
pub async fn run_relay(
    identity: &Identity,
    listen: Vec<Multiaddr>,
    events: mpsc::Sender<RelayEvent>,
) -> Result<(), NetError> {
    let key = keypair_of(identity)?;
    let me = key.public().to_peer_id();
    let mut swarm = build_relay_swarm(key)?;
    for addr in listen {
        swarm
            .listen_on(addr.clone())
            .map_err(|e| NetError::Listen {
                addr: addr.to_string(),
                reason: e.to_string(),
            })?;
    }
    loop {
        let event = swarm.select_next_some().await;
        let report = match event {
            SwarmEvent::NewListenAddr { address, .. } => {
                // A reservation tells the client where the relay is reached;
                // a relay with no external address refuses reservations.
                // What it listens on is the best first guess.
                swarm.add_external_address(address.clone());
                Some(RelayEvent::Listening(
                    address.with(libp2p::multiaddr::Protocol::P2p(me)),
                ))
            }
            SwarmEvent::Behaviour(RelayBehaviourEvent::Relay(e)) => {
                Some(RelayEvent::Note(note(&e)))
            }
            SwarmEvent::Behaviour(RelayBehaviourEvent::Identify(identify::Event::Received {
                info,
                ..
            })) => {
                // A relay must know its own public address for its clients'
                // circuit addresses; the first peer tells us how it sees us.
                swarm.add_external_address(info.observed_addr);
                None
            }
            _ => None,
        };
        if let Some(r) = report {
            let _ = events.try_send(r);
        }
    }
}

/// Why a table relay (SPEC 4.9) refused a peer that is not at its table.
pub(crate) const NOT_AT_TABLE: &str = "not at this table (a table relay serves its own table only)";

/// A relay server's event as a line for the person running it.
// The deprecated variants are still reported by libp2p 0.57; each is a
// failure the operator would want to read about.
#[allow(deprecated)]
pub(crate) fn note(event: &relay::Event) -> String {
    use relay::Event::*;
    match event {
        ReservationReqAccepted {
            src_peer_id,
            renewed: false,
        } => format!("peer {src_peer_id} reserved a slot"),
        ReservationReqAccepted {
            src_peer_id,
            renewed: true,
        } => format!("peer {src_peer_id} renewed its slot"),
        ReservationReqAcceptFailed { src_peer_id, error } => {
            format!("could not give peer {src_peer_id} a slot: {error}")
        }
        ReservationReqDenied {
            src_peer_id,
            status,
        } => format!("refused peer {src_peer_id} a slot: {}", refusal(status)),
        ReservationReqDenyFailed { src_peer_id, error } => {
            format!("could not tell peer {src_peer_id} it has no slot: {error}")
        }
        ReservationClosed { src_peer_id } => format!("peer {src_peer_id}'s slot closed"),
        ReservationTimedOut { src_peer_id } => {
            format!("peer {src_peer_id}'s slot expired")
        }
        CircuitReqAccepted {
            src_peer_id,
            dst_peer_id,
        } => format!("relaying from peer {src_peer_id} to peer {dst_peer_id}"),
        CircuitReqDenied {
            src_peer_id,
            dst_peer_id,
            status,
        } => format!(
            "refused to relay from peer {src_peer_id} to peer {dst_peer_id}: {}",
            refusal(status)
        ),
        CircuitReqDenyFailed {
            src_peer_id,
            dst_peer_id,
            error,
        } => {
            format!("could not tell peer {src_peer_id} it cannot reach peer {dst_peer_id}: {error}")
        }
        CircuitReqOutboundConnectFailed {
            src_peer_id,
            dst_peer_id,
            error,
        } => format!("could not reach peer {dst_peer_id} for peer {src_peer_id}: {error}"),
        CircuitReqAcceptFailed {
            src_peer_id,
            dst_peer_id,
            error,
        } => format!("could not relay from peer {src_peer_id} to peer {dst_peer_id}: {error}"),
        CircuitClosed {
            src_peer_id,
            dst_peer_id,
            error,
        } => match error {
            None => format!("stopped relaying from peer {src_peer_id} to peer {dst_peer_id}"),
            Some(e) => {
                format!("stopped relaying from peer {src_peer_id} to peer {dst_peer_id}: {e}")
            }
        },
        StatusChanged {
            status: relay::Status::Enable,
        } => "open for reservations".into(),
        StatusChanged {
            status: relay::Status::Disable,
        } => "closed to new reservations: it knows no address of its own to give clients".into(),
    }
}

/// Why a relay refused us a reservation, in [`refusal`]'s words, when the
/// reason its listener closed with is a refusal; `None` when the
/// connection to the relay failed or dropped instead (worth asking again).
/// A table relay (SPEC 4.9) refuses a peer not at its table as a full
/// relay does: libp2p's limiters have only that status.
pub fn refused_reservation(reason: &std::io::Error) -> Option<&'static str> {
    use libp2p::relay::client::transport::Error as ClientError;
    use libp2p::relay::outbound::hop::ReserveError;
    let words = |e: &ReserveError| match e {
        ReserveError::Refused => Some(refusal(&StatusCode::ReservationRefused)),
        ReserveError::ResourceLimitExceeded => Some(refusal(&StatusCode::ResourceLimitExceeded)),
        ReserveError::Unsupported => Some(SERVES_NO_RELAY),
        ReserveError::Io(_) | ReserveError::Protocol(_) => None,
    };
    // The swarm boxes the transport's error, and the transport layers
    // (`Either`) pass only its source on: walk the whole chain.
    let mut cause = reason
        .get_ref()
        .map(|inner| inner as &(dyn std::error::Error + 'static));
    while let Some(e) = cause {
        if let Some(refused) = e.downcast_ref::<ReserveError>() {
            return words(refused);
        }
        if let Some(ClientError::Reservation(refused)) = e.downcast_ref::<ClientError>() {
            return words(refused);
        }
        cause = e.source();
    }
    None
}

/// Why a peer that runs no relay refuses a reservation.
pub const SERVES_NO_RELAY: &str = "it serves no relay";

/// Why a full relay refuses, in words.
pub(crate) const RELAY_FULL: &str = "the relay is full";

/// Why the relay refused a request, in words.
fn refusal(status: &StatusCode) -> &'static str {
    match status {
        StatusCode::OK => "no reason given",
        StatusCode::ReservationRefused => "no slot for it",
        StatusCode::ResourceLimitExceeded => RELAY_FULL,
        StatusCode::PermissionDenied => "not allowed",
        StatusCode::ConnectionFailed => "the other peer could not be reached",
        StatusCode::NoReservation => "the other peer holds no slot here",
        StatusCode::MalformedMessage => "a malformed request",
        StatusCode::UnexpectedMessage => "an unexpected request",
    }
}

#[cfg(test)]
mod tests {
    use libp2p::PeerId;

    use super::*;

    /// `roundtable relay` printed `StatusChanged { status: Enable }`.
    #[test]
    fn a_relay_reports_in_words_not_debug_text() {
        let (a, b) = (PeerId::random(), PeerId::random());
        let events = [
            relay::Event::StatusChanged {
                status: relay::Status::Enable,
            },
            relay::Event::StatusChanged {
                status: relay::Status::Disable,
            },
            relay::Event::ReservationReqAccepted {
                src_peer_id: a,
                renewed: true,
            },
            relay::Event::ReservationReqDenied {
                src_peer_id: a,
                status: StatusCode::ResourceLimitExceeded,
            },
            relay::Event::CircuitReqDenied {
                src_peer_id: a,
                dst_peer_id: b,
                status: StatusCode::NoReservation,
            },
            relay::Event::CircuitClosed {
                src_peer_id: a,
                dst_peer_id: b,
                error: None,
            },
        ];
        for event in &events {
            let line = note(event);
            let debug = format!("{event:?}");
            let variant = debug.split([' ', '{', '(']).next().unwrap_or_default();
            assert!(!line.contains(variant), "{line}");
            assert!(!line.contains(['{', '}']), "{line}");
        }
        assert_eq!(note(&events[0]), "open for reservations");
        assert!(note(&events[3]).ends_with("the relay is full"));
    }
}
