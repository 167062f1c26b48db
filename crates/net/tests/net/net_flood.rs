//! Outsiders flooding the lobby topic over real libp2p on 127.0.0.1
//! (issue 12, finding 11): two identities publish valid, signed
//! announcements of their own tables at the host of a game, each just
//! under the per-hop budget, from before the joiners come until the game
//! ends. The host once forwarded about 800 a second to the seats, which
//! rate-limited by the relaying hop, struck the host and banned it; a
//! 2-seat game then ended with two valid transcripts with opposite winners.
//! Now a seat is never struck for what it relays: every peer finishes the
//! one game with one result, and no seat's peer is banned.

use std::path::Path;
use std::time::Duration;

use futures::StreamExt;
use libp2p::gossipsub::IdentTopic;
use libp2p::swarm::SwarmEvent;
use libp2p::{Multiaddr, PeerId, Swarm};
use roundtable_bots::RandomBot;
use roundtable_net::identity::{keypair_of, peer_id_of};
use roundtable_net::swarm::{Behaviour, SwarmOptions, build_swarm};
use roundtable_net::wire::{LOBBY_TOPIC, encode};
use roundtable_net::{
    Announce, Controller, DataDir, GameHandle, LobbyInfo, NetEvent, NodeConfig, Outcome, Role,
    Ticket, Timing, spawn,
};
use roundtable_port_royal::{Options, PortRoyal};
use roundtable_table::Identity;
use tokio::sync::watch;

fn config(dir: &Path, i: usize) -> NodeConfig {
    let mut c = NodeConfig::new(DataDir::new(dir.join(i.to_string())), format!("p{i}"));
    c.listen = vec!["/ip4/127.0.0.1/tcp/0".parse().unwrap()];
    c.mdns = false;
    c.timing = Timing {
        bot_delay: Duration::from_millis(10),
        sync_interval: Duration::from_millis(300),
        redial: Duration::from_millis(500),
        ..Timing::default()
    };
    c
}

fn bot(seed: u64) -> Controller<PortRoyal> {
    Controller::Bot(Box::new(RandomBot::new(seed)))
}

/// An outsider's announcement of its own table: valid in every respect
/// (signed by the key its terms and its ticket name).
fn announcement(outsider: &Identity, counter: u64) -> Vec<u8> {
    let info = LobbyInfo {
        protocol: 1,
        game: "port-royal".into(),
        options: Vec::new(),
        seats: 2,
        host: outsider.public(),
        host_name: "outsider".into(),
        stall_timeout_ms: 30_000,
        nonce: [9; 32],
    };
    let ticket = Ticket {
        lobby: info.id(),
        game: info.game.clone(),
        host: outsider.public(),
        addrs: Vec::new(),
    };
    encode(&Announce::sign(info, 0, ticket.encode(), counter, outsider))
}

/// One outsider: dials `host`, subscribes to the lobby topic and publishes
/// 4 announcements every 10 ms (just under the 400 a second a hop may
/// send) until `stop` turns true. Returns how many were published.
async fn flood(secret: u8, host: Multiaddr, mut stop: watch::Receiver<bool>) -> u64 {
    let outsider = Identity::from_secret([secret; 32]);
    let mut swarm: Swarm<Behaviour> =
        build_swarm(keypair_of(&outsider).unwrap(), &SwarmOptions::default()).unwrap();
    let topic = IdentTopic::new(LOBBY_TOPIC);
    swarm.behaviour_mut().gossipsub.subscribe(&topic).unwrap();
    swarm.dial(host).unwrap();
    let mut counter = 0u64;
    let mut published = 0u64;
    let mut tick = tokio::time::interval(Duration::from_millis(10));
    loop {
        tokio::select! {
            _ = stop.changed() => return published,
            _ = tick.tick() => {
                for _ in 0..4 {
                    counter += 1;
                    let bytes = announcement(&outsider, counter);
                    if swarm.behaviour_mut().gossipsub.publish(topic.clone(), bytes).is_ok() {
                        published += 1;
                    }
                }
            }
            event = swarm.select_next_some() => {
                if let SwarmEvent::OutgoingConnectionError { .. } = event {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        }
    }
}

/// A peer's outcome and the peers it banned (from its notes).
async fn finish(handle: GameHandle<PortRoyal>) -> (Outcome, Vec<String>) {
    let (mut events, handle) = handle.split();
    let mut banned = Vec::new();
    while let Some(event) = events.recv().await {
        if let NetEvent::Note(note) = event
            && let Some(rest) = note.strip_prefix("banning peer ")
        {
            banned.push(rest.split(':').next().unwrap_or(rest).to_owned());
        }
    }
    (handle.outcome().await.unwrap(), banned)
}

async fn outsiders_flood_a_game_of(seats: usize) {
    let dir = tempfile::tempdir().unwrap();
    let mut host = spawn::<PortRoyal>(
        config(dir.path(), 0),
        Role::Host {
            seats: seats as u8,
            options: Options::default(),
            stall_timeout_ms: 30_000,
        },
        bot(1),
    )
    .unwrap();
    let mut host_addr = None;
    let ticket = loop {
        match host.next_event().await {
            Some(NetEvent::Listening(a)) => host_addr = Some(a),
            Some(NetEvent::Ticket(t)) => break t,
            Some(_) => {}
            None => panic!("the host stopped"),
        }
    };
    let host_addr = host_addr.expect("the host listens");

    // The flood starts before anyone joins and lasts until every seat is
    // done: the lobby and the whole game run under it.
    let (stop, stopped) = watch::channel(false);
    let outsiders: Vec<_> = [201u8, 202]
        .into_iter()
        .map(|secret| tokio::spawn(flood(secret, host_addr.clone(), stopped.clone())))
        .collect();
    tokio::time::sleep(Duration::from_millis(500)).await;

    let mut handles = vec![host];
    for i in 1..seats {
        handles.push(
            spawn::<PortRoyal>(
                config(dir.path(), i),
                Role::Join {
                    ticket: ticket.clone(),
                },
                bot(i as u64 + 1),
            )
            .unwrap(),
        );
    }
    let seat_peers: Vec<String> = (0..seats)
        .map(|i| {
            let identity = DataDir::new(dir.path().join(i.to_string()))
                .identity()
                .unwrap();
            let peer: PeerId = peer_id_of(&identity.public()).unwrap();
            peer.to_string()
        })
        .collect();
    let tasks: Vec<_> = handles
        .into_iter()
        .map(|h| tokio::spawn(finish(h)))
        .collect();
    let mut results = Vec::new();
    for t in tasks {
        results.push(
            tokio::time::timeout(Duration::from_secs(120), t)
                .await
                .expect("every peer finishes under the flood")
                .unwrap(),
        );
    }
    stop.send(true).unwrap();
    let mut published = 0;
    for o in outsiders {
        published += o.await.unwrap();
    }
    // Far over a host's budget of 2 a second each, the outsiders are struck
    // by the host (they are the hop and the author) and banned long before
    // they could publish the hundreds a second they try; the seats forward
    // nothing of it and are never banned.
    assert!(
        published >= 20,
        "the outsiders published only {published} announcements"
    );
    for secret in [201u8, 202] {
        let outsider = peer_id_of(&Identity::from_secret([secret; 32]).public())
            .unwrap()
            .to_string();
        assert!(
            results[0].1.contains(&outsider),
            "the host did not ban outsider {outsider} (banned: {:?})",
            results[0].1
        );
    }

    for (outcome, banned) in &results {
        for peer in banned {
            assert!(
                !seat_peers.contains(peer),
                "a seat's peer was banned: {peer} (banned: {banned:?})"
            );
        }
        assert!(
            outcome.result.is_some(),
            "a peer did not finish: {outcome:?}"
        );
    }
    let files: Vec<Vec<u8>> = results
        .iter()
        .map(|(o, _)| std::fs::read(o.transcript.as_ref().unwrap()).unwrap())
        .collect();
    assert!(
        files.windows(2).all(|w| w[0] == w[1]),
        "the peers' transcripts differ"
    );
    let read =
        roundtable_table::transcript::read(results[0].0.transcript.as_ref().unwrap()).unwrap();
    let report = roundtable_table::audit::audit::<PortRoyal>(&read.frames).unwrap();
    assert!(report.is_valid(), "{:?}", report.problems);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn outsiders_flooding_announcements_cannot_get_a_seat_of_two_banned() {
    outsiders_flood_a_game_of(2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn outsiders_flooding_announcements_cannot_get_a_seat_of_three_banned() {
    outsiders_flood_a_game_of(3).await;
}
