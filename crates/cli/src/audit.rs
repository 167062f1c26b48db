//! `roundtable audit FILE...`: verify transcripts and say who won and
//! whether anyone cheated. Exit 0 when every file is valid, 1 when one is
//! invalid, 2 when one cannot be read.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use roundtable_engine::Game;
use roundtable_port_royal::PortRoyal;
use roundtable_table::audit::{AuditReport, audit};
use roundtable_table::transcript::{self, Frame};
use roundtable_table::{Signed, Violation};
use serde_json::{Value, json};

/// Options of `roundtable audit`.
#[derive(Debug, clap::Args)]
pub(crate) struct AuditArgs {
    /// Transcript files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Print one JSON object per file instead of text.
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
        _ => {
            return FileVerdict::Unreadable("the transcript does not start with a proposal".into());
        }
    };
    let report = match game.as_str() {
        PortRoyal::NAME => audit::<PortRoyal>(&read.frames),
        other => return FileVerdict::Unreadable(format!("unknown game {other:?}")),
    };
    match report {
        Ok(mut r) => {
            if read.torn_bytes > 0 {
                r.problems.push(format!(
                    "{} bytes of a torn frame at the end",
                    read.torn_bytes
                ));
            }
            if r.is_valid() {
                FileVerdict::Valid(r)
            } else {
                FileVerdict::Invalid(r)
            }
        }
        Err(e) => FileVerdict::Unreadable(e.to_string()),
    }
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
            json!({
                "file": file,
                "verdict": if valid { "valid" } else { "invalid" },
                "game_id": r.game_id.to_string(),
                "inputs": r.inputs,
                "canonical": r.canonical,
                "audit_micros": micros,
                "standings": r.result.as_ref().map(|res| res.standings.iter().map(|s| json!({
                    "seat": s.seat.number(),
                    "name": r.names.get(s.seat.index()),
                    "rank": u32::from(s.rank) + 1,
                    "score": s.score,
                    "tie_break": s.tie_break,
                })).collect::<Vec<_>>()),
                "forfeited": r.forfeited.iter().map(|(s, why)| json!({"seat": s.number(), "reason": why})).collect::<Vec<_>>(),
                "abandoned": r.abandoned.as_ref().map(|stopped| stopped.iter().map(|s| s.number()).collect::<Vec<_>>()),
                "violations": r.violations.iter().map(|v| json!({
                    "seat": u32::from(v.seat()) + 1,
                    "kind": v.kind(),
                    "description": v.to_string(),
                    "proof": proof_json(v),
                })).collect::<Vec<_>>(),
                "problems": r.problems,
            })
        }
    }
}

/// A violation's proof: the envelopes that prove it, each in its wire
/// encoding (SPEC 3.4) as hex, in the order of SPEC 3.7's table, and what
/// the replay expected instead.
fn proof_json(violation: &Violation) -> Value {
    let wire = |signed: &Signed| roundtable_table::hex(&signed.encode());
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
            "expected_state_hash": roundtable_table::hex(&expected.0),
        }),
        Violation::BadReveal { envelope, reason } => {
            json!({ "envelopes": [wire(envelope)], "reason": reason })
        }
        Violation::UnexpectedBody { envelope, expected } => {
            json!({ "envelopes": [wire(envelope)], "expected": expected })
        }
        Violation::BadSeedOpening { envelope } => json!({ "envelopes": [wire(envelope)] }),
        Violation::BadContinuation { envelope, reason } => {
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
                "{}: {} (game {}, {} inputs)",
                path.display(),
                if valid { "VALID" } else { "INVALID" },
                r.game_id,
                r.inputs
            )?;
            if let Some(stopped) = &r.abandoned {
                let stopped: Vec<String> = stopped
                    .iter()
                    .map(|s| format!("seat {}", s.number()))
                    .collect();
                writeln!(
                    out,
                    "  ABANDONED: {} stopped; the others are ranked as the game stood, the stopped seats last",
                    stopped.join(", ")
                )?;
            }
            if let Some(res) = &r.result {
                let mut standings = res.standings.clone();
                standings.sort_by_key(|s| (s.rank, s.seat));
                for s in standings {
                    writeln!(
                        out,
                        "  #{} seat {} {}: {} VP, {} coins",
                        s.rank + 1,
                        s.seat.number(),
                        r.names.get(s.seat.index()).map_or("", String::as_str),
                        s.score,
                        s.tie_break
                    )?;
                }
            }
            for (s, why) in &r.forfeited {
                writeln!(out, "  seat {} forfeited ({why})", s.number())?;
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

/// `roundtable audit FILE...`: exit 0 when every file is valid, 1 when one
/// proves a violation or is unfinished, else 2 when one cannot be read.
pub(crate) fn run(args: &AuditArgs) -> crate::Outcome {
    let out = &mut crate::output::stdout();
    let progress = !args.json && args.files.len() > 1 && std::io::stderr().is_terminal();
    let mut counts = [0usize; 3];
    let mut worst = 0u8;
    let mut rows = Vec::new();
    for (i, path) in args.files.iter().enumerate() {
        if progress {
            let width = 30;
            let done = (i * width) / args.files.len();
            eprint!(
                "\r[{}{}] {}/{}",
                "#".repeat(done),
                " ".repeat(width - done),
                i,
                args.files.len()
            );
            let _ = std::io::stderr().flush();
        }
        let start = Instant::now();
        let verdict = audit_file(path);
        let micros = start.elapsed().as_micros();
        let (slot, code) = match verdict {
            FileVerdict::Valid(_) => (0, 0),
            FileVerdict::Invalid(_) => (1, 1),
            FileVerdict::Unreadable(_) => (2, 2),
        };
        counts[slot] += 1;
        worst = worst.max(code);
        if args.json {
            writeln!(out, "{}", report_json(path, &verdict, micros))?;
        } else {
            rows.push((path.clone(), verdict));
        }
    }
    if progress {
        eprintln!(
            "\r[{}] {}/{}",
            "#".repeat(30),
            args.files.len(),
            args.files.len()
        );
    }
    if !args.json {
        for (path, verdict) in &rows {
            report_text(path, verdict, out)?;
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
    // Unreadable outranks invalid only when nothing was proven invalid:
    // a director wants "someone cheated" to win over "a file is broken".
    let code = if counts[1] > 0 { 1 } else { worst };
    Ok(ExitCode::from(code))
}
