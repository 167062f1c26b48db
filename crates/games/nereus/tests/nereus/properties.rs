//! Whole random games: every game ends, every treasure is in exactly one
//! place, what `legal_actions_with` lists is accepted (and a sample of what
//! it does not list is refused), a replay gives the same hash, and no view
//! holds a science card its observer has not seen.

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_engine::{
    ChanceOutcome, Determinize, Game, Next, Observer, PrivateRequest, Revealed, Seat, sim,
};
use roundtable_nereus::{Action, Colour, Crew, Half, Nereus, Options, Slot, data};

fn games() -> u64 {
    std::env::var("NEREUS_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(12)
}

/// Every treasure in exactly one place: the census adds up to the 96, plus
/// eight for every empty-bag set.
fn treasures_in_one_place(game: &Nereus) {
    let census = game.census();
    for (c, &n) in census.iter().enumerate() {
        let expected = data::TREASURES[c] + data::EMPTY_BAG_SET[c] * game.sets_added;
        assert_eq!(n, expected, "{:?} lost or doubled", Colour::from_index(c));
    }
    for space in &game.board {
        assert!(
            space.iter().sum::<u8>() <= 6,
            "a space overflows: {space:?}"
        );
    }
}

/// An input of a recorded game, to replay it.
#[derive(Clone, Debug)]
enum Input {
    Action(Seat, Action, Vec<Revealed>),
    Chance(ChanceOutcome),
    Deal,
    Reshuffle,
}

fn play(seats: u8, seed: u64, options: &Options) -> (Nereus, Vec<Input>) {
    let mut game = Nereus::new_game(seats, options).expect("a legal seat count");
    let mut dealer = sim::OracleDealer::new(seats);
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut picks = ChaCha20Rng::seed_from_u64(seed ^ 0x5eed);
    let mut log = Vec::new();
    let mut inputs = 0;
    loop {
        inputs += 1;
        assert!(inputs < 100_000, "seed {seed}: the game does not end");
        treasures_in_one_place(&game);
        match game.next() {
            Next::Over => break,
            Next::Chance(request) => {
                let outcome = sim::sample(&request.distribution, &mut |n| {
                    sim::uniform_below(n, &mut || rng.next_u64())
                });
                // The outcome's text form reads back as the outcome.
                let text = game.outcome_name(&outcome);
                assert_eq!(
                    game.parse_outcome(&text).ok(),
                    Some(outcome.clone()),
                    "{text}"
                );
                game.apply_chance(&outcome, &mut Vec::new())
                    .unwrap_or_else(|e| panic!("seed {seed}: chance refused: {e}"));
                log.push(Input::Chance(outcome));
            }
            Next::Private(PrivateRequest::Reshuffle { pile, epoch }) => {
                dealer
                    .reshuffle(pile, epoch, &mut |n| {
                        sim::uniform_below(n, &mut || rng.next_u64())
                    })
                    .expect("the dealer reshuffles");
                game.apply_reshuffle(&mut Vec::new()).expect("reshuffle");
                log.push(Input::Reshuffle);
            }
            Next::Private(PrivateRequest::Deal { to, first, count }) => {
                dealer.deal(to, first, count).expect("the dealer deals");
                game.apply_deal(&mut Vec::new()).expect("deal");
                log.push(Input::Deal);
            }
            Next::Private(PrivateRequest::Reveal { .. }) => panic!("Nereus reveals nothing"),
            Next::Simultaneous(set) => {
                let mut choices = Vec::new();
                for seat in set.iter() {
                    let legal = game.legal_actions_vec(seat);
                    assert!(!legal.is_empty(), "seed {seed}: {seat} cannot choose");
                    let i = (picks.next_u64() % legal.len() as u64) as usize;
                    choices.push((seat, legal[i].clone()));
                }
                for (seat, action) in choices {
                    game.apply_action(seat, &action, &mut Vec::new())
                        .unwrap_or_else(|e| panic!("seed {seed}: {action} refused: {e}"));
                    log.push(Input::Action(seat, action, Vec::new()));
                }
            }
            Next::Decision(seat) => {
                let knowledge = dealer.knowledge(seat).clone();
                let mut legal = Vec::new();
                game.legal_actions_with(seat, &knowledge, &mut legal);
                assert!(!legal.is_empty(), "seed {seed}: {seat} has no legal action");
                // Legal => applies, for every listed action; its text form
                // reads back as the action.
                for action in &legal {
                    assert_eq!(
                        Nereus::parse_action(&action.to_string()).as_ref(),
                        Ok(action),
                        "{action}"
                    );
                    let mut probe = game.clone();
                    let handles: Vec<_> = Nereus::claims(action).iter().map(|c| c.handle).collect();
                    let revealed = dealer.reveal(&handles).expect("held cards open");
                    probe
                        .apply_action_revealing(seat, action, &revealed, &mut Vec::new())
                        .unwrap_or_else(|e| panic!("seed {seed}: listed {action} refused: {e}"));
                }
                // Not listed => refused, for a sample of well-formed actions.
                for probe_action in unlisted_sample(&mut picks) {
                    if legal.contains(&probe_action) {
                        continue;
                    }
                    let before = game.state_hash();
                    let mut probe = game.clone();
                    assert!(
                        probe
                            .apply_action(seat, &probe_action, &mut Vec::new())
                            .is_err(),
                        "seed {seed}: {probe_action} applies but is not listed"
                    );
                    assert_eq!(probe.state_hash(), before);
                }
                listed_in_the_rules_order(&game, &legal, seed);
                determinized_consistently(&game, seat, &knowledge, &mut picks);
                let i = pick(&legal, &mut picks);
                let action = legal[i].clone();
                let handles: Vec<_> = Nereus::claims(&action).iter().map(|c| c.handle).collect();
                let revealed = dealer.reveal(&handles).expect("held cards open");
                game.apply_action_revealing(seat, &action, &revealed, &mut Vec::new())
                    .unwrap_or_else(|e| panic!("seed {seed}: {action} refused: {e}"));
                log.push(Input::Action(seat, action, revealed));
            }
        }
        views_hide_unseen(&game, &dealer);
    }
    (game, log)
}

/// What the list offers follows the rules' words: while a treasure waits
/// in hand, closing the crew's actions or the turn (which loses it) is not
/// the first offer; and while the boatswain's open action has moves it can
/// make, no other crew action is offered ("the basic, gold and enhanced
/// crew actions are atomic ... performed consecutively").
fn listed_in_the_rules_order(game: &Nereus, legal: &[Action], seed: u64) {
    let Some(turn) = &game.turn else { return };
    let closing = |a: &Action| matches!(a, Action::Done | Action::End);
    if !turn.hand.is_empty() && legal.iter().any(|a| !closing(a)) {
        assert!(
            !closing(&legal[0]),
            "seed {seed}: {} offered first with {:?} in hand",
            legal[0],
            turn.hand
        );
    }
    if legal.iter().any(|a| matches!(a, Action::Shift(..))) {
        assert!(
            !legal
                .iter()
                .any(|a| matches!(a, Action::Basic(_) | Action::Gold(_) | Action::Enhanced)),
            "seed {seed}: another crew action offered amid the boatswain's moves: {legal:?}"
        );
    }
}

/// Prefer ending steps less often, so random games reach deep states.
fn pick(legal: &[Action], rng: &mut ChaCha20Rng) -> usize {
    for _ in 0..3 {
        let i = (rng.next_u64() % legal.len() as u64) as usize;
        if !matches!(
            legal[i],
            Action::End | Action::Done | Action::Finish | Action::Decline
        ) {
            return i;
        }
    }
    (rng.next_u64() % legal.len() as u64) as usize
}

fn unlisted_sample(rng: &mut ChaCha20Rng) -> Vec<Action> {
    let colour = Colour::ALL[(rng.next_u64() % 6) as usize];
    let crew = Crew::ALL[(rng.next_u64() % 7) as usize];
    vec![
        Action::End,
        Action::Done,
        Action::Finish,
        Action::Decline,
        Action::Basic(Half::Plain),
        Action::Gold(Half::Plain),
        Action::Enhanced,
        Action::Place((rng.next_u64() % 5) as u8),
        Action::Stow(colour, Slot::Chest(colour)),
        Action::Stow(colour, Slot::Hold(crew, 0)),
        Action::Sell(Slot::Store((rng.next_u64() % 6) as u8)),
        Action::SellGem,
        Action::Trade(colour),
        Action::Explore(crew),
        Action::Gem(Slot::Chest(colour)),
    ]
}

/// A determinization gives every hidden handle a card, keeps the seat's
/// own, and together with the face-up cards uses every card exactly once.
fn determinized_consistently(
    game: &Nereus,
    seat: Seat,
    knowledge: &roundtable_engine::Knowledge,
    rng: &mut ChaCha20Rng,
) {
    let guess = game.sample_hidden(seat, knowledge, &mut |n| rng.next_u64() % n);
    for own in knowledge.iter() {
        if game.science[seat.index()].contains(&own.handle) {
            assert_eq!(guess.card(own.handle), Some(own.card));
        }
    }
    let mut cards: Vec<u32> = game.discard.clone();
    let mut handles: Vec<_> = game.science.iter().flatten().copied().collect();
    handles.extend(game.deck.iter().flat_map(|deck| deck.undealt()));
    for h in handles {
        cards.push(guess.card(h).expect("every hidden handle gets a card"));
    }
    cards.sort_unstable();
    let all: Vec<u32> = (0..data::SCIENCE_DECK.len() as u32).collect();
    assert_eq!(
        cards, all,
        "the guess and the face-up cards are not the deck"
    );
}

fn views_hide_unseen(game: &Nereus, dealer: &sim::OracleDealer) {
    let spectator = game.view(Observer::Spectator);
    assert!(spectator.my_science.is_empty());
    for s in 0..game.seats {
        let seat = Seat(s);
        let other = Seat((s + 1) % game.seats);
        // Another seat's knowledge tells this seat nothing.
        let view = game.view_with(Observer::Seat(seat), dealer.knowledge(other));
        assert!(view.my_science.iter().all(|(_, card)| card.is_none()));
        let own = game.view_with(Observer::Seat(seat), dealer.knowledge(seat));
        assert!(own.my_science.iter().all(|(_, card)| card.is_some()));
        assert_eq!(
            view.game.science.iter().map(Vec::len).sum::<usize>(),
            game.science.iter().map(Vec::len).sum::<usize>()
        );
    }
}

fn replay(seats: u8, options: &Options, log: &[Input]) -> Nereus {
    let mut game = Nereus::new_game(seats, options).expect("a legal seat count");
    for input in log {
        match input {
            Input::Action(seat, action, revealed) => game
                .apply_action_revealing(*seat, action, revealed, &mut Vec::new())
                .expect("replayed action"),
            Input::Chance(outcome) => game
                .apply_chance(outcome, &mut Vec::new())
                .expect("replayed chance"),
            Input::Deal => game.apply_deal(&mut Vec::new()).expect("replayed deal"),
            Input::Reshuffle => game
                .apply_reshuffle(&mut Vec::new())
                .expect("replayed reshuffle"),
        }
    }
    game
}

fn check(seats: u8, options: &Options, salt: u64) {
    for seed in 0..games() {
        let seed = seed + salt;
        let (game, log) = play(seats, seed, options);
        assert_eq!(game.next(), Next::Over);
        assert!(game.result().is_some());
        let again = replay(seats, options, &log);
        assert_eq!(
            again.state_hash(),
            game.state_hash(),
            "seed {seed}: replay differs"
        );
    }
}

#[test]
fn four_seat_random_games() {
    check(4, &Options::default(), 0);
}

#[test]
fn three_seat_random_games() {
    check(3, &Options::default(), 1000);
}

#[test]
fn two_seat_random_games() {
    check(2, &Options::default(), 2000);
}

#[test]
fn two_seat_neutral_ship_random_games() {
    check(2, &Options { neutral_ship: true }, 3000);
}

/// A crew chosen in secret is not in anyone else's view before all have
/// chosen (the table applies the choices together; a view taken between
/// two of them still shows only the observer's own).
#[test]
fn crew_choices_stay_secret_in_views() {
    let mut game = Nereus::new_game(3, &Options::default()).expect("3 seats");
    let mut dealer = sim::OracleDealer::new(3);
    let mut zero = |_: u64| 0;
    while !matches!(game.next(), Next::Simultaneous(_)) {
        match game.next() {
            Next::Chance(request) => {
                let outcome = sim::sample(&request.distribution, &mut zero);
                game.apply_chance(&outcome, &mut Vec::new())
                    .expect("chance");
            }
            Next::Private(PrivateRequest::Reshuffle { pile, epoch }) => {
                dealer.reshuffle(pile, epoch, &mut zero).expect("reshuffle");
                game.apply_reshuffle(&mut Vec::new()).expect("reshuffle");
            }
            Next::Private(PrivateRequest::Deal { to, first, count }) => {
                dealer.deal(to, first, count).expect("deal");
                game.apply_deal(&mut Vec::new()).expect("deal");
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    game.apply_action(Seat(0), &Action::Choose(Crew::Pilot), &mut Vec::new())
        .expect("seat 1 chooses");
    let own = game.view(Observer::Seat(Seat(0)));
    assert_eq!(own.game.chosen[0], Some(Crew::Pilot));
    for observer in [
        Observer::Seat(Seat(1)),
        Observer::Seat(Seat(2)),
        Observer::Spectator,
    ] {
        assert_eq!(
            game.view(observer).game.chosen[0],
            None,
            "{observer:?} sees it"
        );
    }
}
