//! Stall claims, forfeits and zombies, end to end between in-process tables.

use roundtable_engine::{Game, Next, Seat};
use roundtable_port_royal::{Options, PortRoyal};
use roundtable_table::audit::audit;
use roundtable_table::{Output, Record, Signed, Table};

mod common;

use common::{TIMEOUT, short_game_move, tables_with};

/// Tables of `seats` seats for the base game, with full-length chains.
fn tables(seats: u8) -> Vec<Table<PortRoyal>> {
    tables_with(seats, &Options::default(), 4096)
}

/// Run the tables: deliver every broadcast to the peers in `alive`, let the
/// seat to move pick its first legal action (except seats in `frozen`), and
/// advance the clock when nothing else happens. Returns the broadcasts that
/// peers outside `alive` sent.
fn run(
    tables: &mut [Table<PortRoyal>],
    alive: &[bool],
    frozen: &[bool],
    now: &mut u64,
    until: impl Fn(&[Table<PortRoyal>]) -> bool,
) {
    for (i, t) in tables.iter_mut().enumerate() {
        if alive[i] {
            t.handle_timeout(*now);
        }
    }
    for _ in 0..200_000 {
        if until(tables) {
            return;
        }
        let mut wire: Vec<(usize, Signed)> = Vec::new();
        for (i, t) in tables.iter_mut().enumerate() {
            while let Some(o) = t.poll_output() {
                match o {
                    Output::Broadcast(s) if alive[i] => wire.push((i, s)),
                    Output::Violation(v) => panic!("peer {i} saw a violation: {v}"),
                    _ => {}
                }
            }
        }
        if !wire.is_empty() {
            for (from, s) in wire {
                for (i, t) in tables.iter_mut().enumerate() {
                    if i != from && alive[i] {
                        t.handle_envelope(*now, s.clone()).unwrap();
                    }
                }
            }
            continue;
        }
        let mut moved = false;
        for (i, t) in tables.iter_mut().enumerate() {
            let seat = Seat(i as u8);
            if alive[i]
                && !frozen[i]
                && t.game().next() == Next::Decision(seat)
                && !t.is_forfeited(seat)
            {
                t.submit(*now, short_game_move(t, seat)).unwrap();
                moved = true;
            }
        }
        if !moved {
            *now += TIMEOUT / 4;
            for (i, t) in tables.iter_mut().enumerate() {
                if alive[i] {
                    t.handle_timeout(*now);
                }
            }
        }
    }
    panic!("the tables did not reach the goal");
}

#[test]
fn a_seat_that_stops_forfeits_and_the_game_finishes_with_a_zombie() {
    let mut t = tables(3);
    let mut now = 0;
    // Play a while with everyone, then seat 2 goes silent for good.
    run(&mut t, &[true; 3], &[false; 3], &mut now, |t| {
        t[0].position() > 60
    });
    let alive = [true, false, true];
    run(&mut t, &alive, &[false; 3], &mut now, |t| {
        t[0].is_finished() && t[2].is_finished()
    });
    assert!(t[0].is_forfeited(Seat(1)));
    assert!(
        t[0].records()
            .iter()
            .any(|r| matches!(r, Record::Forfeit { seat: Seat(1), .. }))
    );
    assert!(
        t[0].records()
            .iter()
            .any(|r| matches!(r, Record::Zombie { seat: Seat(1), .. }))
    );
    let frames = t[0].transcript();
    assert_eq!(frames, t[2].transcript());
    let report = audit::<PortRoyal>(&frames).unwrap();
    assert!(
        report.is_valid(),
        "{:?} {:?}",
        report.violations,
        report.problems
    );
    assert_eq!(report.forfeited.len(), 1);
    assert_eq!(report.forfeited[0].0, Seat(1));
}

#[test]
fn a_late_decision_after_a_complete_forfeit_is_rewound_by_its_author() {
    let mut t = tables(3);
    let mut now = 0;
    let decision_everywhere = |t: &[Table<PortRoyal>]| {
        let next = t[0].game().next();
        t[0].position() > 20
            && matches!(next, Next::Decision(_))
            && t.iter().all(|o| o.position() == t[0].position())
    };
    run(
        &mut t,
        &[true; 3],
        &[false; 3],
        &mut now,
        decision_everywhere,
    );
    // Cut off the seat whose decision it is, and let the others claim it.
    let Next::Decision(slow) = t[0].game().next() else {
        unreachable!("run stops at a decision")
    };
    let mut alive = [true; 3];
    alive[slow.index()] = false;
    // The slow seat decides locally (its table applies its own action at
    // once), but its broadcast never arrives before the others forfeit it.
    let legal = t[slow.index()].game().legal_actions_vec(slow);
    t[slow.index()].submit(now, legal[0]).unwrap();
    while t[slow.index()].poll_output().is_some() {}
    let before = t[slow.index()].position();
    run(&mut t, &alive, &[false; 3], &mut now, |t| {
        t.iter()
            .enumerate()
            .filter(|(i, _)| alive[*i])
            .all(|(_, t)| t.is_forfeited(slow))
    });
    // Now the slow seat hears everything that happened.
    let honest = (0..3).find(|&i| alive[i]).unwrap();
    for seat in 0..3u8 {
        for s in t[honest].envelopes_since(seat, 0, usize::MAX) {
            let _ = t[slow.index()].handle_envelope(now, s);
        }
    }
    assert!(
        t[slow.index()].is_forfeited(slow),
        "the slow seat accepts its forfeit"
    );
    let mut rewound = false;
    while let Some(o) = t[slow.index()].poll_output() {
        rewound |= matches!(o, Output::Rewound { position } if position == before - 1);
    }
    assert!(
        rewound,
        "the slow seat went back to the position of its late decision"
    );
    assert!(t[slow.index()].position() >= before);
    alive[slow.index()] = true;
    run(&mut t, &alive, &[false; 3], &mut now, |t| {
        t.iter().all(Table::is_finished)
    });
    let frames = t[0].transcript();
    for other in &t[1..] {
        assert_eq!(
            other.transcript(),
            frames,
            "every peer ends with one transcript"
        );
    }
    assert!(audit::<PortRoyal>(&frames).unwrap().is_valid());
}

/// The turn clock names the seats the game waits on and when they may be
/// claimed: it starts when the table reaches a position, runs out one stall
/// timeout later, starts again at the next position, and stops at the end.
#[test]
fn the_turn_clock_runs_from_each_position_for_the_stall_timeout() {
    let mut t = tables(2);
    // The first chance event: both seats owe a reveal.
    t[0].handle_timeout(100);
    let (waited, ends) = t[0].turn_clock().expect("a clock at the first event");
    assert_eq!(waited, [Seat(1)], "seat 0 revealed at once; seat 1 owes");
    assert_eq!(ends, 100 + TIMEOUT);
    // Deliver everything from 400 ms, with each decision made at once.
    let mut now = 400;
    t[1].handle_timeout(now);
    for _ in 0..100_000 {
        let mut wire: Vec<(usize, Signed)> = Vec::new();
        for (i, table) in t.iter_mut().enumerate() {
            while let Some(o) = table.poll_output() {
                match o {
                    Output::Broadcast(s) => wire.push((i, s)),
                    Output::Violation(v) => panic!("peer {i} saw a violation: {v}"),
                    _ => {}
                }
            }
        }
        if wire.is_empty() {
            match t[0].game().next() {
                Next::Decision(x) => {
                    // At a decision only the decider is waited on, from when
                    // the position was reached.
                    let (waited, ends) = t[0].turn_clock().expect("a clock at a decision");
                    assert_eq!(waited, [x]);
                    assert_eq!(ends, now + TIMEOUT);
                    let pick = short_game_move(&t[x.index()], x);
                    now += 10;
                    t[x.index()].submit(now, pick).unwrap();
                    continue;
                }
                next => {
                    assert!(t[0].is_finished(), "stuck at {next:?}");
                    break;
                }
            }
        }
        for (from, s) in wire {
            t[1 - from].handle_envelope(now, s).unwrap();
        }
    }
    assert_eq!(t[0].turn_clock(), None, "no clock after the end");
}
