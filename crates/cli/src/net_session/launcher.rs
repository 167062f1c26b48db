//! The start menu's network entries: [`NetLauncher`] starts the same
//! roles, controllers and in-process bots as `roundtable host | join |
//! watch`.

use std::time::Duration;

use roundtable_games::GameId;
use roundtable_net::{
    Controller, DataDir, GameHandle, NetEvent, NodeConfig, Role, Ticket, default_listen, spawn,
};
use roundtable_tui::{FoundTable, GameScreen, HostConfig, Launched, Launcher, VisitScreen};

use super::{NetSession, NodeEnd, shut_down, start_quiet_bots};

/// How long hosting waits for the node to listen and make its ticket.
const TICKET_WAIT: Duration = Duration::from_secs(15);

/// How long "Tables on this LAN" listens for announcements.
const DISCOVERY_WAIT: Duration = Duration::from_secs(3);

/// The start menu's network entries, over the network crate: the same
/// roles, controllers and in-process bots as `roundtable host | join |
/// watch`, on a runtime that lives as long as the menu.
pub(crate) struct NetLauncher {
    /// `None` only while dropping.
    rt: Option<tokio::runtime::Runtime>,
    data: DataDir,
    reach: Reach,
    /// The nodes of the sessions started so far that may still run.
    ends: Vec<NodeEnd>,
}

/// How the menu's peers make themselves reachable (the top-level
/// `--relay` and `--no-listen`, as `host --relay --no-listen`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Reach {
    /// Relay servers to reserve a slot on.
    pub(crate) relays: Vec<roundtable_net::Multiaddr>,
    /// Tell nobody a direct address: reachable through the relays only.
    pub(crate) no_listen: bool,
}

impl NetLauncher {
    /// A launcher keeping keys and transcripts in `data`.
    pub(crate) fn new(data: DataDir, reach: Reach) -> anyhow::Result<Self> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()?;
        Ok(NetLauncher {
            rt: Some(rt),
            data,
            reach,
            ends: Vec::new(),
        })
    }

    fn rt(&self) -> Result<&tokio::runtime::Runtime, String> {
        self.rt
            .as_ref()
            .ok_or_else(|| "the network runtime has stopped".to_owned())
    }

    fn start<G: GameScreen>(
        &self,
        data: DataDir,
        name: &str,
        role: Role<G>,
        controller: Controller<G>,
    ) -> Result<GameHandle<G>, String> {
        let _inside = self.rt()?.enter();
        spawn::<G>(self.config(data, name), role, controller).map_err(|e| e.to_string())
    }

    fn config(&self, data: DataDir, name: &str) -> NodeConfig {
        let mut config = NodeConfig::new(data, name);
        config.relays = self.reach.relays.clone();
        if self.reach.no_listen {
            config.reachable_only_through_relays();
        }
        config.upnp = !self.reach.no_listen;
        config
    }

    /// Hand a new session to the menu, remembering its nodes so that
    /// quitting lets them stop properly.
    fn launched<G: GameScreen>(&mut self, session: NetSession<G>) -> Launched {
        self.ends.retain(|e| !e.is_stopped());
        self.ends.extend(session.node_ends());
        Launched::new(session)
    }

    /// The ticket in `text`, and the game of its table (one this program
    /// has, or a sentence saying it has not).
    fn ticket(text: &str) -> Result<(Ticket, GameId), String> {
        let ticket =
            Ticket::decode(text.trim()).map_err(|e| format!("That is not a ticket: {e}."))?;
        if ticket.game == crate::tournament_net::TICKET_GAME {
            return Err(format!(
                "That ticket is {}.",
                crate::net_cmd::TOURNAMENT_TICKET
            ));
        }
        let game = GameId::from_name(&ticket.game)
            .map_err(|e| format!("That table plays a game this program does not have: {e}."))?;
        Ok((ticket, game))
    }

    /// Open a table of game `G` as `config` says and take its first seat.
    fn host_game<G: GameScreen>(
        &mut self,
        config: &HostConfig,
        name: &str,
    ) -> Result<Launched, String> {
        let seats = config.table.seats;
        if config.bots >= seats {
            return Err(format!(
                "{} bots leave no seat for you at {seats} seats.",
                config.bots
            ));
        }
        let options = config.options::<G>();
        let mut handle = self.start::<G>(
            self.data.clone(),
            name,
            Role::Host {
                seats,
                options: options.clone(),
                stall_timeout_ms: 120_000,
            },
            Controller::Handle,
        )?;
        // The bots need the ticket, which comes as soon as the node listens.
        let rt = self.rt()?;
        let ticket = rt.block_on(async {
            tokio::time::timeout(TICKET_WAIT, async {
                while let Some(event) = handle.next_event().await {
                    if let NetEvent::Ticket(t) = event {
                        return Some(t);
                    }
                }
                None
            })
            .await
            .ok()
            .flatten()
        });
        let Some(ticket) = ticket else {
            handle.shutdown();
            return Err("The table did not start listening; nothing to invite others to.".into());
        };
        let bots = (1..=usize::from(config.bots))
            .map(|n| {
                // A hard bot's default think time is far under the table's
                // stall timeout (`MAX_NET_THINK_MS`).
                let bot = G::bot(
                    config.bot_level,
                    &options,
                    roundtable_bots::DEFAULT_THINK,
                    roundtable_local::fresh_seed().wrapping_add(n as u64),
                );
                (self.config(self.data.bot(n), &format!("bot {n}")), bot)
            })
            .collect();
        let join = || Role::Join {
            ticket: ticket.clone(),
        };
        let bots = match start_quiet_bots(rt, bots, &join) {
            Ok(bots) => bots,
            Err(e) => {
                handle.shutdown();
                return Err(e.to_string());
            }
        };
        let session = NetSession::new(
            handle,
            format!("Your {} table, {seats} seats", G::TITLE),
            Some(ticket),
            seats,
        )
        .map_err(|e| e.to_string())?
        .with_companions(bots);
        Ok(self.launched(session))
    }

    /// Take a seat at (or, `watching`, follow) the table `ticket` names,
    /// of game `G`.
    fn sit<G: GameScreen>(
        &mut self,
        ticket: Ticket,
        name: &str,
        watching: bool,
    ) -> Result<Launched, String> {
        let title = format!(
            "{} a {} table",
            if watching { "Watching" } else { "Joining" },
            G::TITLE
        );
        let role = if watching {
            Role::Watch { ticket }
        } else {
            Role::Join { ticket }
        };
        let handle = self.start::<G>(self.data.clone(), name, role, Controller::Handle)?;
        let mut session =
            NetSession::new(handle, title, None, G::MIN_SEATS).map_err(|e| e.to_string())?;
        if watching {
            session = session.spectating();
        }
        Ok(self.launched(session))
    }
}

impl Drop for NetLauncher {
    fn drop(&mut self) {
        // Sessions shut their nodes down as they drop; give the nodes a
        // moment to say goodbye to their peers, no more.
        if let Some(rt) = self.rt.take() {
            shut_down(rt, std::mem::take(&mut self.ends));
        }
    }
}

/// A network entry of the start menu for whichever game it names.
enum Entry<'a> {
    Host(&'a HostConfig),
    Join(Ticket),
    Watch(Ticket),
}

/// Runs an [`Entry`] on the launcher for the game's type.
struct Enter<'a> {
    launcher: &'a mut NetLauncher,
    entry: Entry<'a>,
    name: &'a str,
}

impl VisitScreen for Enter<'_> {
    type Output = Result<Launched, String>;

    fn visit<G: GameScreen>(self) -> Self::Output {
        match self.entry {
            Entry::Host(config) => self.launcher.host_game::<G>(config, self.name),
            Entry::Join(ticket) => self.launcher.sit::<G>(ticket, self.name, false),
            Entry::Watch(ticket) => self.launcher.sit::<G>(ticket, self.name, true),
        }
    }
}

impl Launcher for NetLauncher {
    fn host(&mut self, config: &HostConfig, name: &str) -> Result<Launched, String> {
        roundtable_tui::games::visit(
            config.table.game,
            Enter {
                launcher: self,
                entry: Entry::Host(config),
                name,
            },
        )
    }

    fn join(&mut self, ticket: &str, name: &str) -> Result<Launched, String> {
        let (ticket, game) = Self::ticket(ticket)?;
        roundtable_tui::games::visit(
            game,
            Enter {
                launcher: self,
                entry: Entry::Join(ticket),
                name,
            },
        )
    }

    fn watch(&mut self, ticket: &str, name: &str) -> Result<Launched, String> {
        let (ticket, game) = Self::ticket(ticket)?;
        roundtable_tui::games::visit(
            game,
            Enter {
                launcher: self,
                entry: Entry::Watch(ticket),
                name,
            },
        )
    }

    fn find_tables(&mut self) -> Result<Vec<FoundTable>, String> {
        let identity = self.data.identity().map_err(|e| e.to_string())?;
        let found = self
            .rt()?
            .block_on(roundtable_net::discover::discover_tables(
                &identity,
                default_listen(),
                Vec::new(),
                true,
                DISCOVERY_WAIT,
            ))
            .map_err(|e| e.to_string())?;
        Ok(found
            .into_iter()
            .map(|a| FoundTable {
                host: a.info.host_name.clone(),
                game: a.info.game.clone(),
                filled: a.filled,
                seats: a.info.seats,
                ticket: a.ticket,
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A ticket of `game`'s table at an address nobody answers.
    fn ticket_of(game: &str) -> String {
        Ticket {
            lobby: roundtable_net::LobbyId([6; 32]),
            game: game.into(),
            host: roundtable_table::Identity::from_secret([9; 32]).public(),
            addrs: vec!["/ip4/127.0.0.1/tcp/9".parse().expect("an address")],
        }
        .encode()
    }

    /// The join box given a tournament node's ticket says to use
    /// `tournament play` (it said no game is called "tournament"); a
    /// table's ticket still reads.
    #[test]
    fn the_join_box_sends_a_tournament_ticket_to_tournament_play() {
        let refused = match NetLauncher::ticket(&ticket_of("tournament")) {
            Err(refused) => refused,
            Ok((_, game)) => panic!("taken as a table of {game}"),
        };
        assert!(refused.contains("roundtable tournament play"), "{refused}");
        assert!(!refused.contains("no game is called"), "{refused}");
        let (_, game) = NetLauncher::ticket(&ticket_of("guildhall")).expect("a table's ticket");
        assert_eq!(game, GameId::Guildhall);
    }
}
