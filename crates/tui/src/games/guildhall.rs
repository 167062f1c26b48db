//! Guildhall in the list of games.

use std::time::Duration;

use roundtable_bots::{Bot, Level};
use roundtable_guildhall::{Guildhall, Options};

use super::Listed;

impl Listed for Guildhall {
    const TITLE: &'static str = "Guildhall";

    fn bot(level: Level, _options: &Options, think: Duration, seed: u64) -> Box<dyn Bot<Self>> {
        level.guildhall(think, seed)
    }
}
