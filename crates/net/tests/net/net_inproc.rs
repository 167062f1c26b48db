//! Peers in one process over real libp2p on 127.0.0.1: a partition that
//! heals, and a rogue peer that floods the table topic with garbage.

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use libp2p::Multiaddr;
use libp2p::swarm::SwarmEvent;
use roundtable_bots::RandomBot;
use roundtable_net::swarm::{SwarmOptions, build_swarm};
use roundtable_net::{
    ByteCounter, Controller, DataDir, GameHandle, NetEvent, NodeConfig, Outcome, Role, Timing,
    spawn,
};
use roundtable_port_royal::{Options, PortRoyal};
use roundtable_table::{Body, Envelope, GameId, Hash32, Identity};

fn config(dir: &std::path::Path, i: usize, counter: Arc<ByteCounter>) -> NodeConfig {
    let mut c = NodeConfig::new(DataDir::new(dir.join(i.to_string())), format!("p{i}"));
    c.listen = vec!["/ip4/127.0.0.1/tcp/0".parse().unwrap()];
    c.mdns = false;
    c.counter = Some(counter);
    c.timing = Timing {
        bot_delay: Duration::from_millis(10),
        sync_interval: Duration::from_millis(300),
        redial: Duration::from_millis(500),
        ..Timing::default()
    };
    c
}

/// A host and `joiners` seats, every one a random bot. Returns the handles
/// (host first) and the host's listen address.
async fn table(
    dir: &std::path::Path,
    counters: &[Arc<ByteCounter>],
) -> (Vec<GameHandle<PortRoyal>>, Multiaddr) {
    let mut host = spawn::<PortRoyal>(
        config(dir, 0, counters[0].clone()),
        Role::Host {
            seats: counters.len() as u8,
            options: Options::default(),
            stall_timeout_ms: 30_000,
        },
        Controller::Bot(Box::new(RandomBot::new(1))),
    )
    .unwrap();
    let mut addr = None;
    let ticket = loop {
        match host.next_event().await {
            Some(NetEvent::Listening(a)) => addr = Some(a),
            Some(NetEvent::Ticket(t)) => break t,
            Some(_) => {}
            None => panic!("the host stopped"),
        }
    };
    let mut handles = vec![host];
    for (i, counter) in counters.iter().enumerate().skip(1) {
        handles.push(
            spawn::<PortRoyal>(
                config(dir, i, counter.clone()),
                Role::Join {
                    ticket: ticket.clone(),
                },
                Controller::Bot(Box::new(RandomBot::new(i as u64 + 1))),
            )
            .unwrap(),
        );
    }
    (handles, addr.expect("the host listens"))
}

async fn finish(handles: Vec<GameHandle<PortRoyal>>) -> Vec<Outcome> {
    let mut tasks = Vec::new();
    for h in handles {
        tasks.push(tokio::spawn(async move {
            let (mut events, h) = h.split();
            while events.recv().await.is_some() {}
            h.outcome().await
        }));
    }
    let mut outcomes = Vec::new();
    for t in tasks {
        outcomes.push(t.await.unwrap().unwrap());
    }
    outcomes
}

fn same_transcripts(outcomes: &[Outcome]) {
    let files: Vec<Vec<u8>> = outcomes
        .iter()
        .map(|o| {
            assert!(o.result.is_some(), "a peer did not finish: {o:?}");
            std::fs::read(o.transcript.as_ref().unwrap()).unwrap()
        })
        .collect();
    assert!(files.windows(2).all(|w| w[0] == w[1]), "transcripts differ");
    let read =
        roundtable_table::transcript::read(outcomes[0].transcript.as_ref().unwrap()).unwrap();
    let report = roundtable_table::audit::audit::<PortRoyal>(&read.frames).unwrap();
    assert!(report.is_valid(), "{:?}", report.problems);
}

async fn wait_position(h: &GameHandle<PortRoyal>, position: u64) {
    let mut watch = h.watch();
    tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            if watch.borrow().position >= position {
                return;
            }
            if watch.changed().await.is_err() {
                return;
            }
        }
    })
    .await
    .unwrap_or_else(|_| {
        let s = h.snapshot();
        panic!(
            "the game did not get going: {:?} at {}",
            s.phase, s.position
        )
    });
}

/// Dial `addr` from `swarm`: whether `host` identified itself (it accepted
/// the connection) before the connection ended or failed.
async fn answered_by(
    swarm: &mut libp2p::Swarm<roundtable_net::swarm::Behaviour>,
    addr: Multiaddr,
    host: libp2p::PeerId,
) -> bool {
    swarm.dial(addr).unwrap();
    let deadline = tokio::time::sleep(Duration::from_secs(20));
    tokio::pin!(deadline);
    loop {
        tokio::select! {
            () = &mut deadline => panic!("the dial neither got an answer nor ended"),
            event = swarm.select_next_some() => match event {
                SwarmEvent::Behaviour(roundtable_net::swarm::BehaviourEvent::Identify(
                    libp2p::identify::Event::Received { peer_id, .. },
                )) if peer_id == host => return true,
                SwarmEvent::OutgoingConnectionError { .. }
                | SwarmEvent::ConnectionClosed { num_established: 0, .. } => return false,
                _ => {}
            },
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_partitioned_peer_heals_and_the_game_finishes() {
    let dir = tempfile::tempdir().unwrap();
    let counters: Vec<_> = (0..3).map(|_| ByteCounter::new()).collect();
    let (handles, _) = table(dir.path(), &counters).await;
    wait_position(&handles[2], 30).await;
    // Cut every link of peer 2 (reads and writes fail, redials fail) for
    // three seconds: longer than gossipsub's repair window, shorter than
    // the stall timeout. Catch-up must repair what gossip lost.
    counters[2].set_cut(true);
    let stuck = handles[2].snapshot().position;
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert!(
        handles[2].snapshot().position <= stuck + 2,
        "the cut peer kept playing"
    );
    counters[2].set_cut(false);
    let outcomes = tokio::time::timeout(Duration::from_secs(50), finish(handles))
        .await
        .expect("the game finishes after the partition heals");
    same_transcripts(&outcomes);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rogue_peer_is_refused_banned_and_does_not_disturb_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let counters: Vec<_> = (0..3).map(|_| ByteCounter::new()).collect();
    let (mut handles, host_addr) = table(dir.path(), &counters).await;
    wait_position(&handles[0], 5).await;
    let game_id: GameId = handles[0].snapshot().game_id.unwrap();

    // A peer with no seat subscribes to the table's topic and publishes
    // garbage, oversized junk, and well-formed envelopes signed by its own
    // key for a seat it does not hold.
    let rogue = Identity::from_secret([77; 32]);
    let key = roundtable_net::identity::keypair_of(&rogue).unwrap();
    let mut swarm = build_swarm(key, &SwarmOptions::default()).unwrap();
    swarm
        .listen_on("/ip4/127.0.0.1/tcp/0".parse().unwrap())
        .unwrap();
    swarm.dial(host_addr.clone()).unwrap();
    let topic = roundtable_net::swarm::table_topic(&game_id);
    swarm.behaviour_mut().gossipsub.subscribe(&topic).unwrap();
    let forged = |seq: u64| {
        Envelope {
            game_id,
            seat: 0,
            seq,
            prev: Hash32::default(),
            position: 0,
            state_hash: Hash32::default(),
            body: Body::Resign,
        }
        .sign(&rogue)
        .encode()
    };
    let rogue_peer = *swarm.local_peer_id();
    let banning = format!("banning peer {rogue_peer}");
    let mut sent = 0u64;
    // The host says it bans the rogue's identity, and cuts its connection.
    let mut banned = false;
    let mut cut = false;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    let mut tick = tokio::time::interval(Duration::from_millis(20));
    while tokio::time::Instant::now() < deadline && !(banned && cut) {
        tokio::select! {
            _ = tick.tick(), if !cut => {
                let payload = match sent % 3 {
                    0 => vec![0xff; 64 + sent as usize],
                    1 => forged(sent),
                    _ => vec![sent as u8; 4],
                };
                if swarm.behaviour_mut().gossipsub.publish(topic.clone(), payload).is_ok() {
                    sent += 1;
                }
            }
            event = swarm.select_next_some() => {
                if let SwarmEvent::ConnectionClosed { num_established: 0, .. } = event
                    && sent > 0 {
                        cut = true;
                    }
            }
            Some(event) = handles[0].next_event() => {
                if let NetEvent::Note(note) = event
                    && note.starts_with(&banning) {
                        banned = true;
                    }
            }
        }
    }
    assert!(sent >= 20, "the rogue could publish only {sent} messages");
    assert!(
        banned,
        "the host did not ban the rogue after {sent} bad messages"
    );
    assert!(cut, "the banned rogue is still connected");

    // Banned: it cannot come back. Its redial is refused before any
    // protocol runs (the host never identifies itself to it), while a
    // newcomer's dial to the same address is answered.
    let host_identity = DataDir::new(dir.path().join("0")).identity().unwrap();
    let host_peer = roundtable_net::identity::keypair_of(&host_identity)
        .unwrap()
        .public()
        .to_peer_id();
    let redial = answered_by(&mut swarm, host_addr.clone(), host_peer).await;
    assert!(!redial, "the host answered the banned rogue's redial");
    let newcomer = Identity::from_secret([78; 32]);
    let key = roundtable_net::identity::keypair_of(&newcomer).unwrap();
    let mut newcomer = build_swarm(key, &SwarmOptions::default()).unwrap();
    assert!(
        answered_by(&mut newcomer, host_addr, host_peer).await,
        "the host did not answer a newcomer, so the redial's refusal proves nothing"
    );
    drop((swarm, newcomer));
    let outcomes = tokio::time::timeout(Duration::from_secs(50), finish(handles))
        .await
        .expect("the game finishes");
    same_transcripts(&outcomes);
}
