//! `roundtable replay FILE`: step through a transcript in the terminal,
//! forwards and backwards. The file is checked first, as `audit` checks it:
//! one line and exit 2 when it cannot be read, 1 when it proves a
//! violation. Without a terminal (a pipe, a file) the game is printed
//! input by input instead, with the log lines each input added.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use roundtable_engine::Game;
use roundtable_tui::{Replay, Seek};

pub(crate) fn run(file: &Path) -> crate::Outcome {
    let mut replay = match Replay::open(file) {
        Ok(r) => r,
        Err(e) => {
            // Transcript errors name the file already; the others do not.
            let (shown, why) = (file.display().to_string(), e.to_string());
            let message = if why.contains(&shown) {
                why
            } else {
                format!("{shown}: {why}")
            };
            return Err(crate::Failure::with_code(
                e.exit_code(),
                anyhow::anyhow!(message),
            ));
        }
    };
    if crate::output::has_terminal() {
        roundtable_tui::run_replay(replay)?;
        return Ok(ExitCode::SUCCESS);
    }
    print(&mut replay, &mut crate::output::stdout())?;
    Ok(ExitCode::SUCCESS)
}

/// The whole game as text: every input, the log lines it added, the result.
fn print(replay: &mut Replay, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{}: {} inputs; {}",
        replay.title(),
        replay.len(),
        replay.names().join(", ")
    )?;
    for (position, input, lines) in replay.steps() {
        writeln!(out, "{position:>5} {input}")?;
        for line in lines {
            writeln!(out, "        {}", line.text)?;
        }
    }
    if let Some(note) = replay.note() {
        writeln!(out, "note: {note}")?;
    }
    replay.seek(Seek::End);
    if let Some(result) = replay.game().result() {
        let mut standings = result.standings;
        standings.sort_by_key(|s| (s.rank, s.seat));
        for s in standings {
            writeln!(
                out,
                "#{} {}: {} VP, {} coins",
                s.rank + 1,
                replay
                    .names()
                    .get(s.seat.index())
                    .map_or("", String::as_str),
                s.score,
                s.tie_break
            )?;
        }
    }
    Ok(())
}
