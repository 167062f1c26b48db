//! Waters of Nereus's screen: its board, its arrow keys, its set-up.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use roundtable_nereus::{Nereus, Options};

use super::{Arrow, GameScreen};
use crate::app::App;
use crate::session::Snapshot;
use crate::setup::{Change, LocalConfig, SetupRow};

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

    // The neutral ship's row shows only at two seats (`SetupRow::shown_at`).
    const SETUP_ROWS: &'static [SetupRow] = &[SetupRow::NeutralShip, SetupRow::Pace];

    /// The set-up's options; the neutral ship only where its row shows (a
    /// table of two, the one size the rules offer it for).
    fn local_options(config: &LocalConfig) -> Options {
        Options {
            neutral_ship: config.nereus.neutral_ship
                && SetupRow::NeutralShip.shown_at(config.seats),
        }
    }

    fn change_option(config: &mut LocalConfig, row: SetupRow, _change: Change) {
        if row == SetupRow::NeutralShip {
            config.nereus.neutral_ship = !config.nereus.neutral_ship;
        }
    }
}
