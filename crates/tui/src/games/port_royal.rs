//! Port Royal in the list of games.

use std::time::Duration;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use roundtable_bots::{Bot, Level};
use roundtable_engine::{ChanceOutcome, Seat, Standing};
use roundtable_port_royal::{Action, Event, Options, PortRoyal, View};

use super::{Listed, Milestone};
use crate::app::{App, SetupRow};
use crate::local::LocalConfig;
use crate::session::Snapshot;

impl Listed for PortRoyal {
    const TITLE: &'static str = "Port Royal";
    const TIE_BREAK: &'static str = "coins";

    fn bot(level: Level, options: &Options, think: Duration, seed: u64) -> Box<dyn Bot<Self>> {
        level.port_royal(options, think, seed)
    }

    fn event_line(event: &Event, names: &[String], me: Option<Seat>) -> Option<String> {
        crate::text::event_line(event, names, me)
    }

    fn scores(view: &View) -> Vec<u32> {
        view.players.iter().map(|p| p.vp).collect()
    }

    fn milestone(event: &Event) -> Option<Milestone> {
        match event {
            Event::TurnStarted { turn, .. } => Some(Milestone::TurnStarted(*turn)),
            Event::GameOver { .. } => Some(Milestone::GameOver),
            _ => None,
        }
    }

    fn chosen_by(event: &Event) -> Option<Seat> {
        match event {
            Event::Revealed { seat, .. }
            | Event::Repelled { seat, .. }
            | Event::Stopped { seat }
            | Event::Passed { seat }
            | Event::Traded { seat, .. }
            | Event::Hired { seat, .. }
            | Event::Claimed { seat, .. }
            | Event::Declined { seat, .. }
            | Event::KeptAside { seat, .. } => Some(*seat),
            Event::Compensation { from, .. } => Some(*from),
            _ => None,
        }
    }

    fn table(app: &App, snap: &Snapshot<Self>, area: Rect, buf: &mut Buffer) {
        crate::ui::port_royal_table(app, snap, area, buf);
    }

    fn side_log_max_scroll(app: &App, snap: &Snapshot<Self>, width: u16, height: u16) -> usize {
        crate::ui::side_log_max_scroll(app, snap, width, height)
    }

    fn ranking_details(view: &View, standing: &Standing) -> String {
        crate::ui::port_royal_ranking(view, standing)
    }

    fn ranking_order(view: &View) -> &'static str {
        crate::text::ranking_order(view)
    }

    fn tie_breaks(snap: &Snapshot<Self>) -> Vec<String> {
        crate::ui::tie_breaks(snap)
    }

    fn action_words(
        before: &Self,
        seat: Seat,
        action: &Action,
        _events: &[Event],
        names: &[String],
    ) -> String {
        crate::replay::port_royal_action_words(before, seat, *action, names)
    }

    fn chance_words(
        before: &Self,
        outcome: &ChanceOutcome,
        _events: &[Event],
        names: &[String],
    ) -> String {
        crate::replay::port_royal_chance_words(before, outcome, names)
    }

    const SETUP_ROWS: &'static [SetupRow] = &[
        SetupRow::VictoryPoints,
        SetupRow::PassAutomatically,
        SetupRow::ExpeditionRequired,
        SetupRow::Pace,
        SetupRow::Expansion,
    ];

    fn local_options(config: &LocalConfig) -> Options {
        config.options.clone()
    }
}
