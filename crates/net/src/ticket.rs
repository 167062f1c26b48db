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

    proptest! {
        #[test]
        fn never_panics(s in "\\PC{0,300}") {
            let _ = Ticket::decode(&s);
            let _ = Ticket::decode(&format!("rt1_{s}"));
        }
    }
}
