//! Cross-crate integration tests live in this package's test targets; this
//! library holds what they share: the deterministic network simulator
//! ([`sim`]) that plays whole games between peers as `Table`s over a faulty
//! in-memory network.

pub mod sim;
