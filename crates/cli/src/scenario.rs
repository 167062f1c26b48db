//! `roundtable scenario FILE`: run a scripted game and check its expectations.
//!
//! The format and exit codes are fixed by `shared/SCENARIOS.md`: 0 when every
//! step was legal and every expectation held, 3 when a step was refused (and
//! the scenario did not expect exactly that), 4 when an expectation failed,
//! 2 for a malformed file.
//!
//! A file names its game with `game = "NAME"`, or else by the folder it is
//! kept in (`tests/scenarios/<game>/`). A game whose cards are public plays
//! the format of SCENARIOS.md; a game that deals private cards has keys of
//! its own for the deal, in its grammar (Guildhall:
//! `tests/scenarios/guildhall/GRAMMAR.md`, run by [`guildhall`]; Waters of
//! Nereus: `tests/scenarios/nereus/GRAMMAR.md`, run by [`nereus`]).

mod guildhall;
mod nereus;

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use roundtable_engine::{Game, Next, Observer, RuleError, Seat};
use roundtable_games::GameId;
use roundtable_port_royal::PortRoyal;
use serde::Deserialize;
use serde_json::{Value, json};

/// A scenario file as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
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

/// How a scenario run ended.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// Every step legal, every expectation held: the final public state.
    Passed(Value),
    /// The file could not be read or understood.
    Malformed { line: Option<usize>, reason: String },
    /// A step (or chance outcome) was refused: the error and the state before it.
    Refused { error: Value, state: Value },
    /// Expectations that did not hold, and the final state.
    Failed {
        differences: Vec<String>,
        state: Value,
    },
}

impl Outcome {
    /// Print the outcome as SCENARIOS.md specifies and give the exit code
    /// (a malformed file is a failure with code 2, printed by `main`).
    fn report(&self, path: &Path, out: &mut impl Write) -> crate::Outcome {
        let mut print = |v: &Value| -> std::io::Result<()> {
            writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(v).unwrap_or_default()
            )
        };
        match self {
            Outcome::Passed(state) => {
                print(state)?;
                Ok(ExitCode::SUCCESS)
            }
            Outcome::Malformed { line, reason } => {
                let at = line.map(|l| format!(":{l}")).unwrap_or_default();
                Err(crate::Failure::with_code(
                    2,
                    anyhow::anyhow!("{}{at}: {reason}", path.display()),
                ))
            }
            Outcome::Refused { error, state } => {
                print(&json!({ "error": error, "state": state }))?;
                Ok(ExitCode::from(3))
            }
            Outcome::Failed { differences, state } => {
                print(&json!({ "expectations_failed": differences, "state": state }))?;
                Ok(ExitCode::from(4))
            }
        }
    }
}

/// `roundtable scenario FILE`: run the scenario in `file` and print its
/// outcome.
pub(crate) fn run_file(file: &Path) -> crate::Outcome {
    let text = std::fs::read_to_string(file)
        .map_err(|e| crate::Failure::with_code(2, anyhow::anyhow!("{}: {e}", file.display())))?;
    let folder = file
        .parent()
        .and_then(Path::file_name)
        .and_then(|n| n.to_str());
    run_text(&text, folder).report(file, &mut crate::output::stdout())
}

/// Run the scenario in `text`, read from a file in `folder` (the game's
/// name when the file does not give it).
pub(crate) fn run_text(text: &str, folder: Option<&str>) -> Outcome {
    let game = match game_of(text, folder) {
        Ok(game) => game,
        Err((line, reason)) => return Outcome::Malformed { line, reason },
    };
    match game {
        GameId::PortRoyal => run_public::<PortRoyal>(text),
        GameId::Guildhall => guildhall::run(text),
        GameId::Nereus => nereus::run(text),
    }
}

/// The game a scenario is of: its `game` key, else its folder's name; or
/// why the file names none (the line, and the reason).
fn game_of(text: &str, folder: Option<&str>) -> Result<GameId, (Option<usize>, String)> {
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        (
            e.span().map(|s| line_of(text, s.start)),
            e.message().to_owned(),
        )
    })?;
    let named = match table.get("game") {
        Some(toml::Value::String(name)) => Some(name.as_str()),
        Some(other) => {
            return Err((
                find_line(text, "game", 0),
                format!("game = {other} is not a game's name"),
            ));
        }
        None => None,
    };
    let Some(name) = named.or(folder.filter(|f| GameId::from_name(f).is_ok())) else {
        return Err((
            None,
            format!(
                "the scenario names no game: give `game = \"NAME\"` (the games are {}) \
                 or keep it in a folder named after its game",
                GameId::names()
            ),
        ));
    };
    GameId::from_name(name).map_err(|e| (find_line(text, "game", 0), e.to_string()))
}

/// Run a scenario of a game whose chance outcomes are all public, in the
/// format of SCENARIOS.md.
fn run_public<G: Game>(text: &str) -> Outcome {
    let file: ScenarioFile = match toml::from_str(text) {
        Ok(f) => f,
        Err(e) => {
            let line = e.span().map(|s| line_of(text, s.start));
            return Outcome::Malformed {
                line,
                reason: e.message().to_owned(),
            };
        }
    };
    run::<G>(&file, text)
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// The line of the `nth` occurrence of `needle` (as a quoted string or key).
fn find_line(text: &str, needle: &str, nth: usize) -> Option<usize> {
    text.match_indices(needle)
        .nth(nth)
        .map(|(i, _)| line_of(text, i))
}

/// The line on which the quoted string `item` of array `key` appears.
fn item_line(text: &str, key: &str, item: &str) -> Option<usize> {
    let start = text.find(&format!("{key} ="))?;
    let quoted = format!("\"{item}\"");
    text[start..]
        .find(&quoted)
        .map(|i| line_of(text, start + i))
}

struct Step<A> {
    seat: Seat,
    action: A,
}

fn parse_step<G: Game>(text: &str, seats: u8) -> Result<Step<G::Action>, String> {
    let (seat, action) = text.split_once(':').ok_or("a step is \"SEAT: ACTION\"")?;
    let seat: u8 = seat
        .trim()
        .parse()
        .map_err(|_| format!("{:?} is not a seat number", seat.trim()))?;
    if seat == 0 || seat > seats {
        return Err(format!("seat {seat} is not at a table of {seats}"));
    }
    let action = G::parse_action(action.trim()).map_err(|e| e.to_string())?;
    Ok(Step {
        seat: Seat(seat - 1),
        action,
    })
}

/// The refusal a scenario expects: `refused = { step = I, rule = "..." }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExpectedRefusal {
    step: usize,
    rule: String,
}

fn run<G: Game>(file: &ScenarioFile, text: &str) -> Outcome {
    let options: G::Options = match &file.options {
        None => G::Options::default(),
        Some(t) => match t.clone().try_into() {
            Ok(o) => o,
            Err(e) => {
                return Outcome::Malformed {
                    line: find_line(text, "[options]", 0),
                    reason: e.to_string(),
                };
            }
        },
    };
    let mut expect = file.expect.clone();
    let refusal: Option<ExpectedRefusal> = match expect.remove("refused") {
        None => None,
        Some(v) => match v.try_into() {
            Ok(r) => Some(r),
            Err(e) => {
                return Outcome::Malformed {
                    line: find_line(text, "refused", 0),
                    reason: format!("refused: {e}"),
                };
            }
        },
    };
    let mut steps = Vec::with_capacity(file.steps.len());
    for s in &file.steps {
        match parse_step::<G>(s, file.seats) {
            Ok(step) => steps.push(step),
            Err(reason) => {
                return Outcome::Malformed {
                    line: item_line(text, "steps", s),
                    reason: format!("step {s:?}: {reason}"),
                };
            }
        }
    }
    let mut game = match G::new_game(file.seats, &options) {
        Ok(g) => g,
        Err(e) => {
            return Outcome::Malformed {
                line: None,
                reason: e.to_string(),
            };
        }
    };
    let state = |g: &G| serde_json::to_value(g.view(Observer::Spectator)).unwrap_or(Value::Null);

    let mut chance = file.chance.iter().enumerate();
    let mut events = Vec::new();
    let mut chance_events = Vec::new();
    // Answer every chance request the game makes while outcomes remain.
    let mut feed_chance = |game: &mut G| -> Result<(), Box<Outcome>> {
        while let Next::Chance(_) = game.next() {
            let Some((i, name)) = chance.next() else {
                return Ok(());
            };
            let outcome = game.parse_outcome(name).map_err(|e| {
                Box::new(Outcome::Malformed {
                    line: item_line(text, "chance", name),
                    reason: format!("chance {i}: {e}"),
                })
            })?;
            let before = state(game);
            game.apply_chance(&outcome, &mut chance_events)
                .map_err(|e| {
                    Box::new(Outcome::Refused {
                        error: json!({ "chance": i, "rule": e.rule(), "message": e.to_string() }),
                        state: before,
                    })
                })?;
        }
        Ok(())
    };

    let mut refusal_seen = false;
    for (i, step) in steps.iter().enumerate() {
        if let Err(o) = feed_chance(&mut game) {
            return *o;
        }
        let before = state(&game);
        match game.apply_action(step.seat, &step.action, &mut events) {
            Ok(()) => {
                if refusal.as_ref().is_some_and(|r| r.step == i) {
                    return Outcome::Failed {
                        differences: vec![format!(
                            "step {i} ({}) was expected to be refused but was legal",
                            file.steps[i]
                        )],
                        state: state(&game),
                    };
                }
            }
            Err(e) => {
                let expected = refusal
                    .as_ref()
                    .is_some_and(|r| r.step == i && r.rule == e.rule());
                if !expected {
                    return Outcome::Refused {
                        error: json!({ "step": i, "rule": e.rule(), "message": e.to_string() }),
                        state: before,
                    };
                }
                refusal_seen = true;
            }
        }
    }
    if let Err(o) = feed_chance(&mut game) {
        return *o;
    }
    let final_state = state(&game);
    let mut differences = Vec::new();
    let unused = chance.count();
    if unused > 0 {
        differences.push(format!("{unused} chance outcome(s) were never asked for"));
    }
    if let Some(r) = &refusal
        && !refusal_seen
        && r.step >= steps.len()
    {
        differences.push(format!("refused: there is no step {}", r.step));
    }
    for (key, expected) in &expect {
        let expected = match serde_json::to_value(expected) {
            Ok(v) => v,
            Err(e) => {
                return Outcome::Malformed {
                    line: find_line(text, key, 0),
                    reason: e.to_string(),
                };
            }
        };
        match actual_for(&final_state, key) {
            Some(actual) => compare(key, &expected, &actual, &mut differences),
            None => differences.push(format!("{key}: the state has no such field")),
        }
    }
    if differences.is_empty() {
        Outcome::Passed(final_state)
    } else {
        Outcome::Failed {
            differences,
            state: final_state,
        }
    }
}

/// The value an expectation key refers to: a top-level field, or a field of
/// every player ("coins = [3, 5, 3]" means each seat's coins).
fn actual_for(state: &Value, key: &str) -> Option<Value> {
    if let Some(v) = state.get(key) {
        return Some(v.clone());
    }
    let players = state.get("players")?.as_array()?;
    players
        .iter()
        .map(|p| p.get(key).cloned())
        .collect::<Option<Vec<_>>>()
        .map(Value::Array)
}

/// Compare an expectation with the state: objects match when every expected
/// key matches (a subset), arrays element by element, anything else exactly.
fn compare(path: &str, expected: &Value, actual: &Value, out: &mut Vec<String>) {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (k, ev) in e {
                match a.get(k) {
                    Some(av) => compare(&format!("{path}.{k}"), ev, av, out),
                    None => out.push(format!("{path}.{k}: no such field")),
                }
            }
        }
        (Value::Array(e), Value::Array(a)) if e.len() == a.len() => {
            for (i, (ev, av)) in e.iter().zip(a).enumerate() {
                compare(&format!("{path}[{i}]"), ev, av, out);
            }
        }
        _ if expected == actual => {}
        _ => out.push(format!("{path}: expected {expected}, got {actual}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expectations_compare_subsets_of_objects_and_per_seat_shorthands() {
        let state = json!({"active": 2, "players": [{"coins": 3, "vp": 1}, {"coins": 5, "vp": 0}]});
        assert_eq!(actual_for(&state, "coins"), Some(json!([3, 5])));
        let mut out = Vec::new();
        compare(
            "players",
            &json!([{"coins": 3}, {"coins": 4}]),
            &state["players"],
            &mut out,
        );
        assert_eq!(out, vec!["players[1].coins: expected 4, got 5"]);
    }

    /// A scenario's game is its `game` key, else its folder's: Guildhall's
    /// files give none, and the command knew only Port Royal.
    #[test]
    fn a_scenario_is_of_the_game_it_names_else_of_its_folder() {
        let bare = "seats = 2\n";
        assert_eq!(game_of(bare, Some("guildhall")), Ok(GameId::Guildhall));
        assert_eq!(
            game_of("game = \"port-royal\"\nseats = 2\n", Some("guildhall")),
            Ok(GameId::PortRoyal)
        );
        let (_, none) = game_of(bare, Some("tmp")).unwrap_err();
        assert!(none.contains("names no game"), "{none}");
        let (line, chess) = game_of("seats = 2\ngame = \"chess\"\n", None).unwrap_err();
        assert_eq!(line, Some(2));
        assert!(
            chess.contains("the games are port-royal, guildhall, nereus"),
            "{chess}"
        );
    }

    #[test]
    fn malformed_files_name_the_line() {
        let text = "game = \"port-royal\"\nseats = 2\nsteps = [\n  \"1: fly\",\n]\n";
        match run_text(text, None) {
            Outcome::Malformed { line, reason } => {
                assert_eq!(line, Some(4));
                assert!(reason.contains("fly"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
        match run_text("game = [", None) {
            Outcome::Malformed { line: Some(1), .. } => {}
            other => panic!("{other:?}"),
        }
    }
}
