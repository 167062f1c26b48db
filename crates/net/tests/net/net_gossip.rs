//! Gossip limits over real libp2p on 127.0.0.1 (SPEC 4.2): the largest
//! payload the spec allows is delivered, with the swarms and the gossipsub
//! configuration the peers use; a peer that signs its gossipsub messages
//! where they are anonymous loses score; a peer's flood of subscriptions is
//! not followed.

use std::time::Duration;

use futures::StreamExt;
use libp2p::gossipsub::{self, IdentTopic};
use libp2p::swarm::SwarmEvent;
use libp2p::{Multiaddr, Swarm};
use roundtable_net::swarm::{
    Behaviour, BehaviourEvent, MAX_GOSSIP_BYTES, SwarmOptions, build_swarm,
};
use roundtable_table::Identity;

fn swarm(secret: u8) -> Swarm<Behaviour> {
    let identity = Identity::from_secret([secret; 32]);
    let key = roundtable_net::identity::keypair_of(&identity).unwrap();
    build_swarm(key, &SwarmOptions::default()).unwrap()
}

/// Drive both swarms until `b` receives a message on `topic`; `a`
/// publishes `payloads` one after the other once `b` has subscribed.
async fn deliver(payloads: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
    let topic = IdentTopic::new("t2/0011223344556677");
    let mut a = swarm(41);
    let mut b = swarm(42);
    b.listen_on("/ip4/127.0.0.1/tcp/0".parse().unwrap())
        .unwrap();
    a.behaviour_mut().gossipsub.subscribe(&topic).unwrap();
    b.behaviour_mut().gossipsub.subscribe(&topic).unwrap();
    let mut queue = payloads.clone();
    queue.reverse();
    let mut got = Vec::new();
    let mut b_subscribed = false;
    let mut dialled = false;
    loop {
        tokio::select! {
            event = a.select_next_some() => {
                if let SwarmEvent::Behaviour(BehaviourEvent::Gossipsub(
                    gossipsub::Event::Subscribed { .. },
                )) = event
                {
                    b_subscribed = true;
                }
            }
            event = b.select_next_some() => match event {
                SwarmEvent::NewListenAddr { address, .. } if !dialled => {
                    dialled = true;
                    let addr: Multiaddr = address;
                    a.dial(addr).unwrap();
                }
                SwarmEvent::Behaviour(BehaviourEvent::Gossipsub(gossipsub::Event::Message {
                    propagation_source,
                    message_id,
                    message,
                })) => {
                    let _ = b.behaviour_mut().gossipsub.report_message_validation_result(
                        &message_id,
                        &propagation_source,
                        gossipsub::MessageAcceptance::Accept,
                    );
                    got.push(message.data);
                    if got.len() == payloads.len() {
                        return got;
                    }
                }
                _ => {}
            },
        }
        if b_subscribed && let Some(p) = queue.pop() {
            a.behaviour_mut()
                .gossipsub
                .publish(topic.clone(), p)
                .expect("a payload within the spec's limit is published");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_largest_gossip_payload_is_delivered() {
    // The largest payload, then two more right behind it: a reader that
    // checks more than one frame against the limit would drop the stream.
    let payloads = vec![
        vec![1u8; MAX_GOSSIP_BYTES],
        vec![2u8; MAX_GOSSIP_BYTES - 1],
        vec![3u8; 16 * 1024],
    ];
    let got = tokio::time::timeout(Duration::from_secs(30), deliver(payloads.clone()))
        .await
        .expect("every payload of at most MAX_GOSSIP_BYTES arrives");
    assert_eq!(got, payloads);
}

/// A peer built the way a careless or hostile implementation might be:
/// gossipsub alone, with default settings, signing its messages if
/// `signed`.
fn gossip_only_swarm(secret: u8, signed: bool) -> Swarm<gossipsub::Behaviour> {
    let identity = Identity::from_secret([secret; 32]);
    let key = roundtable_net::identity::keypair_of(&identity).unwrap();
    libp2p::SwarmBuilder::with_existing_identity(key)
        .with_tokio()
        .with_tcp(
            libp2p::tcp::Config::default(),
            libp2p::noise::Config::new,
            libp2p::yamux::Config::default,
        )
        .unwrap()
        .with_behaviour(|key| {
            if signed {
                gossipsub::Behaviour::new(
                    gossipsub::MessageAuthenticity::Signed(key.clone()),
                    gossipsub::Config::default(),
                )
            } else {
                let config = gossipsub::ConfigBuilder::default()
                    .validation_mode(gossipsub::ValidationMode::Anonymous)
                    .build()
                    .unwrap();
                gossipsub::Behaviour::new(gossipsub::MessageAuthenticity::Anonymous, config)
            }
            .unwrap()
        })
        .unwrap()
        .build()
}

/// Drive `victim` (listening) and `other` (dialling it) until `done`
/// holds for the victim; `act` runs on `other` after every event.
async fn drive(
    victim: &mut Swarm<Behaviour>,
    other: &mut Swarm<gossipsub::Behaviour>,
    mut act: impl FnMut(&mut Swarm<gossipsub::Behaviour>, bool),
    done: impl Fn(&Swarm<Behaviour>, &libp2p::PeerId) -> bool,
) {
    victim
        .listen_on("/ip4/127.0.0.1/tcp/0".parse().unwrap())
        .unwrap();
    let other_peer = *other.local_peer_id();
    let mut connected = false;
    let mut tick = tokio::time::interval(Duration::from_millis(5));
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            event = victim.select_next_some() => match event {
                SwarmEvent::NewListenAddr { address, .. } => other.dial(address).unwrap(),
                SwarmEvent::Behaviour(BehaviourEvent::Gossipsub(gossipsub::Event::Message {
                    propagation_source, message_id, ..
                })) => {
                    let _ = victim.behaviour_mut().gossipsub.report_message_validation_result(
                        &message_id, &propagation_source, gossipsub::MessageAcceptance::Accept,
                    );
                }
                _ => {}
            },
            event = other.select_next_some() => {
                if let SwarmEvent::Behaviour(gossipsub::Event::Subscribed { .. }) = event {
                    connected = true;
                }
            }
        }
        act(other, connected);
        if done(victim, &other_peer) {
            return;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signed_gossipsub_messages_cost_their_sender_its_score() {
    let lobby = IdentTopic::new(roundtable_net::wire::LOBBY_TOPIC);
    let mut victim = swarm(43);
    victim.behaviour_mut().gossipsub.subscribe(&lobby).unwrap();
    let mut signer = gossip_only_swarm(44, true);
    signer.behaviour_mut().subscribe(&lobby).unwrap();
    let mut sent = 0u32;
    let scored = tokio::time::timeout(
        Duration::from_secs(30),
        drive(
            &mut victim,
            &mut signer,
            |s, ready| {
                if ready && sent < 50 {
                    sent += 1;
                    let _ = s
                        .behaviour_mut()
                        .publish(lobby.clone(), sent.to_le_bytes().to_vec());
                }
            },
            |v, peer| {
                v.behaviour()
                    .gossipsub
                    .peer_score(peer)
                    .is_some_and(|s| s < 0.0)
            },
        ),
    )
    .await;
    assert!(
        scored.is_ok(),
        "the signer's score stayed {:?} after {sent} signed messages",
        victim
            .behaviour()
            .gossipsub
            .peer_score(signer.local_peer_id())
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_peer_subscribing_to_thousands_of_topics_is_not_followed() {
    let mut victim = swarm(45);
    let mut crowd = gossip_only_swarm(46, false);
    let lobby = IdentTopic::new(roundtable_net::wire::LOBBY_TOPIC);
    victim.behaviour_mut().gossipsub.subscribe(&lobby).unwrap();
    crowd.behaviour_mut().subscribe(&lobby).unwrap();
    // One subscription per RPC once connected (a single RPC of thousands
    // would be over gossipsub's own control size limit).
    let next = std::cell::Cell::new(0u32);
    let result = tokio::time::timeout(
        Duration::from_secs(60),
        drive(
            &mut victim,
            &mut crowd,
            |s, ready| {
                if ready && next.get() < 5000 {
                    for _ in 0..50 {
                        next.set(next.get() + 1);
                        let topic = IdentTopic::new(format!("t2/{:016x}", next.get()));
                        let _ = s.behaviour_mut().subscribe(&topic);
                    }
                }
            },
            |_, _| next.get() >= 5000,
        ),
    )
    .await;
    assert!(result.is_ok(), "the crowd could not subscribe");
    // Let the last subscriptions arrive: the victim keeps running until the
    // crowd's lobby-topic message (sent after them) is delivered.
    crowd
        .behaviour_mut()
        .publish(lobby.clone(), b"last".to_vec())
        .unwrap();
    let crowd_peer = *crowd.local_peer_id();
    tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            tokio::select! {
                event = victim.select_next_some() => {
                    if let SwarmEvent::Behaviour(BehaviourEvent::Gossipsub(
                        gossipsub::Event::Message { .. },
                    )) = event
                    {
                        return;
                    }
                }
                _ = crowd.select_next_some() => {}
            }
        }
    })
    .await
    .expect("the crowd's last message arrives");
    let followed = victim
        .behaviour()
        .gossipsub
        .all_peers()
        .find(|(p, _)| **p == crowd_peer)
        .map_or(0, |(_, topics)| topics.len());
    assert!(
        followed <= roundtable_net::swarm::MAX_PEER_TOPICS,
        "the victim keeps {followed} of the crowd's topics"
    );
}
