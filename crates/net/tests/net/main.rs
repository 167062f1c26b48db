//! The network driver's tests: in-process peers over libp2p, wire vectors.
//!
//! One test binary for the crate (each file a module) so that `cargo test`
//! links one executable here instead of one per file.

mod announce_vectors;
mod common;
mod net_announce;
mod net_bot_options;
mod net_ending;
mod net_flood;
mod net_gossip;
mod net_hostile;
mod net_inproc;
mod net_lobby;
mod net_proof;
mod net_slots;
mod net_table_relay;
mod net_tournament;
mod net_unsaved;
mod topic_vectors;
