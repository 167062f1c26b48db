//! The network side of a tournament round (SPEC 6.2,
//! `/roundtable/tournament/1`): the node serving the messages of
//! [`roundtable_tournament::protocol`], and the player's link to it, over
//! the transports every roundtable peer uses ([`crate::swarm`]).
//!
//! The node answers the tournament's registered players and nobody else:
//! a connection from any other peer id is refused once its handshake names
//! it, before any request is read, so a stranger cannot make the node read
//! a request (up to [`MAX_REQUEST_BYTES`], since a request may carry a
//! transcript). The players are held to a table's peers' bounds: at most
//! [`MAX_ESTABLISHED_PER_PEER`] connections each and
//! [`MAX_PENDING_INCOMING`] handshakes at once, the request rate of SPEC
//! 4.3, and a strike for each request refused for its bytes or its rate,
//! [`BAN_STRIKES`] of which ban the player.

use std::time::{Duration, Instant};

use futures::StreamExt;
use libp2p::request_response::{self, OutboundFailure, ProtocolSupport, ResponseChannel};
use libp2p::swarm::SwarmEvent;
use libp2p::{Multiaddr, PeerId, StreamProtocol, Swarm, allow_block_list, connection_limits};
use roundtable_table::Identity;
use roundtable_tournament::protocol::{MAX_REQUEST_BYTES, MAX_RESPONSE_BYTES};
use roundtable_tournament::{TourRequest, TourResponse};

use crate::NetError;
use crate::identity::keypair_of;
use crate::node::{BAN_STRIKES, Guards};
use crate::swarm::{MAX_ESTABLISHED_PER_PEER, MAX_PENDING_INCOMING, build_with};
use crate::wire::{Bounded, WireCodec};

pub use derived::{NodeBehaviour, NodeBehaviourEvent, PlayerBehaviour, PlayerBehaviourEvent};

/// The protocol.
pub const TOURNAMENT_PROTOCOL: StreamProtocol =
    StreamProtocol::new(roundtable_tournament::TOURNAMENT_PROTOCOL);
/// A request not answered in this long failed (the node is gone).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// A player's connection to the node waits through its whole game.
const IDLE_CONNECTION_TIMEOUT: Duration = Duration::from_secs(3600);

/// The messages' codec: SPEC 4.3's framing, with SPEC 6.2's caps.
pub type TourCodec = WireCodec<TourRequest, TourResponse>;

impl Bounded for TourRequest {
    const KIND: &'static str = "tournament request";
    fn check(&self) -> Result<(), String> {
        TourRequest::check(self)
    }
}

impl Bounded for TourResponse {
    const KIND: &'static str = "tournament response";
    fn check(&self) -> Result<(), String> {
        TourResponse::check(self)
    }
}

fn protocol(support: ProtocolSupport) -> request_response::Behaviour<TourCodec> {
    request_response::Behaviour::with_codec(
        TourCodec::new(MAX_REQUEST_BYTES, MAX_RESPONSE_BYTES),
        [(TOURNAMENT_PROTOCOL, support)],
        request_response::Config::default().with_request_timeout(REQUEST_TIMEOUT),
    )
}

/// What the node hands its owner.
#[derive(Debug)]
pub enum NodeEvent {
    /// The node listens at this address.
    Listening(Multiaddr),
    /// A registered player's request, within its bounds: answer it with
    /// [`TourNode::respond`].
    Request {
        /// The player (its peer id is its key, SPEC 4.1).
        player: PeerId,
        /// What it asks.
        request: TourRequest,
        /// Where the answer goes.
        channel: ResponseChannel<TourResponse>,
    },
    /// A line about a player the node refused or banned.
    Note(String),
}

/// A tournament node's network side.
pub struct TourNode {
    swarm: Swarm<NodeBehaviour>,
    guards: Guards,
}

impl TourNode {
    /// A node with `identity`'s key that serves `players` only.
    pub fn new(
        identity: &Identity,
        players: impl IntoIterator<Item = PeerId>,
    ) -> Result<TourNode, NetError> {
        let players: Vec<PeerId> = players.into_iter().collect();
        let most = u32::try_from(players.len())
            .unwrap_or(u32::MAX)
            .saturating_mul(MAX_ESTABLISHED_PER_PEER);
        let swarm = build_with(
            keypair_of(identity)?,
            None,
            IDLE_CONNECTION_TIMEOUT,
            |_, relay_client| {
                let mut registered = allow_block_list::Behaviour::default();
                for player in &players {
                    registered.allow_peer(*player);
                }
                Ok(NodeBehaviour {
                    registered,
                    limits: connection_limits::Behaviour::new(
                        connection_limits::ConnectionLimits::default()
                            .with_max_pending_incoming(Some(MAX_PENDING_INCOMING))
                            .with_max_established(Some(most))
                            .with_max_established_per_peer(Some(MAX_ESTABLISHED_PER_PEER)),
                    ),
                    relay_client,
                    tour: protocol(ProtocolSupport::Inbound),
                })
            },
        )?;
        Ok(TourNode {
            swarm,
            guards: Guards::default(),
        })
    }

    /// The node's peer id.
    pub fn peer_id(&self) -> PeerId {
        *self.swarm.local_peer_id()
    }

    /// Listen on `addr`.
    pub fn listen_on(&mut self, addr: Multiaddr) -> Result<(), NetError> {
        self.swarm
            .listen_on(addr.clone())
            .map(|_| ())
            .map_err(|e| NetError::Listen {
                addr: addr.to_string(),
                reason: e.to_string(),
            })
    }

    /// The next thing the owner must see. Requests that break a bound are
    /// answered `Refused` here and struck against their sender.
    pub async fn next_event(&mut self) -> NodeEvent {
        loop {
            match self.swarm.select_next_some().await {
                SwarmEvent::NewListenAddr { address, .. } => return NodeEvent::Listening(address),
                SwarmEvent::Behaviour(NodeBehaviourEvent::Tour(
                    request_response::Event::Message {
                        peer,
                        message:
                            request_response::Message::Request {
                                request, channel, ..
                            },
                        ..
                    },
                )) => {
                    let now = Instant::now();
                    let allowed = self.guards.get(peer, now).requests.take(now);
                    let (why, reason) = match request {
                        Ok(request) if allowed => {
                            return NodeEvent::Request {
                                player: peer,
                                request,
                                channel,
                            };
                        }
                        Ok(_) => (
                            "sends requests too fast".to_owned(),
                            "too many requests".to_owned(),
                        ),
                        Err(e) => (format!("sent a bad request ({e})"), e.to_string()),
                    };
                    let _ = self
                        .swarm
                        .behaviour_mut()
                        .tour
                        .send_response(channel, TourResponse::Refused { reason });
                    if let Some(note) = self.strike(peer, &why) {
                        return NodeEvent::Note(note);
                    }
                }
                _ => {}
            }
        }
    }

    /// Send `response` to the request `channel` came with.
    pub fn respond(&mut self, channel: ResponseChannel<TourResponse>, response: TourResponse) {
        let _ = self
            .swarm
            .behaviour_mut()
            .tour
            .send_response(channel, response);
    }

    /// Count a refused request against `player`; at [`BAN_STRIKES`] its
    /// connections close and it is let in no more. The line to show, if
    /// any: the first strike's reason, and the ban.
    fn strike(&mut self, player: PeerId, why: &str) -> Option<String> {
        let guard = self.guards.get(player, Instant::now());
        guard.strikes += 1;
        match guard.strikes {
            1 => Some(format!("player {player} {why}")),
            BAN_STRIKES => {
                self.swarm.behaviour_mut().registered.disallow_peer(player);
                Some(format!(
                    "banning player {player}: {BAN_STRIKES} refused requests"
                ))
            }
            _ => None,
        }
    }
}

/// A player's swarm for talking to a tournament node: it only asks.
pub fn player_swarm(identity: &Identity) -> Result<Swarm<PlayerBehaviour>, NetError> {
    build_with(
        keypair_of(identity)?,
        None,
        IDLE_CONNECTION_TIMEOUT,
        |_, relay_client| {
            Ok(PlayerBehaviour {
                relay_client,
                tour: protocol(ProtocolSupport::Outbound),
            })
        },
    )
}

/// Send `request` to the node `node` and run the player's swarm until its
/// answer comes, or the reason it will not.
pub async fn ask(
    swarm: &mut Swarm<PlayerBehaviour>,
    node: PeerId,
    request: TourRequest,
) -> Result<TourResponse, OutboundFailure> {
    let id = swarm.behaviour_mut().tour.send_request(&node, Ok(request));
    loop {
        match swarm.select_next_some().await {
            SwarmEvent::Behaviour(PlayerBehaviourEvent::Tour(
                request_response::Event::Message {
                    message:
                        request_response::Message::Response {
                            request_id,
                            response,
                        },
                    ..
                },
            )) if request_id == id => return Ok(response),
            SwarmEvent::Behaviour(PlayerBehaviourEvent::Tour(
                request_response::Event::OutboundFailure {
                    request_id, error, ..
                },
            )) if request_id == id => return Err(error),
            _ => {}
        }
    }
}

/// The derived behaviours. The derive macro generates event enums whose
/// variants (one per field, named after it) carry no doc comments.
#[allow(missing_docs)]
mod derived {
    use libp2p::swarm::NetworkBehaviour;
    use libp2p::{allow_block_list, connection_limits, relay, request_response};

    use super::TourCodec;

    /// What a tournament node runs.
    #[derive(NetworkBehaviour)]
    pub struct NodeBehaviour {
        /// The registered players: nobody else is let in.
        pub registered: allow_block_list::Behaviour<allow_block_list::AllowedPeers>,
        /// Bounds on connections.
        pub limits: connection_limits::Behaviour,
        /// What the transport builder gives every peer (unused by the
        /// node, which is dialled directly).
        pub relay_client: relay::client::Behaviour,
        /// The protocol.
        pub tour: request_response::Behaviour<TourCodec>,
    }

    /// What a player runs to talk to the node.
    #[derive(NetworkBehaviour)]
    pub struct PlayerBehaviour {
        /// What the transport builder gives every peer.
        pub relay_client: relay::client::Behaviour,
        /// The protocol.
        pub tour: request_response::Behaviour<TourCodec>,
    }
}
