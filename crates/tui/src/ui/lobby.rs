//! A networked table's lobby, before the game begins.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

use super::widgets::{block, chunks, wrap};
use roundtable_games::Listed;

use crate::app::App;
use crate::session::{Lobby, SeatKind, Snapshot};

pub(super) fn lobby<G: Listed>(
    app: &App,
    s: &Snapshot<G>,
    l: &Lobby,
    area: Rect,
    buf: &mut Buffer,
) {
    let theme = app.theme;
    let inner = usize::from(area.width.saturating_sub(4));
    let mut lines = Vec::new();
    if let Some(t) = &l.ticket {
        for row in wrap(
            "Ticket: give it to the other players (they paste it at \"Join a table\" or run roundtable join TICKET)",
            inner.saturating_sub(1),
        ) {
            lines.push(Line::styled(format!(" {row}"), theme.title()));
        }
        for row in chunks(t, inner.saturating_sub(1)) {
            lines.push(Line::from(format!(" {row}")));
        }
        for row in l
            .reach
            .iter()
            .flat_map(|w| wrap(w, inner.saturating_sub(1)))
        {
            lines.push(Line::styled(format!(" {row}"), theme.warn()));
        }
        lines.push(Line::raw(""));
    }
    if l.seats == 0 {
        lines.push(Line::from(" Reaching the host..."));
    } else {
        lines.push(Line::styled(
            format!(" Seats: {} of {} taken", l.filled, l.seats),
            theme.title(),
        ));
    }
    for i in 0..usize::from(l.seats) {
        let row = match l.seated.get(i) {
            Some(seat) => {
                let who = match seat.kind {
                    SeatKind::You => "you",
                    SeatKind::Bot => "bot",
                    SeatKind::Remote => "player",
                };
                let (name, state) = (&seat.name, seat.connection.words());
                if inner >= 60 {
                    format!(" {}. [x] {name:<20} {who:<7} {state}", i + 1)
                } else {
                    format!(" {}. [x] {name} ({who}, {state})", i + 1)
                }
            }
            // A joiner counts the seats taken but learns names at the start.
            None if i < usize::from(l.filled) => format!(" {}. [x] taken", i + 1),
            None => format!(" {}. [ ] open", i + 1),
        };
        lines.push(Line::from(row));
    }
    lines.push(Line::raw(""));
    let next = match (&l.stopped, l.spectator) {
        (Some(why), _) => format!("The table stopped: {why}. Esc goes back."),
        (None, _) if l.seats == 0 => {
            "Asking the host for a seat at the ticket's addresses. Esc leaves.".into()
        }
        (None, true) => format!(
            "You will watch. The game shows once all {} seats are taken.",
            l.seats
        ),
        (None, false) if l.filled >= l.seats => {
            "Every seat is taken: the players agree on the terms and shuffle together; the game begins in a moment.".into()
        }
        (None, false) => format!(
            "The game begins by itself once all {} seats are taken. Esc leaves the table.",
            l.seats
        ),
    };
    let style = if l.stopped.is_some() {
        theme.warn()
    } else {
        theme.dim()
    };
    for row in wrap(&next, inner.saturating_sub(1)) {
        lines.push(Line::styled(format!(" {row}"), style));
    }
    if let Some(status) = s.status.as_ref().filter(|_| l.stopped.is_none()) {
        for row in wrap(status, inner.saturating_sub(1)) {
            lines.push(Line::styled(format!(" {row}"), theme.dim()));
        }
    }
    let height = (lines.len() as u16 + 2).min(area.height);
    let rect = Rect { height, ..area };
    Paragraph::new(lines)
        .block(block(s.title.clone(), theme))
        .render(rect, buf);
}

// ----- the table --------------------------------------------------------
