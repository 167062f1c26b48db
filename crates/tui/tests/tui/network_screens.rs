//! The start menu's network entries and the lobby: what each screen shows,
//! at 80x24 and in a narrow terminal, and how the keys move between them.
//! The app is pure, so these drive it with messages and render the result;
//! the tmux tests in the CLI crate drive the real binary over the network.

use crate::common;

use common::*;
use insta::assert_snapshot;
use roundtable_port_royal::PortRoyal;
use roundtable_tui::app::{Effect, SetupRow};
use roundtable_tui::keymap::Msg;
use roundtable_tui::{
    App, Connection, FoundTable, HostConfig, Lobby, LocalConfig, Screen, SeatInfo, SeatKind,
    Snapshot, Theme,
};

fn menu_app() -> App {
    App::with_menu(LocalConfig::default(), Theme::default())
}

const TICKET: &str = "rt1_2a7kq9x4f0pm3vz8c6tnd1ywgh5rbe0s7ljk2u4xq9a3fw6mv8pc1dz5tn0eyg7hb2ks4rx6wq8ja1uv3lm5nf7pc9d0gz2ty4bh6ks8";

fn seat(name: &str, kind: SeatKind, connection: Connection) -> SeatInfo {
    SeatInfo {
        name: name.into(),
        kind,
        connection,
        clock: None,
        forfeited: false,
    }
}

/// The host's lobby: two of four seats taken, one bot disconnected.
fn host_lobby() -> Snapshot<PortRoyal> {
    let mut s = table();
    s.title = "Your table, 4 seats".into();
    s.legal = Vec::new();
    s.lobby = Some(Lobby {
        ticket: Some(TICKET.into()),
        reach: Vec::new(),
        seats: 4,
        filled: 3,
        seated: vec![
            seat("ann", SeatKind::You, Connection::Local),
            seat("bot 1", SeatKind::Bot, Connection::Online),
            seat("bob", SeatKind::Remote, Connection::Offline),
        ],
        spectator: false,
        stopped: None,
    });
    s
}

/// A joiner's lobby: the host's list of who sat down, the joiner second;
/// the host reached only through a relay, which the lobby says.
fn joiner_lobby() -> Snapshot<PortRoyal> {
    let mut s = host_lobby();
    s.title = "Joining a table".into();
    s.lobby = Some(Lobby {
        ticket: None,
        reach: Vec::new(),
        seats: 3,
        filled: 2,
        seated: vec![
            seat("ann", SeatKind::Remote, Connection::Relayed),
            seat("bob", SeatKind::You, Connection::Local),
        ],
        spectator: false,
        stopped: None,
    });
    s
}

fn lobby_app(snap: &Snapshot<PortRoyal>) -> App {
    let mut app = menu_app();
    app.entered_game(roundtable_tui::GameKind::Network);
    app.observe(snap);
    app
}

#[test]
fn the_menu_offers_every_network_entry_without_excuses() {
    let app = menu_app();
    let t = render(&app, None, 80, 24);
    let text = screen_text(&t);
    for entry in [
        "Host a table",
        "Join a table by ticket",
        "Tables on this LAN",
        "Watch a table",
    ] {
        assert!(text.contains(entry), "{entry}:\n{text}");
    }
    assert!(!text.contains("needs the network"), "{text}");
}

#[test]
fn host_set_up_chooses_seats_bots_and_options() {
    let mut app = menu_app();
    assert_eq!(app.update(Msg::Pick(2), None::<&Snapshot<PortRoyal>>), None);
    assert_eq!(app.screen, Screen::HostSetup);
    // Past the game (Port Royal) to 4 seats, then 3 bots (the most that
    // leaves you a seat), then 2.
    app.update(Msg::Down, None::<&Snapshot<PortRoyal>>);
    app.update(Msg::Right, None::<&Snapshot<PortRoyal>>);
    app.update(Msg::Down, None::<&Snapshot<PortRoyal>>);
    for _ in 0..5 {
        app.update(Msg::Right, None::<&Snapshot<PortRoyal>>);
    }
    assert_eq!((app.host.table.seats, app.host.bots), (4, 3));
    app.update(Msg::Left, None::<&Snapshot<PortRoyal>>);
    app.update(Msg::Down, None::<&Snapshot<PortRoyal>>);
    app.update(Msg::Left, None::<&Snapshot<PortRoyal>>);
    assert_eq!(app.host.table.options::<PortRoyal>().victory_points, 11);
    // Fewer seats take bots away with them.
    app.update(Msg::Up, None::<&Snapshot<PortRoyal>>);
    app.update(Msg::Up, None::<&Snapshot<PortRoyal>>);
    app.update(Msg::Left, None::<&Snapshot<PortRoyal>>);
    app.update(Msg::Left, None::<&Snapshot<PortRoyal>>);
    assert_eq!((app.host.table.seats, app.host.bots), (2, 1));
    app.update(Msg::Right, None::<&Snapshot<PortRoyal>>);
    app.update(Msg::Right, None::<&Snapshot<PortRoyal>>);
    // The bots' level, hard: its note says how long they think.
    while app.host_rows()[app.host_selected] != SetupRow::BotLevel {
        app.update(Msg::Down, None::<&Snapshot<PortRoyal>>);
    }
    app.update(Msg::Right, None::<&Snapshot<PortRoyal>>);
    assert_snapshot!("host_setup_80x24", render(&app, None, 80, 24).backend());
    assert_snapshot!("host_setup_40x16", render(&app, None, 40, 16).backend());
    assert_snapshot!("host_setup_200x60", render(&app, None, 200, 60).backend());
    // Enter on the last row opens the table as chosen.
    while app.host_selected != app.host_start() {
        app.update(Msg::Down, None::<&Snapshot<PortRoyal>>);
    }
    let expected = HostConfig {
        table: LocalConfig {
            seats: 4,
            chosen: app.host.table.chosen.clone(),
            ..HostConfig::default().table
        },
        bots: 1,
        bot_level: roundtable_bots::Level::Hard,
    };
    assert_eq!(
        app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>),
        Some(Effect::Host(expected))
    );
    // Esc goes back to the menu.
    app.update(Msg::Back, None::<&Snapshot<PortRoyal>>);
    assert_eq!(app.screen, Screen::Menu);
}

/// The host set-up's first row picks the game, as the local set-up's does;
/// the rows below it follow the game (Guildhall's options, its seat range),
/// and the table opened is of that game with those options.
#[test]
fn host_set_up_picks_the_game_and_its_rows_follow() {
    use roundtable_games::GameId;
    let mut app = menu_app();
    app.update(Msg::Pick(2), None::<&Snapshot<PortRoyal>>);
    assert_eq!(app.host_rows()[0], SetupRow::Game);
    let text = screen_text(&render(&app, None, 80, 24));
    assert!(text.contains("< Port Royal >"), "{text}");
    app.update(Msg::Right, None::<&Snapshot<PortRoyal>>);
    assert_eq!(app.host.table.game, GameId::Guildhall);
    let rows = app.host_rows();
    let guildhall = GameId::Guildhall.option_rows();
    assert_eq!(
        rows.iter()
            .filter(|r| matches!(r, SetupRow::Option(_)))
            .count(),
        guildhall.len(),
        "Guildhall's options, and no other game's: {rows:?}"
    );
    assert!(!rows.contains(&SetupRow::Pace), "{rows:?}");
    let max_rounds = guildhall
        .iter()
        .position(|r| r.key == "max_rounds")
        .map(SetupRow::Option)
        .unwrap_or_else(|| panic!("Guildhall has no round limit"));
    // Seats stop at Guildhall's four.
    app.update(Msg::Down, None::<&Snapshot<PortRoyal>>);
    for _ in 0..3 {
        app.update(Msg::Right, None::<&Snapshot<PortRoyal>>);
    }
    assert_eq!(app.host.table.seats, 4);
    // Two bots; the round limit down from 100 to 20.
    app.update(Msg::Down, None::<&Snapshot<PortRoyal>>);
    app.update(Msg::Right, None::<&Snapshot<PortRoyal>>);
    while app.host_rows()[app.host_selected] != max_rounds {
        app.update(Msg::Down, None::<&Snapshot<PortRoyal>>);
    }
    app.update(Msg::Left, None::<&Snapshot<PortRoyal>>);
    assert_eq!(
        app.host
            .table
            .options::<roundtable_guildhall::Guildhall>()
            .max_rounds,
        20
    );
    let t = render(&app, None, 80, 24);
    let text = screen_text(&t);
    for expected in [
        "< Guildhall >",
        "Rounds at most      < 20 >",
        "Open the table",
    ] {
        assert!(text.contains(expected), "{expected}:\n{text}");
    }
    assert!(!text.contains("Victory points"), "{text}");
    assert_snapshot!("host_setup_guildhall_80x24", t.backend());
    assert_snapshot!(
        "host_setup_guildhall_200x60",
        render(&app, None, 200, 60).backend()
    );
    while app.host_selected != app.host_start() {
        app.update(Msg::Down, None::<&Snapshot<PortRoyal>>);
    }
    match app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>) {
        Some(Effect::Host(config)) => {
            assert_eq!(config.table.game, GameId::Guildhall);
            assert_eq!((config.table.seats, config.bots), (4, 2));
            let options = config.options::<roundtable_guildhall::Guildhall>();
            assert_eq!(options.max_rounds, 20);
        }
        other => panic!("{other:?}"),
    }
    // Back to Port Royal: its rows again, the seats kept.
    app.host_selected = 0;
    app.update(Msg::Left, None::<&Snapshot<PortRoyal>>);
    assert_eq!(app.host.table.game, GameId::PortRoyal);
    let text = screen_text(&render(&app, None, 80, 24));
    assert!(text.contains("Victory points"), "{text}");
    assert_eq!(app.host.table.seats, 4);
}

#[test]
fn join_prompt_takes_a_pasted_ticket_whole() {
    let mut app = menu_app();
    app.update(Msg::Pick(3), None::<&Snapshot<PortRoyal>>);
    assert_eq!(app.screen, Screen::JoinPrompt);
    assert_eq!(
        app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>),
        None,
        "an empty ticket joins nothing"
    );
    assert!(app.notice.as_deref().is_some_and(|n| n.contains("rt1_")));
    // As pasted from a terminal: the command around it, a line break inside.
    let pasted = format!("roundtable join {}\n{}", &TICKET[..50], &TICKET[50..]);
    for c in pasted.chars() {
        app.update(Msg::Type(c), None::<&Snapshot<PortRoyal>>);
    }
    app.notice = None;
    assert_snapshot!("join_prompt_80x24", render(&app, None, 80, 24).backend());
    assert_snapshot!("join_prompt_40x16", render(&app, None, 40, 16).backend());
    assert_snapshot!("join_prompt_200x60", render(&app, None, 200, 60).backend());
    assert_eq!(
        app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>),
        Some(Effect::Join(TICKET.into()))
    );
    // A refused ticket is said on the same screen, which keeps the text.
    app.notice = Some("That is not a ticket: bad checksum.".into());
    let t = render(&app, None, 80, 24);
    assert!(screen_text(&t).contains("bad checksum"));
    app.update(Msg::Erase, None::<&Snapshot<PortRoyal>>);
    assert_eq!(app.ticket.len(), TICKET.len() - 1);
}

#[test]
fn watch_prompt_watches() {
    let mut app = menu_app();
    app.update(Msg::Down, None::<&Snapshot<PortRoyal>>);
    app.update(Msg::Down, None::<&Snapshot<PortRoyal>>);
    app.update(Msg::Down, None::<&Snapshot<PortRoyal>>);
    app.update(Msg::Down, None::<&Snapshot<PortRoyal>>);
    app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>);
    assert_eq!(app.screen, Screen::WatchPrompt);
    for c in "rt1_abc".chars() {
        app.update(Msg::Type(c), None::<&Snapshot<PortRoyal>>);
    }
    assert_snapshot!("watch_prompt_80x24", render(&app, None, 80, 24).backend());
    assert_eq!(
        app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>),
        Some(Effect::Watch("rt1_abc".into()))
    );
}

#[test]
fn lan_tables_look_list_and_join() {
    let mut app = menu_app();
    assert_eq!(
        app.update(Msg::Pick(4), None::<&Snapshot<PortRoyal>>),
        Some(Effect::FindTables)
    );
    assert_eq!(app.screen, Screen::Tables);
    assert!(
        app.update(Msg::Refresh, None::<&Snapshot<PortRoyal>>)
            .is_none(),
        "no second search while one runs"
    );
    assert_snapshot!("lan_looking_80x24", render(&app, None, 80, 24).backend());
    app.found_tables(Ok(Vec::new()));
    assert_snapshot!("lan_none_80x24", render(&app, None, 80, 24).backend());
    assert_eq!(
        app.update(Msg::Refresh, None::<&Snapshot<PortRoyal>>),
        Some(Effect::FindTables)
    );
    app.found_tables(Err("mDNS: no multicast on this interface".into()));
    assert!(screen_text(&render(&app, None, 80, 24)).contains("no multicast"));
    app.found_tables(Ok(vec![
        FoundTable {
            host: "ann".into(),
            game: "port-royal".into(),
            filled: 2,
            seats: 3,
            ticket: "rt1_ann".into(),
        },
        FoundTable {
            host: "Calico Jack".into(),
            game: "port-royal".into(),
            filled: 5,
            seats: 5,
            ticket: "rt1_jack".into(),
        },
    ]));
    app.update(Msg::Down, None::<&Snapshot<PortRoyal>>);
    app.update(Msg::Down, None::<&Snapshot<PortRoyal>>);
    assert_eq!(app.table_selected, 1, "the selection stays on the list");
    assert_snapshot!("lan_found_80x24", render(&app, None, 80, 24).backend());
    assert_snapshot!("lan_found_40x16", render(&app, None, 40, 16).backend());
    app.update(Msg::Up, None::<&Snapshot<PortRoyal>>);
    assert_eq!(
        app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>),
        Some(Effect::Join("rt1_ann".into()))
    );
    app.update(Msg::Back, None::<&Snapshot<PortRoyal>>);
    assert_eq!(app.screen, Screen::Menu);
}

#[test]
fn host_lobby_shows_ticket_seats_and_connections() {
    let snap = host_lobby();
    let mut app = lobby_app(&snap);
    assert_eq!(app.screen, Screen::Lobby);
    let t = render(&app, Some(&snap), 80, 24);
    let text = screen_text(&t);
    for expected in [
        "Seats: 3 of 4 taken",
        "ann",
        "you",
        "bot 1",
        "online",
        "bob",
        "offline",
        "open",
        "Esc leave the table",
    ] {
        assert!(text.contains(expected), "{expected}:\n{text}");
    }
    // The whole ticket is on the screen, row by row, for copying.
    let joined: String = text
        .lines()
        .map(|l| l.trim_matches(|c: char| c == '│' || c == ' '))
        .filter(|l| l.starts_with("rt1_") || l.chars().all(|c| c.is_ascii_alphanumeric()))
        .collect();
    assert!(joined.contains(TICKET), "{text}");
    assert_snapshot!("lobby_host_80x24", t.backend());
    assert_snapshot!(
        "lobby_host_40x16",
        render(&app, Some(&snap), 40, 16).backend()
    );
    // Digits pick no move in the lobby; Esc leaves for the menu, q quits
    // without asking (no game is lost).
    assert_eq!(app.update(Msg::Pick(1), Some(&snap)), None);
    assert_eq!(app.update(Msg::Back, Some(&snap)), Some(Effect::Leave));
    assert_eq!(app.update(Msg::Quit, Some(&snap)), Some(Effect::Quit));
}

/// A host whose ticket reaches this machine only is told so under the
/// ticket, with what would let others in.
#[test]
fn a_host_lobby_says_who_can_reach_the_table() {
    let mut snap = host_lobby();
    if let Some(l) = &mut snap.lobby {
        l.reach = vec![
            "This ticket holds only loopback addresses: the table is reachable from this machine only.".into(),
            "To let others in: enable UPnP on your router, forward a port to this machine, or run `roundtable relay` on a machine with a public address and pass its address with --relay.".into(),
        ];
    }
    let app = lobby_app(&snap);
    let t = render(&app, Some(&snap), 80, 24);
    let text = screen_text(&t);
    assert!(text.contains("holds only loopback addresses"), "{text}");
    assert!(text.contains("roundtable relay"), "{text}");
    assert!(text.contains("Seats: 3 of 4 taken"), "{text}");
    assert_snapshot!("lobby_host_this_machine_only_80x24", t.backend());
}

#[test]
fn joiner_and_spectator_lobbies() {
    let snap = joiner_lobby();
    let app = lobby_app(&snap);
    assert_snapshot!(
        "lobby_joiner_80x24",
        render(&app, Some(&snap), 80, 24).backend()
    );
    let mut watching = snap.clone();
    if let Some(l) = &mut watching.lobby {
        l.spectator = true;
    }
    assert!(screen_text(&render(&app, Some(&watching), 80, 24)).contains("You will watch"));
    let mut reaching = snap.clone();
    if let Some(l) = &mut reaching.lobby {
        l.seats = 0;
        l.filled = 0;
    }
    assert_snapshot!(
        "lobby_reaching_80x24",
        render(&app, Some(&reaching), 80, 24).backend()
    );
    let mut stopped = snap.clone();
    if let Some(l) = &mut stopped.lobby {
        l.stopped = Some("refused: the table is full".into());
    }
    assert_snapshot!(
        "lobby_stopped_60x20",
        render(&app, Some(&stopped), 60, 20).backend()
    );
}

#[test]
fn the_table_replaces_the_lobby_when_the_game_begins() {
    let lobby = host_lobby();
    let mut app = lobby_app(&lobby);
    assert_eq!(app.screen, Screen::Lobby);
    let started = table();
    app.observe(&started);
    assert_eq!(app.screen, Screen::Table);
    // A table opened straight from `roundtable host` shows its lobby too,
    // and with no menu behind it Esc quits.
    let mut direct = App::at_table(Theme::default());
    direct.observe(&lobby);
    assert_eq!(direct.screen, Screen::Lobby);
    assert_eq!(direct.update(Msg::Back, Some(&lobby)), Some(Effect::Quit));
}

#[test]
fn help_lists_the_lobby_and_lan_keys() {
    let snap = host_lobby();
    let mut app = lobby_app(&snap);
    app.update(Msg::Help, Some(&snap));
    let t = render(&app, Some(&snap), 80, 24);
    let text = screen_text(&t);
    assert!(text.contains("Waiting for players"), "{text}");
    assert!(text.contains("leave the table"), "{text}");
    assert_snapshot!("help_lobby_80x24", t.backend());
}
