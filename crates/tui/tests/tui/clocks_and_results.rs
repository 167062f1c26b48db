//! The turn clock's warning, a forfeited seat on the table, and the results
//! screen of a game that needs explaining (expedition required, a shared
//! place, a long transcript path), at 80x24 and at a wide size.

use crate::common;

use std::time::Duration;

use common::*;
use insta::assert_snapshot;
use roundtable_engine::{GameResult, Seat, Standing};
use roundtable_games::Listed;
use roundtable_port_royal::{Options, PortRoyal, SeatNumber};
use roundtable_table::Record;
use roundtable_tui::{Connection, SeatKind, Snapshot};

/// A networked table (two minutes a move) at your Discover, your clock at
/// 8 seconds.
fn my_clock_runs_low() -> Snapshot<PortRoyal> {
    let mut s = table();
    s.title = "Network game 7f3a".into();
    s.stall_timeout = Some(Duration::from_secs(120));
    for info in s.seats.iter_mut().skip(1) {
        info.kind = SeatKind::Remote;
        info.connection = Connection::Online;
    }
    s.seats[0].clock = Some(Duration::from_secs(8));
    s
}

#[test]
fn your_clock_running_low_warns_you_above_your_moves() {
    let snap = my_clock_runs_low();
    let app = table_app(&snap);
    let t = render(&app, Some(&snap), 80, 24);
    let text = screen_text(&t);
    assert!(
        text.contains("Your move: 0:08 left, then your seat is"),
        "{text}"
    );
    assert!(text.contains("played automatically."), "{text}");
    // The moves are still there under it.
    assert!(text.contains("1 Draw"), "{text}");
    assert_snapshot!("clock_mine_80x24", t.backend());
    let wide = render(&app, Some(&snap), 200, 60);
    assert!(
        screen_text(&wide)
            .contains("Your move: 0:08 left, then your seat is played automatically.")
    );
    assert_snapshot!("clock_mine_200x60", wide.backend());
}

#[test]
fn a_clock_with_time_to_spare_shows_no_warning() {
    let mut snap = my_clock_runs_low();
    // 31 s of 120 s: not yet the last quarter.
    snap.seats[0].clock = Some(Duration::from_secs(31));
    let app = table_app(&snap);
    let text = screen_text(&render(&app, Some(&snap), 80, 24));
    assert!(!text.contains("played automatically"), "{text}");
    snap.seats[0].clock = Some(Duration::from_secs(30));
    let text = screen_text(&render(&app, Some(&snap), 80, 24));
    assert!(text.contains("0:30 left"), "{text}");
}

/// Calico Jack's move, his clock low; Mary Read Longname-Forfeited was
/// forfeited and is played automatically.
fn waiting_with_a_forfeited_seat() -> Snapshot<PortRoyal> {
    let mut s = my_clock_runs_low();
    s.view.active = SeatNumber(Seat(2));
    s.legal = Vec::new();
    s.seats[0].clock = None;
    s.seats[2].clock = Some(Duration::from_secs(12));
    s.seats[3].name = "Mary Read Longname".into();
    s.seats[3].forfeited = true;
    // A forfeited seat's clock never warns: nobody waits for it.
    s.seats[3].clock = Some(Duration::from_secs(1));
    s.status = Some("waiting for Calico Jack; played automatically: Mary Read Longname".into());
    s
}

#[test]
fn waiting_on_a_low_clock_and_a_forfeited_seat_reads_whole() {
    let snap = waiting_with_a_forfeited_seat();
    let app = table_app(&snap);
    let t = render(&app, Some(&snap), 80, 24);
    let text = screen_text(&t);
    assert!(
        text.contains("Calico Jack: 0:12 left, then the seat is"),
        "{text}"
    );
    assert!(!text.contains("Mary Read Longname: 0:01"), "{text}");
    // The Waiting box wraps: the forfeited name is not cut at the edge.
    assert!(text.contains("automatically: Mary Read Longname"), "{text}");
    // On the players panel the forfeited seat says who plays it now.
    assert!(text.contains("auto: "), "{text}");
    assert_snapshot!("waiting_forfeited_80x24", t.backend());
    assert_snapshot!(
        "waiting_forfeited_200x60",
        render(&app, Some(&snap), 200, 60).backend()
    );
}

/// Five seats, "expedition required": Anne Bonny has the most VP and no
/// expedition, so she ranks last; you and Calico Jack tie on VP and coins
/// and share 2nd place; the transcript is under a long path.
fn expedition_required_over() -> Snapshot<PortRoyal> {
    let mut s = game_over();
    let names = [
        "You",
        "Anne Bonny",
        "Calico Jack",
        "Mary Read",
        "Black Bart",
    ];
    let mut view = base_view(5);
    view.phase = "over";
    view.turn = 31;
    let exp = "expedition:anchor+anchor";
    view.players = vec![
        player(3, &["person:sailor:3:1"], &[exp]),
        player(6, &["person:governor:8:0"], &[]),
        player(3, &["person:pirate:5:1"], &["expedition:cross+cross+house"]),
        player(
            9,
            &["person:sailor:3:1"],
            &["expedition:anchor+cross+house"],
        ),
        player(1, &[], &[exp]),
    ];
    let final_vp = [8u32, 16, 8, 9, 4];
    for (p, vp) in view.players.iter_mut().zip(final_vp) {
        p.vp = vp;
    }
    view.winners = vec![SeatNumber(Seat(3))];
    s.view = view;
    s.options = Options {
        expedition_required: true,
        victory_points: 12,
        ..Options::default()
    };
    s.view.expedition_required = true;
    s.view.victory_points = 12;
    let mut seats = s.seats.clone();
    seats.push(seats[3].clone());
    for (info, name) in seats.iter_mut().zip(names) {
        info.name = name.into();
    }
    s.seats = seats;
    // 30 turns: VP rising to the final values, Anne Bonny fastest.
    s.vp_by_turn = (0..=30)
        .map(|t| final_vp.iter().map(|&vp| vp * t / 30).collect::<Vec<u32>>())
        .collect();
    let standing = |seat: u8, rank: u8, coins: i64| Standing {
        seat: Seat(seat),
        rank,
        score: i64::from(final_vp[usize::from(seat)]),
        tie_break: coins,
    };
    s.result = Some(GameResult {
        standings: vec![
            standing(0, 1, 3),
            standing(1, 4, 6),
            standing(2, 1, 3),
            standing(3, 0, 9),
            standing(4, 3, 1),
        ],
    });
    // Black Bart took too long and was played automatically.
    s.seats[4].forfeited = true;
    s.ending.follow(
        40,
        &Record::<PortRoyal>::Forfeit {
            seat: Seat(4),
            claims: Vec::new(),
        },
    );
    s.transcript = Some(
        "/home/a-rather-long-user-name/.local/share/roundtable/games/\
         7c9bafe0e840ca8d0123456789abcdef0123456789abcdef0123456789abcdef/transcript.rtlog"
            .into(),
    );
    s
}

#[test]
fn the_results_explain_the_ranking_and_show_the_whole_path() {
    let snap = expedition_required_over();
    let app = table_app(&snap);
    let t = render(&app, Some(&snap), 80, 24);
    let text = screen_text(&t);
    let joined: String = rows(&t)
        .iter()
        .map(|r| r.trim_matches(|c| c == ' ' || c == '│').trim().to_owned())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        joined.contains(
            "Expedition required: Anne Bonny has no expedition, so ranked after every seat that has one."
        ),
        "{joined}"
    );
    assert!(
        joined.contains("You and Calico Jack tie on 8 VP and 3 coins: you share 2nd place."),
        "{joined}"
    );
    assert!(
        text.contains("4 VP   1$  0 persons 1 exp played automatically"),
        "{text}"
    );
    // Every character of the path is on the screen, in order.
    let path = snap.transcript.clone().unwrap_or_default();
    let screen: String = rows(&t).concat().replace(' ', "");
    assert!(screen.contains(&path), "the path is cut:\n{text}");
    // VP per round, every seat, the end included.
    assert!(text.contains("after round"), "{text}");
    assert!(
        text.contains("Victory points over the turns, after each round"),
        "{text}"
    );
    assert!(text.contains("end"), "{text}");
    assert_snapshot!("results_expedition_80x24", t.backend());
    let wide = render(&app, Some(&snap), 200, 60);
    assert!(screen_text(&wide).contains("several seats"));
    assert_snapshot!("results_expedition_200x60", wide.backend());
}

#[test]
fn a_shared_place_without_you_is_theirs() {
    let mut snap = expedition_required_over();
    snap.me = Some(Seat(4));
    snap.seats[0].name = "Stede Bonnet".into();
    let result = snap
        .result
        .clone()
        .unwrap_or_else(|| panic!("a finished game"));
    let lines = PortRoyal::tie_breaks(&snap.view, &result, &snap.names(), snap.me);
    assert!(
        lines.contains(
            &"Stede Bonnet and Calico Jack tie on 8 VP and 3 coins: they share 2nd place."
                .to_owned()
        ),
        "{lines:?}"
    );
}
