//! The conservation check: every card, coin and cube in exactly one place.

use roundtable_engine::EpochId;

use super::player::Tally;
use super::{Effect, Phase, PortRoyal};
use crate::catalog::{CardId, CardKind, deck_counts};

impl PortRoyal {
    /// Check that every card is in exactly one place: each face-up card is
    /// counted where it lies (ships kept aside for Pack of Pirates too), and
    /// each epoch's unseen multiset has exactly as many cards as lie face
    /// down from that epoch (draw pile, coin piles, spent coins). With the
    /// expansion, every contract is face up or face down exactly once and
    /// every cube on exactly one contract ([`Self::check_contracts`]).
    /// Property tests and audits call this after every input.
    pub fn check_conservation(&self) -> Result<(), String> {
        self.check_contracts()?;
        let mut expected = deck_counts(self.options.expansion);
        if self.seats == 5 {
            for c in CardId::all() {
                if matches!(
                    c.kind(),
                    CardKind::Expedition {
                        five_players: true,
                        ..
                    }
                ) {
                    expected[usize::from(c.0)] += 1;
                }
            }
        }
        let mut found = self.discard_known.clone();
        let pending = match self.phase {
            Phase::Discover { pending_ship, .. } => pending_ship,
            _ => None,
        };
        // A tax card lies on the table until its bonus is paid.
        let resolving = self.effects.iter().filter_map(|e| match e {
            Effect::Discard(card) => Some(card),
            _ => None,
        });
        let face_up = self
            .harbor
            .iter()
            .chain(&self.expeditions)
            .chain(pending.iter())
            .chain(resolving)
            .chain(
                self.players
                    .iter()
                    .flat_map(|p| p.persons.iter().chain(&p.expeditions).chain(&p.kept_aside)),
            );
        for c in face_up {
            found[usize::from(c.0)] += 1;
        }
        let pool = self.deck.pool();
        for e in 0..pool.epoch_count() {
            let epoch = EpochId(e as u16);
            for (i, n) in pool.unseen(epoch).iter().enumerate() {
                found[i] += n;
            }
            let face_down = self
                .players
                .iter()
                .map(|p| p.coins.count(epoch))
                .sum::<u32>()
                + self.discard_unseen.count(epoch)
                + if epoch == self.deck.draw_epoch() {
                    self.deck.draw_pile()
                } else {
                    0
                };
            if face_down != pool.unseen_total(epoch) {
                return Err(format!(
                    "epoch {e}: {} unseen cards but {face_down} lie face down",
                    pool.unseen_total(epoch)
                ));
            }
        }
        for (seat, p) in self.players.iter().enumerate() {
            let mut tally = Tally::default();
            for &c in p.persons.iter().chain(&p.expeditions) {
                tally.add(c);
            }
            if tally != p.tally {
                return Err(format!(
                    "seat {}: the tally does not match the display",
                    seat + 1
                ));
            }
        }
        let known: u32 = self.discard_known.iter().sum();
        if known != self.discard_known_total {
            return Err(format!(
                "discard pile counts {known} face-up cards but records {}",
                self.discard_known_total
            ));
        }
        for c in CardId::all() {
            let i = usize::from(c.0);
            if found[i] != expected[i] {
                return Err(format!(
                    "{c}: {} in play, {} in the game",
                    found[i], expected[i]
                ));
            }
        }
        Ok(())
    }
}
