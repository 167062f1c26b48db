//! A seat's decisions and their text form (as scenarios write them).

use std::fmt;

use roundtable_engine::{ParseError, Seat};
use serde::{Deserialize, Serialize};

/// How a ship is traded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum TakeMode {
    /// Take a ship's coins or hire a person, as usual.
    Normal,
    /// Expansion (Frigate Foe, Galleon Foe): trade the ship but decline its coins.
    Decline,
    /// Expansion: trade a gift ship; this seat gains the extra coin.
    Gift(Seat),
    /// Expansion: trade a gift ship for a Foe contract, declining its coins;
    /// this seat still gains the extra coin (the rules text says the gift is
    /// given even when the taker declines).
    DeclineGift(Seat),
}

/// A decision of one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Discover: reveal the next card.
    Draw,
    /// Discover: discard the ship just revealed, using swords.
    Repel,
    /// Discover: put the ship just revealed into the harbor.
    Keep,
    /// Discover: end Discover and go to Trade & Hire.
    Stop,
    /// Claim the face-up expedition at this position.
    Claim(u8),
    /// Trade & Hire: take the harbor card at this position.
    Take(u8, TakeMode),
    /// Trade & Hire: take nothing more.
    Pass,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Draw => f.write_str("draw"),
            Action::Repel => f.write_str("repel"),
            Action::Keep => f.write_str("keep"),
            Action::Stop => f.write_str("stop"),
            Action::Claim(n) => write!(f, "claim {n}"),
            Action::Take(n, TakeMode::Normal) => write!(f, "take {n}"),
            Action::Take(n, TakeMode::Decline) => write!(f, "take {n} decline"),
            Action::Take(n, TakeMode::Gift(s)) => write!(f, "take {n} gift {}", s.number()),
            Action::Take(n, TakeMode::DeclineGift(s)) => {
                write!(f, "take {n} decline gift {}", s.number())
            }
            Action::Pass => f.write_str("pass"),
        }
    }
}

impl Action {
    /// Read an action from its text form ("take 2 gift 3"; seats count from 1).
    pub fn parse(text: &str) -> Result<Action, ParseError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let position = |w: &str| {
            w.parse::<u8>()
                .map_err(|_| ParseError::new(text, format!("{w:?} is not a position")))
        };
        let seat = |s: &str| {
            s.parse::<u8>()
                .ok()
                .and_then(|s| s.checked_sub(1))
                .map(Seat)
                .ok_or_else(|| ParseError::new(text, format!("{s:?} is not a seat number")))
        };
        let action = match words.as_slice() {
            ["draw"] => Action::Draw,
            ["repel"] => Action::Repel,
            ["keep"] => Action::Keep,
            ["stop"] => Action::Stop,
            ["pass"] => Action::Pass,
            ["claim", n] => Action::Claim(position(n)?),
            ["take", n] => Action::Take(position(n)?, TakeMode::Normal),
            ["take", n, "decline"] => Action::Take(position(n)?, TakeMode::Decline),
            ["take", n, "gift", s] => Action::Take(position(n)?, TakeMode::Gift(seat(s)?)),
            ["take", n, "decline", "gift", s] => {
                Action::Take(position(n)?, TakeMode::DeclineGift(seat(s)?))
            }
            _ => {
                return Err(ParseError::new(
                    text,
                    "expected draw, repel, keep, stop, pass, claim N, take N, take N decline, \
                     take N gift S or take N decline gift S",
                ));
            }
        };
        Ok(action)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_form_round_trips() {
        for a in [
            Action::Draw,
            Action::Repel,
            Action::Keep,
            Action::Stop,
            Action::Pass,
            Action::Claim(2),
            Action::Take(0, TakeMode::Normal),
            Action::Take(3, TakeMode::Decline),
            Action::Take(1, TakeMode::Gift(Seat(2))),
            Action::Take(4, TakeMode::DeclineGift(Seat(0))),
        ] {
            assert_eq!(Action::parse(&a.to_string()), Ok(a));
        }
        assert!(Action::parse("take").is_err());
        assert!(Action::parse("take 1 gift 0").is_err());
        assert!(Action::parse("take 1 gift 2 decline").is_err());
        assert!(Action::parse("fly").is_err());
    }
}
