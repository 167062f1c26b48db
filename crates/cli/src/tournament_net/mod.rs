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
use libp2p::request_response::{self, ProtocolSupport};
use libp2p::swarm::SwarmEvent;
use libp2p::{Multiaddr, PeerId, StreamProtocol, Swarm, SwarmBuilder, multiaddr::Protocol};
use roundtable_net::Ticket;
use roundtable_net::identity::{keypair_of, peer_id_of};
use roundtable_net::wire::{Bounded, LobbyId, WireCodec};
use roundtable_table::{CO_CLAIM_TIMEOUTS, Identity, PublicKey};
use roundtable_tournament::{
    Answer, Manifest, PRESENCE_MS, RoundDesk, give_up_ms, round_id, table_nonce,
};
use serde::{Deserialize, Serialize};

mod play;

pub(crate) use play::{PlayArgs, play};

use crate::Failure;
use crate::net_cmd::{NetArgs, runtime};

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
/// How often a seated player tells the node how far its table's game has
/// gone: well within the presence time, so a live table is never taken for
/// a still one.
const REPORT_EVERY: Duration = Duration::from_secs(2);
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
    /// My table's game has applied this many inputs (sent every
    /// [`REPORT_EVERY`] while it plays).
    Playing {
        round_id: [u8; 32],
        table: u32,
        position: u64,
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
    GaveUp {
        table: u32,
    },
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
    let desk = RoundDesk::new(
        pairing,
        manifest.terms.show_up_ms,
        manifest.terms.stall_timeout_ms,
        &played,
    );
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
                        return Ok(self.given_up());
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
            "players play with: roundtable tournament play MANIFEST {ticket} (add --bot LEVEL to let a bot play)"
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
            | TourRequest::Playing { round_id, .. }
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
                Answer::GaveUp { table } => TourResponse::GaveUp { table },
                Answer::Bye => TourResponse::Bye,
                Answer::NotPaired => refuse(format!(
                    "you are not paired in round {round} (withdrawn: no seed share opened)"
                )),
            },
            TourRequest::Opened { table, ticket, .. } => {
                match self.desk.opened(key, table, ticket, elapsed_ms) {
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
            TourRequest::Playing {
                table, position, ..
            } => match self.desk.playing(key, table, position, elapsed_ms) {
                Ok(()) => TourResponse::Ok,
                Err(e) => refuse(e.to_string()),
            },
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

    /// The node's exit once the round is over: a failure, with one line
    /// naming them, if it gave up on tables (the games that came back are
    /// in the folder all the same).
    fn given_up(&self) -> ExitCode {
        let tables: Vec<String> = self
            .desk
            .ends()
            .iter()
            .filter(|end| end.given_up)
            .map(|end| end.table.to_string())
            .collect();
        if tables.is_empty() {
            return ExitCode::SUCCESS;
        }
        eprintln!(
            "roundtable tournament host: round {} ends without a result for table {}: \
             {} game stood still for {} s ({} stall timeouts and {} s); \
             the games that came back are in {}",
            self.desk.round(),
            tables.join(", table "),
            if tables.len() == 1 { "its" } else { "each" },
            give_up_ms(self.manifest.terms.stall_timeout_ms) / 1000,
            CO_CLAIM_TIMEOUTS + 1,
            PRESENCE_MS / 1000,
            self.dir.display()
        );
        ExitCode::FAILURE
    }

    fn report(&self) -> Result<()> {
        let mut out = crate::output::stdout();
        writeln!(out, "round {} is over", self.desk.round())?;
        for end in self.desk.ends() {
            let line = match (end.played, end.no_shows.is_empty()) {
                (false, _) if end.given_up => format!(
                    "no result (its game stood still for {} s)",
                    give_up_ms(self.manifest.terms.stall_timeout_ms) / 1000
                ),
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

/// Known answers for the messages of SPEC 6.2: every request and response
/// variant with fixed field values and its postcard bytes (the frame's body
/// of 4.3), in `protocol/vectors/tournament-wire.json`, so another
/// implementation can check its encoder and decoder against ours.
/// Regenerate with `REGENERATE_VECTORS=1 cargo test -p roundtable-cli
/// --bin roundtable tournament_net::vectors -- --test-threads 1`.
#[cfg(test)]
mod vectors {
    use super::{TourRequest, TourResponse};

    fn key(byte: u8) -> [u8; 32] {
        [byte; 32]
    }

    fn requests() -> Vec<(&'static str, TourRequest)> {
        let round_id = key(0xa1);
        vec![
            ("Arrive", TourRequest::Arrive { round_id }),
            (
                "Opened",
                TourRequest::Opened {
                    round_id,
                    table: 2,
                    ticket: "rt1_example".into(),
                },
            ),
            (
                "Result",
                TourRequest::Result {
                    round_id,
                    table: 300,
                    transcript: vec![0x52, 0x54, 0x53, 0x00, 0xff],
                },
            ),
            (
                "Playing",
                TourRequest::Playing {
                    round_id,
                    table: 1,
                    position: 70_000,
                },
            ),
        ]
    }

    fn responses() -> Vec<(&'static str, TourResponse)> {
        let seats = vec![key(0x01), key(0x02)];
        vec![
            (
                "Wait",
                TourResponse::Wait {
                    table: 3,
                    players: seats.clone(),
                    arrived: vec![key(0x02)],
                    show_up_left_ms: 299_500,
                },
            ),
            (
                "Host",
                TourResponse::Host {
                    table: 1,
                    seats: seats.clone(),
                    nonce: key(0xc3),
                },
            ),
            (
                "Join",
                TourResponse::Join {
                    table: 1,
                    seats,
                    nonce: key(0xc3),
                    ticket: "rt1_example".into(),
                },
            ),
            ("Opening", TourResponse::Opening { table: 4 }),
            (
                "Forfeited",
                TourResponse::Forfeited {
                    table: 2,
                    reason: "not here in time".into(),
                },
            ),
            ("Done", TourResponse::Done { table: 128 }),
            ("Bye", TourResponse::Bye),
            (
                "Refused",
                TourResponse::Refused {
                    reason: "not registered".into(),
                },
            ),
            ("Ok", TourResponse::Ok),
            ("GaveUp", TourResponse::GaveUp { table: 5 }),
        ]
    }

    fn cases<T: serde::Serialize>(list: &[(&str, T)]) -> Vec<serde_json::Value> {
        list.iter()
            .enumerate()
            .map(|(tag, (name, message))| {
                serde_json::json!({
                    "variant": name,
                    "tag": tag,
                    "fields": hexify(serde_json::to_value(message).expect("a message as JSON")),
                    "postcard": hex::encode(postcard::to_allocvec(message).expect("encodes")),
                })
            })
            .collect()
    }

    /// The fields for a reader: byte strings (keys, ids, nonces, a
    /// transcript) as hex rather than lists of numbers.
    fn hexify(value: serde_json::Value) -> serde_json::Value {
        use serde_json::Value;
        match value {
            Value::Array(items)
                if items.len() >= 4
                    && items.iter().all(|i| i.as_u64().is_some_and(|b| b < 256)) =>
            {
                let bytes: Vec<u8> = items
                    .iter()
                    .filter_map(|i| i.as_u64().and_then(|b| u8::try_from(b).ok()))
                    .collect();
                Value::String(hex::encode(bytes))
            }
            Value::Array(items) => Value::Array(items.into_iter().map(hexify).collect()),
            Value::Object(map) => {
                Value::Object(map.into_iter().map(|(k, v)| (k, hexify(v))).collect())
            }
            other => other,
        }
    }

    fn path() -> std::path::PathBuf {
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../protocol/vectors/tournament-wire.json")
    }

    #[test]
    fn tournament_messages_match_the_vectors_file() {
        let fresh = serde_json::to_string_pretty(&serde_json::json!({
            "requests": cases(&requests()),
            "responses": cases(&responses()),
        }))
        .expect("vectors as JSON")
            + "\n";
        if std::env::var_os("REGENERATE_VECTORS").is_some() {
            std::fs::write(path(), &fresh).expect("writes the vectors");
        }
        let stored = std::fs::read_to_string(path()).expect("the vectors file exists");
        assert_eq!(
            stored, fresh,
            "the tournament messages changed; see this module's docs to regenerate"
        );
    }

    /// Each stored encoding decodes to its variant (its tag is the first
    /// byte, as the list in SPEC 6.2 numbers it) and encodes back to the
    /// same bytes.
    #[test]
    fn every_stored_message_decodes_and_encodes_back() {
        let stored: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path()).expect("the vectors file"))
                .expect("JSON");
        for (list, is_request) in [("requests", true), ("responses", false)] {
            for case in stored[list].as_array().expect("a list") {
                let bytes = hex::decode(case["postcard"].as_str().expect("hex")).expect("hex");
                assert_eq!(u64::from(bytes[0]), case["tag"].as_u64().expect("tag"));
                let again = if is_request {
                    let m: TourRequest = postcard::from_bytes(&bytes).expect("decodes");
                    postcard::to_allocvec(&m)
                } else {
                    let m: TourResponse = postcard::from_bytes(&bytes).expect("decodes");
                    postcard::to_allocvec(&m)
                }
                .expect("encodes");
                assert_eq!(again, bytes, "{case}");
            }
        }
    }
}
