//! One player's display: persons, expeditions, the expansion's cubes, and
//! the counts over them the rules read at nearly every input.

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use crate::catalog::{CATALOG, CardId, CardKind, Colour, PersonKind};
use crate::contracts::{CUBES, ContractId, contract_vp};
use roundtable_engine::FaceDown;

/// One player's display.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Player {
    /// Face-down coins, by the epoch they were drawn in.
    pub(crate) coins: FaceDown,
    /// Hired persons in the order they were hired.
    pub(super) persons: Vec<CardId>,
    /// Claimed expeditions in the order they were claimed.
    pub(super) expeditions: Vec<CardId>,
    /// Abilities and points of the display, kept in step with it: the rules
    /// ask for them at nearly every input, and counting the persons each time
    /// was the largest cost in profiles of random games.
    pub(super) tally: Tally,
    /// Expansion: the contracts this player completed, in the order completed
    /// (each holds one of the player's cubes).
    pub(super) completed: Vec<ContractId>,
    /// Expansion: progress cubes, as (contract, times met so far), in the
    /// order placed. Each holds one of the player's cubes until the contract
    /// is completed, when the same cube moves onto its coin space.
    pub(super) progress: Vec<(ContractId, u8)>,
    /// Expansion (Pack of Pirates): the first repelled ship of each colour,
    /// kept aside in front of the player until all five colours are there.
    pub(super) kept_aside: Vec<CardId>,
}

/// Counts over a player's display.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Tally {
    /// Persons per kind, indexed by `PersonKind as usize`.
    pub(super) kinds: [u8; 14],
    /// Traders per colour, indexed by `Colour as usize`.
    pub(super) traders: [u8; 5],
    /// Clerks per colour, indexed by `Colour as usize` (expansion).
    pub(super) clerks: [u8; 5],
    /// Persons per printed hire cost (the last entry counts every higher
    /// cost), for Cheap Staff.
    pub(super) by_cost: [u8; COST_BUCKETS],
    /// Victory points of persons and expeditions.
    pub(super) vp: u32,
}

/// Printed hire costs the tally tells apart (0 up to 15; the catalog's
/// highest is 9).
pub(super) const COST_BUCKETS: usize = 16;

pub(super) fn cost_bucket(cost: u8) -> usize {
    usize::from(cost).min(COST_BUCKETS - 1)
}

impl Tally {
    pub(super) fn add(&mut self, card: CardId) {
        match card.kind() {
            CardKind::Person {
                kind,
                colour,
                cost,
                vp,
            } => {
                self.kinds[kind as usize] += 1;
                match (kind, colour) {
                    (PersonKind::Trader, Some(c)) => self.traders[c as usize] += 1,
                    (PersonKind::Clerk, Some(c)) => self.clerks[c as usize] += 1,
                    _ => {}
                }
                self.by_cost[cost_bucket(cost)] += 1;
                self.vp += u32::from(vp);
            }
            CardKind::Expedition { vp, .. } => self.vp += u32::from(vp),
            CardKind::Ship { .. } | CardKind::Tax(_) => {}
        }
    }

    pub(super) fn remove(&mut self, card: CardId) {
        if let CardKind::Person {
            kind,
            colour,
            cost,
            vp,
        } = card.kind()
        {
            self.kinds[kind as usize] -= 1;
            match (kind, colour) {
                (PersonKind::Trader, Some(c)) => self.traders[c as usize] -= 1,
                (PersonKind::Clerk, Some(c)) => self.clerks[c as usize] -= 1,
                _ => {}
            }
            self.by_cost[cost_bucket(cost)] -= 1;
            self.vp -= u32::from(vp);
        }
    }
}

impl Player {
    pub(crate) fn coins(&self) -> u32 {
        self.coins.total()
    }

    pub(crate) fn persons(&self) -> &[CardId] {
        &self.persons
    }

    pub(crate) fn expeditions(&self) -> &[CardId] {
        &self.expeditions
    }

    pub(super) fn hire(&mut self, card: CardId) {
        self.persons.push(card);
        self.tally.add(card);
    }

    pub(super) fn dismiss(&mut self, position: usize) -> CardId {
        let card = self.persons.remove(position);
        self.tally.remove(card);
        card
    }

    pub(super) fn add_expedition(&mut self, card: CardId) {
        self.expeditions.push(card);
        self.tally.add(card);
    }

    pub(crate) fn count(&self, kind: PersonKind) -> u32 {
        u32::from(self.tally.kinds[kind as usize])
    }

    pub(crate) fn swords(&self) -> u32 {
        self.count(PersonKind::Sailor) * PersonKind::Sailor.swords()
            + self.count(PersonKind::Pirate) * PersonKind::Pirate.swords()
    }

    /// Victory points: persons, expeditions and (expansion) contracts.
    pub(crate) fn vp(&self) -> u32 {
        self.tally.vp + self.contract_vp()
    }

    /// Victory points from completed contracts.
    pub(crate) fn contract_vp(&self) -> u32 {
        contract_vp(self.completed.len())
    }

    pub(super) fn traders(&self, colour: Colour) -> u32 {
        u32::from(self.tally.traders[colour as usize])
    }

    pub(super) fn clerks(&self, colour: Colour) -> u32 {
        u32::from(self.tally.clerks[colour as usize])
    }

    /// Persons whose printed hire cost is at most `max_cost`.
    pub(super) fn persons_costing_at_most(&self, max_cost: u8) -> u32 {
        self.tally.by_cost[..=cost_bucket(max_cost)]
            .iter()
            .map(|&n| u32::from(n))
            .sum()
    }

    /// Completed contracts, in the order completed.
    pub(crate) fn completed(&self) -> &[ContractId] {
        &self.completed
    }

    /// Progress cubes: (contract, times met so far).
    pub(crate) fn progress(&self) -> &[(ContractId, u8)] {
        &self.progress
    }

    /// Ships kept aside for Pack of Pirates.
    pub(crate) fn kept_aside(&self) -> &[CardId] {
        &self.kept_aside
    }

    /// Cubes not on any contract yet.
    pub(crate) fn free_cubes(&self) -> u32 {
        CUBES.saturating_sub((self.completed.len() + self.progress.len()) as u32)
    }

    pub(super) fn has_completed(&self, contract: ContractId) -> bool {
        self.completed.contains(&contract)
    }

    /// Times this player met a multi-step contract so far (0: no cube on it).
    pub(super) fn progress_of(&self, contract: ContractId) -> u8 {
        self.progress
            .iter()
            .find(|(c, _)| *c == contract)
            .map_or(0, |&(_, step)| step)
    }

    /// Captains, Priests, Settlers and Jacks of all Trades.
    pub(super) fn expedition_persons(&self) -> [u32; 4] {
        [
            PersonKind::Captain,
            PersonKind::Priest,
            PersonKind::Settler,
            PersonKind::Jack,
        ]
        .map(|k| self.count(k))
    }

    /// Whether this player has the persons an expedition needs.
    pub(super) fn can_fulfil(&self, anchors: u8, crosses: u8, houses: u8) -> bool {
        fulfils(self.expedition_persons(), anchors, crosses, houses)
    }

    /// The positions of the persons this player discards for an expedition
    /// it can fulfil. Matching persons go first and Jacks of all Trades only
    /// cover what they lack: a Jack can stand in for any symbol, so keeping
    /// Jacks never leaves a player worse off. Kept inline: the catalog's
    /// dearest expedition asks for [`PAYMENT_INLINE`] persons at most, and a
    /// playout claims one or two expeditions a game.
    pub(super) fn expedition_payment(&self, anchors: u8, crosses: u8, houses: u8) -> Payment {
        let mut chosen = Payment::new();
        let mut short = 0;
        for (kind, need) in [
            (PersonKind::Captain, anchors),
            (PersonKind::Priest, crosses),
            (PersonKind::Settler, houses),
        ] {
            let mut need = usize::from(need);
            for (i, c) in self.persons.iter().enumerate() {
                if need == 0 {
                    break;
                }
                if matches!(c.kind(), CardKind::Person { kind: k, .. } if k == kind) {
                    chosen.push(i);
                    need -= 1;
                }
            }
            short += need;
        }
        for (i, c) in self.persons.iter().enumerate() {
            if short == 0 {
                break;
            }
            if matches!(
                c.kind(),
                CardKind::Person {
                    kind: PersonKind::Jack,
                    ..
                }
            ) {
                chosen.push(i);
                short -= 1;
            }
        }
        chosen
    }
}

/// Persons a claim pays with, by position in the display.
pub(super) type Payment = SmallVec<[usize; PAYMENT_INLINE]>;

/// The fewest and the most symbols (anchors, crosses, houses) an
/// expedition of the catalog needs.
pub(super) const EXPEDITION_SYMBOLS: (u32, u32) = {
    let (mut fewest, mut most) = (u32::MAX, 0);
    let mut i = 0;
    while i < CATALOG.len() {
        if let CardKind::Expedition {
            anchors,
            crosses,
            houses,
            ..
        } = CATALOG[i].kind
        {
            let symbols = anchors as u32 + crosses as u32 + houses as u32;
            if symbols < fewest {
                fewest = symbols;
            }
            if symbols > most {
                most = symbols;
            }
        }
        i += 1;
    }
    (fewest, most)
};

/// The persons one claim discards at most.
pub(super) const PAYMENT_INLINE: usize = EXPEDITION_SYMBOLS.1 as usize;

/// A seat with fewer Captains, Priests, Settlers and Jacks together than
/// this can claim no expedition.
pub(super) const MIN_EXPEDITION_SYMBOLS: u32 = EXPEDITION_SYMBOLS.0;

/// Whether Captains, Priests, Settlers and Jacks (in that order) cover an
/// expedition's anchors, crosses and houses, Jacks standing in for any symbol.
pub(super) fn fulfils(persons: [u32; 4], anchors: u8, crosses: u8, houses: u8) -> bool {
    let [captains, priests, settlers, jacks] = persons;
    let short = u32::from(anchors).saturating_sub(captains)
        + u32::from(crosses).saturating_sub(priests)
        + u32::from(houses).saturating_sub(settlers);
    short <= jacks
}
