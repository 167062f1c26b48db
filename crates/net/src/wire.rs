//! What peers send each other besides envelopes: the lobby messages, the
//! catch-up (sync) messages, lobby announcements, and the request-response
//! codec that carries them. Every structure is postcard-encoded (SPEC part
//! 3.1) and every decoder is size-capped and refuses trailing bytes, so that
//! nothing a remote peer sends can make us allocate without bound or panic.
//! The byte layouts are specified in `protocol/SPEC.md` part 4.

use std::io;
use std::marker::PhantomData;

use futures::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use libp2p::StreamProtocol;
use libp2p::request_response;
use roundtable_table::genesis::MAX_NAME_BYTES;
use roundtable_table::{
    Acceptance, GameId, Genesis, Identity, Proposal, PublicKey, SeatInfo, SignatureBytes,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::ticket::{MAX_TICKET_CHARS, Ticket, TicketError};

/// Domain of a lobby id: `SHA256("roundtable/lobby/v1" || postcard(LobbyInfo))`.
pub const LOBBY_DOMAIN: &[u8] = b"roundtable/lobby/v1";
/// Domain of a gossipsub message id: `SHA256("roundtable/gossip-id/v1" || data)`.
pub const GOSSIP_ID_DOMAIN: &[u8] = b"roundtable/gossip-id/v1";
/// The lobby request-response protocol.
pub const LOBBY_PROTOCOL: StreamProtocol = StreamProtocol::new("/roundtable/lobby/1");
/// The catch-up request-response protocol.
pub const SYNC_PROTOCOL: StreamProtocol = StreamProtocol::new("/roundtable/sync/1");
/// The gossipsub topic where hosts announce open tables.
pub const LOBBY_TOPIC: &str = "roundtable/lobby/v1";
/// Largest lobby request or response (a genesis of 5 seats is about 1 KiB).
pub const MAX_LOBBY_BYTES: usize = 64 * 1024;
/// Largest sync request (heads of at most [`MAX_SEATS`] seats).
pub const MAX_SYNC_REQUEST_BYTES: usize = 1024;
/// Largest sync response; a responder stops adding envelopes before this.
pub const MAX_SYNC_RESPONSE_BYTES: usize = 1024 * 1024;
/// Envelopes in one sync response at most.
pub const MAX_SYNC_ENVELOPES: usize = 256;
/// Most seats any game has (the lobby and sync decoders refuse more).
pub const MAX_SEATS: usize = 8;
/// Addresses one peer may advertise.
pub const MAX_ADDRS: usize = 8;
/// Longest advertised address, in bytes.
pub const MAX_ADDR_BYTES: usize = 128;

/// `SHA256(domain || data)` as 32 bytes.
pub fn domain_hash(domain: &[u8], data: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(domain);
    h.update(data);
    h.finalize().into()
}

/// Encode with postcard. Our own structures always encode; an empty vector
/// (refused by every decoder) stands in for the impossible failure.
pub fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    postcard::to_allocvec(value).unwrap_or_default()
}

/// Why bytes from a peer were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    /// Larger than the message kind allows.
    #[error("{kind} of {len} bytes exceeds {max}")]
    TooLarge {
        /// The message kind.
        kind: &'static str,
        /// Its length.
        len: usize,
        /// The cap.
        max: usize,
    },
    /// Did not decode, or had bytes left over.
    #[error("malformed {kind}: {reason}")]
    Malformed {
        /// The message kind.
        kind: &'static str,
        /// What went wrong.
        reason: String,
    },
    /// Decoded, but breaks a bound (too many seats, addresses, ...).
    #[error("{kind} out of bounds: {reason}")]
    OutOfBounds {
        /// The message kind.
        kind: &'static str,
        /// Which bound.
        reason: String,
    },
    /// The stream ended before the length prefix or the body it announced.
    #[error("truncated {kind}: the stream ended after {got} of {expected} bytes")]
    Truncated {
        /// The message kind.
        kind: &'static str,
        /// Bytes announced (4 for the length prefix itself).
        expected: usize,
        /// Bytes that came.
        got: usize,
    },
}

/// Decode untrusted bytes as `T`: at most `max` bytes, all of them used, and
/// then `T`'s own bounds checked.
pub fn decode<T: DeserializeOwned + Bounded>(bytes: &[u8], max: usize) -> Result<T, WireError> {
    if bytes.len() > max {
        return Err(WireError::TooLarge {
            kind: T::KIND,
            len: bytes.len(),
            max,
        });
    }
    let (value, rest) =
        postcard::take_from_bytes::<T>(bytes).map_err(|e| WireError::Malformed {
            kind: T::KIND,
            reason: e.to_string(),
        })?;
    if !rest.is_empty() {
        return Err(WireError::Malformed {
            kind: T::KIND,
            reason: format!("{} trailing bytes", rest.len()),
        });
    }
    value.check().map_err(|reason| WireError::OutOfBounds {
        kind: T::KIND,
        reason,
    })?;
    Ok(value)
}

/// A message kind with a name and bounds beyond what postcard checks.
pub trait Bounded {
    /// The kind's name, for errors.
    const KIND: &'static str;
    /// Check counts and lengths.
    fn check(&self) -> Result<(), String>;
}

fn check_addrs(addrs: &[Vec<u8>]) -> Result<(), String> {
    if addrs.len() > MAX_ADDRS || addrs.iter().any(|a| a.len() > MAX_ADDR_BYTES) {
        return Err("too many or too long addresses".into());
    }
    Ok(())
}

fn check_seats(seats: usize) -> Result<(), String> {
    if seats > MAX_SEATS {
        return Err(format!("{seats} seats"));
    }
    Ok(())
}

// ----- the lobby ----------------------------------------------------------

/// What a host offers: hashed into the lobby id that a ticket names, so a
/// joiner can check it is talking about the table it was invited to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbyInfo {
    /// Protocol version (1).
    pub protocol: u32,
    /// The game ("port-royal").
    pub game: String,
    /// The game's options, postcard-encoded as in the proposal.
    pub options: Vec<u8>,
    /// How many seats the table has.
    pub seats: u8,
    /// The host's key.
    pub host: PublicKey,
    /// The host's display name.
    pub host_name: String,
    /// The stall timeout every seat uses, in milliseconds.
    pub stall_timeout_ms: u64,
    /// Random bytes of the host: two lobbies never share an id.
    pub nonce: [u8; 32],
}

impl LobbyInfo {
    /// The lobby id: `SHA256("roundtable/lobby/v1" || postcard(self))`.
    pub fn id(&self) -> LobbyId {
        LobbyId(domain_hash(LOBBY_DOMAIN, &encode(self)))
    }
}

impl Bounded for LobbyInfo {
    const KIND: &'static str = "lobby info";
    fn check(&self) -> Result<(), String> {
        check_seats(usize::from(self.seats))?;
        if self.game.len() > 64 || self.host_name.len() > 64 || self.options.len() > 4096 {
            return Err("field too long".into());
        }
        // Names are shown to players; a host's own name never has them.
        if self
            .game
            .chars()
            .chain(self.host_name.chars())
            .any(char::is_control)
        {
            return Err("control characters in a name".into());
        }
        Ok(())
    }
}

/// A lobby id (32 bytes), the table's name before its game id exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct LobbyId(pub [u8; 32]);

impl std::fmt::Display for LobbyId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&hex::encode(self.0))
    }
}

/// A seat's key and the addresses where its peer listens.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PeerAddrs {
    /// The seat's key (its libp2p peer id is derived from it).
    pub key: PublicKey,
    /// Multiaddrs in their binary form.
    pub addrs: Vec<Vec<u8>>,
}

/// A player seated in a lobby, as the host tells the others.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbySeat {
    /// The player's key (a joiner finds itself by it).
    pub key: PublicKey,
    /// The display name.
    pub name: String,
}

/// A request on `/roundtable/lobby/1`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LobbyRequest {
    /// Joiner to host: seat me. The key must be the sender's libp2p key.
    Join {
        /// The lobby id from the ticket.
        lobby: LobbyId,
        /// The joiner's key, name and chain commitment.
        seat: SeatInfo,
        /// Where the joiner listens.
        addrs: Vec<Vec<u8>>,
    },
    /// Host to a seated joiner: here is the proposal; accept it.
    Propose {
        /// The lobby.
        lobby: LobbyId,
        /// The proposal.
        proposal: Proposal,
    },
    /// Host to a seated joiner: every seat accepted; play.
    Start {
        /// The lobby.
        lobby: LobbyId,
        /// The genesis.
        genesis: Genesis,
        /// Every seat's addresses.
        peers: Vec<PeerAddrs>,
    },
    /// Spectator to any seat: the genesis, please.
    Watch {
        /// The lobby.
        lobby: LobbyId,
    },
    /// Joiner to host: I leave before the proposal.
    Leave {
        /// The lobby.
        lobby: LobbyId,
    },
}

/// A response on `/roundtable/lobby/1`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LobbyResponse {
    /// You have a seat (or are waiting for the game to start).
    Welcome {
        /// The lobby's terms (hash them: they must give the ticket's id).
        info: LobbyInfo,
        /// Seats taken so far, the host's included.
        filled: u8,
        /// Who sat down so far, the host first, then in the order they
        /// joined: the joiner's and spectator's lobby screen lists them.
        seated: Vec<LobbySeat>,
    },
    /// The seat's acceptance of the proposal.
    Accepted(Acceptance),
    /// The game has started: its genesis and the seats' addresses.
    Started {
        /// The genesis.
        genesis: Genesis,
        /// Every seat's addresses.
        peers: Vec<PeerAddrs>,
    },
    /// Done.
    Ok,
    /// Refused, with the reason.
    Refused {
        /// Why.
        reason: String,
    },
}

fn check_genesis(genesis: &Genesis) -> Result<(), String> {
    check_seats(genesis.proposal.seats.len())?;
    check_seats(genesis.acceptances.len())
}

fn check_peers(peers: &[PeerAddrs]) -> Result<(), String> {
    check_seats(peers.len())?;
    peers.iter().try_for_each(|p| check_addrs(&p.addrs))
}

impl Bounded for LobbyRequest {
    const KIND: &'static str = "lobby request";
    fn check(&self) -> Result<(), String> {
        match self {
            LobbyRequest::Join { addrs, .. } => check_addrs(addrs),
            LobbyRequest::Propose { proposal, .. } => check_seats(proposal.seats.len()),
            LobbyRequest::Start { genesis, peers, .. } => {
                check_genesis(genesis)?;
                check_peers(peers)
            }
            LobbyRequest::Watch { .. } | LobbyRequest::Leave { .. } => Ok(()),
        }
    }
}

impl Bounded for LobbyResponse {
    const KIND: &'static str = "lobby response";
    fn check(&self) -> Result<(), String> {
        match self {
            LobbyResponse::Welcome { info, seated, .. } => {
                info.check()?;
                check_seats(seated.len())?;
                match seated.iter().find(|s| s.name.len() > MAX_NAME_BYTES) {
                    Some(s) => Err(format!("a name of {} bytes", s.name.len())),
                    None => Ok(()),
                }
            }
            LobbyResponse::Started { genesis, peers } => {
                check_genesis(genesis)?;
                check_peers(peers)
            }
            LobbyResponse::Refused { reason } if reason.len() > 1024 => {
                Err("reason too long".into())
            }
            _ => Ok(()),
        }
    }
}

/// Domain of an announcement's signature:
/// `sign("roundtable/announce/v1" || postcard(info, filled, ticket, counter))`.
pub const ANNOUNCE_DOMAIN: &[u8] = b"roundtable/announce/v1";

/// A host's periodic advertisement of an open table on the lobby topic,
/// signed by the host's key (SPEC 4.5). A listing is only as good as its
/// ticket: [`Announce::verify`] checks that the key that signed it is the
/// one its terms and its ticket name, and that the ticket's lobby id is the
/// hash of the terms shown, so nobody can list a table under another
/// host's terms or send joiners to a ticket that is not the host's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Announce {
    /// The lobby's terms.
    pub info: LobbyInfo,
    /// Seats taken.
    pub filled: u8,
    /// The ticket to join with.
    pub ticket: String,
    /// Counts announcements, so that each has its own gossip message id.
    pub counter: u64,
    /// The host's signature over [`ANNOUNCE_DOMAIN`] and the fields above.
    pub signature: SignatureBytes,
}

/// Largest announcement.
pub const MAX_ANNOUNCE_BYTES: usize = 4096;

/// Why an announcement was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnnounceError {
    /// The signature is not the announced host's.
    #[error("the announcement is not signed by the host it names")]
    BadSignature,
    /// The ticket does not read.
    #[error("the announcement's ticket does not read: {0}")]
    Ticket(#[from] TicketError),
    /// The ticket invites to another host's table.
    #[error("the announcement's ticket names another host")]
    OtherHost,
    /// The ticket names another lobby than the hash of the terms shown.
    #[error("the announcement's ticket names another lobby than its terms")]
    OtherLobby,
    /// The ticket is for another game than the terms shown.
    #[error("the announcement's ticket is for another game than its terms")]
    OtherGame,
}

impl Announce {
    /// The bytes the host signs: [`ANNOUNCE_DOMAIN`] then the postcard
    /// encoding of `info`, `filled`, `ticket` and `counter` in that order.
    fn signing_bytes(info: &LobbyInfo, filled: u8, ticket: &str, counter: u64) -> Vec<u8> {
        let mut bytes = ANNOUNCE_DOMAIN.to_vec();
        bytes.extend_from_slice(&encode(&(info, filled, ticket, counter)));
        bytes
    }

    /// The host's announcement, signed with its identity (which must be the
    /// key `info.host` names for the announcement to verify).
    pub fn sign(
        info: LobbyInfo,
        filled: u8,
        ticket: String,
        counter: u64,
        host: &Identity,
    ) -> Announce {
        let signature = host.sign(&Self::signing_bytes(&info, filled, &ticket, counter));
        Announce {
            info,
            filled,
            ticket,
            counter,
            signature,
        }
    }

    /// Check the signature against the host key in the terms, and the
    /// ticket against the terms: the same host, the same game, and the
    /// lobby id the terms hash to. Returns the ticket.
    pub fn verify(&self) -> Result<Ticket, AnnounceError> {
        let bytes = Self::signing_bytes(&self.info, self.filled, &self.ticket, self.counter);
        self.info
            .host
            .verify(&bytes, &self.signature)
            .map_err(|_| AnnounceError::BadSignature)?;
        let ticket = Ticket::decode(&self.ticket)?;
        if ticket.host != self.info.host {
            return Err(AnnounceError::OtherHost);
        }
        if ticket.lobby != self.info.id() {
            return Err(AnnounceError::OtherLobby);
        }
        if ticket.game != self.info.game {
            return Err(AnnounceError::OtherGame);
        }
        Ok(ticket)
    }
}

impl Bounded for Announce {
    const KIND: &'static str = "announcement";
    fn check(&self) -> Result<(), String> {
        self.info.check()?;
        if self.ticket.len() > MAX_TICKET_CHARS {
            return Err("ticket too long".into());
        }
        Ok(())
    }
}

// ----- catch-up -----------------------------------------------------------

/// A request on `/roundtable/sync/1`: here is what I have; send what I lack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SyncRequest {
    /// The game.
    pub game: GameId,
    /// Per seat, the next sequence number the requester expects
    /// (`Table::heads`).
    pub heads: Vec<u64>,
}

impl Bounded for SyncRequest {
    const KIND: &'static str = "sync request";
    fn check(&self) -> Result<(), String> {
        check_seats(self.heads.len())
    }
}

/// A response on `/roundtable/sync/1`. The default, with empty heads, is
/// the answer of a peer not playing the game asked about.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SyncResponse {
    /// The responder's own heads (empty when it does not play that game),
    /// so the requester learns what the responder lacks.
    pub heads: Vec<u64>,
    /// Signed envelopes the requester lacks, in each seat's sequence order.
    pub envelopes: Vec<Vec<u8>>,
    /// Whether more were left out (ask again).
    pub more: bool,
}

impl Bounded for SyncResponse {
    const KIND: &'static str = "sync response";
    fn check(&self) -> Result<(), String> {
        check_seats(self.heads.len())?;
        if self.envelopes.len() > MAX_SYNC_ENVELOPES {
            return Err(format!("{} envelopes", self.envelopes.len()));
        }
        Ok(())
    }
}

// ----- the codec ----------------------------------------------------------

/// A request-response codec for postcard messages: each message is a `u32`
/// little-endian length, then that many bytes of postcard, capped per
/// direction. The length comes first so that an oversized message is refused
/// before its body is read.
pub struct WireCodec<Req, Resp> {
    max_request: usize,
    max_response: usize,
    _types: PhantomData<fn() -> (Req, Resp)>,
}

impl<Req, Resp> WireCodec<Req, Resp> {
    /// A codec with the given caps.
    pub fn new(max_request: usize, max_response: usize) -> Self {
        WireCodec {
            max_request,
            max_response,
            _types: PhantomData,
        }
    }
}

impl<Req, Resp> Clone for WireCodec<Req, Resp> {
    fn clone(&self) -> Self {
        WireCodec::new(self.max_request, self.max_response)
    }
}

impl<Req, Resp> std::fmt::Debug for WireCodec<Req, Resp> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WireCodec")
            .field("max_request", &self.max_request)
            .field("max_response", &self.max_response)
            .finish()
    }
}

/// Read one length-prefixed message of at most `max` bytes. The outer
/// error is the transport's (the connection broke: nobody is to blame);
/// the inner one is what the sender got wrong: a length above the cap
/// (refused before the body is read), a stream that ended early, or bytes
/// that do not decode. The body is read into a buffer that grows with what
/// actually arrives, so a peer that announces 64 KiB and sends nothing
/// costs nothing.
async fn read_message<T, R>(io: &mut R, max: usize) -> io::Result<Result<T, WireError>>
where
    T: DeserializeOwned + Bounded,
    R: AsyncRead + Unpin + Send,
{
    let mut prefix = Vec::with_capacity(4);
    (&mut *io).take(4).read_to_end(&mut prefix).await?;
    let Ok(prefix) = <[u8; 4]>::try_from(prefix.as_slice()) else {
        return Ok(Err(WireError::Truncated {
            kind: T::KIND,
            expected: 4,
            got: prefix.len(),
        }));
    };
    let len = u32::from_le_bytes(prefix) as usize;
    if len > max {
        return Ok(Err(WireError::TooLarge {
            kind: T::KIND,
            len,
            max,
        }));
    }
    let mut body = Vec::new();
    (&mut *io).take(len as u64).read_to_end(&mut body).await?;
    if body.len() < len {
        return Ok(Err(WireError::Truncated {
            kind: T::KIND,
            expected: len,
            got: body.len(),
        }));
    }
    Ok(decode(&body, max))
}

/// Whether a failed request-response exchange failed because of what the
/// remote sent (a [`WireError`] our codec found), not because the
/// connection broke.
pub fn remote_fault(error: &io::Error) -> Option<&WireError> {
    error.get_ref()?.downcast_ref::<WireError>()
}

/// The frame of `value`: encoded before anything is awaited, so the value
/// itself never crosses an await (it need not be `Sync`).
fn frame<T: Serialize>(value: T, max: usize) -> io::Result<Vec<u8>> {
    let bytes = encode(&value);
    if bytes.len() > max {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("message of {} bytes exceeds {max}", bytes.len()),
        ));
    }
    let mut out = Vec::with_capacity(bytes.len() + 4);
    out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(&bytes);
    Ok(out)
}

async fn write_frame<W>(io: &mut W, frame: io::Result<Vec<u8>>) -> io::Result<()>
where
    W: AsyncWrite + Unpin + Send,
{
    let frame = frame?;
    io.write_all(&frame).await?;
    io.close().await
}

/// A request as the responder read it: the message, or what was wrong
/// with the bytes. libp2p's request-response drops a request whose read
/// failed without telling the behaviour who sent it, so a malformed,
/// oversized or truncated request reaches the node as `Err` instead and
/// counts against its sender (SPEC 4.3). A requester only ever sends `Ok`.
pub type Inbound<T> = Result<T, WireError>;

impl<Req, Resp> request_response::Codec for WireCodec<Req, Resp>
where
    Req: Serialize + DeserializeOwned + Bounded + Send + 'static,
    Resp: Serialize + DeserializeOwned + Bounded + Send + 'static,
{
    type Protocol = StreamProtocol;
    type Request = Inbound<Req>;
    type Response = Resp;

    async fn read_request<T>(&mut self, _: &StreamProtocol, io: &mut T) -> io::Result<Inbound<Req>>
    where
        T: AsyncRead + Unpin + Send,
    {
        read_message(io, self.max_request).await
    }

    async fn read_response<T>(&mut self, _: &StreamProtocol, io: &mut T) -> io::Result<Resp>
    where
        T: AsyncRead + Unpin + Send,
    {
        // A bad response does reach the behaviour (as an outbound failure
        // of a request it knows), carrying the WireError: see remote_fault.
        read_message(io, self.max_response)
            .await?
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
    }

    async fn write_request<T>(
        &mut self,
        _: &StreamProtocol,
        io: &mut T,
        req: Inbound<Req>,
    ) -> io::Result<()>
    where
        T: AsyncWrite + Unpin + Send,
    {
        let frame = req
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))
            .and_then(|req| frame(req, self.max_request));
        write_frame(io, frame).await
    }

    async fn write_response<T>(
        &mut self,
        _: &StreamProtocol,
        io: &mut T,
        res: Resp,
    ) -> io::Result<()>
    where
        T: AsyncWrite + Unpin + Send,
    {
        write_frame(io, frame(res, self.max_response)).await
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        // Nothing a peer sends can panic a decoder.
        #[test]
        fn decoders_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
            let _ = decode::<LobbyRequest>(&bytes, MAX_LOBBY_BYTES);
            let _ = decode::<LobbyResponse>(&bytes, MAX_LOBBY_BYTES);
            let _ = decode::<SyncRequest>(&bytes, MAX_SYNC_REQUEST_BYTES);
            let _ = decode::<SyncResponse>(&bytes, MAX_SYNC_RESPONSE_BYTES);
            let _ = decode::<Announce>(&bytes, MAX_ANNOUNCE_BYTES);
        }

        // Valid messages with a byte flipped or cut still never panic, and
        // the intact ones round-trip.
        #[test]
        fn mutated_messages_never_panic(heads in proptest::collection::vec(any::<u64>(), 0..6),
                                        flip in any::<usize>(), cut in any::<usize>()) {
            let request = SyncRequest { game: GameId([7; 32]), heads };
            let bytes = encode(&request);
            prop_assert_eq!(decode::<SyncRequest>(&bytes, MAX_SYNC_REQUEST_BYTES), Ok(request));
            let mut mutated = bytes.clone();
            let i = flip % mutated.len();
            mutated[i] ^= 0x5a;
            let _ = decode::<SyncRequest>(&mutated, MAX_SYNC_REQUEST_BYTES);
            let _ = decode::<SyncRequest>(&bytes[..cut % bytes.len()], MAX_SYNC_REQUEST_BYTES);
        }
    }

    #[test]
    fn bounds_are_enforced() {
        let too_many = SyncRequest {
            game: GameId([0; 32]),
            heads: vec![0; MAX_SEATS + 1],
        };
        assert!(matches!(
            decode::<SyncRequest>(&encode(&too_many), MAX_SYNC_REQUEST_BYTES),
            Err(WireError::OutOfBounds { .. })
        ));
        let mut bytes = encode(&SyncRequest {
            game: GameId([0; 32]),
            heads: vec![1],
        });
        bytes.push(0);
        assert!(matches!(
            decode::<SyncRequest>(&bytes, MAX_SYNC_REQUEST_BYTES),
            Err(WireError::Malformed { .. })
        ));
        assert!(matches!(
            decode::<SyncRequest>(&[0; 2000], MAX_SYNC_REQUEST_BYTES),
            Err(WireError::TooLarge { .. })
        ));
    }
}
