//! Simultaneous secret choices through the table: every seat commits, then
//! opens, and the choices are applied in seat order. A small game of its own
//! drives it, since Port Royal never asks for one.

use crate::common;

use std::fmt;

use roundtable_engine::{
    ChanceOutcome, ChanceRequest, Distribution, Game, GameResult, Next, Observer, ParseError,
    RuleError, Seat, SeatSet, SetupError, Standing,
};
use roundtable_fairdeck::ChainSecret;
use roundtable_table::audit::audit;
use roundtable_table::{
    Body, Config, Genesis, Identity, Local, Output, Proposal, SeatInfo, Signed, Table, Violation,
};
use serde::{Deserialize, Serialize};

/// Each round every seat secretly picks 0, 1 or 2; then chance draws a
/// target, and every seat whose pick matches scores. Three rounds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
struct Guess {
    picks: Vec<Option<u8>>,
    scores: Vec<i64>,
    round: u8,
    drawing: bool,
}

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
struct Refusal(&'static str);

impl RuleError for Refusal {
    fn rule(&self) -> &'static str {
        self.0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
struct Pick(u8);

impl fmt::Display for Pick {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pick {}", self.0)
    }
}

impl Game for Guess {
    const NAME: &'static str = "guess";
    const MIN_SEATS: u8 = 2;
    const MAX_SEATS: u8 = 5;
    type Options = ();
    type Action = Pick;
    type Event = String;
    type View = Vec<i64>;
    type Error = Refusal;

    fn new_game(seats: u8, _: &()) -> Result<Self, SetupError> {
        Ok(Guess {
            picks: vec![None; usize::from(seats)],
            scores: vec![0; usize::from(seats)],
            round: 1,
            drawing: false,
        })
    }

    fn next(&self) -> Next<'_> {
        if self.round > 3 {
            Next::Over
        } else if self.drawing {
            Next::Chance(ChanceRequest {
                purpose: "target",
                distribution: Distribution::Uniform { n: 3 },
            })
        } else {
            let set = (0..self.picks.len())
                .filter(|&i| self.picks[i].is_none())
                .fold(SeatSet::EMPTY, |s, i| s.with(Seat(i as u8)));
            Next::Simultaneous(set)
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Pick>) {
        out.clear();
        if matches!(self.next(), Next::Simultaneous(set) if set.contains(seat)) {
            out.extend((0..3).map(Pick));
        }
    }

    fn apply_action(
        &mut self,
        seat: Seat,
        action: &Pick,
        events: &mut Vec<String>,
    ) -> Result<(), Refusal> {
        if !matches!(self.next(), Next::Simultaneous(set) if set.contains(seat)) {
            return Err(Refusal("not-asked"));
        }
        if action.0 > 2 {
            return Err(Refusal("no-such-pick"));
        }
        self.picks[seat.index()] = Some(action.0);
        events.push(format!("{seat} picks"));
        self.drawing = self.picks.iter().all(Option::is_some);
        Ok(())
    }

    fn apply_chance(
        &mut self,
        outcome: &ChanceOutcome,
        _: &mut Vec<String>,
    ) -> Result<(), Refusal> {
        let ChanceOutcome::Index(target) = outcome else {
            return Err(Refusal("bad-outcome"));
        };
        for (p, s) in self.picks.iter_mut().zip(&mut self.scores) {
            if p.take() == Some(*target as u8) {
                *s += 1;
            }
        }
        self.drawing = false;
        self.round += 1;
        Ok(())
    }

    fn view(&self, _: Observer) -> Vec<i64> {
        self.scores.clone()
    }

    fn standing(&self) -> GameResult {
        GameResult {
            standings: self
                .scores
                .iter()
                .enumerate()
                .map(|(i, &score)| Standing {
                    seat: Seat(i as u8),
                    rank: self.scores.iter().filter(|&&o| o > score).count() as u8,
                    score,
                    tie_break: 0,
                })
                .collect(),
        }
    }

    fn parse_action(text: &str) -> Result<Pick, ParseError> {
        text.strip_prefix("pick ")
            .and_then(|n| n.parse().ok())
            .map(Pick)
            .ok_or_else(|| ParseError::new(text, "pick N"))
    }

    fn parse_outcome(&self, text: &str) -> Result<ChanceOutcome, ParseError> {
        text.parse()
            .map(ChanceOutcome::Index)
            .map_err(|_| ParseError::new(text, "a number"))
    }

    fn outcome_name(&self, outcome: &ChanceOutcome) -> String {
        format!("{outcome:?}")
    }
}

/// Three tables of a Guess game, one per seat, each with its own seat.
fn guess_tables() -> Vec<Table<Guess>> {
    let seats = 3u8;
    let ids: Vec<Identity> = (0..seats)
        .map(|i| Identity::from_secret([i + 40; 32]))
        .collect();
    let chains: Vec<ChainSecret> = (0..seats)
        .map(|i| ChainSecret::new([i + 80; 32], 64).unwrap())
        .collect();
    let infos = ids
        .iter()
        .zip(&chains)
        .map(|(id, c)| SeatInfo {
            key: id.public(),
            name: "p".into(),
            chain_commitment: c.commitment(),
            chain_length: 64,
        })
        .collect();
    let proposal = Proposal::new::<Guess>(&(), infos, [1; 32]).unwrap();
    let acc: Vec<_> = ids.iter().map(|id| proposal.accept(id).unwrap()).collect();
    let genesis = Genesis::assemble::<Guess>(proposal.clone(), &acc).unwrap();
    ids.into_iter()
        .zip(chains)
        .map(|(identity, chain)| {
            let seat = proposal.seat_of(&identity.public()).unwrap();
            (
                seat,
                Table::new(
                    genesis.clone(),
                    Some(Local {
                        seat,
                        identity,
                        chain,
                    }),
                    Config::default(),
                )
                .unwrap(),
            )
        })
        .collect::<std::collections::BTreeMap<_, _>>()
        .into_values()
        .collect()
}

/// Re-sign `envelope` with the key of its seat in [`guess_tables`] (what a
/// byzantine seat can do: its own key signs anything).
fn signed_by_its_seat(genesis: &Genesis, envelope: roundtable_table::Envelope) -> Signed {
    let key = genesis.proposal.seats[usize::from(envelope.seat)].key;
    let identity = (0..3u8)
        .map(|i| Identity::from_secret([i + 40; 32]))
        .find(|id| id.public() == key)
        .unwrap();
    envelope.sign(&identity)
}

/// Issue 27: seat 2 signs, as its next envelope once the tables went past
/// the first simultaneous decision, a copy of its commitment there (same
/// position, state and body). A table that meets it at once and one that
/// meets it later, while the game waits for something else, name the same
/// proof: no secret commitment was due from it at that position (it used
/// to wait until the game next needed the seat, and each table named what
/// it waited for then). The audit finds the same.
#[test]
fn a_second_secret_commitment_from_a_passed_position_is_proven_at_once() {
    stray_copy_is_proven(|b| matches!(b, Body::SecretCommit { .. }));
}

/// The same for a copy of its opening.
#[test]
fn a_second_secret_opening_from_a_passed_position_is_proven_at_once() {
    stray_copy_is_proven(|b| matches!(b, Body::SecretOpen { .. }));
}

fn stray_copy_is_proven(pick: impl Fn(&Body) -> bool) {
    let (cheater, prompt, late) = (1usize, 0usize, 2usize);
    let mut tables = guess_tables();
    let genesis = tables[0].genesis().clone();
    for t in &mut tables {
        t.handle_timeout(0);
    }
    let mut template: Option<Signed> = None;
    let mut stray: Option<Signed> = None;
    for step in 0..10_000u64 {
        let mut wire = Vec::new();
        for (i, t) in tables.iter_mut().enumerate() {
            while let Some(o) = t.poll_output() {
                if let Output::Broadcast(s) = o {
                    wire.push((i, s));
                }
            }
        }
        if wire.is_empty() && stray.is_some() {
            break;
        }
        for (from, s) in wire {
            if from == cheater && stray.is_some() {
                // It left: what it signs after the stray is sent nowhere.
                continue;
            }
            for (i, t) in tables.iter_mut().enumerate() {
                if i != from {
                    let _ = t.handle_envelope(step, s.clone());
                }
            }
            if from != cheater || stray.is_some() {
                continue;
            }
            let passed = |t: &Signed, last: &Signed| {
                tables[prompt].position() > t.envelope.position
                    // `last` taken in where it was written, so the copy is next.
                    && tables[prompt].position() > last.envelope.position
                    && !matches!(last.envelope.body, Body::Reveal(_))
            };
            let Some(next) = common::stray_copy(&mut template, &s, &pick, passed) else {
                continue;
            };
            let second = signed_by_its_seat(&genesis, next);
            let _ = tables[prompt].handle_envelope(step, second.clone());
            stray = Some(second);
        }
        for (i, t) in tables.iter_mut().enumerate() {
            if t.submit(step, Pick(((step + i as u64) % 3) as u8)).is_ok() {
                break;
            }
        }
    }
    let stray = stray.expect("the cheater never sent such an envelope");
    let written_at = stray.envelope.position;
    let proven = Violation::UnexpectedBody {
        expected: format!(
            "no {} from it at position {written_at}",
            stray.envelope.body.kind()
        ),
        envelope: stray.clone(),
    };
    assert_eq!(tables[prompt].violation(), Some(&proven));
    // The late table went on without the stray as far as it could.
    assert!(tables[late].violation().is_none());
    assert!(tables[late].position() > written_at);
    let _ = tables[late].handle_envelope(10_000, stray);
    assert_eq!(tables[late].violation(), Some(&proven));
    let report = audit::<Guess>(&tables[late].transcript()).unwrap();
    assert_eq!(report.violations, vec![proven]);
}

#[test]
fn secret_choices_are_committed_before_any_is_opened_and_the_game_finishes() {
    let seats = 3u8;
    let mut tables = guess_tables();
    for t in &mut tables {
        t.handle_timeout(0);
    }
    let mut opens_before_all_commits = 0;
    let mut commits_seen = 0u64;
    let mut round_commits = std::collections::BTreeMap::new();
    for step in 0..10_000u64 {
        let mut wire = Vec::new();
        for (i, t) in tables.iter_mut().enumerate() {
            while let Some(o) = t.poll_output() {
                match o {
                    Output::Broadcast(s) => wire.push((i, s)),
                    Output::Violation(v) => panic!("{v}"),
                    _ => {}
                }
            }
        }
        for (_, s) in &wire {
            match s.envelope.body {
                Body::SecretCommit { index, .. } => {
                    commits_seen += 1;
                    *round_commits.entry(index).or_insert(0) += 1;
                }
                Body::SecretOpen { index, .. }
                    if round_commits.get(&index).copied().unwrap_or(0) < seats =>
                {
                    opens_before_all_commits += 1;
                }
                _ => {}
            }
        }
        for (from, s) in wire {
            for (i, t) in tables.iter_mut().enumerate() {
                if i != from {
                    t.handle_envelope(step, s.clone()).unwrap();
                }
            }
        }
        if tables.iter().all(Table::is_finished) {
            break;
        }
        // Seats choose one at a time, so some commit long before others.
        for (i, t) in tables.iter_mut().enumerate() {
            if t.submit(step, Pick(((step + i as u64) % 3) as u8)).is_ok() {
                break;
            }
        }
    }
    assert!(tables.iter().all(Table::is_finished));
    assert_eq!(commits_seen, 3 * u64::from(seats));
    assert_eq!(
        opens_before_all_commits, 0,
        "no seat opens before every commitment is in"
    );
    let frames = tables[0].transcript();
    assert!(tables.iter().all(|t| t.transcript() == frames));
    let report = audit::<Guess>(&frames).unwrap();
    assert!(
        report.is_valid(),
        "{:?} {:?}",
        report.violations,
        report.problems
    );
}
