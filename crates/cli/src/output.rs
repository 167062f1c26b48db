//! Standard output for every subcommand's report.
//!
//! `println!` panics when the reader has gone (`roundtable audit … | head -1`
//! closes the pipe). Every subcommand writes through [`stdout`] instead,
//! whose writes return that as an error; `main` recognises it with
//! [`closed`] and ends the program quietly, as a command in a pipe should.

use std::io::{self, Write};

/// Standard output whose writes fail, rather than panic, once the reader
/// has gone.
pub(crate) struct Stdout(io::Stdout);

/// Standard output (each write takes the lock for itself, so a printer may
/// live in a task that moves between threads).
pub(crate) fn stdout() -> Stdout {
    Stdout(io::stdout())
}

/// The reader of standard output has gone (marks the I/O error).
#[derive(Debug)]
struct ReaderGone;

impl std::fmt::Display for ReaderGone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the reader of standard output has gone")
    }
}

impl std::error::Error for ReaderGone {}

/// A closed pipe on standard output becomes an error `closed` recognises,
/// so that a closed network stream elsewhere is never mistaken for it.
fn mark(error: io::Error) -> io::Error {
    if error.kind() == io::ErrorKind::BrokenPipe {
        io::Error::new(io::ErrorKind::BrokenPipe, ReaderGone)
    } else {
        error
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).map_err(mark)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.0.write_all(buf).map_err(mark)
    }

    fn write_fmt(&mut self, args: std::fmt::Arguments<'_>) -> io::Result<()> {
        self.0.write_fmt(args).map_err(mark)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(mark)
    }
}

/// Whether `error` is standard output's reader having gone.
pub(crate) fn closed(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .and_then(io::Error::get_ref)
            .is_some_and(|inner| inner.is::<ReaderGone>())
    })
}

/// `text` with its control characters escaped (`\u{1b}`, `\n`): names,
/// refusal reasons and error messages can come from another peer, and a
/// terminal would obey the escape sequences in them.
pub(crate) fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}
