//! Beacons: one 32-byte value per chance event, from every seat's reveal.
//!
//! `b_k = SHA256(domain || game_id || k as u64 LE || reveal_k of each seat in seat order)`.
//! The domain is `roundtable/beacon/v1` while every seat takes part. When
//! seats have forfeited, their reveals are left out and the domain lists them:
//! `roundtable/beacon-forfeited/v1:` followed by the forfeited seat indices
//! (from 0, ascending, ASCII decimal, separated by `,`) and a closing `;`,
//! for example `roundtable/beacon-forfeited/v1:1,3;`.

use sha2::{Digest, Sha256};

use crate::FairdeckError;

/// The beacon's domain string when no seat has forfeited.
pub const BEACON_DOMAIN: &[u8] = b"roundtable/beacon/v1";

/// The start of the beacon's domain string when some seats have forfeited;
/// the seat list and a closing `;` follow.
///
/// It differs from [`BEACON_DOMAIN`] within their first 18 bytes (`-` where
/// the other has `/`), so no message of one form equals a message of the
/// other, whatever the game id.
pub const FORFEIT_BEACON_PREFIX: &[u8] = b"roundtable/beacon-forfeited/v1:";

/// The domain string for a beacon with these reveals (`None` = forfeited).
pub fn beacon_domain(reveals: &[Option<[u8; 32]>]) -> Vec<u8> {
    let forfeited: Vec<String> = reveals
        .iter()
        .enumerate()
        .filter(|(_, r)| r.is_none())
        .map(|(seat, _)| seat.to_string())
        .collect();
    if forfeited.is_empty() {
        return BEACON_DOMAIN.to_vec();
    }
    let mut domain = FORFEIT_BEACON_PREFIX.to_vec();
    domain.extend_from_slice(forfeited.join(",").as_bytes());
    domain.push(b';');
    domain
}

/// The beacon of chance event `event` (counted from 1) of game `game_id`.
///
/// `reveals` has one entry per seat in seat order: that seat's reveal for
/// this event, or `None` if the seat has forfeited. The caller makes sure
/// every reveal was checked against its chain and that at least one seat is
/// still in; [`EventReveals`] does that bookkeeping and refuses the rest.
pub fn beacon(game_id: &[u8; 32], event: u64, reveals: &[Option<[u8; 32]>]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(beacon_domain(reveals));
    h.update(game_id);
    h.update(event.to_le_bytes());
    for reveal in reveals.iter().flatten() {
        h.update(reveal);
    }
    h.finalize().into()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Waiting,
    Revealed([u8; 32]),
    Forfeited,
}

/// The reveals collected for one chance event, seat by seat.
///
/// It refuses unknown seats, a second different reveal, and reveals from
/// seats that forfeited, and computes the beacon only when every seat has
/// either revealed or forfeited and at least one has revealed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventReveals {
    event: u64,
    slots: Vec<Slot>,
}

impl EventReveals {
    /// Start collecting for `event` at a table of `seats` seats.
    pub fn new(event: u64, seats: u8) -> Result<Self, FairdeckError> {
        if seats == 0 {
            return Err(FairdeckError::NoSeats);
        }
        Ok(EventReveals {
            event,
            slots: vec![Slot::Waiting; usize::from(seats)],
        })
    }

    /// The event these reveals are for.
    pub fn event(&self) -> u64 {
        self.event
    }

    fn slot(&mut self, seat: u8) -> Result<&mut Slot, FairdeckError> {
        let seats = self.slots.len() as u8;
        self.slots
            .get_mut(usize::from(seat))
            .ok_or(FairdeckError::UnknownSeat { seat, seats })
    }

    /// Record `seat`'s reveal (already checked against its chain).
    ///
    /// Returns `true` if it is new and `false` for an identical repeat (gossip
    /// may deliver a message twice).
    pub fn reveal(&mut self, seat: u8, reveal: [u8; 32]) -> Result<bool, FairdeckError> {
        let slot = self.slot(seat)?;
        match *slot {
            Slot::Waiting => {
                *slot = Slot::Revealed(reveal);
                Ok(true)
            }
            Slot::Revealed(earlier) if earlier == reveal => Ok(false),
            Slot::Revealed(_) => Err(FairdeckError::DuplicateReveal { seat }),
            Slot::Forfeited => Err(FairdeckError::SeatForfeited { seat }),
        }
    }

    /// Record that `seat` has forfeited: its reveal is left out of the beacon.
    ///
    /// A seat that has already revealed for this event cannot be left out of
    /// it any more. Marking a forfeited seat again changes nothing.
    pub fn forfeit(&mut self, seat: u8) -> Result<(), FairdeckError> {
        let slot = self.slot(seat)?;
        match *slot {
            Slot::Revealed(_) => Err(FairdeckError::AlreadyRevealed { seat }),
            Slot::Waiting | Slot::Forfeited => {
                *slot = Slot::Forfeited;
                Ok(())
            }
        }
    }

    /// The seats (from 0) that have neither revealed nor forfeited.
    pub fn missing(&self) -> Vec<u8> {
        (0..self.slots.len())
            .filter(|&i| self.slots[i] == Slot::Waiting)
            .map(|i| i as u8)
            .collect()
    }

    /// Whether every seat has revealed or forfeited.
    pub fn is_complete(&self) -> bool {
        !self.slots.contains(&Slot::Waiting)
    }

    /// The reveals in seat order, `None` for forfeited seats, once complete.
    pub fn reveals(&self) -> Result<Vec<Option<[u8; 32]>>, FairdeckError> {
        if let Some(seat) = self.missing().first() {
            return Err(FairdeckError::MissingReveal { seat: *seat });
        }
        let reveals: Vec<Option<[u8; 32]>> = self
            .slots
            .iter()
            .map(|s| match s {
                Slot::Revealed(r) => Some(*r),
                Slot::Waiting | Slot::Forfeited => None,
            })
            .collect();
        if reveals.iter().all(Option::is_none) {
            return Err(FairdeckError::AllForfeited);
        }
        Ok(reveals)
    }

    /// The beacon for this event of `game_id`, once every seat has revealed or
    /// forfeited.
    pub fn beacon(&self, game_id: &[u8; 32]) -> Result<[u8; 32], FairdeckError> {
        Ok(beacon(game_id, self.event, &self.reveals()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domain_lists_forfeited_seats() {
        let r = Some([1u8; 32]);
        assert_eq!(beacon_domain(&[r, r, r]), b"roundtable/beacon/v1");
        assert_eq!(
            beacon_domain(&[r, None, r, None]),
            b"roundtable/beacon-forfeited/v1:1,3;"
        );
        assert_eq!(beacon_domain(&[None]), b"roundtable/beacon-forfeited/v1:0;");
        let mut twelve = vec![r; 12];
        twelve[10] = None;
        assert_eq!(
            beacon_domain(&twelve),
            b"roundtable/beacon-forfeited/v1:10;"
        );
    }

    #[test]
    fn forfeiting_changes_the_beacon() {
        let (a, b) = ([1u8; 32], [2u8; 32]);
        let g = [0u8; 32];
        let all = beacon(&g, 1, &[Some(a), Some(b)]);
        assert_ne!(all, beacon(&g, 1, &[Some(a), None]));
        assert_ne!(
            beacon(&g, 1, &[Some(a), None]),
            beacon(&g, 1, &[None, Some(a)])
        );
        assert_ne!(all, beacon(&g, 2, &[Some(a), Some(b)]));
        assert_ne!(all, beacon(&[1; 32], 1, &[Some(a), Some(b)]));
        assert_ne!(all, beacon(&g, 1, &[Some(b), Some(a)]));
    }

    #[test]
    fn event_reveals_bookkeeping() -> Result<(), FairdeckError> {
        assert_eq!(EventReveals::new(1, 0), Err(FairdeckError::NoSeats));
        let g = [5u8; 32];
        let mut e = EventReveals::new(9, 3)?;
        assert_eq!(e.event(), 9);
        assert_eq!(e.missing(), vec![0, 1, 2]);
        assert_eq!(e.beacon(&g), Err(FairdeckError::MissingReveal { seat: 0 }));
        assert_eq!(
            e.reveal(3, [0; 32]),
            Err(FairdeckError::UnknownSeat { seat: 3, seats: 3 })
        );
        assert_eq!(
            e.forfeit(200),
            Err(FairdeckError::UnknownSeat {
                seat: 200,
                seats: 3
            })
        );
        assert_eq!(e.reveal(0, [1; 32]), Ok(true));
        assert_eq!(e.reveal(0, [1; 32]), Ok(false));
        assert_eq!(
            e.reveal(0, [2; 32]),
            Err(FairdeckError::DuplicateReveal { seat: 0 })
        );
        assert_eq!(
            e.forfeit(0),
            Err(FairdeckError::AlreadyRevealed { seat: 0 })
        );
        e.forfeit(1)?;
        e.forfeit(1)?;
        assert_eq!(
            e.reveal(1, [1; 32]),
            Err(FairdeckError::SeatForfeited { seat: 1 })
        );
        assert!(!e.is_complete());
        assert_eq!(e.beacon(&g), Err(FairdeckError::MissingReveal { seat: 2 }));
        e.reveal(2, [3; 32])?;
        assert!(e.is_complete());
        assert_eq!(
            e.beacon(&g)?,
            beacon(&g, 9, &[Some([1; 32]), None, Some([3; 32])])
        );
        let mut gone = EventReveals::new(1, 2)?;
        gone.forfeit(0)?;
        gone.forfeit(1)?;
        assert_eq!(gone.beacon(&g), Err(FairdeckError::AllForfeited));
        Ok(())
    }
}
