//! Waters of Nereus's scenario grammar (`tests/scenarios/nereus/GRAMMAR.md`),
//! for the one runner of `roundtable-scenario`.
//!
//! A Nereus scenario stacks the first science deck, scripts the chance it
//! cares about (the first player, day 1's discovery card, `chance:` steps)
//! and may edit the state once the game first waits for day 1's crews. An
//! oracle dealer plays every seat's part of the science deals, so the rules
//! see exactly what a table would give them. Chance a scenario does not
//! script takes the bag's first colours in catalog order, or index 0. The
//! outcome and its exit codes are those of `docs/SCENARIOS.md`; the final
//! state printed is the spectator's view.

use std::collections::BTreeMap;

use roundtable_engine::{ChanceOutcome, Distribution, Game, Next, Observer, Seat};
use roundtable_scenario::{
    ExpectedRefusal, Malformed, Refusal, ScenarioGame, Source, StackedDealer, Stop, expect_equal,
    seat_numbered, split_step,
};
use serde::Deserialize;

use crate::data::{science_by_name, science_name};
use crate::{Action, Cell, Colour, Crew, Nereus, Options, Owner, Phase, Piece, Slot, data};

/// A Nereus scenario file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct File {
    /// The game's name, if the file gives it (else its folder does).
    #[serde(default)]
    #[allow(dead_code)]
    game: Option<String>,
    seats: u8,
    #[serde(default)]
    neutral_ship: bool,
    /// The first science deck's top cards, in deal order; the rest follow
    /// in catalog order.
    #[serde(default)]
    science: Vec<String>,
    /// Who takes the sun and hourglass (seat number); default 1.
    #[serde(default)]
    first: Option<u8>,
    /// Day 1's discovery card (1-12); default the first in the stack.
    #[serde(default)]
    discovery: Option<u8>,
    #[serde(default)]
    setup: Setup,
    steps: Vec<String>,
    #[serde(default)]
    expect: Expect,
}

/// Edits made when the game first waits for the crew choice of day 1.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Setup {
    /// Return every treasure on the board to the bag first.
    #[serde(default)]
    clear_board: bool,
    /// Treasures put on spaces (from the bag): cell -> colour letters.
    #[serde(default)]
    board: BTreeMap<String, String>,
    /// Every player's ship.
    ships: Option<Vec<String>>,
    /// The neutral ship.
    neutral: Option<String>,
    gold: Option<Vec<u32>>,
    vp: Option<Vec<u32>>,
    power: Option<Vec<u8>>,
    /// Per seat number: "slot=letter" (a treasure from the bag, or `*` a gem).
    #[serde(default)]
    cabin: BTreeMap<String, Vec<String>>,
    /// Per seat number: gems in storage.
    #[serde(default)]
    gems: BTreeMap<String, u8>,
    /// Per seat number: completed holds.
    #[serde(default)]
    complete: BTreeMap<String, Vec<String>>,
    /// Markers: crew -> one word a space, seat number, `n` neutral, `.` free.
    #[serde(default)]
    markers: BTreeMap<String, String>,
    /// Per seat number: crew cards already played today.
    #[serde(default)]
    played: BTreeMap<String, Vec<String>>,
    /// Empty the bag (its treasures leave the game) before the steps.
    #[serde(default)]
    empty_bag: bool,
    /// Jump to "final" (game end) or "explorer" (Phase III, queue from the
    /// explorer row's markers).
    phase: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Expect {
    /// The rule the last step breaks (every earlier step must apply).
    refused: Option<String>,
    vp: Option<Vec<u32>>,
    gold: Option<Vec<u32>>,
    power: Option<Vec<u8>>,
    ships: Option<Vec<String>>,
    neutral: Option<String>,
    /// The turn's hand, letters in colour order.
    hand: Option<String>,
    /// Cell -> letters in colour order ("" for none).
    board: Option<BTreeMap<String, String>>,
    /// Per seat number: "slot=letter", "slot=*" (gem) or "slot=" (empty).
    cabin: Option<BTreeMap<String, Vec<String>>>,
    gems: Option<BTreeMap<String, u8>>,
    complete: Option<BTreeMap<String, Vec<String>>>,
    /// Science cards held, per seat.
    science: Option<Vec<usize>>,
    /// Science cards face up, by name.
    discard: Option<Vec<String>>,
    /// Crew -> markers as in the setup.
    markers: Option<BTreeMap<String, String>>,
    /// What the game waits for: "choose", "seat N", "chance", "deal", "over".
    next: Option<String>,
    /// Actions the deciding seat is offered (it must offer each).
    legal: Option<Vec<String>>,
    /// Actions the deciding seat is not offered.
    not_legal: Option<Vec<String>>,
    bag: Option<Vec<u32>>,
    removed: Option<Vec<u32>>,
    day: Option<u8>,
    hourglass: Option<u8>,
    sun: Option<u8>,
    /// Rank of every seat (0 = winner).
    ranks: Option<Vec<u8>>,
}

/// A water space written `b3`, on a board of `size` x `size`.
fn cell(text: &str, size: u8) -> Result<Cell, String> {
    let bad = || format!("{text:?} is not a water space of a {size}x{size} board");
    let mut chars = text.chars();
    let col = chars.next().ok_or_else(bad)?;
    let row: u8 = chars.as_str().parse().map_err(|_| bad())?;
    let col = u8::try_from(col)
        .ok()
        .and_then(|c| c.checked_sub(b'a'))
        .ok_or_else(bad)?;
    let row = row.checked_sub(1).ok_or_else(bad)?;
    if row >= size || col >= size {
        return Err(bad());
    }
    Ok(Cell { row, col })
}

/// A seat's index from its number (from 1) at a table of `seats`.
fn seat_number(text: &str, seats: u8) -> Result<usize, String> {
    seat_numbered(text, seats).map(Seat::index)
}

fn colour(letter: char) -> Result<Colour, String> {
    Colour::parse(&letter.to_string()).ok_or_else(|| format!("{letter:?} is not a colour"))
}

fn slot(text: &str) -> Result<Slot, String> {
    let bad = || format!("{text:?} is not a cabin space");
    let slot = match Action::parse(&format!("gem {text}")) {
        Ok(Action::Gem(s)) => s,
        _ => return Err(bad()),
    };
    let exists = match slot {
        Slot::Hold(crew, i) => usize::from(i) < data::HOLDS[crew.index()].icons.len(),
        Slot::Chest(_) => true,
        Slot::Store(i) => usize::from(i) < data::STORAGE.len(),
    };
    if exists { Ok(slot) } else { Err(bad()) }
}

fn letters(counts: &[u8; 6]) -> String {
    Colour::ALL
        .iter()
        .flat_map(|c| std::iter::repeat_n(c.letter(), usize::from(counts[c.index()])))
        .collect()
}

fn markers_text(row: &[Option<Owner>]) -> String {
    row.iter()
        .map(|m| match m {
            None => ".".to_owned(),
            Some(Owner::Neutral) => "n".to_owned(),
            Some(Owner::Seat(s)) => s.number().to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A Nereus game being scripted: the game, the dealer that stands in for
/// every seat's part of the science deals, and the chance the file scripts
/// for the start.
#[derive(Debug)]
pub struct Scripted {
    game: Nereus,
    dealer: StackedDealer,
    first: Option<u8>,
    discovery: Option<u8>,
}

/// A step as read: a seat's action, or a chance outcome the file gives.
#[derive(Debug)]
pub enum Step {
    /// `SEAT: ACTION`.
    Act(Seat, Action),
    /// `chance: OUTCOME`.
    Chance(ChanceOutcome),
}

impl Scripted {
    /// Serve deals, reshuffles and chance until a decision or the end.
    /// Chance takes the defaults: the first
    /// colours of the bag in catalog order, index 0 otherwise.
    fn serve_all(&mut self) -> Result<(), String> {
        loop {
            if self.dealer.serve(&mut self.game)? {
                continue;
            }
            let Next::Chance(request) = self.game.next() else {
                return Ok(());
            };
            let outcome = if request.purpose == "first player" {
                let n = self.first.take().unwrap_or(1);
                ChanceOutcome::Index(u64::from(n - 1))
            } else if request.purpose == "the day's discovery card"
                && let Some(card) = self.discovery.take()
            {
                self.game
                    .parse_outcome(&card.to_string())
                    .map_err(|e| e.to_string())?
            } else {
                default_outcome(&request.distribution)
            };
            self.game
                .apply_chance(&outcome, &mut Vec::new())
                .map_err(|e| format!("chance {outcome:?}: {e}"))?;
        }
    }

    fn take_from_bag(&mut self, c: Colour) -> Result<(), String> {
        let n = &mut self.game.bag[c.index()];
        if *n == 0 {
            return Err(format!(
                "the setup needs a {c} treasure and the bag has none"
            ));
        }
        *n -= 1;
        Ok(())
    }

    fn apply_setup(&mut self, setup: &Setup) -> Result<(), String> {
        let g = &mut self.game;
        let (seats, size) = (g.seats, g.size);
        let per_seat = |what: &str, given: usize| {
            if given == usize::from(seats) {
                Ok(())
            } else {
                Err(format!("`{what}` gives {given} values for {seats} seats"))
            }
        };
        if setup.clear_board {
            for space in &mut g.board {
                for (c, n) in space.iter_mut().enumerate() {
                    g.bag[c] += u32::from(*n);
                    *n = 0;
                }
            }
        }
        if let Some(ships) = &setup.ships {
            per_seat("ships", ships.len())?;
            g.ships = ships
                .iter()
                .map(|s| cell(s, size))
                .collect::<Result<_, _>>()?;
        }
        if let (Some(n), Some(neutral)) = (&setup.neutral, &mut g.neutral) {
            neutral.ship = cell(n, size)?;
        }
        if let Some(v) = &setup.gold {
            per_seat("gold", v.len())?;
            g.gold = v.clone();
        }
        if let Some(v) = &setup.vp {
            per_seat("vp", v.len())?;
            g.vp = v.clone();
        }
        if let Some(v) = &setup.power {
            per_seat("power", v.len())?;
            g.power = v.clone();
        }
        for (text, treasures) in &setup.board {
            let at = cell(text, self.game.size)?;
            for letter in treasures.chars() {
                let c = colour(letter)?;
                self.take_from_bag(c)?;
                let i = usize::from(at.row) * usize::from(self.game.size) + usize::from(at.col);
                self.game.board[i][c.index()] += 1;
            }
        }
        for (seat, pieces) in &setup.cabin {
            let s = seat_number(seat, seats)?;
            for p in pieces {
                let (place, what) = p.split_once('=').ok_or("cabin entries are slot=letter")?;
                let place = slot(place)?;
                let piece = match what {
                    "*" => Piece::Gem,
                    "" => {
                        if let Slot::Store(i) = place
                            && let Some(c) = self.game.cabins[s].store[usize::from(i)].take()
                        {
                            self.game.bag[c.index()] += 1;
                        }
                        continue;
                    }
                    w => {
                        let c = colour(w.chars().next().ok_or("empty colour")?)?;
                        self.take_from_bag(c)?;
                        Piece::Treasure(c)
                    }
                };
                let cabin = &mut self.game.cabins[s];
                match (place, piece) {
                    (Slot::Hold(crew, i), p) => cabin.holds[crew.index()][usize::from(i)] = Some(p),
                    (Slot::Chest(c), p) => cabin.chest[c.index()] = Some(p),
                    (Slot::Store(i), Piece::Treasure(c)) => {
                        if let Some(old) = cabin.store[usize::from(i)].replace(c) {
                            self.game.bag[old.index()] += 1;
                        }
                    }
                    (Slot::Store(_), Piece::Gem) => return Err("gems go in `gems`".into()),
                }
            }
        }
        let g = &mut self.game;
        for (seat, n) in &setup.gems {
            g.cabins[seat_number(seat, seats)?].gems = *n;
        }
        for (seat, crews) in &setup.complete {
            for c in crews {
                let crew = Crew::parse(c).ok_or_else(|| format!("{c:?} is not a crew"))?;
                g.cabins[seat_number(seat, seats)?].complete |= 1 << crew.index();
            }
        }
        for (seat, crews) in &setup.played {
            for c in crews {
                let crew = Crew::parse(c).ok_or_else(|| format!("{c:?} is not a crew"))?;
                g.played[seat_number(seat, seats)?] |= 1 << crew.index();
            }
        }
        for (crew, row) in &setup.markers {
            let crew = Crew::parse(crew).ok_or_else(|| format!("{crew:?} is not a crew"))?;
            let words: Vec<&str> = row.split_whitespace().collect();
            let target = &mut g.markers[crew.index()];
            if words.len() != target.len() {
                return Err(format!("the {crew} row has {} spaces", target.len()));
            }
            for (m, w) in target.iter_mut().zip(words) {
                *m = match w {
                    "." => None,
                    "n" => Some(Owner::Neutral),
                    n => Some(Owner::Seat(Seat(seat_number(n, seats)? as u8))),
                };
            }
        }
        if setup.empty_bag {
            for c in 0..6 {
                g.removed[c] += g.bag[c];
                g.bag[c] = 0;
            }
        }
        match setup.phase.as_deref() {
            None => {}
            Some("final") => {
                g.day = data::DAYS;
                g.phase = Phase::Final(0);
                g.chosen = vec![None; usize::from(g.seats)];
            }
            Some("explorer") => {
                let queue = g.markers[Crew::Explorer.index()]
                    .iter()
                    .flatten()
                    .copied()
                    .collect();
                g.cycle = data::CYCLES;
                g.chosen = vec![None; usize::from(g.seats)];
                g.phase = Phase::Explorer { queue, pos: 0 };
            }
            Some(other) => return Err(format!("unknown setup phase {other:?}")),
        }
        Ok(())
    }

    fn find_card(&self, seat: Seat, name: &str) -> Result<String, String> {
        let view = self
            .game
            .view_with(Observer::Seat(seat), self.dealer.knowledge(seat));
        let kind = |n: &str| n.split('.').next().unwrap_or(n).to_owned();
        let held = view
            .my_science
            .iter()
            .filter_map(|(h, c)| c.map(|c| (*h, c)));
        let found = held
            .clone()
            .find(|(_, c)| science_name(*c) == name)
            .or_else(|| held.clone().find(|(_, c)| kind(&science_name(*c)) == name));
        match found {
            Some((h, c)) => Ok(format!("{}:{}={}", h.epoch.0, h.slot, science_name(c))),
            None => {
                // Claim a card the seat does not hold: the game refuses it.
                let c = science_by_name(name).ok_or_else(|| format!("{name:?} is not a card"))?;
                Ok(format!("99:99={}", science_name(c)))
            }
        }
    }
}

impl ScenarioGame for Scripted {
    type Game = Nereus;
    type File = File;
    type Step = Step;

    fn start(file: &File, source: Source<'_>) -> Result<Self, Malformed> {
        let options = Options {
            neutral_ship: file.neutral_ship,
        };
        let game = Nereus::new_game(file.seats, &options)
            .map_err(|e| Malformed::new(source.line_of("seats"), e.to_string()))?;
        let mut first_deck = Vec::new();
        for name in &file.science {
            let line = source.item_line("science", name);
            let Some(c) = science_by_name(name) else {
                return Err(Malformed::new(
                    line,
                    format!("{name:?} is not a science card"),
                ));
            };
            if first_deck.contains(&c) {
                return Err(Malformed::new(line, format!("{name:?} twice in `science`")));
            }
            first_deck.push(c);
        }
        for c in 0..data::SCIENCE_DECK.len() as u32 {
            if !first_deck.contains(&c) {
                first_deck.push(c);
            }
        }
        Ok(Scripted {
            game,
            dealer: StackedDealer::new(file.seats, first_deck, Vec::new()),
            first: file.first,
            discovery: file.discovery,
        })
    }

    /// The start, served with the chance the file scripts, and the edits
    /// of `[setup]` once the game first waits for day 1's crews.
    fn prepare(&mut self, file: &File, source: Source<'_>) -> Result<(), Stop> {
        self.serve_all().map_err(|e| Malformed::new(None, e))?;
        self.apply_setup(&file.setup)
            .map_err(|e| Malformed::new(source.line_of("[setup]"), e))?;
        Ok(())
    }

    fn steps(file: &File) -> &[String] {
        &file.steps
    }

    /// `refused = "RULE"`: the last step breaks the rule.
    fn expected_refusal(file: &File, _: Source<'_>) -> Result<Option<ExpectedRefusal>, Malformed> {
        Ok(file.expect.refused.clone().map(|rule| ExpectedRefusal {
            step: file.steps.len().saturating_sub(1),
            rule,
        }))
    }

    /// Read `SEAT: ACTION` or `chance: OUTCOME`. A science card named
    /// without its slot (`play hop ne`) is looked up in the seat's hand.
    fn read_step(&self, step: &str) -> Result<Step, String> {
        if let Some(outcome) = step.strip_prefix("chance:") {
            let Next::Chance(_) = self.game.next() else {
                return Err("the game asks for no chance".into());
            };
            let outcome = self
                .game
                .parse_outcome(outcome.trim())
                .map_err(|e| e.to_string())?;
            return Ok(Step::Chance(outcome));
        }
        let (seat, text) = split_step(step, self.game.seats)?;
        let mut words: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
        if matches!(words.first().map(String::as_str), Some("play" | "discard"))
            && words.get(1).is_some_and(|w| !w.contains('='))
        {
            let name = words[1].clone();
            let handle = self.find_card(seat, &name)?;
            words[1] = handle;
        }
        let action = Nereus::parse_action(&words.join(" ")).map_err(|e| e.to_string())?;
        Ok(Step::Act(seat, action))
    }

    fn take_step(&mut self, step: &Step) -> Result<(), Refusal> {
        match step {
            Step::Act(seat, action) => self.dealer.act(&mut self.game, *seat, action),
            Step::Chance(outcome) => self
                .game
                .apply_chance(outcome, &mut Vec::new())
                .map_err(|e| Refusal::of(&e)),
        }
    }

    /// Chance the next step scripts is left for it; other chance is served
    /// with the defaults.
    fn serve(&mut self, next_step: Option<&str>, _: Source<'_>) -> Result<(), Stop> {
        let chance_next = next_step.is_some_and(|s| s.starts_with("chance:"));
        if chance_next && matches!(self.game.next(), Next::Chance(_)) {
            return Ok(());
        }
        self.serve_all().map_err(|e| Malformed::new(None, e).into())
    }

    fn game(&self) -> &Nereus {
        &self.game
    }

    fn check(
        &self,
        file: &File,
        _: Source<'_>,
        differences: &mut Vec<String>,
    ) -> Result<(), Malformed> {
        differences.extend(check(self, &file.expect));
        Ok(())
    }
}

/// The outcome a scenario gets when it scripts none: the bag's first
/// colours in catalog order, or index 0.
fn default_outcome(distribution: &Distribution<'_>) -> ChanceOutcome {
    match *distribution {
        Distribution::Uniform { .. } => ChanceOutcome::Index(0),
        Distribution::Multiset { counts, take, .. } => {
            let mut left = counts.to_vec();
            let mut cards = Vec::new();
            for _ in 0..take {
                if let Some(i) = left.iter().position(|&n| n > 0) {
                    left[i] -= 1;
                    cards.push(i as u32);
                }
            }
            ChanceOutcome::Cards(cards)
        }
    }
}

fn same(errors: &mut Vec<String>, what: &str, got: String, want: String) {
    expect_equal(errors, what, want, got);
}

/// Every expectation of `expect` that does not hold of the game, and any
/// treasure the game lost or made on the way.
fn check(runner: &Scripted, expect: &Expect) -> Vec<String> {
    let g = &runner.game;
    let mut errors = Vec::new();
    if let Some(v) = &expect.vp {
        same(&mut errors, "vp", format!("{:?}", g.vp), format!("{v:?}"));
    }
    if let Some(v) = &expect.gold {
        same(
            &mut errors,
            "gold",
            format!("{:?}", g.gold),
            format!("{v:?}"),
        );
    }
    if let Some(v) = &expect.power {
        same(
            &mut errors,
            "power",
            format!("{:?}", g.power),
            format!("{v:?}"),
        );
    }
    if let Some(v) = &expect.ships {
        let got: Vec<String> = g.ships.iter().map(ToString::to_string).collect();
        same(&mut errors, "ships", format!("{got:?}"), format!("{v:?}"));
    }
    if let Some(v) = &expect.neutral {
        let got = g
            .neutral
            .as_ref()
            .map(|n| n.ship.to_string())
            .unwrap_or_default();
        same(&mut errors, "neutral ship", got, v.clone());
    }
    if let Some(v) = &expect.hand {
        let mut counts = [0u8; 6];
        for c in g.turn.iter().flat_map(|t| &t.hand) {
            counts[c.index()] += 1;
        }
        same(&mut errors, "hand", letters(&counts), v.clone());
    }
    if let Some(cells) = &expect.board {
        for (text, want) in cells {
            match cell(text, g.size) {
                Ok(c) => same(
                    &mut errors,
                    &format!("board {text}"),
                    letters(&g.treasures_at(c)),
                    want.clone(),
                ),
                Err(e) => errors.push(e),
            }
        }
    }
    if let Some(cabins) = &expect.cabin {
        for (seat, entries) in cabins {
            let Ok(s) = seat_number(seat, g.seats) else {
                errors.push(format!("bad seat {seat}"));
                continue;
            };
            let cabin = &g.cabins[s];
            for e in entries {
                let Some((place, want)) = e.split_once('=') else {
                    errors.push(format!("{e:?}: expected slot=letter"));
                    continue;
                };
                let got = match slot(place) {
                    Ok(Slot::Hold(c, i)) => cabin.holds[c.index()]
                        .get(usize::from(i))
                        .copied()
                        .flatten(),
                    Ok(Slot::Chest(c)) => cabin.chest[c.index()],
                    Ok(Slot::Store(i)) => cabin.store[usize::from(i)].map(Piece::Treasure),
                    Err(e) => {
                        errors.push(e);
                        continue;
                    }
                };
                let got = match got {
                    None => String::new(),
                    Some(Piece::Gem) => "*".into(),
                    Some(Piece::Treasure(c)) => c.letter().to_string(),
                };
                same(
                    &mut errors,
                    &format!("seat {seat} {place}"),
                    got,
                    want.to_owned(),
                );
            }
        }
    }
    if let Some(gems) = &expect.gems {
        for (seat, n) in gems {
            if let Ok(s) = seat_number(seat, g.seats) {
                same(
                    &mut errors,
                    &format!("seat {seat} gems"),
                    g.cabins[s].gems.to_string(),
                    n.to_string(),
                );
            }
        }
    }
    if let Some(complete) = &expect.complete {
        for (seat, crews) in complete {
            if let Ok(s) = seat_number(seat, g.seats) {
                let got: Vec<String> = Crew::ALL
                    .iter()
                    .filter(|c| g.cabins[s].is_complete(**c))
                    .map(|c| c.name().to_owned())
                    .collect();
                same(
                    &mut errors,
                    &format!("seat {seat} complete"),
                    format!("{got:?}"),
                    format!("{crews:?}"),
                );
            }
        }
    }
    if let Some(v) = &expect.science {
        let got: Vec<usize> = g.science.iter().map(Vec::len).collect();
        same(
            &mut errors,
            "science hands",
            format!("{got:?}"),
            format!("{v:?}"),
        );
    }
    if let Some(v) = &expect.discard {
        let got: Vec<String> = g.discard.iter().map(|&c| science_name(c)).collect();
        same(
            &mut errors,
            "science discard",
            format!("{got:?}"),
            format!("{v:?}"),
        );
    }
    if let Some(rows) = &expect.markers {
        for (crew, want) in rows {
            match Crew::parse(crew) {
                Some(c) => same(
                    &mut errors,
                    &format!("{crew} markers"),
                    markers_text(&g.markers[c.index()]),
                    want.clone(),
                ),
                None => errors.push(format!("{crew:?} is not a crew")),
            }
        }
    }
    if let Some(want) = &expect.next {
        let got = match g.next() {
            Next::Over => "over".to_owned(),
            Next::Simultaneous(_) => "choose".to_owned(),
            Next::Decision(s) => format!("seat {}", s.number()),
            Next::Chance(_) => "chance".to_owned(),
            Next::Private(_) => "deal".to_owned(),
        };
        same(&mut errors, "next", got, want.clone());
    }
    let decider = match g.next() {
        Next::Decision(s) => Some(s),
        _ => None,
    };
    if expect.legal.is_some() || expect.not_legal.is_some() {
        match decider {
            None => errors.push("`legal` needs a seat deciding".into()),
            Some(s) => {
                let mut legal = Vec::new();
                g.legal_actions_with(s, runner.dealer.knowledge(s), &mut legal);
                let texts: Vec<String> = legal.iter().map(ToString::to_string).collect();
                for want in expect.legal.iter().flatten() {
                    if !texts.contains(want) {
                        errors.push(format!("{want:?} not offered; offered {texts:?}"));
                    }
                }
                for unwanted in expect.not_legal.iter().flatten() {
                    if texts.contains(unwanted) {
                        errors.push(format!("{unwanted:?} offered"));
                    }
                }
            }
        }
    }
    if let Some(v) = &expect.bag {
        same(&mut errors, "bag", format!("{:?}", g.bag), format!("{v:?}"));
    }
    if let Some(v) = &expect.removed {
        same(
            &mut errors,
            "removed",
            format!("{:?}", g.removed),
            format!("{v:?}"),
        );
    }
    if let Some(v) = expect.day {
        same(&mut errors, "day", (g.day + 1).to_string(), v.to_string());
    }
    if let Some(v) = expect.hourglass {
        same(
            &mut errors,
            "hourglass",
            g.hourglass.number().to_string(),
            v.to_string(),
        );
    }
    if let Some(v) = expect.sun {
        same(
            &mut errors,
            "sun",
            g.sun.number().to_string(),
            v.to_string(),
        );
    }
    if let Some(v) = &expect.ranks {
        let got: Vec<u8> = g.standing().standings.iter().map(|s| s.rank).collect();
        same(&mut errors, "ranks", format!("{got:?}"), format!("{v:?}"));
    }
    let census = g.census();
    for (c, &n) in census.iter().enumerate() {
        let want = data::TREASURES[c] + data::EMPTY_BAG_SET[c] * g.sets_added;
        if n != want {
            errors.push(format!("census of colour {c}: {n}, expected {want}"));
        }
    }
    errors
}
