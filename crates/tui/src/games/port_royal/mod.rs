//! Port Royal's screen: its board ([`board`]) and its set-up rows.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use roundtable_port_royal::{Options, PortRoyal};

use super::GameScreen;
use crate::app::App;
use crate::session::Snapshot;
use crate::setup::{LocalConfig, SetupRow};

pub mod board;

impl GameScreen for PortRoyal {
    fn table(app: &App, snap: &Snapshot<Self>, area: Rect, buf: &mut Buffer) {
        board::table(app, snap, area, buf);
    }

    fn side_log_max_scroll(app: &App, snap: &Snapshot<Self>, width: u16, height: u16) -> usize {
        board::side_log_max_scroll(app, snap, width, height)
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
