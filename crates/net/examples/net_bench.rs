//! Five peers play Port Royal over real libp2p (TCP + noise + yamux on
//! 127.0.0.1), each its own swarm, in one process; prints latency and wire
//! figures.
//!
//! * **action**: from a seat applying its own decision to the last of the
//!   five peers applying it (p50/p99);
//! * **draw**: from a seat's decision that raises a chance event (a card
//!   drawn) to the last peer applying its outcome, i.e. the action plus a
//!   full round of reveals from every seat (p50/p99);
//! * **bytes per game**: every byte the five swarms wrote to TCP (noise,
//!   yamux, gossipsub, identify, ping, catch-up and lobby included).
//!
//! `cargo run --release -p roundtable-net --example net_bench [GAMES] [BOT_DELAY_MS]`

use std::collections::HashMap;
use std::time::{Duration, Instant};

use roundtable_bots::RandomBot;
use roundtable_net::{ByteCounter, Controller, DataDir, NetEvent, NodeConfig, Role, Timing, spawn};
use roundtable_port_royal::{Options, PortRoyal};
use roundtable_table::Record;

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
    bytes: u64,
    inputs: u64,
    envelopes_bytes: u64,
    wall: Duration,
}

async fn one_game(
    seed: u64,
    bot_delay: Duration,
) -> Result<GameFigures, Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let counters: Vec<_> = (0..5).map(|_| ByteCounter::new()).collect();
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
            ..Timing::default()
        };
        c
    };
    let started = Instant::now();
    let mut host = spawn::<PortRoyal>(
        config(0),
        Role::Host {
            seats: 5,
            options: Options::default(),
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
    for i in 1..5 {
        handles.push(spawn::<PortRoyal>(
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
            let mut applied: HashMap<u64, (Instant, Option<u8>, bool)> = HashMap::new();
            let mut seat = None;
            while let Some(e) = events.recv().await {
                let now = Instant::now();
                match e {
                    NetEvent::Started { seat: s, .. } => seat = s.map(|s| s.0),
                    NetEvent::Applied {
                        position, record, ..
                    } => {
                        let (author, chance) = match record {
                            Record::Action { seat, .. } => (Some(seat.0), false),
                            Record::Chance { .. } => (None, true),
                            _ => (None, false),
                        };
                        applied.insert(position, (now, author, chance));
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
    for position in 0..inputs {
        let Some(&(_, Some(author), _)) = per_peer[0].get(&position) else {
            continue;
        };
        let Some(&a) = seat_of_peer.get(&author) else {
            continue;
        };
        let Some(&(t0, _, _)) = per_peer[a].get(&position) else {
            continue;
        };
        let last = per_peer
            .iter()
            .filter_map(|m| m.get(&position).map(|x| x.0))
            .max()
            .unwrap_or(t0);
        actions.push(last.saturating_duration_since(t0).as_secs_f64() * 1000.0);
        if per_peer[0].get(&(position + 1)).is_some_and(|x| x.2) {
            let last = per_peer
                .iter()
                .filter_map(|m| m.get(&(position + 1)).map(|x| x.0))
                .max()
                .unwrap_or(t0);
            draws.push(last.saturating_duration_since(t0).as_secs_f64() * 1000.0);
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
        bytes,
        inputs,
        envelopes_bytes,
        wall,
    })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let delay: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let mut actions = Vec::new();
    let mut draws = Vec::new();
    let mut bytes = Vec::new();
    let mut inputs = 0u64;
    for g in 0..games {
        let f = runtime.block_on(one_game(g + 1, Duration::from_millis(delay)))?;
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
        bytes.push(f.bytes);
        inputs += f.inputs;
    }
    actions.sort_by(f64::total_cmp);
    draws.sort_by(f64::total_cmp);
    println!("5 peers over TCP loopback, bots wait {delay} ms before acting");
    println!(
        "action applied on every peer: p50 {:.2} ms, p99 {:.2} ms ({} samples)",
        percentile(&actions, 0.5),
        percentile(&actions, 0.99),
        actions.len()
    );
    println!(
        "card draw (action + reveal round) applied on every peer: p50 {:.2} ms, p99 {:.2} ms ({} samples)",
        percentile(&draws, 0.5),
        percentile(&draws, 0.99),
        draws.len()
    );
    let mean = bytes.iter().sum::<u64>() / bytes.len().max(1) as u64;
    println!(
        "wire bytes per game (all five peers' sends, libp2p overhead included): {mean} ({} KiB)",
        mean / 1024
    );
    println!(
        "wire bytes per input (transcript position): {}",
        bytes.iter().sum::<u64>() / inputs.max(1)
    );
    Ok(())
}
