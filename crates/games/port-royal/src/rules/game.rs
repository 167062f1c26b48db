//! The [`Game`] impl: the engine contract over the rules, with the playout
//! fast paths (`apply_legal_action`, `apply_sampled_chance`,
//! `apply_random_chance`) that skip the second check and the events.

use roundtable_engine::{
    ChanceOutcome, ChanceRequest, Deck, FaceDown, Game, GameResult, Next, Observer, ParseError,
    Seat, SetupError, Standing,
};

use super::player::Player;
use super::queue::EffectQueue;
use super::{Phase, PortRoyal, STARTING_COINS, TradeStage, Unrecorded, Wait, wait_purpose};
use crate::Options;
use crate::action::{Action, TakeMode};
use crate::catalog::{CardId, CardKind, deck_counts};
use crate::contracts::{ContractId, contract_pile};
use crate::error::RuleViolation;
use crate::event::Event;
use crate::view::View;

impl Game for PortRoyal {
    const NAME: &'static str = "port-royal";
    const MIN_SEATS: u8 = 2;
    const MAX_SEATS: u8 = 5;

    type Options = Options;
    type Action = Action;
    type Event = Event;
    type View = View;
    type Error = RuleViolation;

    fn new_game(seats: u8, options: &Options) -> Result<Self, SetupError> {
        SetupError::check_seats::<Self>(seats)?;
        options.validate()?;
        let counts = deck_counts(options.expansion);
        let catalog_len = counts.len();
        let mut deck = Deck::new(counts);
        let mut players = vec![Player::default(); usize::from(seats)];
        for p in &mut players {
            for _ in 0..STARTING_COINS {
                if let Some(epoch) = deck.draw_face_down() {
                    p.coins.add(epoch, 1);
                }
            }
        }
        let expeditions = if seats == 5 {
            CardId::all()
                .filter(|c| {
                    matches!(
                        c.kind(),
                        CardKind::Expedition {
                            five_players: true,
                            ..
                        }
                    )
                })
                .collect()
        } else {
            Vec::new()
        };
        Ok(PortRoyal {
            options: options.clone(),
            seats,
            deck,
            discard_known: vec![0; catalog_len],
            discard_known_total: 0,
            discard_unseen: FaceDown::default(),
            harbor: Vec::new(),
            expeditions,
            players,
            start: Seat(0),
            active: Seat(0),
            turn: 0,
            phase: Phase::Setup,
            effects: EffectQueue::default(),
            waiting: Some(Wait::StartPlayer),
            end_triggered: false,
            idle_turns: 0,
            contracts: Vec::new(),
            contract_pile: if options.expansion {
                contract_pile()
            } else {
                Vec::new()
            },
        })
    }

    // Inlined into the driver's loop: it returns a large enum the loop
    // matches on at once, once an input in a playout.
    #[inline]
    fn next(&self) -> Next<'_> {
        if let Some(wait) = self.waiting {
            return Next::Chance(ChanceRequest {
                purpose: wait_purpose(wait),
                distribution: self.chance_distribution(wait),
            });
        }
        match self.decider() {
            Some(seat) => Next::Decision(seat),
            None => Next::Over,
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        if self.decider() != Some(seat) {
            return;
        }
        // Positions in ascending order, visiting only the claimable ones.
        // Inlined: as a closure it was a call at every decision.
        #[inline(always)]
        fn claims(game: &PortRoyal, seat: Seat, out: &mut Vec<Action>) {
            let mut set = game.claimable(seat);
            while set != 0 {
                out.push(Action::Claim(set.trailing_zeros() as u8));
                set &= set - 1;
            }
        }
        match self.phase {
            Phase::Discover {
                pending_ship: Some(_),
                ..
            } => {
                out.push(Action::Repel);
                out.push(Action::Keep);
            }
            Phase::Discover { drawn, .. } => {
                let can_draw = self.can_draw();
                if can_draw {
                    out.push(Action::Draw);
                }
                if drawn || !can_draw {
                    out.push(Action::Stop);
                }
                claims(self, seat, out);
            }
            Phase::Trade {
                stage: TradeStage::Choosing { takes_left },
                ..
            } => {
                claims(self, seat, out);
                let purse = self.purse(seat);
                if takes_left > 0 && self.options.expansion {
                    for (i, c) in self.harbor.iter().enumerate() {
                        if purse.affords(*c) {
                            self.expansion_takes(seat, i as u8, *c, out);
                        }
                    }
                } else if takes_left > 0 {
                    for (i, c) in self.harbor.iter().enumerate() {
                        if purse.affords(*c) {
                            out.push(Action::Take(i as u8, TakeMode::Normal));
                        }
                    }
                }
                out.push(Action::Pass);
            }
            _ => {}
        }
    }

    fn apply_action(
        &mut self,
        seat: Seat,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleViolation> {
        self.check_action(seat, *action)?;
        self.perform(seat, *action, events);
        self.run(events);
        Ok(())
    }

    fn apply_chance(
        &mut self,
        outcome: &ChanceOutcome,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleViolation> {
        let wait = self.check_outcome(outcome)?;
        self.resolve_outcome(wait, outcome, events);
        Ok(())
    }

    /// Playouts skip the check of the action and its events; a debug build
    /// still checks it, so a caller that passes an unlisted action fails
    /// its tests.
    fn apply_legal_action(
        &mut self,
        seat: Seat,
        action: &Action,
        _scratch: &mut Vec<Event>,
    ) -> Result<(), RuleViolation> {
        debug_assert_eq!(self.check_action(seat, *action), Ok(()));
        self.perform(seat, *action, &mut Unrecorded);
        self.run(&mut Unrecorded);
        Ok(())
    }

    /// Playouts skip the check of the outcome against the distribution and
    /// its events (a debug build still checks it); that a chance outcome is
    /// pending at all is still checked, as it costs nothing.
    fn apply_sampled_chance(
        &mut self,
        outcome: &ChanceOutcome,
        _scratch: &mut Vec<Event>,
    ) -> Result<(), RuleViolation> {
        debug_assert_eq!(self.check_outcome(outcome).map(|_| ()), Ok(()));
        let wait = self.waiting.ok_or(RuleViolation::NoChancePending)?;
        self.resolve_outcome(wait, outcome, &mut Unrecorded);
        Ok(())
    }

    /// The card revealed from the draw pile or a spent coin is sampled
    /// straight from its epoch's unseen cards; the start player and the
    /// face-up contracts (five draws a game) take the general path.
    #[inline]
    fn apply_random_chance(
        &mut self,
        uniform: &mut impl FnMut(u64) -> u64,
        outcome: &mut ChanceOutcome,
        scratch: &mut Vec<Event>,
    ) -> Option<Result<(), RuleViolation>> {
        let (epoch, top) = match self.waiting? {
            Wait::RevealTop => (self.deck.draw_epoch(), true),
            Wait::RevealSpent(epoch) => (epoch, false),
            Wait::StartPlayer | Wait::Contract => {
                return roundtable_engine::sim::apply_next_chance(self, uniform, outcome, scratch);
            }
        };
        let card = self.deck.sample_held(epoch, uniform);
        self.waiting = None;
        if top {
            self.top_revealed(card, &mut Unrecorded);
        } else {
            self.spent_revealed(epoch, card, &mut Unrecorded);
        }
        self.run(&mut Unrecorded);
        Some(Ok(()))
    }

    fn view(&self, observer: Observer) -> View {
        View::of(self, observer)
    }

    /// Most victory points, then most coins (with "expedition required",
    /// players with an expedition first); tied players share the place.
    fn standing(&self) -> GameResult {
        let standings = self
            .seats_from(Seat(0))
            .map(|seat| {
                let key = self.rank_key(seat);
                let better = self
                    .seats_from(Seat(0))
                    .filter(|&o| self.rank_key(o) > key)
                    .count();
                let p = self.player(seat);
                Standing {
                    seat,
                    rank: better as u8,
                    score: i64::from(p.vp()),
                    tie_break: i64::from(p.coins()),
                }
            })
            .collect();
        GameResult { standings }
    }

    /// A forfeited seat takes nothing and risks nothing: it passes, stops as
    /// soon as it may, keeps a ship it could repel (repelling would be a
    /// choice), and draws only when it must.
    fn zombie_action(&self, seat: Seat) -> Option<Action> {
        let mut legal = Vec::new();
        self.legal_actions(seat, &mut legal);
        [Action::Pass, Action::Stop, Action::Keep, Action::Draw]
            .into_iter()
            .find(|a| legal.contains(a))
            .or_else(|| legal.first().copied())
    }

    fn parse_action(text: &str) -> Result<Action, ParseError> {
        Action::parse(text)
    }

    fn parse_outcome(&self, text: &str) -> Result<ChanceOutcome, ParseError> {
        let text = text.trim();
        if let Some(n) = text.strip_prefix("seat:") {
            let seat = n
                .parse::<u64>()
                .ok()
                .and_then(|n| n.checked_sub(1))
                .ok_or_else(|| ParseError::new(text, "seats count from 1"))?;
            return Ok(ChanceOutcome::Index(seat));
        }
        // Contracts and cards are rows of two different tables, so the same
        // index means a contract while contracts are laid out and a card
        // otherwise: a name of the other kind is refused here rather than
        // read as the wrong thing.
        let laying_out = self.waiting == Some(Wait::Contract);
        if text.starts_with("contract:") {
            let contract = ContractId::parse(text)
                .ok_or_else(|| ParseError::new(text, "not a contract name"))?;
            if !laying_out {
                return Err(ParseError::new(
                    text,
                    "a contract, but the game does not wait for a contract",
                ));
            }
            return Ok(ChanceOutcome::Cards(vec![u32::from(contract.0)]));
        }
        let card = CardId::parse(text)
            .ok_or_else(|| ParseError::new(text, "not a card name, contract:NAME or seat:N"))?;
        if laying_out {
            return Err(ParseError::new(
                text,
                "a card, but the game waits for a face-up contract",
            ));
        }
        Ok(ChanceOutcome::Cards(vec![u32::from(card.0)]))
    }

    fn outcome_name(&self, outcome: &ChanceOutcome) -> String {
        match outcome {
            ChanceOutcome::Index(i) => format!("seat:{}", i + 1),
            ChanceOutcome::Cards(cards) if self.waiting == Some(Wait::Contract) => cards
                .iter()
                .map(|&c| {
                    ContractId::from_index(c).map_or_else(|| format!("contract#{c}"), |c| c.name())
                })
                .collect::<Vec<_>>()
                .join(","),
            ChanceOutcome::Cards(cards) => cards
                .iter()
                .map(|&c| CardId::from_index(c).map_or_else(|| format!("card#{c}"), |c| c.name()))
                .collect::<Vec<_>>()
                .join(","),
        }
    }
}
