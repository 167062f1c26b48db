//! Who plays a seat and how long it has left, as every game's player
//! lines end: a seat that stops answering shows offline, and the countdown
//! to the moment the table plays it.

use roundtable_engine::Seat;
use roundtable_games::Listed;

use crate::session::{SeatKind, Snapshot};

/// A seat's presence in a few words: "you", "bot", "auto" (the table plays
/// it now), or a remote seat's connection ("online", "offline"), then the
/// time left on its turn clock ("1:55") while one runs. A replay's seats are
/// names in a file: nobody is here or online, so it gives "".
pub(crate) fn seat_presence<G: Listed>(s: &Snapshot<G>, seat: Seat, replay: bool) -> String {
    let Some(info) = s.seats.get(seat.index()).filter(|_| !replay) else {
        return String::new();
    };
    // Nobody waits for a seat the table plays: its clock means nothing.
    if info.forfeited {
        return "auto".to_owned();
    }
    let mut words = match info.kind {
        SeatKind::You => "you".to_owned(),
        SeatKind::Bot => "bot".to_owned(),
        SeatKind::Remote => info.connection.words().to_owned(),
    };
    if let Some(left) = info.clock {
        words.push_str(&format!(" {}", super::clock::clock_words(left)));
    }
    words
}
