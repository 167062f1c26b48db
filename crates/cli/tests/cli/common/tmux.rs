//! A tmux server of a test's own (its own socket file, removed after), with
//! one session: keys go in with `send-keys`, the screen comes back with
//! `capture-pane`. Shared by the terminal end-to-end tests.

use std::process::Command;
use std::time::{Duration, Instant};

/// Fail, saying why, when tmux is not installed. The terminal tests are
/// ignored by default because a machine may lack tmux; once asked to run
/// (`--ignored`, as `.ci/run` does after installing it) they must not pass
/// without running.
pub(crate) fn require_tmux() {
    if let Err(e) = Command::new("tmux").arg("-V").output() {
        panic!(
            "tmux is not installed ({e}): this test drives the binary through it; install tmux (Debian: apt-get install tmux)"
        );
    }
}

/// How long a screen may take to show what a step of a test expects.
pub(crate) const WAIT: Duration = Duration::from_secs(20);

/// The one game saved under `games` (a data directory's `games/`) audits
/// valid with `bin`, and its report holds `words` (the game's ranking).
#[allow(dead_code)] // the tests that play a whole game use it
pub(crate) fn the_saved_game_audits(bin: &str, games: &std::path::Path, words: &str) {
    let saved: Vec<_> = std::fs::read_dir(games)
        .unwrap_or_else(|e| panic!("{}: {e}", games.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "rts"))
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    let audit = Command::new(bin)
        .arg("audit")
        .arg(&saved[0])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let said = String::from_utf8_lossy(&audit.stdout);
    assert!(
        audit.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&audit.stderr)
    );
    assert!(said.contains("VALID") && said.contains(words), "{said}");
}

/// The binary `bin` started for ann in an 80x24 session `session`, its
/// data in a fresh folder, and taken from the start menu to the local
/// game's set-up form. Returns the server, the data folder and the file
/// its exit status goes to.
#[allow(dead_code)] // the tests of a local game use it
pub(crate) fn at_the_set_up_form(
    session: &'static str,
    bin: &str,
) -> (Tmux, tempfile::TempDir, std::path::PathBuf) {
    require_tmux();
    let tmux = Tmux::new(session);
    let data = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let status = data.path().join("status");
    let env = ["USER=ann".to_owned(), "NO_COLOR=1".to_owned()];
    let args = ["--data-dir".to_owned(), data.path().display().to_string()];
    tmux.start((80, 24), &env, bin, &args, &status);
    tmux.expect("start menu", |s| s.contains("Local game against bots"));
    tmux.keys(&["Enter"]);
    tmux.expect("set-up", |s| s.contains("< Port Royal >"));
    (tmux, data, status)
}

/// A tmux server and the name of its one session.
pub(crate) struct Tmux {
    socket: std::path::PathBuf,
    session: &'static str,
}

#[allow(dead_code)] // each test binary uses its own part of this
impl Tmux {
    /// A server with its socket in the temporary folder; `session` names
    /// the session the other calls address.
    pub(crate) fn new(session: &'static str) -> Tmux {
        let socket =
            std::env::temp_dir().join(format!("roundtable-{session}-{}.sock", std::process::id()));
        Tmux { socket, session }
    }

    /// Run a tmux command against this server; its output when it succeeds.
    pub(crate) fn run(&self, args: &[&str]) -> Option<String> {
        let out = Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .args(args)
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// The screen once it shows what `ok` looks for, within [`WAIT`];
    /// fail naming `what` with the screen as it was.
    pub(crate) fn expect(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        self.expect_within(WAIT, what, ok)
    }

    /// [`Tmux::expect`] with a limit of the caller's (a networked step
    /// waits on other processes).
    pub(crate) fn expect_within(
        &self,
        limit: Duration,
        what: &str,
        ok: impl Fn(&str) -> bool,
    ) -> String {
        let (found, screen) = self.wait_for(limit, ok);
        assert!(found, "no {what} within {limit:?}:\n{screen}");
        screen
    }

    /// Play the keyboard's seat until the post-game screen ("Ranking"):
    /// whenever the screen shows `your_move`, Enter plays the move
    /// selected (the first listed). Each screen may take `step`, the whole
    /// game `game`. Returns the moves played.
    pub(crate) fn play_first_moves(
        &self,
        step: Duration,
        game: Duration,
        your_move: &str,
    ) -> usize {
        let start = Instant::now();
        let mut moves = 0;
        loop {
            let screen = self.expect_within(step, "a move or the result", |s| {
                s.contains(your_move) || s.contains("Ranking")
            });
            if screen.contains("Ranking") {
                return moves;
            }
            assert!(
                start.elapsed() < game,
                "the game takes too long ({moves} moves):\n{screen}"
            );
            self.keys(&["Enter"]);
            moves += 1;
            // Let the table take the move before reading the screen again.
            let _ = self.wait_for(Duration::from_secs(3), |s| s != screen);
        }
    }

    /// From a post-game screen: Enter goes back to the start menu, and q
    /// there quits the binary with status 0 (written to `status`).
    pub(crate) fn back_to_the_menu_and_quit(&self, status: &std::path::Path) {
        self.keys(&["Enter"]);
        self.expect("the menu again", |s| {
            s.contains("Local game against bots") && s.contains("Quit")
        });
        self.keys(&["q"]);
        let code = self.exit_status(status, WAIT);
        assert_eq!(code.as_deref(), Some("0"), "{}", self.screen());
    }

    /// Press `keys` in the session.
    pub(crate) fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", self.session];
        args.extend_from_slice(keys);
        assert!(self.run(&args).is_some(), "send-keys {keys:?}");
    }

    /// Type `text` as it is (a paste), not as key names.
    pub(crate) fn type_text(&self, text: &str) {
        assert!(
            self.run(&["send-keys", "-t", self.session, "-l", text])
                .is_some(),
            "send-keys -l"
        );
    }

    /// The screen as text.
    pub(crate) fn screen(&self) -> String {
        self.run(&["capture-pane", "-p", "-t", self.session])
            .unwrap_or_default()
    }

    /// Wait until the screen satisfies `ok`; the last screen either way.
    pub(crate) fn wait_for(&self, timeout: Duration, ok: impl Fn(&str) -> bool) -> (bool, String) {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if ok(&screen) {
                // A capture can fall inside a redraw (a frame reaches the
                // pane in several writes, more so on a loaded machine): the
                // screen counts once a second look finds it unchanged.
                std::thread::sleep(Duration::from_millis(40));
                let again = self.screen();
                if again == screen {
                    return (true, screen);
                }
                if start.elapsed() > timeout && ok(&again) {
                    return (true, again);
                }
                continue;
            }
            if start.elapsed() > timeout {
                return (false, screen);
            }
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// Start `program` with `args` in a new detached `width`x`height`
    /// session with `env` (`NAME=value`), through `sh`, which writes the
    /// program's exit status to `status` when it ends: tmux 3.3 now and then
    /// leaves its pane's process an unreaped zombie, dead pane and no exit
    /// status (`#{pane_dead_status}` empty) for good, while the shell always
    /// waits for its child. The pane stays after the exit, to read the
    /// screen left behind.
    pub(crate) fn start(
        &self,
        (width, height): (u16, u16),
        env: &[String],
        program: &str,
        args: &[String],
        status: &std::path::Path,
    ) {
        let quote = |s: &str| format!("'{}'", s.replace('\'', r"'\''"));
        let mut line: Vec<String> = std::iter::once(program)
            .chain(args.iter().map(String::as_str))
            .map(quote)
            .collect();
        line.push(format!(
            "; echo $? > {}",
            quote(&status.display().to_string())
        ));
        let (w, h) = (width.to_string(), height.to_string());
        let mut cmd: Vec<String> = ["new-session", "-d", "-s", self.session, "-x", &w, "-y", &h]
            .iter()
            .map(|s| s.to_string())
            .collect();
        for e in env {
            cmd.push("-e".into());
            cmd.push(e.clone());
        }
        // The seed .ci/run takes from the commit: a red run plays the same
        // deals again.
        if let Ok(seed) = std::env::var("ROUNDTABLE_SEED") {
            cmd.push("-e".into());
            cmd.push(format!("ROUNDTABLE_SEED={seed}"));
        }
        cmd.extend(["sh".into(), "-c".into(), line.join(" ")]);
        let refs: Vec<&str> = cmd.iter().map(String::as_str).collect();
        self.run(&refs)
            .unwrap_or_else(|| panic!("tmux could not start {program}"));
        self.run(&["set-option", "-t", self.session, "remain-on-exit", "on"])
            .unwrap_or_else(|| panic!("tmux: remain-on-exit"));
    }

    /// The exit status [`Tmux::start`]'s shell wrote, waiting at most
    /// `timeout` for it.
    pub(crate) fn exit_status(
        &self,
        status: &std::path::Path,
        timeout: Duration,
    ) -> Option<String> {
        let start = Instant::now();
        loop {
            if let Ok(text) = std::fs::read_to_string(status)
                && text.ends_with('\n')
            {
                return Some(text.trim().to_owned());
            }
            if start.elapsed() > timeout {
                return None;
            }
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// A pane property (`#{pane_dead}`, ...).
    pub(crate) fn pane(&self, format: &str) -> String {
        self.run(&["display-message", "-p", "-t", self.session, format])
            .unwrap_or_default()
            .trim()
            .to_owned()
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
        let _ = std::fs::remove_file(&self.socket);
    }
}
