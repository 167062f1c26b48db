//! Guildhall (AEG 2012, "Old World Economy"), for 2 to 4 seats: the catalog
//! as data ([`catalog`]) and the rules.
//!
//! The online table's rules page is the authority; the card abilities come
//! from the card data the project gathered from unofficial sources
//! (`docs/RULES.md` names both).
//!
//! # Reconstructions
//!
//! Where the card data has a gap, this crate follows the labelled
//! RECONSTRUCTION of the card data. Each is one data entry or one named
//! rule, pinned by the scenario (`tests/scenarios/guildhall/`) or test named,
//! so the printed value can replace it later:
//!
//! * **Ability texts** are the hobbyist paraphrases (JN), implemented as
//!   given: one scenario per printed level (`assassin-level-*`,
//!   `dancer-level-*`, `farmer-level-*`, `historian-level-*`,
//!   `trader-level-*`, `weaver-level-*`). Cards placed by an ability do not
//!   use their own abilities (GHF9).
//! * **Trader 4**: any non-empty chapter of yours for any non-empty chapter of
//!   one opponent, of any professions; received cards merge into the
//!   receiver's chapter of that profession; the swap is refused if either
//!   side would hold a duplicate; a merge that reaches five colours
//!   completes at once (`trader-level-4-swaps-chapters`,
//!   `trader-level-4-duplicate-refused`).
//! * **Trader 0/2**: any card for any card, no profession restriction; both
//!   swaps of level 2 are with the same opponent (`trader-level-0-swap`,
//!   `trader-level-2-two-swaps`, `trader-level-2-one-opponent-refused`).
//! * **Historian 0 on a duplicate**: the ability does nothing; nobody digs
//!   deeper (`historian-level-0-duplicate-does-nothing`).
//! * **The 7 VP card gives +2 actions** (two sources against one): the single
//!   entry `VpAbility::ExtraActions(2)` in [`VP_TABLE`] (test
//!   `reconstructed_vp_entries`; buying one needs two completed chapters).
//! * **"Another player"** for the VP cards 2, 3-a and 4-c: one opponent;
//!   completed chapters are immune; every move follows the duplicate rules
//!   (`vp-2-moves-a-chapter`, `vp-2-empty-chapter-refused`,
//!   `vp-3a-swaps-one-for-two`, `vp-4c-takes-a-card`,
//!   `vp-ability-wrong-target-refused`).
//! * **The VP deck runs out**: the centre row shrinks and is not refilled
//!   (test `an_empty_vp_deck_leaves_the_row_shorter`).
//! * **VP card counts per kind** (3 of each, 6 fives) come from one source
//!   (JN); the 2–3 player deck removes two 5s and one of every other kind
//!   (tests `the_deck_holds_120_profession_cards_and_30_vp_cards`,
//!   `reconstructed_vp_entries`).

//! # Decisions of this implementation
//!
//! * **The game always ends.** It ends at the end of a turn in which the
//!   active seat has 20 VP or more (the rules), or when the centre row and
//!   the VP deck are both empty (no VP card is left to buy; then the seat
//!   with the most VP wins, completed chapters breaking ties), or after
//!   [`Options::max_rounds`] rounds (default 100; random games end by VP in
//!   about 22). The rules give no end for an empty VP deck: with no VP card
//!   left to buy, play could only go round for ever. Pinned by the
//!   scenarios `rounds-limit-ends-the-game` and `act-after-the-end-refused`,
//!   the tests `twenty_vp_end_the_game_at_the_end_of_the_turn`,
//!   `no_vp_card_left_ends_the_game_at_the_end_of_the_turn` and
//!   `a_vp_card_left_keeps_the_game_going` (emptying the VP deck in a
//!   scenario would take 24 completed chapters), and the property that
//!   every random game ends.
//! * **Ties** cannot arise by 20 VP (only the active seat gains VP); when the
//!   game ends otherwise, the most VP wins, then the most completed
//!   chapters, and seats still equal share the win.
//! * **Yucata's three changes are options, on by default**: the centre row
//!   is refilled after paying ([`Options::refill_after_paying`]), chapters
//!   beyond the third are shed at the start of the holder's next turn
//!   ([`Options::late_chapter_cap`]; off: at once, by that seat's decision
//!   even in another seat's turn), and a discarded chapter's order is chosen
//!   ([`Options::choose_chapter_order`]). Pinned by
//!   `refill-before-paying-without-yucata-1`, the scenarios
//!   `chapter-cap-sheds-at-the-next-turn` and
//!   `chapter-cap-sheds-at-once-without-yucata-2` (and the tests
//!   `a_fourth_chapter_is_shed_at_the_start_of_the_next_turn` and
//!   `without_yucatas_change_a_fourth_chapter_is_shed_at_once`, where the
//!   cap falls in another seat's turn), and
//!   `pay-order-must-be-chosen` / `pay-order-fixed-without-yucata-3`.
//! * **A discarded chapter's order is chosen card by card** ("the player can
//!   rearrange the cards of a completed chapter he has to discard"): `pay`
//!   and `shed` name all five colours from the top of the discard pile down
//!   ([`ChapterOrder`]), so a Historian at level 0 takes the first and the
//!   next one the second (`chapter-discarded-in-the-order-chosen`). Every
//!   one of the 120 orders is a legal action.
//! * **Searching the discard pile takes the topmost copy** of the card
//!   named, so the rest of the pile keeps its order.
//! * **Abilities are chosen step by step**: `play` names the level, then each
//!   step its target. A level is accepted only if its whole effect can still
//!   be done from the public state, and every step only if the rest can
//!   (rule `ability-incomplete`), so a level is never done in part. Steps
//!   that place hand cards are judged from the hand's size (the cards are
//!   private); a seat's own legal list checks its actual cards.
//! * **Whether a level can be done is decided by its steps**: where counting
//!   targets is not enough (a Historian at level 4 whose first card
//!   completes a chapter, which turns face down and makes its colours legal
//!   again), the check tries the steps themselves, so it offers exactly the
//!   levels some sequence of steps completes
//!   (`historian-level-4-completion-frees-the-second`, the proptest
//!   `historian_levels_are_offered_iff_their_steps_complete_them` over any
//!   guildhall and discard pile, and the property
//!   `historian_levels_offered_iff_steps_complete_them` over random games).
//! * **Identical cards swap between hand and guildhall at Weaver 2 and 4**
//!   (rules, "Duplicates"): a placed card the guildhall already holds goes
//!   over its twin, and the twin goes back to the hand at once, open, as one
//!   of the level's returns; the guildhall is unchanged
//!   (`weaver-level-2-swaps-identical-cards`,
//!   `weaver-level-4-swaps-identical-cards`). Where a level has no returns
//!   (Weaver 0, VP 3-b, the set-up) a duplicate is refused.
//! * **A Weaver level can always be given up.** The level is named when the
//!   card is played, before the hand is shown, so the engine can judge it
//!   only by the hand's size: a seat may name a level whose placements its
//!   hidden hand cannot make (cards that duplicate its guildhall). The rules
//!   let a seat use no effect at all but never part of one, so `stop` during
//!   a fixed number of placements gives the whole level up: the cards it
//!   placed go back to the hand (open, since everyone saw them), a chapter
//!   one of them completed opens again, and the played card stays in the
//!   action area with no effect, as if played at `level none`. It is always
//!   listed, so the seat to move always has a legal action (pinned by the
//!   scenarios `weaver-give-up-*` and the property
//!   `the_seat_to_move_always_has_a_legal_action`). Every other step is
//!   judged from public cards and refused (`ability-incomplete`) unless the
//!   rest of the level stays possible.
//! * **With the cap at once** (`late_chapter_cap` off), chapters beyond the
//!   third are shed when the ability step under way is finished, not in the
//!   middle of it (so giving a Weaver level up can undo what it completed).
//! * **Every refusal names its rule** ([`GuildhallError`]'s `rule()`): a
//!   card the seat does not hold (`handle-not-held`, `card-not-held`), a
//!   level it does not have (`level-not-available`), a duplicate
//!   (`duplicate`), a target not allowed (`not-an-opponent`,
//!   `not-in-guildhall`, `one-opponent-only`, `same-chapter`,
//!   `empty-chapter`, `not-in-discard`), one card per profession per turn
//!   (`one-per-profession`), buying without chapters
//!   (`not-enough-chapters`, `no-completed-chapter`), a level that cannot be
//!   done in full (`ability-incomplete`), and the wrong moment
//!   (`not-your-turn`, `wrong-step`, `game-over`); each has a scenario.
//! * **Completed chapters are face down** (rules: "turn them all face down
//!   in a stack"; the card data, public information: their number, not
//!   their professions). A view names a seat's completed chapters only to
//!   that seat ([`View::completed`]) and gives every seat's count
//!   ([`View::completed_count`]). The professions are not secret from a
//!   peer's memory: each chapter was complete and face up in its guildhall
//!   for everyone to see, as at a real table, and paying lays it face up on
//!   the discard pile.
//! * **A gone seat has no move where only its hand could move it.** The
//!   default zombie move (the first legal action from the public state) is
//!   kept: at a set-up placement every legal move names a card of the seat's
//!   hand, which the state knows only as handles, so there is none. A real
//!   move there would need the hand's cards: a stalled seat's are known to
//!   nobody, and a resigned seat's only to the tables that opened them from
//!   its released key, which `Game::zombie_action` (the state alone) cannot
//!   see. The table ends the game abandoned there instead, the gone seat
//!   last (protocol/SPEC.md 3.6, "Gone seats").
//! * **Hands are private** through the engine's contract: the deck is dealt
//!   with `PrivateRequest::Deal`, the discard pile reshuffled with
//!   `PrivateRequest::Reshuffle` (the first deck too), and a card played,
//!   placed or discarded from the hand is named with its slot and checked
//!   against the opened card. A card taken back from a guildhall to a hand
//!   stays known to everyone ([`HandCard::Open`]).
//!
//! # Layout
//!
//! This file holds the [`Game`] impl, events and views; `state.rs` the state
//! and its small moves, `rules.rs` the turn's actions and the legal-action
//! helpers, `judge.rs` the legal lists' judgements made without a copy of
//! the state, `action.rs` the actions' text form, `determinize.rs` the
//! guess at hidden cards.

pub mod catalog;

pub use catalog::{
    CARD_KINDS, COLOURS, Card, Colour, PROFESSION_TABLE, PROFESSIONS, Profession, ProfessionSpec,
    VP_TABLE, VpAbility, VpSpec, profession_deck, vp_deck, vp_kind,
};
mod action;
mod determinize;
mod error;
mod judge;
mod rules;
#[cfg(feature = "scenario")]
pub mod scenario;
mod state;

use roundtable_engine::{
    ChanceOutcome, DeckSlots, Distribution, Game, GameResult, Knowledge, Next, Observer,
    ParseError, PrivateError, PrivateRequest, Revealed, Seat, SetupError,
};
use serde::{Deserialize, Serialize};

pub use action::{Action, ChapterOrder, HandCard, chapter_order};
pub use error::GuildhallError;
pub use state::{
    AreaCard, CHAPTER_CAP, Guildhall, Options, Pending, Phase, REFILL_HAND, ROW_SIZE, SETUP_HAND,
    SETUP_PLACE, TARGET_VP,
};

use error::GuildhallError as E;
use state::card_of;

/// Something that happened, for the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// The discard pile (or, first, the whole deck) became a new deck.
    Shuffled {
        /// Cards in it.
        cards: u32,
    },
    /// Slots were dealt to a seat.
    Dealt {
        /// The receiving seat.
        seat: Seat,
        /// How many.
        count: u32,
    },
    /// VP cards came into the centre row.
    RowFilled(Vec<u8>),
    /// A seat's decision, as taken.
    Acted {
        /// Who.
        seat: Seat,
        /// What.
        action: Action,
    },
    /// A turn ended with the seat's VP.
    TurnEnded {
        /// Whose turn.
        seat: Seat,
        /// Its VP.
        vp: u32,
    },
}

/// What one observer may know.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// Seats at the table.
    pub seats: u8,
    /// The seat that decides now, if a decision is due.
    pub deciding: Option<Seat>,
    /// Whose turn it is.
    pub turn: Seat,
    /// Where the game stands.
    pub phase: Phase,
    /// The step under way.
    pub pending: Option<Pending>,
    /// Actions left this turn.
    pub actions_left: u8,
    /// The round, from 1.
    pub round: u32,
    /// Cards left in the deck.
    pub deck_left: u32,
    /// The discard pile, bottom first (its top is public; the rest was seen
    /// going down).
    pub discard: Vec<u32>,
    /// The centre row (VP card kinds).
    pub row: Vec<u8>,
    /// VP cards left in the VP deck.
    pub vp_deck_left: u32,
    /// Every guildhall: per profession, the colours held (bit = colour).
    pub halls: Vec<[u8; 6]>,
    /// Completed chapters by profession, per seat, as far as the observer may
    /// see them: a completed chapter lies face down (rules, "Completed
    /// Chapters"; only their number is public), so only the observer's own
    /// are listed and every other seat's entry is empty. Use
    /// [`View::completed_count`] for how many each seat holds.
    pub completed: Vec<Vec<catalog::Profession>>,
    /// How many completed chapters each seat holds (public).
    pub completed_count: Vec<u32>,
    /// The turn seat's action area.
    pub area: Vec<AreaCard>,
    /// Every seat's VP cards.
    pub vp_cards: Vec<Vec<u8>>,
    /// Every seat's VP tokens.
    pub tokens: Vec<u32>,
    /// Every seat's VP.
    pub vp: Vec<u32>,
    /// Every hand: dealt slots and the cards everyone knows.
    pub hands: Vec<Vec<HandCard>>,
    /// The observer's own hand with the cards it knows; empty for a spectator.
    pub my_hand: Vec<(HandCard, Option<u32>)>,
}

impl Game for Guildhall {
    const NAME: &'static str = "guildhall";
    const MIN_SEATS: u8 = 2;
    const MAX_SEATS: u8 = 4;

    type Options = Options;
    type Action = Action;
    type Event = Event;
    type View = View;
    type Error = GuildhallError;

    fn new_game(seats: u8, options: &Options) -> Result<Self, SetupError> {
        SetupError::check_seats::<Self>(seats)?;
        if options.max_rounds == 0 {
            return Err(SetupError::Option {
                name: "max_rounds".into(),
                reason: "must be at least 1".into(),
            });
        }
        let n = usize::from(seats);
        let mut game = Guildhall {
            seats,
            options: options.clone(),
            deck: None,
            discard: profession_deck(),
            hands: vec![Vec::new(); n],
            owed: vec![SETUP_HAND; n],
            halls: vec![[0; 6]; n],
            completed: vec![Vec::new(); n],
            area: Vec::new(),
            vp_cards: vec![Vec::new(); n],
            tokens: vec![0; n],
            row: Vec::new(),
            vp_left: vp_deck(seats),
            row_owed: ROW_SIZE,
            turn: Seat(0),
            actions_left: 2,
            played: 0,
            turn_started: true,
            round: 1,
            phase: Phase::SetupDiscard(Seat(0)),
            pending: None,
            placed_by_ability: Vec::new(),
        };
        game.settle(&mut Vec::new());
        Ok(game)
    }

    fn next(&self) -> Next<'_> {
        if self.phase == Phase::Over {
            return Next::Over;
        }
        if let Some(i) = self.owed.iter().position(|&n| n > 0) {
            let to = Seat(i as u8);
            return match self.next_handle() {
                Some(first) => Next::Private(PrivateRequest::Deal {
                    to,
                    first,
                    count: self.owed[i].min(self.deck_left()),
                }),
                None => Next::Private(PrivateRequest::Reshuffle {
                    pile: &self.discard,
                    epoch: self.next_epoch(),
                }),
            };
        }
        if self.row_owed > 0 {
            let left: u32 = self.vp_left.iter().sum();
            return Next::Chance(roundtable_engine::ChanceRequest {
                purpose: "fill the centre row",
                distribution: Distribution::Multiset {
                    counts: &self.vp_left,
                    total: left,
                    take: self.row_owed.min(left),
                    blocks: &[],
                },
            });
        }
        match self.decider() {
            Some(seat) => Next::Decision(seat),
            None => Next::Over,
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        self.legal_actions_with(seat, &Knowledge::new(), out);
    }

    fn legal_actions_with(&self, seat: Seat, knowledge: &Knowledge, out: &mut Vec<Action>) {
        out.clear();
        if self.decider() != Some(seat) {
            return;
        }
        if self.shedding_seat() == Some(seat) {
            self.chapter_actions(seat, out, true);
            debug_assert!(
                out.is_sorted_by(|a, b| a < b),
                "chapter actions come sorted"
            );
            return;
        }
        let hand = self.known_hand(seat, knowledge);
        let opened = |from: HandCard, card: u32| match from {
            HandCard::Dealt(_) => Some(card),
            HandCard::Open(_) => None,
        };
        match (self.phase, self.pending) {
            (Phase::SetupDiscard(_), _) | (Phase::Turn, Some(Pending::Discarding)) => {
                out.extend(hand.map(|(from, card)| Action::Discard { from, card }));
                out.push(Action::Draw);
            }
            (Phase::SetupPlace(..), _) => {
                out.extend(
                    hand.filter(|&(_, c)| {
                        Card::from_index(c).is_some_and(|c| !self.holds(seat, c))
                    })
                    .map(|(from, card)| Action::Place { from, card }),
                );
            }
            (Phase::Turn, Some(Pending::Place { left, then_return })) => {
                for (from, card) in hand {
                    let action = Action::Place { from, card };
                    if self.keeps_finishable(seat, &action, opened(from, card), knowledge) {
                        out.push(action);
                    }
                }
                // `stop` ends "any number" of placements, or gives up a
                // fixed number (always possible: see the crate docs).
                if left.is_some() || self.keeps_finishable(seat, &Action::Stop, None, knowledge) {
                    let _ = then_return;
                    out.push(Action::Stop);
                }
            }
            (Phase::Turn, Some(Pending::Pay { .. })) => self.chapter_actions(seat, out, false),
            (Phase::Turn, Some(Pending::VpAbility(kind))) => {
                self.vp_ability_actions(seat, kind, out)
            }
            (Phase::Turn, Some(Pending::Swap { .. })) if self.judged_swap_steps(seat, out) => {}
            (Phase::Turn, Some(_)) => {
                // Listed into `out` and judged there: no second list.
                self.step_actions(seat, out);
                out.retain(|a| {
                    self.step_keeps_finishable(seat, a)
                        .unwrap_or_else(|| self.keeps_finishable(seat, a, None, knowledge))
                });
            }
            (Phase::Turn, None) if self.actions_left > 0 => {
                for (from, card) in hand {
                    let Some(c) = Card::from_index(card) else {
                        continue;
                    };
                    if self.holds(seat, c) || self.played & (1 << c.profession.index()) != 0 {
                        continue;
                    }
                    out.push(Action::Play {
                        from,
                        card,
                        level: None,
                    });
                    let has = self.chapter_size(seat, c.profession);
                    for &level in c.profession.thresholds().iter().filter(|&&l| l <= has) {
                        let action = Action::Play {
                            from,
                            card,
                            level: Some(level),
                        };
                        let keeps = self
                            .play_keeps_finishable(seat, from, c, level, knowledge)
                            .unwrap_or_else(|| {
                                self.keeps_finishable(seat, &action, opened(from, card), knowledge)
                            });
                        if keeps {
                            out.push(action);
                        }
                    }
                }
                out.push(Action::Refill);
                let has = self.completed[seat.index()].len() as u32;
                out.extend(
                    (0..VP_TABLE.len() as u8)
                        .filter(|kind| self.row.contains(kind))
                        .filter(|&kind| VP_TABLE[usize::from(kind)].chapters <= has)
                        .map(|kind| Action::Buy { kind }),
                );
            }
            _ => {}
        }
        // Every list is built in the order actions sort by (the hand's
        // cards in hand order, then what follows them in that order), so
        // it comes sorted and without repeats unless the hand's own order
        // does not: open cards taken back in any order, or two open copies
        // of one card. The Historian's list follows the discard pile.
        let born_sorted = match (self.phase, self.pending) {
            (Phase::Turn, Some(Pending::Search { .. })) => false,
            (
                Phase::Turn,
                Some(
                    Pending::Assassinate { .. }
                    | Pending::Swap { .. }
                    | Pending::SwapChapter
                    | Pending::Return { .. }
                    | Pending::Pay { .. }
                    | Pending::VpAbility(_),
                ),
            ) => true,
            _ => self.hands[seat.index()].is_sorted_by(|a, b| a < b),
        };
        if born_sorted {
            debug_assert!(out.is_sorted_by(|a, b| a < b), "born sorted: {out:?}");
        } else {
            out.sort();
            out.dedup();
        }
    }

    fn apply_action(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), GuildhallError> {
        self.apply_checked(seat, action, &[], events)
    }

    fn apply_action_revealing(
        &mut self,
        seat: Seat,
        action: &Action,
        revealed: &[Revealed],
        events: &mut Vec<Event>,
    ) -> Result<(), PrivateError<GuildhallError>> {
        Ok(self.apply_checked(seat, action, revealed, events)?)
    }

    fn claims(action: &Action) -> Vec<Revealed> {
        match *action {
            Action::Play {
                from: HandCard::Dealt(handle),
                card,
                ..
            }
            | Action::Discard {
                from: HandCard::Dealt(handle),
                card,
            }
            | Action::Place {
                from: HandCard::Dealt(handle),
                card,
            } => vec![Revealed { handle, card }],
            _ => Vec::new(),
        }
    }

    fn apply_chance(
        &mut self,
        outcome: &ChanceOutcome,
        events: &mut Vec<Event>,
    ) -> Result<(), GuildhallError> {
        let Next::Chance(request) = self.next() else {
            return Err(E::BadOutcome);
        };
        if !request.distribution.admits(outcome) {
            return Err(E::BadOutcome);
        }
        let ChanceOutcome::Cards(kinds) = outcome else {
            return Err(E::BadOutcome);
        };
        let kinds: Vec<u8> = kinds.iter().map(|&k| k as u8).collect();
        for &k in &kinds {
            self.vp_left[usize::from(k)] -= 1;
            self.row.push(k);
        }
        self.row_owed = 0;
        events.push(Event::RowFilled(kinds));
        self.settle(events);
        Ok(())
    }

    fn apply_deal(&mut self, events: &mut Vec<Event>) -> Result<(), PrivateError<GuildhallError>> {
        let Next::Private(PrivateRequest::Deal { to, first, count }) = self.next() else {
            return Err(E::NotPending("deal").into());
        };
        let handles = DeckSlots::deal(&mut self.deck, first, count).map(HandCard::Dealt);
        self.hands[to.index()].extend(handles);
        self.owed[to.index()] -= count;
        events.push(Event::Dealt { seat: to, count });
        self.settle(events);
        Ok(())
    }

    fn apply_reshuffle(
        &mut self,
        events: &mut Vec<Event>,
    ) -> Result<(), PrivateError<GuildhallError>> {
        let Next::Private(PrivateRequest::Reshuffle { epoch, .. }) = self.next() else {
            return Err(E::NotPending("reshuffle").into());
        };
        let size = self.discard.len() as u32;
        self.discard.clear();
        self.deck = Some(DeckSlots::shuffled(epoch, size));
        events.push(Event::Shuffled { cards: size });
        self.settle(events);
        Ok(())
    }

    fn apply_reveal(
        &mut self,
        _cards: &[Revealed],
        _events: &mut Vec<Event>,
    ) -> Result<(), PrivateError<GuildhallError>> {
        Err(E::NotPending("reveal").into())
    }

    fn view(&self, observer: Observer) -> View {
        self.view_with(observer, &Knowledge::new())
    }

    fn view_with(&self, observer: Observer, knowledge: &Knowledge) -> View {
        let my_hand = match observer {
            Observer::Spectator => Vec::new(),
            Observer::Seat(seat) => self
                .hands
                .get(seat.index())
                .into_iter()
                .flatten()
                .map(|&h| match h {
                    HandCard::Dealt(handle) => (h, knowledge.card(handle)),
                    HandCard::Open(c) => (h, Some(c)),
                })
                .collect(),
        };
        View {
            seats: self.seats,
            deciding: self.decider(),
            turn: self.turn,
            phase: self.phase,
            pending: self.pending,
            actions_left: self.actions_left,
            round: self.round,
            deck_left: self.deck_left(),
            discard: self.discard.clone(),
            row: self.row.clone(),
            vp_deck_left: self.vp_left.iter().sum(),
            halls: self.halls.clone(),
            completed: (0..self.seats)
                .map(|s| {
                    if observer == Observer::Seat(Seat(s)) {
                        self.completed[usize::from(s)].clone()
                    } else {
                        Vec::new()
                    }
                })
                .collect(),
            completed_count: self.completed.iter().map(|c| c.len() as u32).collect(),
            area: self.area.clone(),
            vp_cards: self.vp_cards.clone(),
            tokens: self.tokens.clone(),
            vp: (0..self.seats).map(|s| self.vp(Seat(s))).collect(),
            hands: self.hands.clone(),
            my_hand,
        }
    }

    fn standing(&self) -> GameResult {
        let scores: Vec<(i64, i64)> = (0..self.seats)
            .map(|s| {
                (
                    i64::from(self.vp(Seat(s))),
                    self.completed[usize::from(s)].len() as i64,
                )
            })
            .collect();
        GameResult::from_scores(&scores)
    }

    fn parse_action(text: &str) -> Result<Action, ParseError> {
        Action::parse(text)
    }

    fn parse_outcome(&self, text: &str) -> Result<ChanceOutcome, ParseError> {
        text.split_whitespace()
            .map(|w| {
                vp_kind(w)
                    .map(u32::from)
                    .ok_or_else(|| ParseError::new(text, format!("{w:?} is not a VP card kind")))
            })
            .collect::<Result<Vec<u32>, ParseError>>()
            .map(ChanceOutcome::Cards)
    }

    fn outcome_name(&self, outcome: &ChanceOutcome) -> String {
        match outcome {
            ChanceOutcome::Cards(kinds) => kinds
                .iter()
                .map(|&k| VP_TABLE.get(k as usize).map_or("?", |v| v.name))
                .collect::<Vec<_>>()
                .join(" "),
            ChanceOutcome::Index(i) => i.to_string(),
        }
    }
}

/// Where card `index` of the catalog is, for messages.
pub fn card_name(index: u32) -> String {
    card_of(index).map_or_else(|e| e.to_string(), |c| c.to_string())
}
