//! Gossip limits over real libp2p on 127.0.0.1 (SPEC 4.2): the largest
//! payload the spec allows is delivered, with the swarms and the gossipsub
//! configuration the peers use.

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
    let topic = IdentTopic::new("rt/t1/00112233445566778899aabbccddeeff");
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
        .expect("every payload of at most 17 KiB arrives");
    assert_eq!(got, payloads);
}
