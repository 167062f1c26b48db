//! `roundtable scenario FILE`: run a scripted game and check its expectations.
//!
//! The format and exit codes are fixed by `docs/SCENARIOS.md`: 0 when every
//! step was legal and every expectation held, 3 when a step was refused (and
//! the scenario did not expect exactly that), 4 when an expectation failed,
//! 2 for a malformed file.
//!
//! A file names its game with `game = "NAME"`, or else by the folder it is
//! kept in (`tests/scenarios/<game>/`). One runner plays every game
//! (`roundtable-scenario`); each game's crate brings its grammar. This
//! command only reads the file, chooses the game and prints the outcome.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use roundtable_games::GameId;
use roundtable_port_royal::PortRoyal;
use roundtable_scenario::{Malformed, Outcome, PublicCards, Source};
use serde_json::{Value, json};

/// Print `outcome` as `docs/SCENARIOS.md` specifies and give the exit code
/// (a malformed file is a failure with code 2, printed by `main`).
fn report(outcome: &Outcome, path: &Path, out: &mut impl Write) -> crate::Outcome {
    let mut print = |v: &Value| -> std::io::Result<()> {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(v).unwrap_or_default()
        )
    };
    match outcome {
        Outcome::Passed(state) => {
            print(state)?;
            Ok(ExitCode::SUCCESS)
        }
        Outcome::Malformed(Malformed { line, reason }) => {
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

/// `roundtable scenario FILE`: run the scenario in `file` and print its
/// outcome.
pub(crate) fn run_file(file: &Path) -> crate::Outcome {
    let text = crate::output::read_text(file, "scenario file")
        .map_err(|e| crate::Failure::with_code(2, e))?;
    let folder = file
        .parent()
        .and_then(Path::file_name)
        .and_then(|n| n.to_str());
    report(&run_text(&text, folder), file, &mut crate::output::stdout())
}

/// Run the scenario in `text`, read from a file in `folder` (the game's
/// name when the file does not give it).
pub(crate) fn run_text(text: &str, folder: Option<&str>) -> Outcome {
    match game_of(text, folder) {
        Ok(game) => run_game(game, text),
        Err(malformed) => Outcome::Malformed(malformed),
    }
}

/// The one line per game: which grammar plays its scenarios.
fn run_game(game: GameId, text: &str) -> Outcome {
    match game {
        GameId::PortRoyal => roundtable_scenario::run::<PublicCards<PortRoyal>>(text),
        GameId::Guildhall => {
            roundtable_scenario::run::<roundtable_guildhall::scenario::Scripted>(text)
        }
        GameId::Nereus => roundtable_scenario::run::<roundtable_nereus::scenario::Scripted>(text),
    }
}

/// The game a scenario is of: its `game` key, else its folder's name; or
/// why the file names none.
fn game_of(text: &str, folder: Option<&str>) -> Result<GameId, Malformed> {
    let source = Source::new(text);
    let table: toml::Table = source.parse()?;
    let named = match table.get("game") {
        Some(toml::Value::String(name)) => Some(name.as_str()),
        Some(other) => {
            return Err(Malformed::new(
                source.line_of("game"),
                format!("game = {other} is not a game's name"),
            ));
        }
        None => None,
    };
    let Some(name) = named.or(folder.filter(|f| GameId::from_name(f).is_ok())) else {
        return Err(Malformed::new(
            None,
            format!(
                "the scenario names no game: give `game = \"NAME\"` (the games are {}) \
                 or keep it in a folder named after its game",
                GameId::names()
            ),
        ));
    };
    GameId::from_name(name).map_err(|e| Malformed::new(source.line_of("game"), e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let none = game_of(bare, Some("tmp")).unwrap_err().reason;
        assert!(none.contains("names no game"), "{none}");
        let chess = game_of("seats = 2\ngame = \"chess\"\n", None).unwrap_err();
        assert_eq!(chess.line, Some(2));
        assert!(
            chess
                .reason
                .contains("the games are port-royal, guildhall, nereus"),
            "{}",
            chess.reason
        );
    }

    #[test]
    fn malformed_files_name_the_line() {
        let text = "game = \"port-royal\"\nseats = 2\nsteps = [\n  \"1: fly\",\n]\n";
        match run_text(text, None) {
            Outcome::Malformed(Malformed { line, reason }) => {
                assert_eq!(line, Some(4));
                assert!(reason.contains("fly"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
        match run_text("game = [", None) {
            Outcome::Malformed(Malformed { line: Some(1), .. }) => {}
            other => panic!("{other:?}"),
        }
    }
}
