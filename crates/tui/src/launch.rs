//! Starting network games from the start menu. The menu stays pure: picking
//! "host", "join", "LAN tables" or "watch" yields an [`crate::Effect`], and
//! the runner hands it to a [`Launcher`] that the binary supplies, which does
//! the I/O (starting a peer, listening for tables) and returns a
//! [`Session`] the screens then show like any other.

use roundtable_bots::Level;
use roundtable_port_royal::Options;

use crate::session::Session;

/// A table to host, as the start menu's host set-up chose it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostConfig {
    /// Seats at the table, the host's included (2 to 5).
    pub seats: u8,
    /// Seats filled by bots that run in this process, each a full peer.
    pub bots: u8,
    /// How well those bots play (a hard one thinks
    /// [`roundtable_bots::DEFAULT_THINK`] a move).
    pub bot_level: Level,
    /// The game's options.
    pub options: Options,
}

impl Default for HostConfig {
    fn default() -> Self {
        HostConfig {
            seats: 3,
            bots: 1,
            bot_level: Level::Normal,
            options: Options::default(),
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

/// Carries out the start menu's network entries (implemented by the
/// binary, over the network crate). Errors are sentences for the player;
/// `name` is the name the player chose in the start menu.
pub trait Launcher {
    /// Open a table and take its first seat as `name`; bots join it.
    fn host(&mut self, config: &HostConfig, name: &str) -> Result<Box<dyn Session>, String>;
    /// Take a seat as `name` at the table `ticket` names.
    fn join(&mut self, ticket: &str, name: &str) -> Result<Box<dyn Session>, String>;
    /// Follow the table `ticket` names as a spectator called `name`.
    fn watch(&mut self, ticket: &str, name: &str) -> Result<Box<dyn Session>, String>;
    /// Listen on the LAN for a few seconds and return the open tables
    /// (blocks; the screen says it is looking first).
    fn find_tables(&mut self) -> Result<Vec<FoundTable>, String>;
}
