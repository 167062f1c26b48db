//! Writes the scenarios that pin the round limit (`ROUND_LIMIT`): a real
//! two-seat game, too long to write by hand, recorded as scenario TOML.
//!
//! Chance comes from a seeded ChaCha20 stream through the engine's sampler.
//! Seat 1 hires the first person it can while it has fewer than
//! `HIRE_UNTIL_VP` victory points; otherwise both seats play as a forfeited
//! seat does (`Game::zombie_action`: pass, stop as soon as allowed, keep,
//! draw only when it must). With the target at the top of the allowed range
//! nobody reaches it, so only the round limit can end the game, and the
//! ranking shows victory points before coins.
//!
//! ```sh
//! cargo run -p roundtable-port-royal --example round_limit_scenario -- last-round \
//!     > tests/scenarios/port-royal/end/round-limit-round-is-the-last-round.toml
//! cargo run -p roundtable-port-royal --example round_limit_scenario -- ends \
//!     > tests/scenarios/port-royal/end/round-limit-ends-the-game-ranked-as-usual.toml
//! ```

use std::fmt::Write as _;

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use roundtable_engine::{Game, Next, Observer, Seat, sim};
use roundtable_port_royal::{
    Action, CardKind, Event, Options, PortRoyal, ROUND_LIMIT, TakeMode, VICTORY_POINTS,
};

/// Seats at the table.
const SEATS: u8 = 2;
/// The chance stream's seed.
const SEED: u64 = 11;
/// Seat 1 hires until it has this many victory points.
const HIRE_UNTIL_VP: u32 = 3;

/// Which scenario to write.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cut {
    /// Up to the first decision of the limit's round.
    LastRound,
    /// The whole game, and one step after it that must be refused.
    Ends,
}

/// The inputs of one turn, as scenario text.
#[derive(Default)]
struct Turn {
    chance: Vec<String>,
    steps: Vec<String>,
}

fn choose(game: &PortRoyal, seat: Seat, legal: &[Action]) -> Action {
    let view = game.view(Observer::Seat(seat));
    if seat == Seat(0) && view.players[0].vp < HIRE_UNTIL_VP {
        let hire = legal.iter().find(|a| match a {
            Action::Take(i, TakeMode::Normal) => view
                .harbor
                .get(usize::from(*i))
                .is_some_and(|c| matches!(c.0.kind(), CardKind::Person { .. })),
            _ => false,
        });
        if let Some(&a) = hire {
            return a;
        }
    }
    game.zombie_action(seat).unwrap_or(legal[0])
}

fn main() {
    let cut = match std::env::args().nth(1).as_deref() {
        Some("last-round") => Cut::LastRound,
        Some("ends") => Cut::Ends,
        _ => {
            eprintln!("usage: round_limit_scenario last-round|ends");
            std::process::exit(2);
        }
    };
    let options = Options {
        victory_points: *VICTORY_POINTS.end(),
        ..Options::default()
    };
    let mut game = match PortRoyal::new_game(SEATS, &options) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let mut chance = ChaCha20Rng::seed_from_u64(SEED);
    // Index 0 holds the start player's chance, before turn 1.
    let mut turns: Vec<Turn> = vec![Turn::default()];
    let mut events = Vec::new();
    let mut legal = Vec::new();
    let mut ended_by_limit = false;
    loop {
        events.clear();
        match game.next() {
            Next::Over => break,
            Next::Simultaneous(_) | Next::Private(_) => {
                unreachable!("Port Royal has no simultaneous choices or private cards")
            }
            Next::Chance(request) => {
                let outcome = sim::sample(&request.distribution, &mut |n| {
                    sim::uniform_below(n, &mut || chance.next_u64())
                });
                let name = game.outcome_name(&outcome);
                if let Err(e) = game.apply_chance(&outcome, &mut events) {
                    panic!("the rules refused their own chance outcome {name}: {e}");
                }
                if let Some(t) = turns.last_mut() {
                    t.chance.push(format!("\"{name}\""));
                }
            }
            Next::Decision(seat) => {
                let view = game.view(Observer::Spectator);
                if cut == Cut::LastRound && view.round == ROUND_LIMIT {
                    break;
                }
                game.legal_actions(seat, &mut legal);
                let action = choose(&game, seat, &legal);
                if let Err(e) = game.apply_action(seat, &action, &mut events) {
                    panic!("the rules refused their own offer {action}: {e}");
                }
                if let Some(t) = turns.last_mut() {
                    t.steps.push(format!("\"{}: {action}\"", seat.number()));
                }
            }
        }
        for e in &events {
            match e {
                Event::TurnStarted { .. } => turns.push(Turn::default()),
                Event::EndTriggered { .. } => panic!("someone reached the target: pick a seed"),
                Event::RoundLimitReached { .. } => ended_by_limit = true,
                _ => {}
            }
        }
    }
    let view = game.view(Observer::Spectator);
    if cut == Cut::Ends {
        assert!(ended_by_limit, "the game did not end by the round limit");
        if let Some(t) = turns.last_mut() {
            t.steps
                .push(format!("\"{}: draw\"", view.active.0.number()));
        }
    }
    print!("{}", scenario(cut, &options, &turns, &view));
}

fn scenario(
    cut: Cut,
    options: &Options,
    turns: &[Turn],
    view: &roundtable_port_royal::View,
) -> String {
    let mut out = String::new();
    let rounds = ROUND_LIMIT;
    match cut {
        Cut::LastRound => {
            let _ = writeln!(
                out,
                "# Round limit: round {rounds} is the last round even though nobody has the \
                 victory points, and the game is still on when it begins."
            );
        }
        Cut::Ends => {
            let _ = writeln!(
                out,
                "# Round limit: the game ends at the end of round {rounds} although nobody \
                 reached the victory points, ranked as usual (victory points before coins); \
                 and an action after it is refused."
            );
        }
    }
    let _ = writeln!(
        out,
        "# The project's rule, not the printed game's (crates/games/port-royal/src/lib.rs)."
    );
    let (arg, file) = match cut {
        Cut::LastRound => ("last-round", "round-limit-round-is-the-last-round"),
        Cut::Ends => ("ends", "round-limit-ends-the-game-ranked-as-usual"),
    };
    let _ = writeln!(
        out,
        "# Generated from a real game, seed {SEED}: seat 1 hires until it has {HIRE_UNTIL_VP} VP, \
         else both play as forfeited seats do. Regenerate with\n\
         # cargo run -p roundtable-port-royal --example round_limit_scenario -- {arg} \
         > tests/scenarios/port-royal/end/{file}.toml"
    );
    let _ = writeln!(out, "game = \"port-royal\"");
    let _ = writeln!(out, "seats = {SEATS}");
    let _ = writeln!(
        out,
        "options = {{ victory_points = {} }}",
        options.victory_points
    );
    let _ = writeln!(out, "chance = [");
    for (i, t) in turns.iter().enumerate() {
        if !t.chance.is_empty() {
            let _ = writeln!(out, "  {},  # {}", t.chance.join(", "), turn_name(i));
        }
    }
    let _ = writeln!(out, "]");
    let _ = writeln!(out, "steps = [");
    let mut step = 0;
    for (i, t) in turns.iter().enumerate() {
        if !t.steps.is_empty() {
            let _ = writeln!(out, "  {},  # {}", t.steps.join(", "), turn_name(i));
            step += t.steps.len();
        }
    }
    let _ = writeln!(out, "]");
    let _ = writeln!(out);
    let _ = writeln!(out, "[expect]");
    if cut == Cut::Ends {
        let _ = writeln!(
            out,
            "refused = {{ step = {}, rule = \"game-over\" }}",
            step - 1
        );
    }
    let list = |f: &dyn Fn(&roundtable_port_royal::PlayerView) -> u32| {
        view.players
            .iter()
            .map(|p| f(p).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(out, "phase = \"{}\"", view.phase);
    let _ = writeln!(out, "turn = {}", view.turn);
    let _ = writeln!(out, "round = {}", view.round);
    let _ = writeln!(out, "round_limit = {}", view.round_limit);
    let _ = writeln!(out, "last_round = {}", view.last_round);
    let _ = writeln!(out, "vp = [{}]", list(&|p| p.vp));
    let _ = writeln!(out, "coins = [{}]", list(&|p| p.coins));
    let winners: Vec<String> = view
        .winners
        .iter()
        .map(|w| w.0.number().to_string())
        .collect();
    let _ = writeln!(out, "winners = [{}]", winners.join(", "));
    out
}

/// How a group of inputs is labelled: the start player's draw, or a turn and
/// its round.
fn turn_name(turn: usize) -> String {
    if turn == 0 {
        return "start player".into();
    }
    let round = turn.div_ceil(usize::from(SEATS));
    format!("turn {turn}, round {round}")
}
