//! Which seeds a test runs, on how many threads, and how to replay one.

/// The one-line command that replays `seed` in test `name` of module
/// `module` of the `simulator` test binary.
pub fn replay_command(module: &str, name: &str, seed: u64) -> String {
    format!(
        "SIM_SEED={seed} cargo test -p roundtable-tests --test simulator {module}::{name} -- --exact --nocapture"
    )
}

/// Run `f` for every seed on `SIM_THREADS` threads (default: the machine's
/// parallelism), returning the results in seed order; a run that panics
/// gives the panic's message. Each run is deterministic by itself, so the
/// threads change nothing but the speed.
pub fn for_seeds<T: Send>(
    seeds: &[u64],
    f: impl Fn(u64) -> T + Sync,
) -> Vec<(u64, Result<T, String>)> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let threads = std::env::var("SIM_THREADS")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .clamp(1, seeds.len().max(1));
    let next = AtomicUsize::new(0);
    let mut all: Vec<(usize, Result<T, String>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&seed) = seeds.get(k) else {
                            break;
                        };
                        let result =
                            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(seed)))
                                .map_err(|p| {
                                    p.downcast_ref::<String>()
                                        .cloned()
                                        .or_else(|| {
                                            p.downcast_ref::<&str>().map(|s| (*s).to_owned())
                                        })
                                        .unwrap_or_else(|| "a panic".to_owned())
                                });
                        done.push((k, result));
                    }
                    done
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_default())
            .collect()
    });
    all.sort_by_key(|(k, _)| *k);
    all.into_iter().map(|(k, r)| (seeds[k], r)).collect()
}

/// Seeds to run: `SIM_SEED` alone when set (a replay), else `SIM_GAMES`
/// seeds (or `default`) from `base`, moved on by this run's number (see
/// [`run_number`]): the same commit plays the same games, so a red run is
/// red again, and the seeds are printed so that a failure replays.
pub fn seeds_from_env(base: u64, default: u64) -> Vec<u64> {
    let games = env_number("SIM_GAMES").unwrap_or(default);
    let (run, source) = run_number();
    let seeds = seeds_of_run(base, games, env_number("SIM_SEED"), run);
    if let (Some(first), Some(last)) = (seeds.first(), seeds.last()) {
        eprintln!(
            "simulator seeds {first}..={last}, run {run} ({source}; SIM_RUN={run} plays them again; SIM_SEED=<seed> replays one)"
        );
    }
    seeds
}

/// The seeds of run number `run`: `games` from `base` moved on by the run,
/// or only `pinned` when a replay names one.
fn seeds_of_run(base: u64, games: u64, pinned: Option<u64>, run: u64) -> Vec<u64> {
    if let Some(seed) = pinned {
        return vec![seed];
    }
    let first = run.wrapping_mul(RUN_STRIDE).wrapping_add(base);
    (first..first.saturating_add(games)).collect()
}

/// How far one run's seeds are from the next run's: more than any test's
/// `base` plus its games, so that consecutive runs never repeat a game.
const RUN_STRIDE: u64 = 100_000;

/// This run's number, and where it came from: `SIM_RUN` when set (to play
/// a run's seeds again); else the clock when `SIM_EXPLORE` is set (each run
/// new games: exploration, whose finds are pinned by hand); else the
/// commit checked out, so that CI plays the same games on the same commit.
/// Outside a git checkout, run 0.
fn run_number() -> (u64, &'static str) {
    if let Some(run) = env_number("SIM_RUN") {
        return (run, "SIM_RUN");
    }
    if std::env::var_os("SIM_EXPLORE").is_some() {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        return (secs, "SIM_EXPLORE: the clock");
    }
    match commit_run() {
        Some(run) => (run, "the commit"),
        None => (0, "no commit found"),
    }
}

/// The run number of the commit checked out: its first 32 bits. Asked of
/// git in this crate's folder, which is inside the checkout.
fn commit_run() -> Option<u64> {
    let out = std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let hash = String::from_utf8(out.stdout).ok()?;
    run_of_commit(hash.trim())
}

/// The run number of a commit hash: its first 8 hex digits. Small enough
/// that `run * RUN_STRIDE` never wraps into another run's seeds.
fn run_of_commit(hash: &str) -> Option<u64> {
    u64::from_str_radix(hash.get(..8)?, 16).ok()
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|s| s.trim().parse().ok())
}

/// A test's premise (a fault it injects, say a crash) and the seeds it is
/// proven on. Faults are scheduled at random times, and a short game can
/// end before its first fault: such a seed still checks agreement, but
/// proves nothing about the fault. The rotating seeds therefore only count
/// where the premise held (printed); the test's own seeds, `proven_on`,
/// always run too and must each see it, so that a green run shows the
/// fault happened, and the check is a fact of fixed seeds, never a share of
/// rotating ones (which could fail on some commit with no defect).
pub struct Premise {
    what: &'static str,
    proven_on: &'static [u64],
    held: std::sync::Mutex<std::collections::BTreeSet<u64>>,
}

impl Premise {
    /// A premise described as `what` ("a peer restarted") that holds on
    /// each seed of `proven_on`.
    pub fn new(what: &'static str, proven_on: &'static [u64]) -> Premise {
        Premise {
            what,
            proven_on,
            held: std::sync::Mutex::new(std::collections::BTreeSet::new()),
        }
    }

    /// `seeds` and the premise's own seeds, unless a replay (`SIM_SEED`)
    /// names the one seed to run.
    pub fn with_its_seeds(&self, mut seeds: Vec<u64>) -> Vec<u64> {
        if std::env::var_os("SIM_SEED").is_none() {
            for seed in self.proven_on {
                if !seeds.contains(seed) {
                    seeds.push(*seed);
                }
            }
        }
        seeds
    }

    /// Note whether the premise held on `seed`.
    pub fn note(&self, seed: u64, held: bool) {
        if held {
            self.held
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .insert(seed);
        }
    }

    /// Fail unless the premise held on every one of its own seeds among
    /// `seeds` (the seeds the test ran).
    pub fn assert_held(&self, seeds: &[u64]) {
        let held = self
            .held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        println!(
            "{} on {} of {} seeds: {:?}",
            self.what,
            held.len(),
            seeds.len(),
            held
        );
        let missed: Vec<u64> = self
            .proven_on
            .iter()
            .filter(|s| seeds.contains(s) && !held.contains(s))
            .copied()
            .collect();
        assert!(
            missed.is_empty(),
            "{} did not happen on seeds {missed:?}, where it always did: the test no longer tests its fault there (pin other seeds on which it holds)",
            self.what
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_run_plays_new_seeds_and_a_pinned_seed_replays() {
        let today = seeds_of_run(0, 1000, None, 1_800_000_000);
        let next = seeds_of_run(0, 1000, None, 1_800_000_001);
        assert_eq!((today.len(), next.len()), (1000, 1000));
        assert!(
            today.iter().all(|s| !next.contains(s)),
            "two runs share seeds"
        );
        assert_eq!(today, seeds_of_run(0, 1000, None, 1_800_000_000));
        // Another test's range (its own base) does not meet this one's.
        let other = seeds_of_run(10_000, 8, None, 1_800_000_000);
        assert!(other.iter().all(|s| !today.contains(s)));
        assert_eq!(seeds_of_run(0, 1000, Some(today[17]), 5), vec![today[17]]);
    }

    #[test]
    fn a_commit_names_its_run() {
        assert_eq!(
            run_of_commit("5b304e9aa0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5"),
            Some(0x5b30_4e9a)
        );
        assert_eq!(run_of_commit("xyz"), None);
        assert_eq!(run_of_commit("not-hex-at-all"), None);
    }
}
