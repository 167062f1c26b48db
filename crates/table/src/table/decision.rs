//! Decisions: recording inputs and forfeits, a seat's decision step, the
//! local seat's actions and the reveals that answer them.

use roundtable_engine::{Game, Next, RuleError, Seat};

use super::{Output, Record, Table};
use crate::Hash32;
use crate::envelope::{Body, Reveal, Signed};
use crate::proof::Violation;

impl<G: Game> Table<G> {
    pub(super) fn record(&mut self, record: Record<G>, events: Vec<G::Event>) {
        let position = self.position();
        self.records.push(record.clone());
        self.hashes.push(Hash32(self.game.state_hash().0));
        self.outputs.push_back(Output::Applied {
            position,
            record,
            events,
        });
    }

    pub(super) fn forfeit(&mut self, seat: Seat, record: Record<G>, reason: &'static str) {
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

    pub(super) fn step_decision(&mut self, seat: Seat) -> bool {
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
    pub(super) fn author_action(&mut self, seat: Seat, action: G::Action) -> bool {
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
    pub(super) fn accept_reveal(
        &mut self,
        seat: Seat,
        signed: &Signed,
        seq: u64,
        reveal: Reveal,
    ) -> bool {
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
}
