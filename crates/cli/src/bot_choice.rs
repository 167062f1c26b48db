//! Which computer player plays a seat: one flag, `--bot heuristic|random`,
//! parsed the same way by `play`, `selfplay`, `host`, `join` and `resume`.

use roundtable_bots::{Bot, PortRoyalBot, RandomBot};
use roundtable_port_royal::PortRoyal;

/// A kind of computer player, as `--bot` names it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum BotKind {
    /// Plays Port Royal to win, the same way every time.
    #[default]
    Heuristic,
    /// Picks any legal move at random (from `--bot-seed`).
    Random,
}

impl BotKind {
    /// The name `--bot` takes.
    pub(crate) fn name(self) -> &'static str {
        match self {
            BotKind::Heuristic => "heuristic",
            BotKind::Random => "random",
        }
    }

    /// A bot of this kind; `seed` steers only a random bot's choices. The
    /// table tells a bot its options from the genesis
    /// (`Bot::table_options`): a joiner does not know them beforehand.
    pub(crate) fn make(self, seed: u64) -> Box<dyn Bot<PortRoyal>> {
        match self {
            BotKind::Heuristic => Box::new(PortRoyalBot::default()),
            BotKind::Random => Box::new(RandomBot::new(seed)),
        }
    }
}

/// The bot flags of every command where bots play.
#[derive(Clone, Debug, Default, clap::Args)]
pub(crate) struct BotArgs {
    /// The computer player.
    #[arg(long, value_enum, default_value_t = BotKind::Heuristic)]
    pub(crate) bot: BotKind,
    /// Seed of a random bot's choices (default: from `--seed` where the
    /// command has one, else a fresh one).
    #[arg(long)]
    pub(crate) bot_seed: Option<u64>,
}

/// One bot of `kind` per seat of a game of `seats` seats whose keys come
/// from `game_seed` ([`roundtable_local::LocalGame::new`]), in joining
/// order, each named after the seat it will take ("Bot 3" sits at seat 3),
/// so that the log, the result and the transcript agree. A random bot's
/// seed is `bot_seed` plus its seat number.
pub(crate) fn seated_bots(
    kind: BotKind,
    game_seed: u64,
    bot_seed: u64,
    seats: u8,
) -> Vec<(String, roundtable_local::Player<PortRoyal>)> {
    roundtable_local::seeded_seats(game_seed, seats)
        .into_iter()
        .map(|seat| {
            let number = u64::from(seat.number());
            (
                format!("Bot {number}"),
                roundtable_local::Player::Bot(kind.make(bot_seed.wrapping_add(number))),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use clap::ValueEnum;

    use super::BotKind;

    /// The name a log prints for a kind is the one `--bot` takes back.
    #[test]
    fn each_kind_is_named_as_bot_takes_it() {
        for kind in BotKind::value_variants() {
            assert_eq!(BotKind::from_str(kind.name(), false), Ok(*kind));
        }
    }
}
