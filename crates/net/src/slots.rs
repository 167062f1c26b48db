//! Connection room per remote address (SPEC 4.1, "Connection slots").
//!
//! libp2p's `connection_limits` bounds connections in total and per peer id,
//! and lets chosen peers bypass those bounds (we let the seats' peers
//! bypass them once the genesis names them). It has no bound per remote
//! address, and peer ids cost nothing to make: 33 identities from one
//! machine filled a host's 128 slots, and a late spectator was then cut off
//! after its handshake. This behaviour adds the missing bound: at most
//! [`MAX_INBOUND_PER_ADDRESS`] inbound connections from one IP address,
//! the seats' peers exempt, relayed connections counted by the relay's own
//! limits instead (every peer behind a relay shares its address).

use std::collections::{HashMap, HashSet};
use std::convert::Infallible;
use std::net::IpAddr;
use std::task::{Context, Poll};

use libp2p::core::transport::PortUse;
use libp2p::core::{ConnectedPoint, Endpoint};
use libp2p::multiaddr::Protocol;
use libp2p::swarm::behaviour::{ConnectionClosed, ConnectionEstablished};
use libp2p::swarm::{
    ConnectionDenied, ConnectionId, FromSwarm, NetworkBehaviour, THandler, THandlerInEvent,
    THandlerOutEvent, ToSwarm, dummy,
};
use libp2p::{Multiaddr, PeerId};

/// Inbound connections one IP address may hold at most (the reserved
/// peers' not counted): two identities' worth of connections at the
/// per-peer bound.
pub const MAX_INBOUND_PER_ADDRESS: usize = 8;

/// Why an inbound connection was refused.
#[derive(Debug, thiserror::Error)]
#[error("{address} already holds {held} inbound connections (at most {max})")]
pub struct AddressFull {
    /// The remote IP address.
    pub address: IpAddr,
    /// Connections it holds.
    pub held: usize,
    /// The bound.
    pub max: usize,
}

/// The bound on inbound connections per remote IP address.
#[derive(Debug, Default)]
pub struct AddressLimit {
    /// Peers exempt from the bound: the seats' peers.
    reserved: HashSet<PeerId>,
    /// Counted connections per address.
    held: HashMap<IpAddr, HashSet<ConnectionId>>,
    /// The address each counted connection came from.
    addresses: HashMap<ConnectionId, IpAddr>,
}

/// The IP address of a direct connection's remote end; `None` for a
/// relayed one.
fn direct_ip(remote: &Multiaddr) -> Option<IpAddr> {
    if remote.iter().any(|p| matches!(p, Protocol::P2pCircuit)) {
        return None;
    }
    remote.iter().find_map(|p| match p {
        Protocol::Ip4(ip) => Some(IpAddr::V4(ip)),
        Protocol::Ip6(ip) => Some(IpAddr::V6(ip)),
        _ => None,
    })
}

impl AddressLimit {
    /// Exempt `peer` from the bound from now on.
    pub fn reserve(&mut self, peer: PeerId) {
        self.reserved.insert(peer);
    }

    /// Whether `peer` is exempt.
    pub fn is_reserved(&self, peer: &PeerId) -> bool {
        self.reserved.contains(peer)
    }

    fn count(&self, address: &IpAddr) -> usize {
        self.held.get(address).map_or(0, HashSet::len)
    }
}

impl NetworkBehaviour for AddressLimit {
    type ConnectionHandler = dummy::ConnectionHandler;
    type ToSwarm = Infallible;

    fn handle_established_inbound_connection(
        &mut self,
        _: ConnectionId,
        peer: PeerId,
        _: &Multiaddr,
        remote: &Multiaddr,
    ) -> Result<THandler<Self>, ConnectionDenied> {
        if self.is_reserved(&peer) {
            return Ok(dummy::ConnectionHandler);
        }
        if let Some(address) = direct_ip(remote) {
            let held = self.count(&address);
            if held >= MAX_INBOUND_PER_ADDRESS {
                return Err(ConnectionDenied::new(AddressFull {
                    address,
                    held,
                    max: MAX_INBOUND_PER_ADDRESS,
                }));
            }
        }
        Ok(dummy::ConnectionHandler)
    }

    fn handle_established_outbound_connection(
        &mut self,
        _: ConnectionId,
        _: PeerId,
        _: &Multiaddr,
        _: Endpoint,
        _: PortUse,
    ) -> Result<THandler<Self>, ConnectionDenied> {
        // We chose to dial: nothing to bound.
        Ok(dummy::ConnectionHandler)
    }

    fn on_swarm_event(&mut self, event: FromSwarm<'_>) {
        match event {
            FromSwarm::ConnectionEstablished(ConnectionEstablished {
                peer_id,
                connection_id,
                endpoint: ConnectedPoint::Listener { send_back_addr, .. },
                ..
            }) if !self.is_reserved(&peer_id) => {
                if let Some(address) = direct_ip(send_back_addr) {
                    self.held.entry(address).or_default().insert(connection_id);
                    self.addresses.insert(connection_id, address);
                }
            }
            FromSwarm::ConnectionClosed(ConnectionClosed { connection_id, .. }) => {
                if let Some(address) = self.addresses.remove(&connection_id)
                    && let Some(set) = self.held.get_mut(&address)
                {
                    set.remove(&connection_id);
                    if set.is_empty() {
                        self.held.remove(&address);
                    }
                }
            }
            _ => {}
        }
    }

    fn on_connection_handler_event(
        &mut self,
        _: PeerId,
        _: ConnectionId,
        event: THandlerOutEvent<Self>,
    ) {
        match event {}
    }

    fn poll(&mut self, _: &mut Context<'_>) -> Poll<ToSwarm<Self::ToSwarm, THandlerInEvent<Self>>> {
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relayed_connections_have_no_direct_address() {
        let relayed: Multiaddr = "/ip4/10.0.0.9/tcp/4001/p2p/12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN/p2p-circuit"
            .parse()
            .unwrap();
        assert_eq!(direct_ip(&relayed), None);
        let direct: Multiaddr = "/ip6/::1/udp/4001/quic-v1".parse().unwrap();
        assert_eq!(direct_ip(&direct), Some("::1".parse().unwrap()));
    }
}
