//! A search bot for every game: information-set Monte Carlo tree search.
//!
//! The bot decides from what its seat may know and nothing else: the shared
//! state the table holds (public by construction: every peer holds the same
//! one, and private cards are handles in it) and its own seat's
//! [`Knowledge`]. Each iteration imagines one world consistent with that:
//!
//! * the private cards still in play that the seat has not opened get
//!   identities from [`Determinize::sample_hidden`], drawn from the cards
//!   still unaccounted for;
//! * cards nobody has seen are drawn when the continuation reveals them, by
//!   sampling the game's own chance requests (over the unseen pool);
//! * reshuffles in the continuation shuffle their (public) pile afresh.
//!
//! It then walks one tree shared by all worlds (single-observer ISMCTS, open
//! loop: a node is a sequence of decisions, chance and hidden cards are not
//! branched on). At a decision it takes the best edge by UCB among the
//! actions legal in this world, counting for every legal edge that it was
//! available, so actions legal in few worlds are not over-explored. The
//! first decision with an untried action adds one node; from there a
//! playout policy plays to the end, or for [`Tuning::horizon`] decisions
//! after which the policy's [`Bot::prospects`] score the position. Every
//! seat on the path is credited with its own reward (1 shared among the
//! winners, 0 for the others), so each seat in the tree plays for itself.
//!
//! Where seats choose together, blind to each other ([`Next::Simultaneous`],
//! Nereus's crews), every seat chooses from the same world before any
//! choice is applied. The searching seat's own choice walks the tree; the
//! other seats' are the playout policy's guesses in the imagined world,
//! chance from the searching seat's view: a seat never learns the others'
//! real choices before its own, and the search never reads them.
//!
//! The root's most visited legal action is the decision. With a playout
//! budget ([`Budget::playouts`]) and a seed, decisions are exactly
//! reproducible; a time budget ([`Budget::time`], for play) stops at a
//! deadline and so depends on the machine's speed.
//!
//! # Pace
//!
//! A person waits for every decision a bot makes, and a turn can hold many
//! (a Port Royal turn's draws, stop and takes: eight or more). So the hard
//! bot's budget ([`Budget::up_to`], a *paced* budget) is the most one
//! decision may take, not what each takes:
//!
//! * one legal action is taken at once, with no search;
//! * a decision gets a share of the budget by its number of legal actions,
//!   `min(actions, full) / full` where `full` is
//!   [`Tuning::full_think_actions`] ([`Budget::for_actions`]): with
//!   [`FULL_THINK_ACTIONS`], 8, a two-way choice (draw or stop) at most a
//!   quarter, eight actions or more the whole. A choice among few actions
//!   needs few playouts to rank them, and those are most of a turn. Past
//!   its share the search still goes on, up to the whole budget, until it
//!   has made [`ENOUGH_PLAYOUTS_PER_ACTION`] playouts an action: a short
//!   think time is not cut below what ranks the actions well;
//! * the search stops once more playouts could not change its choice
//!   ([`settled`]): the most visited action leads the next by more than the
//!   playouts the budget has left (by count, or by the rate so far for a
//!   time budget). An option that dominates draws the visits, so a choice
//!   where one option is clearly best ends early;
//! * a driver whose table claims a seat that answers too late bounds the
//!   next decision ([`Bot::answer_within`], [`answer_limit`]).
//!
//! Measured 2026-11-28 with `examples/strength.rs` (4-seat Port Royal, one
//! search bot against three heuristic bots; the table is in that file's
//! head): at a second a decision the paced bot thought 20 s a game where
//! the fixed one thought 54 s (278 ms a decision against 880 ms), and won
//! 30.0% of 40 games against 22.7% of 22; at 50 ms, where the floor of
//! enough playouts keeps most decisions whole, 3.2 s against 4.0 s, winning
//! 33.0% of 300 games (95% CI 27.9-38.5%) against 38.3% (33.0-43.9%):
//! within the intervals, but not shown equal. In Guildhall and Nereus at a
//! second most decisions are wide (eight actions or more), so pace saves
//! less there: 887 against 937 ms and 557 against 725 ms a decision, one
//! game each.

use std::time::{Duration, Instant};

use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use roundtable_engine::{
    CardHandle, ChanceOutcome, Determinize, Game, Knowledge, Next, PrivateRequest, Revealed, Seat,
    SeatSet, sim,
};

use crate::Bot;

/// How much a search may do for one decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Playouts at most (at least one is always made).
    pub playouts: u32,
    /// Wall-clock time at most, if set. Reproducible decisions need `None`.
    pub time: Option<Duration>,
    /// Whether this is the most a decision may take rather than what each
    /// takes: a paced search gives a decision among few actions a share of
    /// it ([`Budget::for_actions`]) and stops once its choice is settled
    /// ([`settled`]). See the module's "Pace".
    pub paced: bool,
}

/// Playouts a paced decision makes for each of its legal actions before it
/// may stop at its share of the time ([`Budget::enough`]). Measured on
/// 4-seat Port Royal at 50 ms (`examples/strength.rs`): a two-way choice
/// cut to a quarter of the time, some 100 playouts, won 33% of 200 games
/// against 40% for the whole time; 700 playouts and 1,700 a decision had
/// won alike (46%).
pub const ENOUGH_PLAYOUTS_PER_ACTION: u32 = 200;

/// Legal actions at which a paced decision gets its whole budget unless
/// tuned otherwise ([`Tuning::full_think_actions`]); one among fewer gets
/// that share of it (two actions a quarter).
pub const FULL_THINK_ACTIONS: u32 = 8;

impl Budget {
    /// Exactly `playouts` playouts, whatever the time: reproducible.
    pub fn playouts(playouts: u32) -> Self {
        Budget {
            playouts,
            time: None,
            paced: false,
        }
    }

    /// As many playouts as fit in `time`, on every decision.
    pub fn time(time: Duration) -> Self {
        Budget {
            playouts: u32::MAX,
            time: Some(time),
            paced: false,
        }
    }

    /// At most `time` a decision, paced: none where one action is legal,
    /// a share where few are, less where the choice settles early. The hard
    /// bot's budget, so that a think time means "the most a decision
    /// takes".
    pub fn up_to(time: Duration) -> Self {
        Budget::time(time).paced()
    }

    /// The same budget as the most a decision may take ([`Budget::paced`]).
    #[must_use]
    pub fn paced(self) -> Self {
        Budget {
            paced: true,
            ..self
        }
    }

    /// What one decision among `actions` legal actions may spend: the
    /// whole budget unless it is paced; paced, nothing for a single action,
    /// else its share: `min(actions, full_at) / full_at` of the time
    /// (`full_at` is [`Tuning::full_think_actions`]), and of the playouts
    /// but never fewer than [`Budget::enough`]. A paced search past its
    /// share of the time goes on until it has made enough playouts, up to
    /// the whole budget ([`SearchBot`]'s loop).
    #[must_use]
    pub fn for_actions(self, actions: usize, full_at: u32) -> Self {
        if !self.paced {
            return self;
        }
        let count = u32::try_from(actions).unwrap_or(u32::MAX);
        if count <= 1 {
            return Budget {
                playouts: 0,
                time: Some(Duration::ZERO),
                paced: true,
            };
        }
        let full_at = full_at.max(1);
        let share = count.min(full_at);
        if share == full_at {
            return self;
        }
        let playouts = (u64::from(self.playouts) * u64::from(share)).div_ceil(u64::from(full_at));
        let playouts = u32::try_from(playouts).unwrap_or(u32::MAX);
        Budget {
            playouts: playouts.max(self.enough(actions)),
            // Divided first, so that no time overflows.
            time: self.time.map(|time| time / full_at * share),
            paced: true,
        }
    }

    /// Playouts that rank `actions` legal actions well enough
    /// ([`ENOUGH_PLAYOUTS_PER_ACTION`] each), within this budget's own: a
    /// paced decision makes at least these, so that pacing costs a short
    /// think time no strength.
    pub fn enough(&self, actions: usize) -> u32 {
        let wanted = u64::from(ENOUGH_PLAYOUTS_PER_ACTION)
            .saturating_mul(u64::try_from(actions).unwrap_or(u64::MAX));
        u32::try_from(wanted).unwrap_or(u32::MAX).min(self.playouts)
    }

    /// The same budget, taking no longer than `limit`.
    #[must_use]
    pub fn within(self, limit: Duration) -> Self {
        Budget {
            time: Some(self.time.map_or(limit, |time| time.min(limit))),
            ..self
        }
    }

    /// Playouts a search that made `attempts` in `elapsed` may still make:
    /// by count, and for a time budget by the rate so far (unknown, so
    /// unbounded, before any time has passed).
    fn playouts_left(&self, attempts: u32, elapsed: Option<Duration>) -> u64 {
        let by_count = u64::from(self.playouts.saturating_sub(attempts));
        match (self.time, elapsed) {
            (Some(limit), Some(elapsed)) if !elapsed.is_zero() => {
                let rest = limit.saturating_sub(elapsed);
                let by_time = u128::from(attempts) * rest.as_nanos() / elapsed.as_nanos();
                by_count.min(u64::try_from(by_time).unwrap_or(u64::MAX))
            }
            _ => by_count,
        }
    }
}

/// Whether more playouts cannot change a search's choice: the most
/// visited of the root's actions (`visits`) leads the next by more than
/// the `left` playouts still to come, so even all of them going to the
/// runner-up would leave it behind. Exact for a playout budget (the same
/// choice as spending it all, from the same seed); for a time budget
/// `left` is estimated from the rate so far.
pub fn settled(visits: &[u32], left: u64) -> bool {
    let (mut first, mut second) = (0u32, 0u32);
    for &v in visits {
        if v > first {
            second = first;
            first = v;
        } else if v > second {
            second = v;
        }
    }
    u64::from(first - second) > left
}

/// How many parts of the time a seat has left before its table may claim
/// it stalled a bot may think on its answer ([`answer_limit`]): the rest is
/// for the answer to reach the other peers, whose clocks may have started
/// the position earlier than the bot's (they saw the last input first).
pub const STALL_CLOCK_SHARE: u32 = 4;

/// The most a bot may think on an answer that its table may claim stalled
/// at `claimable_at_ms`, `now_ms` being the time now on the same clock (the
/// table's turn clock, `Table::turn_clock`, and the time its driver gives
/// the table): a [`STALL_CLOCK_SHARE`]th of what is left. The stall clock
/// starts afresh at every position (SPEC 3.6), so this holds however many
/// decisions the seat makes in a row; a deadline already passed leaves no
/// time (the search then makes one playout).
pub fn answer_limit(now_ms: u64, claimable_at_ms: u64) -> Duration {
    Duration::from_millis(claimable_at_ms.saturating_sub(now_ms) / u64::from(STALL_CLOCK_SHARE))
}

/// What the last decisions cost, for benchmarks and logs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Decisions searched (a single legal action is not searched).
    pub decisions: u64,
    /// Playouts over all those decisions.
    pub playouts: u64,
    /// Playouts of the last searched decision.
    pub last_playouts: u32,
    /// Imagined continuations the game refused (a bug in a game's rules or
    /// its [`Determinize`]); they are dropped, not counted as playouts.
    pub failed: u64,
    /// Time spent searching.
    pub elapsed: Duration,
    /// Searched decisions a paced budget ended early because more
    /// playouts could not change them ([`settled`]).
    pub settled: u64,
}

/// Inputs a playout may take before it is cut off and ranked as it stands
/// ([`Game::standing`]): a safety net, far above a real game's length.
const MAX_PLAYOUT_INPUTS: usize = 20_000;

/// The search's constants; [`Tuning::default`] holds the measured choice.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tuning {
    /// UCB's exploration constant, for rewards in `[0, 1]`.
    pub exploration: f64,
    /// Progressive bias toward the playout policy's own choice at a tree
    /// node: that edge's score gains `policy_bias / (visits + 1)`, so a good
    /// policy guides the first playouts and the statistics take over.
    pub policy_bias: f64,
    /// How much of the reward is the score margin rather than the win: a
    /// seat's reward is `(1 - w) * win_share + w * margin`, the margin being
    /// its score minus the best other score, mapped from -10..10 to 0..1.
    /// Margins vary less from playout to playout than wins do.
    pub margin_weight: f64,
    /// Decisions a playout makes past the tree before it stops and the
    /// position is scored by the playout policy's [`Bot::prospects`] (by
    /// the game's standing if it has none); 0 plays every playout to the
    /// end. A heuristic playout of a whole Guildhall game costs
    /// milliseconds, so a short horizon buys many more playouts.
    pub horizon: u32,
    /// How fast a node opens its untried actions: it tries a new one while
    /// it has tried fewer than `1 + widening * sqrt(visits)`.
    pub widening: f64,
    /// Legal actions at which a paced decision gets its whole budget
    /// ([`Budget::for_actions`]); 2 gives every real choice the whole
    /// budget, so that only a settled choice ends early.
    pub full_think_actions: u32,
}

impl Default for Tuning {
    fn default() -> Self {
        // Over the same 20 seeded 4-seat Port Royal games at 100 ms a move
        // (search vs 3 heuristic bots) this and (0.7, 1.0, 0.5) both won 5;
        // this scored 10.4 points a game against 9.9. Without the bias and
        // with wins only as reward the bot won 1 of 20 (5.6 points).
        Tuning {
            exploration: 0.35,
            policy_bias: 2.0,
            margin_weight: 0.7,
            horizon: 0,
            widening: 1.0,
            full_think_actions: FULL_THINK_ACTIONS,
        }
    }
}

/// Buffers one search reuses from playout to playout, so that a playout
/// allocates nothing of its own.
struct Scratch<G: Game> {
    /// The deciding seat's legal actions.
    legal: Vec<G::Action>,
    /// Events of inputs applied in full; nobody reads them.
    events: Vec<G::Event>,
    /// The last sampled chance outcome.
    outcome: ChanceOutcome,
    /// The choices of the seats deciding now, applied once all have chosen.
    choices: Vec<(Seat, G::Action)>,
}

impl<G: Game> Default for Scratch<G> {
    fn default() -> Self {
        Scratch {
            legal: Vec::new(),
            events: Vec::new(),
            outcome: ChanceOutcome::Cards(Vec::new()),
            choices: Vec::new(),
        }
    }
}

/// No child node yet.
const NO_NODE: u32 = u32::MAX;

/// One action out of a node, with its statistics.
#[derive(Clone, Debug)]
struct Edge<A> {
    seat: Seat,
    action: A,
    child: u32,
    visits: u32,
    /// Iterations in which this action was legal when its node was reached.
    available: u32,
    /// Sum of the mover's rewards.
    reward: f64,
}

#[derive(Clone, Debug)]
struct Node<A> {
    edges: Vec<Edge<A>>,
}

/// The information-set Monte Carlo tree search bot for game `G`, with
/// `P` as the playout policy (for example [`crate::RandomBot`] or the
/// heuristic [`crate::PortRoyalBot`]).
pub struct SearchBot<G: Game, P> {
    budget: Budget,
    /// The most the next decision may take, from its driver
    /// ([`Bot::answer_within`]); used once.
    answer_limit: Option<Duration>,
    tuning: Tuning,
    rng: Xoshiro256PlusPlus,
    policy: P,
    stats: SearchStats,
    _game: std::marker::PhantomData<fn() -> G>,
}

impl<G: Game, P: Clone> Clone for SearchBot<G, P> {
    fn clone(&self) -> Self {
        SearchBot {
            budget: self.budget,
            answer_limit: self.answer_limit,
            tuning: self.tuning,
            rng: self.rng.clone(),
            policy: self.policy.clone(),
            stats: self.stats,
            _game: std::marker::PhantomData,
        }
    }
}

impl<G: Game, P> std::fmt::Debug for SearchBot<G, P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchBot")
            .field("budget", &self.budget)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

/// Why an imagined continuation stopped.
enum Stop {
    /// The game refused an input it offered, or asked for something the
    /// imagined world cannot answer.
    Refused,
}

impl<G, P> SearchBot<G, P>
where
    G: Determinize,
    P: Bot<G>,
{
    /// A search bot spending `budget` per decision, playing out with
    /// `policy`, reproducible from `seed`.
    pub fn new(budget: Budget, policy: P, seed: u64) -> Self {
        SearchBot {
            budget,
            answer_limit: None,
            tuning: Tuning::default(),
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            policy,
            stats: SearchStats::default(),
            _game: std::marker::PhantomData,
        }
    }

    /// The same bot with other search constants.
    #[must_use]
    pub fn with_tuning(self, tuning: Tuning) -> Self {
        SearchBot { tuning, ..self }
    }

    /// What the searches so far cost.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// Search from `state` for `seat`, which knows `knowledge`; returns an
    /// index into `legal`.
    fn search(
        &mut self,
        seat: Seat,
        state: &G,
        knowledge: &Knowledge,
        legal: &[G::Action],
    ) -> usize {
        let limit = self.answer_limit.take();
        if legal.len() <= 1 {
            return 0;
        }
        // The whole budget, cut by the driver's deadline: no decision takes
        // longer. Its share for this decision may be outrun until the
        // search has made enough playouts.
        let whole = limit.map_or(self.budget, |limit| self.budget.within(limit));
        let budget = whole.for_actions(legal.len(), self.tuning.full_think_actions);
        let enough = whole.enough(legal.len());
        // What may still come by count, and by time up to the whole.
        let remaining = Budget {
            time: whole.time,
            ..budget
        };
        let started = whole.time.map(|_| Instant::now());
        let root_hint = self.policy.choose_in(seat, state, knowledge, legal);
        let mut tree: Vec<Node<G::Action>> = vec![Node {
            edges: legal
                .iter()
                .map(|action| Edge {
                    seat,
                    action: action.clone(),
                    child: NO_NODE,
                    visits: 0,
                    available: 0,
                    reward: 0.0,
                })
                .collect(),
        }];
        let mut playouts = 0u32;
        let mut attempts = 0u32;
        let mut path: Vec<(usize, usize)> = Vec::new();
        let mut scratch = Scratch::default();
        let mut root_visits: Vec<u32> = Vec::new();
        // A refused world uses the budget too, so a broken game cannot
        // stall the bot.
        while attempts < budget.playouts.max(1) {
            let elapsed = started.map(|started| started.elapsed());
            if attempts > 0 {
                if let Some(elapsed) = elapsed {
                    let past = |time: Option<Duration>| time.is_some_and(|time| elapsed >= time);
                    if past(whole.time) || (past(budget.time) && playouts >= enough) {
                        break;
                    }
                }
                if budget.paced {
                    root_visits.clear();
                    root_visits.extend(tree[0].edges[..legal.len()].iter().map(|e| e.visits));
                    if settled(&root_visits, remaining.playouts_left(attempts, elapsed)) {
                        self.stats.settled += 1;
                        break;
                    }
                }
            }
            attempts += 1;
            path.clear();
            match self.iterate(seat, state, knowledge, &mut tree, &mut path, &mut scratch) {
                Ok(rewards) => {
                    for &(node, edge) in &path {
                        let edge = &mut tree[node].edges[edge];
                        edge.visits += 1;
                        edge.reward += rewards.get(edge.seat.index()).copied().unwrap_or(0.0);
                    }
                    playouts += 1;
                }
                Err(Stop::Refused) => self.stats.failed += 1,
            }
        }
        self.stats.decisions += 1;
        self.stats.playouts += u64::from(playouts);
        self.stats.last_playouts = playouts;
        if let Some(started) = started {
            self.stats.elapsed += started.elapsed();
        }
        // The root's first edges are `legal` in order (a world may add
        // others after them): the most visited wins; on a tie the policy's
        // own choice, else the earliest. A budget too small for a wide
        // decision so leaves it to the policy rather than to chance.
        let root = &tree[0].edges[..legal.len()];
        let mut best = root_hint.min(legal.len() - 1);
        for (i, edge) in root.iter().enumerate() {
            if edge.visits > root[best].visits {
                best = i;
            }
        }
        best
    }

    /// One iteration: imagine a world, walk the tree, expand, play out.
    /// Returns every seat's reward; `path` gets the edges taken.
    fn iterate(
        &mut self,
        root_seat: Seat,
        state: &G,
        knowledge: &Knowledge,
        tree: &mut Vec<Node<G::Action>>,
        path: &mut Vec<(usize, usize)>,
        scratch: &mut Scratch<G>,
    ) -> Result<Vec<f64>, Stop> {
        let rng = &mut self.rng;
        let mut world_knowledge =
            state.sample_hidden(root_seat, knowledge, &mut |n| uniform(rng, n));
        let mut world = state.clone();
        let mut node = 0usize;
        let mut expanded = false;
        let mut inputs = 0usize;
        // Decisions played out past the tree, for the horizon.
        let mut beyond = 0u32;
        let horizon = self.tuning.horizon;
        loop {
            if inputs >= MAX_PLAYOUT_INPUTS {
                break;
            }
            if expanded && horizon > 0 && beyond >= horizon {
                return Ok(self
                    .policy
                    .prospects(&world, &world_knowledge)
                    .unwrap_or_else(|| rewards(&world, self.tuning.margin_weight)));
            }
            inputs += 1;
            let deciding = match advance(&mut world, &mut world_knowledge, &mut self.rng, scratch)?
            {
                Some(deciding) => deciding,
                None => break,
            };
            // Every deciding seat chooses from the same world before any
            // choice is applied, as a table's commit-then-open has it. Of
            // seats choosing together, only the root seat's choice walks
            // the tree: the others' are the policy's guesses, blind to it,
            // so they are chance from the root seat's view.
            scratch.choices.clear();
            let together = deciding.simultaneous;
            for seat in deciding.seats.iter() {
                let legal = &mut scratch.legal;
                world.legal_actions_with(seat, &world_knowledge, legal);
                if legal.is_empty() {
                    return Err(Stop::Refused);
                }
                let hint = self
                    .policy
                    .choose_in(seat, &world, &world_knowledge, legal)
                    .min(legal.len() - 1);
                let in_tree = !expanded && (!together || seat == root_seat);
                let pick = if in_tree {
                    let (pick, next) = self.select(tree, node, seat, legal, hint);
                    path.push((node, next.0));
                    match next.1 {
                        Some(child) => node = child,
                        None => {
                            // Grow the tree by this edge's node, then play out.
                            let child = tree.len();
                            tree.push(Node { edges: Vec::new() });
                            tree[node].edges[next.0].child = child as u32;
                            expanded = true;
                        }
                    }
                    pick
                } else {
                    if expanded {
                        beyond += 1;
                    }
                    hint
                };
                scratch.choices.push((seat, legal[pick].clone()));
            }
            let mut choices = std::mem::take(&mut scratch.choices);
            for (seat, action) in choices.drain(..) {
                apply(
                    &mut world,
                    &world_knowledge,
                    seat,
                    &action,
                    &mut scratch.events,
                )?;
            }
            scratch.choices = choices;
        }
        Ok(rewards(&world, self.tuning.margin_weight))
    }

    /// Choose at `node` for `seat` among `legal` (this world's actions):
    /// the policy's choice `hint` if untried, else an untried action at
    /// random, else the best by UCB with availability counts and the bias
    /// toward `hint`. Returns the index into `legal` and (edge index, child node
    /// if the edge already has one, `None` when it is new or childless).
    fn select(
        &mut self,
        tree: &mut [Node<G::Action>],
        node: usize,
        seat: Seat,
        legal: &[G::Action],
        hint: usize,
    ) -> (usize, (usize, Option<usize>)) {
        let edges = &mut tree[node].edges;
        let mut untried: Vec<usize> = Vec::new();
        let mut edge_of = Vec::with_capacity(legal.len());
        for (i, action) in legal.iter().enumerate() {
            let found = edges
                .iter()
                .position(|e| e.seat == seat && e.action == *action);
            let e = match found {
                Some(e) => e,
                None => {
                    edges.push(Edge {
                        seat,
                        action: action.clone(),
                        child: NO_NODE,
                        visits: 0,
                        available: 0,
                        reward: 0.0,
                    });
                    edges.len() - 1
                }
            };
            edges[e].available += 1;
            if edges[e].visits == 0 {
                untried.push(i);
            }
            edge_of.push(e);
        }
        // Progressive widening: a node tries one more of its actions only
        // once its tried ones have been visited enough, so a wide decision
        // (a VP card's hundreds of targets) spends its playouts on a few
        // actions, the policy's own first, not one playout on each.
        let node_visits: u32 = edge_of.iter().map(|&e| edges[e].visits).sum();
        let tried = edge_of.len() - untried.len();
        let widen = !untried.is_empty()
            && (tried as f64) < 1.0 + self.tuning.widening * f64::from(node_visits).sqrt();
        let pick = if !widen {
            let mut best = 0;
            let mut best_score = f64::NEG_INFINITY;
            for (i, &e) in edge_of.iter().enumerate() {
                let edge = &edges[e];
                if edge.visits == 0 {
                    continue;
                }
                let visits = f64::from(edge.visits);
                let bias = if i == hint {
                    self.tuning.policy_bias / (visits + 1.0)
                } else {
                    0.0
                };
                let score = edge.reward / visits
                    + self.tuning.exploration * (f64::from(edge.available).ln() / visits).sqrt()
                    + bias;
                if score > best_score {
                    best_score = score;
                    best = i;
                }
            }
            best
        } else if untried.contains(&hint) {
            hint
        } else {
            untried[uniform(&mut self.rng, untried.len() as u64) as usize]
        };
        let e = edge_of[pick];
        let child = edges[e].child;
        (pick, (e, (child != NO_NODE).then_some(child as usize)))
    }
}

/// A uniform integer in `[0, n)` from the bot's stream.
fn uniform(rng: &mut Xoshiro256PlusPlus, n: u64) -> u64 {
    sim::uniform_by_multiply(n, &mut || rng.next_u64())
}

/// Apply `seat`'s `action` to the imagined world.
fn apply<G: Game>(
    world: &mut G,
    knowledge: &Knowledge,
    seat: Seat,
    action: &G::Action,
    events: &mut Vec<G::Event>,
) -> Result<(), Stop> {
    let claims = G::claims(action);
    if claims.is_empty() {
        // Taken from the game's own list and nobody reads the events: the
        // playout path, which skips the second check.
        world
            .apply_legal_action(seat, action, events)
            .map_err(|_| Stop::Refused)
    } else {
        // A card played face up is opened from the world's guess, which
        // only the revealing path checks against the claim.
        let revealed: Vec<Revealed> = claims
            .iter()
            .map(|claim| {
                knowledge
                    .card(claim.handle)
                    .map(|card| Revealed {
                        handle: claim.handle,
                        card,
                    })
                    .ok_or(Stop::Refused)
            })
            .collect::<Result<_, _>>()?;
        events.clear();
        world
            .apply_action_revealing(seat, action, &revealed, events)
            .map_err(|_| Stop::Refused)
    }
}

/// The seats that must decide next in an imagined world.
struct Deciding {
    seats: SeatSet,
    /// Whether they choose together, blind to each other's choices
    /// ([`Next::Simultaneous`]), rather than one seat alone.
    simultaneous: bool,
}

/// Answer chance and private requests in the imagined world until a seat
/// must decide (`Some`) or the game is over (`None`). Chance is sampled
/// from the game's own distribution (over the unseen pool); a reshuffle
/// lays its public pile out in a fresh random order; deals and reveals read
/// the world's guessed cards.
fn advance<G: Game>(
    world: &mut G,
    knowledge: &mut Knowledge,
    rng: &mut Xoshiro256PlusPlus,
    scratch: &mut Scratch<G>,
) -> Result<Option<Deciding>, Stop> {
    let events = &mut scratch.events;
    for _ in 0..MAX_PLAYOUT_INPUTS {
        events.clear();
        match world.next() {
            Next::Over => return Ok(None),
            Next::Decision(seat) => {
                return Ok(Some(Deciding {
                    seats: SeatSet::EMPTY.with(seat),
                    simultaneous: false,
                }));
            }
            Next::Simultaneous(seats) => {
                return Ok(Some(Deciding {
                    seats,
                    simultaneous: true,
                }));
            }
            Next::Chance(_) => {
                // Sampled from the pending request's own distribution: the
                // playout path, which skips checking the outcome against it.
                if let Some(applied) = world.apply_random_chance(
                    &mut |n| uniform(rng, n),
                    &mut scratch.outcome,
                    events,
                ) {
                    applied.map_err(|_| Stop::Refused)?;
                }
            }
            Next::Private(PrivateRequest::Reshuffle { pile, epoch }) => {
                let mut order = pile.to_vec();
                for i in (1..order.len()).rev() {
                    let j = (uniform(rng, i as u64 + 1) as usize).min(i);
                    order.swap(i, j);
                }
                for (slot, card) in order.into_iter().enumerate() {
                    knowledge.learn(CardHandle::new(epoch, slot as u32), card);
                }
                world.apply_reshuffle(events).map_err(|_| Stop::Refused)?;
            }
            Next::Private(PrivateRequest::Deal { .. }) => {
                world.apply_deal(events).map_err(|_| Stop::Refused)?;
            }
            Next::Private(PrivateRequest::Reveal { handles }) => {
                let cards: Vec<Revealed> = handles
                    .iter()
                    .map(|&handle| {
                        knowledge
                            .card(handle)
                            .map(|card| Revealed { handle, card })
                            .ok_or(Stop::Refused)
                    })
                    .collect::<Result<_, _>>()?;
                world
                    .apply_reveal(&cards, events)
                    .map_err(|_| Stop::Refused)?;
            }
        }
    }
    Ok(None)
}

/// Every seat's prospects from its worth (`worths`, in seat order, on one
/// scale): its lead over the best other seat, mapped so that level is 0.5
/// and a lead of `sure_lead` or more a sure win (1; trailing as far, 0).
/// A [`Bot::prospects`] of a heuristic that weighs positions by a worth.
pub fn lead_prospects(worths: &[f64], sure_lead: f64) -> Vec<f64> {
    worths
        .iter()
        .enumerate()
        .map(|(s, own)| {
            let best_other = worths
                .iter()
                .enumerate()
                .filter(|&(o, _)| o != s)
                .map(|(_, &v)| v)
                .fold(f64::NEG_INFINITY, f64::max);
            let lead = if best_other.is_finite() {
                own - best_other
            } else {
                0.0
            };
            (lead / sure_lead).clamp(-1.0, 1.0) / 2.0 + 0.5
        })
        .collect()
}

/// Every seat's reward for the world as it stands, in `[0, 1]`: the
/// winners share 1, blended with the score margin by `margin_weight`.
fn rewards<G: Game>(world: &G, margin_weight: f64) -> Vec<f64> {
    let standings = world.standing().standings;
    let winners = standings.iter().filter(|s| s.rank == 0).count();
    let share = 1.0 / winners.max(1) as f64;
    standings
        .iter()
        .map(|s| {
            let win = if s.rank == 0 { share } else { 0.0 };
            let best_other = standings
                .iter()
                .filter(|o| o.seat != s.seat)
                .map(|o| o.score)
                .max()
                .unwrap_or(s.score);
            let margin = ((s.score - best_other) as f64).clamp(-10.0, 10.0) / 20.0 + 0.5;
            (1.0 - margin_weight) * win + margin_weight * margin
        })
        .collect()
}

impl<G, P> Bot<G> for SearchBot<G, P>
where
    G: Determinize,
    P: Bot<G>,
{
    fn name(&self) -> &'static str {
        "search"
    }

    /// Given only a view there is no state to search from: the bot plays as
    /// its playout policy would. Drivers call [`Bot::choose_in`].
    fn choose(&mut self, seat: Seat, view: &G::View, legal: &[G::Action]) -> usize {
        self.policy.choose(seat, view, legal)
    }

    fn choose_in(
        &mut self,
        seat: Seat,
        state: &G,
        knowledge: &Knowledge,
        legal: &[G::Action],
    ) -> usize {
        self.search(seat, state, knowledge, legal)
    }

    fn table_options(&mut self, options: &G::Options) {
        self.policy.table_options(options);
    }

    fn answer_within(&mut self, limit: Duration) {
        self.answer_limit = Some(limit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Level with the best other seat is an even chance, a lead of the
    /// sure margin or more a sure win, trailing as far a sure loss.
    #[test]
    fn lead_prospects_map_the_lead_onto_a_win() {
        let p = lead_prospects(&[10.0, 10.0, 4.0, 30.0], 10.0);
        assert_eq!(p, vec![0.0, 0.0, 0.0, 1.0]);
        let p = lead_prospects(&[12.0, 7.0, 12.0], 10.0);
        assert_eq!(p, vec![0.5, 0.25, 0.5]);
        let p = lead_prospects(&[15.0, 10.0], 10.0);
        assert_eq!(p, vec![0.75, 0.25]);
        // Alone at the table: nobody to lead.
        assert_eq!(lead_prospects(&[3.0], 10.0), vec![0.5]);
    }
}
