//! Waters of Nereus's screen: its board, its arrow keys.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use roundtable_nereus::Nereus;

use super::{Arrow, GameScreen};
use crate::app::App;
use crate::session::Snapshot;

pub mod screen;

impl GameScreen for Nereus {
    fn table(app: &App, snap: &Snapshot<Self>, area: Rect, buf: &mut Buffer) {
        screen::table(app, snap, area, buf);
    }

    fn side_log_max_scroll(_app: &App, snap: &Snapshot<Self>, width: u16, height: u16) -> usize {
        crate::ui::side_log::side_log_max_scroll(snap, width, height)
    }

    // At 80x24 the grid, the crew rows and a cabin take turns.
    const PAGED: bool = true;

    fn arrow_pick(snap: &Snapshot<Self>, selected: usize, arrow: Arrow) -> Option<usize> {
        screen::arrow_pick(snap, selected, arrow)
    }
}
