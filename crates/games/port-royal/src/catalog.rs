//! The Port Royal card catalog: one table, one row per distinct card.
//!
//! Identical copies share a row (and a name); `base` is how many copies the
//! base game has and `expansion` how many more "Just One More Contract" adds.
//! Rows never move: a card's catalog index is part of the protocol (chance
//! outcomes name catalog indices), so new rows are only ever appended.
//!
//! Facts the card data marks *assumed* (`docs/RULES.md`: the split of
//! Gunner and Vice Admiral costs, the coins of four expansion ships) are kept
//! here as data, so one edit of this table fixes them.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A ship colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Colour {
    /// Pinnace.
    Yellow,
    /// Flute.
    Blue,
    /// Skiff.
    Green,
    /// Frigate.
    Red,
    /// Galleon.
    Black,
}

impl Colour {
    /// All colours in catalog order.
    pub const ALL: [Colour; 5] = [
        Colour::Yellow,
        Colour::Blue,
        Colour::Green,
        Colour::Red,
        Colour::Black,
    ];

    /// The colour's name in card names ("yellow").
    pub fn name(self) -> &'static str {
        match self {
            Colour::Yellow => "yellow",
            Colour::Blue => "blue",
            Colour::Green => "green",
            Colour::Red => "red",
            Colour::Black => "black",
        }
    }

    /// The ship type of this colour ("Pinnace").
    pub fn ship_name(self) -> &'static str {
        match self {
            Colour::Yellow => "Pinnace",
            Colour::Blue => "Flute",
            Colour::Green => "Skiff",
            Colour::Red => "Frigate",
            Colour::Black => "Galleon",
        }
    }

    /// A bit for sets of colours.
    pub fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// The kinds of person.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum PersonKind {
    /// +1 coin when trading a ship of its colour.
    Trader,
    /// 1 sword.
    Sailor,
    /// 2 swords.
    Pirate,
    /// Anchor, for expeditions.
    Captain,
    /// Cross, for expeditions.
    Priest,
    /// House, for expeditions.
    Settler,
    /// Jack of all Trades: any one expedition symbol.
    Jack,
    /// Hire costs 1 coin less.
    Mademoiselle,
    /// Coins on a bust and on an empty harbor.
    Jester,
    /// +2 coins when the harbor holds 5+ cards at your time to take.
    Admiral,
    /// Take 1 more card in Trade & Hire.
    Governor,
    /// Expansion: trading a ship of its colour allows 1 more card.
    Clerk,
    /// Expansion: coins = ships in harbor − 1 at your time to take.
    Gunner,
    /// Expansion: +1 coin when the harbor holds 3 or 4 cards at your time to take.
    ViceAdmiral,
}

impl PersonKind {
    /// The kind's name in card names ("trader").
    pub fn name(self) -> &'static str {
        match self {
            PersonKind::Trader => "trader",
            PersonKind::Sailor => "sailor",
            PersonKind::Pirate => "pirate",
            PersonKind::Captain => "captain",
            PersonKind::Priest => "priest",
            PersonKind::Settler => "settler",
            PersonKind::Jack => "jack",
            PersonKind::Mademoiselle => "mademoiselle",
            PersonKind::Jester => "jester",
            PersonKind::Admiral => "admiral",
            PersonKind::Governor => "governor",
            PersonKind::Clerk => "clerk",
            PersonKind::Gunner => "gunner",
            PersonKind::ViceAdmiral => "vice-admiral",
        }
    }

    /// Swords this person gives.
    pub fn swords(self) -> u32 {
        match self {
            PersonKind::Sailor => 1,
            PersonKind::Pirate => 2,
            _ => 0,
        }
    }
}

/// Which bonus a tax increase pays after the halving.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum TaxKind {
    /// The player(s) with the most swords gain 1 coin.
    MostSwords,
    /// The player(s) with the fewest victory points gain 1 coin.
    FewestPoints,
}

/// What a card is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CardKind {
    /// A ship: repel it, or trade it for coins.
    Ship {
        /// Its colour.
        colour: Colour,
        /// Swords needed to repel it; `None` for a skull ship (never repelled).
        swords: Option<u8>,
        /// Coins for trading it.
        coins: u8,
        /// Expansion: another player of the taker's choice gains 1 coin.
        gift: bool,
    },
    /// A person to hire.
    Person {
        /// Its kind.
        kind: PersonKind,
        /// Colour of a Trader or Clerk.
        colour: Option<Colour>,
        /// Hire cost in coins.
        cost: u8,
        /// Victory points.
        vp: u8,
    },
    /// An expedition to claim with persons.
    Expedition {
        /// Anchors (Captains) needed.
        anchors: u8,
        /// Crosses (Priests) needed.
        crosses: u8,
        /// Houses (Settlers) needed.
        houses: u8,
        /// Victory points.
        vp: u8,
        /// Coins gained on claiming.
        coins: u8,
        /// Used only with 5 players, face up from the start.
        five_players: bool,
    },
    /// A tax increase.
    Tax(TaxKind),
}

/// One row of the catalog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardType {
    /// What the card is.
    pub kind: CardKind,
    /// Copies in the base game.
    pub base: u8,
    /// Further copies the expansion adds.
    pub expansion: u8,
}

const fn ship(colour: Colour, swords: u8, coins: u8, base: u8, expansion: u8) -> CardType {
    CardType {
        kind: CardKind::Ship {
            colour,
            swords: Some(swords),
            coins,
            gift: false,
        },
        base,
        expansion,
    }
}

const fn skull(colour: Colour, coins: u8, base: u8) -> CardType {
    CardType {
        kind: CardKind::Ship {
            colour,
            swords: None,
            coins,
            gift: false,
        },
        base,
        expansion: 0,
    }
}

const fn gift(colour: Colour, swords: Option<u8>, coins: u8) -> CardType {
    CardType {
        kind: CardKind::Ship {
            colour,
            swords,
            coins,
            gift: true,
        },
        base: 0,
        expansion: 1,
    }
}

const fn person(kind: PersonKind, cost: u8, vp: u8, base: u8, expansion: u8) -> CardType {
    CardType {
        kind: CardKind::Person {
            kind,
            colour: None,
            cost,
            vp,
        },
        base,
        expansion,
    }
}

const fn coloured(
    kind: PersonKind,
    colour: Colour,
    cost: u8,
    vp: u8,
    base: u8,
    expansion: u8,
) -> CardType {
    CardType {
        kind: CardKind::Person {
            kind,
            colour: Some(colour),
            cost,
            vp,
        },
        base,
        expansion,
    }
}

const fn expedition(
    anchors: u8,
    crosses: u8,
    houses: u8,
    vp: u8,
    coins: u8,
    five: bool,
) -> CardType {
    CardType {
        kind: CardKind::Expedition {
            anchors,
            crosses,
            houses,
            vp,
            coins,
            five_players: five,
        },
        base: 1,
        expansion: 0,
    }
}

use Colour::{Black, Blue, Green, Red, Yellow};
use PersonKind::{
    Admiral, Captain, Clerk, Governor, Gunner, Jack, Jester, Mademoiselle, Pirate, Priest, Sailor,
    Settler, Trader, ViceAdmiral,
};

/// Every distinct card, base game and expansion, in catalog order.
pub static CATALOG: &[CardType] = &[
    // Ships: colour, swords, coins, base copies, expansion copies.
    ship(Yellow, 1, 1, 3, 0),
    ship(Yellow, 1, 2, 1, 0),
    ship(Yellow, 2, 2, 2, 0),
    ship(Yellow, 2, 3, 1, 0),
    ship(Yellow, 4, 3, 2, 0),
    ship(Yellow, 4, 4, 1, 0),
    ship(Blue, 1, 1, 3, 1),
    ship(Blue, 1, 2, 1, 0),
    ship(Blue, 2, 2, 2, 0),
    ship(Blue, 2, 3, 1, 0),
    ship(Blue, 5, 3, 2, 0),
    ship(Blue, 5, 4, 1, 0),
    ship(Green, 1, 1, 3, 1),
    ship(Green, 1, 2, 1, 0),
    ship(Green, 3, 2, 2, 0),
    ship(Green, 3, 3, 1, 0),
    ship(Green, 5, 3, 2, 0),
    ship(Green, 5, 4, 1, 0),
    ship(Red, 1, 1, 3, 1),
    ship(Red, 3, 2, 3, 0),
    ship(Red, 6, 3, 2, 0),
    skull(Red, 3, 1),
    skull(Red, 4, 1),
    ship(Black, 2, 1, 3, 1),
    ship(Black, 4, 2, 3, 0),
    ship(Black, 7, 3, 2, 0),
    skull(Black, 3, 1),
    skull(Black, 4, 1),
    // Persons: kind, (colour,) cost, VP, base copies, expansion copies.
    coloured(Trader, Black, 3, 1, 2, 0),
    coloured(Trader, Green, 3, 1, 2, 0),
    coloured(Trader, Red, 3, 1, 2, 0),
    coloured(Trader, Blue, 3, 1, 1, 0),
    coloured(Trader, Blue, 5, 2, 1, 0),
    coloured(Trader, Yellow, 3, 1, 1, 0),
    coloured(Trader, Yellow, 5, 2, 1, 0),
    person(Sailor, 3, 1, 7, 0),
    person(Sailor, 5, 2, 2, 0),
    person(Sailor, 7, 3, 1, 0),
    person(Pirate, 5, 1, 1, 0),
    person(Pirate, 7, 2, 1, 0),
    person(Pirate, 9, 3, 1, 0),
    person(Captain, 4, 1, 5, 0),
    person(Priest, 4, 1, 5, 0),
    person(Settler, 4, 1, 5, 0),
    person(Jack, 6, 1, 3, 0),
    person(Mademoiselle, 7, 2, 2, 0),
    person(Mademoiselle, 9, 3, 2, 0),
    person(Jester, 5, 1, 1, 0),
    person(Jester, 7, 2, 3, 0),
    person(Jester, 9, 3, 1, 0),
    person(Admiral, 5, 1, 1, 0),
    person(Admiral, 7, 2, 3, 0),
    person(Admiral, 9, 3, 2, 0),
    person(Governor, 8, 0, 4, 0),
    // Expeditions: anchors, crosses, houses, VP, coins.
    expedition(2, 0, 0, 4, 2, false),
    expedition(0, 0, 2, 4, 2, false),
    expedition(0, 2, 0, 4, 2, false),
    expedition(2, 0, 1, 6, 3, false),
    expedition(0, 2, 1, 6, 3, false),
    expedition(1, 1, 1, 5, 3, true),
    // Tax increases.
    CardType {
        kind: CardKind::Tax(TaxKind::MostSwords),
        base: 2,
        expansion: 0,
    },
    CardType {
        kind: CardKind::Tax(TaxKind::FewestPoints),
        base: 2,
        expansion: 0,
    },
    // Expansion "Just One More Contract": new ships.
    ship(Yellow, 2, 1, 0, 1),
    gift(Yellow, Some(4), 3),
    gift(Blue, Some(5), 3),
    gift(Green, Some(3), 3),
    gift(Red, Some(6), 3),
    gift(Black, None, 3),
    // Expansion persons (Gunner and Vice Admiral splits assumed).
    coloured(Clerk, Yellow, 4, 1, 0, 1),
    coloured(Clerk, Black, 4, 1, 0, 1),
    coloured(Clerk, Blue, 6, 2, 0, 1),
    coloured(Clerk, Red, 6, 2, 0, 1),
    coloured(Clerk, Green, 9, 3, 0, 1),
    person(Gunner, 4, 1, 0, 1),
    person(Gunner, 6, 2, 0, 2),
    person(Gunner, 8, 3, 0, 1),
    person(ViceAdmiral, 5, 1, 0, 2),
    person(ViceAdmiral, 7, 2, 0, 2),
    person(ViceAdmiral, 9, 3, 0, 1),
];

/// What the rules ask of a card at nearly every input, in one small row per
/// possible [`CardId`]: reading a field of the catalog's [`CardKind`] is a
/// bounds-checked lookup and a match on the kind, which profiles of random
/// games showed at every harbor card of every seat's time to take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Facts {
    /// The ship's [`Colour::bit`]; 0 for every card that is not a ship.
    pub(crate) ship_bit: u8,
    /// The person's printed hire cost; 0 for every card that is not a person.
    pub(crate) hire_cost: u8,
    /// Whether the card is a person.
    pub(crate) person: bool,
}

/// [`Facts`] for every byte a [`CardId`] can hold (rows past the catalog
/// are all zero), so that looking one up needs no bounds check.
static FACTS: [Facts; 256] = facts_table();

const fn facts_table() -> [Facts; 256] {
    let mut table = [Facts {
        ship_bit: 0,
        hire_cost: 0,
        person: false,
    }; 256];
    let mut i = 0;
    while i < CATALOG.len() {
        table[i] = match CATALOG[i].kind {
            CardKind::Ship { colour, .. } => Facts {
                ship_bit: 1 << (colour as u8),
                hire_cost: 0,
                person: false,
            },
            CardKind::Person { cost, .. } => Facts {
                ship_bit: 0,
                hire_cost: cost,
                person: true,
            },
            CardKind::Expedition { .. } | CardKind::Tax(_) => table[i],
        };
        i += 1;
    }
    table
}

/// A catalog index: which card (up to identical copies).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CardId(pub u8);

impl CardId {
    /// The catalog row of this card.
    pub fn card(self) -> &'static CardType {
        &CATALOG[usize::from(self.0)]
    }

    /// What the card is.
    pub fn kind(self) -> CardKind {
        self.card().kind
    }

    /// The card from a catalog index, if there is such a row.
    pub fn from_index(index: u32) -> Option<CardId> {
        let i = u8::try_from(index).ok()?;
        (usize::from(i) < CATALOG.len()).then_some(CardId(i))
    }

    /// Every card in catalog order.
    pub fn all() -> impl Iterator<Item = CardId> {
        (0..CATALOG.len()).filter_map(|i| CardId::from_index(i as u32))
    }

    /// The rules' quick facts about this card.
    #[inline(always)]
    pub(crate) fn facts(self) -> Facts {
        FACTS[usize::from(self.0)]
    }

    /// The ship's [`Colour::bit`], or 0 if the card is not a ship.
    #[inline(always)]
    pub(crate) fn ship_bit(self) -> u8 {
        self.facts().ship_bit
    }

    /// The ship's colour, for ships.
    pub fn ship_colour(self) -> Option<Colour> {
        match self.kind() {
            CardKind::Ship { colour, .. } => Some(colour),
            _ => None,
        }
    }

    /// The card's name as scenarios and logs write it.
    pub fn name(self) -> String {
        self.to_string()
    }

    /// The card with this name.
    pub fn parse(name: &str) -> Option<CardId> {
        CardId::all().find(|c| c.name() == name)
    }
}

impl fmt::Display for CardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            CardKind::Ship {
                colour,
                swords,
                coins,
                gift,
            } => {
                write!(f, "ship:{}:", colour.name())?;
                match swords {
                    Some(s) => write!(f, "{s}")?,
                    None => f.write_str("skull")?,
                }
                write!(f, ":{coins}")?;
                if gift {
                    f.write_str(":gift")?;
                }
                Ok(())
            }
            CardKind::Person {
                kind,
                colour,
                cost,
                vp,
            } => {
                write!(f, "person:{}:", kind.name())?;
                if let Some(c) = colour {
                    write!(f, "{}:", c.name())?;
                }
                write!(f, "{cost}:{vp}")
            }
            CardKind::Expedition {
                anchors,
                crosses,
                houses,
                ..
            } => {
                f.write_str("expedition:")?;
                let symbols = std::iter::repeat_n("anchor", usize::from(anchors))
                    .chain(std::iter::repeat_n("cross", usize::from(crosses)))
                    .chain(std::iter::repeat_n("house", usize::from(houses)));
                for (i, s) in symbols.enumerate() {
                    if i > 0 {
                        f.write_str("+")?;
                    }
                    f.write_str(s)?;
                }
                Ok(())
            }
            CardKind::Tax(TaxKind::MostSwords) => f.write_str("tax:swords"),
            CardKind::Tax(TaxKind::FewestPoints) => f.write_str("tax:points"),
        }
    }
}

/// How many copies of each card go into the deck for this set-up, in catalog
/// order. The 5-player expedition is never shuffled in.
pub fn deck_counts(expansion: bool) -> Vec<u32> {
    CATALOG
        .iter()
        .map(|t| {
            let five_players = matches!(
                t.kind,
                CardKind::Expedition {
                    five_players: true,
                    ..
                }
            );
            if five_players {
                0
            } else {
                u32::from(t.base) + if expansion { u32::from(t.expansion) } else { 0 }
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cards_facts_say_what_its_catalog_row_says() {
        for card in CardId::all() {
            let facts = card.facts();
            assert_eq!(
                facts.ship_bit,
                card.ship_colour().map_or(0, Colour::bit),
                "{card}"
            );
            match card.kind() {
                CardKind::Person { cost, .. } => {
                    assert!(facts.person, "{card}");
                    assert_eq!(facts.hire_cost, cost, "{card}");
                }
                _ => assert!(!facts.person && facts.hire_cost == 0, "{card}"),
            }
        }
        let past_the_catalog = CardId(u8::try_from(CATALOG.len()).unwrap_or(u8::MAX));
        assert_eq!(past_the_catalog.ship_bit(), 0);
        assert!(!past_the_catalog.facts().person);
    }

    #[test]
    fn base_game_has_the_printed_card_counts() {
        let counts = deck_counts(false);
        let total = |pred: &dyn Fn(CardKind) -> bool| -> u32 {
            CardId::all()
                .filter(|c| pred(c.kind()))
                .map(|c| counts[usize::from(c.0)])
                .sum()
        };
        assert_eq!(total(&|k| matches!(k, CardKind::Ship { .. })), 50);
        assert_eq!(total(&|k| matches!(k, CardKind::Person { .. })), 60);
        assert_eq!(total(&|k| matches!(k, CardKind::Expedition { .. })), 5);
        assert_eq!(total(&|k| matches!(k, CardKind::Tax(_))), 4);
        for colour in Colour::ALL {
            assert_eq!(
                total(&|k| matches!(k, CardKind::Ship { colour: c, .. } if c == colour)),
                10
            );
        }
        // 119 in the deck plus the 5-player expedition: the printed 120.
        assert_eq!(counts.iter().sum::<u32>() + 1, 120);
    }

    #[test]
    fn expansion_adds_24_cards() {
        let base: u32 = deck_counts(false).iter().sum();
        let exp: u32 = deck_counts(true).iter().sum();
        assert_eq!(exp - base, 24);
    }

    #[test]
    fn names_are_unique_and_parse_back() {
        let mut seen = std::collections::HashSet::new();
        for c in CardId::all() {
            assert!(seen.insert(c.name()), "duplicate name {c}");
            assert_eq!(CardId::parse(&c.name()), Some(c));
        }
        assert_eq!(
            CardId::parse("ship:black:skull:3:gift")
                .map(|c| c.name())
                .as_deref(),
            Some("ship:black:skull:3:gift")
        );
        assert!(CardId::parse("expedition:anchor+cross+house").is_some());
        assert!(CardId::parse("person:trader:blue:5:2").is_some());
    }
}
