//! The transcript in order: every applied record's envelopes, as an
//! auditor replays them.

use roundtable_engine::{Game, Seat};

use super::{Record, Table};
use crate::envelope::Signed;
use crate::transcript::Frame;

impl<G: Game> Table<G> {
    /// The canonical transcript: genesis, acceptances, then every envelope in
    /// applied order (an input's envelopes right after the author's earlier
    /// unwritten ones), then the seed openings. Honest peers with the same
    /// applied inputs produce identical frames, whatever the arrival order.
    pub fn transcript(&self) -> Vec<Frame> {
        let mut frames = vec![Frame::Proposal(self.genesis.proposal.clone())];
        frames.extend(
            self.genesis
                .acceptances
                .iter()
                .cloned()
                .map(Frame::Acceptance),
        );
        let mut written = vec![0u64; self.seats.len()];
        // A seat's envelopes in sequence: those consumed, and, where
        // `buffered`, those buffered right after them. An abandonment's
        // claims can count before their authors' earlier envelopes are
        // consumed (a claim taken in stays after a rewind puts it back; 3.6),
        // and nothing is consumed once the game is over.
        let mut write_up_to = |frames: &mut Vec<Frame>, seat: usize, seq: u64, buffered: bool| {
            let state = &self.seats[seat];
            while written[seat] <= seq {
                let next = written[seat];
                let Some(envelope) = state.log.get(next as usize).or_else(|| {
                    let follows = |e: &&Signed| {
                        let before = next.checked_sub(1).and_then(|b| {
                            state.log.get(b as usize).or_else(|| state.buffer.get(&b))
                        });
                        e.envelope.prev == before.map(Signed::hash).unwrap_or_default()
                    };
                    buffered
                        .then(|| state.buffer.get(&next).filter(follows))
                        .flatten()
                }) else {
                    break;
                };
                frames.push(Frame::Envelope(envelope.clone()));
                written[seat] += 1;
            }
        };
        for record in &self.records {
            match record {
                Record::Action { seat, seq, .. } | Record::Resign { seat, seq } => {
                    write_up_to(&mut frames, seat.index(), *seq, false);
                }
                Record::Chance { reveals, .. } => {
                    for (seat, seq) in reveals.iter().enumerate() {
                        if let Some(seq) = seq {
                            write_up_to(&mut frames, seat, *seq, false);
                        }
                    }
                }
                Record::Forfeit { claims, .. } => {
                    for (claimant, seq) in claims {
                        write_up_to(&mut frames, usize::from(*claimant), *seq, false);
                    }
                }
                // Abandoned for the gone seats: no envelope made it. Of a
                // private step under way, what the seats still in gave is
                // written (a replay needs it: a resignation there applies
                // only once every seat the step waits on has resigned, so
                // only once their contributions are in); what a gone seat
                // gave may differ with arrival order, and is not (3.8).
                Record::Abandon { claims, .. } if claims.is_empty() => {
                    let mut under_way: Vec<(u8, u64)> = self
                        .dealing
                        .progress
                        .envelopes
                        .iter()
                        .copied()
                        .filter(|&(seat, _)| self.seats[usize::from(seat)].forfeited.is_none())
                        .collect();
                    under_way.sort_unstable();
                    for (seat, seq) in under_way {
                        write_up_to(&mut frames, usize::from(seat), seq, false);
                    }
                }
                Record::Abandon { stopped, claims } => {
                    // A private step under way when the game was abandoned
                    // (it ends the game, so the step is the deal's last):
                    // what it took in from a stopped seat, a key share
                    // among it, goes before the claims, so that a replay
                    // knows the seat held part of the deck key when they
                    // complete. A claimant's own contributions come with
                    // its claims, which follow them in its sequence: a peer
                    // bound by its own claim against that claimant may not
                    // have taken them in (3.6), yet they are the same
                    // envelopes everywhere.
                    let mut under_way: Vec<(u8, u64)> = self
                        .dealing
                        .progress
                        .envelopes
                        .iter()
                        .copied()
                        .filter(|&(seat, _)| stopped.contains(&Seat(seat)))
                        .collect();
                    under_way.sort_unstable();
                    for (seat, seq) in under_way {
                        write_up_to(&mut frames, usize::from(seat), seq, false);
                    }
                    for (claimant, _, seq) in claims {
                        write_up_to(&mut frames, usize::from(*claimant), *seq, true);
                    }
                }
                Record::Private { envelopes, .. } => {
                    for (seat, seq) in envelopes {
                        write_up_to(&mut frames, usize::from(*seat), *seq, false);
                    }
                }
                Record::Zombie { .. } => {}
            }
        }
        // After an abandonment for the gone seats nothing more is applied:
        // a seat's envelopes past its last input differ with arrival order.
        let for_the_gone = matches!(
            self.records.last(),
            Some(Record::Abandon { claims, .. }) if claims.is_empty()
        );
        // After an abandonment with claims, a table that went back to its
        // position (3.6) may hold a seat's later envelopes behind ones it
        // will never consume again: they are written as a table that never
        // went back consumed them.
        let after_claims = matches!(
            self.records.last(),
            Some(Record::Abandon { claims, .. }) if !claims.is_empty()
        );
        for seat in 0..self.seats.len() {
            if self.seats[seat].forfeited.is_none() && !for_the_gone {
                write_up_to(&mut frames, seat, u64::MAX, after_claims);
            }
        }
        frames
    }
}
