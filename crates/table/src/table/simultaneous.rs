//! Simultaneous choices: commitments, then openings, with the local
//! seat's secret choice and its nonce.

use roundtable_engine::{Game, RuleError, Seat};

use super::{Record, Table};
use crate::envelope::Body;
use crate::proof::Violation;

impl<G: Game> Table<G> {
    /// A simultaneous decision: every seat asked commits to its choice
    /// (`SecretCommit`), and only when all commitments are in does any seat
    /// open (`SecretOpen`); the opened choices are then applied in seat order.
    /// No seat can choose knowing another's choice.
    pub(super) fn step_simultaneous(&mut self, set: roundtable_engine::SeatSet) -> bool {
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
}

/// The nonce of the local seat's secret choice `index`: derived from its
/// chain seed, which stays secret until the game is over, so the nonce is
/// unpredictable to others and the same after a restart.
pub(super) fn secret_nonce(seed: &[u8; 32], index: u64) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(b"roundtable/secret-nonce/v1");
    h.update(seed);
    h.update(index.to_le_bytes());
    h.finalize().into()
}
