//! Support for the fuzz targets: real honest games to mutate, and the
//! `table_input` target's operations and oracle as plain functions, so that
//! `cargo test -p roundtable-fuzz` runs the committed seeds
//! through the same code the fuzzer does.
//!
//! A fuzzer cannot sign, so bytes alone never reach a table's pump: every
//! envelope without a seat's signature is refused at the door. The targets
//! therefore start from a real game (a valid genesis, the seats' keys and
//! chains, every envelope) and let the fuzzer reorder, drop, repeat and
//! re-sign them.
//!
//! One file over 1,000 lines: the oracle (what counts as a blamed honest
//! seat) is shared by every target, and a quarter of the file replays the
//! committed seeds through it.

pub mod deal;

use std::collections::{BTreeMap, BTreeSet};
use std::marker::PhantomData;

use roundtable_bots::{Bot, PortRoyalBot, RandomBot};
use roundtable_engine::{Game, Seat};
use roundtable_fairdeck::{ChainSecret, DEFAULT_CHAIN_LENGTH};
use roundtable_hands::Hands;
use roundtable_local::{LocalError, LocalGame, Player, Progress, derive};
use roundtable_port_royal::{Options, PortRoyal};
use roundtable_table::transcript::Frame;
use roundtable_table::{
    Body, Config, Envelope, Genesis, Identity, Local, Output, Signed, Table, TableError, Violation,
};

/// A finished honest game of `G` between bots, with everything a seat had.
pub struct HonestGame<G: Game = PortRoyal> {
    /// The game's genesis.
    pub genesis: Genesis,
    /// The seats' signing keys, in seat order.
    pub identities: Vec<Identity>,
    /// The seats' hash chains, in seat order.
    pub chains: Vec<ChainSecret>,
    /// The canonical transcript.
    pub frames: Vec<Frame>,
    /// Every envelope of the game, in transcript order.
    pub envelopes: Vec<Signed>,
    /// The game the tables fed with it play.
    pub game: PhantomData<G>,
}

/// Why an honest game could not be made.
#[derive(Debug, thiserror::Error)]
pub enum HonestGameError {
    /// The in-process game failed.
    #[error(transparent)]
    Local(#[from] LocalError),
    /// A hash chain could not be made.
    #[error("chain: {0}")]
    Chain(String),
    /// A player's derived key has no seat in the genesis.
    #[error("player {0}'s key has no seat")]
    Unseated(u8),
    /// A bot game waited for a person.
    #[error("an all-bot game asked a person to move")]
    AskedPerson,
}

/// Play a whole game of `seats` [`PortRoyalBot`]s at in-process tables, with
/// keys and chains derived from `seed` as `roundtable_local` derives them.
pub fn play_honest_game(
    seed: u64,
    seats: u8,
    options: &Options,
) -> Result<HonestGame, HonestGameError> {
    play_honest_game_of(seed, seats, options, |_| {
        Box::new(PortRoyalBot::new(options))
    })
}

/// Play a whole game of `G` between the bots `bot` makes for each player
/// (by its number), as [`play_honest_game`] does for Port Royal.
pub fn play_honest_game_of<G: Game>(
    seed: u64,
    seats: u8,
    options: &G::Options,
    bot: impl Fn(u8) -> Box<dyn Bot<G>>,
) -> Result<HonestGame<G>, HonestGameError> {
    let players = (0..seats)
        .map(|i| (format!("bot {}", i + 1), Player::Bot(bot(i))))
        .collect();
    let mut game = LocalGame::<G>::new(options, seed, players, None, Config::default())?;
    match game.run()? {
        Progress::Finished => {}
        Progress::Human(_) | Progress::Bot(_) => return Err(HonestGameError::AskedPerson),
    }
    let mut identities: Vec<Option<Identity>> = vec![None; usize::from(seats)];
    let mut chains: Vec<Option<ChainSecret>> = vec![None; usize::from(seats)];
    for player in 0..seats {
        let seat = game
            .seat_of_player(usize::from(player))
            .ok_or(HonestGameError::Unseated(player))?;
        identities[seat.index()] = Some(Identity::from_secret(derive(seed, "key", player)));
        chains[seat.index()] = Some(
            ChainSecret::new(derive(seed, "chain", player), DEFAULT_CHAIN_LENGTH)
                .map_err(|e| HonestGameError::Chain(e.to_string()))?,
        );
    }
    let table = game.table(Seat(0));
    let frames = table.transcript();
    let envelopes = frames
        .iter()
        .filter_map(|f| match f {
            Frame::Envelope(e) => Some(e.clone()),
            _ => None,
        })
        .collect();
    Ok(HonestGame {
        genesis: table.genesis().clone(),
        identities: identities.into_iter().flatten().collect(),
        chains: chains.into_iter().flatten().collect(),
        frames,
        envelopes,
        game: PhantomData,
    })
}

/// The honest games whose transcripts make the `transcript` target's seed
/// corpus: (file name, seed, seats, options). Every one must stay honest: the
/// target's oracle is that no mutation of them proves a violation.
pub fn transcript_seeds() -> Vec<(&'static str, u64, u8, Options)> {
    // Short games (5 victory points): the audit of a mutation replays the
    // whole file, so a small file is many more executions a second.
    let short = Options {
        victory_points: 5,
        ..Options::default()
    };
    vec![
        ("two-seats.rts", 1, 2, short.clone()),
        ("three-seats.rts", 2, 3, short.clone()),
        ("five-seats.rts", 3, 5, short.clone()),
        (
            "three-seats-expansion.rts",
            4,
            3,
            Options {
                expansion: true,
                ..short
            },
        ),
    ]
}

/// The game every `table_input` run starts from: 3 seats, a short game so
/// that an input can play it to its end.
pub fn table_input_game() -> Result<HonestGame, HonestGameError> {
    play_honest_game(
        12,
        3,
        &Options {
            victory_points: 5,
            ..Options::default()
        },
    )
}

/// The game every `table_input_private` run starts from: 3 seats of the
/// Hands test game, whose cards are dealt privately (key shares, shuffles,
/// decryption shares, plays that reveal, key releases: every envelope body
/// of SPEC 5.11), in a short game of 2 rounds.
pub fn table_input_private_game() -> Result<HonestGame<Hands>, HonestGameError> {
    let options = roundtable_hands::Options { rounds: 2 };
    play_honest_game_of::<Hands>(7, 3, &options, |player| {
        Box::new(RandomBot::new(u64::from(player)))
    })
}

/// The table configuration of a `table_input` run: a stall timeout that a
/// few [`Op::Advance`]s reach, and a buffer bound that lies at far sequence
/// numbers can fill but the honest game's own envelopes cannot (no seat has
/// more than 70 of them): a full buffer refuses even the envelope its seat
/// needs next, so a smaller bound would make the liveness oracle fail on
/// honest envelopes delivered in reverse (reported on issue 12).
pub fn table_input_config() -> Config {
    Config {
        stall_timeout_ms: 1_000,
        max_buffered_per_seat: 128,
    }
}

/// One field of a real envelope changed before it is signed again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lie {
    /// Another sequence number.
    Seq(u64),
    /// One byte of `prev` xor-ed.
    Prev { byte: u8, xor: u8 },
    /// Another position.
    Position(u64),
    /// One byte of the state hash xor-ed.
    StateHash { byte: u8, xor: u8 },
    /// Another author seat (signed by that seat's key when it has one).
    Seat(u8),
    /// One byte of the body's encoding set (kept only if it still decodes).
    BodyByte { at: u16, value: u8 },
    /// The body of another real envelope.
    BodyOf(u16),
    /// A stall claim as the body, at its position with the state hash
    /// there: the real keys' claims are what forfeit a
    /// seat, and the honest game has none.
    Claim { accused: u8, position: u16 },
    /// A resignation as the body.
    Resign,
}

/// One step of a `table_input` run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// Deliver real envelope `i` (modulo their number).
    Deliver(u16),
    /// Deliver `count` real envelopes in transcript order from `start`.
    DeliverRun { start: u16, count: u8 },
    /// Deliver real envelope `index` changed by `lie` and signed again by
    /// its (new) seat's key: a validly signed lie.
    Lie { index: u16, lie: Lie },
    /// Deliver these bytes as they are.
    Raw(Vec<u8>),
    /// Let this many milliseconds pass (`handle_timeout`).
    Advance(u16),
    /// Deliver to the observer what the seated table has sent since the
    /// last echo (its reveals, stall claims, ...: envelopes of a real key
    /// that the honest game never had).
    Echo,
}

/// Reads little-endian numbers from the fuzzer's bytes; past the end, zeros.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl Reader<'_> {
    fn u8(&mut self) -> u8 {
        match self.bytes.split_first() {
            Some((&b, rest)) => {
                self.bytes = rest;
                b
            }
            None => 0,
        }
    }

    fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    fn u64(&mut self) -> u64 {
        let mut b = [0; 8];
        for x in &mut b {
            *x = self.u8();
        }
        u64::from_le_bytes(b)
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        let n = n.min(self.bytes.len());
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        head.to_vec()
    }
}

/// A `table_input` input: the seat of the seated table, then operations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Script {
    /// The seated table's seat (modulo the number of seats).
    pub seat: u8,
    /// What happens, in order.
    pub ops: Vec<Op>,
}

impl Script {
    /// Parse the fuzzer's bytes: every byte string is a script.
    pub fn parse(data: &[u8]) -> Script {
        let mut r = Reader { bytes: data };
        let seat = r.u8();
        let mut ops = Vec::new();
        while !r.bytes.is_empty() {
            let op = match r.u8() % 6 {
                0 => Op::Deliver(r.u16()),
                1 => Op::DeliverRun {
                    start: r.u16(),
                    count: r.u8(),
                },
                2 => {
                    let index = r.u16();
                    let lie = match r.u8() % 9 {
                        0 => Lie::Seq(r.u64()),
                        1 => Lie::Prev {
                            byte: r.u8(),
                            xor: r.u8(),
                        },
                        2 => Lie::Position(r.u64()),
                        3 => Lie::StateHash {
                            byte: r.u8(),
                            xor: r.u8(),
                        },
                        4 => Lie::Seat(r.u8()),
                        5 => Lie::BodyByte {
                            at: r.u16(),
                            value: r.u8(),
                        },
                        6 => Lie::BodyOf(r.u16()),
                        7 => Lie::Claim {
                            accused: r.u8(),
                            position: r.u16(),
                        },
                        _ => Lie::Resign,
                    };
                    Op::Lie { index, lie }
                }
                3 => {
                    let n = usize::from(r.u8());
                    Op::Raw(r.bytes(n))
                }
                4 => Op::Advance(r.u16()),
                _ => Op::Echo,
            };
            ops.push(op);
        }
        Script { seat, ops }
    }

    /// The bytes [`Script::parse`] reads back as this script (for writing
    /// seeds).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = vec![self.seat];
        for op in &self.ops {
            match op {
                Op::Deliver(i) => {
                    out.push(0);
                    out.extend(i.to_le_bytes());
                }
                Op::DeliverRun { start, count } => {
                    out.push(1);
                    out.extend(start.to_le_bytes());
                    out.push(*count);
                }
                Op::Lie { index, lie } => {
                    out.push(2);
                    out.extend(index.to_le_bytes());
                    match lie {
                        Lie::Seq(s) => {
                            out.push(0);
                            out.extend(s.to_le_bytes());
                        }
                        Lie::Prev { byte, xor } => out.extend([1, *byte, *xor]),
                        Lie::Position(p) => {
                            out.push(2);
                            out.extend(p.to_le_bytes());
                        }
                        Lie::StateHash { byte, xor } => out.extend([3, *byte, *xor]),
                        Lie::Seat(s) => out.extend([4, *s]),
                        Lie::BodyByte { at, value } => {
                            out.push(5);
                            out.extend(at.to_le_bytes());
                            out.push(*value);
                        }
                        Lie::BodyOf(j) => {
                            out.push(6);
                            out.extend(j.to_le_bytes());
                        }
                        Lie::Claim { accused, position } => {
                            out.extend([7, *accused]);
                            out.extend(position.to_le_bytes());
                        }
                        Lie::Resign => out.push(8),
                    }
                }
                Op::Raw(bytes) => {
                    out.push(3);
                    let n = bytes.len().min(255);
                    out.push(n as u8);
                    out.extend(&bytes[..n]);
                }
                Op::Advance(ms) => {
                    out.push(4);
                    out.extend(ms.to_le_bytes());
                }
                Op::Echo => out.push(5),
            }
        }
        out
    }
}

/// What one `table_input` run saw.
#[derive(Debug, Default)]
pub struct RunReport {
    /// Violations the observer reported (seat blamed, kind).
    pub observer_violations: Vec<(u8, &'static str)>,
    /// Violations the seated table reported.
    pub seated_violations: Vec<(u8, &'static str)>,
    /// Whether the observer saw the game to its end (after the liveness
    /// check's delivery of the whole game, when the input signed no lie).
    pub observer_finished: bool,
    /// Whether the seated table saw the game to its end.
    pub seated_finished: bool,
    /// The seats whose envelopes the input signed anew (changed).
    pub liars: BTreeSet<u8>,
    /// Forfeits the two tables applied (a census of how deep a run went).
    pub forfeits: usize,
    /// Rewinds the two tables made.
    pub rewinds: usize,
}

/// A table fed by a run, with what the oracle needs to judge it.
struct Fed<G: Game> {
    table: Table<G>,
    violations: Vec<(u8, &'static str)>,
    forfeits: usize,
    rewinds: usize,
    /// The seated table signed an envelope other than the real one of its
    /// slot: its own key has then signed two, and blaming it is right.
    self_diverged: bool,
    /// What it broadcast and no echo has delivered yet.
    sent: Vec<Signed>,
    name: &'static str,
}

impl<G: Game> Fed<G> {
    /// Carry out the table's outputs and judge every violation, where
    /// `diverged` is the seat (if any) the seated table has made sign
    /// something the honest game did not.
    fn drain(
        &mut self,
        game: &HonestGame<G>,
        real: &BTreeMap<(u8, u64), &Signed>,
        liars: &BTreeSet<u8>,
        diverged: Option<u8>,
    ) -> Result<(), String> {
        while let Some(output) = self.table.poll_output() {
            match output {
                Output::Broadcast(signed) => {
                    if real
                        .get(&(signed.seat(), signed.seq()))
                        .is_some_and(|r| **r != signed)
                    {
                        self.self_diverged = true;
                    }
                    self.sent.push(signed);
                }
                Output::Violation(v) => {
                    judge(&v, game, liars, diverged.or(self.diverged()))
                        .map_err(|e| format!("{}: {e}", self.name))?;
                    self.violations.push((v.seat(), v.kind()));
                }
                Output::Forfeited { .. } => self.forfeits += 1,
                Output::Rewound { .. } => self.rewinds += 1,
                _ => {}
            }
        }
        Ok(())
    }

    /// The local seat, once this table has signed something the honest
    /// game did not.
    fn diverged(&self) -> Option<u8> {
        self.table
            .local_seat()
            .filter(|_| self.self_diverged)
            .map(|s| s.0)
    }
}

/// Carry out both tables' outputs (the seated one first: what it signed
/// decides whom the observer may blame).
fn drain_both<G: Game>(
    tables: &mut [Fed<G>; 2],
    game: &HonestGame<G>,
    real: &BTreeMap<(u8, u64), &Signed>,
    liars: &BTreeSet<u8>,
) -> Result<(), String> {
    let [observer, seated] = tables;
    seated.drain(game, real, liars, None)?;
    observer.drain(game, real, liars, seated.diverged())
}

/// The oracle: a reported violation blames a seat whose key signed something
/// other than the honest game (a lie of the input, or the seated table's own
/// divergent envelope), and its proof's signatures check.
fn judge<G: Game>(
    v: &Violation,
    game: &HonestGame<G>,
    liars: &BTreeSet<u8>,
    blameable_self: Option<u8>,
) -> Result<(), String> {
    v.check_signatures(&game.genesis)
        .map_err(|e| format!("the proof of {v} does not check: {e}"))?;
    if !liars.contains(&v.seat()) && blameable_self != Some(v.seat()) {
        return Err(format!(
            "{v} blames a seat that signed no lie (liars: {liars:?})"
        ));
    }
    Ok(())
}

/// Real envelope `index` changed by `lie` and signed by its author seat's
/// key; None when the change leaves no decodable envelope.
fn tell<G: Game>(game: &HonestGame<G>, index: u16, lie: &Lie) -> Option<Signed> {
    let n = game.envelopes.len();
    let mut e: Envelope = game.envelopes[usize::from(index) % n].envelope.clone();
    match *lie {
        Lie::Seq(s) => e.seq = s,
        Lie::Prev { byte, xor } => e.prev.0[usize::from(byte) % 32] ^= xor,
        Lie::Position(p) => e.position = p,
        Lie::StateHash { byte, xor } => e.state_hash.0[usize::from(byte) % 32] ^= xor,
        Lie::Seat(s) => e.seat = s,
        Lie::BodyByte { at, value } => {
            let mut bytes = postcard::to_allocvec(&e.body).ok()?;
            let len = bytes.len();
            bytes[usize::from(at) % len] = value;
            e.body = postcard::from_bytes::<Body>(&bytes).ok()?;
        }
        Lie::BodyOf(j) => e.body = game.envelopes[usize::from(j) % n].envelope.body.clone(),
        Lie::Claim { accused, position } => {
            // Written as an honest claimant writes it: at the position, with
            // the state hash there (which the honest game's envelopes of that
            // position carry), so that it reaches the forfeit rules.
            let position = u64::from(position);
            e.body = Body::StallClaim { accused, position };
            if let Some(there) = game.envelopes.iter().find(|r| {
                r.envelope.position == position && !matches!(r.envelope.body, Body::Reveal(_))
            }) {
                e.position = position;
                e.state_hash = there.envelope.state_hash;
            }
        }
        Lie::Resign => e.body = Body::Resign,
    }
    let key = &game.identities[usize::from(e.seat) % game.identities.len()];
    Some(e.sign(key))
}

/// Run `script` against an observer table and a seated table of `game`:
/// Ok with what they saw, or Err naming the broken oracle.
pub fn run_table_input<G: Game>(
    game: &HonestGame<G>,
    script: &Script,
) -> Result<RunReport, String> {
    run_table_input_with(game, script, &table_input_config())
}

/// [`run_table_input`] with tables of another configuration.
pub fn run_table_input_with<G: Game>(
    game: &HonestGame<G>,
    script: &Script,
    config: &Config,
) -> Result<RunReport, String> {
    let seats = game.identities.len() as u8;
    let seat = script.seat % seats;
    let real: BTreeMap<(u8, u64), &Signed> = game
        .envelopes
        .iter()
        .map(|e| ((e.seat(), e.seq()), e))
        .collect();
    let table_error = |e: TableError| format!("a table refused a valid genesis: {e}");
    let observer = Table::new(game.genesis.clone(), None, config.clone()).map_err(table_error)?;
    let local = Local {
        seat: Seat(seat),
        identity: game.identities[usize::from(seat)].clone(),
        chain: game.chains[usize::from(seat)].clone(),
    };
    let seated =
        Table::new(game.genesis.clone(), Some(local), config.clone()).map_err(table_error)?;
    let mut tables = [
        Fed {
            table: observer,
            violations: Vec::new(),
            forfeits: 0,
            rewinds: 0,
            self_diverged: false,
            sent: Vec::new(),
            name: "observer",
        },
        Fed {
            table: seated,
            violations: Vec::new(),
            forfeits: 0,
            rewinds: 0,
            self_diverged: false,
            sent: Vec::new(),
            name: "seated table",
        },
    ];
    let mut liars = BTreeSet::new();
    let mut now = 0u64;
    for fed in &mut tables {
        fed.table.handle_timeout(now);
    }
    drain_both(&mut tables, game, &real, &liars)?;
    let n = game.envelopes.len();
    for op in &script.ops {
        let deliveries: Vec<Result<Signed, &[u8]>> = match op {
            Op::Deliver(i) => vec![Ok(game.envelopes[usize::from(*i) % n].clone())],
            Op::DeliverRun { start, count } => (0..usize::from(*count))
                .map(|k| Ok(game.envelopes[(usize::from(*start) + k) % n].clone()))
                .collect(),
            Op::Lie { index, lie } => match tell(game, *index, lie) {
                Some(signed) => {
                    if real.get(&(signed.seat(), signed.seq())) != Some(&&signed) {
                        liars.insert(signed.seat());
                    }
                    vec![Ok(signed)]
                }
                None => Vec::new(),
            },
            Op::Raw(bytes) => vec![Err(bytes.as_slice())],
            Op::Advance(ms) => {
                now += u64::from(*ms);
                for fed in &mut tables {
                    fed.table.handle_timeout(now);
                }
                drain_both(&mut tables, game, &real, &liars)?;
                Vec::new()
            }
            Op::Echo => {
                for signed in std::mem::take(&mut tables[1].sent) {
                    let _ = tables[0].table.handle_envelope(now, signed);
                    drain_both(&mut tables, game, &real, &liars)?;
                }
                Vec::new()
            }
        };
        for delivery in deliveries {
            for fed in &mut tables {
                // Refusals are the table's business; the oracle judges what
                // it reports.
                let _ = match &delivery {
                    Ok(signed) => fed.table.handle_envelope(now, signed.clone()),
                    Err(bytes) => fed.table.handle_bytes(now, bytes),
                };
            }
            drain_both(&mut tables, game, &real, &liars)?;
        }
    }
    // Liveness: an input of nothing but the honest game's own envelopes (in
    // any order, with noise no key signed and time passing) must leave both
    // tables able to finish the game once they are given it in order; the
    // seated table only if it signed nothing the honest game did not.
    let honest_only = !script
        .ops
        .iter()
        .any(|op| matches!(op, Op::Lie { .. } | Op::Echo));
    if honest_only {
        for signed in &game.envelopes {
            for fed in &mut tables {
                let _ = fed.table.handle_envelope(now, signed.clone());
            }
            drain_both(&mut tables, game, &real, &liars)?;
        }
        for fed in &tables {
            if !fed.self_diverged && !fed.table.is_finished() {
                return Err(format!(
                    "{}: given only the honest game's envelopes, and then all of them in order, \
                     it is stuck at position {}",
                    fed.name,
                    fed.table.position()
                ));
            }
        }
    }
    let [observer, seated] = tables;
    Ok(RunReport {
        observer_finished: observer.table.is_finished(),
        seated_finished: seated.table.is_finished(),
        observer_violations: observer.violations,
        seated_violations: seated.violations,
        liars,
        forfeits: observer.forfeits + seated.forfeits,
        rewinds: observer.rewinds + seated.rewinds,
    })
}

/// The committed seeds of the `table_input` target: (file name, script).
pub fn table_input_seeds<G: Game>(game: &HonestGame<G>) -> Vec<(&'static str, Script)> {
    let n = game.envelopes.len();
    let in_order = |seat: u8| Script {
        seat,
        ops: (0..n)
            .step_by(255)
            .map(|start| Op::DeliverRun {
                start: start as u16,
                count: (n - start).min(255) as u8,
            })
            .collect(),
    };
    let reversed = Script {
        seat: 0,
        ops: (0..n).rev().map(|i| Op::Deliver(i as u16)).collect(),
    };
    // Half the game, then silence: the seated table claims the stalled seats.
    let stalled = Script {
        seat: 1,
        ops: vec![
            Op::DeliverRun {
                start: 0,
                count: (n / 2).min(255) as u8,
            },
            Op::Advance(1_500),
            Op::Echo,
            Op::Advance(3_500),
            Op::Echo,
            Op::DeliverRun {
                start: (n / 2) as u16,
                count: 40,
            },
        ],
    };
    let mut lies = in_order(2);
    lies.ops.insert(
        1,
        Op::Lie {
            index: 20,
            lie: Lie::BodyByte { at: 3, value: 1 },
        },
    );
    lies.ops.insert(
        0,
        Op::Lie {
            index: 5,
            lie: Lie::StateHash { byte: 0, xor: 1 },
        },
    );
    let raw = Script {
        seat: 0,
        ops: vec![
            Op::Raw(game.envelopes[0].encode()),
            Op::Raw(vec![0; 10]),
            Op::Deliver(1),
        ],
    };
    // Half the game, then the other two seats' next envelopes turned into
    // claims against the seat whose action the game waits for: real keys'
    // claims, which forfeit it.
    let half = (n / 2..n)
        .find(|&i| matches!(game.envelopes[i].envelope.body, Body::Action { .. }))
        .unwrap_or(n / 2);
    let accused = game.envelopes[half].seat();
    let claim_position = game.envelopes[half].envelope.position as u16;
    // `seen`: whether the tables get the accused's input before the claims
    // (an observer then has to go back and apply the forfeit instead).
    let claims = |seen: bool| {
        let delivered = if seen { half + 1 } else { half };
        let next_of = |seat: u8| {
            (delivered..n)
                .find(|&i| game.envelopes[i].seat() == seat)
                .unwrap_or(delivered)
        };
        let mut script = Script {
            seat: accused,
            ops: vec![Op::DeliverRun {
                start: 0,
                count: delivered.min(255) as u8,
            }],
        };
        for seat in (0..3).filter(|&s| s != accused) {
            script.ops.push(Op::Lie {
                index: next_of(seat) as u16,
                lie: Lie::Claim {
                    accused,
                    position: claim_position,
                },
            });
        }
        script.ops.push(Op::Advance(2_000));
        script.ops.push(Op::Echo);
        script.ops.push(Op::DeliverRun {
            start: delivered as u16,
            count: 60,
        });
        script
    };
    vec![
        ("in-order-seat-1", in_order(0)),
        ("claims", claims(false)),
        ("claims-after-input", claims(true)),
        ("in-order-seat-2", in_order(1)),
        ("reversed", reversed),
        ("stalled", stalled),
        ("lies", lies),
        ("raw", raw),
    ]
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::OnceLock;

    use roundtable_table::audit::audit;
    use roundtable_table::transcript::{decode_file, encode_file};

    use super::*;

    fn game() -> &'static HonestGame {
        static GAME: OnceLock<HonestGame> = OnceLock::new();
        GAME.get_or_init(|| table_input_game().expect("an honest game"))
    }

    fn private_game() -> &'static HonestGame<Hands> {
        static GAME: OnceLock<HonestGame<Hands>> = OnceLock::new();
        GAME.get_or_init(|| table_input_private_game().expect("an honest Hands game"))
    }

    fn seeds_dir(target: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("seeds")
            .join(target)
    }

    #[test]
    fn scripts_survive_encoding() {
        for (name, script) in table_input_seeds(game()) {
            assert_eq!(Script::parse(&script.encode()), script, "{name}");
        }
    }

    #[test]
    fn the_real_envelopes_in_order_finish_both_tables_without_blame() {
        let seeds = table_input_seeds(game());
        let (_, script) = seeds
            .iter()
            .find(|(name, _)| *name == "in-order-seat-1")
            .unwrap();
        let report = run_table_input(game(), script).unwrap();
        assert!(
            report.observer_finished && report.seated_finished,
            "{report:?}"
        );
        assert!(report.observer_violations.is_empty(), "{report:?}");
        assert!(report.seated_violations.is_empty(), "{report:?}");
    }

    #[test]
    fn a_signed_lie_is_proven_against_the_liar() {
        let seeds = table_input_seeds(game());
        let (_, script) = seeds.iter().find(|(name, _)| *name == "lies").unwrap();
        let report = run_table_input(game(), script).unwrap();
        assert!(!report.liars.is_empty());
        assert!(!report.observer_violations.is_empty(), "{report:?}");
        for (seat, _) in report
            .observer_violations
            .iter()
            .chain(&report.seated_violations)
        {
            assert!(report.liars.contains(seat), "{report:?}");
        }
    }

    /// Issue 12 (found by this target's liveness oracle): a seat's buffer
    /// full of its later envelopes refuses the one it needs next, for good,
    /// so relaying a seat's real envelopes newest first stalls a table that
    /// is behind by more than the bound. Fails until the table keeps room
    /// for the lowest sequence numbers.
    #[test]
    fn honest_envelopes_newest_first_never_stall_a_table() {
        let game = game();
        let n = game.envelopes.len();
        let most_of_one_seat = (0..3)
            .map(|s| game.envelopes.iter().filter(|e| e.seat() == s).count())
            .max()
            .unwrap();
        let config = Config {
            max_buffered_per_seat: most_of_one_seat - 2,
            ..table_input_config()
        };
        let newest_first = Script {
            seat: 0,
            ops: (0..n).rev().map(|i| Op::Deliver(i as u16)).collect(),
        };
        run_table_input_with(game, &newest_first, &config).unwrap();
    }

    #[test]
    fn real_keys_claims_forfeit_a_seat_and_make_an_observer_go_back() {
        let seeds = table_input_seeds(game());
        let (_, script) = seeds
            .iter()
            .find(|(name, _)| *name == "claims-after-input")
            .unwrap();
        let report = run_table_input(game(), script).unwrap();
        assert!(report.forfeits > 0 && report.rewinds > 0, "{report:?}");
    }

    #[test]
    fn the_oracle_refuses_blame_of_an_honest_seat() {
        // A proof made of an honest seat's two real envelopes of different
        // slots passed off as an equivocation: the oracle must catch it.
        let game = game();
        let v = Violation::Equivocation {
            first: game.envelopes[0].clone(),
            second: game.envelopes[0].clone(),
        };
        assert!(judge(&v, game, &BTreeSet::new(), None).is_err());
        let lie = tell(game, 0, &Lie::Position(99)).unwrap();
        let v = Violation::Equivocation {
            first: game.envelopes[0].clone(),
            second: lie,
        };
        assert!(judge(&v, game, &BTreeSet::new(), None).is_err());
        assert!(judge(&v, game, &BTreeSet::from([v.seat()]), None).is_ok());
    }

    #[test]
    fn committed_table_input_seeds_pass_the_oracle() {
        let dir = seeds_dir("table_input");
        let mut count = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let data = std::fs::read(entry.unwrap().path()).unwrap();
            run_table_input(game(), &Script::parse(&data)).unwrap();
            count += 1;
        }
        assert!(count > 0, "no seeds in {}", dir.display());
    }

    #[test]
    fn the_private_game_deals_with_every_private_body() {
        let kinds: BTreeSet<&str> = private_game()
            .envelopes
            .iter()
            .map(|e| e.envelope.body.kind())
            .collect();
        for kind in [
            "key share",
            "shuffle",
            "decryption shares",
            "action with revealed cards",
            "key release",
        ] {
            assert!(kinds.contains(kind), "no {kind} in {kinds:?}");
        }
    }

    #[test]
    fn a_private_game_in_order_finishes_both_tables_without_blame() {
        for seat in 0..3 {
            let seeds = table_input_seeds(private_game());
            let (_, script) = seeds
                .iter()
                .find(|(name, _)| *name == "in-order-seat-1")
                .unwrap();
            let script = Script {
                seat,
                ops: script.ops.clone(),
            };
            let report = run_table_input(private_game(), &script).unwrap();
            assert!(
                report.observer_finished && report.seated_finished,
                "seat {seat}: {report:?}"
            );
            assert!(report.observer_violations.is_empty(), "{report:?}");
            assert!(report.seated_violations.is_empty(), "{report:?}");
        }
    }

    /// Every private envelope of the game with one byte of its body changed
    /// and signed again by its seat: whatever the tables make of it, they
    /// blame only that seat (the oracle), and most such lies are caught.
    #[test]
    fn lies_in_private_bodies_are_blamed_on_their_liar_only() {
        let game = private_game();
        let n = game.envelopes.len();
        let (mut told, mut caught) = (0, 0);
        for (i, e) in game.envelopes.iter().enumerate() {
            if !matches!(
                e.envelope.body,
                Body::KeyShare { .. }
                    | Body::Shuffle { .. }
                    | Body::ShuffleFromPile { .. }
                    | Body::Shares { .. }
                    | Body::ActionRevealing { .. }
                    | Body::KeyRelease { .. }
            ) {
                continue;
            }
            for at in [5u16, 40, 200] {
                let lie = Lie::BodyByte { at, value: 0x5a };
                if tell(game, i as u16, &lie).is_none_or(|l| l == *e) {
                    continue;
                }
                let mut ops = vec![Op::Lie {
                    index: i as u16,
                    lie,
                }];
                ops.extend((0..n).step_by(255).map(|start| Op::DeliverRun {
                    start: start as u16,
                    count: (n - start).min(255) as u8,
                }));
                let report = run_table_input(game, &Script { seat: 0, ops }).unwrap();
                told += 1;
                if !report.observer_violations.is_empty() {
                    caught += 1;
                }
            }
        }
        assert!(told > 10, "only {told} lies could be told");
        assert!(caught * 2 > told, "{caught} of {told} lies were caught");
    }

    #[test]
    fn honest_private_envelopes_newest_first_never_stall_a_table() {
        let game = private_game();
        let n = game.envelopes.len();
        let newest_first = Script {
            seat: 2,
            ops: (0..n).rev().map(|i| Op::Deliver(i as u16)).collect(),
        };
        run_table_input(game, &newest_first).unwrap();
    }

    #[test]
    fn committed_table_input_private_seeds_pass_the_oracle() {
        let dir = seeds_dir("table_input_private");
        let mut count = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let data = std::fs::read(entry.unwrap().path()).unwrap();
            run_table_input(private_game(), &Script::parse(&data)).unwrap();
            count += 1;
        }
        assert!(count > 0, "no seeds in {}", dir.display());
    }

    #[test]
    fn committed_transcript_seeds_are_honest_and_valid() {
        let dir = seeds_dir("transcript");
        let mut count = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let read = decode_file(&path, &std::fs::read(&path).unwrap()).unwrap();
            let report = audit::<PortRoyal>(&read.frames).unwrap();
            assert!(report.is_valid() && report.canonical, "{}", path.display());
            count += 1;
        }
        assert!(count >= 4, "seeds missing in {}", dir.display());
    }

    /// Writes the committed transcript seeds:
    /// `cargo test -p roundtable-fuzz --lib -- --ignored write_seeds`.
    #[test]
    #[ignore = "writes fuzz/seeds; run by hand to regenerate them"]
    fn write_seeds_of_transcript() {
        let dir = seeds_dir("transcript");
        std::fs::create_dir_all(&dir).unwrap();
        for (name, seed, seats, options) in transcript_seeds() {
            let honest = play_honest_game(seed, seats, &options).unwrap();
            std::fs::write(dir.join(name), encode_file(&honest.frames)).unwrap();
        }
    }

    /// Writes the committed `table_input` seeds (see above).
    #[test]
    #[ignore = "writes fuzz/seeds; run by hand to regenerate them"]
    fn write_seeds_of_table_input() {
        let dir = seeds_dir("table_input");
        std::fs::create_dir_all(&dir).unwrap();
        for (name, script) in table_input_seeds(game()) {
            std::fs::write(dir.join(name), script.encode()).unwrap();
        }
    }

    /// Writes the committed `table_input_private` seeds (see above).
    #[test]
    #[ignore = "writes fuzz/seeds; run by hand to regenerate them"]
    fn write_seeds_of_table_input_private() {
        let dir = seeds_dir("table_input_private");
        std::fs::create_dir_all(&dir).unwrap();
        for (name, script) in table_input_seeds(private_game()) {
            std::fs::write(dir.join(name), script.encode()).unwrap();
        }
    }
}
