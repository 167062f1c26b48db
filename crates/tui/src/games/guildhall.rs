//! Guildhall's screen: its board, its choices step by step, its set-up.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use roundtable_guildhall::{Action, Guildhall, Options};

use super::{GameScreen, Pick};
use crate::app::App;
use crate::session::Snapshot;
use crate::setup::{Change, LocalConfig, SetupRow};

pub mod choice;
pub mod screen;

/// The round limits the local set-up offers a Guildhall game, shortest
/// first (the rules have no limit; the default of the game is the last).
pub const MAX_ROUNDS: [u32; 5] = [1, 5, 10, 20, 100];

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

    fn change_option(config: &mut LocalConfig, row: SetupRow, change: Change) {
        let options = &mut config.guildhall;
        match row {
            SetupRow::RefillAfterPaying => {
                options.refill_after_paying = !options.refill_after_paying;
            }
            SetupRow::LateChapterCap => options.late_chapter_cap = !options.late_chapter_cap,
            SetupRow::ChooseChapterOrder => {
                options.choose_chapter_order = !options.choose_chapter_order;
            }
            SetupRow::MaxRounds => {
                let at = MAX_ROUNDS
                    .iter()
                    .position(|r| *r >= options.max_rounds)
                    .unwrap_or(MAX_ROUNDS.len() - 1);
                options.max_rounds = change.step(&MAX_ROUNDS, at);
            }
            _ => {}
        }
    }

    fn picks(snap: &Snapshot<Self>, action: &Action) -> Vec<Pick> {
        choice::picks(snap, action)
    }
}
