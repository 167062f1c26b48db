//! A game with secret simultaneous choices (Waters of Nereus's crews) at
//! in-process tables: the person is asked for each choice once, the bots
//! answer theirs through the table's commit and open, and the game ends.

use roundtable_bots::{Bot, NereusBot};
use roundtable_engine::{Game, Next};
use roundtable_local::{LocalGame, Player, Progress};
use roundtable_nereus::{Action, Crew, Nereus, Options};
use roundtable_table::audit::audit;
use roundtable_table::{Config, TableError};

#[test]
fn a_person_and_bots_choose_crews_in_secret_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nereus.rts");
    let players = vec![
        ("you".to_owned(), Player::Human),
        (
            "bot a".to_owned(),
            Player::Bot(Box::new(NereusBot::new()) as _),
        ),
        (
            "bot b".to_owned(),
            Player::Bot(Box::new(NereusBot::new()) as _),
        ),
    ];
    let mut game = LocalGame::<Nereus>::new(
        &Options::default(),
        5,
        players,
        Some(&path),
        Config::default(),
    )
    .unwrap();
    let me = game.seat_of_player(0).unwrap();
    // The person's moves are the heuristic's, from what its table knows.
    let mut mind = NereusBot::new();
    let mut secret_choices = 0;
    loop {
        match game.run().unwrap() {
            Progress::Finished => break,
            Progress::Bot(_) => unreachable!("run lets bots move"),
            Progress::Human(seat) => {
                assert_eq!(seat, me);
                let table = game.table(me);
                let knowledge = table.knowledge().cloned().unwrap_or_default();
                let state = table.game().clone();
                let mut legal = Vec::new();
                state.legal_actions_with(me, &knowledge, &mut legal);
                let pick = mind.choose_in(me, &state, &knowledge, &legal);
                let action = legal[pick].clone();
                let secret = matches!(state.next(), Next::Simultaneous(_));
                game.submit(me, action).unwrap();
                if secret {
                    secret_choices += 1;
                    // Committed: a second choice is not asked for.
                    assert!(!game.table(me).awaits_decision(me));
                    assert!(matches!(
                        game.submit(me, Action::Choose(Crew::Captain)),
                        Err(TableError::NotYourDecision)
                    ));
                }
            }
        }
    }
    // Four cycles a day for four days.
    assert_eq!(secret_choices, 16);
    assert!(game.result().is_some());
    let frames = roundtable_table::transcript::read(&path).unwrap().frames;
    assert!(audit::<Nereus>(&frames).unwrap().is_valid());
}
