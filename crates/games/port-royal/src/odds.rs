//! What a seat can tell of the cards still to come from its view alone.
//!
//! These are facts of the rules and the view, not of any player's strategy:
//! the screen shows the bust chance next to "draw", and the bots price their
//! draws over the same estimate of the unseen cards.

use roundtable_engine::Seat;

use crate::catalog::deck_counts;
use crate::{CardKind, View};

/// Cards that may come next, per catalog row: every card of the game (with
/// the expansion's cards when `expansion`) minus the face-up ones in `view`.
///
/// The discard pile's faces are not in a view, so they count as unseen; that
/// overstates the ships a little (traded ships are discarded).
pub fn unseen_cards(view: &View, expansion: bool) -> Vec<u32> {
    let mut counts = deck_counts(expansion);
    let visible = view
        .harbor
        .iter()
        .chain(&view.expeditions)
        .chain(view.pending_ship.iter())
        .chain(
            view.players
                .iter()
                .flat_map(|p| p.persons.iter().chain(&p.expeditions)),
        )
        // Ships kept aside for Pack of Pirates stay out of every reshuffle.
        .chain(
            view.expansion
                .iter()
                .flat_map(|x| x.kept_aside.iter().flatten()),
        );
    for c in visible {
        if let Some(n) = counts.get_mut(usize::from(c.0.0)) {
            *n = n.saturating_sub(1);
        }
    }
    counts
}

/// The chance that the next card `seat` draws ends its turn in a bust: a
/// ship of a colour already in the harbor that its swords cannot repel.
///
/// An estimate over [`unseen_cards`] of the game's own deck (the view says
/// whether it holds the expansion's cards).
pub fn bust_chance(view: &View, seat: Seat) -> f64 {
    let unseen = unseen_cards(view, view.expansion.is_some());
    let total: u32 = unseen.iter().sum();
    if total == 0 {
        return 0.0;
    }
    let swords = view.players.get(seat.index()).map_or(0, |p| p.swords);
    let busting: u32 = unseen
        .iter()
        .enumerate()
        .filter_map(|(row, &n)| Some((crate::CardId::from_index(row as u32)?, n)))
        .filter(|&(card, _)| {
            let colour_in_harbor = card.ship_colour().is_some_and(|colour| {
                view.harbor
                    .iter()
                    .any(|h| h.0.ship_colour() == Some(colour))
            });
            let repellable = matches!(
                card.kind(),
                CardKind::Ship { swords: Some(s), .. } if swords >= u32::from(s)
            );
            colour_in_harbor && !repellable
        })
        .map(|(_, n)| n)
        .sum();
    f64::from(busting) / f64::from(total)
}

#[cfg(test)]
mod tests {
    use roundtable_engine::{Game, Observer};

    use super::*;
    use crate::catalog::CATALOG;
    use crate::{CardId, CardName, Colour, Options, PortRoyal};

    fn card(name: &str) -> CardName {
        CardName(CardId::parse(name).unwrap_or_else(|| panic!("no card {name}")))
    }

    /// A fresh game's view of seat 1 in Discover with `harbor`, seat 1
    /// holding `persons` (their swords counted).
    fn discover(options: &Options, harbor: &[&str], persons: &[&str]) -> View {
        let mut v = PortRoyal::new_game(2, options)
            .unwrap_or_else(|e| panic!("{e}"))
            .view(Observer::Seat(Seat(0)));
        v.phase = "discover";
        v.harbor = harbor.iter().map(|c| card(c)).collect();
        let persons: Vec<CardName> = persons.iter().map(|p| card(p)).collect();
        v.players[0].swords = persons
            .iter()
            .map(|p| match p.0.kind() {
                CardKind::Person { kind, .. } => kind.swords(),
                _ => 0,
            })
            .sum();
        v.players[0].persons = persons;
        v
    }

    #[test]
    fn bust_chance_counts_unrepellable_ships_of_harbor_colours() {
        let base = Options::default();
        assert_eq!(bust_chance(&discover(&base, &[], &[]), Seat(0)), 0.0);
        let p = bust_chance(&discover(&base, &["ship:yellow:1:1"], &[]), Seat(0));
        // 9 yellow ships left among 118 unseen cards.
        assert!((p - 9.0 / 118.0).abs() < 1e-9, "{p}");
        let sailor = discover(&base, &["ship:yellow:1:1"], &["person:sailor:3:1"]);
        // The Sailor repels the three 1-sword yellow ships left.
        assert!((bust_chance(&sailor, Seat(0)) - 6.0 / 117.0).abs() < 1e-9);
    }

    /// In an expansion game the figure counts the expansion's deck: the
    /// yellow ships still to come among every card still to come, with the
    /// expansion's copies in both.
    #[test]
    fn bust_chance_counts_the_expansion_deck_in_an_expansion_game() {
        let options = Options {
            expansion: true,
            ..Options::default()
        };
        let v = discover(&options, &["ship:yellow:1:1"], &[]);
        assert!(v.expeditions.is_empty() && v.pending_ship.is_none());
        assert!(v.players.iter().all(|p| p.persons.is_empty()));
        let deck = deck_counts(true);
        let all: u32 = deck.iter().sum();
        let yellow_ships: u32 = CATALOG
            .iter()
            .zip(&deck)
            .filter(|(t, _)| {
                matches!(
                    t.kind,
                    CardKind::Ship {
                        colour: Colour::Yellow,
                        ..
                    }
                )
            })
            .map(|(_, n)| n)
            .sum();
        assert_ne!(all, deck_counts(false).iter().sum::<u32>());
        let expected = f64::from(yellow_ships - 1) / f64::from(all - 1);
        let p = bust_chance(&v, Seat(0));
        assert!((p - expected).abs() < 1e-9, "{p} against {expected}");
    }
}
