//! The layout a game's board shares with its log: the log beside the board
//! on a wide terminal, under it on a narrow one. Port Royal's board lays
//! itself out ([`crate::games::port_royal::board`]); every other game's
//! board takes this one, and its screen's side-log scroll bound with it.

use ratatui::layout::{Constraint, Layout, Rect};
use roundtable_games::Listed;

use super::log::log_max_scroll;
use super::widgets::body_area;
use crate::session::Snapshot;

/// Below this width the log goes under the board rather than beside it.
pub(crate) const SIDE_LOG_WIDTH: u16 = 100;

/// `area` split into the board and the log.
pub(crate) fn board_and_log(area: Rect) -> (Rect, Rect) {
    if area.width >= SIDE_LOG_WIDTH {
        let [board, log] =
            Layout::horizontal([Constraint::Min(60), Constraint::Length(area.width / 3)])
                .areas(area);
        (board, log)
    } else {
        let [board, log] =
            Layout::vertical([Constraint::Min(6), Constraint::Length(area.height / 4)]).areas(area);
        (board, log)
    }
}

/// How far back the log of [`board_and_log`] scrolls in a terminal of
/// `width` x `height`: until its oldest row shows at the top.
pub(crate) fn side_log_max_scroll<G: Listed>(s: &Snapshot<G>, width: u16, height: u16) -> usize {
    let body = body_area(Rect::new(0, 0, width, height));
    let (_, log) = board_and_log(body);
    log_max_scroll(s, log.width.saturating_sub(2), log.height.saturating_sub(2))
}
