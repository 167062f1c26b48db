//! Snapshots of every screen, at 80x24, larger and smaller terminals.
//!
//! The snapshots show symbols only (insta prints the buffer's text), which is
//! one more reason the screens never say anything by colour alone; the
//! colour tests at the end check the styles themselves.

use crate::common;

use common::*;
use insta::assert_snapshot;
use ratatui::style::Color;
use roundtable_port_royal::PortRoyal;
use roundtable_tui::app::Overlay;
use roundtable_tui::keymap::Msg;
use roundtable_tui::{App, LocalConfig, Screen, Snapshot, Theme};

fn menu_app() -> App {
    App::with_menu(LocalConfig::default(), Theme::default())
}

#[test]
fn start_menu() {
    let mut app = menu_app();
    app.setup.name = "Mary Read".into();
    let t = render(&app, None, 80, 24);
    assert!(screen_text(&t).contains("7 Your name: Mary Read"));
    assert_snapshot!("menu_80x24", t.backend());
    // The smallest terminal still reaches every entry: the introduction
    // gives way first (it used to push "7 Your name" and "8 Quit" off).
    let small = render(&app, None, 40, 12);
    let small_text = screen_text(&small);
    for entry in ["1 Local game", "6 Replay", "7 Your name", "8 Quit"] {
        assert!(small_text.contains(entry), "{entry} missing:\n{small_text}");
    }
    assert_snapshot!("menu_40x12", small.backend());
    assert_snapshot!("menu_200x60", render(&app, None, 200, 60).backend());
    app.update(Msg::Pick(7), None::<&Snapshot<PortRoyal>>);
    assert_eq!(app.screen, Screen::NamePrompt);
    assert_snapshot!("name_prompt_80x24", render(&app, None, 80, 24).backend());
    assert_snapshot!("name_prompt_200x60", render(&app, None, 200, 60).backend());
}

#[test]
fn local_game_setup() {
    let mut app = menu_app();
    app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>);
    app.update(Msg::Down, None::<&Snapshot<PortRoyal>>);
    app.update(Msg::Left, None::<&Snapshot<PortRoyal>>);
    app.update(Msg::Down, None::<&Snapshot<PortRoyal>>);
    app.update(Msg::Left, None::<&Snapshot<PortRoyal>>);
    assert_eq!(app.screen, Screen::Setup);
    assert_eq!(app.setup.seats, 3);
    assert_eq!(app.setup.options::<PortRoyal>().victory_points, 11);
    // The second bot hard: its row says how long it thinks.
    for _ in 0..6 {
        app.update(Msg::Down, None::<&Snapshot<PortRoyal>>);
    }
    app.update(Msg::Right, None::<&Snapshot<PortRoyal>>);
    assert_eq!(app.setup.bot_levels[1], roundtable_bots::Level::Hard);
    assert_snapshot!("setup_80x24", render(&app, None, 80, 24).backend());
    assert_snapshot!("setup_60x20", render(&app, None, 60, 20).backend());
    assert_snapshot!("setup_200x60", render(&app, None, 200, 60).backend());
}

/// The game row chooses Guildhall: its seats (two to four), Yucata's three
/// changes as toggles, its round limit, then the bots and the pace.
#[test]
fn local_game_setup_guildhall() {
    let mut app = menu_app();
    app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>);
    app.update(Msg::Right, None::<&Snapshot<PortRoyal>>);
    assert_eq!(app.setup.game, roundtable_games::GameId::Guildhall);
    assert_eq!(app.setup.seats, 4);
    app.update(Msg::Right, None::<&Snapshot<PortRoyal>>);
    app.update(Msg::Right, None::<&Snapshot<PortRoyal>>);
    assert_eq!(app.setup.game, roundtable_games::GameId::Nereus, "the last");
    app.update(Msg::Left, None::<&Snapshot<PortRoyal>>);
    assert_eq!(app.setup.game, roundtable_games::GameId::Guildhall);
    app.update(Msg::Down, None::<&Snapshot<PortRoyal>>);
    app.update(Msg::Right, None::<&Snapshot<PortRoyal>>);
    assert_eq!(app.setup.seats, 4, "Guildhall seats four at most");
    for _ in 0..2 {
        app.update(Msg::Down, None::<&Snapshot<PortRoyal>>);
    }
    app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>);
    assert!(
        !app.setup
            .options::<roundtable_guildhall::Guildhall>()
            .late_chapter_cap
    );
    assert_snapshot!(
        "setup_guildhall_80x24",
        render(&app, None, 80, 24).backend()
    );
    assert_snapshot!(
        "setup_guildhall_200x60",
        render(&app, None, 200, 60).backend()
    );
}

/// Waters of Nereus offers its neutral ship only to a table of two: the
/// row appears when the seats come down to two, toggles, goes when a third
/// seat is added (the option then leaves the game's set-up), and is back,
/// as it was left, at two seats again.
#[test]
fn local_game_setup_nereus_neutral_ship() {
    use roundtable_games::GameId;
    use roundtable_nereus::Nereus;
    use roundtable_tui::app::SetupRow;
    let neutral_ship = GameId::Nereus
        .option_rows()
        .iter()
        .position(|r| r.key == "neutral_ship")
        .map(SetupRow::Option)
        .unwrap_or_else(|| panic!("Nereus has no neutral ship row"));
    let mut app = menu_app();
    app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>);
    for _ in 0..2 {
        app.update(Msg::Right, None::<&Snapshot<PortRoyal>>);
    }
    assert_eq!(app.setup.game, roundtable_games::GameId::Nereus);
    assert_eq!(app.setup.seats, 4);
    assert!(
        !app.setup_rows().contains(&neutral_ship),
        "four seats: no neutral ship"
    );
    app.update(Msg::Down, None::<&Snapshot<PortRoyal>>);
    for _ in 0..2 {
        app.update(Msg::Left, None::<&Snapshot<PortRoyal>>);
    }
    assert_eq!(app.setup.seats, 2);
    assert_eq!(app.setup_rows()[2], neutral_ship);
    app.update(Msg::Down, None::<&Snapshot<PortRoyal>>);
    app.update(Msg::Confirm, None::<&Snapshot<PortRoyal>>);
    assert_eq!(app.setup.chosen.value(GameId::Nereus, 0), 1);
    assert!(app.setup.options::<Nereus>().neutral_ship);
    assert_snapshot!(
        "setup_nereus_neutral_80x24",
        render(&app, None, 80, 24).backend()
    );
    assert_snapshot!(
        "setup_nereus_neutral_200x60",
        render(&app, None, 200, 60).backend()
    );
    // A third seat: the row goes and the game is set up without it.
    app.update(Msg::Up, None::<&Snapshot<PortRoyal>>);
    app.update(Msg::Right, None::<&Snapshot<PortRoyal>>);
    assert_eq!(app.setup.seats, 3);
    assert!(!app.setup_rows().contains(&neutral_ship));
    assert!(!app.setup.options::<Nereus>().neutral_ship);
    app.update(Msg::Left, None::<&Snapshot<PortRoyal>>);
    assert!(app.setup.options::<Nereus>().neutral_ship);
}

#[test]
fn table_discover() {
    let snap = table();
    let app = table_app(&snap);
    assert_snapshot!("table_80x24", render(&app, Some(&snap), 80, 24).backend());
    assert_snapshot!("table_200x60", render(&app, Some(&snap), 200, 60).backend());
    assert_snapshot!("table_60x20", render(&app, Some(&snap), 60, 20).backend());
    assert_snapshot!("table_40x12", render(&app, Some(&snap), 40, 12).backend());
}

#[test]
fn table_with_the_expansion() {
    let snap = expansion_table();
    let mut app = table_app(&snap);
    app.update(Msg::Down, Some(&snap));
    let t = render(&app, Some(&snap), 80, 24);
    let text = screen_text(&t);
    // Every contract with its reward and requirement, though the board is
    // cramped; the moves that do not fit are counted.
    for words in [
        "Frigate Foe +6$: decline the",
        "Jinx +1$: go bust on your turn",
        "Lady Killer +2$: Captain + Mademoiselle",
        "Pack of Pirates +3$: repel a",
        "Trade the [R] Frigate, decline its",
        "cubes 1",
        "6 more below, j/k",
    ] {
        assert!(text.contains(words), "{words} missing:\n{text}");
    }
    assert_snapshot!("expansion_table_80x24", t.backend());
    let t = render(&app, Some(&snap), 200, 60);
    let text = screen_text(&t);
    for words in [
        "Frigate Foe +6$: decline the coins of 3 [R] Frigates; done: Mary Read; You 1/3, Calico Jack 2/3",
        "(Frigate Foe 2/3)",
        "and give the gift coin to Anne Bonny",
        "Calico Jack keeps the [K] Galleon 2sw 1$ aside (Pack of Pirates).",
        "You complete the contract Jinx: 1$.",
        "aside B K",
    ] {
        assert!(text.contains(words), "{words} missing:\n{text}");
    }
    assert_snapshot!("expansion_table_200x60", t.backend());
    assert_snapshot!(
        "expansion_table_60x20",
        render(&app, Some(&snap), 60, 20).backend()
    );
}

#[test]
fn terminal_too_small() {
    let snap = table();
    let app = table_app(&snap);
    assert_snapshot!(
        "too_small_30x10",
        render(&app, Some(&snap), 30, 10).backend()
    );
}

#[test]
fn table_repel_or_keep() {
    let snap = repel_or_keep();
    let app = table_app(&snap);
    assert_snapshot!(
        "repel_or_keep_80x24",
        render(&app, Some(&snap), 80, 24).backend()
    );
}

#[test]
fn table_trade_as_a_non_active_seat_with_the_selection_on_a_card() {
    let snap = trade_not_active();
    let mut app = table_app(&snap);
    app.update(Msg::Down, Some(&snap));
    let t = render(&app, Some(&snap), 80, 24);
    let text = screen_text(&t);
    assert!(text.contains("LAST ROUND"));
    assert!(text.contains("Trade & Hire: you take 1"));
    assert!(text.contains("draw 61 | discard 17"), "the counts stay");
    assert_snapshot!("trade_not_active_80x24", t.backend());
}

#[test]
fn a_non_active_trade_says_what_it_nets_at_every_size() {
    let snap = trade_not_active();
    let app = table_app(&snap);
    let t = render(&app, Some(&snap), 200, 60);
    let text = screen_text(&t);
    for words in [
        "Trade [Y] Pinnace for 1$ (nets 0$ after 1$ to Anne Bonny)",
        "Trade [B] Flute for 4$ (nets 3$ after 1$ to Anne Bonny)",
        "Hire Sailor for 3$ + 1$ to Anne Bonny (1VP)",
    ] {
        assert!(text.contains(words), "{words} missing:\n{text}");
    }
    assert_snapshot!("trade_not_active_200x60", t.backend());
    assert_snapshot!(
        "trade_not_active_60x20",
        render(&app, Some(&snap), 60, 20).backend()
    );
}

#[test]
fn a_full_harbor_keeps_every_contract_in_sight_at_80x24() {
    let mut snap = expansion_table();
    snap.view.harbor.extend([
        card("person:jester:7:2"),
        card("person:admiral:9:3"),
        card("ship:blue:2:3"),
        card("person:sailor:3:1"),
    ]);
    let text = screen_text(&render(&table_app(&snap), Some(&snap), 80, 24));
    for words in [
        "9 Sailor",
        "2 anchors 4VP +2$",
        "Frigate Foe +6$",
        "Jinx +1$",
        "Lady Killer +2$",
        "Pack of Pirates +3$",
        "more below, j/k",
    ] {
        assert!(text.contains(words), "{words} missing:\n{text}");
    }
}

#[test]
fn the_move_list_counts_the_moves_above_and_below_what_fits() {
    let snap = expansion_table();
    let mut app = table_app(&snap);
    for _ in 0..4 {
        app.update(Msg::Down, Some(&snap));
    }
    let text = screen_text(&render(&app, Some(&snap), 80, 24));
    assert!(text.contains("4 above, 2 below, j/k"), "{text}");
    for _ in 0..3 {
        app.update(Msg::Down, Some(&snap));
    }
    let text = screen_text(&render(&app, Some(&snap), 80, 24));
    assert!(text.contains("more above, j/k"), "{text}");
    assert!(text.contains("Pass: take nothing more"), "{text}");
    // Where every move fits, nothing is said.
    let snap = table();
    let text = screen_text(&render(&table_app(&snap), Some(&snap), 80, 24));
    assert!(!text.contains("j/k "), "{text}");
}

#[test]
fn an_expedition_required_game_says_so_and_who_lacks_one() {
    let snap = expedition_required();
    let app = table_app(&snap);
    for (w, h) in [(80, 24), (200, 60), (60, 20)] {
        let t = render(&app, Some(&snap), w, h);
        let text = screen_text(&t);
        assert!(
            text.contains("Players: to 10VP + expedition"),
            "the goal at {w}x{h}:\n{text}"
        );
        assert_snapshot!(format!("expedition_required_{w}x{h}"), t.backend());
    }
    let text = screen_text(&render(&app, Some(&snap), 200, 60));
    assert!(
        text.contains("bot: 1sw, mlle, jester, admiral, needs 1 exp"),
        "{text}"
    );
    // Calico Jack has one.
    assert!(text.contains("bot: 2 anchors, 1 exp "), "{text}");
}

#[test]
fn a_five_player_table_fits_80x24_with_three_expeditions_and_long_player_lines() {
    let snap = five_players();
    let app = table_app(&snap);
    let t = render(&app, Some(&snap), 80, 24);
    let text = screen_text(&t);
    // Every expedition, and the header's pile counts.
    for words in [
        "anchor + cross + house 5VP +3$",
        "2 anchors + house 6VP +3$",
        "2 crosses 4VP +2$",
        "draw 38 | discard 44",
    ] {
        assert!(text.contains(words), "{words} missing:\n{text}");
    }
    // Every word of every player's line shows: wrapped, not cut.
    let words: Vec<&str> = text.split_whitespace().collect();
    for p in &snap.view.players {
        for word in roundtable_tui::games::port_royal::board::abilities(p).split_whitespace() {
            assert!(
                words.iter().any(|w| w.contains(word)),
                "{word} cut:\n{text}"
            );
        }
    }
    assert!(text.contains("more below, j/k"), "{text}");
    assert_snapshot!("five_players_80x24", t.backend());
    assert_snapshot!(
        "five_players_200x60",
        render(&app, Some(&snap), 200, 60).backend()
    );
    assert_snapshot!(
        "five_players_60x20",
        render(&app, Some(&snap), 60, 20).backend()
    );
}

#[test]
fn table_waiting_for_a_bot() {
    let snap = waiting();
    let app = table_app(&snap);
    assert_snapshot!("waiting_80x24", render(&app, Some(&snap), 80, 24).backend());
}

#[test]
fn table_with_remote_seats_shows_connection_and_clocks() {
    let snap = networked();
    let app = table_app(&snap);
    let t = render(&app, Some(&snap), 100, 30);
    let text = screen_text(&t);
    for word in ["online", "reconnecting", "offline", "1:15"] {
        assert!(text.contains(word), "{word} missing");
    }
    assert_snapshot!("networked_100x30", t.backend());
}

#[test]
fn help_screen() {
    let snap = table();
    let mut app = table_app(&snap);
    app.update(Msg::Help, Some(&snap));
    assert_eq!(app.overlay, Some(Overlay::Help { scroll: 0 }));
    assert_snapshot!("help_80x24", render(&app, Some(&snap), 80, 24).backend());
    app.update(Msg::End, Some(&snap));
    assert_snapshot!(
        "help_end_80x24",
        render(&app, Some(&snap), 80, 24).backend()
    );
}

#[test]
fn quitting_a_live_game_asks_first() {
    let snap = table();
    let mut app = table_app(&snap);
    // At a network table: the seat can come back.
    assert_eq!(app.update(Msg::Quit, Some(&snap)), None);
    assert_eq!(app.overlay, Some(Overlay::ConfirmQuit));
    let text = screen_text(&render(&app, Some(&snap), 80, 24));
    assert!(text.contains("roundtable resume"), "{text}");
    // A local game begun at the start menu: it cannot be resumed, and yes
    // goes back to the menu.
    app.kind = roundtable_tui::GameKind::Local;
    app.has_menu = true;
    let t = render(&app, Some(&snap), 80, 24);
    let text = screen_text(&t);
    assert!(text.contains("cannot be resumed"), "{text}");
    assert!(text.contains("y back to the start menu"), "{text}");
    assert_snapshot!("confirm_quit_80x24", t.backend());
    assert_snapshot!(
        "confirm_quit_200x60",
        render(&app, Some(&snap), 200, 60).backend()
    );
    assert_eq!(app.update(Msg::No, Some(&snap)), None);
    assert_eq!(app.overlay, None);
}

#[test]
fn move_log_screen() {
    let snap = table();
    let mut app = table_app(&snap);
    app.update(Msg::Log, Some(&snap));
    assert_eq!(app.screen, Screen::Log);
    assert_snapshot!("log_80x24", render(&app, Some(&snap), 80, 24).backend());
    app.update(Msg::Up, Some(&snap));
    app.update(Msg::Up, Some(&snap));
    assert_snapshot!(
        "log_scrolled_80x24",
        render(&app, Some(&snap), 80, 24).backend()
    );
}

#[test]
fn post_game() {
    let snap = game_over();
    let mut app = table_app(&snap);
    assert_eq!(
        app.screen,
        Screen::PostGame,
        "a finished game shows the result"
    );
    let t = render(&app, Some(&snap), 80, 24);
    let text = screen_text(&t);
    assert!(text.contains("Calico Jack wins"));
    assert!(text.contains("coins decide"), "the tie-break is explained");
    assert_snapshot!("post_game_80x24", t.backend());
    assert_snapshot!(
        "post_game_60x20",
        render(&app, Some(&snap), 60, 20).backend()
    );
    assert_snapshot!(
        "post_game_200x60",
        render(&app, Some(&snap), 200, 60).backend()
    );
    // Quitting after the game does not ask.
    assert_eq!(
        app.update(Msg::Quit, Some(&snap)),
        Some(roundtable_tui::Effect::Quit)
    );
}

#[test]
fn the_ranking_says_an_expedition_comes_first_when_the_game_required_one() {
    let mut snap = game_over();
    let text = screen_text(&render(&table_app(&snap), Some(&snap), 80, 24));
    assert!(text.contains("Ranking (VP, then coins)"), "{text}");
    snap.view.expedition_required = true;
    let text = screen_text(&render(&table_app(&snap), Some(&snap), 80, 24));
    assert!(
        text.contains("Ranking (an expedition first, then VP, then coins)"),
        "{text}"
    );
}

#[test]
fn every_size_renders_without_panicking() {
    let snaps = [
        table(),
        repel_or_keep(),
        trade_not_active(),
        game_over(),
        expansion_table(),
        expedition_required(),
        five_players(),
    ];
    for snap in &snaps {
        let app = table_app(snap);
        for w in (1..=120).step_by(7) {
            for h in (1..=50).step_by(5) {
                render(&app, Some(snap), w, h);
            }
        }
    }
}

#[test]
fn ships_are_coloured_and_lettered_and_no_color_drops_every_colour() {
    let snap = table();
    let app = table_app(&snap);
    let t = render(&app, Some(&snap), 80, 24);
    let buf = t.backend().buffer();
    // The yellow Pinnace in the harbor: its letter and its colour.
    let (x, y) = find(&t, "[Y] Pinnace").unwrap_or_else(|| panic!("no Pinnace"));
    assert_eq!(buf[(x + 1, y)].symbol(), "Y");
    assert_eq!(buf[(x + 1, y)].fg, Color::Yellow);
    let mut plain = app.clone();
    plain.theme = Theme::plain();
    let t = render(&plain, Some(&snap), 80, 24);
    let buf = t.backend().buffer();
    for cell in buf.content() {
        assert_eq!(cell.fg, Color::Reset, "NO_COLOR: no foreground colour");
        assert_eq!(cell.bg, Color::Reset, "NO_COLOR: no background colour");
    }
    // The selection still shows: reversed and marked.
    let (x, y) = find(&t, "> 1 Draw a card").unwrap_or_else(|| panic!("no selection"));
    assert!(
        buf[(x, y)]
            .modifier
            .contains(ratatui::style::Modifier::REVERSED)
    );
}

#[test]
fn only_the_16_ansi_colours_are_used() {
    let snaps = [table(), trade_not_active(), game_over(), networked()];
    for snap in &snaps {
        let mut app = table_app(snap);
        for overlay in [None, Some(Overlay::Help { scroll: 0 })] {
            app.overlay = overlay;
            let t = render(&app, Some(snap), 120, 40);
            for cell in t.backend().buffer().content() {
                for c in [cell.fg, cell.bg] {
                    assert!(
                        !matches!(c, Color::Rgb(..) | Color::Indexed(_)),
                        "{c:?} is not one of the 16 ANSI colours"
                    );
                }
            }
        }
    }
}

fn find(t: &ratatui::Terminal<ratatui::backend::TestBackend>, text: &str) -> Option<(u16, u16)> {
    rows(t).iter().enumerate().find_map(|(y, row)| {
        // Rows are ASCII here except box drawing, which is one column each.
        let chars: Vec<char> = row.chars().collect();
        let needle: Vec<char> = text.chars().collect();
        (0..chars.len().saturating_sub(needle.len() - 1))
            .find(|&x| chars[x..x + needle.len()] == needle[..])
            .map(|x| (x as u16, y as u16))
    })
}

/// A table whose log is far longer than any screen.
fn long_log() -> Snapshot<PortRoyal> {
    let mut snap = table();
    let lines = snap.log.clone();
    for turn in 0..12 {
        for l in &lines {
            let mut l = l.clone();
            l.turn += turn;
            snap.log.push(l);
        }
    }
    snap
}

/// After browsing the full log, the table's side log follows the game
/// again; scrolled back, its title says how to get back, uncut at 80
/// columns.
#[test]
fn the_side_log_follows_the_game_after_the_log_view() {
    let snap = long_log();
    let mut app = table_app(&snap);
    app.viewport = Some((80, 24));
    app.update(Msg::Log, Some(&snap));
    app.update(Msg::Home, Some(&snap));
    assert!(app.log_scroll > 0);
    app.update(Msg::Back, Some(&snap));
    assert_eq!(app.screen, Screen::Table);
    assert_eq!(app.log_scroll, 0, "the side log follows the game");
    let text = screen_text(&render(&app, Some(&snap), 80, 24));
    assert!(!text.contains("back"), "{text}");

    app.update(Msg::LogOlder, Some(&snap));
    let t = render(&app, Some(&snap), 80, 24);
    let text = screen_text(&t);
    assert!(
        text.contains("Log (5 back, End: newest)")
            || text.contains("Log (5 rows back, End for newest)"),
        "{text}"
    );
    assert_snapshot!("side_log_scrolled_80x24", t.backend());
    assert_snapshot!(
        "side_log_scrolled_200x60",
        render(&app, Some(&snap), 200, 60).backend()
    );
}

/// Home goes to the oldest rows and no further, so the first key back
/// towards the newest moves at once.
#[test]
fn the_first_page_down_after_home_moves_the_log() {
    let snap = long_log();
    for (w, h) in [(80, 24), (200, 60)] {
        let mut app = table_app(&snap);
        app.viewport = Some((w, h));
        app.update(Msg::Log, Some(&snap));
        app.update(Msg::Home, Some(&snap));
        let oldest = screen_text(&render(&app, Some(&snap), w, h));
        assert!(oldest.contains("showing 1 to"), "{oldest}");
        app.update(Msg::LogNewer, Some(&snap));
        let after = screen_text(&render(&app, Some(&snap), w, h));
        assert!(
            !after.contains("showing 1 to"),
            "PgDn did not move:\n{after}"
        );
        app.update(Msg::Home, Some(&snap));
        app.update(Msg::Down, Some(&snap));
        let after = screen_text(&render(&app, Some(&snap), w, h));
        assert!(after.contains("showing 2 to"), "j did not move:\n{after}");
        if w == 80 {
            assert_snapshot!(
                "log_oldest_then_down_80x24",
                render(&app, Some(&snap), w, h).backend()
            );
        } else {
            assert_snapshot!(
                "log_oldest_then_down_200x60",
                render(&app, Some(&snap), w, h).backend()
            );
        }
    }
}

/// Every key on the help screen is followed by a space before what it
/// does, however long the keys; the help's own paging keys say they page.
#[test]
fn help_keys_never_run_into_their_text() {
    use roundtable_tui::keymap::{Context, KEYMAP};
    for ctx in Context::ALL {
        let lines: Vec<String> = roundtable_tui::ui::help_lines(
            Theme::default(),
            ctx,
            &roundtable_games::port_royal::legend(),
        )
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect();
        for b in KEYMAP.iter().filter(|b| b.in_context(ctx)) {
            let glued = format!("{}{}", b.label, b.desc);
            assert!(
                !lines.iter().any(|l| l.trim_start().starts_with(&glued)),
                "{ctx:?}: {glued}"
            );
        }
        assert!(!lines.iter().any(|l| l.contains("Backspaceerase")));
    }
    let help = roundtable_tui::ui::help_lines(
        Theme::default(),
        Context::Help,
        &roundtable_games::port_royal::legend(),
    );
    let text: Vec<String> = help
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect();
    let section = text
        .iter()
        .skip_while(|l| l.as_str() != "Help")
        .take_while(|l| l.starts_with("  ") || l.as_str() == "Help")
        .cloned()
        .collect::<Vec<_>>()
        .join("\n");
    assert!(section.contains("page down"), "{section}");
    assert!(!section.contains("log"), "{section}");
    let snap = table();
    let mut app = table_app(&snap);
    app.update(Msg::Help, Some(&snap));
    app.update(Msg::End, Some(&snap));
    assert_snapshot!(
        "help_end_200x60",
        render(&app, Some(&snap), 200, 60).backend()
    );
}

/// A spectator is offered nothing to play and is not asked whether to
/// keep playing.
#[test]
fn a_spectator_sees_no_play_hints_and_no_keep_playing() {
    let mut snap = networked();
    snap.me = None;
    snap.seats[0].name = "ann".into();
    snap.seats[0].kind = roundtable_tui::SeatKind::Remote;
    snap.seats[0].connection = roundtable_tui::Connection::Online;
    let mut app = table_app(&snap);
    let t = render(&app, Some(&snap), 80, 24);
    let text = screen_text(&t);
    for hint in ["Enter play", "1-9 pick", "select"] {
        assert!(!text.contains(hint), "{hint}:\n{text}");
    }
    assert!(text.contains("L log"), "{text}");
    assert_snapshot!("spectator_80x24", t.backend());
    assert_snapshot!(
        "spectator_200x60",
        render(&app, Some(&snap), 200, 60).backend()
    );
    assert_eq!(app.update(Msg::Quit, Some(&snap)), None);
    let t = render(&app, Some(&snap), 80, 24);
    let text = screen_text(&t);
    assert!(text.contains("Stop watching?"), "{text}");
    assert!(!text.contains("keep playing"), "{text}");
    assert_snapshot!("spectator_quit_80x24", t.backend());
    assert_snapshot!(
        "spectator_quit_200x60",
        render(&app, Some(&snap), 200, 60).backend()
    );
}

/// The table's side log stops where its oldest row shows, like the log
/// screen: after paging far back, the first page forward moves (it used to
/// be allowed as many pages back as the log had entries, more than the side
/// log could show).
#[test]
fn the_side_log_stops_at_its_oldest_row() {
    let snap = long_log();
    for (w, h) in [(80, 24), (200, 60)] {
        let mut app = table_app(&snap);
        app.viewport = Some((w, h));
        for _ in 0..snap.log.len() {
            app.update(Msg::LogOlder, Some(&snap));
        }
        let oldest = screen_text(&render(&app, Some(&snap), w, h));
        let first = snap.log.first().map(|l| l.text.clone()).unwrap_or_default();
        let first_words: String = first.chars().take(20).collect();
        assert!(
            oldest.contains(&first_words),
            "{first_words:?} not at the top:\n{oldest}"
        );
        app.update(Msg::LogNewer, Some(&snap));
        let after = screen_text(&render(&app, Some(&snap), w, h));
        assert_ne!(oldest, after, "the first page forward did not move");
    }
}

/// The name box's cursor sits right after the name however wide its
/// characters are (accents, an emoji two cells wide), and a character
/// that would take the name past its 32 bytes is left out, whole, with a
/// notice that says where the name stops.
#[test]
fn the_name_box_cursor_follows_wide_characters_and_says_where_it_cuts() {
    let mut app = menu_app();
    app.update(Msg::Pick(7), None::<&Snapshot<PortRoyal>>);
    app.update(Msg::Clear, None::<&Snapshot<PortRoyal>>);
    for c in "Ünïcødé😀 name that is really much too long".chars() {
        app.update(Msg::Type(c), None::<&Snapshot<PortRoyal>>);
    }
    assert_eq!(app.name_draft, "Ünïcødé😀 name that is rea");
    let t = render(&app, None, 80, 24);
    let buf = t.backend().buffer();
    let (row, prompt) = (0..buf.area.height)
        .find_map(|y| {
            (0..buf.area.width)
                .find(|&x| buf[(x, y)].symbol() == ">")
                .map(|x| (y, x))
        })
        .unwrap_or_else(|| panic!("no name field:\n{}", screen_text(&t)));
    let cursor = (prompt..buf.area.width)
        .find(|&x| buf[(x, row)].symbol() == "_")
        .unwrap_or_else(|| panic!("no cursor:\n{}", screen_text(&t)));
    // "> " then the name: 😀 takes two cells, every other character one.
    let name_cells = app.name_draft.chars().count() as u16 + 1;
    assert_eq!(cursor, prompt + 2 + name_cells, "{}", screen_text(&t));
    let text = screen_text(&t);
    assert!(
        text.contains("A name holds at most 32 bytes; the rest is left out."),
        "{text}"
    );
    assert_snapshot!("name_prompt_wide_80x24", t.backend());
    assert_snapshot!(
        "name_prompt_wide_200x60",
        render(&app, None, 200, 60).backend()
    );
    // One byte left: a two-byte character does not go in by halves.
    app.update(Msg::Clear, None::<&Snapshot<PortRoyal>>);
    for _ in 0..31 {
        app.update(Msg::Type('a'), None::<&Snapshot<PortRoyal>>);
    }
    app.update(Msg::Type('é'), None::<&Snapshot<PortRoyal>>);
    assert_eq!(app.name_draft, "a".repeat(31));
    app.update(Msg::Type('b'), None::<&Snapshot<PortRoyal>>);
    assert_eq!(app.name_draft, format!("{}b", "a".repeat(31)));
}
