//! Waters of Nereus: its properties, its legal-action lists against what
//! the rules accept, and its playout path in lockstep with the checked path.
//!
//! One test binary for the crate (each file a module) so that `cargo test`
//! links one executable here instead of one per file.

mod legal_lists;
mod playout_path;
mod properties;
