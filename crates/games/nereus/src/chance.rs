//! The outcomes of chance steps (treasure draws, the discovery card, the
//! neutral ship), once the table's beacon chose them.

use roundtable_engine::{ChanceOutcome, Seat};

use crate::data::{self, Crew};
use crate::error::NereusError as E;
use crate::rules::Log;
use crate::{Cell, Dir, Event, Job, Nereus, Owner};

impl Nereus {
    pub(crate) fn apply_outcome(
        &mut self,
        outcome: &ChanceOutcome,
        events: &mut impl Log,
    ) -> Result<(), E> {
        let job = self.jobs.first().cloned().ok_or(E::BadOutcome)?;
        let index = match outcome {
            ChanceOutcome::Index(i) => Some(*i as usize),
            ChanceOutcome::Cards(_) => None,
        };
        let cards: &[u32] = match outcome {
            ChanceOutcome::Cards(c) => c,
            ChanceOutcome::Index(_) => &[],
        };
        // Every refusal comes before the first change, so the checked path
        // applies an outcome in place, without a copy of the state.
        let choices = match &job {
            Job::FirstPlayer => Some(usize::from(self.seats)),
            Job::Discovery => Some(self.discovery_left.len()),
            Job::NeutralFlip { .. } => Some(self.neutral.as_ref().map_or(0, |n| n.deck.len())),
            Job::NeutralRoll { .. } => Some(if self.neutral.is_some() { 6 } else { 0 }),
            Job::Fill(_) | Job::Draw(_) => None,
            Job::Reshuffle | Job::Deal { .. } => return Err(E::BadOutcome),
        };
        if let Some(choices) = choices
            && index.is_none_or(|i| i >= choices)
        {
            return Err(E::BadOutcome);
        }
        self.jobs.remove(0);
        match job {
            Job::FirstPlayer => {
                let first = Seat(index.ok_or(E::BadOutcome)? as u8);
                self.sun = first;
                self.hourglass = first;
                events.record(|| Event::Chance(format!("{first} takes the sun and the hourglass")));
            }
            Job::Fill(cells) => {
                let colours = self.take_from_bag(cards);
                for (cell, c) in cells.iter().zip(&colours) {
                    let i = self.cell_index(*cell);
                    self.board[i][c.index()] += 1;
                }
                let rest: Vec<Cell> = cells[colours.len().min(cells.len())..].to_vec();
                if !rest.is_empty() {
                    self.jobs.insert(0, Job::Fill(rest));
                }
                events.record(|| Event::Drawn(colours));
            }
            Job::Draw(n) => {
                let colours = self.take_from_bag(cards);
                let got = colours.len() as u32;
                if let Some(t) = &mut self.turn {
                    t.hand.extend(colours.iter().copied());
                }
                if got < n {
                    self.jobs.insert(0, Job::Draw(n - got));
                }
                events.record(|| Event::Drawn(colours));
            }
            Job::Discovery => {
                let i = index.ok_or(E::BadOutcome)?;
                let card = self.discovery_left.remove(i);
                self.discovery = Some(card);
                let mask = data::side(self.seats).discovery[usize::from(card)];
                let cells: Vec<Cell> = (0..self.size)
                    .flat_map(|row| (0..self.size).map(move |col| Cell { row, col }))
                    .filter(|&c| {
                        let bit = self.cell_index(c);
                        mask >> bit & 1 == 1
                            && self.ship_at(c).is_none()
                            && self.board[bit].iter().sum::<u8>() < 3
                    })
                    .collect();
                self.jobs.insert(0, Job::Fill(cells));
                events.record(|| Event::Chance(format!("discovery card {}", card + 1)));
            }
            Job::NeutralFlip { from_explorer } => {
                let i = index.ok_or(E::BadOutcome)?;
                let Some(neutral) = &mut self.neutral else {
                    return Err(E::BadOutcome);
                };
                let crew = neutral.deck.remove(i);
                events.record(|| Event::Chance(format!("the neutral player flips the {crew}")));
                if from_explorer {
                    for m in &mut self.markers[Crew::Explorer.index()] {
                        if *m == Some(Owner::Neutral) {
                            *m = None;
                        }
                    }
                }
                match self.free_space(crew) {
                    None => self.jobs.insert(0, Job::NeutralFlip { from_explorer }),
                    Some(space) => {
                        self.markers[crew.index()][usize::from(space)] = Some(Owner::Neutral);
                        if matches!(crew, Crew::Captain | Crew::Pilot)
                            && let Some(space) = self.space(crew, space)
                        {
                            let distance = data::neutral_distance(space);
                            self.jobs.insert(0, Job::NeutralRoll { distance });
                        }
                    }
                }
            }
            Job::NeutralRoll { distance } => {
                let roll = index.ok_or(E::BadOutcome)? as u8 + 1;
                let Some(neutral) = &self.neutral else {
                    return Err(E::BadOutcome);
                };
                let compass = (neutral.compass + roll) % 8;
                let mut at = neutral.ship;
                let mut moved = 0;
                while moved < distance {
                    match self.step(at, Dir(compass)) {
                        Some(c) => at = c,
                        None => break,
                    }
                    moved += 1;
                }
                if let Some(n) = &mut self.neutral {
                    n.compass = compass;
                    n.ship = at;
                }
                events.record(|| {
                    Event::Chance(format!(
                        "the neutral die shows {roll}: the ship goes {} {moved}",
                        Dir(compass)
                    ))
                });
                if moved == 0 {
                    self.jobs.insert(0, Job::NeutralRoll { distance });
                } else {
                    for c in self.take_all(at) {
                        self.return_treasure(c);
                    }
                }
            }
            Job::Reshuffle | Job::Deal { .. } => return Err(E::BadOutcome),
        }
        self.settle(events);
        Ok(())
    }
}
