//! The lobby before the game, over real libp2p on 127.0.0.1: a joiner sees
//! who sat down, a joiner that leaves or vanishes frees its seat, and the
//! table then fills with others and starts.

use crate::common;

use std::collections::BTreeSet;
use std::time::Duration;

use roundtable_bots::RandomBot;
use roundtable_net::{
    Controller, DataDir, GameHandle, NetError, NodeConfig, Phase, Role, STALL_TIMEOUT_BOUNDS_MS,
    Snapshot, Ticket, Timing, spawn,
};
use roundtable_port_royal::{Options, PortRoyal};

fn config(dir: &std::path::Path, name: &str, lobby_timeout: Duration) -> NodeConfig {
    let mut c = NodeConfig::new(DataDir::new(dir.join(name)), name.to_owned());
    c.listen = vec!["/ip4/127.0.0.1/tcp/0".parse().unwrap()];
    c.mdns = false;
    c.timing = Timing {
        bot_delay: Duration::from_millis(10),
        lobby_retry: Duration::from_millis(100),
        lobby_timeout,
        ..Timing::default()
    };
    c
}

fn bot(seed: u64) -> Controller<PortRoyal> {
    Controller::Bot(Box::new(RandomBot::new(seed)))
}

/// A three-seat host, and its ticket.
async fn host(dir: &std::path::Path, lobby_timeout: Duration) -> (GameHandle<PortRoyal>, Ticket) {
    let mut host = spawn::<PortRoyal>(
        config(dir, "host", lobby_timeout),
        Role::Host {
            seats: 3,
            options: Options::default(),
            stall_timeout_ms: 30_000,
        },
        bot(1),
    )
    .unwrap();
    let ticket = common::ticket_of(&mut host).await;
    (host, ticket)
}

fn join(dir: &std::path::Path, name: &str, ticket: &Ticket, seed: u64) -> GameHandle<PortRoyal> {
    spawn::<PortRoyal>(
        config(dir, name, Duration::from_secs(60)),
        Role::Join {
            ticket: ticket.clone(),
        },
        bot(seed),
    )
    .unwrap()
}

/// Wait (at most 30 s) until the node's snapshot satisfies `ok`.
async fn until(
    h: &GameHandle<PortRoyal>,
    what: &str,
    ok: impl Fn(&Snapshot<PortRoyal>) -> bool,
) -> Snapshot<PortRoyal> {
    let mut rx = h.watch();
    let wait = async {
        loop {
            let snap = rx.borrow_and_update().clone();
            if ok(&snap) {
                return (*snap).clone();
            }
            if rx.changed().await.is_err() {
                panic!("the node stopped before {what}");
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(30), wait)
        .await
        .unwrap_or_else(|_| {
            panic!(
                "timed out waiting for {what}; last: {:?}",
                h.snapshot().names
            )
        })
}

fn names(snap: &Snapshot<PortRoyal>) -> Vec<&str> {
    snap.names.iter().map(String::as_str).collect()
}

/// The seats fill again after a departure: two more joiners, and the game
/// starts with the host and them.
async fn fill_and_start(dir: &std::path::Path, host: &GameHandle<PortRoyal>, ticket: &Ticket) {
    let b = join(dir, "bea", ticket, 3);
    let c = join(dir, "cal", ticket, 4);
    let playing = until(host, "the game to start", |s| s.phase == Phase::Playing).await;
    let seated: BTreeSet<&str> = names(&playing).into_iter().collect();
    assert_eq!(seated, BTreeSet::from(["host", "bea", "cal"]));
    for h in [b, c] {
        h.shutdown();
    }
    host.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_joiner_sees_who_sat_down_and_leaving_frees_its_seat() {
    let dir = tempfile::tempdir().unwrap();
    // The host would wait a minute for a silent joiner: the seat can only
    // come back this soon because the joiner said it leaves.
    let (host, ticket) = host(dir.path(), Duration::from_secs(60)).await;
    let ann = join(dir.path(), "ann", &ticket, 2);

    let seen = until(&ann, "ann's lobby to list both", |s| s.names.len() == 2).await;
    assert_eq!(names(&seen), ["host", "ann"]);
    assert_eq!(seen.lobby_seat, Some(1), "ann finds herself in the list");
    assert_eq!(seen.online, [true, true]);
    assert_eq!(seen.phase, Phase::Lobby);
    let at_host = until(&host, "the host to seat ann", |s| s.names.len() == 2).await;
    assert_eq!(names(&at_host), ["host", "ann"]);
    assert_eq!(at_host.lobby_seat, Some(0));

    // A spectator's lobby lists the same seats, none of them its own.
    let eve = spawn::<PortRoyal>(
        config(dir.path(), "eve", Duration::from_secs(60)),
        Role::Watch {
            ticket: ticket.clone(),
        },
        Controller::Handle,
    )
    .unwrap();
    let watching = until(&eve, "eve's lobby to list both", |s| s.names.len() == 2).await;
    assert_eq!(names(&watching), ["host", "ann"]);
    assert_eq!(watching.lobby_seat, None);
    eve.shutdown();

    ann.shutdown();
    let outcome = tokio::time::timeout(Duration::from_secs(5), ann.outcome())
        .await
        .expect("a joiner that leaves stops within its grace period");
    assert!(outcome.is_ok(), "{outcome:?}");
    let after = until(&host, "ann's seat to free", |s| s.names.len() == 1).await;
    assert_eq!(names(&after), ["host"]);

    fill_and_start(dir.path(), &host, &ticket).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_joiner_that_vanishes_loses_its_seat_after_the_lobby_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let (host, ticket) = host(dir.path(), Duration::from_millis(1500)).await;
    let ann = join(dir.path(), "ann", &ticket, 2);
    until(&host, "the host to seat ann", |s| s.names.len() == 2).await;

    // No Leave: the process is gone.
    ann.abort();
    let gone = until(&host, "the host to free ann's seat", |s| s.names.len() == 1).await;
    assert_eq!(names(&gone), ["host"]);

    fill_and_start(dir.path(), &host, &ticket).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_joiner_refuses_a_host_whose_stall_timeout_is_out_of_its_bounds() {
    let dir = tempfile::tempdir().unwrap();
    // A host that allows itself a 1.5 s stall timeout...
    let mut c = config(dir.path(), "host", Duration::from_secs(60));
    c.stall_timeout_bounds_ms = 1_000..=60_000;
    let mut host = spawn::<PortRoyal>(
        c,
        Role::Host {
            seats: 2,
            options: Options::default(),
            stall_timeout_ms: 1_500,
        },
        bot(1),
    )
    .unwrap();
    let ticket = common::ticket_of(&mut host).await;
    // ...and a joiner with the default bounds (10 s to a day): it stops
    // with one line naming the value and the bound, and never sits down.
    let ann = join(dir.path(), "ann", &ticket, 2);
    let outcome = tokio::time::timeout(Duration::from_secs(30), ann.outcome())
        .await
        .expect("the joiner stops");
    let err = outcome.expect_err("a joiner played with a 1.5 s stall timeout");
    let (min, max) = (
        *STALL_TIMEOUT_BOUNDS_MS.start(),
        *STALL_TIMEOUT_BOUNDS_MS.end(),
    );
    assert!(
        matches!(err, NetError::StallTimeout { ms: 1_500, min: a, max: b, .. } if a == min && b == max),
        "{err:?}"
    );
    let line = err.to_string();
    assert!(
        line.contains("1500 ms") && line.contains(&format!("{min}..={max} ms")),
        "{line}"
    );
    assert_eq!(host.snapshot().phase, Phase::Lobby);
    host.shutdown();

    // Hosting with a timeout outside one's own bounds fails the same way.
    let out_of_bounds = spawn::<PortRoyal>(
        config(dir.path(), "eve", Duration::from_secs(60)),
        Role::Host {
            seats: 2,
            options: Options::default(),
            stall_timeout_ms: u64::MAX,
        },
        bot(3),
    )
    .unwrap();
    let err = tokio::time::timeout(Duration::from_secs(30), out_of_bounds.outcome())
        .await
        .expect("the host stops")
        .expect_err("a host opened a table with a stall timeout of u64::MAX ms");
    assert!(
        matches!(err, NetError::StallTimeout { ms: u64::MAX, .. }),
        "{err:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_whose_genesis_nonce_is_fixed_starts_with_that_nonce() {
    // A tournament table's nonce names its tournament, round and table: it
    // is chosen before the table opens, not drawn by the host.
    let fixed = [0x5a; 32];
    let dir = tempfile::tempdir().unwrap();
    let mut c = config(dir.path(), "host", Duration::from_secs(60));
    c.genesis_nonce = Some(fixed);
    let mut host = spawn::<PortRoyal>(
        c,
        Role::Host {
            seats: 2,
            options: Options::default(),
            stall_timeout_ms: 30_000,
        },
        bot(1),
    )
    .unwrap();
    let ticket = common::ticket_of(&mut host).await;
    let mut c = config(dir.path(), "ann", Duration::from_secs(60));
    c.genesis_nonce = Some(fixed);
    let ann = spawn::<PortRoyal>(
        c,
        Role::Join {
            ticket: ticket.clone(),
        },
        bot(2),
    )
    .unwrap();
    let outcome = tokio::time::timeout(Duration::from_secs(120), ann.outcome())
        .await
        .expect("the game ends")
        .expect("the game ends cleanly");
    let path = outcome.transcript.expect("the game started");
    let read = roundtable_table::transcript::read(&path).expect("the transcript reads");
    let Some(roundtable_table::transcript::Frame::Proposal(proposal)) = read.frames.first() else {
        panic!("the transcript starts with no proposal");
    };
    assert_eq!(proposal.nonce, fixed);
    host.shutdown();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_for_fixed_players_and_nonce_seats_no_one_else_and_no_other_game() {
    let dir = tempfile::tempdir().unwrap();
    let ann_key = DataDir::new(dir.path().join("ann"))
        .identity()
        .unwrap()
        .public();
    let host_key = DataDir::new(dir.path().join("host"))
        .identity()
        .unwrap()
        .public();
    let mut c = config(dir.path(), "host", Duration::from_millis(1500));
    c.seat_keys = Some(vec![host_key, ann_key]);
    c.genesis_nonce = Some([1; 32]);
    let mut host = spawn::<PortRoyal>(
        c,
        Role::Host {
            seats: 2,
            options: Options::default(),
            stall_timeout_ms: 30_000,
        },
        bot(1),
    )
    .unwrap();
    let ticket = common::ticket_of(&mut host).await;

    // A key the table is not for is refused its seat.
    let eve = join(dir.path(), "eve", &ticket, 3);
    let refused = tokio::time::timeout(Duration::from_secs(30), eve.outcome())
        .await
        .expect("eve stops")
        .expect_err("eve sat at a table for others");
    assert!(
        matches!(&refused, NetError::Refused(r) if r.contains("for other players")),
        "{refused:?}"
    );

    // Ann may sit, but expects another nonce: she accepts no proposal, so
    // no game starts, and she loses the seat when the proposal lapses.
    let mut c = config(dir.path(), "ann", Duration::from_secs(60));
    c.genesis_nonce = Some([2; 32]);
    let ann = spawn::<PortRoyal>(
        c,
        Role::Join {
            ticket: ticket.clone(),
        },
        bot(2),
    )
    .unwrap();
    let refused = tokio::time::timeout(Duration::from_secs(30), ann.outcome())
        .await
        .expect("ann stops")
        .expect_err("ann played a game with a nonce she did not expect");
    assert!(matches!(refused, NetError::Refused(_)), "{refused:?}");
    assert_eq!(host.snapshot().phase, Phase::Lobby);
    host.shutdown();
}
