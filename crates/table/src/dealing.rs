//! The private deal's bookkeeping at one table (protocol/SPEC.md 5.11–5.16):
//! the seats' checked key shares, the deck of every epoch, every checked
//! decryption share, released secrets, and what each seat opened. Pure: the
//! table's pump feeds it checked messages in the order the game asks for
//! them; it never signs or sends anything.

use std::collections::BTreeMap;

use curve25519_dalek::RistrettoPoint;
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use roundtable_deal::{
    CardTable, Context, DealError, Deck, DeckKey, DecryptionShare, KeyShare, SecretShare,
    open_card, own_share,
};
use roundtable_engine::{CardHandle, EpochId, Knowledge, Revealed, Seat};
use sha2::{Digest, Sha256};
use zeroize::Zeroize;

/// Domain of the local seat's deal root, derived from its chain seed.
pub const DEAL_ROOT_DOMAIN: &[u8] = b"roundtable/deal-root/v1";
/// Domain of the local seat's secret key share, derived from the deal root.
pub const DEAL_SECRET_DOMAIN: &[u8] = b"roundtable/deal-secret/v1";
/// Domain of the random stream of one of the local seat's deal messages.
pub const DEAL_MESSAGE_DOMAIN: &[u8] = b"roundtable/deal-message/v1";

/// Which deal message a random stream is for (one byte of its seed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum MessageKind {
    KeyShare = 1,
    Shuffle = 2,
    Shares = 3,
    ActionShares = 4,
}

/// The local seat's secrets for the deal, derived from its chain seed so
/// that a restarted peer signs the very same messages again (SPEC 5.16).
/// The root is wiped when a value is dropped (the secret share wipes
/// itself): it gives away every secret of the seat's deal.
#[derive(Clone)]
pub(crate) struct LocalDeal {
    root: [u8; 32],
    pub(crate) secret: SecretShare,
}

impl Drop for LocalDeal {
    fn drop(&mut self) {
        self.root.zeroize();
    }
}

impl zeroize::ZeroizeOnDrop for LocalDeal {}

/// Never printed: the root gives away every secret of the seat's deal.
impl std::fmt::Debug for LocalDeal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LocalDeal(..)")
    }
}

impl LocalDeal {
    pub(crate) fn new(chain_seed: &[u8; 32]) -> LocalDeal {
        let root: [u8; 32] = Sha256::new()
            .chain_update(DEAL_ROOT_DOMAIN)
            .chain_update(chain_seed)
            .finalize()
            .into();
        let mut seed: [u8; 32] = Sha256::new()
            .chain_update(DEAL_SECRET_DOMAIN)
            .chain_update(root)
            .finalize()
            .into();
        let secret = SecretShare::generate(&mut ChaCha20Rng::from_seed(seed));
        seed.zeroize();
        LocalDeal { root, secret }
    }

    /// The random stream of one message: (kind, epoch, position) names it.
    pub(crate) fn rng(&self, kind: MessageKind, epoch: u32, position: u64) -> ChaCha20Rng {
        let mut seed: [u8; 32] = Sha256::new()
            .chain_update(DEAL_MESSAGE_DOMAIN)
            .chain_update(self.root)
            .chain_update([kind as u8])
            .chain_update(epoch.to_le_bytes())
            .chain_update(position.to_le_bytes())
            .finalize()
            .into();
        let rng = ChaCha20Rng::from_seed(seed);
        seed.zeroize();
        rng
    }
}

/// One epoch's deck once every seat shuffled it, and the cards it can hold.
#[derive(Clone, Debug)]
pub(crate) struct EpochDeck {
    pub(crate) deck: Deck,
    pub(crate) cards: CardTable,
}

/// The step under way at the current position: the envelopes taken in for
/// it so far and what they built.
#[derive(Clone, Debug, Default)]
pub(crate) struct Progress {
    /// (seat, seq) of every envelope taken in for the step, in order.
    pub(crate) envelopes: Vec<(u8, u64)>,
    /// The deck as the last shuffle left it, and the seat that shuffled.
    pub(crate) shuffled: Option<(Deck, Option<u8>)>,
    /// Per seat, whether its shares for the step are in.
    pub(crate) shared: Vec<bool>,
}

/// Everything the table knows of the private deal.
#[derive(Clone, Debug)]
pub(crate) struct Dealing {
    pub(crate) game_id: [u8; 32],
    /// Per seat, its checked key share.
    pub(crate) key_shares: Vec<Option<KeyShare>>,
    /// The sum of the key shares, once every seat still in gave one.
    pub(crate) deck_key: Option<DeckKey>,
    /// Per seat, its released secret.
    pub(crate) released: Vec<Option<SecretShare>>,
    /// The shuffled deck of every epoch.
    pub(crate) decks: BTreeMap<u16, EpochDeck>,
    /// Every checked decryption share, per handle and seat.
    pub(crate) shares: BTreeMap<CardHandle, Vec<Option<RistrettoPoint>>>,
    /// Every dealt handle with the seat it went to, in deal order.
    pub(crate) dealt: Vec<(Seat, CardHandle)>,
    /// What each seat opened: the local seat's own cards as they are dealt;
    /// every seat's once every key is released (the audit's view).
    pub(crate) knowledge: Vec<Knowledge>,
    pub(crate) progress: Progress,
}

impl Dealing {
    pub(crate) fn new(game_id: [u8; 32], seats: usize) -> Dealing {
        Dealing {
            game_id,
            key_shares: vec![None; seats],
            deck_key: None,
            released: vec![None; seats],
            decks: BTreeMap::new(),
            shares: BTreeMap::new(),
            dealt: Vec::new(),
            knowledge: vec![Knowledge::new(); seats],
            progress: Progress {
                shared: vec![false; seats],
                ..Progress::default()
            },
        }
    }

    /// The context of `seat`'s proofs for the deck of `epoch`.
    pub(crate) fn context(&self, epoch: u32, seat: u8) -> Context {
        Context {
            game_id: self.game_id,
            epoch,
            seat,
        }
    }

    /// Whether `seat` holds part of the deck key and has not released it:
    /// its shuffles and shares are still owed by it.
    pub(crate) fn contributes(&self, seat: usize) -> bool {
        self.key_shares[seat].is_some() && self.released[seat].is_none()
    }

    /// Start a new step: nothing taken in yet.
    pub(crate) fn reset_progress(&mut self) {
        let seats = self.key_shares.len();
        self.progress = Progress {
            shared: vec![false; seats],
            ..Progress::default()
        };
    }

    /// The ciphertext of `handle`, if its epoch's deck exists.
    pub(crate) fn ciphertext(
        &self,
        handle: CardHandle,
    ) -> Result<&roundtable_deal::Ciphertext, DealError> {
        let deck = self
            .decks
            .get(&handle.epoch.0)
            .ok_or(DealError::NoSuchCard {
                index: handle.slot,
                size: 0,
            })?;
        deck.deck.get(handle.slot)
    }

    /// Check `seat`'s share for `handle` and keep it.
    pub(crate) fn take_share(
        &mut self,
        seat: u8,
        handle: CardHandle,
        bytes: &[u8; 96],
    ) -> Result<(), DealError> {
        let key_share = self.key_shares[usize::from(seat)].ok_or(DealError::NoKeyShares)?;
        let context = self.context(u32::from(handle.epoch.0), seat);
        let card = *self.ciphertext(handle)?;
        let point =
            DecryptionShare::from_bytes(bytes)?.verify(&context, handle.slot, &key_share, &card)?;
        self.note_share(seat, handle, point);
        Ok(())
    }

    fn note_share(&mut self, seat: u8, handle: CardHandle, point: RistrettoPoint) {
        let seats = self.key_shares.len();
        self.shares
            .entry(handle)
            .or_insert_with(|| vec![None; seats])[usize::from(seat)] = Some(point);
    }

    /// Open `handle` from the shares of every key holder: the checked ones
    /// kept, a released seat's computed from its secret, and `own` (the
    /// local seat's secret, which it never publishes for its own cards).
    pub(crate) fn open(
        &self,
        handle: CardHandle,
        own: Option<(u8, &SecretShare)>,
    ) -> Result<u32, DealError> {
        let card = self.ciphertext(handle)?;
        let epoch = self
            .decks
            .get(&handle.epoch.0)
            .ok_or(DealError::NoKeyShares)?;
        let kept = self.shares.get(&handle);
        let mut points = Vec::new();
        for seat in 0..self.key_shares.len() {
            if self.key_shares[seat].is_none() {
                continue;
            }
            let point = match (&self.released[seat], own) {
                (Some(secret), _) => own_share(secret, card),
                (None, Some((me, secret))) if usize::from(me) == seat => own_share(secret, card),
                _ => kept.and_then(|k| k[seat]).ok_or(DealError::UnknownCard {
                    size: epoch.cards.size(),
                })?,
            };
            points.push(point);
        }
        open_card(card, &points, &epoch.cards)
    }

    /// Open every dealt slot into its holder's knowledge, once every key
    /// holder released its secret (after the game). Returns how many
    /// could not be opened (zero for an honest game).
    pub(crate) fn open_every_hand(&mut self) -> usize {
        let mut failed = 0;
        let dealt = self.dealt.clone();
        for (seat, handle) in dealt {
            match self.open(handle, None) {
                Ok(card) => self.knowledge[seat.index()].learn(handle, card),
                Err(_) => failed += 1,
            }
        }
        failed
    }

    /// Whether every key holder's secret is known.
    pub(crate) fn all_released(&self) -> bool {
        self.deck_key.is_some()
            && self
                .key_shares
                .iter()
                .zip(&self.released)
                .all(|(k, r)| k.is_none() || r.is_some())
    }

    /// The cards `claims` name, opened with the holder's attached shares
    /// (checked here) and the other seats' shares given at the deal.
    pub(crate) fn open_claims(
        &mut self,
        holder: u8,
        claims: &[Revealed],
        shares: &[[u8; 96]],
    ) -> Result<Vec<Revealed>, ClaimError> {
        if claims.len() != shares.len() {
            return Err(ClaimError::Count {
                claims: claims.len(),
                shares: shares.len(),
            });
        }
        let mut opened = Vec::with_capacity(claims.len());
        for (claim, bytes) in claims.iter().zip(shares) {
            if self.ciphertext(claim.handle).is_err() {
                return Err(ClaimError::Unopenable);
            }
            self.take_share(holder, claim.handle, bytes)
                .map_err(ClaimError::Share)?;
            let card = self
                .open(claim.handle, None)
                .map_err(|_| ClaimError::Unopenable)?;
            opened.push(Revealed {
                handle: claim.handle,
                card,
            });
        }
        Ok(opened)
    }

    /// How many slots the shuffled deck of `epoch` holds, if there is one.
    pub(crate) fn deck_size(&self, epoch: EpochId) -> Option<u32> {
        self.decks.get(&epoch.0).map(|deck| deck.deck.len() as u32)
    }

    /// Record a finished reshuffle: the deck of `epoch`, of the cards of `pile`.
    pub(crate) fn finish_reshuffle(
        &mut self,
        epoch: EpochId,
        pile: &[u32],
        deck: Deck,
    ) -> Result<(), DealError> {
        let size = pile.iter().max().map_or(0, |m| m + 1);
        let cards = CardTable::new(&self.game_id, size)?;
        self.decks.insert(epoch.0, EpochDeck { deck, cards });
        Ok(())
    }
}

/// Why the cards an action claims could not be opened.
#[derive(Debug)]
pub(crate) enum ClaimError {
    /// Not one share per claim.
    Count { claims: usize, shares: usize },
    /// A share's proof failed or it does not decode.
    Share(DealError),
    /// The handle names no dealt slot whose other shares are known: the
    /// game's rules decide what that makes the action.
    Unopenable,
}

#[cfg(test)]
mod tests {
    /// The deal root gives away every secret of the seat's deal: it and the
    /// secret share wipe themselves when dropped.
    #[test]
    fn the_local_seats_deal_secrets_wipe_themselves_when_dropped() {
        fn wipes_on_drop<T: zeroize::ZeroizeOnDrop>() {}
        wipes_on_drop::<super::LocalDeal>();
        wipes_on_drop::<roundtable_deal::SecretShare>();
    }
}
