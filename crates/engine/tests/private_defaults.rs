//! A game without private cards keeps working unchanged: every private-card
//! method of the contract refuses or falls back to the public one. And the
//! oracle dealer refuses every request no deck allows.

use std::fmt;

use roundtable_engine::sim::{DealerError, OracleDealer, play_private};
use roundtable_engine::{
    CardHandle, ChanceOutcome, EpochId, Game, GameResult, Knowledge, Next, Observer, ParseError,
    PrivateError, Revealed, RuleError, Seat, SetupError, Standing,
};
use serde::{Deserialize, Serialize};

/// Seats in turn add 1 or 2 to a counter; at 5 or more the game ends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Count {
    total: u32,
    turn: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
struct Add(u32);

impl fmt::Display for Add {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "add {}", self.0)
    }
}

#[derive(Debug, thiserror::Error)]
#[error("not allowed")]
struct NotAllowed;

impl RuleError for NotAllowed {
    fn rule(&self) -> &'static str {
        "not-allowed"
    }
}

impl Game for Count {
    const NAME: &'static str = "count";
    const MIN_SEATS: u8 = 2;
    const MAX_SEATS: u8 = 2;
    type Options = ();
    type Action = Add;
    type Event = u32;
    type View = u32;
    type Error = NotAllowed;

    fn new_game(_: u8, _: &()) -> Result<Self, SetupError> {
        Ok(Count { total: 0, turn: 0 })
    }

    fn next(&self) -> Next<'_> {
        if self.total >= 5 {
            Next::Over
        } else {
            Next::Decision(Seat(self.turn))
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Add>) {
        out.clear();
        if self.next() == Next::Decision(seat) {
            out.extend([Add(1), Add(2)]);
        }
    }

    fn apply_action(
        &mut self,
        seat: Seat,
        action: &Add,
        events: &mut Vec<u32>,
    ) -> Result<(), NotAllowed> {
        if self.next() != Next::Decision(seat) || !(1..=2).contains(&action.0) {
            return Err(NotAllowed);
        }
        self.total += action.0;
        self.turn = 1 - self.turn;
        events.push(self.total);
        Ok(())
    }

    fn apply_chance(&mut self, _: &ChanceOutcome, _: &mut Vec<u32>) -> Result<(), NotAllowed> {
        Err(NotAllowed)
    }

    fn view(&self, _: Observer) -> u32 {
        self.total
    }

    fn standing(&self) -> GameResult {
        GameResult {
            standings: (0..2)
                .map(|i| Standing {
                    seat: Seat(i),
                    rank: 0,
                    score: 0,
                    tie_break: 0,
                })
                .collect(),
        }
    }

    fn parse_action(text: &str) -> Result<Add, ParseError> {
        Err(ParseError::new(text, "not needed"))
    }

    fn parse_outcome(&self, text: &str) -> Result<ChanceOutcome, ParseError> {
        Err(ParseError::new(text, "not needed"))
    }

    fn outcome_name(&self, outcome: &ChanceOutcome) -> String {
        format!("{outcome:?}")
    }
}

#[test]
fn a_game_without_private_cards_refuses_every_private_step() {
    let mut game = Count::new_game(2, &()).unwrap();
    let before = game.clone();
    let handle = CardHandle::new(EpochId(0), 0);
    let refusals = [
        game.apply_deal(&mut Vec::new()).unwrap_err(),
        game.apply_reshuffle(&mut Vec::new()).unwrap_err(),
        game.apply_reveal(&[Revealed { handle, card: 0 }], &mut Vec::new())
            .unwrap_err(),
        game.apply_action_revealing(
            Seat(0),
            &Add(1),
            &[Revealed { handle, card: 0 }],
            &mut Vec::new(),
        )
        .unwrap_err(),
    ];
    for refusal in refusals {
        assert!(matches!(
            refusal,
            PrivateError::Unsupported { game: "count" }
        ));
        assert_eq!(refusal.rule(), "no-private-cards");
        assert_eq!(refusal.to_string(), "count has no private cards");
    }
    assert_eq!(game, before);
    assert!(Count::claims(&Add(1)).is_empty());
}

#[test]
fn without_private_cards_the_knowledge_methods_are_the_public_ones() {
    let mut game = Count::new_game(2, &()).unwrap();
    let mut knowledge = Knowledge::new();
    knowledge.learn(CardHandle::new(EpochId(0), 3), 7);
    let mut with = Vec::new();
    game.legal_actions_with(Seat(0), &knowledge, &mut with);
    assert_eq!(with, game.legal_actions_vec(Seat(0)));
    assert_eq!(
        game.view_with(Observer::Seat(Seat(0)), &knowledge),
        game.view(Observer::Seat(Seat(0)))
    );
    // An action that reveals nothing goes through apply_action; its rule
    // errors keep their own name.
    game.apply_action_revealing(Seat(0), &Add(2), &[], &mut Vec::new())
        .unwrap();
    assert_eq!(game.total, 2);
    let refused = game
        .apply_action_revealing(Seat(0), &Add(1), &[], &mut Vec::new())
        .unwrap_err();
    assert_eq!(refused.rule(), "not-allowed");
}

#[test]
fn the_private_driver_plays_a_game_without_private_cards() {
    let mut game = Count::new_game(2, &()).unwrap();
    let mut dealer = OracleDealer::new(2);
    let playout = play_private(
        &mut game,
        &mut dealer,
        100,
        &mut |_| 0,
        &mut |_, _, _, _| 0,
        &mut |_, _| {},
    )
    .unwrap();
    assert_eq!(playout.decisions, 5);
    assert_eq!(playout.private_steps, 0);
}

#[test]
fn the_oracle_dealer_refuses_what_no_deck_allows() {
    let mut dealer = OracleDealer::new(2);
    let slot = |epoch, slot| CardHandle::new(EpochId(epoch), slot);
    assert_eq!(
        dealer.reshuffle(&[1, 2], EpochId(1), &mut |_| 0),
        Err(DealerError::EpochOutOfOrder { asked: 1, next: 0 })
    );
    dealer.stack_next(vec![2, 2, 1]);
    assert_eq!(
        dealer.reshuffle(&[1, 2, 3], EpochId(0), &mut |_| 0),
        Err(DealerError::NotAPermutation(3))
    );
    // A refused reshuffle changes nothing: the bad order is still in line.
    assert_eq!(
        dealer.reshuffle(&[1, 2, 3], EpochId(0), &mut |_| 0),
        Err(DealerError::NotAPermutation(3))
    );
    let mut dealer = OracleDealer::new(2);
    dealer.stack_next(vec![3, 1, 2]);
    dealer
        .reshuffle(&[1, 2, 3], EpochId(0), &mut |_| 0)
        .unwrap();
    assert_eq!(dealer.deck(EpochId(0)), [3, 1, 2]);

    assert_eq!(
        dealer.deal(Seat(0), slot(0, 2), 2),
        Err(DealerError::NoSlot(slot(0, 3)))
    );
    assert!(
        dealer.knowledge(Seat(0)).is_empty(),
        "a refused deal tells nothing"
    );
    dealer.deal(Seat(0), slot(0, 0), 2).unwrap();
    assert_eq!(
        dealer.deal(Seat(1), slot(0, 1), 1),
        Err(DealerError::DealtTwice(slot(0, 1)))
    );
    assert_eq!(dealer.knowledge(Seat(0)).card(slot(0, 1)), Some(1));
    assert!(dealer.knowledge(Seat(1)).is_empty());
    assert_eq!(dealer.undealt(), [2]);
    assert_eq!(
        dealer.reveal(&[slot(1, 0)]),
        Err(DealerError::NoSlot(slot(1, 0)))
    );
    assert_eq!(
        dealer.reveal(&[slot(0, 2)]),
        Ok(vec![Revealed {
            handle: slot(0, 2),
            card: 2
        }])
    );
}
