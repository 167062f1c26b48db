//! A heuristic Guildhall bot: one ply of look-ahead over a plain evaluation.
//!
//! Every legal action is tried for the seat and the resulting position
//! scored: VP first, then completed chapters (the currency of VP cards), then
//! chapters growing towards five colours (weighted by the square of their
//! size, since a nearly complete chapter is worth far more than two small
//! ones), then cards in hand; the best opponent's score counts against it,
//! so an Assassin or a Trader that takes from the leader is preferred. Steps
//! of an ability are chosen the same way, one at a time.
//!
//! An action that only moves cards between guildhalls (an Assassin's,
//! Trader's or VP card's target, or skipping a VP ability) is scored from
//! the guildhalls' colour masks, with every other part of the evaluation
//! read once per decision; any other action is applied to a copy of the
//! shared state (its own hand cards opened from the seat's knowledge, as the
//! table would open them). A VP 3-a card offers up to two thousand targets,
//! and copying the state for each took over 2 ms; from the masks the slowest
//! decision of 400 benchmark games takes about 0.2 ms. Nothing is random and
//! nothing is searched.

use roundtable_engine::{CardHandle, Game, Knowledge, Revealed, Seat};
use roundtable_guildhall::{
    Action, AreaCard, CHAPTER_CAP, COLOURS, Card, Guildhall, HandCard, PROFESSIONS, Profession,
    VP_TABLE, View,
};

use crate::Bot;
use crate::search::lead_prospects;

/// The heuristic Guildhall bot.
#[derive(Clone, Debug, Default)]
pub struct GuildhallBot;

impl GuildhallBot {
    /// A new bot (it keeps no state between decisions).
    pub fn new() -> Self {
        GuildhallBot
    }
}

/// What the evaluation reads of one seat: everything but its guildhall,
/// which the moves between guildhalls change, is fixed for a decision.
struct SeatParts {
    /// VP, counting the VP cards in the action area (turn seat only).
    vp: f64,
    /// Profession cards in the action area (turn seat only): they join the
    /// guildhall at the end of the turn unless duplicates.
    arriving: Vec<Card>,
    /// The seat's own hand cards (`None`: not known), with the cards owed by
    /// a pending deal; for another seat, only the hand's size counts.
    hand: HandParts,
}

enum HandParts {
    Own {
        cards: Vec<Option<Card>>,
        owed: usize,
    },
    Other {
        size: usize,
    },
}

/// Every seat's guildhall as masks (bit = colour) and completed chapters:
/// the part of the position that moves between guildhalls change.
#[derive(Clone, Copy)]
struct Halls {
    masks: [[u8; 6]; 4],
    completed: [usize; 4],
}

impl Halls {
    fn of(state: &Guildhall) -> Halls {
        let mut halls = Halls {
            masks: [[0; 6]; 4],
            completed: [0; 4],
        };
        for s in 0..state.seat_count() {
            let seat = Seat(s);
            for card in state.guildhall_cards(seat) {
                halls.masks[seat.index()][card.profession.index()] |= bit(card);
            }
            halls.completed[seat.index()] = state.completed_chapters(seat);
        }
        halls
    }

    fn holds(&self, seat: Seat, card: Card) -> bool {
        self.masks[seat.index()][card.profession.index()] & bit(card) != 0
    }

    /// As the rules: a fifth colour completes the chapter at once.
    fn add(&mut self, seat: Seat, card: Card) {
        let mask = &mut self.masks[seat.index()][card.profession.index()];
        *mask |= bit(card);
        if *mask == 0b1_1111 {
            *mask = 0;
            self.completed[seat.index()] += 1;
        }
    }

    fn remove(&mut self, seat: Seat, card: Card) {
        self.masks[seat.index()][card.profession.index()] &= !bit(card);
    }

    fn add_chapter(&mut self, seat: Seat, profession: Profession, mask: u8) {
        for colour in COLOURS {
            if mask & (1 << colour.index()) != 0 {
                self.add(seat, Card { profession, colour });
            }
        }
    }

    /// The guildhalls after `action`, if it only moves cards between
    /// guildhalls (or changes nothing the evaluation reads); `None` for any
    /// other action. `action` is legal, so no check is repeated here.
    fn after(&self, seat: Seat, action: &Action) -> Option<Halls> {
        let card = |index: u32| Card::from_index(index);
        let mut next = *self;
        match *action {
            Action::Skip => {}
            Action::Assassinate { seat: o, card: c } => next.remove(o, card(c)?),
            Action::Take { seat: o, card: c } => {
                let c = card(c)?;
                next.remove(o, c);
                next.add(seat, c);
            }
            Action::Swap {
                mine,
                seat: o,
                theirs,
            } => {
                if mine != theirs {
                    let (m, t) = (card(mine)?, card(theirs)?);
                    next.remove(seat, m);
                    next.remove(o, t);
                    next.add(seat, t);
                    next.add(o, m);
                }
            }
            Action::SwapOneForTwo {
                mine,
                seat: o,
                first,
                second,
            } => {
                let (m, a, b) = (card(mine)?, card(first)?, card(second)?);
                next.remove(seat, m);
                next.remove(o, a);
                next.remove(o, b);
                next.add(seat, a);
                next.add(seat, b);
                next.add(o, m);
            }
            Action::MoveChapter {
                seat: o,
                profession,
            } => {
                let mask = next.masks[o.index()][profession.index()];
                next.masks[o.index()][profession.index()] = 0;
                next.add_chapter(seat, profession, mask);
            }
            Action::SwapChapter {
                mine,
                seat: o,
                theirs,
            } => {
                let my_mask = next.masks[seat.index()][mine.index()];
                let their_mask = next.masks[o.index()][theirs.index()];
                next.masks[seat.index()][mine.index()] = 0;
                next.masks[o.index()][theirs.index()] = 0;
                next.add_chapter(seat, theirs, their_mask);
                next.add_chapter(o, mine, my_mask);
            }
            _ => return None,
        }
        Some(next)
    }
}

fn bit(card: Card) -> u8 {
    1 << card.colour.index()
}

/// The evaluation of positions for one deciding seat: the parts a move
/// between guildhalls cannot change are read once, so such a move is scored
/// from guildhall masks alone, without copying the state.
struct Evaluator {
    seat: Seat,
    parts: Vec<SeatParts>,
}

impl Evaluator {
    fn new(state: &Guildhall, seat: Seat, knowledge: &Knowledge) -> Evaluator {
        let parts = (0..state.seat_count())
            .map(|s| {
                let s = Seat(s);
                let mut vp = state.vp(s);
                let mut arriving = Vec::new();
                if state.turn_seat() == s {
                    for card in state.action_area() {
                        match *card {
                            AreaCard::Vp(kind) => vp += VP_TABLE[usize::from(kind)].vp,
                            AreaCard::Profession(index) => {
                                arriving.extend(Card::from_index(index));
                            }
                        }
                    }
                }
                let hand = if s == seat {
                    let held = state.hand(s);
                    HandParts::Own {
                        cards: held
                            .iter()
                            .map(|h| {
                                match *h {
                                    HandCard::Dealt(handle) => knowledge.card(handle),
                                    HandCard::Open(card) => Some(card),
                                }
                                .and_then(Card::from_index)
                            })
                            .collect(),
                        owed: state.hand_size(s) - held.len(),
                    }
                } else {
                    HandParts::Other {
                        size: state.hand_size(s),
                    }
                };
                SeatParts {
                    vp: f64::from(vp),
                    arriving,
                    hand,
                }
            })
            .collect();
        Evaluator { seat, parts }
    }

    /// How good the position is for seat `s`, before comparing with the
    /// others: VP first, then completed chapters (the currency of VP cards),
    /// then chapters growing towards five colours (weighted by the square of
    /// their size, since a nearly complete chapter is worth far more than two
    /// small ones), then the hand.
    fn standing(&self, halls: &Halls, s: Seat) -> f64 {
        let parts = &self.parts[s.index()];
        let mut arriving = [0u8; 6];
        for &card in &parts.arriving {
            if !halls.holds(s, card) {
                arriving[card.profession.index()] += 1;
            }
        }
        let chapters = halls.completed[s.index()].min(CHAPTER_CAP + 1) as f64;
        let growth: f64 = PROFESSIONS
            .iter()
            .map(|&p| {
                let mask = halls.masks[s.index()][p.index()];
                let size = f64::from(mask.count_ones() as u8 + arriving[p.index()]);
                // Farmers pay every turn they are played; the others only help.
                let weight = if p == Profession::Farmer { 1.3 } else { 1.0 };
                weight * size * size
            })
            .sum();
        let hand = match &parts.hand {
            HandParts::Own { cards, owed } => hand_value(halls, s, cards, *owed),
            HandParts::Other { size } => 0.8 * (*size).min(9) as f64,
        };
        POINTS_PER_VP * parts.vp + 28.0 * chapters + 1.2 * growth + hand
    }

    /// The deciding seat's position against its strongest opponent, so an
    /// Assassin or a Trader that takes from the leader is preferred.
    fn evaluate(&self, halls: &Halls) -> f64 {
        let own = self.standing(halls, self.seat);
        let best_other = (0..self.parts.len())
            .map(|s| Seat(s as u8))
            .filter(|&s| s != self.seat)
            .map(|s| self.standing(halls, s))
            .fold(0.0, f64::max);
        own - 0.35 * best_other
    }
}

/// What a seat's own hand is worth: a card it can play or place counts, a
/// second copy or a card its guildhall holds is clutter to discard, and a
/// card still to be drawn counts a little less than a known good one.
fn hand_value(halls: &Halls, seat: Seat, cards: &[Option<Card>], owed: usize) -> f64 {
    let mut seen = [false; 30];
    let mut value = 0.0;
    for card in cards {
        match *card {
            Some(c) if !seen[c.index() as usize] && !halls.holds(seat, c) => {
                seen[c.index() as usize] = true;
                value += 0.8;
            }
            Some(_) => value -= 0.5,
            None => value += 0.6,
        }
    }
    value + 0.6 * owed as f64
}

/// Evaluation points a VP is worth in [`Evaluator::standing`]: prospects
/// map a lead of ten VP's worth to a sure win.
const POINTS_PER_VP: f64 = 12.0;

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
        let halls = Halls::of(state);
        let here = Evaluator::new(state, seat, knowledge);
        for (i, action) in legal.iter().enumerate() {
            // A move between guildhalls is scored from the masks alone: a
            // VP 3-a card offers hundreds of them.
            let mut score = if let Some(after) = halls.after(seat, action) {
                here.evaluate(&after)
            } else {
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
                Evaluator::new(&next, seat, knowledge).evaluate(&Halls::of(&next))
            };
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

    /// Each seat's standing (as this bot weighs a position) against the
    /// best other seat's, a lead of ten VP's worth or more counting as a
    /// sure win.
    fn prospects(&self, state: &Guildhall, knowledge: &Knowledge) -> Option<Vec<f64>> {
        let halls = Halls::of(state);
        let standings: Vec<f64> = (0..state.seat_count())
            .map(|s| {
                let seat = Seat(s);
                Evaluator::new(state, seat, knowledge).standing(&halls, seat)
            })
            .collect();
        Some(lead_prospects(&standings, 10.0 * POINTS_PER_VP))
    }
}

#[cfg(test)]
mod tests {
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};
    use roundtable_engine::{Next, sim};
    use roundtable_guildhall::Options;

    use super::*;

    /// The mask shortcut scores a move between guildhalls exactly as
    /// applying it to a copy of the state does, whenever the move leaves
    /// the turn under way (the end of a turn moves the action area).
    #[test]
    fn moves_between_guildhalls_score_as_if_applied() {
        let mut checked = 0;
        for seed in 0..40u64 {
            let mut game = Guildhall::new_game(4, &Options::default()).expect("4 seats");
            let mut dealer = sim::OracleDealer::new(4);
            let mut rng = ChaCha20Rng::seed_from_u64(seed);
            let mut picks = ChaCha20Rng::seed_from_u64(seed + 5);
            sim::play_private(
                &mut game,
                &mut dealer,
                200_000,
                &mut |n| sim::uniform_below(n, &mut || rng.next_u64()),
                &mut |seat, state, knowledge, legal| {
                    let halls = Halls::of(state);
                    let here = Evaluator::new(state, seat, knowledge);
                    for action in legal {
                        let Some(after) = halls.after(seat, action) else {
                            continue;
                        };
                        let mut next = state.clone();
                        next.apply_action(seat, action, &mut Vec::new())
                            .expect("a listed move between guildhalls");
                        if next.turn_seat() != seat || next.next() == Next::Over {
                            continue;
                        }
                        let applied = Evaluator::new(&next, seat, knowledge);
                        let expected = applied.evaluate(&Halls::of(&next));
                        assert!(
                            (here.evaluate(&after) - expected).abs() < 1e-9,
                            "seed {seed}: {action} scored {} from masks, {expected} applied",
                            here.evaluate(&after)
                        );
                        checked += 1;
                    }
                    (picks.next_u64() % legal.len() as u64) as usize
                },
                &mut |_, _| {},
            )
            .expect("a random game ends");
        }
        assert!(checked > 1000, "only {checked} moves checked");
    }
}
