//! Waters of Nereus in the list of games: its bots, its log in words and
//! its ranking.

use roundtable_engine::{GameResult, Seat, Standing};
pub use roundtable_nereus::Nereus;
use roundtable_nereus::data::{CHEST, HOLDS, science_name};
use roundtable_nereus::{Action, Aim, Colour, Effect, EndScore, Event, Half, Options, Slot, View};

use crate::setup::{OptionField, on_off};
use crate::words::{plural, seat_name, who};
use crate::{Listed, Milestone};

impl Listed for Nereus {
    const TITLE: &'static str = "Waters of Nereus";
    const TIE_BREAK: [&'static str; 2] = ["completed hold", "completed holds"];

    // The rules offer the neutral ship to two players only.
    const OPTIONS: &'static [OptionField<Options>] = &[on_off!(
        neutral_ship,
        "Neutral ship",
        "2 players: a neutral ship sails too",
        only_at_seats: 2
    )];

    // Nereus's kin and the sea's: his wife, three of his daughters, the
    // old man of the sea.
    const BOT_NAMES: &'static [&'static str] =
        &["Thetis", "Galatea", "Amphitrite", "Proteus", "Doris"];

    fn tie_break_words(tie_break: i64) -> String {
        let (holds, loose) = tie_break_parts(tie_break);
        format!(
            "{}, {loose} in incomplete holds",
            plural(holds, "completed hold", "completed holds")
        )
    }

    fn event_line(event: &Event, names: &[String], me: Option<Seat>) -> Option<String> {
        event_line(event, names, me)
    }

    fn scores(view: &View) -> Vec<u32> {
        view.game.vp.clone()
    }

    fn milestone(event: &Event) -> Option<Milestone> {
        // Nereus tells each turn's end (the seat's `end`, or its `finish` at
        // the game's end), not its start.
        match event {
            Event::Acted(_, text, _) if text == "end" || text == "finish" => {
                Some(Milestone::TurnEnded)
            }
            _ => None,
        }
    }

    fn chosen_by(event: &Event) -> Option<Seat> {
        match event {
            Event::Acted(seat, _, _) => Some(*seat),
            _ => None,
        }
    }

    fn ranking_details(_view: &View, standing: &Standing) -> String {
        ranking_details(standing)
    }

    fn ranking_order(_view: &View) -> &'static str {
        "VP, then completed holds, then treasures in incomplete holds"
    }

    fn tie_breaks(
        _view: &View,
        result: &GameResult,
        names: &[String],
        me: Option<Seat>,
    ) -> Vec<String> {
        tie_breaks(result, names, me)
    }

    fn action_words(
        _before: &Self,
        seat: Seat,
        action: &Action,
        events: &[Event],
        names: &[String],
    ) -> String {
        let told = crate::words::event_words::<Self>(events, names);
        if told.is_empty() {
            // A secret crew choice, opened with the others', tells no event.
            format!(
                "{} {}.",
                seat_name(names, seat),
                action_words(action, false)
            )
        } else {
            told
        }
    }

    fn end_scoring(
        view: &View,
        log: &[crate::words::LogLine],
        names: &[String],
        me: Option<Seat>,
    ) -> Vec<String> {
        end_scoring(view, log, names, me)
    }

    fn own_hand(view: &View) -> Option<Vec<String>> {
        Some(
            view.my_science
                .iter()
                .map(|(_, card)| card.map_or_else(|| "?".to_owned(), science_name))
                .collect(),
        )
    }

    fn private_card_words(card: u32) -> Option<String> {
        Some(science_name(card))
    }
}

/// The game-end scoring step by step: the game's end as its log told it
/// (the game-end science cards, storage sold, gold turned into VP), then per
/// seat what its completed holds and chest scored in play. Empty until the
/// game is over.
pub fn end_scoring(
    view: &View,
    log: &[crate::words::LogLine],
    names: &[String],
    me: Option<Seat>,
) -> Vec<String> {
    let g = &view.game;
    if g.phase != roundtable_nereus::Phase::Over {
        return Vec::new();
    }
    // The game's end follows the last turn: its science cards, sales and
    // conversions, in the order they were made.
    let start = log
        .iter()
        .rposition(|l| l.text.starts_with("-- End of "))
        .map_or(0, |i| i + 1);
    let mut out: Vec<String> = log[start..]
        .iter()
        .filter(|l| {
            l.text.starts_with("Game end, ")
                || l.text.contains(" the science card ")
                || l.text.contains(" sell")
        })
        .map(|l| l.text.clone())
        .collect();
    for (i, cabin) in g.cabins.iter().enumerate() {
        let holds: Vec<(&str, u32)> = roundtable_nereus::Crew::ALL
            .into_iter()
            .filter(|&c| cabin.is_complete(c))
            .map(|c| (c.name(), HOLDS[c.index()].vp))
            .collect();
        let chest: Vec<(&str, u32)> = Colour::ALL
            .into_iter()
            .filter(|c| cabin.chest[c.index()].is_some())
            .map(|c| (colour_name(c), CHEST[c.index()].vp))
            .collect();
        let told = |parts: &[(&str, u32)]| {
            let total: u32 = parts.iter().map(|(_, vp)| vp).sum();
            let each: Vec<String> = parts.iter().map(|(n, vp)| format!("{n} {vp}")).collect();
            if each.is_empty() {
                format!("{total} VP")
            } else {
                format!("{total} VP ({})", each.join(", "))
            }
        };
        out.push(format!(
            "{} in play: holds {}; chest {}.",
            who(names, me, Seat(i as u8)),
            told(&holds),
            told(&chest)
        ));
    }
    out
}

/// The standing's tie-break split into its two parts: completed holds, and
/// treasures in incomplete holds (the game counts them as holds x 1000 +
/// treasures).
pub fn tie_break_parts(tie_break: i64) -> (i64, i64) {
    (tie_break / 1000, tie_break % 1000)
}

/// A seat's ranking line: VP, completed holds and treasures in incomplete
/// holds (the two tie-breaks).
pub fn ranking_details(standing: &Standing) -> String {
    let (holds, loose) = tie_break_parts(standing.tie_break);
    format!(
        " {:>3} VP {:>2} hold{} +{loose} ",
        standing.score,
        holds,
        if holds == 1 { " " } else { "s" }
    )
}

/// Why seats with equal VP rank as they do, in words.
pub fn tie_breaks(result: &GameResult, names: &[String], me: Option<Seat>) -> Vec<String> {
    let mut standings = result.standings.clone();
    standings.sort_by_key(|x| (x.rank, x.seat));
    let mut scores: Vec<i64> = standings.iter().map(|x| x.score).collect();
    scores.dedup();
    let mut out = Vec::new();
    for score in scores {
        let group: Vec<&Standing> = standings.iter().filter(|x| x.score == score).collect();
        if group.len() < 2 {
            continue;
        }
        let parts: Vec<String> = group
            .iter()
            .map(|x| {
                let (holds, loose) = tie_break_parts(x.tie_break);
                format!(
                    "{} {holds} completed, {loose} in incomplete holds",
                    who(names, me, x.seat)
                )
            })
            .collect();
        out.push(format!(
            "{score} VP each: ranked by completed holds, then treasures in incomplete holds ({}).",
            parts.join("; ")
        ));
    }
    out
}

/// A colour's full name.
fn colour_name(colour: Colour) -> &'static str {
    colour.name()
}

/// A cabin space in words ("captain's hold, space 2").
pub fn slot_words(slot: Slot) -> String {
    match slot {
        Slot::Hold(crew, i) => format!("the {crew}'s hold (space {})", i + 1),
        Slot::Chest(c) => format!("the chest's {} space", colour_name(c)),
        Slot::Store(i) => format!("storage space {}", i + 1),
    }
}

/// Which half of a scientist's "power or draw" an action took, in words.
fn half_words(half: Half) -> &'static str {
    match half {
        Half::Plain => "",
        Half::Power => " (science power)",
        Half::Draw => " (a science card)",
    }
}

/// What `action` does, as the predicate of a sentence whose subject is
/// the seat ("moves the ship ne, ne"); `you` picks the verb's form.
pub fn action_words(action: &Action, you: bool) -> String {
    let verb = |third: &str, second: &str| if you { second } else { third }.to_owned();
    match action {
        Action::Choose(crew) => format!("{} the {crew}", verb("chooses", "choose")),
        Action::Place(n) => format!(
            "{} the action marker on space {}",
            verb("puts", "put"),
            n + 1
        ),
        Action::Move(path) if path.is_empty() => {
            format!("{} the ship still", verb("keeps", "keep"))
        }
        Action::Move(path) => {
            let steps: Vec<String> = path.iter().map(ToString::to_string).collect();
            format!("{} the ship {}", verb("sails", "sail"), steps.join(", "))
        }
        Action::Basic(half) => format!(
            "{} the basic action{}",
            verb("takes", "take"),
            half_words(*half)
        ),
        Action::Pick(dir, c) => format!(
            "{} a {} treasure from the space to the {dir}",
            verb("takes", "take"),
            colour_name(*c)
        ),
        Action::Gold(half) => format!(
            "{} the gold action{}",
            verb("takes", "take"),
            half_words(*half)
        ),
        Action::Enhanced => format!("{} the enhanced action", verb("takes", "take")),
        Action::Shift(from, to) => format!(
            "{} a treasure from {} to {}",
            verb("moves", "move"),
            slot_words(*from),
            slot_words(*to)
        ),
        Action::Discard(_, card) => format!(
            "{} the science card {}",
            verb("discards", "discard"),
            science_name(*card)
        ),
        Action::Done => format!("{} the crew's actions", verb("ends", "end")),
        Action::Stow(c, slot) => format!(
            "{} a {} treasure on {}",
            verb("puts", "put"),
            colour_name(*c),
            slot_words(*slot)
        ),
        Action::Gem(slot) => format!("{} a gem on {}", verb("puts", "put"), slot_words(*slot)),
        Action::Sell(slot) => format!(
            "{} the treasure on {}",
            verb("sells", "sell"),
            slot_words(*slot)
        ),
        Action::SellGem => format!("{} a gem", verb("sells", "sell")),
        Action::Trade(c) => format!(
            "{} two {} treasures for a gem",
            verb("trades", "trade"),
            colour_name(*c)
        ),
        Action::Play(_, card, aim) => {
            let aimed = match aim {
                Aim::None => String::new(),
                Aim::Pick(cell, c) => format!(" on the {} treasure at {cell}", colour_name(*c)),
                Aim::Hop(dir) => format!(" to the {dir}"),
            };
            format!(
                "{} the science card {}{aimed}",
                verb("plays", "play"),
                science_name(*card)
            )
        }
        Action::End => format!("{} the turn", verb("ends", "end")),
        Action::Explore(crew) => {
            format!("{} for an extra turn with the {crew}", verb("pays", "pay"))
        }
        Action::Decline => format!("{} the extra turn", verb("declines", "decline")),
        Action::Finish => format!("{} with the game's end", verb("is done", "are done")),
    }
}

/// What an action cost and gave, as a parenthesis after its words
/// (" (pays 2 gold, +5 VP)"), or nothing when it changed none of them.
pub fn effect_words(effect: &Effect) -> String {
    let mut parts = Vec::new();
    match effect.gold {
        0 => {}
        g if g > 0 => parts.push(format!("+{g} gold")),
        g => parts.push(format!("pays {} gold", -g)),
    }
    if effect.vp != 0 {
        parts.push(format!("{:+} VP", effect.vp));
    }
    match effect.power {
        0 => {}
        p if p > 0 => parts.push(format!("+{p} science power")),
        p => parts.push(format!("uses {} science power", -p)),
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}

/// Treasures by their names ("a black treasure", "a red and a white
/// treasure").
pub fn treasures_words(colours: &[Colour]) -> String {
    let named: Vec<String> = colours
        .iter()
        .map(|c| format!("a {}", colour_name(*c)))
        .collect();
    let list = match named.split_last() {
        None => return "no treasure".to_owned(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    };
    let noun = if colours.len() == 1 {
        "treasure"
    } else {
        "treasures"
    };
    format!("{list} {noun}")
}

/// Ending the turn with treasures still in hand, in words: they are lost
/// ("Treasures in a player's hand are lost if he ends his turn without
/// moving them to his cabin").
pub fn end_turn_words(hand: &[Colour], you: bool) -> String {
    let verb = if you { "end" } else { "ends" };
    if hand.is_empty() {
        format!("{verb} the turn")
    } else {
        format!(
            "{verb} the turn, losing {} in hand (back to the bag)",
            treasures_words(hand)
        )
    }
}

/// A seat's game-end conversion in words.
pub fn end_score_words(score: &EndScore) -> String {
    let plural = |n: u32, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
    if score.stored == 0 && score.gems == 0 {
        return format!(
            "storage empty; {} gold make {} VP ({} left over)",
            score.gold_before, score.vp, score.gold_left
        );
    }
    format!(
        "storage ({}, {}) sells for {} gold; {} + {} gold make {} VP ({} left over)",
        plural(score.stored, "treasure"),
        plural(score.gems, "gem"),
        score.storage_gold,
        score.gold_before,
        score.storage_gold,
        score.vp,
        score.gold_left
    )
}

/// Treasure colours by their letters and names ("w (white), r (red)").
fn colours_words(colours: &[Colour]) -> String {
    let named: Vec<String> = colours
        .iter()
        .map(|c| format!("{} ({})", c.letter(), colour_name(*c)))
        .collect();
    named.join(", ")
}

/// An event as a line of the history, or `None` for events another line
/// already tells. Lines about `me` say "You".
pub fn event_line(event: &Event, names: &[String], me: Option<Seat>) -> Option<String> {
    let you = |s: Seat| me == Some(s);
    let name = |s: Seat| who(names, me, s);
    let line = match event {
        Event::Acted(seat, text, effect) if text == "end" => {
            let whose = if you(*seat) {
                "your".to_owned()
            } else {
                format!("{}'s", seat_name(names, *seat))
            };
            if effect.treasures.is_empty() {
                format!("-- End of {whose} turn --")
            } else {
                format!(
                    "-- End of {whose} turn: {} in hand lost (back to the bag) --",
                    treasures_words(&effect.treasures)
                )
            }
        }
        Event::Acted(seat, text, effect) => match Action::parse(text) {
            Ok(Action::Sell(slot)) if !effect.treasures.is_empty() => format!(
                "{} {} {} from {}{}.",
                name(*seat),
                if you(*seat) { "sell" } else { "sells" },
                treasures_words(&effect.treasures),
                slot_words(slot),
                effect_words(effect)
            ),
            Ok(action) => format!(
                "{} {}{}.",
                name(*seat),
                action_words(&action, you(*seat)),
                effect_words(effect)
            ),
            // The game wrote the text from one of its actions; shown as it
            // is should it ever not read back.
            Err(_) => format!("{}: {text}", name(*seat)),
        },
        Event::CrewsChosen(crews) => {
            let chosen: Vec<String> = crews
                .iter()
                .enumerate()
                .map(|(i, crew)| {
                    let seat = Seat(i as u8);
                    let whom = if you(seat) {
                        "you".to_owned()
                    } else {
                        seat_name(names, seat)
                    };
                    format!("{whom} the {crew}")
                })
                .collect();
            format!("Crews chosen: {}.", chosen.join(", "))
        }
        Event::EndScored(seat, score) => {
            format!("Game end, {}: {}.", name(*seat), end_score_words(score))
        }
        Event::Drawn(colours) if colours.is_empty() => return None,
        Event::Drawn(colours) => format!("From the bag: {}.", colours_words(colours)),
        Event::Chance(text) => {
            let mut line = format!("{text}.");
            if let Some(first) = line.get_mut(0..1) {
                first.make_ascii_uppercase();
            }
            line
        }
        Event::Dealt(seat, count) => {
            let cards = if *count == 1 { "card" } else { "cards" };
            let verb = if you(*seat) { "draw" } else { "draws" };
            format!("{} {verb} {count} science {cards}.", name(*seat))
        }
        Event::Shuffled(cards) => format!("The science deck is shuffled: {cards} cards."),
        Event::HoldComplete(seat, crew) => {
            let verb = if you(*seat) { "complete" } else { "completes" };
            let vp = roundtable_nereus::data::HOLDS[crew.index()].vp;
            format!("{} {verb} the {crew}'s hold ({vp} VP).", name(*seat))
        }
    };
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_holds_read_as_sentences() {
        let names = vec!["Ann".to_owned(), "Bo".to_owned()];
        let sail = Event::Acted(Seat(1), "move ne ne".to_owned(), Effect::default());
        assert_eq!(
            event_line(&sail, &names, Some(Seat(0))).as_deref(),
            Some("Bo sails the ship ne, ne.")
        );
        assert_eq!(
            event_line(&sail, &names, Some(Seat(1))).as_deref(),
            Some("You sail the ship ne, ne.")
        );
        let stow = Event::Acted(Seat(0), "stow r captain.3".to_owned(), Effect::default());
        assert_eq!(
            event_line(&stow, &names, None).as_deref(),
            Some("Ann puts a red treasure on the captain's hold (space 3).")
        );
        let end = Event::Acted(Seat(0), "end".to_owned(), Effect::default());
        assert_eq!(
            event_line(&end, &names, None).as_deref(),
            Some("-- End of Ann's turn --")
        );
        assert_eq!(Nereus::milestone(&end), Some(Milestone::TurnEnded));
        let done = Event::HoldComplete(Seat(1), roundtable_nereus::Crew::Purser);
        assert_eq!(
            event_line(&done, &names, Some(Seat(1))).as_deref(),
            Some("You complete the purser's hold (8 VP).")
        );
    }

    #[test]
    fn lines_tell_what_an_action_cost_and_gave() {
        let names = vec!["Ann".to_owned(), "Bo".to_owned()];
        let paid = Effect {
            gold: -2,
            vp: 5,
            ..Effect::default()
        };
        let sail = Event::Acted(Seat(1), "move e e e".to_owned(), paid);
        assert_eq!(
            event_line(&sail, &names, None).as_deref(),
            Some("Bo sails the ship e, e, e (pays 2 gold, +5 VP).")
        );
        let sold = Effect {
            gold: 2,
            treasures: vec![Colour::White],
            ..Effect::default()
        };
        let sell = Event::Acted(Seat(0), "sell store.5".to_owned(), sold);
        assert_eq!(
            event_line(&sell, &names, Some(Seat(0))).as_deref(),
            Some("You sell a white treasure from storage space 5 (+2 gold).")
        );
        let lost = Effect {
            treasures: vec![Colour::Black],
            ..Effect::default()
        };
        let end = Event::Acted(Seat(0), "end".to_owned(), lost);
        assert_eq!(
            event_line(&end, &names, None).as_deref(),
            Some("-- End of Ann's turn: a black treasure in hand lost (back to the bag) --")
        );
        let chosen = Event::CrewsChosen(vec![
            roundtable_nereus::Crew::Merchant,
            roundtable_nereus::Crew::Captain,
        ]);
        assert_eq!(
            event_line(&chosen, &names, Some(Seat(1))).as_deref(),
            Some("Crews chosen: Ann the merchant, you the captain.")
        );
        let score = EndScore {
            stored: 3,
            gems: 1,
            storage_gold: 11,
            gold_before: 3,
            vp: 2,
            gold_left: 4,
        };
        assert_eq!(
            event_line(&Event::EndScored(Seat(0), score), &names, None).as_deref(),
            Some(
                "Game end, Ann: storage (3 treasures, 1 gem) sells for 11 gold; 3 + 11 gold make 2 VP (4 left over)."
            )
        );
    }
}
