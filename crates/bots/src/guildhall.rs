//! A heuristic Guildhall bot: one ply of look-ahead over a plain evaluation.
//!
//! Every legal action is tried on a copy of the shared state (its own hand
//! cards opened from the seat's knowledge, as the table would open them) and
//! the resulting position scored for the seat: VP first, then completed
//! chapters (the currency of VP cards), then chapters growing towards five
//! colours (weighted by the square of their size, since a nearly complete
//! chapter is worth far more than two small ones), then cards in hand; the
//! best opponent's score counts against it, so an Assassin or a Trader that
//! takes from the leader is preferred. Steps of an ability are chosen the
//! same way, one at a time. Nothing is random and nothing is searched, so a
//! decision takes well under a millisecond.

use roundtable_engine::{CardHandle, Game, Knowledge, Revealed, Seat};
use roundtable_guildhall::{
    Action, AreaCard, CHAPTER_CAP, Card, Guildhall, HandCard, PROFESSIONS, Profession, VP_TABLE,
    View,
};

use crate::Bot;

/// The heuristic Guildhall bot.
#[derive(Clone, Debug, Default)]
pub struct GuildhallBot;

impl GuildhallBot {
    /// A new bot (it keeps no state between decisions).
    pub fn new() -> Self {
        GuildhallBot
    }
}

/// How good `state` is for `seat`, before comparing with the others.
///
/// The action area counts as it will at the end of the turn: its VP cards
/// as VP, its profession cards in their chapters (unless duplicates).
fn standing_of(state: &Guildhall, seat: Seat, knowledge: Option<&Knowledge>) -> f64 {
    let mut pending_vp = 0;
    let mut arriving = [0u8; 6];
    if state.turn_seat() == seat {
        for card in state.action_area() {
            match *card {
                AreaCard::Vp(kind) => pending_vp += VP_TABLE[usize::from(kind)].vp,
                AreaCard::Profession(index) => {
                    if let Some(card) = Card::from_index(index)
                        && !state.holds(seat, card)
                    {
                        arriving[card.profession.index()] += 1;
                    }
                }
            }
        }
    }
    let vp = f64::from(state.vp(seat) + pending_vp);
    let chapters = state.completed_chapters(seat).min(CHAPTER_CAP + 1) as f64;
    let growth: f64 = PROFESSIONS
        .iter()
        .map(|&p| {
            let size = f64::from(state.chapter_size(seat, p) + arriving[p.index()]);
            // Farmers pay every turn they are played; the others only help.
            let weight = if p == Profession::Farmer { 1.3 } else { 1.0 };
            weight * size * size
        })
        .sum();
    let hand = match knowledge {
        Some(knowledge) => hand_value(state, seat, knowledge),
        None => 0.8 * state.hand_size(seat).min(9) as f64,
    };
    12.0 * vp + 28.0 * chapters + 1.2 * growth + hand
}

/// What `seat`'s own hand is worth: a card it can play or place counts, a
/// second copy or a card its guildhall holds is clutter to discard, and a
/// card still to be drawn counts a little less than a known good one.
fn hand_value(state: &Guildhall, seat: Seat, knowledge: &Knowledge) -> f64 {
    let hand = state.hand(seat);
    let mut seen = [false; 30];
    let mut value = 0.0;
    for held in hand {
        let card = match *held {
            HandCard::Dealt(handle) => knowledge.card(handle),
            HandCard::Open(card) => Some(card),
        };
        match card.and_then(Card::from_index) {
            Some(c) if !seen[c.index() as usize] && !state.holds(seat, c) => {
                seen[c.index() as usize] = true;
                value += 0.8;
            }
            Some(_) => value -= 0.5,
            None => value += 0.6,
        }
    }
    let owed = state.hand_size(seat) - hand.len();
    value + 0.6 * owed as f64
}

/// `seat`'s position against its strongest opponent.
fn evaluate(state: &Guildhall, seat: Seat, knowledge: &Knowledge) -> f64 {
    let own = standing_of(state, seat, Some(knowledge));
    let best_other = (0..state.seat_count())
        .map(Seat)
        .filter(|&s| s != seat)
        .map(|s| standing_of(state, s, None))
        .fold(0.0, f64::max);
    own - 0.35 * best_other
}

impl Bot<Guildhall> for GuildhallBot {
    fn name(&self) -> &'static str {
        "guildhall-heuristic"
    }

    /// From the view alone (no state to try actions on): buy the most VP,
    /// else use the highest level, else the first listed action.
    fn choose(&mut self, _seat: Seat, _view: &View, legal: &[Action]) -> usize {
        let value = |action: &Action| -> i64 {
            match *action {
                Action::Buy { kind } => 100 + i64::from(VP_TABLE[usize::from(kind)].vp),
                Action::Play {
                    level: Some(level), ..
                } => 50 + i64::from(level),
                Action::Play { level: None, .. } => 10,
                Action::Draw => 5,
                _ => 0,
            }
        };
        legal
            .iter()
            .enumerate()
            .max_by_key(|&(i, a)| (value(a), std::cmp::Reverse(i)))
            .map_or(0, |(i, _)| i)
    }

    fn choose_in(
        &mut self,
        seat: Seat,
        state: &Guildhall,
        knowledge: &Knowledge,
        legal: &[Action],
    ) -> usize {
        let mut events = Vec::new();
        let mut best = (f64::NEG_INFINITY, 0);
        for (i, action) in legal.iter().enumerate() {
            let revealed: Vec<Revealed> = Guildhall::claims(action)
                .iter()
                .filter_map(|c| {
                    let handle: CardHandle = c.handle;
                    knowledge.card(handle).map(|card| Revealed { handle, card })
                })
                .collect();
            let mut next = state.clone();
            events.clear();
            if next
                .apply_action_revealing(seat, action, &revealed, &mut events)
                .is_err()
            {
                continue;
            }
            let mut score = evaluate(&next, seat, knowledge);
            // The discard action is a last resort when nothing can be played.
            match action {
                Action::Refill => score -= 2.0,
                // Using an ability beats playing the card for nothing; the
                // effect's own value shows in its steps.
                Action::Play {
                    level: Some(level), ..
                } => score += 0.3 + 0.5 * f64::from(*level),
                _ => {}
            }
            if score > best.0 {
                best = (score, i);
            }
        }
        best.1
    }
}
