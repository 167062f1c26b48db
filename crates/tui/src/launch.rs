//! What the start menu's network entries carry: the table to host, a table
//! found on the LAN. The menu stays pure: picking "host", "join", "LAN
//! tables" or "watch" yields an [`crate::Effect`], and the runner hands it
//! to a [`crate::Launcher`] that the binary supplies, which does the I/O
//! (starting a peer, listening for tables) and returns a
//! [`crate::Session`] the screens then show like any other.

use roundtable_games::Level;

use crate::setup::LocalConfig;

/// A table to host, as the start menu's host set-up chose it.
#[derive(Clone, Debug, PartialEq)]
pub struct HostConfig {
    /// The game, the seats at the table (the host's included) and the
    /// game's rule options, held as the local set-up holds them, so that
    /// both set-ups change them through the same rows; the rest of it
    /// (pace, bots of a local game) is not read.
    pub table: LocalConfig,
    /// Seats filled by bots that run in this process, each a full peer.
    pub bots: u8,
    /// How well those bots play (a hard one thinks at most
    /// [`roundtable_games::DEFAULT_THINK`] on a decision).
    pub bot_level: Level,
}

impl HostConfig {
    /// The options of game `G` the set-up chose.
    pub fn options<G: roundtable_games::Listed>(&self) -> G::Options {
        self.table.options::<G>()
    }
}

impl Default for HostConfig {
    fn default() -> Self {
        HostConfig {
            table: LocalConfig {
                seats: 3,
                ..LocalConfig::default()
            },
            bots: 1,
            bot_level: Level::Normal,
        }
    }
}

/// A table announced on the LAN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundTable {
    /// The host's display name.
    pub host: String,
    /// The game.
    pub game: String,
    /// Seats taken when it was announced.
    pub filled: u8,
    /// Seats in all.
    pub seats: u8,
    /// The ticket that joins it.
    pub ticket: String,
}
