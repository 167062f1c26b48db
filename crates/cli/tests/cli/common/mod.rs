//! Helpers shared by the CLI's integration tests.

pub(crate) mod tmux;
