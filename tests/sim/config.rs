//! What a simulated game is made of: the faults, the peers' roles, the
//! timing.

use roundtable_fairdeck::DEFAULT_CHAIN_LENGTH;
use roundtable_port_royal::PortRoyal;

use super::net::Rng;
use super::{Cheat, SimGame};

/// How the network and the machines misbehave.
#[derive(Clone, Debug, PartialEq)]
pub struct Faults {
    /// Probability that a message is lost.
    pub drop: f64,
    /// Probability that a message is delivered twice.
    pub duplicate: f64,
    /// Delay of a message, uniform in this range (ms); different delays
    /// reorder messages.
    pub delay_ms: (u64, u64),
    /// Probability that a message straggles: an extra delay of up to
    /// `straggle_ms`, so it arrives after many later ones.
    pub straggle: f64,
    /// The longest extra delay of a straggler (ms).
    pub straggle_ms: u64,
    /// Crashes of random peers, each followed by a restart.
    pub crashes: u32,
    /// How long a crashed peer stays down (ms).
    pub crash_down_ms: (u64, u64),
    /// Times the network splits into two groups and heals.
    pub partitions: u32,
    /// How long a partition lasts (ms).
    pub partition_ms: (u64, u64),
    /// Crashes and partitions start within this time from the start (ms).
    pub horizon_ms: u64,
    /// Whether a crash is a power loss that may tear off log bytes written
    /// since the last sync (otherwise only the process dies).
    pub torn_tails: bool,
}

impl Faults {
    /// A perfect network: nothing lost, a fixed small delay.
    pub fn none() -> Faults {
        Faults {
            drop: 0.0,
            duplicate: 0.0,
            delay_ms: (5, 5),
            straggle: 0.0,
            straggle_ms: 0,
            crashes: 0,
            crash_down_ms: (0, 0),
            partitions: 0,
            partition_ms: (0, 0),
            horizon_ms: 0,
            torn_tails: false,
        }
    }

    /// Faults chosen by `rng`: up to a fifth of messages lost, a tenth
    /// duplicated, delays up to 300 ms with stragglers, up to two crashes
    /// and two partitions. Every outage is shorter than a third of the stall
    /// timeout the simulator uses by default, so honest peers are never
    /// claimed stalled by it.
    fn random(rng: &mut Rng) -> Faults {
        Faults {
            drop: rng.float(0.0, 0.2),
            duplicate: rng.float(0.0, 0.1),
            delay_ms: (rng.range(1, 20), rng.range(30, 300)),
            straggle: rng.float(0.0, 0.05),
            straggle_ms: 1_500,
            crashes: rng.below(3) as u32,
            crash_down_ms: (100, 3_000),
            partitions: rng.below(3) as u32,
            partition_ms: (200, 3_000),
            horizon_ms: 90_000,
            torn_tails: true,
        }
    }
}

/// How a peer behaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// Follows the protocol; its bot thinks for the configured time.
    Honest,
    /// Follows the protocol, but its bot thinks for this long (ms): a slow
    /// player or machine.
    Slow {
        /// Thinking time range.
        think_ms: (u64, u64),
    },
    /// Crashes at this time and never comes back.
    Dies {
        /// When (ms).
        at_ms: u64,
    },
    /// Stops for good in place of sending its first envelope whose body is
    /// of this kind (`Body::kind`, such as "shuffle") once `after` inputs
    /// are applied: a seat that stalls the game exactly there.
    StopsBefore {
        /// The body's kind.
        kind: &'static str,
        /// Inputs before it may stop.
        after: u64,
    },
    /// Plays honestly, then resigns at its first decision once `after`
    /// inputs are applied. Unless it `stays`, it then leaves, as a player
    /// who resigns closes the game; one that stays keeps its table running
    /// to the end (its seat a zombie there too), and is then held to the
    /// same transcript as every honest peer.
    Resigns {
        /// Inputs before it resigns.
        after: u64,
        /// Whether its table runs on after the resignation.
        stays: bool,
    },
    /// Cheats once `after` inputs have been applied (see [`Cheat`]).
    Cheater {
        /// The cheat.
        cheat: Cheat,
        /// Inputs before it starts.
        after: u64,
    },
}

impl Role {
    /// Whether this peer's table must end in agreement with the others: it
    /// follows the protocol (a cheater whose cheat blames nobody, such as
    /// sending garbage, still plays its own seat honestly).
    pub fn is_honest(&self) -> bool {
        match self {
            Role::Honest | Role::Slow { .. } | Role::Resigns { stays: true, .. } => true,
            Role::Dies { .. } | Role::StopsBefore { .. } | Role::Resigns { stays: false, .. } => {
                false
            }
            Role::Cheater { cheat, .. } => cheat.blame_kinds().is_none(),
        }
    }
}

/// One simulated game of `G` (Port Royal unless named).
#[derive(Clone, Debug, PartialEq)]
pub struct SimConfig<G: SimGame = PortRoyal> {
    /// Names the run: keys, chains, bots, faults and timing all follow from it.
    pub seed: u64,
    /// Players (`G::MIN_SEATS` to `G::MAX_SEATS`).
    pub seats: u8,
    /// Rule options.
    pub options: G::Options,
    /// Network and machine faults.
    pub faults: Faults,
    /// Per seat (in seat order); missing entries are honest.
    pub roles: Vec<Role>,
    /// The tables' stall timeout (ms).
    pub stall_timeout_ms: u64,
    /// How often a peer asks the others for what it lacks (ms).
    pub sync_interval_ms: u64,
    /// How long an honest bot thinks (ms).
    pub think_ms: (u64, u64),
    /// Give up when simulated time passes this (ms).
    pub time_limit_ms: u64,
    /// Really fsync the log where the table asks for it (slow on a disk;
    /// the simulator models durability itself either way).
    pub fsync: bool,
    /// Seat the game's heuristic bots ([`SimGame::smart_bot`]) at odd
    /// seats (random bots elsewhere, and everywhere in a game without one).
    pub smart_bots: bool,
    /// The length of every seat's hash chain: short ones make the seats
    /// continue their chains many times in one game (SPEC 2.4).
    pub chain_length: u64,
}

impl<G: SimGame> SimConfig<G> {
    /// A game of `seats` on a perfect network: nothing lost, nobody cheats.
    pub fn calm(seed: u64, seats: u8) -> SimConfig<G> {
        SimConfig {
            seed,
            seats,
            options: G::Options::default(),
            faults: Faults::none(),
            roles: Vec::new(),
            stall_timeout_ms: 10_000,
            sync_interval_ms: 500,
            think_ms: (10, 500),
            time_limit_ms: 3_600_000,
            fsync: false,
            smart_bots: true,
            chain_length: DEFAULT_CHAIN_LENGTH,
        }
    }

    /// Seats, bots and faults all chosen by `seed`: any seat count the game
    /// allows, random [`Faults`], every peer honest.
    pub fn random(seed: u64) -> SimConfig<G> {
        let mut rng = Rng::new(seed ^ 0x5eed_f417);
        let seat_counts = u64::from(G::MAX_SEATS - G::MIN_SEATS) + 1;
        let seats = G::MIN_SEATS + rng.below(seat_counts) as u8;
        let faults = Faults::random(&mut rng);
        let smart_bots = rng.chance(0.5);
        // A quarter of the games outlive their chains many times over.
        let chain_length = if rng.chance(0.25) {
            1 + rng.below(64)
        } else {
            DEFAULT_CHAIN_LENGTH
        };
        SimConfig {
            faults,
            smart_bots,
            chain_length,
            ..SimConfig::calm(seed, seats)
        }
    }

    pub(crate) fn role(&self, seat: usize) -> Role {
        self.roles.get(seat).cloned().unwrap_or(Role::Honest)
    }
}
