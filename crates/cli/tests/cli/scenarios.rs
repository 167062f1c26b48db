//! Runs every rule scenario under `tests/scenarios/` through the real
//! `roundtable scenario` command: every file that names its game, and every
//! file in the folder of a game of the list (a file that does not name its
//! game is of its folder's). A game's folder whose game is not in the list
//! yet (its crate runs its scenarios itself) joins once its `list!` line
//! does. A scenario passes when the command exits 0, or with the code named
//! by a comment line `# expect-exit: N` (used by the scenarios that pin the
//! runner's own error reporting).

use std::path::{Path, PathBuf};
use std::process::Command;

use roundtable_games::GameId;

fn scenario_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let listed_folder = dir
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| GameId::from_name(n).is_ok());
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            scenario_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "toml")
            && (listed_folder || names_its_game(&path))
        {
            out.push(path);
        }
    }
}

/// Whether the scenario at `path` gives its game (`game = "..."`).
fn names_its_game(path: &Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|text| {
        text.lines()
            .any(|l| l.trim_start().starts_with("game =") || l.trim_start().starts_with("game="))
    })
}

fn expected_exit(text: &str) -> i32 {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("# expect-exit:"))
        .find_map(|v| v.trim().parse().ok())
        .unwrap_or(0)
}

#[test]
fn every_scenario_holds() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/scenarios");
    let mut files = Vec::new();
    scenario_files(&root, &mut files);
    files.sort();
    assert!(
        files.len() >= 2,
        "no scenarios found under {}",
        root.display()
    );
    // Every game of the list has its scenarios here, and they run.
    for game in GameId::ALL {
        let dir = root.join(game.name());
        assert!(
            files.iter().any(|f| f.starts_with(&dir)),
            "no scenarios of {game} under {}",
            dir.display()
        );
    }
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable scenario");
        let first = text.lines().next().unwrap_or("");
        assert!(
            first.starts_with('#'),
            "{}: the first line must be a comment naming the rule",
            file.display()
        );
        let out = Command::new(env!("CARGO_BIN_EXE_roundtable"))
            .arg("scenario")
            .arg(file)
            .output()
            .expect("the roundtable binary runs");
        let code = out.status.code().unwrap_or(-1);
        if code != expected_exit(&text) {
            failures.push(format!(
                "{} exited {code}:\n{}{}",
                file.display(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} scenarios failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
