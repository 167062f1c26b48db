//! Guildhall's scenario grammar (`tests/scenarios/guildhall/GRAMMAR.md`),
//! for the one runner of `roundtable-scenario`.
//!
//! A Guildhall scenario stacks a private deal: the hands each seat is dealt,
//! the deck after them and the deck each reshuffle lays out. An oracle
//! dealer plays every seat's part of the deal, so the rules see exactly
//! what a table would give them; VP draws are the chance outcomes, as in
//! every scenario. The outcome and its exit codes are those of
//! `docs/SCENARIOS.md`; the final state printed is the spectator's view.

use roundtable_engine::{Game, Next, Observer, Seat};
use roundtable_scenario::{
    ChanceList, ExpectedRefusal, Malformed, Refusal, ScenarioGame, Source, StackedDealer, Stop,
    expect_equal, split_step,
};
use serde::Deserialize;

use crate::{Action, Card, Guildhall, HandCard, Options, VP_TABLE, profession_deck};

/// Cards dealt to each seat at the start.
const FIRST_HAND: usize = 9;

/// A Guildhall scenario file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct File {
    /// The game's name, if the file gives it (else its folder does).
    #[serde(default)]
    #[allow(dead_code)]
    game: Option<String>,
    seats: u8,
    #[serde(default)]
    options: ScenarioOptions,
    /// Every seat's nine dealt cards, in seat order.
    hands: Vec<Vec<String>>,
    /// The cards each seat places in the setup, after drawing back to nine
    /// without discarding; omitted, the steps play the setup.
    #[serde(default)]
    placed: Option<Vec<Vec<String>>>,
    /// The cards after the hands, top first; the rest of the deck follows
    /// in catalog order.
    #[serde(default)]
    deck: Vec<String>,
    /// The deck each later reshuffle lays out, top first (without one, the
    /// pile's own order).
    #[serde(default)]
    reshuffles: Vec<Vec<String>>,
    /// VP draws in the order the game asks for them.
    #[serde(default)]
    chance: Vec<String>,
    #[serde(default)]
    steps: Vec<String>,
    #[serde(default)]
    expect: Expect,
}

/// Options as a scenario gives them: any subset of the game's.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ScenarioOptions {
    refill_after_paying: Option<bool>,
    late_chapter_cap: Option<bool>,
    choose_chapter_order: Option<bool>,
    max_rounds: Option<u32>,
}

impl ScenarioOptions {
    fn options(&self) -> Options {
        let defaults = Options::default();
        Options {
            refill_after_paying: self
                .refill_after_paying
                .unwrap_or(defaults.refill_after_paying),
            late_chapter_cap: self.late_chapter_cap.unwrap_or(defaults.late_chapter_cap),
            choose_chapter_order: self
                .choose_chapter_order
                .unwrap_or(defaults.choose_chapter_order),
            max_rounds: self.max_rounds.unwrap_or(defaults.max_rounds),
        }
    }
}

/// The expectations GRAMMAR.md lists, each in the grammar's own names.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Expect {
    refused: Option<ExpectedRefusal>,
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

fn card(name: &str) -> Result<u32, String> {
    Card::parse(name)
        .map(Card::index)
        .ok_or_else(|| format!("{name:?} is not a card"))
}

fn cards(names: &[String]) -> Result<Vec<u32>, String> {
    names.iter().map(|c| card(c)).collect()
}

fn card_names(cards: &[u32]) -> Vec<String> {
    cards
        .iter()
        .map(|&c| Card::from_index(c).map_or_else(|| format!("card #{c}"), |c| c.to_string()))
        .collect()
}

/// A Guildhall game being scripted: the game, the dealer that stands in for
/// every seat's part of its deals, and the VP draws still to give.
#[derive(Debug)]
pub struct Scripted {
    game: Guildhall,
    dealer: StackedDealer,
    chance: ChanceList,
    seats: u8,
}

impl Scripted {
    /// Serve deals, reshuffles and VP draws until a seat decides or the game
    /// ends.
    fn serve_all(&mut self, source: Source<'_>) -> Result<(), Stop> {
        loop {
            if self
                .dealer
                .serve(&mut self.game)
                .map_err(|e| Malformed::new(None, e))?
            {
                continue;
            }
            if !matches!(self.game.next(), Next::Chance(_)) {
                return Ok(());
            }
            if !self.chance.answer(&mut self.game, source)? {
                return Err(Malformed::new(
                    None,
                    "the game asks for a VP draw the scenario's `chance` does not list",
                )
                .into());
            }
        }
    }

    /// The first slot of `seat`'s hand holding `card` (dealt or open).
    fn where_is(&self, seat: Seat, card: u32) -> Option<HandCard> {
        let view = self
            .game
            .view_with(Observer::Seat(seat), self.dealer.knowledge(seat));
        view.my_hand
            .iter()
            .find(|(_, c)| *c == Some(card))
            .map(|(h, _)| *h)
    }
}

impl ScenarioGame for Scripted {
    type Game = Guildhall;
    type File = File;
    type Step = (Seat, Action);

    fn start(file: &File, source: Source<'_>) -> Result<Self, Malformed> {
        let options = file.options.options();
        let game = Guildhall::new_game(file.seats, &options)
            .map_err(|e| Malformed::new(source.line_of("seats"), e.to_string()))?;
        let hands_line = source.line_of("hands");
        if file.hands.len() != usize::from(file.seats)
            || file.hands.iter().any(|h| h.len() != FIRST_HAND)
        {
            return Err(Malformed::new(
                hands_line,
                format!("`hands` lists {FIRST_HAND} cards for every seat"),
            ));
        }
        let mut first_deck = Vec::new();
        for hand in &file.hands {
            first_deck.extend(cards(hand).map_err(|e| Malformed::new(hands_line, e))?);
        }
        first_deck
            .extend(cards(&file.deck).map_err(|e| Malformed::new(source.line_of("deck"), e))?);
        let mut rest = profession_deck();
        for c in &first_deck {
            let Some(at) = rest.iter().position(|r| r == c) else {
                return Err(Malformed::new(
                    hands_line,
                    format!(
                        "the deal has more copies of {} than the deck",
                        card_names(&[*c])[0]
                    ),
                ));
            };
            rest.remove(at);
        }
        first_deck.extend(rest);
        let reshuffles = file
            .reshuffles
            .iter()
            .map(|d| cards(d))
            .collect::<Result<_, _>>()
            .map_err(|e| Malformed::new(source.line_of("reshuffles"), e))?;
        Ok(Scripted {
            game,
            dealer: StackedDealer::new(file.seats, first_deck, reshuffles),
            chance: ChanceList::new(file.chance.clone()),
            seats: file.seats,
        })
    }

    /// The deal, and the setup `placed` stands for, played before the
    /// scenario's steps.
    fn prepare(&mut self, file: &File, source: Source<'_>) -> Result<(), Stop> {
        self.serve_all(source)?;
        for (i, placing) in file.placed.iter().flatten().enumerate() {
            let seat = i + 1;
            let setup = std::iter::once(format!("{seat}: draw"))
                .chain(placing.iter().map(|c| format!("{seat}: place {c}")));
            for step in setup {
                let applied = self
                    .read_step(&step)
                    .and_then(|s| self.take_step(&s).map_err(|r| r.message));
                if let Err(reason) = applied {
                    return Err(Malformed::new(
                        source.line_of("placed"),
                        format!("the setup of `placed` ({step:?}): {reason}"),
                    )
                    .into());
                }
                self.serve_all(source)?;
            }
        }
        Ok(())
    }

    fn steps(file: &File) -> &[String] {
        &file.steps
    }

    fn expected_refusal(file: &File, _: Source<'_>) -> Result<Option<ExpectedRefusal>, Malformed> {
        Ok(file.expect.refused.clone())
    }

    /// Read `SEAT: ACTION`; a hand card named without its place is looked
    /// up in the seat's hand (GRAMMAR.md, "Names").
    fn read_step(&self, step: &str) -> Result<(Seat, Action), String> {
        let (seat, text) = split_step(step, self.seats)?;
        let mut words: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
        let needs_place = matches!(
            words.first().map(String::as_str),
            Some("play" | "discard" | "place")
        ) && (words.len() == 2 || (words.len() == 4 && words[2] == "level"));
        if needs_place {
            let c = card(&words[1])?;
            // A card the seat does not hold names a slot nobody dealt, which
            // the rules refuse as not held.
            let place = self
                .where_is(seat, c)
                .map_or_else(|| "9999:9999".to_owned(), |h| h.to_string());
            words.insert(2, place);
        }
        let action = Guildhall::parse_action(&words.join(" ")).map_err(|e| e.to_string())?;
        Ok((seat, action))
    }

    /// Apply the action, revealing the cards it claims as the seat's table
    /// would.
    fn take_step(&mut self, (seat, action): &(Seat, Action)) -> Result<(), Refusal> {
        self.dealer.act(&mut self.game, *seat, action)
    }

    fn serve(&mut self, _: Option<&str>, source: Source<'_>) -> Result<(), Stop> {
        self.serve_all(source)
    }

    fn game(&self) -> &Guildhall {
        &self.game
    }

    fn check(
        &self,
        file: &File,
        source: Source<'_>,
        differences: &mut Vec<String>,
    ) -> Result<(), Malformed> {
        let unused = self.chance.unused();
        if unused > 0 {
            differences.push(format!("{unused} VP draw(s) were never asked for"));
        }
        compare(self, &file.expect, differences)
            .map_err(|reason| Malformed::new(source.line_of("[expect]"), reason))
    }
}

/// Check each expectation against the game, in the grammar's names; every
/// one that differs is added to `differences`. A card name the grammar does
/// not know is an error.
fn compare(
    runner: &Scripted,
    expect: &Expect,
    differences: &mut Vec<String>,
) -> Result<(), String> {
    let game = &runner.game;
    let view = game.view(Observer::Spectator);
    let mut check = |what: &str, expected: String, actual: String| {
        expect_equal(differences, what, expected, actual)
    };
    if let Some(vp) = &expect.vp {
        check("vp", format!("{vp:?}"), format!("{:?}", view.vp));
    }
    if let Some(tokens) = &expect.tokens {
        check(
            "tokens",
            format!("{tokens:?}"),
            format!("{:?}", view.tokens),
        );
    }
    if let Some(halls) = &expect.halls {
        // Any order: both sides sorted by the catalog.
        let actual: Vec<Vec<String>> = (0..view.seats)
            .map(|s| {
                let mut hall: Vec<u32> = game
                    .guildhall_cards(Seat(s))
                    .iter()
                    .map(|c| c.index())
                    .collect();
                hall.sort_unstable();
                card_names(&hall)
            })
            .collect();
        let mut expected = Vec::with_capacity(halls.len());
        for hall in halls {
            let mut hall = cards(hall)?;
            hall.sort_unstable();
            expected.push(card_names(&hall));
        }
        check("halls", format!("{expected:?}"), format!("{actual:?}"));
    }
    if let Some(completed) = &expect.completed {
        // Completed chapters lie face down: each seat's as its holder sees
        // them.
        let actual: Vec<Vec<&str>> = (0..view.seats)
            .map(|s| {
                let own = game.view_with(Observer::Seat(Seat(s)), runner.dealer.knowledge(Seat(s)));
                own.completed
                    .get(usize::from(s))
                    .map(|c| c.iter().map(|p| p.name()).collect())
                    .unwrap_or_default()
            })
            .collect();
        check("completed", format!("{completed:?}"), format!("{actual:?}"));
    }
    if let Some(discard) = &expect.discard {
        check(
            "discard",
            format!("{discard:?}"),
            format!("{:?}", card_names(&view.discard)),
        );
    }
    if let Some(row) = &expect.row {
        let actual: Vec<&str> = view
            .row
            .iter()
            .map(|&k| VP_TABLE.get(usize::from(k)).map_or("?", |spec| spec.name))
            .collect();
        check("row", format!("{row:?}"), format!("{actual:?}"));
    }
    if let Some(sizes) = &expect.hand_sizes {
        let actual: Vec<usize> = view.hands.iter().map(Vec::len).collect();
        check("hand_sizes", format!("{sizes:?}"), format!("{actual:?}"));
    }
    if let Some(open) = &expect.open_in_hand {
        let actual: Vec<Vec<String>> = view
            .hands
            .iter()
            .map(|hand| {
                let open: Vec<u32> = hand
                    .iter()
                    .filter_map(|c| match c {
                        HandCard::Open(c) => Some(*c),
                        HandCard::Dealt(_) => None,
                    })
                    .collect();
                card_names(&open)
            })
            .collect();
        check("open_in_hand", format!("{open:?}"), format!("{actual:?}"));
    }
    if let Some(left) = expect.actions_left {
        check(
            "actions_left",
            left.to_string(),
            view.actions_left.to_string(),
        );
    }
    if let Some(active) = expect.active {
        check(
            "active",
            active.to_string(),
            view.deciding
                .map_or_else(|| "none".to_owned(), |s| s.number().to_string()),
        );
    }
    if let Some(over) = expect.over {
        check(
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
        check("winners", format!("{winners:?}"), format!("{actual:?}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use roundtable_scenario::{Outcome, run};

    /// Two seats that placed their setup; seat 1 then plays a Weaver at
    /// level 0 and places a card, which the expectations below describe.
    const SETUP: &str = r#"
seats = 2
hands = [["trader:red", "trader:blue", "trader:green", "trader:yellow", "trader:purple", "historian:blue", "weaver:red", "farmer:red", "trader:red"], ["farmer:blue", "farmer:green", "trader:blue", "trader:green", "assassin:blue", "historian:blue", "dancer:blue", "weaver:purple", "farmer:yellow"]]
placed = [["trader:red", "trader:blue", "trader:green"], ["farmer:blue", "farmer:green", "trader:blue"]]
chance = ["5 5 2 3-a 9"]
"#;

    fn scenario(steps: &str, expect: &str) -> Outcome {
        run::<Scripted>(&format!("{SETUP}steps = [{steps}]\n[expect]\n{expect}\n"))
    }

    /// The outcomes and exit codes of SCENARIOS.md hold for a game with
    /// private hands: a pass prints the spectator's view, a wrong
    /// expectation says what differed, an unexpected refusal names its step
    /// and rule, an expected one passes, and a card name the grammar does
    /// not know is a malformed file.
    #[test]
    fn a_guildhall_scenario_passes_fails_is_refused_or_is_malformed() {
        let played = r#""1: play weaver:red level 0", "1: place trader:yellow""#;
        match scenario(
            played,
            "actions_left = 1\nrow = [\"5\", \"5\", \"2\", \"3-a\", \"9\"]",
        ) {
            Outcome::Passed(state) => assert_eq!(state["seats"], 2, "{state}"),
            other => panic!("{other:?}"),
        }
        match scenario(played, "actions_left = 2") {
            Outcome::Failed { differences, .. } => {
                assert_eq!(differences, ["actions_left: expected 2, got 1"]);
            }
            other => panic!("{other:?}"),
        }
        match scenario(r#""2: refill""#, "") {
            Outcome::Refused { error, .. } => {
                assert_eq!(error["step"], 0, "{error}");
                assert_eq!(error["rule"], "not-your-turn", "{error}");
            }
            other => panic!("{other:?}"),
        }
        let expected = "refused = { step = 0, rule = \"not-your-turn\" }";
        assert!(matches!(
            scenario(r#""2: refill""#, expected),
            Outcome::Passed(_)
        ));
        match scenario(r#""1: play weaver:pink level 0""#, "") {
            Outcome::Malformed(Malformed { line, reason }) => {
                assert_eq!(line, Some(6), "{reason}");
                assert!(reason.contains("weaver:pink"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
    }
}
