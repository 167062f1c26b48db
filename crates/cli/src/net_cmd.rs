//! `roundtable host | join | watch | resume | relay`: play over the network.
//!
//! By default the terminal UI opens at the table and the person at the
//! keyboard plays the seat (or watches). With `--headless` a bot plays it
//! (`--bot heuristic` by default, or `random`) and the game's log is
//! printed instead; `resume` goes back to the table the same way.
//!
//! One concern, the commands' side of a network game (their arguments and
//! bounds, and the log they print), in about 1,000 lines; the rest of the
//! file is its tests.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use roundtable_bots::Bot;
use roundtable_engine::GameResult;
use roundtable_games::words::Ending;
use roundtable_games::{GameId, Listed};
use roundtable_net::relay::{RelayEvent, run_relay};
use roundtable_net::{
    Controller, DataDir, GameHandle, Multiaddr, NetEvent, NodeConfig, Outcome, Role, Ticket,
    Timing, default_data_dir, default_listen, spawn,
};
use roundtable_table::Record;
use roundtable_tui::{GameScreen, VisitScreen};

use crate::bot_choice::{BotArgs, BotKind, Lineup};
use crate::net_session::NetSession;
use crate::output::printable;

/// Options every networked command shares.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct NetArgs {
    /// Keys, chain secrets and transcripts live here (default:
    /// `$XDG_DATA_HOME/roundtable` or `~/.local/share/roundtable`).
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// Your display name (at most 32 bytes; default: the name the start
    /// menu remembers in the data directory, else your login name).
    #[arg(long)]
    name: Option<String>,
    /// A multiaddr to listen on (repeatable; default every interface, TCP
    /// and QUIC, system-chosen ports).
    #[arg(long, value_name = "MULTIADDR")]
    listen: Vec<Multiaddr>,
    /// Tell nobody a direct address: the peer is reachable only through the
    /// relays given with `--relay` (a player behind NAT that cannot forward
    /// a port), and its ticket holds only `/p2p-circuit` addresses. It still
    /// listens on system-chosen ports so that hole punching can reuse them.
    #[arg(long, requires = "relay", conflicts_with = "listen")]
    no_listen: bool,
    /// Do not use mDNS (LAN discovery).
    #[arg(long)]
    no_mdns: bool,
    /// Do not ask the home router (UPnP IGD) to map a public port to this
    /// peer (by default a peer that listens asks, and removes the mapping
    /// when it exits).
    #[arg(long)]
    no_upnp: bool,
    /// A relay server's multiaddr (with /p2p/<id>): reserve a slot there so
    /// that peers behind NAT reach this one (repeatable).
    #[arg(long, value_name = "MULTIADDR")]
    relay: Vec<Multiaddr>,
    /// How often peers compare transcript heads, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    sync_ms: u64,
    /// A host frees the seat of a joiner it has not heard from for this
    /// many seconds before the game starts (a joiner that quits says so and
    /// frees it at once).
    #[arg(long, default_value_t = 10, value_name = "SECS")]
    lobby_timeout_secs: u64,
    /// Give up (and exit non-zero) when no other peer of the table, or no
    /// host at the ticket's addresses, was reachable for this many seconds
    /// (default 60 in a game, on top of the stall timeout for a seat; 20
    /// for reaching a ticket's host).
    #[arg(long, value_name = "SECS")]
    give_up_secs: Option<u64>,
    /// Print connection notes too.
    #[arg(long, short)]
    pub(crate) verbose: bool,
    /// Hidden, for tests: a finished peer keeps answering catch-up for at
    /// least this many milliseconds (default 5000, SPEC 4.4), then until
    /// the peers it knows have the end. A test whose peers all start before
    /// the end need not have each of them wait the 5 s.
    #[arg(long, hide = true, value_name = "MS")]
    linger_ms: Option<u64>,
}

impl NetArgs {
    pub(crate) fn data_dir(&self) -> DataDir {
        DataDir::new(self.data_dir.clone().unwrap_or_else(default_data_dir))
    }

    /// The person's own seat's name: `--name`, held to the start menu's
    /// rules for a name, else the name the start menu remembers in
    /// `data_dir`, else the login name.
    fn own_name(&self, data_dir: &DataDir) -> Result<String> {
        match &self.name {
            Some(name) => roundtable_tui::prefs::check_name(name)
                .map_err(|e| anyhow::anyhow!("--name {name:?}: {e}")),
            None => {
                let prefs = data_dir.root().join(roundtable_tui::prefs::FILE);
                let (name, why) = roundtable_tui::prefs::name_or_default(&prefs);
                if let Some(why) = why {
                    eprintln!("roundtable: {why}; playing as {name}");
                }
                Ok(name)
            }
        }
    }

    pub(crate) fn config(&self, data_dir: DataDir, name: &str) -> NodeConfig {
        let mut config = NodeConfig::new(data_dir, name);
        if self.no_listen {
            config.reachable_only_through_relays();
        } else if !self.listen.is_empty() {
            config.listen = self.listen.clone();
        }
        config.mdns = !self.no_mdns;
        config.upnp = !self.no_upnp && !self.no_listen;
        config.relays = self.relay.clone();
        config.timing = Timing {
            sync_interval: Duration::from_millis(self.sync_ms.max(50)),
            lobby_timeout: Duration::from_secs(self.lobby_timeout_secs.max(1)),
            ..Timing::default()
        };
        if let Some(ms) = self.linger_ms {
            config.timing.linger_min = Duration::from_millis(ms);
        }
        if let Some(secs) = self.give_up_secs {
            config.timing.give_up = Duration::from_secs(secs.max(1));
            config.timing.dial_give_up = Duration::from_secs(secs.max(1));
        }
        config
    }
}

/// The terminal UI draws on standard output: without a terminal, say so
/// in one line before any node starts, with what `--headless` does instead
/// (`instead`: "let a bot play and print the log").
fn need_terminal(instead: &str) -> Result<()> {
    if !crate::output::has_terminal() {
        bail!("the terminal UI needs a terminal; use --headless to {instead}");
    }
    Ok(())
}

/// What `--headless` does for a seat.
const HEADLESS_SEAT: &str = "let a bot play and print the log";

/// What `--headless` does for a spectator.
const HEADLESS_WATCH: &str = "print the game as it is played";

/// Options of a command that plays a seat (`host`, `join`, `resume`).
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct SeatArgs {
    /// Let a bot play the seat and print the game's log instead of opening
    /// the terminal UI (what runs without a terminal).
    #[arg(long)]
    headless: bool,
    #[command(flatten)]
    bots: BotArgs,
    /// Milliseconds a bot waits before acting.
    #[arg(long, default_value_t = 0)]
    bot_delay_ms: u64,
    /// Hidden, for tests of the protocol's resignation: a headless joiner
    /// resigns its seat once this many game inputs are applied, as a person
    /// leaving the game does (`GameHandle::resign`: a `Resign`, then the
    /// seat's key release), and follows the game to its end.
    #[arg(long, hide = true, value_name = "INPUTS")]
    resign_after_inputs: Option<u64>,
}

impl SeatArgs {
    /// `net`'s node configuration for a seat, with this seat's bot pace.
    fn config(&self, net: &NetArgs, data_dir: DataDir, name: &str) -> NodeConfig {
        let mut config = net.config(data_dir, name);
        config.timing.bot_delay = Duration::from_millis(self.bot_delay_ms);
        config
    }

    /// The `--bot` bot for a seat; `salt` tells apart the seeds of the
    /// random bots of one process.
    fn bot<G: Listed>(&self, salt: u64) -> Box<dyn Bot<G>> {
        self.bot_of(self.bots.bot, salt)
    }

    /// A bot of `kind` for a seat, as [`SeatArgs::bot`].
    fn bot_of<G: Listed>(&self, kind: BotKind, salt: u64) -> Box<dyn Bot<G>> {
        let seed = self
            .bots
            .bot_seed
            .unwrap_or_else(roundtable_local::fresh_seed)
            .wrapping_add(salt);
        kind.make(self.bots.think(), seed)
    }
}

/// The stall timeouts `host` accepts, in milliseconds: the ones a joiner
/// accepts from a host's terms.
const STALL_TIMEOUT_MS: std::ops::RangeInclusive<u64> = roundtable_net::STALL_TIMEOUT_BOUNDS_MS;

/// Options of `roundtable host`.
#[derive(Debug, clap::Args)]
pub(crate) struct HostArgs {
    /// Seats at the table, yours included (as many as the game is played
    /// by; the help names each game's, from the list of games).
    #[arg(long, default_value_t = 4)]
    seats: u8,
    /// Seats filled by bots running in this process, each a full peer with
    /// its own key and chain: a number of `--bot` bots, or the bots one by
    /// one (`hard,normal`; easy, normal, hard, or heuristic, search, random).
    #[arg(long, default_value = "0", value_name = "N|BOT,BOT,...")]
    bots: Lineup,
    /// The game, by its name in the list of games; a name not in the list is
    /// answered with the list (joiners learn it from the ticket).
    #[arg(long, default_value = "port-royal", value_name = "NAME")]
    game: String,
    /// A rule option of the game as key=value (as `play --option`).
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// Claim a seat stalled after this many milliseconds of waiting (10000
    /// to 86400000).
    #[arg(long, default_value_t = 120_000)]
    stall_timeout_ms: u64,
    /// Also write the ticket to this file.
    #[arg(long, value_name = "PATH")]
    ticket_file: Option<PathBuf>,
    #[command(flatten)]
    seat: SeatArgs,
    #[command(flatten)]
    net: NetArgs,
}

/// Options of `roundtable join`.
#[derive(Debug, clap::Args)]
pub(crate) struct JoinArgs {
    /// The ticket (`rt1_...`); without one, list the tables announced on
    /// the LAN.
    ticket: Option<String>,
    /// Without a ticket: how long to listen for tables, in seconds.
    #[arg(long, default_value_t = 3)]
    wait_secs: u64,
    /// Without a ticket: also ask the peer at this multiaddr (repeatable).
    #[arg(long, value_name = "MULTIADDR")]
    peer: Vec<Multiaddr>,
    #[command(flatten)]
    seat: SeatArgs,
    #[command(flatten)]
    net: NetArgs,
}

/// Options of `roundtable watch`.
#[derive(Debug, clap::Args)]
pub(crate) struct WatchArgs {
    /// The ticket.
    ticket: String,
    /// Also write the canonical transcript here when the game ends.
    #[arg(long, value_name = "PATH")]
    transcript: Option<PathBuf>,
    /// Print the game as it is played instead of opening the terminal UI
    /// (what runs without a terminal).
    #[arg(long)]
    headless: bool,
    #[command(flatten)]
    net: NetArgs,
}

/// Options of `roundtable resume`.
#[derive(Debug, clap::Args)]
pub(crate) struct ResumeArgs {
    /// The table's lobby id (hex); default: the only unfinished one.
    lobby: Option<String>,
    #[command(flatten)]
    seat: SeatArgs,
    #[command(flatten)]
    net: NetArgs,
}

/// Options of `roundtable relay`.
#[derive(Debug, clap::Args)]
pub(crate) struct RelayArgs {
    /// A multiaddr to listen on (repeatable; default every interface, TCP
    /// and QUIC, port 4001).
    #[arg(long, value_name = "MULTIADDR")]
    listen: Vec<Multiaddr>,
    /// The relay's key lives here.
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
}

pub(crate) fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the async runtime")
}

/// Addresses for an in-process bot: the host's, with system-chosen ports.
fn bot_listen(listen: &[Multiaddr]) -> Vec<Multiaddr> {
    if listen.is_empty() {
        return default_listen();
    }
    listen.iter().map(roundtable_net::any_port).collect()
}

/// Prints one peer's events; knows the seat names once the game started.
pub(crate) struct Printer {
    prefix: String,
    names: Vec<String>,
    verbose: bool,
    quiet: bool,
    /// The lobby's seats taken and seats in all, as last printed: the node
    /// reports the lobby at every refresh, and a line is news only when
    /// the count changed.
    lobby: Option<(u8, u8)>,
    /// Who forfeited and whether the game was abandoned: the words of the
    /// result, as every other report of the game words it.
    ending: Ending,
}

impl Printer {
    /// The log of the local seat's own process: no prefix, names unknown yet.
    pub(crate) fn plain(verbose: bool) -> Printer {
        Printer {
            prefix: String::new(),
            names: Vec::new(),
            verbose,
            quiet: false,
            lobby: None,
            ending: Ending::default(),
        }
    }

    /// The log of an in-process bot beside the local seat: only its
    /// violations and its transcript's path, each line after `prefix`.
    fn quiet(prefix: String, verbose: bool) -> Printer {
        Printer {
            prefix,
            quiet: true,
            ..Printer::plain(verbose)
        }
    }

    fn name(&self, seat: roundtable_engine::Seat) -> String {
        match self.names.get(seat.index()) {
            Some(n) => format!("{seat} ({})", printable(n)),
            None => seat.to_string(),
        }
    }

    pub(crate) fn print<G: Listed>(
        &mut self,
        event: &NetEvent<G>,
        out: &mut impl Write,
    ) -> std::io::Result<()> {
        match event {
            NetEvent::Applied {
                position, record, ..
            } => self.ending.follow(*position, record),
            NetEvent::Rewound { position } => self.ending.rewind(*position),
            _ => {}
        }
        let p = &self.prefix;
        match event {
            NetEvent::Listening(a) if self.verbose => writeln!(out, "{p}listening on {a}")?,
            NetEvent::Ticket(t) if !self.quiet => {
                writeln!(out, "{p}ticket: {t}")?;
                writeln!(out, "{p}others join with: roundtable join {t}")?;
                for line in t.reach_warning().into_iter().flatten() {
                    writeln!(out, "{p}{line}")?;
                }
            }
            NetEvent::Lobby { filled, seats }
                if !self.quiet && self.lobby != Some((*filled, *seats)) =>
            {
                self.lobby = Some((*filled, *seats));
                writeln!(out, "{p}lobby: {filled}/{seats} seats taken")?
            }
            NetEvent::Started {
                game_id,
                seat,
                names,
                transcript,
                ..
            } => {
                self.names = names.clone();
                if !self.quiet {
                    let who = match seat {
                        Some(s) => format!("you are {}", self.name(*s)),
                        None => "watching".to_owned(),
                    };
                    writeln!(out, "{p}game {game_id} started: {who}")?;
                    for (i, n) in names.iter().enumerate() {
                        writeln!(out, "{p}  seat {}: {}", i + 1, printable(n))?;
                    }
                    writeln!(out, "{p}log: {}", transcript.display())?;
                }
            }
            NetEvent::Applied {
                position,
                record,
                events,
            } if !self.quiet => {
                match record {
                    Record::Action { seat, action, .. } => {
                        writeln!(out, "{p}[{position}] {}: {action}", self.name(*seat))?
                    }
                    Record::Zombie { seat, action } => {
                        writeln!(out, "{p}[{position}] {} (gone): {action}", self.name(*seat))?
                    }
                    Record::Chance { event, .. } => {
                        writeln!(out, "{p}[{position}] chance #{event}")?
                    }
                    Record::Private { .. } => writeln!(out, "{p}[{position}] private deal")?,
                    Record::Forfeit { seat, .. } => writeln!(
                        out,
                        "{p}[{position}] {} forfeits (stalled)",
                        self.name(*seat)
                    )?,
                    Record::Resign { seat, .. } => {
                        writeln!(out, "{p}[{position}] {} resigns", self.name(*seat))?
                    }
                    Record::Abandon { stopped, .. } => {
                        let stopped: Vec<String> = stopped.iter().map(|s| self.name(*s)).collect();
                        writeln!(
                            out,
                            "{p}[{position}] the game is abandoned: {} stopped",
                            stopped.join(", ")
                        )?
                    }
                }
                // In the terminal UI's words; the names came from the
                // network, so their control characters are escaped.
                for line in events
                    .iter()
                    .filter_map(|e| G::event_line(e, &self.names, None))
                {
                    writeln!(out, "{p}    {}", printable(&line))?;
                }
            }
            NetEvent::Forfeited { seat, reason } if !self.quiet => writeln!(
                out,
                "{p}{} forfeited ({})",
                self.name(*seat),
                printable(reason)
            )?,
            NetEvent::Rewound { position } if !self.quiet => writeln!(
                out,
                "{p}went back to position {position} to apply a forfeit"
            )?,
            NetEvent::Peer { seat, online } if self.verbose => writeln!(
                out,
                "{p}{} {}",
                self.name(*seat),
                if *online { "connected" } else { "disconnected" }
            )?,
            NetEvent::Violation(v) => writeln!(out, "{p}VIOLATION: {v}")?,
            NetEvent::Note(n) if self.verbose => writeln!(out, "{p}note: {}", printable(n))?,
            NetEvent::Warning(line) => writeln!(out, "{p}{}", printable(line))?,
            NetEvent::Finished { result, transcript } => {
                if !self.quiet {
                    self.print_result::<G>(result, out)?;
                }
                writeln!(out, "{p}transcript: {}", transcript.display())?;
            }
            _ => {}
        }
        Ok(())
    }

    fn print_result<G: Listed>(
        &self,
        result: &GameResult,
        out: &mut impl Write,
    ) -> std::io::Result<()> {
        let mut standings = result.standings.clone();
        standings.sort_by_key(|s| (s.rank, s.seat));
        // "game over" is the line scripts wait for, abandoned or not; an
        // abandoned game says who stopped in the words of every report.
        writeln!(out, "{}game over", self.prefix)?;
        if self.ending.abandoned().is_some() {
            let headline = self.ending.headline(result, &self.names);
            writeln!(out, "{}{}", self.prefix, printable(&headline))?;
        }
        for s in &standings {
            let fate = self
                .ending
                .fate(s.seat)
                .map_or(String::new(), |f| format!(" ({})", f.words()));
            writeln!(
                out,
                "{}  #{} {}: {} VP, {}{fate}",
                self.prefix,
                s.rank + 1,
                self.name(s.seat),
                s.score,
                G::tie_break_words(s.tie_break)
            )?;
        }
        Ok(())
    }
}

/// Print a peer's events until it stops; returns its outcome.
async fn follow<G: Listed>(handle: GameHandle<G>, printer: Printer) -> Result<Outcome> {
    follow_resigning(handle, printer, None).await
}

/// [`follow`], resigning the seat once `resign_after` game inputs are
/// applied (`--resign-after-inputs`).
async fn follow_resigning<G: Listed>(
    handle: GameHandle<G>,
    mut printer: Printer,
    mut resign_after: Option<u64>,
) -> Result<Outcome> {
    let (mut events, handle) = handle.split();
    while let Some(event) = events.recv().await {
        printer.print(&event, &mut crate::output::stdout())?;
        if let (Some(after), NetEvent::Applied { position, .. }) = (resign_after, &event)
            && position + 1 >= after
        {
            handle.resign()?;
            resign_after = None;
        }
    }
    Ok(handle.outcome().await?)
}

pub(crate) fn exit_code(outcome: &Outcome) -> ExitCode {
    if outcome.violation.is_some() {
        return ExitCode::from(1);
    }
    if outcome.result.is_some() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Start in-process bots that join `ticket`, each in its own data dir.
fn spawn_bots<G: Listed>(
    seat: &SeatArgs,
    net: &NetArgs,
    data: &DataDir,
    kinds: &[BotKind],
    role: impl Fn(usize) -> Role<G>,
) -> Result<Vec<tokio::task::JoinHandle<Result<Outcome>>>> {
    let mut tasks = Vec::new();
    for (n, kind) in (1..).zip(kinds) {
        let mut config = seat.config(net, data.bot(n), &format!("bot {n}"));
        // A host reachable only through a relay keeps its bots there too.
        if !net.no_listen {
            config.listen = bot_listen(&net.listen);
        }
        let handle = spawn::<G>(
            config,
            role(n),
            Controller::Bot(seat.bot_of(*kind, n as u64)),
        )?;
        let printer = Printer::quiet(format!("[bot {n}] "), net.verbose);
        tasks.push(tokio::spawn(follow(handle, printer)));
    }
    Ok(tasks)
}

async fn finish_bots(tasks: Vec<tokio::task::JoinHandle<Result<Outcome>>>) -> bool {
    let mut ok = true;
    for (i, t) in tasks.into_iter().enumerate() {
        match t.await {
            Ok(Ok(o)) if o.result.is_some() => {}
            Ok(Ok(_)) => {
                eprintln!("bot {} did not finish its game", i + 1);
                ok = false;
            }
            Ok(Err(e)) => {
                eprintln!("bot {}: {}", i + 1, printable(&format!("{e:#}")));
                ok = false;
            }
            Err(e) => {
                eprintln!("bot {}: {e}", i + 1);
                ok = false;
            }
        }
    }
    ok
}

pub(crate) fn host(args: &HostArgs) -> crate::Outcome {
    let game = crate::game_named(&args.game)?;
    Ok(roundtable_tui::games::visit(game, Host(args))?)
}

/// `host` for the game `--game` names.
struct Host<'a>(&'a HostArgs);

impl VisitScreen for Host<'_> {
    type Output = Result<ExitCode>;

    fn visit<G: GameScreen>(self) -> Result<ExitCode> {
        host_game::<G>(self.0)
    }
}

fn host_game<G: GameScreen>(args: &HostArgs) -> Result<ExitCode> {
    // Every term is checked before the lobby opens: a lobby whose terms no
    // proposal can carry fills its seats and then never starts.
    let options: G::Options = crate::parse_options::<G>(&args.options)?;
    roundtable_table::genesis::check_terms::<G>(args.seats, &options)?;
    if args.bots.len() >= usize::from(args.seats) {
        bail!("{} bots leave no seat for the host", args.bots.len());
    }
    if !STALL_TIMEOUT_MS.contains(&args.stall_timeout_ms) {
        bail!(
            "--stall-timeout-ms must be from {} (10 s) to {} (a day), not {}",
            STALL_TIMEOUT_MS.start(),
            STALL_TIMEOUT_MS.end(),
            args.stall_timeout_ms
        );
    }
    let data = args.net.data_dir();
    if !args.seat.headless {
        need_terminal(HEADLESS_SEAT)?;
        return host_tui::<G>(args, options, &data);
    }
    runtime()?.block_on(async {
        let config = args
            .seat
            .config(&args.net, data.clone(), &args.net.own_name(&data)?);
        let mut handle = spawn::<G>(
            config,
            Role::Host {
                seats: args.seats,
                options,
                stall_timeout_ms: args.stall_timeout_ms,
            },
            Controller::Bot(args.seat.bot(0)),
        )?;
        let mut printer = Printer::plain(args.net.verbose);
        let mut bots = Vec::new();
        let mut bots_started = false;
        while let Some(event) = handle.next_event().await {
            printer.print(&event, &mut crate::output::stdout())?;
            if let NetEvent::Ticket(ticket) = &event {
                if let Some(path) = &args.ticket_file {
                    std::fs::write(path, format!("{ticket}\n"))
                        .with_context(|| format!("writing {}", path.display()))?;
                }
                if !bots_started {
                    bots_started = true;
                    let t = ticket.clone();
                    let kinds = args.bots.kinds(args.seat.bots.bot);
                    bots = spawn_bots::<G>(&args.seat, &args.net, &data, &kinds, move |_| {
                        Role::Join { ticket: t.clone() }
                    })?;
                }
            }
        }
        let outcome = handle.outcome().await?;
        let bots_ok = finish_bots(bots).await;
        let code = exit_code(&outcome);
        Ok(if bots_ok { code } else { ExitCode::FAILURE })
    })
}

/// `host` with the terminal UI: the person at the keyboard takes the first
/// seat; in-process bots join once the ticket exists.
fn host_tui<G: GameScreen>(
    args: &HostArgs,
    options: G::Options,
    data: &DataDir,
) -> Result<ExitCode> {
    let rt = runtime()?;
    let config = args
        .seat
        .config(&args.net, data.clone(), &args.net.own_name(data)?);
    let mut handle = {
        let _inside = rt.enter();
        spawn::<G>(
            config,
            Role::Host {
                seats: args.seats,
                options,
                stall_timeout_ms: args.stall_timeout_ms,
            },
            Controller::Handle,
        )?
    };
    // The ticket comes as soon as the node listens; the bots need it before
    // the screen opens, and the screen shows it.
    let Some(ticket) = rt.block_on(handle.first_ticket()) else {
        let outcome = rt.block_on(handle.outcome())?;
        bail!(
            "the table stopped before it had a ticket{}",
            outcome
                .violation
                .map(|v| format!(": {v}"))
                .unwrap_or_default()
        );
    };
    if let Some(path) = &args.ticket_file {
        std::fs::write(path, format!("{ticket}\n"))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    // Bots that print nothing: the terminal UI owns the screen.
    let mut bots = Vec::new();
    for (n, kind) in (1..).zip(args.bots.kinds(args.seat.bots.bot)) {
        let mut config = args
            .seat
            .config(&args.net, data.bot(n), &format!("bot {n}"));
        // A host reachable only through a relay keeps its bots there too.
        if !args.net.no_listen {
            config.listen = bot_listen(&args.net.listen);
        }
        bots.push((config, args.seat.bot_of(kind, n as u64)));
    }
    let join = || Role::Join {
        ticket: ticket.clone(),
    };
    let bots = crate::net_session::start_quiet_bots(&rt, bots, &join)?;
    let session = NetSession::new(
        handle,
        format!("Your {} table, {} seats", G::TITLE, args.seats),
        Some(ticket),
        args.seats,
    )?
    .with_companions(bots);
    tui(rt, session)
}

/// Run the terminal UI over `session` while `rt` drives the node in the
/// background; the runtime lives until the player quits.
pub(crate) fn tui<G: GameScreen>(
    rt: tokio::runtime::Runtime,
    session: NetSession<G>,
) -> Result<ExitCode> {
    let ends = session.node_ends();
    let gave_up = session.gave_up();
    let outcome = roundtable_tui::run(session);
    // Quitting shuts the nodes down (the session's drop).
    crate::net_session::shut_down(rt, ends);
    outcome?;
    // The screen said why the node gave up; the shell hears it too.
    if let Some(line) = gave_up.line() {
        eprintln!("roundtable: {}", printable(line));
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn join(args: &JoinArgs) -> Result<ExitCode> {
    let Some(text) = &args.ticket else {
        return list_tables(args);
    };
    let ticket = Ticket::decode(text)?;
    roundtable_tui::games::visit(ticket_game(&ticket)?, Join { args, ticket })
}

/// The game a ticket names, from the list of games: a table of a game this
/// binary does not know is refused before anything is dialled.
fn ticket_game(ticket: &Ticket) -> Result<GameId> {
    if ticket.game == crate::tournament_net::TICKET_GAME {
        bail!("the ticket is {TOURNAMENT_TICKET}");
    }
    GameId::from_name(&ticket.game)
        .with_context(|| "the ticket's table plays a game this roundtable does not have")
}

/// What `join` says a tournament node's ticket is ("the ticket is …"):
/// its tables are reached through the node.
pub(crate) const TOURNAMENT_TICKET: &str = "a tournament node's, not a table's: play your table of the round with `roundtable tournament play MANIFEST TICKET`";

/// `join` for the game the ticket names.
struct Join<'a> {
    args: &'a JoinArgs,
    ticket: Ticket,
}

impl VisitScreen for Join<'_> {
    type Output = Result<ExitCode>;

    fn visit<G: GameScreen>(self) -> Result<ExitCode> {
        join_game::<G>(self.args, self.ticket)
    }
}

fn join_game<G: GameScreen>(args: &JoinArgs, ticket: Ticket) -> Result<ExitCode> {
    let data = args.net.data_dir();
    if !args.seat.headless {
        need_terminal(HEADLESS_SEAT)?;
        let rt = runtime()?;
        let handle = {
            let _inside = rt.enter();
            spawn::<G>(
                args.seat
                    .config(&args.net, data.clone(), &args.net.own_name(&data)?),
                Role::Join { ticket },
                Controller::Handle,
            )?
        };
        let session = NetSession::new(handle, format!("Joining a {} table", G::TITLE), None, 2)?;
        return tui(rt, session);
    }
    runtime()?.block_on(async {
        let config = args
            .seat
            .config(&args.net, data.clone(), &args.net.own_name(&data)?);
        // Dialling can take until the give-up line: say at once what is
        // being tried, as the terminal UI's "Reaching the host..." does.
        let addrs: Vec<String> = ticket.addrs.iter().map(ToString::to_string).collect();
        writeln!(
            crate::output::stdout(),
            "reaching the host at {} (giving up after {} s without an answer)",
            addrs.join(", "),
            config.timing.dial_give_up.as_secs()
        )?;
        let handle = spawn::<G>(
            config,
            Role::Join { ticket },
            Controller::Bot(args.seat.bot(0)),
        )?;
        let printer = Printer::plain(args.net.verbose);
        let outcome = follow_resigning(handle, printer, args.seat.resign_after_inputs).await?;
        Ok(exit_code(&outcome))
    })
}

fn list_tables(args: &JoinArgs) -> Result<ExitCode> {
    let data = args.net.data_dir();
    let identity = data.identity()?;
    let listen = if args.net.listen.is_empty() {
        default_listen()
    } else {
        args.net.listen.clone()
    };
    let tables = runtime()?.block_on(roundtable_net::discover::discover_tables(
        &identity,
        listen,
        args.peer.clone(),
        !args.net.no_mdns,
        Duration::from_secs(args.wait_secs),
    ))?;
    let out = &mut crate::output::stdout();
    if tables.is_empty() {
        writeln!(
            out,
            "no tables found on the LAN (waited {} s)",
            args.wait_secs
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    for (i, t) in tables.iter().enumerate() {
        writeln!(out, "{}", listing(i + 1, t))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One table of the LAN list, as two lines: who hosts what, and the
/// command that joins it. Everything in it came from the network, so its
/// control characters are escaped.
fn listing(number: usize, table: &roundtable_net::Announce) -> String {
    format!(
        "{number}. {}'s table: {}, {}/{} seats taken\n   roundtable join {}",
        printable(&table.info.host_name),
        printable(&table.info.game),
        table.filled,
        table.info.seats,
        printable(&table.ticket)
    )
}

pub(crate) fn watch(args: &WatchArgs) -> Result<ExitCode> {
    let ticket = Ticket::decode(&args.ticket)?;
    roundtable_tui::games::visit(ticket_game(&ticket)?, Watch { args, ticket })
}

/// `watch` for the game the ticket names.
struct Watch<'a> {
    args: &'a WatchArgs,
    ticket: Ticket,
}

impl VisitScreen for Watch<'_> {
    type Output = Result<ExitCode>;

    fn visit<G: GameScreen>(self) -> Result<ExitCode> {
        watch_game::<G>(self.args, self.ticket)
    }
}

fn watch_game<G: GameScreen>(args: &WatchArgs, ticket: Ticket) -> Result<ExitCode> {
    let data = args.net.data_dir();
    if !args.headless {
        need_terminal(HEADLESS_WATCH)?;
        let rt = runtime()?;
        let handle = {
            let _inside = rt.enter();
            let name = args.net.own_name(&data)?;
            let mut config = args.net.config(data, &name);
            config.transcript_copy = args.transcript.clone();
            spawn::<G>(config, Role::Watch { ticket }, Controller::Handle)?
        };
        let session = NetSession::new(handle, format!("Watching a {} table", G::TITLE), None, 2)?
            .spectating();
        return tui(rt, session);
    }
    runtime()?.block_on(async {
        let name = args.net.own_name(&data)?;
        let mut config = args.net.config(data, &name);
        config.transcript_copy = args.transcript.clone();
        let handle = spawn::<G>(config, Role::Watch { ticket }, Controller::Handle)?;
        let outcome = follow(handle, Printer::plain(args.net.verbose)).await?;
        Ok(exit_code(&outcome))
    })
}

pub(crate) fn resume(args: &ResumeArgs) -> Result<ExitCode> {
    let data = args.net.data_dir();
    let lobby = unfinished_lobby(args, &data)?;
    roundtable_tui::games::visit(saved_game(&data, &lobby)?, Resume { args, data, lobby })
}

/// The unfinished table `resume` goes back to: the one named, else the
/// only one in `data`.
fn unfinished_lobby(args: &ResumeArgs, data: &DataDir) -> Result<roundtable_net::LobbyId> {
    let lobby = match &args.lobby {
        Some(text) => {
            let mut id = [0u8; 32];
            hex::decode_to_slice(text.trim(), &mut id).map_err(|_| {
                anyhow::anyhow!("{text:?} is not a lobby id: a lobby id is 64 hex digits")
            })?;
            roundtable_net::LobbyId(id)
        }
        None => {
            let open = data.unfinished();
            match open.as_slice() {
                [one] => *one,
                [] => bail!("no unfinished game in {}", data.root().display()),
                _ => bail!(
                    "several unfinished games; name one: {}",
                    open.iter()
                        .map(|l| l.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }
        }
    };
    Ok(lobby)
}

/// The game of the unfinished table `lobby`, from the genesis its saved
/// transcript starts with.
fn saved_game(data: &DataDir, lobby: &roundtable_net::LobbyId) -> Result<GameId> {
    let path = data.transcript_path(lobby);
    let read = roundtable_table::transcript::read(&path)
        .with_context(|| format!("reading the saved game {}", path.display()))?;
    match read.frames.first() {
        Some(roundtable_table::transcript::Frame::Proposal(p)) => {
            GameId::from_name(&p.game).with_context(|| format!("the saved game {}", path.display()))
        }
        _ => bail!(
            "the saved game {} does not start with its genesis",
            path.display()
        ),
    }
}

/// `resume` for the game the saved genesis names.
struct Resume<'a> {
    args: &'a ResumeArgs,
    data: DataDir,
    lobby: roundtable_net::LobbyId,
}

impl VisitScreen for Resume<'_> {
    type Output = Result<ExitCode>;

    fn visit<G: GameScreen>(self) -> Result<ExitCode> {
        resume_game::<G>(self.args, self.data, self.lobby)
    }
}

fn resume_game<G: GameScreen>(
    args: &ResumeArgs,
    data: DataDir,
    lobby: roundtable_net::LobbyId,
) -> Result<ExitCode> {
    // In-process bots of a host that played this game resume too, each
    // with its number to tell its bot's seed apart.
    let mut resumed_bots = Vec::new();
    for n in 1..=8usize {
        let bot_dir = data.bot(n);
        if !bot_dir.unfinished().contains(&lobby) {
            continue;
        }
        let mut config = args.seat.config(&args.net, bot_dir, &format!("bot {n}"));
        if !args.net.no_listen {
            config.listen = bot_listen(&args.net.listen);
        }
        resumed_bots.push((config, n as u64));
    }
    let config = args
        .seat
        .config(&args.net, data.clone(), &args.net.own_name(&data)?);
    if !args.seat.headless {
        need_terminal(HEADLESS_SEAT)?;
        let resumed_bots = resumed_bots
            .into_iter()
            .map(|(config, n)| (config, args.seat.bot::<G>(n)))
            .collect();
        // Back at the table in the terminal UI, where the player left it.
        let rt = runtime()?;
        let handle = {
            let _inside = rt.enter();
            spawn::<G>(config, Role::Resume { lobby }, Controller::Handle)?
        };
        let resume = || Role::Resume { lobby };
        let bots = crate::net_session::start_quiet_bots(&rt, resumed_bots, &resume)?;
        let session = NetSession::new(handle, format!("Resuming table {lobby}"), None, 2)?
            .with_companions(bots);
        return tui(rt, session);
    }
    runtime()?.block_on(async {
        let handle = spawn::<G>(
            config,
            Role::Resume { lobby },
            Controller::Bot(args.seat.bot(0)),
        )?;
        let mut bots = Vec::new();
        for (config, n) in resumed_bots {
            let prefix = format!("[{}] ", config.name);
            let bot = Controller::Bot(args.seat.bot::<G>(n));
            let h = spawn::<G>(config, Role::Resume { lobby }, bot)?;
            bots.push(tokio::spawn(follow(
                h,
                Printer::quiet(prefix, args.net.verbose),
            )));
        }
        let outcome = follow(handle, Printer::plain(args.net.verbose)).await?;
        let bots_ok = finish_bots(bots).await;
        let code = exit_code(&outcome);
        Ok(if bots_ok { code } else { ExitCode::FAILURE })
    })
}

pub(crate) fn relay(args: &RelayArgs) -> Result<ExitCode> {
    let data = DataDir::new(args.data_dir.clone().unwrap_or_else(default_data_dir));
    let identity = data.identity()?;
    let listen = if args.listen.is_empty() {
        ["/ip4/0.0.0.0/tcp/4001", "/ip4/0.0.0.0/udp/4001/quic-v1"]
            .iter()
            .filter_map(|a| a.parse().ok())
            .collect()
    } else {
        args.listen.clone()
    };
    runtime()?.block_on(async {
        let (tx, mut rx) = tokio::sync::mpsc::channel(256);
        let server = tokio::spawn(async move { run_relay(&identity, listen, tx).await });
        let out = &mut crate::output::stdout();
        while let Some(event) = rx.recv().await {
            match event {
                RelayEvent::Listening(a) => writeln!(out, "relay listening on {a}")?,
                RelayEvent::Note(n) => writeln!(out, "{n}")?,
            }
        }
        server.await.context("the relay task")??;
        Ok(ExitCode::SUCCESS)
    })
}

#[cfg(test)]
mod tests {
    use roundtable_net::{Announce, LobbyInfo, Ticket};
    use roundtable_port_royal::PortRoyal;
    use roundtable_table::Identity;

    use super::*;

    /// A headless host printed `lobby: 2/3 seats taken` about twice a
    /// second while it waited: the node reports the lobby at every refresh.
    #[test]
    fn the_lobby_line_is_printed_when_the_count_changes() {
        let mut printer = Printer::plain(false);
        let mut out = Vec::new();
        let counts = [
            (1, 3),
            (1, 3),
            (2, 3),
            (2, 3),
            (2, 3),
            (1, 3),
            (1, 3),
            (3, 3),
        ];
        for (filled, seats) in counts {
            let event = NetEvent::<PortRoyal>::Lobby { filled, seats };
            printer
                .print(&event, &mut out)
                .unwrap_or_else(|e| panic!("{e}"));
        }
        assert_eq!(
            String::from_utf8_lossy(&out),
            "lobby: 1/3 seats taken\n\
             lobby: 2/3 seats taken\n\
             lobby: 1/3 seats taken\n\
             lobby: 3/3 seats taken\n"
        );
    }

    /// A headless peer's log printed `seat 2 draws ship:red:6:3`.
    #[test]
    fn a_headless_log_says_what_happened_in_the_terminal_uis_words() {
        use roundtable_engine::Seat;
        use roundtable_port_royal::{Action, CardId, CardKind, Event};

        let ship = CardId::all()
            .find(|c| matches!(c.kind(), CardKind::Ship { .. }))
            .unwrap_or_else(|| panic!("a ship in the catalog"));
        let mut printer = Printer::plain(false);
        let mut out = Vec::new();
        let events: [NetEvent<PortRoyal>; 2] = [
            NetEvent::Started {
                game_id: roundtable_table::GameId([0; 32]),
                seat: Some(Seat(0)),
                names: vec!["ann".into(), "bob\u{1b}[2J".into()],
                transcript: PathBuf::from("t.rtlog"),
                options: roundtable_port_royal::Options::default(),
                stall_timeout: std::time::Duration::from_secs(120),
            },
            NetEvent::Applied {
                position: 7,
                record: Record::Action {
                    seat: Seat(1),
                    seq: 1,
                    action: Action::Pass,
                },
                events: vec![
                    Event::Revealed {
                        seat: Seat(1),
                        card: ship,
                    },
                    Event::Docked { card: ship },
                ],
            },
        ];
        for event in &events {
            printer
                .print(event, &mut out)
                .unwrap_or_else(|e| panic!("{e}"));
        }
        let log = String::from_utf8_lossy(&out);
        let short = roundtable_games::port_royal::card_short(ship);
        assert!(
            log.contains(&format!("    bob\\u{{1b}}[2J draws {short}.\n")),
            "{log}"
        );
        assert!(
            log.contains(&format!("      {short} docks in the harbor.\n")),
            "{log}"
        );
        assert!(!log.contains("ship:"), "{log}");
    }

    #[test]
    fn the_lan_list_escapes_control_characters_from_the_network() {
        let host = Identity::from_secret([5; 32]);
        let info = LobbyInfo {
            protocol: 1,
            game: "port-\u{1b}]0;pwned\u{7}royal".into(),
            options: Vec::new(),
            seats: 2,
            host: host.public(),
            host_name: "alice\u{1b}[2J\u{1b}[31m".into(),
            stall_timeout_ms: 30_000,
            nonce: [0; 32],
        };
        let ticket = Ticket {
            lobby: info.id(),
            game: info.game.clone(),
            host: host.public(),
            addrs: Vec::new(),
        };
        let table = Announce::sign(info, 1, ticket.encode() + "\u{1b}[1A", 1, &host);
        let text = listing(1, &table);
        assert!(
            !text.chars().any(|c| c.is_control() && c != '\n'),
            "{text:?}"
        );
        assert!(text.starts_with("1. alice\\u{1b}[2J\\u{1b}[31m's table: port-"));
    }
}
