//! The `roundtable` command: play, run rule scenarios, check randomness.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

mod audit;
mod bot_choice;
mod bot_game;
mod fairdeck_cmd;
mod net_cmd;
mod net_session;
mod output;
mod play;
mod progress;
mod replay;
mod scenario;
mod selfplay;
mod tournament;
mod tournament_net;

/// Peer-to-peer card games with no server, shuffled by everyone.
/// With no command, a terminal opens the start menu; without a terminal
/// (output to a pipe or a file) bots play a game and its log is printed.
///
/// The start menu plays against bots, hosts, joins or watches a table on
/// the network, and replays saved games. Without a terminal, `roundtable`
/// alone is `roundtable play`: a game between heuristic bots, printed.
#[derive(Debug, Parser)]
#[command(name = "roundtable", version)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// For the start menu's network entries: a relay server's multiaddr
    /// (with /p2p/<id>) to reserve a slot on, so that peers behind NAT
    /// reach yours (repeatable; as `host --relay`).
    #[arg(long, value_name = "MULTIADDR")]
    relay: Vec<roundtable_net::Multiaddr>,
    /// For the start menu's network entries: tell nobody a direct address,
    /// reachable only through `--relay` (as `host --no-listen`).
    #[arg(long, requires = "relay")]
    no_listen: bool,
    /// For the start menu: where keys, transcripts and the remembered name
    /// live (as `host --data-dir`; default `$XDG_DATA_HOME/roundtable` or
    /// `~/.local/share/roundtable`).
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play a local game between bots (Port Royal unless `--game` names
    /// another) and print its log and result (what runs with no command when
    /// there is no terminal).
    Play(play::PlayArgs),
    /// Run a rule scenario of any game (its `game` key, else its folder) and
    /// print the final public state as JSON (exit 0 ok, 2 malformed, 3 a
    /// step refused, 4 an expectation failed).
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
    /// Tournaments: signed terms and registrations, pairings anyone
    /// recomputes, standings only from audited transcripts.
    Tournament(tournament::TournamentArgs),
}

impl Command {
    /// The subcommand's name, as typed.
    fn name(&self) -> &'static str {
        match self {
            Command::Play(_) => "play",
            Command::Scenario { .. } => "scenario",
            Command::Fairdeck(_) => "fairdeck",
            Command::Selfplay(_) => "selfplay",
            Command::Audit(_) => "audit",
            Command::Replay { .. } => "replay",
            Command::Host(_) => "host",
            Command::Join(_) => "join",
            Command::Watch(_) => "watch",
            Command::Resume(_) => "resume",
            Command::Relay(_) => "relay",
            Command::Tournament(args) => args.name(),
        }
    }
}

/// The help's words that name the games, from the one list of games, so
/// that a game added to it is named by itself: the program's summary and
/// `host --seats`.
fn with_games(command: clap::Command) -> clap::Command {
    const UNNAMED: &str = "card games with no server,";
    let named = format!(
        "card games with no server: {},",
        roundtable_games::GameId::titles()
    );
    let about = command
        .get_about()
        .map(|text| text.to_string().replacen(UNNAMED, &named, 1))
        .unwrap_or_default();
    let long_about = command
        .get_long_about()
        .map(|text| text.to_string().replacen(UNNAMED, &named, 1))
        .unwrap_or_else(|| about.clone());
    let seats = format!(
        "Seats at the table, yours included (as many as the game is played by: {})",
        roundtable_games::GameId::seat_counts()
    );
    command
        .about(about)
        .long_about(long_about)
        .mut_subcommand("host", |host| host.mut_arg("seats", |arg| arg.help(seats)))
}

fn main() -> ExitCode {
    let cli = match Cli::from_arg_matches(&with_games(Cli::command()).get_matches()) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let name = cli.command.as_ref().map(Command::name);
    let result = match cli.command {
        // A terminal gets the game itself; a pipe or a file gets the log.
        None if output::has_terminal() => menu(cli.relay, cli.no_listen, cli.data_dir),
        None => play::run(&play::PlayArgs::default()),
        Some(Command::Play(args)) => play::run(&args),
        Some(Command::Scenario { file }) => scenario::run_file(&file),
        Some(Command::Fairdeck(args)) => fairdeck_cmd::run(&args),
        Some(Command::Selfplay(args)) => selfplay::run(&args),
        Some(Command::Audit(args)) => audit::run(&args),
        Some(Command::Replay { file }) => replay::run(&file),
        Some(Command::Host(args)) => net_cmd::host(&args),
        Some(Command::Join(args)) => net_cmd::join(&args).map_err(Failure::from),
        Some(Command::Watch(args)) => net_cmd::watch(&args).map_err(Failure::from),
        Some(Command::Resume(args)) => net_cmd::resume(&args).map_err(Failure::from),
        Some(Command::Relay(args)) => net_cmd::relay(&args).map_err(Failure::from),
        Some(Command::Tournament(args)) => tournament::run(&args),
    };
    match result {
        Ok(code) => code,
        // A reader that went away (`| head -1`) ends the output, quietly.
        Err(failure) if output::closed(&failure.error) => ExitCode::SUCCESS,
        Err(failure) => {
            let command = name.map(|n| format!(" {n}")).unwrap_or_default();
            // Nothing is left to tell anyone when stderr is gone too.
            let _ = writeln!(
                std::io::stderr(),
                "roundtable{command}: {}",
                one_line(&failure.error)
            );
            ExitCode::from(failure.code)
        }
    }
}

/// The start menu in the terminal, keeping its files in `data` (else the
/// user's data folder).
fn menu(relays: Vec<roundtable_net::Multiaddr>, no_listen: bool, data: Option<PathBuf>) -> Outcome {
    let root = data.or_else(roundtable_net::user_data_dir);
    let config = roundtable_tui::LocalConfig {
        transcript_dir: root.as_ref().map(|d| d.join("games")),
        name: roundtable_tui::prefs::default_name(),
        seed: seed_from_env()?,
        ..roundtable_tui::LocalConfig::default()
    };
    let prefs_file = root.as_ref().map(|d| d.join(roundtable_tui::prefs::FILE));
    // The menu's network entries keep keys and transcripts where `host`
    // and `join` do, in the same folder as local games.
    let data = roundtable_net::DataDir::new(root.unwrap_or_else(roundtable_net::default_data_dir));
    let reach = net_session::Reach { relays, no_listen };
    let launcher = net_session::NetLauncher::new(data, reach)?;
    roundtable_tui::run_menu_with(config, Box::new(launcher), prefs_file)?;
    Ok(ExitCode::SUCCESS)
}

/// The environment variable that fixes the seed of a game whose command
/// line gives none (the start menu's local games, `play`): CI sets it from
/// the commit, so that a terminal test plays the same deal on every run of
/// one commit. A seeded game's keys and chains follow from the seed, so it
/// is for tests and bug reports, never for a game with a stake.
const SEED_VAR: &str = "ROUNDTABLE_SEED";

/// The seed [`SEED_VAR`] fixes, if it is set; a value that is not a number
/// is an error rather than a silently fresh game.
pub(crate) fn seed_from_env() -> Result<Option<u64>> {
    match std::env::var(SEED_VAR) {
        Ok(value) => match value.trim().parse() {
            Ok(seed) => Ok(Some(seed)),
            Err(e) => bail!("{SEED_VAR}={value:?} is not a seed (a number, 0 to 2^64-1): {e}"),
        },
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(value)) => {
            bail!("{SEED_VAR}={value:?} is not a seed (a number, 0 to 2^64-1)")
        }
    }
}

/// Why a command failed, and the exit status that says so.
#[derive(Debug)]
pub(crate) struct Failure {
    code: u8,
    error: anyhow::Error,
}

impl Failure {
    /// A failure that exits with `code` rather than 1 (2: the input cannot
    /// be read, as `audit`, `replay` and `fairdeck` document).
    pub(crate) fn with_code(code: u8, error: impl Into<anyhow::Error>) -> Failure {
        Failure {
            code,
            error: error.into(),
        }
    }
}

impl<E: Into<anyhow::Error>> From<E> for Failure {
    fn from(error: E) -> Failure {
        Failure::with_code(1, error)
    }
}

/// What a command ends with: its exit status, or why it failed.
pub(crate) type Outcome = Result<ExitCode, Failure>;

/// `error` and its causes as one line, each said once: a library error that
/// already quotes its cause in its own message is not followed by the cause
/// again, and a message over several lines is joined.
pub(crate) fn one_line(error: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in error.chain() {
        let text = cause
            .to_string()
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        if text.is_empty() || line.ends_with(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    // Causes may quote another peer (a host's refusal reason, a name).
    output::printable(&line).into_owned()
}

/// The game `--game` names; a name that is not in the list of games is a
/// usage error (exit 2), in one line that lists the games.
pub(crate) fn game_named(name: &str) -> Result<roundtable_games::GameId, Failure> {
    roundtable_games::GameId::from_name(name).map_err(|e| Failure::with_code(2, e))
}

/// Read `key=value` options over game `G`'s default options; values are
/// TOML literals (`true`, `12`) or else plain strings. A value of the wrong
/// kind or a key the game does not have is named in the user's words, not
/// the deserializer's: the keys are the game's set-up rows, each told with
/// its values and what it does, as the terminal's set-up form tells it.
/// Starting from the defaults lets a game's options be given one at a time
/// whether or not its type fills in missing fields.
pub(crate) fn parse_options<G: roundtable_games::Listed>(pairs: &[String]) -> Result<G::Options> {
    let mut table = match toml::Value::try_from(G::Options::default())? {
        toml::Value::Table(table) => table,
        other => bail!("the game's options are not a table but {other}"),
    };
    for pair in pairs {
        let Some((key, value)) = pair.split_once('=').filter(|(k, _)| !k.trim().is_empty()) else {
            bail!("option {pair:?} is not key=value");
        };
        let key = key.trim().replace('-', "_");
        let value = value.trim();
        if !table.contains_key(&key) {
            let known: Vec<String> = table.keys().map(|k| option_words::<G>(k)).collect();
            bail!(
                "there is no option {key} (the options: {})",
                known.join("; ")
            );
        }
        let parsed = toml::from_str::<toml::Table>(&format!("v = {value}"))
            .ok()
            .and_then(|mut t| t.remove("v"))
            .unwrap_or_else(|| toml::Value::String(value.to_owned()));
        table.insert(key.clone(), parsed);
        // Each option is checked as it comes, so that a refusal names it.
        if let Err(e) = toml::Value::Table(table.clone()).try_into::<G::Options>() {
            return Err(option_refused(&key, value, e.message()));
        }
    }
    Ok(toml::Value::Table(table).try_into()?)
}

/// Option `key` of game `G` for a person typing one: its key, its values
/// and what it does, from the game's set-up row ("max_rounds (a whole
/// number such as 1, 5, 10, 20 or 100): the game ends after them whatever
/// the VP"); a key with no row is its key.
fn option_words<G: roundtable_games::Listed>(key: &str) -> String {
    match G::OPTIONS.iter().find(|field| field.row.key == key) {
        Some(field) => format!("{key} ({}): {}", field.row.values.choices(), field.row.note),
        None => key.to_owned(),
    }
}

/// Why option `key=value` was refused, from the deserializer's `message`.
fn option_refused(key: &str, value: &str, message: &str) -> anyhow::Error {
    let wants_number = message.contains("expected u") || message.contains("expected i");
    if message.contains("expected a boolean") {
        anyhow::anyhow!("option {key}: {value:?} is not true or false")
    } else if wants_number && value.parse::<i128>().is_ok() {
        anyhow::anyhow!("option {key}: {value} is out of range")
    } else if wants_number {
        anyhow::anyhow!("option {key}: {value:?} is not a whole number")
    } else {
        anyhow::anyhow!("option {key}: {value:?}: {message}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every set-up row of every game is an option `--option` takes by
    /// its key, and the value a row shows is the value the game gets.
    #[test]
    fn every_set_up_row_is_an_option_by_its_key() {
        struct Rows;
        impl roundtable_games::Visit for Rows {
            type Output = ();
            fn visit<G: roundtable_games::Listed>(self) {
                for field in G::OPTIONS {
                    let row = field.row;
                    let default = (field.get)(&G::Options::default());
                    let changed = row
                        .values
                        .changed(default, roundtable_games::setup::Change::Cycle);
                    let value = match row.values {
                        roundtable_games::setup::Values::OnOff => (changed != 0).to_string(),
                        _ => changed.to_string(),
                    };
                    let pair = format!("{}={value}", row.key);
                    let options = parse_options::<G>(std::slice::from_ref(&pair))
                        .unwrap_or_else(|e| panic!("{} {pair}: {e:#}", G::NAME));
                    assert_eq!((field.get)(&options), changed, "{} {pair}", G::NAME);
                }
            }
        }
        for game in roundtable_games::GameId::ALL {
            game.visit(Rows);
        }
    }

    #[test]
    fn an_error_quoting_a_peer_is_printed_with_its_escapes_escaped() {
        let refusal =
            roundtable_net::NetError::Refused("table full\u{1b}[2J\u{1b}]0;owned\u{7}".into());
        let error = anyhow::Error::new(refusal).context("joining");
        let line = one_line(&error);
        assert!(!line.chars().any(char::is_control), "{line:?}");
        assert!(
            line.contains(r"table full\u{1b}[2J\u{1b}]0;owned\u{7}"),
            "{line}"
        );
    }
}
