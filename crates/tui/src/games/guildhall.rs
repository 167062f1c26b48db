//! Guildhall's screen: its board, its choices step by step.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use roundtable_guildhall::{Action, Guildhall};

use super::{GameScreen, Pick};
use crate::app::App;
use crate::session::Snapshot;

pub mod choice;
pub mod screen;

impl GameScreen for Guildhall {
    fn table(app: &App, snap: &Snapshot<Self>, area: Rect, buf: &mut Buffer) {
        screen::table(app, snap, area, buf);
    }

    fn side_log_max_scroll(app: &App, snap: &Snapshot<Self>, width: u16, height: u16) -> usize {
        screen::side_log_max_scroll(app, snap, width, height)
    }

    fn legend() -> Vec<String> {
        screen::legend(60)
    }

    fn picks(snap: &Snapshot<Self>, action: &Action) -> Vec<Pick> {
        choice::picks(snap, action)
    }
}
