//! Transcript files: append-only, length-prefixed frames with checksums.
//!
//! ```text
//! file  = magic "RTSCRIPT" (8 bytes) || version u32 LE || frame*
//! frame = length u32 LE || payload (length bytes) || crc32 u32 LE of payload
//! payload = postcard(Frame)
//! ```
//!
//! A frame is whole or it is a torn tail: on reopen the file is cut after
//! the last frame whose checksum holds. During a game the file is the peer's
//! log, written as envelopes arrive (its own envelopes synced before they are
//! sent); when the game is finished it is replaced, atomically, by the
//! canonical transcript, which is byte-identical on every honest peer.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::durable::{WriteError, write_durably};
use crate::envelope::Signed;
use crate::genesis::{Acceptance, Proposal};

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"RTSCRIPT";
/// The file format version.
pub const FORMAT_VERSION: u32 = 1;
/// Largest frame payload accepted when reading, in bytes.
pub const MAX_FRAME_BYTES: u32 = 1 << 20;

/// One frame of a transcript.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Frame {
    /// The genesis proposal.
    Proposal(Proposal),
    /// A seat's acceptance.
    Acceptance(Acceptance),
    /// A signed envelope.
    Envelope(Signed),
}

/// Why a transcript could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TranscriptError {
    /// The file could not be read or written. The message quotes the I/O
    /// error, so it is not also given as the error's source: a printer of
    /// the whole chain would say it twice.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        error: std::io::Error,
    },
    /// The file does not start with the transcript magic.
    #[error("{0}: not a roundtable transcript")]
    NotATranscript(PathBuf),
    /// A transcript in a format version this program does not read.
    #[error(
        "{path}: a transcript of format version {version}; this program reads version {FORMAT_VERSION}"
    )]
    UnknownVersion {
        /// The file.
        path: PathBuf,
        /// The version the file names.
        version: u32,
    },
    /// A whole frame (its checksum holds) that does not decode; `index`
    /// counts from 0, the message from 1.
    #[error("{path}: frame {number} does not decode: {reason}", number = index + 1)]
    BadFrame {
        /// The file.
        path: PathBuf,
        /// The frame's index.
        index: usize,
        /// Why.
        reason: String,
    },
}

/// What a reader found after the last whole frame, when the file goes on:
/// why it stopped there, in words that say where (frames and bytes count
/// as people count them, frames from 1).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Tail {
    /// The file ends inside a frame (or its length): the write of frame
    /// `frame` never finished, as after a crash.
    #[error("{}", cut_short_words(.frame, .bytes))]
    CutShort {
        /// The unfinished frame, from 1.
        frame: usize,
        /// Bytes of it in the file.
        bytes: u64,
    },
    /// A frame that is all there but whose checksum fails: its bytes were
    /// changed after they were written.
    #[error(
        "frame {frame} is damaged (checksum), at byte {at}; the {bytes} bytes from there are not read"
    )]
    Damaged {
        /// The frame, from 1.
        frame: usize,
        /// Where it starts in the file.
        at: u64,
        /// Bytes from its start to the end of the file.
        bytes: u64,
    },
    /// A frame whose length is over [`MAX_FRAME_BYTES`]: no writer makes
    /// one, so its length was damaged.
    #[error(
        "frame {frame} is damaged (its length, {length} bytes, is over the limit), at byte {at}; the {bytes} bytes from there are not read"
    )]
    Oversized {
        /// The frame, from 1.
        frame: usize,
        /// The length it gives.
        length: u32,
        /// Where it starts in the file.
        at: u64,
        /// Bytes from its start to the end of the file.
        bytes: u64,
    },
    /// Another transcript's beginning where the next frame would be: two
    /// files joined into one.
    #[error("a second game's transcript follows the first at byte {at} ({bytes} bytes)")]
    SecondTranscript {
        /// Where it starts in the file.
        at: u64,
        /// Its bytes, to the end of the file.
        bytes: u64,
    },
}

fn cut_short_words(frame: &usize, bytes: &u64) -> String {
    match frame.checked_sub(1) {
        Some(whole) if whole > 0 => format!(
            "the file is cut short after frame {whole} ({bytes} bytes of frame {frame} follow)"
        ),
        _ => format!("the file is cut short in its first frame ({bytes} bytes of it)"),
    }
}

impl Tail {
    /// Whether it is what a crash during a write leaves (and a peer that
    /// reopens its log cuts), rather than damage or another file.
    pub fn is_torn(&self) -> bool {
        matches!(self, Tail::CutShort { .. })
    }
}

/// What reading a transcript found.
#[derive(Debug)]
pub struct ReadTranscript {
    /// The whole frames, in file order.
    pub frames: Vec<Frame>,
    /// Bytes after the last whole frame (0 when none).
    pub torn_bytes: u64,
    /// Where the whole frames end.
    pub valid_len: u64,
    /// Why the reader stopped before the end of the file, if it did.
    pub tail: Option<Tail>,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> TranscriptError + '_ {
    move |error| TranscriptError::Io {
        path: path.to_owned(),
        error,
    }
}

/// The genesis a transcript starts with: its first frame (the proposal) and
/// every acceptance in it, checked for game `G`.
pub fn genesis<G: roundtable_engine::Game>(
    frames: &[Frame],
) -> Result<crate::Genesis, crate::TableError> {
    let Some(Frame::Proposal(proposal)) = frames.first() else {
        return Err(crate::TableError::Genesis(
            "the first frame is not a proposal".into(),
        ));
    };
    let acceptances: Vec<_> = frames
        .iter()
        .filter_map(|f| match f {
            Frame::Acceptance(a) => Some(a.clone()),
            _ => None,
        })
        .collect();
    crate::Genesis::assemble::<G>(proposal.clone(), &acceptances)
}

/// Encode one frame with its length prefix and checksum.
pub fn encode_frame(frame: &Frame) -> Vec<u8> {
    let payload = postcard::to_allocvec(frame).unwrap_or_default();
    let mut out = Vec::with_capacity(payload.len() + 8);
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&payload);
    out.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
    out
}

/// The bytes of a whole transcript file holding `frames`.
pub fn encode_file(frames: &[Frame]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    for f in frames {
        out.extend_from_slice(&encode_frame(f));
    }
    out
}

/// Parse transcript bytes: whole frames, and how many bytes of torn tail follow.
pub fn decode_file(path: &Path, bytes: &[u8]) -> Result<ReadTranscript, TranscriptError> {
    let (Some(magic), Some(version)) = (bytes.get(..8), bytes.get(8..12)) else {
        return Err(TranscriptError::NotATranscript(path.to_owned()));
    };
    if magic != MAGIC {
        return Err(TranscriptError::NotATranscript(path.to_owned()));
    }
    let version = u32::from_le_bytes([version[0], version[1], version[2], version[3]]);
    if version != FORMAT_VERSION {
        return Err(TranscriptError::UnknownVersion {
            path: path.to_owned(),
            version,
        });
    }
    let mut frames = Vec::new();
    let mut at = 12usize;
    let mut tail = None;
    while at < bytes.len() {
        match next_frame(bytes, at, frames.len() + 1) {
            Ok((payload, end)) => {
                let frame = crate::decode_exact::<Frame>(payload).map_err(|reason| {
                    TranscriptError::BadFrame {
                        path: path.to_owned(),
                        index: frames.len(),
                        reason,
                    }
                })?;
                frames.push(frame);
                at = end;
            }
            Err(why) => {
                tail = Some(why);
                break;
            }
        }
    }
    Ok(ReadTranscript {
        frames,
        torn_bytes: (bytes.len() - at) as u64,
        valid_len: at as u64,
        tail,
    })
}

/// The payload of the frame `number` (from 1) that starts at `at`, and
/// where the next starts; or why there is no whole frame there.
fn next_frame(bytes: &[u8], at: usize, number: usize) -> Result<(&[u8], usize), Tail> {
    let rest = (bytes.len() - at) as u64;
    if bytes[at..].starts_with(MAGIC) {
        return Err(Tail::SecondTranscript {
            at: at as u64,
            bytes: rest,
        });
    }
    let cut_short = Tail::CutShort {
        frame: number,
        bytes: rest,
    };
    let Some(header) = bytes.get(at..at + 4) else {
        return Err(cut_short);
    };
    let len = u32::from_le_bytes([header[0], header[1], header[2], header[3]]);
    if len > MAX_FRAME_BYTES {
        return Err(Tail::Oversized {
            frame: number,
            length: len,
            at: at as u64,
            bytes: rest,
        });
    }
    let end = at + 4 + len as usize;
    let (Some(payload), Some(sum)) = (bytes.get(at + 4..end), bytes.get(end..end + 4)) else {
        return Err(cut_short);
    };
    if crc32fast::hash(payload).to_le_bytes() != sum {
        return Err(Tail::Damaged {
            frame: number,
            at: at as u64,
            bytes: rest,
        });
    }
    Ok((payload, end + 4))
}

/// Read a transcript file.
pub fn read(path: &Path) -> Result<ReadTranscript, TranscriptError> {
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(io(path))?;
    decode_file(path, &bytes)
}

/// An open transcript log, appended to as the game goes.
#[derive(Debug)]
pub struct TranscriptLog {
    path: PathBuf,
    file: File,
}

impl TranscriptLog {
    /// Create a new log holding `frames` (the genesis), synced.
    pub fn create(path: &Path, frames: &[Frame]) -> Result<TranscriptLog, TranscriptError> {
        let mut file = File::create(path).map_err(io(path))?;
        file.write_all(&encode_file(frames)).map_err(io(path))?;
        file.sync_all().map_err(io(path))?;
        Ok(TranscriptLog {
            path: path.to_owned(),
            file,
        })
    }

    /// Open an existing log: read its whole frames and cut a torn tail.
    pub fn open(path: &Path) -> Result<(TranscriptLog, ReadTranscript), TranscriptError> {
        let read = read(path)?;
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(io(path))?;
        if read.torn_bytes > 0 {
            file.set_len(read.valid_len).map_err(io(path))?;
            file.sync_all().map_err(io(path))?;
        }
        Ok((
            TranscriptLog {
                path: path.to_owned(),
                file,
            },
            read,
        ))
    }

    /// Append a frame; with `sync`, make it durable before returning.
    pub fn append(&mut self, frame: &Frame, sync: bool) -> Result<(), TranscriptError> {
        self.file
            .write_all(&encode_frame(frame))
            .map_err(io(&self.path))?;
        if sync {
            self.file.sync_data().map_err(io(&self.path))?;
        }
        Ok(())
    }

    /// Replace the log with the canonical transcript `frames`, as
    /// [`write_durably`] writes a file: a new file beside it, private to its
    /// owner, synced and renamed over the log.
    pub fn finish(self, frames: &[Frame]) -> Result<PathBuf, TranscriptError> {
        write_durably(&self.path, &encode_file(frames))?;
        Ok(self.path)
    }
}

impl From<WriteError> for TranscriptError {
    fn from(WriteError { path, error }: WriteError) -> TranscriptError {
        TranscriptError::Io { path, error }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::identity::Identity;
    use crate::{Body, Envelope, GameId, Hash32};

    fn frames(n: u64) -> Vec<Frame> {
        let id = Identity::from_secret([3; 32]);
        (0..n)
            .map(|seq| {
                Frame::Envelope(
                    Envelope {
                        game_id: GameId([1; 32]),
                        seat: 0,
                        seq,
                        prev: Hash32::default(),
                        position: seq,
                        state_hash: Hash32::default(),
                        body: Body::Resign,
                    }
                    .sign(&id),
                )
            })
            .collect()
    }

    #[test]
    fn a_torn_tail_is_detected_and_cut_on_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.rts");
        let all = frames(3);
        let mut log = TranscriptLog::create(&path, &all[..1]).unwrap();
        log.append(&all[1], true).unwrap();
        log.append(&all[2], true).unwrap();
        drop(log);
        // Tear the last frame in half, as a crash during a write would.
        let len = std::fs::metadata(&path).unwrap().len();
        let f = OpenOptions::new().write(true).open(&path).unwrap();
        f.set_len(len - 7).unwrap();
        let (mut log, read) = TranscriptLog::open(&path).unwrap();
        assert_eq!(read.frames, all[..2]);
        assert!(read.torn_bytes > 0);
        // Appending after the cut continues a clean file.
        log.append(&all[2], true).unwrap();
        let again = super::read(&path).unwrap();
        assert_eq!(again.frames, all);
        assert_eq!(again.torn_bytes, 0);
    }

    #[test]
    fn finishing_replaces_the_log_atomically() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.rts");
        let all = frames(4);
        let log = TranscriptLog::create(&path, &all[2..]).unwrap();
        log.finish(&all).unwrap();
        assert_eq!(read(&path).unwrap().frames, all);
    }

    /// The canonical transcript is written as keys are: a temporary file
    /// planted as a link beside the log is not written through (finishing
    /// once created the temporary file through whatever was there).
    #[cfg(unix)]
    #[test]
    fn finishing_never_writes_through_a_planted_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.rts");
        let outside = dir.path().join("outside");
        let all = frames(3);
        let log = TranscriptLog::create(&path, &all[..1]).unwrap();
        std::os::unix::fs::symlink(&outside, path.with_extension("tmp")).unwrap();
        log.finish(&all).unwrap();
        assert!(!outside.exists(), "written through the planted link");
        assert!(
            std::fs::symlink_metadata(&path)
                .unwrap()
                .file_type()
                .is_file()
        );
        assert_eq!(read(&path).unwrap().frames, all);
    }

    /// A file of `n` frames, and where each frame starts in it.
    fn file_of(n: u64) -> (Vec<u8>, Vec<usize>) {
        let all = frames(n);
        let bytes = encode_file(&all);
        let mut starts = Vec::new();
        let mut at = 12;
        for f in &all {
            starts.push(at);
            at += encode_frame(f).len();
        }
        (bytes, starts)
    }

    /// One byte changed inside frame 3 of 5 is damage there, not "a torn
    /// frame at the end": the reader names the frame (from 1) and where it
    /// starts.
    #[test]
    fn a_flipped_byte_in_the_middle_names_the_damaged_frame() {
        let (mut bytes, starts) = file_of(5);
        bytes[starts[2] + 9] ^= 0x40;
        let read = decode_file(Path::new("t.rts"), &bytes).unwrap();
        assert_eq!(read.frames.len(), 2);
        let tail = read.tail.expect("damage is reported");
        assert_eq!(
            tail,
            Tail::Damaged {
                frame: 3,
                at: starts[2] as u64,
                bytes: (bytes.len() - starts[2]) as u64,
            }
        );
        assert!(!tail.is_torn());
        assert!(
            tail.to_string()
                .starts_with("frame 3 is damaged (checksum)"),
            "{tail}"
        );
    }

    /// Two transcripts joined into one file: the second is named as such.
    #[test]
    fn a_second_transcript_after_the_first_is_named() {
        let (first, _) = file_of(3);
        let (second, _) = file_of(2);
        let mut bytes = first.clone();
        bytes.extend_from_slice(&second);
        let read = decode_file(Path::new("t.rts"), &bytes).unwrap();
        assert_eq!(read.frames.len(), 3);
        let tail = read.tail.expect("the second game is reported");
        assert_eq!(
            tail,
            Tail::SecondTranscript {
                at: first.len() as u64,
                bytes: second.len() as u64,
            }
        );
        assert_eq!(
            tail.to_string(),
            format!(
                "a second game's transcript follows the first at byte {} ({} bytes)",
                first.len(),
                second.len()
            )
        );
    }

    /// A file cut inside its last frame is cut short after the frame
    /// before, the torn tail a crash leaves (and a reopened log cuts).
    #[test]
    fn a_truncated_file_is_cut_short_after_the_last_whole_frame() {
        let (bytes, starts) = file_of(4);
        let cut = &bytes[..starts[3] + 6];
        let read = decode_file(Path::new("t.rts"), cut).unwrap();
        assert_eq!(read.frames.len(), 3);
        let tail = read.tail.expect("the cut is reported");
        assert_eq!(tail, Tail::CutShort { frame: 4, bytes: 6 });
        assert!(tail.is_torn());
        assert_eq!(
            tail.to_string(),
            "the file is cut short after frame 3 (6 bytes of frame 4 follow)"
        );
        let whole = decode_file(Path::new("t.rts"), &bytes).unwrap();
        assert_eq!(whole.tail, None);
        assert_eq!(whole.torn_bytes, 0);
    }

    proptest! {
        /// Reading arbitrary bytes never panics.
        #[test]
        fn decoding_arbitrary_files_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
            let mut file = MAGIC.to_vec();
            file.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
            file.extend_from_slice(&bytes);
            let _ = decode_file(Path::new("x"), &file);
            let _ = decode_file(Path::new("x"), &bytes);
        }
    }
}
