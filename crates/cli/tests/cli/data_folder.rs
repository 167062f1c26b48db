//! The start menu and the network commands keep their files in one data
//! folder. With a relative `XDG_DATA_HOME`, which the XDG rules say to
//! ignore, the menu used `~/.local/share/roundtable` while `host`, `join`
//! and `resume` used the relative folder, so `resume` did not find a game
//! the menu had started.

use std::process::Command;

#[test]
fn resume_ignores_a_relative_xdg_data_home_as_the_start_menu_does() {
    let home = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let out = Command::new(env!("CARGO_BIN_EXE_roundtable"))
        .arg("resume")
        .current_dir(home.path())
        .env("HOME", home.path())
        .env("XDG_DATA_HOME", "relative")
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(1));
    let menu_folder = home.path().join(".local/share/roundtable");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "roundtable resume: no unfinished game in {}\n",
            menu_folder.display()
        )
    );
    assert!(
        !home.path().join("relative").exists(),
        "resume made the relative folder"
    );
}
