//! `roundtable audit FILE...`: verify transcripts and say who won and
//! whether anyone cheated. Several files of one game are also judged
//! together (protocol/SPEC.md 3.9, "Several transcripts of one game"):
//! one game, one result. Exit 0 when every file (or game judged together)
//! is valid, 1 when one is invalid or has no result, 2 when one cannot be
//! read.
//!
//! A transcript's game is the one its genesis names, from the list of games
//! ([`roundtable_games::GameId`]); Hands, the test game with private hands
//! that no command plays, is audited too, as its transcripts are the
//! protocol's test vectors for private cards (protocol/vectors/).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use roundtable_engine::Game;
use roundtable_games::words::{Ending, plural};
use roundtable_games::{Listed, Visit};
use roundtable_hands::Hands;
use roundtable_table::audit::{AuditError, AuditReport, audit};
use roundtable_table::transcript::{self, Frame};
use roundtable_table::verdict::{Outcome, Stop, Verdict, VerdictError, verdict};
use roundtable_table::{GameId, Signed, Violation};
use serde_json::{Value, json};

/// Options of `roundtable audit`.
#[derive(Debug, clap::Args)]
pub(crate) struct AuditArgs {
    /// Transcript files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Print one JSON object per file instead of text (and one per game
    /// given in several files, after them).
    #[arg(long)]
    json: bool,
}

enum FileVerdict {
    Valid(AuditReport),
    Invalid(AuditReport),
    Unreadable(String),
}

fn audit_file(path: &Path) -> FileVerdict {
    let read = match transcript::read(path) {
        Ok(r) => r,
        Err(e) => return FileVerdict::Unreadable(e.to_string()),
    };
    let game = match read.frames.first() {
        Some(Frame::Proposal(p)) => p.game.clone(),
        // Nothing whole to audit: what stopped the reader says why.
        None if read.tail.is_some() => {
            return FileVerdict::Unreadable(read.tail.map(|t| t.to_string()).unwrap_or_default());
        }
        _ => {
            return FileVerdict::Unreadable("the transcript does not start with a proposal".into());
        }
    };
    let report = match game_of(&game) {
        Ok(Audited::Listed(id)) => id.visit(AuditFrames(&read.frames)),
        Ok(Audited::Hands) => audit::<Hands>(&read.frames),
        Err(e) => return FileVerdict::Unreadable(format!("the transcript's game: {e}")),
    };
    match report {
        Ok(mut r) => {
            tail_problem(&mut r, read.tail.as_ref());
            if r.is_valid() {
                FileVerdict::Valid(r)
            } else {
                FileVerdict::Invalid(r)
            }
        }
        Err(e) => FileVerdict::Unreadable(e.to_string()),
    }
}

/// A game `audit` checks: one of the list, or the Hands test game.
enum Audited {
    Listed(roundtable_games::GameId),
    Hands,
}

/// The game a genesis names.
fn game_of(name: &str) -> Result<Audited, roundtable_games::UnknownGame> {
    if name == Hands::NAME {
        return Ok(Audited::Hands);
    }
    roundtable_games::GameId::from_name(name).map(Audited::Listed)
}

/// The audit of one file's frames, for the game its genesis names.
struct AuditFrames<'a>(&'a [Frame]);

impl Visit for AuditFrames<'_> {
    type Output = Result<AuditReport, AuditError>;

    fn visit<G: Listed>(self) -> Self::Output {
        audit::<G>(self.0)
    }
}

/// The verdict over several files of one game.
struct JudgeFrames<'a, 'b>(&'a [&'b [Frame]]);

impl Visit for JudgeFrames<'_, '_> {
    type Output = Result<Verdict, VerdictError>;

    fn visit<G: Listed>(self) -> Self::Output {
        verdict::<G>(self.0)
    }
}

/// A privately dealt card in words, as `replay` names it: the listed
/// game's name for it, else (the Hands test game) its number.
struct CardWords(u32);

impl Visit for CardWords {
    type Output = Option<String>;

    fn visit<G: Listed>(self) -> Option<String> {
        G::private_card_words(self.0)
    }
}

fn card_words(game: &str, card: u32) -> String {
    let named = match game_of(game) {
        Ok(Audited::Listed(id)) => id.visit(CardWords(card)),
        _ => None,
    };
    named.unwrap_or_else(|| format!("card {card}"))
}

/// A listed game's tie-break in words.
struct TieBreak(i64);

impl Visit for TieBreak {
    type Output = String;

    fn visit<G: Listed>(self) -> String {
        G::tie_break_words(self.0)
    }
}

/// What stopped the reading before the end of the file (a frame cut
/// short or damaged, a second transcript) is a problem of the file, not of
/// the game it holds.
pub(crate) fn tail_problem(report: &mut AuditReport, tail: Option<&transcript::Tail>) {
    if let Some(tail) = tail {
        report.problems.push(tail.to_string());
    }
}

/// Files of one game given together, by their place in the arguments,
/// and the verdict on them.
struct Judged {
    files: Vec<usize>,
    verdict: Verdict,
    micros: u128,
}

impl Judged {
    fn path<'a>(&self, args: &'a AuditArgs, transcript: usize) -> &'a Path {
        &args.files[self.files[transcript]]
    }

    /// `valid`, `invalid` (a violation, or the history that stands is
    /// unfinished or has a problem) or `contradicted` (no result stands).
    fn kind(&self) -> &'static str {
        if self.verdict.is_valid() {
            "valid"
        } else if matches!(self.verdict.outcome, Outcome::Contradicted { .. }) {
            "contradicted"
        } else {
            "invalid"
        }
    }
}

/// Judge together every game that two or more of the audited files hold
/// (in the order each game's first file was given). Their files are read
/// again rather than kept: a bulk audit of many games holds one file at a
/// time.
fn judge_games(args: &AuditArgs, verdicts: &[FileVerdict]) -> Vec<Judged> {
    let mut games: Vec<(GameId, Vec<usize>)> = Vec::new();
    for (i, v) in verdicts.iter().enumerate() {
        let (FileVerdict::Valid(r) | FileVerdict::Invalid(r)) = v else {
            continue;
        };
        match games.iter_mut().find(|(id, _)| *id == r.game_id) {
            Some((_, files)) => files.push(i),
            None => games.push((r.game_id, vec![i])),
        }
    }
    games
        .into_iter()
        .filter(|(_, files)| files.len() > 1)
        .filter_map(|(_, files)| {
            let start = Instant::now();
            // A file that changed since it was audited alone (unreadable
            // now, or of another game) leaves its game to be judged file
            // by file, as the verdict then refuses it.
            let read: Vec<_> = files
                .iter()
                .map(|&i| transcript::read(&args.files[i]).ok())
                .collect::<Option<_>>()?;
            let frames: Vec<&[Frame]> = read
                .iter()
                .map(|r: &transcript::ReadTranscript| r.frames.as_slice())
                .collect();
            let game = match frames.first().and_then(|f| f.first()) {
                Some(Frame::Proposal(p)) => p.game.clone(),
                _ => return None,
            };
            let mut verdict = match game_of(&game).ok()? {
                Audited::Listed(id) => id.visit(JudgeFrames(&frames)).ok()?,
                Audited::Hands => verdict::<Hands>(&frames).ok()?,
            };
            for (report, r) in verdict.reports.iter_mut().zip(&read) {
                tail_problem(report, r.tail.as_ref());
            }
            Some(Judged {
                files,
                verdict,
                micros: start.elapsed().as_micros(),
            })
        })
        .collect()
}

/// One file's report as the JSON object `protocol/SPEC.md` 3.9 specifies.
/// Seats count from 1, as everywhere people read them.
fn report_json(path: &Path, verdict: &FileVerdict, micros: u128) -> Value {
    // A file name need not be UTF-8; JSON text must be.
    let file = path.to_string_lossy();
    match verdict {
        FileVerdict::Unreadable(e) => json!({"file": file, "verdict": "unreadable", "error": e}),
        FileVerdict::Valid(r) | FileVerdict::Invalid(r) => {
            let valid = matches!(verdict, FileVerdict::Valid(_));
            let mut report = json!({
                "file": file,
                "verdict": if valid { "valid" } else { "invalid" },
                "game_id": r.game_id.to_string(),
                "inputs": r.inputs,
                "canonical": r.canonical,
                "audit_micros": micros,
                "standings": standings_json(r),
                "forfeited": forfeited_json(r),
                "abandoned": abandoned_json(r),
                "violations": violations_json(&r.violations),
                "problems": r.problems,
            });
            // Only games with private cards have hands to show (SPEC 5.14).
            if let (Some(hands), Some(object)) = (&r.hands, report.as_object_mut()) {
                object.insert("hands".into(), hands_json(r.game, hands));
            }
            report
        }
    }
}

/// Every card dealt to each seat, in seat order: `[{epoch, slot, card,
/// name}]`, the card's number for programs and its name for people.
fn hands_json(game: &str, hands: &[roundtable_engine::Knowledge]) -> Value {
    json!(
        hands
            .iter()
            .map(|k| {
                k.iter()
                    .map(|r| {
                        json!({
                            "epoch": r.handle.epoch.0,
                            "slot": r.handle.slot,
                            "card": r.card,
                            "name": card_words(game, r.card),
                        })
                    })
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>()
    )
}

/// The result's standings, in seat order, or null.
fn standings_json(r: &AuditReport) -> Value {
    json!(r.result.as_ref().map(|res| {
        res.standings
            .iter()
            .map(|s| {
                json!({
                    "seat": s.seat.number(),
                    "name": r.names.get(s.seat.index()),
                    "rank": u32::from(s.rank) + 1,
                    "score": s.score,
                    "tie_break": s.tie_break,
                })
            })
            .collect::<Vec<_>>()
    }))
}

fn forfeited_json(r: &AuditReport) -> Value {
    json!(
        r.forfeited
            .iter()
            .map(|(s, why)| json!({"seat": s.number(), "reason": why}))
            .collect::<Vec<_>>()
    )
}

fn abandoned_json(r: &AuditReport) -> Value {
    json!(
        r.abandoned
            .as_ref()
            .map(|stopped| stopped.iter().map(|s| s.number()).collect::<Vec<_>>())
    )
}

fn violations_json(violations: &[Violation]) -> Value {
    json!(
        violations
            .iter()
            .map(|v| json!({
                "seat": u32::from(v.seat()) + 1,
                "kind": v.kind(),
                "description": v.to_string(),
                "proof": proof_json(v),
            }))
            .collect::<Vec<_>>()
    )
}

fn seat_numbers(seats: &[roundtable_engine::Seat]) -> Vec<u32> {
    seats.iter().map(|s| s.number()).collect()
}

/// A game given in several files, judged together, as the JSON object
/// `protocol/SPEC.md` 3.9 specifies: the result that stands, if one does.
fn game_json(args: &AuditArgs, judged: &Judged) -> Value {
    let v = &judged.verdict;
    let name = |t: usize| judged.path(args, t).to_string_lossy().into_owned();
    let standing = v.standing();
    let contradiction = match &v.outcome {
        Outcome::Contradicted { position, stops } => json!({
            "input": position,
            "stops": stops.iter().map(|s| json!({
                "file": name(s.transcript),
                "input": s.position,
                "stopped": seat_numbers(&s.stopped),
                "claimants": seat_numbers(&s.claimants),
            })).collect::<Vec<_>>(),
        }),
        Outcome::Void | Outcome::Stands { .. } => Value::Null,
    };
    json!({
        "game_id": v.game_id.to_string(),
        "files": judged.files.iter().map(|&i| args.files[i].to_string_lossy()).collect::<Vec<_>>(),
        "verdict": judged.kind(),
        "stands": match v.outcome {
            Outcome::Stands { transcript } if v.violations.is_empty() => json!(name(transcript)),
            _ => Value::Null,
        },
        "audit_micros": judged.micros,
        "standings": standing.map_or(Value::Null, standings_json),
        "forfeited": standing.map_or(json!([]), forfeited_json),
        "abandoned": standing.map_or(Value::Null, abandoned_json),
        "violations": violations_json(&v.violations),
        "contradiction": contradiction,
        "problems": standing.map_or(&[][..], |r| r.problems.as_slice()),
    })
}

/// A violation's proof: the envelopes that prove it, each in its wire
/// encoding (SPEC 3.4) as hex, in the order of SPEC 3.7's table, and what
/// the replay expected instead.
fn proof_json(violation: &Violation) -> Value {
    let wire = |signed: &Signed| hex::encode(signed.encode());
    match violation {
        Violation::Equivocation { first, second } => {
            json!({ "envelopes": [wire(first), wire(second)] })
        }
        Violation::BrokenSequence { previous, next } => {
            json!({ "envelopes": [wire(previous), wire(next)] })
        }
        Violation::IllegalAction { envelope, rule } => {
            json!({ "envelopes": [wire(envelope)], "rule": rule })
        }
        Violation::WrongPosition { envelope, expected } => {
            json!({ "envelopes": [wire(envelope)], "expected_position": expected })
        }
        Violation::StateMismatch { envelope, expected } => json!({
            "envelopes": [wire(envelope)],
            "expected_state_hash": hex::encode(expected.0),
        }),
        Violation::BadReveal { envelope, reason } => {
            json!({ "envelopes": [wire(envelope)], "reason": reason })
        }
        Violation::UnexpectedBody { envelope, expected } => {
            json!({ "envelopes": [wire(envelope)], "expected": expected })
        }
        Violation::BadSeedOpening { envelope } => json!({ "envelopes": [wire(envelope)] }),
        Violation::BadContinuation { envelope, reason }
        | Violation::BadKeyShare { envelope, reason }
        | Violation::BadShuffle { envelope, reason }
        | Violation::BadShare { envelope, reason }
        | Violation::UnaskedShares { envelope, reason }
        | Violation::BadKeyRelease { envelope, reason } => {
            json!({ "envelopes": [wire(envelope)], "reason": reason })
        }
    }
}

fn report_text(path: &Path, verdict: &FileVerdict, out: &mut impl Write) -> std::io::Result<()> {
    match verdict {
        FileVerdict::Unreadable(e) => {
            // Transcript errors name the file already.
            let shown = path.display().to_string();
            let why = e.strip_prefix(&format!("{shown}: ")).unwrap_or(e);
            writeln!(out, "{shown}: UNREADABLE: {why}")
        }
        FileVerdict::Valid(r) | FileVerdict::Invalid(r) => {
            let valid = matches!(verdict, FileVerdict::Valid(_));
            writeln!(
                out,
                "{}: {} (game {}, {})",
                path.display(),
                if valid { "VALID" } else { "INVALID" },
                r.game_id,
                plural(r.inputs, "input", "inputs")
            )?;
            if let Some(stopped) = abandoned_text(r) {
                writeln!(
                    out,
                    "  ABANDONED: {stopped}; the others are ranked as the game stood, the stopped seats last",
                )?;
            }
            result_text(r, out)?;
            for (seat, hand) in r.hands.iter().flatten().enumerate() {
                let cards: Vec<String> = hand.iter().map(|c| card_words(r.game, c.card)).collect();
                writeln!(
                    out,
                    "  seat {} {} was dealt {}: {}",
                    seat + 1,
                    r.names.get(seat).map_or("", String::as_str),
                    plural(cards.len(), "card", "cards"),
                    cards.join(", ")
                )?;
            }
            for v in &r.violations {
                writeln!(out, "  VIOLATION {v}")?;
            }
            for p in &r.problems {
                writeln!(out, "  problem: {p}")?;
            }
            // Honest peers all write the same bytes once a game is finished;
            // a valid file in another order (a peer's log, a duplicated
            // frame) proves the same game but is not that file.
            if !r.canonical {
                writeln!(
                    out,
                    "  note: not in canonical order (not the file every honest peer writes)"
                )?;
            }
            Ok(())
        }
    }
}

/// Who stopped when the game was abandoned, in the words of every other
/// report of a game ("seat 2 bob stopped answering"), if it was.
fn abandoned_text(r: &AuditReport) -> Option<String> {
    let ending = Ending::audited(r);
    let stopped = ending.abandoned()?;
    let names: Vec<String> = (0..r.names.len())
        .map(|i| seat_words(r, roundtable_engine::Seat(i as u8)))
        .collect();
    Some(ending.who_stopped(stopped, &names))
}

/// A seat as the audit names it: "seat 2 bob".
fn seat_words(r: &AuditReport, seat: roundtable_engine::Seat) -> String {
    match r.names.get(seat.index()) {
        Some(name) if !name.is_empty() => format!("seat {} {name}", seat.number()),
        _ => format!("seat {}", seat.number()),
    }
}

/// A result's ranking and forfeits, one line each.
fn result_text(r: &AuditReport, out: &mut impl Write) -> std::io::Result<()> {
    if let Some(res) = &r.result {
        let mut standings = res.standings.clone();
        standings.sort_by_key(|s| (s.rank, s.seat));
        let listed = match game_of(r.game) {
            Ok(Audited::Listed(id)) => Some(id),
            _ => None,
        };
        let score = if listed.is_some() { "VP" } else { "points" };
        for s in standings {
            let tie_break = match listed {
                Some(id) => id.visit(TieBreak(s.tie_break)),
                None => format!("{} tie-break", s.tie_break),
            };
            writeln!(
                out,
                "  #{} seat {} {}: {} {score}, {tie_break}",
                s.rank + 1,
                s.seat.number(),
                r.names.get(s.seat.index()).map_or("", String::as_str),
                s.score,
            )?;
        }
    }
    let ending = Ending::audited(r);
    for (s, why) in &r.forfeited {
        match ending.fate(*s) {
            Some(fate) => writeln!(out, "  {} {}", seat_words(r, *s), fate.words())?,
            None => writeln!(out, "  {} forfeited ({why})", seat_words(r, *s))?,
        }
    }
    Ok(())
}

fn seats_text(seats: &[roundtable_engine::Seat]) -> String {
    seats
        .iter()
        .map(|s| format!("seat {}", s.number()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A game given in several files: the one result that stands, or why
/// none does.
fn game_text(args: &AuditArgs, judged: &Judged, out: &mut impl Write) -> std::io::Result<()> {
    let v = &judged.verdict;
    let shown = |t: usize| judged.path(args, t).display().to_string();
    write!(
        out,
        "game {} ({} files judged together): ",
        v.game_id,
        judged.files.len()
    )?;
    match &v.outcome {
        Outcome::Void => {
            writeln!(
                out,
                "INVALID: a seat is proven to have cheated; the game is void"
            )?;
            for violation in &v.violations {
                writeln!(out, "  VIOLATION {violation}")?;
            }
        }
        Outcome::Stands { transcript } => {
            let Some(r) = v.standing() else {
                return Ok(());
            };
            if v.is_valid() {
                writeln!(
                    out,
                    "VALID: the result of {} stands (every other file is a part of it or loses to it)",
                    shown(*transcript)
                )?;
            } else {
                writeln!(
                    out,
                    "INVALID: the history of {} stands (every other file is a part of it or loses to it), but it has no valid result",
                    shown(*transcript)
                )?;
            }
            if let Some(stopped) = abandoned_text(r) {
                writeln!(out, "  ABANDONED: {stopped}")?;
            }
            result_text(r, out)?;
            for p in &r.problems {
                writeln!(out, "  problem: {p}")?;
            }
        }
        Outcome::Contradicted { position, stops } => {
            writeln!(
                out,
                "NO RESULT: the files contradict each other from input {position}; no win stands"
            )?;
            for Stop {
                transcript,
                position,
                stopped,
                claimants,
            } in stops
            {
                match position {
                    Some(p) => writeln!(
                        out,
                        "  {}: {} stopped at input {p} on the claims of {}",
                        shown(*transcript),
                        seats_text(stopped),
                        seats_text(claimants)
                    )?,
                    None => writeln!(out, "  {}: goes on without a forfeit", shown(*transcript))?,
                }
            }
            writeln!(
                out,
                "  no side's claims outnumber the other's: a network cut in two looks like this from both sides"
            )?;
        }
    }
    Ok(())
}

/// `roundtable audit FILE...`: exit 0 when every file (and every game
/// judged together) is valid, 1 when one proves a violation, is unfinished
/// or has no result, else 2 when one cannot be read.
pub(crate) fn run(args: &AuditArgs) -> crate::Outcome {
    let out = &mut crate::output::stdout();
    // JSON is read by programs; the bar is for a person waiting on many files.
    let bar = !args.json && args.files.len() > 1;
    let audited = crate::progress::audit_in_parallel(&args.files, bar, |path| {
        let start = Instant::now();
        let verdict = audit_file(path);
        (verdict, start.elapsed().as_micros())
    });
    let mut counts = [0usize; 3];
    let mut verdicts = Vec::with_capacity(args.files.len());
    for (path, (verdict, micros)) in args.files.iter().zip(audited) {
        counts[match verdict {
            FileVerdict::Valid(_) => 0,
            FileVerdict::Invalid(_) => 1,
            FileVerdict::Unreadable(_) => 2,
        }] += 1;
        if args.json {
            writeln!(out, "{}", report_json(path, &verdict, micros))?;
        }
        verdicts.push(verdict);
    }
    let games = judge_games(args, &verdicts);
    if args.json {
        for judged in &games {
            writeln!(out, "{}", game_json(args, judged))?;
        }
    } else {
        for (path, verdict) in args.files.iter().zip(&verdicts) {
            report_text(path, verdict, out)?;
        }
        for judged in &games {
            writeln!(out)?;
            game_text(args, judged, out)?;
        }
        if args.files.len() > 1 {
            writeln!(
                out,
                "\n{:>8} {:>8} {:>10}",
                "valid", "invalid", "unreadable"
            )?;
            writeln!(out, "{:>8} {:>8} {:>10}", counts[0], counts[1], counts[2])?;
        }
    }
    // A game judged together speaks for its files: a log cut short beside
    // its finished transcript is no failure, and two valid files whose
    // results contradict each other are one.
    let judged_together: std::collections::BTreeSet<usize> =
        games.iter().flat_map(|g| g.files.iter().copied()).collect();
    let invalid = verdicts
        .iter()
        .enumerate()
        .any(|(i, v)| matches!(v, FileVerdict::Invalid(_)) && !judged_together.contains(&i))
        || games.iter().any(|g| !g.verdict.is_valid());
    // Unreadable outranks invalid only when nothing was proven invalid:
    // a director wants "someone cheated" to win over "a file is broken".
    let code = if invalid {
        1
    } else if counts[2] > 0 {
        2
    } else {
        0
    };
    Ok(ExitCode::from(code))
}
