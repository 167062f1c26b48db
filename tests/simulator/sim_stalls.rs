//! Stalls: a peer that stops for good is claimed stalled by the others after
//! the stall timeout, forfeits and plays on as a zombie, and the game ends
//! with the forfeit in the audited result; a slow peer, even one slower
//! than the timeout, never breaks agreement.
//!
//! `SIM_GAMES=n` sets the seeds per test, `SIM_SEED=s` replays one seed.

use roundtable_engine::Seat;
use roundtable_tests::sim::{self, Outcome, Role, SimConfig};

/// Run `config` for every seed and check agreement plus `extra`; fail with a
/// replay command per broken seed.
fn check_all(
    name: &str,
    seeds: &[u64],
    config: impl Fn(u64) -> SimConfig + Sync,
    extra: impl Fn(&Outcome) -> Result<(), String> + Sync,
) -> Vec<Outcome> {
    let results = sim::for_seeds(seeds, |seed| {
        let outcome = sim::run(config(seed));
        let checked = outcome.check_agreement().and_then(|_| extra(&outcome));
        (outcome, checked)
    });
    let mut failures = Vec::new();
    let mut outcomes = Vec::new();
    for (seed, result) in results {
        match result {
            Ok((outcome, Ok(()))) => outcomes.push(outcome),
            Ok((_, Err(e))) | Err(e) => failures.push(format!(
                "seed {seed}: {e}\n  replay: {}",
                sim::replay_command("sim_stalls", name, seed)
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} seeds failed:\n{}",
        failures.len(),
        seeds.len(),
        failures.join("\n")
    );
    outcomes
}

/// Every honest peer applied a stall forfeit of each peer that died before
/// the game ended, and the audit reports it.
fn dead_are_forfeited(o: &Outcome) -> Result<(), String> {
    let report = o.check_agreement()?;
    let ended = o
        .honest()
        .filter_map(|p| p.finished_at)
        .min()
        .unwrap_or(u64::MAX);
    let dead: Vec<u8> = o
        .peers
        .iter()
        .filter(|p| matches!(p.role, Role::Dies { at_ms } if at_ms < ended))
        .map(|p| p.seat.0)
        .collect();
    if dead.is_empty() {
        return Err("the game ended before any peer stopped".into());
    }
    let abandoned = report.abandoned.is_some();
    let reason = if abandoned {
        "stopped: the game is abandoned"
    } else {
        "stalled"
    };
    for &d in &dead {
        if !report.forfeited.contains(&(Seat(d), "stalled"))
            && !report.forfeited.contains(&(Seat(d), reason))
        {
            return Err(format!(
                "the audit does not report seat {} stalled: {:?}",
                d + 1,
                report.forfeited
            ));
        }
        if let Some(p) = o
            .honest()
            .find(|p| !p.forfeit_records.iter().any(|&(_, s)| s == Seat(d)))
        {
            return Err(format!("{} never forfeited seat {}", p.seat, d + 1));
        }
    }
    Ok(())
}

#[test]
fn a_peer_that_stops_for_good_forfeits_and_the_game_ends() {
    let name = "a_peer_that_stops_for_good_forfeits_and_the_game_ends";
    let seeds = sim::seeds_from_env(50_000, 12);
    check_all(
        name,
        &seeds,
        |seed| {
            let mut c = SimConfig::random(seed);
            let dead = (seed % u64::from(c.seats)) as usize;
            c.roles = vec![Role::Honest; usize::from(c.seats)];
            // Early enough that the game is still on.
            c.roles[dead] = Role::Dies {
                at_ms: (seed.wrapping_mul(7_919)) % 30_000,
            };
            c
        },
        dead_are_forfeited,
    );
}

/// Peers that stop one after another, each long enough after the last that
/// its forfeit is complete before the next one goes: the last peer plays
/// all the zombies to the end.
#[test]
fn peers_that_stop_one_after_another_forfeit_and_the_last_plays_on() {
    let name = "peers_that_stop_one_after_another_forfeit_and_the_last_plays_on";
    let seeds = sim::seeds_from_env(51_000, 6);
    check_all(
        name,
        &seeds,
        |seed| all_but_one_stop(seed, 3 * 10_000),
        dead_are_forfeited,
    );
}

/// 3–5 seats, all but one dying `apart_ms` after each other.
fn all_but_one_stop(seed: u64, apart_ms: u64) -> SimConfig {
    let mut c = SimConfig::random(seed);
    c.seats = 3 + (seed % 3) as u8;
    let last = (seed % u64::from(c.seats)) as usize;
    c.roles = (0..usize::from(c.seats))
        .map(|i| {
            if i == last {
                Role::Honest
            } else {
                Role::Dies {
                    at_ms: 2_000 + apart_ms * i as u64,
                }
            }
        })
        .collect();
    c
}

/// Peers that stop within one stall timeout of each other cannot forfeit
/// one by one: a forfeit needs a claim from every other seat still in, and
/// the other stopped seats sign none. The survivor claims the silent seats
/// too, one more timeout later, and the game ends abandoned (SPEC 3.6): the
/// stopped seats forfeited and ranked last, in every honest peer's audited
/// transcript.
#[test]
fn peers_that_stop_together_are_all_forfeited() {
    let name = "peers_that_stop_together_are_all_forfeited";
    let mut seeds = sim::seeds_from_env(51_500, 5);
    if std::env::var_os("SIM_SEED").is_none() {
        // Found by a rotated seed: the survivor, back from a restart, missed
        // a reveal that only the two seats that then stopped held, while
        // one of them had shown it went on. Counting that seat as not
        // stopped left the survivor waiting for ever.
        seeds.push(179_551_835_551_500);
    }
    let outcomes = check_all(
        name,
        &seeds,
        |seed| all_but_one_stop(seed, 1_000),
        |o| {
            dead_are_forfeited(o)?;
            let report = o.check_agreement()?;
            let stopped = report
                .abandoned
                .as_ref()
                .ok_or("the game was not abandoned")?;
            let result = report.result.as_ref().ok_or("no result")?;
            let survivors = result.standings.len() - stopped.len();
            for s in &result.standings {
                let last = stopped.contains(&s.seat);
                if last != (usize::from(s.rank) == survivors) {
                    return Err(format!("{s:?} is ranked wrongly ({stopped:?} stopped)"));
                }
            }
            Ok(())
        },
    );
    assert!(!outcomes.is_empty());
}

/// A peer down for longer than the stall timeout is forfeited while it is
/// away; after the restart it replays its log (where it may have applied
/// its own move that never got out), learns the forfeit from the others'
/// claims in catch-up, goes back to it if needed, and ends with the same
/// transcript as a zombie.
#[test]
fn a_peer_down_longer_than_the_timeout_learns_its_forfeit_after_the_restart() {
    let name = "a_peer_down_longer_than_the_timeout_learns_its_forfeit_after_the_restart";
    let restarted = sim::Premise::new("a peer restarted", &[54_000, 54_001]);
    let mut seeds = restarted.with_its_seeds(sim::seeds_from_env(54_000, 10));
    if std::env::var_os("SIM_SEED").is_none() {
        // Issue 12, found by a rotated seed: the restarted peer applied its
        // own move the others had claimed it stalled on, then met a
        // claimant's (signed) reveal where that move made the game wait for
        // the claimant's decision, and blamed it instead of waiting for
        // the forfeit.
        seeds.push(179_550_251_254_004);
    }
    let outcomes = check_all(
        name,
        &seeds,
        |seed| {
            let mut c = SimConfig::random(seed);
            c.faults.crashes = 1 + (seed % 2) as u32;
            c.faults.partitions = 0;
            c.faults.crash_down_ms = (c.stall_timeout_ms * 3 / 2, c.stall_timeout_ms * 3);
            c.faults.horizon_ms = 60_000;
            c
        },
        |_| Ok(()),
    );
    for o in &outcomes {
        restarted.note(o.config.seed, o.honest().any(|p| p.restarts > 0));
    }
    restarted.assert_held(&seeds);
    let forfeits = outcomes
        .iter()
        .filter(|o| o.peers.iter().any(|p| !p.forfeit_records.is_empty()))
        .count();
    let rewinds: u32 = outcomes
        .iter()
        .flat_map(|o| &o.peers)
        .map(|p| p.rewinds)
        .sum();
    println!(
        "{name}: {forfeits} of {} games had a forfeit; {rewinds} rewinds",
        outcomes.len()
    );
    assert!(
        forfeits > 0 || seeds.len() < 5,
        "no restarted peer was ever forfeited"
    );
}

#[test]
fn a_slow_peer_within_the_timeout_keeps_agreement_and_is_never_forfeited() {
    let name = "a_slow_peer_within_the_timeout_keeps_agreement_and_is_never_forfeited";
    let seeds = sim::seeds_from_env(52_000, 10);
    check_all(
        name,
        &seeds,
        |seed| {
            let mut c = SimConfig::random(seed);
            // Thinking up to a quarter of the timeout, on a network whose
            // outages and delays stay below the rest: a crash (up to 3 s,
            // less than a third of the timeout) makes the restarted bot
            // think again from the start, so think time and outage add up.
            let slow = (seed % u64::from(c.seats)) as usize;
            c.roles = vec![Role::Honest; usize::from(c.seats)];
            c.roles[slow] = Role::Slow {
                think_ms: (c.stall_timeout_ms / 10, c.stall_timeout_ms / 4),
            };
            c
        },
        |o| match o.honest().find(|p| !p.forfeit_records.is_empty()) {
            Some(p) => Err(format!(
                "{} applied forfeits {:?}",
                p.seat, p.forfeit_records
            )),
            None => Ok(()),
        },
    );
}

#[test]
fn a_peer_slower_than_the_timeout_follows_its_own_forfeit() {
    let name = "a_peer_slower_than_the_timeout_follows_its_own_forfeit";
    let mut seeds = sim::seeds_from_env(53_000, 10);
    if std::env::var_os("SIM_SEED").is_none() {
        // Found by a rotated seed: two seats claimed a third just before its
        // late move, which a fourth applied; that fourth seat, back from a
        // restart, showed it went on only after the two had abandoned the
        // game counting the third (seen past) and the fourth stopped. The
        // fourth's news did not overtake that abandonment, and the table
        // split in two pairs, each abandoning the other.
        seeds.push(179_553_894_753_000);
    }
    let outcomes = check_all(
        name,
        &seeds,
        |seed| {
            let mut c = SimConfig::random(seed);
            let slow = (seed % u64::from(c.seats)) as usize;
            c.roles = vec![Role::Honest; usize::from(c.seats)];
            // Often past the timeout, sometimes just at it: the others claim
            // it while its own move is on the way.
            c.roles[slow] = Role::Slow {
                think_ms: (c.stall_timeout_ms / 2, c.stall_timeout_ms * 3 / 2),
            };
            c
        },
        |_| Ok(()),
    );
    let forfeits = outcomes
        .iter()
        .filter(|o| o.peers.iter().any(|p| !p.forfeit_records.is_empty()))
        .count();
    let rewinds: u32 = outcomes
        .iter()
        .flat_map(|o| &o.peers)
        .map(|p| p.rewinds)
        .sum();
    println!(
        "{name}: {forfeits} of {} games had a forfeit; {rewinds} rewinds",
        outcomes.len()
    );
    assert!(
        forfeits > 0 || seeds.len() < 5,
        "the slow peer was never forfeited"
    );
}
