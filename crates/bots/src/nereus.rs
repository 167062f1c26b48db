//! A heuristic Waters of Nereus bot: a short greedy look-ahead over a plain
//! evaluation.
//!
//! The evaluation counts, for the seat: VP; gold at a fifth of a VP (its
//! worth at the end, a little more since the merchant buys VP with it);
//! stored treasures and gems at their sale price; every incomplete hold's
//! VP in proportion to how full it is (a hold is the main way to score);
//! science power and cards; treasures in hand at less than any cabin space,
//! so the bot places them, and not at all once the turn has ended (they are
//! lost). The best opponent's evaluation counts against it.
//!
//! Each decision tries every legal action on a copy of the shared state
//! (science cards opened from the seat's knowledge) and looks one more
//! action ahead when the first changes nothing by itself (placing the
//! marker, the explorer's extra turn). The secret crew choice is valued by
//! imagining the seat's own turn with that crew now. Nothing is random.

use roundtable_engine::{Game, Knowledge, Next, Revealed, Seat};
use roundtable_nereus::data::HOLDS;
use roundtable_nereus::{Action, Cell, Crew, Dir, Nereus, Phase, Stage, Turn, View};

use crate::Bot;
use crate::search::lead_prospects;

/// The heuristic Nereus bot.
#[derive(Clone, Debug, Default)]
pub struct NereusBot;

impl NereusBot {
    /// A new bot (it keeps no state between decisions).
    pub fn new() -> Self {
        NereusBot
    }
}

/// Gold's worth in VP.
const GOLD: f64 = 0.22;
/// A treasure picked up, as the look-ahead values it: placed in the cabin.
const PICKED_UP: f64 = 0.9;
/// A treasure in hand, below every cabin space's worth.
const IN_HAND: f64 = 0.35;
/// A lead in VP's worth ([`worth`]) that [`Bot::prospects`] counts as a
/// sure win.
const SURE_LEAD: f64 = 10.0;

fn worth(state: &Nereus, seat: Seat) -> f64 {
    let s = seat.index();
    let cabin = &state.cabins[s];
    let mut value = f64::from(state.vp[s]) + GOLD * f64::from(state.gold[s]);
    value += 0.45 * cabin.store.iter().flatten().count() as f64;
    value += 1.15 * f64::from(cabin.gems);
    for (crew, hold) in Crew::ALL.iter().zip(HOLDS.iter()) {
        if cabin.is_complete(*crew) {
            // The enhanced action still to come.
            value += 1.0;
            continue;
        }
        let filled = cabin.holds[crew.index()]
            .iter()
            .filter(|p| p.is_some())
            .count() as f64;
        let size = hold.icons.len() as f64;
        value += 0.75 * f64::from(hold.vp) * filled / size;
    }
    let cards = state.science[s].len() as f64;
    let power = f64::from(state.power[s]);
    value += 0.9 * power.min(cards) + 0.25 * power + 0.4 * cards;
    if let Some(turn) = &state.turn
        && turn.seat == seat
    {
        value += IN_HAND * turn.hand.len() as f64;
    }
    value
}

fn evaluate(state: &Nereus, seat: Seat) -> f64 {
    let own = worth(state, seat);
    let best_other = (0..state.seats)
        .map(Seat)
        .filter(|&s| s != seat)
        .map(|s| worth(state, s))
        .fold(0.0, f64::max);
    own - 0.3 * best_other
}

fn revealed_for(action: &Action, knowledge: &Knowledge) -> Vec<Revealed> {
    Nereus::claims(action)
        .iter()
        .filter_map(|c| {
            knowledge.card(c.handle).map(|card| Revealed {
                handle: c.handle,
                card,
            })
        })
        .collect()
}

/// The state after `action` (one the game listed for `seat`), if the game
/// accepts it.
fn after(state: &Nereus, seat: Seat, action: &Action, knowledge: &Knowledge) -> Option<Nereus> {
    let mut next = state.clone();
    let applied = if Nereus::claims(action).is_empty() {
        next.apply_legal_action(seat, action, &mut Vec::new())
            .map_err(|_| ())
    } else {
        next.apply_action_revealing(
            seat,
            action,
            &revealed_for(action, knowledge),
            &mut Vec::new(),
        )
        .map_err(|_| ())
    };
    applied.ok().map(|()| next)
}

/// Whether `action` changes nothing by itself and earns its worth from the
/// action after it.
fn opens_more(action: &Action) -> bool {
    matches!(action, Action::Place(_) | Action::Explore(_))
}

/// The best evaluation `seat` reaches from `state` in `depth` more of its
/// own decisions (only the seat's own consecutive decisions are searched).
fn best(state: &Nereus, seat: Seat, knowledge: &Knowledge, depth: u8) -> f64 {
    let here = evaluate(state, seat);
    if depth == 0 || state.next() != Next::Decision(seat) {
        return here;
    }
    let mut legal = Vec::new();
    state.legal_actions_with(seat, knowledge, &mut legal);
    prune_places(state, &mut legal);
    // A ship's move or the explorer's pick is judged by what it picks up,
    // without playing it out: there are up to a hundred moves.
    let mut best_static = here;
    if let Some(ship) = state.ships.get(seat.index()) {
        for action in &legal {
            let taken = match action {
                Action::Move(path) => destination(state, *ship, path)
                    .map_or(0, |cell| state.treasures_at(cell).iter().sum::<u8>()),
                Action::Pick(..) => 1,
                _ => continue,
            };
            best_static = best_static.max(here + PICKED_UP * f64::from(taken));
        }
    }
    // Looking ahead follows the crew's own actions only: placing and moving
    // treasures, selling and science cards are weighed when they are the
    // choice at hand.
    legal
        .iter()
        .filter(|a| {
            matches!(
                a,
                Action::Place(_) | Action::Basic(_) | Action::Gold(_) | Action::Enhanced
            )
        })
        .filter_map(|a| after(state, seat, a, knowledge))
        .map(|next| best(&next, seat, knowledge, depth - 1))
        .fold(best_static, f64::max)
}

/// Where a ship at `from` ends after `path`.
fn destination(state: &Nereus, from: Cell, path: &[Dir]) -> Option<Cell> {
    path.iter().try_fold(from, |at, d| {
        let (dr, dc) = d.delta();
        let row = at.row.checked_add_signed(dr)?;
        let col = at.col.checked_add_signed(dc)?;
        (row < state.size && col < state.size).then_some(Cell { row, col })
    })
}

/// The captain's and pilot's leftmost free space allows every move the
/// spaces right of it allow (and more), so only it is worth looking at.
fn prune_places(state: &Nereus, legal: &mut Vec<Action>) {
    let moves = state
        .turn
        .as_ref()
        .is_some_and(|t| matches!(t.crew, Some(Crew::Captain | Crew::Pilot)));
    if !moves {
        return;
    }
    let Some(first) = legal.iter().find_map(|a| match a {
        Action::Place(n) => Some(*n),
        _ => None,
    }) else {
        return;
    };
    legal.retain(|a| !matches!(a, Action::Place(n) if *n != first));
}

/// How good choosing `crew` now looks: the seat's own turn with that crew,
/// imagined on a copy of the state at once.
fn crew_value(state: &Nereus, seat: Seat, crew: Crew, knowledge: &Knowledge) -> f64 {
    let mut imagined = state.clone();
    imagined.jobs.clear();
    imagined.phase = Phase::Turns(0);
    imagined.hourglass = seat;
    let mut turn = Turn {
        seat,
        crew: Some(crew),
        space: None,
        stage: Stage::Before,
        basic: false,
        gold: false,
        enhanced: false,
        shifts: 0,
        discard_over: None,
        hand: Vec::new(),
        fresh: 0,
        extra: false,
    };
    if !imagined.markers[crew.index()].iter().any(Option::is_none) {
        turn.crew = None;
        turn.stage = Stage::After;
    }
    imagined.turn = Some(turn);
    let mut value = best(&imagined, seat, knowledge, 2);
    if crew == Crew::Explorer {
        // The extra turn in Phase III.
        value += 0.8;
    }
    value
}

impl Bot<Nereus> for NereusBot {
    fn name(&self) -> &'static str {
        "nereus-heuristic"
    }

    /// From the view alone: the first action that is not ending the turn.
    fn choose(&mut self, _seat: Seat, _view: &View, legal: &[Action]) -> usize {
        legal
            .iter()
            .position(|a| !matches!(a, Action::End | Action::Done))
            .unwrap_or(0)
    }

    fn choose_in(
        &mut self,
        seat: Seat,
        state: &Nereus,
        knowledge: &Knowledge,
        legal: &[Action],
    ) -> usize {
        let mut candidates = legal.to_vec();
        prune_places(state, &mut candidates);
        let mut best_pick = (f64::NEG_INFINITY, 0);
        for (i, action) in legal.iter().enumerate() {
            if !candidates.contains(action) {
                continue;
            }
            let score = match action {
                Action::Choose(crew) => crew_value(state, seat, *crew, knowledge),
                _ => match after(state, seat, action, knowledge) {
                    None => continue,
                    Some(next) => {
                        let depth = if opens_more(action) { 2 } else { 0 };
                        best(&next, seat, knowledge, depth)
                    }
                },
            };
            // Ties go to the later-listed action, and ending the turn or the
            // crew's actions needs a strict gain over carrying on.
            let ends = matches!(action, Action::End | Action::Done);
            let score = if ends { score - 1e-6 } else { score };
            if score >= best_pick.0 {
                best_pick = (score, i);
            }
        }
        best_pick.1
    }

    /// Each seat's worth as this bot weighs it against the best other
    /// seat's, a lead of [`SURE_LEAD`] VP's worth counting as a sure win.
    /// Without it a search cut at its horizon ranks seats by VP alone,
    /// which in Nereus come mostly at the end (holds, the merchant), so
    /// a cut playout sees a hold nearly filled as worth nothing.
    fn prospects(&self, state: &Nereus, _knowledge: &Knowledge) -> Option<Vec<f64>> {
        let worths: Vec<f64> = (0..state.seats).map(|s| worth(state, Seat(s))).collect();
        Some(lead_prospects(&worths, SURE_LEAD))
    }
}

#[cfg(test)]
mod tests {
    use roundtable_nereus::{Options, Piece};

    use super::*;

    /// A search cut at its horizon credits a hold half filled, not only
    /// VP already scored: the seat whose hold fills leads the others.
    #[test]
    fn prospects_count_a_hold_filling_up() {
        let mut state = Nereus::new_game(4, &Options::default()).expect("4 seats");
        let bot = NereusBot::new();
        let knowledge = Knowledge::default();
        let before = bot
            .prospects(&state, &knowledge)
            .expect("Nereus has prospects");
        let seat = 2;
        let hold = &mut state.cabins[seat].holds[0];
        let half = hold.len().div_ceil(2);
        for space in hold.iter_mut().take(half) {
            *space = Some(Piece::Gem);
        }
        let after = bot
            .prospects(&state, &knowledge)
            .expect("Nereus has prospects");
        assert!(after.iter().all(|p| (0.0..=1.0).contains(p)), "{after:?}");
        assert!(after[seat] > before[seat], "{before:?} -> {after:?}");
        for other in (0..4).filter(|&o| o != seat) {
            assert!(after[seat] > after[other], "{after:?}");
        }
    }
}
