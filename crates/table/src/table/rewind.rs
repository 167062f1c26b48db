//! Forfeits written past: going back to a position this table already
//! passed, and which inputs a claimed seat may still have applied.

use roundtable_engine::{Game, Next, Seat};
use roundtable_fairdeck::ChainTracker;

use super::{Output, Record, Table, WentOn, precedence};
use crate::envelope::{Body, Signed};

impl<G: Game> Table<G> {
    /// A forfeit completed at a position this table has already passed with
    /// the accused's own input. That happens only to the accused itself (it
    /// applies its own decision at once) or to an observer that saw the input
    /// before the claims: every seat that signed a claim refused the input,
    /// and all other seats signed, so no seat still in the game applied it.
    /// Go back to that position by replaying the records before it; the pump
    /// then applies the forfeit there, as every other peer does.
    pub(super) fn rewind_for_forfeit(&mut self) -> bool {
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
    pub(super) fn rewind(&mut self, position: u64) {
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
            let replayed = record.apply_to(&mut game, &mut events);
            debug_assert!(replayed.is_ok(), "a rewind replays a refused input");
            match record {
                Record::Action { seat, seq, .. } => {
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
                Record::Chance { event, reveals, .. } => {
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
                Record::Zombie { .. }
                | Record::Private { .. }
                | Record::Forfeit { .. }
                | Record::Resign { .. }
                | Record::Abandon { .. } => {}
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
    pub(super) fn input_allowed(&self, seat: Seat) -> bool {
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
    pub(super) fn written_past_a_forfeit(&self, author: usize) -> bool {
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
    pub(super) fn applied_input_at(&self, author: usize, accused: Seat, position: u64) -> bool {
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
}

/// Whether the envelope at `seq` of a seat's log is a reveal of its own (not
/// a reveal carried in an action).
pub(super) fn carries_reveal_only(log: &[Signed], seq: u64) -> bool {
    log.get(seq as usize)
        .is_some_and(|e| matches!(e.envelope.body, Body::Reveal(_)))
}

/// Whether `record` applied an input of seat `accused` (its decision, its
/// reveal, or its resignation).
pub(super) fn used_input_of<G: Game>(record: &Record<G>, accused: u8) -> bool {
    match record {
        Record::Action { seat, .. } | Record::Resign { seat, .. } => seat.0 == accused,
        Record::Chance { reveals, .. } => reveals
            .get(usize::from(accused))
            .is_some_and(Option::is_some),
        Record::Private { envelopes, .. } => envelopes.iter().any(|(s, _)| *s == accused),
        Record::Zombie { .. } | Record::Forfeit { .. } | Record::Abandon { .. } => false,
    }
}
