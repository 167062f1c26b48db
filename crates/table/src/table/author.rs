//! The local seat's own envelopes: signing them into its log, its
//! reveals, and continuing its hash chain when it runs short.

use roundtable_engine::Game;
use roundtable_fairdeck::{ChainContinuation, ChainSecret, MAX_CHAIN_LENGTH};

use super::{Output, Table};
use crate::Hash32;
use crate::envelope::{Body, Envelope, Reveal, Signed};
use crate::proof::Violation;

impl<G: Game> Table<G> {
    /// Sign `body` as the local seat at the current position, append it to
    /// the local log, and have it persisted (synced) and broadcast.
    pub(super) fn author(&mut self, body: Body) -> Option<Signed> {
        let local = self.local.as_ref()?;
        let seat = local.seat.index();
        let state = &self.seats[seat];
        // A reveal names no position: it is placed by its event (SPEC 3.4).
        let (position, state_hash) = match body {
            Body::Reveal(_) => (0, Hash32::default()),
            _ => (self.position(), self.current_hash()),
        };
        let envelope = Envelope {
            game_id: self.game_id,
            seat: local.seat.0,
            seq: state.next_seq(),
            prev: state.last_hash(),
            position,
            state_hash,
            body,
        };
        let signed = envelope.sign(&local.identity);
        self.seats[seat].push_log(signed.clone());
        if let Body::StallClaim { accused, position } = signed.envelope.body {
            self.note_claim(
                local.seat.0,
                signed.seq(),
                accused,
                position,
                signed.envelope.state_hash,
            );
        }
        self.outputs.push_back(Output::Persist {
            envelope: signed.clone(),
            sync: true,
        });
        self.outputs.push_back(Output::Broadcast(signed.clone()));
        Some(signed)
    }

    pub(super) fn current_hash(&self) -> Hash32 {
        self.hashes.last().copied().unwrap_or_default()
    }

    /// The local seat's reveal for chance event `event`, from the genesis
    /// chain or the continuation that answers it.
    pub(super) fn local_reveal(&self, event: u64) -> Option<Reveal> {
        let local = self.local.as_ref()?;
        let link = if event <= local.chain.length() {
            local.chain.reveal(event).ok()?
        } else {
            let (first, chain) = self.local_chains.range(..=event).next_back()?;
            chain.reveal(event - first + 1).ok()?
        };
        Some(Reveal { event, link })
    }

    /// Announce the local seat's next chain once a quarter or less of its
    /// chains is left (protocol/SPEC.md 2.4): long before the last reveal,
    /// which must come after the continuation in the seat's sequence.
    pub(super) fn continue_local_chain(&mut self) {
        let Some(local) = &self.local else { return };
        let me = local.seat.index();
        let state = &self.seats[me];
        if state.forfeited.is_some()
            || self.over()
            || state.peek().is_some()
            || state.chains_end() != state.chain.last_event()
        {
            // Gone, done, still replaying its own log, or announced already.
            return;
        }
        let length = local.chain.length();
        let left = state.chains_end().saturating_sub(state.chain.next_event()) + 1;
        if left > (length / 4).max(1) {
            return;
        }
        let Some(first_event) = state.chains_end().checked_add(1) else {
            return;
        };
        let Ok(chain) = ChainSecret::continued(local.chain.seed(), first_event, length) else {
            return;
        };
        let commitment = chain.commitment();
        self.local_chains.insert(first_event, chain);
        if let Some(signed) = self.author(Body::ChainContinuation {
            first_event,
            length,
            commitment,
        }) {
            self.take_continuation(me, signed);
        }
    }

    /// Take in `seat`'s continuation (already consumed into its log): it
    /// must start right after the seat's chains so far, and be the first
    /// for the chain in use. Fails with the proof otherwise.
    pub(super) fn take_continuation(&mut self, seat: usize, signed: Signed) {
        let Body::ChainContinuation {
            first_event,
            length,
            commitment,
        } = signed.envelope.body
        else {
            return;
        };
        let state = &self.seats[seat];
        let end = state.chains_end();
        let refusal = if end != state.chain.last_event() {
            Some(format!(
                "a second continuation for the chain that ends at event {}",
                state.chain.last_event()
            ))
        } else if Some(first_event) != end.checked_add(1) {
            Some(format!(
                "it starts at event {first_event}, but the seat's chain ends at event {end}"
            ))
        } else if length == 0 || length > MAX_CHAIN_LENGTH {
            Some(format!(
                "a chain of {length} links (1 to {MAX_CHAIN_LENGTH})"
            ))
        } else if first_event.checked_add(length - 1).is_none() {
            Some("its events run past the largest event number".to_owned())
        } else {
            None
        };
        if let Some(reason) = refusal {
            self.fail(Violation::BadContinuation {
                envelope: signed,
                reason,
            });
            return;
        }
        let continuation = ChainContinuation {
            first_event,
            length,
            commitment,
        };
        self.seats[seat]
            .continuations
            .push((signed.seq(), continuation));
        // After a restart the local seat meets its own continuation in its
        // log: its chain is derived again, never drawn anew.
        if let Some(local) = &self.local
            && local.seat.index() == seat
            && !self.local_chains.contains_key(&first_event)
            && let Ok(chain) = ChainSecret::continued(local.chain.seed(), first_event, length)
        {
            self.local_chains.insert(first_event, chain);
        }
    }
}
