//! The search bot's playouts take the engine's playout path
//! (`Game::apply_legal_action`, `Game::apply_sampled_chance`: no second
//! check, no events). That path must reach the states the checked path
//! reaches, so a search decides exactly as it would through the checked
//! methods. `Checked` is Port Royal with its playout path taken away (the
//! trait's defaults, which go through `apply_action` and `apply_chance`);
//! the same seeded searches over both must make the same decisions.

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_bots::{Bot, Budget, RandomBot, SearchBot};
use roundtable_engine::{
    ChanceOutcome, Determinize, Game, GameResult, Knowledge, Next, Observer, ParseError, Seat,
    SetupError, sim,
};
use roundtable_port_royal::{Options, PortRoyal};
use serde::{Serialize, Serializer};

/// Port Royal through its checked methods only.
#[derive(Clone, Debug)]
struct Checked(PortRoyal);

impl Serialize for Checked {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl Game for Checked {
    const NAME: &'static str = PortRoyal::NAME;
    const MIN_SEATS: u8 = PortRoyal::MIN_SEATS;
    const MAX_SEATS: u8 = PortRoyal::MAX_SEATS;
    type Options = <PortRoyal as Game>::Options;
    type Action = <PortRoyal as Game>::Action;
    type Event = <PortRoyal as Game>::Event;
    type View = <PortRoyal as Game>::View;
    type Error = <PortRoyal as Game>::Error;

    fn new_game(seats: u8, options: &Self::Options) -> Result<Self, SetupError> {
        PortRoyal::new_game(seats, options).map(Checked)
    }

    fn next(&self) -> Next<'_> {
        self.0.next()
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Self::Action>) {
        self.0.legal_actions(seat, out);
    }

    fn apply_action(
        &mut self,
        seat: Seat,
        action: &Self::Action,
        events: &mut Vec<Self::Event>,
    ) -> Result<(), Self::Error> {
        self.0.apply_action(seat, action, events)
    }

    fn apply_chance(
        &mut self,
        outcome: &ChanceOutcome,
        events: &mut Vec<Self::Event>,
    ) -> Result<(), Self::Error> {
        self.0.apply_chance(outcome, events)
    }

    fn view(&self, observer: Observer) -> Self::View {
        self.0.view(observer)
    }

    fn standing(&self) -> GameResult {
        self.0.standing()
    }

    fn parse_action(text: &str) -> Result<Self::Action, ParseError> {
        PortRoyal::parse_action(text)
    }

    fn parse_outcome(&self, text: &str) -> Result<ChanceOutcome, ParseError> {
        self.0.parse_outcome(text)
    }

    fn outcome_name(&self, outcome: &ChanceOutcome) -> String {
        self.0.outcome_name(outcome)
    }
}

impl Determinize for Checked {
    fn sample_hidden(
        &self,
        seat: Seat,
        knowledge: &Knowledge,
        uniform: &mut dyn FnMut(u64) -> u64,
    ) -> Knowledge {
        self.0.sample_hidden(seat, knowledge, uniform)
    }
}

/// Every decision with a real choice in a seeded random game of `seats`.
fn positions(seats: u8, seed: u64) -> Vec<(Seat, PortRoyal)> {
    let mut game = PortRoyal::new_game(seats, &Options::default()).expect("valid seats");
    let mut chance = ChaCha20Rng::seed_from_u64(seed);
    let mut choices = ChaCha20Rng::seed_from_u64(seed + 1);
    let mut out = Vec::new();
    sim::play(
        &mut game,
        100_000,
        &mut |n| sim::uniform_below(n, &mut || chance.next_u64()),
        &mut |seat, state: &PortRoyal, legal| {
            if legal.len() > 1 {
                out.push((seat, state.clone()));
            }
            (choices.next_u64() % legal.len() as u64) as usize
        },
        &mut |_| {},
    )
    .expect("a random game ends");
    out
}

#[test]
fn playouts_on_the_fast_path_decide_as_the_checked_path_does() {
    let mut compared = 0;
    for (seats, seed) in [(2u8, 1u64), (4, 2), (5, 3)] {
        // Every seventh position: early, middle and late in the game.
        for (i, (seat, state)) in positions(seats, seed).into_iter().enumerate() {
            if !i.is_multiple_of(7) {
                continue;
            }
            let legal = state.legal_actions_vec(seat);
            let bot_seed = seed * 1000 + i as u64;
            let mut fast = SearchBot::<PortRoyal, _>::new(
                Budget::playouts(40),
                RandomBot::new(bot_seed),
                bot_seed,
            );
            let mut checked = SearchBot::<Checked, _>::new(
                Budget::playouts(40),
                RandomBot::new(bot_seed),
                bot_seed,
            );
            let fast_pick = fast.choose_in(seat, &state, &Knowledge::new(), &legal);
            let checked_pick =
                checked.choose_in(seat, &Checked(state.clone()), &Knowledge::new(), &legal);
            assert_eq!(
                fast_pick, checked_pick,
                "{seats} seats, position {i}: the fast path chose {:?}, the checked path {:?}",
                legal[fast_pick], legal[checked_pick]
            );
            assert_eq!(fast.stats().failed, 0);
            assert_eq!(checked.stats().failed, 0);
            compared += 1;
        }
    }
    assert!(compared > 10, "only {compared} positions compared");
}
