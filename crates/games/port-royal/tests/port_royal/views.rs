//! Nobody sees a card before the rules reveal it: two physical decks that
//! differ only in the faces of cards drawn face down as coins (or never
//! reached) give identical states and identical views for every observer.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_engine::{ChanceOutcome, Game, Next, Observer, Seat};
use roundtable_port_royal::catalog::deck_counts;
use roundtable_port_royal::{CardId, Event, Options, PortRoyal};

/// A shuffled physical deck: `cards[i]` is the i-th card from the top.
fn physical_deck(seed: u64) -> Vec<CardId> {
    let mut cards: Vec<CardId> = CardId::all()
        .flat_map(|c| std::iter::repeat_n(c, deck_counts(false)[usize::from(c.0)] as usize))
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for i in (1..cards.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        cards.swap(i, j);
    }
    cards
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Use {
    FaceDown,
    Revealed,
}

/// Play with chance answered from `deck` until the first reshuffle (the
/// physical model stops there). Returns the state after every input and how
/// each deck position was used.
fn play(deck: &[CardId], seats: u8, seed: u64) -> (Vec<PortRoyal>, Vec<Option<Use>>) {
    let mut game = PortRoyal::new_game(seats, &Options::default()).unwrap();
    let mut top = 0usize;
    let mut uses = vec![None; deck.len()];
    let draw_face_down = |top: &mut usize, n: u32, uses: &mut Vec<Option<Use>>| {
        for _ in 0..n {
            uses[*top] = Some(Use::FaceDown);
            *top += 1;
        }
    };
    draw_face_down(&mut top, 3 * u32::from(seats), &mut uses);
    let mut policy = ChaCha8Rng::seed_from_u64(seed);
    let mut states = vec![game.clone()];
    let mut events = Vec::new();
    let mut legal = Vec::new();
    loop {
        events.clear();
        match game.next() {
            Next::Over => break,
            Next::Chance(_) if matches!(game.view(Observer::Spectator).turn, 0) => {
                game.apply_chance(
                    &ChanceOutcome::Index(policy.next_u64() % u64::from(seats)),
                    &mut events,
                )
                .unwrap();
            }
            Next::Chance(_) => {
                if top >= deck.len() {
                    break;
                }
                uses[top] = Some(Use::Revealed);
                let card = deck[top];
                top += 1;
                game.apply_chance(&ChanceOutcome::Cards(vec![u32::from(card.0)]), &mut events)
                    .unwrap();
            }
            Next::Decision(seat) => {
                game.legal_actions(seat, &mut legal);
                let a = legal[(policy.next_u64() % legal.len() as u64) as usize];
                game.apply_action(seat, &a, &mut events).unwrap();
            }
            Next::Simultaneous(_) | Next::Private(_) => unreachable!(),
        }
        if events.iter().any(|e| {
            matches!(
                e,
                Event::Reshuffled { .. } | Event::SpentCoinRevealed { .. }
            )
        }) {
            break;
        }
        for e in &events {
            if let Event::Coins { gained, .. } = e {
                draw_face_down(&mut top, *gained, &mut uses);
            }
        }
        states.push(game.clone());
    }
    (states, uses)
}

#[test]
fn decks_differing_only_in_unseen_cards_give_identical_views() {
    let mut differing_worlds = 0;
    for seed in 0..40u64 {
        let seats = 2 + (seed % 4) as u8;
        let deck_a = physical_deck(seed);
        let (states_a, uses) = play(&deck_a, seats, seed);
        // World B: the same deck with the cards that were never revealed
        // (coins and cards never reached) rotated among their positions.
        let hidden: Vec<usize> = (0..deck_a.len())
            .filter(|&i| uses[i] != Some(Use::Revealed))
            .collect();
        let mut deck_b = deck_a.clone();
        for (k, &i) in hidden.iter().enumerate() {
            deck_b[i] = deck_a[hidden[(k + 1) % hidden.len()]];
        }
        if deck_b != deck_a {
            differing_worlds += 1;
        }
        let (states_b, _) = play(&deck_b, seats, seed);
        assert_eq!(states_a.len(), states_b.len(), "seed {seed}");
        for (a, b) in states_a.iter().zip(&states_b) {
            assert_eq!(a.state_hash(), b.state_hash(), "seed {seed}");
            assert_eq!(a.view(Observer::Spectator), b.view(Observer::Spectator));
            for s in 0..seats {
                assert_eq!(
                    a.view(Observer::Seat(Seat(s))),
                    b.view(Observer::Seat(Seat(s)))
                );
            }
        }
    }
    assert!(
        differing_worlds >= 35,
        "the worlds must really differ in their unseen cards"
    );
}

#[test]
fn a_view_names_only_face_up_cards() {
    let deck = physical_deck(7);
    let (states, _) = play(&deck, 4, 7);
    for g in &states {
        let v = g.view(Observer::Seat(Seat(0)));
        let json = serde_json::to_value(&v).unwrap();
        let names = json.to_string().matches("\"ship:").count()
            + json.to_string().matches("\"person:").count()
            + json.to_string().matches("\"expedition:").count()
            + json.to_string().matches("\"tax:").count();
        let face_up = v.harbor.len()
            + v.expeditions.len()
            + usize::from(v.pending_ship.is_some())
            + v.players
                .iter()
                .map(|p| p.persons.len() + p.expeditions.len())
                .sum::<usize>();
        assert_eq!(
            names, face_up,
            "the view names a card that is not face up: {json}"
        );
    }
}
