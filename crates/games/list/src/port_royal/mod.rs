//! Port Royal in the list of games: its bots, its words for cards, actions
//! and events ([`words`], [`log`]), and its ranking.

use roundtable_engine::{ChanceOutcome, Game, GameResult, Observer, Seat, Standing};
pub use roundtable_port_royal::PortRoyal;
use roundtable_port_royal::{Action, CardId, ContractId, Event, Options, VICTORY_POINTS, View};

use crate::setup::{OptionField, Values, number, on_off};
use crate::words::{joined, place, seat_name, who};
use crate::{Listed, Milestone};

pub mod log;
pub mod words;

#[cfg(test)]
mod tests;

pub use log::event_line;
pub use words::*;

impl Listed for PortRoyal {
    const TITLE: &'static str = "Port Royal";
    const TIE_BREAK: [&'static str; 2] = ["coin", "coins"];

    const OPTIONS: &'static [OptionField<Options>] = &[
        number!(
            victory_points,
            "Victory points",
            "the round ends the game once someone has them",
            // The range the game accepts.
            Values::Range(*VICTORY_POINTS.start() as i64, *VICTORY_POINTS.end() as i64)
        ),
        on_off!(
            pass_automatically,
            "Pass automatically",
            "skip takes that earn nothing"
        ),
        on_off!(
            expedition_required,
            "Expedition required",
            "winners need an expedition"
        ),
        on_off!(
            expansion,
            "Expansion",
            "Just One More Contract: contracts, new cards"
        ),
    ];

    // The golden age of piracy, as the game's own cards are.
    const BOT_NAMES: &'static [&'static str] =
        &["Anne Bonny", "Calico Jack", "Mary Read", "Black Bart"];

    fn event_line(event: &Event, names: &[String], me: Option<Seat>) -> Option<String> {
        log::event_line(event, names, me)
    }

    fn scores(view: &View) -> Vec<u32> {
        view.players.iter().map(|p| p.vp).collect()
    }

    fn milestone(event: &Event) -> Option<Milestone> {
        match event {
            Event::TurnStarted { turn, .. } => Some(Milestone::TurnStarted(*turn)),
            Event::GameOver { .. } => Some(Milestone::GameOver),
            _ => None,
        }
    }

    fn chosen_by(event: &Event) -> Option<Seat> {
        match event {
            Event::Revealed { seat, .. }
            | Event::Repelled { seat, .. }
            | Event::Stopped { seat }
            | Event::Passed { seat }
            | Event::Traded { seat, .. }
            | Event::Hired { seat, .. }
            | Event::Claimed { seat, .. }
            | Event::Declined { seat, .. }
            | Event::KeptAside { seat, .. } => Some(*seat),
            Event::Compensation { from, .. } => Some(*from),
            _ => None,
        }
    }

    fn ranking_details(view: &View, standing: &Standing) -> String {
        ranking_details(view, standing)
    }

    fn ranking_order(view: &View) -> &'static str {
        words::ranking_order(view)
    }

    fn tie_breaks(
        view: &View,
        result: &GameResult,
        names: &[String],
        me: Option<Seat>,
    ) -> Vec<String> {
        tie_breaks(view, result, names, me)
    }

    fn action_words(
        before: &Self,
        seat: Seat,
        action: &Action,
        _events: &[Event],
        names: &[String],
    ) -> String {
        words::action_words(
            *action,
            &before.view(Observer::Spectator),
            Some(seat),
            names,
        )
    }

    fn chance_words(
        before: &Self,
        outcome: &ChanceOutcome,
        _events: &[Event],
        names: &[String],
    ) -> String {
        chance_words(before, outcome, names)
    }
}

/// A chance outcome in words, from the game it is applied to.
fn chance_words(game: &PortRoyal, outcome: &ChanceOutcome, names: &[String]) -> String {
    match outcome {
        ChanceOutcome::Index(i) => {
            let seat = Seat(u8::try_from(*i).unwrap_or(u8::MAX));
            format!("Chance: {} starts", seat_name(names, seat))
        }
        ChanceOutcome::Cards(_) => {
            let words: Vec<String> = game
                .outcome_name(outcome)
                .split(',')
                .map(|name| {
                    if let Some(c) = ContractId::parse(name) {
                        contract_title(c).to_owned()
                    } else if let Some(c) = CardId::parse(name) {
                        card_short(c)
                    } else {
                        name.to_owned()
                    }
                })
                .collect();
            format!("Chance: {}", words.join(", "))
        }
    }
}

/// A seat's line in the ranking after its name: VP, coins, persons and
/// expeditions.
pub fn ranking_details(view: &View, st: &Standing) -> String {
    let p = view.players.get(st.seat.index());
    let exp = p.map_or(0, |p| p.expeditions.len());
    let persons = p.map_or(0, |p| p.persons.len());
    format!(
        " {:>3} VP {:>3}$ {persons:>2} {:<7} {exp} exp ",
        st.score,
        st.tie_break,
        if persons == 1 { "person" } else { "persons" }
    )
}

/// Whether `seat` holds an expedition at the end.
fn has_expedition(view: &View, seat: Seat) -> bool {
    view.players
        .get(seat.index())
        .is_some_and(|p| !p.expeditions.is_empty())
}

/// Why seats with equal victory points rank as they do, and, with
/// "expedition required", why seats without an expedition rank after every
/// seat with one, in words.
pub fn tie_breaks(
    view: &View,
    result: &GameResult,
    names: &[String],
    me: Option<Seat>,
) -> Vec<String> {
    let expedition_first = view.expedition_required;
    let mut standings = result.standings.clone();
    standings.sort_by_key(|x| (x.rank, x.seat));
    let mut out = Vec::new();
    if expedition_first {
        let without: Vec<Seat> = standings
            .iter()
            .map(|x| x.seat)
            .filter(|seat| !has_expedition(view, *seat))
            .collect();
        if !without.is_empty() && without.len() < standings.len() {
            let verb = if without.len() == 1 && Some(without[0]) != me {
                "has"
            } else {
                "have"
            };
            out.push(format!(
                "Expedition required: {} {verb} no expedition, so ranked after every seat that has one.",
                joined(names, &without, me)
            ));
        }
    }
    let mut scores: Vec<i64> = standings.iter().map(|x| x.score).collect();
    scores.sort_unstable_by(|a, b| b.cmp(a));
    scores.dedup();
    for score in scores {
        let group: Vec<_> = standings.iter().filter(|x| x.score == score).collect();
        if group.len() < 2 {
            continue;
        }
        let seats: Vec<Seat> = group.iter().map(|x| x.seat).collect();
        let who_tie = joined(names, &seats, me);
        let includes_me = me.is_some_and(|m| seats.contains(&m));
        let expeditions_differ = expedition_first
            && group.iter().any(|x| has_expedition(view, x.seat))
            && group.iter().any(|x| !has_expedition(view, x.seat));
        if group.iter().all(|x| x.rank == group[0].rank) {
            let share = if group[0].rank == 0 {
                "the win".to_owned()
            } else {
                format!("{} place", place(group[0].rank))
            };
            out.push(format!(
                "{who_tie} tie on {score} VP and {} coins: {} share {share}.",
                group[0].tie_break,
                if includes_me { "you" } else { "they" }
            ));
        } else if expeditions_differ {
            out.push(format!(
                "{who_tie} tie on {score} VP: an expedition ranks first."
            ));
        } else {
            let coins: Vec<String> = group
                .iter()
                .map(|x| format!("{} {}$", who(names, me, x.seat), x.tie_break))
                .collect();
            out.push(format!(
                "{who_tie} tie on {score} VP; coins decide: {}.",
                coins.join(", ")
            ));
        }
    }
    out
}
