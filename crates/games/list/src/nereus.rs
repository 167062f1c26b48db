//! Waters of Nereus in the list of games: its bots, its log in words and
//! its ranking.

use roundtable_engine::{GameResult, Seat, Standing};
pub use roundtable_nereus::Nereus;
use roundtable_nereus::data::science_name;
use roundtable_nereus::{Action, Aim, Colour, Event, Half, Slot, View};

use crate::words::{plural, seat_name, who};
use crate::{Listed, Milestone};

impl Listed for Nereus {
    const TITLE: &'static str = "Waters of Nereus";
    const TIE_BREAK: [&'static str; 2] = ["completed hold", "completed holds"];

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
            Event::Acted(_, text) if text == "end" || text == "finish" => {
                Some(Milestone::TurnEnded)
            }
            _ => None,
        }
    }

    fn chosen_by(event: &Event) -> Option<Seat> {
        match event {
            Event::Acted(seat, _) => Some(*seat),
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
        Event::Acted(seat, text) if text == "end" => {
            let whose = if you(*seat) {
                "your".to_owned()
            } else {
                format!("{}'s", seat_name(names, *seat))
            };
            format!("-- End of {whose} turn --")
        }
        Event::Acted(seat, text) => match Action::parse(text) {
            Ok(action) => format!("{} {}.", name(*seat), action_words(&action, you(*seat))),
            // The game wrote the text from one of its actions; shown as it
            // is should it ever not read back.
            Err(_) => format!("{}: {text}", name(*seat)),
        },
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
            format!("{} {verb} the {crew}'s hold.", name(*seat))
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
        let sail = Event::Acted(Seat(1), "move ne ne".to_owned());
        assert_eq!(
            event_line(&sail, &names, Some(Seat(0))).as_deref(),
            Some("Bo sails the ship ne, ne.")
        );
        assert_eq!(
            event_line(&sail, &names, Some(Seat(1))).as_deref(),
            Some("You sail the ship ne, ne.")
        );
        let stow = Event::Acted(Seat(0), "stow r captain.3".to_owned());
        assert_eq!(
            event_line(&stow, &names, None).as_deref(),
            Some("Ann puts a red treasure on the captain's hold (space 3).")
        );
        let end = Event::Acted(Seat(0), "end".to_owned());
        assert_eq!(
            event_line(&end, &names, None).as_deref(),
            Some("-- End of Ann's turn --")
        );
        assert_eq!(Nereus::milestone(&end), Some(Milestone::TurnEnded));
        let done = Event::HoldComplete(Seat(1), roundtable_nereus::Crew::Purser);
        assert_eq!(
            event_line(&done, &names, Some(Seat(1))).as_deref(),
            Some("You complete the purser's hold.")
        );
    }
}
