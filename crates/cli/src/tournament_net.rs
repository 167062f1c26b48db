//! `roundtable tournament host | play`: one round of a tournament over the
//! network (SPEC 6.2).
//!
//! The tournament node (`host`) serves one round: it recomputes the
//! round's pairing from the manifest and the files in its folder, tells
//! each player (`play`) its table and opponents, has the first arrived
//! player of a table open an ordinary lobby with the table's genesis nonce
//! (the machinery of `roundtable host`/`join`: [`roundtable_net::spawn`]),
//! hands the others that lobby's ticket, and takes each table's transcript
//! back as its game ends. The round's decisions are the sans-IO
//! [`RoundDesk`]'s; this file only moves its messages.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use futures::StreamExt;
use libp2p::request_response::{self, OutboundRequestId, ProtocolSupport};
use libp2p::swarm::SwarmEvent;
use libp2p::{Multiaddr, PeerId, StreamProtocol, Swarm, SwarmBuilder, multiaddr::Protocol};
use roundtable_net::identity::{keypair_of, peer_id_of};
use roundtable_net::wire::{Bounded, LobbyId, WireCodec};
use roundtable_net::{Controller, NetEvent, Role, Ticket, spawn};
use roundtable_table::{Identity, PublicKey};
use roundtable_tournament::{Answer, Manifest, RoundDesk, round_id, table_nonce};
use roundtable_tui::{Listed, Visit};
use serde::{Deserialize, Serialize};

use crate::Failure;
use crate::bot_choice::BotArgs;
use crate::net_cmd::{NetArgs, Printer, exit_code, runtime};

/// The tournament node's protocol.
const TOURNAMENT_PROTOCOL: StreamProtocol = StreamProtocol::new("/roundtable/tournament/1");
/// A request carries at most a transcript.
const MAX_REQUEST_BYTES: usize = 4 * 1024 * 1024;
/// A response is at most a table and a ticket.
const MAX_RESPONSE_BYTES: usize = 64 * 1024;
/// The `game` of a tournament node's ticket.
const TICKET_GAME: &str = "tournament";
/// How often a player asks again while it waits.
const ASK_EVERY: Duration = Duration::from_millis(500);
/// A request not answered in this long failed (the node is gone).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// A player gives up on a node it has not reached for this long.
const NODE_GIVE_UP: Duration = Duration::from_secs(60);
/// Longest reason or ticket carried.
const MAX_TEXT: usize = 2048;

/// What a player asks the node (SPEC 6.2).
#[derive(Clone, Debug, Serialize, Deserialize)]
enum TourRequest {
    /// I am here: what do I do?
    Arrive { round_id: [u8; 32] },
    /// I opened my table's lobby: here is its ticket.
    Opened {
        round_id: [u8; 32],
        table: u32,
        ticket: String,
    },
    /// My table's game is over: its transcript file.
    Result {
        round_id: [u8; 32],
        table: u32,
        transcript: Vec<u8>,
    },
}

impl Bounded for TourRequest {
    const KIND: &'static str = "tournament request";
    fn check(&self) -> Result<(), String> {
        match self {
            TourRequest::Opened { ticket, .. } if ticket.len() > MAX_TEXT => {
                Err("ticket too long".into())
            }
            _ => Ok(()),
        }
    }
}

/// What the node answers (SPEC 6.2).
#[derive(Clone, Debug, Serialize, Deserialize)]
enum TourResponse {
    Wait {
        table: u32,
        players: Vec<[u8; 32]>,
        arrived: Vec<[u8; 32]>,
        show_up_left_ms: u64,
    },
    Host {
        table: u32,
        seats: Vec<[u8; 32]>,
        nonce: [u8; 32],
    },
    Join {
        table: u32,
        seats: Vec<[u8; 32]>,
        nonce: [u8; 32],
        ticket: String,
    },
    Opening {
        table: u32,
    },
    Forfeited {
        table: u32,
        reason: String,
    },
    Done {
        table: u32,
    },
    Bye,
    Refused {
        reason: String,
    },
    Ok,
}

impl Bounded for TourResponse {
    const KIND: &'static str = "tournament response";
    fn check(&self) -> Result<(), String> {
        let (keys, text) = match self {
            TourResponse::Wait {
                players, arrived, ..
            } => (players.len() + arrived.len(), 0),
            TourResponse::Host { seats, .. } => (seats.len(), 0),
            TourResponse::Join { seats, ticket, .. } => (seats.len(), ticket.len()),
            TourResponse::Forfeited { reason, .. } | TourResponse::Refused { reason } => {
                (0, reason.len())
            }
            _ => (0, 0),
        };
        if keys > 2 * usize::from(u8::MAX) || text > MAX_TEXT {
            return Err("too many keys or too long a text".into());
        }
        Ok(())
    }
}

type Behaviour = request_response::Behaviour<WireCodec<TourRequest, TourResponse>>;

fn build_swarm(identity: &Identity) -> Result<Swarm<Behaviour>> {
    let swarm = SwarmBuilder::with_existing_identity(keypair_of(identity)?)
        .with_tokio()
        .with_tcp(
            libp2p::tcp::Config::default().nodelay(true),
            libp2p::noise::Config::new,
            libp2p::yamux::Config::default,
        )
        .context("building the TCP transport")?
        .with_quic()
        .with_behaviour(|_| {
            request_response::Behaviour::with_codec(
                WireCodec::new(MAX_REQUEST_BYTES, MAX_RESPONSE_BYTES),
                [(TOURNAMENT_PROTOCOL, ProtocolSupport::Full)],
                request_response::Config::default().with_request_timeout(REQUEST_TIMEOUT),
            )
        })
        .context("building the tournament protocol")?
        // A player's connection waits through its whole game.
        .with_swarm_config(|c| c.with_idle_connection_timeout(Duration::from_secs(3600)))
        .build();
    Ok(swarm)
}

fn keys(list: &[PublicKey]) -> Vec<[u8; 32]> {
    list.iter().map(|k| k.0).collect()
}

/// Options of `roundtable tournament host`.
#[derive(Debug, clap::Args)]
pub(crate) struct HostArgs {
    /// The signed manifest.
    manifest: PathBuf,
    /// The tournament's folder: the games of the earlier rounds and the
    /// seed reveals are read from it, and this round's games land in it.
    dir: PathBuf,
    /// The round to serve (the next unplayed one, as `pairings` shows it).
    #[arg(long)]
    round: u32,
    /// Also write the node's ticket to this file.
    #[arg(long, value_name = "PATH")]
    ticket_file: Option<PathBuf>,
    #[command(flatten)]
    net: NetArgs,
}

/// Options of `roundtable tournament play`. The name at the table is the
/// one the player registered with (`--name` is not used).
#[derive(Debug, clap::Args)]
pub(crate) struct PlayArgs {
    /// The signed manifest.
    manifest: PathBuf,
    /// The tournament node's ticket (`rt1_...`, printed by `tournament host`).
    ticket: String,
    #[command(flatten)]
    bots: BotArgs,
    #[command(flatten)]
    net: NetArgs,
}

/// `roundtable tournament host`.
pub(crate) fn host(args: &HostArgs) -> crate::Outcome {
    let manifest = crate::tournament::read_manifest(&args.manifest)?;
    let id = manifest.id();
    let rounds = manifest.rounds();
    if !(1..=rounds).contains(&args.round) {
        return Err(Failure::with_code(
            2,
            anyhow::anyhow!(
                "--round {}: the tournament has rounds 1 to {rounds}",
                args.round
            ),
        ));
    }
    let (_, so_far, _, _) = crate::tournament::compute(&args.manifest, &args.dir)?;
    for r in &so_far.refused {
        eprintln!(
            "roundtable tournament host: refused {}: {}",
            crate::output::printable(&r.source),
            crate::output::printable(&r.reason)
        );
    }
    let index = args.round as usize - 1;
    let (Some(pairing), Some(report)) = (so_far.pairings.get(index), so_far.rounds.get(index))
    else {
        return Err(anyhow::anyhow!("round {} is not paired", args.round).into());
    };
    let unplayed_before: Vec<String> = so_far.rounds[..index]
        .iter()
        .flat_map(|r| {
            r.tables
                .iter()
                .filter(|t| t.game.is_none())
                .map(move |t| format!("round {} table {}", r.round, t.table))
        })
        .collect();
    if !unplayed_before.is_empty() {
        eprintln!(
            "roundtable tournament host: no game in the folder for {} (they score nothing)",
            unplayed_before.join(", ")
        );
    }
    let played: Vec<u32> = report
        .tables
        .iter()
        .filter(|t| t.game.is_some())
        .map(|t| t.table)
        .collect();
    let desk = RoundDesk::new(pairing, manifest.terms.show_up_ms, &played);
    let identity = args.net.data_dir().identity()?;
    let mut out = crate::output::stdout();
    writeln!(
        out,
        "tournament {id} ({}), round {} of {rounds}",
        crate::output::printable(&manifest.terms.name),
        args.round
    )?;
    for (table, report) in pairing.tables.iter().zip(&report.tables) {
        let played = if report.game.is_some() {
            " (played)"
        } else {
            ""
        };
        writeln!(
            out,
            "table {}: {}{played}",
            table.number,
            report
                .players
                .iter()
                .map(|n| crate::output::printable(n))
                .collect::<Vec<_>>()
                .join(", ")
        )?;
    }
    if !report.byes.is_empty() {
        writeln!(out, "sitting out: {}", report.byes.join(", "))?;
    }
    let node = Node {
        manifest: &manifest,
        dir: &args.dir,
        desk,
        round_id: round_id(&id, args.round),
        peers: manifest
            .players()
            .into_iter()
            .filter_map(|k| Some((peer_id_of(&k)?, k)))
            .collect(),
    };
    // The listen addresses as `roundtable host` takes them.
    let listen = args.net.config(args.net.data_dir(), "node").listen;
    let code = runtime()?.block_on(node.serve(&identity, listen, args.ticket_file.as_deref()))?;
    Ok(code)
}

/// The tournament node serving one round.
struct Node<'a> {
    manifest: &'a Manifest,
    dir: &'a Path,
    desk: RoundDesk,
    round_id: [u8; 32],
    peers: BTreeMap<PeerId, PublicKey>,
}

impl Node<'_> {
    fn name(&self, key: &PublicKey) -> String {
        crate::output::printable(self.manifest.name_of(key).unwrap_or("?")).into_owned()
    }

    async fn serve(
        mut self,
        identity: &Identity,
        listen: Vec<Multiaddr>,
        ticket_file: Option<&Path>,
    ) -> Result<ExitCode> {
        let mut swarm = build_swarm(identity)?;
        for addr in listen {
            swarm
                .listen_on(addr.clone())
                .with_context(|| format!("listening on {addr}"))?;
        }
        let me = *swarm.local_peer_id();
        let opened = Instant::now();
        let mut addrs: Vec<Multiaddr> = Vec::new();
        let mut ticket_due: Option<Instant> = None;
        let mut ticket_told = false;
        let mut tick = tokio::time::interval(Duration::from_millis(200));
        let mut over_at: Option<Instant> = None;
        loop {
            tokio::select! {
                _ = tick.tick() => {
                    let now = Instant::now();
                    if let (false, Some(due)) = (ticket_told, ticket_due)
                        && now >= due
                    {
                        ticket_told = true;
                        self.tell_ticket(identity, &addrs, ticket_file)?;
                    }
                    self.desk.tick(elapsed_ms(opened));
                    if self.desk.is_over() && over_at.is_none() {
                        over_at = Some(now);
                        self.report()?;
                    }
                    // The last answers go out before the node stops.
                    if over_at.is_some_and(|t| now.duration_since(t) > Duration::from_secs(3)) {
                        return Ok(ExitCode::SUCCESS);
                    }
                }
                event = swarm.select_next_some() => match event {
                    SwarmEvent::NewListenAddr { address, .. } => {
                        if !address.iter().any(|p| matches!(p, Protocol::P2p(_))) {
                            addrs.push(address.with(Protocol::P2p(me)));
                        }
                        ticket_due.get_or_insert(Instant::now() + Duration::from_millis(300));
                    }
                    SwarmEvent::Behaviour(request_response::Event::Message {
                        peer,
                        message: request_response::Message::Request { request, channel, .. },
                        ..
                    }) => {
                        let answer = match request {
                            Ok(request) => self.answer(peer, request, elapsed_ms(opened)),
                            Err(e) => TourResponse::Refused { reason: e.to_string() },
                        };
                        let _ = swarm.behaviour_mut().send_response(channel, answer);
                    }
                    _ => {}
                }
            }
        }
    }

    fn tell_ticket(
        &self,
        identity: &Identity,
        addrs: &[Multiaddr],
        ticket_file: Option<&Path>,
    ) -> Result<()> {
        let ticket = Ticket {
            lobby: LobbyId(self.round_id),
            game: TICKET_GAME.to_owned(),
            host: identity.public(),
            addrs: addrs.to_vec(),
        }
        .encode();
        let mut out = crate::output::stdout();
        writeln!(out, "ticket: {ticket}")?;
        writeln!(
            out,
            "players play with: roundtable tournament play MANIFEST {ticket} --bot LEVEL"
        )?;
        if let Some(path) = ticket_file {
            std::fs::write(path, format!("{ticket}\n"))
                .with_context(|| format!("writing {}", path.display()))?;
        }
        Ok(())
    }

    fn answer(&mut self, peer: PeerId, request: TourRequest, elapsed_ms: u64) -> TourResponse {
        let refuse = |reason: String| TourResponse::Refused { reason };
        let Some(key) = self.peers.get(&peer).copied() else {
            return refuse("your key is not registered in this tournament".into());
        };
        let round = self.desk.round();
        let id = self.manifest.id();
        match request {
            TourRequest::Arrive { round_id }
            | TourRequest::Opened { round_id, .. }
            | TourRequest::Result { round_id, .. }
                if round_id != self.round_id =>
            {
                refuse(format!("this node serves round {round} of tournament {id}"))
            }
            TourRequest::Arrive { .. } => match self.desk.arrive(key, elapsed_ms) {
                Answer::Wait {
                    table,
                    players,
                    arrived,
                    show_up_left_ms,
                } => TourResponse::Wait {
                    table,
                    players: keys(&players),
                    arrived: keys(&arrived),
                    show_up_left_ms,
                },
                Answer::Host { table, seats } => TourResponse::Host {
                    table,
                    seats: keys(&seats),
                    nonce: table_nonce(&id, round, table),
                },
                Answer::Join {
                    table,
                    seats,
                    ticket,
                } => TourResponse::Join {
                    table,
                    seats: keys(&seats),
                    nonce: table_nonce(&id, round, table),
                    ticket,
                },
                Answer::Opening { table } => TourResponse::Opening { table },
                Answer::Forfeited { table, reason } => TourResponse::Forfeited { table, reason },
                Answer::Done { table } => TourResponse::Done { table },
                Answer::Bye => TourResponse::Bye,
                Answer::NotPaired => refuse(format!(
                    "you are not paired in round {round} (withdrawn: no seed share opened)"
                )),
            },
            TourRequest::Opened { table, ticket, .. } => {
                match self.desk.opened(key, table, ticket) {
                    Ok(()) => {
                        let _ = writeln!(
                            crate::output::stdout(),
                            "table {table}: {} opened its lobby",
                            self.name(&key)
                        );
                        TourResponse::Ok
                    }
                    Err(e) => refuse(e.to_string()),
                }
            }
            TourRequest::Result {
                table, transcript, ..
            } => {
                if self.desk.is_table_over(table) {
                    return TourResponse::Done { table };
                }
                match self.take_game(key, table, &transcript) {
                    Ok(file) => {
                        let _ = writeln!(
                            crate::output::stdout(),
                            "table {table}: the game came back from {} ({file})",
                            self.name(&key)
                        );
                        TourResponse::Ok
                    }
                    Err(e) => {
                        let reason = crate::one_line(&e);
                        eprintln!(
                            "roundtable tournament host: table {table}: refused the game from {}: {}",
                            self.name(&key),
                            crate::output::printable(&reason)
                        );
                        refuse(reason)
                    }
                }
            }
        }
    }

    /// Check a table's transcript (this table's nonce, its seated players,
    /// an audit that ends the game or proves a cheat) and file it.
    fn take_game(&mut self, key: PublicKey, table: u32, bytes: &[u8]) -> Result<String> {
        let round = self.desk.round();
        let mut seats = self.desk.seats(table)?.to_vec();
        seats.sort();
        let file = format!("round-{round:02}-table-{table:02}.rts");
        let incoming = self.dir.join(format!(
            ".incoming-{round:02}-{table:02}-{}.part",
            hex::encode(&key.0[..4])
        ));
        std::fs::write(&incoming, bytes).with_context(|| format!("{}", incoming.display()))?;
        let checked = crate::tournament::audit_one(&incoming, file.clone())
            .map_err(|r| anyhow::anyhow!("{}", r.reason))
            .and_then(|game| {
                if game.nonce != table_nonce(&self.manifest.id(), round, table) {
                    bail!("its genesis nonce is not round {round} table {table}'s");
                }
                if game.seats != seats {
                    bail!("it does not seat the table's players");
                }
                Ok(())
            });
        if let Err(e) = checked {
            let _ = std::fs::remove_file(&incoming);
            return Err(e);
        }
        let target = self.dir.join(&file);
        if target.exists() {
            let _ = std::fs::remove_file(&incoming);
            bail!("{} is in the folder already", target.display());
        }
        std::fs::rename(&incoming, &target).with_context(|| format!("{}", target.display()))?;
        self.desk.finished(table)?;
        Ok(file)
    }

    fn report(&self) -> Result<()> {
        let mut out = crate::output::stdout();
        writeln!(out, "round {} is over", self.desk.round())?;
        for end in self.desk.ends() {
            let line = match (end.played, end.no_shows.is_empty()) {
                (false, _) => "no game (fewer than two players came in time)".to_owned(),
                (true, true) => "played".to_owned(),
                (true, false) => format!(
                    "played; lost by forfeit (not there in time): {}",
                    end.no_shows
                        .iter()
                        .map(|k| self.name(k))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            writeln!(out, "table {}: {line}", end.table)?;
        }
        writeln!(
            out,
            "next: roundtable tournament standings MANIFEST {}",
            self.dir.display()
        )?;
        Ok(())
    }
}

fn elapsed_ms(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// A player's link to the tournament node.
struct Client {
    swarm: Swarm<Behaviour>,
    node: PeerId,
    addrs: Vec<Multiaddr>,
}

impl Client {
    /// Ask the node, retrying while it cannot be reached (up to
    /// [`NODE_GIVE_UP`]).
    async fn ask(&mut self, request: TourRequest) -> Result<TourResponse> {
        let since = Instant::now();
        loop {
            match self.ask_once(request.clone()).await {
                Ok(response) => return Ok(response),
                Err(e) if since.elapsed() > NODE_GIVE_UP => {
                    bail!(
                        "the tournament node did not answer for {} s: {e}",
                        NODE_GIVE_UP.as_secs()
                    )
                }
                Err(_) => tokio::time::sleep(ASK_EVERY).await,
            }
        }
    }

    async fn ask_once(&mut self, request: TourRequest) -> Result<TourResponse> {
        for addr in &self.addrs {
            self.swarm.add_peer_address(self.node, addr.clone());
        }
        let id: OutboundRequestId = self
            .swarm
            .behaviour_mut()
            .send_request(&self.node, Ok(request));
        loop {
            match self.swarm.select_next_some().await {
                SwarmEvent::Behaviour(request_response::Event::Message {
                    message:
                        request_response::Message::Response {
                            request_id,
                            response,
                        },
                    ..
                }) if request_id == id => return Ok(response),
                SwarmEvent::Behaviour(request_response::Event::OutboundFailure {
                    request_id,
                    error,
                    ..
                }) if request_id == id => bail!("{error}"),
                _ => {}
            }
        }
    }
}

/// `roundtable tournament play`.
pub(crate) fn play(args: &PlayArgs) -> crate::Outcome {
    let manifest = crate::tournament::read_manifest(&args.manifest)?;
    let id = manifest.id();
    let ticket = Ticket::decode(&args.ticket).context("the tournament node's ticket")?;
    if ticket.game != TICKET_GAME {
        return Err(anyhow::anyhow!(
            "the ticket is a table's ({:?}), not a tournament node's: play it with roundtable join",
            ticket.game
        )
        .into());
    }
    let Some(round) = (1..=manifest.rounds()).find(|r| round_id(&id, *r) == ticket.lobby.0) else {
        return Err(anyhow::anyhow!("the ticket is for no round of tournament {id}").into());
    };
    let node = ticket
        .host_peer()
        .ok_or_else(|| anyhow::anyhow!("the ticket's node key is not valid"))?;
    args.bots.check_for_network(&[args.bots.bot])?;
    let data = args.net.data_dir();
    let identity = data.identity()?;
    let key = identity.public();
    let Some(name) = manifest.name_of(&key).map(str::to_owned) else {
        return Err(anyhow::anyhow!(
            "this key ({}) is not registered in tournament {id} (another --data-dir?)",
            roundtable_table::hex(&key.0)
        )
        .into());
    };
    let game = crate::tournament::listed_game(&manifest.terms.game)?;
    let code = game.visit(PlayRound {
        args,
        manifest: &manifest,
        round,
        name,
        identity: &identity,
        node,
        addrs: &ticket.addrs,
    })?;
    Ok(code)
}

/// `play` for the tournament's game.
struct PlayRound<'a> {
    args: &'a PlayArgs,
    manifest: &'a Manifest,
    round: u32,
    name: String,
    identity: &'a Identity,
    node: PeerId,
    addrs: &'a [Multiaddr],
}

impl Visit for PlayRound<'_> {
    type Output = Result<ExitCode>;

    fn visit<G: Listed>(self) -> Result<ExitCode> {
        let options = crate::tournament::decode_options::<G>(&self.manifest.terms.options)?;
        let player = Player::<G> {
            args: self.args,
            manifest: self.manifest,
            round: self.round,
            name: self.name,
            options,
        };
        runtime()?.block_on(async {
            let client = Client {
                swarm: build_swarm(self.identity)?,
                node: self.node,
                addrs: self.addrs.to_vec(),
            };
            player.run(client).await
        })
    }
}

/// One player's round of a tournament of game `G`.
struct Player<'a, G: Listed> {
    args: &'a PlayArgs,
    manifest: &'a Manifest,
    round: u32,
    name: String,
    options: G::Options,
}

impl<G: Listed> Player<'_, G> {
    fn names(&self, list: &[[u8; 32]]) -> String {
        list.iter()
            .map(|k| crate::output::printable(self.manifest.name_of(&PublicKey(*k)).unwrap_or("?")))
            .collect::<Vec<_>>()
            .join(", ")
    }

    async fn run(&self, mut client: Client) -> Result<ExitCode> {
        let id = self.manifest.id();
        let rid = round_id(&id, self.round);
        let mut out = crate::output::stdout();
        writeln!(
            out,
            "tournament {id} ({}), round {}: {} arrives",
            crate::output::printable(&self.manifest.terms.name),
            self.round,
            crate::output::printable(&self.name)
        )?;
        let mut shown_arrived = None;
        loop {
            match client.ask(TourRequest::Arrive { round_id: rid }).await? {
                TourResponse::Wait {
                    table,
                    players,
                    arrived,
                    show_up_left_ms,
                } => {
                    if shown_arrived != Some(arrived.len()) {
                        if shown_arrived.is_none() {
                            writeln!(out, "table {table}: {}", self.names(&players))?;
                        }
                        shown_arrived = Some(arrived.len());
                        writeln!(
                            out,
                            "waiting at table {table}: {} of {} here ({} s to the show-up time)",
                            arrived.len(),
                            players.len(),
                            show_up_left_ms.div_ceil(1000)
                        )?;
                    }
                }
                TourResponse::Opening { .. } => {}
                TourResponse::Host {
                    table,
                    seats,
                    nonce,
                } => {
                    self.check_nonce(table, nonce)?;
                    writeln!(
                        out,
                        "table {table} opens with {}: you host it",
                        self.names(&seats)
                    )?;
                    let role = Role::Host {
                        seats: u8::try_from(seats.len()).context("too many seats")?,
                        options: self.options.clone(),
                        stall_timeout_ms: self.manifest.terms.stall_timeout_ms,
                    };
                    return self
                        .play_table(&mut client, table, nonce, &seats, role)
                        .await;
                }
                TourResponse::Join {
                    table,
                    seats,
                    nonce,
                    ticket,
                } => {
                    self.check_nonce(table, nonce)?;
                    writeln!(out, "table {table} opens with {}", self.names(&seats))?;
                    let ticket = Ticket::decode(&ticket).context("the table's ticket")?;
                    return self
                        .play_table(&mut client, table, nonce, &seats, Role::Join { ticket })
                        .await;
                }
                TourResponse::Forfeited { table, reason } => {
                    writeln!(out, "table {table}: {}", crate::output::printable(&reason))?;
                    return Ok(ExitCode::FAILURE);
                }
                TourResponse::Done { table } => {
                    writeln!(out, "table {table}: its game is in already")?;
                    return Ok(ExitCode::SUCCESS);
                }
                TourResponse::Bye => {
                    writeln!(out, "you sit round {} out", self.round)?;
                    return Ok(ExitCode::SUCCESS);
                }
                TourResponse::Refused { reason } => {
                    bail!(
                        "the tournament node refuses: {}",
                        crate::output::printable(&reason)
                    )
                }
                TourResponse::Ok => bail!("the tournament node answered out of turn"),
            }
            tokio::time::sleep(ASK_EVERY).await;
        }
    }

    /// The nonce comes from the node, but the player computes its own: a
    /// node cannot make it play a game bound to another table.
    fn check_nonce(&self, table: u32, nonce: [u8; 32]) -> Result<()> {
        if nonce != table_nonce(&self.manifest.id(), self.round, table) {
            bail!(
                "the tournament node gave table {table} a genesis nonce that is not round {} table {table}'s",
                self.round
            );
        }
        Ok(())
    }

    /// Play the table's game as an ordinary networked seat (a bot plays),
    /// then give the transcript back to the node.
    async fn play_table(
        &self,
        client: &mut Client,
        table: u32,
        nonce: [u8; 32],
        seats: &[[u8; 32]],
        role: Role<G>,
    ) -> Result<ExitCode> {
        let rid = round_id(&self.manifest.id(), self.round);
        let data = self.args.net.data_dir();
        let mut config = self.args.net.config(data, &self.name);
        // The lobby seats only the table's players and plays only the
        // table's game.
        config.genesis_nonce = Some(nonce);
        config.seat_keys = Some(seats.iter().copied().map(PublicKey).collect());
        let seed = self
            .args
            .bots
            .bot_seed
            .unwrap_or_else(crate::net_cmd::fresh_seed);
        let bot = self.args.bots.bot.make::<G>(self.args.bots.think(), seed);
        let hosting = matches!(role, Role::Host { .. });
        let mut handle = spawn::<G>(config, role, Controller::Bot(bot))?;
        let mut printer = Printer::plain(self.args.net.verbose);
        let mut told = false;
        while let Some(event) = handle.next_event().await {
            if let NetEvent::Ticket(ticket) = &event {
                // The node hands the lobby's ticket to the table's others.
                if hosting && !told {
                    told = true;
                    let request = TourRequest::Opened {
                        round_id: rid,
                        table,
                        ticket: ticket.encode(),
                    };
                    if let TourResponse::Refused { reason } = client.ask(request).await? {
                        bail!(
                            "the tournament node refuses the lobby: {}",
                            crate::output::printable(&reason)
                        );
                    }
                }
                continue;
            }
            printer.print(&event, &mut crate::output::stdout())?;
        }
        let outcome = handle.outcome().await?;
        let code = exit_code(&outcome);
        let Some(path) = &outcome.transcript else {
            bail!("table {table}'s game never started");
        };
        let transcript =
            std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        let request = TourRequest::Result {
            round_id: rid,
            table,
            transcript,
        };
        let mut out = crate::output::stdout();
        let answer = match client.ask(request).await {
            Ok(answer) => answer,
            // The game is over and its file is here: a node that stopped
            // (its round over, another seat's copy in) costs nothing but
            // this line.
            Err(e) => {
                eprintln!(
                    "roundtable tournament play: the transcript did not reach the tournament node ({}); it is {}",
                    crate::one_line(&e),
                    path.display()
                );
                return Ok(code);
            }
        };
        match answer {
            TourResponse::Ok => writeln!(out, "the transcript is with the tournament node")?,
            TourResponse::Done { .. } => writeln!(
                out,
                "the tournament node has this table's game already (from another seat)"
            )?,
            TourResponse::Refused { reason } => {
                bail!(
                    "the tournament node refuses the transcript: {}",
                    crate::output::printable(&reason)
                )
            }
            _ => bail!("the tournament node answered out of turn"),
        }
        Ok(code)
    }
}
