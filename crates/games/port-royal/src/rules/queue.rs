//! The queue of effects an input leaves to resolve.
//!
//! A `VecDeque` computed a ring-buffer position at every push and pop. The
//! queue is drained after every input, so it never needs to wrap: effects
//! are appended to a plain list and read from `head`, and the list starts
//! again at the front (keeping its allocation) once drained. `push_front`
//! only ever re-queues the effect just popped, which takes back the slot in
//! front of `head`.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::Effect;

/// Effects in the order they are resolved.
///
/// Serialises, compares and prints as the sequence of effects still queued,
/// exactly as the `VecDeque` it replaces did, so the state hash is unchanged.
#[derive(Clone, Default)]
pub(super) struct EffectQueue {
    /// Resolved effects (before `head`) and queued ones (from `head`).
    slots: Vec<Effect>,
    /// The position of the next effect to resolve.
    head: usize,
}

impl EffectQueue {
    /// The queued effects, next first.
    fn queued(&self) -> &[Effect] {
        self.slots.get(self.head..).unwrap_or(&[])
    }

    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.head >= self.slots.len()
    }

    #[inline]
    pub(super) fn push_back(&mut self, effect: Effect) {
        self.slots.push(effect);
    }

    /// Queue `effect` to be resolved next.
    #[inline]
    pub(super) fn push_front(&mut self, effect: Effect) {
        match self.head.checked_sub(1) {
            Some(front) => {
                self.slots[front] = effect;
                self.head = front;
            }
            None => self.slots.insert(0, effect),
        }
    }

    #[inline]
    pub(super) fn pop_front(&mut self) -> Option<Effect> {
        let effect = *self.slots.get(self.head)?;
        self.head += 1;
        if self.head == self.slots.len() {
            // Drained: start again at the front, so the slots are reused.
            self.slots.clear();
            self.head = 0;
        }
        Some(effect)
    }

    /// The queued effects, next first.
    pub(super) fn iter(&self) -> std::slice::Iter<'_, Effect> {
        self.queued().iter()
    }
}

impl PartialEq for EffectQueue {
    fn eq(&self, other: &Self) -> bool {
        self.queued() == other.queued()
    }
}

impl Eq for EffectQueue {}

impl fmt::Debug for EffectQueue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.queued()).finish()
    }
}

impl Serialize for EffectQueue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.queued())
    }
}

impl<'de> Deserialize<'de> for EffectQueue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let effects = Vec::<Effect>::deserialize(deserializer)?;
        Ok(EffectQueue {
            slots: effects,
            head: 0,
        })
    }
}

#[cfg(test)]
mod tests {
    use roundtable_engine::Seat;

    use super::*;
    use crate::event::CoinReason;

    fn coins(seat: u8) -> Effect {
        Effect::Coins {
            seat: Seat(seat),
            n: 1,
            reason: CoinReason::Trade,
        }
    }

    #[test]
    fn resolves_in_order_with_requeued_effects_first() {
        let mut queue = EffectQueue::default();
        for seat in 0..20 {
            queue.push_back(coins(seat));
        }
        assert_eq!(queue.pop_front(), Some(coins(0)));
        queue.push_front(Effect::EndTurn);
        assert_eq!(queue.pop_front(), Some(Effect::EndTurn));
        for seat in 1..20 {
            assert_eq!(queue.pop_front(), Some(coins(seat)));
        }
        assert!(queue.is_empty());
        queue.push_front(Effect::RevealForDiscover);
        assert_eq!(queue.pop_front(), Some(Effect::RevealForDiscover));
        assert_eq!(queue.pop_front(), None);
    }

    #[test]
    fn encodes_compares_and_prints_as_the_deque_it_replaces() {
        let mut queue = EffectQueue::default();
        let mut deque = std::collections::VecDeque::new();
        for seat in 0..3 {
            queue.push_back(coins(seat));
            deque.push_back(coins(seat));
        }
        queue.pop_front();
        deque.pop_front();
        assert_eq!(
            postcard::to_allocvec(&queue).ok(),
            postcard::to_allocvec(&deque).ok()
        );
        assert_eq!(format!("{queue:?}"), format!("{deque:?}"));
        let decoded: Option<EffectQueue> = postcard::to_allocvec(&queue)
            .ok()
            .and_then(|bytes| postcard::from_bytes(&bytes).ok());
        assert_eq!(decoded, Some(queue));
    }
}
