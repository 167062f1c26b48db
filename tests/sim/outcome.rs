//! The end of a run and the properties the tests check on it.

use std::collections::{BTreeMap, BTreeSet};

use roundtable_engine::{CardHandle, GameResult, Knowledge, Seat};
use roundtable_port_royal::PortRoyal;
use roundtable_table::audit::{AuditReport, audit};
use roundtable_table::transcript::Frame;
use roundtable_table::{Genesis, Signed, Violation};

use super::{Role, SimConfig, SimGame};

/// What happened to one peer.
#[derive(Debug)]
pub struct PeerReport {
    /// Its seat.
    pub seat: Seat,
    /// How it behaved.
    pub role: Role,
    /// Whether its table finished the game.
    pub finished: bool,
    /// The result its table reported.
    pub result: Option<GameResult>,
    /// When (simulated ms) its table last reported the game finished.
    pub finished_at: Option<u64>,
    /// The violation its table stopped on (the final one, if an
    /// equivocation superseded an earlier finding).
    pub violation: Option<Violation>,
    /// Every violation output, in order.
    pub violations_seen: Vec<Violation>,
    /// Forfeits it applied, as they were output.
    pub forfeits: Vec<(Seat, &'static str)>,
    /// The forfeits in its table's records at the end: (position, seat).
    pub forfeit_records: Vec<(u64, Seat)>,
    /// Its table's transcript at the end (empty when it was down).
    pub transcript: Vec<Frame>,
    /// Its transcript file's bytes after the game finished.
    pub file: Option<Vec<u8>>,
    /// The peer's log in arrival order (empty if it kept none): SPEC 3.9
    /// says it audits like the canonical file.
    pub arrival: Vec<Frame>,
    /// Inputs its table refused without blame, by error.
    pub refusals: BTreeMap<String, u64>,
    /// Whether it left the game for good mid-run: it stopped in place of an
    /// envelope, sent a cheat, or resigned and did not stay. A role whose
    /// moment never came before the game ended leaves nothing out.
    pub left: bool,
    /// Times it restarted from its log.
    pub restarts: u32,
    /// Times its table went back to apply a forfeit it had passed.
    pub rewinds: u32,
    /// What its table had opened of the private cards while the game was
    /// on: its own seat's, and nothing else.
    pub knowledge: Knowledge,
    /// Per seat, what its table opened at the end: every seat's dealt cards
    /// once every key was released.
    pub opened: Vec<Knowledge>,
    /// Every slot its table dealt, with the seat it went to.
    pub dealt: Vec<(Seat, CardHandle)>,
    /// Whether every seat's key was released to its table.
    pub every_key_released: bool,
}

/// Counters of one run.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Messages sent.
    pub messages: u64,
    /// Payload bytes sent.
    pub wire_bytes: u64,
    /// Envelope bytes gossiped (broadcasts only, not catch-up).
    pub gossip_bytes: u64,
    /// Messages lost (dropped, partitioned, or sent to a down peer).
    pub lost: u64,
    /// Messages delivered twice.
    pub duplicated: u64,
    /// Envelopes signed by the tables.
    pub authored: u64,
    /// Envelopes handed to tables from the network.
    pub received: u64,
    /// Of those, the ones that were new to the table.
    pub received_new: u64,
    /// Game inputs applied (by the first honest peer).
    pub inputs: u64,
    /// Events carried out.
    pub events: u64,
    /// Simulated time at the end (ms).
    pub sim_ms: u64,
}

/// The end of a run of a game of `G`.
#[derive(Debug)]
pub struct Outcome<G: SimGame = PortRoyal> {
    /// The configuration.
    pub config: SimConfig<G>,
    /// The game's genesis.
    pub genesis: Genesis,
    /// Per seat.
    pub peers: Vec<PeerReport>,
    /// Counters.
    pub stats: Stats,
    /// Envelopes a cheater signed and sent in place of honest ones.
    pub cheat_envelopes: Vec<Signed>,
    /// Why the run stopped before every honest peer was done, if it did.
    pub stuck: Option<String>,
}

impl<G: SimGame> Outcome<G> {
    /// The peers that must agree.
    pub fn honest(&self) -> impl Iterator<Item = &PeerReport> {
        self.peers.iter().filter(|p| p.role.is_honest())
    }

    /// The property of a game without a cheat that blames: every honest
    /// peer finished without a violation, their transcripts are identical,
    /// their files are byte-identical, and the audit finds the transcript
    /// valid. Returns the audit report.
    pub fn check_agreement(&self) -> Result<AuditReport, String> {
        if let Some(why) = &self.stuck {
            return Err(format!("stuck: {why}"));
        }
        let mut first: Option<&PeerReport> = None;
        for p in self.honest() {
            if let Some(v) = &p.violation {
                return Err(format!("{} saw a violation: {v}", p.seat));
            }
            if !p.finished {
                return Err(format!("{} did not finish", p.seat));
            }
            let Some(file) = &p.file else {
                return Err(format!("{} wrote no transcript file", p.seat));
            };
            match first {
                None => first = Some(p),
                Some(f) => {
                    if f.transcript != p.transcript {
                        return Err(format!(
                            "{} and {} ended with different transcripts ({} and {} frames; first difference at frame {}); forfeits {:?} and {:?}, rewinds {} and {}",
                            f.seat,
                            p.seat,
                            f.transcript.len(),
                            p.transcript.len(),
                            f.transcript
                                .iter()
                                .zip(&p.transcript)
                                .position(|(a, b)| a != b)
                                .unwrap_or(f.transcript.len().min(p.transcript.len())),
                            f.forfeits,
                            p.forfeits,
                            f.rewinds,
                            p.rewinds,
                        ));
                    }
                    if f.file.as_ref() != Some(file) {
                        return Err(format!(
                            "{} and {} wrote different transcript files",
                            f.seat, p.seat
                        ));
                    }
                }
            }
        }
        let first = first.ok_or("no honest peer")?;
        let report = audit::<G>(&first.transcript).map_err(|e| format!("audit refused: {e}"))?;
        if !report.is_valid() {
            return Err(format!(
                "audit: violations {:?}, problems {:?}",
                report
                    .violations
                    .iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>(),
                report.problems
            ));
        }
        if !report.canonical {
            return Err("audit: the transcript is not in canonical order".into());
        }
        for p in self.honest().filter(|p| !p.arrival.is_empty()) {
            let log = audit::<G>(&p.arrival)
                .map_err(|e| format!("audit refused {}'s log: {e}", p.seat))?;
            if !log.is_valid() || log.result != report.result {
                return Err(format!(
                    "{}'s log in arrival order: violations {:?}, problems {:?}, result {:?} where the transcript's is {:?}",
                    p.seat,
                    log.violations
                        .iter()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>(),
                    log.problems,
                    log.result,
                    report.result
                ));
            }
        }
        Ok(report)
    }

    /// The property of a game with private cards, after
    /// [`Outcome::check_agreement`] gave `report`: before the keys were
    /// released, every peer's seat (honest, or gone with its table kept, but
    /// not one that resigned: see [`Role::Resigns`]) had opened exactly the
    /// slots its table dealt to it, and each holds the
    /// card that every honest peer's table but its own opens with the keys
    /// released after the game (a seat that resigned held only what it
    /// opened before). When the game ended normally, every key
    /// was released to every honest peer. Returns how many cards were held
    /// against the released keys.
    pub fn check_private_knowledge(&self, report: &AuditReport) -> Result<usize, String> {
        let honest: Vec<&PeerReport> = self.honest().filter(|p| !p.transcript.is_empty()).collect();
        if report.abandoned.is_none()
            && let Some(p) = honest.iter().find(|p| !p.every_key_released)
        {
            return Err(format!(
                "the game ended, but not every key reached {}",
                p.seat
            ));
        }
        let mut checked = 0;
        let checkable =
            |p: &&PeerReport| !p.transcript.is_empty() && !matches!(p.role, Role::Resigns { .. });
        for p in self.peers.iter().filter(checkable) {
            let dealt: BTreeSet<CardHandle> = p
                .dealt
                .iter()
                .filter(|(to, _)| *to == p.seat)
                .map(|(_, h)| *h)
                .collect();
            let known: BTreeSet<CardHandle> = p.knowledge.iter().map(|r| r.handle).collect();
            if dealt != known {
                return Err(format!(
                    "{} opened {known:?} while the game was on, but was dealt {dealt:?}",
                    p.seat
                ));
            }
            for q in honest
                .iter()
                .filter(|q| q.seat != p.seat && q.every_key_released)
            {
                let opened = q.opened.get(p.seat.index()).cloned().unwrap_or_default();
                if opened != p.knowledge {
                    return Err(format!(
                        "{} held {:?}, but the released keys open {:?} for it at {}",
                        p.seat,
                        p.knowledge.iter().collect::<Vec<_>>(),
                        opened.iter().collect::<Vec<_>>(),
                        q.seat
                    ));
                }
                checked += opened.len();
            }
        }
        Ok(checked)
    }

    /// Whether two honest peers forfeited each other at the same position:
    /// the split brain of a two-seat game cut in two for longer than the
    /// stall timeout at a chance event both seats reveal for, where the
    /// lower seat must forfeit on both sides); named in failure messages.
    pub fn mutual_forfeit(&self) -> Option<u64> {
        let honest: Vec<&PeerReport> = self.honest().collect();
        honest.iter().find_map(|a| {
            a.forfeit_records.iter().find_map(|&(position, accused)| {
                honest
                    .iter()
                    .find(|b| b.seat == accused)?
                    .forfeit_records
                    .contains(&(position, a.seat))
                    .then_some(position)
            })
        })
    }

    /// The property of a cheat that blames `cheater`: every honest peer
    /// stopped on a violation of one of `kinds` blaming the cheater, whose
    /// proof checks against the genesis, and the audit of an honest peer's
    /// transcript with the cheater's envelopes appended reports a violation
    /// by the cheater.
    pub fn check_caught(&self, cheater: Seat, kinds: &[&str]) -> Result<AuditReport, String> {
        let mut any = None;
        for p in self.honest() {
            let Some(v) = &p.violation else {
                return Err(format!(
                    "{} caught nothing (finished: {}, stuck: {:?})",
                    p.seat, p.finished, self.stuck
                ));
            };
            if v.seat() != cheater.0 || !kinds.contains(&v.kind()) {
                return Err(format!(
                    "{} blamed wrongly: {v} (expected {kinds:?} by {cheater})",
                    p.seat
                ));
            }
            v.check_signatures(&self.genesis)
                .map_err(|e| format!("{}'s proof does not check: {e}", p.seat))?;
            any = Some(p);
        }
        let p = any.ok_or("no honest peer")?;
        // An honest peer's own log, in arrival order, blames nobody else.
        for q in self.honest().filter(|q| !q.arrival.is_empty()) {
            let log = audit::<G>(&q.arrival)
                .map_err(|e| format!("audit refused {}'s log: {e}", q.seat))?;
            if let Some(v) = log.violations.iter().find(|v| v.seat() != cheater.0) {
                return Err(format!("{}'s log blames an honest seat: {v}", q.seat));
            }
        }
        let mut frames = p.transcript.clone();
        frames.extend(self.cheat_envelopes.iter().cloned().map(Frame::Envelope));
        let report = audit::<G>(&frames).map_err(|e| format!("audit refused: {e}"))?;
        if !report.violations.iter().any(|v| v.seat() == cheater.0) {
            return Err(format!(
                "the audit does not blame {cheater}: {:?}",
                report
                    .violations
                    .iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
            ));
        }
        Ok(report)
    }

    /// [`Outcome::check_caught`], and more: the audit of every honest
    /// peer's transcript, with the cheater's envelopes added, blames the
    /// cheater by one of `kinds` and no other seat.
    pub fn check_caught_by_every_audit(
        &self,
        cheater: Seat,
        kinds: &[&str],
    ) -> Result<AuditReport, String> {
        let report = self.check_caught(cheater, kinds)?;
        for p in self.honest() {
            let mut frames = p.transcript.clone();
            frames.extend(self.cheat_envelopes.iter().cloned().map(Frame::Envelope));
            let audited =
                audit::<G>(&frames).map_err(|e| format!("audit of {} refused: {e}", p.seat))?;
            let blames: Vec<String> = audited.violations.iter().map(|v| v.to_string()).collect();
            if let Some(v) = audited.violations.iter().find(|v| v.seat() != cheater.0) {
                return Err(format!(
                    "the audit of {} blames an honest seat: {v}",
                    p.seat
                ));
            }
            if !audited
                .violations
                .iter()
                .any(|v| v.seat() == cheater.0 && kinds.contains(&v.kind()))
            {
                return Err(format!(
                    "the audit of {} does not blame {cheater} by {kinds:?}: {blames:?}",
                    p.seat
                ));
            }
        }
        Ok(report)
    }
}
