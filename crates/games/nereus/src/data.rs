//! The game's printed data as tables: colours, crews and their action
//! spaces, holds, the treasure chest, storage, the science deck, the board
//! sides and the discovery cards.
//!
//! Values the rules text states are marked *stated*; values it shows only
//! in pictures are RECONSTRUCTIONS (see the crate docs for the list and the
//! reasoning). Replacing a reconstruction with the printed value means
//! editing one table here; the rules code reads only these tables.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A treasure colour. The order is the storage order of the designer's
/// end-game values (white is the commonest treasure, black the rarest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Colour {
    /// White (23 in the bag).
    White,
    /// Yellow (20).
    Yellow,
    /// Green (18).
    Green,
    /// Red (15).
    Red,
    /// Purple (11).
    Purple,
    /// Black (9).
    Black,
}

impl Colour {
    /// Every colour in catalog order.
    pub const ALL: [Colour; 6] = [
        Colour::White,
        Colour::Yellow,
        Colour::Green,
        Colour::Red,
        Colour::Purple,
        Colour::Black,
    ];

    /// The colour's catalog index (its index in chance outcomes).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colour of catalog index `i`.
    pub fn from_index(i: usize) -> Option<Colour> {
        Colour::ALL.get(i).copied()
    }

    /// The one-letter name used in the grammar and on screen (readable
    /// without colour).
    pub fn letter(self) -> char {
        match self {
            Colour::White => 'w',
            Colour::Yellow => 'y',
            Colour::Green => 'g',
            Colour::Red => 'r',
            Colour::Purple => 'p',
            Colour::Black => 'b',
        }
    }

    /// The colour named by its letter or its full name.
    pub fn parse(text: &str) -> Option<Colour> {
        Colour::ALL
            .into_iter()
            .find(|c| text == c.letter().to_string() || text == c.name())
    }

    /// The full lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Yellow => "yellow",
            Colour::Green => "green",
            Colour::Red => "red",
            Colour::Purple => "purple",
            Colour::Black => "black",
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The 96 treasures in the bag by colour (stated, components list).
pub const TREASURES: [u32; 6] = [23, 20, 18, 15, 11, 9];

/// The set added when a draw finds the bag empty: 2 white, 2 yellow, one
/// each of the rest (stated, the designer's ruling).
pub const EMPTY_BAG_SET: [u32; 6] = [2, 2, 1, 1, 1, 1];

/// A crew member. The order is the order the rules list them, taken to be
/// the row order on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Crew {
    /// Moves the ship, any direction or diagonally.
    Captain,
    /// Moves the ship orthogonally.
    Pilot,
    /// Moves treasures within the cabin and scores.
    Boatswain,
    /// Takes gold.
    Purser,
    /// Turns gold into VP.
    Merchant,
    /// Science power and science cards.
    Scientist,
    /// Takes a treasure from a neighbouring space; extra turns.
    Explorer,
}

impl Crew {
    /// Every crew member in row order.
    pub const ALL: [Crew; 7] = [
        Crew::Captain,
        Crew::Pilot,
        Crew::Boatswain,
        Crew::Purser,
        Crew::Merchant,
        Crew::Scientist,
        Crew::Explorer,
    ];

    /// The crew's row index.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The crew of row `i`.
    pub fn from_index(i: usize) -> Option<Crew> {
        Crew::ALL.get(i).copied()
    }

    /// The lower-case name used in the grammar.
    pub fn name(self) -> &'static str {
        match self {
            Crew::Captain => "captain",
            Crew::Pilot => "pilot",
            Crew::Boatswain => "boatswain",
            Crew::Purser => "purser",
            Crew::Merchant => "merchant",
            Crew::Scientist => "scientist",
            Crew::Explorer => "explorer",
        }
    }

    /// The crew named `text`.
    pub fn parse(text: &str) -> Option<Crew> {
        Crew::ALL.into_iter().find(|c| c.name() == text)
    }
}

impl fmt::Display for Crew {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which way a ship may go on a movement space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Heading {
    /// Any of the eight directions.
    Any,
    /// Diagonals only.
    Diagonal,
    /// Orthogonal only.
    Orthogonal,
}

/// The basic action of one action space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Space {
    /// Move up to `max` spaces (captain, pilot).
    Move {
        /// Most spaces moved by the basic action.
        max: u8,
        /// Allowed directions.
        heading: Heading,
    },
    /// Score `vp` and move up to `moves` treasures (boatswain).
    Shift {
        /// VP scored.
        vp: u32,
        /// Treasures that may be moved.
        moves: u8,
    },
    /// Take gold (purser).
    Gold(u32),
    /// Pay gold for VP (merchant).
    Sell {
        /// Gold paid.
        pay: u32,
        /// VP scored.
        vp: u32,
    },
    /// Gain science power and draw cards (scientist).
    Research {
        /// Power gained.
        power: u8,
        /// Cards drawn.
        draw: u8,
        /// The 2-3 player side's "advance 1 or draw 1": one of the two.
        either: bool,
    },
    /// Take one treasure of these colours from an orthogonal neighbour
    /// (explorer); `None` takes any colour.
    Pick(Option<[Colour; 2]>),
}

const fn mv(max: u8, heading: Heading) -> Space {
    Space::Move { max, heading }
}

/// The four action spaces of every crew row on the 4-player side, left to
/// right (stated; the order is confirmed by every example of the rules).
pub const SPACES_FOUR: [[Space; 4]; 7] = [
    [
        mv(2, Heading::Any),
        mv(1, Heading::Any),
        mv(2, Heading::Diagonal),
        mv(1, Heading::Diagonal),
    ],
    [
        mv(4, Heading::Orthogonal),
        mv(3, Heading::Orthogonal),
        mv(2, Heading::Orthogonal),
        mv(1, Heading::Orthogonal),
    ],
    [
        Space::Shift { vp: 3, moves: 4 },
        Space::Shift { vp: 2, moves: 3 },
        Space::Shift { vp: 2, moves: 2 },
        Space::Shift { vp: 1, moves: 2 },
    ],
    [
        Space::Gold(6),
        Space::Gold(5),
        Space::Gold(4),
        Space::Gold(3),
    ],
    [
        Space::Sell { pay: 2, vp: 5 },
        Space::Sell { pay: 3, vp: 5 },
        Space::Sell { pay: 3, vp: 4 },
        Space::Sell { pay: 2, vp: 3 },
    ],
    [
        Space::Research {
            power: 2,
            draw: 0,
            either: false,
        },
        Space::Research {
            power: 1,
            draw: 1,
            either: false,
        },
        Space::Research {
            power: 1,
            draw: 0,
            either: false,
        },
        Space::Research {
            power: 0,
            draw: 1,
            either: false,
        },
    ],
    [
        Space::Pick(Some([Colour::White, Colour::Yellow])),
        Space::Pick(Some([Colour::Green, Colour::Red])),
        Space::Pick(Some([Colour::Purple, Colour::Black])),
        Space::Pick(None),
    ],
];

/// The action spaces of crew `crew` on the board side for `seats` players:
/// all four on the 4-player side; on the 2-3 player side the first three,
/// the scientist's third reading "advance 1 or draw 1" (stated in the
/// scientist's note; that the side has three spaces a row is a
/// RECONSTRUCTION).
pub fn spaces(crew: Crew, seats: u8) -> Vec<Space> {
    (0..SPACES_FOUR[crew.index()].len())
        .map_while(|i| space(crew, seats, i))
        .collect()
}

/// Space `index` (from 0) of crew `crew`'s row on the board side for
/// `seats` players, as [`spaces`] lists them; `None` past the row's end.
/// The rules ask for one space at every crew action, without a list.
pub fn space(crew: Crew, seats: u8, index: usize) -> Option<Space> {
    if seats < 4 && index >= 3 {
        return None;
    }
    if seats < 4 && crew == Crew::Scientist && index == 2 {
        return Some(Space::Research {
            power: 1,
            draw: 1,
            either: true,
        });
    }
    SPACES_FOUR[crew.index()].get(index).copied()
}

/// The explorer's gold action: the cost of the extra turn in Phase III by
/// explorer space (2/3/4 stated; the fourth space's 5 is a RECONSTRUCTION).
pub const EXPLORER_TURN_COST: [u32; 4] = [2, 3, 4, 5];

/// What one icon of a hold accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Icon {
    /// One colour.
    One(Colour),
    /// Either of two colours.
    Two(Colour, Colour),
    /// Any colour (the rainbow icon).
    Any,
}

impl Icon {
    /// Whether a treasure of `colour` fits the icon.
    pub fn fits(self, colour: Colour) -> bool {
        match self {
            Icon::One(c) => c == colour,
            Icon::Two(a, b) => a == colour || b == colour,
            Icon::Any => true,
        }
    }
}

/// A rule across a whole hold, besides its icons.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HoldRule {
    /// Only the icons.
    Icons,
    /// Every treasure of a different colour (the purser's "not equals").
    AllDifferent,
    /// Every treasure of the same colour (the merchant's "equals").
    AllSame,
}

/// A crew member's hold: its icons, its rule and the VP for completing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hold {
    /// One icon per space.
    pub icons: &'static [Icon],
    /// The rule across the hold.
    pub rule: HoldRule,
    /// VP scored on completion.
    pub vp: u32,
}

use Colour::{Black, Green, Purple, Red, White, Yellow};

/// The holds, by crew row. Stated: the captain's icons and 12 VP, the
/// purser's four different colours, the merchant's three of a colour, the
/// scientist's 5 VP and a white space, the boatswain's green space. Every
/// other icon and VP value is a RECONSTRUCTION (`docs/RULES.md`).
pub const HOLDS: [Hold; 7] = [
    Hold {
        icons: &[
            Icon::One(Black),
            Icon::One(Purple),
            Icon::One(Red),
            Icon::One(Green),
        ],
        rule: HoldRule::Icons,
        vp: 12,
    },
    Hold {
        icons: &[
            Icon::One(Purple),
            Icon::One(Red),
            Icon::One(Green),
            Icon::One(Yellow),
        ],
        rule: HoldRule::Icons,
        vp: 10,
    },
    Hold {
        icons: &[Icon::One(Green), Icon::One(Yellow), Icon::One(White)],
        rule: HoldRule::Icons,
        vp: 5,
    },
    Hold {
        icons: &[Icon::Any, Icon::Any, Icon::Any, Icon::Any],
        rule: HoldRule::AllDifferent,
        vp: 8,
    },
    Hold {
        icons: &[Icon::Any, Icon::Any, Icon::Any],
        rule: HoldRule::AllSame,
        vp: 6,
    },
    Hold {
        icons: &[Icon::One(White), Icon::One(Yellow), Icon::One(Red)],
        rule: HoldRule::Icons,
        vp: 5,
    },
    Hold {
        icons: &[
            Icon::One(Black),
            Icon::One(Green),
            Icon::One(Yellow),
            Icon::One(White),
        ],
        rule: HoldRule::Icons,
        vp: 9,
    },
];

/// What placing a treasure on a chest space gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChestReward {
    /// Gold gained.
    pub gold: u32,
    /// VP scored.
    pub vp: u32,
    /// Random treasures drawn from the bag into the hand.
    pub treasures: u32,
}

/// The treasure chest: one single-colour space per colour, indexed by
/// colour. Stated: yellow (3 gold, 2 VP), green (a random treasure), a red
/// space. The others, and one space per colour, are a RECONSTRUCTION.
pub const CHEST: [ChestReward; 6] = [
    ChestReward {
        gold: 2,
        vp: 1,
        treasures: 0,
    },
    ChestReward {
        gold: 3,
        vp: 2,
        treasures: 0,
    },
    ChestReward {
        gold: 0,
        vp: 0,
        treasures: 1,
    },
    ChestReward {
        gold: 0,
        vp: 3,
        treasures: 0,
    },
    ChestReward {
        gold: 0,
        vp: 4,
        treasures: 0,
    },
    ChestReward {
        gold: 0,
        vp: 5,
        treasures: 0,
    },
];

/// The six storage spaces and the colours each takes (stated).
pub const STORAGE: [[Colour; 2]; 6] = [
    [Black, Purple],
    [Black, Purple],
    [Red, Green],
    [Red, Green],
    [Yellow, White],
    [Yellow, White],
];

/// Gem spaces in storage (stated).
pub const GEM_SPACES: u8 = 3;

/// Gold for a treasure sold from storage, and for a gem (stated).
pub const TREASURE_PRICE: u32 = 2;
/// Gold for a gem sold (stated).
pub const GEM_PRICE: u32 = 5;

/// The top of the science track (stated, Yucata's 0-5).
pub const MAX_POWER: u8 = 5;

/// Gold each player starts with (RECONSTRUCTION: the setup step is cut off).
pub const START_GOLD: u32 = 5;
/// Science cards dealt to each player at the start (RECONSTRUCTION).
pub const START_SCIENCE: u32 = 2;
/// The treasure each player starts with in storage (stated: one white).
pub const START_TREASURE: Colour = White;

/// What a science card does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Science {
    /// During your turn: draw 2 random treasures.
    DrawTwo,
    /// During your turn: pick up 1 treasure from any water space.
    PickAny,
    /// During your turn: pay 3 gold, move your ship 1 space any direction
    /// and pick up what is there.
    Hop,
    /// Game end: `vp` if a treasure of `colour` is in your chest.
    InChest {
        /// The colour asked for.
        colour: Colour,
        /// VP scored.
        vp: u32,
    },
    /// Game end: `vp` if a treasure of `colour` is in storage.
    InStorage {
        /// The colour asked for.
        colour: Colour,
        /// VP scored.
        vp: u32,
    },
    /// Game end: `vp` if every hold listed is complete.
    Holds {
        /// The crews whose holds must be complete.
        crews: &'static [Crew],
        /// VP scored.
        vp: u32,
    },
}

impl Science {
    /// Whether the card is played at game end (else during one's turn).
    pub fn at_game_end(self) -> bool {
        !matches!(self, Science::DrawTwo | Science::PickAny | Science::Hop)
    }
}

/// The 22 science cards (stated), catalog index = position.
pub const SCIENCE_DECK: [Science; 22] = [
    Science::DrawTwo,
    Science::DrawTwo,
    Science::DrawTwo,
    Science::PickAny,
    Science::PickAny,
    Science::PickAny,
    Science::Hop,
    Science::Hop,
    Science::InChest { colour: Red, vp: 3 },
    Science::InChest { colour: Red, vp: 3 },
    Science::InStorage {
        colour: White,
        vp: 4,
    },
    Science::InStorage {
        colour: Yellow,
        vp: 5,
    },
    Science::InStorage {
        colour: Green,
        vp: 6,
    },
    Science::InStorage { colour: Red, vp: 6 },
    Science::InStorage { colour: Red, vp: 6 },
    Science::InStorage {
        colour: Purple,
        vp: 7,
    },
    Science::InStorage {
        colour: Black,
        vp: 7,
    },
    Science::Holds {
        crews: &[Crew::Captain],
        vp: 3,
    },
    Science::Holds {
        crews: &[Crew::Pilot],
        vp: 3,
    },
    Science::Holds {
        crews: &[Crew::Explorer],
        vp: 3,
    },
    Science::Holds {
        crews: &[Crew::Merchant, Crew::Boatswain],
        vp: 5,
    },
    Science::Holds {
        crews: &[Crew::Purser, Crew::Scientist],
        vp: 5,
    },
];

/// The short name of science card `index` (the grammar's card names): the
/// card's kind, and for a second or third copy of a kind `.2` or `.3`, so
/// that every card has its own name.
pub fn science_name(index: u32) -> String {
    let base = science_kind(index);
    let copy = (0..index).filter(|&i| science_kind(i) == base).count();
    if copy == 0 {
        base
    } else {
        format!("{base}.{}", copy + 1)
    }
}

fn science_kind(index: u32) -> String {
    match SCIENCE_DECK.get(index as usize) {
        None => format!("#{index}"),
        Some(Science::DrawTwo) => "draw-two".into(),
        Some(Science::PickAny) => "pick-any".into(),
        Some(Science::Hop) => "hop".into(),
        Some(Science::InChest { colour, .. }) => format!("chest-{colour}"),
        Some(Science::InStorage { colour, .. }) => format!("storage-{colour}"),
        Some(Science::Holds { crews, .. }) => {
            let names: Vec<&str> = crews.iter().map(|c| c.name()).collect();
            format!("hold-{}", names.join("-"))
        }
    }
}

/// The first catalog index whose card is named `name`.
pub fn science_by_name(name: &str) -> Option<u32> {
    (0..SCIENCE_DECK.len() as u32).find(|&i| science_name(i) == name)
}

/// A board side: its size and its twelve discovery masks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Side {
    /// Columns and rows (square).
    pub size: u8,
    /// Per discovery card, bit `row * size + column` set for a checkmark.
    pub discovery: &'static [u64; 12],
}

/// The 4-player side: 6x6 (the reviewer's "six by six"), every cell water
/// (RECONSTRUCTION: no islands).
pub const SIDE_FOUR: Side = Side {
    size: 6,
    discovery: &DISCOVERY_SIX,
};

/// The 2-3 player side: 5x5 (RECONSTRUCTION: the neutral ship's "centre
/// space" needs an odd size).
pub const SIDE_TWO_THREE: Side = Side {
    size: 5,
    discovery: &DISCOVERY_FIVE,
};

/// The board side for `seats` players.
pub fn side(seats: u8) -> Side {
    if seats >= 4 {
        SIDE_FOUR
    } else {
        SIDE_TWO_THREE
    }
}

/// Discovery masks of the 6x6 side (RECONSTRUCTION: every cell checked on
/// exactly 4 of the 12 cards, 12 checks a card; made once by
/// `data/discovery_masks.py`, seed 16, and kept as printed data).
pub const DISCOVERY_SIX: [u64; 12] = [
    0x000c12034586,
    0x0000a4b81c41,
    0x0000209c5970,
    0x00004c32c60a,
    0x0008d6208c41,
    0x0009424b28a0,
    0x00068141229c,
    0x0007ad400209,
    0x0000405e801f,
    0x000208a53270,
    0x000d39043102,
    0x00031380c1a4,
];

/// Discovery masks of the 5x5 side (RECONSTRUCTION: every cell on exactly
/// 4 cards, eight cards of 8 checks and four of 9; same script).
pub const DISCOVERY_FIVE: [u64; 12] = [
    0x00000102c544,
    0x000000a22069,
    0x000000a2410e,
    0x0000000a9da0,
    0x00000049b500,
    0x000000748092,
    0x000001040297,
    0x000001101694,
    0x000000d9280a,
    0x000000082a79,
    0x000001c55001,
    0x000000354a60,
];

/// Discovery cards used in a game, one a day (stated: four days).
pub const DAYS: u8 = 4;
/// Action cycles a day (stated).
pub const CYCLES: u8 = 4;

/// The start corner of seat `i`: top-left, top-right, bottom-right,
/// bottom-left (RECONSTRUCTION of "players pick different corners": in
/// seat order, clockwise from the top-left).
pub fn start_corner(seat: usize, size: u8) -> (u8, u8) {
    let far = size - 1;
    match seat % 4 {
        0 => (0, 0),
        1 => (0, far),
        2 => (far, far),
        _ => (far, 0),
    }
}

/// The compass points of the 2-player neutral ship, clockwise from north
/// (stated: eight points, the disc starts on north).
pub const COMPASS: [(i8, i8); 8] = [
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
];

/// The distance the neutral ship moves on each movement space: the space's
/// own maximum (stated, "depends on the action space").
pub fn neutral_distance(space: Space) -> u8 {
    match space {
        Space::Move { max, .. } => max,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discovery_masks_check_every_cell_four_times() {
        for side in [SIDE_FOUR, SIDE_TWO_THREE] {
            let cells = u32::from(side.size) * u32::from(side.size);
            for cell in 0..cells {
                let n = side
                    .discovery
                    .iter()
                    .filter(|m| *m >> cell & 1 == 1)
                    .count();
                assert_eq!(n, 4, "cell {cell} on a {}-side", side.size);
            }
            assert!(side.discovery.iter().all(|m| m >> cells == 0));
        }
    }

    #[test]
    fn treasures_number_ninety_six() {
        assert_eq!(TREASURES.iter().sum::<u32>(), 96);
        assert_eq!(SCIENCE_DECK.len(), 22);
    }
}
