//! The table state machine.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use roundtable_engine::{
    CardHandle, ChanceOutcome, EpochId, Game, GameResult, Next, RequestError, Revealed, RuleError,
    Seat,
};
use roundtable_fairdeck::{
    ChainContinuation, ChainSecret, ChainTracker, FairdeckError, MAX_CHAIN_LENGTH, beacon,
    chain_commitment, continuation_seed,
};

use crate::dealing::{Dealing, LocalDeal};
use crate::envelope::{Body, Envelope, Reveal, Signed};
use crate::genesis::Genesis;
use crate::identity::Identity;
use crate::proof::Violation;
use crate::transcript::Frame;
use crate::{GameId, Hash32, TableError, chance};

mod private;

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

    /// Seats still in whose claim the local seat's own claims here lack:
    /// every other seat must claim a stalled seat for it to forfeit, so a
    /// seat still silent [`CO_CLAIM_TIMEOUTS`] stall timeouts after the
    /// position began is claimed too. That is how a game where several
    /// seats stopped at once reaches an end (an abandonment, 3.6) instead of
    /// hanging.
    fn silent_co_claimants(&self, me: Seat) -> Vec<Seat> {
        let position = self.position();
        let mut silent = Vec::new();
        for accused in self.waited_on() {
            if accused == me || !self.my_claims.contains(&(accused.0, position)) {
                continue;
            }
            for s in 0..self.seats.len() as u8 {
                let seat = Seat(s);
                if seat != me
                    && seat != accused
                    && self.seats[usize::from(s)].forfeited.is_none()
                    && self.claim_in_run(s, accused.0).is_none()
                    && !self.my_claims.contains(&(s, position))
                    && !silent.contains(&seat)
                {
                    silent.push(seat);
                }
            }
        }
        silent
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

    // ----- ingesting ------------------------------------------------------

    /// Check an envelope and put it into its seat's buffer. Returns whether
    /// it was new.
    fn ingest(&mut self, signed: Signed, signature_checked: bool) -> Result<bool, TableError> {
        let env = &signed.envelope;
        if env.game_id != self.game_id {
            return Err(TableError::WrongGame);
        }
        let seat = usize::from(env.seat);
        let key = self
            .keys
            .get(seat)
            .ok_or(TableError::UnknownSeat(env.seat))?;
        // A copy of an envelope already taken in (gossip delivers about one
        // in four twice) needs no second signature check.
        let state = &self.seats[seat];
        let slot = state
            .log
            .get(env.seq as usize)
            .or_else(|| state.buffer.get(&env.seq));
        if slot.is_some_and(|existing| *existing == signed) {
            return Ok(false);
        }
        if !signature_checked {
            signed.verify_with(key)?;
        }
        if let Body::Reveal(_) = env.body
            && (env.position != 0 || env.state_hash != Hash32::default())
        {
            // A reveal is placed by its event (SPEC 3.4).
            return Err(TableError::Malformed(
                "a reveal's position and state hash must be zero".into(),
            ));
        }
        let state = &self.seats[seat];
        let existing = state
            .log
            .get(env.seq as usize)
            .or_else(|| state.buffer.get(&env.seq));
        if let Some(existing) = existing {
            if *existing == signed {
                return Ok(false);
            }
            // Two signed envelopes for one slot: keep both as the proof, in
            // the log too.
            self.outputs.push_back(Output::Persist {
                envelope: signed.clone(),
                sync: false,
            });
            let v = Violation::Equivocation {
                first: existing.clone(),
                second: signed,
            };
            self.fail(v);
            return Ok(true);
        }
        if env.seq < state.next_seq() {
            return Ok(false);
        }
        if state.buffer.len() >= self.config.max_buffered_per_seat {
            // Full: room is made for an earlier envelope by dropping the
            // latest one held, since the table needs the seat's envelopes
            // in order and the dropped one comes again by catch-up. Kept
            // the other way round, envelopes relayed newest first would
            // fill the buffer and refuse the one needed next for good.
            match state.buffer.last_key_value() {
                Some((&latest, _)) if latest > env.seq => {
                    self.seats[seat].buffer.remove(&latest);
                }
                _ => return Err(TableError::BufferFull(env.seat)),
            }
        }
        self.outputs.push_back(Output::Persist {
            envelope: signed.clone(),
            sync: false,
        });
        self.seats[seat].buffer.insert(env.seq, signed);
        Ok(true)
    }

    /// The equivocation `signed` proves with an envelope already held for
    /// its slot, if it does.
    fn equivocation(&self, signed: &Signed) -> Option<Violation> {
        let env = &signed.envelope;
        if env.game_id != self.game_id {
            return None;
        }
        let seat = usize::from(env.seat);
        signed.verify_with(self.keys.get(seat)?).ok()?;
        let state = self.seats.get(seat)?;
        let existing = state
            .log
            .get(env.seq as usize)
            .or_else(|| state.buffer.get(&env.seq))?;
        (existing != signed).then(|| Violation::Equivocation {
            first: existing.clone(),
            second: signed.clone(),
        })
    }

    /// Take the next envelope of `seat` from its buffer into its log,
    /// checking that it follows the previous one.
    fn consume(&mut self, seat: usize) -> Option<Signed> {
        let state = &mut self.seats[seat];
        let seq = state.next_seq();
        let signed = state.buffer.remove(&seq)?;
        if signed.envelope.prev != state.last_hash() {
            let previous = state.log.last().cloned();
            match previous {
                Some(previous) => self.fail(Violation::BrokenSequence {
                    previous,
                    next: signed,
                }),
                None => self.fail(Violation::WrongPosition {
                    envelope: signed,
                    expected: 0,
                }),
            }
            return None;
        }
        state.push_log(signed.clone());
        Some(signed)
    }

    fn fail(&mut self, violation: Violation) {
        if self.failed.is_none() {
            self.failed = Some(violation.clone());
            self.outputs
                .push_back(Output::Violation(Box::new(violation)));
        }
    }

    // ----- authoring ------------------------------------------------------

    /// Sign `body` as the local seat at the current position, append it to
    /// the local log, and have it persisted (synced) and broadcast.
    fn author(&mut self, body: Body) -> Option<Signed> {
        let local = self.local.as_ref()?;
        let seat = local.seat.index();
        let state = &self.seats[seat];
        // A reveal names no position: it is placed by its event (SPEC 3.4).
        let (position, state_hash) = match body {
            Body::Reveal(_) => (0, Hash32::default()),
            _ => (self.position(), self.current_hash()),
        };
        let envelope = Envelope {
            game_id: self.game_id,
            seat: local.seat.0,
            seq: state.next_seq(),
            prev: state.last_hash(),
            position,
            state_hash,
            body,
        };
        let signed = envelope.sign(&local.identity);
        self.seats[seat].push_log(signed.clone());
        if let Body::StallClaim { accused, position } = signed.envelope.body {
            self.note_claim(
                local.seat.0,
                signed.seq(),
                accused,
                position,
                signed.envelope.state_hash,
            );
        }
        self.outputs.push_back(Output::Persist {
            envelope: signed.clone(),
            sync: true,
        });
        self.outputs.push_back(Output::Broadcast(signed.clone()));
        Some(signed)
    }

    fn current_hash(&self) -> Hash32 {
        self.hashes.last().copied().unwrap_or_default()
    }

    /// The local seat's reveal for chance event `event`, from the genesis
    /// chain or the continuation that answers it.
    fn local_reveal(&self, event: u64) -> Option<Reveal> {
        let local = self.local.as_ref()?;
        let link = if event <= local.chain.length() {
            local.chain.reveal(event).ok()?
        } else {
            let (first, chain) = self.local_chains.range(..=event).next_back()?;
            chain.reveal(event - first + 1).ok()?
        };
        Some(Reveal { event, link })
    }

    /// Announce the local seat's next chain once a quarter or less of its
    /// chains is left (protocol/SPEC.md 2.4): long before the last reveal,
    /// which must come after the continuation in the seat's sequence.
    fn continue_local_chain(&mut self) {
        let Some(local) = &self.local else { return };
        let me = local.seat.index();
        let state = &self.seats[me];
        if state.forfeited.is_some()
            || self.over()
            || state.peek().is_some()
            || state.chains_end() != state.chain.last_event()
        {
            // Gone, done, still replaying its own log, or announced already.
            return;
        }
        let length = local.chain.length();
        let left = state.chains_end().saturating_sub(state.chain.next_event()) + 1;
        if left > (length / 4).max(1) {
            return;
        }
        let Some(first_event) = state.chains_end().checked_add(1) else {
            return;
        };
        let Ok(chain) = ChainSecret::continued(local.chain.seed(), first_event, length) else {
            return;
        };
        let commitment = chain.commitment();
        self.local_chains.insert(first_event, chain);
        if let Some(signed) = self.author(Body::ChainContinuation {
            first_event,
            length,
            commitment,
        }) {
            self.take_continuation(me, signed);
        }
    }

    /// Take in `seat`'s continuation (already consumed into its log): it
    /// must start right after the seat's chains so far, and be the first
    /// for the chain in use. Fails with the proof otherwise.
    fn take_continuation(&mut self, seat: usize, signed: Signed) {
        let Body::ChainContinuation {
            first_event,
            length,
            commitment,
        } = signed.envelope.body
        else {
            return;
        };
        let state = &self.seats[seat];
        let end = state.chains_end();
        let refusal = if end != state.chain.last_event() {
            Some(format!(
                "a second continuation for the chain that ends at event {}",
                state.chain.last_event()
            ))
        } else if Some(first_event) != end.checked_add(1) {
            Some(format!(
                "it starts at event {first_event}, but the seat's chain ends at event {end}"
            ))
        } else if length == 0 || length > MAX_CHAIN_LENGTH {
            Some(format!(
                "a chain of {length} links (1 to {MAX_CHAIN_LENGTH})"
            ))
        } else if first_event.checked_add(length - 1).is_none() {
            Some("its events run past the largest event number".to_owned())
        } else {
            None
        };
        if let Some(reason) = refusal {
            self.fail(Violation::BadContinuation {
                envelope: signed,
                reason,
            });
            return;
        }
        let continuation = ChainContinuation {
            first_event,
            length,
            commitment,
        };
        self.seats[seat]
            .continuations
            .push((signed.seq(), continuation));
        // After a restart the local seat meets its own continuation in its
        // log: its chain is derived again, never drawn anew.
        if let Some(local) = &self.local
            && local.seat.index() == seat
            && !self.local_chains.contains_key(&first_event)
            && let Ok(chain) = ChainSecret::continued(local.chain.seed(), first_event, length)
        {
            self.local_chains.insert(first_event, chain);
        }
    }

    // ----- the pump -------------------------------------------------------

    /// Apply everything that can be applied, in the order the game asks for it.
    fn pump(&mut self, now: u64) {
        loop {
            if self.failed.is_some() || self.unservable.is_some() {
                return;
            }
            self.consume_side_envelopes();
            if self.failed.is_some() {
                return;
            }
            if self.rewind_for_forfeit() {
                continue;
            }
            if self.judge_input_from_a_passed_position() {
                return;
            }
            self.continue_local_chain();
            if self.abandoned().is_some() {
                self.finish_abandoned();
                break;
            }
            if let Some(abandonment) = self.abandonment(WentOn::NotStopped) {
                if !self.claim_before_being_stopped(&abandonment) {
                    self.abandon(abandonment);
                }
                continue;
            }
            if let Some((me, seq)) = self.local_resignation_due() {
                self.forfeit(me, Record::Resign { seat: me, seq }, "resigned");
                continue;
            }
            if self.deal_left_to_one_seat() {
                self.abandon_for_the_gone();
                continue;
            }
            let progressed = match self.game.next() {
                Next::Over => self.step_over(),
                Next::Decision(seat) => self.step_decision(seat),
                Next::Chance(_) => self.step_chance(),
                Next::Simultaneous(set) => self.step_simultaneous(set),
                Next::Private(request) => {
                    // Fail closed before anyone owes anything: no seat could
                    // serve it, so waiting or claiming would blame one.
                    let checked = request.check(|epoch| self.dealing.deck_size(epoch));
                    let request = private::Request::of(&request);
                    if let Err(e) = checked {
                        self.unservable = Some(e);
                        return;
                    }
                    self.step_private(request)
                }
            };
            if !progressed {
                // Only once nothing here can be applied: a seat that went
                // on past this position, where what it went on with reached
                // no claimant, cannot be followed (3.6).
                if let Some(abandonment) = self.abandonment(WentOn::Stopped) {
                    if !self.claim_before_being_stopped(&abandonment) {
                        self.abandon(abandonment);
                    }
                    continue;
                }
                break;
            }
        }
        self.prune_settled_claims();
        let position = self.position();
        if self.waiting.is_none_or(|(p, _)| p != position) {
            self.waiting = Some((position, now));
        }
    }

    /// The position below which every claim is settled: every seat showed
    /// an envelope signed at or past it, so a claim it signs for an earlier
    /// position no longer counts (`consume_side_envelopes`), and no claims
    /// there can complete any more; the run of forfeits the table is in, and
    /// an abandonment that can still be overtaken, still read theirs.
    fn claims_settled_below(&self) -> u64 {
        let shown = self.seats.iter().map(|s| s.furthest).min().unwrap_or(0);
        let kept = self
            .abandoned_at
            .map_or(u64::MAX, |(p, _)| self.forfeit_run_before(p));
        shown.min(self.forfeit_run_start()).min(kept)
    }

    /// Forget the claims at settled positions (3.6): what a forfeit, a
    /// rewind or an abandonment can still need stays, the rest would only
    /// grow with the game.
    fn prune_settled_claims(&mut self) {
        let settled = self.claims_settled_below();
        if self.claims.keys().any(|&(_, p)| p < settled) {
            self.claims.retain(|&(_, p), _| p >= settled);
        }
        self.my_claims.retain(|&(_, p)| p >= settled);
    }

    /// How many stall claims this table keeps, one per claimant, accused
    /// and position: those at settled positions are forgotten (3.6), so
    /// this stays small however long the game.
    pub fn claims_kept(&self) -> usize {
        self.claims.values().map(BTreeMap::len).sum()
    }

    /// The local seat's own resignation, once the game waits for the seat:
    /// the table signs it straight into its log, where no step consumes it
    /// as it does another seat's, so it is applied here, at the point where
    /// every other table applies it.
    fn local_resignation_due(&self) -> Option<(Seat, u64)> {
        let me = self.local_seat()?;
        let seat = &self.seats[me.index()];
        if seat.forfeited.is_some() {
            return None;
        }
        let seq = seat
            .log
            .iter()
            .find(|e| matches!(e.envelope.body, Body::Resign))?
            .seq();
        let due = match self.game.next() {
            Next::Private(request) => {
                self.resignation_applies_here(&private::Request::of(&request))
                    && self.waited_on().contains(&me)
            }
            _ => self.waited_on().contains(&me),
        };
        due.then_some((me, seq))
    }

    /// Seats the game waits for at this position.
    fn waited_on(&self) -> Vec<Seat> {
        if self.abandoned().is_some() {
            // Nothing more is due, not even a seed opening.
            return Vec::new();
        }
        match self.game.next() {
            Next::Decision(s) => vec![s],
            Next::Chance(_) => (0..self.seats.len())
                .filter(|&i| self.pending_reveals[i].is_none() && self.seats[i].forfeited.is_none())
                .map(|i| Seat(i as u8))
                .collect(),
            Next::Simultaneous(set) => {
                let all_committed = set.iter().all(|s| {
                    self.commits[s.index()].is_some() || self.seats[s.index()].forfeited.is_some()
                });
                set.iter()
                    .filter(|s| self.seats[s.index()].forfeited.is_none())
                    .filter(|s| {
                        if all_committed {
                            self.opens[s.index()].is_none()
                        } else {
                            self.commits[s.index()].is_none()
                        }
                    })
                    .collect()
            }
            // Nobody owes a step no deal can serve (5.11).
            Next::Private(request)
                if request
                    .check(|epoch| self.dealing.deck_size(epoch))
                    .is_err() =>
            {
                Vec::new()
            }
            Next::Private(request) => self.private_waited_on(&private::Request::of(&request)),
            Next::Over => (0..self.seats.len())
                .filter(|&i| {
                    self.seats[i].forfeited.is_none()
                        && (self.seats[i].seed.is_none() || self.owes_release(i))
                })
                .map(|i| Seat(i as u8))
                .collect(),
        }
    }

    /// The first position of the run of forfeits that ends at the current
    /// position: claims signed anywhere in it count here (3.6).
    fn forfeit_run_start(&self) -> u64 {
        self.forfeit_run_before(self.position())
    }

    /// The first position of the run of forfeits that ends at `position`.
    fn forfeit_run_before(&self, position: u64) -> u64 {
        let mut first = position;
        while first > 0
            && matches!(
                self.records.get(first as usize - 1),
                Some(Record::Forfeit { .. } | Record::Resign { .. })
            )
        {
            first -= 1;
        }
        first
    }

    /// The sequence number of `claimant`'s claim against `accused` signed in
    /// the current run of forfeits, if there is one.
    fn claim_in_run(&self, claimant: u8, accused: u8) -> Option<u64> {
        self.claim_in_run_at(self.position(), claimant, accused)
    }

    /// The same for the run of forfeits that ends at `position`.
    fn claim_in_run_at(&self, position: u64, claimant: u8, accused: u8) -> Option<u64> {
        (self.forfeit_run_before(position)..=position)
            .rev()
            .find_map(|q| self.claims.get(&(accused, q))?.get(&claimant))
            .map(|(seq, _)| *seq)
    }

    /// Whether `seat` has shown, by an envelope it signed at a later
    /// position, that it went past `position` (see [`WentOn`]).
    fn shown_past(&self, seat: u8, position: u64) -> bool {
        let s = &self.seats[usize::from(seat)];
        s.log
            .iter()
            .chain((s.next_seq()..).map_while(|q| s.buffer.get(&q)))
            .any(|e| e.envelope.position > position)
    }

    /// Whether the game is abandoned here (3.6). No single forfeit is
    /// complete (one always comes first), and the seats still in split
    /// into claimants and stopped seats: at least two stopped, none of them
    /// seen past this position unless `went_on` says such a seat counts as
    /// stopped, and every claimant claimed every stopped seat here. A seat claims another only when the game waited on it for
    /// a stall timeout, or when it stayed silent for [`CO_CLAIM_TIMEOUTS`]
    /// while the game waited on a seat it claimed, so what the claims
    /// prove does not depend on which envelopes a peer has seen. Returns
    /// the stopped seats and the claims that prove it.
    fn abandonment(&self, went_on: WentOn) -> Option<Abandonment> {
        // Almost always there is no claim here at all.
        let run = self.forfeit_run_start()..=self.position();
        if !self.claims.keys().any(|(_, q)| run.contains(q)) {
            return None;
        }
        let waited = self.waited_on();
        if waited.iter().any(|&s| self.claims_complete(s).is_some()) {
            return None;
        }
        let in_game: Vec<u8> = (0..self.seats.len() as u8)
            .filter(|&s| self.seats[usize::from(s)].forfeited.is_none())
            .collect();
        self.best_abandonment(self.position(), &in_game, went_on)
    }

    /// The abandonment the claims at `position` prove among `in_game`, if
    /// any: of several (claims that cross, as after a network split), the
    /// one whose claimants hold the lowest seat, then the one with the most
    /// claimants. Every peer that holds the same claims picks the same.
    fn best_abandonment(
        &self,
        position: u64,
        in_game: &[u8],
        went_on: WentOn,
    ) -> Option<Abandonment> {
        // A table seats at most a handful: every split of them is tried.
        let n = in_game.len().min(16);
        let mut best: Option<Abandonment> = None;
        for mask in 1..(1u32 << n) - 1 {
            let (mut claimants, mut stopped) = (Vec::new(), Vec::new());
            for (i, &seat) in in_game.iter().take(n).enumerate() {
                if mask & (1 << i) != 0 {
                    claimants.push(seat);
                } else {
                    stopped.push(seat);
                }
            }
            if stopped.len() < 2
                || (went_on == WentOn::NotStopped
                    && stopped.iter().any(|&s| self.shown_past(s, position)))
            {
                continue;
            }
            let mut claims = Vec::new();
            for &c in &claimants {
                for &a in &stopped {
                    match self.claim_in_run_at(position, c, a) {
                        Some(seq) => claims.push((c, a, seq)),
                        None => break,
                    }
                }
            }
            if claims.len() != claimants.len() * stopped.len() {
                continue;
            }
            let candidate = Abandonment {
                claimants,
                stopped: stopped.into_iter().map(Seat).collect(),
                claims,
            };
            if best
                .as_ref()
                .is_none_or(|b| precedence(&candidate.claimants) < precedence(&b.claimants))
            {
                best = Some(candidate);
            }
        }
        best
    }

    /// An abandoned game is finished at once, with the standing of the
    /// moment and every seat that forfeited last. Nobody opens a seed: a
    /// claim that arrives later can still overtake the abandonment (see
    /// `rewind_for_forfeit`), and the game then goes on, which a seat whose
    /// seed were public could not do.
    fn finish_abandoned(&mut self) {
        if self.finished {
            return;
        }
        self.finished = true;
        let gone: Vec<Seat> = (0..self.seats.len())
            .filter(|&i| self.seats[i].forfeited.is_some())
            .map(|i| Seat(i as u8))
            .collect();
        let result = self.game.standing().with_last(&gone);
        self.outputs.push_back(Output::Finished(result));
    }

    /// The local seat is running, yet the claims here would record it
    /// stopped: its own stall clock started again (a restarted peer's
    /// does) while the others waited [`CO_CLAIM_TIMEOUTS`] for it. Before
    /// the abandonment, it claims the other stopped seats the game waits on
    /// here, as it would have one stall timeout after it got here (3.6, "A
    /// running seat counted stopped"): its claim can complete a single
    /// forfeit, which comes first, so an honest seat is not ranked stopped.
    /// Returns whether it signed any claim.
    fn claim_before_being_stopped(&mut self, abandonment: &Abandonment) -> bool {
        let Some(me) = self.local_seat() else {
            return false;
        };
        if !abandonment.stopped.contains(&me) || self.is_forfeited(me) {
            return false;
        }
        let position = self.position();
        let waited = self.waited_on();
        let due: Vec<u8> = abandonment
            .stopped
            .iter()
            .filter(|&&s| s != me && waited.contains(&s))
            .map(|s| s.0)
            .filter(|&s| !self.my_claims.contains(&(s, position)))
            .collect();
        for &accused in &due {
            self.my_claims.insert((accused, position));
            self.author(Body::StallClaim { accused, position });
        }
        !due.is_empty()
    }

    /// Record the abandonment: the stopped seats forfeit together.
    fn abandon(&mut self, abandonment: Abandonment) {
        let Abandonment {
            stopped, claims, ..
        } = abandonment;
        let position = self.position();
        let went_on = stopped
            .iter()
            .filter(|s| self.shown_past(s.0, position))
            .fold(0u64, |mask, s| mask | 1 << s.0);
        for seat in &stopped {
            self.seats[seat.index()].forfeited = Some(position);
            self.pending_reveals[seat.index()] = None;
        }
        self.abandoned_at = Some((position, went_on));
        self.record(
            Record::Abandon {
                stopped: stopped.clone(),
                claims,
            },
            Vec::new(),
        );
        for seat in stopped {
            self.outputs.push_back(Output::Forfeited {
                seat,
                reason: "stopped: the game is abandoned",
            });
        }
    }

    /// Whether the private deal is under way (a key share is in, or the
    /// game asks for a private step) with at most one seat still in: that
    /// seat holds or would hold every unreleased key share, and could open
    /// every card, future draws included (5.14).
    fn deal_left_to_one_seat(&self) -> bool {
        let in_game = self.seats.iter().filter(|s| s.forfeited.is_none()).count();
        if in_game > 1 || in_game == self.seats.len() {
            return false;
        }
        match self.game.next() {
            Next::Over => false,
            Next::Private(_) => true,
            _ => self.dealing.key_shares.iter().any(Option::is_some),
        }
    }

    /// End the game where it stands, abandoned, with every seat that is
    /// gone stopped: the game waits on a gone seat it gives no move, or the
    /// deal would be left to one seat (3.6, 5.14). Derived from the state
    /// alone, so it needs no claim and every peer records it at the same
    /// position.
    fn abandon_for_the_gone(&mut self) {
        let stopped: Vec<Seat> = (0..self.seats.len())
            .filter(|&i| self.seats[i].forfeited.is_some())
            .map(|i| Seat(i as u8))
            .collect();
        self.abandoned_at = Some((self.position(), 0));
        self.record(
            Record::Abandon {
                stopped,
                claims: Vec::new(),
            },
            Vec::new(),
        );
    }

    /// Take in the envelopes that are not game inputs (stall claims and
    /// chain continuations) that are next in their authors' sequences.
    fn consume_side_envelopes(&mut self) {
        for seat in 0..self.seats.len() {
            // A forfeited seat's claims still count when it signed them
            // before the position at which it forfeited. In a two-seat game
            // cut in two for longer than the stall timeout each seat forfeits
            // the other; taking in the other's earlier claim is how the seat
            // forfeited later learns it lost first, and rewinds. A claim
            // signed at the very position of its forfeit counts too: two
            // seats that forfeited each other there break the tie by seat
            // (see `rewind_for_forfeit`).
            let forfeited_at = self.seats[seat].forfeited;
            while let Some(next) = self.seats[seat].peek() {
                let signed_at = next.envelope.position;
                let (accused, position) = match next.envelope.body {
                    Body::StallClaim { accused, position } => (accused, position),
                    Body::ChainContinuation { .. } => {
                        // A forfeited seat's later chains are never needed.
                        if forfeited_at.is_some_and(|f| next.envelope.position > f) {
                            break;
                        }
                        let Some(signed) = self.consume(seat) else {
                            return;
                        };
                        self.take_continuation(seat, signed);
                        if self.failed.is_some() {
                            return;
                        }
                        continue;
                    }
                    _ => break,
                };
                if forfeited_at.is_some_and(|f| position > f) {
                    break;
                }
                // A seat claims only at the position it waits at, each seat
                // once: so one seat cannot sign claims without end, for any
                // position, that every peer keeps and scans (3.6).
                let malformed =
                    if usize::from(accused) >= self.seats.len() || usize::from(accused) == seat {
                        Some("a claim against another seat")
                    } else if signed_at != position {
                        Some("a claim for the position it was signed at")
                    } else {
                        None
                    };
                if malformed.is_none() && position > self.position() {
                    // Its author says it got further than this table. Where
                    // this table waits for the author's own input, an honest
                    // author signed that input before it went on, so the
                    // claim proves it skipped it; otherwise the claim waits
                    // in the buffer (and holds back the author's later
                    // envelopes) until the table gets there.
                    if !self.waited_on().contains(&Seat(seat as u8))
                        || self.written_past_a_forfeit(seat)
                    {
                        break;
                    }
                    if let Some(signed) = self.consume(seat) {
                        self.fail(Violation::WrongPosition {
                            envelope: signed,
                            expected: self.position(),
                        });
                    }
                    return;
                }
                // What its earlier envelopes show of how far it got.
                let furthest = self.seats[seat].furthest;
                let Some(signed) = self.consume(seat) else {
                    return;
                };
                let refusal = malformed.or_else(|| {
                    self.claims
                        .get(&(accused, position))
                        .and_then(|by| by.get(&(seat as u8)))
                        // The same envelope comes again after a rewind.
                        .is_some_and(|(seq, _)| *seq != signed.seq())
                        .then_some("one claim per seat and position, not a second")
                });
                if let Some(expected) = refusal {
                    self.fail(Violation::UnexpectedBody {
                        envelope: signed,
                        expected: expected.into(),
                    });
                    return;
                }
                if position < furthest {
                    // Signed after an envelope of a later position: its
                    // author had gone past it, so it holds nothing back
                    // there, and no position is ever claimed again once
                    // every seat went past it (which lets claims there be
                    // forgotten, `prune_settled_claims`). An honest seat
                    // never signs one: it goes back only to forfeit itself.
                    continue;
                }
                self.note_claim(
                    seat as u8,
                    signed.seq(),
                    accused,
                    position,
                    signed.envelope.state_hash,
                );
            }
        }
    }

    fn note_claim(
        &mut self,
        claimant: u8,
        seq: u64,
        accused: u8,
        position: u64,
        state_hash: Hash32,
    ) {
        self.claims
            .entry((accused, position))
            .or_default()
            .insert(claimant, (seq, state_hash));
        // A restarted peer meets its own claims in its log: it must not
        // sign them again (a second claim is a breach).
        if self.local_seat().is_some_and(|me| me.0 == claimant) {
            self.my_claims.insert((accused, position));
        }
    }

    /// Whether every seat still in, other than `accused`, has claimed it
    /// stalled at the current position. A forfeit needs at least one claimant.
    ///
    /// Claims signed at an earlier position still count when only forfeits
    /// were recorded since: several seats that stalled at one chance event
    /// are claimed together, but each forfeit is its own record.
    fn claims_complete(&self, accused: Seat) -> Option<Vec<(u8, u64)>> {
        (self.forfeit_run_start()..=self.position())
            .rev()
            .find_map(|q| self.claims_complete_at(accused.0, q))
    }

    /// Whether the seats needed for a forfeit of `accused` at `position` (all
    /// seats still in there, other than the accused) have all claimed it.
    fn claims_complete_at(&self, accused: u8, position: u64) -> Option<Vec<(u8, u64)>> {
        self.claims_complete_among(accused, position, false)
    }

    /// The claims against `accused` at `position` from every seat still in
    /// there other than the accused, if all are in (at least one is needed).
    /// With `before_forfeits_there`, seats forfeited at `position` itself
    /// count as still in: the tie of two seats that forfeited each other
    /// there is judged on the claims made before either forfeit.
    fn claims_complete_among(
        &self,
        accused: u8,
        position: u64,
        before_forfeits_there: bool,
    ) -> Option<Vec<(u8, u64)>> {
        let claims = self.claims.get(&(accused, position))?;
        let needed: Vec<u8> = (0..self.seats.len() as u8)
            .filter(|&s| {
                s != accused
                    && self.seats[usize::from(s)]
                        .forfeited
                        .is_none_or(|q| q > position || (before_forfeits_there && q == position))
            })
            .collect();
        if needed.is_empty() || !needed.iter().all(|s| claims.contains_key(s)) {
            return None;
        }
        Some(needed.iter().map(|s| (*s, claims[s].0)).collect())
    }

    /// A forfeit completed at a position this table has already passed with
    /// the accused's own input. That happens only to the accused itself (it
    /// applies its own decision at once) or to an observer that saw the input
    /// before the claims: every seat that signed a claim refused the input,
    /// and all other seats signed, so no seat still in the game applied it.
    /// Go back to that position by replaying the records before it; the pump
    /// then applies the forfeit there, as every other peer does.
    fn rewind_for_forfeit(&mut self) -> bool {
        let position = self.position();
        let target = self.claims.keys().find(|&&(accused, p)| {
            p < position
                && self
                    .records
                    .get(p as usize)
                    .is_some_and(|r| used_input_of(r, accused))
                && self.claims_complete_at(accused, p).is_some()
        });
        // Two seats that forfeited each other at one position (a two-seat
        // game cut in two at a chance event both reveal for): each side's
        // claims are complete, and each applied the forfeit of the other.
        // The lower seat forfeits; the side that forfeited the higher one
        // goes back, and the higher seat's claims then lack their claimant.
        let tie = || {
            self.claims.keys().find(|&&(accused, p)| {
                p < position
                    && matches!(self.records.get(p as usize),
                        Some(Record::Forfeit { seat, .. }) if seat.0 > accused)
                    && self.claims_complete_among(accused, p, true).is_some()
            })
        };
        // An abandonment that claims arriving since have overtaken: a single
        // forfeit at that position is now complete (counting the seats the
        // abandonment stopped as still in), and a single forfeit always
        // comes first; or the claims now prove an abandonment that stands
        // before it. Every peer that hears the same claims ends the same.
        // Or a seat it stopped has since shown that it went on past that
        // position (one it did not already count stopped so), so the table
        // goes back to follow it: that seat may prove another seat's input
        // there applied. Where the table still cannot apply what it went on
        // with, the abandonment comes again, counting the seat stopped, and
        // stands (3.6).
        let overtaken = || {
            self.abandoned_at.and_then(|(p, went_on_then)| {
                let Some(Record::Abandon { stopped, claims }) = self.records.get(p as usize) else {
                    return None;
                };
                if stopped.len() < 2 || claims.is_empty() {
                    // A stall forfeit that ended a game with private cards
                    // (5.15): no single forfeit comes before it. Or no claim
                    // made it: it follows from the records before it, and
                    // goes only with them.
                    return None;
                }
                let in_game: Vec<u8> = (0..self.seats.len() as u8)
                    .filter(|&s| self.seats[usize::from(s)].forfeited.is_none_or(|q| q >= p))
                    .collect();
                let single = in_game.iter().any(|&a| {
                    (self.forfeit_run_before(p)..=p)
                        .any(|q| self.claims_complete_among(a, q, true).is_some())
                });
                let applied: Vec<u8> = in_game
                    .iter()
                    .copied()
                    .filter(|s| !stopped.contains(&Seat(*s)))
                    .collect();
                let better = self
                    .best_abandonment(p, &in_game, WentOn::NotStopped)
                    .is_some_and(|b| precedence(&b.claimants) < precedence(&applied));
                let went_on_since = stopped
                    .iter()
                    .any(|s| went_on_then & 1 << s.0 == 0 && self.shown_past(s.0, p));
                (single || better || went_on_since).then_some(p)
            })
        };
        let target = target.or_else(tie).map(|&(_, p)| p).or_else(overtaken);
        let Some(p) = target else {
            return false;
        };
        self.rewind(p);
        true
    }

    /// Rebuild the game as it was at `position` by replaying the records
    /// before it.
    fn rewind(&mut self, position: u64) {
        let n = self.seats.len();
        let Ok(options) = self.genesis.proposal.options::<G>() else {
            return;
        };
        let Ok(mut game) = G::new_game(n as u8, &options) else {
            return;
        };
        // Envelopes consumed by the dropped records go back to their seats'
        // buffers (with any later ones), to be consumed again as the game
        // asks for them.
        let mut first_dropped: Vec<Option<u64>> = vec![None; n];
        for record in &self.records[position as usize..] {
            let mut note = |seat: usize, seq: u64| {
                first_dropped[seat] = Some(first_dropped[seat].map_or(seq, |s: u64| s.min(seq)));
            };
            match record {
                Record::Action { seat, seq, .. } | Record::Resign { seat, seq } => {
                    note(seat.index(), *seq)
                }
                Record::Chance { reveals, .. } => {
                    for (seat, seq) in reveals.iter().enumerate() {
                        // A reveal carried in the actor's action belongs to
                        // that action's record, which may be kept: draining
                        // it would leave an action where a reveal is due.
                        if let Some(seq) =
                            seq.filter(|&q| carries_reveal_only(&self.seats[seat].log, q))
                        {
                            note(seat, seq);
                        }
                    }
                }
                Record::Forfeit { claims, .. } => {
                    for (seat, seq) in claims {
                        note(usize::from(*seat), *seq);
                    }
                }
                Record::Abandon { claims, .. } => {
                    for (seat, _, seq) in claims {
                        note(usize::from(*seat), *seq);
                    }
                }
                Record::Private { envelopes, .. } => {
                    for (seat, seq) in envelopes {
                        note(usize::from(*seat), *seq);
                    }
                }
                Record::Zombie { .. } => {}
            }
        }
        for (seat, seq) in self.rewind_dealing(position) {
            let seat = usize::from(seat);
            first_dropped[seat] = Some(first_dropped[seat].map_or(seq, |s| s.min(seq)));
        }
        // So do reveals taken in for the chance event pending now: a reveal
        // names no position, so one written after the forfeit was taken in
        // here before the table learnt of it; it is needed again, for the
        // same event, after the forfeit.
        for (seat, pending) in self.pending_reveals.iter().enumerate() {
            if let Some((seq, _)) = pending
                && carries_reveal_only(&self.seats[seat].log, *seq)
            {
                first_dropped[seat] = Some(first_dropped[seat].map_or(*seq, |s| s.min(*seq)));
            }
        }
        for (state, first) in self.seats.iter_mut().zip(first_dropped) {
            if let Some(first) = first {
                for e in state.log.drain(first as usize..) {
                    state.buffer.insert(e.seq(), e);
                }
                state.furthest = state
                    .log
                    .iter()
                    .map(|e| e.envelope.position)
                    .max()
                    .unwrap_or(0);
                state.continuations.retain(|(seq, _)| *seq < first);
            }
        }
        // A finished table rewinds too: in a two-seat game cut in two, one
        // side can play to the end before it learns that it forfeited first.
        // Seeds count again only if their openings were not put back.
        self.finished = false;
        for state in &mut self.seats {
            state.seed = state.log.iter().find_map(|e| match e.envelope.body {
                Body::SeedOpening { seed } => Some(seed),
                _ => None,
            });
        }
        self.records.truncate(position as usize);
        self.hashes.truncate(position as usize + 1);
        self.abandoned_at = self.abandoned_at.filter(|&(p, _)| p < position);
        self.queued.clear();
        self.pending_reveals.iter_mut().for_each(|r| *r = None);
        // A simultaneous decision under way starts over from its commitments
        // (a secret choice already opened stays opened in the seat's log).
        self.commits.iter_mut().for_each(|c| *c = None);
        self.opens.iter_mut().for_each(|o| *o = None);
        for (i, state) in self.seats.iter_mut().enumerate() {
            if state.forfeited.is_some_and(|q| q >= position) {
                state.forfeited = None;
            }
            let info = &self.genesis.proposal.seats[i];
            if let Ok(tracker) = ChainTracker::new(info.chain_commitment, info.chain_length) {
                state.chain = tracker;
            }
        }
        self.events_done = 0;
        let mut events = Vec::new();
        for record in &self.records {
            match record {
                Record::Action { seat, seq, action } => {
                    let replayed = game.apply_action(*seat, action, &mut events);
                    debug_assert!(replayed.is_ok(), "a rewind replays a refused action");
                    // The actor's reveal carried in its action counts for
                    // the event the action raised, as when it was applied;
                    // when that event is the one rewound to, it is pending
                    // again and nobody will send it separately.
                    let carried = self.seats[seat.index()]
                        .log
                        .get(*seq as usize)
                        .and_then(|e| match &e.envelope.body {
                            Body::Action {
                                reveal: Some(r), ..
                            } => Some(*r),
                            _ => None,
                        });
                    if let Some(r) = carried {
                        let relinked = self.seats[seat.index()].accept_link(r.event, &r.link);
                        debug_assert!(relinked.is_ok(), "a rewind replays a refused link");
                        self.pending_reveals[seat.index()] = Some((*seq, r.link));
                    }
                }
                Record::Zombie { seat, action } => {
                    let replayed = game.apply_action(*seat, action, &mut events);
                    debug_assert!(replayed.is_ok(), "a rewind replays a refused zombie move");
                }
                Record::Chance {
                    event,
                    reveals,
                    outcome,
                } => {
                    let replayed = game.apply_chance(outcome, &mut events);
                    debug_assert!(replayed.is_ok(), "a rewind replays a refused outcome");
                    self.events_done = *event;
                    for (seat, seq) in reveals.iter().enumerate() {
                        let link = seq
                            .and_then(|q| self.seats[seat].log.get(q as usize))
                            .and_then(|e| match &e.envelope.body {
                                Body::Reveal(r) => Some(r.link),
                                _ => None,
                            });
                        if let Some(link) = link {
                            let relinked = self.seats[seat].accept_link(*event, &link);
                            debug_assert!(relinked.is_ok(), "a rewind replays a refused link");
                        }
                    }
                    self.pending_reveals.iter_mut().for_each(|r| *r = None);
                }
                Record::Private { step, .. } => {
                    let replayed = match step {
                        PrivateStep::Reshuffle { .. } => game.apply_reshuffle(&mut events),
                        PrivateStep::Deal { .. } => game.apply_deal(&mut events),
                        PrivateStep::Reveal { cards } => game.apply_reveal(cards, &mut events),
                        PrivateStep::Play {
                            seat,
                            action,
                            revealed,
                            ..
                        } => game.apply_action_revealing(*seat, action, revealed, &mut events),
                    };
                    debug_assert!(replayed.is_ok(), "a rewind replays a refused private step");
                }
                Record::Forfeit { .. } | Record::Resign { .. } | Record::Abandon { .. } => {}
            }
            events.clear();
        }
        self.game = game;
        self.outputs.push_back(Output::Rewound { position });
    }

    /// Whether the table may apply `seat`'s input at the current position
    /// despite claims against it there: only if the local seat has not
    /// claimed it (an observer follows only evidence), or some seat has shown
    /// an envelope written past this position (it applied the input).
    fn input_allowed(&self, seat: Seat) -> bool {
        let position = self.position();
        let Some(claims) = self.claims.get(&(seat.0, position)) else {
            return true;
        };
        // Claims signed by a seat forfeited at or before this position were
        // written in a history the table has left (it rewound to the
        // seat's forfeit): they hold nothing back.
        let standing = |claimant: u8| {
            self.seats[usize::from(claimant)]
                .forfeited
                .is_none_or(|q| q > position)
        };
        if !claims.keys().any(|&c| standing(c)) {
            return true;
        }
        let local_claimed = self
            .local_seat()
            .is_none_or(|me| claims.contains_key(&me.0) && standing(me.0));
        if !local_claimed {
            return true;
        }
        (0..self.seats.len()).any(|i| i != seat.index() && self.applied_input_at(i, seat, position))
    }

    /// Whether `author`'s next envelope does not fit this table's history
    /// because the author forfeited a seat at a position where this table
    /// applied that seat's input: the author claimed it there. That happens
    /// to the forfeited seat itself when its own late input raced the claims
    /// (a slow peer, or one that restarts and replays its log), until the
    /// last claim arrives and the table rewinds. Such an envelope waits; it
    /// used to be refused as written at a wrong position or state, blaming
    /// an honest seat.
    fn written_past_a_forfeit(&self, author: usize) -> bool {
        let Some(e) = self.seats[author].peek() else {
            return false;
        };
        if let Body::Reveal(_) = e.envelope.body
            && !matches!(self.game.next(), Next::Decision(_))
        {
            // A reveal names no position; at a chance event it is checked
            // by its event. Where the game waits for the author's decision
            // it fits no history but another one: a restarted peer that
            // applied its own input the others had claimed it stalled on
            // meets their reveals there. It waits, like any envelope of an
            // author that claimed an input this table applied, until the
            // forfeit rewinds the table.
            return false;
        }
        let position = self.position();
        if e.envelope.position == position && e.envelope.state_hash == self.current_hash() {
            return false;
        }
        self.claims.iter().any(|(&(accused, q), claimants)| {
            q < position
                && claimants.contains_key(&(author as u8))
                && self
                    .records
                    .get(q as usize)
                    .is_some_and(|r| used_input_of(r, accused))
        })
    }

    /// Whether seat `author` has shown that it applied `accused`'s input at
    /// `position`: its envelopes, in order and without a gap, reach one
    /// written past `position` before any claim against `accused` there. A
    /// seat that claimed went past by the forfeit (which this table may not
    /// have completed yet, missing a claim); counting its envelopes as
    /// evidence made a table apply the forfeited input and fork.
    ///
    /// A reveal names no position; one for an event raised after
    /// `position` (the current one) shows the author answered that event,
    /// so it counts.
    fn applied_input_at(&self, author: usize, accused: Seat, position: u64) -> bool {
        debug_assert_eq!(position, self.position());
        let first_later_event = self.events_done
            + match self.game.next() {
                Next::Chance(_) => 2,
                _ => 1,
            };
        let s = &self.seats[author];
        let known = s
            .log
            .iter()
            .chain((s.next_seq()..).map_while(|q| s.buffer.get(&q)));
        for e in known {
            match e.envelope.body {
                Body::StallClaim {
                    accused: a,
                    position: p,
                } if a == accused.0 && p == position => return false,
                Body::Reveal(r) if r.event >= first_later_event => return true,
                Body::Reveal(_) => {}
                _ if e.envelope.position > position => return true,
                _ => {}
            }
        }
        false
    }

    /// Check that `signed` was written at the current position on the same
    /// state; otherwise fail with the proof.
    fn check_position(&mut self, signed: &Signed) -> bool {
        let position = self.position();
        if signed.envelope.position != position {
            self.fail(Violation::WrongPosition {
                envelope: signed.clone(),
                expected: position,
            });
            return false;
        }
        let expected = self.current_hash();
        if signed.envelope.state_hash != expected {
            self.fail(Violation::StateMismatch {
                envelope: signed.clone(),
                expected,
            });
            return false;
        }
        true
    }

    fn record(&mut self, record: Record<G>, events: Vec<G::Event>) {
        let position = self.position();
        self.records.push(record.clone());
        self.hashes.push(Hash32(self.game.state_hash().0));
        self.outputs.push_back(Output::Applied {
            position,
            record,
            events,
        });
    }

    fn forfeit(&mut self, seat: Seat, record: Record<G>, reason: &'static str) {
        if let Record::Forfeit { claims, .. } = &record
            && self.forfeit_ends_game(seat)
        {
            self.abandon_for_forfeit(seat, claims.clone());
            return;
        }
        self.seats[seat.index()].forfeited = Some(self.position());
        self.pending_reveals[seat.index()] = None;
        // A forfeit changes no game state; it is recorded so that every peer
        // applies it at the same position.
        self.record(record, Vec::new());
        self.outputs.push_back(Output::Forfeited { seat, reason });
    }

    fn step_decision(&mut self, seat: Seat) -> bool {
        let i = seat.index();
        if self.seats[i].forfeited.is_some() {
            // Applied to a copy: a move the game refuses must leave the
            // state as every peer has it.
            let mut after = self.game.clone();
            let mut events = Vec::new();
            match self.game.zombie_action(seat) {
                Some(action) if after.apply_action(seat, &action, &mut events).is_ok() => {
                    self.game = after;
                    self.record(Record::Zombie { seat, action }, events);
                }
                // Nobody owes this decision: waiting would never end (3.6).
                _ => self.abandon_for_the_gone(),
            }
            return true;
        }
        if let Some(claims) = self.claims_complete(seat) {
            self.forfeit(seat, Record::Forfeit { seat, claims }, "stalled");
            return true;
        }
        if self.seats[i].peek().is_none() && self.local_seat() == Some(seat) {
            let Some(action) = self.queued.pop_front() else {
                return false;
            };
            return self.author_action(seat, action);
        }
        let Some(body) = self.seats[i].peek().map(|s| s.envelope.body.clone()) else {
            return false;
        };
        if !self.input_allowed(seat) || self.written_past_a_forfeit(i) {
            return false;
        }
        match body {
            Body::Action { action, reveal } => {
                let Some(signed) = self.consume(i) else {
                    return false;
                };
                if !self.check_position(&signed) {
                    return false;
                }
                let action: G::Action = match crate::decode_exact(&action) {
                    Ok(a) => a,
                    Err(e) => {
                        self.fail(Violation::IllegalAction {
                            envelope: signed,
                            rule: format!("undecodable action: {e}"),
                        });
                        return false;
                    }
                };
                let mut events = Vec::new();
                if let Err(e) = self.game.apply_action(seat, &action, &mut events) {
                    self.fail(Violation::IllegalAction {
                        envelope: signed,
                        rule: e.rule().to_owned(),
                    });
                    return false;
                }
                let seq = signed.seq();
                self.record(Record::Action { seat, seq, action }, events);
                if let Some(r) = reveal {
                    self.accept_reveal(seat, &signed, seq, r);
                }
                true
            }
            Body::ActionRevealing {
                action,
                reveal,
                shares,
            } => {
                let Some(signed) = self.consume(i) else {
                    return false;
                };
                if !self.check_position(&signed) {
                    return false;
                }
                self.take_revealing_action(seat, signed, &action, reveal, &shares)
            }
            Body::Resign => {
                let Some(signed) = self.consume(i) else {
                    return false;
                };
                self.forfeit(
                    seat,
                    Record::Resign {
                        seat,
                        seq: signed.seq(),
                    },
                    "resigned",
                );
                true
            }
            Body::Shares { .. } => {
                if let Some(signed) = self.consume(i) {
                    self.fail(Violation::UnaskedShares {
                        envelope: signed,
                        reason: "no shares were due from it: the game waited for its decision"
                            .into(),
                    });
                }
                false
            }
            _ => {
                if let Some(signed) = self.consume(i) {
                    self.fail(Violation::UnexpectedBody {
                        envelope: signed,
                        expected: "an action".into(),
                    });
                }
                false
            }
        }
    }

    /// Apply a local decision: sign it, carrying the local reveal when it
    /// raises a chance event.
    fn author_action(&mut self, seat: Seat, action: G::Action) -> bool {
        if !G::claims(&action).is_empty() {
            return self.author_revealing_action(seat, action);
        }
        let position_hash = self.current_hash();
        let mut after = self.game.clone();
        let mut events = Vec::new();
        if after.apply_action(seat, &action, &mut events).is_err() {
            return false;
        }
        let reveal = match after.next() {
            Next::Chance(_) => self.local_reveal(self.events_done + 1),
            _ => None,
        };
        let encoded = postcard::to_allocvec(&action).unwrap_or_default();
        let Some(signed) = self.author(Body::Action {
            action: encoded,
            reveal,
        }) else {
            return false;
        };
        debug_assert_eq!(signed.envelope.state_hash, position_hash);
        self.game = after;
        let seq = signed.seq();
        self.record(Record::Action { seat, seq, action }, events);
        if let Some(r) = reveal {
            self.accept_reveal(seat, &signed, seq, r);
        }
        true
    }

    /// Check a reveal against the seat's chain and keep it for the pending
    /// chance event; a reveal that does not fit is proof against its seat.
    fn accept_reveal(&mut self, seat: Seat, signed: &Signed, seq: u64, reveal: Reveal) -> bool {
        let event = self.events_done + 1;
        // `accept` checks the link and changes nothing when it fails.
        let refused = if !matches!(self.game.next(), Next::Chance(_)) || reveal.event != event {
            Some(format!(
                "a reveal for event {} where event {event} was due",
                reveal.event
            ))
        } else {
            self.seats[seat.index()]
                .accept_link(event, &reveal.link)
                .err()
                .map(|e| e.to_string())
        };
        if let Some(reason) = refused {
            self.fail(Violation::BadReveal {
                envelope: signed.clone(),
                reason,
            });
            return false;
        }
        self.pending_reveals[seat.index()] = Some((seq, reveal.link));
        true
    }

    fn step_chance(&mut self) -> bool {
        let event = self.events_done + 1;
        let mut progressed = false;
        // A seat whose claims are complete forfeits, but only after the
        // reveals for this event already here from the other seats are taken
        // in: after a rewind they wait in the buffers again, written at this
        // position, and were refused as written at the wrong one (blaming an
        // honest seat) once the forfeit had moved the position on.
        let stalled = (0..self.seats.len()).map(|i| Seat(i as u8)).find(|&s| {
            self.seats[s.index()].forfeited.is_none()
                && self.pending_reveals[s.index()].is_none()
                && self.claims_complete(s).is_some()
        });
        for i in 0..self.seats.len() {
            let seat = Seat(i as u8);
            if self.seats[i].forfeited.is_some() || self.pending_reveals[i].is_some() {
                continue;
            }
            if stalled.is_some() {
                let reveal_here = matches!(
                    self.seats[i].peek().map(|s| &s.envelope.body),
                    Some(Body::Reveal(_))
                );
                if stalled == Some(seat) || !reveal_here {
                    continue;
                }
            } else if self.seats[i].peek().is_none() && self.local_seat() == Some(seat) {
                if let Some(r) = self.local_reveal(event)
                    && let Some(signed) = self.author(Body::Reveal(r))
                {
                    progressed |= self.accept_reveal(seat, &signed, signed.seq(), r);
                }
                continue;
            }
            let Some(body) = self.seats[i].peek().map(|s| s.envelope.body.clone()) else {
                continue;
            };
            if !self.input_allowed(seat) || self.written_past_a_forfeit(i) {
                continue;
            }
            match body {
                Body::Reveal(r) => {
                    let Some(signed) = self.consume(i) else {
                        return false;
                    };
                    if !self.accept_reveal(seat, &signed, signed.seq(), r) {
                        return false;
                    }
                    progressed = true;
                }
                Body::Resign => {
                    let Some(signed) = self.consume(i) else {
                        return false;
                    };
                    self.forfeit(
                        seat,
                        Record::Resign {
                            seat,
                            seq: signed.seq(),
                        },
                        "resigned",
                    );
                    return true;
                }
                _ => {
                    if let Some(signed) = self.consume(i) {
                        self.fail(Violation::UnexpectedBody {
                            envelope: signed,
                            expected: format!("a reveal for event {event}"),
                        });
                    }
                    return false;
                }
            }
        }
        if let Some(seat) = stalled
            && let Some(claims) = self.claims_complete(seat)
        {
            self.forfeit(seat, Record::Forfeit { seat, claims }, "stalled");
            return true;
        }
        let complete = (0..self.seats.len())
            .all(|i| self.seats[i].forfeited.is_some() || self.pending_reveals[i].is_some());
        if complete && self.pending_reveals.iter().any(Option::is_some) {
            return self.resolve_chance(event) || progressed;
        }
        progressed
    }

    fn resolve_chance(&mut self, event: u64) -> bool {
        let links: Vec<Option<[u8; 32]>> = self
            .pending_reveals
            .iter()
            .map(|r| r.map(|(_, l)| l))
            .collect();
        let b = beacon(&self.game_id.0, event, &links);
        let outcome = match self.game.next() {
            Next::Chance(request) => chance::outcome(&b, &request.distribution),
            _ => return false,
        };
        let Ok(outcome) = outcome else { return false };
        let mut events = Vec::new();
        if self.game.apply_chance(&outcome, &mut events).is_err() {
            return false;
        }
        let reveals = self
            .pending_reveals
            .iter()
            .map(|r| r.map(|(seq, _)| seq))
            .collect();
        self.pending_reveals.iter_mut().for_each(|r| *r = None);
        self.events_done = event;
        self.record(
            Record::Chance {
                event,
                reveals,
                outcome,
            },
            events,
        );
        true
    }

    /// A simultaneous decision: every seat asked commits to its choice
    /// (`SecretCommit`), and only when all commitments are in does any seat
    /// open (`SecretOpen`); the opened choices are then applied in seat order.
    /// No seat can choose knowing another's choice.
    fn step_simultaneous(&mut self, set: roundtable_engine::SeatSet) -> bool {
        let index = self.secrets_done + 1;
        let asked: Vec<Seat> = set.iter().collect();
        let mut progressed = false;
        // Commitments.
        for &seat in &asked {
            let i = seat.index();
            if self.seats[i].forfeited.is_some() || self.commits[i].is_some() {
                continue;
            }
            if let Some(claims) = self.claims_complete(seat) {
                self.forfeit(seat, Record::Forfeit { seat, claims }, "stalled");
                return true;
            }
            if self.seats[i].peek().is_none() && self.local_seat() == Some(seat) {
                let Some(action) = self.queued.pop_front() else {
                    continue;
                };
                let (Some(local), Ok(choice)) = (&self.local, postcard::to_allocvec(&action))
                else {
                    continue;
                };
                let nonce = secret_nonce(local.chain.seed(), index);
                let commitment = roundtable_fairdeck::commit_secret(
                    &self.game_id.0,
                    seat.0,
                    index,
                    &choice,
                    &nonce,
                );
                self.my_secret = Some((action, choice, nonce));
                if let Some(signed) = self.author(Body::SecretCommit { index, commitment }) {
                    self.commits[i] = Some((signed.seq(), commitment));
                    progressed = true;
                }
                continue;
            }
            let Some(body) = self.seats[i].peek().map(|e| e.envelope.body.clone()) else {
                continue;
            };
            let Some(signed) = self.consume(i) else {
                return self.failed.is_none();
            };
            match body {
                Body::SecretCommit {
                    index: k,
                    commitment,
                } if k == index => {
                    if !self.check_position(&signed) {
                        return false;
                    }
                    self.commits[i] = Some((signed.seq(), commitment));
                    progressed = true;
                }
                Body::Resign => {
                    self.forfeit(
                        seat,
                        Record::Resign {
                            seat,
                            seq: signed.seq(),
                        },
                        "resigned",
                    );
                    return true;
                }
                _ => {
                    self.fail(Violation::UnexpectedBody {
                        envelope: signed,
                        expected: format!("a commitment to secret choice {index}"),
                    });
                    return false;
                }
            }
        }
        let in_game = |t: &Self, s: &Seat| t.seats[s.index()].forfeited.is_none();
        if !asked
            .iter()
            .filter(|s| in_game(self, s))
            .all(|s| self.commits[s.index()].is_some())
        {
            return progressed;
        }
        // Openings, once every commitment is in.
        for &seat in &asked {
            let i = seat.index();
            if !in_game(self, &seat) || self.opens[i].is_some() {
                continue;
            }
            if let Some(claims) = self.claims_complete(seat) {
                self.forfeit(seat, Record::Forfeit { seat, claims }, "stalled");
                return true;
            }
            if self.seats[i].peek().is_none() && self.local_seat() == Some(seat) {
                let Some((action, choice, nonce)) = self.my_secret.take() else {
                    continue;
                };
                if let Some(signed) = self.author(Body::SecretOpen {
                    index,
                    choice,
                    nonce,
                }) {
                    self.opens[i] = Some((signed.seq(), action));
                    progressed = true;
                }
                continue;
            }
            let Some(body) = self.seats[i].peek().map(|e| e.envelope.body.clone()) else {
                continue;
            };
            let Some(signed) = self.consume(i) else {
                return self.failed.is_none();
            };
            let Body::SecretOpen {
                index: k,
                choice,
                nonce,
            } = body
            else {
                self.fail(Violation::UnexpectedBody {
                    envelope: signed,
                    expected: format!("the opening of secret choice {index}"),
                });
                return false;
            };
            let commitment = self.commits[i].map(|(_, c)| c).unwrap_or_default();
            let opened = k == index
                && roundtable_fairdeck::verify_secret(
                    &self.game_id.0,
                    seat.0,
                    index,
                    &choice,
                    &nonce,
                    &commitment,
                )
                .is_ok();
            let action = crate::decode_exact::<G::Action>(&choice);
            match (opened, action) {
                (true, Ok(action)) if self.check_position(&signed) => {
                    self.opens[i] = Some((signed.seq(), action));
                    progressed = true;
                }
                (true, Ok(_)) => return false,
                (false, _) => {
                    self.fail(Violation::BadReveal {
                        envelope: signed,
                        reason: "the opening does not match the commitment".into(),
                    });
                    return false;
                }
                (true, Err(e)) => {
                    self.fail(Violation::IllegalAction {
                        envelope: signed,
                        rule: format!("undecodable choice: {e}"),
                    });
                    return false;
                }
            }
        }
        if !asked
            .iter()
            .filter(|s| in_game(self, s))
            .all(|s| self.opens[s.index()].is_some())
        {
            return progressed;
        }
        // A gone seat the game gives no move would leave the decision
        // half applied, waiting for ever (3.6).
        if asked
            .iter()
            .any(|&s| self.opens[s.index()].is_none() && self.game.zombie_action(s).is_none())
        {
            self.abandon_for_the_gone();
            return true;
        }
        // Every choice is open: apply them in seat order, zombies included.
        for &seat in &asked {
            let i = seat.index();
            let mut events = Vec::new();
            match self.opens[i].take() {
                Some((seq, action)) => {
                    if let Err(e) = self.game.apply_action(seat, &action, &mut events) {
                        let envelope = self.seats[i].log[seq as usize].clone();
                        self.fail(Violation::IllegalAction {
                            envelope,
                            rule: e.rule().to_owned(),
                        });
                        return false;
                    }
                    self.record(Record::Action { seat, seq, action }, events);
                }
                None => {
                    let Some(action) = self.game.zombie_action(seat) else {
                        continue;
                    };
                    if self.game.apply_action(seat, &action, &mut events).is_ok() {
                        self.record(Record::Zombie { seat, action }, events);
                    }
                }
            }
        }
        self.commits.iter_mut().for_each(|c| *c = None);
        self.secrets_done = index;
        true
    }

    fn step_over(&mut self) -> bool {
        if !self.seed_published {
            self.seed_published = true;
            if let Some(local) = &self.local
                && self.seats[local.seat.index()].forfeited.is_none()
            {
                let seed = *local.chain.seed();
                let seat = local.seat.index();
                if self.seats[seat].peek().is_none() {
                    self.author(Body::SeedOpening { seed });
                    self.seats[seat].seed = Some(seed);
                    // With its seed, its deal secret (5.15).
                    self.author_release(private::Release::AfterTheGame);
                }
            }
        }
        let mut progressed = false;
        for i in 0..self.seats.len() {
            if self.seats[i].forfeited.is_some()
                || (self.seats[i].seed.is_some() && !self.owes_release(i))
            {
                continue;
            }
            if let Some(claims) = self.claims_complete(Seat(i as u8)) {
                self.forfeit(
                    Seat(i as u8),
                    Record::Forfeit {
                        seat: Seat(i as u8),
                        claims,
                    },
                    "stalled",
                );
                return true;
            }
            let Some(body) = self.seats[i].peek().map(|s| s.envelope.body.clone()) else {
                continue;
            };
            let Some(signed) = self.consume(i) else {
                return false;
            };
            let seed = match body {
                Body::SeedOpening { seed } if self.seats[i].seed.is_none() => seed,
                Body::KeyRelease { secret } if self.seats[i].seed.is_some() => {
                    if let Err(reason) = self.take_release(i as u8, &secret) {
                        self.fail(Violation::BadKeyRelease {
                            envelope: signed,
                            reason,
                        });
                        return false;
                    }
                    progressed = true;
                    continue;
                }
                // As at a decision: resigning forfeits when the game next
                // needs the seat, here for its opening.
                Body::Resign => {
                    let seat = Seat(i as u8);
                    let seq = signed.seq();
                    self.forfeit(seat, Record::Resign { seat, seq }, "resigned");
                    return true;
                }
                // Once the game is over a seat owes its seed opening and
                // nothing else (claims are taken in before this): anything
                // else it signed there is proof of a breach, as it would be
                // at a decision, not a stall to be claimed.
                _ => {
                    let expected = if self.seats[i].seed.is_some() {
                        "its key release after its seed opening"
                    } else {
                        "its seed opening, the game being over"
                    };
                    self.fail(Violation::UnexpectedBody {
                        envelope: signed,
                        expected: expected.into(),
                    });
                    return false;
                }
            };
            let info = &self.genesis.proposal.seats[i];
            let continued = self.seats[i].continuations.iter().map(|(_, c)| c);
            if !seed_opens_every_chain(&seed, info, continued) {
                self.fail(Violation::BadSeedOpening { envelope: signed });
                return false;
            }
            self.seats[i].seed = Some(seed);
            progressed = true;
        }
        if !self.finished
            && (0..self.seats.len()).all(|i| {
                self.seats[i].forfeited.is_some()
                    || (self.seats[i].seed.is_some() && !self.owes_release(i))
            })
        {
            self.finished = true;
            self.open_hands();
            if let Some(result) = self.game.result() {
                self.outputs.push_back(Output::Finished(result));
            }
        }
        progressed
    }

    // ----- transcript -----------------------------------------------------

    /// The canonical transcript: genesis, acceptances, then every envelope in
    /// applied order (an input's envelopes right after the author's earlier
    /// unwritten ones), then the seed openings. Honest peers with the same
    /// applied inputs produce identical frames, whatever the arrival order.
    pub fn transcript(&self) -> Vec<Frame> {
        let mut frames = vec![Frame::Proposal(self.genesis.proposal.clone())];
        frames.extend(
            self.genesis
                .acceptances
                .iter()
                .cloned()
                .map(Frame::Acceptance),
        );
        let mut written = vec![0u64; self.seats.len()];
        // A seat's envelopes in sequence: those consumed, and, where
        // `buffered`, those buffered right after them. An abandonment's
        // claims can count before their authors' earlier envelopes are
        // consumed (a claim taken in stays after a rewind puts it back; 3.6),
        // and nothing is consumed once the game is over.
        let mut write_up_to = |frames: &mut Vec<Frame>, seat: usize, seq: u64, buffered: bool| {
            let state = &self.seats[seat];
            while written[seat] <= seq {
                let next = written[seat];
                let Some(envelope) = state.log.get(next as usize).or_else(|| {
                    let follows = |e: &&Signed| {
                        let before = next.checked_sub(1).and_then(|b| {
                            state.log.get(b as usize).or_else(|| state.buffer.get(&b))
                        });
                        e.envelope.prev == before.map(Signed::hash).unwrap_or_default()
                    };
                    buffered
                        .then(|| state.buffer.get(&next).filter(follows))
                        .flatten()
                }) else {
                    break;
                };
                frames.push(Frame::Envelope(envelope.clone()));
                written[seat] += 1;
            }
        };
        for record in &self.records {
            match record {
                Record::Action { seat, seq, .. } | Record::Resign { seat, seq } => {
                    write_up_to(&mut frames, seat.index(), *seq, false);
                }
                Record::Chance { reveals, .. } => {
                    for (seat, seq) in reveals.iter().enumerate() {
                        if let Some(seq) = seq {
                            write_up_to(&mut frames, seat, *seq, false);
                        }
                    }
                }
                Record::Forfeit { claims, .. } => {
                    for (claimant, seq) in claims {
                        write_up_to(&mut frames, usize::from(*claimant), *seq, false);
                    }
                }
                // Abandoned for the gone seats: no envelope made it. Of a
                // private step under way, what the seats still in gave is
                // written (a replay needs it: a resignation there applies
                // only once every seat the step waits on has resigned, so
                // only once their contributions are in); what a gone seat
                // gave may differ with arrival order, and is not (3.8).
                Record::Abandon { claims, .. } if claims.is_empty() => {
                    let mut under_way: Vec<(u8, u64)> = self
                        .dealing
                        .progress
                        .envelopes
                        .iter()
                        .copied()
                        .filter(|&(seat, _)| self.seats[usize::from(seat)].forfeited.is_none())
                        .collect();
                    under_way.sort_unstable();
                    for (seat, seq) in under_way {
                        write_up_to(&mut frames, usize::from(seat), seq, false);
                    }
                }
                Record::Abandon { stopped, claims } => {
                    // A private step under way when the game was abandoned
                    // (it ends the game, so the step is the deal's last):
                    // what it took in from a stopped seat, a key share
                    // among it, goes before the claims, so that a replay
                    // knows the seat held part of the deck key when they
                    // complete. A claimant's own contributions come with
                    // its claims, which follow them in its sequence: a peer
                    // bound by its own claim against that claimant may not
                    // have taken them in (3.6), yet they are the same
                    // envelopes everywhere.
                    let mut under_way: Vec<(u8, u64)> = self
                        .dealing
                        .progress
                        .envelopes
                        .iter()
                        .copied()
                        .filter(|&(seat, _)| stopped.contains(&Seat(seat)))
                        .collect();
                    under_way.sort_unstable();
                    for (seat, seq) in under_way {
                        write_up_to(&mut frames, usize::from(seat), seq, false);
                    }
                    for (claimant, _, seq) in claims {
                        write_up_to(&mut frames, usize::from(*claimant), *seq, true);
                    }
                }
                Record::Private { envelopes, .. } => {
                    for (seat, seq) in envelopes {
                        write_up_to(&mut frames, usize::from(*seat), *seq, false);
                    }
                }
                Record::Zombie { .. } => {}
            }
        }
        // After an abandonment for the gone seats nothing more is applied:
        // a seat's envelopes past its last input differ with arrival order.
        let for_the_gone = matches!(
            self.records.last(),
            Some(Record::Abandon { claims, .. }) if claims.is_empty()
        );
        // After an abandonment with claims, a table that went back to its
        // position (3.6) may hold a seat's later envelopes behind ones it
        // will never consume again: they are written as a table that never
        // went back consumed them.
        let after_claims = matches!(
            self.records.last(),
            Some(Record::Abandon { claims, .. }) if !claims.is_empty()
        );
        for seat in 0..self.seats.len() {
            if self.seats[seat].forfeited.is_none() && !for_the_gone {
                write_up_to(&mut frames, seat, u64::MAX, after_claims);
            }
        }
        frames
    }
}

/// Whether the envelope at `seq` of a seat's log is a reveal of its own (not
/// a reveal carried in an action).
fn carries_reveal_only(log: &[Signed], seq: u64) -> bool {
    log.get(seq as usize)
        .is_some_and(|e| matches!(e.envelope.body, Body::Reveal(_)))
}

/// Whether `record` applied an input of seat `accused` (its decision, its
/// reveal, or its resignation).
fn used_input_of<G: Game>(record: &Record<G>, accused: u8) -> bool {
    match record {
        Record::Action { seat, .. } | Record::Resign { seat, .. } => seat.0 == accused,
        Record::Chance { reveals, .. } => reveals
            .get(usize::from(accused))
            .is_some_and(Option::is_some),
        Record::Private { envelopes, .. } => envelopes.iter().any(|(s, _)| *s == accused),
        Record::Zombie { .. } | Record::Forfeit { .. } | Record::Abandon { .. } => false,
    }
}

/// Whether `seed` opens the seat's genesis chain and, through the seeds
/// derived from it, every continuation the seat announced (SPEC 2.4).
fn seed_opens_every_chain<'a>(
    seed: &[u8; 32],
    genesis: &crate::SeatInfo,
    mut continued: impl Iterator<Item = &'a ChainContinuation>,
) -> bool {
    chain_commitment(seed, genesis.chain_length).ok() == Some(genesis.chain_commitment)
        && continued.all(|c| {
            chain_commitment(&continuation_seed(seed, c.first_event), c.length).ok()
                == Some(c.commitment)
        })
}

/// The nonce of the local seat's secret choice `index`: derived from its
/// chain seed, which stays secret until the game is over, so the nonce is
/// unpredictable to others and the same after a restart.
fn secret_nonce(seed: &[u8; 32], index: u64) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(b"roundtable/secret-nonce/v1");
    h.update(seed);
    h.update(index.to_le_bytes());
    h.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PublicKey;

    /// The seed opening proves the continuations only when their chains grow
    /// from seeds derived from it: a seat that announced a chain of any
    /// other seed is caught when it opens its genesis seed.
    #[test]
    fn a_seed_opens_only_the_chains_derived_from_it() {
        let seed = [3; 32];
        let genesis_chain = ChainSecret::new(seed, 8).unwrap();
        let info = crate::SeatInfo {
            key: PublicKey([0; 32]),
            name: "p".into(),
            chain_commitment: genesis_chain.commitment(),
            chain_length: 8,
        };
        let derived = ChainSecret::continued(&seed, 9, 8).unwrap().continuation(9);
        let next = ChainSecret::continued(&seed, 17, 4)
            .unwrap()
            .continuation(17);
        assert!(seed_opens_every_chain(&seed, &info, [derived, next].iter()));
        let drawn_anew = ChainSecret::new([4; 32], 4).unwrap().continuation(17);
        assert!(!seed_opens_every_chain(
            &seed,
            &info,
            [derived, drawn_anew].iter()
        ));
        // Derived for another event than the one it starts at.
        let misderived = ChainSecret::continued(&seed, 18, 4)
            .unwrap()
            .continuation(17);
        assert!(!seed_opens_every_chain(
            &seed,
            &info,
            [derived, misderived].iter()
        ));
        assert!(!seed_opens_every_chain(&[5; 32], &info, std::iter::empty()));
    }
}
