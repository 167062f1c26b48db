//! The state and the rules' moves on it, apart from the engine contract.
//!
//! The state's types, its queries and the steps every rule is made of
//! (adding to a guildhall, completing and shedding chapters, pending steps,
//! the VP cards' abilities, ending a turn), one concern that `rules.rs`
//! composes into turns; the legal lists' fast judgements of those steps are
//! in `judge.rs`.

use roundtable_engine::{CardHandle, DeckSlots, EpochId, Seat};
use serde::{Deserialize, Serialize};

use crate::action::{Action, ChapterOrder, HandCard, chapter_order};
use crate::catalog::{COLOURS, Card, Colour, PROFESSIONS, Profession, VP_TABLE, VpAbility};
use crate::error::GuildhallError as E;
use crate::judge::{assassin_can_finish, placements_possible};

/// VP at the end of a turn that end the game.
pub const TARGET_VP: u32 = 20;
/// Cards dealt to each seat, and the setup's draw-back target.
pub const SETUP_HAND: u32 = 9;
/// Cards placed in the setup.
pub const SETUP_PLACE: u8 = 3;
/// The discard-and-draw action's target.
pub const REFILL_HAND: u32 = 6;
/// Completed chapters a guildhall may hold.
pub const CHAPTER_CAP: usize = 3;
/// Cards of the centre row.
pub const ROW_SIZE: u32 = 5;

/// Rule options: Yucata's three changes (on by default) and the end guard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// Yucata 1: the centre row is refilled after the chapters are paid.
    pub refill_after_paying: bool,
    /// Yucata 2: chapters beyond the third are shed at the start of the
    /// holder's next turn, not at once.
    pub late_chapter_cap: bool,
    /// Yucata 3: a discarded chapter's top card is chosen (else the cards go
    /// in catalog colour order, purple on top).
    pub choose_chapter_order: bool,
    /// The game ends after this many rounds whatever the scores (the rules
    /// have no such limit; it makes every game end, see the crate docs).
    pub max_rounds: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            refill_after_paying: true,
            late_chapter_cap: true,
            choose_chapter_order: true,
            max_rounds: 100,
        }
    }
}

/// A card in the action area.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AreaCard {
    /// A profession card (catalog index).
    Profession(u32),
    /// A VP card (index into `VP_TABLE`).
    Vp(u8),
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Setup: the seat discards, then draws back to 9.
    SetupDiscard(Seat),
    /// Setup: the seat places `left` more cards.
    SetupPlace(Seat, u8),
    /// The turn seat's turn.
    Turn,
    /// The game is over.
    Over,
}

/// The step of an action under way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Pending {
    /// The discard-and-draw action: discard, then draw.
    Discarding,
    /// Assassin: `left` cards to discard from one victim.
    Assassinate {
        /// The victim, once chosen.
        victim: Option<Seat>,
        /// Cards still to discard.
        left: u8,
        /// Level 2: from different chapters.
        distinct: bool,
        /// Professions already hit (bitmask).
        hit: u8,
    },
    /// Historian 2/4: `left` cards to take from the discard pile.
    Search {
        /// Cards still to take.
        left: u8,
    },
    /// Trader 0/2: `left` swaps with one opponent.
    Swap {
        /// The opponent, once chosen.
        with: Option<Seat>,
        /// Swaps still to make.
        left: u8,
    },
    /// Trader 4: one chapter swap.
    SwapChapter,
    /// Place hand cards: `left` more (`None`: any number, ended by `stop`),
    /// then take `then_return` back.
    Place {
        /// Cards still to place.
        left: Option<u8>,
        /// Cards to take back after.
        then_return: u8,
    },
    /// Weaver: take `left` guildhall cards back to the hand.
    Return {
        /// Cards still to take back.
        left: u8,
    },
    /// Pay `left` more chapters for the VP card `kind`.
    Pay {
        /// The card bought.
        kind: u8,
        /// Chapters still to pay.
        left: u8,
    },
    /// The bought VP card's ability, to use or skip.
    VpAbility(u8),
}

/// The whole game state: public, identical on every peer. Hands hold
/// handles, never the identity of a dealt card.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Guildhall {
    pub(crate) seats: u8,
    pub(crate) options: Options,
    pub(crate) deck: Option<DeckSlots>,
    /// Bottom first; the top is the last entry.
    pub(crate) discard: Vec<u32>,
    pub(crate) hands: Vec<Vec<HandCard>>,
    pub(crate) owed: Vec<u32>,
    /// Per seat, per profession: the colours in the guildhall (bit = colour).
    pub(crate) halls: Vec<[u8; 6]>,
    pub(crate) completed: Vec<Vec<Profession>>,
    pub(crate) area: Vec<AreaCard>,
    pub(crate) vp_cards: Vec<Vec<u8>>,
    pub(crate) tokens: Vec<u32>,
    pub(crate) row: Vec<u8>,
    pub(crate) vp_left: Vec<u32>,
    pub(crate) row_owed: u32,
    pub(crate) turn: Seat,
    pub(crate) actions_left: u8,
    pub(crate) played: u8,
    pub(crate) turn_started: bool,
    pub(crate) round: u32,
    pub(crate) phase: Phase,
    pub(crate) pending: Option<Pending>,
    /// The hand cards placed so far by the Weaver step under way, in order,
    /// so that giving the level up can undo them.
    pub(crate) placed_by_ability: Vec<u32>,
}

// By hand for `clone_from`: the legal list tries hundreds of moves on a
// copy of the state, and a copy written over a spare one reuses its
// vectors instead of allocating a dozen new ones per move tried.
impl Clone for Guildhall {
    fn clone(&self) -> Self {
        let mut copy = Guildhall {
            seats: self.seats,
            options: self.options.clone(),
            deck: self.deck,
            discard: Vec::new(),
            hands: Vec::new(),
            owed: Vec::new(),
            halls: Vec::new(),
            completed: Vec::new(),
            area: Vec::new(),
            vp_cards: Vec::new(),
            tokens: Vec::new(),
            row: Vec::new(),
            vp_left: Vec::new(),
            row_owed: self.row_owed,
            turn: self.turn,
            actions_left: self.actions_left,
            played: self.played,
            turn_started: self.turn_started,
            round: self.round,
            phase: self.phase,
            pending: self.pending,
            placed_by_ability: Vec::new(),
        };
        copy.clone_from(self);
        copy
    }

    fn clone_from(&mut self, source: &Self) {
        // Named field by field, so a field added later fails to compile
        // here rather than going uncopied.
        let Guildhall {
            seats,
            options,
            deck,
            discard,
            hands,
            owed,
            halls,
            completed,
            area,
            vp_cards,
            tokens,
            row,
            vp_left,
            row_owed,
            turn,
            actions_left,
            played,
            turn_started,
            round,
            phase,
            pending,
            placed_by_ability,
        } = source;
        self.seats = *seats;
        self.options.clone_from(options);
        self.deck = *deck;
        self.discard.clone_from(discard);
        self.hands.clone_from(hands);
        self.owed.clone_from(owed);
        self.halls.clone_from(halls);
        self.completed.clone_from(completed);
        self.area.clone_from(area);
        self.vp_cards.clone_from(vp_cards);
        self.tokens.clone_from(tokens);
        self.row.clone_from(row);
        self.vp_left.clone_from(vp_left);
        self.row_owed = *row_owed;
        self.turn = *turn;
        self.actions_left = *actions_left;
        self.played = *played;
        self.turn_started = *turn_started;
        self.round = *round;
        self.phase = *phase;
        self.pending = *pending;
        self.placed_by_ability.clone_from(placed_by_ability);
    }
}

thread_local! {
    /// Spare states to try moves on, kept between calls. A legal list tries
    /// a move on a copy of the state for each action it offers (deeper
    /// steps on copies of those), and applying an action works on a copy
    /// too; writing the copy over a spare reuses the spare's vectors, where
    /// a fresh copy would allocate a dozen. Only storage: what a copy holds
    /// never depends on the spare it was written over, so the rules stay a
    /// pure function of the state.
    // Boxed so taking a spare out and putting it back moves a pointer,
    // not a whole state (that copy showed in the profile).
    #[allow(clippy::vec_box)]
    static SPARES: std::cell::RefCell<Vec<Box<Guildhall>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Spares kept per thread: the deepest nesting of copies a legal list
/// makes, with room to spare.
const SPARES_KEPT: usize = 8;

/// A copy of `state`, written over a spare state where one is kept.
pub(crate) fn copy_of(state: &Guildhall) -> Box<Guildhall> {
    match SPARES.with_borrow_mut(Vec::pop) {
        Some(mut spare) => {
            Guildhall::clone_from(&mut spare, state);
            spare
        }
        None => Box::new(state.clone()),
    }
}

/// Keep `copy` as a spare for [`copy_of`].
pub(crate) fn keep_spare(copy: Box<Guildhall>) {
    SPARES.with_borrow_mut(|spares| {
        if spares.len() < SPARES_KEPT {
            spares.push(copy);
        }
    });
}

impl Guildhall {
    /// Run `trial` on a copy of the state.
    pub(crate) fn try_on_copy<R>(&self, trial: impl FnOnce(&mut Guildhall) -> R) -> R {
        let mut probe = copy_of(self);
        let result = trial(&mut probe);
        keep_spare(probe);
        result
    }
}

pub(crate) fn card_of(index: u32) -> Result<Card, E> {
    Card::from_index(index).ok_or(E::NoSuchCard(index))
}

pub(crate) fn bit(colour: Colour) -> u8 {
    1 << colour.index()
}

/// Whether a guildhall of `hall` (per profession, bit = colour) holds `card`.
pub(crate) fn hall_holds(hall: [u8; 6], card: Card) -> bool {
    hall[card.profession.index()] & bit(card.colour) != 0
}

/// A guildhall of `hall` as one mask over the catalog: bit `i` is the
/// card of catalog index `i` (a profession's five colours side by side).
pub(crate) fn hall_bits(hall: [u8; 6]) -> u32 {
    hall.iter().enumerate().fold(0, |bits, (p, &mask)| {
        bits | u32::from(mask & 0b1_1111) << (5 * p)
    })
}

/// The cards of `bits` (a [`hall_bits`] mask), in catalog order.
pub(crate) fn cards_of(mut bits: u32) -> impl Iterator<Item = Card> + Clone {
    // Set bits only: a legal list walks guildhalls hundreds of times a
    // decision, and most of the catalog is in none of them.
    std::iter::from_fn(move || {
        // No bit left gives index 32, which is no card: the walk ends.
        let index = bits.trailing_zeros();
        bits &= bits.wrapping_sub(1);
        Card::from_index(index)
    })
}

/// The cards of a guildhall of `hall`, in catalog order.
fn cards_in(hall: [u8; 6]) -> impl Iterator<Item = Card> + Clone {
    cards_of(hall_bits(hall))
}

impl Guildhall {
    pub(crate) fn deck_left(&self) -> u32 {
        self.deck.map_or(0, |d| d.left())
    }

    pub(crate) fn next_epoch(&self) -> EpochId {
        self.deck
            .map_or(EpochId(0), |d| EpochId(d.epoch.0.saturating_add(1)))
    }

    /// Whether `seat`'s guildhall holds `card` (in an incomplete chapter).
    pub fn holds(&self, seat: Seat, card: Card) -> bool {
        hall_holds(self.halls[seat.index()], card)
    }

    /// Cards of `profession` in `seat`'s guildhall: the level.
    pub fn chapter_size(&self, seat: Seat, profession: Profession) -> u8 {
        self.halls[seat.index()][profession.index()].count_ones() as u8
    }

    /// Every card in `seat`'s guildhall (incomplete chapters), in catalog order.
    pub fn guildhall_cards(&self, seat: Seat) -> Vec<Card> {
        self.hall_cards(seat).collect()
    }

    /// [`Guildhall::guildhall_cards`] without collecting them: the legal
    /// lists walk a guildhall many times per decision.
    pub(crate) fn hall_cards(&self, seat: Seat) -> impl Iterator<Item = Card> + Clone + use<> {
        cards_in(self.halls[seat.index()])
    }

    /// Completed chapters `seat` holds.
    pub fn completed_chapters(&self, seat: Seat) -> usize {
        self.completed[seat.index()].len()
    }

    /// Cards in `seat`'s hand, counting those owed to it by a pending deal.
    pub fn hand_size(&self, seat: Seat) -> usize {
        self.hands[seat.index()].len() + self.owed[seat.index()] as usize
    }

    /// The action area of the seat whose turn it is.
    pub fn action_area(&self) -> &[AreaCard] {
        &self.area
    }

    /// `seat`'s hand: dealt slots and cards everyone knows.
    pub fn hand(&self, seat: Seat) -> &[HandCard] {
        &self.hands[seat.index()]
    }

    /// The step of an action under way, if any.
    pub fn pending_step(&self) -> Option<Pending> {
        self.pending
    }

    /// Whose turn it is.
    pub fn turn_seat(&self) -> Seat {
        self.turn
    }

    /// Seats at the table.
    pub fn seat_count(&self) -> u8 {
        self.seats
    }

    pub(crate) fn hall_count(&self, seat: Seat) -> u32 {
        self.halls[seat.index()]
            .iter()
            .map(|m| m.count_ones())
            .sum()
    }

    /// VP of `seat`: its VP cards and tokens (cards in the action area count
    /// once the turn ends).
    pub fn vp(&self, seat: Seat) -> u32 {
        let cards: u32 = self.vp_cards[seat.index()]
            .iter()
            .map(|&k| VP_TABLE[usize::from(k)].vp)
            .sum();
        cards + self.tokens[seat.index()]
    }

    /// Put `card` into `seat`'s guildhall (refusing a duplicate), completing
    /// its chapter at once when all five colours are there.
    pub(crate) fn add_to_hall(&mut self, seat: Seat, card: Card) -> Result<(), E> {
        if self.holds(seat, card) {
            return Err(E::Duplicate { seat, card });
        }
        let mask = &mut self.halls[seat.index()][card.profession.index()];
        *mask |= bit(card.colour);
        if *mask == 0b1_1111 {
            *mask = 0;
            self.completed[seat.index()].push(card.profession);
        }
        Ok(())
    }

    pub(crate) fn remove_from_hall(&mut self, seat: Seat, card: Card) -> Result<(), E> {
        if !self.holds(seat, card) {
            return Err(E::NotInGuildhall { seat, card });
        }
        self.halls[seat.index()][card.profession.index()] &= !bit(card.colour);
        Ok(())
    }

    fn opponent(&self, seat: Seat, other: Seat) -> Result<(), E> {
        if other == seat || other.0 >= self.seats {
            return Err(E::NotAnOpponent(other));
        }
        Ok(())
    }

    /// Lay a completed chapter's five cards on the discard pile in `order`
    /// (from the top down), or in catalog order with purple on top when the
    /// order is not chosen.
    pub(crate) fn discard_chapter(
        &mut self,
        seat: Seat,
        profession: Profession,
        order: Option<ChapterOrder>,
    ) -> Result<(), E> {
        let order = match (self.options.choose_chapter_order, order) {
            (true, None) => return Err(E::ChapterOrder("must be chosen (Yucata's third change)")),
            (false, Some(_)) => return Err(E::ChapterOrder("is not chosen with this option off")),
            (true, Some(order)) => chapter_order(&order)
                .ok_or(E::ChapterOrder("names each of the five colours once"))?,
            (false, None) => chapter_order(&[]).ok_or(E::ChapterOrder("of the catalog"))?,
        };
        let chapters = &mut self.completed[seat.index()];
        let at = chapters
            .iter()
            .position(|&p| p == profession)
            .ok_or(E::NoCompletedChapter { seat, profession })?;
        chapters.remove(at);
        self.discard.extend(
            order
                .iter()
                .rev()
                .map(|&colour| Card { profession, colour }.index()),
        );
        Ok(())
    }

    /// The seat that must shed chapters now, if any.
    pub(crate) fn shedding_seat(&self) -> Option<Seat> {
        if self.phase != Phase::Turn {
            return None;
        }
        if self.options.late_chapter_cap {
            let turn = self.turn;
            (self.turn_started
                && self.pending.is_none()
                && self.completed[turn.index()].len() > CHAPTER_CAP)
                .then_some(turn)
        } else if self.pending.is_some() {
            // An ability step under way is finished (or given up) first.
            None
        } else {
            (0..self.seats)
                .map(Seat)
                .find(|s| self.completed[s.index()].len() > CHAPTER_CAP)
        }
    }

    /// Give up the Weaver level under way (rule: a level is done in full or
    /// not at all): every card it placed goes back to the hand, open, since
    /// everyone saw it, a chapter one of them completed opens again, and the
    /// played card stays in the action area with no effect.
    pub(crate) fn give_up_placing(&mut self, seat: Seat) {
        for index in std::mem::take(&mut self.placed_by_ability)
            .into_iter()
            .rev()
        {
            let Some(card) = Card::from_index(index) else {
                continue;
            };
            if self.holds(seat, card) {
                self.halls[seat.index()][card.profession.index()] &= !bit(card.colour);
            } else if let Some(at) = self.completed[seat.index()]
                .iter()
                .rposition(|&p| p == card.profession)
            {
                // The card completed this chapter; the later placements of
                // the profession were undone before it.
                self.completed[seat.index()].remove(at);
                self.halls[seat.index()][card.profession.index()] = 0b1_1111 & !bit(card.colour);
            }
            self.hands[seat.index()].push(HandCard::Open(index));
        }
        self.pending = None;
    }

    /// Find `from` in `seat`'s hand and check the claimed card against the
    /// opened one (for a dealt slot) or the public one.
    pub(crate) fn check_hand_card(
        &self,
        seat: Seat,
        from: HandCard,
        claimed: u32,
        opened: Option<u32>,
    ) -> Result<(usize, Card), E> {
        let card = card_of(claimed)?;
        let at = self.hands[seat.index()]
            .iter()
            .position(|&h| h == from)
            .ok_or(match from {
                HandCard::Dealt(handle) => E::HandleNotHeld { seat, handle },
                HandCard::Open(_) => E::CardNotHeld {
                    seat,
                    claimed: card,
                },
            })?;
        let held = match from {
            HandCard::Dealt(_) => opened.ok_or(E::CardNotRevealed)?,
            // The card is in the slot's name: a claim of any other is false.
            HandCard::Open(open) => open,
        };
        if held != claimed {
            return Err(E::CardNotHeld {
                seat,
                claimed: card,
            });
        }
        Ok((at, card))
    }

    /// Whether the step `pending` can be done in full for `seat` from here.
    /// Steps that place hand cards are judged by the hand's size (the cards
    /// are private; the seat's own legal list checks them by identity).
    pub(crate) fn completable(&self, seat: Seat, depth: u8) -> bool {
        let Some(pending) = self.pending else {
            return true;
        };
        match pending {
            Pending::Place { left, then_return } => placements_possible(
                self.hands[seat.index()].len() as u32,
                self.hall_count(seat),
                left,
                then_return,
            ),
            Pending::Discarding | Pending::Pay { .. } | Pending::VpAbility(_) => true,
            // The one-target steps are counted, not searched: taking a card
            // never makes another target of the same kind impossible.
            Pending::Return { left } => self.hall_count(seat) >= u32::from(left),
            // Enough distinct cards to take settles it at once: taking one
            // never makes another illegal. Short of that, a card taken may
            // complete a chapter, which turns face down and makes its
            // colours legal again, so the steps themselves are tried.
            Pending::Search { left } if self.searchable_kinds(seat) >= usize::from(left) => true,
            Pending::Swap { with, left } => (0..self.seats).map(Seat).any(|o| {
                if o == seat || with.is_some_and(|w| w != o) {
                    return false;
                }
                let mut swaps = self.valid_swaps(seat, o);
                if left <= 1 {
                    return swaps.next().is_some();
                }
                swaps.any(|(m, t)| {
                    self.try_on_copy(|next| {
                        next.apply_step(
                            seat,
                            &Action::Swap {
                                mine: m.index(),
                                seat: o,
                                theirs: t.index(),
                            },
                        )
                        .is_ok()
                            && next.valid_swaps(seat, o).next().is_some()
                    })
                })
            }),
            Pending::Assassinate {
                victim,
                left,
                distinct,
                hit,
            } => (0..self.seats).map(Seat).any(|o| {
                o != seat
                    && victim.is_none_or(|v| v == o)
                    && assassin_can_finish(self.halls[o.index()], left, distinct, hit)
            }),
            _ => {
                if depth == 0 {
                    return true;
                }
                let mut steps = Vec::new();
                self.step_actions(seat, &mut steps);
                steps.iter().any(|step| {
                    self.try_on_copy(|next| {
                        next.apply_step(seat, step).is_ok() && next.completable(seat, depth - 1)
                    })
                })
            }
        }
    }

    /// Distinct cards of the discard pile `seat`'s guildhall could take.
    pub(crate) fn searchable_kinds(&self, seat: Seat) -> usize {
        let mut kinds = [false; 30];
        for &c in &self.discard {
            if let Some(card) = Card::from_index(c)
                && !self.holds(seat, card)
            {
                kinds[c as usize] = true;
            }
        }
        kinds.iter().filter(|&&k| k).count()
    }

    /// The targeted steps of the pending ability (not hand placements),
    /// without checking that the rest stays possible.
    pub(crate) fn step_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        let opponents = (0..self.seats).map(Seat).filter(|&s| s != seat);
        let mine = self.hall_cards(seat);
        match self.pending {
            Some(Pending::Assassinate {
                victim,
                distinct,
                hit,
                ..
            }) => {
                for o in opponents.filter(|&o| victim.is_none_or(|v| v == o)) {
                    for card in self.hall_cards(o) {
                        if distinct && hit & (1 << card.profession.index()) != 0 {
                            continue;
                        }
                        out.push(Action::Assassinate {
                            seat: o,
                            card: card.index(),
                        });
                    }
                }
            }
            Some(Pending::Search { .. }) => {
                let mut seen = [false; 30];
                for &c in &self.discard {
                    if let Some(card) = Card::from_index(c)
                        && !seen[c as usize]
                        && !self.holds(seat, card)
                    {
                        seen[c as usize] = true;
                        out.push(Action::Search { card: c });
                    }
                }
            }
            Some(Pending::Swap { with, .. }) => self.swap_steps(seat, with, |_, _, _| true, out),
            Some(Pending::SwapChapter) => {
                // Mine, then seat, then theirs: the order actions sort by.
                for pm in PROFESSIONS {
                    for o in opponents.clone() {
                        for pt in PROFESSIONS {
                            let action = Action::SwapChapter {
                                mine: pm,
                                seat: o,
                                theirs: pt,
                            };
                            if self.check_swap_chapter(seat, o, pm, pt).is_ok() {
                                out.push(action);
                            }
                        }
                    }
                }
            }
            Some(Pending::Return { .. }) => {
                out.extend(mine.map(|c| Action::Return { card: c.index() }));
            }
            _ => {}
        }
    }

    /// A Trader's swaps of `seat`'s cards with `with` (or any opponent)
    /// that leave no duplicate and that `keep` (given the two cards and the
    /// opponent) keeps. Card, then seat, then card: the order actions sort
    /// by, so the list (hundreds long) comes sorted. A card both hold swaps
    /// only for its twin, any other card of mine for any of theirs I do not
    /// hold.
    pub(crate) fn swap_steps(
        &self,
        seat: Seat,
        with: Option<Seat>,
        mut keep: impl FnMut(Card, Seat, Card) -> bool,
        out: &mut Vec<Action>,
    ) {
        let my_bits = hall_bits(self.halls[seat.index()]);
        let opponents = (0..self.seats)
            .map(Seat)
            .filter(|&o| o != seat && with.is_none_or(|w| w == o));
        for m in cards_of(my_bits) {
            let m_bit = 1u32 << m.index();
            for o in opponents.clone() {
                let their_bits = hall_bits(self.halls[o.index()]);
                let targets = if their_bits & m_bit != 0 {
                    m_bit
                } else {
                    their_bits & !my_bits
                };
                for t in cards_of(targets) {
                    if keep(m, o, t) {
                        out.push(Action::Swap {
                            mine: m.index(),
                            seat: o,
                            theirs: t.index(),
                        });
                    }
                }
            }
        }
    }

    /// Every swap of one card of `seat`'s guildhall for one of `other`'s
    /// that leaves no duplicate on either side.
    pub(crate) fn valid_swaps(
        &self,
        seat: Seat,
        other: Seat,
    ) -> impl Iterator<Item = (Card, Card)> + '_ {
        let theirs = self.hall_cards(other);
        self.hall_cards(seat).flat_map(move |m| {
            theirs
                .clone()
                .filter(move |&t| t == m || (!self.holds(seat, t) && !self.holds(other, m)))
                .map(move |t| (m, t))
        })
    }

    pub(crate) fn check_swap_chapter(
        &self,
        seat: Seat,
        other: Seat,
        mine: Profession,
        theirs: Profession,
    ) -> Result<(), E> {
        self.opponent(seat, other)?;
        let my = self.halls[seat.index()];
        let their = self.halls[other.index()];
        if my[mine.index()] == 0 {
            return Err(E::EmptyChapter {
                seat,
                profession: mine,
            });
        }
        if their[theirs.index()] == 0 {
            return Err(E::EmptyChapter {
                seat: other,
                profession: theirs,
            });
        }
        let mut my_after = my;
        my_after[mine.index()] = 0;
        let mut their_after = their;
        their_after[theirs.index()] = 0;
        let clash_mine = my_after[theirs.index()] & their[theirs.index()];
        let clash_theirs = their_after[mine.index()] & my[mine.index()];
        if let Some((s, p, m)) = [(seat, theirs, clash_mine), (other, mine, clash_theirs)]
            .into_iter()
            .find(|(_, _, m)| *m != 0)
        {
            let colour = COLOURS[m.trailing_zeros() as usize];
            return Err(E::Duplicate {
                seat: s,
                card: Card {
                    profession: p,
                    colour,
                },
            });
        }
        Ok(())
    }

    fn add_chapter(&mut self, seat: Seat, profession: Profession, mask: u8) {
        for colour in COLOURS {
            if mask & bit(colour) != 0 {
                // Checked free of duplicates by the caller.
                let _ = self.add_to_hall(seat, Card { profession, colour });
            }
        }
    }

    /// Apply one step of a pending ability (targets in guildhalls and the
    /// discard pile; hand placements go through `place_from_hand`).
    pub(crate) fn apply_step(&mut self, seat: Seat, action: &Action) -> Result<(), E> {
        let pending = self.pending.ok_or(E::WrongStep("an ability step"))?;
        match (pending, *action) {
            (
                Pending::Assassinate {
                    victim,
                    left,
                    distinct,
                    hit,
                },
                Action::Assassinate { seat: o, card },
            ) => {
                self.opponent(seat, o)?;
                if victim.is_some_and(|v| v != o) {
                    return Err(E::OneOpponentOnly(victim.unwrap_or(o)));
                }
                let card = card_of(card)?;
                if distinct && hit & (1 << card.profession.index()) != 0 {
                    return Err(E::SameChapter);
                }
                self.remove_from_hall(o, card)?;
                self.discard.push(card.index());
                self.pending = (left > 1).then_some(Pending::Assassinate {
                    victim: Some(o),
                    left: left - 1,
                    distinct,
                    hit: hit | (1 << card.profession.index()),
                });
            }
            (Pending::Search { left }, Action::Search { card }) => {
                let c = card_of(card)?;
                let at = self
                    .discard
                    .iter()
                    .rposition(|&d| d == card)
                    .ok_or(E::NotInDiscard(c))?;
                if self.holds(seat, c) {
                    return Err(E::Duplicate { seat, card: c });
                }
                self.discard.remove(at);
                self.add_to_hall(seat, c)?;
                self.pending = (left > 1).then_some(Pending::Search { left: left - 1 });
            }
            (
                Pending::Swap { with, left },
                Action::Swap {
                    mine,
                    seat: o,
                    theirs,
                },
            ) => {
                self.opponent(seat, o)?;
                if with.is_some_and(|w| w != o) {
                    return Err(E::OneOpponentOnly(with.unwrap_or(o)));
                }
                let (m, t) = (card_of(mine)?, card_of(theirs)?);
                if !self.holds(seat, m) {
                    return Err(E::NotInGuildhall { seat, card: m });
                }
                if !self.holds(o, t) {
                    return Err(E::NotInGuildhall { seat: o, card: t });
                }
                if m != t {
                    if self.holds(seat, t) {
                        return Err(E::Duplicate { seat, card: t });
                    }
                    if self.holds(o, m) {
                        return Err(E::Duplicate { seat: o, card: m });
                    }
                    self.remove_from_hall(seat, m)?;
                    self.remove_from_hall(o, t)?;
                    self.add_to_hall(seat, t)?;
                    self.add_to_hall(o, m)?;
                }
                self.pending = (left > 1).then_some(Pending::Swap {
                    with: Some(o),
                    left: left - 1,
                });
            }
            (
                Pending::SwapChapter,
                Action::SwapChapter {
                    mine,
                    seat: o,
                    theirs,
                },
            ) => {
                self.check_swap_chapter(seat, o, mine, theirs)?;
                let my_mask = self.halls[seat.index()][mine.index()];
                let their_mask = self.halls[o.index()][theirs.index()];
                self.halls[seat.index()][mine.index()] = 0;
                self.halls[o.index()][theirs.index()] = 0;
                self.add_chapter(seat, theirs, their_mask);
                self.add_chapter(o, mine, my_mask);
                self.pending = None;
            }
            (Pending::Return { left }, Action::Return { card }) => {
                let c = card_of(card)?;
                self.remove_from_hall(seat, c)?;
                self.hands[seat.index()].push(HandCard::Open(card));
                self.pending = (left > 1).then_some(Pending::Return { left: left - 1 });
            }
            (Pending::VpAbility(kind), action) => {
                let ability = VP_TABLE[usize::from(kind)].ability;
                self.apply_vp_ability(seat, ability, &action)?;
            }
            _ => return Err(E::WrongStep("this action at this step")),
        }
        Ok(())
    }

    fn apply_vp_ability(
        &mut self,
        seat: Seat,
        ability: VpAbility,
        action: &Action,
    ) -> Result<(), E> {
        match (ability, *action) {
            (_, Action::Skip) => self.pending = None,
            (VpAbility::PlaceAny, Action::Use) => {
                self.pending = Some(Pending::Place {
                    left: None,
                    then_return: 0,
                });
            }
            (VpAbility::DrawFive, Action::Use) => {
                self.owed[seat.index()] += 5;
                self.pending = None;
            }
            (VpAbility::ExtraActions(n), Action::Use) => {
                self.actions_left += n;
                self.pending = None;
            }
            (
                VpAbility::MoveChapter,
                Action::MoveChapter {
                    seat: o,
                    profession,
                },
            ) => {
                self.opponent(seat, o)?;
                let mask = self.halls[o.index()][profession.index()];
                if mask == 0 {
                    return Err(E::EmptyChapter {
                        seat: o,
                        profession,
                    });
                }
                let clash = self.halls[seat.index()][profession.index()] & mask;
                if clash != 0 {
                    return Err(E::Duplicate {
                        seat,
                        card: Card {
                            profession,
                            colour: COLOURS[clash.trailing_zeros() as usize],
                        },
                    });
                }
                self.halls[o.index()][profession.index()] = 0;
                self.add_chapter(seat, profession, mask);
                self.pending = None;
            }
            (VpAbility::TakeCard, Action::Take { seat: o, card }) => {
                self.opponent(seat, o)?;
                let c = card_of(card)?;
                if !self.holds(o, c) {
                    return Err(E::NotInGuildhall { seat: o, card: c });
                }
                if self.holds(seat, c) {
                    return Err(E::Duplicate { seat, card: c });
                }
                self.remove_from_hall(o, c)?;
                self.add_to_hall(seat, c)?;
                self.pending = None;
            }
            (
                VpAbility::SwapOneForTwo,
                Action::SwapOneForTwo {
                    mine,
                    seat: o,
                    first,
                    second,
                },
            ) => {
                let (m, a, b) = (card_of(mine)?, card_of(first)?, card_of(second)?);
                self.check_swap_one_for_two(seat, o, m, a, b)?;
                self.remove_from_hall(seat, m)?;
                self.remove_from_hall(o, a)?;
                self.remove_from_hall(o, b)?;
                self.add_to_hall(seat, a)?;
                self.add_to_hall(seat, b)?;
                self.add_to_hall(o, m)?;
                self.pending = None;
            }
            _ => return Err(E::WrongStep("this action for the VP card's ability")),
        }
        Ok(())
    }

    /// Whether `seat` may swap its card `m` for `o`'s cards `a` and `b`
    /// (VP card 3-a). Once this passes, none of the swap's moves can fail
    /// (each card is held where it is taken from, and no side ends with a
    /// duplicate); the legal list's masks list what this accepts (held in
    /// lockstep by a proptest).
    fn check_swap_one_for_two(
        &self,
        seat: Seat,
        o: Seat,
        m: Card,
        a: Card,
        b: Card,
    ) -> Result<(), E> {
        self.opponent(seat, o)?;
        if !self.holds(seat, m) {
            return Err(E::NotInGuildhall { seat, card: m });
        }
        for t in [a, b] {
            if !self.holds(o, t) {
                return Err(E::NotInGuildhall { seat: o, card: t });
            }
            if t != m && self.holds(seat, t) {
                return Err(E::Duplicate { seat, card: t });
            }
        }
        if a == b {
            return Err(E::Duplicate { seat, card: a });
        }
        if m != a && m != b && self.holds(o, m) {
            return Err(E::Duplicate { seat: o, card: m });
        }
        Ok(())
    }

    /// The VP-ability actions open to `seat` now (skip included), in the
    /// order actions sort by and without repeats: the list (hundreds long
    /// for VP card 3-a) is born sorted.
    pub(crate) fn vp_ability_actions(&self, seat: Seat, kind: u8, out: &mut Vec<Action>) {
        let ability = VP_TABLE[usize::from(kind)].ability;
        if let VpAbility::PlaceAny | VpAbility::DrawFive | VpAbility::ExtraActions(_) = ability {
            out.push(Action::Use);
        }
        out.push(Action::Skip);
        let opponents = (0..self.seats).map(Seat).filter(move |&s| s != seat);
        let my_bits = hall_bits(self.halls[seat.index()]);
        match ability {
            VpAbility::None
            | VpAbility::PlaceAny
            | VpAbility::DrawFive
            | VpAbility::ExtraActions(_) => {}
            VpAbility::MoveChapter => {
                for o in opponents {
                    for p in PROFESSIONS {
                        let mask = self.halls[o.index()][p.index()];
                        if mask != 0 && self.halls[seat.index()][p.index()] & mask == 0 {
                            out.push(Action::MoveChapter {
                                seat: o,
                                profession: p,
                            });
                        }
                    }
                }
            }
            VpAbility::TakeCard => {
                for o in opponents {
                    let takeable = hall_bits(self.halls[o.index()]) & !my_bits;
                    out.extend(cards_of(takeable).map(|c| Action::Take {
                        seat: o,
                        card: c.index(),
                    }));
                }
            }
            VpAbility::SwapOneForTwo => {
                for m in self.hall_cards(seat) {
                    for o in opponents.clone() {
                        self.one_for_two_swaps(seat, o, m, out);
                    }
                }
            }
        }
    }

    /// Every swap of `seat`'s card `m` for two of `o`'s (VP card 3-a) that
    /// [`Guildhall::check_swap_one_for_two`] accepts, the pair in catalog
    /// order, listed from the guildhalls' masks instead of asking the check
    /// of every pair: `seat` may take a card it does not hold, or `m`'s twin
    /// (it gives `m` away), and if `o` holds `m`'s twin, the twin must be
    /// one of the two or `o` would hold `m` twice.
    fn one_for_two_swaps(&self, seat: Seat, o: Seat, m: Card, out: &mut Vec<Action>) {
        let m_bit = 1u32 << m.index();
        let their_bits = hall_bits(self.halls[o.index()]);
        let takeable = their_bits & (!hall_bits(self.halls[seat.index()]) | m_bit);
        let mut push = |first: Card, second: Card| {
            out.push(Action::SwapOneForTwo {
                mine: m.index(),
                seat: o,
                first: first.index(),
                second: second.index(),
            });
        };
        if their_bits & m_bit != 0 {
            for other in cards_of(takeable & !m_bit) {
                if other.index() < m.index() {
                    push(other, m);
                } else {
                    push(m, other);
                }
            }
        } else {
            for first in cards_of(takeable) {
                let above = takeable & !((2u32 << first.index()) - 1);
                for second in cards_of(above) {
                    push(first, second);
                }
            }
        }
    }

    /// The start of the next seat's turn, or the end of the game.
    pub(crate) fn end_turn(&mut self) {
        let seat = self.turn;
        for card in std::mem::take(&mut self.area) {
            match card {
                AreaCard::Vp(kind) => self.vp_cards[seat.index()].push(kind),
                AreaCard::Profession(c) => {
                    if let Some(card) = Card::from_index(c)
                        && self.add_to_hall(seat, card).is_err()
                    {
                        // A duplicate is discarded instead.
                        self.discard.push(c);
                    }
                }
            }
        }
        let exhausted = self.row.is_empty() && self.vp_left.iter().all(|&n| n == 0);
        let last_round = seat.0 + 1 == self.seats && self.round >= self.options.max_rounds;
        if self.vp(seat) >= TARGET_VP || exhausted || last_round {
            self.phase = Phase::Over;
            return;
        }
        self.turn = seat.next(self.seats);
        if self.turn == Seat(0) {
            self.round += 1;
        }
        self.actions_left = 2;
        self.played = 0;
        self.turn_started = true;
    }

    /// The handle a deal would give next, for the request.
    pub(crate) fn next_handle(&self) -> Option<CardHandle> {
        self.deck.and_then(|d| d.next_handle())
    }
}

#[cfg(test)]
pub(crate) mod tests;
