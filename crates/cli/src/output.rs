//! Standard output for every subcommand's report.
//!
//! `println!` panics when the reader has gone (`roundtable audit … | head -1`
//! closes the pipe). Every subcommand writes through [`stdout`] instead,
//! whose writes return that as an error; `main` recognises it with
//! [`closed`] and ends the program quietly, as a command in a pipe should.

use std::io::{self, IsTerminal, Write};

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

/// Whether the terminal UI can run here: standard output is a terminal and
/// keys can be read from one, standard input or else the process's
/// controlling terminal (where the terminal library reads them when
/// standard input is not a terminal). A process whose output goes to a
/// terminal but that has no controlling terminal (started by a service, or
/// under `setsid`) has none: the library would fail with "No such device or
/// address".
pub(crate) fn has_terminal() -> bool {
    io::stdout().is_terminal() && (io::stdin().is_terminal() || controlling_terminal())
}

#[cfg(unix)]
fn controlling_terminal() -> bool {
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
        .is_ok()
}

#[cfg(not(unix))]
fn controlling_terminal() -> bool {
    true
}

/// The text of the file at `path`, which should be a `kind` ("scenario
/// file"). A game transcript given in its place, or any file that is not
/// text, is refused in one line that says what the file is, rather than
/// with the decoder's words.
pub(crate) fn read_text(path: &std::path::Path, kind: &str) -> anyhow::Result<String> {
    let bytes = std::fs::read(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    if bytes.starts_with(roundtable_table::transcript::MAGIC) {
        anyhow::bail!(
            "{} is a game transcript, not a {kind} (use `roundtable replay` or `roundtable audit`)",
            path.display()
        );
    }
    String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("{} is not a {kind}: it is not text", path.display()))
}
