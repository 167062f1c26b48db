//! A table relay (SPEC 4.9) serves its own table's peers only: a peer at
//! the table gets a slot and a circuit to another table peer, a peer that
//! is not at the table gets neither, over the real behaviour every
//! roundtable peer runs.

use std::time::Duration;

use futures::StreamExt;
use libp2p::multiaddr::Protocol;
use libp2p::swarm::SwarmEvent;
use libp2p::{Multiaddr, Swarm, relay};
use roundtable_net::swarm::{Behaviour, BehaviourEvent, SwarmOptions, TablePeers, build_swarm};

fn peer() -> Swarm<Behaviour> {
    build_swarm(
        libp2p::identity::Keypair::generate_ed25519(),
        &SwarmOptions::default(),
    )
    .unwrap()
}

/// Everything the test waits for, from whichever swarm reports it.
#[derive(Default, Debug)]
struct Seen {
    seat_reserved: bool,
    outsider_refused_a_slot: bool,
    outsider_listener_closed: bool,
    seat_reached_seat: bool,
    outsider_refused_a_circuit: bool,
    outsider_dial_failed: bool,
}

impl Seen {
    fn all(&self) -> bool {
        self.seat_reserved
            && self.outsider_refused_a_slot
            && self.outsider_listener_closed
            && self.seat_reached_seat
            && self.outsider_refused_a_circuit
            && self.outsider_dial_failed
    }
}

#[tokio::test]
async fn a_table_relay_refuses_a_peer_that_is_not_at_its_table() {
    let table = TablePeers::default();
    let mut host = build_swarm(
        libp2p::identity::Keypair::generate_ed25519(),
        &SwarmOptions {
            table_peers: table.clone(),
            ..SwarmOptions::default()
        },
    )
    .unwrap();
    let (mut seat, mut other_seat, mut outsider) = (peer(), peer(), peer());
    let host_id = *host.local_peer_id();
    let (seat_id, other_id, outsider_id) = (
        *seat.local_peer_id(),
        *other_seat.local_peer_id(),
        *outsider.local_peer_id(),
    );
    table.set([seat_id, other_id]);

    host.listen_on("/ip4/127.0.0.1/tcp/0".parse().unwrap())
        .unwrap();
    let host_addr = loop {
        if let SwarmEvent::NewListenAddr { address, .. } = host.select_next_some().await {
            break address;
        }
    };
    // What AutoNAT or UPnP would confirm on the internet; the node serves
    // its table relay once such an address is confirmed.
    host.add_external_address(host_addr.clone());
    host.behaviour_mut()
        .table_relay
        .set_status(Some(relay::Status::Enable));
    let circuit = host_addr
        .with(Protocol::P2p(host_id))
        .with(Protocol::P2pCircuit);
    seat.listen_on(circuit.clone()).unwrap();
    outsider.listen_on(circuit.clone()).unwrap();
    let to_seat: Multiaddr = circuit.clone().with(Protocol::P2p(seat_id));

    let mut seen = Seen::default();
    let mut dialled = false;
    let run = async {
        while !seen.all() {
            tokio::select! {
                event = host.select_next_some() => match event {
                    SwarmEvent::Behaviour(BehaviourEvent::TableRelay(
                        relay::Event::ReservationReqDenied { src_peer_id, .. },
                    )) => {
                        assert_eq!(src_peer_id, outsider_id, "only the outsider is refused a slot");
                        seen.outsider_refused_a_slot = true;
                    }
                    SwarmEvent::Behaviour(BehaviourEvent::TableRelay(
                        relay::Event::CircuitReqDenied { src_peer_id, dst_peer_id, .. },
                    )) => {
                        assert_eq!((src_peer_id, dst_peer_id), (outsider_id, seat_id));
                        seen.outsider_refused_a_circuit = true;
                    }
                    _ => {}
                },
                event = seat.select_next_some() => {
                    if let SwarmEvent::Behaviour(BehaviourEvent::RelayClient(
                        relay::client::Event::ReservationReqAccepted { .. },
                    )) = event
                        && !dialled
                    {
                        seen.seat_reserved = true;
                        dialled = true;
                        other_seat.dial(to_seat.clone()).unwrap();
                        outsider.dial(to_seat.clone()).unwrap();
                    }
                },
                event = other_seat.select_next_some() => {
                    if let SwarmEvent::ConnectionEstablished { peer_id, endpoint, .. } = event
                        && peer_id == seat_id
                    {
                        assert!(endpoint.is_relayed(), "the seats meet through the table relay");
                        seen.seat_reached_seat = true;
                    }
                },
                event = outsider.select_next_some() => match event {
                    SwarmEvent::ListenerClosed { reason: Err(e), .. } => {
                        // What the node tells the player (issue 30): a
                        // refusal, in the relay's words, not a lost slot.
                        assert_eq!(
                            roundtable_net::relay::refused_reservation(&e),
                            Some("the relay is full"),
                            "the outsider's listener closed with {e}"
                        );
                        seen.outsider_listener_closed = true;
                    }
                    SwarmEvent::OutgoingConnectionError { peer_id: Some(p), .. } if p == seat_id => {
                        seen.outsider_dial_failed = true;
                    }
                    SwarmEvent::ConnectionEstablished { peer_id, .. } => {
                        assert_ne!(peer_id, seat_id, "the outsider was relayed to a seat");
                    }
                    _ => {}
                },
            }
        }
    };
    let finished = tokio::time::timeout(Duration::from_secs(30), run).await;
    assert!(finished.is_ok(), "not everything happened: {seen:?}");
}
