//! Figures for the terminal front end, printed as a table:
//!
//! * frame render time: drawing the table screen of a mid-game snapshot
//!   into a 200x60 (and 80x24) buffer, and a full redraw through crossterm's
//!   backend into a byte sink (escape codes included, no terminal I/O);
//! * input-to-redraw latency: a key (Enter: submit the selected move) through
//!   the keymap, the app's update, the session (your table signs the move and
//!   the in-process tables take it in), a new snapshot and a full crossterm
//!   redraw, sampled at every one of your moves through whole games; and a
//!   key that only moves the selection.
//!
//! `cargo run --release -p roundtable-tui --example figures`

use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::backend::{CrosstermBackend, TestBackend};
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};
use roundtable_bots::{Bot, PortRoyalBot};
use roundtable_port_royal::PortRoyal;
use roundtable_tui::ui::Ui;
use roundtable_tui::{App, LocalConfig, LocalSession, Pace, Runner, Session, Theme};

fn stats(name: &str, mut samples: Vec<Duration>) {
    samples.sort();
    let pick = |q: f64| samples[((samples.len() - 1) as f64 * q) as usize];
    println!(
        "{name:<44} median {:>8.1} us   p99 {:>8.1} us   max {:>8.1} us",
        pick(0.5).as_secs_f64() * 1e6,
        pick(0.99).as_secs_f64() * 1e6,
        pick(1.0).as_secs_f64() * 1e6
    );
}

fn sink_terminal(w: u16, h: u16) -> Terminal<CrosstermBackend<std::io::Sink>> {
    let backend = CrosstermBackend::new(std::io::sink());
    let options = TerminalOptions {
        viewport: Viewport::Fixed(Rect::new(0, 0, w, h)),
    };
    Terminal::with_options(backend, options).unwrap_or_else(|e| panic!("{e}"))
}

/// A 4-seat game some turns in, at the player's move. Bots move only when
/// the session is polled, so a sample of "submit a move" is that move alone.
fn mid_game() -> LocalSession<PortRoyal> {
    let config = LocalConfig {
        seats: 4,
        seed: Some(2024),
        pace: Pace::Instant,
        ..LocalConfig::default()
    };
    let mut session = LocalSession::<PortRoyal>::new(&config).unwrap_or_else(|e| panic!("{e}"));
    let mut bot = PortRoyalBot::default();
    for _ in 0..40 {
        session.poll(Instant::now());
        let snap = session.snapshot();
        let i = Bot::<PortRoyal>::choose(&mut bot, session.me(), &snap.view, &snap.legal);
        let _ = session.submit(snap.legal[i]);
    }
    session.poll(Instant::now());
    session
}

fn main() {
    let session = mid_game();
    let snap = session.snapshot();
    let mut app = App::at_table(Theme::default());
    app.observe(&snap);
    let n = 2000;

    for (w, h) in [(200u16, 60u16), (80, 24)] {
        let mut t = Terminal::new(TestBackend::new(w, h)).unwrap_or_else(|e| match e {});
        let samples = (0..n)
            .map(|_| {
                let start = Instant::now();
                let _ = t.draw(|f| {
                    f.render_widget(
                        Ui {
                            app: &app,
                            snap: Some(&snap),
                        },
                        f.area(),
                    )
                });
                start.elapsed()
            })
            .collect();
        stats(&format!("render table {w}x{h} into a buffer"), samples);
    }
    let mut t = sink_terminal(200, 60);
    let samples = (0..n)
        .map(|_| {
            let _ = t.clear();
            let start = Instant::now();
            let _ = t.draw(|f| {
                f.render_widget(
                    Ui {
                        app: &app,
                        snap: Some(&snap),
                    },
                    f.area(),
                )
            });
            start.elapsed()
        })
        .collect();
    stats("full redraw 200x60 through crossterm", samples);

    // Input to redraw, at every move of whole games: the key goes through
    // the keymap and the app to the session, then the screen is redrawn.
    let enter = KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE);
    let down = KeyEvent::new(KeyCode::Down, KeyModifiers::NONE);
    let (mut moves, mut selections) = (Vec::new(), Vec::new());
    for seed in 0..4 {
        let config = LocalConfig {
            seats: 4,
            seed: Some(seed),
            pace: Pace::Instant,
            ..LocalConfig::default()
        };
        let session = LocalSession::<PortRoyal>::new(&config).unwrap_or_else(|e| panic!("{e}"));
        let mut runner =
            Runner::new(App::at_table(Theme::default())).with_session(Box::new(session));
        let mut t = sink_terminal(200, 60);
        for _ in 0..400 {
            runner.poll(Instant::now());
            let _ = runner.draw(&mut t);
            let start = Instant::now();
            runner.key(&down);
            let _ = runner.draw(&mut t);
            selections.push(start.elapsed());
            let start = Instant::now();
            runner.key(&enter);
            let _ = runner.draw(&mut t);
            moves.push(start.elapsed());
        }
    }
    stats("key to redraw 200x60: Enter (a move)", moves);
    stats("key to redraw 200x60: Down (selection)", selections);
}
