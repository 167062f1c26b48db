//! The best plan for the takes a seat has left in a harbor: the cards worth
//! taking, priced once, and the search over ships and persons.

use roundtable_port_royal::CardId;
use smallvec::SmallVec;

/// Cards of a harbor and what the bot weighs in it, kept inline: the bot
/// weighs dozens of imagined harbors a decision (every card that may come
/// next), and a search calls it at every step of every playout, where
/// allocating them was a fifth of its time. A harbor rarely holds more
/// (more spill to the heap); bigger arrays cost more to copy.
pub(super) const INLINE: usize = 8;

/// A harbor's cards.
pub(super) type Cards = SmallVec<[CardId; INLINE]>;

/// The cards of a harbor worth taking, each priced once
/// ([`Ctx::take_options`]): the bot weighs a harbor with each card that may
/// come next, and pricing the harbor's own cards again for each was most of
/// a search's playout time.
#[derive(Debug, Default, PartialEq)]
pub(super) struct TakeOptions {
    /// Ships as (value, net coins, position, declined), most valuable
    /// first, then by position.
    pub(super) ships: SmallVec<[(f64, i64, usize, bool); INLINE]>,
    /// Persons as (price, value net of price, position), in harbor order.
    pub(super) persons: SmallVec<[(u32, f64, usize); INLINE]>,
}

/// What [`Ctx::add_take_option`] added to a [`TakeOptions`].
#[derive(Clone, Copy)]
pub(super) enum Added {
    /// A ship, at this index of the ships.
    Ship(usize),
    /// A person, the last one.
    Person,
    /// Nothing: the card is not worth taking.
    Nothing,
}

impl TakeOptions {
    /// [`Ctx::best_takes`] of the cards priced here.
    pub(super) fn best_plan(&self, takes: u32, coins: u32) -> (f64, Option<(usize, bool)>) {
        let TakeOptions { ships, persons } = self;
        let mut best = (0.0, None);
        let most_ships = (takes as usize).min(ships.len());
        for s in 0..=most_ships {
            let income: i64 = ships[..s].iter().map(|x| x.1).sum();
            let traded: f64 = ships[..s].iter().map(|x| x.0).sum();
            let budget = u32::try_from((i64::from(coins) + income).max(0)).unwrap_or(u32::MAX);
            let (hired, first_person) = best_persons(persons, takes as usize - s, budget);
            let value = traded + hired;
            let first = if s > 0 {
                Some((ships[0].2, ships[0].3))
            } else {
                first_person.map(|p| (p, false))
            };
            if value > best.0 + 1e-9 {
                best = (value, first);
            }
        }
        best
    }

    /// Undo the [`Ctx::add_take_option`] that returned `added`: weighing
    /// each card that may come next with a copy of the harbor's options
    /// was a fifth of a playout's time.
    pub(super) fn take_back(&mut self, added: Added) {
        match added {
            Added::Ship(at) => {
                self.ships.remove(at);
            }
            Added::Person => {
                self.persons.pop();
            }
            Added::Nothing => {}
        }
    }
}

/// Positions of the persons a plan hires: at most one per take.
pub(super) type Chosen = SmallVec<[usize; 4]>;

/// The ship colours in `harbor`, one bit each.
pub(super) fn colour_bits(harbor: &[CardId]) -> u8 {
    harbor
        .iter()
        .filter_map(|c| c.ship_colour())
        .fold(0u8, |m, c| m | c.bit())
}

/// The best total net value of at most `slots` persons costing at most
/// `budget`, and the position of one of them (the dearest: hire it first).
pub(super) fn best_persons(
    persons: &[(u32, f64, usize)],
    slots: usize,
    budget: u32,
) -> (f64, Option<usize>) {
    let mut best = (0.0, Chosen::new());
    let mut chosen = Chosen::new();
    search_persons(persons, 0, slots, budget, &mut chosen, &mut best, 0.0);
    let first = best
        .1
        .iter()
        .max_by_key(|&&i| persons[i].0)
        .map(|&i| persons[i].2);
    (best.0, first)
}

/// Depth-first search over subsets of `persons[from..]` (absolute indices).
pub(super) fn search_persons(
    persons: &[(u32, f64, usize)],
    from: usize,
    slots: usize,
    budget: u32,
    chosen: &mut Chosen,
    best: &mut (f64, Chosen),
    value: f64,
) {
    if value > best.0 + 1e-9 {
        *best = (value, chosen.clone());
    }
    if slots == 0 {
        return;
    }
    for i in from..persons.len() {
        let (price, net, _) = persons[i];
        if price <= budget {
            chosen.push(i);
            search_persons(
                persons,
                i + 1,
                slots - 1,
                budget - price,
                chosen,
                best,
                value + net,
            );
            chosen.pop();
        }
    }
}

/// Symbols an expedition still lacks, Jacks covering any.
pub(super) fn shortfall(have: [u32; 4], need: [u32; 3]) -> u32 {
    let short: u32 = (0..3).map(|i| need[i].saturating_sub(have[i])).sum();
    short.saturating_sub(have[3])
}
