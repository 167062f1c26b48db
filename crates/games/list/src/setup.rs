//! A game's set-up rows: the rule options a front end offers before a
//! game, as data ([`Listed::OPTIONS`]), so that every front end shows,
//! steps and checks them alike: the terminal's set-up forms draw them
//! with no word of their own about any game, and `--option KEY=VALUE`
//! names them by the same keys.
//!
//! A row holds its value as a whole number (an on/off option as 0 or 1),
//! so that a form can hold every game's choice ([`ChosenOptions`]) before
//! it knows which game's type it will make from it.

use std::collections::BTreeMap;

use crate::{GameId, Listed, Visit};

/// The values a set-up row steps through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Values {
    /// Off (0) or on (1).
    OnOff,
    /// Every whole number from the first to the last, both included.
    Range(i64, i64),
    /// These numbers, smallest first: what a form steps through. The
    /// game may take others (`--option` passes any whole number on to it).
    Steps(&'static [i64]),
}

impl Values {
    /// `value` as the row shows it: "[x] on", "[ ] off", "< 12 >".
    pub fn words(self, value: i64) -> String {
        match self {
            Values::OnOff if value != 0 => "[x] on".to_owned(),
            Values::OnOff => "[ ] off".to_owned(),
            Values::Range(..) | Values::Steps(_) => format!("< {value} >"),
        }
    }

    /// The values in words for a person typing one ("1 to 20", "true or
    /// false", "a whole number such as 1, 5, 10, 20 or 100").
    pub fn choices(self) -> String {
        match self {
            Values::OnOff => "true or false".to_owned(),
            Values::Range(lo, hi) => format!("{lo} to {hi}"),
            Values::Steps(steps) => {
                let steps: Vec<String> = steps.iter().map(i64::to_string).collect();
                match steps.split_last() {
                    Some((last, rest)) if !rest.is_empty() => {
                        format!("a whole number such as {} or {last}", rest.join(", "))
                    }
                    _ => "a whole number".to_owned(),
                }
            }
        }
    }

    /// Whether `value` is one of the values a form steps through.
    pub fn contains(self, value: i64) -> bool {
        match self {
            Values::OnOff => value == 0 || value == 1,
            Values::Range(lo, hi) => (lo..=hi).contains(&value),
            Values::Steps(steps) => steps.contains(&value),
        }
    }

    /// `value` changed as `change` says, kept among the values: a number
    /// between two steps moves to the next step up first.
    pub fn changed(self, value: i64, change: Change) -> i64 {
        match self {
            Values::OnOff => i64::from(value == 0),
            Values::Range(lo, hi) => change.apply(value, lo, hi),
            Values::Steps([]) => value,
            Values::Steps(steps) => {
                let at = steps
                    .iter()
                    .position(|s| *s >= value)
                    .unwrap_or(steps.len() - 1);
                change.step(steps, at)
            }
        }
    }
}

/// How a key changes a set-up row: the arrows step and stop at the ends;
/// Enter steps up and wraps around, so that it alone reaches every value
/// (on a row of two values it is a toggle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// One step down, stopping at the first value.
    Less,
    /// One step up, stopping at the last value.
    More,
    /// One step up, from the last value round to the first.
    Cycle,
}

impl Change {
    /// `value` changed, kept within `lo..=hi`.
    pub fn apply(self, value: i64, lo: i64, hi: i64) -> i64 {
        match self {
            Change::Less => (value - 1).clamp(lo, hi),
            Change::More => (value + 1).clamp(lo, hi),
            Change::Cycle if value >= hi => lo,
            Change::Cycle => (value + 1).max(lo),
        }
    }

    /// The value after (or before) `all[at]` as the change says.
    pub fn step<T: Copy>(self, all: &[T], at: usize) -> T {
        let last = all.len() as i64 - 1;
        all[self.apply(at as i64, 0, last) as usize]
    }
}

/// A rule option as a set-up form shows it, apart from the game's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionRow {
    /// The option's key after `--option` (its field in the game's
    /// options, as a transcript's genesis stores them).
    pub key: &'static str,
    /// The row's label ("Victory points"), at most 19 characters, so that
    /// the values of a form's rows line up.
    pub label: &'static str,
    /// What the option does, in a few words.
    pub note: &'static str,
    /// The values it takes.
    pub values: Values,
    /// The only table size the option is a variant for, if it is one
    /// (Nereus's neutral ship is for two): at any other size the row is
    /// not shown and the option keeps the game's default.
    pub only_at_seats: Option<u8>,
}

impl OptionRow {
    /// Whether the row belongs in a set-up of `seats` seats.
    pub fn shown_at(&self, seats: u8) -> bool {
        self.only_at_seats.is_none_or(|only| only == seats)
    }
}

/// A rule option of a game whose options are `O`: its row, and how the
/// row's value is read from and written into the options.
#[derive(Clone, Copy, Debug)]
pub struct OptionField<O> {
    /// What the form shows.
    pub row: OptionRow,
    /// The option's value in `options`, as the row counts it.
    pub get: fn(&O) -> i64,
    /// Sets the option to a value of the row's [`Values`].
    pub set: fn(&mut O, i64),
}

/// An on/off option: the [`OptionField`] of field `$field` of a game's
/// options (a `bool`), keyed by the field's name, so that the key
/// `--option` takes is the field a transcript's genesis stores.
macro_rules! on_off {
    ($field:ident, $label:expr, $note:expr $(, only_at_seats: $seats:expr)?) => {
        $crate::setup::OptionField {
            row: $crate::setup::OptionRow {
                key: stringify!($field),
                label: $label,
                note: $note,
                values: $crate::setup::Values::OnOff,
                only_at_seats: $crate::setup::only_at_seats!($($seats)?),
            },
            get: |options| options.$field.into(),
            set: |options, value| options.$field = value != 0,
        }
    };
}

/// A whole-number option: the [`OptionField`] of field `$field` of a
/// game's options (an unsigned number), keyed by the field's name, taking
/// `$values`; a value the field cannot hold leaves it as it was.
macro_rules! number {
    ($field:ident, $label:expr, $note:expr, $values:expr) => {
        $crate::setup::OptionField {
            row: $crate::setup::OptionRow {
                key: stringify!($field),
                label: $label,
                note: $note,
                values: $values,
                only_at_seats: None,
            },
            get: |options| options.$field.into(),
            set: |options, value| {
                options.$field = value.try_into().unwrap_or(options.$field);
            },
        }
    };
}

/// `None`, or `Some(seats)` when given.
macro_rules! only_at_seats {
    () => {
        None
    };
    ($seats:expr) => {
        Some($seats)
    };
}

pub(crate) use {number, on_off, only_at_seats};

/// Every game's rule options as set-up forms chose them, a value per row
/// of [`Listed::OPTIONS`], kept per game, so that a form that goes from
/// one game to another and back finds its choices as it left them. A game
/// nobody changed has its default options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChosenOptions {
    /// Row values by game name; a missing value is the game's default.
    values: BTreeMap<&'static str, Vec<i64>>,
}

impl ChosenOptions {
    /// The value of `game`'s option row `row`.
    pub fn value(&self, game: GameId, row: usize) -> i64 {
        self.values
            .get(game.name())
            .and_then(|values| values.get(row).copied())
            .unwrap_or_else(|| game.default_option_values().get(row).copied().unwrap_or(0))
    }

    /// Changes `game`'s option row `row` as `change` says, within the
    /// row's values.
    pub fn change(&mut self, game: GameId, row: usize, change: Change) {
        let rows = game.option_rows();
        let Some(option) = rows.get(row) else {
            return;
        };
        let changed = option.values.changed(self.value(game, row), change);
        let values = self
            .values
            .entry(game.name())
            .or_insert_with(|| game.default_option_values());
        if let Some(value) = values.get_mut(row) {
            *value = changed;
        }
    }

    /// The options of game `G` at a table of `seats`: its defaults, with
    /// the value chosen on each row that belongs at that size.
    pub fn options<G: Listed>(&self, seats: u8) -> G::Options {
        let mut options = G::Options::default();
        if let Some(values) = self.values.get(G::NAME) {
            for (field, value) in G::OPTIONS.iter().zip(values) {
                if field.row.shown_at(seats) {
                    (field.set)(&mut options, *value);
                }
            }
        }
        options
    }

    /// Chooses `options` for game `G`, as far as its rows hold them.
    pub fn set<G: Listed>(&mut self, options: &G::Options) {
        let values = G::OPTIONS.iter().map(|f| (f.get)(options)).collect();
        self.values.insert(G::NAME, values);
    }

    /// These choices with `options` chosen for game `G`.
    pub fn with<G: Listed>(mut self, options: &G::Options) -> Self {
        self.set::<G>(options);
        self
    }
}

/// A game's option rows, apart from its type.
struct Rows;

impl Visit for Rows {
    type Output = (Vec<OptionRow>, Vec<i64>);

    fn visit<G: Listed>(self) -> Self::Output {
        let defaults = G::Options::default();
        G::OPTIONS
            .iter()
            .map(|field| (field.row, (field.get)(&defaults)))
            .unzip()
    }
}

impl GameId {
    /// The game's rule options as set-up rows, in the order a form shows
    /// them.
    pub fn option_rows(self) -> Vec<OptionRow> {
        self.visit(Rows).0
    }

    /// The value of each of the game's option rows in its default options.
    pub fn default_option_values(self) -> Vec<i64> {
        self.visit(Rows).1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row's default value is one of its values, keys differ, and
    /// each value a row steps to comes back from the options it makes.
    #[test]
    fn every_row_reads_back_each_value_it_steps_to() {
        for &game in GameId::ALL {
            let rows = game.option_rows();
            let defaults = game.default_option_values();
            let mut keys: Vec<&str> = rows.iter().map(|r| r.key).collect();
            keys.sort_unstable();
            keys.dedup();
            assert_eq!(keys.len(), rows.len(), "{game}: a key twice");
            for (at, row) in rows.iter().enumerate() {
                assert!(row.values.contains(defaults[at]), "{game} {}", row.key);
                assert!(row.label.chars().count() <= 19, "{}", row.label);
                let mut chosen = ChosenOptions::default();
                for change in [Change::Less, Change::More, Change::Cycle, Change::Cycle] {
                    chosen.change(game, at, change);
                    let value = chosen.value(game, at);
                    assert!(row.values.contains(value), "{game} {}: {value}", row.key);
                    let seats = row.only_at_seats.unwrap_or(*game.seats().start());
                    assert_eq!(read_back(game, &chosen, seats, at), value, "{}", row.key);
                }
            }
        }
    }

    /// The value of row `at` in the options `chosen` makes for `game`.
    fn read_back(game: GameId, chosen: &ChosenOptions, seats: u8, at: usize) -> i64 {
        struct ReadBack<'a>(&'a ChosenOptions, u8, usize);
        impl Visit for ReadBack<'_> {
            type Output = i64;
            fn visit<G: Listed>(self) -> i64 {
                let options = self.0.options::<G>(self.1);
                (G::OPTIONS[self.2].get)(&options)
            }
        }
        game.visit(ReadBack(chosen, seats, at))
    }

    /// A variant for one table size is left at its default at any other,
    /// whatever the form chose while it showed.
    #[test]
    fn a_variant_for_two_is_the_default_at_three() {
        let mut chosen = ChosenOptions::default();
        let at = GameId::Nereus
            .option_rows()
            .iter()
            .position(|r| r.key == "neutral_ship")
            .unwrap_or_else(|| panic!("Nereus has no neutral ship row"));
        chosen.change(GameId::Nereus, at, Change::Cycle);
        let two = chosen.options::<crate::nereus::Nereus>(2);
        let three = chosen.options::<crate::nereus::Nereus>(3);
        assert_ne!(two.neutral_ship, three.neutral_ship);
        assert_eq!(three, Default::default());
    }

    #[test]
    fn steps_move_from_between_two_steps_to_the_next() {
        let steps = Values::Steps(&[1, 5, 10]);
        assert_eq!(steps.changed(7, Change::Less), 5);
        assert_eq!(steps.changed(7, Change::More), 10);
        assert_eq!(steps.changed(10, Change::Cycle), 1);
        assert_eq!(steps.choices(), "a whole number such as 1, 5 or 10");
        assert_eq!(Values::Range(1, 20).changed(20, Change::More), 20);
        assert_eq!(Values::OnOff.words(1), "[x] on");
    }
}
