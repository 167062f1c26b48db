//! The cards as data: the profession deck and the VP cards.
//!
//! A profession card's catalog index is `profession * 5 + colour`; the four
//! identical copies of a card share its index, as the private deal's open
//! deck lists them (the deal never needs to tell copies apart).

use serde::{Deserialize, Serialize};

/// The six professions, in catalog order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Profession {
    /// Discards cards from another guildhall.
    Assassin,
    /// Draws cards and gives an extra action.
    Dancer,
    /// Gains VP tokens.
    Farmer,
    /// Takes cards from the discard pile.
    Historian,
    /// Swaps cards or chapters with another guildhall.
    Trader,
    /// Places cards from the hand and takes some back.
    Weaver,
}

/// The five colours, in catalog order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Colour {
    /// Red.
    Red,
    /// Blue.
    Blue,
    /// Green.
    Green,
    /// Yellow (some reviews say gold).
    Yellow,
    /// Purple.
    Purple,
}

/// Every profession in catalog order.
pub const PROFESSIONS: [Profession; 6] = [
    Profession::Assassin,
    Profession::Dancer,
    Profession::Farmer,
    Profession::Historian,
    Profession::Trader,
    Profession::Weaver,
];

/// Every colour in catalog order.
pub const COLOURS: [Colour; 5] = [
    Colour::Red,
    Colour::Blue,
    Colour::Green,
    Colour::Yellow,
    Colour::Purple,
];

impl Profession {
    /// Its position in [`PROFESSIONS`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The name used in actions and scenarios.
    pub fn name(self) -> &'static str {
        PROFESSION_TABLE[self.index()].name
    }

    /// The printed thresholds of its ability (the levels a seat may use).
    pub fn thresholds(self) -> &'static [u8] {
        PROFESSION_TABLE[self.index()].thresholds
    }

    /// The profession named `name`.
    pub fn parse(name: &str) -> Option<Profession> {
        PROFESSIONS.into_iter().find(|p| p.name() == name)
    }

    /// What the ability does at `level`, in words for a screen or a log
    /// (the paraphrases of the card data, `docs/RULES.md`); `None` for a level the card
    /// does not print.
    pub fn ability_text(self, level: u8) -> Option<String> {
        if !self.thresholds().contains(&level) {
            return None;
        }
        let cards = |n: u8| {
            if n == 1 {
                "1 card".to_owned()
            } else {
                format!("{n} cards")
            }
        };
        Some(match (self, level) {
            (Profession::Assassin, 0) => {
                "discard 1 card from another player's guildhall".to_owned()
            }
            (Profession::Assassin, 2) => {
                "discard 2 cards from two chapters of one other player's guildhall".to_owned()
            }
            (Profession::Assassin, _) => {
                "discard any 2 cards from one other player's guildhall".to_owned()
            }
            (Profession::Dancer, 0) => "take 1 more action".to_owned(),
            (Profession::Dancer, n) => format!("draw {}, then take 1 more action", cards(n)),
            (Profession::Farmer, 1) => "gain 1 VP".to_owned(),
            (Profession::Farmer, _) => "gain 2 VP".to_owned(),
            (Profession::Historian, 0) => {
                "put the top card of the discard pile into your guildhall (nothing if it is \
                 a duplicate)"
                    .to_owned()
            }
            (Profession::Historian, n) => format!(
                "put {} of your choice from the discard pile into your guildhall",
                cards(n / 2)
            ),
            (Profession::Trader, 0) => {
                "swap 1 card of your guildhall for 1 of another player's guildhall".to_owned()
            }
            (Profession::Trader, 2) => {
                "swap 2 cards of your guildhall for 2 of one other player's guildhall".to_owned()
            }
            (Profession::Trader, _) => {
                "swap a chapter of your guildhall for a chapter of another player's".to_owned()
            }
            (Profession::Weaver, 0) => "place 1 card from your hand into your guildhall".to_owned(),
            (Profession::Weaver, 2) => "place 2 cards from your hand into your guildhall, \
                                        then take 1 guildhall card back to your hand"
                .to_owned(),
            (Profession::Weaver, _) => "place any number of cards from your hand into your \
                                        guildhall, then take 2 guildhall cards back to your hand"
                .to_owned(),
        })
    }
}

impl Colour {
    /// Its position in [`COLOURS`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The name used in actions and scenarios.
    pub fn name(self) -> &'static str {
        ["red", "blue", "green", "yellow", "purple"][self.index()]
    }

    /// The colour named `name`.
    pub fn parse(name: &str) -> Option<Colour> {
        COLOURS.into_iter().find(|c| c.name() == name)
    }
}

/// One profession of the deck: its name, its thresholds and its copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProfessionSpec {
    /// The profession.
    pub profession: Profession,
    /// Its name in actions and scenarios.
    pub name: &'static str,
    /// The printed thresholds: the lowest chapter size each effect needs.
    /// A Dancer's effect scales with every count, so every count is a level.
    pub thresholds: &'static [u8],
    /// Copies of each colour in the deck.
    pub copies_per_colour: u32,
}

/// The profession deck: 6 professions x 5 colours x 4 copies = 120 cards.
pub const PROFESSION_TABLE: [ProfessionSpec; 6] = [
    ProfessionSpec {
        profession: Profession::Assassin,
        name: "assassin",
        thresholds: &[0, 2, 4],
        copies_per_colour: 4,
    },
    ProfessionSpec {
        profession: Profession::Dancer,
        name: "dancer",
        thresholds: &[0, 1, 2, 3, 4],
        copies_per_colour: 4,
    },
    ProfessionSpec {
        profession: Profession::Farmer,
        name: "farmer",
        thresholds: &[1, 3],
        copies_per_colour: 4,
    },
    ProfessionSpec {
        profession: Profession::Historian,
        name: "historian",
        thresholds: &[0, 2, 4],
        copies_per_colour: 4,
    },
    ProfessionSpec {
        profession: Profession::Trader,
        name: "trader",
        thresholds: &[0, 2, 4],
        copies_per_colour: 4,
    },
    ProfessionSpec {
        profession: Profession::Weaver,
        name: "weaver",
        thresholds: &[0, 2, 4],
        copies_per_colour: 4,
    },
];

/// Distinct profession cards (profession x colour).
pub const CARD_KINDS: u32 = 30;

/// A profession card (catalog index `profession * 5 + colour`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Card {
    /// Its profession.
    pub profession: Profession,
    /// Its colour.
    pub colour: Colour,
}

impl Card {
    /// The card with catalog index `index`, if there is one.
    pub fn from_index(index: u32) -> Option<Card> {
        if index >= CARD_KINDS {
            return None;
        }
        Some(Card {
            profession: PROFESSIONS[(index / 5) as usize],
            colour: COLOURS[(index % 5) as usize],
        })
    }

    /// Its catalog index.
    pub fn index(self) -> u32 {
        (self.profession.index() * 5 + self.colour.index()) as u32
    }

    /// Read `profession:colour` (`weaver:red`).
    pub fn parse(text: &str) -> Option<Card> {
        let (p, c) = text.split_once(':')?;
        Some(Card {
            profession: Profession::parse(p)?,
            colour: Colour::parse(c)?,
        })
    }
}

impl std::fmt::Display for Card {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.profession.name(), self.colour.name())
    }
}

/// The whole profession deck as the open deck lists it: every catalog
/// index, each copy in turn, in catalog order (120 entries).
pub fn profession_deck() -> Vec<u32> {
    PROFESSION_TABLE
        .iter()
        .flat_map(|p| {
            COLOURS.iter().flat_map(move |c| {
                let card = Card {
                    profession: p.profession,
                    colour: *c,
                };
                std::iter::repeat_n(card.index(), p.copies_per_colour as usize)
            })
        })
        .collect()
}

/// What a VP card does when it is bought (optional, once).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum VpAbility {
    /// Nothing.
    None,
    /// Move one incomplete chapter of another player's guildhall into yours.
    MoveChapter,
    /// Swap one card of your guildhall for two of one other guildhall.
    SwapOneForTwo,
    /// Place any number of hand cards into your guildhall.
    PlaceAny,
    /// Draw 5 cards.
    DrawFive,
    /// Gain extra actions.
    ExtraActions(u8),
    /// Take one card of another guildhall into yours.
    TakeCard,
}

impl VpAbility {
    /// What the ability does, in words for a screen or a log.
    pub fn text(self) -> String {
        match self {
            VpAbility::None => "no ability".to_owned(),
            VpAbility::MoveChapter => {
                "move an incomplete chapter of another player's guildhall into yours".to_owned()
            }
            VpAbility::SwapOneForTwo => {
                "swap 1 card of your guildhall for 2 of one other player's guildhall".to_owned()
            }
            VpAbility::PlaceAny => {
                "place any number of cards from your hand into your guildhall".to_owned()
            }
            VpAbility::DrawFive => "draw 5 cards".to_owned(),
            VpAbility::ExtraActions(1) => "take 1 more action".to_owned(),
            VpAbility::ExtraActions(n) => format!("take {n} more actions"),
            VpAbility::TakeCard => {
                "take 1 card of another player's guildhall into yours".to_owned()
            }
        }
    }
}

/// One kind of VP card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VpSpec {
    /// Its name in actions and scenarios (`2`, `3-a`, ...).
    pub name: &'static str,
    /// Victory points at the end.
    pub vp: u32,
    /// Completed chapters paid to buy it.
    pub chapters: u32,
    /// What it does when bought.
    pub ability: VpAbility,
    /// Copies with 4 players.
    pub copies: u32,
    /// Copies with 2 or 3 players (two 5s and one of every other kind out).
    pub copies_small: u32,
}

/// The 30 VP cards by kind (counts per kind from JN's deck builder; the
/// 7's +2 actions is a RECONSTRUCTION of the card data, `docs/RULES.md`).
pub const VP_TABLE: [VpSpec; 9] = [
    vp("2", 2, 1, VpAbility::MoveChapter, 3, 2),
    vp("3-a", 3, 1, VpAbility::SwapOneForTwo, 3, 2),
    vp("3-b", 3, 1, VpAbility::PlaceAny, 3, 2),
    vp("4-a", 4, 1, VpAbility::DrawFive, 3, 2),
    vp("4-b", 4, 1, VpAbility::ExtraActions(1), 3, 2),
    vp("4-c", 4, 1, VpAbility::TakeCard, 3, 2),
    vp("5", 5, 1, VpAbility::None, 6, 4),
    vp("7", 7, 2, VpAbility::ExtraActions(2), 3, 2),
    vp("9", 9, 2, VpAbility::None, 3, 2),
];

const fn vp(
    name: &'static str,
    vp: u32,
    chapters: u32,
    ability: VpAbility,
    copies: u32,
    copies_small: u32,
) -> VpSpec {
    VpSpec {
        name,
        vp,
        chapters,
        ability,
        copies,
        copies_small,
    }
}

/// The VP card kind named `name`.
pub fn vp_kind(name: &str) -> Option<u8> {
    VP_TABLE
        .iter()
        .position(|v| v.name == name)
        .map(|i| i as u8)
}

/// The VP deck's count per kind for `seats` players.
pub fn vp_deck(seats: u8) -> Vec<u32> {
    VP_TABLE
        .iter()
        .map(|v| if seats <= 3 { v.copies_small } else { v.copies })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deck_holds_120_profession_cards_and_30_vp_cards() {
        let deck = profession_deck();
        assert_eq!(deck.len(), 120);
        for kind in 0..CARD_KINDS {
            assert_eq!(deck.iter().filter(|&&c| c == kind).count(), 4);
        }
        assert_eq!(vp_deck(4).iter().sum::<u32>(), 30);
        assert_eq!(vp_deck(3).iter().sum::<u32>(), 20);
        assert_eq!(vp_deck(2), vp_deck(3));
    }

    #[test]
    fn card_names_read_back() {
        for kind in 0..CARD_KINDS {
            let card = Card::from_index(kind).unwrap();
            assert_eq!(card.index(), kind);
            assert_eq!(Card::parse(&card.to_string()), Some(card));
        }
        assert_eq!(Card::parse("weaver:pink"), None);
        assert_eq!(Card::from_index(30), None);
    }

    /// RECONSTRUCTIONS kept as single data entries: the 7 gives two extra
    /// actions and costs two chapters; the 2–3 player deck drops two 5s and
    /// one of every other kind.
    #[test]
    fn reconstructed_vp_entries() {
        let seven = &VP_TABLE[usize::from(vp_kind("7").unwrap())];
        assert_eq!((seven.vp, seven.chapters), (7, 2));
        assert_eq!(seven.ability, VpAbility::ExtraActions(2));
        for (kind, spec) in VP_TABLE.iter().enumerate() {
            let dropped = if spec.name == "5" { 2 } else { 1 };
            assert_eq!(
                vp_deck(4)[kind] - vp_deck(3)[kind],
                dropped,
                "{}",
                spec.name
            );
        }
    }

    /// Every printed level has words, and no other level has any.
    #[test]
    fn every_printed_level_has_words() {
        for p in PROFESSIONS {
            for level in 0..=5u8 {
                assert_eq!(
                    p.ability_text(level).is_some(),
                    p.thresholds().contains(&level),
                    "{} level {level}",
                    p.name()
                );
            }
        }
        assert_eq!(
            Profession::Dancer.ability_text(2).as_deref(),
            Some("draw 2 cards, then take 1 more action")
        );
        assert_eq!(
            Profession::Historian.ability_text(4).as_deref(),
            Some("put 2 cards of your choice from the discard pile into your guildhall")
        );
        assert_eq!(VP_TABLE[7].ability.text(), "take 2 more actions");
    }
}
