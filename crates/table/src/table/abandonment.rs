//! Abandonment: when the claims prove that two or more seats stopped,
//! the game ends with them ranked last.

use roundtable_engine::{Game, Next, Seat};

use super::{Abandonment, Output, Record, Table, WentOn, precedence};
use crate::envelope::Body;

impl<G: Game> Table<G> {
    /// Whether the game is abandoned here (3.6). No single forfeit is
    /// complete (one always comes first), and the seats still in split
    /// into claimants and stopped seats: at least two stopped, none of them
    /// seen past this position unless `went_on` says such a seat counts as
    /// stopped, and every claimant claimed every stopped seat here. A seat claims another only when the game waited on it for
    /// a stall timeout, or when it stayed silent for [`CO_CLAIM_TIMEOUTS`]
    /// while the game waited on a seat it claimed, so what the claims
    /// prove does not depend on which envelopes a peer has seen. Returns
    /// the stopped seats and the claims that prove it.
    pub(super) fn abandonment(&self, went_on: WentOn) -> Option<Abandonment> {
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
    pub(super) fn best_abandonment(
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
    pub(super) fn finish_abandoned(&mut self) {
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
    pub(super) fn claim_before_being_stopped(&mut self, abandonment: &Abandonment) -> bool {
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
    pub(super) fn abandon(&mut self, abandonment: Abandonment) {
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
    pub(super) fn deal_left_to_one_seat(&self) -> bool {
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
    pub(super) fn abandon_for_the_gone(&mut self) {
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
}
