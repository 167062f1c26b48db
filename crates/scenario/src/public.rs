//! The scenario grammar of a game whose chance outcomes are all public:
//! `docs/SCENARIOS.md` as written, with the game's own names for actions
//! and outcomes.

use roundtable_engine::{Game, Next, Seat};
use serde::Deserialize;

use crate::expect::{compare_json, expectation_for};
use crate::{
    ChanceList, ExpectedRefusal, Malformed, Refusal, ScenarioGame, Source, Stop, split_step,
};

/// A scenario file in the format of `docs/SCENARIOS.md`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PublicFile {
    /// The game's name; the caller chose the game by it (or by the folder).
    #[serde(default)]
    #[allow(dead_code)]
    game: Option<String>,
    seats: u8,
    #[serde(default)]
    options: Option<toml::Table>,
    #[serde(default)]
    chance: Vec<String>,
    #[serde(default)]
    steps: Vec<String>,
    #[serde(default)]
    expect: toml::Table,
}

/// A scripted game whose every chance outcome the file lists by name and
/// whose expectations are checked against its printed state.
#[derive(Debug)]
pub struct PublicCards<G: Game> {
    game: G,
    seats: u8,
    chance: ChanceList,
}

impl<G: Game> PublicCards<G> {
    /// Answer every chance request the game makes while outcomes remain.
    fn feed_chance(&mut self, source: Source<'_>) -> Result<(), Stop> {
        while let Next::Chance(_) = self.game.next() {
            if !self.chance.answer(&mut self.game, source)? {
                break;
            }
        }
        Ok(())
    }
}

fn read_step<G: Game>(text: &str, seats: u8) -> Result<(Seat, G::Action), String> {
    let (seat, action) = split_step(text, seats)?;
    let action = G::parse_action(action).map_err(|e| e.to_string())?;
    Ok((seat, action))
}

impl<G: Game> ScenarioGame for PublicCards<G> {
    type Game = G;
    type File = PublicFile;
    type Step = (Seat, G::Action);

    fn start(file: &PublicFile, source: Source<'_>) -> Result<Self, Malformed> {
        let options: G::Options = match &file.options {
            None => G::Options::default(),
            Some(t) => t
                .clone()
                .try_into()
                .map_err(|e| Malformed::new(source.line_of("[options]"), e.to_string()))?,
        };
        // Steps are read without the game, so every one is read before any
        // is played: a file with a step nobody can read is malformed, not
        // refused at an earlier step.
        for s in &file.steps {
            read_step::<G>(s, file.seats).map_err(|reason| {
                Malformed::new(
                    source.item_line("steps", s),
                    format!("step {s:?}: {reason}"),
                )
            })?;
        }
        let game =
            G::new_game(file.seats, &options).map_err(|e| Malformed::new(None, e.to_string()))?;
        Ok(PublicCards {
            game,
            seats: file.seats,
            chance: ChanceList::new(file.chance.clone()),
        })
    }

    fn prepare(&mut self, _: &PublicFile, source: Source<'_>) -> Result<(), Stop> {
        self.feed_chance(source)
    }

    fn steps(file: &PublicFile) -> &[String] {
        &file.steps
    }

    fn expected_refusal(
        file: &PublicFile,
        source: Source<'_>,
    ) -> Result<Option<ExpectedRefusal>, Malformed> {
        file.expect
            .get("refused")
            .map(|v| {
                v.clone()
                    .try_into()
                    .map_err(|e| Malformed::new(source.line_of("refused"), format!("refused: {e}")))
            })
            .transpose()
    }

    fn read_step(&self, text: &str) -> Result<Self::Step, String> {
        read_step::<G>(text, self.seats)
    }

    fn take_step(&mut self, (seat, action): &Self::Step) -> Result<(), Refusal> {
        self.game
            .apply_action(*seat, action, &mut Vec::new())
            .map_err(|e| Refusal::of(&e))
    }

    fn serve(&mut self, _: Option<&str>, source: Source<'_>) -> Result<(), Stop> {
        self.feed_chance(source)
    }

    fn game(&self) -> &G {
        &self.game
    }

    fn check(
        &self,
        file: &PublicFile,
        source: Source<'_>,
        differences: &mut Vec<String>,
    ) -> Result<(), Malformed> {
        let unused = self.chance.unused();
        if unused > 0 {
            differences.push(format!("{unused} chance outcome(s) were never asked for"));
        }
        let state = self.state();
        for (key, expected) in file.expect.iter().filter(|(k, _)| *k != "refused") {
            let expected = serde_json::to_value(expected)
                .map_err(|e| Malformed::new(source.line_of(key), e.to_string()))?;
            match expectation_for(&state, key) {
                Some(actual) => compare_json(key, &expected, &actual, differences),
                None => differences.push(format!("{key}: the state has no such field")),
            }
        }
        Ok(())
    }
}
