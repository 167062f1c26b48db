//! Who plays a seat and how long the table waits for it, in the words every
//! game's table shows beside the seat: a seat that stops answering must be
//! seen going, with the time left before the table claims it.

use super::clock::clock_words;
use crate::session::{SeatInfo, SeatKind};

/// `info`'s seat in a few words: who plays it ("you", "bot", or a remote
/// seat's connection: "online", "reconnecting", "offline"), then, when the
/// table keeps a turn clock for it, the time left before the seat is played
/// automatically ("offline 0:42"). A forfeited seat is "auto" with no
/// clock: nobody waits for it any more. A replay's seats are names in a
/// file, so a replay shows none of this.
pub fn seat_presence(info: &SeatInfo) -> String {
    if info.forfeited {
        return "auto".to_owned();
    }
    let mut words = match info.kind {
        SeatKind::You => "you".to_owned(),
        SeatKind::Bot => "bot".to_owned(),
        SeatKind::Remote => info.connection.words().to_owned(),
    };
    if let Some(left) = info.clock {
        words.push(' ');
        words.push_str(&clock_words(left));
    }
    words
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::session::Connection;

    fn seat(kind: SeatKind, connection: Connection) -> SeatInfo {
        SeatInfo {
            name: "bob".to_owned(),
            kind,
            connection,
            clock: None,
            forfeited: false,
        }
    }

    #[test]
    fn an_offline_seat_shows_the_time_left_before_its_claim() {
        let mut info = seat(SeatKind::Remote, Connection::Offline);
        info.clock = Some(Duration::from_secs(115));
        assert_eq!(seat_presence(&info), "offline 1:55");
        info.forfeited = true;
        assert_eq!(seat_presence(&info), "auto");
        assert_eq!(
            seat_presence(&seat(SeatKind::You, Connection::Local)),
            "you"
        );
        assert_eq!(
            seat_presence(&seat(SeatKind::Bot, Connection::Local)),
            "bot"
        );
    }
}
