//! The end of the game: releasing chain seeds and checking every seat's
//! seed against its announced chains.

use roundtable_engine::{Game, Seat};
use roundtable_fairdeck::{ChainContinuation, chain_commitment, continuation_seed};

use super::{Output, Record, Table, private};
use crate::envelope::Body;
use crate::proof::Violation;

impl<G: Game> Table<G> {
    pub(super) fn step_over(&mut self) -> bool {
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
}

/// Whether `seed` opens the seat's genesis chain and, through the seeds
/// derived from it, every continuation the seat announced (SPEC 2.4).
pub(super) fn seed_opens_every_chain<'a>(
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

#[cfg(test)]
mod tests {
    use super::*;
    use roundtable_fairdeck::ChainSecret;

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
