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
use libp2p::{Multiaddr, PeerId, multiaddr::Protocol};
use roundtable_net::Ticket;
use roundtable_net::identity::peer_id_of;
use roundtable_net::tournament::{NodeEvent, TourNode};
use roundtable_net::wire::LobbyId;
use roundtable_table::{CO_CLAIM_TIMEOUTS, Identity, PublicKey};
use roundtable_tournament::{
    Manifest, PRESENCE_MS, RoundDesk, TourRequest, TourResponse, give_up_ms, round_id, table_nonce,
};

mod play;

pub(crate) use play::{PlayArgs, play};

use crate::Failure;
use crate::net_cmd::{NetArgs, runtime};

/// The `game` of a tournament node's ticket.
pub(crate) const TICKET_GAME: &str = "tournament";
/// How often a player asks again while it waits.
const ASK_EVERY: Duration = Duration::from_millis(500);
/// A player gives up on a node it has not reached for this long.
const NODE_GIVE_UP: Duration = Duration::from_secs(60);
/// How often a seated player tells the node how far its table's game has
/// gone: well within the presence time, so a live table is never taken for
/// a still one.
const REPORT_EVERY: Duration = Duration::from_secs(2);

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
        let mut node = TourNode::new(identity, self.peers.keys().copied())?;
        for addr in listen {
            node.listen_on(addr)?;
        }
        let me = node.peer_id();
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
                        let best_first =
                            roundtable_net::ticket::reachable_first(me, addrs.iter().cloned());
                        self.tell_ticket(identity, &best_first, ticket_file)?;
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
                event = node.next_event() => match event {
                    NodeEvent::Listening(address) => {
                        if !address.iter().any(|p| matches!(p, Protocol::P2p(_))) {
                            addrs.push(address.with(Protocol::P2p(me)));
                        }
                        ticket_due.get_or_insert(Instant::now() + Duration::from_millis(300));
                    }
                    NodeEvent::Request { player, request, channel } => {
                        let answer = self.answer(player, request, elapsed_ms(opened));
                        node.respond(channel, answer);
                    }
                    NodeEvent::Note(line) => eprintln!(
                        "roundtable tournament host: {}",
                        crate::output::printable(&line)
                    ),
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
        };
        let warning = ticket.reach_warning();
        let ticket = ticket.encode();
        let mut out = crate::output::stdout();
        writeln!(out, "ticket: {ticket}")?;
        writeln!(
            out,
            "players play with: roundtable tournament play MANIFEST {ticket} (add --bot LEVEL to let a bot play)"
        )?;
        for line in warning.into_iter().flatten() {
            writeln!(out, "{line}")?;
        }
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
        if request.round_id() != self.round_id {
            return refuse(format!("this node serves round {round} of tournament {id}"));
        }
        match request {
            TourRequest::Arrive { .. } => {
                TourResponse::answer(self.desk.arrive(key, elapsed_ms), &id, round)
            }
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
