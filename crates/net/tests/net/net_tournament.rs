//! A tournament node (SPEC 6.2) over libp2p on 127.0.0.1, against a peer
//! that is not a registered player and a player that floods it. The node
//! used to live in the binary without any of the net crate's bounds: it
//! read a request of up to 4 MiB from any peer before refusing an
//! unregistered key, and answered requests at any rate for ever.

use std::time::Duration;

use futures::StreamExt;
use libp2p::request_response::{self, OutboundFailure};
use libp2p::swarm::SwarmEvent;
use libp2p::{Multiaddr, PeerId, Swarm};
use roundtable_net::identity::peer_id_of;
use roundtable_net::tournament::{
    NodeEvent, PlayerBehaviour, PlayerBehaviourEvent, TourNode, player_swarm,
};
use roundtable_table::Identity;
use roundtable_tournament::protocol::MAX_REQUEST_BYTES;
use roundtable_tournament::{TourRequest, TourResponse};
use tokio::sync::mpsc;

/// Generous bound for anything that must happen (never an assertion on
/// how fast).
const LIMIT: Duration = Duration::from_secs(60);

fn peer(identity: &Identity) -> PeerId {
    peer_id_of(&identity.public()).unwrap()
}

/// A node serving `players`, run on its own task: it answers every
/// request it hands out `Ok` and reports what it handed out.
async fn node(players: &[&Identity]) -> (Multiaddr, PeerId, mpsc::UnboundedReceiver<NodeEvent>) {
    let mut node = TourNode::new(
        &Identity::from_secret([1; 32]),
        players.iter().map(|p| peer(p)),
    )
    .unwrap();
    node.listen_on("/ip4/127.0.0.1/tcp/0".parse().unwrap())
        .unwrap();
    let me = node.peer_id();
    let addr = match tokio::time::timeout(LIMIT, node.next_event()).await {
        Ok(NodeEvent::Listening(addr)) => addr,
        other => panic!("the node did not listen: {other:?}"),
    };
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        loop {
            let event = node.next_event().await;
            if let NodeEvent::Request { channel, .. } = event {
                node.respond(channel, TourResponse::Ok);
                let _ = tx.send(NodeEvent::Note("answered a request".into()));
            } else {
                let _ = tx.send(event);
            }
        }
    });
    (addr, me, rx)
}

fn client(identity: &Identity, node: PeerId, addr: &Multiaddr) -> Swarm<PlayerBehaviour> {
    let mut swarm = player_swarm(identity).unwrap();
    swarm.add_peer_address(node, addr.clone());
    swarm
}

/// Send `request` and wait for its answer or failure.
async fn ask(
    swarm: &mut Swarm<PlayerBehaviour>,
    node: PeerId,
    request: TourRequest,
) -> Result<TourResponse, OutboundFailure> {
    tokio::time::timeout(LIMIT, roundtable_net::tournament::ask(swarm, node, request))
        .await
        .expect("a request is answered or fails")
}

fn arrive() -> TourRequest {
    TourRequest::Arrive { round_id: [3; 32] }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_peer_that_is_not_a_registered_player_gets_no_request_read() {
    let player = Identity::from_secret([2; 32]);
    let stranger = Identity::from_secret([9; 32]);
    let (addr, node_id, mut events) = node(&[&player]).await;

    // The largest request a frame may carry: the old node read all of it
    // and only then refused the key.
    let mut swarm = client(&stranger, node_id, &addr);
    let big = TourRequest::Result {
        round_id: [3; 32],
        table: 1,
        transcript: vec![0x52; MAX_REQUEST_BYTES - 64],
    };
    let refused = ask(&mut swarm, node_id, big).await;
    assert!(
        refused.is_err(),
        "a stranger's request was answered: {refused:?}"
    );
    assert!(
        ask(&mut swarm, node_id, arrive()).await.is_err(),
        "a stranger's small request was answered"
    );

    // The registered player is served.
    let mut swarm = client(&player, node_id, &addr);
    assert_eq!(
        ask(&mut swarm, node_id, arrive()).await.ok(),
        Some(TourResponse::Ok)
    );
    // Exactly one request reached the node's owner: the player's.
    let mut answered = 0;
    while let Ok(event) = events.try_recv() {
        if matches!(&event, NodeEvent::Note(n) if n == "answered a request") {
            answered += 1;
        }
    }
    assert_eq!(answered, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_that_floods_the_node_is_refused_then_banned() {
    let player = Identity::from_secret([2; 32]);
    let (addr, node_id, mut events) = node(&[&player]).await;
    let mut swarm = client(&player, node_id, &addr);
    assert_eq!(
        ask(&mut swarm, node_id, arrive()).await.ok(),
        Some(TourResponse::Ok)
    );
    // Far more requests than the request rate allows (50 a second, bursts
    // of 100, SPEC 4.3): those beyond it are refused and struck, and 20
    // strikes ban the player.
    // At most 32 in flight: a libp2p connection drops streams beyond its
    // limit before they are read, and each of these must reach the node.
    const FLOOD: usize = 400;
    const IN_FLIGHT: usize = 32;
    let mut sent = 0;
    while sent < IN_FLIGHT {
        swarm
            .behaviour_mut()
            .tour
            .send_request(&node_id, Ok(arrive()));
        sent += 1;
    }
    let (mut settled, mut answered) = (0, 0);
    let flood = async {
        while settled < FLOOD {
            match swarm.select_next_some().await {
                SwarmEvent::Behaviour(PlayerBehaviourEvent::Tour(
                    request_response::Event::Message {
                        message: request_response::Message::Response { response, .. },
                        ..
                    },
                )) => {
                    settled += 1;
                    match response {
                        TourResponse::Ok => answered += 1,
                        TourResponse::Refused { reason } => {
                            assert_eq!(reason, "too many requests")
                        }
                        other => panic!("{other:?}"),
                    }
                }
                SwarmEvent::Behaviour(PlayerBehaviourEvent::Tour(
                    request_response::Event::OutboundFailure { .. },
                )) => settled += 1,
                _ => continue,
            }
            if sent < FLOOD {
                swarm
                    .behaviour_mut()
                    .tour
                    .send_request(&node_id, Ok(arrive()));
                sent += 1;
            }
        }
    };
    tokio::time::timeout(LIMIT, flood)
        .await
        .expect("each request is answered or fails");
    // Those beyond the rate were refused, or lost when the ban closed the
    // connection.
    assert!(
        answered < FLOOD,
        "all {FLOOD} requests were answered: no rate"
    );
    let banned = async {
        loop {
            if let Some(NodeEvent::Note(n)) = events.recv().await
                && n.starts_with("banning player")
            {
                return n;
            }
        }
    };
    let note = tokio::time::timeout(LIMIT, banned)
        .await
        .expect("the node bans the flooding player");
    assert!(note.contains(&peer(&player).to_string()), "{note}");
    // Banned: not let in again.
    assert!(ask(&mut swarm, node_id, arrive()).await.is_err());
}
