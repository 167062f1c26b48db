//! `roundtable replay FILE`: step through a transcript in the terminal,
//! forwards and backwards. The file is checked first, as `audit` checks it:
//! one line and exit 2 when it cannot be read, 1 when it proves a
//! violation. A file that ends before its game does, or holds more than
//! its game (a damaged frame, a second transcript), is shown as far as it
//! goes and then fails with exit 1, as `audit` calls it invalid. Without a
//! terminal (a pipe, a file) the game is printed
//! input by input instead, with the log lines each input added and, in a
//! game with private cards whose keys were all released, every seat's hand
//! after each input.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use roundtable_games::replay::{ReadTranscript, Replay, ReplayError, Seek, ShownHand};
use roundtable_games::words::plural;
use roundtable_games::{Listed, Visit};
use roundtable_tui::{GameScreen, VisitScreen};

pub(crate) fn run(file: &Path) -> crate::Outcome {
    let failed = |e: ReplayError| {
        // Transcript errors name the file already; the others do not.
        let (shown, why) = (file.display().to_string(), e.to_string());
        let message = if why.contains(&shown) {
            why
        } else {
            format!("{shown}: {why}")
        };
        crate::Failure::with_code(e.exit_code(), anyhow::anyhow!(message))
    };
    let (read, game) = roundtable_games::replay::read(file).map_err(failed)?;
    let shown = if crate::output::has_terminal() {
        roundtable_tui::games::visit(game, Show { read: &read, file })
    } else {
        game.visit(Print { read: &read, file })
    };
    // What could be shown was; a file `audit` calls invalid (cut short,
    // damaged, unfinished, another game joined on) still fails, as there.
    match shown.map_err(failed)?? {
        Some(fault) => Err(failed(ReplayError::Invalid(format!("INVALID: {fault}")))),
        None => Ok(ExitCode::SUCCESS),
    }
}

/// Replay a transcript of whichever game it is in the terminal.
struct Show<'a> {
    read: &'a ReadTranscript,
    file: &'a Path,
}

/// What showing a replay gives: whether it could be shown, and what in the
/// file makes it invalid, if anything ([`Replay::note`]).
type Shown = Result<anyhow::Result<Option<String>>, ReplayError>;

impl VisitScreen for Show<'_> {
    type Output = Shown;

    fn visit<G: GameScreen>(self) -> Self::Output {
        let replay = Replay::<G>::from_read(self.read, &self.file.display().to_string())?;
        let fault = replay.note().map(str::to_owned);
        Ok(roundtable_tui::run_replay(replay).map(|_| fault))
    }
}

/// Print a transcript of whichever game it is as text: the list's words,
/// no screen.
struct Print<'a> {
    read: &'a ReadTranscript,
    file: &'a Path,
}

impl Visit for Print<'_> {
    type Output = Shown;

    fn visit<G: Listed>(self) -> Self::Output {
        let mut replay = Replay::<G>::from_read(self.read, &self.file.display().to_string())?;
        let fault = replay.note().map(str::to_owned);
        Ok(print(&mut replay, &mut crate::output::stdout())
            .map(|()| fault)
            .map_err(anyhow::Error::from))
    }
}

/// The whole game as text: every input, the log lines it added, every hand
/// after it (when the hands can be opened), the result.
fn print<G: Listed>(replay: &mut Replay<G>, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{}: {}; {}",
        replay.title(),
        plural(replay.len(), "input", "inputs"),
        replay.names().join(", ")
    )?;
    if let Some(hidden) = replay.hidden() {
        writeln!(out, "note: {hidden}")?;
    }
    let names = replay.names().to_vec();
    let steps: Vec<(usize, String, Vec<String>)> = replay
        .steps()
        .map(|(p, input, lines)| {
            (
                p,
                input.to_owned(),
                lines.iter().map(|l| l.text.clone()).collect(),
            )
        })
        .collect();
    let mut shown: Vec<ShownHand> = Vec::new();
    for (position, input, lines) in steps {
        writeln!(out, "{position:>5} {input}")?;
        // A log line the input's words already say is not said twice.
        for line in lines.iter().filter(|l| !input.contains(l.as_str())) {
            writeln!(out, "        {line}")?;
        }
        replay.go_to(position);
        let hands = replay.hands();
        // A hand is printed when it changed: each input moves one or two.
        for hand in &hands {
            if shown.iter().any(|h| h == hand) {
                continue;
            }
            let name = names.get(hand.seat.index()).map_or("", String::as_str);
            writeln!(
                out,
                "        hand of {name} ({}): {}",
                hand.cards.len(),
                if hand.cards.is_empty() {
                    "empty".to_owned()
                } else {
                    hand.cards.join(", ")
                }
            )?;
        }
        shown = hands;
    }
    if let Some(note) = replay.note() {
        writeln!(out, "note: {note}")?;
    }
    replay.seek(Seek::End);
    if let Some(result) = replay.result() {
        let ending = replay.ending();
        writeln!(out, "{}", ending.headline(&result, &names))?;
        let mut standings = result.standings;
        standings.sort_by_key(|s| (s.rank, s.seat));
        for s in standings {
            let fate = ending
                .fate(s.seat)
                .map_or(String::new(), |f| format!(" ({})", f.words()));
            writeln!(
                out,
                "#{} {}: {} VP, {}{fate}",
                s.rank + 1,
                names.get(s.seat.index()).map_or("", String::as_str),
                s.score,
                G::tie_break_words(s.tie_break)
            )?;
        }
    }
    Ok(())
}
