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

fn report_json(path: &Path, verdict: &FileVerdict, micros: u128) -> Value {
    match verdict {
        FileVerdict::Unreadable(e) => json!({"file": path, "verdict": "unreadable", "error": e}),
        FileVerdict::Valid(r) | FileVerdict::Invalid(r) => {
            let valid = matches!(verdict, FileVerdict::Valid(_));
            json!({
                "file": path,
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
                "violations": r.violations.iter().map(|v| json!({
                    "seat": u32::from(v.seat()) + 1,
                    "kind": v.kind(),
                    "description": v.to_string(),
                    "proof": serde_json::to_value(v).unwrap_or(Value::Null),
                })).collect::<Vec<_>>(),
                "problems": r.problems,
            })
        }
    }
}

fn report_text(path: &Path, verdict: &FileVerdict) {
    match verdict {
        FileVerdict::Unreadable(e) => println!("{}: UNREADABLE: {e}", path.display()),
        FileVerdict::Valid(r) | FileVerdict::Invalid(r) => {
            let valid = matches!(verdict, FileVerdict::Valid(_));
            println!(
                "{}: {} (game {}, {} inputs)",
                path.display(),
                if valid { "VALID" } else { "INVALID" },
                r.game_id,
                r.inputs
            );
            if let Some(res) = &r.result {
                let mut standings = res.standings.clone();
                standings.sort_by_key(|s| (s.rank, s.seat));
                for s in standings {
                    println!(
                        "  #{} seat {} {}: {} VP, {} coins",
                        s.rank + 1,
                        s.seat.number(),
                        r.names.get(s.seat.index()).map_or("", String::as_str),
                        s.score,
                        s.tie_break
                    );
                }
            }
            for (s, why) in &r.forfeited {
                println!("  seat {} forfeited ({why})", s.number());
            }
            for v in &r.violations {
                println!("  VIOLATION {v}");
            }
            for p in &r.problems {
                println!("  problem: {p}");
            }
        }
    }
}

pub(crate) fn run(args: &AuditArgs) -> ExitCode {
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
            println!("{}", report_json(path, &verdict, micros));
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
            report_text(path, verdict);
        }
        if args.files.len() > 1 {
            println!("\n{:>8} {:>8} {:>10}", "valid", "invalid", "unreadable");
            println!("{:>8} {:>8} {:>10}", counts[0], counts[1], counts[2]);
        }
    }
    // Unreadable outranks invalid only when nothing was proven invalid:
    // a director wants "someone cheated" to win over "a file is broken".
    let code = if counts[1] > 0 { 1 } else { worst };
    ExitCode::from(code)
}
