//! The actions a seat may take now: what the legal-action lists of the
//! `Game` impl are built from.

use roundtable_engine::{CardHandle, Knowledge, Seat};

use crate::data::{self, Colour, Crew, HOLDS, Science};
use crate::{Action, Aim, Cell, Dir, Nereus, Piece, Slot, Turn};

/// The four orthogonal directions, the pilot's.
const ORTHOGONAL: [Dir; 4] = [Dir(0), Dir(2), Dir(4), Dir(6)];

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

    /// Every cabin space: the holds row by row, the chest, the storage.
    pub(crate) fn cabin_slots() -> impl Iterator<Item = Slot> + Clone {
        let holds = Crew::ALL.into_iter().flat_map(|crew| {
            (0..HOLDS[crew.index()].icons.len()).map(move |i| Slot::Hold(crew, i as u8))
        });
        holds
            .chain(Colour::ALL.map(Slot::Chest))
            .chain((0..6).map(Slot::Store))
    }

    /// Every boatswain move of `seat`: for each space holding a movable
    /// piece, the spaces it fits once lifted (as `Shift` checks it).
    pub(crate) fn shift_moves(&self, seat: Seat) -> impl Iterator<Item = (Slot, Slot)> + '_ {
        let cabin = &self.cabins[seat.index()];
        Self::cabin_slots()
            .filter_map(move |from| {
                let piece = match from {
                    Slot::Hold(c, i) if !cabin.is_complete(c) => {
                        cabin.holds[c.index()][usize::from(i)]
                    }
                    Slot::Store(i) => cabin.store[usize::from(i)].map(Piece::Treasure),
                    _ => None,
                };
                piece.map(|piece| (from, piece))
            })
            .flat_map(move |(from, piece)| {
                Self::cabin_slots()
                    .filter(move |&to| {
                        to != from && self.fits_lifted(seat, piece, to, Some(from)).is_ok()
                    })
                    .map(move |to| (from, to))
            })
    }

    /// Whether the boatswain's open action (basic or gold) has treasure
    /// moves left that it could still make. The crew's basic, gold and
    /// enhanced actions are each done whole, one after the other, so no
    /// other crew action begins meanwhile; moves with nothing left to move
    /// end when the next action begins.
    pub(crate) fn moves_open(&self, seat: Seat, turn: &Turn) -> bool {
        turn.shifts > 0 && self.shift_moves(seat).next().is_some()
    }

    /// What sailing `path` costs the seat whose turn it is: the gold
    /// action's price (a captain's longer move, a pilot's turns) and the
    /// fees for the ships it passes; `None` when the move is not allowed.
    pub fn move_price(&self, path: &[Dir]) -> Option<(u32, u32)> {
        let turn = self.turn.as_ref()?;
        let plan = self.check_move(turn, path).ok()?;
        Some((plan.gold_cost, plan.fees.count()))
    }

    /// Every ship move of the turn's captain (straight lines up to 7
    /// spaces) or pilot (orthogonal paths up to 4), the empty move too.
    /// Paths grow a step at a time in one buffer, and a path refused for
    /// any reason but ending on a ship is not grown: every such refusal
    /// (off the board, a space twice, too long, too dear, the wrong
    /// heading) refuses all its longer forms too.
    pub(crate) fn move_actions(&self, turn: &Turn, out: &mut Vec<Action>) {
        let Some(crew) = turn.crew else { return };
        if self.check_move(turn, &[]).is_ok() {
            out.push(Action::Move(Vec::new()));
        }
        let mut path = [Dir(0); 7];
        if crew == Crew::Captain {
            for d in Dir::all() {
                path[0] = d;
                self.grow_moves(turn, &mut path, 1, &[], out);
            }
        } else {
            for d in ORTHOGONAL {
                path[0] = d;
                self.grow_moves(turn, &mut path, 1, &ORTHOGONAL[..], out);
            }
        }
    }

    /// List the move `path[..len]` if it is allowed, then grow it by each
    /// of `turns` (or, with none, straight on) while the buffer lasts:
    /// up to 7 steps for the captain, 4 for the pilot.
    fn grow_moves(
        &self,
        turn: &Turn,
        path: &mut [Dir; 7],
        len: usize,
        turns: &[Dir],
        out: &mut Vec<Action>,
    ) {
        match self.check_move(turn, &path[..len]) {
            Ok(_) => out.push(Action::Move(path[..len].to_vec())),
            Err(crate::NereusError::StopOnShip) => {}
            Err(_) => return,
        }
        let limit = if turns.is_empty() { path.len() } else { 4 };
        if len >= limit {
            return;
        }
        if turns.is_empty() {
            path[len] = path[len - 1];
            self.grow_moves(turn, path, len + 1, turns, out);
        } else {
            for &d in turns {
                path[len] = d;
                self.grow_moves(turn, path, len + 1, turns, out);
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
        // The cards in the hand's order, each card's aims in order: the
        // cards are sorted below, so the list stays in the actions' order.
        let first_play = out.len();
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
        if let Some(plays) = out.get_mut(first_play..) {
            plays.sort_unstable();
        }
    }
}
