//! Guildhall in the list of games: its bots, its log in words and its
//! ranking.

use roundtable_engine::{GameResult, Seat, Standing};
pub use roundtable_guildhall::Guildhall;
use roundtable_guildhall::{Action, Card, Event, Options, VP_TABLE, View};

use crate::setup::{OptionField, Values, number, on_off};
use crate::words::{plural, seat_name, who};
use crate::{ChartUnit, Listed, Milestone};

impl Listed for Guildhall {
    const TITLE: &'static str = "Guildhall";
    const TIE_BREAK: [&'static str; 2] = ["completed chapter", "completed chapters"];

    const OPTIONS: &'static [OptionField<Options>] = &[
        on_off!(
            refill_after_paying,
            "Refill after paying",
            "Yucata: refill the centre row after paying"
        ),
        on_off!(
            late_chapter_cap,
            "Late chapter cap",
            "Yucata: a 4th chapter goes at your next turn"
        ),
        on_off!(
            choose_chapter_order,
            "Choose chapter top",
            "Yucata: pick a shed chapter's top card"
        ),
        number!(
            max_rounds,
            "Rounds at most",
            "the game ends after them whatever the VP",
            // The rules have no limit; the game's default is the last.
            Values::Steps(&[1, 5, 10, 20, 100])
        ),
    ];

    // Masters of the trades the guild's cards show, and a merchant.
    const BOT_NAMES: &'static [&'static str] = &[
        "Agnes the Weaver",
        "Jacques Coeur",
        "Hugh the Mason",
        "Tilda the Dyer",
    ];

    fn event_line(event: &Event, names: &[String], me: Option<Seat>) -> Option<String> {
        event_line(event, names, me)
    }

    fn scores(view: &View) -> Vec<u32> {
        view.vp.clone()
    }

    fn milestone(event: &Event) -> Option<Milestone> {
        // Guildhall tells each turn's end (with its VP), not its start; the
        // game's end is the last turn's end.
        matches!(event, Event::TurnEnded { .. }).then_some(Milestone::TurnEnded)
    }

    fn chosen_by(event: &Event) -> Option<Seat> {
        match event {
            Event::Acted { seat, .. } => Some(*seat),
            _ => None,
        }
    }

    fn ranking_details(_view: &View, standing: &Standing) -> String {
        ranking_details(standing)
    }

    fn ranking_order(_view: &View) -> &'static str {
        "VP, then completed chapters"
    }

    fn tie_breaks(
        _view: &View,
        _result: &GameResult,
        _names: &[String],
        _me: Option<Seat>,
    ) -> Vec<String> {
        // Seats equal in VP and chapters share their place; the ranking's
        // own line shows both numbers.
        Vec::new()
    }

    fn own_hand(view: &View) -> Option<Vec<String>> {
        Some(
            view.my_hand
                .iter()
                .map(|(_, card)| card.map_or_else(|| "?".to_owned(), card_words))
                .collect(),
        )
    }

    fn private_card_words(card: u32) -> Option<String> {
        Some(card_words(card))
    }

    // The game counts rounds ("Round 3: your turn"), and so does its chart.
    const CHART_UNIT: ChartUnit = ChartUnit::Round;
}

/// A seat's ranking line: VP and completed chapters (the tie break).
pub fn ranking_details(standing: &Standing) -> String {
    format!(
        " {:>3} VP {:>11} ",
        standing.score,
        chapters(standing.tie_break)
    )
}

/// "1 chapter", "2 chapters".
pub fn chapters(n: impl Into<i128>) -> String {
    plural(n.into(), "chapter", "chapters")
}

/// A card by its words ("Weaver (red)").
pub fn card_words(card: u32) -> String {
    match Card::from_index(card) {
        Some(c) => {
            let profession = c.profession.name();
            let mut title = profession.to_owned();
            if let Some(first) = title.get_mut(0..1) {
                first.make_ascii_uppercase();
            }
            format!("{title} ({})", c.colour.name())
        }
        None => format!("card #{card}"),
    }
}

/// A VP card by its kind's name and points ("the 3-b (3 VP)").
fn vp_words(kind: u8) -> String {
    match VP_TABLE.get(usize::from(kind)) {
        Some(spec) => format!("the {} ({} VP)", spec.name, spec.vp),
        None => format!("VP card #{kind}"),
    }
}

/// An event as a line of the history, or `None` for events another line
/// already tells. Lines about `me` say "You".
pub fn event_line(event: &Event, names: &[String], me: Option<Seat>) -> Option<String> {
    let you = |s: Seat| me == Some(s);
    let name = |s: Seat| who(names, me, s);
    let says = |s: Seat, third: &str, second: &str| {
        format!("{} {}", name(s), if you(s) { second } else { third })
    };
    let whose = |s: Seat| {
        if you(s) {
            "your".to_owned()
        } else {
            format!("{}'s", seat_name(names, s))
        }
    };
    let line = match event {
        Event::Shuffled { cards } => format!("The deck is shuffled: {cards} cards."),
        Event::Dealt { seat, count } => {
            let cards = if *count == 1 { "card" } else { "cards" };
            format!("{} {count} {cards}.", says(*seat, "draws", "draw"))
        }
        Event::RowFilled(kinds) if kinds.is_empty() => return None,
        Event::RowFilled(kinds) => {
            let cards: Vec<String> = kinds.iter().map(|&k| vp_words(k)).collect();
            format!("To the centre row: {}.", cards.join(", "))
        }
        Event::TurnEnded { seat, vp } => {
            format!("-- End of {} turn: {vp} VP --", whose(*seat))
        }
        Event::Acted { seat, action } => {
            let s = *seat;
            match *action {
                Action::Play { card, level, .. } => match level {
                    Some(level) => format!(
                        "{} {} at level {level}.",
                        says(s, "plays", "play"),
                        card_words(card)
                    ),
                    None => format!(
                        "{} {} without its ability.",
                        says(s, "plays", "play"),
                        card_words(card)
                    ),
                },
                Action::Refill => format!("{} to discard and draw.", says(s, "chooses", "choose")),
                Action::Buy { kind } => format!("{} {}.", says(s, "buys", "buy"), vp_words(kind)),
                Action::Discard { card, .. } => {
                    format!("{} {}.", says(s, "discards", "discard"), card_words(card))
                }
                Action::Draw => format!("{} discarding.", says(s, "stops", "stop")),
                Action::Place { card, .. } => format!(
                    "{} {} in {} guildhall.",
                    says(s, "places", "place"),
                    card_words(card),
                    if you(s) { "your" } else { "their" }
                ),
                Action::Stop => format!("{} placing.", says(s, "stops", "stop")),
                Action::Assassinate { seat: victim, card } => format!(
                    "{} {} from {} guildhall.",
                    says(s, "discards", "discard"),
                    card_words(card),
                    whose(victim)
                ),
                Action::Search { card } => format!(
                    "{} {} from the discard pile.",
                    says(s, "takes", "take"),
                    card_words(card)
                ),
                Action::Swap {
                    mine,
                    seat: other,
                    theirs,
                } => format!(
                    "{} {} for {} {}.",
                    says(s, "swaps", "swap"),
                    card_words(mine),
                    whose(other),
                    card_words(theirs)
                ),
                Action::SwapChapter {
                    mine,
                    seat: other,
                    theirs,
                } => format!(
                    "{} the {} chapter for {} {} chapter.",
                    says(s, "swaps", "swap"),
                    mine.name(),
                    whose(other),
                    theirs.name()
                ),
                Action::Return { card } => format!(
                    "{} {} back to hand.",
                    says(s, "takes", "take"),
                    card_words(card)
                ),
                Action::Pay { profession, .. } => format!(
                    "{} with the completed {} chapter.",
                    says(s, "pays", "pay"),
                    profession.name()
                ),
                Action::Shed { profession, .. } => format!(
                    "{} the completed {} chapter (more than three).",
                    says(s, "discards", "discard"),
                    profession.name()
                ),
                Action::Use => format!("{} the VP card's ability.", says(s, "uses", "use")),
                Action::Skip => format!("{} the VP card's ability.", says(s, "skips", "skip")),
                Action::MoveChapter {
                    seat: other,
                    profession,
                } => format!(
                    "{} {} {} chapter into {} guildhall.",
                    says(s, "moves", "move"),
                    whose(other),
                    profession.name(),
                    if you(s) { "your" } else { "their" }
                ),
                Action::Take { seat: other, card } => format!(
                    "{} {} from {} guildhall.",
                    says(s, "takes", "take"),
                    card_words(card),
                    whose(other)
                ),
                Action::SwapOneForTwo {
                    mine,
                    seat: other,
                    first,
                    second,
                } => format!(
                    "{} {} for {} {} and {}.",
                    says(s, "gives", "give"),
                    card_words(mine),
                    whose(other),
                    card_words(first),
                    card_words(second)
                ),
            }
        }
    };
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_and_buys_read_as_sentences() {
        let names = vec!["Ann".to_owned(), "Bo".to_owned()];
        let weaver_red = Card::parse("weaver:red")
            .map(Card::index)
            .unwrap_or(u32::MAX);
        let play = Event::Acted {
            seat: Seat(1),
            action: Action::Play {
                from: roundtable_guildhall::HandCard::Open(weaver_red),
                card: weaver_red,
                level: Some(2),
            },
        };
        assert_eq!(
            event_line(&play, &names, Some(Seat(0))).as_deref(),
            Some("Bo plays Weaver (red) at level 2.")
        );
        assert_eq!(
            event_line(&play, &names, Some(Seat(1))).as_deref(),
            Some("You play Weaver (red) at level 2.")
        );
        let end = Event::TurnEnded {
            seat: Seat(0),
            vp: 7,
        };
        assert_eq!(
            event_line(&end, &names, None).as_deref(),
            Some("-- End of Ann's turn: 7 VP --")
        );
    }
}
