//! Hash chains: one committed tip per seat, one revealed link per chance event.
//!
//! `x_0 = SHA256("roundtable/chain/v1" || seed)`, `x_{j+1} = SHA256(x_j)`,
//! commitment `x_L`, reveal `k` (for `k = 1..=L`) is `x_{L-k}`. Each reveal is
//! the unique preimage of the one before it, so once the tip is committed a
//! seat's only freedom is to stop revealing.

use std::fmt;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use zeroize::Zeroize;

use crate::FairdeckError;

/// Domain string hashed before the seed to make link 0.
pub const CHAIN_DOMAIN: &[u8] = b"roundtable/chain/v1";

/// Domain string hashed before a seat's genesis seed and an event number to
/// make the seed of the chain that continues its chains from that event.
pub const CONTINUATION_SEED_DOMAIN: &[u8] = b"roundtable/chain-continuation/v1";

/// The longest chain this implementation builds or verifies.
///
/// A peer can name any length in its genesis or continuation; refusing more
/// than 2^20 links (about 50 ms of hashing with SHA extensions, a few times
/// that without) keeps a hostile length from becoming a denial of service,
/// and is 256 times the length a Port Royal game uses.
pub const MAX_CHAIN_LENGTH: u64 = 1 << 20;

/// The chain length a seat commits to, in every game of the list.
///
/// It was chosen for Port Royal, the game with the most chance events: a
/// Port Royal game raises one chance event for the start player, one per
/// card revealed from the draw pile, and one per epoch of spent coins revealed
/// at a reshuffle. In 80,000 simulated games between random-move players (2 to
/// 5 seats) the median was 155 to 281 events and the longest game 562. 4096 is
/// seven times that longest game, costs about 0.2 ms to build, and a game that
/// still outlives it continues with a fresh signed commitment
/// ([`ChainContinuation`]) instead of failing.
pub const DEFAULT_CHAIN_LENGTH: u64 = 4096;

/// How many links lie between two stored checkpoints by default.
///
/// With `C = 64` a seat stores `ceil(L / 64)` links (2 KiB for a 4096-link
/// chain, instead of 128 KiB for all of them) and computes a reveal with at
/// most 63 hashes (about 1.5 µs on average, 3 µs at worst).
pub const DEFAULT_CHECKPOINT_INTERVAL: u64 = 64;

/// The first link of the chain grown from `seed`: `SHA256(CHAIN_DOMAIN || seed)`.
pub fn chain_start(seed: &[u8; 32]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(CHAIN_DOMAIN);
    h.update(seed);
    h.finalize().into()
}

/// The seed of a seat's chain that answers events from `first_event` on:
/// `SHA256(CONTINUATION_SEED_DOMAIN || genesis_seed || first_event u64 LE)`.
///
/// Deriving it, instead of drawing a fresh one, is what lets one opening of
/// the genesis seed after the game prove every chain the seat committed to,
/// and it fixes every later chain at genesis: a seat cannot pick its next
/// chain after seeing anything of the game. It stays as secret as the
/// genesis seed it comes from.
pub fn continuation_seed(genesis_seed: &[u8; 32], first_event: u64) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(CONTINUATION_SEED_DOMAIN);
    h.update(genesis_seed);
    h.update(first_event.to_le_bytes());
    h.finalize().into()
}

/// One step along a chain: `SHA256(link)`.
pub fn next_link(link: &[u8; 32]) -> [u8; 32] {
    Sha256::digest(link).into()
}

/// `steps` applications of [`next_link`] to `link`.
fn walk(mut link: [u8; 32], steps: u64) -> [u8; 32] {
    for _ in 0..steps {
        link = next_link(&link);
    }
    link
}

fn check_length(length: u64) -> Result<(), FairdeckError> {
    if length == 0 || length > MAX_CHAIN_LENGTH {
        return Err(FairdeckError::ChainLength {
            length,
            max: MAX_CHAIN_LENGTH,
        });
    }
    Ok(())
}

/// The commitment (tip `x_L`) of the chain with this seed and length.
pub fn chain_commitment(seed: &[u8; 32], length: u64) -> Result<[u8; 32], FairdeckError> {
    check_length(length)?;
    Ok(walk(chain_start(seed), length))
}

/// A seat's own chain: the secret seed and enough links to answer every reveal.
///
/// Only every `C`-th link is kept (a *checkpoint*): the memory is
/// `ceil(L / C) * 32` bytes, and a reveal costs at most `C - 1` hashes from the
/// nearest checkpoint below it. Building the chain costs `L + 1` hashes once.
///
/// `Debug` does not print the seed, which must stay secret until the game is
/// over, and dropping the value wipes the seed and every link it keeps: the
/// seed is the root of every secret a seat has in a game (the private deal's
/// key share and nonces derive from it, protocol/SPEC.md 5.16), and a link
/// not yet revealed gives away the seat's future reveals.
#[derive(Clone)]
pub struct ChainSecret {
    seed: [u8; 32],
    length: u64,
    interval: u64,
    /// `checkpoints[i] = x_{i * interval}` for every `i * interval < length`.
    checkpoints: Vec<[u8; 32]>,
    commitment: [u8; 32],
}

impl Drop for ChainSecret {
    fn drop(&mut self) {
        self.seed.zeroize();
        self.checkpoints.zeroize();
    }
}

impl zeroize::ZeroizeOnDrop for ChainSecret {}

impl fmt::Debug for ChainSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChainSecret")
            .field("seed", &"<secret>")
            .field("length", &self.length)
            .field("checkpoint_interval", &self.interval)
            .field("commitment", &crate::hex32(&self.commitment))
            .finish()
    }
}

impl ChainSecret {
    /// Build a chain of `length` links from `seed` with the default checkpoint
    /// interval ([`DEFAULT_CHECKPOINT_INTERVAL`]).
    ///
    /// The seed must come from a cryptographically secure source (the OS) and
    /// must not be reused for another chain.
    pub fn new(seed: [u8; 32], length: u64) -> Result<Self, FairdeckError> {
        Self::with_checkpoint_interval(seed, length, DEFAULT_CHECKPOINT_INTERVAL)
    }

    /// Build a chain keeping every `interval`-th link.
    ///
    /// `interval = 1` keeps every link (fastest reveals, `32 * L` bytes);
    /// `interval >= length` keeps only `x_0` (32 bytes, up to `L - 1` hashes
    /// per reveal).
    pub fn with_checkpoint_interval(
        seed: [u8; 32],
        length: u64,
        interval: u64,
    ) -> Result<Self, FairdeckError> {
        check_length(length)?;
        if interval == 0 {
            return Err(FairdeckError::CheckpointInterval);
        }
        let mut checkpoints = Vec::with_capacity(length.div_ceil(interval) as usize);
        let mut link = chain_start(&seed);
        for j in 0..length {
            if j % interval == 0 {
                checkpoints.push(link);
            }
            link = next_link(&link);
        }
        Ok(ChainSecret {
            seed,
            length,
            interval,
            checkpoints,
            commitment: link,
        })
    }

    /// The seed, to be published after the game so anyone can audit the chain.
    pub fn seed(&self) -> &[u8; 32] {
        &self.seed
    }

    /// The chain's length L: how many reveals it can answer.
    pub fn length(&self) -> u64 {
        self.length
    }

    /// The distance between stored checkpoints.
    pub fn checkpoint_interval(&self) -> u64 {
        self.interval
    }

    /// The bytes of links held in memory (checkpoints plus the tip).
    pub fn stored_bytes(&self) -> usize {
        (self.checkpoints.len() + 1) * 32
    }

    /// The commitment `x_L`, published at genesis (or in a continuation).
    pub fn commitment(&self) -> [u8; 32] {
        self.commitment
    }

    /// Reveal `k` (`1..=L`): the link `x_{L-k}`.
    pub fn reveal(&self, k: u64) -> Result<[u8; 32], FairdeckError> {
        if k == 0 || k > self.length {
            return Err(FairdeckError::WrongIndex {
                index: k,
                length: self.length,
            });
        }
        let j = self.length - k;
        let slot = j / self.interval;
        let start =
            self.checkpoints
                .get(slot as usize)
                .copied()
                .ok_or(FairdeckError::WrongIndex {
                    index: k,
                    length: self.length,
                })?;
        Ok(walk(start, j - slot * self.interval))
    }

    /// The chain that continues the chains grown from `genesis_seed` from
    /// event `first_event` on, `length` links long (its seed is
    /// [`continuation_seed`]).
    pub fn continued(
        genesis_seed: &[u8; 32],
        first_event: u64,
        length: u64,
    ) -> Result<Self, FairdeckError> {
        Self::new(continuation_seed(genesis_seed, first_event), length)
    }

    /// The continuation message announcing this chain as the one that answers
    /// events `first_event ..= first_event + L - 1`.
    pub fn continuation(&self, first_event: u64) -> ChainContinuation {
        ChainContinuation {
            first_event,
            length: self.length,
            commitment: self.commitment,
        }
    }
}

/// Check one reveal against the link before it: `SHA256(reveal) == previous`.
///
/// `previous` is the commitment for the first reveal of a chain and the
/// previous reveal after that. One hash.
pub fn verify_reveal(previous: &[u8; 32], reveal: &[u8; 32]) -> Result<(), FairdeckError> {
    if next_link(reveal) == *previous {
        Ok(())
    } else {
        Err(FairdeckError::WrongLink { event: None })
    }
}

/// Check a chain opened after the game: the seed and length produce
/// `commitment`, and `reveals[i]` is reveal `i + 1` of that chain.
///
/// `reveals` may be shorter than the chain (a game rarely uses all of it) but
/// not longer. Costs `L + 1` hashes and constant memory. A wrong reveal is
/// reported as `WrongLink { event: Some(i) }` with `i` its reveal index (its
/// 1-based position in `reveals`; the event number for a genesis chain), the
/// smallest one if several are wrong.
pub fn verify_opened_chain(
    seed: &[u8; 32],
    length: u64,
    commitment: &[u8; 32],
    reveals: &[[u8; 32]],
) -> Result<(), FairdeckError> {
    check_length(length)?;
    let used = reveals.len() as u64;
    if used > length {
        return Err(FairdeckError::TooManyReveals {
            reveals: used,
            length,
        });
    }
    let mut link = chain_start(seed);
    // Walking up from x_0 visits reveals L, L-1, ..., 1; the last mismatch
    // seen is the earliest wrong reveal.
    let mut mismatch = None;
    for j in 0..length {
        let k = length - j;
        if k <= used && reveals.get((k - 1) as usize) != Some(&link) {
            mismatch = Some(k);
        }
        link = next_link(&link);
    }
    if link != *commitment {
        return Err(FairdeckError::WrongCommitment);
    }
    match mismatch {
        Some(k) => Err(FairdeckError::WrongLink { event: Some(k) }),
        None => Ok(()),
    }
}

/// A seat's next chain, announced before its current chain runs out.
///
/// The seat signs this (inside its envelope, see the spec) and the table
/// records it before the seat's reveal for the current chain's last event;
/// after that event, reveals for `first_event ..= first_event + length - 1`
/// come from the new chain: event `e` is answered by its reveal
/// `e - first_event + 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ChainContinuation {
    /// The first event the new chain answers: the old chain's last event + 1.
    pub first_event: u64,
    /// The new chain's length.
    pub length: u64,
    /// The new chain's tip.
    pub commitment: [u8; 32],
}

impl ChainContinuation {
    /// The last event the announced chain answers (`first_event + length - 1`),
    /// or `None` when that does not fit in a `u64`.
    pub fn last_event(&self) -> Option<u64> {
        self.first_event.checked_add(self.length.checked_sub(1)?)
    }

    /// Check, without any state, that `reveal` is this chain's link for
    /// `event`: hashing it `event - first_event + 1` times gives the
    /// commitment. Costs one hash per link; callers bound the distance.
    pub fn check_link(&self, event: u64, reveal: &[u8; 32]) -> Result<(), FairdeckError> {
        let last = self.last_event().unwrap_or(u64::MAX);
        if event < self.first_event || event > last {
            return Err(FairdeckError::WrongEvent {
                expected: self.first_event,
                got: event,
            });
        }
        if walk(*reveal, event - self.first_event + 1) != self.commitment {
            return Err(FairdeckError::WrongLink { event: Some(event) });
        }
        Ok(())
    }
}

/// What peers keep about one seat's chain: checks each reveal as it arrives.
///
/// It holds the last accepted link (32 bytes) and the event numbers, accepts
/// reveals strictly in event order, and switches to the seat's continuation
/// once the current chain's last link has been revealed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainTracker {
    last_link: [u8; 32],
    next_event: u64,
    last_event: u64,
    continuation: Option<ChainContinuation>,
}

impl ChainTracker {
    /// Track a chain committed at genesis, answering events `1..=length`.
    pub fn new(commitment: [u8; 32], length: u64) -> Result<Self, FairdeckError> {
        Self::starting_at(1, commitment, length)
    }

    /// Track a chain answering events `first_event ..= first_event + length - 1`.
    pub fn starting_at(
        first_event: u64,
        commitment: [u8; 32],
        length: u64,
    ) -> Result<Self, FairdeckError> {
        check_length(length)?;
        if first_event == 0 {
            return Err(FairdeckError::WrongEvent {
                expected: 1,
                got: 0,
            });
        }
        let last_event = first_event
            .checked_add(length - 1)
            .ok_or(FairdeckError::EventOverflow { max: u64::MAX })?;
        Ok(ChainTracker {
            last_link: commitment,
            next_event: first_event,
            last_event,
            continuation: None,
        })
    }

    /// The event whose reveal is due next.
    pub fn next_event(&self) -> u64 {
        self.next_event
    }

    /// The last event the current chain answers.
    pub fn last_event(&self) -> u64 {
        self.last_event
    }

    /// The last accepted link (the commitment before any reveal).
    pub fn last_link(&self) -> &[u8; 32] {
        &self.last_link
    }

    /// The continuation on record, if any.
    pub fn continuation(&self) -> Option<&ChainContinuation> {
        self.continuation.as_ref()
    }

    /// Record the seat's continuation. It must start right after the current
    /// chain's last event, name a valid length, and come before the reveal of
    /// that last event; there is at most one per chain.
    pub fn continue_with(&mut self, next: ChainContinuation) -> Result<(), FairdeckError> {
        if self.continuation.is_some() {
            return Err(FairdeckError::ContinuationTwice);
        }
        let expected = self
            .last_event
            .checked_add(1)
            .ok_or(FairdeckError::EventOverflow { max: u64::MAX })?;
        if next.first_event != expected {
            return Err(FairdeckError::ContinuationMisplaced {
                expected,
                got: next.first_event,
            });
        }
        check_length(next.length)?;
        next.first_event
            .checked_add(next.length - 1)
            .ok_or(FairdeckError::EventOverflow { max: u64::MAX })?;
        self.continuation = Some(next);
        Ok(())
    }

    /// Accept the seat's reveal for `event`, which must be the next event and
    /// hash to the last accepted link. On error nothing changes.
    pub fn accept(&mut self, event: u64, reveal: &[u8; 32]) -> Result<(), FairdeckError> {
        // Invariant: next_event <= last_event, because the last link is only
        // accepted with a continuation on record, which then takes over.
        if event != self.next_event {
            return Err(FairdeckError::WrongEvent {
                expected: self.next_event,
                got: event,
            });
        }
        if event == self.last_event && self.continuation.is_none() {
            return Err(FairdeckError::ContinuationMissing { event });
        }
        if next_link(reveal) != self.last_link {
            return Err(FairdeckError::WrongLink { event: Some(event) });
        }
        if event == self.last_event {
            if let Some(next) = self.continuation.take() {
                self.last_link = next.commitment;
                self.last_event = next.first_event + (next.length - 1);
            }
        } else {
            self.last_link = *reveal;
        }
        self.next_event = event + 1;
        Ok(())
    }

    /// Check, without accepting it, that `reveal` is this chain's link for a
    /// later event: hashing it `event - next_event + 1` times must give the
    /// last accepted link. A link that passes can only come from the seat
    /// (or from someone who saw it published), whatever carried it. The cost
    /// is one hash per event ahead; callers bound how far ahead they look.
    pub fn check_ahead(&self, event: u64, reveal: &[u8; 32]) -> Result<(), FairdeckError> {
        if event < self.next_event || event > self.last_event {
            return Err(FairdeckError::WrongEvent {
                expected: self.next_event,
                got: event,
            });
        }
        let mut link = *reveal;
        for _ in self.next_event..=event {
            link = next_link(&link);
        }
        if link != self.last_link {
            return Err(FairdeckError::WrongLink { event: Some(event) });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The seed is the root of every secret of a seat's game (SPEC 5.16):
    /// a chain must wipe it, and its links, when dropped.
    #[test]
    fn a_chain_secret_wipes_itself_when_dropped() {
        fn wipes_on_drop<T: zeroize::ZeroizeOnDrop>() {}
        wipes_on_drop::<ChainSecret>();
    }

    #[test]
    fn links_ahead_are_checked_against_the_last_accepted_one() {
        let chain = ChainSecret::new([7; 32], 16).unwrap();
        let mut tracker = ChainTracker::new(chain.commitment(), 16).unwrap();
        for event in 1..=5 {
            assert_eq!(
                tracker.check_ahead(event, &chain.reveal(event).unwrap()),
                Ok(())
            );
        }
        tracker.accept(1, &chain.reveal(1).unwrap()).unwrap();
        assert_eq!(tracker.check_ahead(4, &chain.reveal(4).unwrap()), Ok(()));
        // An old link, a wrong one, or one past the chain's end is refused.
        assert!(tracker.check_ahead(1, &chain.reveal(1).unwrap()).is_err());
        assert!(tracker.check_ahead(4, &chain.reveal(3).unwrap()).is_err());
        assert!(tracker.check_ahead(17, &[0; 32]).is_err());
        assert_eq!(tracker.next_event(), 2);
    }

    fn links(seed: [u8; 32], length: u64) -> Vec<[u8; 32]> {
        let mut v = vec![chain_start(&seed)];
        for j in 0..length as usize {
            let n = next_link(&v[j]);
            v.push(n);
        }
        v
    }

    #[test]
    fn reveals_are_the_links_from_the_top() -> Result<(), FairdeckError> {
        let seed = [9; 32];
        let all = links(seed, 200);
        for interval in [1, 2, 7, 64, 199, 200, 1000] {
            let chain = ChainSecret::with_checkpoint_interval(seed, 200, interval)?;
            assert_eq!(chain.commitment(), all[200]);
            for k in 1..=200u64 {
                assert_eq!(
                    chain.reveal(k)?,
                    all[(200 - k) as usize],
                    "k={k} C={interval}"
                );
            }
        }
        Ok(())
    }

    #[test]
    fn memory_is_the_checkpoints() -> Result<(), FairdeckError> {
        let chain = ChainSecret::new([0; 32], DEFAULT_CHAIN_LENGTH)?;
        assert_eq!(chain.stored_bytes(), (4096 / 64 + 1) * 32);
        let chain = ChainSecret::with_checkpoint_interval([0; 32], 100, 1)?;
        assert_eq!(chain.stored_bytes(), 101 * 32);
        Ok(())
    }

    #[test]
    fn bad_lengths_and_indices_are_refused() -> Result<(), FairdeckError> {
        assert_eq!(
            ChainSecret::new([0; 32], 0).err(),
            Some(FairdeckError::ChainLength {
                length: 0,
                max: MAX_CHAIN_LENGTH
            })
        );
        assert!(matches!(
            ChainSecret::new([0; 32], MAX_CHAIN_LENGTH + 1),
            Err(FairdeckError::ChainLength { .. })
        ));
        assert_eq!(
            ChainSecret::with_checkpoint_interval([0; 32], 5, 0).err(),
            Some(FairdeckError::CheckpointInterval)
        );
        let chain = ChainSecret::new([0; 32], 5)?;
        assert_eq!(
            chain.reveal(0),
            Err(FairdeckError::WrongIndex {
                index: 0,
                length: 5
            })
        );
        assert_eq!(
            chain.reveal(6),
            Err(FairdeckError::WrongIndex {
                index: 6,
                length: 5
            })
        );
        assert_eq!(
            chain.reveal(u64::MAX),
            Err(FairdeckError::WrongIndex {
                index: u64::MAX,
                length: 5
            })
        );
        Ok(())
    }

    #[test]
    fn debug_hides_the_seed() -> Result<(), FairdeckError> {
        let chain = ChainSecret::new([0xab; 32], 3)?;
        let text = format!("{chain:?}");
        assert!(!text.contains("abab"), "{text}");
        assert!(text.contains("<secret>"));
        Ok(())
    }

    #[test]
    fn opened_chain_names_the_first_wrong_reveal() -> Result<(), FairdeckError> {
        let chain = ChainSecret::new([3; 32], 10)?;
        let c = chain.commitment();
        let mut reveals: Vec<[u8; 32]> =
            (1..=6).map(|k| chain.reveal(k)).collect::<Result<_, _>>()?;
        verify_opened_chain(&[3; 32], 10, &c, &reveals)?;
        verify_opened_chain(&[3; 32], 10, &c, &[])?;
        reveals[3][0] ^= 1;
        reveals[5][0] ^= 1;
        assert_eq!(
            verify_opened_chain(&[3; 32], 10, &c, &reveals),
            Err(FairdeckError::WrongLink { event: Some(4) })
        );
        assert_eq!(
            verify_opened_chain(&[4; 32], 10, &c, &[]),
            Err(FairdeckError::WrongCommitment)
        );
        assert_eq!(
            verify_opened_chain(&[3; 32], 11, &c, &[]),
            Err(FairdeckError::WrongCommitment)
        );
        let eleven = vec![[0; 32]; 11];
        assert_eq!(
            verify_opened_chain(&[3; 32], 10, &c, &eleven),
            Err(FairdeckError::TooManyReveals {
                reveals: 11,
                length: 10
            })
        );
        Ok(())
    }

    #[test]
    fn tracker_accepts_in_order_and_continues() -> Result<(), FairdeckError> {
        let first = ChainSecret::new([1; 32], 3)?;
        let second = ChainSecret::new([2; 32], 4)?;
        let mut t = ChainTracker::new(first.commitment(), 3)?;
        assert_eq!(t.next_event(), 1);
        assert_eq!(t.last_event(), 3);
        // Out of order, wrong link: refused, nothing changes.
        assert_eq!(
            t.accept(2, &first.reveal(2)?),
            Err(FairdeckError::WrongEvent {
                expected: 1,
                got: 2
            })
        );
        assert_eq!(
            t.accept(1, &first.reveal(2)?),
            Err(FairdeckError::WrongLink { event: Some(1) })
        );
        let before = t.clone();
        assert!(t.accept(1, &[0; 32]).is_err());
        assert_eq!(t, before);
        t.accept(1, &first.reveal(1)?)?;
        t.accept(2, &first.reveal(2)?)?;
        // The last link needs the continuation first.
        assert_eq!(
            t.accept(3, &first.reveal(3)?),
            Err(FairdeckError::ContinuationMissing { event: 3 })
        );
        assert_eq!(
            t.continue_with(second.continuation(5)),
            Err(FairdeckError::ContinuationMisplaced {
                expected: 4,
                got: 5
            })
        );
        assert!(matches!(
            t.continue_with(ChainContinuation {
                first_event: 4,
                length: 0,
                commitment: [0; 32]
            }),
            Err(FairdeckError::ChainLength { .. })
        ));
        t.continue_with(second.continuation(4))?;
        assert_eq!(
            t.continue_with(second.continuation(4)),
            Err(FairdeckError::ContinuationTwice)
        );
        t.accept(3, &first.reveal(3)?)?;
        // Now the second chain answers events 4..=7 with its reveals 1..=4.
        assert_eq!(t.next_event(), 4);
        assert_eq!(t.last_event(), 7);
        assert_eq!(t.last_link(), &second.commitment());
        assert_eq!(
            t.accept(4, &first.reveal(3)?),
            Err(FairdeckError::WrongLink { event: Some(4) })
        );
        for (event, k) in (4..=6).zip(1..) {
            t.accept(event, &second.reveal(k)?)?;
        }
        assert_eq!(
            t.accept(7, &second.reveal(4)?),
            Err(FairdeckError::ContinuationMissing { event: 7 })
        );
        Ok(())
    }

    #[test]
    fn tracker_refuses_event_zero_and_overflow() {
        assert!(matches!(
            ChainTracker::starting_at(0, [0; 32], 5),
            Err(FairdeckError::WrongEvent { .. })
        ));
        assert_eq!(
            ChainTracker::starting_at(u64::MAX, [0; 32], 2),
            Err(FairdeckError::EventOverflow { max: u64::MAX })
        );
        let t = ChainTracker::starting_at(u64::MAX, [0; 32], 1);
        assert!(t.is_ok());
        if let Ok(mut t) = t {
            assert!(matches!(
                t.continue_with(ChainContinuation {
                    first_event: 0,
                    length: 1,
                    commitment: [0; 32]
                }),
                Err(FairdeckError::EventOverflow { .. })
            ));
        }
    }
}
