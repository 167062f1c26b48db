//! A seat's decisions and their text form (the scenario grammar,
//! tests/scenarios/nereus/GRAMMAR.md).

use std::fmt;

use roundtable_engine::{CardHandle, EpochId, ParseError};
use serde::{Deserialize, Serialize};

use crate::data::{Colour, Crew, science_by_name, science_name};

/// One of the eight directions, clockwise from north (the compass order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Dir(pub u8);

impl Dir {
    const NAMES: [&'static str; 8] = ["n", "ne", "e", "se", "s", "sw", "w", "nw"];

    /// Every direction, clockwise from north.
    pub fn all() -> impl Iterator<Item = Dir> {
        (0..8).map(Dir)
    }

    /// Row and column steps.
    pub fn delta(self) -> (i8, i8) {
        crate::data::COMPASS[usize::from(self.0 % 8)]
    }

    /// Whether the direction is a diagonal.
    pub fn diagonal(self) -> bool {
        self.0 % 2 == 1
    }

    fn parse(text: &str) -> Option<Dir> {
        Dir::NAMES
            .iter()
            .position(|n| *n == text)
            .map(|i| Dir(i as u8))
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Dir::NAMES[usize::from(self.0 % 8)])
    }
}

/// A water space: row and column from the top-left, from 0. Written as a
/// column letter and a row number from 1 (`b3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Cell {
    /// Row from the top, from 0.
    pub row: u8,
    /// Column from the left, from 0.
    pub col: u8,
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.col), self.row + 1)
    }
}

impl Cell {
    fn parse(text: &str) -> Option<Cell> {
        let mut chars = text.chars();
        let col = chars.next()?;
        if !col.is_ascii_lowercase() {
            return None;
        }
        let row: u8 = chars.as_str().parse().ok()?;
        Some(Cell {
            row: row.checked_sub(1)?,
            col: col as u8 - b'a',
        })
    }
}

/// A space in the cabin that holds one treasure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Slot {
    /// Space `index` (from 0) of a crew member's hold.
    Hold(Crew, u8),
    /// The chest space of a colour.
    Chest(Colour),
    /// Storage space `index` (from 0).
    Store(u8),
}

impl fmt::Display for Slot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Slot::Hold(crew, i) => write!(f, "{crew}.{}", i + 1),
            Slot::Chest(c) => write!(f, "chest.{}", c.letter()),
            Slot::Store(i) => write!(f, "store.{}", i + 1),
        }
    }
}

impl Slot {
    fn parse(text: &str) -> Option<Slot> {
        let (area, place) = text.split_once('.')?;
        match area {
            "chest" => Colour::parse(place).map(Slot::Chest),
            "store" => {
                let n: u8 = place.parse().ok()?;
                Some(Slot::Store(n.checked_sub(1)?))
            }
            crew => {
                let crew = Crew::parse(crew)?;
                let n: u8 = place.parse().ok()?;
                Some(Slot::Hold(crew, n.checked_sub(1)?))
            }
        }
    }
}

/// Which of the scientist's two halves a choice takes ("advance 1 or draw
/// 1"); the other crews' gold and basic actions take `Plain`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Half {
    /// The action has no choice.
    Plain,
    /// Raise science power.
    Power,
    /// Draw a science card.
    Draw,
}

/// What a "during your turn" science card is aimed at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Aim {
    /// Nothing (draw-two, game-end cards).
    None,
    /// Pick-any: the treasure of `colour` on `cell`.
    Pick(Cell, Colour),
    /// Hop: one space this way.
    Hop(Dir),
}

/// A decision.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Phase II stage 1: the crew card chosen secretly.
    Choose(Crew),
    /// Put the action marker on space `n` (from 0) of the chosen crew's row.
    Place(u8),
    /// Captain or pilot: the ship's path, one direction a space (the gold
    /// action is paid when the path needs it).
    Move(Vec<Dir>),
    /// The basic action of the boatswain, purser, merchant or scientist.
    Basic(Half),
    /// Explorer: take a treasure of `Colour` from the neighbour that way.
    Pick(Dir, Colour),
    /// The crew's gold action (not the captain's or pilot's, paid in `Move`).
    Gold(Half),
    /// The crew's enhanced action (boatswain, purser, merchant, scientist).
    Enhanced,
    /// Boatswain: move a treasure within the cabin.
    Shift(Slot, Slot),
    /// Scientist's enhanced action: discard a science card after drawing.
    Discard(CardHandle, u32),
    /// Close the crew's actions (basic, gold and enhanced follow one another).
    Done,
    /// Put a treasure from the hand into the cabin.
    Stow(Colour, Slot),
    /// Move a gem from storage to a treasure space.
    Gem(Slot),
    /// Sell the treasure on a storage space.
    Sell(Slot),
    /// Sell a gem.
    SellGem,
    /// Trade two stored treasures of a colour for a gem.
    Trade(Colour),
    /// Play a science card (claimed card, catalog index), with its aim.
    Play(CardHandle, u32, Aim),
    /// End the turn (treasures still in hand are lost).
    End,
    /// Phase III: pay for an extra turn with this crew card.
    Explore(Crew),
    /// Phase III: forgo the extra turn.
    Decline,
    /// Game end: done with game-end cards and selling.
    Finish,
}

fn handle_text(h: CardHandle, card: u32) -> String {
    format!("{}:{}={}", h.epoch.0, h.slot, science_name(card))
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let half = |h: &Half| match h {
            Half::Plain => "",
            Half::Power => " power",
            Half::Draw => " draw",
        };
        match self {
            Action::Choose(c) => write!(f, "choose {c}"),
            Action::Place(n) => write!(f, "place {}", n + 1),
            Action::Move(path) => {
                f.write_str("move")?;
                for d in path {
                    write!(f, " {d}")?;
                }
                Ok(())
            }
            Action::Basic(h) => write!(f, "basic{}", half(h)),
            Action::Pick(d, c) => write!(f, "pick {d} {}", c.letter()),
            Action::Gold(h) => write!(f, "gold{}", half(h)),
            Action::Enhanced => f.write_str("enhanced"),
            Action::Shift(a, b) => write!(f, "shift {a} {b}"),
            Action::Discard(h, c) => write!(f, "discard {}", handle_text(*h, *c)),
            Action::Done => f.write_str("done"),
            Action::Stow(c, s) => write!(f, "stow {} {s}", c.letter()),
            Action::Gem(s) => write!(f, "gem {s}"),
            Action::Sell(s) => write!(f, "sell {s}"),
            Action::SellGem => f.write_str("sell gem"),
            Action::Trade(c) => write!(f, "trade {}", c.letter()),
            Action::Play(h, c, aim) => {
                write!(f, "play {}", handle_text(*h, *c))?;
                match aim {
                    Aim::None => Ok(()),
                    Aim::Pick(cell, colour) => write!(f, " {cell} {}", colour.letter()),
                    Aim::Hop(d) => write!(f, " {d}"),
                }
            }
            Action::End => f.write_str("end"),
            Action::Explore(c) => write!(f, "explore {c}"),
            Action::Decline => f.write_str("decline"),
            Action::Finish => f.write_str("finish"),
        }
    }
}

fn parse_handle(text: &str) -> Option<(CardHandle, u32)> {
    let (handle, card) = text.split_once('=')?;
    let (epoch, slot) = handle.split_once(':')?;
    let handle = CardHandle::new(EpochId(epoch.parse().ok()?), slot.parse().ok()?);
    let card = science_by_name(card)?;
    Some((handle, card))
}

impl Action {
    /// Read an action from its text form (the inverse of `Display`).
    pub fn parse(text: &str) -> Result<Action, ParseError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let bad = |why: &str| ParseError::new(text, why.to_owned());
        let crew = |w: Option<&&str>| {
            w.and_then(|w| Crew::parse(w))
                .ok_or_else(|| bad("expected a crew member (captain, pilot, ...)"))
        };
        let colour = |w: Option<&&str>| {
            w.and_then(|w| Colour::parse(w))
                .ok_or_else(|| bad("expected a colour (w y g r p b)"))
        };
        let slot = |w: Option<&&str>| {
            w.and_then(|w| Slot::parse(w))
                .ok_or_else(|| bad("expected a cabin space (captain.1, chest.y, store.2)"))
        };
        let half = |w: Option<&&str>| match w.copied() {
            None => Ok(Half::Plain),
            Some("power") => Ok(Half::Power),
            Some("draw") => Ok(Half::Draw),
            Some(_) => Err(bad("expected power or draw")),
        };
        let handle = |w: Option<&&str>| {
            w.and_then(|w| parse_handle(w))
                .ok_or_else(|| bad("expected a science card as epoch:slot=name"))
        };
        let action = match words.first().copied() {
            Some("choose") => Action::Choose(crew(words.get(1))?),
            Some("place") => {
                let n: u8 = words
                    .get(1)
                    .and_then(|w| w.parse().ok())
                    .filter(|&n| n >= 1)
                    .ok_or_else(|| bad("expected a space number from 1"))?;
                Action::Place(n - 1)
            }
            Some("move") => Action::Move(
                words[1..]
                    .iter()
                    .map(|w| Dir::parse(w).ok_or_else(|| bad("expected directions n ne e ... nw")))
                    .collect::<Result<_, _>>()?,
            ),
            Some("basic") => Action::Basic(half(words.get(1))?),
            Some("pick") => {
                let d = words
                    .get(1)
                    .and_then(|w| Dir::parse(w))
                    .ok_or_else(|| bad("expected a direction"))?;
                Action::Pick(d, colour(words.get(2))?)
            }
            Some("gold") => Action::Gold(half(words.get(1))?),
            Some("enhanced") => Action::Enhanced,
            Some("shift") => Action::Shift(slot(words.get(1))?, slot(words.get(2))?),
            Some("discard") => {
                let (h, c) = handle(words.get(1))?;
                Action::Discard(h, c)
            }
            Some("done") => Action::Done,
            Some("stow") => Action::Stow(colour(words.get(1))?, slot(words.get(2))?),
            Some("gem") => Action::Gem(slot(words.get(1))?),
            Some("sell") if words.get(1) == Some(&"gem") => Action::SellGem,
            Some("sell") => Action::Sell(slot(words.get(1))?),
            Some("trade") => Action::Trade(colour(words.get(1))?),
            Some("play") => {
                let (h, c) = handle(words.get(1))?;
                let aim = match (words.get(2), words.get(3)) {
                    (None, _) => Aim::None,
                    (Some(w), None) => {
                        Aim::Hop(Dir::parse(w).ok_or_else(|| bad("expected a direction"))?)
                    }
                    (Some(w), c) => Aim::Pick(
                        Cell::parse(w).ok_or_else(|| bad("expected a water space like b3"))?,
                        colour(c)?,
                    ),
                };
                Action::Play(h, c, aim)
            }
            Some("end") => Action::End,
            Some("explore") => Action::Explore(crew(words.get(1))?),
            Some("decline") => Action::Decline,
            Some("finish") => Action::Finish,
            _ => return Err(bad("not a Nereus action")),
        };
        let expected = match &action {
            Action::Choose(_)
            | Action::Place(_)
            | Action::Discard(..)
            | Action::Gem(_)
            | Action::Sell(_)
            | Action::Trade(_)
            | Action::Explore(_) => 2,
            Action::Pick(..) | Action::Shift(..) | Action::Stow(..) => 3,
            Action::Basic(Half::Plain) | Action::Gold(Half::Plain) => 1,
            Action::Basic(_) | Action::Gold(_) | Action::SellGem => 2,
            Action::Move(p) => 1 + p.len(),
            Action::Play(_, _, Aim::None) => 2,
            Action::Play(_, _, Aim::Hop(_)) => 3,
            Action::Play(_, _, Aim::Pick(..)) => 4,
            Action::Enhanced | Action::Done | Action::End | Action::Decline | Action::Finish => 1,
        };
        if words.len() != expected {
            return Err(bad("wrong number of words"));
        }
        Ok(action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_text_is_one_clear_error() {
        for text in [
            "",
            "move up",
            "place 0",
            "place",
            "choose cook",
            "stow x store.1",
            "stow r hold.1",
            "play hop",
            "play 0:1=nothing",
            "basic maybe",
            "end now",
            "shift store.1",
        ] {
            assert!(Action::parse(text).is_err(), "{text:?} parsed");
        }
    }

    #[test]
    fn text_forms_read_back() {
        for text in [
            "choose scientist",
            "place 3",
            "move",
            "move ne ne",
            "basic power",
            "pick w g",
            "gold draw",
            "shift captain.2 chest.b",
            "discard 1:4=draw-two.3",
            "stow y store.6",
            "sell gem",
            "play 0:2=pick-any b3 r",
            "play 0:7=hop sw",
            "explore pilot",
        ] {
            let action = Action::parse(text).expect(text);
            assert_eq!(action.to_string(), text);
        }
    }
}
