//! The result of several transcripts of one game (protocol/SPEC.md 3.9,
//! "Several transcripts of one game").
//!
//! Each transcript is audited alone first. The set then has one result:
//! void when any seat is proven to have cheated (in one file or across
//! files: two different envelopes a seat signed for one slot), else the
//! history of the transcript that every other one is a part of or loses
//! to, else none: the transcripts contradict each other about who stopped,
//! and no transcript's win stands.
//!
//! Two transcripts *diverge* at the first game input where they differ.
//! Among honest peers that happens only where claims forfeited or stopped
//! a seat on one side and not on the other (a network cut in two). At a
//! divergence each side is judged by its first forfeit or abandonment
//! there or after: the side whose claims more seats signed stands; equal
//! numbers stand for neither. Seat numbers never decide, unlike the table's
//! own tie-breaks, which exist only so that live peers converge.

use std::collections::BTreeMap;

use roundtable_engine::{Game, Seat};

use crate::audit::{AuditError, AuditReport, audit};
use crate::table::{Config, Record, Table};
use crate::transcript::Frame;
use crate::{GameId, Signed, Violation};

/// What several transcripts of one game add up to.
#[derive(Debug)]
pub struct Verdict {
    /// The game id every transcript shares.
    pub game_id: GameId,
    /// Each transcript's own audit, in the order they were given.
    pub reports: Vec<AuditReport>,
    /// Every proven violation: each transcript's own and the equivocations
    /// only the files together show, each once (an equivocation's two
    /// envelopes ordered by their encodings, so the order of the files
    /// does not matter).
    pub violations: Vec<Violation>,
    /// Which result, if any, stands.
    pub outcome: Outcome,
}

/// Which result stands for a set of transcripts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A seat is proven to have cheated: the game is void (SPEC 3.7).
    Void,
    /// The history of this transcript (an index into the given ones) stands:
    /// every other transcript is a part of it or loses to it where they
    /// diverge. Among transcripts of that same history it is the first that
    /// audits valid alone, else the first.
    Stands {
        /// The transcript whose result is the game's.
        transcript: usize,
    },
    /// The transcripts contradict each other from `position` on and no
    /// history stands over the others: the game has no result.
    Contradicted {
        /// The first game input at which two transcripts that neither
        /// contain nor outvote each other differ.
        position: u64,
        /// For each transcript that reaches `position`, in the given order,
        /// its first forfeit or abandonment at `position` or after.
        stops: Vec<Stop>,
    },
}

/// A transcript's first forfeit or abandonment at or after a divergence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stop {
    /// The transcript (an index into the given ones).
    pub transcript: usize,
    /// The game input of the forfeit or abandonment, or `None` when the
    /// transcript records none there or after.
    pub position: Option<u64>,
    /// The seats it forfeited or stopped, ascending.
    pub stopped: Vec<Seat>,
    /// The seats whose claims it rests on, ascending.
    pub claimants: Vec<Seat>,
}

impl Verdict {
    /// Valid: no violation, and the transcript that stands is valid alone
    /// (finished, no problem).
    pub fn is_valid(&self) -> bool {
        match self.outcome {
            Outcome::Stands { transcript } => {
                self.violations.is_empty()
                    && self
                        .reports
                        .get(transcript)
                        .is_some_and(AuditReport::is_valid)
            }
            Outcome::Void | Outcome::Contradicted { .. } => false,
        }
    }

    /// The audit of the transcript whose result stands, if one does.
    pub fn standing(&self) -> Option<&AuditReport> {
        match self.outcome {
            Outcome::Stands { transcript } if self.violations.is_empty() => {
                self.reports.get(transcript)
            }
            _ => None,
        }
    }
}

/// Why a set of transcripts has no verdict at all.
#[derive(Debug, thiserror::Error)]
pub enum VerdictError {
    /// No transcript was given.
    #[error("no transcript to judge")]
    Empty,
    /// A transcript cannot be audited (its genesis does not verify).
    #[error("transcript {}: {source}", index + 1)]
    Audit {
        /// Which transcript, from 0.
        index: usize,
        /// Why.
        source: AuditError,
    },
    /// The transcripts are not all of one game.
    #[error(
        "transcript {} is of game {other}, transcript 1 of game {first}: only transcripts of one game are judged together",
        index + 1
    )]
    OtherGame {
        /// Which transcript, from 0.
        index: usize,
        /// The first transcript's game.
        first: GameId,
        /// This one's.
        other: GameId,
    },
}

/// One applied game input, as two transcripts of one game are compared:
/// the evidence a record names (claims, envelope numbers of reveals) may
/// differ between honest peers, what was applied may not.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Input<A> {
    Action { seat: Seat, seq: u64, action: A },
    Chance { event: u64, revealed: Vec<bool> },
    Zombie { seat: Seat, action: A },
    Forfeit { seat: Seat },
    Resign { seat: Seat },
    Abandon { stopped: Vec<Seat> },
    Private(crate::PrivateStep<A>),
}

/// A transcript's applied inputs, each with the forfeit or abandonment
/// details a divergence is judged by.
struct History<A> {
    inputs: Vec<Input<A>>,
    /// Per input: what a forfeit or abandonment there did.
    stops: Vec<Option<Stopped>>,
}

/// What a forfeit or abandonment did: the seats it stopped and the seats
/// whose claims it rests on, each ascending.
struct Stopped {
    stopped: Vec<Seat>,
    claimants: Vec<Seat>,
}

impl<A: PartialEq> History<A> {
    /// The first input at which `self` and `other` differ, or `None` when
    /// one is a prefix of the other.
    fn divergence(&self, other: &History<A>) -> Option<u64> {
        self.inputs
            .iter()
            .zip(&other.inputs)
            .position(|(a, b)| a != b)
            .map(|p| p as u64)
    }

    /// The first forfeit or abandonment at `position` or after: where it
    /// is, and the seats it stopped and whose claims it rests on.
    fn stop_from(&self, position: u64) -> Option<(u64, &Stopped)> {
        self.stops
            .iter()
            .enumerate()
            .skip(usize::try_from(position).unwrap_or(usize::MAX))
            .find_map(|(p, s)| s.as_ref().map(|s| (p as u64, s)))
    }

    /// How many seats' claims the first forfeit or abandonment at
    /// `position` or after rests on (none without one).
    fn claimants_from(&self, position: u64) -> usize {
        self.stop_from(position)
            .map_or(0, |(_, s)| s.claimants.len())
    }

    /// [`History::stop_from`] as the verdict reports it, for `transcript`.
    fn stop(&self, transcript: usize, position: u64) -> Stop {
        let (position, stopped, claimants) = match self.stop_from(position) {
            Some((p, s)) => (Some(p), s.stopped.clone(), s.claimants.clone()),
            None => (None, Vec::new(), Vec::new()),
        };
        Stop {
            transcript,
            position,
            stopped,
            claimants,
        }
    }

    fn len(&self) -> u64 {
        self.inputs.len() as u64
    }
}

/// Replay a transcript as an observer, as the audit does (its envelopes in
/// file order, one per slot), and keep what was applied.
fn history<G: Game>(genesis: &crate::Genesis, frames: &[Frame]) -> History<G::Action> {
    let config = Config {
        max_buffered_per_seat: usize::MAX,
        ..Config::default()
    };
    let mut inputs = Vec::new();
    let mut stops = Vec::new();
    let Ok(mut table) = Table::<G>::new(genesis.clone(), None, config) else {
        return History { inputs, stops };
    };
    let mut fed = std::collections::BTreeSet::new();
    for frame in frames {
        if let Frame::Envelope(signed) = frame
            && fed.insert((signed.seat(), signed.seq()))
        {
            // Refusals and violations are the audit's to report.
            let _ = table.handle_envelope(0, signed.clone());
        }
    }
    while table.poll_output().is_some() {}
    for record in table.records() {
        let (input, stop) = match record {
            Record::Action { seat, seq, action } => (
                Input::Action {
                    seat: *seat,
                    seq: *seq,
                    action: action.clone(),
                },
                None,
            ),
            Record::Chance { event, reveals, .. } => (
                Input::Chance {
                    event: *event,
                    revealed: reveals.iter().map(Option::is_some).collect(),
                },
                None,
            ),
            Record::Zombie { seat, action } => (
                Input::Zombie {
                    seat: *seat,
                    action: action.clone(),
                },
                None,
            ),
            Record::Resign { seat, .. } => (Input::Resign { seat: *seat }, None),
            Record::Forfeit { seat, claims } => (
                Input::Forfeit { seat: *seat },
                Some(Stopped {
                    stopped: vec![*seat],
                    claimants: seats(claims.iter().map(|(c, _)| *c)),
                }),
            ),
            Record::Private { step, .. } => (Input::Private(step.clone()), None),
            Record::Abandon { stopped, claims } => (
                Input::Abandon {
                    stopped: stopped.clone(),
                },
                Some(Stopped {
                    stopped: stopped.clone(),
                    claimants: seats(claims.iter().map(|(c, _, _)| *c)),
                }),
            ),
        };
        inputs.push(input);
        stops.push(stop);
    }
    History { inputs, stops }
}

/// Distinct seats, ascending.
fn seats(indices: impl Iterator<Item = u8>) -> Vec<Seat> {
    let mut out: Vec<Seat> = indices.map(Seat).collect();
    out.sort();
    out.dedup();
    out
}

/// An equivocation's envelopes in a fixed order (by their encodings), so
/// the same proof found in files given in another order is equal.
fn normalised(violation: Violation) -> Violation {
    match violation {
        Violation::Equivocation { first, second } if second.encode() < first.encode() => {
            Violation::Equivocation {
                first: second,
                second: first,
            }
        }
        other => other,
    }
}

/// Whether the transcript of history `a` stands over that of `b`: `b` is a
/// part of `a`, or where they diverge `a`'s first forfeit or abandonment
/// rests on the claims of more seats than `b`'s.
fn stands_over<A: PartialEq>(a: &History<A>, b: &History<A>) -> bool {
    match a.divergence(b) {
        None => a.len() >= b.len(),
        Some(p) => a.claimants_from(p) > b.claimants_from(p),
    }
}

/// Judge transcripts of one game of `G` together (protocol/SPEC.md 3.9).
/// One transcript gets its own audit's result.
pub fn verdict<G: Game>(transcripts: &[&[Frame]]) -> Result<Verdict, VerdictError> {
    if transcripts.is_empty() {
        return Err(VerdictError::Empty);
    }
    let mut reports = Vec::with_capacity(transcripts.len());
    for (index, frames) in transcripts.iter().enumerate() {
        let report = audit::<G>(frames).map_err(|source| VerdictError::Audit { index, source })?;
        if let Some(first) = reports.first().map(|r: &AuditReport| r.game_id)
            && report.game_id != first
        {
            return Err(VerdictError::OtherGame {
                index,
                first,
                other: report.game_id,
            });
        }
        reports.push(report);
    }
    let game_id = reports[0].game_id;
    // The audit above checked each genesis; the first one serves them all
    // (one game id is one proposal).
    let genesis =
        crate::transcript::genesis::<G>(transcripts[0]).map_err(|e| VerdictError::Audit {
            index: 0,
            source: AuditError::Genesis(e.to_string()),
        })?;

    let mut violations: Vec<Violation> = Vec::new();
    let mut note = |v: Violation| {
        let v = normalised(v);
        if !violations.contains(&v) {
            violations.push(v);
        }
    };
    for report in &reports {
        report.violations.iter().cloned().for_each(&mut note);
    }
    // Across files: every pair of different envelopes in one slot goes to
    // the audit itself, behind the genesis, which proves an equivocation
    // only when both verify under the seat's key.
    let mut slots: BTreeMap<(u8, u64), Vec<&Signed>> = BTreeMap::new();
    for frames in transcripts {
        for frame in frames.iter() {
            if let Frame::Envelope(signed) = frame {
                let seen = slots.entry((signed.seat(), signed.seq())).or_default();
                if !seen.contains(&signed) {
                    seen.push(signed);
                }
            }
        }
    }
    let genesis_frames: Vec<Frame> = transcripts[0]
        .iter()
        .filter(|f| !matches!(f, Frame::Envelope(_)))
        .cloned()
        .collect();
    for copies in slots.values().filter(|c| c.len() > 1) {
        let mut copies: Vec<&Signed> = copies.clone();
        copies.sort_by_key(|s| s.encode());
        for (i, first) in copies.iter().enumerate() {
            for second in &copies[i + 1..] {
                let mut pair = genesis_frames.clone();
                pair.push(Frame::Envelope((*first).clone()));
                pair.push(Frame::Envelope((*second).clone()));
                if let Ok(report) = audit::<G>(&pair) {
                    report
                        .violations
                        .into_iter()
                        .filter(|v| matches!(v, Violation::Equivocation { .. }))
                        .for_each(&mut note);
                }
            }
        }
    }
    if !violations.is_empty() {
        return Ok(Verdict {
            game_id,
            reports,
            violations,
            outcome: Outcome::Void,
        });
    }

    let histories: Vec<History<G::Action>> = transcripts
        .iter()
        .map(|frames| history::<G>(&genesis, frames))
        .collect();
    let winner = (0..histories.len()).find(|&a| {
        (0..histories.len()).all(|b| a == b || stands_over(&histories[a], &histories[b]))
    });
    let outcome = match winner {
        Some(w) => {
            // Of the transcripts with the winning history (files that are
            // copies, or a log and its canonical file), a valid one speaks.
            let same: Vec<usize> = (0..histories.len())
                .filter(|&i| histories[i].inputs == histories[w].inputs)
                .collect();
            let transcript = same
                .iter()
                .copied()
                .find(|&i| reports[i].is_valid())
                .unwrap_or(same[0]);
            Outcome::Stands { transcript }
        }
        None => {
            // The first divergence that nothing resolves: two transcripts
            // neither of which contains or outvotes the other.
            let mut unresolved = None::<u64>;
            let mut any = None::<u64>;
            for a in 0..histories.len() {
                for b in a + 1..histories.len() {
                    let Some(p) = histories[a].divergence(&histories[b]) else {
                        continue;
                    };
                    any = Some(any.map_or(p, |q| q.min(p)));
                    if !stands_over(&histories[a], &histories[b])
                        && !stands_over(&histories[b], &histories[a])
                    {
                        unresolved = Some(unresolved.map_or(p, |q| q.min(p)));
                    }
                }
            }
            // Without a winner two histories diverge somewhere.
            let position = unresolved.or(any).unwrap_or(0);
            let stops = histories
                .iter()
                .enumerate()
                .filter(|(_, h)| h.len() > position)
                .map(|(i, h)| h.stop(i, position))
                .collect();
            Outcome::Contradicted { position, stops }
        }
    };
    Ok(Verdict {
        game_id,
        reports,
        violations,
        outcome,
    })
}
