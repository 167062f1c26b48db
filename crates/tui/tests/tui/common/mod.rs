//! Helpers shared by the front end's tests: hand-built snapshots (so the
//! screen tests do not change when the rules or the bots do), a seeded local
//! game, and rendering into a test backend.

#![allow(dead_code, unreachable_pub)]

use std::time::Instant;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use roundtable_engine::{Game, GameResult, Observer, Seat, Standing};
use roundtable_port_royal::{
    Action, CardId, CardKind, CardName, CoinReason, Event, Options, PlayerView, PortRoyal,
    SeatNumber, TakeMode, View,
};
use roundtable_tui::session::Chronicle;
use roundtable_tui::{
    App, Connection, LocalConfig, LocalSession, Pace, SeatInfo, SeatKind, Session, Snapshot, Theme,
};

pub fn card(name: &str) -> CardName {
    CardName(CardId::parse(name).unwrap_or_else(|| panic!("no card {name}")))
}

/// A real game's view to start from, so that fields the game crate adds
/// later need no change here.
pub fn base_view(seats: u8) -> View {
    PortRoyal::new_game(seats, &Options::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .view(Observer::Seat(Seat(0)))
}

pub fn player(coins: u32, persons: &[&str], expeditions: &[&str]) -> PlayerView {
    let persons: Vec<CardName> = persons.iter().map(|p| card(p)).collect();
    let expeditions: Vec<CardName> = expeditions.iter().map(|p| card(p)).collect();
    let mut vp = 0;
    let mut swords = 0;
    for c in persons.iter().chain(&expeditions) {
        match c.0.kind() {
            CardKind::Person { kind, vp: v, .. } => {
                vp += u32::from(v);
                swords += kind.swords();
            }
            CardKind::Expedition { vp: v, .. } => vp += u32::from(v),
            _ => {}
        }
    }
    let mut p = base_view(2).players[0].clone();
    p.coins = coins;
    p.vp = vp;
    p.swords = swords;
    p.persons = persons;
    p.expeditions = expeditions;
    p
}

pub const NAMES: [&str; 4] = ["You", "Anne Bonny", "Calico Jack", "Mary Read"];

fn seat(i: u8) -> Seat {
    Seat(i)
}

/// A 4-seat table at turn 9: your Discover, a mixed harbor, two expeditions.
pub fn table() -> Snapshot<PortRoyal> {
    let mut view = base_view(4);
    view.active = SeatNumber(seat(0));
    view.phase = "discover";
    view.turn = 9;
    view.harbor = vec![
        card("ship:yellow:1:1"),
        card("person:sailor:3:1"),
        card("ship:blue:2:3"),
        card("person:governor:8:0"),
        card("ship:black:skull:4"),
    ];
    view.expeditions = vec![
        card("expedition:anchor+anchor"),
        card("expedition:cross+cross+house"),
    ];
    view.draw_pile = 61;
    view.discard_pile = 17;
    view.players = vec![
        player(
            5,
            &[
                "person:sailor:3:1",
                "person:trader:blue:3:1",
                "person:captain:4:1",
            ],
            &[],
        ),
        player(
            9,
            &[
                "person:pirate:5:1",
                "person:admiral:7:2",
                "person:governor:8:0",
            ],
            &[],
        ),
        player(
            2,
            &["person:captain:4:1", "person:captain:4:1"],
            &["expedition:house+house"],
        ),
        player(12, &["person:mademoiselle:7:2", "person:jester:5:1"], &[]),
    ];
    view.start_player = Some(SeatNumber(seat(2)));
    let names: Vec<String> = NAMES.iter().map(|n| (*n).to_owned()).collect();
    let mut chronicle: Chronicle<PortRoyal> = Chronicle::new();
    let events = vec![
        Event::TurnStarted {
            seat: seat(3),
            turn: 8,
        },
        Event::Revealed {
            seat: seat(3),
            card: card("ship:red:1:1").0,
        },
        Event::Docked {
            card: card("ship:red:1:1").0,
        },
        Event::Revealed {
            seat: seat(3),
            card: card("ship:red:3:2").0,
        },
        Event::Bust {
            seat: seat(3),
            card: card("ship:red:3:2").0,
        },
        Event::Coins {
            seat: seat(3),
            gained: 1,
            due: 1,
            reason: CoinReason::JesterBust,
        },
        Event::TurnStarted {
            seat: seat(0),
            turn: 9,
        },
        Event::Revealed {
            seat: seat(0),
            card: card("ship:yellow:1:1").0,
        },
        Event::Docked {
            card: card("ship:yellow:1:1").0,
        },
        Event::Revealed {
            seat: seat(0),
            card: card("person:sailor:3:1").0,
        },
        Event::Revealed {
            seat: seat(0),
            card: card("ship:blue:2:3").0,
        },
        Event::Docked {
            card: card("ship:blue:2:3").0,
        },
        Event::Revealed {
            seat: seat(0),
            card: card("person:governor:8:0").0,
        },
        Event::Revealed {
            seat: seat(0),
            card: card("ship:black:skull:4").0,
        },
        Event::Docked {
            card: card("ship:black:skull:4").0,
        },
    ];
    chronicle.record(&events, &view, &names, Some(seat(0)));
    Snapshot {
        title: "Local game, seed 42".into(),
        legal: vec![Action::Draw, Action::Stop],
        me: Some(seat(0)),
        log: chronicle.log().to_vec(),
        seats: names
            .iter()
            .enumerate()
            .map(|(i, n)| SeatInfo {
                name: n.clone(),
                kind: if i == 0 { SeatKind::You } else { SeatKind::Bot },
                connection: Connection::Local,
                clock: None,
                forfeited: false,
            })
            .collect(),
        vp_by_turn: chronicle.vp_by_turn().to_vec(),
        result: None,
        ending: Default::default(),
        status: None,
        transcript: None,
        lobby: None,
        options: Options::default(),
        stall_timeout: None,
        view,
    }
}

/// You just drew a Frigate you can repel.
pub fn repel_or_keep() -> Snapshot<PortRoyal> {
    let mut s = table();
    s.view.players[0] = player(5, &["person:sailor:3:1", "person:pirate:5:1"], &[]);
    s.view.pending_ship = Some(card("ship:red:3:2"));
    s.legal = vec![Action::Repel, Action::Keep];
    s
}

/// Anne Bonny's Trade & Hire, your time to take, in the last round.
pub fn trade_not_active() -> Snapshot<PortRoyal> {
    let mut s = table();
    s.view.phase = "trade";
    s.view.active = SeatNumber(seat(1));
    s.view.taker = Some(SeatNumber(seat(0)));
    s.view.takes_left = Some(1);
    s.view.last_round = true;
    s.legal = vec![
        Action::Take(0, TakeMode::Normal),
        Action::Take(1, TakeMode::Normal),
        Action::Take(2, TakeMode::Normal),
        Action::Take(4, TakeMode::Normal),
        Action::Pass,
    ];
    s
}

/// A bot's move: nothing for you to do.
pub fn waiting() -> Snapshot<PortRoyal> {
    let mut s = table();
    s.view.active = SeatNumber(seat(2));
    s.legal = Vec::new();
    s.status = Some("Waiting for Calico Jack (bot)".into());
    s
}

/// A networked table: remote seats with connection state and clocks.
pub fn networked() -> Snapshot<PortRoyal> {
    let mut s = waiting();
    s.title = "Table 7f3a".into();
    for (i, info) in s.seats.iter_mut().enumerate().skip(1) {
        info.kind = SeatKind::Remote;
        info.connection = [
            Connection::Online,
            Connection::Reconnecting,
            Connection::Offline,
        ][i - 1];
        info.clock = Some(std::time::Duration::from_secs(95 - 20 * i as u64));
    }
    s
}

/// The game is over: Calico Jack wins, Anne Bonny beats you on coins.
pub fn game_over() -> Snapshot<PortRoyal> {
    let mut s = table();
    s.view.phase = "over";
    s.view.turn = 24;
    s.view.harbor.clear();
    s.view.players[0].coins = 3;
    s.view.players[1].coins = 7;
    s.legal = Vec::new();
    let vp = [
        [0, 0, 0, 0],
        [1, 0, 0, 1],
        [2, 1, 1, 1],
        [3, 3, 1, 2],
        [4, 5, 6, 3],
        [6, 6, 8, 4],
        [8, 8, 9, 6],
        [10, 9, 11, 7],
        [12, 12, 14, 9],
    ];
    s.vp_by_turn = vp.iter().map(|r| r.to_vec()).collect();
    for (i, p) in s.view.players.iter_mut().enumerate() {
        p.vp = vp[vp.len() - 1][i];
    }
    let standing = |i: u8, rank: u8| Standing {
        seat: seat(i),
        rank,
        score: i64::from(vp[vp.len() - 1][usize::from(i)]),
        tie_break: i64::from([3, 7, 2, 12][usize::from(i)]),
    };
    s.result = Some(GameResult {
        standings: vec![
            standing(0, 2),
            standing(1, 1),
            standing(2, 0),
            standing(3, 3),
        ],
    });
    s.view.winners = vec![SeatNumber(seat(2))];
    s.log.push(roundtable_games::words::LogLine {
        turn: 24,
        heading: false,
        text: "Game over: Calico Jack wins.".into(),
    });
    s
}

/// A local game with instant bots, so every poll leaves the table at the
/// player's move.
pub fn session(seats: u8, seed: u64, victory_points: u32) -> LocalSession<PortRoyal> {
    let config = LocalConfig {
        seats,
        seed: Some(seed),
        pace: Pace::Instant,
        ..LocalConfig::default()
    }
    .with_options::<PortRoyal>(&Options {
        victory_points,
        ..Options::default()
    });
    let mut s = LocalSession::<PortRoyal>::new(&config).unwrap_or_else(|e| panic!("{e}"));
    s.poll(Instant::now());
    s
}

/// Render `app` over `snap` at `w`x`h`.
pub fn render(
    app: &App,
    snap: Option<&Snapshot<PortRoyal>>,
    w: u16,
    h: u16,
) -> Terminal<TestBackend> {
    render_any(app, snap, w, h)
}

/// `snap` of any game drawn by `app` into a test terminal of `w` x `h`.
pub fn draw<G: roundtable_tui::GameScreen>(
    app: &App,
    snap: &Snapshot<G>,
    w: u16,
    h: u16,
) -> Terminal<TestBackend> {
    render_any(app, Some(snap), w, h)
}

fn render_any<G: roundtable_tui::GameScreen>(
    app: &App,
    snap: Option<&Snapshot<G>>,
    w: u16,
    h: u16,
) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap_or_else(|e| match e {});
    terminal
        .draw(|f| {
            roundtable_tui::ui::render(app, snap, f.area(), f.buffer_mut());
        })
        .unwrap_or_else(|e| match e {});
    terminal
}

/// An app at the table of `snap`.
pub fn table_app(snap: &Snapshot<PortRoyal>) -> App {
    let mut app = App::at_table(Theme::default());
    app.observe(snap);
    app
}

/// The screen's text, one string per row.
pub fn rows(terminal: &Terminal<TestBackend>) -> Vec<String> {
    let buf = terminal.backend().buffer();
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol().to_owned())
                .collect::<String>()
        })
        .collect()
}

pub fn screen_text(terminal: &Terminal<TestBackend>) -> String {
    rows(terminal).join("\n")
}

fn contract(
    name: &str,
    completed_by: &[u8],
    next_coins: u32,
) -> roundtable_port_royal::ContractView {
    let id = roundtable_port_royal::ContractId::parse(name)
        .unwrap_or_else(|| panic!("no contract {name}"));
    roundtable_port_royal::ContractView {
        name: name.to_owned(),
        title: id.contract().title,
        completed_by: completed_by.iter().map(|&s| SeatNumber(seat(s))).collect(),
        next_coins,
        steps: id.requirement().steps(),
        active_only: id.requirement().active_only(),
    }
}

fn progress(contract: &str, step: u8) -> roundtable_port_royal::ProgressView {
    roundtable_port_royal::ProgressView {
        contract: contract.to_owned(),
        step,
    }
}

/// A 4-seat table with "Just One More Contract": your Trade & Hire at turn
/// 11, a Frigate you may decline for Frigate Foe, a gift ship, contracts
/// completed and in progress, ships kept aside for Pack of Pirates.
pub fn expansion_table() -> Snapshot<PortRoyal> {
    let mut s = table();
    let mut view = PortRoyal::new_game(
        4,
        &Options {
            expansion: true,
            ..Options::default()
        },
    )
    .unwrap_or_else(|e| panic!("{e}"))
    .view(Observer::Seat(seat(0)));
    view.active = SeatNumber(seat(0));
    view.phase = "trade";
    view.turn = 11;
    view.taker = Some(SeatNumber(seat(0)));
    view.takes_left = Some(2);
    view.harbor = vec![
        card("ship:red:3:2"),
        card("ship:yellow:4:3:gift"),
        card("person:clerk:red:6:2"),
        card("person:gunner:4:1"),
        card("ship:green:1:1"),
    ];
    view.expeditions = vec![card("expedition:anchor+anchor")];
    view.draw_pile = 48;
    view.discard_pile = 31;
    let mut players = s.view.players.clone();
    players[0].persons.push(card("person:vice-admiral:5:1"));
    players[0].vp += 1;
    players[0].contracts = vec!["contract:jinx".into()];
    players[1].contracts = vec!["contract:jinx".into(), "contract:lady-killer".into()];
    players[1].vp += 1;
    players[2].persons.push(card("person:clerk:yellow:4:1"));
    players[2].vp += 1;
    players[3].contracts = vec!["contract:frigate-foe".into()];
    view.players = players;
    view.contracts = [
        "contract:frigate-foe",
        "contract:jinx",
        "contract:lady-killer",
        "contract:pack-of-pirates",
    ]
    .map(String::from)
    .to_vec();
    let x = view
        .expansion
        .as_mut()
        .unwrap_or_else(|| panic!("an expansion game has an expansion view"));
    x.contract_status = vec![
        contract("contract:frigate-foe", &[3], 6),
        contract("contract:jinx", &[1, 0], 1),
        contract("contract:lady-killer", &[1], 2),
        contract("contract:pack-of-pirates", &[], 3),
    ];
    x.contract_pile = 12;
    x.cubes = vec![1, 1, 2, 2];
    x.progress = vec![
        vec![progress("contract:frigate-foe", 1)],
        vec![],
        vec![progress("contract:frigate-foe", 2)],
        vec![],
    ];
    x.kept_aside = vec![
        vec![],
        vec![],
        vec![card("ship:blue:1:1"), card("ship:black:2:1")],
        vec![],
    ];
    x.contract_vp = vec![0, 1, 0, 0];
    let names = s.names();
    let mut chronicle: Chronicle<PortRoyal> = Chronicle::new();
    let c = |n: &str| {
        roundtable_port_royal::ContractId::parse(n).unwrap_or_else(|| panic!("no contract {n}"))
    };
    let events = vec![
        Event::ContractRevealed {
            contract: c("contract:frigate-foe"),
        },
        Event::TurnStarted {
            seat: seat(2),
            turn: 10,
        },
        Event::Repelled {
            seat: seat(2),
            card: card("ship:black:2:1").0,
        },
        Event::KeptAside {
            seat: seat(2),
            card: card("ship:black:2:1").0,
        },
        Event::Stopped { seat: seat(2) },
        Event::Declined {
            seat: seat(2),
            card: card("ship:red:1:1").0,
            declined: 1,
        },
        Event::ContractProgress {
            seat: seat(2),
            contract: c("contract:frigate-foe"),
            step: 2,
            steps: 3,
        },
        Event::Traded {
            seat: seat(0),
            card: card("ship:yellow:4:3:gift").0,
            income: 3,
        },
        Event::Coins {
            seat: seat(0),
            gained: 3,
            due: 3,
            reason: CoinReason::Trade,
        },
        Event::Coins {
            seat: seat(3),
            gained: 1,
            due: 1,
            reason: CoinReason::Gift,
        },
        Event::TurnStarted {
            seat: seat(0),
            turn: 11,
        },
        Event::Bust {
            seat: seat(0),
            card: card("ship:green:1:1").0,
        },
        Event::ContractCompleted {
            seat: seat(0),
            contract: c("contract:jinx"),
            coins: 1,
            vp: 0,
        },
        Event::Coins {
            seat: seat(0),
            gained: 1,
            due: 1,
            reason: CoinReason::Contract,
        },
        Event::Coins {
            seat: seat(0),
            gained: 1,
            due: 1,
            reason: CoinReason::ViceAdmiral,
        },
        Event::ClerkExtraTake {
            seat: seat(2),
            takes: 1,
        },
    ];
    chronicle.record(&events, &view, &names, Some(seat(0)));
    s.log = chronicle.log().to_vec();
    s.legal = vec![
        Action::Take(0, TakeMode::Normal),
        Action::Take(0, TakeMode::Decline),
        Action::Take(1, TakeMode::Gift(seat(1))),
        Action::Take(1, TakeMode::Gift(seat(2))),
        Action::Take(1, TakeMode::Gift(seat(3))),
        Action::Take(3, TakeMode::Normal),
        Action::Take(4, TakeMode::Normal),
        Action::Pass,
    ];
    s.view = view;
    s
}

/// A whole 3-seat game between heuristic bots at in-process tables, its
/// transcript written to a fresh file in the system's temporary folder
/// (the caller removes it); the same seed gives the same file.
pub fn transcript(name: &str, seed: u64, options: &Options) -> std::path::PathBuf {
    use roundtable_local::{LocalGame, Player, Progress};
    let path = std::env::temp_dir().join(format!(
        "roundtable-tui-{}-{name}-{seed}.rts",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    let players = ["Anne Bonny", "Calico Jack", "Mary Read"]
        .into_iter()
        .map(|n| {
            (
                n.to_owned(),
                Player::<PortRoyal>::Bot(Box::new(roundtable_bots::PortRoyalBot::new(options))),
            )
        })
        .collect();
    let mut game = LocalGame::<PortRoyal>::new(
        options,
        seed,
        players,
        Some(&path),
        roundtable_table::Config::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        game.run().unwrap_or_else(|e| panic!("{e}")),
        Progress::Finished
    );
    path
}

/// The base table with "expedition required" on and the game played to 10
/// VP: Mary Read has 12 VP but no expedition, so the game goes on.
pub fn expedition_required() -> Snapshot<PortRoyal> {
    let mut s = table();
    s.view.expedition_required = true;
    s.view.victory_points = 10;
    s.view.players[3] = player(
        12,
        &[
            "person:mademoiselle:9:3",
            "person:jester:9:3",
            "person:admiral:9:3",
            "person:sailor:7:3",
        ],
        &[],
    );
    s
}

pub const FIVE_NAMES: [&str; 5] = [
    "You",
    "Anne Bonny",
    "Calico Jack",
    "Mary Read",
    "Black Bart",
];

/// A 5-seat table at turn 17: Calico Jack's Trade & Hire and your time to
/// take, six cards in the harbor, three expeditions face up (the 5-player
/// one among them) and players with many persons, whose lines are long.
pub fn five_players() -> Snapshot<PortRoyal> {
    let mut s = table();
    let mut view = base_view(5);
    view.active = SeatNumber(seat(2));
    view.phase = "trade";
    view.turn = 17;
    view.taker = Some(SeatNumber(seat(0)));
    view.takes_left = Some(1);
    view.harbor = vec![
        card("ship:yellow:1:1"),
        card("person:jester:5:1"),
        card("ship:blue:2:3"),
        card("person:admiral:7:2"),
        card("ship:green:1:1"),
        card("person:mademoiselle:9:3"),
    ];
    view.expeditions = vec![
        card("expedition:anchor+cross+house"),
        card("expedition:anchor+anchor+house"),
        card("expedition:cross+cross"),
    ];
    view.draw_pile = 38;
    view.discard_pile = 44;
    view.players = vec![
        player(
            6,
            &[
                "person:sailor:3:1",
                "person:trader:blue:3:1",
                "person:captain:4:1",
                "person:priest:4:1",
                "person:jack:6:1",
            ],
            &[],
        ),
        player(
            9,
            &[
                "person:pirate:9:3",
                "person:sailor:5:2",
                "person:sailor:3:1",
                "person:trader:yellow:5:2",
                "person:trader:black:3:1",
                "person:trader:blue:5:2",
                "person:admiral:7:2",
                "person:admiral:9:3",
                "person:governor:8:0",
                "person:captain:4:1",
                "person:captain:4:1",
                "person:settler:4:1",
            ],
            &[],
        ),
        player(
            4,
            &[
                "person:mademoiselle:7:2",
                "person:jester:7:2",
                "person:governor:8:0",
                "person:priest:4:1",
                "person:priest:4:1",
                "person:settler:4:1",
            ],
            &["expedition:house+house"],
        ),
        player(
            14,
            &[
                "person:jester:9:3",
                "person:admiral:5:1",
                "person:jack:6:1",
                "person:jack:6:1",
                "person:sailor:7:3",
            ],
            &[],
        ),
        player(
            2,
            &[
                "person:trader:green:3:1",
                "person:trader:red:3:1",
                "person:settler:4:1",
                "person:settler:4:1",
            ],
            &["expedition:anchor+anchor"],
        ),
    ];
    view.start_player = Some(SeatNumber(seat(0)));
    let names: Vec<String> = FIVE_NAMES.iter().map(|n| (*n).to_owned()).collect();
    let mut chronicle: Chronicle<PortRoyal> = Chronicle::new();
    let events = vec![
        Event::TurnStarted {
            seat: seat(2),
            turn: 17,
        },
        Event::Revealed {
            seat: seat(2),
            card: card("ship:yellow:1:1").0,
        },
        Event::Docked {
            card: card("ship:yellow:1:1").0,
        },
        Event::Stopped { seat: seat(2) },
        Event::Hired {
            seat: seat(2),
            card: card("person:priest:4:1").0,
            paid: 3,
        },
    ];
    chronicle.record(&events, &view, &names, Some(seat(0)));
    s.log = chronicle.log().to_vec();
    s.seats = names
        .iter()
        .enumerate()
        .map(|(i, n)| SeatInfo {
            name: n.clone(),
            kind: if i == 0 { SeatKind::You } else { SeatKind::Bot },
            connection: Connection::Local,
            clock: None,
            forfeited: false,
        })
        .collect();
    s.legal = vec![
        Action::Take(0, TakeMode::Normal),
        Action::Take(1, TakeMode::Normal),
        Action::Take(2, TakeMode::Normal),
        Action::Take(3, TakeMode::Normal),
        Action::Take(4, TakeMode::Normal),
        Action::Take(5, TakeMode::Normal),
        Action::Pass,
    ];
    s.vp_by_turn = Vec::new();
    s.view = view;
    s
}
