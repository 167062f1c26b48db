//! The deck as data: every card's suit and rank.

use serde::{Deserialize, Serialize};

/// A card's suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Suit {
    /// Sun.
    Sun,
    /// Moon.
    Moon,
    /// Star.
    Star,
    /// Leaf.
    Leaf,
}

impl Suit {
    /// The suit's name as printed on the card.
    pub fn name(self) -> &'static str {
        match self {
            Suit::Sun => "sun",
            Suit::Moon => "moon",
            Suit::Star => "star",
            Suit::Leaf => "leaf",
        }
    }
}

/// One card of the catalog.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CardSpec {
    /// Its suit.
    pub suit: Suit,
    /// Its rank, 1 to 6; also the points it scores when played.
    pub rank: u8,
}

const fn card(suit: Suit, rank: u8) -> CardSpec {
    CardSpec { suit, rank }
}

/// Every card of the deck, one entry per card; a card's catalog index is its
/// position here.
pub const CATALOG: [CardSpec; 24] = [
    card(Suit::Sun, 1),
    card(Suit::Sun, 2),
    card(Suit::Sun, 3),
    card(Suit::Sun, 4),
    card(Suit::Sun, 5),
    card(Suit::Sun, 6),
    card(Suit::Moon, 1),
    card(Suit::Moon, 2),
    card(Suit::Moon, 3),
    card(Suit::Moon, 4),
    card(Suit::Moon, 5),
    card(Suit::Moon, 6),
    card(Suit::Star, 1),
    card(Suit::Star, 2),
    card(Suit::Star, 3),
    card(Suit::Star, 4),
    card(Suit::Star, 5),
    card(Suit::Star, 6),
    card(Suit::Leaf, 1),
    card(Suit::Leaf, 2),
    card(Suit::Leaf, 3),
    card(Suit::Leaf, 4),
    card(Suit::Leaf, 5),
    card(Suit::Leaf, 6),
];

/// The card with catalog index `card`, if there is one.
pub fn spec(card: u32) -> Option<CardSpec> {
    CATALOG.get(card as usize).copied()
}

/// Whether `card` may be played on `top`: anything on an empty pile, else a
/// higher rank or the same suit. Unknown cards never may.
pub fn beats(top: Option<u32>, card: u32) -> bool {
    match (top.map(spec), spec(card)) {
        (_, None) => false,
        (None, Some(_)) => true,
        (Some(None), Some(_)) => false,
        (Some(Some(top)), Some(card)) => card.rank > top.rank || card.suit == top.suit,
    }
}
