//! The actions a seat may take now: what the legal-action lists of the
//! `Game` impl are built from.

use roundtable_engine::{CardHandle, Knowledge, Seat};

use crate::data::{self, Colour, Crew, HOLDS, Science};
use crate::{Action, Aim, Cell, Dir, Nereus, Piece, Slot, Turn};

impl Nereus {
    pub(crate) fn known_science(
        &self,
        seat: Seat,
        knowledge: &Knowledge,
    ) -> Vec<(CardHandle, u32)> {
        self.science[seat.index()]
            .iter()
            .filter_map(|&h| knowledge.card(h).map(|c| (h, c)))
            .collect()
    }

    pub(crate) fn cabin_slots(&self) -> Vec<Slot> {
        let mut slots = Vec::new();
        for crew in Crew::ALL {
            for i in 0..HOLDS[crew.index()].icons.len() {
                slots.push(Slot::Hold(crew, i as u8));
            }
        }
        slots.extend(Colour::ALL.map(Slot::Chest));
        slots.extend((0..6).map(Slot::Store));
        slots
    }

    /// Every boatswain move: for each space holding a movable piece, the
    /// spaces it fits once lifted (as `Shift` checks it).
    pub(crate) fn shift_actions(&self, seat: Seat, slots: &[Slot], out: &mut Vec<Action>) {
        let cabin = &self.cabins[seat.index()];
        for &from in slots {
            let piece = match from {
                Slot::Hold(c, i) if !cabin.is_complete(c) => cabin.holds[c.index()][usize::from(i)],
                Slot::Store(i) => cabin.store[usize::from(i)].map(Piece::Treasure),
                _ => None,
            };
            let Some(piece) = piece else { continue };
            let mut lifted = self.clone();
            lifted.clear_slot(seat, from);
            for &to in slots {
                if to != from && lifted.fits(seat, piece, to).is_ok() {
                    out.push(Action::Shift(from, to));
                }
            }
        }
    }

    /// Whether the boatswain's open action (basic or gold) has treasure
    /// moves left that it could still make. The crew's basic, gold and
    /// enhanced actions are each done whole, one after the other, so no
    /// other crew action begins meanwhile; moves with nothing left to move
    /// end when the next action begins.
    pub(crate) fn moves_open(&self, seat: Seat, turn: &Turn) -> bool {
        if turn.shifts == 0 {
            return false;
        }
        let mut moves = Vec::new();
        self.shift_actions(seat, &self.cabin_slots(), &mut moves);
        !moves.is_empty()
    }

    /// What sailing `path` costs the seat whose turn it is: the gold
    /// action's price (a captain's longer move, a pilot's turns) and the
    /// fees for the ships it passes; `None` when the move is not allowed.
    pub fn move_price(&self, path: &[Dir]) -> Option<(u32, u32)> {
        let turn = self.turn.as_ref()?;
        let plan = self.check_move(turn, path).ok()?;
        Some((plan.gold_cost, plan.fees.len() as u32))
    }

    pub(crate) fn move_actions(&self, turn: &Turn, out: &mut Vec<Action>) {
        let Some(crew) = turn.crew else { return };
        let mut paths: Vec<Vec<Dir>> = vec![Vec::new()];
        if crew == Crew::Captain {
            for d in Dir::all() {
                for len in 1..=7 {
                    paths.push(vec![d; len]);
                }
            }
        } else {
            let mut frontier = vec![Vec::new()];
            for _ in 0..4 {
                let mut grown = Vec::new();
                for p in &frontier {
                    for d in [Dir(0), Dir(2), Dir(4), Dir(6)] {
                        let mut q: Vec<Dir> = p.clone();
                        q.push(d);
                        grown.push(q);
                    }
                }
                paths.extend(grown.iter().cloned());
                frontier = grown;
            }
        }
        for p in paths {
            if self.check_move(turn, &p).is_ok() {
                out.push(Action::Move(p));
            }
        }
    }

    pub(crate) fn free_actions(
        &self,
        seat: Seat,
        knowledge: &Knowledge,
        out: &mut Vec<Action>,
        end: bool,
    ) {
        let s = seat.index();
        let cabin = &self.cabins[s];
        for i in 0..6u8 {
            if cabin.store[usize::from(i)].is_some() {
                out.push(Action::Sell(Slot::Store(i)));
            }
        }
        if cabin.gems > 0 {
            out.push(Action::SellGem);
        }
        if cabin.gems < data::GEM_SPACES {
            for c in Colour::ALL {
                if cabin.store.iter().filter(|&&x| x == Some(c)).count() >= 2 {
                    out.push(Action::Trade(c));
                }
            }
        }
        if self.power[s] == 0 {
            return;
        }
        for (handle, card) in self.known_science(seat, knowledge) {
            let Some(&science) = data::SCIENCE_DECK.get(card as usize) else {
                continue;
            };
            match science {
                Science::DrawTwo if !end => out.push(Action::Play(handle, card, Aim::None)),
                Science::PickAny if !end => {
                    for row in 0..self.size {
                        for col in 0..self.size {
                            let cell = Cell { row, col };
                            for c in Colour::ALL {
                                if self.treasures_at(cell)[c.index()] > 0 {
                                    out.push(Action::Play(handle, card, Aim::Pick(cell, c)));
                                }
                            }
                        }
                    }
                }
                Science::Hop if !end && self.gold[s] >= 3 => {
                    for d in Dir::all() {
                        if let Some(to) = self.step(self.ships[s], d)
                            && self.ship_at(to).is_none()
                        {
                            out.push(Action::Play(handle, card, Aim::Hop(d)));
                        }
                    }
                }
                _ if end && science.at_game_end() && self.end_card_use(seat, science).is_some() => {
                    out.push(Action::Play(handle, card, Aim::None));
                }
                _ => {}
            }
        }
    }
}
