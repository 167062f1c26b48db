//! Stall claims (protocol/SPEC.md 3.6): noting them, the run of forfeits
//! they count in, when they are complete, and pruning settled ones.

use std::collections::BTreeMap;

use roundtable_engine::{Game, Seat};

use super::{Record, Table};
use crate::Hash32;

impl<G: Game> Table<G> {
    /// Seats still in whose claim the local seat's own claims here lack:
    /// every other seat must claim a stalled seat for it to forfeit, so a
    /// seat still silent [`CO_CLAIM_TIMEOUTS`] stall timeouts after the
    /// position began is claimed too. That is how a game where several
    /// seats stopped at once reaches an end (an abandonment, 3.6) instead of
    /// hanging.
    pub(super) fn silent_co_claimants(&self, me: Seat) -> Vec<Seat> {
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

    /// The position below which every claim is settled: every seat showed
    /// an envelope signed at or past it, so a claim it signs for an earlier
    /// position no longer counts (`consume_side_envelopes`), and no claims
    /// there can complete any more; the run of forfeits the table is in, and
    /// an abandonment that can still be overtaken, still read theirs.
    pub(super) fn claims_settled_below(&self) -> u64 {
        let shown = self.seats.iter().map(|s| s.furthest).min().unwrap_or(0);
        let kept = self
            .abandoned_at
            .map_or(u64::MAX, |(p, _)| self.forfeit_run_before(p));
        shown.min(self.forfeit_run_start()).min(kept)
    }

    /// Forget the claims at settled positions (3.6): what a forfeit, a
    /// rewind or an abandonment can still need stays, the rest would only
    /// grow with the game.
    pub(super) fn prune_settled_claims(&mut self) {
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

    /// The first position of the run of forfeits that ends at the current
    /// position: claims signed anywhere in it count here (3.6).
    pub(super) fn forfeit_run_start(&self) -> u64 {
        self.forfeit_run_before(self.position())
    }

    /// The first position of the run of forfeits that ends at `position`.
    pub(super) fn forfeit_run_before(&self, position: u64) -> u64 {
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
    pub(super) fn claim_in_run(&self, claimant: u8, accused: u8) -> Option<u64> {
        self.claim_in_run_at(self.position(), claimant, accused)
    }

    /// The same for the run of forfeits that ends at `position`.
    pub(super) fn claim_in_run_at(&self, position: u64, claimant: u8, accused: u8) -> Option<u64> {
        (self.forfeit_run_before(position)..=position)
            .rev()
            .find_map(|q| self.claims.get(&(accused, q))?.get(&claimant))
            .map(|(seq, _)| *seq)
    }

    /// Whether `seat` has shown, by an envelope it signed at a later
    /// position, that it went past `position` (see [`WentOn`]).
    pub(super) fn shown_past(&self, seat: u8, position: u64) -> bool {
        let s = &self.seats[usize::from(seat)];
        s.log
            .iter()
            .chain((s.next_seq()..).map_while(|q| s.buffer.get(&q)))
            .any(|e| e.envelope.position > position)
    }

    pub(super) fn note_claim(
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
    pub(super) fn claims_complete(&self, accused: Seat) -> Option<Vec<(u8, u64)>> {
        (self.forfeit_run_start()..=self.position())
            .rev()
            .find_map(|q| self.claims_complete_at(accused.0, q))
    }

    /// Whether the seats needed for a forfeit of `accused` at `position` (all
    /// seats still in there, other than the accused) have all claimed it.
    pub(super) fn claims_complete_at(&self, accused: u8, position: u64) -> Option<Vec<(u8, u64)>> {
        self.claims_complete_among(accused, position, false)
    }

    /// The claims against `accused` at `position` from every seat still in
    /// there other than the accused, if all are in (at least one is needed).
    /// With `before_forfeits_there`, seats forfeited at `position` itself
    /// count as still in: the tie of two seats that forfeited each other
    /// there is judged on the claims made before either forfeit.
    pub(super) fn claims_complete_among(
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
}
