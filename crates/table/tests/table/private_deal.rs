//! Private cards at the table (protocol/SPEC.md 5.11–5.15): Hands games
//! between in-process tables with no dealer, every envelope delivered to
//! every table, and every new violation caught from a hand-made bad
//! envelope, by the table and by the audit.
//!
//! One file over 1,000 lines: one test per violation of part 5, each small,
//! over the same games and helpers.

use crate::common;

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_engine::{Game, Knowledge, Next, Observer, Seat};
use roundtable_fairdeck::ChainSecret;
use roundtable_hands::{Action, Hands, Options};
use roundtable_table::transcript::Frame;
use roundtable_table::{
    Body, Config, Envelope, Genesis, Identity, Local, Output, Proof96, Proposal, Record, SeatInfo,
    Signed, Table, Violation, audit,
};

/// The genesis of a Hands game and each seat's secrets. `salt` changes the
/// chain seeds, and with them every seat's deal secrets and shuffles.
fn seated(seats: u8, rounds: u8, salt: u8) -> (Genesis, Vec<Local>) {
    let ids: Vec<Identity> = (0..seats)
        .map(|i| Identity::from_secret([i + 1; 32]))
        .collect();
    let chains: Vec<ChainSecret> = (0..seats)
        .map(|i| ChainSecret::new([i.wrapping_mul(7).wrapping_add(salt); 32], 16).unwrap())
        .collect();
    let infos = ids
        .iter()
        .zip(&chains)
        .enumerate()
        .map(|(i, (id, c))| SeatInfo {
            key: id.public(),
            name: format!("p{i}"),
            chain_commitment: c.commitment(),
            chain_length: c.length(),
        })
        .collect();
    let proposal = Proposal::new::<Hands>(&Options { rounds }, infos, [salt; 32]).unwrap();
    let acc: Vec<_> = ids.iter().map(|id| proposal.accept(id).unwrap()).collect();
    let genesis = Genesis::assemble::<Hands>(proposal.clone(), &acc).unwrap();
    let mut locals: Vec<Option<Local>> = (0..seats).map(|_| None).collect();
    for (identity, chain) in ids.into_iter().zip(chains) {
        let seat = proposal.seat_of(&identity.public()).unwrap();
        locals[seat.index()] = Some(Local {
            seat,
            identity,
            chain,
        });
    }
    (genesis, locals.into_iter().map(Option::unwrap).collect())
}

fn tables(seats: u8, rounds: u8, salt: u8) -> Vec<Table<Hands>> {
    let (genesis, locals) = seated(seats, rounds, salt);
    locals
        .into_iter()
        .map(|l| Table::new(genesis.clone(), Some(l), Config::default()).unwrap())
        .collect()
}

/// What a run of the network did.
#[derive(Default)]
struct Run {
    violations: Vec<(usize, Violation)>,
    finished: Vec<bool>,
}

/// Deliver every broadcast to every other table and let the seat to move
/// pick at random from its legal actions (as its table's knowledge lists
/// them), until nothing moves. `tamper(from, envelope)` may replace an
/// envelope on the wire (a byzantine sender). `decide` may take over a
/// decision: `None` leaves it to the random bot, `Some(true)` says it took
/// it, `Some(false)` stops the run there.
fn run(
    tables: &mut [Table<Hands>],
    rng: &mut ChaCha20Rng,
    mut tamper: impl FnMut(usize, Signed) -> Signed,
    mut decide: impl FnMut(&mut [Table<Hands>], Seat) -> Option<bool>,
) -> Run {
    let mut out = Run {
        finished: vec![false; tables.len()],
        ..Run::default()
    };
    for t in tables.iter_mut() {
        t.handle_timeout(0);
    }
    for _ in 0..10_000 {
        let mut wire = Vec::new();
        for (i, t) in tables.iter_mut().enumerate() {
            while let Some(o) = t.poll_output() {
                match o {
                    Output::Broadcast(s) => wire.push((i, s)),
                    Output::Violation(v) => out.violations.push((i, *v)),
                    Output::Finished(_) => out.finished[i] = true,
                    _ => {}
                }
            }
        }
        if !wire.is_empty() {
            for (from, s) in wire {
                let s = tamper(from, s);
                for (i, t) in tables.iter_mut().enumerate() {
                    if i != from {
                        let _ = t.handle_envelope(0, s.clone());
                    }
                }
            }
            continue;
        }
        let live: Vec<usize> = (0..tables.len())
            .filter(|&i| tables[i].violation().is_none() && !tables[i].is_forfeited(Seat(i as u8)))
            .collect();
        let Some(&reference) = live.first() else {
            return out;
        };
        if tables.iter().any(|t| t.violation().is_some()) {
            return out;
        }
        let Next::Decision(seat) = tables[reference].game().next() else {
            return out;
        };
        match decide(tables, seat) {
            Some(true) => continue,
            Some(false) => return out,
            None => {}
        }
        let table = &mut tables[seat.index()];
        if table.violation().is_some() || table.is_forfeited(seat) {
            return out;
        }
        let knowledge = table.knowledge().cloned().unwrap_or_default();
        let mut legal = Vec::new();
        table
            .game()
            .legal_actions_with(seat, &knowledge, &mut legal);
        if legal.is_empty() {
            return out;
        }
        let pick = legal[(rng.next_u64() % legal.len() as u64) as usize];
        table.submit(0, pick).unwrap();
    }
    panic!("the game never settled");
}

fn honest(tables: &mut [Table<Hands>], seed: u64) -> Run {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    run(tables, &mut rng, |_, s| s, |_, _| None)
}

fn frames_of(table: &Table<Hands>) -> Vec<Frame> {
    table.transcript()
}

/// A full game between three tables: identical transcripts, a valid audit
/// that opens every hand, and each seat knowing exactly its own cards.
#[test]
fn a_hands_game_is_dealt_by_the_tables_alone_and_audited() {
    for seed in 0..3u64 {
        let mut tables = tables(3, 4, 30 + seed as u8);
        let run = honest(&mut tables, seed);
        assert!(run.violations.is_empty(), "{:?}", run.violations);
        assert_eq!(run.finished, vec![true; 3], "seed {seed}");
        let transcript = frames_of(&tables[0]);
        for (i, t) in tables.iter().enumerate().skip(1) {
            let other = t.transcript();
            let first_difference = transcript.iter().zip(&other).position(|(a, b)| a != b);
            assert!(
                other.len() == transcript.len() && first_difference.is_none(),
                "seed {seed}: table {i}'s transcript differs at frame {first_difference:?}"
            );
        }
        let plays = tables[0]
            .records()
            .iter()
            .filter(|r| {
                matches!(
                    r,
                    Record::Private {
                        step: roundtable_table::PrivateStep::Play { .. },
                        ..
                    }
                )
            })
            .count();
        assert!(plays > 0, "seed {seed}: nobody played a card");

        // Each seat knew exactly the cards dealt to it, no other slot.
        let dealt = tables[0].dealt().to_vec();
        for (i, t) in tables.iter().enumerate() {
            let mine: Vec<_> = dealt
                .iter()
                .filter(|(s, _)| s.index() == i)
                .map(|(_, h)| *h)
                .collect();
            let knowledge = t.knowledge().unwrap();
            assert!(!mine.is_empty());
            for h in &mine {
                assert!(knowledge.card(*h).is_some(), "seat {i} did not open {h:?}");
            }
        }

        let report = audit::audit::<Hands>(&transcript).unwrap();
        assert!(
            report.is_valid(),
            "{:?} {:?}",
            report.problems,
            report.violations
        );
        assert!(report.canonical);
        // The audit opened every hand, and agrees with each seat's table.
        let hands = report.hands.as_ref().expect("every key was released");
        for (i, t) in tables.iter().enumerate() {
            let mine = t.knowledge().unwrap();
            for r in mine.iter() {
                let own_cards = dealt.iter().any(|(s, h)| s.index() == i && *h == r.handle);
                if own_cards {
                    assert_eq!(hands[i].card(r.handle), Some(r.card));
                }
            }
            assert_eq!(
                hands[i].len(),
                dealt.iter().filter(|(s, _)| s.index() == i).count()
            );
        }
    }
}

/// Every table's broadcasts since the last call, with the table's index
/// (other outputs are dropped).
fn broadcasts(tables: &mut [Table<Hands>]) -> Vec<(usize, Signed)> {
    let mut wire = Vec::new();
    for (i, t) in tables.iter_mut().enumerate() {
        while let Some(o) = t.poll_output() {
            if let Output::Broadcast(s) = o {
                wire.push((i, s));
            }
        }
    }
    wire
}

/// Deliver every broadcast to every other table until nothing moves.
fn settle(tables: &mut [Table<Hands>]) {
    loop {
        let wire = broadcasts(tables);
        if wire.is_empty() {
            return;
        }
        for (from, s) in wire {
            for (i, t) in tables.iter_mut().enumerate() {
                if i != from {
                    t.handle_envelope(0, s.clone()).unwrap();
                }
            }
        }
    }
}

/// Two real deals (other seeds, so other shuffles) after which seat 1
/// holds other cards: the shared states are identical, and seat 0's views
/// differ only in its own cards. Seat 0's table learns nothing of seat 1's
/// cards, and handing the game seat 1's knowledge too changes nothing.
#[test]
fn a_seat_view_holds_only_its_own_cards() {
    let dealt = |salt: u8| {
        let mut tables = tables(3, 1, salt);
        for t in tables.iter_mut() {
            t.handle_timeout(0);
        }
        settle(&mut tables);
        assert!(matches!(tables[0].game().next(), Next::Decision(_)));
        tables
    };
    let a = dealt(1);
    let b = dealt(2);
    let cards = |t: &Table<Hands>| -> Vec<u32> {
        let mut c: Vec<u32> = t.knowledge().unwrap().iter().map(|r| r.card).collect();
        c.sort();
        c
    };
    assert_ne!(cards(&a[1]), cards(&b[1]), "the deals should differ");
    assert_eq!(a[0].game().state_hash(), b[0].game().state_hash());
    let without_own_cards = |t: &Table<Hands>| {
        let mut view = t
            .game()
            .view_with(Observer::Seat(Seat(0)), t.knowledge().unwrap());
        assert!(view.my_hand.iter().all(|h| h.card.is_some()));
        view.my_hand.iter_mut().for_each(|h| h.card = None);
        view
    };
    assert_eq!(without_own_cards(&a[0]), without_own_cards(&b[0]));
    // Seat 0's table opened only its own slots.
    for (s, h) in a[0].dealt() {
        assert_eq!(a[0].knowledge().unwrap().card(*h).is_some(), s.index() == 0);
    }
    // A game given more than the seat's own knowledge shows no more.
    let mut everything = a[0].knowledge().unwrap().clone();
    for r in a[1].knowledge().unwrap().iter() {
        everything.learn(r.handle, r.card);
    }
    assert_eq!(
        a[0].game().view_with(Observer::Seat(Seat(0)), &everything),
        a[0].game()
            .view_with(Observer::Seat(Seat(0)), a[0].knowledge().unwrap())
    );
}

/// Re-sign `signed` by its seat with `body` replaced (what a byzantine seat
/// can do: its own key signs anything).
fn resign_body(genesis: &Genesis, signed: &Signed, body: Body) -> Signed {
    let key = genesis.proposal.seats[usize::from(signed.envelope.seat)].key;
    let identity = (1..=4u8)
        .map(|i| Identity::from_secret([i; 32]))
        .find(|id| id.public() == key)
        .unwrap();
    Envelope {
        body,
        ..signed.envelope.clone()
    }
    .sign(&identity)
}

/// Runs a game where seat 1 sends `tampered(envelope)` in place of the first
/// envelope `pick` chooses; every honest table must catch it with a
/// violation of `kind`, and the audit of the honest tables' log must too.
fn caught(kind: &str, bad: impl FnMut(&Genesis, &Signed) -> Option<Signed>) {
    caught_from(1, kind, bad);
}

/// [`caught`], with `liar` (0 to 2) the seat that tampers.
fn caught_from(liar: usize, kind: &str, mut bad: impl FnMut(&Genesis, &Signed) -> Option<Signed>) {
    let mut tables = tables(3, 2, 77);
    let genesis = tables[0].genesis().clone();
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let mut done = false;
    let run = run(
        &mut tables,
        &mut rng,
        |from, s| {
            if done || from != liar {
                return s;
            }
            match bad(&genesis, &s) {
                Some(b) => {
                    done = true;
                    b
                }
                None => s,
            }
        },
        |_, _| None,
    );
    assert!(done, "{kind}: the envelope to tamper with never came");
    for honest in (0..3).filter(|&s| s != liar) {
        let v = tables[honest]
            .violation()
            .unwrap_or_else(|| panic!("{kind}: table {honest} saw nothing"));
        assert_eq!(v.kind(), kind, "{v}");
        assert_eq!(usize::from(v.seat()), liar);
        assert!(v.check_signatures(tables[honest].genesis()).is_ok());
    }
    assert!(
        run.violations
            .iter()
            .any(|(i, v)| *i != liar && v.kind() == kind)
    );
    // The audit of what the honest table took in finds the same.
    let honest_table = &tables[if liar == 0 { 1 } else { 0 }];
    let report = audit::audit::<Hands>(&honest_table.transcript()).unwrap();
    assert!(!report.is_valid());
    assert!(
        report
            .violations
            .iter()
            .any(|v| v.kind() == kind && usize::from(v.seat()) == liar),
        "{kind}: {:?} {:?}",
        report.violations,
        report.problems
    );
}

fn flip(bytes: &mut [u8], at: usize) {
    let i = at % bytes.len();
    bytes[i] ^= 1;
}

#[test]
fn a_shuffle_with_a_flipped_proof_byte_is_caught() {
    caught("bad-shuffle", |g, s| match &s.envelope.body {
        Body::Shuffle { epoch, message } => {
            let mut message = message.clone();
            // A byte of the proof, well past the output deck.
            let at = message.len() - 40;
            flip(&mut message, at);
            Some(resign_body(
                g,
                s,
                Body::Shuffle {
                    epoch: *epoch,
                    message,
                },
            ))
        }
        _ => None,
    });
}

/// Issue 27: the first shuffle of every epoch names the pile its deck starts
/// from, so a verifier that knows no game's rules checks every shuffle from
/// the transcript alone: the open deck of the named pile, then each seat's
/// proof in seat order against the previous output. Before, the pile was in
/// no message, and a stranger had to guess it.
#[test]
fn every_shuffle_checks_from_the_transcript_alone() {
    let mut tables = tables(3, 20, 12);
    let run = honest(&mut tables, 3);
    assert!(run.violations.is_empty(), "{:?}", run.violations);
    assert_eq!(run.finished, vec![true; 3]);
    let game_id = tables[0].genesis().proposal.game_id().0;
    let envelopes: Vec<Signed> = frames_of(&tables[0])
        .into_iter()
        .filter_map(|f| match f {
            Frame::Envelope(s) => Some(s),
            _ => None,
        })
        .collect();
    let context = |epoch: u32, seat: u8| roundtable_deal::Context {
        game_id,
        epoch,
        seat,
    };
    let key_shares: Vec<_> = envelopes
        .iter()
        .filter_map(|s| match &s.envelope.body {
            Body::KeyShare { message } => Some(
                roundtable_deal::KeyShareMessage::from_bytes(&message.0)
                    .and_then(|m| m.verify(&context(0, s.seat())))
                    .unwrap(),
            ),
            _ => None,
        })
        .collect();
    let key = roundtable_deal::DeckKey::combine(&key_shares).unwrap();
    // One request's envelopes are in (seat, seq) order (SPEC 5.15), so the
    // shuffles of an epoch come in seat order.
    let mut deck = None;
    let mut epochs = Vec::new();
    for s in &envelopes {
        let (epoch, message) = match &s.envelope.body {
            Body::ShuffleFromPile {
                epoch,
                pile,
                message,
            } => {
                deck = Some(roundtable_deal::Deck::open(&game_id, pile).unwrap());
                epochs.push((*epoch, pile.len()));
                (*epoch, message)
            }
            Body::Shuffle { epoch, message } => {
                assert_eq!(
                    epochs.last().map(|e| e.0),
                    Some(*epoch),
                    "a pile starts each epoch"
                );
                (*epoch, message)
            }
            _ => continue,
        };
        let input = deck.take().unwrap();
        let output = roundtable_deal::ShuffleMessage::from_bytes(message)
            .unwrap()
            .verify(&context(epoch, s.seat()), &key, &input)
            .unwrap_or_else(|e| panic!("seat {}'s shuffle of epoch {epoch}: {e}", s.seat()))
            .clone();
        deck = Some(output);
    }
    // Hands' first deck is its whole catalogue; its later ones are its
    // played cards (SPEC 5.13), reshuffled.
    assert_eq!(epochs.first(), Some(&(0, 24)));
    assert!(epochs.len() > 1, "no reshuffle in this game: {epochs:?}");
}

/// Issue 27: a first shuffle whose named pile is not the request's is a bad
/// shuffle, even with a proof that verifies against the deck the rules ask
/// for: a stranger checks the proof against the named pile, so the table
/// must not accept what the stranger would refuse.
#[test]
fn a_first_shuffle_that_names_another_pile_is_a_bad_shuffle() {
    caught_from(0, "bad-shuffle", |g, s| match &s.envelope.body {
        Body::ShuffleFromPile {
            epoch,
            pile,
            message,
        } => {
            let mut pile = pile.clone();
            pile.swap(0, 1);
            Some(resign_body(
                g,
                s,
                Body::ShuffleFromPile {
                    epoch: *epoch,
                    pile,
                    message: message.clone(),
                },
            ))
        }
        _ => None,
    });
}

/// Issue 27: the first shuffle of an epoch must name its pile.
#[test]
fn a_first_shuffle_that_names_no_pile_is_a_bad_shuffle() {
    caught_from(0, "bad-shuffle", |g, s| match &s.envelope.body {
        Body::ShuffleFromPile { epoch, message, .. } => Some(resign_body(
            g,
            s,
            Body::Shuffle {
                epoch: *epoch,
                message: message.clone(),
            },
        )),
        _ => None,
    });
}

/// Issue 27: only the first shuffle of an epoch names a pile, so that each
/// epoch has exactly one.
#[test]
fn a_later_shuffle_that_names_a_pile_is_a_bad_shuffle() {
    caught("bad-shuffle", |g, s| match &s.envelope.body {
        Body::Shuffle { epoch, message } => Some(resign_body(
            g,
            s,
            Body::ShuffleFromPile {
                epoch: *epoch,
                pile: (0..24).collect(),
                message: message.clone(),
            },
        )),
        _ => None,
    });
}

/// A key share's proof is checked from the envelope and the genesis alone:
/// an honest one is no proof of a bad key share.
#[test]
fn a_bad_key_share_is_proven_without_a_replay() {
    let mut tables = tables(3, 1, 40);
    honest(&mut tables, 1);
    let genesis = tables[0].genesis().clone();
    let honest_share = tables[0]
        .transcript()
        .into_iter()
        .find_map(|f| match f {
            Frame::Envelope(s) if matches!(s.envelope.body, Body::KeyShare { .. }) => Some(s),
            _ => None,
        })
        .unwrap();
    let claimed = Violation::BadKeyShare {
        envelope: honest_share.clone(),
        reason: "none".into(),
    };
    assert!(claimed.check_signatures(&genesis).is_err());
    let Body::KeyShare { mut message } = honest_share.envelope.body.clone() else {
        unreachable!()
    };
    flip(&mut message.0, 50);
    let bad = resign_body(&genesis, &honest_share, Body::KeyShare { message });
    let proven = Violation::BadKeyShare {
        envelope: bad,
        reason: "flipped".into(),
    };
    assert!(proven.check_signatures(&genesis).is_ok());
}

#[test]
fn a_key_share_with_a_flipped_proof_byte_is_caught() {
    caught("bad-key-share", |g, s| match &s.envelope.body {
        Body::KeyShare { message } => {
            let mut message = *message;
            flip(&mut message.0, 90);
            Some(resign_body(g, s, Body::KeyShare { message }))
        }
        _ => None,
    });
}

#[test]
fn a_decryption_share_with_a_flipped_byte_is_caught() {
    caught("bad-share", |g, s| match &s.envelope.body {
        Body::Shares { shares } => {
            let mut shares = shares.clone();
            flip(&mut shares[0].0, 70);
            Some(resign_body(g, s, Body::Shares { shares }))
        }
        _ => None,
    });
}

#[test]
fn shares_beyond_what_the_request_asks_are_caught() {
    caught("unasked-shares", |g, s| match &s.envelope.body {
        Body::Shares { shares } => {
            let mut shares = shares.clone();
            shares.push(shares[0]);
            Some(resign_body(g, s, Body::Shares { shares }))
        }
        _ => None,
    });
}

#[test]
fn a_wrong_key_release_is_caught() {
    caught("bad-key-release", |g, s| match &s.envelope.body {
        Body::KeyRelease { secret } => {
            let mut secret = *secret;
            secret[0] ^= 1;
            Some(resign_body(g, s, Body::KeyRelease { secret }))
        }
        _ => None,
    });
}

/// A play that claims a card the slot does not hold: the opened card
/// differs, so the rules refuse it and the envelope proves it.
#[test]
fn a_false_claim_is_an_illegal_action() {
    caught("illegal-action", |g, s| match &s.envelope.body {
        Body::ActionRevealing {
            action,
            reveal,
            shares,
        } => {
            let Ok(Action::Play { handle, card }) = postcard::from_bytes::<Action>(action) else {
                return None;
            };
            let lie = Action::Play {
                handle,
                card: (card + 1) % 24,
            };
            Some(resign_body(
                g,
                s,
                Body::ActionRevealing {
                    action: postcard::to_allocvec(&lie).unwrap(),
                    reveal: *reveal,
                    shares: shares.clone(),
                },
            ))
        }
        _ => None,
    });
}

/// Shares from a seat at a decision, where none are due.
#[test]
fn shares_where_none_are_due_are_caught() {
    let mut sent = false;
    caught("unasked-shares", |g, s| {
        if sent {
            return None;
        }
        match &s.envelope.body {
            Body::Action { .. } => {
                sent = true;
                Some(resign_body(
                    g,
                    s,
                    Body::Shares {
                        shares: vec![Proof96([0; 96])],
                    },
                ))
            }
            _ => None,
        }
    });
}

/// Issue 27: a seat signs its shares at a deal and at once a second,
/// unasked `Shares` (the next sequence number, the same position and state).
/// A table still at the deal proves it there; a table already past the deal
/// used to leave it unjudged at the head of the seat's sequence, where it
/// held back every later envelope of the seat, while the game waited for
/// another seat (the honest detector, gone), so it ended abandoned, the
/// detector ranked stopped. Both tables must now prove it the same way, at
/// once, and the audit of the late table's file must find the same.
#[test]
fn unasked_shares_from_a_deal_a_table_has_passed_are_proven_at_once() {
    stray_copy_is_proven_at_once(1, "unasked-shares", |b| matches!(b, Body::Shares { .. }));
}

/// A seat resigns in the middle of a Hands game: its key release follows
/// its resignation, every other table computes its shares, and the game
/// goes on to the end with it as a zombie.
#[test]
fn a_resignation_releases_the_key_and_the_game_goes_on() {
    let mut tables = tables(3, 3, 12);
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    let mut resigned = false;
    let run = run(
        &mut tables,
        &mut rng,
        |_, s| s,
        |tables, seat| {
            if !resigned && seat == Seat(2) && tables[2].game().view(Observer::Spectator).round >= 2
            {
                resigned = true;
                tables[2].resign(0).unwrap();
                return Some(true);
            }
            None
        },
    );
    assert!(resigned);
    assert!(run.violations.is_empty(), "{:?}", run.violations);
    // The resigning seat's own table too: it applies its resignation when
    // the game next needs the seat, as the others do (it used to keep
    // waiting for the seat's decision, one position behind).
    for t in &tables {
        assert!(t.is_forfeited(Seat(2)));
        assert!(t.is_finished());
        assert!(t.abandoned().is_none());
        assert_eq!(t.game().next(), Next::Over);
    }
    assert!(tables[0].transcript() == tables[1].transcript());
    assert!(tables[0].transcript() == tables[2].transcript());
    let report = audit::audit::<Hands>(&tables[0].transcript()).unwrap();
    assert!(
        report.is_valid(),
        "{:?} {:?}",
        report.problems,
        report.violations
    ); // The reference verifier's fixture of a key released mid-game (SPEC
    // 5.12): this very game, made again as tests/fixtures/README.md says.
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/hands-resigned.rts");
    let file = roundtable_table::transcript::encode_file(&tables[0].transcript());
    if std::env::var_os("REGENERATE_FIXTURES").is_some() {
        std::fs::write(&fixture, &file).unwrap();
    }
    assert!(
        std::fs::read(&fixture).unwrap() == file,
        "tests/fixtures/hands-resigned.rts is another game; tests/fixtures/README.md says how to make it again"
    );
}

/// A seat that stops answering after the deck key exists is claimed, and
/// its forfeit ends the game abandoned, with it last.
#[test]
fn a_forfeit_after_the_key_ends_the_game_abandoned() {
    let mut tables = tables(3, 3, 13);
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    // Play to the first decision of seat 1, then cut seat 1 off.
    let _ = run(
        &mut tables,
        &mut rng,
        |_, s| s,
        |tables, seat| {
            (seat == Seat(1) && tables[1].game().next() == Next::Decision(Seat(1))).then_some(false)
        },
    );
    assert_eq!(tables[0].game().next(), Next::Decision(Seat(1)));
    let later = 200_000;
    for i in [0usize, 2] {
        tables[i].handle_timeout(later);
    }
    // Claims go between the two live tables only.
    for _ in 0..10 {
        let mut wire = Vec::new();
        for i in [0usize, 2] {
            while let Some(o) = tables[i].poll_output() {
                if let Output::Broadcast(s) = o {
                    wire.push((i, s));
                }
            }
        }
        for (from, s) in wire {
            let to = 2 - from;
            tables[to].handle_envelope(later, s).unwrap();
        }
    }
    for i in [0usize, 2] {
        let t = &tables[i];
        assert_eq!(t.abandoned(), Some(&[Seat(1)][..]), "table {i}");
        assert!(t.is_finished());
    }
    let report = audit::audit::<Hands>(&tables[0].transcript()).unwrap();
    assert_eq!(report.abandoned, Some(vec![Seat(1)]));
    let result = report.result.expect("an abandoned game has a result");
    let last = result.standings.iter().map(|s| s.rank).max().unwrap();
    assert_eq!(
        result
            .standings
            .iter()
            .find(|s| s.seat == Seat(1))
            .unwrap()
            .rank,
        last
    );
    let _ = Knowledge::new();
}

/// A peer that restarts in the middle of the deal reads its own envelopes
/// back from its log and derives its deal secret again from its chain seed:
/// it signs nothing new for what it already sent, and the game ends with
/// the same transcript on every table.
#[test]
fn a_restarted_peer_deals_on_with_the_same_secret() {
    let (genesis, _) = seated(3, 2, 21);
    let fresh = || {
        let (_, locals) = seated(3, 2, 21);
        locals
    };
    let mut tables: Vec<Table<Hands>> = fresh()
        .into_iter()
        .map(|l| Table::new(genesis.clone(), Some(l), Config::default()).unwrap())
        .collect();
    let mut logs: Vec<Vec<Signed>> = vec![Vec::new(); 3];
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let mut restarted = false;
    for t in tables.iter_mut() {
        t.handle_timeout(0);
    }
    for _ in 0..10_000 {
        let mut wire = Vec::new();
        for (i, t) in tables.iter_mut().enumerate() {
            while let Some(o) = t.poll_output() {
                match o {
                    Output::Persist { envelope, .. } => logs[i].push(envelope),
                    Output::Broadcast(s) => wire.push((i, s)),
                    Output::Violation(v) => panic!("table {i}: {v}"),
                    _ => {}
                }
            }
        }
        if !wire.is_empty() {
            for (from, s) in wire {
                for (i, t) in tables.iter_mut().enumerate() {
                    if i != from {
                        t.handle_envelope(0, s.clone()).unwrap();
                    }
                }
            }
            continue;
        }
        // Restart seat 1 once a card has been played: its log holds its
        // key share, its shuffle and shares.
        let played = tables[1].records().iter().any(|r| {
            matches!(
                r,
                Record::Private {
                    step: roundtable_table::PrivateStep::Play { .. },
                    ..
                }
            )
        });
        if played && !restarted {
            restarted = true;
            let local = fresh().into_iter().nth(1).unwrap();
            let mut again = Table::new(genesis.clone(), Some(local), Config::default()).unwrap();
            for s in &logs[1] {
                again.handle_envelope(0, s.clone()).unwrap();
            }
            again.handle_timeout(0);
            // Catch-up: what the others sent, from their logs.
            for i in [0usize, 2] {
                for s in tables[i].envelopes_since(i as u8, 0, usize::MAX) {
                    again.handle_envelope(0, s).unwrap();
                }
            }
            let before = tables[1].knowledge().unwrap().clone();
            assert_eq!(again.knowledge().unwrap(), &before);
            assert_eq!(again.position(), tables[1].position());
            tables[1] = again;
            logs[1].clear();
            continue;
        }
        let Next::Decision(seat) = tables[0].game().next() else {
            break;
        };
        let table = &mut tables[seat.index()];
        let knowledge = table.knowledge().cloned().unwrap_or_default();
        let mut legal = Vec::new();
        table
            .game()
            .legal_actions_with(seat, &knowledge, &mut legal);
        let pick = legal[(rng.next_u64() % legal.len() as u64) as usize];
        table.submit(0, pick).unwrap();
    }
    assert!(restarted);
    assert!(tables.iter().all(Table::is_finished));
    let transcript = tables[0].transcript();
    assert!(tables.iter().all(|t| t.transcript() == transcript));
    assert!(audit::audit::<Hands>(&transcript).unwrap().is_valid());
}

/// A seat whose shares reached nobody applied the deal on its own table;
/// the others claim it stalled there and end the game. When their claims
/// reach it, it goes back to the deal (a rewind, with the deal's own state)
/// and ends the same way, with the same records.
#[test]
fn a_seat_that_dealt_alone_rewinds_to_the_forfeit_that_ends_the_game() {
    let mut tables = tables(3, 2, 50);
    let mut withheld = Vec::new();
    let mut muted = false;
    let later = 500_000;
    for t in tables.iter_mut() {
        t.handle_timeout(0);
    }
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    for _ in 0..10_000 {
        let mut wire = Vec::new();
        for (i, t) in tables.iter_mut().enumerate() {
            while let Some(o) = t.poll_output() {
                match o {
                    Output::Broadcast(s) => wire.push((i, s)),
                    Output::Violation(v) => panic!("table {i}: {v}"),
                    _ => {}
                }
            }
        }
        if !wire.is_empty() {
            for (from, s) in wire {
                // Once a card was played, seat 2's next shares reach nobody.
                let played = tables[0].records().iter().any(|r| {
                    matches!(
                        r,
                        Record::Private {
                            step: roundtable_table::PrivateStep::Play { .. },
                            ..
                        }
                    )
                });
                if from == 2 && played && matches!(s.envelope.body, Body::Shares { .. }) {
                    muted = true;
                }
                if from == 2 && muted {
                    withheld.push(s);
                    continue;
                }
                for (i, t) in tables.iter_mut().enumerate() {
                    if i != from {
                        t.handle_envelope(0, s.clone()).unwrap();
                    }
                }
            }
            continue;
        }
        if muted {
            break;
        }
        let Next::Decision(seat) = tables[0].game().next() else {
            panic!("the game ended before seat 2 went silent");
        };
        let table = &mut tables[seat.index()];
        let knowledge = table.knowledge().cloned().unwrap_or_default();
        let mut legal = Vec::new();
        table
            .game()
            .legal_actions_with(seat, &knowledge, &mut legal);
        let pick = legal[(rng.next_u64() % legal.len() as u64) as usize];
        table.submit(0, pick).unwrap();
    }
    assert!(muted && !withheld.is_empty());
    let stuck_at = tables[0].position();
    assert!(
        tables[2].position() > stuck_at,
        "seat 2 applied the deal alone"
    );
    // Seats 0 and 1 claim seat 2; every claim reaches every table.
    for i in [0usize, 1] {
        tables[i].handle_timeout(later);
    }
    for _ in 0..10 {
        let mut wire = Vec::new();
        for (i, t) in tables.iter_mut().enumerate() {
            while let Some(o) = t.poll_output() {
                match o {
                    Output::Broadcast(s) if i != 2 => wire.push((i, s)),
                    Output::Violation(v) => panic!("table {i}: {v}"),
                    _ => {}
                }
            }
        }
        for (from, s) in wire {
            for (i, t) in tables.iter_mut().enumerate() {
                if i != from {
                    let _ = t.handle_envelope(later, s.clone());
                }
            }
        }
    }
    for (i, t) in tables.iter().enumerate() {
        assert_eq!(t.abandoned(), Some(&[Seat(2)][..]), "table {i}");
        assert!(t.violation().is_none());
        assert_eq!(t.position(), stuck_at + 1, "table {i}");
    }
    assert_eq!(tables[2].records(), tables[0].records());
    assert_eq!(tables[2].game().state_hash(), tables[0].game().state_hash());
}

/// Seat `cheater` signs, as its next envelope once a table (`prompt`) went
/// past it, a copy of its first envelope that `pick` chooses (same
/// position, state and body), and shows it to that table at once and to a
/// late one after it too went past: both, and the audit, prove the same
/// `kind` at once, whatever the game then waits for (issue 27: it used to
/// wait at the head of the seat's sequence until the game needed the seat).
fn stray_copy_is_proven_at_once(cheater: usize, kind: &str, pick: impl Fn(&Body) -> bool) {
    let (prompt, late) = ((cheater + 1) % 3, (cheater + 2) % 3);
    let mut tables = tables(3, 2, 27);
    let genesis = tables[0].genesis().clone();
    for t in tables.iter_mut() {
        t.handle_timeout(0);
    }
    let mut template: Option<Signed> = None;
    let mut stray: Option<Signed> = None;
    let mut rng = ChaCha20Rng::seed_from_u64(27);
    for _ in 0..10_000 {
        let wire = broadcasts(&mut tables);
        if wire.is_empty() {
            // Every seat plays at random, the cheater too until it left.
            let Next::Decision(seat) = tables[late].game().next() else {
                break;
            };
            if seat.index() == cheater && stray.is_some() {
                break;
            }
            let table = &mut tables[seat.index()];
            if table.violation().is_some() {
                break;
            }
            let knowledge = table.knowledge().cloned().unwrap_or_default();
            let mut legal = Vec::new();
            table
                .game()
                .legal_actions_with(seat, &knowledge, &mut legal);
            let Some(&pick) = legal.get((rng.next_u64() % legal.len().max(1) as u64) as usize)
            else {
                break;
            };
            table.submit(0, pick).unwrap();
            continue;
        }
        for (from, s) in wire {
            if from == cheater && stray.is_some() {
                // It left: what its table signs after the stray is sent
                // nowhere (its next envelope has the stray's number).
                continue;
            }
            for (i, t) in tables.iter_mut().enumerate() {
                if i != from {
                    let _ = t.handle_envelope(0, s.clone());
                }
            }
            if from != cheater || stray.is_some() {
                continue;
            }
            let passed = |t: &Signed, last: &Signed| {
                tables[prompt].position() > t.envelope.position
                    // `last` taken in there, so the copy is next in the sequence.
                    && tables[prompt].position() > last.envelope.position
                    && !matches!(last.envelope.body, Body::Reveal(_) | Body::StallClaim { .. })
                    // Where the game needs the seat, it was judged there before.
                    && !tables[prompt].awaits_decision(Seat(cheater as u8))
            };
            let Some(next) = common::stray_copy(&mut template, &s, &pick, passed) else {
                continue;
            };
            let body = next.body.clone();
            let second = resign_body(
                &genesis,
                &Signed {
                    envelope: next,
                    ..s.clone()
                },
                body,
            );
            let _ = tables[prompt].handle_envelope(0, second.clone());
            assert!(
                tables[prompt].violation().is_some(),
                "the table past its position proves it at once"
            );
            stray = Some(second);
        }
    }
    let stray = stray.expect("the cheater never sent such an envelope");
    let proven = tables[prompt].violation().cloned().unwrap();
    assert_eq!(proven.kind(), kind, "{proven}");
    assert_eq!(proven.seat(), cheater as u8);
    assert!(tables[late].violation().is_none());
    assert!(tables[late].position() > stray.envelope.position);
    let _ = tables[late].handle_envelope(0, stray.clone());
    assert_eq!(
        tables[late].violation(),
        Some(&proven),
        "the late table must prove the same, at once"
    );
    assert!(proven.check_signatures(tables[late].genesis()).is_ok());
    let report = audit::audit::<Hands>(&tables[late].transcript()).unwrap();
    assert_eq!(report.violations, vec![proven]);
}

#[test]
fn a_second_action_from_a_passed_position_is_proven_at_once() {
    stray_copy_is_proven_at_once(1, "unexpected-body", |b| matches!(b, Body::Action { .. }));
}

#[test]
fn a_second_revealing_action_from_a_passed_position_is_proven_at_once() {
    stray_copy_is_proven_at_once(1, "unexpected-body", |b| {
        matches!(b, Body::ActionRevealing { .. })
    });
}

#[test]
fn a_second_key_share_from_a_passed_deal_is_proven_at_once() {
    stray_copy_is_proven_at_once(1, "unexpected-body", |b| matches!(b, Body::KeyShare { .. }));
}

#[test]
fn a_second_shuffle_from_a_passed_deal_is_proven_at_once() {
    stray_copy_is_proven_at_once(1, "unexpected-body", |b| matches!(b, Body::Shuffle { .. }));
}

#[test]
fn a_second_first_shuffle_from_a_passed_deal_is_proven_at_once() {
    stray_copy_is_proven_at_once(0, "unexpected-body", |b| {
        matches!(b, Body::ShuffleFromPile { .. })
    });
}
