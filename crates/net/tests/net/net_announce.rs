//! LAN listings over real libp2p on 127.0.0.1 (issue 12, finding 7): a
//! forger on the lobby topic lists "alice's table" — alice's key with its
//! own ticket, or its own key with alice's ticket, or a ticket for another
//! lobby than the terms it shows, or its own table under a name with
//! terminal escapes. Every listing must be signed by the host its terms and
//! its ticket name, for the lobby its terms hash to, and names have no
//! control characters; the forgeries are dropped and alice's real table is
//! listed as she announced it.

use std::time::Duration;

use futures::StreamExt;
use libp2p::gossipsub::{self, IdentTopic};
use libp2p::swarm::SwarmEvent;
use roundtable_bots::RandomBot;
use roundtable_net::discover::discover_tables;
use roundtable_net::identity::keypair_of;
use roundtable_net::swarm::{BehaviourEvent, SwarmOptions, build_swarm};
use roundtable_net::wire::{LOBBY_TOPIC, encode};
use roundtable_net::{
    Announce, Controller, DataDir, LobbyInfo, NetEvent, NodeConfig, Role, Ticket, spawn,
};
use roundtable_port_royal::{Options, PortRoyal};
use roundtable_table::Identity;
use tokio::sync::watch;

/// Terms for a table of `host`, shown under `name`.
fn terms(host: &Identity, name: &str, nonce: u8) -> LobbyInfo {
    LobbyInfo {
        protocol: 1,
        game: "port-royal".into(),
        options: Vec::new(),
        seats: 2,
        host: host.public(),
        host_name: name.into(),
        stall_timeout_ms: 30_000,
        nonce: [nonce; 32],
    }
}

/// The forger's four listings of "alice's table", all signed by the forger.
fn forgeries(forger: &Identity, alice: &Ticket, counter: u64) -> Vec<Vec<u8>> {
    let own_ticket = |info: &LobbyInfo| Ticket {
        lobby: info.id(),
        game: info.game.clone(),
        host: forger.public(),
        addrs: Vec::new(),
    };
    // Alice's key in the terms, the forger's ticket.
    let mut alices_key = terms(forger, "alice", 1);
    alices_key.host = alice.host;
    let forger_ticket = own_ticket(&alices_key).encode();
    // The forger's key in the terms, alice's ticket.
    let with_alices_ticket = terms(forger, "alice", 2);
    // The forger's own ticket, for another lobby than the terms shown.
    let other_lobby = terms(forger, "alice", 3);
    let mut stale = own_ticket(&other_lobby);
    stale.lobby = terms(forger, "alice", 4).id();
    // The forger's own table, validly signed, under a name that would
    // clear the screen of whoever lists it.
    let escapes = terms(forger, "alice\u{1b}[2J\u{1b}[H", 5);
    let escapes_ticket = own_ticket(&escapes).encode();
    vec![
        encode(&Announce::sign(escapes, 1, escapes_ticket, counter, forger)),
        encode(&Announce::sign(
            alices_key,
            1,
            forger_ticket,
            counter,
            forger,
        )),
        encode(&Announce::sign(
            with_alices_ticket,
            1,
            alice.encode(),
            counter,
            forger,
        )),
        encode(&Announce::sign(
            other_lobby,
            1,
            stale.encode(),
            counter,
            forger,
        )),
    ]
}

/// The forger: listens, and publishes its forgeries every 100 ms to
/// whoever subscribed to the lobby topic, until `stop`.
async fn forge(
    alice: Ticket,
    listening: tokio::sync::oneshot::Sender<libp2p::Multiaddr>,
    mut stop: watch::Receiver<bool>,
) -> u64 {
    let forger = Identity::from_secret([66; 32]);
    let mut swarm = build_swarm(keypair_of(&forger).unwrap(), &SwarmOptions::default()).unwrap();
    swarm
        .listen_on("/ip4/127.0.0.1/tcp/0".parse().unwrap())
        .unwrap();
    let topic = IdentTopic::new(LOBBY_TOPIC);
    swarm.behaviour_mut().gossipsub.subscribe(&topic).unwrap();
    let mut listening = Some(listening);
    let mut tick = tokio::time::interval(Duration::from_millis(100));
    let mut counter = 0;
    let mut published = 0;
    loop {
        tokio::select! {
            _ = stop.changed() => return published,
            _ = tick.tick() => {
                counter += 1;
                for bytes in forgeries(&forger, &alice, counter) {
                    if swarm.behaviour_mut().gossipsub.publish(topic.clone(), bytes).is_ok() {
                        published += 1;
                    }
                }
            }
            event = swarm.select_next_some() => match event {
                SwarmEvent::NewListenAddr { address, .. } => {
                    if let Some(tx) = listening.take() {
                        let _ = tx.send(address);
                    }
                }
                SwarmEvent::Behaviour(BehaviourEvent::Gossipsub(gossipsub::Event::Message {
                    propagation_source, message_id, ..
                })) => {
                    let _ = swarm.behaviour_mut().gossipsub.report_message_validation_result(
                        &message_id, &propagation_source, gossipsub::MessageAcceptance::Ignore,
                    );
                }
                _ => {}
            },
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_listing_of_alices_table_is_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = NodeConfig::new(DataDir::new(dir.path().join("alice")), "alice");
    config.listen = vec!["/ip4/127.0.0.1/tcp/0".parse().unwrap()];
    config.mdns = false;
    let mut alice = spawn::<PortRoyal>(
        config,
        Role::Host {
            seats: 2,
            options: Options::default(),
            stall_timeout_ms: 30_000,
        },
        Controller::Bot(Box::new(RandomBot::new(1))),
    )
    .unwrap();
    let ticket = loop {
        match alice.next_event().await {
            Some(NetEvent::Ticket(t)) => break t,
            Some(_) => {}
            None => panic!("alice's host stopped"),
        }
    };
    let (stop, stopped) = watch::channel(false);
    let (listening, forger_addr) = tokio::sync::oneshot::channel();
    let forger = tokio::spawn(forge(ticket.clone(), listening, stopped));
    let forger_addr = forger_addr.await.unwrap();

    let looker = Identity::from_secret([67; 32]);
    let tables = discover_tables(
        &looker,
        vec!["/ip4/127.0.0.1/tcp/0".parse().unwrap()],
        vec![ticket.addrs[0].clone(), forger_addr],
        false,
        Duration::from_secs(4),
    )
    .await
    .unwrap();
    stop.send(true).unwrap();
    let published = forger.await.unwrap();
    assert!(published >= 3, "the forger published {published} listings");
    assert_eq!(
        tables.len(),
        1,
        "listed: {:?}",
        tables
            .iter()
            .map(|t| (&t.info.host_name, &t.ticket))
            .collect::<Vec<_>>()
    );
    assert_eq!(tables[0].ticket, ticket.encode(), "alice's listing");
    assert_eq!(tables[0].info.id(), ticket.lobby);
    alice.shutdown();
}
