//! A seat's decisions and their text form (the scenario grammar,
//! `tests/scenarios/guildhall/GRAMMAR.md`).

use std::fmt;

use roundtable_engine::{CardHandle, EpochId, ParseError, Seat};
use serde::{Deserialize, Serialize};

use crate::catalog::{COLOURS, Card, Colour, Profession, VP_TABLE, vp_kind};

/// Where a card in a hand is: a dealt slot only its holder has opened, or a
/// card everyone knows (one taken back from a guildhall).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum HandCard {
    /// A dealt slot.
    Dealt(CardHandle),
    /// A card known to everyone (its catalog index).
    Open(u32),
}

/// A discarded chapter's five colours from the top of the discard pile
/// down: the first is the card a Historian at level 0 takes, the next the
/// one under it (rules, "Completed Chapters": "the player can rearrange the
/// cards of a completed chapter he has to discard").
pub type ChapterOrder = [Colour; 5];

/// The order `top` names, from the top down: the colours it names first,
/// then the others as they lie when nobody chooses (catalog order from the
/// bottom up, so purple nearest the top). `None` if a colour is named twice
/// or more than five are named.
pub fn chapter_order(top: &[Colour]) -> Option<ChapterOrder> {
    let mut order = Vec::with_capacity(COLOURS.len());
    for &c in top {
        if order.contains(&c) {
            return None;
        }
        order.push(c);
    }
    order.extend(COLOURS.iter().rev().filter(|c| !top.contains(c)));
    order.try_into().ok()
}

/// A decision. Abilities are chosen step by step: `play` names the level,
/// then each step names its targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Play a hand card into the action area and use it at `level` (a
    /// printed threshold the chapter reaches) or not at all (`None`).
    Play {
        /// The card's place in the hand.
        from: HandCard,
        /// The card claimed (catalog index).
        card: u32,
        /// The level used.
        level: Option<u8>,
    },
    /// The discard-and-draw action: discard cards, then `draw`.
    Refill,
    /// Buy the VP card of this kind from the centre row.
    Buy {
        /// Index into `VP_TABLE`.
        kind: u8,
    },
    /// Discard a hand card (setup, or the discard-and-draw action).
    Discard {
        /// The card's place in the hand.
        from: HandCard,
        /// The card claimed.
        card: u32,
    },
    /// Stop discarding and draw up (to 9 in the setup, to 6 in a turn).
    Draw,
    /// Place a hand card into the guildhall (setup, Weaver, VP 3-b).
    Place {
        /// The card's place in the hand.
        from: HandCard,
        /// The card claimed.
        card: u32,
    },
    /// Stop placing (abilities that place any number).
    Stop,
    /// Assassin: discard a card from another guildhall.
    Assassinate {
        /// The victim.
        seat: Seat,
        /// The card.
        card: u32,
    },
    /// Historian 2/4: take this card from the discard pile (its topmost copy).
    Search {
        /// The card.
        card: u32,
    },
    /// Trader 0/2: swap a card of yours for one of theirs.
    Swap {
        /// Your card.
        mine: u32,
        /// The other seat.
        seat: Seat,
        /// Their card.
        theirs: u32,
    },
    /// Trader 4: swap a chapter of yours for one of theirs.
    SwapChapter {
        /// Your chapter.
        mine: Profession,
        /// The other seat.
        seat: Seat,
        /// Their chapter.
        theirs: Profession,
    },
    /// Weaver 2/4: take a card of your guildhall back to your hand.
    Return {
        /// The card.
        card: u32,
    },
    /// Pay for the VP card with a completed chapter, laid on the discard
    /// pile in `order` (Yucata's third change).
    Pay {
        /// The chapter.
        profession: Profession,
        /// The order of its five cards, when the seat chooses it.
        order: Option<ChapterOrder>,
    },
    /// Discard a completed chapter beyond the third.
    Shed {
        /// The chapter.
        profession: Profession,
        /// The order of its five cards, when the seat chooses it.
        order: Option<ChapterOrder>,
    },
    /// Use the bought VP card's ability (for those with no target).
    Use,
    /// Do not use the bought VP card's ability.
    Skip,
    /// VP 2: move an incomplete chapter of another guildhall into yours.
    MoveChapter {
        /// The other seat.
        seat: Seat,
        /// The chapter.
        profession: Profession,
    },
    /// VP 4-c: take a card of another guildhall into yours.
    Take {
        /// The other seat.
        seat: Seat,
        /// The card.
        card: u32,
    },
    /// VP 3-a: give one card of yours for two of one other guildhall.
    SwapOneForTwo {
        /// Your card.
        mine: u32,
        /// The other seat.
        seat: Seat,
        /// Their first card.
        first: u32,
        /// Their second card.
        second: u32,
    },
}

fn card_name(card: u32) -> String {
    Card::from_index(card).map_or_else(|| format!("card#{card}"), |c| c.to_string())
}

impl fmt::Display for HandCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HandCard::Dealt(h) => write!(f, "{}:{}", h.epoch.0, h.slot),
            HandCard::Open(_) => f.write_str("open"),
        }
    }
}

fn order_suffix(order: Option<ChapterOrder>) -> String {
    order.map_or_else(String::new, |order| {
        let names: Vec<&str> = order.iter().map(|c| c.name()).collect();
        format!(" top {}", names.join(" "))
    })
}

/// Seats are written from 1, as people count them.
impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::Play { from, card, level } => {
                let level = level.map_or_else(|| "none".to_owned(), |l| l.to_string());
                write!(f, "play {} {from} level {level}", card_name(card))
            }
            Action::Refill => f.write_str("refill"),
            Action::Buy { kind } => {
                let name = VP_TABLE.get(usize::from(kind)).map_or("?", |v| v.name);
                write!(f, "buy {name}")
            }
            Action::Discard { from, card } => write!(f, "discard {} {from}", card_name(card)),
            Action::Draw => f.write_str("draw"),
            Action::Place { from, card } => write!(f, "place {} {from}", card_name(card)),
            Action::Stop => f.write_str("stop"),
            Action::Assassinate { seat, card } => {
                write!(f, "assassinate {} {}", seat.number(), card_name(card))
            }
            Action::Search { card } => write!(f, "search {}", card_name(card)),
            Action::Swap { mine, seat, theirs } => write!(
                f,
                "swap {} {} {}",
                card_name(mine),
                seat.number(),
                card_name(theirs)
            ),
            Action::SwapChapter { mine, seat, theirs } => write!(
                f,
                "swap-chapter {} {} {}",
                mine.name(),
                seat.number(),
                theirs.name()
            ),
            Action::Return { card } => write!(f, "return {}", card_name(card)),
            Action::Pay { profession, order } => {
                write!(f, "pay {}{}", profession.name(), order_suffix(order))
            }
            Action::Shed { profession, order } => {
                write!(f, "shed {}{}", profession.name(), order_suffix(order))
            }
            Action::Use => f.write_str("use"),
            Action::Skip => f.write_str("skip"),
            Action::MoveChapter { seat, profession } => {
                write!(f, "move-chapter {} {}", seat.number(), profession.name())
            }
            Action::Take { seat, card } => write!(f, "take {} {}", seat.number(), card_name(card)),
            Action::SwapOneForTwo {
                mine,
                seat,
                first,
                second,
            } => write!(
                f,
                "swap-one-for-two {} {} {} {}",
                card_name(mine),
                seat.number(),
                card_name(first),
                card_name(second)
            ),
        }
    }
}

const GRAMMAR: &str = "see tests/scenarios/guildhall/GRAMMAR.md: play CARD WHERE level N|none, refill, \
     buy VP, discard CARD WHERE, draw, place CARD WHERE, stop, assassinate SEAT CARD, search CARD, \
     swap CARD SEAT CARD, swap-chapter PROF SEAT PROF, return CARD, pay PROF [top COLOUR...], \
     shed PROF [top COLOUR...], use, skip, move-chapter SEAT PROF, take SEAT CARD, \
     swap-one-for-two CARD SEAT CARD CARD";

impl Action {
    /// Read an action from its text form (the inverse of `Display`).
    pub fn parse(text: &str) -> Result<Action, ParseError> {
        let bad = |reason: &str| ParseError::new(text, reason);
        let card = |s: &str| {
            Card::parse(s)
                .map(Card::index)
                .ok_or_else(|| bad(&format!("{s:?} is not a card (profession:colour)")))
        };
        let profession = |s: &str| {
            Profession::parse(s).ok_or_else(|| bad(&format!("{s:?} is not a profession")))
        };
        let seat = |s: &str| match s.parse::<u8>() {
            Ok(n) if n >= 1 => Ok(Seat(n - 1)),
            _ => Err(bad(&format!("{s:?} is not a seat number (from 1)"))),
        };
        let from = |s: &str, card: u32| -> Result<HandCard, ParseError> {
            if s == "open" {
                return Ok(HandCard::Open(card));
            }
            let (epoch, slot) = s
                .split_once(':')
                .ok_or_else(|| bad("a hand card is EPOCH:SLOT or `open`"))?;
            let epoch = epoch
                .parse::<u16>()
                .map_err(|_| bad(&format!("epoch {epoch:?} is not a number")))?;
            let slot = slot
                .parse::<u32>()
                .map_err(|_| bad(&format!("slot {slot:?} is not a number")))?;
            Ok(HandCard::Dealt(CardHandle::new(EpochId(epoch), slot)))
        };
        let order = |words: &[&str]| -> Result<Option<ChapterOrder>, ParseError> {
            match words {
                [] => Ok(None),
                ["top", colours @ ..] if !colours.is_empty() => {
                    let colours = colours
                        .iter()
                        .map(|c| {
                            Colour::parse(c).ok_or_else(|| bad(&format!("{c:?} is not a colour")))
                        })
                        .collect::<Result<Vec<Colour>, ParseError>>()?;
                    chapter_order(&colours)
                        .map(Some)
                        .ok_or_else(|| bad("a chapter's colours are named at most once each"))
                }
                _ => Err(bad(
                    "expected `top COLOUR...` (from the top down) or nothing",
                )),
            }
        };
        let words: Vec<&str> = text.split_whitespace().collect();
        Ok(match words.as_slice() {
            ["play", c, w, "level", l] => {
                let card = card(c)?;
                let level = match *l {
                    "none" => None,
                    n => Some(
                        n.parse::<u8>()
                            .map_err(|_| bad("a level is a number or `none`"))?,
                    ),
                };
                Action::Play {
                    from: from(w, card)?,
                    card,
                    level,
                }
            }
            ["refill"] => Action::Refill,
            ["buy", k] => Action::Buy {
                kind: vp_kind(k).ok_or_else(|| bad(&format!("{k:?} is not a VP card kind")))?,
            },
            ["discard", c, w] => {
                let card = card(c)?;
                Action::Discard {
                    from: from(w, card)?,
                    card,
                }
            }
            ["draw"] => Action::Draw,
            ["place", c, w] => {
                let card = card(c)?;
                Action::Place {
                    from: from(w, card)?,
                    card,
                }
            }
            ["stop"] => Action::Stop,
            ["assassinate", s, c] => Action::Assassinate {
                seat: seat(s)?,
                card: card(c)?,
            },
            ["search", c] => Action::Search { card: card(c)? },
            ["swap", m, s, t] => Action::Swap {
                mine: card(m)?,
                seat: seat(s)?,
                theirs: card(t)?,
            },
            ["swap-chapter", m, s, t] => Action::SwapChapter {
                mine: profession(m)?,
                seat: seat(s)?,
                theirs: profession(t)?,
            },
            ["return", c] => Action::Return { card: card(c)? },
            ["pay", p, rest @ ..] => Action::Pay {
                profession: profession(p)?,
                order: order(rest)?,
            },
            ["shed", p, rest @ ..] => Action::Shed {
                profession: profession(p)?,
                order: order(rest)?,
            },
            ["use"] => Action::Use,
            ["skip"] => Action::Skip,
            ["move-chapter", s, p] => Action::MoveChapter {
                seat: seat(s)?,
                profession: profession(p)?,
            },
            ["take", s, c] => Action::Take {
                seat: seat(s)?,
                card: card(c)?,
            },
            ["swap-one-for-two", m, s, a, b] => Action::SwapOneForTwo {
                mine: card(m)?,
                seat: seat(s)?,
                first: card(a)?,
                second: card(b)?,
            },
            _ => return Err(bad(GRAMMAR)),
        })
    }
}
