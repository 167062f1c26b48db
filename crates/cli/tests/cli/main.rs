//! The roundtable binary's tests: every command, end to end (network games between processes, tmux-driven terminal games).
//!
//! One test binary for the crate (each file a module) so that `cargo test`
//! links one executable here instead of one per file.

mod audit_cli;
mod audit_games;
mod audit_hands;
mod bad_input;
mod bot_levels;
mod common;
mod data_folder;
mod fairdeck_cli;
mod guildhall_tmux;
mod log_commands;
mod menu_tmux;
mod nereus_tmux;
mod net_ending;
mod net_games;
mod net_gone_seats;
mod net_internet;
mod net_mdns;
mod net_partition;
mod net_reach;
mod net_relay;
mod net_relay_refused;
mod net_restart;
mod net_support;
mod net_tui_tmux;
mod no_terminal;
mod private_card_games;
mod readme_flags;
mod replay_cli;
mod replay_tmux;
mod scenarios;
mod seed_env;
mod tournament_cli;
mod tournament_net;
mod tournament_support;
mod tournament_tmux;
mod tui_e2e;
mod words;
