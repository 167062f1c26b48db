//! In-process tables: a whole game between full peers in one process.
//!
//! Every seat gets its own ed25519 key, its own hash chain and its own
//! [`Table`]; the tables talk through a perfect in-memory network (every
//! broadcast reaches every other table, in order). Bots move through
//! [`Table::submit`] exactly as a person's move does. This is the solo game
//! against bots, `roundtable selfplay`, and the benchmarks: the same protocol
//! as a game over the network, minus the network.
//!
//! A front end's local game is a [`DrivenGame`]: its bots move by
//! themselves as the front end polls it, paced, a thinking bot on a thread
//! of its own, so that no screen drives a bot.

use std::collections::VecDeque;
use std::path::Path;

use roundtable_bots::Bot;
use roundtable_engine::{Game, GameResult, Knowledge, Seat};
use roundtable_fairdeck::{ChainSecret, DEFAULT_CHAIN_LENGTH};
use roundtable_table::transcript::{Frame, TranscriptError, TranscriptLog};
use roundtable_table::{
    Config, GameId, Genesis, Identity, Local, Output, Proposal, Record, SeatInfo, Signed, Table,
    TableError,
};
use sha2::{Digest, Sha256};

mod driven;

pub use driven::{DrivenGame, THINKING_POLL};

/// Who sits at a seat.
pub enum Player<G: Game> {
    /// A computer player.
    Bot(Box<dyn Bot<G>>),
    /// A person: the game waits for [`LocalGame::submit`].
    Human,
}

/// Who sits at a seat, once the game is founded: a bot may be out
/// deciding ([`LocalGame::take_bot_turn`]).
enum Seated<G: Game> {
    Bot(Option<Box<dyn Bot<G>>>),
    Human,
}

/// A bot's decision, taken out of the game ([`LocalGame::take_bot_turn`])
/// so that it can be made on another thread while the caller goes on (a
/// terminal UI redraws and answers keys while a search bot thinks). It owns
/// the bot and a copy of what the bot's seat may know.
pub struct BotTurn<G: Game> {
    seat: Seat,
    position: u64,
    bot: Box<dyn Bot<G>>,
    state: G,
    knowledge: Knowledge,
    legal: Vec<G::Action>,
}

impl<G: Game> BotTurn<G> {
    /// The seat deciding.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// Let the bot decide: this is where a search bot spends its think
    /// time. Give the result to [`LocalGame::play_bot_move`].
    pub fn decide(mut self) -> BotMove<G> {
        let pick = self
            .bot
            .choose_in(self.seat, &self.state, &self.knowledge, &self.legal);
        let action = self.legal.get(pick).or(self.legal.first()).cloned();
        BotMove {
            seat: self.seat,
            position: self.position,
            bot: self.bot,
            action,
        }
    }
}

/// A bot's decision, made: the bot goes back to its seat with it.
pub struct BotMove<G: Game> {
    seat: Seat,
    position: u64,
    bot: Box<dyn Bot<G>>,
    action: Option<G::Action>,
}

impl<G: Game> BotMove<G> {
    /// The seat that decided.
    pub fn seat(&self) -> Seat {
        self.seat
    }
}

/// Why a local game failed.
#[derive(Debug, thiserror::Error)]
pub enum LocalError {
    /// A table refused something it should not have. Its message is the
    /// table's own: quoting it and also giving it as the source would make a
    /// printer of the whole chain say it twice.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The transcript could not be written (the message names the file).
    #[error(transparent)]
    Transcript(#[from] TranscriptError),
    /// A hash chain could not be made.
    #[error("chain: {0}")]
    Chain(String),
    /// A table reported a violation (a bug: every seat here is honest).
    #[error("seat {seat} saw a violation: {violation}")]
    Violation {
        /// The seat whose table saw it.
        seat: u32,
        /// What it saw.
        violation: String,
    },
    /// The seats' tables ended with different transcripts (a bug).
    #[error("the tables ended with different transcripts")]
    Diverged,
    /// The tables wait for nothing they could be given (a bug).
    #[error("the tables are stuck at position {0}")]
    Stuck(u64),
    /// A bot had to decide with no legal action (a bug in the game).
    #[error("{0} has a decision but no legal action")]
    NoLegalAction(Seat),
    /// The operating system's random source failed, so the seats' secrets
    /// could not be made.
    #[error("the operating system's random source failed: {0}")]
    Random(String),
    /// A bot's move came back for a seat or a position the game is no
    /// longer at, or a bot was asked while out deciding (a driver's bug).
    #[error("{0}'s bot move does not fit the game as it stands")]
    StaleBotMove(Seat),
}

/// What the game waits for once the tables are quiet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// A person's decision at this seat.
    Human(Seat),
    /// A bot's decision at this seat ([`LocalGame::move_bot`]).
    Bot(Seat),
    /// The game is finished (over, every seed open).
    Finished,
}

/// One applied input, as the table of the observed seat reported it.
#[derive(Debug)]
pub struct Applied<G: Game> {
    /// Its transcript position.
    pub position: u64,
    /// What it was.
    pub record: Record<G>,
    /// What happened.
    pub events: Vec<G::Event>,
}

/// Counters of what went over the in-memory network.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traffic {
    /// Envelopes broadcast.
    pub envelopes: u64,
    /// Bytes of those envelopes (their wire encoding), counted once per broadcast.
    pub bytes: u64,
    /// Envelope deliveries (one per receiving table).
    pub deliveries: u64,
}

/// 32 bytes derived from a game seed for `what` of seat `seat`
/// (`protocol/SPEC.md` 3.9): for self-play, tests and benchmarks only.
/// Whoever knows the seed knows every key and chain, so every draw: a game
/// with a person at it takes [`LocalGame::with_fresh_secrets`].
pub fn derive(seed: u64, what: &str, seat: u8) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"roundtable/selfplay/v1");
    h.update(seed.to_le_bytes());
    h.update(what.as_bytes());
    h.update([seat]);
    h.finalize().into()
}

/// The seat each of `players` players of [`LocalGame::new`] with `seed`
/// will take, in joining order. Seats follow the order of the seats' public
/// keys (as [`Proposal::new`] puts them), so a caller that names its
/// players after their seats ("Bot 3" at seat 3) can know them before the
/// game is founded, while the names still go into the genesis.
pub fn seeded_seats(seed: u64, players: u8) -> Vec<Seat> {
    let keys: Vec<_> = (0..players)
        .map(|i| Identity::from_secret(derive(seed, "key", i)).public())
        .collect();
    keys.iter()
        .map(|key| Seat(keys.iter().filter(|other| *other < key).count() as u8))
        .collect()
}

/// A number from the operating system's random source, for what needs
/// variety, not secrecy: the seed of a bots-only game or of a bot, a file
/// name. Never a game's secrets, which [`LocalGame::with_fresh_secrets`]
/// draws and whose failure is an error. Should the source fail (no system
/// this runs on lets it), the clock still varies the number.
pub fn fresh_seed() -> u64 {
    getrandom::u64().unwrap_or_else(|_| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    })
}

/// A game between in-process tables.
pub struct LocalGame<G: Game> {
    tables: Vec<Table<G>>,
    players: Vec<Seated<G>>,
    names: Vec<String>,
    /// Joining order → seat.
    player_seats: Vec<Seat>,
    wire: VecDeque<(usize, Signed)>,
    log: Option<TranscriptLog>,
    observed: usize,
    applied: VecDeque<Applied<G>>,
    result: Option<GameResult>,
    traffic: Traffic,
}

impl<G: Game> LocalGame<G> {
    /// Seat the `players` (one per seat, given in joining order) with keys and
    /// chains derived from `seed`, found the game, and open the transcript at
    /// `transcript` if given. `names` are display names in joining order.
    /// Seats are in key order, so player `i` may not sit at seat `i`: see
    /// [`LocalGame::seat_of_player`].
    ///
    /// The game replays from `seed`, and anyone who knows it can compute
    /// every draw: for bots only, tests and benchmarks.
    pub fn new(
        options: &G::Options,
        seed: u64,
        players: Vec<(String, Player<G>)>,
        transcript: Option<&Path>,
        config: Config,
    ) -> Result<Self, LocalError> {
        let n = players.len() as u8;
        let secrets = (0..n)
            .map(|i| (derive(seed, "key", i), derive(seed, "chain", i)))
            .collect();
        Self::found(
            options,
            secrets,
            derive(seed, "nonce", 0),
            players,
            transcript,
            config,
        )
    }

    /// As [`LocalGame::new`], with every seat's key and chain seed and the
    /// genesis nonce drawn from the operating system's random source: a game
    /// with a person at it, who must not be able to compute the bots' draws.
    /// The transcript still audits, since every seat opens its chain seed
    /// once the game is over.
    pub fn with_fresh_secrets(
        options: &G::Options,
        players: Vec<(String, Player<G>)>,
        transcript: Option<&Path>,
        config: Config,
    ) -> Result<Self, LocalError> {
        let random = || {
            let mut bytes = [0u8; 32];
            getrandom::fill(&mut bytes).map_err(|e| LocalError::Random(e.to_string()))?;
            Ok::<_, LocalError>(bytes)
        };
        let secrets = players
            .iter()
            .map(|_| Ok((random()?, random()?)))
            .collect::<Result<Vec<_>, LocalError>>()?;
        Self::found(options, secrets, random()?, players, transcript, config)
    }

    /// As [`LocalGame::new`], with each player's (key secret, chain seed)
    /// given, in joining order, and the genesis nonce: a tournament's table,
    /// whose players play with their registered keys and whose nonce names
    /// the tournament, the round and the table.
    pub fn with_secrets(
        options: &G::Options,
        secrets: Vec<([u8; 32], [u8; 32])>,
        nonce: [u8; 32],
        players: Vec<(String, Player<G>)>,
        transcript: Option<&Path>,
        config: Config,
    ) -> Result<Self, LocalError> {
        Self::found(options, secrets, nonce, players, transcript, config)
    }

    /// Seat the players with these (key secret, chain seed) pairs, one per
    /// player, and found the game with `nonce`.
    fn found(
        options: &G::Options,
        secrets: Vec<([u8; 32], [u8; 32])>,
        nonce: [u8; 32],
        players: Vec<(String, Player<G>)>,
        transcript: Option<&Path>,
        config: Config,
    ) -> Result<Self, LocalError> {
        let n = players.len();
        let identities: Vec<Identity> = secrets
            .iter()
            .map(|(key, _)| Identity::from_secret(*key))
            .collect();
        let chains = secrets
            .iter()
            .map(|(_, chain)| ChainSecret::new(*chain, DEFAULT_CHAIN_LENGTH))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| LocalError::Chain(e.to_string()))?;
        let infos = identities
            .iter()
            .zip(&chains)
            .zip(&players)
            .map(|((id, chain), (name, _))| SeatInfo {
                key: id.public(),
                name: name.clone(),
                chain_commitment: chain.commitment(),
                chain_length: chain.length(),
            })
            .collect();
        let proposal = Proposal::new::<G>(options, infos, nonce)?;
        let acceptances = identities
            .iter()
            .map(|id| proposal.accept(id))
            .collect::<Result<Vec<_>, _>>()?;
        let genesis = Genesis::assemble::<G>(proposal.clone(), &acceptances)?;

        let mut seated: Vec<Option<(Local, String, Player<G>)>> = (0..n).map(|_| None).collect();
        let mut player_seats = Vec::with_capacity(n);
        for ((identity, chain), (name, mut player)) in
            identities.into_iter().zip(chains).zip(players)
        {
            if let Player::Bot(bot) = &mut player {
                bot.table_options(options);
            }
            let seat = proposal
                .seat_of(&identity.public())
                .ok_or(TableError::NotSeated)?;
            player_seats.push(seat);
            seated[seat.index()] = Some((
                Local {
                    seat,
                    identity,
                    chain,
                },
                name,
                player,
            ));
        }
        let mut tables = Vec::new();
        let mut players = Vec::new();
        let mut names = Vec::new();
        for entry in seated {
            let (local, name, player) = entry.ok_or(TableError::NotSeated)?;
            tables.push(Table::new(genesis.clone(), Some(local), config.clone())?);
            players.push(match player {
                Player::Bot(bot) => Seated::Bot(Some(bot)),
                Player::Human => Seated::Human,
            });
            names.push(name);
        }
        let observed = players
            .iter()
            .position(|p| matches!(p, Seated::Human))
            .unwrap_or(0);
        let log = match transcript {
            Some(path) => {
                let mut frames = vec![Frame::Proposal(proposal)];
                frames.extend(genesis.acceptances.iter().cloned().map(Frame::Acceptance));
                Some(TranscriptLog::create(path, &frames)?)
            }
            None => None,
        };
        let mut game = LocalGame {
            tables,
            players,
            names,
            player_seats,
            wire: VecDeque::new(),
            log,
            observed,
            applied: VecDeque::new(),
            result: None,
            traffic: Traffic::default(),
        };
        for t in &mut game.tables {
            t.handle_timeout(0);
        }
        Ok(game)
    }

    /// The seat of the `i`-th player given to [`LocalGame::new`].
    pub fn seat_of_player(&self, i: usize) -> Option<Seat> {
        self.player_seats.get(i).copied()
    }

    /// The game id.
    pub fn game_id(&self) -> GameId {
        self.tables[0].game_id()
    }

    /// Display names in seat order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The seat whose table reports applied inputs (the first person's, or seat 0).
    pub fn observed_seat(&self) -> Seat {
        Seat(self.observed as u8)
    }

    /// The table of `seat`.
    pub fn table(&self, seat: Seat) -> &Table<G> {
        &self.tables[seat.index()]
    }

    /// The game as the observed seat's table has it.
    pub fn game(&self) -> &G {
        self.tables[self.observed].game()
    }

    /// What went over the in-memory network so far.
    pub fn traffic(&self) -> Traffic {
        self.traffic
    }

    /// Inputs applied since the last call, as the observed table saw them.
    pub fn drain_applied(&mut self) -> impl Iterator<Item = Applied<G>> + '_ {
        self.applied.drain(..)
    }

    /// The result, once the game is finished.
    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    /// A person's decision at `seat`.
    pub fn submit(&mut self, seat: Seat, action: G::Action) -> Result<(), TableError> {
        if !matches!(self.players.get(seat.index()), Some(Seated::Human)) {
            return Err(TableError::NotYourDecision);
        }
        self.tables[seat.index()].submit(0, action)
    }

    /// Carry out every table's outputs.
    fn drain_outputs(&mut self) -> Result<(), LocalError> {
        for i in 0..self.tables.len() {
            while let Some(output) = self.tables[i].poll_output() {
                match output {
                    Output::Persist { envelope, sync } if i == 0 => {
                        if let Some(log) = &mut self.log {
                            log.append(&Frame::Envelope(envelope), sync)?;
                        }
                    }
                    Output::Broadcast(envelope) => {
                        self.traffic.envelopes += 1;
                        self.traffic.bytes += envelope.encode().len() as u64;
                        self.wire.push_back((i, envelope));
                    }
                    Output::Violation(v) => {
                        return Err(LocalError::Violation {
                            seat: i as u32 + 1,
                            violation: v.to_string(),
                        });
                    }
                    Output::Applied {
                        position,
                        record,
                        events,
                    } if i == self.observed => {
                        self.applied.push_back(Applied {
                            position,
                            record,
                            events,
                        });
                    }
                    Output::Finished(r) if i == self.observed => self.result = Some(r),
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// Deliver everything in flight until the tables are quiet; finishes the
    /// transcript once every table is finished. Returns who must act next.
    pub fn settle(&mut self) -> Result<Progress, LocalError> {
        loop {
            self.drain_outputs()?;
            let Some((from, envelope)) = self.wire.pop_front() else {
                break;
            };
            for (i, table) in self.tables.iter_mut().enumerate() {
                if i != from {
                    self.traffic.deliveries += 1;
                    table.handle_envelope(0, envelope.clone())?;
                }
            }
        }
        if self.tables.iter().all(Table::is_finished) {
            self.finish_transcript()?;
            return Ok(Progress::Finished);
        }
        for (i, table) in self.tables.iter().enumerate() {
            let seat = Seat(i as u8);
            if table.awaits_decision(seat) {
                return Ok(match self.players[i] {
                    Seated::Human => Progress::Human(seat),
                    Seated::Bot(_) => Progress::Bot(seat),
                });
            }
        }
        // Every honest in-process peer answers at once, so tables that are
        // quiet, unfinished and wait for no decision are a bug.
        Err(LocalError::Stuck(self.tables[self.observed].position()))
    }

    /// Let the bot at `seat` make its decision, here and now.
    pub fn move_bot(&mut self, seat: Seat) -> Result<(), LocalError> {
        let turn = self.take_bot_turn(seat)?;
        self.play_bot_move(turn.decide())
    }

    /// Take the bot at `seat` out of the game with what it decides from,
    /// for [`BotTurn::decide`] to run anywhere; until its move comes back
    /// ([`LocalGame::play_bot_move`]) the game waits for it.
    pub fn take_bot_turn(&mut self, seat: Seat) -> Result<BotTurn<G>, LocalError> {
        let i = seat.index();
        let Some(table) = self.tables.get(i) else {
            return Err(TableError::NotYourDecision.into());
        };
        if !table.awaits_decision(seat) {
            return Err(TableError::NotYourDecision.into());
        }
        let Some(Seated::Bot(slot)) = self.players.get_mut(i) else {
            return Err(TableError::NotYourDecision.into());
        };
        let bot = slot.take().ok_or(LocalError::StaleBotMove(seat))?;
        let state = table.game().clone();
        // What the seat's own table opened of the private cards (nothing in
        // a game without them): a bot decides with what its seat knows.
        let knowledge = table.knowledge().cloned().unwrap_or_default();
        let mut legal = Vec::new();
        state.legal_actions_with(seat, &knowledge, &mut legal);
        Ok(BotTurn {
            seat,
            position: table.position(),
            bot,
            state,
            knowledge,
            legal,
        })
    }

    /// Seat the bot of `decided` again and submit its move, if the game is
    /// still where the bot decided.
    pub fn play_bot_move(&mut self, decided: BotMove<G>) -> Result<(), LocalError> {
        let seat = decided.seat;
        let i = seat.index();
        let Some(Seated::Bot(slot @ None)) = self.players.get_mut(i) else {
            return Err(LocalError::StaleBotMove(seat));
        };
        *slot = Some(decided.bot);
        let table = &mut self.tables[i];
        if table.position() != decided.position {
            return Err(LocalError::StaleBotMove(seat));
        }
        let action = decided.action.ok_or(LocalError::NoLegalAction(seat))?;
        table.submit(0, action)?;
        Ok(())
    }

    /// Run until a person must decide or the game is finished; bots move as
    /// soon as it is their turn.
    pub fn run(&mut self) -> Result<Progress, LocalError> {
        loop {
            match self.settle()? {
                Progress::Bot(seat) => self.move_bot(seat)?,
                other => return Ok(other),
            }
        }
    }

    fn finish_transcript(&mut self) -> Result<(), LocalError> {
        let frames = self.tables[0].transcript();
        if self.tables.iter().skip(1).any(|t| t.transcript() != frames) {
            return Err(LocalError::Diverged);
        }
        if let Some(log) = self.log.take() {
            log.finish(&frames)?;
        }
        Ok(())
    }
}
