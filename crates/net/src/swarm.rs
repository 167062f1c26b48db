//! The libp2p stack: transports, behaviours and the gossipsub tuning for
//! tables of 2 to 5 peers.

use std::collections::HashSet;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use libp2p::core::muxing::StreamMuxerBox;
use libp2p::core::transport::{Boxed, Transport, upgrade::Version};
use libp2p::gossipsub::{
    self, DataTransform, MaxCountSubscriptionFilter, MessageAuthenticity, MessageId,
    PeerScoreParams, PeerScoreThresholds, TopicHash, TopicScoreParams, TopicSubscriptionFilter,
    ValidationMode,
};
use libp2p::identity::Keypair;
use libp2p::swarm::behaviour::toggle::Toggle;
use libp2p::{
    Multiaddr, PeerId, Swarm, SwarmBuilder, allow_block_list, autonat, connection_limits, dcutr,
    identify, mdns, noise, ping, relay, request_response, tcp, yamux,
};

use crate::NetError;
use crate::counting::{ByteCounter, Counting};
use crate::wire::{
    GOSSIP_ID_DOMAIN, LOBBY_PROTOCOL, LOBBY_TOPIC, LobbyRequest, LobbyResponse, MAX_LOBBY_BYTES,
    MAX_SYNC_REQUEST_BYTES, MAX_SYNC_RESPONSE_BYTES, SYNC_PROTOCOL, SyncRequest, SyncResponse,
    WireCodec, domain_hash,
};

/// The identify protocol version every roundtable peer announces.
pub const IDENTIFY_PROTOCOL: &str = "/roundtable/1";

/// Gossipsub mesh parameters for tables of 2 to 5 peers. The defaults (6/5/12)
/// assume large networks: with four other peers at most, the mesh would be
/// "low" at every heartbeat. Own messages are flood-published to every
/// subscribed peer anyway; the mesh only carries forwards.
pub const MESH_N: usize = 4;
/// Fewest mesh peers before grafting more (one other peer suffices).
pub const MESH_N_LOW: usize = 1;
/// Most mesh peers before pruning.
pub const MESH_N_HIGH: usize = 8;
/// Outbound mesh peers kept at least.
pub const MESH_OUTBOUND_MIN: usize = 1;
/// Largest gossip payload: one envelope (24 KiB, room for a 120-card
/// shuffle, SPEC 4.8) plus room to spare (an announcement is at most 4 KiB).
/// Our validation refuses anything larger (and strikes its sender); our own
/// payloads never are.
pub const MAX_GOSSIP_BYTES: usize = roundtable_table::envelope::MAX_ENVELOPE_BYTES + 1024;

/// Largest gossip frame (one length-prefixed protobuf RPC as gossipsub
/// sends it), which is what gossipsub's `max_transmit_size` bounds on the
/// receiving side. It must hold the largest payload with its topic and
/// protobuf framing, and more: rust-libp2p 0.50 checks its whole read
/// buffer against this limit, and that buffer may hold the end of one frame
/// and the start of the next (reads are 8 KiB). With the cap at the payload
/// size, a 17 KiB payload was published but never delivered: the receiver
/// refused the frame and dropped the stream. See SPEC 4.2.
pub const MAX_GOSSIP_FRAME: usize = 64 * 1024;

/// Messages one gossipsub RPC may carry at most; the rest of the RPC's
/// messages are dropped. An honest peer sends one message per RPC (own
/// publishes and answers to IWANT alike).
pub const MAX_MESSAGES_PER_RPC: usize = 16;
/// IHAVE messages a peer may send us per heartbeat, and message ids we
/// take from them. Tables run no IHAVE/IWANT gossip (seats are explicit
/// peers); only the lobby topic does.
pub const MAX_IHAVE_MESSAGES: usize = 10;
/// IHAVE/IWANT control messages we send to or take from one peer per
/// heartbeat.
pub const MAX_IHAVE_LENGTH: usize = 256;
/// Topics one peer may be subscribed to at once (in our view): the lobby
/// and a table, with room for a peer between two tables.
pub const MAX_PEER_TOPICS: usize = 4;

/// What a table topic's name starts with (SPEC 4.2).
pub const TABLE_TOPIC_PREFIX: &str = "t2/";
/// Bytes of the game id a table topic's name holds, in lower-case hex.
pub const TABLE_TOPIC_ID_BYTES: usize = 8;

/// The topics a roundtable peer takes part in: the lobby topic and table
/// topics ([`TABLE_TOPIC_PREFIX`] and 16 lower-case hex digits). Used as gossipsub's
/// subscription filter (another peer's subscription to any other topic is
/// not recorded, and one RPC with more than [`MAX_PEER_TOPICS`]
/// subscriptions is dropped whole) and as its inbound transform: a message
/// on any other topic is refused as invalid before gossipsub caches it.
#[derive(Clone, Copy, Debug, Default)]
pub struct RoundtableTopics;

impl RoundtableTopics {
    /// Whether `topic` is the lobby topic or a table topic.
    pub fn allows(topic: &TopicHash) -> bool {
        let name = topic.as_str();
        name == LOBBY_TOPIC
            || name.strip_prefix(TABLE_TOPIC_PREFIX).is_some_and(|id| {
                id.len() == 2 * TABLE_TOPIC_ID_BYTES
                    && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
            })
    }
}

impl TopicSubscriptionFilter for RoundtableTopics {
    fn can_subscribe(&mut self, topic: &TopicHash) -> bool {
        Self::allows(topic)
    }
}

impl DataTransform for RoundtableTopics {
    fn inbound_transform(
        &self,
        raw: gossipsub::RawMessage,
    ) -> Result<gossipsub::Message, std::io::Error> {
        if !Self::allows(&raw.topic) {
            return Err(std::io::Error::other("a message on a topic of no table"));
        }
        Ok(gossipsub::Message {
            source: raw.source,
            data: raw.data,
            sequence_number: raw.sequence_number,
            topic: raw.topic,
        })
    }

    fn outbound_transform(&self, _: &TopicHash, data: Vec<u8>) -> Result<Vec<u8>, std::io::Error> {
        Ok(data)
    }
}

/// Our gossipsub: topics filtered and counted as above.
pub type Gossipsub =
    gossipsub::Behaviour<RoundtableTopics, MaxCountSubscriptionFilter<RoundtableTopics>>;

/// Gossipsub's score parameters for a topic of ours (the lobby topic and
/// every table topic). Only penalties count: an invalid message (one we
/// report *Reject*, one signed where messages are anonymous, one that does
/// not decode) costs its hop `-0.1 × (invalid messages)²`, decaying to a
/// tenth in ten minutes, so 29 of them put the hop below the graylist
/// threshold (-80), where gossipsub drops its RPCs: after the node's own
/// ban at [`crate::BAN_STRIKES`] (20) refused messages, which cuts the
/// hop off for good instead of only muting it. No credit is earned for
/// delivering first or staying in a mesh: valid messages sent often are
/// bounded by our per-author budgets (the node), not rewarded.
pub fn topic_score_params() -> TopicScoreParams {
    TopicScoreParams {
        topic_weight: 1.0,
        time_in_mesh_weight: 0.0,
        first_message_deliveries_weight: 0.0,
        mesh_message_deliveries_weight: 0.0,
        mesh_failure_penalty_weight: 0.0,
        invalid_message_deliveries_weight: -0.1,
        invalid_message_deliveries_decay: gossipsub::score_parameter_decay(Duration::from_secs(
            600,
        )),
        ..TopicScoreParams::default()
    }
}

/// Gossipsub's peer score parameters: the lobby topic's penalties, the
/// behaviour penalty for broken IWANT promises and GRAFTs in backoff (as
/// gossipsub sets it), and no IP colocation penalty: every peer of a LAN
/// table or a loopback test shares few addresses, and what one address may
/// hold is bounded by the connection limits instead ([`crate::slots`]).
/// Table topics get [`topic_score_params`] when the node subscribes.
pub fn peer_score_params() -> PeerScoreParams {
    let mut params = PeerScoreParams {
        ip_colocation_factor_weight: 0.0,
        ..PeerScoreParams::default()
    };
    params.topics.insert(
        gossipsub::IdentTopic::new(LOBBY_TOPIC).hash(),
        topic_score_params(),
    );
    params
}

/// A table's gossipsub topic: [`TABLE_TOPIC_PREFIX`] and the first
/// [`TABLE_TOPIC_ID_BYTES`] bytes of its game id in hex, 19 bytes. Every
/// gossip message carries its topic, so the name is as short as keeps
/// tables apart: a peer follows at most [`MAX_PEER_TOPICS`] topics, and two
/// tables it follows share a topic with odds of 2^-64. (At 38 bytes,
/// `rt/t1/` and 16 bytes of the id, the topic was 13 % of a 5-seat game's
/// bytes.) A message of another game that shared a topic would still be
/// refused, since every envelope names its full game id.
pub fn table_topic(game: &roundtable_table::GameId) -> gossipsub::IdentTopic {
    let id = hex::encode(&game.0[..TABLE_TOPIC_ID_BYTES]);
    gossipsub::IdentTopic::new(format!("{TABLE_TOPIC_PREFIX}{id}"))
}

/// The gossipsub message id: `SHA256("roundtable/gossip-id/v1" || data)`.
/// An envelope's bytes include its game, seat, sequence number and
/// signature, so two different envelopes never share an id, and a copy of one
/// envelope (re-published by anyone) is delivered once.
pub fn message_id(message: &gossipsub::Message) -> MessageId {
    MessageId::from(domain_hash(GOSSIP_ID_DOMAIN, &message.data).to_vec())
}

/// Check the mesh parameters the way gossipsub only checks them for topics
/// with their own transmit size: `outbound_min * 2 <= mesh_n` and
/// `outbound_min <= mesh_n_low <= mesh_n <= mesh_n_high`.
pub fn check_mesh(n: usize, low: usize, high: usize, outbound_min: usize) -> Result<(), NetError> {
    if outbound_min * 2 > n || outbound_min > low || low > n || n > high || low == 0 {
        return Err(NetError::Transport(format!(
            "invalid gossipsub mesh parameters n={n} low={low} high={high} outbound_min={outbound_min}"
        )));
    }
    Ok(())
}

/// The gossipsub configuration (see the constants above and SPEC part 4).
pub fn gossip_config() -> Result<gossipsub::Config, NetError> {
    check_mesh(MESH_N, MESH_N_LOW, MESH_N_HIGH, MESH_OUTBOUND_MIN)?;
    gossipsub::ConfigBuilder::default()
        .mesh_n(MESH_N)
        .mesh_n_low(MESH_N_LOW)
        .mesh_n_high(MESH_N_HIGH)
        .mesh_outbound_min(MESH_OUTBOUND_MIN)
        // Own moves go straight to every subscribed peer, not only the mesh.
        .flood_publish(true)
        // Heartbeats repair misses by IHAVE/IWANT; quicker than the 1 s
        // default because a table is small and a miss stalls everyone.
        .heartbeat_interval(Duration::from_millis(500))
        .heartbeat_initial_delay(Duration::from_millis(100))
        // Our envelopes are the trust anchor (SPEC 3.4): gossipsub's own
        // signature would add bytes and a second check proving nothing new.
        .validation_mode(ValidationMode::Anonymous)
        .message_id_fn(message_id)
        // Nothing is forwarded before our own checks said Accept.
        .validate_messages()
        .max_transmit_size(MAX_GOSSIP_FRAME)
        .max_publish_messages(MAX_MESSAGES_PER_RPC)
        .max_ihave_messages_heartbeat(MAX_IHAVE_MESSAGES)
        .max_control_messages_sent(MAX_IHAVE_LENGTH)
        .duplicate_cache_time(Duration::from_secs(120))
        .build()
        .map_err(|e| NetError::Transport(format!("gossipsub config: {e}")))
}

/// Catch-up codec.
pub type SyncCodec = WireCodec<SyncRequest, SyncResponse>;
/// Lobby codec.
pub type LobbyCodec = WireCodec<LobbyRequest, LobbyResponse>;

pub use derived::{Behaviour, BehaviourEvent, RelayBehaviour, RelayBehaviourEvent};

/// Options for building a swarm.
#[derive(Clone, Debug, Default)]
pub struct SwarmOptions {
    /// Run mDNS discovery.
    pub mdns: bool,
    /// Ask the home router (UPnP IGD) to map a public port to each TCP
    /// and QUIC listener.
    pub upnp: bool,
    /// Count bytes on the wire (TCP only, no QUIC): for measurements.
    pub counter: Option<Arc<ByteCounter>>,
    /// Whom our table relay serves (SPEC 4.9): the node keeps it up to
    /// date with its table's peers.
    pub table_peers: TablePeers,
    /// Identify tells peers no listen address, only confirmed external
    /// ones (a peer reachable only through relays, `--no-listen`).
    pub hide_listen_addrs: bool,
}

/// The peers of this node's table: the only ones its table relay gives a
/// slot or a circuit (SPEC 4.9). Shared between the node, which rewrites
/// it as its lobby and table change, and the relay's limiters, which
/// consult it on every request.
#[derive(Clone, Debug, Default)]
pub struct TablePeers(Arc<Mutex<HashSet<PeerId>>>);

impl TablePeers {
    /// Replace the set with `peers`.
    pub fn set(&self, peers: impl IntoIterator<Item = PeerId>) {
        let mut held = match self.0.lock() {
            Ok(held) => held,
            // A limiter that panicked mid-read left nothing half-written:
            // the set is rewritten whole here.
            Err(poisoned) => poisoned.into_inner(),
        };
        held.clear();
        held.extend(peers);
    }

    /// Whether `peer` is at this node's table.
    pub fn contains(&self, peer: &PeerId) -> bool {
        match self.0.lock() {
            Ok(held) => held.contains(peer),
            Err(poisoned) => poisoned.into_inner().contains(peer),
        }
    }
}

/// Most peers holding a slot on a table relay at once: the other seats of
/// the largest table (4) and of a tournament's tables, with room for a
/// seat that reconnects before its old slot closes.
pub const TABLE_RELAY_MAX_RESERVATIONS: usize = 16;
/// How long a table relay's slot lasts before its holder must renew it.
pub const TABLE_RELAY_RESERVATION_TIME: Duration = Duration::from_secs(60 * 60);
/// Most circuits a table relay carries at once (every pair of a 5-seat
/// table both ways is 20).
pub const TABLE_RELAY_MAX_CIRCUITS: usize = 32;
/// Most circuits one peer may open through a table relay at once.
pub const TABLE_RELAY_MAX_CIRCUITS_PER_PEER: usize = 8;
/// Longest a circuit through a table relay lasts: a long game between seats
/// whose NATs cannot be punched (they reconnect through a new circuit if
/// it runs out).
pub const TABLE_RELAY_CIRCUIT_TIME: Duration = Duration::from_secs(2 * 60 * 60);
/// Most bytes one circuit through a table relay carries (both ways): a
/// whole 5-seat game sends about 2 MB in all, so 16 MiB is a long game
/// relayed with room to spare, and bounds what one seat can make the
/// relaying peer carry.
pub const TABLE_RELAY_CIRCUIT_BYTES: u64 = 16 * 1024 * 1024;
/// Reservations and circuits one peer may ask a table relay for per
/// minute.
pub const TABLE_RELAY_REQUESTS_PER_MINUTE: u32 = 30;

/// A table relay's configuration: [`TABLE_RELAY_MAX_RESERVATIONS`] and the
/// other bounds above, and only the peers in `peers` served: a reservation
/// or a circuit asked for by anyone else is refused (and a circuit's
/// destination must hold a reservation, so it too is a table peer).
pub fn table_relay_config(peers: TablePeers) -> relay::Config {
    let reservers = peers.clone();
    let mut config = relay::Config {
        max_reservations: TABLE_RELAY_MAX_RESERVATIONS,
        max_reservations_per_peer: 2,
        reservation_duration: TABLE_RELAY_RESERVATION_TIME,
        reservation_rate_limiters: vec![Box::new(
            move |peer: PeerId, _: &Multiaddr, _: std::time::Instant| reservers.contains(&peer),
        )],
        max_circuits: TABLE_RELAY_MAX_CIRCUITS,
        max_circuits_per_peer: TABLE_RELAY_MAX_CIRCUITS_PER_PEER,
        max_circuit_duration: TABLE_RELAY_CIRCUIT_TIME,
        max_circuit_bytes: TABLE_RELAY_CIRCUIT_BYTES,
        circuit_src_rate_limiters: vec![Box::new(
            move |peer: PeerId, _: &Multiaddr, _: std::time::Instant| peers.contains(&peer),
        )],
    };
    if let Some(n) = NonZeroU32::new(TABLE_RELAY_REQUESTS_PER_MINUTE) {
        config = config
            .reservation_rate_per_peer(n, Duration::from_secs(60))
            .circuit_src_per_peer(n, Duration::from_secs(60));
    }
    config
}

/// AutoNAT's configuration (SPEC 4.9). libp2p's default tests global
/// addresses only, which a home network's peers and every simulated
/// network (TEST-NET addresses) never have, so nothing was ever
/// confirmed: here every address is tested (`only_global_ips` off), and
/// what a confirmed address means is judged by [`crate::ticket::Reach`],
/// the one place that says what is private. Probes start soon after a
/// peer starts and are retried every 5 s until the answer is sure: a
/// table forms in seconds, and a host learns it is reachable (and starts
/// relaying for its table) only once a joiner has probed it. A probe is
/// one request to a peer that is used as a prober at most every 90 s.
pub fn autonat_config() -> autonat::Config {
    autonat::Config {
        boot_delay: Duration::from_secs(1),
        retry_interval: Duration::from_secs(5),
        only_global_ips: false,
        ..autonat::Config::default()
    }
}

/// Gossipsub with our topic filter, transform and peer scoring.
fn gossipsub(config: gossipsub::Config) -> Result<Gossipsub, NetError> {
    let filter = MaxCountSubscriptionFilter {
        filter: RoundtableTopics,
        max_subscribed_topics: MAX_PEER_TOPICS,
        max_subscriptions_per_request: MAX_PEER_TOPICS,
    };
    let mut gossipsub = gossipsub::Behaviour::new_with_subscription_filter_and_transform(
        MessageAuthenticity::Anonymous,
        config,
        filter,
        RoundtableTopics,
    )
    .map_err(|e| NetError::Transport(format!("gossipsub: {e}")))?;
    gossipsub
        .with_peer_score(peer_score_params(), PeerScoreThresholds::default())
        .map_err(|e| NetError::Transport(format!("gossipsub scoring: {e}")))?;
    Ok(gossipsub)
}

/// Most connections being set up from outside at once.
pub const MAX_PENDING_INCOMING: u32 = 32;
/// Most connections of peers other than the seats' (the seats' peers
/// bypass every connection bound once the genesis names them).
pub const MAX_ESTABLISHED: u32 = 128;
/// Most connections one peer other than a seat's may hold.
pub const MAX_ESTABLISHED_PER_PEER: u32 = 4;

fn behaviour(
    key: &Keypair,
    relay_client: relay::client::Behaviour,
    opts: &SwarmOptions,
) -> Result<Behaviour, NetError> {
    let peer_id = key.public().to_peer_id();
    let gossipsub = gossipsub(gossip_config()?)?;
    let mdns = if opts.mdns {
        // mDNS needs a multicast-capable interface; without one the table
        // still works by tickets.
        mdns::tokio::Behaviour::new(
            mdns::Config {
                query_interval: Duration::from_secs(5),
                ..mdns::Config::default()
            },
            peer_id,
        )
        .ok()
    } else {
        None
    };
    let rr = |timeout| {
        request_response::Config::default()
            .with_request_timeout(timeout)
            .with_max_concurrent_streams(32)
    };
    Ok(Behaviour {
        blocked: allow_block_list::Behaviour::default(),
        limits: connection_limits::Behaviour::new(
            connection_limits::ConnectionLimits::default()
                .with_max_pending_incoming(Some(MAX_PENDING_INCOMING))
                .with_max_pending_outgoing(Some(64))
                .with_max_established(Some(MAX_ESTABLISHED))
                .with_max_established_per_peer(Some(MAX_ESTABLISHED_PER_PEER)),
        ),
        per_address: crate::slots::AddressLimit::default(),
        relay_client,
        identify: identify::Behaviour::new(
            identify::Config::new(IDENTIFY_PROTOCOL.into(), key.public())
                .with_agent_version(format!("roundtable/{}", env!("CARGO_PKG_VERSION")))
                .with_cache_size(64)
                .with_hide_listen_addrs(opts.hide_listen_addrs),
        ),
        ping: ping::Behaviour::new(ping::Config::new().with_interval(Duration::from_secs(5))),
        gossipsub,
        mdns: Toggle::from(mdns),
        sync: request_response::Behaviour::with_codec(
            SyncCodec::new(MAX_SYNC_REQUEST_BYTES, MAX_SYNC_RESPONSE_BYTES),
            [(SYNC_PROTOCOL, request_response::ProtocolSupport::Full)],
            rr(Duration::from_secs(10)),
        ),
        lobby: request_response::Behaviour::with_codec(
            LobbyCodec::new(MAX_LOBBY_BYTES, MAX_LOBBY_BYTES),
            [(LOBBY_PROTOCOL, request_response::ProtocolSupport::Full)],
            rr(Duration::from_secs(10)),
        ),
        dcutr: dcutr::Behaviour::new(peer_id),
        autonat: autonat::Behaviour::new(peer_id, autonat_config()),
        table_relay: relay::Behaviour::new(peer_id, table_relay_config(opts.table_peers.clone())),
        upnp: Toggle::from(opts.upnp.then(crate::upnp::Behaviour::new)),
    })
}

fn transport_error(e: impl std::fmt::Display) -> NetError {
    NetError::Transport(e.to_string())
}

/// A TCP transport whose connections count their bytes.
fn counting_tcp(
    key: &Keypair,
    counter: Arc<ByteCounter>,
) -> Result<Boxed<(PeerId, StreamMuxerBox)>, NetError> {
    let noise = noise::Config::new(key).map_err(transport_error)?;
    Ok(
        tcp::tokio::Transport::new(tcp::Config::default().nodelay(true))
            .map(move |stream, _| Counting::new(stream, counter.clone()))
            .upgrade(Version::V1Lazy)
            .authenticate(noise)
            .multiplex(yamux::Config::default())
            .timeout(Duration::from_secs(20))
            .boxed(),
    )
}

/// How long a connection with no stream open stays up: a table's
/// connections stay up between moves that can be minutes apart.
const IDLE_CONNECTION_TIMEOUT: Duration = Duration::from_secs(300);

/// Build a peer's swarm: TCP + noise + yamux and QUIC (or counting TCP),
/// relay client, and [`Behaviour`].
pub fn build_swarm(key: Keypair, opts: &SwarmOptions) -> Result<Swarm<Behaviour>, NetError> {
    build_with(
        key,
        opts.counter.clone(),
        IDLE_CONNECTION_TIMEOUT,
        |key, relay| behaviour(key, relay, opts),
    )
}

/// Build a swarm of `make`'s behaviour over the transports every roundtable
/// peer uses: TCP + noise + yamux and QUIC, or only TCP counting its bytes
/// into `counter`, and a relay client. Connections with no stream open
/// close after `idle`.
pub(crate) fn build_with<B: libp2p::swarm::NetworkBehaviour>(
    key: Keypair,
    counter: Option<Arc<ByteCounter>>,
    idle: Duration,
    make: impl FnOnce(&Keypair, relay::client::Behaviour) -> Result<B, NetError>,
) -> Result<Swarm<B>, NetError> {
    let make = |key: &Keypair, relay| {
        make(key, relay).map_err(|e| Box::new(e) as Box<dyn std::error::Error + Send + Sync>)
    };
    let config = move |c: libp2p::swarm::Config| c.with_idle_connection_timeout(idle);
    if let Some(counter) = counter {
        let swarm = SwarmBuilder::with_existing_identity(key)
            .with_tokio()
            .with_other_transport(|key| {
                counting_tcp(key, counter)
                    .map_err(|e| Box::new(e) as Box<dyn std::error::Error + Send + Sync>)
            })
            .map_err(transport_error)?
            .with_relay_client(noise::Config::new, yamux::Config::default)
            .map_err(transport_error)?
            .with_behaviour(make)
            .map_err(transport_error)?
            .with_swarm_config(config)
            .build();
        return Ok(swarm);
    }
    let swarm = SwarmBuilder::with_existing_identity(key)
        .with_tokio()
        .with_tcp(
            tcp::Config::default().nodelay(true),
            noise::Config::new,
            yamux::Config::default,
        )
        .map_err(transport_error)?
        .with_quic()
        .with_relay_client(noise::Config::new, yamux::Config::default)
        .map_err(transport_error)?
        .with_behaviour(make)
        .map_err(transport_error)?
        .with_swarm_config(config)
        .build();
    Ok(swarm)
}

/// Relay limits raised for game traffic. The libp2p defaults (2 minutes and
/// 128 KiB per circuit) are meant for hole punching only; a game of Port
/// Royal over a relayed link lasts up to an hour and moves a few hundred KiB.
pub fn relay_config() -> relay::Config {
    let mut config = relay::Config {
        max_reservations: 256,
        max_reservations_per_peer: 4,
        reservation_duration: Duration::from_secs(60 * 60),
        max_circuits: 256,
        max_circuits_per_peer: 16,
        max_circuit_duration: Duration::from_secs(6 * 60 * 60),
        max_circuit_bytes: 64 * 1024 * 1024,
        ..relay::Config::default()
    };
    // Keep the per-peer and per-IP rate limits, scaled to game use.
    if let Some(n) = NonZeroU32::new(60) {
        config = config
            .reservation_rate_per_peer(n, Duration::from_secs(60))
            .circuit_src_per_peer(n, Duration::from_secs(60));
    }
    config
}

/// Build a relay server's swarm (TCP + QUIC).
pub fn build_relay_swarm(key: Keypair) -> Result<Swarm<RelayBehaviour>, NetError> {
    let swarm = SwarmBuilder::with_existing_identity(key)
        .with_tokio()
        .with_tcp(
            tcp::Config::default().nodelay(true),
            noise::Config::new,
            yamux::Config::default,
        )
        .map_err(transport_error)?
        .with_quic()
        .with_behaviour(|key| {
            let peer_id = key.public().to_peer_id();
            RelayBehaviour {
                limits: connection_limits::Behaviour::new(
                    connection_limits::ConnectionLimits::default()
                        .with_max_pending_incoming(Some(64))
                        .with_max_established(Some(1024))
                        .with_max_established_per_peer(Some(8)),
                ),
                relay: relay::Behaviour::new(peer_id, relay_config()),
                identify: identify::Behaviour::new(identify::Config::new(
                    IDENTIFY_PROTOCOL.into(),
                    key.public(),
                )),
                ping: ping::Behaviour::new(ping::Config::new()),
                autonat: autonat::Behaviour::new(peer_id, autonat_config()),
            }
        })
        .map_err(transport_error)?
        .with_swarm_config(|c| c.with_idle_connection_timeout(IDLE_CONNECTION_TIMEOUT))
        .build();
    Ok(swarm)
}

/// The derived behaviours. The derive macro generates event enums whose
/// variants (one per field, named after it) carry no doc comments.
#[allow(missing_docs)]
mod derived {
    use libp2p::swarm::NetworkBehaviour;
    use libp2p::swarm::behaviour::toggle::Toggle;
    use libp2p::{
        allow_block_list, autonat, connection_limits, dcutr, identify, mdns, ping, relay,
        request_response,
    };

    use super::{LobbyCodec, SyncCodec};

    /// Everything a roundtable peer runs.
    #[derive(NetworkBehaviour)]
    pub struct Behaviour {
        /// Peers banned for sending garbage.
        pub blocked: allow_block_list::Behaviour<allow_block_list::BlockedPeers>,
        /// Bounds on connections.
        pub limits: connection_limits::Behaviour,
        /// Bound on inbound connections per remote address.
        pub per_address: crate::slots::AddressLimit,
        /// Reaching and being reached through relays.
        pub relay_client: relay::client::Behaviour,
        /// Learning our observed addresses and the peers' listen addresses.
        pub identify: identify::Behaviour,
        /// Liveness.
        pub ping: ping::Behaviour,
        /// The table and lobby topics.
        pub gossipsub: super::Gossipsub,
        /// LAN discovery.
        pub mdns: Toggle<mdns::tokio::Behaviour>,
        /// Catch-up.
        pub sync: request_response::Behaviour<SyncCodec>,
        /// Lobby.
        pub lobby: request_response::Behaviour<LobbyCodec>,
        /// Hole punching through a relayed connection.
        pub dcutr: dcutr::Behaviour,
        /// Whether we are reachable.
        pub autonat: autonat::Behaviour,
        /// The relay we serve to our own table's peers once we are
        /// reachable (SPEC 4.9).
        pub table_relay: relay::Behaviour,
        /// A port mapped on the home router, where it offers UPnP IGD.
        pub upnp: Toggle<crate::upnp::Behaviour>,
    }

    /// What a relay server runs.
    #[derive(NetworkBehaviour)]
    pub struct RelayBehaviour {
        /// Connection bounds.
        pub limits: connection_limits::Behaviour,
        /// The relay itself.
        pub relay: relay::Behaviour,
        /// Tells clients their observed addresses (needed for hole punching).
        pub identify: identify::Behaviour,
        /// Liveness.
        pub ping: ping::Behaviour,
        /// Answers reachability probes.
        pub autonat: autonat::Behaviour,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mesh_parameters_are_valid_for_small_tables() {
        check_mesh(MESH_N, MESH_N_LOW, MESH_N_HIGH, MESH_OUTBOUND_MIN).unwrap();
        assert!(check_mesh(6, 5, 12, 4).is_err());
        assert!(check_mesh(4, 1, 8, 2).is_err());
        gossip_config().unwrap();
    }

    #[test]
    fn the_table_relay_serves_the_peers_of_its_table_as_the_table_changes() {
        let peers = TablePeers::default();
        let (seat, stranger) = (PeerId::random(), PeerId::random());
        peers.set([seat]);
        let mut config = table_relay_config(peers.clone());
        let addr: Multiaddr = "/ip4/192.0.2.1/tcp/4001".parse().unwrap();
        let now = std::time::Instant::now();
        let allows = |limiters: &mut Vec<Box<dyn relay::RateLimiter>>, peer| {
            limiters.iter_mut().all(|l| l.try_next(peer, &addr, now))
        };
        assert!(allows(&mut config.reservation_rate_limiters, seat));
        assert!(allows(&mut config.circuit_src_rate_limiters, seat));
        assert!(!allows(&mut config.reservation_rate_limiters, stranger));
        assert!(!allows(&mut config.circuit_src_rate_limiters, stranger));
        // The node rewrites the set when its lobby or table changes.
        peers.set([stranger]);
        assert!(allows(&mut config.reservation_rate_limiters, stranger));
        assert!(!allows(&mut config.reservation_rate_limiters, seat));
        assert_eq!(
            (config.max_reservations, config.reservation_duration),
            (16, Duration::from_secs(3600))
        );
        assert_eq!(
            (
                config.max_circuits,
                config.max_circuits_per_peer,
                config.max_circuit_duration,
                config.max_circuit_bytes
            ),
            (32, 8, Duration::from_secs(7200), 16 * 1024 * 1024)
        );
    }

    #[test]
    fn autonat_tests_every_address_soon_after_start() {
        let config = autonat_config();
        assert!(!config.only_global_ips);
        assert_eq!(
            (config.boot_delay, config.retry_interval),
            (Duration::from_secs(1), Duration::from_secs(5))
        );
    }

    #[test]
    fn score_parameters_are_valid() {
        peer_score_params().validate().unwrap();
        topic_score_params().validate().unwrap();
        PeerScoreThresholds::default().validate().unwrap();
    }

    #[test]
    fn only_the_lobby_and_table_topics_are_followed() {
        let game = roundtable_table::GameId([0xab; 32]);
        assert!(RoundtableTopics::allows(&table_topic(&game).hash()));
        assert!(RoundtableTopics::allows(
            &gossipsub::IdentTopic::new(LOBBY_TOPIC).hash()
        ));
        assert_eq!(table_topic(&game).hash().as_str(), "t2/abababababababab");
        for other in [
            "t2/",
            "t2/ABABABABABABABAB",
            "t2/abababababababab0",
            "t2/abababababababa",
            "t3/abababababababab",
            "rt/t1/abababababababababababababababab",
            "roundtable/lobby/v2",
            "junk",
        ] {
            assert!(
                !RoundtableTopics::allows(&gossipsub::IdentTopic::new(other).hash()),
                "{other}"
            );
        }
    }
}
