//! Port Royal's screen: its board ([`board`]).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use roundtable_port_royal::PortRoyal;

use super::GameScreen;
use crate::app::App;
use crate::session::Snapshot;

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
}
