//! The `roundtable` command: play, run rule scenarios, check randomness.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};

mod audit;
mod fairdeck_cmd;
mod net_cmd;
mod net_session;
mod play;
mod replay;
mod scenario;
mod selfplay;

/// Peer-to-peer card games with no server: Port Royal, shuffled by everyone.
#[derive(Debug, Parser)]
#[command(name = "roundtable", version, about)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// For the start menu's network entries: a relay server's multiaddr
    /// (with /p2p/<id>) to reserve a slot on, so that peers behind NAT
    /// reach yours (repeatable; as `host --relay`).
    #[arg(long, value_name = "MULTIADDR")]
    relay: Vec<roundtable_net::Multiaddr>,
    /// For the start menu's network entries: listen on no direct address,
    /// reachable only through `--relay` (as `host --no-listen`).
    #[arg(long, requires = "relay")]
    no_listen: bool,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play a local game of Port Royal between bots and print its log and
    /// result (the default when no command is given).
    Play(play::PlayArgs),
    /// Run a rule scenario and print the final public state as JSON
    /// (exit 0 ok, 2 malformed, 3 a step refused, 4 an expectation failed).
    Scenario {
        /// The scenario file (TOML).
        file: PathBuf,
    },
    /// Commit-reveal randomness from the command line, to check other implementations against this one
    Fairdeck(fairdeck_cmd::FairdeckArgs),
    /// Bots play a whole game as full peers through the table protocol in one
    /// process and write a transcript that `audit` checks.
    Selfplay(selfplay::SelfplayArgs),
    /// Verify transcripts: every signature, link, beacon and rule; prints the
    /// result or every violation with the seat to blame (exit 0 valid,
    /// 1 invalid, 2 unreadable).
    Audit(audit::AuditArgs),
    /// Step through a transcript in the terminal, forwards and backwards
    /// (printed input by input when not a terminal; exit 2 unreadable,
    /// 1 invalid).
    Replay {
        /// The transcript file.
        file: PathBuf,
    },
    /// Open a table on the network and print its ticket; bots can fill seats.
    Host(net_cmd::HostArgs),
    /// Join a table by its ticket, or list the tables on the LAN.
    Join(net_cmd::JoinArgs),
    /// Follow a table as a spectator, verifying everything live.
    Watch(net_cmd::WatchArgs),
    /// Resume an unfinished network game from the data directory.
    Resume(net_cmd::ResumeArgs),
    /// Run a relay server for players behind NAT.
    Relay(net_cmd::RelayArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        // A terminal gets the game itself; a pipe or a file gets the log.
        None if std::io::IsTerminal::is_terminal(&std::io::stdout()) => {
            let config = roundtable_tui::LocalConfig {
                transcript_dir: data_dir().map(|d| d.join("games")),
                ..roundtable_tui::LocalConfig::default()
            };
            // The menu's network entries keep keys and transcripts where
            // `host` and `join` do by default.
            let data = roundtable_net::DataDir::new(
                data_dir().unwrap_or_else(roundtable_net::default_data_dir),
            );
            let reach = net_session::Reach {
                relays: cli.relay,
                no_listen: cli.no_listen,
            };
            net_session::NetLauncher::new(data, net_session::default_name(), reach).and_then(
                |launcher| {
                    roundtable_tui::run_menu_with(config, Box::new(launcher))
                        .map(|_| ExitCode::SUCCESS)
                },
            )
        }
        None => play::run(&play::PlayArgs::default()),
        Some(Command::Play(args)) => play::run(&args),
        Some(Command::Scenario { file }) => return run_scenario(&file),
        Some(Command::Fairdeck(args)) => return fairdeck_cmd::run(&args),
        Some(Command::Selfplay(args)) => selfplay::run(&args),
        Some(Command::Audit(args)) => return audit::run(&args),
        Some(Command::Replay { file }) => return replay::run(&file),
        Some(Command::Host(args)) => net_cmd::host(&args),
        Some(Command::Join(args)) => net_cmd::join(&args),
        Some(Command::Watch(args)) => net_cmd::watch(&args),
        Some(Command::Resume(args)) => net_cmd::resume(&args),
        Some(Command::Relay(args)) => net_cmd::relay(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("roundtable: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run_scenario(file: &std::path::Path) -> ExitCode {
    match std::fs::read_to_string(file) {
        Ok(text) => scenario::run_text(&text).report(file),
        Err(e) => {
            eprintln!("{}: {e}", file.display());
            ExitCode::from(2)
        }
    }
}

/// Read `key=value` options into a game's options; values are TOML literals
/// (`true`, `12`) or else plain strings.
pub(crate) fn parse_options<O: for<'de> serde::Deserialize<'de>>(pairs: &[String]) -> Result<O> {
    let mut table = toml::Table::new();
    for pair in pairs {
        let Some((key, value)) = pair.split_once('=') else {
            bail!("option {pair:?} is not key=value");
        };
        let key = key.trim().replace('-', "_");
        let value = value.trim();
        let parsed = toml::from_str::<toml::Table>(&format!("v = {value}"))
            .ok()
            .and_then(|mut t| t.remove("v"))
            .unwrap_or_else(|| toml::Value::String(value.to_owned()));
        table.insert(key, parsed);
    }
    toml::Value::Table(table)
        .try_into()
        .context("reading the options")
}

/// The user's roundtable data folder: `$XDG_DATA_HOME/roundtable`, else
/// `~/.local/share/roundtable`.
pub(crate) fn data_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))?;
    Some(base.join("roundtable"))
}
