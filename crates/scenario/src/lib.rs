//! Rule scenarios: a scripted game checked against expectations, in the
//! format of `docs/SCENARIOS.md`.
//!
//! One runner, [`run`], plays every game's scenarios: it reads the file,
//! plays its steps in order, tells a refusal the scenario expected from one
//! it did not, and gives the [`Outcome`] whose exit codes the document
//! fixes. What differs between games is their grammar (how a step's text
//! becomes an action, how chance and private deals are scripted, which
//! expectations a file may state): a game's crate implements
//! [`ScenarioGame`] for that. A game whose chance outcomes are all public
//! needs no code of its own: [`PublicCards`] plays it in the document's
//! own grammar from the game's [`Game::parse_action`] and
//! [`Game::parse_outcome`].
//!
//! Like the engine, nothing here reads a file or a clock: the caller hands
//! in the text and prints the outcome.

mod expect;
mod public;
mod serve;

use roundtable_engine::{Game, Observer, RuleError, Seat};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

pub use expect::{compare_json, expectation_for};
pub use public::PublicCards;
pub use serve::{ChanceList, StackedDealer};

/// How a scenario run ended; `docs/SCENARIOS.md` gives each its exit code.
#[derive(Debug)]
pub enum Outcome {
    /// Every step legal, every expectation held: the final public state
    /// (exit 0).
    Passed(Value),
    /// The file could not be read or understood (exit 2).
    Malformed(Malformed),
    /// A step or chance outcome was refused that the scenario did not
    /// expect: the error and the state before it (exit 3).
    Refused {
        /// `{"step": I, ...}` or `{"chance": I, ...}` with the rule and
        /// its message.
        error: Value,
        /// The spectator's view before the refused input.
        state: Value,
    },
    /// Expectations that did not hold, and the final state (exit 4).
    Failed {
        /// One line for each expectation that did not hold.
        differences: Vec<String>,
        /// The spectator's view at the end.
        state: Value,
    },
}

/// Why a scenario file cannot be played as written: the line it is on, when
/// one line is to blame, and the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed {
    /// The line, counted from 1.
    pub line: Option<usize>,
    /// What is wrong, in words.
    pub reason: String,
}

impl Malformed {
    /// A malformed file, on `line` if one is to blame.
    pub fn new(line: Option<usize>, reason: impl Into<String>) -> Self {
        Malformed {
            line,
            reason: reason.into(),
        }
    }
}

/// A step the rules refused: the rule's name and its message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The rule broken, as [`RuleError::rule`] names it.
    pub rule: String,
    /// The rule's message.
    pub message: String,
}

impl Refusal {
    /// The refusal a game's error stands for.
    pub fn of(error: &impl RuleError) -> Self {
        Refusal {
            rule: error.rule().to_owned(),
            message: error.to_string(),
        }
    }
}

/// Why serving the game's chance and deals between steps stopped short.
#[derive(Debug)]
pub enum Stop {
    /// The scenario cannot be played as written (with no line, the runner
    /// blames the step after which the game asked).
    Malformed(Malformed),
    /// The rules refused chance outcome `chance` (counted from 0) of the
    /// scenario's list.
    ChanceRefused {
        /// Its place in the list.
        chance: usize,
        /// The rule it broke.
        refusal: Refusal,
    },
}

impl From<Malformed> for Stop {
    fn from(m: Malformed) -> Self {
        Stop::Malformed(m)
    }
}

/// The one step a scenario expects to be refused, and by which rule.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectedRefusal {
    /// The step, counted from 0 among `steps`.
    pub step: usize,
    /// The rule's name.
    pub rule: String,
}

/// A scenario file's text, for finding the line a complaint is about.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    text: &'a str,
}

impl<'a> Source<'a> {
    /// The scenario file's text.
    pub fn new(text: &'a str) -> Self {
        Source { text }
    }

    /// The whole text.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// The line (from 1) holding byte `offset`.
    pub fn line_at(&self, offset: usize) -> usize {
        self.text[..offset.min(self.text.len())]
            .matches('\n')
            .count()
            + 1
    }

    /// The line of the first occurrence of `needle` (a key or a table
    /// header such as `[setup]`).
    pub fn line_of(&self, needle: &str) -> Option<usize> {
        self.text.find(needle).map(|i| self.line_at(i))
    }

    /// The line on which the quoted string `item` of the array `key`
    /// appears.
    pub fn item_line(&self, key: &str, item: &str) -> Option<usize> {
        let start = self.text.find(&format!("{key} ="))?;
        let quoted = format!("\"{item}\"");
        self.text[start..]
            .find(&quoted)
            .map(|i| self.line_at(start + i))
    }

    /// The file read as `T`: a key it does not know, a value of the wrong
    /// type or a TOML error is malformed on its line.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, Malformed> {
        toml::from_str(self.text).map_err(|e| {
            Malformed::new(
                e.span().map(|s| self.line_at(s.start)),
                e.message().to_owned(),
            )
        })
    }
}

/// A game's scenario grammar: everything [`run`] needs to play a scenario
/// file of this game. The implementing type is a game being scripted (the
/// game, and whatever stands in for its chance and its deals).
pub trait ScenarioGame: Sized {
    /// The game.
    type Game: Game;
    /// The file as this game's grammar writes it (read with
    /// `deny_unknown_fields`, so a misspelt key is malformed on its line).
    type File: DeserializeOwned;
    /// A step as read, ready to be taken.
    type Step;

    /// The game the file sets up, before anything is served.
    fn start(file: &Self::File, source: Source<'_>) -> Result<Self, Malformed>;

    /// Everything that happens before the first step: the chance, deals
    /// and edits the file scripts for the start.
    fn prepare(&mut self, file: &Self::File, source: Source<'_>) -> Result<(), Stop>;

    /// The file's steps, in order.
    fn steps(file: &Self::File) -> &[String];

    /// The refusal the file expects, if any.
    fn expected_refusal(
        file: &Self::File,
        source: Source<'_>,
    ) -> Result<Option<ExpectedRefusal>, Malformed>;

    /// Read one step in the game's state now (a card may be named by what
    /// it is, and found in the hand); the error is the reason.
    fn read_step(&self, text: &str) -> Result<Self::Step, String>;

    /// Take a step.
    fn take_step(&mut self, step: &Self::Step) -> Result<(), Refusal>;

    /// Answer the chance and deals the game asks for after a step, until a
    /// seat decides or the game ends; `next_step` is the text of the step
    /// that follows, if any.
    fn serve(&mut self, next_step: Option<&str>, source: Source<'_>) -> Result<(), Stop>;

    /// The game as it is now.
    fn game(&self) -> &Self::Game;

    /// Check the file's expectations on the final game: each one that
    /// does not hold adds a line to `differences`.
    fn check(
        &self,
        file: &Self::File,
        source: Source<'_>,
        differences: &mut Vec<String>,
    ) -> Result<(), Malformed>;

    /// The state a scenario prints: the spectator's view as JSON (a
    /// scenario sees everything public).
    fn state(&self) -> Value {
        serde_json::to_value(self.game().view(Observer::Spectator)).unwrap_or(Value::Null)
    }
}

/// Run the scenario in `text` as a scenario of `S`'s game.
pub fn run<S: ScenarioGame>(text: &str) -> Outcome {
    match run_or_malformed::<S>(Source::new(text)) {
        Ok(outcome) => outcome,
        Err(malformed) => Outcome::Malformed(malformed),
    }
}

fn run_or_malformed<S: ScenarioGame>(source: Source<'_>) -> Result<Outcome, Malformed> {
    let file: S::File = source.parse()?;
    let expected = S::expected_refusal(&file, source)?;
    let mut game = S::start(&file, source)?;
    if let Err(stop) = game.prepare(&file, source) {
        return stopped(stop, None, &game);
    }
    let steps = S::steps(&file);
    let mut refusal_seen = false;
    for (i, text) in steps.iter().enumerate() {
        let line = source.item_line("steps", text);
        let step = game
            .read_step(text)
            .map_err(|reason| Malformed::new(line, format!("step {text:?}: {reason}")))?;
        let before = game.state();
        let expected_here = expected.as_ref().filter(|r| r.step == i);
        match game.take_step(&step) {
            Ok(()) if expected_here.is_some() => {
                return Ok(Outcome::Failed {
                    differences: vec![format!(
                        "step {i} ({text}) was expected to be refused but was legal"
                    )],
                    state: game.state(),
                });
            }
            Ok(()) => {}
            Err(refusal) if expected_here.is_some_and(|r| r.rule == refusal.rule) => {
                refusal_seen = true;
            }
            Err(Refusal { rule, message }) => {
                return Ok(Outcome::Refused {
                    error: json!({ "step": i, "rule": rule, "message": message }),
                    state: before,
                });
            }
        }
        let next = steps.get(i + 1).map(String::as_str);
        if let Err(stop) = game.serve(next, source) {
            return stopped(stop, line, &game);
        }
    }
    let mut differences = Vec::new();
    if let Some(r) = &expected
        && !refusal_seen
    {
        differences.push(format!("refused: there is no step {}", r.step));
    }
    game.check(&file, source, &mut differences)?;
    let state = game.state();
    Ok(if differences.is_empty() {
        Outcome::Passed(state)
    } else {
        Outcome::Failed { differences, state }
    })
}

/// The outcome of serving that stopped short after the step on `line`.
fn stopped<S: ScenarioGame>(
    stop: Stop,
    line: Option<usize>,
    game: &S,
) -> Result<Outcome, Malformed> {
    match stop {
        Stop::Malformed(m) => Err(Malformed::new(m.line.or(line), m.reason)),
        Stop::ChanceRefused { chance, refusal } => Ok(Outcome::Refused {
            error: json!({ "chance": chance, "rule": refusal.rule, "message": refusal.message }),
            state: game.state(),
        }),
    }
}

/// The seat and the rest of a step written `SEAT: ACTION` at a table of
/// `seats`, seats counted from 1.
pub fn split_step(text: &str, seats: u8) -> Result<(Seat, &str), String> {
    let (seat, rest) = text.split_once(':').ok_or("a step is \"SEAT: ACTION\"")?;
    Ok((seat_numbered(seat.trim(), seats)?, rest.trim()))
}

/// The seat numbered `text` (from 1) at a table of `seats`.
pub fn seat_numbered(text: &str, seats: u8) -> Result<Seat, String> {
    match text.parse::<u8>() {
        Ok(n) if (1..=seats).contains(&n) => Ok(Seat(n - 1)),
        _ => Err(format!(
            "{text:?} is not a seat of {seats} (seats count from 1)"
        )),
    }
}

/// `differences` gains "WHAT: expected E, got A" unless the two are equal.
pub fn expect_equal(differences: &mut Vec<String>, what: &str, expected: String, actual: String) {
    if expected != actual {
        differences.push(format!("{what}: expected {expected}, got {actual}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_found_by_offset_key_and_array_item() {
        let source = Source::new("seats = 2\nsteps = [\n  \"1: draw\",\n  \"1: stop\",\n]\n");
        assert_eq!(source.line_at(0), 1);
        assert_eq!(source.line_of("steps"), Some(2));
        assert_eq!(source.item_line("steps", "1: stop"), Some(4));
        assert_eq!(source.item_line("chance", "1: stop"), None);
    }

    #[test]
    fn steps_name_a_seat_counted_from_one() {
        assert_eq!(split_step("2: draw", 3), Ok((Seat(1), "draw")));
        assert!(
            split_step("0: draw", 3)
                .unwrap_err()
                .contains("count from 1")
        );
        assert!(split_step("4: draw", 3).is_err());
        assert!(split_step("draw", 3).unwrap_err().contains("SEAT: ACTION"));
    }
}
