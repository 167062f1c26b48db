//! Connection room over real libp2p on loopback (issue 12, finding 13):
//! 33 outsider identities open 4 connections each to a host that plays a
//! game. They once filled its 128 slots, and a late spectator was cut off
//! after its handshake. Now one address holds at most a few inbound
//! connections and the seats' peers bypass every bound, so the spectator,
//! coming from another address, still watches the game to its end.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use libp2p::multiaddr::Protocol;
use libp2p::swarm::SwarmEvent;
use libp2p::swarm::dial_opts::{DialOpts, PeerCondition};
use libp2p::{Multiaddr, PeerId};
use roundtable_bots::RandomBot;
use roundtable_net::identity::keypair_of;
use roundtable_net::swarm::{SwarmOptions, build_swarm};
use roundtable_net::{
    Controller, DataDir, GameHandle, NetError, NetEvent, NodeConfig, Outcome, Role, Timing, spawn,
};
use roundtable_port_royal::{Options, PortRoyal};
use roundtable_table::Identity;
use tokio::sync::{Semaphore, mpsc, watch};

const OUTSIDERS: u8 = 33;
const CONNECTIONS_EACH: usize = 4;

fn config(dir: &Path, name: &str, listen: &[&str]) -> NodeConfig {
    let mut c = NodeConfig::new(DataDir::new(dir.join(name)), name);
    c.listen = listen.iter().map(|a| a.parse().unwrap()).collect();
    c.mdns = false;
    c.timing = Timing {
        // Slow enough that the game is still on when the spectator comes.
        bot_delay: Duration::from_millis(100),
        sync_interval: Duration::from_millis(300),
        redial: Duration::from_millis(500),
        ..Timing::default()
    };
    c
}

fn bot(seed: u64) -> Controller<PortRoyal> {
    Controller::Bot(Box::new(RandomBot::new(seed)))
}

/// One outsider: opens `CONNECTIONS_EACH` connections to the host, one
/// after the other (at most 16 outsiders dial at once, under the host's
/// bound on connections being set up), says so on `dialled`, then keeps
/// its connections open until `stop`.
async fn occupy(
    secret: u8,
    host: PeerId,
    addr: Multiaddr,
    dialling: Arc<Semaphore>,
    dialled: mpsc::Sender<usize>,
    mut stop: watch::Receiver<bool>,
) {
    let identity = Identity::from_secret([secret; 32]);
    let mut swarm = build_swarm(keypair_of(&identity).unwrap(), &SwarmOptions::default()).unwrap();
    let mut open = 0usize;
    for _ in 0..CONNECTIONS_EACH {
        let Ok(_permit) = dialling.acquire().await else {
            return;
        };
        let dial = DialOpts::peer_id(host)
            .addresses(vec![addr.clone()])
            .condition(PeerCondition::Always)
            .build();
        if swarm.dial(dial).is_err() {
            continue;
        }
        loop {
            match swarm.select_next_some().await {
                SwarmEvent::ConnectionEstablished { .. } => {
                    open += 1;
                    break;
                }
                SwarmEvent::OutgoingConnectionError { .. } => break,
                _ => {}
            }
        }
    }
    let _ = dialled.send(open).await;
    loop {
        tokio::select! {
            _ = stop.changed() => return,
            _ = swarm.select_next_some() => {}
        }
    }
}

async fn outcome(handle: GameHandle<PortRoyal>) -> Result<Outcome, NetError> {
    let (mut events, handle) = handle.split();
    while events.recv().await.is_some() {}
    handle.outcome().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_full_of_outsiders_still_lets_a_late_spectator_in() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = spawn::<PortRoyal>(
        config(
            dir.path(),
            "host",
            &["/ip4/127.0.0.1/tcp/0", "/ip6/::1/tcp/0"],
        ),
        Role::Host {
            seats: 2,
            options: Options::default(),
            stall_timeout_ms: 30_000,
        },
        bot(1),
    )
    .unwrap();
    let mut ticket = loop {
        match host.next_event().await {
            Some(NetEvent::Ticket(t)) => break t,
            Some(_) => {}
            None => panic!("the host stopped"),
        }
    };
    let joiner = spawn::<PortRoyal>(
        config(dir.path(), "joiner", &["/ip4/127.0.0.1/tcp/0"]),
        Role::Join {
            ticket: ticket.clone(),
        },
        bot(2),
    )
    .unwrap();
    let mut watch_host = host.watch();
    tokio::time::timeout(Duration::from_secs(30), async {
        while watch_host.borrow().position < 3 {
            watch_host.changed().await.unwrap();
        }
    })
    .await
    .expect("the game starts");

    // The outsiders all come from 127.0.0.1.
    let host_peer = ticket.host_peer().unwrap();
    let ip4 = ticket
        .addrs
        .iter()
        .find(|a| a.iter().any(|p| matches!(p, Protocol::Ip4(_))))
        .expect("the host listens on 127.0.0.1")
        .clone();
    let (stop, stopped) = watch::channel(false);
    let dialling = Arc::new(Semaphore::new(16));
    let (dialled, mut done) = mpsc::channel(OUTSIDERS as usize);
    let outsiders: Vec<_> = (0..OUTSIDERS)
        .map(|i| {
            tokio::spawn(occupy(
                100 + i,
                host_peer,
                ip4.clone(),
                dialling.clone(),
                dialled.clone(),
                stopped.clone(),
            ))
        })
        .collect();
    let mut attempts = 0;
    for _ in 0..OUTSIDERS {
        done.recv().await.expect("every outsider dials");
        attempts += CONNECTIONS_EACH;
    }
    assert_eq!(attempts, usize::from(OUTSIDERS) * CONNECTIONS_EACH);

    // The spectator comes from ::1, another address.
    ticket
        .addrs
        .retain(|a| a.iter().any(|p| matches!(p, Protocol::Ip6(_))));
    assert!(!ticket.addrs.is_empty(), "the host listens on ::1");
    let spectator = spawn::<PortRoyal>(
        config(dir.path(), "spectator", &["/ip6/::1/tcp/0"]),
        Role::Watch { ticket },
        Controller::Handle,
    )
    .unwrap();
    let limit = Duration::from_secs(120);
    let seen = tokio::time::timeout(limit, outcome(spectator))
        .await
        .expect("the spectator stops")
        .expect("the spectator gets in and watches the game");
    let host = tokio::time::timeout(limit, outcome(host))
        .await
        .unwrap()
        .unwrap();
    let joiner = tokio::time::timeout(limit, outcome(joiner))
        .await
        .unwrap()
        .unwrap();
    stop.send(true).unwrap();
    for o in outsiders {
        o.await.unwrap();
    }
    for o in [&seen, &host, &joiner] {
        assert!(o.result.is_some(), "a peer did not finish: {o:?}");
    }
    let read = |o: &Outcome| std::fs::read(o.transcript.as_ref().unwrap()).unwrap();
    assert_eq!(read(&seen), read(&host), "the spectator saw another game");
    assert_eq!(read(&joiner), read(&host));
}
