//! Taking envelopes in: checks, buffers per seat, equivocation, the
//! position check, and the side envelopes (stall claims, continuations).

use roundtable_engine::{Game, Seat};

use super::{Output, Table};
use crate::envelope::{Body, Signed};
use crate::proof::Violation;
use crate::{Hash32, TableError};

impl<G: Game> Table<G> {
    /// Check an envelope and put it into its seat's buffer. Returns whether
    /// it was new.
    pub(super) fn ingest(
        &mut self,
        signed: Signed,
        signature_checked: bool,
    ) -> Result<bool, TableError> {
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
    pub(super) fn equivocation(&self, signed: &Signed) -> Option<Violation> {
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
    pub(super) fn consume(&mut self, seat: usize) -> Option<Signed> {
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

    pub(super) fn fail(&mut self, violation: Violation) {
        if self.failed.is_none() {
            self.failed = Some(violation.clone());
            self.outputs
                .push_back(Output::Violation(Box::new(violation)));
        }
    }

    /// Take in the envelopes that are not game inputs (stall claims and
    /// chain continuations) that are next in their authors' sequences.
    pub(super) fn consume_side_envelopes(&mut self) {
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

    /// Check that `signed` was written at the current position on the same
    /// state; otherwise fail with the proof.
    pub(super) fn check_position(&mut self, signed: &Signed) -> bool {
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
}
