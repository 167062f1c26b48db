//! A heuristic bot that joins by ticket is made before it knows the table
//! (as `roundtable join --headless --bot heuristic` makes it), yet plays by
//! the table's options: it is told them before its first decision, and in
//! an expansion game to 5 victory points every one of its moves is the move
//! of a bot made for exactly those options.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use roundtable_bots::{Bot, PortRoyalBot, RandomBot};
use roundtable_engine::Seat;
use roundtable_engine::{Game, Observer};
use roundtable_net::{Controller, DataDir, NodeConfig, Outcome, Role, Timing, spawn};
use roundtable_port_royal::{Action, Options, PortRoyal, View};
use roundtable_table::transcript::Frame;
use roundtable_table::{Config, Record, Table};

use crate::common;

fn config(dir: &std::path::Path, name: &str) -> NodeConfig {
    let mut c = NodeConfig::new(DataDir::new(dir.join(name)), name);
    c.listen = vec!["/ip4/127.0.0.1/tcp/0".parse().unwrap()];
    c.mdns = false;
    c.timing = Timing {
        bot_delay: Duration::from_millis(5),
        sync_interval: Duration::from_millis(200),
        redial: Duration::from_millis(500),
        ..Timing::default()
    };
    c
}

/// The heuristic bot the command line makes, and a note of which options
/// it had been told when it made its first decision.
struct Noted {
    bot: PortRoyalBot,
    told: Option<Options>,
    at_first_decision: Arc<Mutex<Option<Option<Options>>>>,
}

impl Bot<PortRoyal> for Noted {
    fn name(&self) -> &'static str {
        self.bot.name()
    }

    fn choose(&mut self, seat: Seat, view: &View, legal: &[Action]) -> usize {
        self.at_first_decision
            .lock()
            .unwrap()
            .get_or_insert_with(|| self.told.clone());
        self.bot.choose(seat, view, legal)
    }

    fn table_options(&mut self, options: &Options) {
        self.told = Some(options.clone());
        self.bot.table_options(options);
    }
}

async fn outcome(handle: roundtable_net::GameHandle<PortRoyal>) -> Outcome {
    let (mut events, handle) = handle.split();
    while events.recv().await.is_some() {}
    handle.outcome().await.unwrap()
}

/// A 2-seat network game of `options` at a table with `stall_timeout_ms`,
/// the host's seat played by `host` and the joiner's by `joiner`, to its
/// end: the joiner's outcome.
async fn two_seat_game(
    dir: &std::path::Path,
    options: Options,
    stall_timeout_ms: u64,
    host: Controller<PortRoyal>,
    joiner: Controller<PortRoyal>,
) -> Outcome {
    let mut host = spawn::<PortRoyal>(
        config(dir, "host"),
        Role::Host {
            seats: 2,
            options,
            stall_timeout_ms,
        },
        host,
    )
    .unwrap();
    let ticket = common::ticket_of(&mut host).await;
    let joiner = spawn::<PortRoyal>(config(dir, "joiner"), Role::Join { ticket }, joiner).unwrap();
    let host = tokio::spawn(outcome(host));
    let played = tokio::time::timeout(Duration::from_secs(120), outcome(joiner))
        .await
        .expect("the game finishes");
    host.await.unwrap();
    played
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_joining_heuristic_bot_plays_by_the_tables_options() {
    let dir = tempfile::tempdir().unwrap();
    let options = Options {
        expansion: true,
        victory_points: 5,
        ..Options::default()
    };
    let at_first_decision = Arc::new(Mutex::new(None));
    let played = two_seat_game(
        dir.path(),
        options.clone(),
        30_000,
        Controller::Bot(Box::new(RandomBot::new(5))),
        Controller::Bot(Box::new(Noted {
            bot: PortRoyalBot::default(),
            told: None,
            at_first_decision: at_first_decision.clone(),
        })),
    )
    .await;
    assert!(
        played.result.is_some(),
        "the joiner did not finish: {played:?}"
    );
    assert_eq!(
        *at_first_decision.lock().unwrap(),
        Some(Some(options.clone())),
        "what the joiner's bot knew of the table at its first decision"
    );

    // Replay the joiner's transcript and ask a bot made for the table's
    // options what it would have done at each of the joiner's decisions.
    let frames = roundtable_table::transcript::read(played.transcript.as_ref().unwrap())
        .unwrap()
        .frames;
    let genesis = roundtable_table::transcript::genesis::<PortRoyal>(&frames).unwrap();
    let joiner_seat = genesis
        .proposal
        .seats
        .iter()
        .position(|s| s.name == "joiner")
        .map(|i| roundtable_engine::Seat(i as u8))
        .expect("the joiner has a seat");
    let mut table = Table::<PortRoyal>::new(genesis, None, Config::default()).unwrap();
    for frame in &frames {
        if let Frame::Envelope(signed) = frame {
            table.handle_envelope(0, signed.clone()).unwrap();
        }
    }
    let mut reference = PortRoyalBot::new(&options);
    let mut game = PortRoyal::new_game(2, &options).unwrap();
    let mut events = Vec::new();
    let mut decisions = 0;
    for record in table.records() {
        match record {
            Record::Action { seat, action, .. } => {
                if *seat == joiner_seat {
                    let legal = game.legal_actions_vec(*seat);
                    let view = game.view(Observer::Seat(*seat));
                    let wanted = legal[reference.choose(*seat, &view, &legal)];
                    assert_eq!(
                        *action, wanted,
                        "decision {decisions}: the joiner's bot did not play by the table's options"
                    );
                    decisions += 1;
                }
                game.apply_action(*seat, action, &mut events).unwrap();
            }
            Record::Zombie { seat, action } => {
                game.apply_action(*seat, action, &mut events).unwrap()
            }
            Record::Chance { outcome, .. } => game.apply_chance(outcome, &mut events).unwrap(),
            Record::Forfeit { .. }
            | Record::Resign { .. }
            | Record::Abandon { .. }
            | Record::Private { .. } => {}
        }
    }
    assert!(decisions > 0, "the joiner never decided");
}

/// A bot that notes, at each of its decisions, the limit its driver gave
/// it for that answer (`None` if none was given since the last one).
struct Paced {
    bot: RandomBot,
    limit: Option<Duration>,
    limits: Arc<Mutex<Vec<Option<Duration>>>>,
}

impl Bot<PortRoyal> for Paced {
    fn name(&self) -> &'static str {
        "paced"
    }

    fn choose(&mut self, seat: Seat, view: &View, legal: &[Action]) -> usize {
        Bot::<PortRoyal>::choose(&mut self.bot, seat, view, legal)
    }

    fn choose_in(
        &mut self,
        seat: Seat,
        state: &PortRoyal,
        knowledge: &roundtable_engine::Knowledge,
        legal: &[Action],
    ) -> usize {
        self.limits.lock().unwrap().push(self.limit.take());
        Bot::<PortRoyal>::choose_in(&mut self.bot, seat, state, knowledge, legal)
    }

    fn answer_within(&mut self, limit: Duration) {
        self.limit = Some(limit);
    }
}

/// At a network table every answer of a bot is bounded by the table's own
/// turn clock: before each decision (a seat's many draws in a row among
/// them) the node gives the bot a quarter at most of the table's stall
/// timeout, whatever think time the bot was made with.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_at_a_network_table_answers_within_the_tables_clock() {
    let dir = tempfile::tempdir().unwrap();
    let stall_timeout_ms = 30_000;
    let options = Options {
        victory_points: 5,
        ..Options::default()
    };
    let limits = [
        Arc::new(Mutex::new(Vec::new())),
        Arc::new(Mutex::new(Vec::new())),
    ];
    let paced = |seed, limits: &Arc<Mutex<Vec<Option<Duration>>>>| {
        Controller::Bot(Box::new(Paced {
            bot: RandomBot::new(seed),
            limit: None,
            limits: limits.clone(),
        }))
    };
    let played = two_seat_game(
        dir.path(),
        options,
        stall_timeout_ms,
        paced(7, &limits[0]),
        paced(8, &limits[1]),
    )
    .await;
    assert!(
        played.result.is_some(),
        "the game did not finish: {played:?}"
    );
    let most =
        Duration::from_millis(stall_timeout_ms / u64::from(roundtable_bots::STALL_CLOCK_SHARE));
    for (node, limits) in ["host", "joiner"].iter().zip(&limits) {
        let limits = limits.lock().unwrap();
        assert!(!limits.is_empty(), "the {node}'s bot never decided");
        for (decision, limit) in limits.iter().enumerate() {
            let limit = limit.unwrap_or_else(|| panic!("{node}, decision {decision}: no limit"));
            assert!(limit <= most, "{node}, decision {decision}: {limit:?}");
            // A 30 s table leaves 7.5 s a quarter: the node's own bound, the
            // silence its peers bear, cuts it further.
            assert!(
                limit <= roundtable_net::LONGEST_BOT_ANSWER,
                "{node}, decision {decision}: {limit:?} leaves the peers unanswered too long"
            );
        }
    }
}
