//! Connection room per remote address (SPEC 4.1, "Connection slots").
//!
//! libp2p's `connection_limits` bounds connections in total and per peer id,
//! and lets chosen peers bypass those bounds (we let the seats' peers
//! bypass them once the genesis names them). It has no bound per remote
//! address, and peer ids cost nothing to make: 33 identities from one
//! machine filled a host's 128 slots, and a late spectator was then cut off
//! after its handshake. This behaviour adds the missing bound: at most
//! [`MAX_INBOUND_PER_ADDRESS`] inbound connections from one
//! [`AddressKey`], the seats' peers exempt. The key is what one party
//! holds many of for nothing, counted as one: an IPv6 subscriber gets a
//! whole /64, and every peer behind a relay arrives by that relay.

use std::collections::{HashMap, HashSet};
use std::convert::Infallible;
use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
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

/// Inbound connections one [`AddressKey`] may hold at most (the reserved
/// peers' not counted): two identities' worth of connections at the
/// per-peer bound.
pub const MAX_INBOUND_PER_ADDRESS: usize = 8;

/// What inbound connections are counted by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddressKey {
    /// An IPv4 address (an IPv4-mapped IPv6 address counts as its IPv4
    /// address).
    V4(Ipv4Addr),
    /// An IPv6 address's /64 network, its other 64 bits zero: a subscriber
    /// is given a whole /64, so counting single addresses would let one
    /// party connect from 2^64 of them.
    V6Network(Ipv6Addr),
    /// The relay a relayed connection came through: every peer behind it
    /// arrives from the relay's address, and the relay's own limits
    /// ([`crate::swarm::relay_config`] on our relay) bound its circuits.
    Relay(PeerId),
}

impl fmt::Display for AddressKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AddressKey::V4(ip) => write!(f, "{ip}"),
            AddressKey::V6Network(net) => write!(f, "{net}/64"),
            AddressKey::Relay(relay) => write!(f, "relay {relay}"),
        }
    }
}

impl From<IpAddr> for AddressKey {
    fn from(ip: IpAddr) -> AddressKey {
        match ip {
            IpAddr::V4(v4) => AddressKey::V4(v4),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => AddressKey::V4(v4),
                None => {
                    let network = u128::from(v6) & !u128::from(u64::MAX);
                    AddressKey::V6Network(Ipv6Addr::from(network))
                }
            },
        }
    }
}

/// The key an inbound connection counts under, from its local and remote
/// addresses; `None` when neither names an IP address or a relay. A
/// relayed connection's local address is the relay's address followed by
/// `/p2p-circuit` (its remote one is only `/p2p/<the remote peer>`): it
/// counts under the peer id named just before `/p2p-circuit`, or the
/// relay's IP address when no peer id is named.
pub fn address_key(local: &Multiaddr, remote: &Multiaddr) -> Option<AddressKey> {
    for addr in [local, remote] {
        if let Some(circuit) = Circuit::of(addr) {
            return circuit
                .relay
                .map(AddressKey::Relay)
                .or_else(|| first_ip(addr));
        }
    }
    first_ip(remote)
}

/// A relay circuit an address goes through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Circuit {
    /// The relay's peer id, named just before `/p2p-circuit` (`None` when
    /// the address names no peer there).
    pub relay: Option<PeerId>,
}

impl Circuit {
    /// The circuit `addr` goes through, `None` for a direct address.
    pub fn of(addr: &Multiaddr) -> Option<Circuit> {
        let mut relay = None;
        for p in addr.iter() {
            match p {
                Protocol::P2p(peer) => relay = Some(peer),
                Protocol::P2pCircuit => return Some(Circuit { relay }),
                _ => {}
            }
        }
        None
    }

    /// The circuit a connection came through, `None` for a direct one. An
    /// inbound relayed connection carries the circuit in its local address
    /// (the remote one is only `/p2p/<the remote peer>`), an outbound one
    /// in the address dialled.
    pub fn of_connection(endpoint: &ConnectedPoint) -> Option<Circuit> {
        match endpoint {
            ConnectedPoint::Dialer { address, .. } => Circuit::of(address),
            ConnectedPoint::Listener {
                local_addr,
                send_back_addr,
            } => Circuit::of(local_addr).or_else(|| Circuit::of(send_back_addr)),
        }
    }
}

impl fmt::Display for Circuit {
    /// How a person is told a connection's path: "relayed through" the
    /// relay's id, shortened to its last 8 characters as the ids of one
    /// key type share their first ones.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.relay {
            Some(relay) => {
                let id = relay.to_base58();
                let tail = id.get(id.len().saturating_sub(8)..).unwrap_or(&id);
                write!(f, "relayed through …{tail}")
            }
            None => f.write_str("relayed"),
        }
    }
}

fn first_ip(addr: &Multiaddr) -> Option<AddressKey> {
    addr.iter().find_map(|p| match p {
        Protocol::Ip4(ip) => Some(AddressKey::from(IpAddr::V4(ip))),
        Protocol::Ip6(ip) => Some(AddressKey::from(IpAddr::V6(ip))),
        _ => None,
    })
}

/// Why an inbound connection was refused.
#[derive(Debug, thiserror::Error)]
#[error("{address} already holds {held} inbound connections (at most {max})")]
pub struct AddressFull {
    /// What the connection counted under.
    pub address: AddressKey,
    /// Connections it holds.
    pub held: usize,
    /// The bound.
    pub max: usize,
}

/// The bound on inbound connections per [`AddressKey`].
#[derive(Debug, Default)]
pub struct AddressLimit {
    /// Peers exempt from the bound: the seats' peers.
    reserved: HashSet<PeerId>,
    /// Counted connections per key.
    held: HashMap<AddressKey, HashSet<ConnectionId>>,
    /// The key each counted connection came under.
    addresses: HashMap<ConnectionId, AddressKey>,
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

    fn count(&self, address: &AddressKey) -> usize {
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
        local: &Multiaddr,
        remote: &Multiaddr,
    ) -> Result<THandler<Self>, ConnectionDenied> {
        if self.is_reserved(&peer) {
            return Ok(dummy::ConnectionHandler);
        }
        if let Some(address) = address_key(local, remote) {
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
                endpoint:
                    ConnectedPoint::Listener {
                        local_addr,
                        send_back_addr,
                    },
                ..
            }) if !self.is_reserved(&peer_id) => {
                if let Some(address) = address_key(local_addr, send_back_addr) {
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

    fn addr(text: &str) -> Multiaddr {
        text.parse().unwrap()
    }

    const RELAY: &str = "12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN";
    const LISTEN: &str = "/ip4/0.0.0.0/tcp/4001";

    /// An inbound connection as the swarm would offer it: asked, then
    /// (when let in) established.
    fn connect(
        limit: &mut AddressLimit,
        id: usize,
        local: &Multiaddr,
        remote: &Multiaddr,
    ) -> Result<(), ConnectionDenied> {
        let connection_id = ConnectionId::new_unchecked(id);
        let peer_id = PeerId::random();
        limit.handle_established_inbound_connection(connection_id, peer_id, local, remote)?;
        let endpoint = ConnectedPoint::Listener {
            local_addr: local.clone(),
            send_back_addr: remote.clone(),
        };
        limit.on_swarm_event(FromSwarm::ConnectionEstablished(ConnectionEstablished {
            peer_id,
            connection_id,
            endpoint: &endpoint,
            failed_addresses: &[],
            other_established: 0,
        }));
        Ok(())
    }

    #[test]
    fn ipv4_counts_by_address_and_ipv6_by_its_64_bit_network() {
        let local = addr(LISTEN);
        let key = |remote: &str| address_key(&local, &addr(remote));
        assert_eq!(
            key("/ip4/10.0.0.1/tcp/5000"),
            Some(AddressKey::V4("10.0.0.1".parse().unwrap()))
        );
        assert_ne!(key("/ip4/10.0.0.1/tcp/5000"), key("/ip4/10.0.0.2/tcp/5000"));
        assert_eq!(
            key("/ip6/2001:db8:1:2:aaaa::1/udp/5000/quic-v1"),
            key("/ip6/2001:db8:1:2:ffff:ffff:ffff:ffff/tcp/6000"),
        );
        assert_eq!(
            key("/ip6/2001:db8:1:2::9/tcp/5000"),
            Some(AddressKey::V6Network("2001:db8:1:2::".parse().unwrap()))
        );
        assert_ne!(
            key("/ip6/2001:db8:1:2::1/tcp/5000"),
            key("/ip6/2001:db8:1:3::1/tcp/5000")
        );
        // An IPv4 peer reaching a dual-stack listener is its IPv4 address,
        // not the /64 every IPv4 address maps into.
        assert_eq!(
            key("/ip6/::ffff:10.0.0.1/tcp/5000"),
            key("/ip4/10.0.0.1/tcp/5000")
        );
        assert_ne!(
            key("/ip6/::ffff:10.0.0.1/tcp/5000"),
            key("/ip6/::ffff:10.0.0.2/tcp/5000")
        );
    }

    #[test]
    fn a_relayed_connection_counts_under_its_relay() {
        // libp2p's relay client reports an inbound circuit with the
        // relay's address and `/p2p-circuit` as the local address and only
        // `/p2p/<source>` as the remote one.
        let local = addr(&format!("/ip4/10.0.0.9/tcp/4001/p2p/{RELAY}/p2p-circuit"));
        let source = PeerId::random();
        let remote = addr(&format!("/p2p/{source}"));
        assert_eq!(
            address_key(&local, &remote),
            Some(AddressKey::Relay(RELAY.parse().unwrap()))
        );
        // A relayed address written on the remote side counts the same.
        let remote = addr(&format!(
            "/ip4/10.0.0.9/tcp/4001/p2p/{RELAY}/p2p-circuit/p2p/{source}"
        ));
        assert_eq!(
            address_key(&addr(LISTEN), &remote),
            Some(AddressKey::Relay(RELAY.parse().unwrap()))
        );
        // No relay id named: the relay's address.
        let local = addr("/ip4/10.0.0.9/tcp/4001/p2p-circuit");
        assert_eq!(
            address_key(&local, &addr(&format!("/p2p/{source}"))),
            Some(AddressKey::V4("10.0.0.9".parse().unwrap()))
        );
    }

    #[test]
    fn both_ends_of_a_relayed_connection_know_it_is_relayed_and_through_whom() {
        let relay: PeerId = RELAY.parse().unwrap();
        let circuit = addr(&format!("/ip4/10.0.0.9/tcp/4001/p2p/{RELAY}/p2p-circuit"));
        let source = PeerId::random();
        // The side that accepted it: the circuit is only in its local
        // address, which the host's note once did not look at.
        let accepted = ConnectedPoint::Listener {
            local_addr: circuit.clone(),
            send_back_addr: addr(&format!("/p2p/{source}")),
        };
        let dialled = ConnectedPoint::Dialer {
            address: addr(&format!("{circuit}/p2p/{source}")),
            role_override: Endpoint::Dialer,
            port_use: PortUse::Reuse,
        };
        for end in [&accepted, &dialled] {
            let found = Circuit::of_connection(end);
            assert_eq!(found, Some(Circuit { relay: Some(relay) }), "{end:?}");
            let id = relay.to_base58();
            assert_eq!(
                found.map(|c| c.to_string()),
                Some(format!("relayed through …{}", &id[id.len() - 8..]))
            );
        }
        let direct = ConnectedPoint::Listener {
            local_addr: addr(LISTEN),
            send_back_addr: addr("/ip4/10.0.0.1/tcp/5000"),
        };
        assert_eq!(Circuit::of_connection(&direct), None);
    }

    #[test]
    fn one_ipv6_network_holds_at_most_the_bound_whatever_its_addresses() {
        // The old bound counted exact addresses: each of these nine came
        // from an address of its own and every one was let in.
        let mut limit = AddressLimit::default();
        let local = addr(LISTEN);
        for i in 0..MAX_INBOUND_PER_ADDRESS {
            let remote = addr(&format!("/ip6/2001:db8:5:6::{:x}/tcp/5000", i + 1));
            connect(&mut limit, i, &local, &remote).unwrap();
        }
        let next = addr("/ip6/2001:db8:5:6:ffff::1/tcp/5000");
        assert!(connect(&mut limit, 100, &local, &next).is_err());
        let other_network = addr("/ip6/2001:db8:5:7::1/tcp/5000");
        assert!(connect(&mut limit, 101, &local, &other_network).is_ok());
        // A connection that closes makes room again.
        limit.on_swarm_event(FromSwarm::ConnectionClosed(ConnectionClosed {
            peer_id: PeerId::random(),
            connection_id: ConnectionId::new_unchecked(0),
            endpoint: &ConnectedPoint::Listener {
                local_addr: local.clone(),
                send_back_addr: next.clone(),
            },
            cause: None,
            remaining_established: 0,
        }));
        assert!(connect(&mut limit, 102, &local, &next).is_ok());
    }

    #[test]
    fn one_relay_holds_at_most_the_bound_and_each_ipv4_address_its_own() {
        // The old bound did not count relayed connections at all.
        let mut limit = AddressLimit::default();
        let through =
            |relay: &str| addr(&format!("/ip4/10.0.0.9/tcp/4001/p2p/{relay}/p2p-circuit"));
        let remote = || addr(&format!("/p2p/{}", PeerId::random()));
        for i in 0..MAX_INBOUND_PER_ADDRESS {
            connect(&mut limit, i, &through(RELAY), &remote()).unwrap();
        }
        assert!(connect(&mut limit, 100, &through(RELAY), &remote()).is_err());
        let other = PeerId::random().to_string();
        assert!(connect(&mut limit, 101, &through(&other), &remote()).is_ok());

        let local = addr(LISTEN);
        for i in 0..MAX_INBOUND_PER_ADDRESS {
            connect(&mut limit, 200 + i, &local, &addr("/ip4/10.0.0.1/tcp/5000")).unwrap();
        }
        assert!(connect(&mut limit, 300, &local, &addr("/ip4/10.0.0.1/tcp/5001")).is_err());
        assert!(connect(&mut limit, 301, &local, &addr("/ip4/10.0.0.2/tcp/5000")).is_ok());
    }

    #[test]
    fn the_seats_peers_are_not_counted() {
        let mut limit = AddressLimit::default();
        let local = addr(LISTEN);
        let remote = addr("/ip4/10.0.0.1/tcp/5000");
        for i in 0..MAX_INBOUND_PER_ADDRESS {
            connect(&mut limit, i, &local, &remote).unwrap();
        }
        let seat = PeerId::random();
        limit.reserve(seat);
        assert!(
            limit
                .handle_established_inbound_connection(
                    ConnectionId::new_unchecked(50),
                    seat,
                    &local,
                    &remote
                )
                .is_ok()
        );
    }
}
