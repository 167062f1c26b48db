//! How strong the search bot is, in seeded games.
//!
//! * 4-seat Port Royal: one search bot against three heuristic bots, the
//!   search bot's seat rotating from game to game;
//! * 2-seat Port Royal: search bot against the heuristic bot, seats
//!   alternating;
//! * 4-seat Hands: one search bot against three random bots (Hands has no
//!   heuristic bot), seats rotating, the private deal from a local oracle;
//! * 4-seat Guildhall and 4-seat Nereus: one search bot against three
//!   heuristic bots, seats rotating, the private deal from a local oracle;
//! * 2-seat Guildhall and 2-seat Nereus: search bot against the heuristic
//!   bot, seats alternating.
//!
//! Win rates count a shared first place as a win and come with a 95%
//! Wilson interval. The search bot thinks `STRENGTH_MS` milliseconds a
//! decision (default 100), or makes exactly `STRENGTH_PLAYOUTS` playouts a
//! decision if that is set (reproducible, and the same work however busy
//! the machine is), with the playout policy `STRENGTH_POLICY` (`heuristic`
//! or `random`, default `heuristic`), over `STRENGTH_GAMES` games per
//! setting (default 40) from game `STRENGTH_FIRST` (default 0; runs of
//! consecutive ranges add up to one run). The budget is paced as the hard
//! bot's is (the most a decision takes; see the search module's "Pace"),
//! or spent whole on every decision with `STRENGTH_FIXED=1`. `STRENGTH_ONLY` (`4`, `2`,
//! `hands`, `guildhall`, `guildhall2`, `nereus` or `nereus2`) runs one
//! setting only. A running tally goes to stderr. Each setting's line ends
//! with the search thread's own CPU time and the playouts it made per
//! 100 ms of it, the figure that turns a think time into
//! `STRENGTH_PLAYOUTS`. Run it
//! on an otherwise idle core, in release:
//!
//! `STRENGTH_GAMES=400 STRENGTH_ONLY=4 cargo run --release -p roundtable-bots --example strength`
//!
//! Measured 2026-11-24 at 100 ms on this 2-core machine while it was shared
//! (load average about 5, so a decision got fewer playouts than on an idle
//! core), default tuning:
//!
//! | setting | playouts | games | search bot won | 95% CI | playouts/decision |
//! |---|---|---|---|---|---|
//! | 4-seat PR vs 3 heuristic | heuristic | 160 | 39.4% (share 25%) | 32.1-47.1% | 363 |
//! | 4-seat PR vs 3 heuristic | random | 60 | 15.0% | 8.1-26.1% | 6,404 |
//! | 2-seat PR vs heuristic | heuristic | 80 | 62.5% (share 50%) | 51.5-72.3% | 366 |
//! | 2-seat PR vs heuristic | random | 40 | 80.0% | 65.2-89.5% | 7,872 |
//! | 4-seat Hands vs 3 random | random | 100 | 67.0% (share 25%) | 57.3-75.4% | 10,751 |
//!
//! Heuristic playouts are the stronger choice at four seats, random ones
//! (17 times as many) at two. Mean decision time was 82-91 ms in Port Royal (decisions with one legal
//! action are not searched and count as 0).
//!
//! Measured again 2026-11-24 with a playout budget of 1,000 heuristic
//! playouts a decision: what 100 ms bought on a core of this machine when
//! it was least busy (1,125 playouts in a mean 88.8 ms over 4 games).
//! 4-seat Hands, search vs 3 random, 100 games: the search bot won 62.0%
//! (95% CI 52.2-70.9%, share 25%), 42.2 ms a searched decision. The 4-seat
//! and 2-seat Port Royal runs at this budget did not finish in the session
//! (the machine ran at a load average of 8 to 15 on its 2 cores; a 4-seat
//! game took far longer than the 6 s it takes on a free core).//!
//! Measured again 2026-11-24 (issue 18, item 2) at 85 heuristic playouts a
//! decision: what 100 ms of CPU bought in `examples/search_speed.rs` (40
//! positions, thread CPU time, pinned with `taskset -c 1`, load average
//! about 4 to 10). The machine ran at a load average of 10 to 16, so the
//! runs were stopped short of 400 games (games 0-55 and 200-257, seats
//! rotating):
//!
//! | setting | games | search bot won | 95% CI | points a game |
//! |---|---|---|---|---|
//! | 4-seat PR vs 3 heuristic | 114 | 28.9% (share 25%) | 21.4-37.9% | 10.6 |
//! | 2-seat PR vs heuristic | 60 | 73.3% (share 50%) | 61.0-82.9% | 12.0 |
//! | 4-seat Guildhall vs 3 heuristic | 6 | 16.7% (share 25%) | 3.0-56.4% | 12.0 |
//!
//! Wall-clock time a searched decision was 0.92 s (4-seat), 0.67 s
//! (2-seat) and 7.0 s (Guildhall) on that machine, niced: not the 100 ms
//! an idle core takes for the same playouts.
//!
//! Measured again 2026-11-24 (issue 18, session 4) after three changes:
//! playouts cut at a horizon and scored by the policy's `Bot::prospects`,
//! progressive widening (a wide decision no longer spends one playout on
//! each action), and Nereus's simultaneous choices searched. The horizon
//! makes a Port Royal playout 19 times cheaper at 8 decisions and 9 times
//! at 16 (one game each, same minute: 11.9 and 24.6 ms against 225.9 ms a
//! decision at 85 playouts), so 800 playouts at horizon 16 cost about what
//! 85 whole ones did. Load average 6 to 15 on the 2 cores, niced, runs
//! stopped at the session's end:
//!
//! | setting | budget a decision | games | search bot won | 95% CI | points a game | wall time a searched decision |
//! |---|---|---|---|---|---|---|
//! | 4-seat PR vs 3 heuristic | 800 playouts, horizon 16 | 131 (0-69, 200-260) | 35.1% (share 25%) | 27.5-43.6% | 10.8 | 352 ms |
//! | 4-seat Guildhall vs 3 heuristic | 85 playouts, horizon 10 | 40 | 45.0% (share 25%) | 30.7-60.2% | 17.2 | 180 ms |
//! | 4-seat Nereus vs 3 heuristic | 85 playouts, horizon 10 | 40 | 75.0% (share 25%) | 59.8-85.8% | 50.4 | 314 ms |
//!
//! Before widening, the same Guildhall search (85 playouts, horizon 10)
//! won 1 of 28: its own policy plays better than a search that picks the
//! earliest of many once-tried actions. Before the horizon it took 7 s a
//! decision. Port Royal at horizon 8 (1,600 playouts) won 2 of 7 and at
//! horizon 16 without widening 5 of 9 before the runs were stopped.
//!
//! Measured again 2026-11-24 (issue 18 item 2, session 5) after Port
//! Royal's prospects began to count what hired persons will still earn.
//! Budgets are what 100 ms of one core's CPU buys, measured pinned with
//! `taskset -c 1` as thread or process CPU time (the machine was never idle
//! that evening, so CPU time, not wall time, is the measure): 728 Port Royal
//! playouts at horizon 16 (`search_speed`, 40 positions, 137 us a playout),
//! 275 Guildhall and 60 Nereus playouts at horizon 10 (one game each at 100
//! playouts: 36 and 168 ms of CPU a searched decision, opponents included).
//! The runs used 700, 275 and 60 playouts (by those rates about 96, 99 and
//! 101 ms of CPU a searched decision), so they are reproducible and machine
//! load cannot change them; niced, in pieces of consecutive games
//! (`STRENGTH_FIRST`), on 2 cores at a load average of 7 to 16, which is why
//! a decision took about ten times its CPU in wall time:
//!
//! | setting | budget a decision | games | search bot won | 95% CI | points a game | wall time a decision |
//! |---|---|---|---|---|---|---|
//! | 4-seat PR vs 3 heuristic | 700 playouts, horizon 16 | 400 (0-399) | 46.0% (share 25%) | 41.2-50.9% | 11.3 | 863 ms |
//! | 2-seat PR vs heuristic | 700 playouts, horizon 16 | 40 | 72.5% (share 50%) | 57.2-83.9% | 12.1 | 1,095 ms |
//! | 4-seat Guildhall vs 3 heuristic | 275 playouts, horizon 10 | 40 | 37.5% (share 25%) | 24.2-53.0% | 16.8 | 1,257 ms |
//! | 2-seat Guildhall vs heuristic | 275 playouts, horizon 10 | 40 | 92.5% (share 50%) | 80.1-97.4% | 21.1 | 837 ms |
//! | 4-seat Nereus vs 3 heuristic | 60 playouts, horizon 10 | 40 | 70.0% (share 25%) | 54.6-81.9% | 50.2 | 677 ms |
//! | 2-seat Nereus vs heuristic | 60 playouts, horizon 10 | 40 | 87.5% (share 50%) | 73.9-94.5% | 59.8 | 458 ms |
//!
//! Once the machine had quietened (load average about 3), games 0-3 of the
//! 4-seat row replayed pinned with `taskset -c 1` made the same decisions
//! in a mean 105 ms a searched decision (93.5 ms over all 291 decisions).
//!
//! A row is reproduced by, for example,
//! `STRENGTH_ONLY=4 STRENGTH_PLAYOUTS=700 STRENGTH_HORIZON=16 STRENGTH_GAMES=400`
//! (Guildhall and Nereus: `STRENGTH_ONLY=guildhall2` and so on with their
//! playouts and `STRENGTH_HORIZON=10`); the horizon must be given, as the
//! hard bots' is (`level.rs`), since the default tuning plays to the end.
//!
//! "Wall time a decision" counts every decision of the search bot, those
//! with one legal action (not searched) as about 0. Paired against the
//! former prospects (VP and coins only) on the same seeds, games 0-22 at 700
//! playouts: the former won 12 and this 8, with 263 and 259 points; 7 games
//! were won only by the former, 3 only by this (a sign test gives p = 0.34),
//! so the change is not shown to help on its own; the former won 35.1% of
//! 131 games in session 4 at 800 playouts.
//!
//! Measured again 2026-11-25 (issue 18, session 6) at the hard bot's own
//! budget, 100 ms of time a decision (`STRENGTH_HORIZON=16`, default
//! `STRENGTH_MS`), once the heuristic priced a harbor once per decision and
//! the search drew its numbers from Xoshiro256++: games 0-199 and 200-399
//! at once, each pinned to one of the 2 cores (`taskset`), nothing else
//! running. 4-seat PR vs 3 heuristic: the search bot won 186 of 400 =
//! 46.5% (95% CI 41.7-51.4%, share 25%), 11.2 points a game, a mean 88.9 ms
//! a decision and 1,713 playouts a searched decision (700 before). As many
//! playouts again did not make it measurably stronger.
//!
//! Measured again 2026-11-28 (issue 29 item 5) once the hard bot's budget
//! became paced (the most a decision takes: none when forced, a share by
//! the number of actions but at least 200 playouts an action, and a stop
//! once more playouts cannot change the choice), against the former fixed
//! budget (`STRENGTH_FIXED=1`), same binary, `STRENGTH_HORIZON=16`,
//! niced on the 2 shared cores (load average 2 to 11), so time budgets
//! bought fewer playouts than on a free core. "Think a game" is the search
//! bot's time over all its decisions of a game:
//!
//! | setting | budget | games | search bot won | 95% CI | points a game | mean decision | think a game | playouts a searched decision |
//! |---|---|---|---|---|---|---|---|---|
//! | 4-seat PR | 50 ms every decision | 0-199 | 40.0% | 33.5-46.9% | 10.9 | 49-58 ms | 3.6-4.1 s | 216-411 |
//! | 4-seat PR | up to 50 ms, paced | 0-199 | 33.0% | 26.9-39.8% | 10.5 | 46.2 ms | 3.21 s | 153 |
//! | 4-seat PR | 50 ms every decision | 200-299, at once with the next | 35.0% | 26.4-44.7% | 10.6 | 55.5 ms | 3.97 s | 234 |
//! | 4-seat PR | up to 50 ms, paced | 200-299 | 33.0% | 24.6-42.7% | 10.8 | 44.7 ms | 3.23 s | 145 |
//! | 4-seat PR | 1 s every decision | 3-24 (the three 1 s rows ran at once) | 22.7% | 10.1-43.4% | 10.1 | 880 ms | 54.1 s | 5,194 |
//! | 4-seat PR | up to 1 s, paced | 3-42 | 30.0% | 18.1-45.4% | 10.9 | 278 ms | 20.4 s | 1,162 |
//! | 4-seat PR | up to 1 s, early stop only (`STRENGTH_FULL_ACTIONS=2`) | 3-25 | 30.4% | 15.6-50.9% | 10.6 | 642 ms | 43.9 s | 3,939 |
//! | 4-seat Guildhall | 1 s every decision | 0 | 0 of 1 | | 19 | 937 ms | 84.3 s | 466 |
//! | 4-seat Guildhall | up to 1 s, paced | 0 | 1 of 1 | | 20 | 887 ms | 62.1 s | 390 |
//! | 4-seat Nereus | 1 s every decision | 0 | 0 of 1 | | 48 | 725 ms | 79.7 s | 163 |
//! | 4-seat Nereus | up to 1 s, paced | 0 | 1 of 1 | | 49 | 557 ms | 57.9 s | 119 |
//!
//! Over the 300 games at 50 ms the paced bot won 33.0% (27.9-38.5%)
//! against 38.3% (33.0-43.9%): within each other's intervals, a difference
//! a test of two proportions puts at p = 0.17, so not shown to fall, nor
//! shown equal. At a second, the hard bot's default, it won 30.0% of 40
//! against 22.7% of 22 and thought 20 s a game instead of 54 s. Its early
//! stop cannot change a decision (for a playout budget exactly:
//! `tests/bots/pace.rs` replays the same seed both ways), and alone saves a
//! fifth of the think time; what may cost strength is the share, which is
//! why a decision keeps 200 playouts an action: a first version without
//! that floor cut a two-way choice at 50 ms to some 100 playouts and won
//! 33.0% of games 0-199 too. At 50 ms most decisions never reach the
//! floor, so the saving there is the early stop's; at a second it is the
//! share's as well (almost two thirds).
//!
//! An earlier run of games 0-2 at a second (2 of 3 fixed, 0 of 3 paced)
//! is left out of the rows above; with it the paced bot won 12 of 43 and
//! the fixed one 6 of 24 (25.0%, 12.0-44.9%).
//!
//! Measured again 2026-11-28 (issue 31 item 2) after Nereus's cut
//! playouts began to be scored by the heuristic's worth of every seat
//! (`NereusBot`'s prospects) instead of VP alone; Port Royal's and
//! Guildhall's search is unchanged since the 2026-11-25 runs, except for the
//! pace. Budgets are what 100 ms of one core buys, measured as the CPU time
//! (`/proc/<pid>/stat`, user + system) of these very runs over their
//! playouts, opponents' heuristic decisions included, so an upper bound on
//! a playout's cost: 20,000 Port Royal playouts a second at horizon 16,
//! 2,620 Guildhall and 1,340 Nereus playouts a second at horizon 10. No core
//! was idle (load average 9 to 15 on the 2 cores, six engineers building
//! and testing), so wall-clock 100 ms bought a fraction of that and no
//! time-budget run was made; the runs below use playout budgets (paced, as
//! the hard bot's are), niced, in pieces of consecutive games:
//!
//! | setting | budget a decision | games | search bot won | 95% CI | points a game | playouts a searched decision |
//! |---|---|---|---|---|---|---|
//! | 4-seat PR vs 3 heuristic | up to 1,600 playouts, horizon 16 | 200 (0-199) | 45.0% (share 25%) | 38.3-51.9% | 11.4 | 388 |
//! | 4-seat Guildhall vs 3 heuristic | up to 275 playouts, horizon 10 | 163 (0-84, 100-141, 150-185) | 40.5% | 33.3-48.2% | 17.8 | 254 |
//! | 4-seat Nereus vs 3 heuristic | up to 60 playouts, horizon 10 | 200 (0-199) | 58.5% | 51.6-65.1% | 49.9 | 48 |
//! | 4-seat Nereus vs 3 heuristic | up to 130 playouts, horizon 10 | 32 (0-31) | 78.1% | 61.2-89.0% | 51.6 | 108 |
//!
//! Each is reproduced by, for example,
//! `STRENGTH_ONLY=nereus STRENGTH_PLAYOUTS=60 STRENGTH_HORIZON=10 STRENGTH_GAMES=100 STRENGTH_FIRST=100`.
//! Port Royal's 45.0% is the 2026-11-25 figure (46.5% of 400 at 100 ms of
//! time, 1,713 playouts a decision, before pacing) within its interval;
//! paced, a searched decision stopped at 388 playouts on average, so the
//! bot spent about a fifth of its budget. Guildhall ran out of session before 200
//! games. In Nereus, 60 playouts (the former figure for 100 ms) is less
//! than half of what 100 ms of CPU now buys (about 130); at 130 the bot
//! won 25 of games 0-31 where at 60 it won 21 (with the former VP-only
//! scoring of cut playouts, 19; over games 0-39, 24 of 40 against 27 of 40
//! with the worth): neither difference is shown on so few games.
//!
//! Measured again 2026-11-28 (issue 31 item 2, session 36), once the
//! Guildhall and Nereus engines had become about 9 and 10 times faster.
//! Each setting's line now ends with the search thread's own CPU time
//! (`/proc/thread-self/schedstat` around each decision, so opponents and
//! the rest of the machine are not counted) and the playouts it bought per
//! 100 ms of it. What 100 ms of one core buys at the hard bot's horizons,
//! pinned with `taskset -c 1`, 1,000 playouts on every decision
//! (`STRENGTH_FIXED=1 STRENGTH_PLAYOUTS=1000`), load average 3.4 to 5.8 on
//! the 2 cores: 1,933 Port Royal playouts at horizon 16 (games 0-3, 232
//! searched decisions), 511 Guildhall (games 0-1, 132) and 325 Nereus
//! (games 0-1, 163) at horizon 10. The engines' speed-up bought Guildhall
//! and Nereus about twice as many playouts, not ten times: a cut playout's
//! time goes mostly to the heuristic bots that play it. The runs below use
//! 1,900, 500 and 320 playouts, paced as the hard bot's budget is (`up to`:
//! none on a forced move, a share on a choice among few actions, a stop once
//! the choice is settled; see the search module's "Pace"), so what they
//! measure is the hard bot (`Level::Hard`, `level.rs`) thinking up to 100 ms
//! of one core a decision; the runs' own CPU figures (last column) confirm
//! the rate. Niced, unpinned, two or three at once on the 2 shared cores
//! (load average 3 to 8: other engineers building), so wall time says
//! nothing here and is left out:
//!
//! | setting | budget a decision | games | search bot won | 95% CI | points a game | playouts a searched decision | CPU a game, searching | playouts per 100 ms of CPU |
//! |---|---|---|---|---|---|---|---|---|
//! | 4-seat PR vs 3 heuristic | up to 1,900 playouts, horizon 16 | 200 (0-199) | 51.0% (share 25%) | 44.1-57.8% | 11.4 | 457 | 1.43 s | 1,999 |
//! | 4-seat Guildhall vs 3 heuristic | up to 500 playouts, horizon 10 | 200 (0-199) | 47.5% | 40.7-54.4% | 18.2 | 461 | 6.63 s | 490 |
//! | 4-seat Nereus vs 3 heuristic | up to 320 playouts, horizon 10 | 200 (0-199) | 86.0% | 80.5-90.1% | 56.6 | 269 | 6.15 s | 340 |
//!
//! Reproduced by `STRENGTH_ONLY=4 STRENGTH_PLAYOUTS=1900 STRENGTH_HORIZON=16
//! STRENGTH_GAMES=200`, `STRENGTH_ONLY=guildhall STRENGTH_PLAYOUTS=500
//! STRENGTH_HORIZON=10 STRENGTH_GAMES=200` and `STRENGTH_ONLY=nereus
//! STRENGTH_PLAYOUTS=320 STRENGTH_HORIZON=10 STRENGTH_GAMES=200` (each was
//! run in two pieces of consecutive games with `STRENGTH_FIRST`: Port Royal
//! 0-59 and 60-199, Guildhall 0-119 and 120-199, Nereus 0-169 and 170-199).
//!
//! The search is the one measured before (only the budgets changed), so
//! Port Royal's 51.0% is not an improvement shown: the 45.0% of games
//! 0-199 at 1,600 playouts and the 46.5% of 400 at 100 ms of time lie in
//! its interval. Three changes were each tried on Port Royal games 0-59
//! against this search's 30 wins there, and none kept:
//!
//! * the other seats played by the playout policy inside the tree (the
//!   tree branching on the searching seat's decisions only): 32 of 60
//!   (10 games won only by this search, 12 only by that one) at the same
//!   1,900 playouts, but at 1,193 playouts per 100 ms of CPU, since the
//!   horizon then starts only past the searching seat's next decision;
//! * horizon 24 at 1,400 playouts (its 100 ms of CPU: 1,477): 32 of 60
//!   (14 won only by this search, 16 only by that one);
//! * prospects that count a lead as surer as the game nears its end (a sure
//!   lead shrinking from 10 VP to 3 in the last round, where coins count at
//!   the heuristic's 0.3): 4 of games 0-14 against 10, 7 won only by this
//!   search and 1 only by that one; stopped there.
//!
//! Against issue 31's targets (at least 50%, 45% and 75% over 200 games)
//! all three figures are met; only Nereus's whole interval lies above its
//! target, Port Royal's and Guildhall's reach below theirs. A searched
//! decision stopped at a quarter of its budget in Port Royal (most are a
//! choice between drawing and stopping) and used nearly all of it in
//! Guildhall and most in Nereus, whose decisions are wider.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_bots::arena::play_port_royal;
use roundtable_bots::{
    Bot, Budget, GuildhallBot, NereusBot, PortRoyalBot, RandomBot, SearchBot, Tuning,
};
use roundtable_engine::{Determinize, Game, GameResult, Knowledge, Seat, sim};
use roundtable_guildhall::Guildhall;
use roundtable_hands::Hands;
use roundtable_nereus::Nereus;
use roundtable_port_royal::{Options, PortRoyal};

/// What the search bot spent, over every game of a setting.
#[derive(Default)]
struct Totals {
    decisions: u64,
    searched: u64,
    playouts: u64,
    failed: u64,
    time: Duration,
    /// The searching thread's own CPU time over its decisions, where Linux
    /// tells (`/proc/thread-self/schedstat`): what a budget of playouts
    /// costs on one core however busy the machine is.
    cpu: Duration,
}

/// Time this thread has run on a CPU, where Linux tells.
fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// A search bot that adds its costs to shared totals.
struct Measured<G: Game, P> {
    bot: SearchBot<G, P>,
    totals: Arc<Mutex<Totals>>,
}

impl<G: Determinize, P: Bot<G>> Bot<G> for Measured<G, P> {
    fn name(&self) -> &'static str {
        "search"
    }

    fn choose(&mut self, seat: Seat, view: &G::View, legal: &[G::Action]) -> usize {
        self.bot.choose(seat, view, legal)
    }

    fn choose_in(
        &mut self,
        seat: Seat,
        state: &G,
        knowledge: &Knowledge,
        legal: &[G::Action],
    ) -> usize {
        let before = self.bot.stats();
        let started = Instant::now();
        let cpu_started = thread_cpu();
        let pick = self.bot.choose_in(seat, state, knowledge, legal);
        let spent = started.elapsed();
        let cpu = match (cpu_started, thread_cpu()) {
            (Some(from), Some(to)) => to.saturating_sub(from),
            _ => spent,
        };
        let after = self.bot.stats();
        if let Ok(mut totals) = self.totals.lock() {
            totals.decisions += 1;
            totals.searched += after.decisions - before.decisions;
            totals.playouts += after.playouts - before.playouts;
            totals.failed += after.failed - before.failed;
            totals.time += spent;
            totals.cpu += cpu;
        }
        pick
    }

    fn answer_within(&mut self, limit: Duration) {
        self.bot.answer_within(limit);
    }
}

/// The search constants, each overridable for tuning
/// (`STRENGTH_EXPLORATION`, `STRENGTH_BIAS`, `STRENGTH_MARGIN`,
/// `STRENGTH_HORIZON`, `STRENGTH_WIDENING`, `STRENGTH_FULL_ACTIONS`).
fn tuning() -> Tuning {
    let default = Tuning::default();
    Tuning {
        exploration: env_or("STRENGTH_EXPLORATION", default.exploration),
        policy_bias: env_or("STRENGTH_BIAS", default.policy_bias),
        margin_weight: env_or("STRENGTH_MARGIN", default.margin_weight),
        horizon: env_or("STRENGTH_HORIZON", default.horizon),
        widening: env_or("STRENGTH_WIDENING", default.widening),
        full_think_actions: env_or("STRENGTH_FULL_ACTIONS", default.full_think_actions),
    }
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The 95% Wilson score interval of `wins` out of `games`, in percent.
fn wilson(wins: u64, games: u64) -> (f64, f64) {
    let n = games.max(1) as f64;
    let p = wins as f64 / n;
    let z = 1.96f64;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (100.0 * (centre - half), 100.0 * (centre + half))
}

/// Tally one setting's games and print it.
struct Tally {
    label: String,
    games: u64,
    wins: u64,
    vp: i64,
    totals: Arc<Mutex<Totals>>,
}

impl Tally {
    fn new(label: String) -> Self {
        Tally {
            label,
            games: 0,
            wins: 0,
            vp: 0,
            totals: Arc::default(),
        }
    }

    fn add(&mut self, result: &GameResult, hero: Seat) {
        self.games += 1;
        let standing = &result.standings[hero.index()];
        self.vp += standing.score;
        if standing.rank == 0 {
            self.wins += 1;
        }
        // A running tally on stderr, so a run stopped early still counts:
        // with the search's running costs, so pieces of a run add up.
        let costs = self.totals.lock().map(|t| {
            format!(
                "; {} decisions, {} searched, {} playouts, {:.3} s searching ({:.3} s of CPU), {} points",
                t.decisions,
                t.searched,
                t.playouts,
                t.time.as_secs_f64(),
                t.cpu.as_secs_f64(),
                self.vp
            )
        });
        eprintln!(
            "{}: {} won of {} so far{}",
            self.label,
            self.wins,
            self.games,
            costs.unwrap_or_default()
        );
    }

    fn print(&self, share: f64) {
        let (low, high) = wilson(self.wins, self.games);
        let totals = self.totals.lock().map(|t| {
            (
                t.decisions,
                t.searched,
                t.playouts,
                t.failed,
                t.time.as_secs_f64() * 1000.0 / t.decisions.max(1) as f64,
                t.cpu.as_secs_f64(),
            )
        });
        let (decisions, searched, playouts, failed, mean_ms, cpu) = totals.unwrap_or_default();
        // Playouts one core makes in 100 ms of CPU, opponents' decisions
        // not counted: the figure that turns a think time into a budget.
        let per_100ms = if cpu > 0.0 {
            playouts as f64 / cpu / 10.0
        } else {
            0.0
        };
        println!(
            "{}: search bot won {} of {} games = {:.1}% (95% CI {:.1}-{:.1}%; an equal share is {:.0}%), {:.1} points a game; \
             {} decisions, {} searched, mean decision {:.1} ms, {:.2} s thinking a game, {:.0} playouts per searched decision ({failed} refused); \
             {cpu:.2} s of CPU searching, {per_100ms:.0} playouts per 100 ms of CPU",
            self.label,
            self.wins,
            self.games,
            100.0 * self.wins as f64 / self.games.max(1) as f64,
            low,
            high,
            100.0 * share,
            self.vp as f64 / self.games.max(1) as f64,
            decisions,
            searched,
            mean_ms,
            mean_ms * decisions as f64 / 1000.0 / self.games.max(1) as f64,
            playouts as f64 / searched.max(1) as f64,
        );
    }
}

fn search_bot<G: Determinize>(
    budget: Budget,
    heuristic: Option<Box<dyn Bot<G>>>,
    seed: u64,
    totals: &Arc<Mutex<Totals>>,
) -> Box<dyn Bot<G>> {
    let policy: Box<dyn Bot<G>> = heuristic.unwrap_or_else(|| Box::new(RandomBot::new(seed)));
    Box::new(Measured {
        bot: SearchBot::new(budget, policy, seed).with_tuning(tuning()),
        totals: Arc::clone(totals),
    })
}

fn port_royal(seats: u8, first: u64, games: u64, budget: Budget, heuristic_playouts: bool) {
    let options = Options::default();
    let mut tally = Tally::new(format!(
        "{seats}-seat Port Royal, search vs {} heuristic",
        seats - 1
    ));
    for g in first..first + games {
        let hero = Seat((g % u64::from(seats)) as u8);
        let mut bots: Vec<Box<dyn Bot<PortRoyal>>> = (0..seats)
            .map(|s| -> Box<dyn Bot<PortRoyal>> {
                if s == hero.0 {
                    let policy: Option<Box<dyn Bot<PortRoyal>>> = heuristic_playouts
                        .then(|| Box::new(PortRoyalBot::new(&options)) as Box<dyn Bot<PortRoyal>>);
                    search_bot(budget, policy, 0x5EA + g, &tally.totals)
                } else {
                    Box::new(PortRoyalBot::new(&options))
                }
            })
            .collect();
        match play_port_royal(&options, 0x57 + g, &mut bots, &mut |_| {}) {
            Ok(result) => tally.add(&result, hero),
            Err(e) => eprintln!("game {g}: {e}"),
        }
    }
    tally.print(1.0 / f64::from(seats));
}

fn hands(first: u64, games: u64, budget: Budget) {
    let seats = 4u8;
    let mut tally = Tally::new("4-seat Hands, search vs 3 random".into());
    for g in first..first + games {
        let hero = Seat((g % u64::from(seats)) as u8);
        let mut bots: Vec<Box<dyn Bot<Hands>>> = (0..seats)
            .map(|s| -> Box<dyn Bot<Hands>> {
                if s == hero.0 {
                    search_bot(budget, None, 0x4A + g, &tally.totals)
                } else {
                    Box::new(RandomBot::new(g * 8 + u64::from(s)))
                }
            })
            .collect();
        let mut game = match Hands::new_game(seats, &Default::default()) {
            Ok(game) => game,
            Err(e) => {
                eprintln!("hands: {e}");
                return;
            }
        };
        let mut dealer = sim::OracleDealer::new(seats);
        let mut chance = ChaCha20Rng::seed_from_u64(0x4D + g);
        let played = sim::play_private(
            &mut game,
            &mut dealer,
            10_000,
            &mut |n| sim::uniform_below(n, &mut || chance.next_u64()),
            &mut |seat, state, knowledge, legal| {
                bots[seat.index()].choose_in(seat, state, knowledge, legal)
            },
            &mut |_, _| {},
        );
        match (played, game.result()) {
            (Ok(_), Some(result)) => tally.add(&result, hero),
            (Err(e), _) => eprintln!("hands game {g}: {e}"),
            (Ok(_), None) => eprintln!("hands game {g} ended without a result"),
        }
    }
    tally.print(0.25);
}

fn guildhall(seats: u8, first: u64, games: u64, budget: Budget, heuristic_playouts: bool) {
    against_heuristics::<Guildhall>(
        "Guildhall",
        seats,
        0x6D,
        first..first + games,
        budget,
        heuristic_playouts,
        || Box::new(GuildhallBot::new()),
    );
}

fn nereus(seats: u8, first: u64, games: u64, budget: Budget, heuristic_playouts: bool) {
    against_heuristics::<Nereus>(
        "Nereus",
        seats,
        0x7D,
        first..first + games,
        budget,
        heuristic_playouts,
        || Box::new(NereusBot::new()),
    );
}

/// `seats`-seat games of a game with private cards: one search bot against
/// the others, the game's heuristic bots (`heuristic`), seats rotating, the deal
/// from a local oracle; seeds from `seed_base` and the game's number.
fn against_heuristics<G: Determinize>(
    name: &str,
    seats: u8,
    seed_base: u64,
    games: std::ops::Range<u64>,
    budget: Budget,
    heuristic_playouts: bool,
    heuristic: fn() -> Box<dyn Bot<G>>,
) where
    G::Options: Default,
{
    let mut tally = Tally::new(format!(
        "{seats}-seat {name}, search vs {} heuristic",
        seats - 1
    ));
    for g in games {
        let hero = Seat((g % u64::from(seats)) as u8);
        let mut bots: Vec<Box<dyn Bot<G>>> = (0..seats)
            .map(|s| -> Box<dyn Bot<G>> {
                if s == hero.0 {
                    let policy = heuristic_playouts.then(heuristic);
                    search_bot(budget, policy, seed_base + g, &tally.totals)
                } else {
                    heuristic()
                }
            })
            .collect();
        let mut game = match G::new_game(seats, &G::Options::default()) {
            Ok(game) => game,
            Err(e) => {
                eprintln!("{name}: {e}");
                return;
            }
        };
        let mut dealer = sim::OracleDealer::new(seats);
        let mut chance = ChaCha20Rng::seed_from_u64(seed_base + 1 + g);
        let played = sim::play_private(
            &mut game,
            &mut dealer,
            1_000_000,
            &mut |n| sim::uniform_below(n, &mut || chance.next_u64()),
            &mut |seat, state, knowledge, legal| {
                bots[seat.index()].choose_in(seat, state, knowledge, legal)
            },
            &mut |_, _| {},
        );
        match (played, game.result()) {
            (Ok(_), Some(result)) => tally.add(&result, hero),
            (Err(e), _) => eprintln!("{name} game {g}: {e}"),
            (Ok(_), None) => eprintln!("{name} game {g} ended without a result"),
        }
    }
    tally.print(1.0 / f64::from(seats));
}

fn main() {
    let games: u64 = env_or("STRENGTH_GAMES", 40);
    let ms: u64 = env_or("STRENGTH_MS", 100);
    let policy: String = env_or("STRENGTH_POLICY", "heuristic".to_string());
    let only: String = env_or("STRENGTH_ONLY", String::new());
    let heuristic = policy != "random";
    // A playout budget makes the run reproducible and independent of how
    // busy the machine is; a time budget is what play uses.
    let playouts: u32 = env_or("STRENGTH_PLAYOUTS", 0);
    // The hard bot's budget is paced (the most a decision takes, see the
    // search module's "Pace"); `STRENGTH_FIXED=1` spends all of it on every
    // decision, as the hard bot did before.
    let fixed = env_or("STRENGTH_FIXED", 0u8) == 1;
    let budget = if playouts > 0 {
        Budget::playouts(playouts)
    } else {
        Budget::time(Duration::from_millis(ms))
    };
    let budget = if fixed { budget } else { budget.paced() };
    let spend = if playouts > 0 {
        format!("{playouts} playouts")
    } else {
        format!("{ms} ms")
    };
    let spend = if fixed {
        format!("{spend} (every decision)")
    } else {
        format!("up to {spend} (paced)")
    };
    let first: u64 = env_or("STRENGTH_FIRST", 0);
    println!(
        "{games} games per setting from game {first}, {spend} a decision, {policy} playouts, {:?}",
        tuning()
    );
    if only.is_empty() || only == "4" {
        port_royal(4, first, games, budget, heuristic);
    }
    if only.is_empty() || only == "2" {
        port_royal(2, first, games, budget, heuristic);
    }
    if only.is_empty() || only == "hands" {
        hands(first, games, budget);
    }
    if only.is_empty() || only == "guildhall" {
        guildhall(4, first, games, budget, heuristic);
    }
    if only.is_empty() || only == "guildhall2" {
        guildhall(2, first, games, budget, heuristic);
    }
    if only.is_empty() || only == "nereus" {
        nereus(4, first, games, budget, heuristic);
    }
    if only.is_empty() || only == "nereus2" {
        nereus(2, first, games, budget, heuristic);
    }
}
