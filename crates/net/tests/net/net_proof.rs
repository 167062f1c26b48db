//! A proven violation reaches every honest peer over real libp2p on
//! 127.0.0.1 (issue 27; SPEC 3.7 and 4.4): a seat's second, unasked
//! `Shares` envelope for a deal every table has passed, shown to one honest
//! peer only, makes that peer fail closed at once, and its proof makes the
//! other honest peer fail closed on the very same proof, instead of the
//! envelope waiting unjudged until the game next needs the cheater (with the
//! detector gone, the other peer then claimed the detector stopped).

use std::path::Path;
use std::time::{Duration, Instant};

use futures::StreamExt;
use roundtable_hands::{Hands, Options};
use roundtable_net::swarm::{SwarmOptions, build_swarm, table_topic};
use roundtable_net::{
    Controller, DataDir, GameHandle, NetError, NetEvent, NodeConfig, Role, Snapshot, Timing, spawn,
};
use roundtable_table::transcript::{self, Frame};
use roundtable_table::{Body, Envelope, Signed, Violation};

/// Generous bound for anything that must happen (never an assertion on
/// how fast).
const LIMIT: Duration = Duration::from_secs(60);

fn config(dir: &Path, name: &str) -> NodeConfig {
    let mut c = NodeConfig::new(DataDir::new(dir.join(name)), name.to_owned());
    c.listen = vec!["/ip4/127.0.0.1/tcp/0".parse().unwrap()];
    c.mdns = false;
    c.timing = Timing {
        sync_interval: Duration::from_millis(200),
        redial: Duration::from_millis(300),
        lobby_retry: Duration::from_millis(200),
        linger_min: Duration::from_secs(1),
        linger: Duration::from_secs(10),
        ..Timing::default()
    };
    // No stall claim within the test: nobody decides, and nothing but the
    // proof may end the game.
    c.stall_timeout_bounds_ms = 1_000..=60_000;
    c
}

/// Wait until every peer's snapshot satisfies `pred` together.
async fn until_all(
    peers: &[&GameHandle<Hands>],
    what: &str,
    pred: impl Fn(&[std::sync::Arc<Snapshot<Hands>>]) -> bool,
) {
    tokio::time::timeout(LIMIT, async {
        loop {
            let snaps: Vec<_> = peers.iter().map(|p| p.snapshot()).collect();
            if pred(&snaps) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("{what}: not within {LIMIT:?}"));
}

/// Read a peer's events until it stops: when it reported its violation,
/// when it stopped, and its violation.
async fn ending(h: GameHandle<Hands>) -> (Option<Instant>, Instant, Option<Violation>) {
    let (mut events, h) = h.split();
    let mut reported = None;
    while let Some(e) = events.recv().await {
        if let NetEvent::Violation(_) = e {
            reported.get_or_insert_with(Instant::now);
        }
    }
    let stopped = Instant::now();
    let outcome: Result<_, NetError> = h.outcome().await;
    (reported, stopped, outcome.unwrap().violation)
}

/// The cheater's stray is a second copy of its shares at every deal it
/// wrote shares for before the first decision, one game each: every deal
/// position is proven the same way by both honest peers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_proof_shown_to_one_peer_reaches_every_honest_peer_at_every_deal() {
    let mut deal = 0;
    while stray_shares_are_proven_by_every_honest_peer(deal).await {
        deal += 1;
    }
    assert!(
        deal > 1,
        "the game has several deals before its first decision ({deal})"
    );
}

/// One game: the cheater's stray copies its `deal`-th shares envelope (from
/// 0). Returns false, having played nothing past the deals, when it wrote
/// fewer shares envelopes than that.
async fn stray_shares_are_proven_by_every_honest_peer(deal: usize) -> bool {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    // Every seat is driven by its handle and nobody decides: the game stops
    // at its first decision, after the key, the deck and the first deals.
    let mut host = spawn::<Hands>(
        config(dir, "host"),
        Role::Host {
            seats: 3,
            options: Options { rounds: 1 },
            stall_timeout_ms: 60_000,
        },
        Controller::Handle,
    )
    .unwrap();
    let ticket = host.first_ticket().await.expect("a ticket");
    let join = |name: &str| {
        spawn::<Hands>(
            config(dir, name),
            Role::Join {
                ticket: ticket.clone(),
            },
            Controller::Handle,
        )
        .unwrap()
    };
    let joiners = [(join("a"), "a"), (join("b"), "b")];
    until_all(
        &[&host, &joiners[0].0, &joiners[1].0],
        "every table waits at the first decision",
        |s| {
            s.iter()
                .all(|x| x.position > 0 && x.position == s[0].position)
                && s.iter().any(|x| !x.legal.is_empty())
        },
    )
    .await;
    let position = host.snapshot().position;
    let game_id = host.snapshot().game_id.expect("the game started");
    // The cheater is a joiner the game does not wait for: a table that
    // waits for the cheater's decision judged the stray there even before.
    let [(a, a_name), (b, b_name)] = joiners;
    let ((joiner, _), (cheater, name)) = if b.snapshot().legal.is_empty() {
        ((a, a_name), (b, b_name))
    } else {
        ((b, b_name), (a, a_name))
    };
    let seat = cheater.snapshot().seat.expect("the cheater's seat");
    // The cheater leaves; its last envelope, synced before it was sent, is
    // its shares at the last deal.
    cheater.abort();
    let data = DataDir::new(dir.join(name));
    let key = data.identity().unwrap();
    let cheater_log = data.transcript_path(&ticket.lobby);
    let read = transcript::read(&cheater_log).unwrap();
    let signed: Vec<Signed> = read
        .frames
        .iter()
        .filter_map(|f| match f {
            Frame::Envelope(e) if e.seat() == seat.0 => Some(e.clone()),
            _ => None,
        })
        .collect();
    let last = signed.last().expect("the cheater signed envelopes");
    assert!(
        matches!(last.envelope.body, Body::Shares { .. }) && last.envelope.position < position,
        "the cheater's last envelope is its shares at a deal every table passed"
    );
    let Some(copied) = signed
        .iter()
        .filter(|e| matches!(e.envelope.body, Body::Shares { .. }))
        .nth(deal)
    else {
        host.abort();
        joiner.abort();
        return false;
    };
    let stray = Envelope {
        seq: last.seq() + 1,
        prev: last.hash(),
        ..copied.envelope.clone()
    }
    .sign(&key);

    // An outsider that holds the cheater's key shows the stray shares to
    // the host alone, by gossip: the joiner can learn of them only from
    // the host.
    let relay_key = libp2p::identity::Keypair::generate_ed25519();
    let mut relay = build_swarm(relay_key, &SwarmOptions::default()).unwrap();
    let topic = table_topic(&game_id);
    relay.behaviour_mut().gossipsub.subscribe(&topic).unwrap();
    let host_peer = ticket.host_peer().unwrap();
    for a in &ticket.addrs {
        relay.add_peer_address(host_peer, a.clone());
    }
    relay
        .dial(libp2p::swarm::dial_opts::DialOpts::peer_id(host_peer).build())
        .unwrap();
    let shown = tokio::time::timeout(LIMIT, async {
        let mut retry = tokio::time::interval(Duration::from_millis(50));
        loop {
            tokio::select! {
                _ = relay.select_next_some() => {}
                _ = retry.tick() => {
                    let published = relay
                        .behaviour_mut()
                        .gossipsub
                        .publish(topic.clone(), stray.encode());
                    if published.is_ok() {
                        return Instant::now();
                    }
                }
            }
        }
    })
    .await
    .expect("the host takes the outsider's gossip");
    let relaying = tokio::spawn(async move {
        loop {
            relay.select_next_some().await;
        }
    });

    let (host_end, joiner_end) = tokio::join!(
        tokio::time::timeout(LIMIT, ending(host)),
        tokio::time::timeout(LIMIT, ending(joiner)),
    );
    relaying.abort();
    let mut verdicts = Vec::new();
    for (name, end) in [("host", host_end), ("joiner", joiner_end)] {
        let (reported, stopped, violation) =
            end.unwrap_or_else(|_| panic!("the {name} did not end within {LIMIT:?}"));
        let violation = violation.unwrap_or_else(|| panic!("the {name} ended without a proof"));
        let reported = reported.unwrap_or_else(|| panic!("the {name} reported no violation"));
        // Figures for the report, not assertions.
        eprintln!(
            "deal {deal}, {name}: proof {} ms after the stray shares were shown, stopped after {} ms: {violation}",
            reported.saturating_duration_since(shown).as_millis(),
            stopped.saturating_duration_since(shown).as_millis(),
        );
        verdicts.push(violation);
    }
    let expected = Violation::UnaskedShares {
        envelope: stray.clone(),
        reason: format!(
            "no shares were due from it at position {}",
            stray.envelope.position
        ),
    };
    assert_eq!(verdicts, vec![expected.clone(), expected], "deal {deal}");
    true
}
