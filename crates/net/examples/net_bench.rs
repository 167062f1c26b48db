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
//! Figures of 2026-11-28, a **release** build (`--release`), 5 ms bots, on
//! 2 cores shared with five other engineers' builds (`/proc/loadavg` 8.8
//! to 11.5 for the "before" runs, 12.9 to 14.7 for the "after" runs;
//! latencies suffer from it, bytes hardly). Before: the base of this round
//! (8438d6d). After: catch-up asks only once a seat's heads stand still
//! (SPEC 4.4, "Who asks whom"), and the table topic is `t2/` and 8 bytes of
//! the game id, 19 bytes instead of 38 (SPEC 4.2).
//!
//! | game, seats, games | | action p50/p99 | draw p50/p99 | private draw p50/p99 | bytes per game | per input |
//! | --- | --- | --- | --- | --- | --- | --- |
//! | Port Royal, 5, 5 | before | 1.00 / 14.9 ms | 6.4 / 20.7 ms | none (no private cards) | 1.96 MB (676 inputs) | 2,903 |
//! | Port Royal, 5, 10 | after | 1.01 / 24.7 ms | 9.6 / 36.8 ms | none | **1.83 MB** (695 inputs) | 2,631 (-9.4 %) |
//! | Guildhall, 4, 3 | before | 1.31 / 24.0 ms | 8.4 / 31.0 ms | 19.4 / 180.4 ms | 1.94 MB (630 inputs) | 3,082 |
//! | Guildhall, 4, 3 | after | 1.21 / 27.8 ms | 4.6 / 16.6 ms | 15.8 / 190.8 ms | 1.59 MB (534 inputs) | 2,971 (-3.6 %) |
//! | Waters of Nereus, 4, 3 | before | 0.75 / 11.9 ms | 8.8 / 31.8 ms | 9.1 / 18.6 ms (9) | 0.56 MB (399 inputs) | 1,414 |
//! | Waters of Nereus, 4, 3 | after | 0.80 / 9.4 ms | 7.0 / 18.6 ms | 6.7 / 15.7 ms (14) | 0.53 MB (421 inputs) | 1,265 (-10.5 %) |
//!
//! Port Royal's games one by one (inputs, bytes). Before: 610 1,774,339;
//! 618 1,881,181; 719 2,025,044; 796 2,273,595; 639 1,865,991. After: 619
//! 1,662,924; 794 2,087,654; 818 2,127,636; 497 1,297,220; 703 1,899,674;
//! 601 1,641,040; 708 1,905,910; 675 1,752,170; 807 2,078,958; 733
//! 1,851,078. A game's bytes follow its length (random bots and random
//! keys: 500 to 870 inputs), so one game of more than ~760 inputs is still
//! over 2 MB; at the mean length of all 20 Port Royal games run (708
//! inputs) a game is 1.86 MB. With the catch-up change alone (5 games, 766
//! inputs on average) it was 2,798 bytes an input (-3.6 %). Bytes per game are sums of the games' own counts, so
//! Guildhall's fell with its shorter games too; compare per input.
//!
//! Measured again 2026-11-28 (session 36) once a seat re-announced a
//! subscription a closing connection took along and a catch-up answer
//! compared heads only when ours were still those the request carried
//! (SPEC 4.2, 4.4), release build, 5 ms bots, nothing else running but one
//! niced search run on the other core (load average 0.2 to 1.5):
//!
//! | game, seats, games | action p50/p99 | draw p50/p99 | private draw p50/p99 | bytes per game | per input |
//! | --- | --- | --- | --- | --- | --- |
//! | Port Royal, 5, 6 | 0.99 / 4.55 ms | 3.45 / 6.38 ms | none | 1.81 MB (660 inputs) | 2,743 |
//! | Port Royal, 5, 6 (a second run) | 1.05 / 4.43 ms | 3.47 / 6.42 ms | none | 1.77 MB | 2,649 |
//! | Guildhall, 4, 3 | 1.05 / 8.95 ms | 2.49 / 11.30 ms | 7.16 / 85.03 ms | 1.84 MB | 2,980 |
//! | Waters of Nereus, 4, 3 | 0.54 / 2.75 ms | 2.78 / 5.44 ms | 3.56 / 4.77 ms (14) | 0.55 MB | 1,360 |
//!
//! The latencies are those of a quiet machine, not of a change (p99 at a
//! load average of 13 was five times higher). Bytes per input stay within
//! the runs' spread (2,631 to 2,779 over the last four Port Royal runs);
//! the first run's games, one by one: 841 2,326,526; 550 1,531,793; 433
//! 1,199,544; 653 1,775,154; 750 2,052,217; 732 1,978,136. So a mean game
//! is under 2 MB, and a game of more than ~730 inputs is still over it.
//!
//! Where Port Royal's bytes go: an input is ~2.4 envelopes (a draw takes a
//! reveal from every seat), an envelope ~195 bytes, each flood-published to
//! 4 peers (nothing is forwarded, SPEC 4.2), and around each copy ~60
//! bytes of gossipsub (19 of them the topic, 38 before), yamux and noise
//! framing: envelope copies are now ~93 % of the bytes. Catch-up, before:
//! ~160 requests a game (one a second per pair of seats, each a new yamux
//! stream with multistream-select, and envelopes still in flight by gossip
//! that a response repeated), ~4 % of the bytes; after: ~44 a game (on
//! entering play and on finishing), none while the game moves. What is left
//! is fixed per game (~63 KB: noise handshakes, identify, subscriptions,
//! pings) and the envelopes themselves; the next lever would be fewer or
//! smaller envelopes (a format change) or several envelopes of one author
//! in one gossip message (a wire change).

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
