//! Port Royal in the list of games.

use std::time::Duration;

use roundtable_bots::{Bot, Level};
use roundtable_engine::Seat;
use roundtable_port_royal::{Event, Options, PortRoyal};

use super::Listed;

impl Listed for PortRoyal {
    const TITLE: &'static str = "Port Royal";
    const TIE_BREAK: &'static str = "coins";

    fn bot(level: Level, options: &Options, think: Duration, seed: u64) -> Box<dyn Bot<Self>> {
        level.port_royal(options, think, seed)
    }

    fn event_line(event: &Event, names: &[String], me: Option<Seat>) -> Option<String> {
        crate::text::event_line(event, names, me)
    }
}
