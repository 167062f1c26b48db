//! A connection wrapper that counts the bytes a transport moves (after
//! noise and yamux framing are added: what the wire carries above TCP) and
//! can cut the link, for measurements and in-process fault injection.

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::task::{Context, Poll};

use futures::task::AtomicWaker;
use futures::{AsyncRead, AsyncWrite};

/// Bytes sent and received by every connection of one swarm, and a switch
/// that cuts them all.
#[derive(Debug, Default)]
pub struct ByteCounter {
    sent: AtomicU64,
    received: AtomicU64,
    cut: AtomicBool,
    /// The readers of every live stream: a cut wakes them, so that a
    /// connection waiting for bytes fails at once rather than when it next
    /// happens to be polled (a handshake could otherwise hang until its
    /// timeout, long after the link healed).
    readers: Mutex<Vec<Weak<AtomicWaker>>>,
}

impl ByteCounter {
    /// A new counter.
    pub fn new() -> Arc<ByteCounter> {
        Arc::new(ByteCounter::default())
    }

    /// Bytes written so far.
    pub fn sent(&self) -> u64 {
        self.sent.load(Ordering::Relaxed)
    }

    /// Bytes read so far.
    pub fn received(&self) -> u64 {
        self.received.load(Ordering::Relaxed)
    }

    /// Cut (`true`) or heal (`false`) every connection: while cut, every read
    /// and write fails, so connections drop and new ones fail.
    pub fn set_cut(&self, cut: bool) {
        self.cut.store(cut, Ordering::Relaxed);
        if cut {
            let mut readers = self.readers.lock().unwrap_or_else(|e| e.into_inner());
            readers.retain(|r| match r.upgrade() {
                Some(waker) => {
                    waker.wake();
                    true
                }
                None => false,
            });
        }
    }

    fn register(&self, reader: &Arc<AtomicWaker>) {
        let mut readers = self.readers.lock().unwrap_or_else(|e| e.into_inner());
        readers.retain(|r| r.strong_count() > 0);
        readers.push(Arc::downgrade(reader));
    }

    fn check(&self) -> io::Result<()> {
        if self.cut.load(Ordering::Relaxed) {
            return Err(io::Error::new(io::ErrorKind::ConnectionReset, "link cut"));
        }
        Ok(())
    }
}

/// A stream counted by a [`ByteCounter`].
#[derive(Debug)]
pub struct Counting<S> {
    inner: S,
    counter: Arc<ByteCounter>,
    reader: Arc<AtomicWaker>,
}

impl<S> Counting<S> {
    /// Wrap `inner`.
    pub fn new(inner: S, counter: Arc<ByteCounter>) -> Self {
        let reader = Arc::new(AtomicWaker::new());
        counter.register(&reader);
        Counting {
            inner,
            counter,
            reader,
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Counting<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut [u8],
    ) -> Poll<io::Result<usize>> {
        self.reader.register(cx.waker());
        self.counter.check()?;
        let poll = Pin::new(&mut self.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(n)) = &poll {
            self.counter
                .received
                .fetch_add(*n as u64, Ordering::Relaxed);
        }
        poll
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Counting<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.counter.check()?;
        let poll = Pin::new(&mut self.inner).poll_write(cx, buf);
        if let Poll::Ready(Ok(n)) = &poll {
            self.counter.sent.fetch_add(*n as u64, Ordering::Relaxed);
        }
        poll
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_close(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_close(cx)
    }
}
