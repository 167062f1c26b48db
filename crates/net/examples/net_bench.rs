//! Peers play one listed game over real libp2p (TCP + noise + yamux on
//! 127.0.0.1), each its own swarm, in one process, with random bots; prints
//! latency and wire figures.
//!
//! * **action**: from a seat applying its own decision to the last of the
//!   peers applying it (p50/p99);
//! * **draw**: from a seat's decision that raises a chance event (a card
//!   drawn face up) to the last peer applying its outcome, i.e. the action
//!   plus a full round of reveals from every seat (p50/p99);
//! * **private draw**: from a seat's decision that deals it cards privately
//!   to the last peer applying the deal, i.e. the action plus every other
//!   seat's decryption shares (p50/p99; games with private cards);
//! * **bytes per game**: every byte the swarms wrote to TCP (noise, yamux,
//!   gossipsub, identify, ping, catch-up and lobby included).
//!
//! `cargo run --release -p roundtable-net --example net_bench -- [--game NAME]
//! [--seats N] [--sync-ms MS] [GAMES] [BOT_DELAY_MS]`: Port Royal at 5
//! seats by default, another game at 4 (or its most); `--sync-ms` sets the
//! catch-up interval, to tell its bytes from gossip's.
//!
//! Figures of 2026-11-28, a **debug** build (no release build fitted the
//! round), 5 ms bots, on 2 cores shared with other builds (`/proc/loadavg`
//! 3 to 8 during the runs; latencies suffer from both, bytes much less):
//!
//! | game, seats, games | action p50/p99 | draw p50/p99 | private draw p50/p99 | bytes per game | per input |
//! | --- | --- | --- | --- | --- | --- |
//! | Port Royal, 5, 3 | 7.6 / 54.9 ms | 24.2 / 92.0 ms | none (no private cards) | 2.17 MB (729 inputs) | 3,046 |
//! | Guildhall, 4, 2 | 3.7 / 30.2 ms | 12.7 / 27.3 ms | 22.9 / 180.1 ms | 1.59 MB (494 inputs) | 3,216 |
//! | Waters of Nereus, 4, 2 | 2.9 / 11.0 ms | 13.3 / 24.6 ms | 14.9 / 18.2 ms (7) | 0.56 MB (386 inputs) | 1,444 |
//!
//! Where Port Royal's bytes go, per input: its envelopes are ~510 bytes
//! (the transcript), flood-published to 4 peers (~2,040), plus gossipsub,
//! yamux and noise framing (~780 with catch-up off, `--sync-ms 3600000`:
//! 2,815 in all), plus periodic catch-up: before the skip of SPEC 4.4
//! ("Who asks whom") 3,150 to 3,330 bytes an input, after it 3,000 to 3,060
//! (-6 %). Nothing is forwarded (SPEC 4.2). Bytes per game follow the
//! game's length (random bots: 600 to 800 inputs); at 3,046 bytes an input
//! a game of more than ~650 inputs is still over 2 MB. What is left of
//! catch-up is one request a second per pair of seats (a new yamux stream
//! with multistream-select each time) and envelopes still in flight by
//! gossip that a response repeats.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use roundtable_bots::RandomBot;
use roundtable_games::{GameId, Listed, Visit};
use roundtable_net::{ByteCounter, Controller, DataDir, NetEvent, NodeConfig, Role, Timing, spawn};
use roundtable_table::{PrivateStep, Record};

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

struct GameFigures {
    actions: Vec<f64>,
    draws: Vec<f64>,
    private_draws: Vec<f64>,
    bytes: u64,
    inputs: u64,
    envelopes_bytes: u64,
    wall: Duration,
}

/// What a peer saw applied at a transcript position.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Seen {
    /// A seat's own decision (seat from 1).
    Decision(u8),
    /// A chance event's outcome.
    Chance,
    /// Cards dealt privately to a seat.
    PrivateDeal,
    /// Anything else (a reshuffle, a reveal, a zombie's move...).
    Other,
}

fn seen<G: roundtable_engine::Game>(record: &Record<G>) -> Seen {
    match record {
        Record::Action { seat, .. } => Seen::Decision(seat.0),
        Record::Private {
            step: PrivateStep::Play { seat, .. },
            ..
        } => Seen::Decision(seat.0),
        Record::Chance { .. } => Seen::Chance,
        Record::Private {
            step: PrivateStep::Deal { .. },
            ..
        } => Seen::PrivateDeal,
        _ => Seen::Other,
    }
}

/// One game of `G` at `seats` seats.
struct OneGame {
    seats: u8,
    seed: u64,
    bot_delay: Duration,
    sync_interval: Duration,
}

impl Visit for OneGame {
    type Output = Result<GameFigures, Box<dyn std::error::Error>>;

    fn visit<G: Listed>(self) -> Self::Output {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()?;
        runtime.block_on(one_game::<G>(
            self.seats,
            self.seed,
            self.bot_delay,
            self.sync_interval,
        ))
    }
}

async fn one_game<G: Listed>(
    seats: u8,
    seed: u64,
    bot_delay: Duration,
    sync_interval: Duration,
) -> Result<GameFigures, Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let peers = usize::from(seats);
    let counters: Vec<_> = (0..peers).map(|_| ByteCounter::new()).collect();
    let config = |i: usize| {
        let mut c = NodeConfig::new(
            DataDir::new(dir.path().join(i.to_string())),
            format!("p{i}"),
        );
        c.listen = vec!["/ip4/127.0.0.1/tcp/0".parse().expect("a valid multiaddr")];
        c.mdns = false;
        c.counter = Some(counters[i].clone());
        c.timing = Timing {
            bot_delay,
            sync_interval,
            ..Timing::default()
        };
        c
    };
    let started = Instant::now();
    let mut host = spawn::<G>(
        config(0),
        Role::Host {
            seats,
            options: G::Options::default(),
            stall_timeout_ms: 60_000,
        },
        Controller::Bot(Box::new(RandomBot::new(seed))),
    )?;
    let ticket = loop {
        match host.next_event().await {
            Some(NetEvent::Ticket(t)) => break t,
            Some(_) => {}
            None => return Err("the host stopped".into()),
        }
    };
    let mut handles = vec![host];
    for i in 1..peers {
        handles.push(spawn::<G>(
            config(i),
            Role::Join {
                ticket: ticket.clone(),
            },
            Controller::Bot(Box::new(RandomBot::new(seed * 10 + i as u64))),
        )?);
    }
    // Each peer's events are timestamped as they arrive, in its own task.
    let mut tasks = Vec::new();
    for (i, h) in handles.into_iter().enumerate() {
        tasks.push(tokio::spawn(async move {
            let (mut events, h) = h.split();
            let mut applied: HashMap<u64, (Instant, Seen)> = HashMap::new();
            let mut seat = None;
            while let Some(e) = events.recv().await {
                let now = Instant::now();
                match e {
                    NetEvent::Started { seat: s, .. } => seat = s.map(|s| s.0),
                    NetEvent::Applied {
                        position, record, ..
                    } => {
                        applied.insert(position, (now, seen(&record)));
                    }
                    _ => {}
                }
            }
            let outcome = h.outcome().await;
            (i, seat, applied, outcome)
        }));
    }
    let mut per_peer = Vec::new();
    let mut seat_of_peer = HashMap::new();
    let mut inputs = 0;
    for t in tasks {
        let (i, seat, applied, outcome) = t.await?;
        let outcome = outcome?;
        if outcome.result.is_none() {
            return Err(format!("peer {i} did not finish").into());
        }
        if let Some(s) = seat {
            seat_of_peer.insert(s, i);
        }
        inputs = inputs.max(applied.len() as u64);
        per_peer.push(applied);
    }
    let wall = started.elapsed();
    let mut actions = Vec::new();
    let mut draws = Vec::new();
    let mut private_draws = Vec::new();
    // When the last peer applied `position`, in ms after `t0`.
    let last_applied = |position: u64, t0: Instant| {
        let last = per_peer
            .iter()
            .filter_map(|m| m.get(&position).map(|x| x.0))
            .max()
            .unwrap_or(t0);
        last.saturating_duration_since(t0).as_secs_f64() * 1000.0
    };
    for position in 0..inputs {
        let Some(&(_, Seen::Decision(author))) = per_peer[0].get(&position) else {
            continue;
        };
        let Some(&a) = seat_of_peer.get(&author) else {
            continue;
        };
        let Some(&(t0, _)) = per_peer[a].get(&position) else {
            continue;
        };
        actions.push(last_applied(position, t0));
        // What the decision raised: the first draw before the next decision.
        let raised = (position + 1..inputs)
            .map_while(|p| match per_peer[0].get(&p) {
                Some(&(_, Seen::Decision(_))) | None => None,
                Some(&(_, what)) => Some((p, what)),
            })
            .find(|&(_, what)| what != Seen::Other);
        match raised {
            Some((p, Seen::Chance)) => draws.push(last_applied(p, t0)),
            Some((p, Seen::PrivateDeal)) => private_draws.push(last_applied(p, t0)),
            _ => {}
        }
    }
    let bytes = counters.iter().map(|c| c.sent()).sum();
    // The transcript's envelopes, for comparison with the wire.
    let transcript = dir.path().join("0").join("games");
    let mut envelopes_bytes = 0;
    if let Ok(entries) = std::fs::read_dir(&transcript) {
        for e in entries.flatten() {
            if let Ok(m) = std::fs::metadata(e.path().join("transcript.rtlog")) {
                envelopes_bytes = m.len();
            }
        }
    }
    Ok(GameFigures {
        actions,
        draws,
        private_draws,
        bytes,
        inputs,
        envelopes_bytes,
        wall,
    })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut game = GameId::PortRoyal;
    let mut seats = None;
    let mut sync_interval = Timing::default().sync_interval;
    let mut counts = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--game" => game = GameId::from_name(&args.next().unwrap_or_default())?,
            "--seats" => seats = Some(args.next().unwrap_or_default().parse::<u8>()?),
            "--sync-ms" => {
                sync_interval = Duration::from_millis(args.next().unwrap_or_default().parse()?)
            }
            _ => counts.push(arg.parse::<u64>()?),
        }
    }
    let seats = seats.unwrap_or(if game == GameId::PortRoyal {
        5
    } else {
        (*game.seats().end()).min(4)
    });
    if !game.seats().contains(&seats) {
        return Err(format!("{} is played by {:?} seats", game.title(), game.seats()).into());
    }
    let games = counts.first().copied().unwrap_or(3);
    let delay = counts.get(1).copied().unwrap_or(5);
    let mut actions = Vec::new();
    let mut draws = Vec::new();
    let mut private_draws = Vec::new();
    let mut bytes = Vec::new();
    let mut inputs = 0u64;
    for g in 0..games {
        let f = game.visit(OneGame {
            seats,
            seed: g + 1,
            bot_delay: Duration::from_millis(delay),
            sync_interval,
        })?;
        println!(
            "game {}: {} inputs in {:.1} s, {} wire bytes ({} KiB, {} per input), transcript {} bytes",
            g + 1,
            f.inputs,
            f.wall.as_secs_f64(),
            f.bytes,
            f.bytes / 1024,
            f.bytes / f.inputs.max(1),
            f.envelopes_bytes
        );
        actions.extend(f.actions);
        draws.extend(f.draws);
        private_draws.extend(f.private_draws);
        bytes.push(f.bytes);
        inputs += f.inputs;
    }
    for figures in [&mut actions, &mut draws, &mut private_draws] {
        figures.sort_by(f64::total_cmp);
    }
    println!(
        "{}, {seats} peers over TCP loopback, random bots wait {delay} ms before acting",
        game.title()
    );
    let line = |what: &str, figures: &[f64]| {
        println!(
            "{what} applied on every peer: p50 {:.2} ms, p99 {:.2} ms ({} samples)",
            percentile(figures, 0.5),
            percentile(figures, 0.99),
            figures.len()
        );
    };
    line("action", &actions);
    line("card draw (action + reveal round)", &draws);
    line(
        "private draw (action + every other seat's decryption shares)",
        &private_draws,
    );
    let mean = bytes.iter().sum::<u64>() / bytes.len().max(1) as u64;
    println!(
        "wire bytes per game (all {seats} peers' sends, libp2p overhead included): {mean} ({:.2} MB)",
        mean as f64 / 1e6
    );
    println!(
        "wire bytes per input (transcript position): {}",
        bytes.iter().sum::<u64>() / inputs.max(1)
    );
    Ok(())
}
