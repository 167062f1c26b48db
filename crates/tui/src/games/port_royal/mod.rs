//! Port Royal's screen: its board ([`board`]) and its set-up rows.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use roundtable_port_royal::{Options, PortRoyal, VICTORY_POINTS};

use super::GameScreen;
use crate::app::App;
use crate::session::Snapshot;
use crate::setup::{Change, LocalConfig, SetupRow};

pub mod board;

impl GameScreen for PortRoyal {
    fn table(app: &App, snap: &Snapshot<Self>, area: Rect, buf: &mut Buffer) {
        board::table(app, snap, area, buf);
    }

    fn side_log_max_scroll(app: &App, snap: &Snapshot<Self>, width: u16, height: u16) -> usize {
        board::side_log_max_scroll(app, snap, width, height)
    }

    fn legend() -> Vec<String> {
        roundtable_games::port_royal::legend()
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

    fn change_option(config: &mut LocalConfig, row: SetupRow, change: Change) {
        let options = &mut config.options;
        match row {
            // Kept in the range the game accepts (the same range `play`
            // and `host` check).
            SetupRow::VictoryPoints => {
                let (lo, hi) = (*VICTORY_POINTS.start(), *VICTORY_POINTS.end());
                options.victory_points =
                    change.apply(options.victory_points.into(), lo.into(), hi.into()) as u32;
            }
            SetupRow::PassAutomatically => {
                options.pass_automatically = !options.pass_automatically;
            }
            SetupRow::ExpeditionRequired => {
                options.expedition_required = !options.expedition_required;
            }
            SetupRow::Expansion => options.expansion = !options.expansion,
            _ => {}
        }
    }
}
