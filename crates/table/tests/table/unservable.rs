//! A private request no deal can serve (protocol/SPEC.md 5.11): a game
//! built for the purpose poses each kind, and every table stops there with a
//! typed error, blaming no seat, never waiting for a message nobody can
//! sign. Before, an empty pile made the first seat owe a shuffle it could
//! not make (the others claimed it and it forfeited, honest), a card index
//! of 512 or more left the table waiting with nobody to claim, and a deal
//! past the deck's end made every seat owe shares it could not compute.

use roundtable_engine::{
    CardHandle, ChanceOutcome, EpochId, Game, GameResult, MAX_PRIVATE_DECK, Next, Observer,
    ParseError, PrivateError, PrivateRequest, Revealed, RuleError, Seat, SetupError, Standing,
};
use roundtable_table::{Body, Config, Output, Table, TableError, audit};
use serde::{Deserialize, Serialize};

use crate::common;

/// Which unservable request the game poses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
enum Fault {
    /// A first deck of no cards.
    #[default]
    EmptyPile,
    /// A first deck of 513 cards.
    LongPile,
    /// A first deck holding card 512.
    LargeCard,
    /// A deal of the last slot and one past it.
    DealPastTheDeck,
    /// A deal from a deck that was never shuffled.
    DealFromNoDeck,
    /// A reveal of the slot past the last.
    RevealPastTheDeck,
}

/// The deck a servable first step shuffles, before the faulty request.
const DECK: [u32; 3] = [0, 1, 2];

/// A game that shuffles a deck of three cards when its fault needs a deck,
/// then poses its faulty request.
#[derive(Clone, Debug, Serialize)]
struct Faulty {
    seats: u8,
    fault: Fault,
    pile: Vec<u32>,
    shuffled: bool,
    handles: Vec<CardHandle>,
}

#[derive(Debug, thiserror::Error)]
#[error("nothing to decide")]
struct NoRule;

impl RuleError for NoRule {
    fn rule(&self) -> &'static str {
        "nothing-to-decide"
    }
}

impl Faulty {
    fn needs_deck(&self) -> bool {
        matches!(
            self.fault,
            Fault::DealPastTheDeck | Fault::RevealPastTheDeck | Fault::DealFromNoDeck
        )
    }
}

impl Game for Faulty {
    const NAME: &'static str = "faulty";
    const MIN_SEATS: u8 = 2;
    const MAX_SEATS: u8 = 3;
    type Options = Fault;
    type Action = u8;
    type Event = ();
    type View = ();
    type Error = NoRule;

    fn new_game(seats: u8, fault: &Fault) -> Result<Self, SetupError> {
        SetupError::check_seats::<Faulty>(seats)?;
        let pile = match fault {
            Fault::EmptyPile => Vec::new(),
            Fault::LongPile => (0..=MAX_PRIVATE_DECK).map(|i| i % 7).collect(),
            Fault::LargeCard => vec![0, MAX_PRIVATE_DECK],
            _ => DECK.to_vec(),
        };
        let handles = vec![CardHandle::new(EpochId(0), DECK.len() as u32)];
        Ok(Faulty {
            seats,
            fault: *fault,
            pile,
            shuffled: false,
            handles,
        })
    }

    fn next(&self) -> Next<'_> {
        if !self.shuffled {
            return Next::Private(PrivateRequest::Reshuffle {
                pile: &self.pile,
                epoch: EpochId(0),
            });
        }
        match self.fault {
            Fault::DealPastTheDeck => Next::Private(PrivateRequest::Deal {
                to: Seat(0),
                first: CardHandle::new(EpochId(0), DECK.len() as u32 - 1),
                count: 2,
            }),
            Fault::DealFromNoDeck => Next::Private(PrivateRequest::Deal {
                to: Seat(1),
                first: CardHandle::new(EpochId(1), 0),
                count: 1,
            }),
            Fault::RevealPastTheDeck => Next::Private(PrivateRequest::Reveal {
                handles: &self.handles,
            }),
            _ => Next::Over,
        }
    }

    fn legal_actions(&self, _seat: Seat, out: &mut Vec<u8>) {
        out.clear();
    }

    fn apply_action(&mut self, _: Seat, _: &u8, _: &mut Vec<()>) -> Result<(), NoRule> {
        Err(NoRule)
    }

    fn apply_chance(&mut self, _: &ChanceOutcome, _: &mut Vec<()>) -> Result<(), NoRule> {
        Err(NoRule)
    }

    fn view(&self, _: Observer) {}

    fn standing(&self) -> GameResult {
        GameResult {
            standings: (0..self.seats)
                .map(|s| Standing {
                    seat: Seat(s),
                    rank: 0,
                    score: 0,
                    tie_break: 0,
                })
                .collect(),
        }
    }

    fn parse_action(text: &str) -> Result<u8, ParseError> {
        text.parse()
            .map_err(|_| ParseError::new(text, "not a number"))
    }

    fn parse_outcome(&self, text: &str) -> Result<ChanceOutcome, ParseError> {
        Err(ParseError::new(text, "no chance here"))
    }

    fn outcome_name(&self, _: &ChanceOutcome) -> String {
        String::new()
    }

    fn apply_reshuffle(&mut self, _: &mut Vec<()>) -> Result<(), PrivateError<NoRule>> {
        if self.shuffled || !self.needs_deck() {
            return Err(PrivateError::Rule(NoRule));
        }
        self.shuffled = true;
        Ok(())
    }

    fn apply_deal(&mut self, _: &mut Vec<()>) -> Result<(), PrivateError<NoRule>> {
        Err(PrivateError::Rule(NoRule))
    }

    fn apply_reveal(
        &mut self,
        _: &[Revealed],
        _: &mut Vec<()>,
    ) -> Result<(), PrivateError<NoRule>> {
        Err(PrivateError::Rule(NoRule))
    }
}

fn tables(fault: Fault, seats: u8) -> Vec<Table<Faulty>> {
    let (genesis, locals) = common::seated_at::<Faulty>(seats, &fault, 8);
    locals
        .into_iter()
        .map(|local| Table::new(genesis.clone(), Some(local), Config::default()).unwrap())
        .collect()
}

/// Deliver every broadcast to every other table and let time run far past
/// the co-claim deadline, until nothing moves. Returns what each table
/// signed and reported.
fn run(tables: &mut [Table<Faulty>]) -> Vec<Output<Faulty>> {
    let mut seen = Vec::new();
    let late = Config::default().stall_timeout_ms * 10;
    for now in [0, late, 2 * late, 3 * late] {
        for t in tables.iter_mut() {
            t.handle_timeout(now);
        }
        loop {
            let mut wire = Vec::new();
            for (i, t) in tables.iter_mut().enumerate() {
                while let Some(o) = t.poll_output() {
                    if let Output::Broadcast(s) = &o {
                        wire.push((i, s.clone()));
                    }
                    seen.push(o);
                }
            }
            if wire.is_empty() {
                break;
            }
            for (from, s) in wire {
                for (i, t) in tables.iter_mut().enumerate() {
                    if i != from {
                        let _ = t.handle_envelope(now, s.clone());
                    }
                }
            }
        }
    }
    seen
}

#[test]
fn a_request_no_deal_can_serve_stops_every_table_blaming_nobody() {
    let cases = [
        (Fault::EmptyPile, "empty-pile"),
        (Fault::LongPile, "pile-too-large"),
        (Fault::LargeCard, "card-out-of-range"),
        (Fault::DealPastTheDeck, "past-the-deck"),
        (Fault::DealFromNoDeck, "no-such-deck"),
        (Fault::RevealPastTheDeck, "past-the-deck"),
    ];
    for seats in [2, 3] {
        for (fault, rule) in cases {
            let mut tables = tables(fault, seats);
            let seen = run(&mut tables);
            for o in &seen {
                match o {
                    Output::Violation(v) => panic!("{fault:?}: {v:?} blames a seat"),
                    Output::Forfeited { seat, .. } => panic!("{fault:?}: {seat} forfeited"),
                    Output::Broadcast(s) => assert!(
                        !matches!(s.envelope.body, Body::StallClaim { .. }),
                        "{fault:?}: a seat was claimed stalled"
                    ),
                    _ => {}
                }
            }
            let position = u64::from(fault == Fault::DealPastTheDeck)
                + u64::from(fault == Fault::DealFromNoDeck)
                + u64::from(fault == Fault::RevealPastTheDeck);
            for t in &mut tables {
                let e = t.unservable().cloned();
                assert_eq!(e.as_ref().map(RuleError::rule), Some(rule), "{fault:?}");
                assert_eq!(t.position(), position, "{fault:?}");
                assert_eq!(t.poll_timeout(), None, "{fault:?}: nothing to wait for");
                assert_eq!(t.turn_clock(), None, "{fault:?}");
                assert_eq!(
                    t.submit(0, 0),
                    Err(TableError::Unservable(e.clone().unwrap())),
                    "{fault:?}"
                );
            }
            let report = audit::audit::<Faulty>(&tables[0].transcript()).unwrap();
            assert!(report.violations.is_empty(), "{fault:?}: {report:?}");
            assert!(
                report
                    .problems
                    .iter()
                    .any(|p| p.contains("no deal can serve")),
                "{fault:?}: {:?}",
                report.problems
            );
        }
    }
}

/// The engine's limit is the deal's: one constant, written twice only
/// because the engine depends on nothing that deals.
#[test]
fn the_engine_limits_decks_as_the_deal_does() {
    assert_eq!(MAX_PRIVATE_DECK as usize, roundtable_deal::MAX_DECK_SIZE);
}
