//! Standings from synthetic audited games: the same games in any order give
//! the same bytes, every table shares its points as the rule says, and a
//! cheater never scores at the table it cheated at.

use proptest::prelude::*;
use roundtable_engine::{GameResult, Seat, Standing};
use roundtable_table::{GameId, Identity};
use roundtable_tournament::{
    Format, Manifest, OpenedShares, Outcome, Registration, Submission, Terms, standings,
    table_nonce,
};

/// A manifest of `players` players, with every player's seed share opened.
fn manifest(players: u8, seats: u8, rounds: u32) -> (Manifest, OpenedShares) {
    let director = Identity::from_secret([200; 32]);
    let terms = Terms {
        name: "Property open".into(),
        game: "port-royal".into(),
        options: vec![0],
        format: Format::Swiss { rounds },
        seats_per_table: seats,
        stall_timeout_ms: 1000,
        show_up_ms: 1000,
        director: director.public(),
        nonce: [1; 32],
    };
    let regs = (0..players)
        .map(|i| {
            Registration::sign(
                terms.id(),
                &Identity::from_secret([i + 1; 32]),
                &format!("P{i}"),
                [i; 32],
            )
        })
        .collect();
    let shares = (0..players)
        .map(|i| (Identity::from_secret([i + 1; 32]).public(), [i; 32]))
        .collect();
    (
        Manifest::sign(terms, regs, &director).expect("a valid manifest"),
        shares,
    )
}

/// Play the tournament with `ranks` deciding each game (rank of each seat,
/// taken in turn) and `cheat` marking games where seat 0 is caught.
fn play(m: &Manifest, shares: &OpenedShares, ranks: &[u8], cheats: &[bool]) -> Vec<Submission> {
    let mut games = Vec::new();
    let mut draw = 0usize;
    for round in 1..=m.rounds() {
        let pairing =
            standings(m, shares, games.clone(), Vec::new()).pairings[round as usize - 1].clone();
        for t in &pairing.tables {
            let mut seats = t.players.clone();
            seats.sort();
            let standings = (0..seats.len())
                .map(|s| {
                    draw += 1;
                    Standing {
                        seat: Seat(s as u8),
                        rank: ranks[draw % ranks.len()],
                        score: i64::from(ranks[draw % ranks.len()]),
                        tie_break: 0,
                    }
                })
                .collect();
            let result = GameResult { standings };
            let outcome = if cheats[draw % cheats.len()] {
                Outcome::Cheated {
                    cheaters: vec![Seat(0)],
                    result: Some(result),
                }
            } else {
                Outcome::Finished(result)
            };
            let mut id = [0u8; 32];
            id[..4].copy_from_slice(&round.to_le_bytes());
            id[4..8].copy_from_slice(&t.number.to_le_bytes());
            games.push(Submission {
                source: format!("r{round}t{}", t.number),
                game_id: GameId(id),
                game: m.terms.game.clone(),
                options: m.terms.options.clone(),
                nonce: table_nonce(&m.id(), round, t.number),
                seats,
                outcome,
            });
        }
    }
    games
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn the_same_games_in_any_order_give_the_same_bytes(
        ranks in proptest::collection::vec(0u8..4, 1..40),
        cheats in proptest::collection::vec(prop::bool::weighted(0.1), 1..20),
        rotate in 0usize..16,
    ) {
        let (m, shares) = manifest(10, 4, 3);
        let games = play(&m, &shares, &ranks, &cheats);
        let first = standings(&m, &shares, games.clone(), Vec::new());
        let mut shuffled = games.clone();
        shuffled.reverse();
        let len = shuffled.len();
        shuffled.rotate_left(rotate % len.max(1));
        let second = standings(&m, &shares, shuffled, Vec::new());
        prop_assert_eq!(first.to_json(), second.to_json());
        prop_assert_eq!(first.to_csv().ok(), second.to_csv().ok());
        prop_assert!(first.refused.is_empty(), "{:?}", first.refused);

        for round in &first.rounds {
            prop_assert_eq!(round.byes.len(), 10 % 4);
            for table in &round.tables {
                let total: f64 = table.points.iter().sum();
                // Four seats: six pairs, each worth one point between them.
                prop_assert_eq!(total, 6.0);
                if let roundtable_tournament::standings::TableStatus::Cheat { cheaters } = &table.status {
                    for c in cheaters {
                        let at = table.players.iter().position(|p| p == c).unwrap_or(0);
                        prop_assert_eq!(table.points[at], 0.0);
                    }
                }
            }
        }
    }
}

/// A player whose seed share is not opened is withdrawn: it sits at no
/// table and in no bye, is not ranked, and is named as withdrawn; the seed
/// (and so the draw) is made of the entrants' shares alone.
#[test]
fn a_player_who_does_not_open_its_share_is_paired_nowhere() {
    let (m, mut shares) = manifest(9, 4, 3);
    let everyone = standings(&m, &shares, Vec::new(), Vec::new());
    let silent = m.registrations[4].clone();
    shares.remove(&silent.key);
    let without = standings(&m, &shares, Vec::new(), Vec::new());
    assert_eq!(without.withdrawn, vec![silent.name.clone()]);
    assert!(everyone.withdrawn.is_empty());
    assert_eq!(without.players.len(), 8);
    assert!(without.players.iter().all(|p| p.name != silent.name));
    for pairing in &without.pairings {
        assert!(pairing.byes.is_empty(), "8 entrants fill two tables");
        assert!(
            pairing
                .tables
                .iter()
                .all(|t| !t.players.contains(&silent.key))
        );
    }
    assert!(without.to_text().contains(&format!(
        "withdrawn (seed share not opened): {}",
        silent.name
    )));
    assert_ne!(m.seat_seed(&shares), {
        let (_, all) = manifest(9, 4, 3);
        m.seat_seed(&all)
    });
}

/// A game that seats only some of a table's players (the others did not
/// show up in time) counts: the missing players lose it by forfeit, ranked
/// below everyone seated. A game with a player from elsewhere, or with one
/// player alone, still does not count.
#[test]
fn a_player_missing_from_its_tables_game_loses_it_by_forfeit() {
    let (m, shares) = manifest(8, 4, 1);
    let pairing = standings(&m, &shares, Vec::new(), Vec::new()).pairings[0].clone();
    let table = &pairing.tables[0];
    let absent = table.players[2];
    let mut seats: Vec<_> = table
        .players
        .iter()
        .filter(|k| **k != absent)
        .copied()
        .collect();
    seats.sort();
    // Every seated player level: each beats only the no-show.
    let result = GameResult {
        standings: (0..seats.len())
            .map(|s| Standing {
                seat: Seat(s as u8),
                rank: 0,
                score: 5,
                tie_break: 0,
            })
            .collect(),
    };
    let game = |seats: Vec<_>, source: &str, id: u8| Submission {
        source: source.into(),
        game_id: GameId([id; 32]),
        game: m.terms.game.clone(),
        options: m.terms.options.clone(),
        nonce: table_nonce(&m.id(), 1, table.number),
        seats,
        outcome: Outcome::Finished(result.clone()),
    };
    let s = standings(
        &m,
        &shares,
        vec![game(seats.clone(), "three", 1)],
        Vec::new(),
    );
    assert!(s.refused.is_empty(), "{:?}", s.refused);
    let report = &s.rounds[0].tables[0];
    let absent_name = m.name_of(&absent).unwrap().to_owned();
    assert_eq!(report.no_shows, vec![absent_name.clone()]);
    for (name, points) in report.players.iter().zip(&report.points) {
        // Level with two seated players (half a point each) and above the
        // no-show (a point): two points; the no-show none.
        let expected = if *name == absent_name { 0.0 } else { 2.0 };
        assert_eq!(*points, expected, "{name}");
    }
    let row = s.players.iter().find(|p| p.name == absent_name).unwrap();
    assert_eq!((row.points, row.games), (0.0, 0));
    assert!(
        s.to_text()
            .contains(&format!("round 1 table 1: {absent_name}")),
        "{}",
        s.to_text()
    );

    // A stranger in the no-show's place, or one player alone: refused.
    let mut with_stranger = seats.clone();
    with_stranger.push(pairing.tables[1].players[0]);
    with_stranger.sort();
    let alone = vec![seats[0]];
    let s = standings(
        &m,
        &shares,
        vec![game(with_stranger, "stranger", 2), game(alone, "alone", 3)],
        Vec::new(),
    );
    assert_eq!(s.refused.len(), 2, "{:?}", s.refused);
    assert!(
        s.refused
            .iter()
            .all(|r| r.reason.contains("not the pairing's"))
    );
}
