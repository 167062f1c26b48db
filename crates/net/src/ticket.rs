//! Tickets: one copy-pasteable string that invites someone to a table.
//!
//! ```text
//! ticket = "rt1_" || base32(payload || crc32(payload) u32 LE)
//! payload = postcard(TicketBody)
//! TicketBody = version u8 (= 1) || lobby [32] || game string || host [32] || addrs Vec<bytes>
//! ```
//!
//! base32 is RFC 4648 without padding; writers use lower case, readers take
//! either. The prefix names the format version, so a later format can be
//! told apart before decoding; the checksum catches a truncated or mistyped
//! paste before any dialling. See `protocol/SPEC.md` part 4.

use std::net::{Ipv4Addr, Ipv6Addr};

use libp2p::multiaddr::Protocol;
use libp2p::{Multiaddr, PeerId};
use roundtable_table::PublicKey;
use serde::{Deserialize, Serialize};

use crate::wire::{LobbyId, MAX_ADDR_BYTES, MAX_ADDRS};

/// The text prefix of a version-1 ticket.
pub const TICKET_PREFIX: &str = "rt1_";
/// The body's version byte.
pub const TICKET_VERSION: u8 = 1;
/// Longest ticket text accepted.
pub const MAX_TICKET_CHARS: usize = 2048;

/// An invitation: which lobby, which game, whose, and where to dial.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ticket {
    /// The lobby id (hash of the host's terms).
    pub lobby: LobbyId,
    /// The game's name.
    pub game: String,
    /// The host's key; its peer id is derived from it.
    pub host: PublicKey,
    /// Where the host listens.
    pub addrs: Vec<Multiaddr>,
}

#[derive(Serialize, Deserialize)]
struct TicketBody {
    version: u8,
    lobby: [u8; 32],
    game: String,
    host: [u8; 32],
    addrs: Vec<Vec<u8>>,
}

/// Why a ticket was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TicketError {
    /// Not starting with `rt1_` (another format version, or not a ticket).
    #[error("a ticket starts with {TICKET_PREFIX:?}")]
    Prefix,
    /// Too long to be a ticket.
    #[error("the ticket is longer than {MAX_TICKET_CHARS} characters")]
    TooLong,
    /// Characters outside base32.
    #[error("the ticket is not base32: {0}")]
    Base32(String),
    /// The checksum does not match: truncated or mistyped.
    #[error("the ticket's checksum does not match (truncated or mistyped?)")]
    Checksum,
    /// The body does not decode.
    #[error("the ticket does not decode: {0}")]
    Malformed(String),
    /// A version this program does not read.
    #[error("ticket version {0} is not supported")]
    Version(u8),
    /// The host key is not an ed25519 key.
    #[error("the ticket's host key is not valid")]
    HostKey,
}

impl Ticket {
    /// The host's libp2p peer id.
    pub fn host_peer(&self) -> Option<PeerId> {
        crate::identity::peer_id_of(&self.host)
    }

    /// The text form.
    pub fn encode(&self) -> String {
        let body = TicketBody {
            version: TICKET_VERSION,
            lobby: self.lobby.0,
            game: self.game.clone(),
            host: self.host.0,
            addrs: self
                .addrs
                .iter()
                .take(MAX_ADDRS)
                .map(Multiaddr::to_vec)
                .collect(),
        };
        let mut bytes = crate::wire::encode(&body);
        let crc = crc32fast::hash(&bytes);
        bytes.extend_from_slice(&crc.to_le_bytes());
        let mut text = String::from(TICKET_PREFIX);
        text.push_str(
            &data_encoding::BASE32_NOPAD
                .encode(&bytes)
                .to_ascii_lowercase(),
        );
        text
    }

    /// Read a ticket's text form as it was pasted: white space and box
    /// borders anywhere are left out ([`pasted_ticket`]).
    pub fn decode(text: &str) -> Result<Ticket, TicketError> {
        let text = pasted_ticket(text);
        if text.len() > MAX_TICKET_CHARS {
            return Err(TicketError::TooLong);
        }
        let rest = text
            .get(..TICKET_PREFIX.len())
            .filter(|p| p.eq_ignore_ascii_case(TICKET_PREFIX))
            .and_then(|_| text.get(TICKET_PREFIX.len()..))
            .ok_or(TicketError::Prefix)?;
        if let Some(c) = rest
            .chars()
            .find(|c| !matches!(c.to_ascii_lowercase(), 'a'..='z' | '2'..='7'))
        {
            return Err(TicketError::Base32(format!(
                "{c:?} is not a letter or a digit from 2 to 7"
            )));
        }
        // Every character is base32, so a length or last bits that no
        // encoder writes mean a paste cut short, as a wrong checksum does.
        let bytes = data_encoding::BASE32_NOPAD
            .decode(rest.to_ascii_uppercase().as_bytes())
            .map_err(|_| TicketError::Checksum)?;
        let split = bytes.len().checked_sub(4).ok_or(TicketError::Checksum)?;
        let (payload, crc) = bytes.split_at(split);
        let mut crc4 = [0u8; 4];
        crc4.copy_from_slice(crc);
        if crc32fast::hash(payload) != u32::from_le_bytes(crc4) {
            return Err(TicketError::Checksum);
        }
        let (body, left) = postcard::take_from_bytes::<TicketBody>(payload)
            .map_err(|e| TicketError::Malformed(e.to_string()))?;
        if !left.is_empty() {
            return Err(TicketError::Malformed("trailing bytes".into()));
        }
        if body.version != TICKET_VERSION {
            return Err(TicketError::Version(body.version));
        }
        if body.addrs.len() > MAX_ADDRS || body.addrs.iter().any(|a| a.len() > MAX_ADDR_BYTES) {
            return Err(TicketError::Malformed(
                "too many or too long addresses".into(),
            ));
        }
        let addrs = body
            .addrs
            .into_iter()
            .map(|a| Multiaddr::try_from(a).map_err(|e| TicketError::Malformed(e.to_string())))
            .collect::<Result<Vec<_>, _>>()?;
        let ticket = Ticket {
            lobby: LobbyId(body.lobby),
            game: body.game,
            host: PublicKey(body.host),
            addrs,
        };
        ticket.host_peer().ok_or(TicketError::HostKey)?;
        Ok(ticket)
    }

    /// How far the ticket's best address reaches: a ticket holding only
    /// private and loopback addresses cannot bring in anyone from another
    /// network, whatever the host does, and both sides should say so.
    pub fn reach(&self) -> Reach {
        self.addrs
            .iter()
            .map(Reach::of)
            .min()
            .unwrap_or(Reach::ThisMachine)
    }

    /// What a host printing this ticket is told when not everyone can use
    /// it (two lines: who can reach the table, and what would let others
    /// in); `None` when the ticket holds an address the internet reaches.
    pub fn reach_warning(&self) -> Option<[&'static str; 2]> {
        let who = match self.reach() {
            Reach::Internet => return None,
            Reach::Lan => {
                "this ticket holds only private-network addresses: players on other networks \
                 cannot reach this table, only those on the same network"
            }
            Reach::ThisMachine => {
                "this ticket holds only loopback addresses: the table is reachable from this \
                 machine only"
            }
        };
        Some([
            who,
            "to let others in: enable UPnP on your router, forward a port to this machine, or \
             run `roundtable relay` on a machine with a public address and pass its address \
             with --relay",
        ])
    }

    /// Why nobody may answer at this ticket's addresses, as a joiner that
    /// gives up says it: a table gone, unless the addresses could never be
    /// reached from another network in the first place.
    pub fn unanswered_reason(&self) -> &'static str {
        if self.addrs.is_empty() {
            return "the ticket holds no address: ask the host for a new one";
        }
        match self.reach() {
            Reach::Internet => "the table may be over or the host offline",
            Reach::Lan => {
                "none of them reaches beyond the host's network: the host is on a private \
                 network, reachable from the same network only; ask the host for a ticket with \
                 a relay"
            }
            Reach::ThisMachine => {
                "they are all loopback addresses: the table is reachable from the host's \
                 machine only; ask the host for a ticket with a relay"
            }
        }
    }
}

/// Who can dial an address, best first (the order a ticket lists them in).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reach {
    /// A relay circuit, a public IP address or a DNS name: anyone on the
    /// internet may reach it.
    Internet,
    /// A private network's address (RFC 1918, CGNAT 100.64.0.0/10,
    /// link-local, IPv6 ULA fc00::/7): the same network only.
    Lan,
    /// Loopback (or unspecified, or no network address at all, such as
    /// `/memory/` or `/unix/`): this machine only.
    ThisMachine,
}

impl Reach {
    /// How far `addr` reaches. A circuit counts as the relay's reach is
    /// not ours to judge: the host chose that relay for its players.
    pub fn of(addr: &Multiaddr) -> Reach {
        if addr.iter().any(|p| matches!(p, Protocol::P2pCircuit)) {
            return Reach::Internet;
        }
        match addr.iter().next() {
            Some(Protocol::Ip4(ip)) => reach_v4(ip),
            Some(Protocol::Ip6(ip)) => match ip.to_ipv4_mapped() {
                Some(v4) => reach_v4(v4),
                None => reach_v6(ip),
            },
            Some(
                Protocol::Dns(_) | Protocol::Dns4(_) | Protocol::Dns6(_) | Protocol::Dnsaddr(_),
            ) => Reach::Internet,
            _ => Reach::ThisMachine,
        }
    }
}

fn reach_v4(ip: Ipv4Addr) -> Reach {
    let [a, b, ..] = ip.octets();
    let cgnat = a == 100 && (64..128).contains(&b);
    if ip.is_loopback() || ip.is_unspecified() {
        Reach::ThisMachine
    } else if ip.is_private() || ip.is_link_local() || cgnat {
        Reach::Lan
    } else {
        Reach::Internet
    }
}

fn reach_v6(ip: Ipv6Addr) -> Reach {
    let first = ip.segments()[0];
    let unique_local = first & 0xfe00 == 0xfc00;
    let link_local = first & 0xffc0 == 0xfe80;
    if ip.is_loopback() || ip.is_unspecified() {
        Reach::ThisMachine
    } else if unique_local || link_local {
        Reach::Lan
    } else {
        Reach::Internet
    }
}

/// `addr` ending in `/p2p/<peer>`, as a ticket's addresses do (SPEC 4.6).
pub(crate) fn with_peer(addr: &Multiaddr, peer: PeerId) -> Multiaddr {
    match addr.iter().last() {
        Some(Protocol::P2p(_)) => addr.clone(),
        _ => addr.clone().with(Protocol::P2p(peer)),
    }
}

/// The addresses `peer` hands out (in its ticket and peer lists), from what
/// it knows of itself: each ending in `/p2p/<peer>`, each once, those that
/// reach the internet first, then private ones, loopback last (each group
/// in the order given: confirmed external addresses before listen ones),
/// at most [`MAX_ADDRS`]. The same address learnt twice, once with and once
/// without the final `/p2p/<peer>` (a relay circuit is reported both ways),
/// is one address.
pub fn reachable_first(peer: PeerId, known: impl IntoIterator<Item = Multiaddr>) -> Vec<Multiaddr> {
    let mut addrs: Vec<Multiaddr> = Vec::new();
    for addr in known {
        let addr = with_peer(&addr, peer);
        if !addrs.contains(&addr) {
            addrs.push(addr);
        }
    }
    addrs.sort_by_key(Reach::of);
    addrs.truncate(MAX_ADDRS);
    addrs
}

/// A ticket's text as it was pasted, cleaned: white space and box-drawing
/// borders (`│`, `|`, and the rest of Unicode's box-drawing block) are left
/// out, wherever they are. A ticket shown in a box on a terminal is copied
/// wrapped over several lines with the box's borders in it; none of those
/// characters can be part of a ticket. Front ends that take a pasted ticket
/// show and decode this text.
pub fn pasted_ticket(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace() && *c != '|' && !('\u{2500}'..='\u{257f}').contains(c))
        .collect()
}

impl std::fmt::Display for Ticket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.encode())
    }
}

impl std::str::FromStr for Ticket {
    type Err = TicketError;
    fn from_str(s: &str) -> Result<Ticket, TicketError> {
        Ticket::decode(s)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use roundtable_table::Identity;

    use super::*;

    fn sample() -> Ticket {
        let id = Identity::from_secret([9; 32]);
        Ticket {
            lobby: LobbyId([3; 32]),
            game: "port-royal".into(),
            host: id.public(),
            addrs: vec![
                "/ip4/127.0.0.1/tcp/4001".parse().unwrap(),
                "/ip4/127.0.0.1/udp/4001/quic-v1".parse().unwrap(),
            ],
        }
    }

    #[test]
    fn round_trips_and_reads_either_case() {
        let t = sample();
        let text = t.encode();
        assert!(text.starts_with("rt1_"));
        assert_eq!(Ticket::decode(&text), Ok(t.clone()));
        assert_eq!(
            Ticket::decode(&format!("  {}\n", text.to_uppercase())),
            Ok(t)
        );
    }

    #[test]
    fn refuses_damaged_tickets() {
        let text = sample().encode();
        assert_eq!(Ticket::decode("rt2_abc"), Err(TicketError::Prefix));
        assert!(Ticket::decode(&text[..text.len() - 3]).map(|_| ()).is_err());
        // One character changed: base32 still, but the checksum catches it.
        let mut chars: Vec<char> = text.chars().collect();
        let i = chars.len() / 2;
        chars[i] = if chars[i] == 'a' { 'b' } else { 'a' };
        let changed: String = chars.into_iter().collect();
        assert!(Ticket::decode(&changed).is_err());
    }

    #[test]
    fn reads_a_ticket_copied_wrapped_from_a_box() {
        let t = sample();
        let text = t.encode();
        let boxed: String = text
            .as_bytes()
            .chunks(30)
            .map(|row| format!("│ {:<30} │\r\n", String::from_utf8_lossy(row)))
            .collect();
        assert_eq!(
            Ticket::decode(&format!("┌────┐\n{boxed}└────┘")),
            Ok(t.clone())
        );
        assert_eq!(Ticket::decode(&format!("| {text} |")), Ok(t.clone()));
        assert_eq!(pasted_ticket(&boxed), text);
    }

    #[test]
    fn every_truncation_is_a_checksum_error() {
        let text = sample().encode();
        for cut in TICKET_PREFIX.len()..text.len() {
            assert_eq!(
                Ticket::decode(&text[..cut]),
                Err(TicketError::Checksum),
                "cut at {cut}"
            );
        }
        assert!(matches!(
            Ticket::decode(&format!("{text}#")),
            Err(TicketError::Base32(_))
        ));
    }

    fn peer() -> PeerId {
        let id = Identity::from_secret([9; 32]);
        crate::identity::peer_id_of(&id.public()).unwrap()
    }

    fn relay() -> PeerId {
        let id = Identity::from_secret([7; 32]);
        crate::identity::peer_id_of(&id.public()).unwrap()
    }

    fn addr(text: &str) -> Multiaddr {
        text.parse().unwrap()
    }

    #[test]
    fn a_circuit_learnt_twice_is_listed_once_and_first() {
        let me = peer();
        let relay = format!("/ip4/127.0.0.1/tcp/4001/p2p/{}/p2p-circuit", relay());
        let relay = relay.as_str();
        // The relay client reports its circuit as a listen address ending in
        // our id; identify confirms the same circuit without it.
        let listen_circuit = addr(&format!("{relay}/p2p/{me}"));
        let known = vec![
            addr("/ip4/127.0.0.1/tcp/5000"),
            addr("/ip4/10.1.2.3/tcp/5000"),
            addr(relay),
            addr("/ip4/198.51.100.7/tcp/5000"),
            listen_circuit.clone(),
            addr("/ip4/10.1.2.3/tcp/5000"),
        ];
        assert_eq!(
            reachable_first(me, known),
            vec![
                listen_circuit,
                addr(&format!("/ip4/198.51.100.7/tcp/5000/p2p/{me}")),
                addr(&format!("/ip4/10.1.2.3/tcp/5000/p2p/{me}")),
                addr(&format!("/ip4/127.0.0.1/tcp/5000/p2p/{me}")),
            ]
        );
    }

    #[test]
    fn private_and_loopback_addresses_reach_no_further_than_their_network() {
        for (text, reach) in [
            ("/ip4/10.0.0.1/tcp/1", Reach::Lan),
            ("/ip4/172.16.0.1/tcp/1", Reach::Lan),
            ("/ip4/172.32.0.1/tcp/1", Reach::Internet),
            ("/ip4/192.168.1.1/udp/1/quic-v1", Reach::Lan),
            ("/ip4/100.64.0.1/tcp/1", Reach::Lan),
            ("/ip4/100.127.255.255/tcp/1", Reach::Lan),
            ("/ip4/100.128.0.1/tcp/1", Reach::Internet),
            ("/ip4/169.254.3.4/tcp/1", Reach::Lan),
            ("/ip4/127.0.0.1/tcp/1", Reach::ThisMachine),
            ("/ip4/0.0.0.0/tcp/1", Reach::ThisMachine),
            ("/ip4/203.0.113.5/tcp/1", Reach::Internet),
            ("/ip6/::1/tcp/1", Reach::ThisMachine),
            ("/ip6/fd00::1/tcp/1", Reach::Lan),
            ("/ip6/fc00::1/tcp/1", Reach::Lan),
            ("/ip6/fe80::1/tcp/1", Reach::Lan),
            ("/ip6/::ffff:10.0.0.1/tcp/1", Reach::Lan),
            ("/ip6/2001:db8::1/tcp/1", Reach::Internet),
            ("/dns4/example.org/tcp/1", Reach::Internet),
            ("/memory/5", Reach::ThisMachine),
            ("/unix/tmp%2Fsocket", Reach::ThisMachine),
        ] {
            assert_eq!(Reach::of(&addr(text)), reach, "{text}");
        }
        let circuit = format!("/ip4/10.0.0.1/tcp/1/p2p/{}/p2p-circuit", relay());
        assert_eq!(Reach::of(&addr(&circuit)), Reach::Internet);
        let mut t = sample();
        assert_eq!(t.reach(), Reach::ThisMachine);
        t.addrs.push(addr("/ip4/10.0.0.1/tcp/1"));
        assert_eq!(t.reach(), Reach::Lan);
        t.addrs.push(addr("/ip4/198.51.100.1/tcp/1"));
        assert_eq!(t.reach(), Reach::Internet);
        t.addrs.clear();
        assert_eq!(t.reach(), Reach::ThisMachine);
    }

    fn any_addr() -> impl Strategy<Value = Multiaddr> {
        let relay = format!("/ip4/192.0.2.1/tcp/4001/p2p/{}/p2p-circuit", relay());
        (any::<[u8; 4]>(), 1u16..4, 0u8..4).prop_map(move |(ip, port, form)| {
            let ip = Ipv4Addr::from(ip);
            match form {
                0 => addr(&format!("/ip4/{ip}/tcp/{port}")),
                1 => addr(&format!("/ip4/{ip}/udp/{port}/quic-v1")),
                2 => addr(&relay),
                _ => addr(&format!("{relay}/p2p/{}", peer())),
            }
        })
    }

    proptest! {
        #[test]
        fn never_panics(s in "\\PC{0,300}") {
            let _ = Ticket::decode(&s);
            let _ = Ticket::decode(&format!("rt1_{s}"));
        }

        #[test]
        fn handed_out_addresses_are_each_once_best_first(
            known in proptest::collection::vec(any_addr(), 0..20)
        ) {
            let me = peer();
            let out = reachable_first(me, known.clone());
            for (i, a) in out.iter().enumerate() {
                prop_assert!(!out[i + 1..].contains(a), "{a} twice in {out:?}");
                prop_assert_eq!(a.iter().last(), Some(Protocol::P2p(me)));
            }
            prop_assert!(out.windows(2).all(|w| Reach::of(&w[0]) <= Reach::of(&w[1])));
            let distinct = known.iter().map(|a| with_peer(a, me)).fold(Vec::new(), |mut seen, a| {
                if !seen.contains(&a) { seen.push(a); }
                seen
            });
            prop_assert_eq!(out.len(), distinct.len().min(MAX_ADDRS));
        }
    }
}
