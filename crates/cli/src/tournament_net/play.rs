//! `roundtable tournament play`: a player's side of a round (SPEC 6.2).
//!
//! The player connects to the tournament node with its ticket, is told its
//! table and opponents, and waits until the table opens; then it plays the
//! table's game as an ordinary networked seat (the host of the table opens
//! its lobby, the others join it) and gives the transcript back to the
//! node. A bot plays the seat with `--bot`; without it, the person at the
//! keyboard plays it in the terminal UI every `host`/`join` uses
//! ([`crate::net_session::NetSession`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use libp2p::{Multiaddr, PeerId, Swarm};
use roundtable_bots::Bot;
use roundtable_net::tournament::{PlayerBehaviour, player_swarm};
use roundtable_net::{Controller, NetEvent, Phase, Role, Ticket, spawn};
use roundtable_table::{Identity, PublicKey};
use roundtable_tournament::{Manifest, TourRequest, TourResponse, round_id, table_nonce};
use roundtable_tui::{GameScreen, VisitScreen};

use super::{ASK_EVERY, NODE_GIVE_UP, REPORT_EVERY, TICKET_GAME};
use crate::bot_choice::{BotArgs, BotKind, MAX_THINK_MS};
use crate::net_cmd::{NetArgs, Printer, exit_code, runtime};
use crate::net_session::NetSession;

/// Options of `roundtable tournament play`. The name at the table is the
/// one the player registered with (`--name` is not used).
#[derive(Debug, clap::Args)]
pub(crate) struct PlayArgs {
    /// The signed manifest.
    manifest: PathBuf,
    /// The tournament node's ticket (`rt1_...`, printed by `tournament host`).
    ticket: String,
    /// Let a bot play your table and print the game's log (`normal` is
    /// `heuristic`, `hard` is `search`); without it you play your table in
    /// the terminal UI.
    #[arg(long, value_enum, value_name = "LEVEL")]
    bot: Option<BotKind>,
    /// Seed of the bot's random choices (default: a fresh one).
    #[arg(long, requires = "bot")]
    bot_seed: Option<u64>,
    /// Milliseconds a search bot thinks at most on one decision (1 to
    /// 60000; each answer at most a quarter of the time left before the
    /// table may claim the seat stalled).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=MAX_THINK_MS))]
    think_ms: u64,
    #[command(flatten)]
    net: NetArgs,
}

/// A player's link to the tournament node.
struct Client {
    swarm: Swarm<PlayerBehaviour>,
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
        roundtable_net::tournament::ask(&mut self.swarm, self.node, request)
            .await
            .map_err(|error| anyhow::anyhow!("{error}"))
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
    let data = args.net.data_dir();
    let identity = data.identity()?;
    let key = identity.public();
    let Some(name) = manifest.name_of(&key).map(str::to_owned) else {
        return Err(anyhow::anyhow!(
            "this key ({}) is not registered in tournament {id} (another --data-dir?)",
            hex::encode(key.0)
        )
        .into());
    };
    if args.bot.is_none() && !crate::output::has_terminal() {
        return Err(anyhow::anyhow!(
            "the terminal UI needs a terminal; use --bot LEVEL to let a bot play your table"
        )
        .into());
    }
    let game = crate::tournament::listed_game(&manifest.terms.game)?;
    let code = roundtable_tui::games::visit(
        game,
        PlayRound {
            args,
            manifest: &manifest,
            round,
            name,
            identity: &identity,
            node,
            addrs: &ticket.addrs,
        },
    )?;
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

impl PlayRound<'_> {
    fn client(&self) -> Result<Client> {
        Ok(Client {
            swarm: player_swarm(self.identity)?,
            node: self.node,
            addrs: self.addrs.to_vec(),
        })
    }
}

impl VisitScreen for PlayRound<'_> {
    type Output = Result<ExitCode>;

    fn visit<G: GameScreen>(self) -> Result<ExitCode> {
        let options = crate::tournament::decode_options::<G>(&self.manifest.terms.options)?;
        let player = Player::<G> {
            args: self.args,
            manifest: self.manifest,
            round: self.round,
            name: self.name.clone(),
            options,
        };
        let rt = runtime()?;
        let (client, seated) = rt.block_on(async {
            let mut client = self.client()?;
            let seated = player.seat(&mut client).await?;
            anyhow::Ok((client, seated))
        })?;
        let table = match seated {
            Seated::Over(code) => return Ok(code),
            Seated::At(table) => table,
        };
        match self.args.bot {
            Some(kind) => {
                let bots = BotArgs {
                    bot: kind,
                    bot_seed: self.args.bot_seed,
                    think_ms: self.args.think_ms,
                };
                let seed = bots.bot_seed.unwrap_or_else(roundtable_local::fresh_seed);
                let bot = kind.make::<G>(bots.think(), seed);
                let mut client = client;
                rt.block_on(player.play_table(&mut client, table, bot))
            }
            None => {
                let copy = player.transcript_copy(&table)?;
                let number = table.number;
                let (screen, delivered) = player.play_in_terminal(rt, client, table, &copy)?;
                let delivery = match delivered.take() {
                    Some(delivery) => delivery?,
                    None => {
                        // The screen closed before the game was handed in
                        // (or before it ended): a fresh runtime and a fresh
                        // link to the node take it back if it ended.
                        let Ok(transcript) = std::fs::read(&copy) else {
                            eprintln!(
                                "roundtable tournament play: table {number}'s game did not end here: nothing went to the tournament node"
                            );
                            return Ok(ExitCode::FAILURE);
                        };
                        runtime()?.block_on(async {
                            let mut client = self.client()?;
                            let rid = round_id(&self.manifest.id(), self.round);
                            give_back(&mut client, rid, number, transcript).await
                        })?
                    }
                };
                delivery.tell(&copy)?;
                Ok(screen)
            }
        }
    }
}

/// The delivery of a table's game made while the screen was open, for
/// after it closed.
#[derive(Clone, Default)]
struct Delivered(Arc<Mutex<Option<Result<Delivery, String>>>>);

impl Delivered {
    fn put(&self, delivery: Result<Delivery>) {
        if let Ok(mut slot) = self.0.lock() {
            *slot = Some(delivery.map_err(|e| crate::one_line(&e)));
        }
    }

    fn take(&self) -> Option<Result<Delivery>> {
        let taken = self.0.lock().ok()?.take()?;
        Some(taken.map_err(|e| anyhow::anyhow!(e)))
    }
}

/// The table a player sits at, once it opens.
struct OpenTable<G: GameScreen> {
    number: u32,
    nonce: [u8; 32],
    seats: Vec<[u8; 32]>,
    role: Role<G>,
}

/// Where a player's arrival ends.
enum Seated<G: GameScreen> {
    /// At its table, which opens.
    At(OpenTable<G>),
    /// Nowhere: the round is over for it (a bye, a forfeit, a table done).
    Over(ExitCode),
}

/// One player's round of a tournament of game `G`.
struct Player<'a, G: GameScreen> {
    args: &'a PlayArgs,
    manifest: &'a Manifest,
    round: u32,
    name: String,
    options: G::Options,
}

impl<G: GameScreen> Player<'_, G> {
    fn names(&self, list: &[[u8; 32]]) -> String {
        list.iter()
            .map(|k| crate::output::printable(self.manifest.name_of(&PublicKey(*k)).unwrap_or("?")))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Arrive at the node and wait for the table to open: the player is
    /// told its table and opponents first.
    async fn seat(&self, client: &mut Client) -> Result<Seated<G>> {
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
                    return Ok(Seated::At(OpenTable {
                        number: table,
                        nonce,
                        seats,
                        role,
                    }));
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
                    return Ok(Seated::At(OpenTable {
                        number: table,
                        nonce,
                        seats,
                        role: Role::Join { ticket },
                    }));
                }
                TourResponse::Forfeited { table, reason } => {
                    writeln!(out, "table {table}: {}", crate::output::printable(&reason))?;
                    return Ok(Seated::Over(ExitCode::FAILURE));
                }
                TourResponse::Done { table } => {
                    writeln!(out, "table {table}: its game is in already")?;
                    return Ok(Seated::Over(ExitCode::SUCCESS));
                }
                TourResponse::GaveUp { table } => {
                    writeln!(
                        out,
                        "table {table}: the tournament node gave up on its game (it stood still too long): no result"
                    )?;
                    return Ok(Seated::Over(ExitCode::FAILURE));
                }
                TourResponse::Bye => {
                    writeln!(out, "you sit round {} out", self.round)?;
                    return Ok(Seated::Over(ExitCode::SUCCESS));
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

    /// The node's configuration for the table: its lobby seats only the
    /// table's players and plays only the table's game.
    fn table_config(&self, table: &OpenTable<G>) -> roundtable_net::NodeConfig {
        let data = self.args.net.data_dir();
        let mut config = self.args.net.config(data, &self.name);
        config.genesis_nonce = Some(table.nonce);
        config.seat_keys = Some(table.seats.iter().copied().map(PublicKey).collect());
        config
    }

    /// Tell the node the lobby's ticket, so that it hands it to the
    /// table's others.
    async fn tell_lobby(&self, client: &mut Client, table: u32, ticket: &Ticket) -> Result<()> {
        let request = TourRequest::Opened {
            round_id: round_id(&self.manifest.id(), self.round),
            table,
            ticket: ticket.encode(),
        };
        if let TourResponse::Refused { reason } = client.ask(request).await? {
            bail!(
                "the tournament node refuses the lobby: {}",
                crate::output::printable(&reason)
            );
        }
        Ok(())
    }

    /// Play the table's game as an ordinary networked seat with `bot`,
    /// then give the transcript back to the node.
    async fn play_table(
        &self,
        client: &mut Client,
        table: OpenTable<G>,
        bot: Box<dyn Bot<G>>,
    ) -> Result<ExitCode> {
        let config = self.table_config(&table);
        let hosting = matches!(table.role, Role::Host { .. });
        let mut handle = spawn::<G>(config, table.role, Controller::Bot(bot))?;
        let mut printer = Printer::plain(self.args.net.verbose);
        let mut told = false;
        let rid = round_id(&self.manifest.id(), self.round);
        let mut delivered: Option<(Delivery, PathBuf)> = None;
        let mut report = tokio::time::interval(REPORT_EVERY);
        loop {
            let event = tokio::select! {
                event = handle.next_event() => event,
                _ = report.tick() => {
                    let position = handle.snapshot().position;
                    report_position(client, rid, table.number, position).await;
                    continue;
                }
            };
            let Some(event) = event else { break };
            if let NetEvent::Ticket(ticket) = &event {
                if hosting && !told {
                    told = true;
                    self.tell_lobby(client, table.number, ticket).await?;
                }
                continue;
            }
            printer.print(&event, &mut crate::output::stdout())?;
            // The game goes back as soon as it ends, while the table's node
            // lingers for its peers: the tournament node may end the round
            // (and stop) as soon as it has every table's game.
            if let (NetEvent::Finished { transcript, .. }, None) = (&event, &delivered) {
                let bytes = std::fs::read(transcript)
                    .with_context(|| format!("reading {}", transcript.display()))?;
                let delivery = give_back(client, rid, table.number, bytes).await?;
                delivered = Some((delivery, transcript.clone()));
            }
        }
        let outcome = handle.outcome().await?;
        let code = exit_code(&outcome);
        if let Some((delivery, path)) = delivered {
            delivery.tell(&path)?;
            return Ok(code);
        }
        let Some(path) = &outcome.transcript else {
            bail!("table {}'s game never started", table.number);
        };
        let transcript =
            std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        give_back(client, rid, table.number, transcript)
            .await?
            .tell(path)?;
        Ok(code)
    }

    /// Where the terminal UI's node writes the table's finished game for
    /// the node: in the player's data folder, named by the tournament, the
    /// round and the table.
    fn transcript_copy(&self, table: &OpenTable<G>) -> Result<PathBuf> {
        let folder = self.args.net.data_dir().root().join("tournaments");
        std::fs::create_dir_all(&folder).with_context(|| format!("{}", folder.display()))?;
        let id = self.manifest.id().to_string();
        let path = folder.join(format!(
            "{}-round-{:02}-table-{:02}.rts",
            &id[..id.len().min(16)],
            self.round,
            table.number
        ));
        // A file of an earlier attempt at this table is not this game.
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(e).with_context(|| format!("{}", path.display()))
            }
            _ => Ok(path),
        }
    }

    /// Play the table's game in the terminal UI (the screen of `host` and
    /// `join`: its lobby is titled with the tournament, the round, the
    /// table and its players); the node writes the finished game to `copy`,
    /// and it goes back to the tournament node as soon as it is there,
    /// while the screen still shows the result. The screen's exit code, and
    /// what became of the game if it went back.
    fn play_in_terminal(
        &self,
        rt: tokio::runtime::Runtime,
        mut client: Client,
        table: OpenTable<G>,
        copy: &Path,
    ) -> Result<(ExitCode, Delivered)> {
        let mut config = self.table_config(&table);
        config.transcript_copy = Some(copy.to_owned());
        let hosting = matches!(table.role, Role::Host { .. });
        let mut handle = {
            let _inside = rt.enter();
            spawn::<G>(config, table.role, Controller::Handle)?
        };
        // A host's lobby ticket goes to the node before the screen opens:
        // the table's others wait for it.
        if hosting {
            let Some(ticket) = rt.block_on(handle.first_ticket()) else {
                bail!(
                    "table {}'s lobby stopped before it had a ticket",
                    table.number
                );
            };
            rt.block_on(self.tell_lobby(&mut client, table.number, &ticket))?;
        }
        let title = format!(
            "{} ({}), round {}, table {}: {}",
            crate::output::printable(&self.manifest.terms.name),
            G::TITLE,
            self.round,
            table.number,
            self.names(&table.seats)
        );
        let seats = u8::try_from(table.seats.len()).context("too many seats")?;
        let delivered = Delivered::default();
        let mut watch = handle.watch();
        // The lobby's ticket is the tournament node's to hand out: the
        // screen does not ask the player to pass it on.
        let session = NetSession::new(handle, title, None, seats)?;
        let (rid, number, copy, courier) = (
            round_id(&self.manifest.id(), self.round),
            table.number,
            copy.to_owned(),
            delivered.clone(),
        );
        rt.spawn(async move {
            // Tell the node how far the game has gone until it ends, then
            // give it back; the watch ends with the node.
            let mut report = tokio::time::interval(REPORT_EVERY);
            loop {
                let (finished, position) = {
                    let snapshot = watch.borrow_and_update();
                    (snapshot.phase == Phase::Finished, snapshot.position)
                };
                if finished && let Ok(bytes) = std::fs::read(&copy) {
                    courier.put(give_back(&mut client, rid, number, bytes).await);
                    return;
                }
                tokio::select! {
                    changed = watch.changed() => if changed.is_err() {
                        return;
                    },
                    _ = report.tick() => report_position(&mut client, rid, number, position).await,
                }
            }
        });
        let code = crate::net_cmd::tui(rt, session)?;
        Ok((code, delivered))
    }
}

/// Tell the node serving round `round_id` that table `table`'s game has
/// applied `position` inputs. A report that does not get through in time is
/// dropped: the next one says the same or more.
async fn report_position(client: &mut Client, round_id: [u8; 32], table: u32, position: u64) {
    let request = TourRequest::Playing {
        round_id,
        table,
        position,
    };
    let _ = tokio::time::timeout(REPORT_EVERY, client.ask_once(request)).await;
}

/// Give table `table`'s finished game (`transcript`, the file's bytes)
/// back to the node serving round `round_id`. A node that refuses it is an
/// error; one that cannot be reached is not (the game is over and its file
/// is here).
async fn give_back(
    client: &mut Client,
    round_id: [u8; 32],
    table: u32,
    transcript: Vec<u8>,
) -> Result<Delivery> {
    let request = TourRequest::Result {
        round_id,
        table,
        transcript,
    };
    let answer = match client.ask(request).await {
        Ok(answer) => answer,
        Err(e) => return Ok(Delivery::Unreached(crate::one_line(&e))),
    };
    match answer {
        TourResponse::Ok => Ok(Delivery::Taken),
        TourResponse::Done { .. } => Ok(Delivery::HadIt),
        TourResponse::Refused { reason } => bail!(
            "the tournament node refuses the transcript: {}",
            crate::output::printable(&reason)
        ),
        _ => bail!("the tournament node answered out of turn"),
    }
}

/// What became of a transcript given back to the node.
#[derive(Clone, Debug)]
enum Delivery {
    /// The node filed it.
    Taken,
    /// The node has the table's game already (from another seat).
    HadIt,
    /// The node could not be reached (its round over, or gone): why.
    Unreached(String),
}

impl Delivery {
    /// Say what became of the transcript at `path`.
    fn tell(&self, path: &Path) -> Result<()> {
        let mut out = crate::output::stdout();
        match self {
            Delivery::Taken => writeln!(out, "the transcript is with the tournament node")?,
            Delivery::HadIt => writeln!(
                out,
                "the tournament node has this table's game already (from another seat)"
            )?,
            // A node that stopped (its round over, another seat's copy in)
            // costs nothing but this line.
            Delivery::Unreached(why) => eprintln!(
                "roundtable tournament play: the transcript did not reach the tournament node ({why}); it is {}",
                path.display()
            ),
        }
        Ok(())
    }
}
