//! Chance steps: the reveals every seat owes for a chance outcome and
//! the beacon that turns them into one.

use roundtable_engine::{Game, Next, Seat};
use roundtable_fairdeck::beacon;

use super::{Record, Table};
use crate::chance;
use crate::envelope::Body;
use crate::proof::Violation;

impl<G: Game> Table<G> {
    pub(super) fn step_chance(&mut self) -> bool {
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

    pub(super) fn resolve_chance(&mut self, event: u64) -> bool {
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
}
