//! Regressions found by the network simulator (`tests/sim`), each pinned
//! here with the smallest table setup that shows it.

use roundtable_engine::{Game, Next, Seat};
use roundtable_port_royal::{Options, PortRoyal};
use roundtable_table::audit::audit;
use roundtable_table::transcript::Frame;
use roundtable_table::{Body, Config, Identity, Output, Signed, Table};

use crate::common;

use common::{TIMEOUT, short_game_move, tables_with};

/// Tables of `seats` seats for the base game, with full-length chains.
fn tables(seats: u8) -> Vec<Table<PortRoyal>> {
    tables_with(seats, &Options::default(), 4096)
}

/// Deliver every broadcast among the peers in `alive` until none is left.
fn settle(tables: &mut [Table<PortRoyal>], alive: &[bool], now: u64) {
    loop {
        let mut wire: Vec<(usize, Signed)> = Vec::new();
        for (i, t) in tables.iter_mut().enumerate() {
            while let Some(o) = t.poll_output() {
                if let Output::Broadcast(s) = o
                    && alive[i]
                {
                    wire.push((i, s));
                }
            }
        }
        if wire.is_empty() {
            return;
        }
        for (from, s) in wire {
            for (i, t) in tables.iter_mut().enumerate() {
                if i != from && alive[i] {
                    t.handle_envelope(now, s.clone()).unwrap();
                }
            }
        }
    }
}

/// `poll_timeout` used to return the same passed deadline after the table
/// had claimed every seat it waited for (and while it waited only for its
/// own decision), so a driver that sleeps until the deadline spun at that
/// instant forever. The simulator found it as a livelock.
#[test]
fn a_handled_deadline_is_not_returned_again() {
    let mut t = tables(3);
    let alive = [true, true, false];
    for (i, table) in t.iter_mut().enumerate() {
        if alive[i] {
            table.handle_timeout(0);
        }
    }
    settle(&mut t, &alive, 0);
    // Seats 1 and 2 wait for seat 3's reveal of the first chance event.
    assert!(matches!(t[0].game().next(), Next::Chance(_)));
    assert_eq!(t[0].poll_timeout(), Some(TIMEOUT));
    t[0].handle_timeout(TIMEOUT);
    assert!(
        t[0].poll_output()
            .is_some_and(|o| matches!(o, Output::Persist { .. })),
        "the claim was signed"
    );
    // What is left is one more timeout for seat 2, which has not claimed
    // seat 3 yet: a seat that stays silent that long is claimed too.
    assert_eq!(
        t[0].poll_timeout(),
        Some(roundtable_table::CO_CLAIM_TIMEOUTS * TIMEOUT)
    );
    // Once the claims forfeit seat 3, the game goes on and a deadline comes
    // back only when the table waits for another seat.
    t[1].handle_timeout(TIMEOUT);
    settle(&mut t, &alive, TIMEOUT);
    assert!(t[0].is_forfeited(Seat(2)));
    for (i, table) in t.iter().enumerate().take(2) {
        let waits_on_self = table.game().next() == Next::Decision(Seat(i as u8));
        assert_eq!(
            table.poll_timeout().is_none(),
            waits_on_self,
            "seat {} has a deadline exactly when it waits for another seat",
            i + 1
        );
    }
}

/// Carry out a table's outputs; returns its broadcasts.
fn outputs(t: &mut Table<PortRoyal>) -> Vec<Signed> {
    let mut sent = Vec::new();
    while let Some(o) = t.poll_output() {
        match o {
            Output::Broadcast(s) => sent.push(s),
            Output::Violation(v) => panic!("a violation: {v}"),
            _ => {}
        }
    }
    sent
}

fn deliver(t: &mut Table<PortRoyal>, now: u64, envelopes: &[Signed]) {
    for s in envelopes {
        if let Err(e) = t.handle_envelope(now, s.clone()) {
            panic!("{e}: {:?}", t.violation());
        }
    }
}

/// Play on alone (the other seat is cut off): the local seat stops or takes
/// its first choice, and the clock jumps to the next deadline when the table
/// waits for the other seat. Returns everything it sent.
fn play_alone(t: &mut Table<PortRoyal>, now: &mut u64) -> Vec<Signed> {
    play_alone_with(t, now, short_game_move)
}

/// [`play_alone`], the local seat choosing with `pick`.
fn play_alone_with(
    t: &mut Table<PortRoyal>,
    now: &mut u64,
    pick: impl Fn(&Table<PortRoyal>, Seat) -> roundtable_port_royal::Action,
) -> Vec<Signed> {
    let me = t.local_seat().unwrap();
    let mut sent = outputs(t);
    for _ in 0..100_000 {
        if t.is_finished() {
            return sent;
        }
        if t.game().next() == Next::Decision(me) && !t.is_forfeited(me) {
            t.submit(*now, pick(t, me)).unwrap();
        } else {
            *now = t
                .poll_timeout()
                .expect("a deadline while waiting")
                .max(*now);
            t.handle_timeout(*now);
        }
        sent.extend(outputs(t));
    }
    panic!("the game did not end");
}

/// Two seats cut apart for longer than the stall timeout each forfeit the
/// other; the seat that stalled first must lose on both sides. Here B misses
/// A's first reveal and forfeits A at position 0, while A goes on, forfeits
/// B later and even plays the game to its end.
/// When A then hears B's claim it must rewind to position 0 and end with
/// B's transcript. Three things broke on the way: A ignored claims of a seat
/// it had forfeited (even claims signed before), the forfeit at a chance
/// event ran before B's reveal for it (then refused as written at the wrong
/// position, blaming B), and a finished table stayed finished.
#[test]
fn the_earlier_of_two_mutual_forfeits_wins_on_both_sides() {
    let mut t = tables(2);
    let mut now = 0;
    t[0].handle_timeout(now);
    t[1].handle_timeout(now);
    let from_a = outputs(&mut t[0]);
    let from_b = outputs(&mut t[1]);
    // Only B's reveal gets through.
    deliver(&mut t[0], now, &from_b);
    drop(from_a);
    let (a, b) = t.split_at_mut(1);
    let (a, b) = (&mut a[0], &mut b[0]);
    let mut now_b = now;
    let from_b = play_alone(b, &mut now_b);
    assert!(b.is_forfeited(Seat(0)));
    let _ = play_alone(a, &mut now);
    assert!(a.is_finished() && a.is_forfeited(Seat(1)), "A won alone");
    // The cut heals: A hears everything B said.
    now = now.max(now_b);
    deliver(a, now, &from_b);
    let _ = outputs(a);
    assert!(a.violation().is_none());
    assert!(a.is_forfeited(Seat(0)) && !a.is_forfeited(Seat(1)));
    assert!(a.is_finished(), "A replayed B's game to its end");
    assert_eq!(a.records(), b.records());
    assert_eq!(a.transcript(), b.transcript());
}

/// When the seat forfeited at a chance event is not the actor, the actor's
/// reveal came in its action. A rewind to that event used to put the
/// actor's action back into its buffer (so it was read as the reveal: a
/// violation blaming the actor) and forget the carried reveal.
#[test]
fn a_rewind_to_a_chance_event_keeps_the_actors_carried_reveal() {
    let mut t = tables(2);
    let now = 0;
    let alive = [true, true];
    for table in t.iter_mut() {
        table.handle_timeout(now);
    }
    settle(&mut t, &alive, now);
    let Next::Decision(actor) = t[0].game().next() else {
        panic!("the start player decides");
    };
    let (s, o) = (actor.index(), 1 - actor.index());
    let draw = t[s]
        .game()
        .legal_actions_vec(actor)
        .into_iter()
        .find(|a| a.to_string() == "draw")
        .unwrap();
    t[s].submit(now, draw).unwrap();
    let action = outputs(&mut t[s]);
    // O applies the draw and reveals, but its reveal is lost.
    deliver(&mut t[o], now, &action);
    let _lost = outputs(&mut t[o]);
    assert!(t[o].position() > t[s].position());
    // Both time out: S forfeits O at the chance event, O forfeits S later.
    for i in [s, o] {
        let deadline = t[i].poll_timeout().expect("waiting for the other seat");
        t[i].handle_timeout(deadline);
    }
    let claims = outputs(&mut t[s]);
    let _ = outputs(&mut t[o]);
    assert!(t[s].is_forfeited(Seat(o as u8)));
    // O hears S's claim, which came first: O rewinds and forfeits there.
    deliver(&mut t[o], TIMEOUT, &claims);
    let _ = outputs(&mut t[o]);
    assert!(t[o].violation().is_none());
    assert!(t[o].is_forfeited(Seat(o as u8)) && !t[o].is_forfeited(actor));
    let k = t[s].records().len().min(t[o].records().len());
    assert!(k > 3);
    assert_eq!(t[o].records()[..k], t[s].records()[..k]);
}

/// The audit fed envelopes seat by seat into a table with a peer's buffer
/// bound, so a seat with more envelopes than the bound overflowed while the
/// game waited for a later seat's first reveal, and a valid transcript was
/// refused. The simulator found it with a lone survivor of five seats.
#[test]
fn the_audit_takes_a_seat_with_more_envelopes_than_a_peer_buffers() {
    // A game ends within fifty rounds: a seat that draws whenever it may
    // (and so takes nothing) plays all of them, and chains of one link add
    // a continuation before every reveal.
    let options = Options {
        victory_points: *roundtable_port_royal::VICTORY_POINTS.end(),
        ..Options::default()
    };
    let mut t = tables_with(2, &options, 1);
    let mut now = 0;
    t[0].handle_timeout(now);
    t[1].handle_timeout(now);
    let _ = outputs(&mut t[0]);
    // Seat 2's first reveal arrives, then it is never heard of again.
    let from_b = outputs(&mut t[1]);
    deliver(&mut t[0], now, &from_b);
    let draw_when_it_may = |t: &Table<PortRoyal>, me: Seat| {
        let legal = t.game().legal_actions_vec(me);
        legal
            .iter()
            .copied()
            .find(|a| a.to_string() == "draw")
            .unwrap_or(legal[0])
    };
    let _ = play_alone_with(&mut t[0], &mut now, draw_when_it_may);
    let frames = t[0].transcript();
    let first_seat = frames
        .iter()
        .filter(|f| matches!(f, Frame::Envelope(s) if s.seat() == 0))
        .count();
    assert!(
        first_seat > Config::default().max_buffered_per_seat,
        "a long enough game: {first_seat} envelopes"
    );
    let report = audit::<PortRoyal>(&frames).unwrap();
    assert!(
        report.is_valid(),
        "{:?} {:?}",
        report.violations,
        report.problems
    );
    assert_eq!(report.forfeited, vec![(Seat(1), "stalled")]);
}

/// An equivocation sent to different peers forks them: each applies its
/// version, then sees the other's next envelopes as wrong and stops,
/// blaming an honest seat. The table used to stay with that wrong blame even
/// when the other version reached it; now the equivocation replaces it.
#[test]
fn an_equivocation_seen_after_the_fork_it_caused_is_blamed_instead() {
    use roundtable_table::{Body, Envelope, Violation};
    let mut t = tables(3);
    let now = 0;
    let alive = [true; 3];
    for table in t.iter_mut() {
        table.handle_timeout(now);
    }
    settle(&mut t, &alive, now);
    // Go on to a decision where the seat may draw or do something else.
    let (x, draw, other) = loop {
        let Next::Decision(x) = t[0].game().next() else {
            panic!("the game waits for a decision")
        };
        let legal = t[x.index()].game().legal_actions_vec(x);
        let draw = legal.iter().copied().find(|a| a.to_string() == "draw");
        let other = legal.iter().copied().find(|a| a.to_string() != "draw");
        if let (Some(draw), Some(other)) = (draw, other) {
            break (x, draw, other);
        }
        t[x.index()].submit(now, legal[0]).unwrap();
        settle(&mut t, &alive, now);
    };
    let (a, b) = match x.index() {
        0 => (1, 2),
        1 => (0, 2),
        _ => (0, 1),
    };
    t[x.index()].submit(now, draw).unwrap();
    let honest = outputs(&mut t[x.index()]).remove(0);
    // The same slot, another action, signed with the same key.
    let identity = (0..3u8)
        .map(|i| Identity::from_secret([i + 1; 32]))
        .find(|id| t[a].genesis().proposal.seat_of(&id.public()) == Some(x))
        .unwrap();
    let forged = Envelope {
        body: Body::Action {
            action: postcard::to_allocvec(&other).unwrap(),
            reveal: None,
        },
        ..honest.envelope.clone()
    }
    .sign(&identity);
    deliver(&mut t[a], now, std::slice::from_ref(&honest));
    deliver(&mut t[b], now, std::slice::from_ref(&forged));
    // Each hears the other's next envelopes.
    let from_a = outputs(&mut t[a]);
    let from_b = outputs(&mut t[b]);
    for s in &from_b {
        let _ = t[a].handle_envelope(now, s.clone());
    }
    for s in &from_a {
        let _ = t[b].handle_envelope(now, s.clone());
    }
    // (The reveals are placed by their event alone, so the fork may not
    // show yet; when it did, an honest seat was blamed.)
    // The other version arrives (as the peers compare notes).
    let _ = t[a].handle_envelope(now, forged.clone());
    let _ = t[b].handle_envelope(now, honest.clone());
    for i in [a, b] {
        let v = t[i].violation().unwrap();
        assert!(
            matches!(v, Violation::Equivocation { .. }) && v.seat() == x.0,
            "seat {} blames {v}",
            i + 1
        );
        v.check_signatures(t[i].genesis()).unwrap();
    }
}

/// A seat that claimed a stalled seat refuses its late input unless another
/// seat shows it applied it: an envelope written past that position. But an
/// envelope past it from a seat that had claimed too shows only that this
/// seat completed the forfeit. Here C claimed X, still misses B's claim,
/// and sees A's envelopes after A forfeited X, together with X's late move:
/// C used to apply the move and fork from everyone.
#[test]
fn an_envelope_past_a_forfeit_is_no_evidence_of_the_forfeited_input() {
    let mut t = tables(4);
    let mut now = 0;
    let alive = [true; 4];
    for table in t.iter_mut() {
        table.handle_timeout(now);
    }
    settle(&mut t, &alive, now);
    let Next::Decision(x) = t[0].game().next() else {
        panic!("the start player decides")
    };
    let x = x.index();
    let others: Vec<usize> = (0..4).filter(|&i| i != x).collect();
    let (a, b, c) = (others[0], others[1], others[2]);
    let p = t[a].position();
    // X moves too late: its move is held back.
    let legal = t[x].game().legal_actions_vec(Seat(x as u8));
    t[x].submit(now, legal[0]).unwrap();
    let late = outputs(&mut t[x]);
    // A, B and C time out and claim X.
    now = TIMEOUT;
    let mut claims = Vec::new();
    for &i in &others {
        t[i].handle_timeout(now);
        claims.push(outputs(&mut t[i]));
    }
    // A hears every claim and forfeits X; what it says next is past p.
    deliver(&mut t[a], now, &claims[1]);
    deliver(&mut t[a], now, &claims[2]);
    assert!(t[a].is_forfeited(Seat(x as u8)));
    let after = outputs(&mut t[a]);
    // C hears A (its claim and what came after) and X's move, not B.
    deliver(&mut t[c], now, &claims[0]);
    deliver(&mut t[c], now, &after);
    deliver(&mut t[c], now, &late);
    let _ = outputs(&mut t[c]);
    assert!(t[c].violation().is_none());
    assert_eq!(t[c].position(), p, "C waits for evidence or B's claim");
    // B's claim arrives: C forfeits X as A did.
    deliver(&mut t[c], now, &claims[1]);
    let _ = outputs(&mut t[c]);
    assert!(t[c].violation().is_none());
    assert!(t[c].is_forfeited(Seat(x as u8)));
    let k = t[a].records().len().min(t[c].records().len());
    assert!(k > p as usize);
    assert_eq!(t[a].records()[..k], t[c].records()[..k]);
    let _ = b;
}

/// The seat forfeited at a position where it had applied its own late move
/// learns of it from the claims, one by one. Before the last claim arrives
/// it used to take a claimant's next envelope, written after the forfeit,
/// refuse it as written at the wrong position and stop, blaming the honest
/// claimant. Such an envelope now waits until the claims are complete and
/// the table rewinds.
#[test]
fn the_forfeited_seat_waits_for_every_claim_before_judging_what_follows() {
    let mut t = tables(3);
    let mut now = 0;
    let alive = [true; 3];
    for table in t.iter_mut() {
        table.handle_timeout(now);
    }
    settle(&mut t, &alive, now);
    let Next::Decision(x) = t[0].game().next() else {
        panic!("the start player decides")
    };
    let x = x.index();
    let others: Vec<usize> = (0..3).filter(|&i| i != x).collect();
    let (a, b) = (others[0], others[1]);
    let p = t[a].position();
    // X moves too late: its move never gets out.
    let legal = t[x].game().legal_actions_vec(Seat(x as u8));
    t[x].submit(now, legal[0]).unwrap();
    let _late = outputs(&mut t[x]);
    // A and B claim X, hear each other and forfeit it; the game goes on.
    now = TIMEOUT;
    t[a].handle_timeout(now);
    t[b].handle_timeout(now);
    let from_a = outputs(&mut t[a]);
    let from_b = outputs(&mut t[b]);
    deliver(&mut t[a], now, &from_b);
    deliver(&mut t[b], now, &from_a);
    let mut wire_a = from_a;
    wire_a.extend(outputs(&mut t[a]));
    let mut wire_b = from_b;
    wire_b.extend(outputs(&mut t[b]));
    assert!(t[a].is_forfeited(Seat(x as u8)));
    // What A wrote after the forfeit: an envelope past p, or a reveal
    // (placed by its event) for an event raised after it.
    assert!(
        wire_a
            .iter()
            .any(|s| s.envelope.position > p || matches!(s.envelope.body, Body::Reveal(_)))
    );
    // X hears A first: its claim and what it wrote after the forfeit.
    for s in &wire_a {
        let _ = t[x].handle_envelope(now, s.clone());
    }
    let _ = outputs(&mut t[x]);
    assert!(t[x].violation().is_none(), "{:?}", t[x].violation());
    // Then B: the claims are complete, X goes back and forfeits.
    for s in &wire_b {
        let _ = t[x].handle_envelope(now, s.clone());
    }
    let _ = outputs(&mut t[x]);
    assert!(t[x].violation().is_none());
    assert!(t[x].is_forfeited(Seat(x as u8)));
    let k = t[a].records().len().min(t[x].records().len());
    assert_eq!(t[a].records()[..k], t[x].records()[..k]);
}

/// Once the game is over a seat owes its seed opening. A seat that signs
/// something else there instead (here an action) used to be held until the
/// others claimed it stalled and it forfeited; the simulator's cheaters
/// whose cheat fell after the end were counted as stalls. It is proof of a
/// breach, as at a decision: an unexpected body, blamed on that seat.
#[test]
fn an_action_instead_of_the_seed_opening_is_proven() {
    use roundtable_table::{Body, Envelope, Violation};
    let mut t = tables(2);
    let now = 0;
    let cheat_seat = Seat(0);
    let identity = (0..2u8)
        .map(|i| Identity::from_secret([i + 1; 32]))
        .find(|id| t[1].genesis().proposal.seat_of(&id.public()) == Some(cheat_seat))
        .unwrap();
    for table in t.iter_mut() {
        table.handle_timeout(now);
    }
    let mut forged = None;
    for _ in 0..100_000 {
        // Deliver everything, but seat 0 signs an action where its seed
        // opening belongs.
        let mut wire: Vec<(usize, Signed)> = Vec::new();
        for (i, table) in t.iter_mut().enumerate() {
            while let Some(o) = table.poll_output() {
                if let Output::Broadcast(s) = o {
                    let s = match (&s.envelope.body, i) {
                        (Body::SeedOpening { .. }, 0) => {
                            let f = Envelope {
                                body: Body::Action {
                                    action: vec![0],
                                    reveal: None,
                                },
                                ..s.envelope.clone()
                            }
                            .sign(&identity);
                            forged = Some(f.clone());
                            f
                        }
                        _ => s,
                    };
                    wire.push((i, s));
                }
            }
        }
        if wire.is_empty() {
            if t[1].game().next() == Next::Over {
                break;
            }
            let Next::Decision(x) = t[1].game().next() else {
                panic!("nothing on the wire, and no decision to make");
            };
            let pick = short_game_move(&t[x.index()], x);
            t[x.index()].submit(now, pick).unwrap();
            continue;
        }
        for (from, s) in wire {
            let _ = t[1 - from].handle_envelope(now, s);
        }
    }
    let forged = forged.expect("seat 0 reached its seed opening");
    assert!(
        !t[1].is_finished(),
        "the game ended without seat 0's opening"
    );
    let v = t[1].violation().expect("the breach is proven");
    assert!(
        matches!(v, Violation::UnexpectedBody { envelope, .. } if *envelope == forged),
        "{v}"
    );
    assert_eq!(v.seat(), cheat_seat.0);
    v.check_signatures(t[1].genesis()).unwrap();
}

/// Issue 12: a log whose game finished, was rewound by a forfeit heard
/// late, and stops before finishing again is unfinished. The audit used to
/// keep the result the replay had reached before the rewind and call the
/// file valid.
#[test]
fn a_result_rewound_out_of_is_no_result() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/rewound-after-finish.rtlog");
    let frames = roundtable_table::transcript::read(&path).unwrap().frames;
    let report = audit::<PortRoyal>(&frames).unwrap();
    assert_eq!(report.result, None);
    assert!(!report.is_valid());
    assert!(report.violations.is_empty());
    assert_eq!(report.inputs, 65);
}

/// Issue 12 (found by the `table_input` fuzz target): a seat's buffer full
/// of its later envelopes refused the one the table needed next, for good,
/// so envelopes relayed newest first stalled a peer. The latest envelope
/// held now makes room for an earlier one.
#[test]
fn envelopes_relayed_newest_first_never_stall_a_full_buffer() {
    let mut tables = tables(2);
    let logs = common::play_until_with(
        &mut tables,
        |t| t.iter().all(Table::is_finished),
        |_, _, _| {},
    );
    let mut envelopes: Vec<Signed> = logs.concat();
    envelopes.sort_by_key(|s| (s.seat(), s.seq()));
    envelopes.dedup();
    let config = Config {
        max_buffered_per_seat: 4,
        ..Config::default()
    };
    let mut observer = Table::<PortRoyal>::new(tables[0].genesis().clone(), None, config).unwrap();
    for s in envelopes.iter().rev() {
        let _ = observer.handle_envelope(0, s.clone());
    }
    // Then in order, again and again as catch-up would, while the table
    // moves on (a full buffer still refuses envelopes far ahead).
    let mut last = None;
    while last != Some(observer.position()) && !observer.is_finished() {
        last = Some(observer.position());
        for s in &envelopes {
            let _ = observer.handle_envelope(0, s.clone());
        }
    }
    assert!(observer.violation().is_none());
    assert!(
        observer.is_finished(),
        "stuck at position {}",
        observer.position()
    );
    assert_eq!(observer.transcript(), tables[0].transcript());
}
