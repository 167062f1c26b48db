//! Unseen cards with shuffle epochs.
//!
//! Every shuffle opens an epoch whose unseen multiset is what went into the
//! shuffle. A face-down draw takes a count from the draw pile and leaves the
//! card unseen in its epoch; revealing any unseen card of an epoch (the top of
//! the draw pile, or a face-down card someone holds) is a uniform draw from
//! that epoch's unseen multiset.

use serde::{Deserialize, Serialize};

use crate::{Distribution, MULTISET_BLOCK};

// The small methods here are `#[inline]`: games call them at nearly every
// input, from another crate, and without the attribute each was a call that
// profiles of playouts showed on their own.

/// One shuffle of the deck, counted from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct EpochId(pub u16);

/// A card could not be revealed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    /// The epoch does not exist.
    #[error("there is no shuffle epoch {0}")]
    NoEpoch(u16),
    /// The card is not in the catalog.
    #[error("catalog index {0} is not a card of this game")]
    NoCard(u32),
    /// Every copy of that card in the epoch has already been seen.
    #[error("no unseen copy of catalog index {card} is left in epoch {epoch}")]
    NotUnseen {
        /// The epoch.
        epoch: u16,
        /// The card's catalog index.
        card: u32,
    },
    /// The draw pile is empty.
    #[error("the draw pile is empty")]
    EmptyDrawPile,
    /// A reshuffle was asked for while cards remain in the draw pile.
    #[error("the draw pile still holds {0} cards")]
    DrawPileNotEmpty(u32),
}

/// One epoch's unseen multiset. Serialised as its counts and total only:
/// the block sums follow from the counts and are worked out again when a
/// state is read back, so the encoding (and every state hash) is the one
/// the pool had before it kept them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "StoredEpoch")]
struct Epoch {
    unseen: Vec<u32>,
    total: u32,
    /// Sums of `unseen` in runs of [`MULTISET_BLOCK`], kept in step with it
    /// for [`Distribution::Multiset::blocks`].
    #[serde(skip)]
    blocks: Vec<u32>,
}

/// What an [`Epoch`] is serialised as.
#[derive(Deserialize)]
struct StoredEpoch {
    unseen: Vec<u32>,
    total: u32,
}

impl From<StoredEpoch> for Epoch {
    fn from(stored: StoredEpoch) -> Epoch {
        Epoch::new(stored.unseen, stored.total)
    }
}

impl Epoch {
    fn new(unseen: Vec<u32>, total: u32) -> Epoch {
        let blocks = unseen
            .chunks(MULTISET_BLOCK)
            .map(|run| run.iter().fold(0u32, |sum, &c| sum.saturating_add(c)))
            .collect();
        Epoch {
            unseen,
            total,
            blocks,
        }
    }
}

/// The unseen multiset of every shuffle epoch.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnseenPool {
    epochs: Vec<Epoch>,
}

impl UnseenPool {
    /// Open a new epoch whose unseen multiset is `counts` (per catalog index).
    pub fn open_epoch(&mut self, counts: Vec<u32>) -> EpochId {
        let total = counts.iter().sum();
        let id = EpochId(u16::try_from(self.epochs.len()).unwrap_or(u16::MAX));
        self.epochs.push(Epoch::new(counts, total));
        id
    }

    /// How many epochs have been opened.
    pub fn epoch_count(&self) -> usize {
        self.epochs.len()
    }

    #[inline]
    fn epoch(&self, epoch: EpochId) -> Result<&Epoch, PoolError> {
        self.epochs
            .get(usize::from(epoch.0))
            .ok_or(PoolError::NoEpoch(epoch.0))
    }

    /// The unseen multiset of `epoch` (empty for an unknown epoch).
    #[inline]
    pub fn unseen(&self, epoch: EpochId) -> &[u32] {
        self.epoch(epoch)
            .map(|e| e.unseen.as_slice())
            .unwrap_or(&[])
    }

    /// The sums of the unseen multiset of `epoch` in runs of
    /// [`MULTISET_BLOCK`] entries (empty for an unknown epoch).
    #[inline]
    pub fn unseen_blocks(&self, epoch: EpochId) -> &[u32] {
        self.epoch(epoch)
            .map(|e| e.blocks.as_slice())
            .unwrap_or(&[])
    }

    /// How many cards of `epoch` are still unseen.
    #[inline]
    pub fn unseen_total(&self, epoch: EpochId) -> u32 {
        self.epoch(epoch).map(|e| e.total).unwrap_or(0)
    }

    /// Check that `card` can be revealed from `epoch`, without changing anything.
    #[inline]
    pub fn check_reveal(&self, epoch: EpochId, card: u32) -> Result<(), PoolError> {
        let e = self.epoch(epoch)?;
        match e.unseen.get(card as usize) {
            None => Err(PoolError::NoCard(card)),
            Some(0) => Err(PoolError::NotUnseen {
                epoch: epoch.0,
                card,
            }),
            Some(_) => Ok(()),
        }
    }

    /// Reveal one unseen copy of `card` in `epoch`.
    #[inline]
    pub fn reveal(&mut self, epoch: EpochId, card: u32) -> Result<(), PoolError> {
        // The checks of `check_reveal`, made on the entry that changes: a
        // reveal looked the epoch and the card up twice.
        let e = self
            .epochs
            .get_mut(usize::from(epoch.0))
            .ok_or(PoolError::NoEpoch(epoch.0))?;
        match e.unseen.get_mut(card as usize) {
            None => Err(PoolError::NoCard(card)),
            Some(0) => Err(PoolError::NotUnseen {
                epoch: epoch.0,
                card,
            }),
            Some(n) => {
                *n -= 1;
                e.total -= 1;
                if let Some(sum) = e.blocks.get_mut(card as usize / MULTISET_BLOCK) {
                    *sum -= 1;
                }
                Ok(())
            }
        }
    }
}

/// A shuffled deck: the unseen pool plus the draw pile of the latest epoch.
///
/// The draw pile is only a count; which card is on top is decided by chance
/// when it is revealed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deck {
    pool: UnseenPool,
    draw_epoch: EpochId,
    draw_remaining: u32,
}

impl Deck {
    /// A freshly shuffled deck of `counts` cards per catalog index (epoch 0).
    pub fn new(counts: Vec<u32>) -> Deck {
        let mut pool = UnseenPool::default();
        let draw_epoch = pool.open_epoch(counts);
        let draw_remaining = pool.unseen_total(draw_epoch);
        Deck {
            pool,
            draw_epoch,
            draw_remaining,
        }
    }

    /// The unseen pool of every epoch.
    pub fn pool(&self) -> &UnseenPool {
        &self.pool
    }

    /// Cards left in the draw pile.
    #[inline]
    pub fn draw_pile(&self) -> u32 {
        self.draw_remaining
    }

    /// The epoch the draw pile belongs to.
    #[inline]
    pub fn draw_epoch(&self) -> EpochId {
        self.draw_epoch
    }

    /// Take the top card face down: only a count moves. Returns the card's
    /// epoch, or `None` when the draw pile is empty.
    #[inline]
    pub fn draw_face_down(&mut self) -> Option<EpochId> {
        if self.draw_remaining == 0 {
            return None;
        }
        self.draw_remaining -= 1;
        Some(self.draw_epoch)
    }

    /// Take up to `n` cards off the top face down, as many as the draw pile
    /// holds: the draw pile's epoch and how many were taken (none when the
    /// pile is empty). The same as that many [`Deck::draw_face_down`]s.
    #[inline]
    pub fn draw_face_down_up_to(&mut self, n: u32) -> (EpochId, u32) {
        let taken = n.min(self.draw_remaining);
        self.draw_remaining -= taken;
        (self.draw_epoch, taken)
    }

    /// The distribution of the top card of the draw pile.
    #[inline]
    pub fn top_distribution(&self) -> Distribution<'_> {
        self.held_distribution(self.draw_epoch)
    }

    /// The distribution of one unseen card of `epoch` held face down.
    #[inline]
    pub fn held_distribution(&self, epoch: EpochId) -> Distribution<'_> {
        Distribution::Multiset {
            counts: self.pool.unseen(epoch),
            total: self.pool.unseen_total(epoch),
            take: 1,
            blocks: self.pool.unseen_blocks(epoch),
        }
    }

    /// One unseen card of `epoch` drawn with `uniform` as
    /// [`crate::sim::sample_into`] draws it from [`Self::held_distribution`]
    /// (the same numbers asked of `uniform`, the same card); `None` if the
    /// epoch has no unseen card.
    #[inline]
    pub fn sample_held(&self, epoch: EpochId, uniform: &mut impl FnMut(u64) -> u64) -> Option<u32> {
        let card = crate::sim::draw_one(
            self.pool.unseen(epoch),
            self.pool.unseen_blocks(epoch),
            self.pool.unseen_total(epoch),
            uniform,
        )?;
        u32::try_from(card).ok()
    }

    /// Check that the top card can be revealed as `card`.
    #[inline]
    pub fn check_reveal_top(&self, card: u32) -> Result<(), PoolError> {
        if self.draw_remaining == 0 {
            return Err(PoolError::EmptyDrawPile);
        }
        self.pool.check_reveal(self.draw_epoch, card)
    }

    /// Reveal the top card of the draw pile as `card` and take it off the pile.
    #[inline]
    pub fn reveal_top(&mut self, card: u32) -> Result<(), PoolError> {
        // `check_reveal_top`'s checks, the pool's part made by the reveal.
        if self.draw_remaining == 0 {
            return Err(PoolError::EmptyDrawPile);
        }
        self.pool.reveal(self.draw_epoch, card)?;
        self.draw_remaining -= 1;
        Ok(())
    }

    /// Check that a face-down card of `epoch` can be revealed as `card`.
    #[inline]
    pub fn check_reveal_held(&self, epoch: EpochId, card: u32) -> Result<(), PoolError> {
        self.pool.check_reveal(epoch, card)
    }

    /// Reveal a face-down card of `epoch` that someone holds as `card`.
    #[inline]
    pub fn reveal_held(&mut self, epoch: EpochId, card: u32) -> Result<(), PoolError> {
        self.pool.reveal(epoch, card)
    }

    /// Shuffle the known cards `counts` into a new draw pile (a new epoch).
    /// The draw pile must be empty.
    pub fn reshuffle(&mut self, counts: Vec<u32>) -> Result<EpochId, PoolError> {
        if self.draw_remaining != 0 {
            return Err(PoolError::DrawPileNotEmpty(self.draw_remaining));
        }
        self.draw_epoch = self.pool.open_epoch(counts);
        self.draw_remaining = self.pool.unseen_total(self.draw_epoch);
        Ok(self.draw_epoch)
    }
}

/// Face-down cards someone holds (a coin pile, unseen cards on a discard
/// pile), counted per epoch.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaceDown {
    by_epoch: Vec<u32>,
    total: u32,
}

impl FaceDown {
    /// How many cards.
    #[inline]
    pub fn total(&self) -> u32 {
        self.total
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// How many cards of `epoch`.
    #[inline]
    pub fn count(&self, epoch: EpochId) -> u32 {
        self.by_epoch
            .get(usize::from(epoch.0))
            .copied()
            .unwrap_or(0)
    }

    /// Add `n` cards of `epoch`.
    #[inline]
    pub fn add(&mut self, epoch: EpochId, n: u32) {
        let i = usize::from(epoch.0);
        if self.by_epoch.len() <= i {
            self.by_epoch.resize(i + 1, 0);
        }
        self.by_epoch[i] += n;
        self.total += n;
    }

    /// The oldest epoch of which a card is held.
    #[inline]
    pub fn oldest(&self) -> Option<EpochId> {
        self.by_epoch
            .iter()
            .position(|&n| n > 0)
            .map(|i| EpochId(u16::try_from(i).unwrap_or(u16::MAX)))
    }

    /// Remove one card of the oldest epoch held and return that epoch.
    ///
    /// No rule reads the face of a face-down card, so which one leaves is a
    /// free choice; the oldest goes first so that old epochs retire early.
    #[inline]
    pub fn take_oldest(&mut self) -> Option<EpochId> {
        let epoch = self.oldest()?;
        self.by_epoch[usize::from(epoch.0)] -= 1;
        self.total -= 1;
        Some(epoch)
    }

    /// Move `n` cards (oldest first) to `other`; returns how many moved.
    pub fn move_to(&mut self, other: &mut FaceDown, n: u32) -> u32 {
        // Epoch by epoch rather than card by card: taxes and hires move
        // several coins at once, and each single move searched for the
        // oldest epoch again. The result is the same, oldest first.
        let mut moved = 0;
        for (e, held) in self.by_epoch.iter_mut().enumerate() {
            if moved == n {
                break;
            }
            let k = (*held).min(n - moved);
            if k > 0 {
                *held -= k;
                other.add(EpochId(u16::try_from(e).unwrap_or(u16::MAX)), k);
                moved += k;
            }
        }
        self.total -= moved;
        moved
    }

    /// Counts per epoch, indexed by epoch.
    #[inline]
    pub fn by_epoch(&self) -> &[u32] {
        &self.by_epoch
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn face_down_draws_move_counts_and_reveals_follow_their_epoch() {
        let mut deck = Deck::new(vec![2, 1]);
        let mut coins = FaceDown::default();
        coins.add(deck.draw_face_down().unwrap(), 1);
        assert_eq!(deck.draw_pile(), 2);
        // The coin is still unseen: the top card may be any of the three.
        assert_eq!(deck.top_distribution(), Distribution::multiset(&[2, 1], 1));
        deck.reveal_top(1).unwrap();
        assert_eq!(
            deck.reveal_top(1),
            Err(PoolError::NotUnseen { epoch: 0, card: 1 })
        );
        deck.reveal_top(0).unwrap();
        assert_eq!(deck.draw_pile(), 0);
        assert_eq!(deck.reveal_top(0), Err(PoolError::EmptyDrawPile));
        // The coin held face down can only be the remaining card 0.
        let epoch = coins.take_oldest().unwrap();
        assert_eq!(
            deck.held_distribution(epoch),
            Distribution::multiset(&[1, 0], 1)
        );
        deck.reveal_held(epoch, 0).unwrap();
        let e1 = deck.reshuffle(vec![1, 1]).unwrap();
        assert_eq!(e1, EpochId(1));
        assert_eq!(deck.draw_pile(), 2);
        assert_eq!(deck.reshuffle(vec![1]), Err(PoolError::DrawPileNotEmpty(2)));
    }

    #[test]
    fn drawing_up_to_n_takes_what_the_pile_holds_like_single_draws() {
        let mut bulk = Deck::new(vec![3, 2]);
        let mut single = bulk.clone();
        assert_eq!(bulk.draw_face_down_up_to(4), (EpochId(0), 4));
        for _ in 0..4 {
            assert_eq!(single.draw_face_down(), Some(EpochId(0)));
        }
        assert_eq!(bulk, single);
        assert_eq!(bulk.draw_face_down_up_to(3), (EpochId(0), 1));
        assert_eq!(bulk.draw_pile(), 0);
        assert_eq!(bulk.draw_face_down_up_to(2), (EpochId(0), 0));
    }

    /// The sums of runs a one-card draw skips by, as the sampler would add
    /// them up from the counts.
    fn runs(counts: &[u32]) -> Vec<u32> {
        counts
            .chunks(MULTISET_BLOCK)
            .map(|run| run.iter().sum())
            .collect()
    }

    #[test]
    fn block_sums_follow_reveals_and_are_not_part_of_the_encoding() {
        // Two whole runs and a partial one.
        let counts: Vec<u32> = (0..19).map(|i| i % 4).collect();
        let mut deck = Deck::new(counts.clone());
        for card in [0, 3, 9, 18, 18] {
            let _ = deck.reveal_top(card);
        }
        let Distribution::Multiset { counts, blocks, .. } = deck.top_distribution() else {
            panic!("the top card is drawn from a multiset");
        };
        assert_eq!(blocks, runs(counts).as_slice());

        // The pool encodes as it did before it kept sums: counts and total
        // per epoch. Decoding works the sums out again.
        #[derive(Serialize)]
        struct EpochBefore<'a> {
            unseen: &'a [u32],
            total: u32,
        }
        let before = [EpochBefore {
            unseen: counts,
            total: counts.iter().sum(),
        }];
        let encoded = postcard::to_allocvec(deck.pool()).ok();
        assert_eq!(encoded, postcard::to_allocvec(&(&before[..],)).ok());
        let decoded: Option<UnseenPool> = encoded
            .as_deref()
            .and_then(|bytes| postcard::from_bytes(bytes).ok());
        assert_eq!(decoded.as_ref(), Some(deck.pool()));
        let decoded = decoded.unwrap_or_default();
        assert_eq!(decoded.unseen_blocks(EpochId(0)), runs(counts).as_slice());
    }

    #[test]
    fn face_down_gives_oldest_first() {
        let mut a = FaceDown::default();
        a.add(EpochId(2), 1);
        a.add(EpochId(0), 2);
        let mut b = FaceDown::default();
        assert_eq!(a.move_to(&mut b, 5), 3);
        assert_eq!(b.by_epoch(), &[2, 0, 1]);
        assert_eq!(b.take_oldest(), Some(EpochId(0)));
        assert!(a.is_empty());
    }
}
