//! A seat's decisions and their text form.

use std::fmt;

use roundtable_engine::{CardHandle, EpochId, ParseError};
use serde::{Deserialize, Serialize};

/// A decision of the seat whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Play nothing this turn.
    Pass,
    /// Play the card in `handle` face up, claiming it is `card`.
    Play {
        /// The slot played, from the seat's hand.
        handle: CardHandle,
        /// The card (catalog index) the seat says the slot holds.
        card: u32,
    },
}

/// Text form: `pass`, or `play EPOCH:SLOT CARD` (`play 0:7 13`).
impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Pass => f.write_str("pass"),
            Action::Play { handle, card } => {
                write!(f, "play {}:{} {card}", handle.epoch.0, handle.slot)
            }
        }
    }
}

impl Action {
    /// Read an action from its text form (the inverse of `Display`).
    pub fn parse(text: &str) -> Result<Action, ParseError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.as_slice() {
            ["pass"] => Ok(Action::Pass),
            ["play", handle, card] => {
                let (epoch, slot) = handle
                    .split_once(':')
                    .ok_or_else(|| ParseError::new(text, "a handle is EPOCH:SLOT, as in 0:7"))?;
                let number = |what: &str, s: &str| {
                    s.parse::<u32>()
                        .map_err(|_| ParseError::new(text, format!("{what} {s:?} is not a number")))
                };
                let epoch = u16::try_from(number("epoch", epoch)?)
                    .map_err(|_| ParseError::new(text, "the epoch is above 65535"))?;
                Ok(Action::Play {
                    handle: CardHandle::new(EpochId(epoch), number("slot", slot)?),
                    card: number("card", card)?,
                })
            }
            _ => Err(ParseError::new(
                text,
                "an action is `pass` or `play EPOCH:SLOT CARD`",
            )),
        }
    }
}
