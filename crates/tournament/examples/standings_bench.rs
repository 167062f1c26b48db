//! How long the standings of a tournament take: every transcript under a
//! folder read and audited in parallel (rayon, all cores), then ranked.
//!
//! ```sh
//! roundtable tournament demo --players 200 --rounds 25 --seats 5 --dir /tmp/t   # 1,000 five-seat games
//! cargo run --release -p roundtable-tournament --example standings_bench -- /tmp/t/manifest.json /tmp/t
//! ```
//!
//! It prints the number of transcripts, the wall time of the audits and of
//! the ranking, and the CPU time the audits took per transcript. The same
//! work as `roundtable tournament standings`, without the command's output.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;
use roundtable_port_royal::PortRoyal;
use roundtable_table::audit::audit;
use roundtable_table::transcript::{self, Frame};
use roundtable_tournament::{Manifest, OpenedShares, Refusal, SeedReveal, Submission, standings};

fn transcripts(dir: &Path, found: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            transcripts(&path, found)?;
        } else if path.extension().is_some_and(|e| e == "rts")
            || path.to_string_lossy().ends_with(".reveal.json")
        {
            found.push(path);
        }
    }
    Ok(())
}

fn audit_one(path: &Path) -> Result<Submission, Refusal> {
    let source = path.display().to_string();
    let refuse = |reason: String| Refusal {
        source: source.clone(),
        reason,
    };
    let read = transcript::read(path).map_err(|e| refuse(e.to_string()))?;
    let Some(Frame::Proposal(proposal)) = read.frames.first() else {
        return Err(refuse("no proposal".into()));
    };
    let report = audit::<PortRoyal>(&read.frames).map_err(|e| refuse(e.to_string()))?;
    Submission::from_audit(source.clone(), proposal, &report)
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [manifest, dir] = args.as_slice() else {
        return Err("usage: standings_bench MANIFEST DIR".into());
    };
    let text = std::fs::read_to_string(manifest).map_err(|e| format!("{manifest}: {e}"))?;
    let manifest = Manifest::from_json(&text).map_err(|e| e.to_string())?;
    manifest.verify().map_err(|e| e.to_string())?;
    let mut files = Vec::new();
    transcripts(Path::new(dir), &mut files).map_err(|e| format!("{dir}: {e}"))?;
    files.sort();
    let (reveals, files): (Vec<PathBuf>, Vec<PathBuf>) = files
        .into_iter()
        .partition(|p| p.to_string_lossy().ends_with(".reveal.json"));
    let mut shares = OpenedShares::new();
    for path in &reveals {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let reveal = SeedReveal::from_json(&text).map_err(|e| e.to_string())?;
        manifest
            .check_reveal(&reveal)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        shares.insert(reveal.key, reveal.share);
    }

    let start = Instant::now();
    let audited: Vec<(Result<Submission, Refusal>, f64)> = files
        .par_iter()
        .map(|path| {
            let one = Instant::now();
            let result = audit_one(path);
            (result, one.elapsed().as_secs_f64())
        })
        .collect();
    let audits = start.elapsed().as_secs_f64();
    let busy: f64 = audited.iter().map(|(_, s)| s).sum();
    let (mut games, mut refused) = (Vec::new(), Vec::new());
    for (result, _) in audited {
        match result {
            Ok(g) => games.push(g),
            Err(r) => refused.push(r),
        }
    }
    let ranking = Instant::now();
    let result = standings(&manifest, &shares, games, refused);
    let ranked = ranking.elapsed().as_secs_f64();
    println!(
        "{} transcripts on {} threads: audits {audits:.1} s ({:.0} ms each on one thread), ranking {ranked:.2} s, total {:.1} s; {} refused",
        files.len(),
        rayon::current_num_threads(),
        1000.0 * busy / files.len().max(1) as f64,
        audits + ranked,
        result.refused.len()
    );
    Ok(())
}
