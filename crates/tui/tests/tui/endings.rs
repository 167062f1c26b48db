//! The results of a game that did not reach its end: a real abandoned
//! transcript (two of three players killed at once, `tests/fixtures`),
//! replayed to its end and drawn as the post-game screen at 80x24 and at a
//! wide size. The headline says who stopped and nobody wins; the stopped
//! seats say "stopped answering", not "played automatically".

use crate::common;

use insta::assert_snapshot;
use roundtable_port_royal::PortRoyal;
use roundtable_tui::{App, Replay, Screen, Seek, Snapshot, Theme};

fn abandoned() -> Snapshot<PortRoyal> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/abandoned-3-seats.rtlog");
    let mut replay: Replay<PortRoyal> = Replay::open(&path).unwrap_or_else(|e| panic!("{e}"));
    replay.seek(Seek::End);
    let mut snap = replay.snapshot();
    // The same words wherever the checkout is.
    snap.transcript = Some("abandoned-3-seats.rtlog".into());
    snap
}

#[test]
fn an_abandoned_game_says_who_stopped_and_nobody_wins() {
    let snap = abandoned();
    let stopped = snap
        .ending
        .abandoned()
        .unwrap_or_else(|| panic!("the fixture is abandoned"))
        .to_vec();
    assert_eq!(stopped.len(), 2);
    let mut app = App::at_table(Theme::plain());
    app.observe(&snap);
    assert_eq!(app.screen, Screen::PostGame);
    for (w, h) in [(80, 24), (160, 48)] {
        let t = common::draw(&app, &snap, w, h);
        let text = common::screen_text(&t);
        let headline = text
            .lines()
            .find(|l| l.contains("Game abandoned: "))
            .unwrap_or_else(|| panic!("no abandoned headline:\n{text}"));
        for seat in &stopped {
            let name = &snap.seats[seat.index()].name;
            assert!(headline.contains(name.as_str()), "{name}: {headline}");
        }
        assert!(headline.contains("stopped answering"), "{headline}");
        assert!(!text.contains("wins"), "{text}");
        assert!(!text.contains("WINNER"), "{text}");
        assert!(!text.contains("played automatically"), "{text}");
        if w >= 160 {
            assert_eq!(
                text.matches("stopped answering").count(),
                1 + stopped.len(),
                "the headline and each stopped seat's line:\n{text}"
            );
        }
        assert_snapshot!(format!("results_abandoned_{w}x{h}"), t.backend());
    }
}
