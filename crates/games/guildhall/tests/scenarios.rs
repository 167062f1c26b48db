//! The scenario runner for Guildhall: every file under
//! `tests/scenarios/guildhall/` (grammar: GRAMMAR.md there) is played with a
//! stacked deal and its expectations checked.

use std::path::{Path, PathBuf};

use roundtable_engine::{CardHandle, Game, Next, PrivateRequest, RuleError, Seat, sim};
use roundtable_guildhall::{
    Action, Card, Guildhall, HandCard, Options, Profession, VP_TABLE, profession_deck,
};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    seats: u8,
    #[serde(default)]
    options: ScenarioOptions,
    /// Every seat's nine dealt cards, in seat order.
    hands: Vec<Vec<String>>,
    /// The cards each seat places in the setup (after drawing back to 9
    /// without discarding); omitted: the scenario's steps play the setup.
    #[serde(default)]
    placed: Option<Vec<Vec<String>>>,
    /// The cards after the hands, top first; the rest of the deck follows in
    /// catalog order.
    #[serde(default)]
    deck: Vec<String>,
    /// Decks laid out by later reshuffles (top first; must be an order of
    /// the pile), used one per reshuffle; without one, the pile's own order.
    #[serde(default)]
    reshuffles: Vec<Vec<String>>,
    /// VP draws in the order asked for ("5 5 2 3-a 9" for the first row).
    chance: Vec<String>,
    steps: Vec<String>,
    #[serde(default)]
    expect: Expect,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ScenarioOptions {
    refill_after_paying: Option<bool>,
    late_chapter_cap: Option<bool>,
    choose_chapter_order: Option<bool>,
    max_rounds: Option<u32>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Expect {
    refused: Option<Refused>,
    vp: Option<Vec<u32>>,
    tokens: Option<Vec<u32>>,
    halls: Option<Vec<Vec<String>>>,
    completed: Option<Vec<Vec<String>>>,
    discard: Option<Vec<String>>,
    row: Option<Vec<String>>,
    hand_sizes: Option<Vec<usize>>,
    open_in_hand: Option<Vec<Vec<String>>>,
    actions_left: Option<u8>,
    active: Option<u32>,
    over: Option<bool>,
    winners: Option<Vec<u32>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Refused {
    step: usize,
    rule: String,
}

fn card(name: &str) -> Result<u32, String> {
    Card::parse(name)
        .map(Card::index)
        .ok_or_else(|| format!("{name:?} is not a card"))
}

fn names(cards: &[String]) -> Result<Vec<u32>, String> {
    cards.iter().map(|c| card(c)).collect()
}

struct Runner {
    game: Guildhall,
    dealer: sim::OracleDealer,
    chance: std::collections::VecDeque<String>,
    first_deck: Vec<u32>,
    reshuffles: std::collections::VecDeque<Vec<u32>>,
}

impl Runner {
    /// Serve deals, reshuffles and VP draws until a decision or the end.
    fn serve(&mut self) -> Result<(), String> {
        loop {
            match self.game.next() {
                Next::Private(PrivateRequest::Reshuffle { pile, epoch }) => {
                    let order = if epoch.0 == 0 {
                        std::mem::take(&mut self.first_deck)
                    } else {
                        self.reshuffles.pop_front().unwrap_or_else(|| pile.to_vec())
                    };
                    self.dealer.stack_next(order);
                    self.dealer
                        .reshuffle(pile, epoch, &mut |_| 0)
                        .map_err(|e| e.to_string())?;
                    self.game
                        .apply_reshuffle(&mut Vec::new())
                        .map_err(|e| e.to_string())?;
                }
                Next::Private(PrivateRequest::Deal { to, first, count }) => {
                    self.dealer
                        .deal(to, first, count)
                        .map_err(|e| e.to_string())?;
                    self.game
                        .apply_deal(&mut Vec::new())
                        .map_err(|e| e.to_string())?;
                }
                Next::Chance(_) => {
                    let text = self
                        .chance
                        .pop_front()
                        .ok_or("the game asks for a VP draw the scenario does not list")?;
                    let outcome = self.game.parse_outcome(&text).map_err(|e| e.to_string())?;
                    self.game
                        .apply_chance(&outcome, &mut Vec::new())
                        .map_err(|e| format!("VP draw {text:?}: {e}"))?;
                }
                _ => return Ok(()),
            }
        }
    }

    /// The first slot of `seat`'s hand holding `card` (dealt or open).
    fn where_is(&self, seat: Seat, card: u32) -> Option<HandCard> {
        let view = self.game.view_with(
            roundtable_engine::Observer::Seat(seat),
            self.dealer.knowledge(seat),
        );
        view.my_hand
            .iter()
            .find(|(_, c)| *c == Some(card))
            .map(|(h, _)| *h)
    }

    /// Read `SEAT: ACTION`; a hand card named without its slot is looked up.
    fn read_step(&self, step: &str) -> Result<(Seat, Action), String> {
        let (seat, text) = step
            .split_once(':')
            .ok_or_else(|| format!("{step:?}: a step is `SEAT: ACTION`"))?;
        let seat = match seat.trim().parse::<u8>() {
            Ok(n) if n >= 1 => Seat(n - 1),
            _ => return Err(format!("{step:?}: seats count from 1")),
        };
        let mut words: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
        let needs_slot = matches!(
            words.first().map(String::as_str),
            Some("play" | "discard" | "place")
        ) && (words.len() == 2 || (words.len() == 4 && words[2] == "level"));
        if needs_slot {
            let c = card(&words[1])?;
            let slot = self
                .where_is(seat, c)
                .map_or_else(|| "9999:9999".to_owned(), |h| h.to_string());
            words.insert(2, slot);
        }
        let action = Guildhall::parse_action(&words.join(" ")).map_err(|e| e.to_string())?;
        Ok((seat, action))
    }

    fn act(&mut self, seat: Seat, action: &Action) -> Result<(), (String, String)> {
        let handles: Vec<CardHandle> = Guildhall::claims(action).iter().map(|c| c.handle).collect();
        // A claimed slot nobody dealt is refused by the game as not held.
        let revealed = self.dealer.reveal(&handles).unwrap_or_default();
        self.game
            .apply_action_revealing(seat, action, &revealed, &mut Vec::new())
            .map_err(|e| (e.rule().to_owned(), e.to_string()))
    }
}

fn run(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let scenario: Scenario = toml::from_str(&text).map_err(|e| e.to_string())?;
    let defaults = Options::default();
    let o = &scenario.options;
    let options = Options {
        refill_after_paying: o
            .refill_after_paying
            .unwrap_or(defaults.refill_after_paying),
        late_chapter_cap: o.late_chapter_cap.unwrap_or(defaults.late_chapter_cap),
        choose_chapter_order: o
            .choose_chapter_order
            .unwrap_or(defaults.choose_chapter_order),
        max_rounds: o.max_rounds.unwrap_or(defaults.max_rounds),
    };
    let game = Guildhall::new_game(scenario.seats, &options).map_err(|e| e.to_string())?;
    if scenario.hands.len() != usize::from(scenario.seats)
        || scenario.hands.iter().any(|h| h.len() != 9)
    {
        return Err("`hands` lists nine cards for every seat".into());
    }
    let mut top: Vec<u32> = Vec::new();
    for hand in &scenario.hands {
        top.extend(names(hand)?);
    }
    top.extend(names(&scenario.deck)?);
    let mut rest = profession_deck();
    for c in &top {
        let at = rest
            .iter()
            .position(|r| r == c)
            .ok_or_else(|| format!("more than four copies of card {c} in the deal"))?;
        rest.remove(at);
    }
    top.extend(rest);
    let mut runner = Runner {
        game,
        dealer: sim::OracleDealer::new(scenario.seats),
        chance: scenario.chance.iter().cloned().collect(),
        first_deck: top,
        reshuffles: scenario
            .reshuffles
            .iter()
            .map(|d| names(d))
            .collect::<Result<_, _>>()?,
    };
    runner.serve()?;
    let mut steps: Vec<String> = Vec::new();
    if let Some(placed) = &scenario.placed {
        for (i, cards) in placed.iter().enumerate() {
            steps.push(format!("{}: draw", i + 1));
            steps.extend(cards.iter().map(|c| format!("{}: place {c}", i + 1)));
        }
    }
    let setup_steps = steps.len();
    steps.extend(scenario.steps.iter().cloned());
    let mut refused_at = None;
    for (i, step) in steps.iter().enumerate() {
        let (seat, action) = runner.read_step(step)?;
        let number = i.checked_sub(setup_steps);
        match runner.act(seat, &action) {
            Ok(()) => {}
            Err((rule, message)) => match (&scenario.expect.refused, number) {
                (Some(r), Some(n)) if r.step == n && r.rule == rule => refused_at = Some(n),
                _ => {
                    return Err(format!(
                        "step {} {step:?} refused: {rule}: {message}",
                        number.map_or("(setup)".to_owned(), |n| n.to_string())
                    ));
                }
            },
        }
        runner.serve()?;
    }
    if let Some(r) = &scenario.expect.refused
        && refused_at != Some(r.step)
    {
        return Err(format!(
            "step {} was expected to be refused ({})",
            r.step, r.rule
        ));
    }
    if !runner.chance.is_empty() {
        return Err(format!("unused VP draws: {:?}", runner.chance));
    }
    check(&runner, &scenario.expect)
}

fn check(runner: &Runner, expect: &Expect) -> Result<(), String> {
    let game = &runner.game;
    let view = game.view(roundtable_engine::Observer::Spectator);
    let card_names = |cards: &[u32]| -> Vec<String> {
        cards
            .iter()
            .map(|&c| Card::from_index(c).map_or("?".to_owned(), |c| c.to_string()))
            .collect()
    };
    let mut failures = Vec::new();
    let mut compare = |what: &str, expected: String, actual: String| {
        if expected != actual {
            failures.push(format!("{what}: expected {expected}, got {actual}"));
        }
    };
    if let Some(vp) = &expect.vp {
        compare("vp", format!("{vp:?}"), format!("{:?}", view.vp));
    }
    if let Some(tokens) = &expect.tokens {
        compare(
            "tokens",
            format!("{tokens:?}"),
            format!("{:?}", view.tokens),
        );
    }
    if let Some(halls) = &expect.halls {
        let actual: Vec<Vec<String>> = (0..view.seats)
            .map(|s| {
                game.guildhall_cards(Seat(s))
                    .iter()
                    .map(ToString::to_string)
                    .collect()
            })
            .collect();
        let mut expected = halls.clone();
        for (hall, seat) in expected.iter_mut().zip(0..) {
            let _ = seat;
            let mut cards = names(hall)?;
            cards.sort_unstable();
            *hall = card_names(&cards);
        }
        compare("halls", format!("{expected:?}"), format!("{actual:?}"));
    }
    if let Some(completed) = &expect.completed {
        // Each seat sees its own face-down chapters.
        let actual: Vec<Vec<&str>> = (0..view.seats)
            .map(|s| {
                let own = game.view_with(
                    roundtable_engine::Observer::Seat(Seat(s)),
                    runner.dealer.knowledge(Seat(s)),
                );
                own.completed[usize::from(s)]
                    .iter()
                    .map(|p| p.name())
                    .collect()
            })
            .collect();
        compare("completed", format!("{completed:?}"), format!("{actual:?}"));
    }
    if let Some(discard) = &expect.discard {
        compare(
            "discard",
            format!("{discard:?}"),
            format!("{:?}", card_names(&view.discard)),
        );
    }
    if let Some(row) = &expect.row {
        let actual: Vec<&str> = view
            .row
            .iter()
            .map(|&k| VP_TABLE[usize::from(k)].name)
            .collect();
        compare("row", format!("{row:?}"), format!("{actual:?}"));
    }
    if let Some(sizes) = &expect.hand_sizes {
        let actual: Vec<usize> = view.hands.iter().map(Vec::len).collect();
        compare("hand_sizes", format!("{sizes:?}"), format!("{actual:?}"));
    }
    if let Some(open) = &expect.open_in_hand {
        let actual: Vec<Vec<String>> = view
            .hands
            .iter()
            .map(|h| {
                let cards: Vec<u32> = h
                    .iter()
                    .filter_map(|c| match c {
                        HandCard::Open(c) => Some(*c),
                        HandCard::Dealt(_) => None,
                    })
                    .collect();
                card_names(&cards)
            })
            .collect();
        compare("open_in_hand", format!("{open:?}"), format!("{actual:?}"));
    }
    if let Some(left) = expect.actions_left {
        compare(
            "actions_left",
            left.to_string(),
            view.actions_left.to_string(),
        );
    }
    if let Some(active) = expect.active {
        compare(
            "active",
            active.to_string(),
            view.deciding
                .map_or("none".into(), |s| s.number().to_string()),
        );
    }
    if let Some(over) = expect.over {
        compare(
            "over",
            over.to_string(),
            (game.next() == Next::Over).to_string(),
        );
    }
    if let Some(winners) = &expect.winners {
        let actual: Vec<u32> = game
            .result()
            .map(|r| r.winners().iter().map(|s| s.number()).collect())
            .unwrap_or_default();
        compare("winners", format!("{winners:?}"), format!("{actual:?}"));
    }
    let _ = Profession::Weaver;
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("; "))
    }
}

fn scenario_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../tests/scenarios/guildhall");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "toml"));
    files.sort();
    files
}

#[test]
fn every_scenario_holds() {
    let files = scenario_files();
    assert!(!files.is_empty(), "no scenarios found");
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| run(f).err().map(|e| format!("{}: {e}", f.display())))
        .collect();
    println!("{} scenarios run", files.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
