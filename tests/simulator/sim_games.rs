//! Whole games between peers over a faulty simulated network: every honest
//! peer finishes, with the same transcript, byte-identical transcript files,
//! and a transcript the audit finds valid.
//!
//! `SIM_GAMES=n` sets how many seeds the random-fault test plays,
//! `SIM_SEED=s` replays one seed, `SIM_THREADS=t` sets the parallelism.

use std::time::Instant;

use roundtable_tests::sim::{self, Faults, Outcome, SimConfig};

/// Seeds of the random-fault test per CI run: the thousand full games the
/// issue asks for, about 0.15 s of CPU each in a test build (the crates a
/// game runs in are optimised in the dev profile), so some two to three
/// minutes on two cores. The other simulator tests add some 120 games.
const CI_GAMES: u64 = 1_000;

/// Run `configs` and fail with a replay command for every seed that broke
/// the property.
fn check_all(
    name: &str,
    seeds: &[u64],
    config: impl Fn(u64) -> SimConfig + Sync,
    extra: impl Fn(&Outcome) -> Result<(), String> + Sync,
) {
    let started = Instant::now();
    let results = sim::for_seeds(seeds, |seed| {
        let outcome = sim::run(config(seed));
        outcome.check_agreement()?;
        extra(&outcome)?;
        Ok::<_, String>((outcome.stats.inputs, outcome.stats.messages))
    });
    let mut failures = Vec::new();
    let (mut inputs, mut messages) = (0, 0);
    for (seed, result) in &results {
        match result {
            Ok(Ok((i, m))) => {
                inputs += i;
                messages += m;
            }
            Ok(Err(e)) | Err(e) => failures.push(format!(
                "seed {seed}: {e}\n  replay: {}",
                sim::replay_command("sim_games", name, *seed)
            )),
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{name}: {} games, {inputs} inputs, {messages} messages in {secs:.1} s ({:.1} games/s)",
        results.len(),
        results.len() as f64 / secs
    );
    assert!(
        failures.is_empty(),
        "{} of {} seeds failed:\n{}",
        failures.len(),
        results.len(),
        failures.join("\n")
    );
}

#[test]
fn random_faults_end_every_game_in_agreement() {
    let seeds = sim::seeds_from_env(0, CI_GAMES);
    check_all(
        "random_faults_end_every_game_in_agreement",
        &seeds,
        SimConfig::random,
        |_| Ok(()),
    );
}

#[test]
fn a_perfect_network_agrees_at_every_table_size() {
    let seeds = sim::seeds_from_env(10_000, 8);
    check_all(
        "a_perfect_network_agrees_at_every_table_size",
        &seeds,
        |seed| SimConfig::calm(seed, 2 + (seed % 4) as u8),
        |o| {
            // Nothing is lost, so nobody is ever claimed stalled.
            match o.honest().find(|p| !p.forfeits.is_empty()) {
                Some(p) => Err(format!("{} applied forfeits {:?}", p.seat, p.forfeits)),
                None => Ok(()),
            }
        },
    );
}

#[test]
fn peers_that_crash_often_resume_from_torn_logs() {
    let restarted = sim::Premise::new("a peer restarted", &[20_000, 20_001]);
    let seeds = restarted.with_its_seeds(sim::seeds_from_env(20_000, 16));
    check_all(
        "peers_that_crash_often_resume_from_torn_logs",
        &seeds,
        |seed| {
            let mut c = SimConfig::random(seed);
            c.faults.crashes = 12;
            c.faults.horizon_ms = 120_000;
            c
        },
        |o| {
            restarted.note(o.config.seed, o.honest().any(|p| p.restarts > 0));
            Ok(())
        },
    );
    restarted.assert_held(&seeds);
}

#[test]
fn a_lossy_split_network_still_agrees() {
    let mut seeds = sim::seeds_from_env(30_000, 16);
    if std::env::var_os("SIM_SEED").is_none() {
        // Found by a rotated seed: a seat that missed every other seat's
        // reveal for a stall timeout claimed them all and abandoned the
        // game, while they went on and forfeited it; once it heard them it
        // kept its abandonment and the transcripts differed. An
        // abandoned seat that shows it went on now overtakes it (3.6).
        seeds.push(179_551_949_430_019);
        // Found by a commit's seeds: a late claim made a finished seat go
        // back twice in one step, and the harness wrote the transcript at
        // the first finish from a table already past it, so the claim was
        // in the file before the log, and never in the log in arrival order
        // the check audits. A finish is now acted on once the step's
        // outputs are all out.
        seeds.push(60_805_789_330_002);
    }
    check_all(
        "a_lossy_split_network_still_agrees",
        &seeds,
        |seed| {
            let mut c = SimConfig::random(seed);
            c.faults = Faults {
                drop: 0.4,
                duplicate: 0.3,
                straggle: 0.2,
                partitions: 10,
                horizon_ms: 150_000,
                ..c.faults
            };
            c
        },
        |_| Ok(()),
    );
}

/// Two seats cut apart for longer than the stall timeout: each forfeits the
/// other, and the earlier forfeit must win on both sides once they hear each
/// other again (the table rewinds the seat that lost first, even after it
/// played the game to its end). When both forfeit each other at the same
/// position (a chance event both reveal for), the lower seat forfeits.
#[test]
fn two_seats_cut_apart_for_long_agree_on_the_earlier_forfeit() {
    let name = "two_seats_cut_apart_for_long_agree_on_the_earlier_forfeit";
    let mut seeds = sim::seeds_from_env(40_000, 24);
    if std::env::var_os("SIM_SEED").is_none() {
        // Found by a rotated seed (issue 12): both sides finished and stopped
        // before the cut healed, so they keep crossing forfeits.
        seeds.push(179_550_322_040_016);
    }
    let results = sim::for_seeds(&seeds, |seed| {
        let mut c = SimConfig::random(seed);
        c.seats = 2;
        c.faults = Faults {
            drop: 0.4,
            duplicate: 0.3,
            straggle: 0.2,
            partitions: 6,
            partition_ms: (5_000, 25_000),
            horizon_ms: 150_000,
            ..c.faults
        };
        let outcome = sim::run(c);
        outcome
            .check_agreement()
            .map(|_| ())
            .or_else(|e| {
                one_result_of_crossing_forfeits(&outcome).map_err(|why| format!("{e}; {why}"))
            })
            .map_err(|e| match outcome.mutual_forfeit() {
                Some(position) => format!("{e} (the seats forfeited each other at {position})"),
                None => e,
            })
    });
    let failures: Vec<String> = results
        .into_iter()
        .filter_map(|(seed, result)| match result {
            Ok(Ok(_)) => None,
            Ok(Err(e)) | Err(e) => Some(format!(
                "seed {seed}: {e}\n  replay: {}",
                sim::replay_command("sim_games", name, seed)
            )),
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// When the two sides of a game cut in two each finished, forfeiting the
/// other, and stopped before they heard each other again (the cut outlasted
/// the game and their time serving catch-up after it), their transcripts
/// differ for good. Then the game has one result by the rule for several
/// transcripts of one game (SPEC 3.9): crossing forfeits contradict each
/// other, and neither stands as a win.
fn one_result_of_crossing_forfeits(outcome: &sim::Outcome) -> Result<(), String> {
    let peers: Vec<_> = outcome.honest().collect();
    let crossing = peers.len() == 2
        && peers.iter().all(|p| p.finished)
        && peers[0]
            .forfeit_records
            .iter()
            .any(|&(_, s)| s == peers[1].seat)
        && peers[1]
            .forfeit_records
            .iter()
            .any(|&(_, s)| s == peers[0].seat);
    if !crossing {
        return Err("not two finished sides that forfeited each other".into());
    }
    let verdict = roundtable_table::verdict::verdict::<roundtable_port_royal::PortRoyal>(&[
        &peers[0].transcript,
        &peers[1].transcript,
    ])
    .map_err(|e| format!("no verdict: {e}"))?;
    match verdict.outcome {
        roundtable_table::verdict::Outcome::Contradicted { .. } => Ok(()),
        other => Err(format!(
            "the two transcripts' verdict is {other:?}, not contradicted"
        )),
    }
}
