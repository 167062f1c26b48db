//! roundtable over the network: the sans-IO [`roundtable_table::Table`]
//! driven over rust-libp2p with tokio. No server and no host of the game:
//! the "host" only gathers the seats and hands out the genesis; after that
//! every peer is equal.
//!
//! * **Transports**: TCP + noise + yamux, and QUIC; a relay v2 client with
//!   DCUtR hole punching and AutoNAT; [`relay::run_relay`] is the relay
//!   server a reachable player can run, with limits raised for game traffic.
//! * **Gossip** ([`swarm::gossip_config`]): one gossipsub topic per table
//!   (`t2/<game id, first 8 bytes>`) and one lobby topic, tuned for 2–5
//!   peers: flood publish, small mesh, content-hash message ids, our own
//!   validation before anything is forwarded, a payload cap; gossipsub's
//!   peer scoring for invalid messages, a topic filter, and budgets per
//!   author of an announcement, never per relaying hop. Seats leave the
//!   lobby topic when they play.
//! * **Connection room** ([`slots`]): bounds per peer id and per address,
//!   which the seats' peers bypass once the genesis names them.
//! * **Catch-up**: `/roundtable/sync/1` request-response exchanges
//!   [`roundtable_table::Table::heads`] and fetches missing envelopes, on
//!   every (re)connection, and when a seat's heads have stood still for a
//!   sync interval (a spectator: every interval), in the responder's
//!   applied order.
//! * **The end**: a finished seat keeps serving catch-up for a while, to
//!   spectators and late seats too, and a peer left with nobody to talk to
//!   (or at a ticket whose host is gone) gives up in one line
//!   ([`NetEvent::GaveUp`]) instead of waiting for ever.
//! * **Lobby**: `/roundtable/lobby/1` gathers seats, the proposal, the
//!   acceptances and the genesis; [`Ticket`]s invite; mDNS and the lobby
//!   topic list tables on a LAN ([`discover::discover_tables`]), each
//!   announcement signed by its host and checked against its ticket
//!   ([`Announce::verify`]).
//! * **Tournaments** ([`tournament`]): the tournament node's
//!   `/roundtable/tournament/1`, for its registered players only, under the
//!   same connection bounds, request rate, strikes and bans.
//! * **Durability**: every peer keeps its key, chain secret and transcript
//!   log in its [`DataDir`], and a restarted peer resumes where it stopped.
//!
//! The protocol is specified in `protocol/SPEC.md` part 4.
//!
//! # Driving a peer
//!
//! [`spawn`] starts a peer on the current tokio runtime and returns a
//! [`GameHandle`]. A front end reads [`NetEvent`]s (the log) and the latest
//! [`Snapshot`] (the seat's view and legal actions), and submits the seat's
//! decisions with [`GameHandle::submit`] (or [`GameHandle::try_submit`] from
//! synchronous code). A [`Controller::Bot`] seat is played by the node
//! itself.
//!
//! ```no_run
//! # async fn demo(ticket: roundtable_net::Ticket) -> Result<(), roundtable_net::NetError> {
//! use roundtable_net::{spawn, Controller, DataDir, NetEvent, NodeConfig, Role};
//! use roundtable_port_royal::PortRoyal;
//!
//! let config = NodeConfig::new(DataDir::new("/tmp/alice"), "alice");
//! let mut handle = spawn::<PortRoyal>(config, Role::Join { ticket }, Controller::Handle)?;
//! while let Some(event) = handle.next_event().await {
//!     if let NetEvent::Finished { transcript, .. } = event {
//!         println!("transcript at {}", transcript.display());
//!     }
//!     let snapshot = handle.snapshot();
//!     if let Some(action) = snapshot.legal.first() {
//!         let _ = handle.submit(action.clone()).await;
//!     }
//! }
//! # Ok(()) }
//! ```

use std::path::PathBuf;

pub mod counting;
pub mod discover;
mod ending;
mod handle;
pub mod identity;
mod node;
pub mod relay;
pub mod slots;
pub mod store;
pub mod swarm;
pub mod ticket;
pub mod tournament;
pub mod upnp;
pub mod wire;

pub use counting::ByteCounter;
pub use handle::{
    COMMAND_CAPACITY, Command, Controller, EVENT_CAPACITY, GameHandle, NetEvent, NodeConfig,
    Outcome, Phase, Role, STALL_TIMEOUT_BOUNDS_MS, Snapshot, Timing, any_port, default_listen,
    spawn,
};
pub use libp2p::Multiaddr;
pub use node::{
    BAN_STRIKES, LONGEST_BOT_ANSWER, MAX_RELAY_REFUSALS, OUTBOX_CAPACITY, UPNP_RELEASE_WAIT,
};
pub use store::{DataDir, default_data_dir, user_data_dir};
pub use ticket::{Reach, Ticket, TicketError};
pub use wire::{Announce, AnnounceError, LobbyId, LobbyInfo, LobbySeat};

/// A game the network driver can carry: its options, actions, events and
/// views move between tasks (every game of this workspace qualifies; the
/// blanket impl covers them).
pub trait NetGame:
    roundtable_engine::Game<
        Options: Send + Sync,
        Action: Send + Sync,
        Event: Send + Sync,
        View: Send + Sync,
    >
{
}

impl<G> NetGame for G where
    G: roundtable_engine::Game<
            Options: Send + Sync,
            Action: Send + Sync,
            Event: Send + Sync,
            View: Send + Sync,
        >
{
}

/// What went wrong in the network driver.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// A file in the data directory could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A key or seed file holds something other than 64 hex digits.
    #[error("{0}: not a 32-byte secret in hex")]
    BadSecretFile(PathBuf),
    /// The display name is too long or has control characters.
    #[error("display name {0:?} is longer than 32 bytes or has control characters")]
    BadName(String),
    /// The operating system's random source failed.
    #[error("randomness: {0}")]
    Random(String),
    /// Building the libp2p stack failed.
    #[error("libp2p: {0}")]
    Transport(String),
    /// An address could not be listened on.
    #[error("listening on {addr}: {reason}")]
    Listen {
        /// The address.
        addr: String,
        /// Why.
        reason: String,
    },
    /// A ticket did not read. Like the two below, its message is the inner
    /// error's own: quoting it and also giving it as the source would make a
    /// printer of the whole chain say it twice.
    #[error(transparent)]
    Ticket(#[from] TicketError),
    /// The table refused something (or a genesis did not verify).
    #[error(transparent)]
    Table(#[from] roundtable_table::TableError),
    /// The transcript log could not be read or written (the message names
    /// the file).
    #[error(transparent)]
    Transcript(#[from] roundtable_table::transcript::TranscriptError),
    /// The host refused us, or the table refused a local decision.
    #[error("refused: {0}")]
    Refused(String),
    /// The lobby went wrong.
    #[error("lobby: {0}")]
    Lobby(String),
    /// There is no game to resume.
    #[error("no game to resume at {0}")]
    NothingToResume(PathBuf),
    /// The node has stopped.
    #[error("the node has stopped")]
    Stopped,
    /// Nobody the node needs is reachable any more (or was never reached):
    /// the line says so and where the game so far is saved.
    #[error("{0}")]
    GaveUp(String),
    /// A stall timeout (the host's terms, or ours when hosting) outside
    /// what this peer accepts
    /// ([`NodeConfig::stall_timeout_bounds_ms`](crate::NodeConfig)).
    #[error(
        "the {whose} stall timeout of {ms} ms is outside {min}..={max} ms, the range this peer accepts"
    )]
    StallTimeout {
        /// "host's" or "requested".
        whose: &'static str,
        /// The timeout.
        ms: u64,
        /// The least accepted.
        min: u64,
        /// The most accepted.
        max: u64,
    },
    /// The node's command channel is full.
    #[error("the node is busy (command queue full)")]
    Busy,
}
