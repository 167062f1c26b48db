//! Guildhall's moves as a player picks them, step by step: a card, then
//! its level with what the level does; a VP card, then each chapter paid
//! and the order of its cards on the discard pile, from the top down; an
//! ability's targets one by one (whose guildhall, then which card), each
//! step saying what it does and what is still to pick.

use roundtable_engine::Seat;
use roundtable_guildhall::{
    Action, AreaCard, ChapterOrder, Guildhall, Pending, Phase, Profession, REFILL_HAND, SETUP_HAND,
    VP_TABLE, View,
};

use super::screen::{chapter_level, title};
use roundtable_games::guildhall::card_words;
use roundtable_games::words::seat_name;

use crate::games::Pick;
use crate::session::Snapshot;

/// "1 card", "2 cards".
fn cards(n: u8) -> String {
    if n == 1 {
        "1 card".to_owned()
    } else {
        format!("{n} cards")
    }
}

/// "1 more card", "2 more cards".
fn more(n: u8) -> String {
    if n == 1 {
        "1 more card".to_owned()
    } else {
        format!("{n} more cards")
    }
}

/// The card whose ability is under way: the last profession card played
/// into the action area, in words.
fn played(view: &View) -> String {
    view.area
        .iter()
        .rev()
        .find_map(|c| match *c {
            AreaCard::Profession(card) => Some(card_words(card)),
            AreaCard::Vp(_) => None,
        })
        .unwrap_or_else(|| "The ability".to_owned())
}

/// A VP card of the centre row in words: its name, points, price and
/// ability.
fn vp_card(kind: u8) -> String {
    match VP_TABLE.get(usize::from(kind)) {
        Some(spec) => format!(
            "the {}: {} VP for {} completed chapter{}; {}",
            spec.name,
            spec.vp,
            spec.chapters,
            if spec.chapters == 1 { "" } else { "s" },
            spec.ability.text()
        ),
        None => format!("VP card #{kind}"),
    }
}

/// The VP card's name ("the 3-b").
fn vp_name(kind: u8) -> String {
    VP_TABLE
        .get(usize::from(kind))
        .map_or_else(|| format!("VP card #{kind}"), |s| format!("the {}", s.name))
}

/// What each of `seat`'s hand-card plays picks: the card, then the level.
fn play_picks(view: &View, me: Seat, card: u32, level: Option<u8>) -> Vec<Pick> {
    let profession = roundtable_guildhall::Card::from_index(card).map(|c| c.profession);
    let held = profession.map_or(0, |p| {
        view.halls
            .get(me.index())
            .and_then(|h| h.get(p.index()))
            .map_or(0, |bits| bits.count_ones())
    });
    let top = profession.map_or(0, |p| chapter_level(p, held));
    let words = card_words(card);
    let level_words = match (profession, level) {
        (Some(p), Some(l)) => format!(
            "level {l}: {}",
            p.ability_text(l)
                .unwrap_or_else(|| "no such level".to_owned())
        ),
        _ => "no ability: just into the action area".to_owned(),
    };
    vec![
        action_pick(view, format!("Play {words}")),
        Pick::new(
            format!(
                "{words}, with {held} in your chapter (up to level {top}): use which level? \
                 Enter plays it."
            ),
            level_words,
            "a level",
        ),
    ]
}

/// The turn's first pick: which of the three actions.
fn action_pick(view: &View, answer: String) -> Pick {
    Pick::new(
        format!(
            "Your action ({} left): play a card, discard and draw, or buy a VP card.",
            view.actions_left
        ),
        answer,
        "an action",
    )
}

/// The picks naming another seat, then one of its cards.
fn seat_then(names: &[String], seat: Seat, question: &str) -> Pick {
    Pick::new(question, seat_name(names, seat), "a player")
}

/// The order of a discarded chapter's cards, when the seat chooses it: the
/// top card, then each card under it; the fifth is what is left.
fn order_picks(profession: Profession, order: Option<ChapterOrder>) -> Vec<Pick> {
    let Some(order) = order else {
        return Vec::new();
    };
    let name = title(profession);
    let mut picks = vec![Pick::new(
        format!("Which {name} goes on top of the discard pile (a Historian at level 0 takes it)?"),
        format!("{} on top", order[0].name()),
        "the top card",
    )];
    for (place, pair) in ["2nd", "3rd", "4th"].iter().zip(order.windows(2)) {
        picks.push(Pick::new(
            format!(
                "Which {name} goes under the {} (the {place} from the top)?",
                pair[0].name()
            ),
            format!("{} {place}", pair[1].name()),
            format!("the {place} card"),
        ));
    }
    picks
}

/// How `snap`'s seat picks `action`, step by step.
pub fn picks(snap: &Snapshot<Guildhall>, action: &Action) -> Vec<Pick> {
    let view = &snap.view;
    let names = snap.names();
    let Some(me) = snap.me else {
        return Vec::new();
    };
    let hand = view.my_hand.len();
    let mut out = match (*action, view.pending) {
        (Action::Play { card, level, .. }, _) => return play_picks(view, me, card, level),
        (Action::Refill, _) => vec![action_pick(
            view,
            format!("Discard and draw: discard any cards, then draw up to {REFILL_HAND}"),
        )],
        (Action::Buy { kind }, _) => vec![
            action_pick(view, "Buy a VP card".to_owned()),
            Pick::new(
                "Buy which VP card? You pay with completed chapters, then may use its ability.",
                vp_card(kind),
                "a VP card",
            ),
        ],
        (Action::Discard { card, .. }, _) => vec![Pick::new(
            discard_question(view, hand),
            format!("Discard {}", card_words(card)),
            "a card",
        )],
        (Action::Draw, _) => vec![Pick::new(
            discard_question(view, hand),
            match view.phase {
                Phase::SetupDiscard(_) => format!("Draw back to {SETUP_HAND} now"),
                _ => format!("Draw up to {REFILL_HAND} now"),
            },
            "a card",
        )],
        (Action::Place { .. }, pending) | (Action::Stop, pending @ Some(_)) => {
            let question = place_question(view, pending);
            let answer = match *action {
                Action::Place { card: c, .. } if is_twin(view, me, c, pending) => format!(
                    "Place {} over its twin, which comes back to your hand (seen by all)",
                    card_words(c)
                ),
                Action::Place { card: c, .. } => format!("Place {}", card_words(c)),
                _ => match pending {
                    Some(Pending::Place { left: Some(_), .. }) => {
                        "Give the level up: the cards placed go back to your hand".to_owned()
                    }
                    _ => "Stop placing".to_owned(),
                },
            };
            vec![Pick::new(question, answer, "a card to place")]
        }
        (Action::Stop, None) => vec![Pick::new(
            place_question(view, None),
            "Stop placing",
            "a card",
        )],
        (Action::Return { card }, pending) => {
            let left = match pending {
                Some(Pending::Return { left }) => left,
                _ => 1,
            };
            vec![Pick::new(
                format!(
                    "{}: take {} of your guildhall back to your hand.",
                    played(view),
                    cards(left)
                ),
                format!("Take back {}", card_words(card)),
                "a guildhall card",
            )]
        }
        (Action::Assassinate { seat, card }, pending) => {
            let (victim, left) = match pending {
                Some(Pending::Assassinate { victim, left, .. }) => (victim, left),
                _ => (None, 1),
            };
            let mut picks = Vec::new();
            if victim.is_none() {
                picks.push(seat_then(
                    &names,
                    seat,
                    &format!(
                        "{}: discard {} from one other player's guildhall. Whose?",
                        played(view),
                        cards(left)
                    ),
                ));
            }
            picks.push(Pick::new(
                format!(
                    "Discard which card of {}'s guildhall? ({} to go)",
                    seat_name(&names, seat),
                    cards(left)
                ),
                card_words(card),
                "their card",
            ));
            picks
        }
        (Action::Search { card }, pending) => {
            let left = match pending {
                Some(Pending::Search { left }) => left,
                _ => 1,
            };
            vec![Pick::new(
                format!(
                    "{}: put {} from the discard pile into your guildhall. Which?",
                    played(view),
                    cards(left)
                ),
                card_words(card),
                "a discarded card",
            )]
        }
        (Action::Swap { mine, seat, theirs }, pending) => {
            let (with, left) = match pending {
                Some(Pending::Swap { with, left }) => (with, left),
                _ => (None, 1),
            };
            let mut picks = vec![Pick::new(
                format!(
                    "{}: swap {} of your guildhall for {} of {}. Give which of yours?",
                    played(view),
                    cards(left),
                    if left == 1 { "1" } else { "as many" },
                    with.map_or_else(
                        || "another player's".to_owned(),
                        |s| format!("{}'s", seat_name(&names, s))
                    )
                ),
                card_words(mine),
                "your card",
            )];
            if with.is_none() {
                picks.push(seat_then(&names, seat, "Swap with whom?"));
            }
            picks.push(Pick::new(
                format!(
                    "Take which card of {}'s guildhall for your {}?",
                    seat_name(&names, seat),
                    card_words(mine)
                ),
                card_words(theirs),
                "their card",
            ));
            picks
        }
        (Action::SwapChapter { mine, seat, theirs }, _) => vec![
            Pick::new(
                format!(
                    "{}: swap a chapter of yours for one of another player's. Give which?",
                    played(view)
                ),
                title(mine),
                "your chapter",
            ),
            seat_then(&names, seat, "Swap with whom?"),
            Pick::new(
                format!(
                    "Take which chapter of {}'s guildhall for your {}s?",
                    seat_name(&names, seat),
                    title(mine)
                ),
                title(theirs),
                "their chapter",
            ),
        ],
        (Action::Pay { profession, order }, pending) => {
            let (kind, left) = match pending {
                Some(Pending::Pay { kind, left }) => (Some(kind), left),
                _ => (None, 1),
            };
            let mut picks = vec![Pick::new(
                format!(
                    "Pay for {} with {} completed chapter{}. Which chapter?",
                    kind.map_or_else(|| "the VP card".to_owned(), vp_name),
                    left,
                    if left == 1 { "" } else { "s" }
                ),
                title(profession),
                "a chapter",
            )];
            picks.extend(order_picks(profession, order));
            picks
        }
        (Action::Shed { profession, order }, _) => {
            let mut picks = vec![Pick::new(
                "You hold more than three completed chapters: discard which?",
                title(profession),
                "a chapter",
            )];
            picks.extend(order_picks(profession, order));
            picks
        }
        (Action::Use | Action::Skip, pending) => {
            let ability = match pending {
                Some(Pending::VpAbility(kind)) => VP_TABLE
                    .get(usize::from(kind))
                    .map_or_else(String::new, |s| s.ability.text()),
                _ => String::new(),
            };
            vec![vp_ability_pick(
                view,
                if *action == Action::Use {
                    format!("Use it: {ability}")
                } else {
                    "Skip it".to_owned()
                },
            )]
        }
        (Action::MoveChapter { seat, profession }, _) => vec![
            vp_ability_pick(view, "Move a chapter".to_owned()),
            seat_then(&names, seat, "Move a chapter of whose guildhall?"),
            Pick::new(
                format!(
                    "Move which incomplete chapter of {}'s guildhall into yours?",
                    seat_name(&names, seat)
                ),
                title(profession),
                "their chapter",
            ),
        ],
        (Action::Take { seat, card }, _) => vec![
            vp_ability_pick(view, "Take a card".to_owned()),
            seat_then(&names, seat, "Take a card of whose guildhall?"),
            Pick::new(
                format!(
                    "Take which card of {}'s guildhall into yours?",
                    seat_name(&names, seat)
                ),
                card_words(card),
                "their card",
            ),
        ],
        (
            Action::SwapOneForTwo {
                mine,
                seat,
                first,
                second,
            },
            _,
        ) => vec![
            vp_ability_pick(view, "Swap one card for two".to_owned()),
            Pick::new(
                "Give which card of your guildhall?",
                card_words(mine),
                "your card",
            ),
            seat_then(&names, seat, "For two cards of whose guildhall?"),
            Pick::new(
                format!(
                    "The first of the two cards of {}'s guildhall?",
                    seat_name(&names, seat)
                ),
                card_words(first),
                "their first card",
            ),
            Pick::new("And the second?", card_words(second), "their second card"),
        ],
    };
    // Every path is at least one pick long, so no action is listed twice.
    if out.is_empty() {
        out.push(Pick::new("Choose", action.to_string(), "a move"));
    }
    out
}

/// Whether placing `card` now swaps it for the identical card `me`'s
/// guildhall holds (a Weaver level with a return still to make).
fn is_twin(view: &View, me: Seat, card: u32, pending: Option<Pending>) -> bool {
    let returns = matches!(pending, Some(Pending::Place { then_return, .. }) if then_return > 0);
    returns
        && roundtable_guildhall::Card::from_index(card).is_some_and(|c| {
            view.halls
                .get(me.index())
                .and_then(|hall| hall.get(c.profession.index()))
                .is_some_and(|held| held & (1 << c.colour.index()) != 0)
        })
}

/// The question of a bought VP card's ability, naming it.
fn vp_ability_pick(view: &View, answer: String) -> Pick {
    let kind = match view.pending {
        Some(Pending::VpAbility(kind)) => Some(kind),
        _ => None,
    };
    Pick::new(
        format!(
            "{} bought: {}. Use its ability or skip it?",
            kind.map_or_else(
                || "The VP card".to_owned(),
                |k| {
                    // At the start of a sentence.
                    vp_name(k).replacen("the", "The", 1)
                }
            ),
            kind.and_then(|k| VP_TABLE.get(usize::from(k)))
                .map_or_else(String::new, |s| s.ability.text())
        ),
        answer,
        "the ability's use",
    )
}

/// The question while discarding (the set-up, or the discard-and-draw
/// action).
fn discard_question(view: &View, hand: usize) -> String {
    match view.phase {
        Phase::SetupDiscard(_) => format!(
            "Set-up: discard any cards one by one, then draw back to {SETUP_HAND} (hand {hand})."
        ),
        _ => format!(
            "Discard and draw: discard cards one by one, then draw up to {REFILL_HAND} \
             (hand {hand})."
        ),
    }
}

/// The question while placing hand cards into the guildhall.
fn place_question(view: &View, pending: Option<Pending>) -> String {
    match (view.phase, pending) {
        (Phase::SetupPlace(_, left), _) => format!(
            "Set-up: place {} from your hand into your guildhall.",
            more(left)
        ),
        (
            _,
            Some(Pending::Place {
                left: Some(left),
                then_return,
            }),
        ) => format!(
            "{}: place {} from your hand into your guildhall{}.",
            played(view),
            more(left),
            if then_return > 0 {
                format!(", then take {} back to your hand", cards(then_return))
            } else {
                String::new()
            }
        ),
        (
            _,
            Some(Pending::Place {
                left: None,
                then_return,
            }),
        ) => format!(
            "{}: place any number of cards from your hand into your guildhall, then stop{}.",
            played(view),
            if then_return > 0 {
                format!(" and take {} back to your hand", cards(then_return))
            } else {
                String::new()
            }
        ),
        _ => "Place cards from your hand into your guildhall.".to_owned(),
    }
}
