//! Guildhall's screen: its board, its choices step by step, its set-up.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use roundtable_guildhall::{Action, Guildhall, Options};

use super::{GameScreen, Pick};
use crate::app::App;
use crate::session::Snapshot;
use crate::setup::{LocalConfig, SetupRow};

pub mod choice;
pub mod screen;

impl GameScreen for Guildhall {
    fn table(app: &App, snap: &Snapshot<Self>, area: Rect, buf: &mut Buffer) {
        screen::table(app, snap, area, buf);
    }

    fn side_log_max_scroll(_app: &App, snap: &Snapshot<Self>, width: u16, height: u16) -> usize {
        crate::ui::side_log::side_log_max_scroll(snap, width, height)
    }

    const SETUP_ROWS: &'static [SetupRow] = &[
        SetupRow::RefillAfterPaying,
        SetupRow::LateChapterCap,
        SetupRow::ChooseChapterOrder,
        SetupRow::MaxRounds,
        SetupRow::Pace,
    ];

    fn local_options(config: &LocalConfig) -> Options {
        config.guildhall.clone()
    }

    fn picks(snap: &Snapshot<Self>, action: &Action) -> Vec<Pick> {
        choice::picks(snap, action)
    }
}
