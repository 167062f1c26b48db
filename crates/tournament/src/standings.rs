//! Standings, only from audited games.
//!
//! Only the entrants play: a player whose seed share is not opened is
//! withdrawn ([`crate::manifest`]), paired in no round and not ranked.
//! Every transcript is audited first (by the caller, which knows the game);
//! what the audit found becomes a [`Submission`]. [`standings`] then replays
//! the tournament round by round: it pairs the round ([`crate::pair_round`])
//! from the results so far, takes for each table the game whose genesis
//! nonce is that table's ([`crate::table_nonce`]), and scores it:
//!
//! * At a table, a player earns two half points for every opponent ranked
//!   below it in the game's result and one for every opponent level with it
//!   (a two-seat win is one point, a five-seat win four).
//! * A proven cheat is a loss for the cheater: the cheaters rank below every
//!   other player at the table, and the others share the game's ranking as
//!   far as it went (all level if the game stopped unfinished).
//! * A bye is worth what a player level with everyone at a full table earns
//!   (one half point per opponent).
//! * A table with no accepted game scores nothing for anyone at it: nobody
//!   showed that it was played.
//! * **No-shows.** A table's game may seat fewer than the pairing's players
//!   (at least two, and nobody else): those missing lost it by forfeit. They
//!   rank below every seated player, level with each other, with no game
//!   score, exactly like cheaters. This is how the show-up rule of the
//!   terms ([`crate::Terms::show_up_ms`]) lands in the files: a table whose
//!   players are not all there when that time has passed starts without
//!   them (`roundtable tournament host` does so; SPEC 6.3), and every
//!   seated player signs that genesis, so no one (the director included)
//!   can leave a player out of a game without every other player at the
//!   table signing the game that leaves it out.
//!
//! Refused, each with one line that says why: a game of another game or
//! options, a game bound to no table of this tournament, a second copy of a
//! game, two different games for one table (neither counts) and a game whose
//! players are not the pairing's. Ranking: points, then (Swiss) Buchholz, the sum of
//! the final points of every opponent met, then the sum of the game's own
//! scores, then key order. Glicko-2 ratings (the `skillratings` crate, one
//! rating period a round, every two players at a table one match) are shown
//! to one decimal place, so the last bits of a platform's `exp` and `ln`
//! cannot change the output.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

use roundtable_engine::{GameResult, Seat, Standing, plural};
use roundtable_table::audit::AuditReport;
use roundtable_table::{GameId, Proposal, PublicKey};
use serde::Serialize;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

use crate::pairing::{Record, pair_round};
use crate::{Format, Manifest, OpenedShares, TournamentId, table_nonce};

/// What the audit of one game proved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Played to its end with no violation (an abandoned game's result has
    /// its stopped seats last already).
    Finished(GameResult),
    /// Signed proof that these seats cheated; `result` if the game still
    /// ended.
    Cheated {
        /// The seats to blame.
        cheaters: Vec<Seat>,
        /// The result, if there was one.
        result: Option<GameResult>,
    },
}

/// One audited game offered for the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    /// Where it came from (a file name), for the refusal lines.
    pub source: String,
    /// Its game id.
    pub game_id: GameId,
    /// The game's name in its genesis.
    pub game: String,
    /// The game's options in its genesis.
    pub options: Vec<u8>,
    /// Its genesis nonce: a tournament table's [`crate::table_nonce`].
    pub nonce: [u8; 32],
    /// The players' keys in seat order.
    pub seats: Vec<PublicKey>,
    /// What the audit proved.
    pub outcome: Outcome,
}

impl Submission {
    /// A game from its genesis `proposal` and its audit `report`. A report
    /// that neither ends the game cleanly nor proves a cheat (a tampered or
    /// unfinished file) is refused.
    pub fn from_audit(
        source: impl Into<String>,
        proposal: &Proposal,
        report: &AuditReport,
    ) -> Result<Submission, Refusal> {
        let source = source.into();
        let outcome = if !report.violations.is_empty() {
            let cheaters: BTreeSet<u8> = report.violations.iter().map(|v| v.seat()).collect();
            Outcome::Cheated {
                cheaters: cheaters.into_iter().map(Seat).collect(),
                result: report.result.clone(),
            }
        } else if let (true, Some(result)) = (report.is_valid(), &report.result) {
            Outcome::Finished(result.clone())
        } else {
            let reason = report
                .problems
                .first()
                .cloned()
                .unwrap_or_else(|| "the game has no result".into());
            return Err(Refusal {
                source,
                reason: format!("the audit refuses it: {reason}"),
            });
        };
        Ok(Submission {
            source,
            game_id: report.game_id,
            game: proposal.game.clone(),
            options: proposal.options.clone(),
            nonce: proposal.nonce,
            seats: proposal.seats.iter().map(|s| s.key).collect(),
            outcome,
        })
    }
}

/// A file or game that does not count, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Refusal {
    /// Where it came from.
    pub source: String,
    /// Why, in one line.
    pub reason: String,
}

/// How a table of a round ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TableStatus {
    /// An audited game.
    Played,
    /// An audited game that proves these players cheated.
    Cheat {
        /// The cheaters' names.
        cheaters: Vec<String>,
    },
    /// No accepted game: nobody scores.
    Unplayed,
}

/// One table of a round in the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableReport {
    /// The table's number.
    pub table: u32,
    /// Its players' names, in the pairing's order.
    pub players: Vec<String>,
    /// The paired players its counted game does not seat: each lost it by
    /// forfeit (in the pairing's order).
    pub no_shows: Vec<String>,
    /// Points each earned (same order).
    pub points: Vec<f64>,
    /// How it ended.
    pub status: TableStatus,
    /// The game id of the game that counted.
    pub game: Option<String>,
    /// The file it came from.
    pub source: Option<String>,
}

/// One round in the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RoundReport {
    /// The round, from 1.
    pub round: u32,
    /// Its tables.
    pub tables: Vec<TableReport>,
    /// Who sat out.
    pub byes: Vec<String>,
}

/// One player's line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerRow {
    /// Place, from 1.
    pub rank: u32,
    /// Display name.
    pub name: String,
    /// Public key (hex).
    pub key: String,
    /// Tournament points.
    pub points: f64,
    /// Buchholz: the sum of the final points of every opponent met.
    pub buchholz: f64,
    /// The sum of the game's own scores (victory points in Port Royal).
    pub game_score: i64,
    /// Games that counted.
    pub games: u32,
    /// Games in which this player was proven to cheat.
    pub cheats: u32,
    /// Glicko-2 rating.
    pub rating: f64,
    /// Glicko-2 rating deviation.
    pub deviation: f64,
    /// Glicko-2 volatility (to four decimal places).
    pub volatility: f64,
}

/// The standings of a tournament.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standings {
    /// The tournament id.
    pub tournament: String,
    /// Its name.
    pub name: String,
    /// Its format.
    pub format: Format,
    /// The order of the ranking, after points.
    pub tie_breaks: Vec<&'static str>,
    /// Every round.
    pub rounds: Vec<RoundReport>,
    /// The players, best first.
    pub players: Vec<PlayerRow>,
    /// The players withdrawn for not opening their seed share (paired in
    /// no round), by name in key order.
    pub withdrawn: Vec<String>,
    /// What did not count, in source order.
    pub refused: Vec<Refusal>,
    /// Every round's pairing, as recomputed (a round after the games given
    /// is paired as if its unplayed tables scored nothing: the round after
    /// the last one played is the one to play next).
    #[serde(skip)]
    pub pairings: Vec<crate::Pairing>,
}

#[derive(Default)]
struct Tally {
    opponents: Vec<PublicKey>,
    game_score: i64,
    games: u32,
    cheats: u32,
}

/// The standings of `manifest` (verified by the caller) from the opened
/// seed shares `shares` (each checked with [`Manifest::check_reveal`]) and
/// `submissions`, with `refused` (files the caller could not read or
/// audit) reported along with what this refuses. See the module
/// documentation for the rules.
pub fn standings(
    manifest: &Manifest,
    shares: &OpenedShares,
    submissions: Vec<Submission>,
    mut refused: Vec<Refusal>,
) -> Standings {
    let id = manifest.id();
    let terms = &manifest.terms;
    let players = manifest.entrants(shares);
    let seats = terms.seats_per_table;
    let rounds = terms.format.rounds(players.len(), seats);
    let name = |k: &PublicKey| manifest.name_of(k).unwrap_or("?").to_owned();

    let by_table = bin_by_table(&id, manifest, submissions, &mut refused);
    let seed = manifest.seat_seed(shares);
    let mut record = Record::default();
    let mut tally: BTreeMap<PublicKey, Tally> =
        players.iter().map(|k| (*k, Tally::default())).collect();
    let config = Glicko2Config::new();
    let mut ratings: BTreeMap<PublicKey, Glicko2Rating> =
        players.iter().map(|k| (*k, Glicko2Rating::new())).collect();
    let mut reports = Vec::new();
    let mut pairings = Vec::new();
    let mut bins = by_table;

    for round in 1..=rounds {
        let pairing = pair_round(&players, terms.format, seats, &seed, round, &record);
        let mut matches: BTreeMap<PublicKey, Vec<(Glicko2Rating, Outcomes)>> = BTreeMap::new();
        let mut tables = Vec::new();
        for table in &pairing.tables {
            let games = bins.remove(&(round, table.number)).unwrap_or_default();
            let chosen = choose_game(round, table.number, &table.players, games, &mut refused);
            let report = match chosen {
                None => TableReport {
                    table: table.number,
                    players: table.players.iter().map(name).collect(),
                    no_shows: Vec::new(),
                    points: vec![0.0; table.players.len()],
                    status: TableStatus::Unplayed,
                    game: None,
                    source: None,
                },
                Some(game) => {
                    let ranked = ranks(&game);
                    let places: Vec<(PublicKey, u8, i64)> = table
                        .players
                        .iter()
                        .map(|k| {
                            ranked
                                .iter()
                                .find(|(key, _, _)| key == k)
                                .copied()
                                .unwrap_or((*k, u8::MAX, 0))
                        })
                        .collect();
                    let no_shows: Vec<PublicKey> = table
                        .players
                        .iter()
                        .filter(|k| !game.seats.contains(k))
                        .copied()
                        .collect();
                    let mut half = vec![0u64; places.len()];
                    for (i, (a, rank_a, score)) in places.iter().enumerate() {
                        let t = tally.entry(*a).or_default();
                        if !no_shows.contains(a) {
                            t.games += 1;
                        }
                        t.game_score += score;
                        for (j, (b, rank_b, _)) in places.iter().enumerate() {
                            if i == j {
                                continue;
                            }
                            t.opponents.push(*b);
                            let outcome = match rank_a.cmp(rank_b) {
                                std::cmp::Ordering::Less => {
                                    half[i] += 2;
                                    Outcomes::WIN
                                }
                                std::cmp::Ordering::Equal => {
                                    half[i] += 1;
                                    Outcomes::DRAW
                                }
                                std::cmp::Ordering::Greater => Outcomes::LOSS,
                            };
                            let rating = ratings.get(b).copied().unwrap_or_default();
                            matches.entry(*a).or_default().push((rating, outcome));
                        }
                    }
                    for ((k, _, _), h) in places.iter().zip(&half) {
                        record.add_half_points(*k, *h);
                    }
                    let status = match &game.outcome {
                        Outcome::Finished(_) => TableStatus::Played,
                        Outcome::Cheated { cheaters, .. } => {
                            let names = cheaters
                                .iter()
                                .filter_map(|s| game.seats.get(s.index()))
                                .map(|k| {
                                    if let Some(t) = tally.get_mut(k) {
                                        t.cheats += 1;
                                    }
                                    name(k)
                                })
                                .collect();
                            TableStatus::Cheat { cheaters: names }
                        }
                    };
                    TableReport {
                        table: table.number,
                        players: table.players.iter().map(name).collect(),
                        no_shows: no_shows.iter().map(name).collect(),
                        points: half.iter().map(|h| *h as f64 / 2.0).collect(),
                        status,
                        game: Some(game.game_id.to_string()),
                        source: Some(game.source),
                    }
                }
            };
            record.record_table(&table.players);
            tables.push(report);
        }
        let bye_half = u64::from(seats.saturating_sub(1));
        for k in &pairing.byes {
            record.record_bye(*k);
            record.add_half_points(*k, bye_half);
        }
        ratings = ratings
            .iter()
            .map(|(k, r)| {
                let games = matches.get(k).map(Vec::as_slice).unwrap_or(&[]);
                (*k, glicko2_rating_period(r, games, &config))
            })
            .collect();
        reports.push(RoundReport {
            round,
            tables,
            byes: pairing.byes.iter().map(name).collect(),
        });
        pairings.push(pairing);
    }
    for ((round, table), games) in bins {
        for g in games {
            refused.push(Refusal {
                source: g.source,
                reason: format!("round {round} has no table {table}"),
            });
        }
    }
    refused.sort_by(|a, b| a.source.cmp(&b.source).then(a.reason.cmp(&b.reason)));

    let swiss = matches!(terms.format, Format::Swiss { .. });
    let mut rows: Vec<(u64, u64, i64, PublicKey)> = players
        .iter()
        .map(|k| {
            let t = &tally[k];
            let buchholz = if swiss {
                t.opponents.iter().map(|o| record.half_points(o)).sum()
            } else {
                0
            };
            (record.half_points(k), buchholz, t.game_score, *k)
        })
        .collect();
    rows.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then(b.1.cmp(&a.1))
            .then(b.2.cmp(&a.2))
            .then(a.3.cmp(&b.3))
    });
    let players = rows
        .iter()
        .enumerate()
        .map(|(i, (half, buchholz, game_score, k))| {
            let t = &tally[k];
            let r = ratings.get(k).copied().unwrap_or_default();
            PlayerRow {
                rank: i as u32 + 1,
                name: name(k),
                key: hex::encode(k.0),
                points: *half as f64 / 2.0,
                buchholz: *buchholz as f64 / 2.0,
                game_score: *game_score,
                games: t.games,
                cheats: t.cheats,
                rating: round_to(r.rating, 10.0),
                deviation: round_to(r.deviation, 10.0),
                volatility: round_to(r.volatility, 10_000.0),
            }
        })
        .collect();
    let mut tie_breaks = Vec::new();
    if swiss {
        tie_breaks.push("buchholz");
    }
    tie_breaks.extend(["game score", "key"]);
    Standings {
        tournament: id.to_string(),
        name: terms.name.clone(),
        format: terms.format,
        withdrawn: manifest.withdrawn(shares).iter().map(name).collect(),
        tie_breaks,
        rounds: reports,
        players,
        refused,
        pairings,
    }
}

fn round_to(value: f64, scale: f64) -> f64 {
    (value * scale).round() / scale
}

/// Put every submission at the table its nonce names, refusing those of
/// another game or options and those that name no table of this tournament.
fn bin_by_table(
    id: &TournamentId,
    manifest: &Manifest,
    submissions: Vec<Submission>,
    refused: &mut Vec<Refusal>,
) -> BTreeMap<(u32, u32), Vec<Submission>> {
    let terms = &manifest.terms;
    let most_tables = manifest.registrations.len() / usize::from(terms.seats_per_table.max(2));
    let mut tables: HashMap<[u8; 32], (u32, u32)> = HashMap::new();
    for round in 1..=manifest.rounds() {
        for table in 1..=most_tables as u32 {
            tables.insert(table_nonce(id, round, table), (round, table));
        }
    }
    let mut bins: BTreeMap<(u32, u32), Vec<Submission>> = BTreeMap::new();
    for s in submissions {
        let reason = if s.game != terms.game {
            Some(format!(
                "a game of {:?}, not of the tournament's game {:?}",
                s.game, terms.game
            ))
        } else if s.options != terms.options {
            Some(format!(
                "a game of {:?} with other options than the tournament's",
                s.game
            ))
        } else {
            match tables.get(&s.nonce) {
                Some(at) => {
                    bins.entry(*at).or_default().push(s);
                    continue;
                }
                None => Some("its genesis names no table of this tournament".into()),
            }
        };
        if let Some(reason) = reason {
            refused.push(Refusal {
                source: s.source,
                reason,
            });
        }
    }
    bins
}

/// The game that counts for a table: the one game whose players are the
/// pairing's, or some of them (at least two; the others did not show up).
/// Further copies of it are refused; if there are two different
/// such games, neither counts: every player at the table signed both, and
/// nothing says which was meant (the lower game id would let the table
/// choose its result by grinding).
fn choose_game(
    round: u32,
    table: u32,
    paired: &[PublicKey],
    mut games: Vec<Submission>,
    refused: &mut Vec<Refusal>,
) -> Option<Submission> {
    let expected: BTreeSet<PublicKey> = paired.iter().copied().collect();
    games.sort_by(|a, b| a.source.cmp(&b.source));
    let mut kept: Vec<Submission> = Vec::new();
    for g in games {
        let seated: BTreeSet<PublicKey> = g.seats.iter().copied().collect();
        let reason =
            if !seated.is_subset(&expected) || seated.len() != g.seats.len() || seated.len() < 2 {
                format!("round {round} table {table}: its players are not the pairing's")
            } else if let Some(first) = kept.iter().find(|k| k.game_id == g.game_id) {
                format!(
                    "round {round} table {table}: a second copy of the game in {}",
                    first.source
                )
            } else {
                kept.push(g);
                continue;
            };
        refused.push(Refusal {
            source: g.source,
            reason,
        });
    }
    if kept.len() > 1 {
        let sources: Vec<String> = kept.iter().map(|k| k.source.clone()).collect();
        for k in kept {
            let others: Vec<&str> = sources
                .iter()
                .filter(|s| **s != k.source)
                .map(String::as_str)
                .collect();
            refused.push(Refusal {
                source: k.source,
                reason: format!(
                    "round {round} table {table}: a second game for the table ({} too), so neither counts",
                    others.join(", ")
                ),
            });
        }
        return None;
    }
    kept.pop()
}

/// Each seat's key, rank (0 best) and game score; cheaters last with no score.
fn ranks(game: &Submission) -> Vec<(PublicKey, u8, i64)> {
    let (result, cheaters): (Option<GameResult>, &[Seat]) = match &game.outcome {
        Outcome::Finished(r) => (Some(r.clone()), &[]),
        Outcome::Cheated { cheaters, result } => {
            (result.as_ref().map(|r| r.with_last(cheaters)), cheaters)
        }
    };
    let standings: Vec<Standing> = match result {
        Some(r) => r.standings,
        None => (0..game.seats.len())
            .map(|i| {
                let seat = Seat(i as u8);
                Standing {
                    seat,
                    rank: u8::from(cheaters.contains(&seat)),
                    score: 0,
                    tie_break: 0,
                }
            })
            .collect(),
    };
    standings
        .iter()
        .filter_map(|s| {
            let key = game.seats.get(s.seat.index())?;
            let score = if cheaters.contains(&s.seat) {
                0
            } else {
                s.score
            };
            Some((*key, s.rank, score))
        })
        .collect()
}

impl Standings {
    /// The standings as JSON (with a final newline).
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }

    /// The players' lines as CSV, with a header.
    pub fn to_csv(&self) -> Result<String, csv::Error> {
        let mut out = csv::Writer::from_writer(Vec::new());
        for row in &self.players {
            out.serialize(row)?;
        }
        let bytes = out.into_inner().map_err(|e| e.into_error())?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// The standings as text for a terminal.
    pub fn to_text(&self) -> String {
        let mut t = String::new();
        let format = match self.format {
            Format::Swiss { rounds } => format!("Swiss, {}", plural(rounds, "round", "rounds")),
            Format::RoundRobin => "round robin".to_owned(),
        };
        let _ = writeln!(
            t,
            "{} ({format}), tournament {}",
            self.name, self.tournament
        );
        let _ = writeln!(
            t,
            "ranked by points, then {}",
            self.tie_breaks.join(", then ")
        );
        let _ = writeln!(
            t,
            "{:>4}  {:<20} {:>7} {:>9} {:>6} {:>5} {:>7} {:>5}",
            "rank", "player", "points", "buchholz", "score", "games", "rating", "RD"
        );
        for p in &self.players {
            let cheat = if p.cheats > 0 {
                format!("  ({})", plural(p.cheats, "proven cheat", "proven cheats"))
            } else {
                String::new()
            };
            let buchholz = if self.tie_breaks.contains(&"buchholz") {
                p.buchholz.to_string()
            } else {
                "-".to_owned()
            };
            let _ = writeln!(
                t,
                "{:>4}  {:<20} {:>7} {:>9} {:>6} {:>5} {:>7.1} {:>5.1}{cheat}",
                p.rank, p.name, p.points, buchholz, p.game_score, p.games, p.rating, p.deviation
            );
        }
        // What a point is, which the column's name alone does not say.
        let _ = writeln!(
            t,
            "points: in each game, 1 for every opponent ranked below you and 1/2 for every one level with you; a bye scores as level with everyone"
        );
        let unplayed: Vec<String> = self
            .rounds
            .iter()
            .flat_map(|r| {
                r.tables
                    .iter()
                    .filter(|t| t.status == TableStatus::Unplayed)
                    .map(move |t| format!("round {} table {}", r.round, t.table))
            })
            .collect();
        if !unplayed.is_empty() {
            let _ = writeln!(
                t,
                "no game counted (nobody scores): {}",
                unplayed.join(", ")
            );
        }
        let no_shows: Vec<String> = self
            .rounds
            .iter()
            .flat_map(|r| {
                r.tables
                    .iter()
                    .filter(|t| !t.no_shows.is_empty())
                    .map(move |t| {
                        format!(
                            "round {} table {}: {}",
                            r.round,
                            t.table,
                            t.no_shows.join(", ")
                        )
                    })
            })
            .collect();
        if !no_shows.is_empty() {
            let _ = writeln!(
                t,
                "lost by forfeit (not at the table in time): {}",
                no_shows.join("; ")
            );
        }
        if !self.withdrawn.is_empty() {
            let _ = writeln!(
                t,
                "withdrawn (seed share not opened): {}",
                self.withdrawn.join(", ")
            );
        }
        t
    }
}
