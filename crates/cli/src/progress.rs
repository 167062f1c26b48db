//! Auditing many transcripts: `roundtable audit` and `tournament standings`
//! share one way to spread the files over the cores and show how far along
//! they are.

use std::io::IsTerminal;
use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

/// `audit` on each of `files` in parallel, the results in the order of
/// `files`. While it runs, a bar on standard error counts the transcripts
/// done, when `bar` is asked for and standard error is a terminal (a pipe
/// or a file gets no bar to clutter it).
pub(crate) fn audit_in_parallel<R: Send>(
    files: &[PathBuf],
    bar: bool,
    audit: impl Fn(&PathBuf) -> R + Sync,
) -> Vec<R> {
    let shown = if bar && std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(files.len() as u64), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    shown.set_style(
        ProgressStyle::with_template("auditing {bar:40} {pos}/{len} transcripts, {eta} left")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let results = files
        .par_iter()
        .map(|path| {
            let result = audit(path);
            shown.inc(1);
            result
        })
        .collect();
    shown.finish_and_clear();
    results
}
