//! How a table ends for every peer, over real libp2p on 127.0.0.1 (SPEC
//! 4.4): peers that fall behind or come late still get the whole game from
//! seats that finished, and a peer whose peers are all gone, or whose
//! ticket's host never answers, says so and stops instead of waiting for
//! ever.

use crate::common;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use roundtable_bots::RandomBot;
use roundtable_net::{
    ByteCounter, Controller, DataDir, GameHandle, NetError, NetEvent, NodeConfig, Outcome, Phase,
    Role, Ticket, Timing, spawn,
};
use roundtable_port_royal::{Options, PortRoyal};

/// Generous bound for anything that must happen (never an assertion on
/// how fast).
const LIMIT: Duration = Duration::from_secs(60);

fn config(dir: &Path, name: &str, counter: Option<Arc<ByteCounter>>) -> NodeConfig {
    let mut c = NodeConfig::new(DataDir::new(dir.join(name)), name.to_owned());
    c.listen = vec!["/ip4/127.0.0.1/tcp/0".parse().unwrap()];
    c.mdns = false;
    c.counter = counter;
    c.timing = Timing {
        bot_delay: Duration::ZERO,
        sync_interval: Duration::from_millis(200),
        redial: Duration::from_millis(300),
        lobby_retry: Duration::from_millis(200),
        ..Timing::default()
    };
    // Stall claims within a test's patience: timeouts of a second or two.
    c.stall_timeout_bounds_ms = 1_000..=60_000;
    c
}

fn bot(seed: u64) -> Controller<PortRoyal> {
    Controller::Bot(Box::new(RandomBot::new(seed)))
}

/// A host of `seats` seats played by a bot with no delay; its ticket.
async fn host(dir: &Path, seats: u8, stall_timeout_ms: u64) -> (GameHandle<PortRoyal>, Ticket) {
    let mut host = spawn::<PortRoyal>(
        config(dir, "host", None),
        Role::Host {
            seats,
            options: Options::default(),
            stall_timeout_ms,
        },
        bot(1),
    )
    .unwrap();
    let ticket = common::ticket_of(&mut host).await;
    (host, ticket)
}

/// A joiner called `name` at `ticket`, played by `controller`.
fn join(
    dir: &Path,
    name: &str,
    ticket: &Ticket,
    controller: Controller<PortRoyal>,
) -> GameHandle<PortRoyal> {
    spawn::<PortRoyal>(
        config(dir, name, None),
        Role::Join {
            ticket: ticket.clone(),
        },
        controller,
    )
    .unwrap()
}

/// Read a peer's events until it stops; its outcome.
async fn outcome(h: GameHandle<PortRoyal>) -> Result<Outcome, NetError> {
    let (mut events, h) = h.split();
    while events.recv().await.is_some() {}
    h.outcome().await
}

/// Wait until `pred` holds for the peer's snapshot.
async fn wait_until(
    h: &GameHandle<PortRoyal>,
    what: &str,
    pred: impl Fn(&roundtable_net::Snapshot<PortRoyal>) -> bool,
) {
    let mut watch = h.watch();
    tokio::time::timeout(LIMIT, async {
        loop {
            if pred(&watch.borrow()) {
                return;
            }
            if watch.changed().await.is_err() {
                panic!("the peer stopped before {what}");
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("{what}: not within {LIMIT:?}"));
}

fn finished(o: &Result<Outcome, NetError>) -> &Outcome {
    match o {
        Ok(o) if o.result.is_some() => o,
        other => panic!("the peer did not finish its game: {other:?}"),
    }
}

fn same_transcript(a: &Outcome, b: &Outcome) {
    let read = |o: &Outcome| std::fs::read(o.transcript.as_ref().unwrap()).unwrap();
    assert_eq!(read(a), read(b), "the transcripts differ");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_that_comes_after_the_end_gets_the_whole_game() {
    let dir = tempfile::tempdir().unwrap();
    let (host, ticket) = host(dir.path(), 2, 30_000).await;
    let joiner = join(dir.path(), "joiner", &ticket, bot(2));
    // The fastest table there is (bots with no delay), and a spectator that
    // starts only once the game is over.
    wait_until(&host, "the game ends", |s| s.phase == Phase::Finished).await;
    let watcher = spawn::<PortRoyal>(
        config(dir.path(), "watcher", None),
        Role::Watch { ticket },
        Controller::Handle,
    )
    .unwrap();
    let seen = tokio::time::timeout(LIMIT, outcome(watcher))
        .await
        .expect("the late spectator reaches the end");
    let host = tokio::time::timeout(LIMIT, outcome(host)).await.unwrap();
    let joiner = tokio::time::timeout(LIMIT, outcome(joiner)).await.unwrap();
    same_transcript(finished(&seen), finished(&host));
    finished(&joiner);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_forfeited_for_stalling_and_cut_off_still_reaches_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let (host, ticket) = host(dir.path(), 3, 1_500).await;
    let joiner = join(dir.path(), "joiner", &ticket, bot(2));
    // A seat whose player never moves: the others claim it stalled.
    let counter = ByteCounter::new();
    let staller = spawn::<PortRoyal>(
        config(dir.path(), "staller", Some(counter.clone())),
        Role::Join { ticket },
        Controller::Handle,
    )
    .unwrap();
    wait_until(&staller, "the staller is forfeited", |s| {
        s.forfeited.iter().any(|f| *f)
    })
    .await;
    // Cut off until the others have finished: it must then get the end from
    // seats that already have it.
    counter.set_cut(true);
    wait_until(&host, "the game ends", |s| s.phase == Phase::Finished).await;
    counter.set_cut(false);
    let last = staller.watch();
    let stalled = tokio::time::timeout(LIMIT, outcome(staller))
        .await
        .unwrap_or_else(|_| {
            let s = last.borrow();
            panic!(
                "the forfeited seat did not reach the end: {:?} at {} (online {:?}, forfeited {:?})",
                s.phase, s.position, s.online, s.forfeited
            )
        });
    let host = tokio::time::timeout(LIMIT, outcome(host)).await.unwrap();
    let joiner = tokio::time::timeout(LIMIT, outcome(joiner)).await.unwrap();
    same_transcript(finished(&stalled), finished(&host));
    finished(&joiner);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_cut_off_across_a_resume_reaches_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let (host, ticket) = host(dir.path(), 2, 30_000).await;
    let joiner = join(dir.path(), "joiner", &ticket, bot(2));
    let counter = ByteCounter::new();
    let watcher = spawn::<PortRoyal>(
        config(dir.path(), "watcher", Some(counter.clone())),
        Role::Watch { ticket },
        Controller::Handle,
    )
    .unwrap();
    wait_until(&watcher, "the spectator follows", |s| s.position >= 20).await;
    // The joiner crashes and comes back from its data directory while the
    // spectator is cut off; the spectator is back only after the end.
    counter.set_cut(true);
    joiner.abort();
    let resumed = spawn::<PortRoyal>(
        config(dir.path(), "joiner", None),
        Role::Resume {
            lobby: watcher_lobby(dir.path()),
        },
        bot(2),
    )
    .unwrap();
    wait_until(&host, "the game ends", |s| s.phase == Phase::Finished).await;
    counter.set_cut(false);
    let seen = tokio::time::timeout(LIMIT, outcome(watcher))
        .await
        .expect("the spectator reaches the end");
    let host = tokio::time::timeout(LIMIT, outcome(host)).await.unwrap();
    let resumed = tokio::time::timeout(LIMIT, outcome(resumed)).await.unwrap();
    same_transcript(finished(&seen), finished(&host));
    same_transcript(finished(&resumed), finished(&host));
}

/// The table the joiner of `dir` plays (its only unfinished game).
fn watcher_lobby(dir: &Path) -> roundtable_net::LobbyId {
    let open = DataDir::new(dir.join("joiner")).unfinished();
    assert_eq!(open.len(), 1, "the joiner plays one table: {open:?}");
    open[0]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_whose_peers_are_all_gone_says_so_and_keeps_the_game_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let (host, ticket) = host(dir.path(), 2, 30_000).await;
    let joiner = join(dir.path(), "joiner", &ticket, Controller::Handle);
    let copy = dir.path().join("watched.rts");
    let mut c = config(dir.path(), "watcher", None);
    c.timing.give_up = Duration::from_secs(2);
    c.transcript_copy = Some(copy.clone());
    let watcher = spawn::<PortRoyal>(c, Role::Watch { ticket }, Controller::Handle).unwrap();
    wait_until(&watcher, "the spectator is at the table", |s| {
        s.game_id.is_some() && s.online.iter().all(|o| *o)
    })
    .await;
    // Every seat vanishes mid-game (the joiner never moved: the game is
    // unfinished).
    host.abort();
    joiner.abort();
    let (mut events, watcher) = watcher.split();
    let mut said = None;
    let ended = tokio::time::timeout(LIMIT, async {
        while let Some(e) = events.recv().await {
            if let NetEvent::GaveUp(line) = e {
                said = Some(line);
            }
        }
        watcher.outcome().await
    })
    .await
    .expect("the spectator gives up");
    let line = match ended {
        Err(NetError::GaveUp(line)) => line,
        other => panic!("expected the spectator to give up: {other:?}"),
    };
    assert_eq!(said.as_deref(), Some(line.as_str()), "said once, the same");
    assert!(line.contains("gone"), "{line}");
    let log = DataDir::new(dir.path().join("watcher"))
        .root()
        .join("games");
    assert!(line.contains(&log.display().to_string()), "{line}");
    assert!(line.contains(&copy.display().to_string()), "{line}");
    let saved = roundtable_table::transcript::read(&copy).expect("the copy reads");
    assert!(!saved.frames.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_ticket_gets_one_line_and_a_failure() {
    let dir = tempfile::tempdir().unwrap();
    let (host, ticket) = host(dir.path(), 2, 30_000).await;
    host.abort();
    for (name, role) in [
        (
            "joiner",
            Role::Join {
                ticket: ticket.clone(),
            },
        ),
        (
            "watcher",
            Role::Watch {
                ticket: ticket.clone(),
            },
        ),
    ] {
        let mut c = config(dir.path(), name, None);
        c.timing.dial_give_up = Duration::from_secs(2);
        let h = spawn::<PortRoyal>(c, role, bot(3)).unwrap();
        let ended = tokio::time::timeout(LIMIT, outcome(h))
            .await
            .unwrap_or_else(|_| panic!("the {name} waits for ever"));
        match ended {
            Err(NetError::GaveUp(line)) => assert!(
                line.starts_with("nobody answers at this ticket's addresses"),
                "{line}"
            ),
            other => panic!("the {name} did not give up: {other:?}"),
        }
    }
}

/// All seats but one stop together mid-game: nobody can be forfeited alone
/// (each forfeit needs the other stopped seat's claim), so the survivor
/// claims the silent seat too and ends the game abandoned (SPEC 3.6), with
/// a finished transcript whose audit says so. Before, it waited for ever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_whose_other_seats_all_stopped_ends_the_game_abandoned() {
    let dir = tempfile::tempdir().unwrap();
    let (host, ticket) = host(dir.path(), 3, 1_000).await;
    let joiners: Vec<_> = [("ann", 2), ("bea", 3)]
        .into_iter()
        .map(|(name, seed)| {
            let mut c = config(dir.path(), name, None);
            // Slow enough that the game is still on when they stop.
            c.timing.bot_delay = Duration::from_millis(50);
            spawn::<PortRoyal>(
                c,
                Role::Join {
                    ticket: ticket.clone(),
                },
                bot(seed),
            )
            .unwrap()
        })
        .collect();
    wait_until(&host, "the game is under way", |s| s.position > 10).await;
    for joiner in joiners {
        joiner.abort();
    }
    let ended = tokio::time::timeout(LIMIT, outcome(host))
        .await
        .expect("the survivor ends the game");
    let ended = finished(&ended);
    let frames = roundtable_table::transcript::read(ended.transcript.as_ref().unwrap())
        .unwrap()
        .frames;
    let report = roundtable_table::audit::audit::<PortRoyal>(&frames).unwrap();
    assert!(
        report.is_valid(),
        "{:?} {:?}",
        report.violations,
        report.problems
    );
    let stopped = report.abandoned.expect("the game was abandoned");
    assert_eq!(stopped.len(), 2);
    let result = report.result.unwrap();
    for s in &result.standings {
        let expected = if stopped.contains(&s.seat) { 1 } else { 0 };
        assert_eq!(s.rank, expected, "{s:?}");
    }
}

/// Terms that cannot start a game are refused before any lobby opens,
/// whatever front end hosts: the node checks them as a proposal is checked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_with_terms_no_game_can_start_under_stops_at_once() {
    let dir = tempfile::tempdir().unwrap();
    for (seats, victory_points, says) in [(2, 0, "victory_points"), (9, 12, "seats")] {
        let options = Options {
            victory_points,
            ..Options::default()
        };
        let host = spawn::<PortRoyal>(
            config(dir.path(), "host", None),
            Role::Host {
                seats,
                options,
                stall_timeout_ms: 30_000,
            },
            bot(1),
        )
        .unwrap();
        let (mut events, host) = host.split();
        let mut ticket = false;
        let ended = tokio::time::timeout(LIMIT, async {
            while let Some(e) = events.recv().await {
                ticket |= matches!(e, NetEvent::Ticket(_));
            }
            host.outcome().await
        })
        .await
        .expect("the host stops");
        assert!(!ticket, "no lobby opened");
        match ended {
            Err(NetError::Lobby(why)) => assert!(why.contains(says), "{why}"),
            other => panic!("expected a refusal: {other:?}"),
        }
    }
}
