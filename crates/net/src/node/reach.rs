//! Being reachable (SPEC 4.9): what AutoNAT and the home router's UPnP
//! tell us of our own addresses, the relay we serve to our own table once
//! the internet reaches us, and the slot we take on a table peer's relay
//! when it offers one.

use std::time::{Duration, Instant};

use futures::StreamExt;
use libp2p::multiaddr::Protocol;
use libp2p::{Multiaddr, PeerId, autonat, identify, relay};

use crate::upnp;

use super::{Node, Stage};
use crate::identity::peer_id_of;
use crate::ticket::Reach;

/// Longest a stopping peer waits for its home router to remove the ports
/// UPnP mapped for it: the removal is one request on the home network, and
/// a router that does not answer must not hold the exit up (its mapping
/// then lapses by itself within the hour it was made for).
pub const UPNP_RELEASE_WAIT: Duration = Duration::from_millis(1500);

impl<G: crate::NetGame> Node<G> {
    /// The peers our table relay serves, as the lobby or the table stands:
    /// the host's seated joiners, a joiner's host and the players the host
    /// last listed, or the genesis's seats; nobody for a spectator.
    fn table_peer_ids(&self) -> Vec<PeerId> {
        let mut peers: Vec<PeerId> = match &self.stage {
            Stage::Idle | Stage::Watch(_) => Vec::new(),
            Stage::Host(host) => host.members.iter().map(|m| m.peer).collect(),
            Stage::Join(join) => std::iter::once(join.host)
                .chain(join.seated.iter().filter_map(|s| peer_id_of(&s.key)))
                .collect(),
            Stage::Play(play) => play.seat_peers.clone(),
        };
        peers.retain(|p| *p != self.me);
        peers.sort();
        peers.dedup();
        peers
    }

    /// Rewrite the table relay's peer set when the lobby or table changed.
    pub(super) fn refresh_table_peers(&mut self) {
        let peers = self.table_peer_ids();
        if peers != self.reach.served {
            self.reach.table_peers.set(peers.iter().copied());
            self.reach.served = peers;
        }
    }

    /// The swarm confirmed (or withdrew) an external address: say so once
    /// per address, serve our table's relay while one of them reaches the
    /// internet, and put it in the ticket.
    pub(super) fn on_external_addr(&mut self, address: &Multiaddr, confirmed: bool) {
        if confirmed && self.reach.noted.len() < crate::wire::MAX_ADDRS {
            let fresh = !self.reach.noted.contains(address);
            if fresh {
                self.reach.noted.push(address.clone());
                let line = match Reach::of(address) {
                    Reach::Internet if is_circuit(address) => {
                        format!("reachable through a relay at {address}")
                    }
                    Reach::Internet => format!(
                        "reachable from the internet at {address}: relaying for this table's \
                         peers"
                    ),
                    Reach::Lan => format!("reachable on the local network at {address}"),
                    Reach::ThisMachine => format!("reachable from this machine at {address}"),
                };
                self.note(line);
            }
        }
        let public = self
            .swarm
            .external_addresses()
            .any(|a| Reach::of(a) == Reach::Internet && !is_circuit(a));
        let status = if public {
            relay::Status::Enable
        } else {
            relay::Status::Disable
        };
        self.swarm
            .behaviour_mut()
            .table_relay
            .set_status(Some(status));
        if let Stage::Host(host) = &mut self.stage {
            host.ticket_due = Instant::now() + Duration::from_millis(200);
        }
    }

    /// What AutoNAT concluded, when it says something the confirmed
    /// addresses do not: that nobody could dial us back.
    pub(super) fn on_autonat(&mut self, new: &autonat::NatStatus) {
        if *new == autonat::NatStatus::Private && !self.reach.private_noted {
            self.reach.private_noted = true;
            self.note(
                "other peers could not dial us back at our addresses (AutoNAT): this peer is \
                 behind a NAT or a firewall",
            );
        }
    }

    /// A line for what the table relay did; a refusal of someone not at
    /// our table says why in words of its own (libp2p reports it as a full
    /// relay).
    pub(super) fn on_table_relay(&mut self, event: &relay::Event) {
        let line = match event {
            relay::Event::ReservationReqDenied { src_peer_id, .. }
                if !self.reach.table_peers.contains(src_peer_id) =>
            {
                format!(
                    "table relay: refused peer {src_peer_id} a slot: {}",
                    crate::relay::NOT_AT_TABLE
                )
            }
            relay::Event::CircuitReqDenied {
                src_peer_id,
                dst_peer_id,
                ..
            } if !self.reach.table_peers.contains(src_peer_id) => format!(
                "table relay: refused to relay from peer {src_peer_id} to peer {dst_peer_id}: {}",
                crate::relay::NOT_AT_TABLE
            ),
            other => format!("table relay: {}", crate::relay::note(other)),
        };
        self.note(line);
    }

    /// What the home router's UPnP did.
    pub(super) fn on_upnp(&mut self, event: &upnp::Event) {
        let line = match event {
            upnp::Event::NewExternalAddr {
                local_addr,
                external_addr,
            } => {
                self.reach.upnp_mapped = true;
                format!("the router mapped {external_addr} to {local_addr} (UPnP)")
            }
            upnp::Event::ExpiredExternalAddr { external_addr, .. } => {
                format!("the router no longer maps {external_addr} (UPnP)")
            }
            upnp::Event::MapRefused { local_addr, reason } => {
                format!("the UPnP router refused to map {local_addr}: {reason}")
            }
            upnp::Event::GatewayNotFound => {
                "no router answered UPnP sensibly: no port mapped (forward one by hand, or use \
                 --relay)"
                    .to_owned()
            }
            upnp::Event::NonRoutableGateway => {
                "the UPnP router is itself behind another NAT: no port mapped".to_owned()
            }
        };
        self.note(line);
    }

    /// A table peer told us (identify) that it serves a relay: remember
    /// where, and take a slot on it (now, and again after a refusal: a
    /// host seats a joiner only after its first `Join`).
    pub(super) fn note_relay_offer(&mut self, peer: PeerId, info: &identify::Info) {
        if !info.protocols.contains(&relay::HOP_PROTOCOL_NAME) {
            self.reach.offers.retain(|(p, _)| *p != peer);
            return;
        }
        let Some(addr) = info
            .listen_addrs
            .iter()
            .find(|a| Reach::of(a) == Reach::Internet && !is_circuit(a))
        else {
            return;
        };
        let relay_addr = crate::ticket::with_peer(addr, peer);
        self.reach.offers.retain(|(p, _)| *p != peer);
        if self.reach.offers.len() < crate::wire::MAX_ADDRS {
            self.reach.offers.push((peer, relay_addr));
        }
        self.reserve_slots();
    }

    /// Take a slot on every table peer that offers a relay and holds none
    /// of ours, unless the internet reaches us ourselves.
    pub(super) fn reserve_slots(&mut self) {
        let reachable = self
            .swarm
            .external_addresses()
            .any(|a| Reach::of(a) == Reach::Internet && !is_circuit(a));
        if reachable {
            return;
        }
        let wanted: Vec<(PeerId, Multiaddr)> = self
            .reach
            .offers
            .iter()
            .filter(|(p, _)| {
                self.reach.served.contains(p) && !self.reach.slots.iter().any(|(q, _)| q == p)
            })
            .cloned()
            .collect();
        for (peer, relay_addr) in wanted {
            let circuit = relay_addr.with(Protocol::P2pCircuit);
            match self.swarm.listen_on(circuit.clone()) {
                Ok(id) => {
                    self.reach.slots.push((peer, id));
                    if !self.reach.asked.contains(&peer) {
                        self.reach.asked.push(peer);
                        self.note(format!(
                            "asking table peer {peer} for a relay slot: {circuit}"
                        ));
                    }
                }
                Err(e) => self.note(format!("cannot take a slot at {circuit}: {e}")),
            }
        }
    }

    /// A listener closed: if it was a slot on a table peer's relay, it is
    /// asked for again at the next redial, and a refusal is told once per
    /// table peer (a host refuses a joiner it has not seated yet, so the
    /// first asks may be refused). Whether the listener was a slot.
    pub(super) fn on_listener_closed(
        &mut self,
        id: libp2p::core::transport::ListenerId,
        reason: &Result<(), std::io::Error>,
    ) -> bool {
        let Some(at) = self.reach.slots.iter().position(|(_, slot)| *slot == id) else {
            return false;
        };
        let (peer, _) = self.reach.slots.remove(at);
        if let Err(e) = reason
            && !self.reach.refused_by.contains(&peer)
        {
            self.reach.refused_by.push(peer);
            self.note(format!(
                "table peer {peer} gave us no relay slot ({e}): asking again every few seconds"
            ));
        }
        true
    }

    /// Where `peer` may be reached through the relays of our table's
    /// peers (SPEC 4.9): a seat behind a NAT holds a slot on them, so a
    /// circuit to it through one needs no address of its own.
    pub(super) fn circuits_to(&self, peer: PeerId) -> Vec<Multiaddr> {
        self.reach
            .offers
            .iter()
            .filter(|(relay, _)| *relay != peer)
            .map(|(_, addr)| {
                addr.clone()
                    .with(Protocol::P2pCircuit)
                    .with(Protocol::P2p(peer))
            })
            .collect()
    }

    /// Let the home router remove the ports it mapped for us before we
    /// go: close the listeners (UPnP then asks the router to remove their
    /// mappings) and drive the swarm for at most [`UPNP_RELEASE_WAIT`].
    pub(super) async fn release_upnp(&mut self) {
        if !self.reach.upnp_mapped {
            return;
        }
        for id in self.reach.listeners.drain(..) {
            self.swarm.remove_listener(id);
        }
        let _ = tokio::time::timeout(UPNP_RELEASE_WAIT, async {
            loop {
                self.swarm.select_next_some().await;
            }
        })
        .await;
    }
}

/// What a node knows and does about its own reachability.
#[derive(Debug, Default)]
pub(super) struct ReachState {
    /// Whom the table relay serves (shared with its limiters).
    pub(super) table_peers: crate::swarm::TablePeers,
    /// The same set as last written, to rewrite it only when it changes.
    pub(super) served: Vec<PeerId>,
    /// External addresses already told (each once).
    pub(super) noted: Vec<Multiaddr>,
    /// AutoNAT's "not reachable" already told.
    pub(super) private_noted: bool,
    /// Table peers that serve a relay, and where (ending in their
    /// `/p2p/`), at most 8.
    pub(super) offers: Vec<(PeerId, Multiaddr)>,
    /// Slots asked for or held on table peers' relays, by listener.
    pub(super) slots: Vec<(PeerId, libp2p::core::transport::ListenerId)>,
    /// Table peers we asked for a slot (told once each).
    pub(super) asked: Vec<PeerId>,
    /// Table peers that refused us a slot (told once each).
    pub(super) refused_by: Vec<PeerId>,
    /// The router mapped a port for us.
    pub(super) upnp_mapped: bool,
    /// Our direct listeners, closed on exit so their mappings go.
    pub(super) listeners: Vec<libp2p::core::transport::ListenerId>,
}

fn is_circuit(addr: &Multiaddr) -> bool {
    addr.iter().any(|p| matches!(p, Protocol::P2pCircuit))
}
