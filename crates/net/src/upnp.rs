//! A port mapped on the home router by UPnP IGD (SPEC 4.9).
//!
//! libp2p's own `upnp` behaviour refuses every router whose public address
//! fails its copy of `IpAddr::is_global`, which also rejects the
//! documentation (TEST-NET) and benchmarking prefixes. Those prefixes are
//! what the simulated internet of the network tests is made of, and a real
//! router never shows one, so with it no test could ever see a port mapped
//! by a real miniupnpd. This behaviour does the same work (map each private
//! IPv4 listen address's port to the same public port, renew the lease,
//! remove the mapping when the listener goes) and judges the router's
//! public address by [`Reach::of`], the one rule the rest of the peer uses
//! for what the internet reaches. It also says when a router found refuses
//! a mapping, which libp2p's only logs.
//!
//! The router is spoken to by a task of its own, so a removal asked for on
//! exit goes out while the node waits, whether or not the swarm is polled.

use std::collections::{HashSet, VecDeque};
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr, SocketAddrV4};
use std::task::{Context, Poll};
use std::time::Duration;

use futures::StreamExt;
use futures::channel::mpsc;
use igd_next::PortMappingProtocol;
use libp2p::core::Endpoint;
use libp2p::core::transport::PortUse;
use libp2p::multiaddr::Protocol;
use libp2p::swarm::behaviour::{ExpiredListenAddr, NewListenAddr};
use libp2p::swarm::{
    ConnectionDenied, ConnectionId, FromSwarm, NetworkBehaviour, THandler, THandlerInEvent,
    THandlerOutEvent, ToSwarm, dummy,
};
use libp2p::{Multiaddr, PeerId};

use crate::ticket::Reach;

/// How long the router keeps a mapping we made (renewed at half of it):
/// a peer that dies without removing it leaves a port open this long.
pub const LEASE: Duration = Duration::from_secs(3600);

/// What the description field of the router's mapping table says.
const DESCRIPTION: &str = "roundtable";

/// What happened at the home router.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// The router forwards `external_addr` to our `local_addr`.
    NewExternalAddr {
        /// Our listen address that was mapped.
        local_addr: Multiaddr,
        /// Where the internet reaches it.
        external_addr: Multiaddr,
    },
    /// The router stopped renewing a mapping: the address is gone.
    ExpiredExternalAddr {
        /// Our listen address that was mapped.
        local_addr: Multiaddr,
        /// Where the internet reached it.
        external_addr: Multiaddr,
    },
    /// The router answered but refused to map `local_addr`.
    MapRefused {
        /// Our listen address it refused.
        local_addr: Multiaddr,
        /// The router's words.
        reason: String,
    },
    /// No router answered the search, or none said its public address.
    GatewayNotFound,
    /// The router's own public address is private: it is behind another
    /// NAT, so a mapping on it would reach nobody.
    NonRoutableGateway,
}

/// One port to map: our listen address and what the router is told.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Mapping {
    local_addr: Multiaddr,
    internal: SocketAddrV4,
    protocol: PortMappingProtocol,
}

impl Mapping {
    /// The mapping for a listen address UPnP can map: a private IPv4
    /// address with a TCP or UDP port (loopback, IPv6 and circuits cannot).
    fn of(local_addr: &Multiaddr) -> Option<Mapping> {
        let mut parts = local_addr.iter();
        let Some(Protocol::Ip4(ip)) = parts.next() else {
            return None;
        };
        if !ip.is_private() {
            return None;
        }
        let (protocol, port) = match parts.next() {
            Some(Protocol::Tcp(port)) => (PortMappingProtocol::TCP, port),
            Some(Protocol::Udp(port)) => (PortMappingProtocol::UDP, port),
            _ => return None,
        };
        (port != 0).then(|| Mapping {
            local_addr: local_addr.clone(),
            internal: SocketAddrV4::new(ip, port),
            protocol,
        })
    }

    fn key(&self) -> (PortMappingProtocol, u16) {
        (self.protocol, self.internal.port())
    }

    /// Where the internet reaches this mapping through a router whose
    /// public address is `public`: the same port, since we ask for it.
    fn external_addr(&self, public: IpAddr) -> Multiaddr {
        let ip = match public {
            IpAddr::V4(ip) => Protocol::Ip4(ip),
            IpAddr::V6(ip) => Protocol::Ip6(ip),
        };
        self.local_addr
            .replace(0, |_| Some(ip))
            .unwrap_or_else(|| self.local_addr.clone())
    }
}

/// Whether a router whose public address is `public` is reached from the
/// internet, by the rule the tickets use.
fn routable(public: IpAddr) -> bool {
    Reach::of(&Multiaddr::from(public)) == Reach::Internet
}

enum Command {
    Map(Mapping),
    Unmap(Mapping),
}

/// Asks the home router to forward a public port to each of our private
/// listen addresses; see the module notes for why not libp2p's.
pub struct Behaviour {
    commands: mpsc::UnboundedSender<Command>,
    answers: mpsc::UnboundedReceiver<Event>,
    /// Ports asked for, so a second listen address on one port (0.0.0.0
    /// expands to several) is not mapped twice.
    asked: HashSet<(PortMappingProtocol, u16)>,
    pending: VecDeque<ToSwarm<Event, Infallible>>,
}

impl Behaviour {
    /// Start searching for the router (on the current tokio runtime).
    pub fn new() -> Behaviour {
        let (commands, inbox) = mpsc::unbounded();
        let (outbox, answers) = mpsc::unbounded();
        tokio::spawn(serve(inbox, outbox));
        Behaviour {
            commands,
            answers,
            asked: HashSet::new(),
            pending: VecDeque::new(),
        }
    }
}

impl Default for Behaviour {
    fn default() -> Self {
        Behaviour::new()
    }
}

/// Speak to the router: find it, judge its public address, then map and
/// unmap as told and renew what is mapped, until the behaviour is gone.
async fn serve(mut inbox: mpsc::UnboundedReceiver<Command>, outbox: mpsc::UnboundedSender<Event>) {
    let gateway = match igd_next::aio::tokio::search_gateway(Default::default()).await {
        Ok(gateway) => gateway,
        Err(_) => {
            let _ = outbox.unbounded_send(Event::GatewayNotFound);
            return;
        }
    };
    let public = match gateway.get_external_ip().await {
        Ok(ip) => ip,
        Err(_) => {
            let _ = outbox.unbounded_send(Event::GatewayNotFound);
            return;
        }
    };
    if !routable(public) {
        let _ = outbox.unbounded_send(Event::NonRoutableGateway);
        return;
    }
    let lease = u32::try_from(LEASE.as_secs()).unwrap_or(u32::MAX);
    let add = |m: Mapping| {
        let gateway = gateway.clone();
        async move {
            gateway
                .add_port(
                    m.protocol,
                    m.internal.port(),
                    SocketAddr::V4(m.internal),
                    lease,
                    DESCRIPTION,
                )
                .await
        }
    };
    let mut mapped: Vec<Mapping> = Vec::new();
    let mut renew = tokio::time::interval_at(tokio::time::Instant::now() + LEASE / 2, LEASE / 2);
    loop {
        tokio::select! {
            command = inbox.next() => match command {
                Some(Command::Map(m)) => {
                    let event = match add(m.clone()).await {
                        Ok(()) => {
                            mapped.push(m.clone());
                            Event::NewExternalAddr {
                                external_addr: m.external_addr(public),
                                local_addr: m.local_addr,
                            }
                        }
                        Err(e) => Event::MapRefused { local_addr: m.local_addr, reason: e.to_string() },
                    };
                    let _ = outbox.unbounded_send(event);
                }
                Some(Command::Unmap(m)) => {
                    mapped.retain(|held| held.key() != m.key());
                    let _ = gateway.remove_port(m.protocol, m.internal.port()).await;
                }
                None => {
                    // The node is gone without closing its listeners: its
                    // ports must not stay open behind it.
                    for m in mapped {
                        let _ = gateway.remove_port(m.protocol, m.internal.port()).await;
                    }
                    return;
                }
            },
            _ = renew.tick() => {
                let mut kept = Vec::new();
                for m in mapped {
                    if add(m.clone()).await.is_ok() {
                        kept.push(m);
                    } else {
                        let _ = outbox.unbounded_send(Event::ExpiredExternalAddr {
                            external_addr: m.external_addr(public),
                            local_addr: m.local_addr,
                        });
                    }
                }
                mapped = kept;
            }
        }
    }
}

impl NetworkBehaviour for Behaviour {
    type ConnectionHandler = dummy::ConnectionHandler;
    type ToSwarm = Event;

    fn handle_established_inbound_connection(
        &mut self,
        _: ConnectionId,
        _: PeerId,
        _: &Multiaddr,
        _: &Multiaddr,
    ) -> Result<THandler<Self>, ConnectionDenied> {
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
        Ok(dummy::ConnectionHandler)
    }

    fn on_swarm_event(&mut self, event: FromSwarm<'_>) {
        match event {
            FromSwarm::NewListenAddr(NewListenAddr { addr, .. }) => {
                if let Some(m) = Mapping::of(addr)
                    && self.asked.insert(m.key())
                {
                    let _ = self.commands.unbounded_send(Command::Map(m));
                }
            }
            FromSwarm::ExpiredListenAddr(ExpiredListenAddr { addr, .. }) => {
                if let Some(m) = Mapping::of(addr)
                    && self.asked.remove(&m.key())
                {
                    let _ = self.commands.unbounded_send(Command::Unmap(m));
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

    fn poll(&mut self, cx: &mut Context<'_>) -> Poll<ToSwarm<Event, THandlerInEvent<Self>>> {
        if let Some(next) = self.pending.pop_front() {
            return Poll::Ready(next);
        }
        match self.answers.poll_next_unpin(cx) {
            Poll::Ready(Some(event)) => {
                match &event {
                    Event::NewExternalAddr { external_addr, .. } => self
                        .pending
                        .push_back(ToSwarm::ExternalAddrConfirmed(external_addr.clone())),
                    Event::ExpiredExternalAddr { external_addr, .. } => self
                        .pending
                        .push_back(ToSwarm::ExternalAddrExpired(external_addr.clone())),
                    _ => {}
                }
                Poll::Ready(ToSwarm::GenerateEvent(event))
            }
            Poll::Ready(None) | Poll::Pending => Poll::Pending,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(s: &str) -> Multiaddr {
        s.parse().expect("a valid multiaddr")
    }

    /// A router on the simulated internet's TEST-NET address is one the
    /// internet reaches (libp2p's check refused it), one behind CGNAT or a
    /// private address is not.
    #[test]
    fn a_router_is_judged_by_the_reach_the_peer_uses_everywhere() {
        for (public, reached) in [
            ("198.51.100.12", true),
            ("203.0.113.7", true),
            ("192.0.2.1", true),
            ("8.8.8.8", true),
            ("100.64.0.1", false),
            ("192.168.1.1", false),
            ("10.0.0.1", false),
        ] {
            let ip: IpAddr = public.parse().expect("an ip");
            assert_eq!(routable(ip), reached, "{public}");
        }
    }

    #[test]
    fn only_private_ipv4_ports_are_mapped_to_the_same_public_port() {
        let m = Mapping::of(&addr("/ip4/10.2.0.2/tcp/4001")).expect("mappable");
        assert_eq!(m.key(), (PortMappingProtocol::TCP, 4001));
        assert_eq!(
            m.external_addr("198.51.100.12".parse().expect("an ip")),
            addr("/ip4/198.51.100.12/tcp/4001")
        );
        let quic = Mapping::of(&addr("/ip4/192.168.1.5/udp/4001/quic-v1")).expect("mappable");
        assert_eq!(quic.key(), (PortMappingProtocol::UDP, 4001));
        for unmappable in [
            "/ip4/127.0.0.1/tcp/4001",
            "/ip4/198.51.100.12/tcp/4001",
            "/ip4/100.64.0.2/tcp/4001",
            "/ip6/fd00::1/tcp/4001",
            "/ip4/10.2.0.2/tcp/0",
        ] {
            assert_eq!(Mapping::of(&addr(unmappable)), None, "{unmappable}");
        }
    }
}
