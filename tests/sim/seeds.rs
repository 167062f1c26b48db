//! Which seeds a test runs, on how many threads, and how to replay one.

/// The one-line command that replays `seed` in test `name` of test target
/// `target`.
pub fn replay_command(target: &str, name: &str, seed: u64) -> String {
    format!(
        "SIM_SEED={seed} cargo test -p roundtable-tests --test {target} {name} -- --exact --nocapture"
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
/// seeds (or `default`) from `base`.
pub fn seeds_from_env(base: u64, default: u64) -> Vec<u64> {
    if let Some(seed) = std::env::var("SIM_SEED")
        .ok()
        .and_then(|s| s.trim().parse().ok())
    {
        return vec![seed];
    }
    let games = std::env::var("SIM_GAMES")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(default);
    (base..base + games).collect()
}
