//! The one keymap: it turns keys into messages, and the hint bar and the
//! help screen are generated from it, so they can never disagree with what
//! the keys do.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::replay::Seek;

/// What a key asks for; the app's update function gives it meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Msg {
    /// Move the selection up.
    Up,
    /// Move the selection down.
    Down,
    /// Change a setting down, or move left.
    Left,
    /// Change a setting up, or move right.
    Right,
    /// Choose the selected entry.
    Confirm,
    /// Choose entry n (counted from 1).
    Pick(u8),
    /// Go back one screen or close an overlay.
    Back,
    /// Show or hide the help screen.
    Help,
    /// Quit (asks first while a game is live).
    Quit,
    /// Quit at once, without asking (Ctrl-C).
    ForceQuit,
    /// Open the full move log.
    Log,
    /// Scroll the move log back (older lines).
    LogOlder,
    /// Scroll the move log forward (newer lines).
    LogNewer,
    /// Jump to the oldest lines.
    Home,
    /// Jump to the newest lines.
    End,
    /// Answer yes.
    Yes,
    /// Answer no.
    No,
    /// Move through a replay.
    Seek(Seek),
    /// Replay the game just finished from its transcript.
    Replay,
    /// Type a character into a text field.
    Type(char),
    /// Erase the last character of a text field.
    Erase,
    /// Empty a text field (Ctrl-U, as in a shell).
    Clear,
    /// Look again (for tables on the LAN).
    Refresh,
    /// Show the board's next page (a board too big for the screen).
    Page,
    /// Show the next seat's cabin (Waters of Nereus).
    Cabin,
}

/// Where the keys are pressed: each screen and overlay has its own bindings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    /// The start menu.
    Menu,
    /// Setting up a local game.
    Setup,
    /// At the table.
    Table,
    /// At the table as a spectator: nothing to choose or play.
    Watch,
    /// The full move log.
    Log,
    /// After the game.
    PostGame,
    /// The help screen.
    Help,
    /// "Quit the game?"
    ConfirmQuit,
    /// Stepping through a transcript.
    Replay,
    /// Typing a ticket or a name: every printable key is text.
    Prompt,
    /// Choosing a saved game to replay, or typing a transcript's path.
    ReplayPrompt,
    /// The tables found on the LAN.
    Tables,
    /// A table gathering its seats.
    Lobby,
}

impl Context {
    /// Every context, in the order the help screen lists them.
    pub const ALL: [Context; 13] = [
        Context::Menu,
        Context::Setup,
        Context::Tables,
        Context::Lobby,
        Context::Table,
        Context::Watch,
        Context::Log,
        Context::PostGame,
        Context::Replay,
        Context::ReplayPrompt,
        Context::Prompt,
        Context::Help,
        Context::ConfirmQuit,
    ];

    fn bit(self) -> u16 {
        1 << (self as u16)
    }

    /// The context's name on the help screen.
    pub fn title(self) -> &'static str {
        match self {
            Context::Menu => "Start menu",
            Context::Setup => "Setting up a game",
            Context::Table => "At the table",
            Context::Watch => "Watching a table",
            Context::Log => "Move log",
            Context::PostGame => "After the game",
            Context::Help => "Help",
            Context::ConfirmQuit => "Quit?",
            Context::Replay => "Replaying a transcript",
            Context::Prompt => "Typing a ticket or a name",
            Context::ReplayPrompt => "Choosing a transcript",
            Context::Tables => "Tables on the LAN",
            Context::Lobby => "Waiting for players",
        }
    }
}

/// Which keys a binding answers to.
#[derive(Clone, Copy, Debug)]
pub enum Keys {
    /// Any of these keys, without Ctrl or Alt.
    Codes(&'static [KeyCode]),
    /// Digits 1 to 9, giving [`Msg::Pick`].
    Digits,
    /// This key with Ctrl held.
    Ctrl(char),
    /// Any printable character, giving [`Msg::Type`].
    Text,
}

/// One line of the keymap.
#[derive(Clone, Copy, Debug)]
pub struct Binding {
    /// The keys.
    pub keys: Keys,
    /// How the keys are written in the hint bar and on the help screen.
    pub label: &'static str,
    /// What the binding does, per the contexts it is in.
    pub desc: &'static str,
    /// The message it sends (for digits, `Pick(0)` stands for any digit).
    pub msg: Msg,
    contexts: u16,
    /// Whether the hint bar shows it.
    pub hint: bool,
}

impl Binding {
    /// Whether the binding turns a paged board (and does nothing for a
    /// game whose board has no pages).
    pub fn paged(&self) -> bool {
        matches!(self.msg, Msg::Page | Msg::Cabin)
    }

    /// Whether the binding is active in `ctx`.
    pub fn in_context(&self, ctx: Context) -> bool {
        self.contexts & ctx.bit() != 0
    }

    fn matches(&self, key: &KeyEvent) -> Option<Msg> {
        let plain = !key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
        match self.keys {
            Keys::Codes(codes) => (plain && codes.contains(&key.code)).then_some(self.msg),
            Keys::Digits => match key.code {
                KeyCode::Char(c @ '1'..='9') if plain => Some(Msg::Pick(c as u8 - b'0')),
                _ => None,
            },
            Keys::Ctrl(c) => (key.modifiers.contains(KeyModifiers::CONTROL)
                && key.code == KeyCode::Char(c))
            .then_some(self.msg),
            Keys::Text => match key.code {
                KeyCode::Char(c) if plain && !c.is_control() => Some(Msg::Type(c)),
                _ => None,
            },
        }
    }
}

const fn ctx(list: &[Context]) -> u16 {
    let mut bits = 0;
    let mut i = 0;
    while i < list.len() {
        bits |= 1 << (list[i] as u16);
        i += 1;
    }
    bits
}

use Context::{
    ConfirmQuit, Help, Lobby, Log, Menu, PostGame, Prompt, Replay, ReplayPrompt, Setup, Table,
    Tables, Watch,
};

const fn bind(
    keys: Keys,
    label: &'static str,
    desc: &'static str,
    msg: Msg,
    contexts: u16,
    hint: bool,
) -> Binding {
    Binding {
        keys,
        label,
        desc,
        msg,
        contexts,
        hint,
    }
}

const UP: &[KeyCode] = &[KeyCode::Up, KeyCode::Char('k')];
const DOWN: &[KeyCode] = &[KeyCode::Down, KeyCode::Char('j')];
const LEFT: &[KeyCode] = &[KeyCode::Left, KeyCode::Char('h')];
const RIGHT: &[KeyCode] = &[KeyCode::Right, KeyCode::Char('l')];

/// Every binding, in the order the hint bar and the help screen show them.
pub static KEYMAP: &[Binding] = &[
    bind(
        Keys::Codes(UP),
        "↑/k",
        "up",
        Msg::Up,
        ctx(&[Menu, Setup, Tables, Table, Log, Help]),
        false,
    ),
    bind(
        Keys::Codes(DOWN),
        "↓/j",
        "down",
        Msg::Down,
        ctx(&[Menu, Setup, Tables, Table, Log, Help]),
        false,
    ),
    bind(
        Keys::Codes(&[]),
        "↑↓/jk",
        "select",
        Msg::Up,
        ctx(&[Menu, Setup, Tables, Table]),
        true,
    ),
    bind(
        Keys::Codes(&[]),
        "↑↓/jk",
        "scroll",
        Msg::Up,
        ctx(&[Log, Help]),
        true,
    ),
    // On a game's board the side arrows choose too (a Nereus ship's
    // destination); where they choose nothing they turn a paged board's
    // page, and a game with neither ignores them.
    bind(
        Keys::Codes(&[KeyCode::Left]),
        "←",
        "board: left, or its previous page",
        Msg::Left,
        ctx(&[Table, Watch]),
        false,
    ),
    bind(
        Keys::Codes(&[KeyCode::Right]),
        "→",
        "board: right, or its next page",
        Msg::Right,
        ctx(&[Table, Watch]),
        false,
    ),
    // Letters are text where a path is typed: only the arrows choose.
    bind(
        Keys::Codes(&[KeyCode::Up]),
        "↑",
        "newer saved game",
        Msg::Up,
        ctx(&[ReplayPrompt]),
        false,
    ),
    bind(
        Keys::Codes(&[KeyCode::Down]),
        "↓",
        "older saved game",
        Msg::Down,
        ctx(&[ReplayPrompt]),
        false,
    ),
    bind(
        Keys::Codes(&[]),
        "↑↓",
        "saved games",
        Msg::Up,
        ctx(&[ReplayPrompt]),
        true,
    ),
    bind(
        Keys::Codes(LEFT),
        "←/h",
        "less",
        Msg::Left,
        ctx(&[Setup]),
        false,
    ),
    bind(
        Keys::Codes(RIGHT),
        "→/l",
        "more",
        Msg::Right,
        ctx(&[Setup]),
        false,
    ),
    bind(
        Keys::Codes(&[]),
        "←→/hl",
        "change",
        Msg::Left,
        ctx(&[Setup]),
        true,
    ),
    bind(
        Keys::Codes(&[KeyCode::Right, KeyCode::Char('l'), KeyCode::Char(' ')]),
        "→/l/Space",
        "next input",
        Msg::Seek(Seek::Forward),
        ctx(&[Replay]),
        false,
    ),
    bind(
        Keys::Codes(&[KeyCode::Left, KeyCode::Char('h')]),
        "←/h",
        "previous input",
        Msg::Seek(Seek::Back),
        ctx(&[Replay]),
        false,
    ),
    bind(
        Keys::Codes(&[]),
        "←→/hl",
        "step",
        Msg::Seek(Seek::Forward),
        ctx(&[Replay]),
        true,
    ),
    bind(
        Keys::Codes(&[
            KeyCode::Down,
            KeyCode::Char('j'),
            KeyCode::PageDown,
            KeyCode::Char(']'),
        ]),
        "↓/j/PgDn/]",
        "next turn",
        Msg::Seek(Seek::NextTurn),
        ctx(&[Replay]),
        false,
    ),
    bind(
        Keys::Codes(&[
            KeyCode::Up,
            KeyCode::Char('k'),
            KeyCode::PageUp,
            KeyCode::Char('['),
        ]),
        "↑/k/PgUp/[",
        "back to the turn's start",
        Msg::Seek(Seek::PrevTurn),
        ctx(&[Replay]),
        false,
    ),
    bind(
        Keys::Codes(&[]),
        "↑↓/jk",
        "turn",
        Msg::Seek(Seek::NextTurn),
        ctx(&[Replay]),
        true,
    ),
    bind(
        Keys::Codes(&[KeyCode::Home, KeyCode::Char('g')]),
        "Home/g",
        "to the start",
        Msg::Seek(Seek::Start),
        ctx(&[Replay]),
        false,
    ),
    bind(
        Keys::Codes(&[KeyCode::End, KeyCode::Char('G')]),
        "End/G",
        "to the end",
        Msg::Seek(Seek::End),
        ctx(&[Replay]),
        false,
    ),
    bind(
        Keys::Codes(&[]),
        "g/G",
        "start/end",
        Msg::Seek(Seek::Start),
        ctx(&[Replay]),
        true,
    ),
    bind(
        Keys::Text,
        "a-z...",
        "type (or paste)",
        Msg::Type(' '),
        ctx(&[Prompt, ReplayPrompt]),
        false,
    ),
    bind(
        Keys::Codes(&[KeyCode::Backspace]),
        "Backspace",
        "erase",
        Msg::Erase,
        ctx(&[Prompt, ReplayPrompt]),
        false,
    ),
    bind(
        Keys::Ctrl('u'),
        "Ctrl-U",
        "clear",
        Msg::Clear,
        ctx(&[Prompt, ReplayPrompt]),
        true,
    ),
    bind(
        Keys::Codes(&[KeyCode::Enter]),
        "Enter",
        "confirm",
        Msg::Confirm,
        ctx(&[Prompt]),
        true,
    ),
    bind(
        Keys::Codes(&[KeyCode::Enter]),
        "Enter",
        "open",
        Msg::Confirm,
        ctx(&[ReplayPrompt]),
        true,
    ),
    bind(
        Keys::Codes(&[KeyCode::Enter]),
        "Enter",
        "join",
        Msg::Confirm,
        ctx(&[Tables]),
        true,
    ),
    bind(
        Keys::Codes(&[KeyCode::Char('r')]),
        "r",
        "look again",
        Msg::Refresh,
        ctx(&[Tables]),
        true,
    ),
    bind(
        Keys::Codes(&[KeyCode::Esc]),
        "Esc",
        "leave the table",
        Msg::Back,
        ctx(&[Lobby]),
        true,
    ),
    bind(
        Keys::Codes(&[KeyCode::Enter]),
        "Enter",
        "choose",
        Msg::Confirm,
        ctx(&[Menu, Setup]),
        true,
    ),
    bind(
        Keys::Codes(&[KeyCode::Enter]),
        "Enter",
        "play",
        Msg::Confirm,
        ctx(&[Table]),
        true,
    ),
    // Only a move chosen in steps (Guildhall's) has a step to go back to;
    // its moves panel says so, so the hint bar leaves it out.
    bind(
        Keys::Codes(&[KeyCode::Esc]),
        "Esc",
        "back a step (moves chosen in steps)",
        Msg::Back,
        ctx(&[Table]),
        false,
    ),
    bind(
        Keys::Codes(&[KeyCode::Enter]),
        "Enter",
        "start menu",
        Msg::Confirm,
        ctx(&[PostGame]),
        true,
    ),
    bind(
        Keys::Digits,
        "1-9",
        "pick",
        Msg::Pick(0),
        ctx(&[Menu, Table]),
        true,
    ),
    bind(
        Keys::Codes(&[KeyCode::PageUp, KeyCode::Char('[')]),
        "PgUp/[",
        "older log lines",
        Msg::LogOlder,
        ctx(&[Table, Watch, Log]),
        false,
    ),
    bind(
        Keys::Codes(&[KeyCode::PageDown, KeyCode::Char(']')]),
        "PgDn/]",
        "newer log lines",
        Msg::LogNewer,
        ctx(&[Table, Watch, Log]),
        false,
    ),
    bind(
        Keys::Codes(&[KeyCode::Home, KeyCode::Char('g')]),
        "Home/g",
        "oldest log lines",
        Msg::Home,
        ctx(&[Log]),
        false,
    ),
    bind(
        Keys::Codes(&[KeyCode::End, KeyCode::Char('G')]),
        "End/G",
        "newest log lines",
        Msg::End,
        ctx(&[Table, Watch, Log]),
        false,
    ),
    // The same keys page through the help itself.
    bind(
        Keys::Codes(&[KeyCode::PageUp, KeyCode::Char('[')]),
        "PgUp/[",
        "page up",
        Msg::LogOlder,
        ctx(&[Help]),
        false,
    ),
    bind(
        Keys::Codes(&[KeyCode::PageDown, KeyCode::Char(']')]),
        "PgDn/]",
        "page down",
        Msg::LogNewer,
        ctx(&[Help]),
        false,
    ),
    bind(
        Keys::Codes(&[KeyCode::Home, KeyCode::Char('g')]),
        "Home/g",
        "top",
        Msg::Home,
        ctx(&[Help]),
        false,
    ),
    bind(
        Keys::Codes(&[KeyCode::End, KeyCode::Char('G')]),
        "End/G",
        "bottom",
        Msg::End,
        ctx(&[Help]),
        false,
    ),
    bind(
        Keys::Codes(&[KeyCode::Char('L'), KeyCode::Tab]),
        "L",
        "log",
        Msg::Log,
        ctx(&[Table, Watch, PostGame, Replay]),
        true,
    ),
    // A board too big for the screen shows in pages (Waters of Nereus at
    // 80x24: the grid, the crew rows, a cabin); only such a game's hint bar
    // shows these two ([`Binding::paged`]).
    bind(
        Keys::Codes(&[KeyCode::Char('v')]),
        "v",
        "pages",
        Msg::Page,
        ctx(&[Table, Watch, Replay]),
        true,
    ),
    bind(
        Keys::Codes(&[KeyCode::Char('c')]),
        "c",
        "cabins",
        Msg::Cabin,
        ctx(&[Table, Watch, Replay]),
        true,
    ),
    bind(
        Keys::Codes(&[KeyCode::Char('r')]),
        "r",
        "replay this game",
        Msg::Replay,
        ctx(&[PostGame]),
        true,
    ),
    // The question above says what yes does (quit, leave for the start
    // menu, stop watching), so the answers stay plain.
    bind(
        Keys::Codes(&[KeyCode::Char('y'), KeyCode::Char('Y')]),
        "y",
        "yes",
        Msg::Yes,
        ctx(&[ConfirmQuit]),
        true,
    ),
    bind(
        Keys::Codes(&[KeyCode::Char('n'), KeyCode::Char('N'), KeyCode::Esc]),
        "n/Esc",
        "no",
        Msg::No,
        ctx(&[ConfirmQuit]),
        true,
    ),
    bind(
        Keys::Codes(&[KeyCode::Esc]),
        "Esc",
        "back",
        Msg::Back,
        ctx(&[Setup, Tables, Log, Help, Replay, Prompt, ReplayPrompt]),
        true,
    ),
    bind(
        Keys::Codes(&[KeyCode::Char('?')]),
        "?",
        "help",
        Msg::Help,
        ctx(&[
            Menu, Setup, Tables, Lobby, Table, Watch, Log, PostGame, Replay, Help,
        ]),
        true,
    ),
    bind(
        Keys::Codes(&[KeyCode::Char('q')]),
        "q",
        "quit",
        Msg::Quit,
        ctx(&[
            Menu, Setup, Tables, Lobby, Table, Watch, Log, PostGame, Replay, Help,
        ]),
        true,
    ),
    bind(
        Keys::Ctrl('c'),
        "Ctrl-C",
        "quit at once",
        Msg::ForceQuit,
        ctx(&[
            Menu,
            Setup,
            Tables,
            Lobby,
            Table,
            Watch,
            Log,
            PostGame,
            Replay,
            ReplayPrompt,
            Prompt,
            Help,
            ConfirmQuit,
        ]),
        false,
    ),
];

/// The message `key` sends in `ctx`, if any.
pub fn lookup(ctx: Context, key: &KeyEvent) -> Option<Msg> {
    KEYMAP
        .iter()
        .filter(|b| b.in_context(ctx))
        .find_map(|b| b.matches(key))
}

/// The hint bar's entries for `ctx`: (keys, what they do). The keys of a
/// paged board show only for a game whose board has pages (`paged`).
pub fn hints(ctx: Context, paged: bool) -> impl Iterator<Item = (&'static str, &'static str)> {
    KEYMAP
        .iter()
        .filter(move |b| b.hint && b.in_context(ctx) && (paged || !b.paged()))
        .map(|b| (b.label, b.desc))
}

/// The help screen's sections: keys that work everywhere, then `current`'s
/// keys, then every other context's; each binding that does something there
/// (the hint bar's summaries are left out in favour of the keys themselves).
pub fn help_sections(current: Context) -> Vec<(&'static str, Vec<(&'static str, &'static str)>)> {
    let everywhere = |b: &Binding| {
        [
            Context::Menu,
            Context::Setup,
            Context::Table,
            Context::Log,
            Context::PostGame,
        ]
        .iter()
        .all(|&c| b.in_context(c))
    };
    let mut sections = vec![(
        "Everywhere",
        KEYMAP
            .iter()
            .filter(|b| everywhere(b))
            .map(|b| (b.label, b.desc))
            .collect(),
    )];
    let order = std::iter::once(current).chain(Context::ALL.into_iter().filter(|&c| c != current));
    for c in order {
        let lines: Vec<_> = KEYMAP
            .iter()
            .filter(|b| b.in_context(c) && !is_summary(b) && !everywhere(b))
            .map(|b| (b.label, b.desc))
            .collect();
        if !lines.is_empty() {
            sections.push((c.title(), lines));
        }
    }
    sections
}

/// A hint-bar summary of several bindings ("↑↓/jk select"), bound to no key.
fn is_summary(b: &Binding) -> bool {
    matches!(b.keys, Keys::Codes(codes) if codes.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn arrows_and_vim_keys_agree() {
        for ctx in [Context::Menu, Context::Table] {
            assert_eq!(lookup(ctx, &key(KeyCode::Up)), Some(Msg::Up));
            assert_eq!(lookup(ctx, &key(KeyCode::Char('k'))), Some(Msg::Up));
            assert_eq!(lookup(ctx, &key(KeyCode::Down)), Some(Msg::Down));
            assert_eq!(lookup(ctx, &key(KeyCode::Char('j'))), Some(Msg::Down));
        }
        assert_eq!(
            lookup(Context::Setup, &key(KeyCode::Char('h'))),
            Some(Msg::Left)
        );
        assert_eq!(
            lookup(Context::Setup, &key(KeyCode::Right)),
            Some(Msg::Right)
        );
    }

    #[test]
    fn digits_pick_and_ctrl_c_always_quits() {
        assert_eq!(
            lookup(Context::Table, &key(KeyCode::Char('3'))),
            Some(Msg::Pick(3))
        );
        assert_eq!(lookup(Context::Table, &key(KeyCode::Char('0'))), None);
        for ctx in Context::ALL {
            let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
            assert_eq!(lookup(ctx, &ctrl_c), Some(Msg::ForceQuit), "{ctx:?}");
        }
    }

    #[test]
    fn every_key_that_works_is_on_the_help_screen_and_hint_bars_offer_help() {
        for ctx in Context::ALL {
            let sections = help_sections(ctx);
            let shown: Vec<(&str, &str)> = sections
                .iter()
                .filter(|(title, _)| *title == ctx.title() || *title == "Everywhere")
                .flat_map(|(_, lines)| lines.iter().copied())
                .collect();
            for b in KEYMAP
                .iter()
                .filter(|b| b.in_context(ctx) && !is_summary(b))
            {
                assert!(shown.contains(&(b.label, b.desc)), "{ctx:?}: {}", b.label);
            }
            // Typing a path takes every printable key, ? and q included.
            if !matches!(
                ctx,
                Context::ConfirmQuit | Context::Prompt | Context::ReplayPrompt
            ) {
                assert!(
                    hints(ctx, false).any(|(k, _)| k == "?"),
                    "{ctx:?} hints help"
                );
                assert!(
                    hints(ctx, false).any(|(k, _)| k == "q"),
                    "{ctx:?} hints quit"
                );
            }
        }
    }

    #[test]
    fn replay_keys_step_jump_and_typing_takes_every_letter() {
        use crate::replay::Seek;
        let replay = |code| lookup(Context::Replay, &key(code));
        assert_eq!(replay(KeyCode::Right), Some(Msg::Seek(Seek::Forward)));
        assert_eq!(replay(KeyCode::Char('h')), Some(Msg::Seek(Seek::Back)));
        assert_eq!(replay(KeyCode::Char('j')), Some(Msg::Seek(Seek::NextTurn)));
        assert_eq!(replay(KeyCode::PageUp), Some(Msg::Seek(Seek::PrevTurn)));
        assert_eq!(replay(KeyCode::Char('G')), Some(Msg::Seek(Seek::End)));
        assert_eq!(replay(KeyCode::Char('q')), Some(Msg::Quit));
        for c in ['q', '?', '/', 'G', '1'] {
            assert_eq!(
                lookup(Context::Prompt, &key(KeyCode::Char(c))),
                Some(Msg::Type(c))
            );
        }
        assert_eq!(
            lookup(Context::Prompt, &key(KeyCode::Backspace)),
            Some(Msg::Erase)
        );
    }

    #[test]
    fn lobby_and_lan_tables_keys() {
        assert_eq!(lookup(Context::Lobby, &key(KeyCode::Esc)), Some(Msg::Back));
        assert_eq!(
            lookup(Context::Lobby, &key(KeyCode::Char('q'))),
            Some(Msg::Quit)
        );
        // Digits do not pick moves while the table is not playing yet.
        assert_eq!(lookup(Context::Lobby, &key(KeyCode::Char('1'))), None);
        assert_eq!(
            lookup(Context::Tables, &key(KeyCode::Char('r'))),
            Some(Msg::Refresh)
        );
        assert_eq!(
            lookup(Context::Tables, &key(KeyCode::Char('j'))),
            Some(Msg::Down)
        );
        assert_eq!(
            lookup(Context::Tables, &key(KeyCode::Enter)),
            Some(Msg::Confirm)
        );
        // A ticket pasted into the prompt arrives as keys: every one is text.
        for c in "rt1_AbC-9=".chars() {
            assert_eq!(
                lookup(Context::Prompt, &key(KeyCode::Char(c))),
                Some(Msg::Type(c))
            );
        }
    }

    #[test]
    fn no_key_means_two_things_in_one_context() {
        let probes: Vec<KeyEvent> = [
            KeyCode::Up,
            KeyCode::Down,
            KeyCode::Left,
            KeyCode::Right,
            KeyCode::Enter,
            KeyCode::Esc,
            KeyCode::Tab,
            KeyCode::PageUp,
            KeyCode::PageDown,
            KeyCode::Home,
            KeyCode::End,
            KeyCode::Backspace,
        ]
        .into_iter()
        .chain(('!'..='~').map(KeyCode::Char))
        .map(key)
        .collect();
        for ctx in Context::ALL {
            for k in &probes {
                let hits = KEYMAP
                    .iter()
                    .filter(|b| b.in_context(ctx))
                    .filter(|b| b.matches(k).is_some())
                    .count();
                assert!(hits <= 1, "{ctx:?}: {:?} is bound {hits} times", k.code);
            }
        }
    }
}
