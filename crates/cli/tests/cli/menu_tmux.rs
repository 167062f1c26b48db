//! The start menu as a new user meets it, in a real terminal: tmux runs
//! `roundtable --data-dir DIR`, the name typed in the menu is remembered in
//! DIR across runs, a local game is played under it and quitting it goes
//! back to the menu, and a preferences file that cannot be used gives the
//! default name and one line saying why.
//!
//! Ignored by default, since it needs tmux: `.ci/run` installs tmux and runs
//! it with `--ignored`.

use std::path::Path;
use std::time::Duration;

use crate::common;
use common::tmux::Tmux;

const WAIT: Duration = Duration::from_secs(20);
const BIN: &str = env!("CARGO_BIN_EXE_roundtable");

/// No login name: the default name must still tell seats apart.
fn env() -> Vec<String> {
    ["USER=", "LOGNAME=", "USERNAME=", "NO_COLOR=1"]
        .map(String::from)
        .to_vec()
}

fn start_menu(tmux: &Tmux, data: &Path, status: &Path) -> String {
    let args = ["--data-dir".to_owned(), data.display().to_string()];
    tmux.start((80, 24), &env(), BIN, &args, status);
    let (ok, screen) = tmux.wait_for(WAIT, |s| s.contains("Local game against bots"));
    assert!(ok, "no start menu:\n{screen}");
    screen
}

fn expect(tmux: &Tmux, what: &str, ok: impl Fn(&str) -> bool) -> String {
    let (found, screen) = tmux.wait_for(WAIT, ok);
    assert!(found, "no {what}:\n{screen}");
    screen
}

fn quit(tmux: &Tmux, status: &Path) {
    tmux.keys(&["q"]);
    let code = tmux.exit_status(status, WAIT);
    assert_eq!(code.as_deref(), Some("0"), "{}", tmux.screen());
}

#[test]
#[ignore = "needs tmux; .ci/run installs it and runs this with --ignored"]
fn the_menu_keeps_its_name_in_the_data_dir_and_quitting_a_game_returns_to_it() {
    common::tmux::require_tmux();
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let data = dir.path().join("data");

    // First run: a default name that is not "player", changed in the menu.
    let tmux = Tmux::new("menuname");
    let status = dir.path().join("status-1");
    let screen = start_menu(&tmux, &data, &status);
    let default = screen
        .lines()
        .find_map(|l| l.split("Your name: ").nth(1))
        .map(|rest| rest.trim_end_matches([' ', '│']).to_owned())
        .unwrap_or_else(|| panic!("no name entry:\n{screen}"));
    assert!(default.starts_with("player-"), "{default:?}");
    tmux.keys(&["7"]);
    expect(&tmux, "the name prompt", |s| {
        s.contains("The name the other players see")
    });
    tmux.keys(&["C-u"]);
    tmux.type_text("Mary Read");
    tmux.keys(&["Enter"]);
    expect(&tmux, "the new name in the menu", |s| {
        s.contains("7 Your name: Mary Read")
    });
    quit(&tmux, &status);
    drop(tmux);
    let prefs = std::fs::read_to_string(data.join("prefs.toml")).unwrap_or_else(|e| panic!("{e}"));
    assert!(prefs.contains("Mary Read"), "{prefs}");

    // Second run: the name is back, and the local game seats it; quitting
    // the game says it cannot be resumed and returns to the menu.
    let tmux = Tmux::new("menuname2");
    let status = dir.path().join("status-2");
    let screen = start_menu(&tmux, &data, &status);
    assert!(screen.contains("7 Your name: Mary Read"), "{screen}");
    tmux.keys(&["1"]);
    expect(&tmux, "the set-up", |s| s.contains("Start the game"));
    tmux.keys(&["k", "Enter"]);
    expect(&tmux, "the table under the name", |s| {
        s.contains("Harbor:") && s.contains("Mary Read")
    });
    tmux.keys(&["q"]);
    expect(&tmux, "the question", |s| s.contains("cannot be resumed"));
    tmux.keys(&["y"]);
    expect(&tmux, "the menu again", |s| {
        s.contains("Local game against bots")
    });
    quit(&tmux, &status);
    drop(tmux);
    let games: Vec<_> = std::fs::read_dir(data.join("games"))
        .unwrap_or_else(|e| panic!("{e}"))
        .flatten()
        .collect();
    assert_eq!(
        games.len(),
        1,
        "the local game's transcript is in DIR/games"
    );

    // A preferences file that cannot be used: the default name, one line.
    std::fs::write(data.join("prefs.toml"), "name = 7\n").unwrap_or_else(|e| panic!("{e}"));
    let tmux = Tmux::new("menuname3");
    let status = dir.path().join("status-3");
    let screen = start_menu(&tmux, &data, &status);
    assert!(screen.contains("prefs.toml"), "{screen}");
    assert!(screen.contains("playing as"), "{screen}");
    assert!(screen.contains("7 Your name: player-"), "{screen}");
    quit(&tmux, &status);
}
