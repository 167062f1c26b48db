//! Driving a game without a table: sampling chance requests from a local
//! random source and picking decisions with a caller-supplied policy.
//!
//! This is for tests, benchmarks and bots' look-ahead, never for play between
//! peers: there chance comes from the committed beacon (`roundtable-fairdeck`),
//! and private cards from the deal every seat takes part in
//! (`roundtable-deal`), not from the [`OracleDealer`] here.

use crate::{
    CardHandle, ChanceOutcome, Distribution, EpochId, Game, Knowledge, MULTISET_BLOCK, Next,
    PrivateError, PrivateRequest, RequestError, Revealed, Seat,
};

/// Sample `distribution` using `uniform(n)`, which must return a uniform
/// integer in `[0, n)`. Multiset draws walk the counts in catalog order, the
/// same walk the protocol's sampler uses.
pub fn sample(
    distribution: &Distribution<'_>,
    uniform: &mut impl FnMut(u64) -> u64,
) -> ChanceOutcome {
    let mut outcome = ChanceOutcome::Cards(Vec::new());
    sample_into(distribution, uniform, &mut outcome);
    outcome
}

/// [`sample`] into `outcome`, reusing its card list: a playout answers a
/// chance request every other input, and a fresh list each time was a
/// quarter of the allocator's work in profiles of random games.
pub fn sample_into(
    distribution: &Distribution<'_>,
    uniform: &mut impl FnMut(u64) -> u64,
    outcome: &mut ChanceOutcome,
) {
    let (counts, total, take, blocks) = match *distribution {
        Distribution::Uniform { n } => {
            *outcome = ChanceOutcome::Index(uniform(n));
            return;
        }
        Distribution::Multiset {
            counts,
            total,
            take,
            blocks,
        } => (counts, total, take, blocks),
    };
    if !matches!(outcome, ChanceOutcome::Cards(_)) {
        *outcome = ChanceOutcome::Cards(Vec::new());
    }
    let ChanceOutcome::Cards(cards) = outcome else {
        return;
    };
    cards.clear();
    if take == 1 {
        // A playout's usual request: one card, found by skipping whole
        // blocks of the counts.
        if let Some(card) = draw_one(counts, blocks, total, uniform) {
            cards.push(card as u32);
        }
        return;
    }
    let mut left: Vec<u32> = counts.to_vec();
    let mut total: u64 = left.iter().map(|&c| u64::from(c)).sum();
    for _ in 0..take {
        if total == 0 {
            break;
        }
        if let Some(i) = weighted_position(&left, uniform(total)) {
            left[i] -= 1;
            total -= 1;
            cards.push(i as u32);
        }
    }
}

/// [`Game::apply_random_chance`] by the general path: sample `game`'s
/// pending chance request into `outcome` and apply it with
/// [`Game::apply_sampled_chance`]; `None` when no chance outcome is pending.
/// The default of that method, and what a game's override falls back to
/// for requests it does not sample itself.
pub fn apply_next_chance<G: Game>(
    game: &mut G,
    uniform: &mut impl FnMut(u64) -> u64,
    outcome: &mut ChanceOutcome,
    scratch: &mut Vec<G::Event>,
) -> Option<Result<(), G::Error>> {
    let Next::Chance(request) = game.next() else {
        return None;
    };
    sample_into(&request.distribution, uniform, outcome);
    Some(game.apply_sampled_chance(outcome, scratch))
}

/// Entries per block the walk skips at once.
const BLOCK: usize = MULTISET_BLOCK;

/// One card from the multiset `counts` whose sum is `total`, or `None` if it
/// is empty: the card whose share of the running sum of `counts` holds the
/// uniform draw, as in [`weighted_position`]. The distribution's total saves
/// adding up the whole catalog at every draw, and since every count is part
/// of a sum that fits in 32 bits so is every running sum. A `uniform` out of
/// its range gives the first entry, as the walk always has.
///
/// The draw is random, so a walk that stops where it lands stops at a
/// branch the processor cannot predict, twice a draw (once over the blocks,
/// once within one), and in profiles of random games those two were a
/// fifth of all mispredicted branches. Here the walk never stops early: it
/// counts the blocks, then the entries, whose running sum is at most the
/// draw, which is the position of the card, and the loops' lengths do not
/// depend on the draw.
pub fn draw_one(
    counts: &[u32],
    blocks: &[u32],
    total: u32,
    uniform: &mut impl FnMut(u64) -> u64,
) -> Option<usize> {
    debug_assert_eq!(
        u64::from(total),
        counts.iter().map(|&c| u64::from(c)).sum::<u64>(),
        "a multiset distribution's total is the sum of its counts"
    );
    let kept = blocks.len() == counts.len().div_ceil(BLOCK);
    debug_assert!(
        !kept
            || blocks
                .iter()
                .zip(counts.chunks(BLOCK))
                .all(|(&sum, run)| u64::from(sum) == run.iter().map(|&c| u64::from(c)).sum()),
        "a multiset distribution's blocks are the sums of its counts"
    );
    if total == 0 {
        return None;
    }
    let Ok(r) = u32::try_from(uniform(u64::from(total))) else {
        return Some(0);
    };
    if r >= total {
        return Some(0);
    }
    // Whole blocks lying below the draw: their running sums are at most `r`.
    // The holder's sums of the blocks save adding up every count; the last,
    // possibly partial, block is never below the draw (its running sum is
    // the total), so its sum counts the same as a block left out.
    let (blocks_below, below) = if kept {
        blocks_below(blocks.iter().copied(), r)
    } else {
        blocks_below(
            counts
                .chunks_exact(BLOCK)
                .map(|block| block.iter().fold(0u32, |s, &c| s.wrapping_add(c))),
            r,
        )
    };
    // Within the block (or the entries after the last whole block) that
    // holds the draw: the entries whose running sum is at most the rest.
    let first = blocks_below * BLOCK;
    let rest = r - below;
    let mut running = 0u32;
    let mut entries_below = 0usize;
    for &c in counts.get(first..).unwrap_or(&[]).iter().take(BLOCK) {
        running = running.wrapping_add(c);
        entries_below += usize::from(running <= rest);
    }
    Some(first + entries_below)
}

/// How many of the blocks with sums `sums` lie wholly at or below the draw
/// `r`, and their running sum.
#[inline(always)]
fn blocks_below(sums: impl Iterator<Item = u32>, r: u32) -> (usize, u32) {
    let mut running = 0u32;
    let mut below = 0u32;
    let mut count = 0usize;
    for sum in sums {
        running = running.wrapping_add(sum);
        let skipped = running <= r;
        count += usize::from(skipped);
        if skipped {
            below = running;
        }
    }
    (count, below)
}

/// The index whose share of the running sum of `counts` holds `r` (which
/// should be below the sum; `None` if it is not): the catalog-order walk of
/// the protocol's sampler.
#[inline]
fn weighted_position(counts: &[u32], mut r: u64) -> Option<usize> {
    for (i, &c) in counts.iter().enumerate() {
        if r < u64::from(c) {
            return Some(i);
        }
        r -= u64::from(c);
    }
    None
}

/// Why a simulated game stopped before its end.
#[derive(Debug, thiserror::Error)]
pub enum SimError<E: std::error::Error + 'static> {
    /// The game refused an input its own `legal_actions` or `next` offered.
    #[error("the game refused its own offer: {0}")]
    Refused(#[source] E),
    /// A seat had a decision but no legal action.
    #[error("{0} must decide but has no legal action")]
    NoLegalAction(Seat),
    /// The game did not end within the step limit.
    #[error("the game did not end within {0} inputs")]
    TooLong(usize),
    /// The game waits for a simultaneous choice, which this driver does not make.
    #[error("simultaneous choices are not simulated")]
    Simultaneous,
    /// The game asks for a private deal; [`play`] deals no private cards
    /// ([`play_private`] does).
    #[error("private cards are not dealt by this driver")]
    Private,
    /// The game asked the oracle dealer for something no deck allows.
    #[error("the dealer refused: {0}")]
    Dealer(#[source] DealerError),
    /// The game posed a private request no deal can serve (a table stops
    /// there, blaming nobody), by the rule it breaks.
    #[error("an unservable private request: {0}")]
    Unservable(#[source] RequestError),
}

/// Counts from a finished simulated game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Playout {
    /// Decisions applied.
    pub decisions: usize,
    /// Chance outcomes applied.
    pub chances: usize,
    /// Private-deal steps applied (deals, reveals, reshuffles).
    pub private_steps: usize,
}

/// Play `game` to its end: chance from `uniform`, decisions from `policy`
/// (given the seat, the state and its legal actions, returns an index into
/// them). `inspect` sees the state after every input.
///
/// Nobody reads a playout's events, and every input comes from the game's
/// own offer, so inputs go through [`Game::apply_legal_action`] and
/// [`Game::apply_sampled_chance`]: the states are the ones
/// [`Game::apply_action`] and [`Game::apply_chance`] would reach.
pub fn play<G: Game>(
    game: &mut G,
    max_inputs: usize,
    uniform: &mut impl FnMut(u64) -> u64,
    policy: &mut impl FnMut(Seat, &G, &[G::Action]) -> usize,
    inspect: &mut impl FnMut(&G),
) -> Result<Playout, SimError<G::Error>> {
    // Only games that record events on the fast path write here.
    let mut scratch = Vec::new();
    let mut actions = Vec::new();
    let mut outcome = ChanceOutcome::Cards(Vec::new());
    let mut counts = Playout::default();
    loop {
        if counts.decisions + counts.chances >= max_inputs {
            return Err(SimError::TooLong(max_inputs));
        }
        match game.next() {
            Next::Over => return Ok(counts),
            Next::Simultaneous(set) => {
                // Every seat chooses from the same state, before any choice
                // is applied, as the table's commit-then-open does.
                let mut choices = Vec::new();
                for seat in set.iter() {
                    game.legal_actions(seat, &mut actions);
                    if actions.is_empty() {
                        return Err(SimError::NoLegalAction(seat));
                    }
                    let i = policy(seat, game, &actions).min(actions.len() - 1);
                    choices.push((seat, actions[i].clone()));
                }
                for (seat, action) in choices {
                    game.apply_legal_action(seat, &action, &mut scratch)
                        .map_err(SimError::Refused)?;
                    counts.decisions += 1;
                }
            }
            Next::Private(_) => return Err(SimError::Private),
            Next::Chance(_) => {
                if let Some(applied) = game.apply_random_chance(uniform, &mut outcome, &mut scratch)
                {
                    applied.map_err(SimError::Refused)?;
                    counts.chances += 1;
                }
            }
            Next::Decision(seat) => {
                game.legal_actions(seat, &mut actions);
                if actions.is_empty() {
                    return Err(SimError::NoLegalAction(seat));
                }
                let i = policy(seat, game, &actions).min(actions.len() - 1);
                let action = actions[i].clone();
                game.apply_legal_action(seat, &action, &mut scratch)
                    .map_err(SimError::Refused)?;
                counts.decisions += 1;
            }
        }
        inspect(game);
    }
}

/// A private-deal request the [`OracleDealer`] cannot answer: the game asked
/// for a slot or an epoch its decks do not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DealerError {
    /// A reshuffle opened an epoch other than the next one.
    #[error("a reshuffle opened epoch {asked} but the next epoch is {next}")]
    EpochOutOfOrder {
        /// The epoch the request named.
        asked: u16,
        /// The epoch that comes next.
        next: u16,
    },
    /// The handle names no slot of any deck.
    #[error("no deck has slot {} of epoch {}", .0.slot, .0.epoch.0)]
    NoSlot(CardHandle),
    /// The slot was dealt before.
    #[error("slot {} of epoch {} was dealt twice", .0.slot, .0.epoch.0)]
    DealtTwice(CardHandle),
    /// A stacked deck is not an order of the pile the game reshuffles.
    #[error("the stacked deck is not an order of the {0} cards reshuffled")]
    NotAPermutation(usize),
}

/// A local stand-in for the deal every seat takes part in: it keeps the true
/// order of every deck and tells a dealt card only to the seat that receives
/// it. For tests and benchmarks; a real table never has such a party.
#[derive(Clone, Debug)]
pub struct OracleDealer {
    /// Every epoch's deck: the card in each slot.
    decks: Vec<Vec<u32>>,
    /// Every epoch's slots dealt so far.
    dealt: Vec<Vec<bool>>,
    knowledge: Vec<Knowledge>,
    /// Orders the next reshuffles take instead of shuffling, oldest first.
    stacked: std::collections::VecDeque<Vec<u32>>,
}

impl OracleDealer {
    /// A dealer for `seats` seats, with no deck yet (the game's first
    /// reshuffle opens epoch 0).
    pub fn new(seats: u8) -> Self {
        OracleDealer {
            decks: Vec::new(),
            dealt: Vec::new(),
            knowledge: vec![Knowledge::new(); usize::from(seats)],
            stacked: std::collections::VecDeque::new(),
        }
    }

    /// Make the next reshuffle not shuffle but lay the deck out as `order`
    /// (slot 0 first), for tests that need a known deal. The reshuffle
    /// refuses an order that is not a permutation of its pile.
    pub fn stack_next(&mut self, order: Vec<u32>) {
        self.stacked.push_back(order);
    }

    /// What `seat` has opened (empty for a seat not at the table).
    pub fn knowledge(&self, seat: Seat) -> &Knowledge {
        static NOTHING: std::sync::OnceLock<Knowledge> = std::sync::OnceLock::new();
        self.knowledge
            .get(seat.index())
            .unwrap_or_else(|| NOTHING.get_or_init(Knowledge::new))
    }

    /// How many slots the deck of `epoch` holds, if it was shuffled.
    pub fn deck_size(&self, epoch: EpochId) -> Option<u32> {
        self.decks
            .get(usize::from(epoch.0))
            .map(|deck| deck.len() as u32)
    }

    /// The true card in `handle`'s slot, whether or not anyone opened it.
    pub fn card(&self, handle: CardHandle) -> Result<u32, DealerError> {
        self.decks
            .get(usize::from(handle.epoch.0))
            .and_then(|deck| deck.get(handle.slot as usize))
            .copied()
            .ok_or(DealerError::NoSlot(handle))
    }

    /// The cards of the deck of `epoch` in slot order (empty if there is none).
    pub fn deck(&self, epoch: EpochId) -> &[u32] {
        self.decks
            .get(usize::from(epoch.0))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// The cards of the latest deck not dealt yet, in slot order.
    pub fn undealt(&self) -> Vec<u32> {
        match (self.decks.last(), self.dealt.last()) {
            (Some(deck), Some(dealt)) => deck
                .iter()
                .zip(dealt)
                .filter(|&(_, &was_dealt)| !was_dealt)
                .map(|(&card, _)| card)
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Shuffle `pile` into a new deck of `epoch` with `uniform(n)` (uniform
    /// in `[0, n)`), by Fisher–Yates.
    pub fn reshuffle(
        &mut self,
        pile: &[u32],
        epoch: EpochId,
        uniform: &mut impl FnMut(u64) -> u64,
    ) -> Result<(), DealerError> {
        let next = u16::try_from(self.decks.len()).unwrap_or(u16::MAX);
        if epoch.0 != next {
            return Err(DealerError::EpochOutOfOrder {
                asked: epoch.0,
                next,
            });
        }
        let deck = match self.stacked.front() {
            Some(order) => {
                let (mut sorted_order, mut sorted_pile) = (order.clone(), pile.to_vec());
                sorted_order.sort_unstable();
                sorted_pile.sort_unstable();
                if sorted_order != sorted_pile {
                    return Err(DealerError::NotAPermutation(pile.len()));
                }
                self.stacked.pop_front().unwrap_or_default()
            }
            None => {
                let mut deck = pile.to_vec();
                for i in (1..deck.len()).rev() {
                    let j = uniform(i as u64 + 1) as usize;
                    deck.swap(i, j.min(i));
                }
                deck
            }
        };
        self.dealt.push(vec![false; deck.len()]);
        self.decks.push(deck);
        Ok(())
    }

    /// Deal `count` slots from `first` to `to`: only `to` learns the cards.
    pub fn deal(&mut self, to: Seat, first: CardHandle, count: u32) -> Result<(), DealerError> {
        let handles: Vec<CardHandle> = (0..count)
            .map(|i| CardHandle::new(first.epoch, first.slot.saturating_add(i)))
            .collect();
        // Check every slot before dealing any, so a refused deal changes nothing.
        let mut cards = Vec::with_capacity(handles.len());
        for &handle in &handles {
            let card = self.card(handle)?;
            if self.dealt[usize::from(handle.epoch.0)][handle.slot as usize] {
                return Err(DealerError::DealtTwice(handle));
            }
            cards.push(card);
        }
        for (&handle, card) in handles.iter().zip(cards) {
            self.dealt[usize::from(handle.epoch.0)][handle.slot as usize] = true;
            if let Some(knowledge) = self.knowledge.get_mut(to.index()) {
                knowledge.learn(handle, card);
            }
        }
        Ok(())
    }

    /// Open `handles` for everyone: each with its true card.
    pub fn reveal(&self, handles: &[CardHandle]) -> Result<Vec<Revealed>, DealerError> {
        handles
            .iter()
            .map(|&handle| {
                Ok(Revealed {
                    handle,
                    card: self.card(handle)?,
                })
            })
            .collect()
    }
}

/// Play a game with private cards to its end: chance from `uniform`, the
/// deal from an [`OracleDealer`] (shuffled with `uniform` too), decisions from
/// `policy` (given the seat, the state, the seat's own knowledge and its legal
/// actions as [`Game::legal_actions_with`] lists them; returns an index).
/// An action's claimed cards are opened by the dealer and passed to
/// [`Game::apply_action_revealing`], as a table opens them from the holder's
/// share. `inspect` sees the state and the dealer after every input.
pub fn play_private<G: Game>(
    game: &mut G,
    dealer: &mut OracleDealer,
    max_inputs: usize,
    uniform: &mut impl FnMut(u64) -> u64,
    policy: &mut impl FnMut(Seat, &G, &Knowledge, &[G::Action]) -> usize,
    inspect: &mut impl FnMut(&G, &OracleDealer),
) -> Result<Playout, SimError<PrivateError<G::Error>>> {
    let mut events = Vec::new();
    let mut actions = Vec::new();
    let mut counts = Playout::default();
    let refused = |e: PrivateError<G::Error>| SimError::Refused(e);
    loop {
        if counts.decisions + counts.chances + counts.private_steps >= max_inputs {
            return Err(SimError::TooLong(max_inputs));
        }
        events.clear();
        if let Next::Private(request) = game.next()
            && let Err(e) = request.check(|epoch| dealer.deck_size(epoch))
        {
            return Err(SimError::Unservable(e));
        }
        match game.next() {
            Next::Over => return Ok(counts),
            Next::Simultaneous(set) => {
                // Every seat chooses from the same state, before any choice
                // is applied, as the table's commit-then-open does.
                let mut choices = Vec::new();
                for seat in set.iter() {
                    let knowledge = dealer.knowledge(seat);
                    game.legal_actions_with(seat, knowledge, &mut actions);
                    if actions.is_empty() {
                        return Err(SimError::NoLegalAction(seat));
                    }
                    let i = policy(seat, game, knowledge, &actions).min(actions.len() - 1);
                    choices.push((seat, actions[i].clone()));
                }
                for (seat, action) in choices {
                    game.apply_action_revealing(seat, &action, &[], &mut events)
                        .map_err(refused)?;
                    counts.decisions += 1;
                }
            }
            Next::Chance(request) => {
                let outcome = sample(&request.distribution, uniform);
                game.apply_chance(&outcome, &mut events)
                    .map_err(|e| refused(e.into()))?;
                counts.chances += 1;
            }
            Next::Private(PrivateRequest::Reshuffle { pile, epoch }) => {
                dealer
                    .reshuffle(pile, epoch, uniform)
                    .map_err(SimError::Dealer)?;
                game.apply_reshuffle(&mut events).map_err(refused)?;
                counts.private_steps += 1;
            }
            Next::Private(PrivateRequest::Deal { to, first, count }) => {
                dealer.deal(to, first, count).map_err(SimError::Dealer)?;
                game.apply_deal(&mut events).map_err(refused)?;
                counts.private_steps += 1;
            }
            Next::Private(PrivateRequest::Reveal { handles }) => {
                let cards = dealer.reveal(handles).map_err(SimError::Dealer)?;
                game.apply_reveal(&cards, &mut events).map_err(refused)?;
                counts.private_steps += 1;
            }
            Next::Decision(seat) => {
                let knowledge = dealer.knowledge(seat);
                game.legal_actions_with(seat, knowledge, &mut actions);
                if actions.is_empty() {
                    return Err(SimError::NoLegalAction(seat));
                }
                let i = policy(seat, game, knowledge, &actions).min(actions.len() - 1);
                let action = actions[i].clone();
                let handles: Vec<CardHandle> =
                    G::claims(&action).iter().map(|c| c.handle).collect();
                let revealed = dealer.reveal(&handles).map_err(SimError::Dealer)?;
                game.apply_action_revealing(seat, &action, &revealed, &mut events)
                    .map_err(refused)?;
                counts.decisions += 1;
            }
        }
        inspect(game, dealer);
    }
}

/// A uniform integer in `[0, n)` from a stream of uniform 64-bit words,
/// rejecting the words that would bias `v mod n` (the protocol's rule).
/// `n` must be at least 1.
pub fn uniform_below(n: u64, next_u64: &mut impl FnMut() -> u64) -> u64 {
    let n = n.max(1);
    // The rejected tail is shorter than `n`, so every word below
    // `u64::MAX - n + 1` is accepted without working out the tail's length:
    // that takes a second division, and a playout draws at every other input.
    let surely_accepted = u64::MAX - n + 1;
    let mut zone = None;
    loop {
        let v = next_u64();
        if v < surely_accepted
            || v <= *zone.get_or_insert_with(|| u64::MAX - (u64::MAX - n + 1) % n)
        {
            return v % n;
        }
    }
}

/// An integer in `[0, n)` from one uniform 64-bit word by multiplying: the
/// high word of `word × n` (Lemire's "fast range" reduction). Each result
/// comes from `⌊2^64 / n⌋` or `⌈2^64 / n⌉` words, so its probability is off
/// from `1/n` by less than `2^-64`; Lemire's rejection step would remove
/// even that, but measured in random playouts its never-taken branch cost
/// several percent.
///
/// Not the protocol's rule ([`uniform_below`], exactly uniform, whose
/// numbers every peer must reproduce): for a bot's own choices and
/// simulations, where a division per number was a measurable share of a
/// random playout. `n` must be at least 1.
#[inline]
pub fn uniform_by_multiply(n: u64, next_u64: &mut impl FnMut() -> u64) -> u64 {
    ((u128::from(next_u64()) * u128::from(n.max(1))) >> 64) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The high word of `word × n`, for words at the edges of the results'
    /// ranges: each result `k` takes the words from `⌈k·2^64/n⌉` on.
    #[test]
    fn uniform_by_multiply_maps_each_word_to_its_share_of_the_range() {
        for n in [
            1u64,
            2,
            3,
            6,
            7,
            96,
            1 << 32,
            (1 << 63) + 1,
            u64::MAX - 1,
            u64::MAX,
        ] {
            for k in [0, 1, n / 2, n - 1].into_iter().filter(|&k| k < n) {
                let first_word = ((u128::from(k) << 64).div_ceil(u128::from(n))) as u64;
                let mut once = Some(first_word);
                let got = uniform_by_multiply(n, &mut || once.take().unwrap_or(0));
                assert_eq!(got, k, "n {n}, the first word of result {k}");
                if first_word > 0 {
                    let mut once = Some(first_word - 1);
                    let below = uniform_by_multiply(n, &mut || once.take().unwrap_or(0));
                    assert_eq!(
                        below,
                        k.saturating_sub(1),
                        "n {n}, the word before result {k}"
                    );
                }
            }
            let mut last = Some(u64::MAX);
            assert_eq!(
                uniform_by_multiply(n, &mut || last.take().unwrap_or(0)),
                n - 1
            );
        }
    }

    /// The protocol's rule as written, computing the rejected tail first.
    fn uniform_below_by_the_rule(n: u64, next_u64: &mut impl FnMut() -> u64) -> u64 {
        let n = n.max(1);
        let zone = u64::MAX - (u64::MAX - n + 1) % n;
        loop {
            let v = next_u64();
            if v <= zone {
                return v % n;
            }
        }
    }

    #[test]
    fn uniform_below_accepts_and_rejects_exactly_as_the_rule_does() {
        // Bounds that leave long and short tails, words around every edge.
        let bounds = [
            1,
            2,
            3,
            6,
            7,
            96,
            1 << 32,
            (1 << 63) + 1,
            u64::MAX - 1,
            u64::MAX,
        ];
        for n in bounds {
            let zone = u64::MAX - (u64::MAX - n + 1) % n;
            let edges = [
                0,
                1,
                n - 1,
                u64::MAX - n,
                u64::MAX - n + 1,
                zone.saturating_sub(1),
                zone,
                zone.saturating_add(1),
                u64::MAX - 1,
                u64::MAX,
            ];
            for first in edges {
                // A rejected first word is followed by an accepted one.
                let words = [first, 5, 0];
                let mut a = words.iter().copied();
                let mut b = words.iter().copied();
                assert_eq!(
                    uniform_below(n, &mut || a.next().unwrap_or(0)),
                    uniform_below_by_the_rule(n, &mut || b.next().unwrap_or(0)),
                    "n = {n}, first word {first}"
                );
                assert_eq!(a.count(), b.count(), "n = {n}, first word {first}");
            }
        }
    }

    #[test]
    fn uniform_below_rejects_the_biased_tail() {
        // For n = 3, 2^64 mod 3 = 1, so only u64::MAX itself is rejected.
        let mut words = [u64::MAX, 7].into_iter();
        assert_eq!(uniform_below(3, &mut || words.next().unwrap_or(0)), 1);
        let mut one = || 42;
        assert_eq!(uniform_below(1, &mut one), 0);
    }

    #[test]
    fn one_card_draws_skip_blocks_to_the_same_card_as_the_plain_walk() {
        // 21 entries: two whole blocks and a partial one, with empty blocks,
        // empty entries and large counts that add up to more than 2^31.
        for big in [3, 1 << 30] {
            let counts: Vec<u32> = (0..21u32)
                .map(|i| match i {
                    0..=7 => 0,
                    9 | 20 => big,
                    _ => i % 3,
                })
                .collect();
            let total: u64 = counts.iter().map(|&c| u64::from(c)).sum();
            let probes = (0..total.min(64)).chain([total - 1, total / 2]);
            for r in probes {
                let mut plain = r;
                let expected = counts
                    .iter()
                    .position(|&c| {
                        let hit = plain < u64::from(c);
                        plain = plain.saturating_sub(u64::from(c));
                        hit
                    })
                    .unwrap_or(0);
                // Blocks the holder keeps, and none (the sampler adds them up).
                let kept: Vec<u32> = counts.chunks(BLOCK).map(|run| run.iter().sum()).collect();
                for blocks in [&kept[..], &[]] {
                    let mut asked = None;
                    let drawn = draw_one(&counts, blocks, total as u32, &mut |n| {
                        asked = Some(n);
                        r
                    });
                    assert_eq!(asked, Some(total));
                    assert_eq!(
                        drawn,
                        Some(expected),
                        "r = {r}, largest count {big}, {} blocks kept",
                        blocks.len()
                    );
                }
            }
        }
        assert_eq!(draw_one(&[0, 0, 0], &[], 0, &mut |_| 0), None);
        assert_eq!(draw_one(&[0, 0, 0], &[0], 0, &mut |_| 0), None);
    }

    #[test]
    fn multiset_sampling_walks_counts_in_catalog_order() {
        let counts = [2, 0, 1];
        let mut picks = [2u64, 0].into_iter();
        let outcome = sample(&Distribution::multiset(&counts, 2), &mut |_| {
            picks.next().unwrap_or(0)
        });
        assert_eq!(outcome, ChanceOutcome::Cards(vec![2, 0]));
    }
}
