//! A game played from the scenario words (docs/SCENARIOS.md): the chance
//! outcomes in the order the game asks for them, and the steps as
//! "SEAT: action" with seats counted from 1. What the bots' and the
//! screens' tests build their situations with: real rules, so the view and
//! the legal moves are exactly what a table would hand them.

use roundtable_engine::{Game, Next, Seat};

use crate::{Action, Options, PortRoyal};

/// A script that does not play: the word at fault and why.
#[derive(Debug, thiserror::Error)]
#[error("{at}: {reason}")]
pub struct ScriptError {
    /// The chance outcome or step that was refused or not understood.
    pub at: String,
    /// Why.
    pub reason: String,
}

impl PortRoyal {
    /// A game of `seats` with `options` after `chance` and `steps`. Every
    /// chance outcome is used as the game asks for one, after set-up and
    /// after each step.
    pub fn scripted(
        seats: u8,
        options: &Options,
        chance: &[&str],
        steps: &[&str],
    ) -> Result<Self, ScriptError> {
        let fail = |at: &str, reason: String| ScriptError {
            at: at.to_owned(),
            reason,
        };
        let mut game = Self::new_game(seats, options).map_err(|e| fail("set-up", e.to_string()))?;
        let mut chance = chance.iter();
        let mut settle = |game: &mut Self| -> Result<(), ScriptError> {
            while let Next::Chance(_) = game.next() {
                let text = chance
                    .next()
                    .ok_or_else(|| fail("chance", "the outcomes ran out".into()))?;
                let outcome = game
                    .parse_outcome(text)
                    .map_err(|e| fail(text, e.to_string()))?;
                game.apply_chance(&outcome, &mut Vec::new())
                    .map_err(|e| fail(text, e.to_string()))?;
            }
            Ok(())
        };
        settle(&mut game)?;
        for step in steps {
            let (seat, action) = step
                .split_once(": ")
                .ok_or_else(|| fail(step, "not \"SEAT: action\"".into()))?;
            let seat = seat
                .parse::<u8>()
                .ok()
                .and_then(|s| s.checked_sub(1))
                .ok_or_else(|| fail(step, "seats count from 1".into()))?;
            let action = Action::parse(action).map_err(|e| fail(step, e.to_string()))?;
            game.apply_action(Seat(seat), &action, &mut Vec::new())
                .map_err(|e| fail(step, e.to_string()))?;
            settle(&mut game)?;
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_names_the_word_it_cannot_play() {
        let options = Options::default();
        let seat_zero = PortRoyal::scripted(2, &options, &["seat:1"], &["0: draw"]);
        assert_eq!(
            seat_zero.map(|_| ()).map_err(|e| e.to_string()),
            Err("0: draw: seats count from 1".to_owned())
        );
        let ran_out = PortRoyal::scripted(2, &options, &["seat:1"], &["1: draw"]);
        assert_eq!(
            ran_out.map(|_| ()).map_err(|e| e.at),
            Err("chance".to_owned())
        );
    }
}
