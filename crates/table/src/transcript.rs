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
    /// A whole frame (its checksum holds) that does not decode.
    #[error("{path}: frame {index} does not decode: {reason}")]
    BadFrame {
        /// The file.
        path: PathBuf,
        /// The frame's index.
        index: usize,
        /// Why.
        reason: String,
    },
}

/// What reading a transcript found.
#[derive(Debug)]
pub struct ReadTranscript {
    /// The whole frames, in file order.
    pub frames: Vec<Frame>,
    /// Bytes of a torn tail after the last whole frame (0 when none).
    pub torn_bytes: u64,
    /// Where the whole frames end.
    pub valid_len: u64,
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
    while let Some(header) = bytes.get(at..at + 4) {
        let len = u32::from_le_bytes([header[0], header[1], header[2], header[3]]);
        if len > MAX_FRAME_BYTES {
            break;
        }
        let end = at + 4 + len as usize;
        let (Some(payload), Some(sum)) = (bytes.get(at + 4..end), bytes.get(end..end + 4)) else {
            break;
        };
        if crc32fast::hash(payload).to_le_bytes() != sum {
            break;
        }
        let frame =
            crate::decode_exact::<Frame>(payload).map_err(|reason| TranscriptError::BadFrame {
                path: path.to_owned(),
                index: frames.len(),
                reason,
            })?;
        frames.push(frame);
        at = end + 4;
    }
    Ok(ReadTranscript {
        frames,
        torn_bytes: (bytes.len() - at) as u64,
        valid_len: at as u64,
    })
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
