//! Finding tables on the LAN: mDNS finds peers, and hosts announce their open
//! tables on the lobby topic (`roundtable/lobby/v1`).

use std::collections::BTreeMap;
use std::time::Duration;

use futures::StreamExt;
use libp2p::gossipsub::{self, IdentTopic, MessageAcceptance};
use libp2p::swarm::SwarmEvent;
use libp2p::swarm::dial_opts::DialOpts;
use libp2p::{Multiaddr, mdns};
use roundtable_table::Identity;

use crate::NetError;
use crate::identity::keypair_of;
use crate::swarm::{BehaviourEvent, SwarmOptions, build_swarm};
use crate::wire::{Announce, LOBBY_TOPIC, LobbyId, MAX_ANNOUNCE_BYTES, decode};

/// Tables listed at most.
const MAX_LISTED: usize = 256;

/// Listen for `wait` and return the open tables announced, one per lobby
/// (the latest announcement). `dial` are extra peers to ask (for machines
/// where multicast does not work).
pub async fn discover_tables(
    identity: &Identity,
    listen: Vec<Multiaddr>,
    dial: Vec<Multiaddr>,
    mdns: bool,
    wait: Duration,
) -> Result<Vec<Announce>, NetError> {
    let key = keypair_of(identity)?;
    let mut swarm = build_swarm(
        key,
        &SwarmOptions {
            mdns,
            counter: None,
            hide_listen_addrs: false,
        },
    )?;
    for addr in listen {
        swarm
            .listen_on(addr.clone())
            .map_err(|e| NetError::Listen {
                addr: addr.to_string(),
                reason: e.to_string(),
            })?;
    }
    for addr in dial {
        let _ = swarm.dial(addr);
    }
    let topic = IdentTopic::new(LOBBY_TOPIC);
    swarm
        .behaviour_mut()
        .gossipsub
        .subscribe(&topic)
        .map_err(|e| NetError::Transport(format!("subscribing: {e}")))?;
    let mut found: BTreeMap<LobbyId, Announce> = BTreeMap::new();
    let deadline = tokio::time::sleep(wait);
    tokio::pin!(deadline);
    loop {
        tokio::select! {
            _ = &mut deadline => break,
            event = swarm.select_next_some() => match event {
                SwarmEvent::Behaviour(BehaviourEvent::Mdns(mdns::Event::Discovered(list))) => {
                    for (peer, addr) in list.into_iter().take(64) {
                        if !swarm.is_connected(&peer) {
                            let _ = swarm.dial(DialOpts::peer_id(peer).addresses(vec![addr]).build());
                        }
                    }
                }
                SwarmEvent::Behaviour(BehaviourEvent::Gossipsub(gossipsub::Event::Message {
                    propagation_source, message_id, message,
                })) => {
                    let verdict = if message.topic != topic.hash() {
                        MessageAcceptance::Ignore
                    } else {
                        match decode::<Announce>(&message.data, MAX_ANNOUNCE_BYTES)
                            .map_err(|_| ())
                            .and_then(|a| a.verify().map(|_| a).map_err(|_| ()))
                        {
                            // Signed by the host its terms and its ticket
                            // name, and the ticket's lobby id is the hash of
                            // the terms shown (`Announce::verify`).
                            Ok(a) => {
                                let id = a.info.id();
                                if found.len() < MAX_LISTED || found.contains_key(&id) {
                                    found.insert(id, a);
                                }
                                // Listing it is all we do: a listener
                                // forwards nothing.
                                MessageAcceptance::Ignore
                            }
                            Err(()) => MessageAcceptance::Reject,
                        }
                    };
                    swarm.behaviour_mut().gossipsub.report_message_validation_result(
                        &message_id, &propagation_source, verdict,
                    );
                }
                _ => {}
            }
        }
    }
    Ok(found.into_values().collect())
}
