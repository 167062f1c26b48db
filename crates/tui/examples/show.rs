//! Print a few screens of a seeded local game as text (for a quick look at
//! the layout without a terminal): `cargo run -p roundtable-tui --example show -- 80 24`.

use std::time::Instant;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use roundtable_bots::{Bot, PortRoyalBot};
use roundtable_engine::Seat;
use roundtable_port_royal::PortRoyal;
use roundtable_tui::{App, LocalConfig, LocalSession, Pace, Session, Theme};

fn main() {
    let args: Vec<u16> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (w, h) = (
        args.first().copied().unwrap_or(80),
        args.get(1).copied().unwrap_or(24),
    );
    let steps = args.get(2).copied().unwrap_or(12);
    let config = LocalConfig {
        seats: 4,
        seed: Some(7),
        pace: Pace::Instant,
        ..LocalConfig::default()
    };
    let Ok(mut session) = LocalSession::<PortRoyal>::new(&config) else {
        return;
    };
    let mut bot = PortRoyalBot::default();
    let mut app = App::at_table(Theme::default());
    let mut step = 0;
    loop {
        session.poll(Instant::now());
        let snap = session.snapshot();
        app.observe(&snap);
        if step == steps || !snap.live() {
            let Ok(mut t) = Terminal::new(TestBackend::new(w, h));
            let _ =
                t.draw(|f| roundtable_tui::ui::render(&app, Some(&snap), f.area(), f.buffer_mut()));
            println!("{}", t.backend());
            if !snap.live() {
                break;
            }
            if step == steps {
                break;
            }
        }
        let i = Bot::<PortRoyal>::choose(&mut bot, Seat(0), &snap.view, &snap.legal);
        let _ = session.submit(snap.legal[i]);
        step += 1;
    }
}
