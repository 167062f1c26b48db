//! Auditing a transcript: check every signature, link, beacon, hash and rule
//! by replaying the game as an observer.

use std::collections::{BTreeMap, BTreeSet};

use roundtable_engine::{Game, GameResult, Knowledge, Seat};

use crate::proof::Violation;
use crate::table::{Config, Output, Table};
use crate::transcript::Frame;
use crate::{GameId, TableError};

/// What an audit found.
#[derive(Debug)]
pub struct AuditReport {
    /// The game id.
    pub game_id: GameId,
    /// The game's name (`Game::NAME`).
    pub game: &'static str,
    /// Display names in seat order.
    pub names: Vec<String>,
    /// The result, when the game was played to its end.
    pub result: Option<GameResult>,
    /// Proven violations, each with the seat to blame.
    pub violations: Vec<Violation>,
    /// Problems that blame no seat (a corrupt frame, an incomplete game).
    pub problems: Vec<String>,
    /// Seats that forfeited, and why.
    pub forfeited: Vec<(Seat, &'static str)>,
    /// The seats that had stopped when the game was abandoned (SPEC 3.6):
    /// they rank last in the result.
    pub abandoned: Option<Vec<Seat>>,
    /// Game inputs replayed.
    pub inputs: u64,
    /// In a game with private cards whose every seat released its key after
    /// the game: per seat, every card dealt to it (handle and card). With
    /// the state after any record, `Game::view_with` shows that seat's hand
    /// at that point. Each card was opened from shares whose proofs the
    /// replay checked.
    pub hands: Option<Vec<Knowledge>>,
    /// Whether the file is in canonical order (as every honest peer writes it
    /// once the game is finished).
    pub canonical: bool,
}

impl AuditReport {
    /// Valid: finished, no violation, no problem.
    pub fn is_valid(&self) -> bool {
        self.violations.is_empty() && self.problems.is_empty() && self.result.is_some()
    }
}

/// Why a transcript cannot be audited at all.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    /// The transcript does not start with a valid genesis.
    #[error("no valid genesis: {0}")]
    Genesis(String),
}

/// Audit a transcript of game `G`.
pub fn audit<G: Game>(frames: &[Frame]) -> Result<AuditReport, AuditError> {
    let genesis =
        crate::transcript::genesis::<G>(frames).map_err(|e| AuditError::Genesis(e.to_string()))?;
    let names = genesis
        .proposal
        .seats
        .iter()
        .map(|s| s.name.clone())
        .collect();
    let game_id = genesis.proposal.game_id();
    // The whole file is in memory already: the buffer bound that protects a
    // peer from flooding must not make the audit refuse a long game whose
    // file is not in applied order.
    let config = Config {
        max_buffered_per_seat: usize::MAX,
        ..Config::default()
    };
    let mut table = Table::<G>::new(genesis.clone(), None, config)
        .map_err(|e| AuditError::Genesis(e.to_string()))?;
    // Started before any envelope, as a peer's table is: a game can stop
    // before anyone signs (an unservable first request).
    table.handle_timeout(0);

    let mut problems = Vec::new();
    let mut violations = Vec::new();
    // Every pair of different envelopes for one slot, not only the first the
    // replay trips over.
    let mut slots: BTreeMap<(u8, u64), crate::Signed> = BTreeMap::new();
    // Signatures are checked once, by the table as it takes each envelope
    // in; here only the envelopes that share a slot with another are
    // checked, so that an equivocation proof never rests on a forgery.
    for frame in frames {
        let Frame::Envelope(signed) = frame else {
            continue;
        };
        let slot = (signed.seat(), signed.seq());
        match slots.get(&slot) {
            Some(first) if first != signed => {
                let key = genesis
                    .proposal
                    .seats
                    .get(usize::from(signed.seat()))
                    .map(|s| s.key);
                let verifies = |e: &crate::Signed| {
                    e.envelope.game_id == game_id && key.is_some_and(|k| e.verify(&k).is_ok())
                };
                match (verifies(first), verifies(signed)) {
                    (true, true) => violations.push(Violation::Equivocation {
                        first: first.clone(),
                        second: signed.clone(),
                    }),
                    (false, true) => {
                        problems.push(format!(
                            "seat {} envelope {}: a forged copy",
                            slot.0 + 1,
                            slot.1
                        ));
                        slots.insert(slot, signed.clone());
                    }
                    _ => problems.push(format!(
                        "seat {} envelope {}: a forged copy",
                        slot.0 + 1,
                        slot.1
                    )),
                }
            }
            Some(_) => {}
            None => {
                slots.insert(slot, signed.clone());
            }
        }
    }
    // Fed in the file's order (one envelope per slot), which for a canonical
    // transcript is the order they are applied in: each is consumed as it
    // arrives, and a reveal is checked against its chain with one hash.
    let mut fed = BTreeSet::new();
    let in_file_order = frames.iter().filter_map(|frame| match frame {
        Frame::Envelope(signed) => {
            let slot = (signed.seat(), signed.seq());
            if fed.insert(slot) {
                slots.get(&slot)
            } else {
                None
            }
        }
        _ => None,
    });
    let to_feed: Vec<&crate::Signed> = in_file_order.collect();
    // Every signature is checked in one batch first (a third of the cost of
    // checking each alone); an envelope whose signature the batch could not
    // vouch for goes in unchecked, so the table checks it alone and names
    // it, as it would without the batch.
    let signature_checked: Vec<bool> = {
        let signed_bytes: Vec<Vec<u8>> = to_feed.iter().map(|s| s.signed_bytes()).collect();
        let checkable: Vec<(usize, _)> = to_feed
            .iter()
            .enumerate()
            .filter_map(|(i, signed)| {
                let key = table.seat_key(signed.seat())?;
                Some((i, (key, signed_bytes[i].as_slice(), &signed.signature)))
            })
            .collect();
        let items: Vec<_> = checkable.iter().map(|(_, item)| *item).collect();
        let mut checked = vec![false; to_feed.len()];
        for ((i, _), valid) in checkable.iter().zip(crate::identity::verify_many(&items)) {
            checked[*i] = valid;
        }
        checked
    };
    for (signed, checked) in to_feed.into_iter().zip(signature_checked) {
        let handled = if checked {
            table.handle_signature_checked(0, signed.clone())
        } else {
            table.handle_envelope(0, signed.clone())
        };
        match handled {
            // A stopped table is reported once, below.
            Ok(_) | Err(TableError::Failed(_) | TableError::Unservable(_)) => {}
            Err(e) => problems.push(format!(
                "seat {} envelope {}: {e}",
                signed.seat() + 1,
                signed.seq()
            )),
        }
    }
    // A seat that signed two envelopes for one slot forked the game: peers
    // that applied different ones wrote their later envelopes on different
    // states, so what the replay then finds against another seat may be
    // the fork's doing, not that seat's (SPEC 3.9). The table reasons the
    // same way when it meets the second envelope after the fork.
    let equivocators: BTreeSet<u8> = violations.iter().map(Violation::seat).collect();
    let mut forfeited = Vec::new();
    let mut result = None;
    while let Some(output) = table.poll_output() {
        match output {
            Output::Violation(v)
                if !violations.contains(&v)
                    && (equivocators.is_empty() || equivocators.contains(&v.seat())) =>
            {
                violations.push(*v)
            }
            Output::Forfeited { seat, reason } => forfeited.push((seat, reason)),
            Output::Finished(r) => result = Some(r),
            _ => {}
        }
    }
    // A game that finished and was then rewound (a forfeit that came first,
    // heard late) is over only if it finished again.
    if !table.is_finished() {
        result = None;
    }
    if let Some(e) = table.unservable() {
        problems.push(format!(
            "the game stops after {} at a private request no deal can serve: {e}",
            roundtable_engine::plural(table.position(), "input", "inputs")
        ));
    } else if result.is_none() && violations.is_empty() {
        problems.push(if table.game().result().is_some() {
            "the game is over but not every seed was opened".to_owned()
        } else {
            format!(
                "the game stops unfinished after {}",
                roundtable_engine::plural(table.position(), "input", "inputs")
            )
        });
    }
    let canonical = table.transcript() == frames;
    let hands = (table.is_finished() && table.every_key_released()).then(|| {
        (0..table.genesis().proposal.seats.len())
            .map(|s| table.opened(Seat(s as u8)).cloned().unwrap_or_default())
            .collect()
    });
    Ok(AuditReport {
        game_id,
        game: G::NAME,
        names,
        result,
        violations,
        problems,
        forfeited,
        abandoned: table.abandoned().map(<[Seat]>::to_vec),
        inputs: table.position(),
        hands,
        canonical,
    })
}
