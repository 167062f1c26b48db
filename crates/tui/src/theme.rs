//! Colours, from the 16 ANSI colours only so that the user's palette applies,
//! and none at all when `NO_COLOR` is set. Meaning never rests on colour:
//! ships carry their colour's letter, the selection is reversed and marked
//! with `>`, seats carry their number.

use ratatui::style::{Color, Modifier, Style};
use roundtable_port_royal::Colour;

/// How the screen is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    /// Whether to use colour at all.
    pub colour: bool,
}

impl Default for Theme {
    fn default() -> Self {
        Theme { colour: true }
    }
}

impl Theme {
    /// Colour unless the `NO_COLOR` environment variable is set to anything
    /// non-empty (<https://no-color.org>).
    pub fn from_env() -> Self {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Theme { colour: !no_color }
    }

    /// A theme without colour (modifiers only).
    pub fn plain() -> Self {
        Theme { colour: false }
    }

    fn fg(self, c: Color) -> Style {
        if self.colour {
            Style::new().fg(c)
        } else {
            Style::new()
        }
    }

    /// A ship colour's style.
    pub fn ship(self, colour: Colour) -> Style {
        self.fg(match colour {
            Colour::Yellow => Color::Yellow,
            Colour::Blue => Color::Blue,
            Colour::Green => Color::Green,
            Colour::Red => Color::Red,
            // Bright black: readable on dark and light backgrounds.
            Colour::Black => Color::DarkGray,
        })
    }

    /// A seat's style (seats also show their number).
    pub fn seat(self, index: usize) -> Style {
        const SEATS: [Color; 5] = [
            Color::Cyan,
            Color::Magenta,
            Color::LightGreen,
            Color::LightYellow,
            Color::LightBlue,
        ];
        self.fg(SEATS[index % SEATS.len()])
    }

    /// Titles and headings.
    pub fn title(self) -> Style {
        self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
    }

    /// The selected entry: reversed, so it shows without colour too.
    pub fn selected(self) -> Style {
        Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD)
    }

    /// Less important text.
    pub fn dim(self) -> Style {
        if self.colour {
            Style::new().fg(Color::DarkGray)
        } else {
            Style::new().add_modifier(Modifier::DIM)
        }
    }

    /// Warnings and errors.
    pub fn warn(self) -> Style {
        self.fg(Color::LightRed).add_modifier(Modifier::BOLD)
    }

    /// Good news: your move, the winner.
    pub fn good(self) -> Style {
        self.fg(Color::LightGreen).add_modifier(Modifier::BOLD)
    }

    /// Keys in the hint bar.
    pub fn key(self) -> Style {
        self.fg(Color::Yellow).add_modifier(Modifier::BOLD)
    }
}
