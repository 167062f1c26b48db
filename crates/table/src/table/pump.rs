//! The pump: applying whatever the buffered envelopes allow, step after
//! step, and what the game waits for at a position.

use roundtable_engine::{Game, Next, Seat};

use super::{Record, Table, WentOn, private};
use crate::envelope::Body;

impl<G: Game> Table<G> {
    /// Apply everything that can be applied, in the order the game asks for it.
    pub(super) fn pump(&mut self, now: u64) {
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

    /// The local seat's own resignation, once the game waits for the seat:
    /// the table signs it straight into its log, where no step consumes it
    /// as it does another seat's, so it is applied here, at the point where
    /// every other table applies it.
    pub(super) fn local_resignation_due(&self) -> Option<(Seat, u64)> {
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
    pub(super) fn waited_on(&self) -> Vec<Seat> {
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
}
