//! The table state machine: its types, its public face (set-up, getters,
//! the inputs a driver hands it) and [`Record::apply_to`].
//!
//! The machinery behind it is one concern a file under `table/`: `ingest`
//! (taking envelopes in, side envelopes), `author` (the local seat's own
//! envelopes and chain continuations), `pump` (applying what can be
//! applied), `decision`, `chance_step`, `simultaneous` and `private` (the
//! steps the game asks for), `claims` (stall claims), `rewind` (forfeits
//! written at a passed position), `abandonment`, `over` (the end and the
//! seed openings) and `transcript` (transcript order).

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use roundtable_engine::{
    CardHandle, ChanceOutcome, EpochId, Game, GameResult, Next, PrivateError, RequestError,
    Revealed, RuleError, Seat,
};
use roundtable_fairdeck::{ChainContinuation, ChainSecret, ChainTracker, FairdeckError};

use crate::dealing::{Dealing, LocalDeal};
use crate::envelope::{Body, Signed};
use crate::genesis::Genesis;
use crate::identity::Identity;
use crate::proof::Violation;
use crate::{GameId, Hash32, TableError};

mod abandonment;
mod author;
mod chance_step;
mod claims;
mod decision;
mod ingest;
mod over;
mod private;
mod pump;
mod rewind;
mod simultaneous;
mod transcript;

/// How many stall timeouts after a position began a seat that has not
/// joined the claims against a stalled seat there is claimed itself.
///
/// Not two: a seat that applied the stalled seat's late input went on, and
/// it shows that (by an envelope written at a later position) only when it
/// next signs, at the latest one timeout after it got there, itself at most
/// one timeout after the position began. Three leave a whole timeout for
/// that evidence to arrive before anyone counts the seat as stopped.
pub const CO_CLAIM_TIMEOUTS: u64 = 3;

/// Timing and bounds of a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// How long to wait for a seat's decision or reveal before claiming it
    /// stalled, in milliseconds.
    pub stall_timeout_ms: u64,
    /// Envelopes kept per seat while they wait for earlier ones.
    pub max_buffered_per_seat: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            stall_timeout_ms: 120_000,
            max_buffered_per_seat: 512,
        }
    }
}

/// The local player's seat, key and chain secret. A spectator or an auditor
/// has none.
#[derive(Debug)]
pub struct Local {
    /// The seat.
    pub seat: Seat,
    /// The signing key.
    pub identity: Identity,
    /// The hash chain whose commitment is in the genesis.
    pub chain: ChainSecret,
}

/// Something the driver must do or show, in order.
#[derive(Debug)]
pub enum Output<G: Game> {
    /// Append this envelope to the transcript log; when `sync` is set, make it
    /// durable (fsync) before carrying out any later output, so that a crash
    /// can never make this seat sign a different envelope in its place.
    Persist {
        /// The envelope.
        envelope: Signed,
        /// Whether to fsync before going on.
        sync: bool,
    },
    /// Send to every peer at the table.
    Broadcast(Signed),
    /// An input was applied to the game.
    Applied {
        /// Its transcript position (from 0).
        position: u64,
        /// What it was.
        record: Record<G>,
        /// What happened.
        events: Vec<G::Event>,
    },
    /// A seat forfeited; it plays on as a zombie.
    Forfeited {
        /// The seat.
        seat: Seat,
        /// Why: "stalled" or "resigned".
        reason: &'static str,
    },
    /// A proven violation; the table has stopped. (Boxed: a proof holds up
    /// to two envelopes, and outputs are moved around a lot.)
    Violation(Box<Violation>),
    /// The table went back to `position` to apply a forfeit there that every
    /// other seat applied (see [`Table::handle_envelope`]); records after it
    /// were dropped.
    Rewound {
        /// The position it went back to.
        position: u64,
    },
    /// The game is over and every seed is open: the transcript is complete.
    Finished(GameResult),
}

/// One applied game input, in transcript order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Record<G: Game> {
    /// A seat's decision, from its envelope `seq`.
    Action {
        /// The seat.
        seat: Seat,
        /// Its envelope.
        seq: u64,
        /// The decoded action.
        action: G::Action,
    },
    /// A chance event: the envelope of each seat's reveal (`None` for
    /// forfeited seats), and the outcome.
    Chance {
        /// The event, from 1.
        event: u64,
        /// Per seat, the sequence number of the envelope carrying its reveal.
        reveals: Vec<Option<u64>>,
        /// The outcome the beacon gave.
        outcome: ChanceOutcome,
    },
    /// A forfeited seat's deterministic move.
    Zombie {
        /// The seat.
        seat: Seat,
        /// The move.
        action: G::Action,
    },
    /// A seat forfeited after every other seat claimed it stalled.
    Forfeit {
        /// The stalled seat.
        seat: Seat,
        /// The claims: (claimant, its envelope sequence number).
        claims: Vec<(u8, u64)>,
    },
    /// A seat resigned, with its envelope `seq`.
    Resign {
        /// The seat.
        seat: Seat,
        /// Its envelope.
        seq: u64,
    },
    /// The game is abandoned: the seats still in that claimed the others
    /// stalled (every one of them, at this position) are all that is left
    /// of it, and no single forfeit could let it go on. The stopped seats
    /// forfeit together and rank last; the game ends with the standing of
    /// the moment (protocol/SPEC.md 3.6).
    Abandon {
        /// The seats that stopped, in seat order.
        stopped: Vec<Seat>,
        /// The claims that prove it: (claimant, accused, the claimant's
        /// envelope sequence number). None when the state alone ends the
        /// game, every gone seat stopped: the game waits on one that has no
        /// move, or the deal would be left to one seat (3.6, "Gone seats").
        claims: Vec<(u8, u8, u64)>,
    },
    /// A step of the private deal, or a decision that revealed cards.
    Private {
        /// What was applied.
        step: PrivateStep<G::Action>,
        /// The envelopes it took, (seat, sequence number), in the order they
        /// were taken in.
        envelopes: Vec<(u8, u64)>,
    },
}

/// A step of the private deal that was applied (protocol/SPEC.md 5.11), or a
/// decision that played private cards face up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PrivateStep<A> {
    /// A pile became the deck of `epoch`: every key share (the first time)
    /// and every seat's shuffle are in.
    Reshuffle {
        /// The new deck's epoch.
        epoch: EpochId,
    },
    /// Slots `first..first + count` went to seat `to`: every other seat's
    /// decryption shares are in.
    Deal {
        /// The receiving seat.
        to: Seat,
        /// The first slot.
        first: CardHandle,
        /// How many slots.
        count: u32,
    },
    /// Cards shown to everyone, opened from every seat's shares.
    Reveal {
        /// The opened cards, in the request's order.
        cards: Vec<Revealed>,
    },
    /// A decision that played cards face up, opened from the holder's shares
    /// in its envelope `seq` and the other seats' shares from the deal.
    Play {
        /// The seat.
        seat: Seat,
        /// Its envelope.
        seq: u64,
        /// The decoded action.
        action: A,
        /// The cards it played, as opened.
        revealed: Vec<Revealed>,
    },
}

impl<G: Game> Record<G> {
    /// Apply this record to `game`, the state it was applied to at the
    /// table, pushing the game's events onto `events`: how a rewind and a
    /// replay of a transcript rebuild the game. Forfeits, resignations and
    /// abandonments change who decides (and whether the game goes on), not
    /// the game's state, so they apply as nothing. An error is the game's
    /// refusal, which a record the table applied never meets.
    pub fn apply_to(
        &self,
        game: &mut G,
        events: &mut Vec<G::Event>,
    ) -> Result<(), PrivateError<G::Error>> {
        match self {
            Record::Action { seat, action, .. } | Record::Zombie { seat, action } => {
                Ok(game.apply_action(*seat, action, events)?)
            }
            Record::Chance { outcome, .. } => Ok(game.apply_chance(outcome, events)?),
            Record::Private { step, .. } => match step {
                PrivateStep::Reshuffle { .. } => game.apply_reshuffle(events),
                PrivateStep::Deal { .. } => game.apply_deal(events),
                PrivateStep::Reveal { cards } => game.apply_reveal(cards, events),
                PrivateStep::Play {
                    seat,
                    action,
                    revealed,
                    ..
                } => game.apply_action_revealing(*seat, action, revealed, events),
            },
            Record::Forfeit { .. } | Record::Resign { .. } | Record::Abandon { .. } => Ok(()),
        }
    }
}

/// An abandonment the claims at one position prove (see
/// [`Record::Abandon`]).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Abandonment {
    /// The seats that claimed every stopped seat, in seat order.
    claimants: Vec<u8>,
    /// The stopped seats, in seat order.
    stopped: Vec<Seat>,
    /// (claimant, accused, the claimant's envelope sequence number).
    claims: Vec<(u8, u8, u64)>,
}

/// How an abandonment counts a stopped seat that signed an envelope past the
/// position (3.6): such a seat went on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WentOn {
    /// It is not stopped: what it went on with can still reach this table,
    /// from it or any seat that holds it, so the table waits for that.
    NotStopped,
    /// It counts as stopped: the table can apply nothing at the position,
    /// and every claimant claimed it there, so what it went on with reached
    /// none of them; waiting for it would be waiting for ever.
    Stopped,
}

/// Which of two abandonments the claims prove stands, by their claimants
/// (in seat order): the claimants holding the lowest seat first, then
/// more claimants, then the smaller list. Smaller stands.
fn precedence(claimants: &[u8]) -> (u8, std::cmp::Reverse<usize>, &[u8]) {
    (
        claimants.first().copied().unwrap_or(u8::MAX),
        std::cmp::Reverse(claimants.len()),
        claimants,
    )
}

/// What the table knows of one seat.
#[derive(Debug)]
struct SeatState {
    /// Envelopes consumed, by sequence number (index = seq).
    log: Vec<Signed>,
    /// Envelopes received and checked, waiting for earlier ones.
    buffer: BTreeMap<u64, Signed>,
    /// Checks each reveal against the committed chain.
    chain: ChainTracker,
    /// The seat's chain continuations taken in, with the sequence numbers
    /// of their envelopes, oldest first. The tracker takes each one up when
    /// the chain before it reaches its last event.
    continuations: Vec<(u64, ChainContinuation)>,
    /// The position from which the seat is forfeited.
    forfeited: Option<u64>,
    /// The seed, once opened after the game.
    seed: Option<[u8; 32]>,
    /// The highest position any envelope in `log` was signed at (a reveal
    /// names none): how far the seat has shown it got.
    furthest: u64,
}

impl SeatState {
    fn next_seq(&self) -> u64 {
        self.log.len() as u64
    }

    fn last_hash(&self) -> Hash32 {
        self.log.last().map(Signed::hash).unwrap_or_default()
    }

    fn peek(&self) -> Option<&Signed> {
        self.buffer.get(&self.next_seq())
    }

    fn push_log(&mut self, signed: Signed) {
        self.furthest = self.furthest.max(signed.envelope.position);
        self.log.push(signed);
    }

    /// The last event the seat's chains known so far answer: the genesis
    /// chain's, or the last continuation's.
    fn chains_end(&self) -> u64 {
        match self.continuations.last() {
            Some((_, c)) => c.last_event().unwrap_or(u64::MAX),
            None => self.chain.last_event(),
        }
    }

    /// Accept the seat's link for `event`, switching to its next chain when
    /// `event` is the last of the current one and a continuation was taken
    /// in. On error nothing changes.
    fn accept_link(&mut self, event: u64, link: &[u8; 32]) -> Result<(), FairdeckError> {
        if event == self.chain.last_event()
            && self.chain.continuation().is_none()
            && let Some((_, next)) = self
                .continuations
                .iter()
                .find(|(_, c)| Some(c.first_event) == event.checked_add(1))
        {
            self.chain.continue_with(*next)?;
        }
        self.chain.accept(event, link)
    }
}

/// A seat's claims against stalled seats, keyed by (accused, position).
type Claims = BTreeMap<(u8, u64), BTreeMap<u8, (u64, Hash32)>>;

/// One game between peers: see the crate docs.
#[derive(Debug)]
pub struct Table<G: Game> {
    genesis: Genesis,
    /// The seats' keys, decoded once.
    keys: Vec<ed25519_dalek::VerifyingKey>,
    game_id: GameId,
    config: Config,
    local: Option<Local>,
    game: G,
    /// State hash after each applied input (index = position), for checking
    /// envelopes written at earlier positions.
    hashes: Vec<Hash32>,
    records: Vec<Record<G>>,
    seats: Vec<SeatState>,
    /// Chance events applied so far.
    events_done: u64,
    /// Reveals collected for the pending chance event: (seq, link) per seat.
    pending_reveals: Vec<Option<(u64, [u8; 32])>>,
    claims: Claims,
    /// (accused, position) pairs the local seat has claimed.
    my_claims: BTreeSet<(u8, u64)>,
    /// Decisions of the local seat waiting to be applied.
    queued: VecDeque<G::Action>,
    /// Since when (ms) the table has waited at which position.
    waiting: Option<(u64, u64)>,
    outputs: VecDeque<Output<G>>,
    failed: Option<Violation>,
    /// The private request the game posed that no deal can serve: the
    /// table stopped there, blaming nobody (protocol/SPEC.md 5.11).
    unservable: Option<RequestError>,
    finished: bool,
    seed_published: bool,
    /// Simultaneous decisions completed so far.
    secrets_done: u64,
    /// Per seat, the envelope and commitment of its secret choice for the
    /// pending simultaneous decision.
    commits: Vec<Option<(u64, [u8; 32])>>,
    /// Per seat, the envelope and the opened choice.
    opens: Vec<Option<(u64, G::Action)>>,
    /// The local seat's committed choice: the action, its encoding, the nonce.
    my_secret: Option<(G::Action, Vec<u8>, [u8; 32])>,
    /// The local seat's chains after the genesis one, by first event.
    local_chains: BTreeMap<u64, ChainSecret>,
    /// The position of the abandonment that ended the game, if one did
    /// (asked at every step of the pump, so kept rather than searched for),
    /// and the stopped seats it counted stopped although they had shown an
    /// envelope past it (a bit per seat): a stopped seat seen past it
    /// since is news, and overtakes it (3.6).
    abandoned_at: Option<(u64, u64)>,
    /// The private deal (protocol/SPEC.md 5.11).
    dealing: Dealing,
    /// The deal as it was before each private step, by position, so that a
    /// rewind can go back to it.
    dealing_at: BTreeMap<u64, Dealing>,
    /// The local seat's secrets for the deal, derived from its chain seed.
    local_deal: Option<LocalDeal>,
}

impl<G: Game> Table<G> {
    /// A table for a checked genesis, as the local seat (or an observer when
    /// `local` is `None`).
    pub fn new(genesis: Genesis, local: Option<Local>, config: Config) -> Result<Self, TableError> {
        let game_id = genesis.verify::<G>()?;
        let options = genesis.proposal.options::<G>()?;
        let n = genesis.proposal.seats.len();
        let game =
            G::new_game(n as u8, &options).map_err(|e| TableError::Genesis(e.to_string()))?;
        if let Some(l) = &local {
            let info = genesis
                .proposal
                .seats
                .get(l.seat.index())
                .ok_or(TableError::UnknownSeat(l.seat.0))?;
            if info.key != l.identity.public()
                || info.chain_commitment != l.chain.commitment()
                || info.chain_length != l.chain.length()
            {
                return Err(TableError::NotSeated);
            }
        }
        let seats = genesis
            .proposal
            .seats
            .iter()
            .map(|s| {
                Ok(SeatState {
                    log: Vec::new(),
                    buffer: BTreeMap::new(),
                    chain: ChainTracker::new(s.chain_commitment, s.chain_length)
                        .map_err(|e| TableError::Fairdeck(e.to_string()))?,
                    continuations: Vec::new(),
                    forfeited: None,
                    seed: None,
                    furthest: 0,
                })
            })
            .collect::<Result<Vec<_>, TableError>>()?;
        let hashes = vec![Hash32(game.state_hash().0)];
        let keys = genesis
            .proposal
            .seats
            .iter()
            .map(|s| s.key.verifier())
            .collect::<Result<_, _>>()?;
        let local_deal = local.as_ref().map(|l| LocalDeal::new(l.chain.seed()));
        Ok(Table {
            dealing: Dealing::new(game_id.0, n),
            dealing_at: BTreeMap::new(),
            local_deal,
            keys,
            genesis,
            game_id,
            config,
            local,
            game,
            hashes,
            records: Vec::new(),
            seats,
            events_done: 0,
            pending_reveals: vec![None; n],
            claims: Claims::new(),
            my_claims: BTreeSet::new(),
            queued: VecDeque::new(),
            waiting: None,
            outputs: VecDeque::new(),
            failed: None,
            unservable: None,
            finished: false,
            seed_published: false,
            secrets_done: 0,
            commits: vec![None; n],
            opens: (0..n).map(|_| None).collect(),
            my_secret: None,
            local_chains: BTreeMap::new(),
            abandoned_at: None,
        })
    }

    // ----- getters --------------------------------------------------------

    /// The game id.
    pub fn game_id(&self) -> GameId {
        self.game_id
    }

    /// The genesis.
    pub fn genesis(&self) -> &Genesis {
        &self.genesis
    }

    /// The game state.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The local seat, if any.
    pub fn local_seat(&self) -> Option<Seat> {
        self.local.as_ref().map(|l| l.seat)
    }

    /// Game inputs applied so far.
    pub fn position(&self) -> u64 {
        self.records.len() as u64
    }

    /// The applied inputs.
    pub fn records(&self) -> &[Record<G>] {
        &self.records
    }

    /// The violation that stopped the table, if any.
    pub fn violation(&self) -> Option<&Violation> {
        self.failed.as_ref()
    }

    /// The private request no deal can serve that stopped the table, if the
    /// game posed one: a fault of the game's rules, blamed on no seat.
    pub fn unservable(&self) -> Option<&RequestError> {
        self.unservable.as_ref()
    }

    /// Whether `seat` has forfeited.
    pub fn is_forfeited(&self, seat: Seat) -> bool {
        self.seats
            .get(seat.index())
            .is_some_and(|s| s.forfeited.is_some())
    }

    /// Whether the game waits for a decision of `seat` that this table has
    /// not yet taken: its turn, or a simultaneous secret choice it has not
    /// committed to yet. A seat that forfeited is never waited for.
    pub fn awaits_decision(&self, seat: Seat) -> bool {
        if self.is_forfeited(seat) {
            return false;
        }
        match self.game.next() {
            Next::Decision(s) => s == seat,
            Next::Simultaneous(set) => {
                set.contains(seat) && self.commits.get(seat.index()).is_some_and(Option::is_none)
            }
            _ => false,
        }
    }

    /// Whether the game is over and every seat still in has opened its seed.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// The seats that stopped, when the game was abandoned (3.6).
    pub fn abandoned(&self) -> Option<&[Seat]> {
        match self.records.get(self.abandoned_at?.0 as usize)? {
            Record::Abandon { stopped, .. } => Some(stopped.as_slice()),
            _ => None,
        }
    }

    /// Whether no more game inputs are due: the game is over by its rules
    /// (seed openings are still due then), or abandoned.
    fn over(&self) -> bool {
        self.abandoned().is_some() || self.game.next() == Next::Over
    }

    /// Per seat, the next sequence number this table expects: what a peer
    /// catching up compares with its own to find what the other lacks.
    pub fn heads(&self) -> Vec<u64> {
        self.seats.iter().map(SeatState::next_seq).collect()
    }

    /// Whether the table holds envelopes it checked but could not take in
    /// yet: each waits for one before it, in its author's sequence or in
    /// the game's order. While the heads stand still, that means one is
    /// missing, which catch-up must fetch (SPEC 4.4, "Who asks whom").
    pub fn holds_waiting(&self) -> bool {
        self.seats.iter().any(|s| !s.buffer.is_empty())
    }

    /// Consumed envelopes of `seat` from sequence number `from`, at most `limit`.
    pub fn envelopes_since(&self, seat: u8, from: u64, limit: usize) -> Vec<Signed> {
        self.seats
            .get(usize::from(seat))
            .map(|s| {
                s.log
                    .iter()
                    .skip(from as usize)
                    .take(limit)
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The next output to carry out.
    pub fn poll_output(&mut self) -> Option<Output<G>> {
        self.outputs.pop_front()
    }

    /// When the table next needs [`Table::handle_timeout`], in milliseconds.
    pub fn poll_timeout(&self) -> Option<u64> {
        if self.failed.is_some() || self.unservable.is_some() || self.finished {
            return None;
        }
        let me = self.local_seat().filter(|&me| !self.is_forfeited(me))?;
        let (position, since) = self.waiting?;
        // Only a deadline at which `handle_timeout` has something to do: a
        // seat other than the local one, not yet claimed here. A deadline
        // that has passed and been handled (or one for the local seat's own
        // decision) made a driver that sleeps until it spin at that instant.
        let claimable = self
            .waited_on()
            .into_iter()
            .any(|s| s != me && !self.my_claims.contains(&(s.0, position)));
        let timeout = self.config.stall_timeout_ms;
        if claimable {
            Some(since.saturating_add(timeout))
        } else if !self.silent_co_claimants(me).is_empty() {
            Some(since.saturating_add(timeout.saturating_mul(CO_CLAIM_TIMEOUTS)))
        } else {
            None
        }
    }

    /// The turn clock: the seats the game waits on now for a decision, a
    /// reveal or a secret choice, and the time (in this table's
    /// milliseconds) at which one still owing its input may be claimed
    /// stalled. None when the game is over or the table stopped.
    pub fn turn_clock(&self) -> Option<(Vec<Seat>, u64)> {
        if self.failed.is_some() || self.unservable.is_some() || self.finished || self.over() {
            return None;
        }
        let (_, since) = self.waiting?;
        Some((
            self.waited_on(),
            since.saturating_add(self.config.stall_timeout_ms),
        ))
    }

    // ----- inputs ---------------------------------------------------------

    /// An envelope from the network (or from the transcript log on restart).
    /// Returns whether it was new.
    pub fn handle_envelope(&mut self, now: u64, signed: Signed) -> Result<bool, TableError> {
        if let Some(v) = &self.failed {
            // An equivocation explains a fork found before it: peers that
            // applied different envelopes of one seat see each other's later
            // envelopes as wrong (a state mismatch, a wrong position, an
            // unexpected body) and blamed an honest seat. So a stopped table
            // still takes in the other envelope of a slot, and reports the
            // equivocation instead, blaming the seat that signed both.
            let seat = v.seat();
            if !matches!(v, Violation::Equivocation { .. })
                && let Some(e) = self.equivocation(&signed)
            {
                // Logged, so that the log proves the equivocation too and
                // its audit does not blame the fork on an honest seat.
                self.outputs.push_back(Output::Persist {
                    envelope: signed,
                    sync: false,
                });
                self.failed = Some(e.clone());
                self.outputs.push_back(Output::Violation(Box::new(e)));
                return Ok(true);
            }
            return Err(TableError::Failed(seat));
        }
        if let Some(e) = &self.unservable {
            return Err(TableError::Unservable(e.clone()));
        }
        let new = self.ingest(signed, false)?;
        self.pump(now);
        Ok(new)
    }

    /// [`Table::handle_envelope`] for an envelope whose signature the caller
    /// has checked already under this table's key for its seat: the audit
    /// checks a whole transcript's signatures in one batch.
    pub(crate) fn handle_signature_checked(
        &mut self,
        now: u64,
        signed: Signed,
    ) -> Result<bool, TableError> {
        if self.failed.is_some() || self.unservable.is_some() {
            return self.handle_envelope(now, signed);
        }
        let new = self.ingest(signed, true)?;
        self.pump(now);
        Ok(new)
    }

    /// The decoded key of `seat`, if the genesis has that seat.
    pub(crate) fn seat_key(&self, seat: u8) -> Option<&ed25519_dalek::VerifyingKey> {
        self.keys.get(usize::from(seat))
    }

    /// Bytes from the network: decoded, then [`Table::handle_envelope`].
    pub fn handle_bytes(&mut self, now: u64, bytes: &[u8]) -> Result<bool, TableError> {
        let signed = Signed::decode(bytes)?;
        self.handle_envelope(now, signed)
    }

    /// The local seat's decision. It is checked against the rules before it
    /// is signed, so a refused decision sends nothing.
    pub fn submit(&mut self, now: u64, action: G::Action) -> Result<(), TableError> {
        if let Some(v) = &self.failed {
            return Err(TableError::Failed(v.seat()));
        }
        if let Some(e) = &self.unservable {
            return Err(TableError::Unservable(e.clone()));
        }
        let seat = self.local_seat().ok_or(TableError::NotSeated)?;
        if !self.awaits_decision(seat) || !self.queued.is_empty() {
            return Err(TableError::NotYourDecision);
        }
        let mut probe = self.game.clone();
        let revealed = self.known_claims(seat, &action);
        probe
            .apply_action_revealing(seat, &action, &revealed, &mut Vec::new())
            .map_err(|e| TableError::Refused {
                rule: e.rule(),
                message: e.to_string(),
            })?;
        self.queued.push_back(action);
        self.pump(now);
        Ok(())
    }

    /// The local seat resigns: it forfeits when the game next needs it.
    pub fn resign(&mut self, now: u64) -> Result<(), TableError> {
        if self.local.is_none() {
            return Err(TableError::NotSeated);
        }
        self.author(Body::Resign);
        // Right after it, its secret (5.15): play goes on without it.
        self.author_release(private::Release::AfterResigning);
        self.pump(now);
        Ok(())
    }

    /// The time: claims stalled seats whose deadline has passed, and makes
    /// any progress that is possible (call it once after creating a table to
    /// start it).
    pub fn handle_timeout(&mut self, now: u64) {
        if self.failed.is_some() || self.unservable.is_some() {
            return;
        }
        let me = self
            .local_seat()
            .filter(|&me| !self.is_forfeited(me) && !self.finished);
        let timeout = self.config.stall_timeout_ms;
        if let (Some(me), Some((position, since))) = (me, self.waiting)
            && now >= since.saturating_add(timeout)
            && position == self.position()
        {
            let mut accused: Vec<Seat> = self.waited_on();
            if now >= since.saturating_add(timeout.saturating_mul(CO_CLAIM_TIMEOUTS)) {
                accused.extend(self.silent_co_claimants(me));
            }
            for accused in accused {
                if accused != me && !self.my_claims.contains(&(accused.0, position)) {
                    self.my_claims.insert((accused.0, position));
                    self.author(Body::StallClaim {
                        accused: accused.0,
                        position,
                    });
                }
            }
        }
        self.pump(now);
    }
}
