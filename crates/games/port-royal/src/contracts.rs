//! The 16 contracts of "Just One More Contract": one data table, one row per
//! contract, like the card catalog.
//!
//! Rows never move: the setup's chance outcomes name a contract by its row
//! (a draw from the [`contract_pile`] multiset), so a row's index is part of
//! the protocol. The coins per completion order are the card table's
//! (Port Royal's card data, `docs/RULES.md`); a "—" there is a 0 here: the space
//! exists (the contract can still be completed, and counts for victory
//! points) but pays no coins.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::catalog::{Colour, PersonKind};

/// Contracts face up from the setup on; the rest stay face down all game.
pub const FACE_UP_CONTRACTS: usize = 4;

/// Wooden cubes per player: each completed contract and each progress cube
/// (Frigate Foe, Galleon Foe, Tiny Gamester) holds one.
pub const CUBES: u32 = 3;

/// Victory points for a player's 1st, 2nd and 3rd completed contract.
pub const CONTRACT_VP: [u32; CUBES as usize] = [0, 1, 2];

/// What completing a contract takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Requirement {
    /// Both persons in the display; the same kind twice means two of it.
    Persons(PersonKind, PersonKind),
    /// This many persons whose printed hire cost is at most `max_cost`
    /// (Mademoiselles' discounts do not count).
    CheapPersons {
        /// Persons needed.
        count: u8,
        /// Highest printed cost that counts.
        max_cost: u8,
    },
    /// At least this many swords.
    Swords(u8),
    /// At least this many expeditions.
    Expeditions(u8),
    /// Lose coins to a tax increase.
    PayTaxes,
    /// Trade a ship of this colour and decline its coins, `times` times.
    Decline {
        /// The ship's colour.
        colour: Colour,
        /// Declines needed; the ones before the last move a progress cube.
        times: u8,
    },
    /// As the active player, go bust on two ships of one colour.
    Bust,
    /// As the active player, have ships of this many colours in the harbor,
    /// on `times` different turns (a progress cube marks the earlier ones).
    HarborColours {
        /// Different ship colours in the harbor.
        colours: u8,
        /// Turns on which it must happen.
        times: u8,
    },
    /// As the active player, repel a ship of every colour; the first of each
    /// colour is kept aside until all five are there.
    RepelAllColours,
}

impl Requirement {
    /// How many times the requirement must be met; every time but the last
    /// places or moves a progress cube.
    pub fn steps(self) -> u8 {
        match self {
            Requirement::Decline { times, .. } | Requirement::HarborColours { times, .. } => times,
            _ => 1,
        }
    }

    /// Whether only the active player can meet it (Pack of Pirates, the
    /// Gamesters, Jinx, per the rules text).
    pub fn active_only(self) -> bool {
        matches!(
            self,
            Requirement::Bust | Requirement::HarborColours { .. } | Requirement::RepelAllColours
        )
    }

    /// Whether it is a state of the display (checked whenever the display
    /// changes) rather than something the player does.
    pub fn is_display(self) -> bool {
        matches!(
            self,
            Requirement::Persons(..)
                | Requirement::CheapPersons { .. }
                | Requirement::Swords(_)
                | Requirement::Expeditions(_)
        )
    }
}

/// One row of the contract table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContractType {
    /// Kebab-case name, as chance outcomes and views write it after `contract:`.
    pub slug: &'static str,
    /// The printed title.
    pub title: &'static str,
    /// What completing it takes.
    pub requirement: Requirement,
    /// Coins for the 1st, 2nd, ... player to complete it (0: none).
    pub coins: [u8; 5],
}

const fn contract(
    slug: &'static str,
    title: &'static str,
    requirement: Requirement,
    coins: [u8; 5],
) -> ContractType {
    ContractType {
        slug,
        title,
        requirement,
        coins,
    }
}

use PersonKind::{
    Captain, Clerk, Gunner, Jester, Mademoiselle, Priest, Settler, Trader, ViceAdmiral,
};
use Requirement::{
    Bust, CheapPersons, Decline, Expeditions, HarborColours, PayTaxes, Persons, RepelAllColours,
    Swords,
};

/// Every contract, in the order of the card table.
pub static CONTRACTS: &[ContractType] = &[
    contract(
        "lady-killer",
        "Lady Killer",
        Persons(Captain, Mademoiselle),
        [3, 2, 1, 0, 0],
    ),
    contract(
        "trader-prince",
        "Trader Prince",
        Persons(Trader, Trader),
        [3, 2, 1, 0, 0],
    ),
    contract(
        "trade-outpost",
        "Trade Outpost",
        Persons(Settler, Clerk),
        [4, 3, 2, 1, 0],
    ),
    contract(
        "new-colony",
        "New Colony",
        Persons(Settler, Gunner),
        [3, 2, 1, 0, 0],
    ),
    contract(
        "comedian",
        "Comedian",
        Persons(Priest, Jester),
        [4, 3, 2, 1, 0],
    ),
    contract(
        "maritime-supremacy",
        "Maritime Supremacy",
        Persons(Captain, ViceAdmiral),
        [4, 3, 2, 1, 0],
    ),
    contract(
        "cheap-staff",
        "Cheap Staff",
        CheapPersons {
            count: 4,
            max_cost: 3,
        },
        [5, 4, 3, 2, 1],
    ),
    contract("fighter", "Fighter", Swords(3), [3, 2, 1, 0, 0]),
    contract("explorer", "Explorer", Expeditions(1), [2, 1, 0, 0, 0]),
    contract("tax-officer", "Tax Officer", PayTaxes, [7, 7, 7, 7, 7]),
    contract(
        "frigate-foe",
        "Frigate Foe",
        Decline {
            colour: Colour::Red,
            times: 3,
        },
        [8, 6, 5, 4, 3],
    ),
    contract(
        "galleon-foe",
        "Galleon Foe",
        Decline {
            colour: Colour::Black,
            times: 2,
        },
        [6, 5, 4, 3, 2],
    ),
    contract("jinx", "Jinx", Bust, [1, 1, 1, 1, 1]),
    contract(
        "gamester",
        "Gamester",
        HarborColours {
            colours: 4,
            times: 1,
        },
        [2, 1, 0, 0, 0],
    ),
    contract(
        "tiny-gamester",
        "Tiny Gamester",
        HarborColours {
            colours: 3,
            times: 2,
        },
        [2, 1, 0, 0, 0],
    ),
    contract(
        "pack-of-pirates",
        "Pack of Pirates",
        RepelAllColours,
        [3, 2, 1, 0, 0],
    ),
];

/// A row of the contract table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ContractId(pub u8);

impl ContractId {
    /// The table row of this contract.
    pub fn contract(self) -> &'static ContractType {
        &CONTRACTS[usize::from(self.0)]
    }

    /// What completing it takes.
    pub fn requirement(self) -> Requirement {
        self.contract().requirement
    }

    /// The contract from a row index, if there is such a row.
    pub fn from_index(index: u32) -> Option<ContractId> {
        let i = u8::try_from(index).ok()?;
        (usize::from(i) < CONTRACTS.len()).then_some(ContractId(i))
    }

    /// Every contract in table order.
    pub fn all() -> impl Iterator<Item = ContractId> {
        (0..CONTRACTS.len()).filter_map(|i| ContractId::from_index(i as u32))
    }

    /// Coins for the player who completes it after `done` others did.
    pub fn coins_for(self, done: usize) -> u32 {
        self.contract().coins.get(done).map_or(0, |&c| u32::from(c))
    }

    /// The name as chance outcomes and views write it ("contract:frigate-foe").
    pub fn name(self) -> String {
        self.to_string()
    }

    /// The contract with this name ("contract:frigate-foe").
    pub fn parse(name: &str) -> Option<ContractId> {
        let slug = name.strip_prefix("contract:")?;
        ContractId::all().find(|c| c.contract().slug == slug)
    }
}

impl fmt::Display for ContractId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "contract:{}", self.contract().slug)
    }
}

/// The face-down contracts before the setup: one of each, per table row.
pub fn contract_pile() -> Vec<u32> {
    vec![1; CONTRACTS.len()]
}

/// Victory points of a player who completed `completed` contracts.
pub fn contract_vp(completed: usize) -> u32 {
    // A running sum of CONTRACT_VP, looked up: the base game asks for every
    // player's points at each tax bonus and hire, always with 0 contracts.
    const TOTAL: [u32; CUBES as usize + 1] = {
        let mut t = [0; CUBES as usize + 1];
        let mut i = 0;
        while i < CONTRACT_VP.len() {
            t[i + 1] = t[i] + CONTRACT_VP[i];
            i += 1;
        }
        t
    };
    TOTAL[completed.min(CONTRACT_VP.len())]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixteen_contracts_with_unique_names_that_parse_back() {
        assert_eq!(CONTRACTS.len(), 16);
        let mut seen = std::collections::HashSet::new();
        for c in ContractId::all() {
            assert!(seen.insert(c.name()), "duplicate {c}");
            assert_eq!(ContractId::parse(&c.name()), Some(c));
        }
        assert_eq!(
            ContractId::parse("contract:frigate-foe").map(|c| c.requirement().steps()),
            Some(3)
        );
        assert_eq!(ContractId::parse("frigate-foe"), None);
    }

    #[test]
    fn coins_fall_with_completion_order_and_vp_follow_the_count() {
        let foe = ContractId::parse("contract:frigate-foe").unwrap();
        assert_eq!(
            (0..6).map(|n| foe.coins_for(n)).collect::<Vec<_>>(),
            [8, 6, 5, 4, 3, 0]
        );
        for c in ContractId::all() {
            let coins = c.contract().coins;
            assert!(coins.windows(2).all(|w| w[0] >= w[1]), "{c}");
        }
        assert_eq!((0..4).map(contract_vp).collect::<Vec<_>>(), [0, 0, 1, 3]);
    }
}
