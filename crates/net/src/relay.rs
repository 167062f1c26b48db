//! `roundtable relay`: a relay v2 server that a reachable player runs, so
//! that peers behind NAT can reach each other through it and then try to
//! punch a direct connection (DCUtR). Its limits are raised for game
//! traffic ([`crate::swarm::relay_config`]).

use futures::StreamExt;
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
                Some(RelayEvent::Note(format!("{e:?}")))
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
