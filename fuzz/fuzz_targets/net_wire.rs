//! What the network layer reads from other peers: lobby requests and
//! responses, catch-up requests and responses, LAN announcements, and
//! tickets pasted by a user. Decoding never panics, and whatever decodes
//! encodes back to bytes that decode to the same message.
#![no_main]

use libfuzzer_sys::fuzz_target;
use roundtable_net::Ticket;
use roundtable_net::wire::{
    Announce, Bounded, LobbyRequest, LobbyResponse, MAX_ANNOUNCE_BYTES, MAX_LOBBY_BYTES,
    MAX_SYNC_REQUEST_BYTES, MAX_SYNC_RESPONSE_BYTES, SyncRequest, SyncResponse, decode, encode,
};
use serde::Serialize;
use serde::de::DeserializeOwned;

fn round_trip<T>(data: &[u8], max: usize)
where
    T: DeserializeOwned + Serialize + Bounded + PartialEq + std::fmt::Debug,
{
    if let Ok(message) = decode::<T>(data, max) {
        let again = decode::<T>(&encode(&message), max).expect("a decoded message re-encodes");
        assert_eq!(again, message);
    }
}

fuzz_target!(|data: &[u8]| {
    round_trip::<LobbyRequest>(data, MAX_LOBBY_BYTES);
    round_trip::<LobbyResponse>(data, MAX_LOBBY_BYTES);
    round_trip::<SyncRequest>(data, MAX_SYNC_REQUEST_BYTES);
    round_trip::<SyncResponse>(data, MAX_SYNC_RESPONSE_BYTES);
    round_trip::<Announce>(data, MAX_ANNOUNCE_BYTES);
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(ticket) = Ticket::decode(text)
    {
        let again = Ticket::decode(&ticket.encode()).expect("a decoded ticket re-encodes");
        assert_eq!(again, ticket);
    }
});
