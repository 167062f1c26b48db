//! The terminal front end's tests: screens rendered to snapshots, the runner and replay.
//!
//! One test binary for the crate (each file a module) so that `cargo test`
//! links one executable here instead of one per file.

mod clocks_and_results;
mod common;
mod endings;
mod guildhall_screens;
mod guildhall_steps;
mod guildhall_table;
mod nereus_screens;
mod network_screens;
mod replay;
mod runner;
mod screens;
