//! Port Royal's words, read back from real games and views.

use roundtable_engine::{Game, Observer};
use roundtable_port_royal::{
    Action, CardId, CoinReason, Colour, Event, Options, PersonKind, PortRoyal, TakeMode,
};

use super::words::PANEL_WORDS;
use super::*;

/// An expansion game after `chance` and `steps` ("SEAT: action").
fn expansion_game(seats: u8, chance: &[&str], steps: &[&str]) -> PortRoyal {
    let options = Options {
        expansion: true,
        ..Options::default()
    };
    PortRoyal::scripted(seats, &options, chance, steps).unwrap_or_else(|e| panic!("{e}"))
}

const CONTRACTS: [&str; 5] = [
    "seat:1",
    "contract:frigate-foe",
    "contract:jinx",
    "contract:tax-officer",
    "contract:explorer",
];

#[test]
fn decline_and_gift_moves_say_what_they_do() {
    let names: Vec<String> = ["You", "Anne Bonny", "Mary Read"]
        .map(String::from)
        .to_vec();
    let moves = |ship: &str| {
        let chance = [&CONTRACTS[..], &[ship]].concat();
        let game = expansion_game(3, &chance, &["1: draw", "1: stop"]);
        let view = game.view(Observer::Seat(Seat(0)));
        game.legal_actions_vec(Seat(0))
            .iter()
            .map(|&a| action_words(a, &view, Some(Seat(0)), &names))
            .collect::<Vec<_>>()
    };
    let words = [moves("ship:red:1:1"), moves("ship:red:6:3:gift")].concat();
    for expected in [
        "Trade [R] Frigate for 1$",
        "Trade the [R] Frigate, decline its 1$ (Frigate Foe 1/3)",
        "Trade [R] Frigate for 3$ and give the gift coin to Mary Read",
        "Trade the [R] Frigate, decline its 3$ (Frigate Foe 1/3) and give the gift coin to Anne Bonny",
    ] {
        assert!(words.iter().any(|w| w == expected), "{expected}: {words:?}");
    }
}

#[test]
fn a_hire_that_completes_a_contract_says_so() {
    let names: Vec<String> = ["You", "Anne Bonny"].map(String::from).to_vec();
    let chance = [
        "seat:1",
        "contract:lady-killer",
        "contract:jinx",
        "contract:tax-officer",
        "contract:explorer",
    ];
    // A real expansion view with Lady Killer face up; the harbor and
    // the display are set by hand.
    let mut view = expansion_game(2, &chance, &[]).view(Observer::Seat(Seat(0)));
    let card = |name: &str| {
        roundtable_port_royal::CardName(
            CardId::parse(name).unwrap_or_else(|| panic!("no card {name}")),
        )
    };
    view.harbor = vec![card("person:mademoiselle:7:2")];
    let hire = Action::Take(0, TakeMode::Normal);
    assert_eq!(
        action_words(hire, &view, Some(Seat(0)), &names),
        "Hire Mademoiselle for 7$ (2VP)"
    );
    view.players[0].persons = vec![card("person:captain:4:1")];
    assert_eq!(
        action_words(hire, &view, Some(Seat(0)), &names),
        "Hire Mademoiselle for 7$ (2VP), completes Lady Killer +3$"
    );
}

#[test]
fn contract_events_have_their_own_lines() {
    let names: Vec<String> = ["You", "Anne Bonny"].map(String::from).to_vec();
    let foe = ContractId::parse("contract:frigate-foe").unwrap_or_else(|| panic!("no foe"));
    let line = |e: Event| event_line(&e, &names, Some(Seat(0))).unwrap_or_default();
    assert_eq!(
        line(Event::ContractCompleted {
            seat: Seat(1),
            contract: foe,
            coins: 6,
            vp: 1,
        }),
        "Anne Bonny completes the contract Frigate Foe: 6$ and 1 VP."
    );
    assert_eq!(
        line(Event::ContractProgress {
            seat: Seat(0),
            contract: foe,
            step: 2,
            steps: 3,
        }),
        "You have a cube on Frigate Foe 2/3."
    );
    assert_eq!(
        line(Event::ContractRevealed { contract: foe }),
        "Contract face up: Frigate Foe (decline the coins of 3 [R] Frigates)."
    );
    // The completion's coins are in its line already.
    assert_eq!(
        event_line(
            &Event::Coins {
                seat: Seat(1),
                gained: 6,
                due: 6,
                reason: CoinReason::Contract,
            },
            &names,
            None
        ),
        None
    );
}

// One test per person's ability text, each checked against the rules
// text it quotes (the online table's rules page, docs/RULES.md).

fn says(kind: PersonKind, colour: Option<Colour>, facts: &[&str]) {
    let text = ability(kind, colour);
    for fact in facts {
        assert!(
            text.contains(fact),
            "{kind:?}: {fact:?} missing in {text:?}"
        );
    }
}

/// "The player will gain 1 more golden coin if he has a Trader of the
/// appropriate Ship color."
#[test]
fn a_trader_pays_one_more_coin_for_a_ship_of_its_colour() {
    says(
        PersonKind::Trader,
        Some(Colour::Red),
        &["+1$", "trading", "[R] ship"],
    );
}

/// "With the depicted Swords, Ships can be repelled."
#[test]
fn sailors_and_pirates_give_their_swords() {
    says(PersonKind::Sailor, None, &["1 sword"]);
    says(PersonKind::Pirate, None, &["2 swords"]);
}

/// Priests, Captains and Settlers carry the symbols expeditions need;
/// the words are the ones expeditions and player panels use.
#[test]
fn captain_priest_and_settler_carry_the_expedition_symbols() {
    assert_eq!(
        ability(PersonKind::Captain, None),
        symbol_word(Symbol::Anchor)
    );
    assert_eq!(
        ability(PersonKind::Priest, None),
        symbol_word(Symbol::Cross)
    );
    assert_eq!(
        ability(PersonKind::Settler, None),
        symbol_word(Symbol::House)
    );
}

/// "The Jack of all Trades ... can be discarded instead of a Priest,
/// Settler or Captain."
#[test]
fn the_jack_of_all_trades_counts_as_any_one_symbol() {
    says(
        PersonKind::Jack,
        None,
        &["anchor", "cross", "house", " or "],
    );
}

/// "The hire cost of a Person is discounted by 1 coin. The cost cannot
/// be discounted to less than 0."
#[test]
fn a_mademoiselle_makes_every_hire_one_coin_cheaper_never_below_zero() {
    says(PersonKind::Mademoiselle, None, &["1$ less", "not below 0$"]);
}

/// "If you are currently not the active player and ... there are no
/// cards left in the harbor display, immediately gain 1 coin. Should a
/// player forfeit his turn during a Phase 1: Discover ..., all players
/// with a Jester gain 1 coin."
#[test]
fn a_jester_pays_on_any_bust_and_on_an_empty_harbor_in_another_turn() {
    says(
        PersonKind::Jester,
        None,
        &["+1$ on any bust", "harbor is empty", "another's turn"],
    );
}

/// "Whenever it is your time to take ... and there are currently 5 or
/// more cards in the harbor display you immediately gain 2 coins."
#[test]
fn an_admiral_pays_two_at_your_take_with_five_or_more_cards() {
    says(
        PersonKind::Admiral,
        None,
        &["+2$", "at your take", "5+ cards"],
    );
}

/// "Whenever it is your time to take ... you may take 1 more card."
#[test]
fn a_governor_gives_one_more_card_to_take() {
    says(PersonKind::Governor, None, &["1 more card", "Trade & Hire"]);
}

/// "If you trade with a Ship matching a Clerk's colour, you can take
/// another card from the harbor display."
#[test]
fn a_clerk_gives_one_more_card_after_trading_a_ship_of_its_colour() {
    says(
        PersonKind::Clerk,
        Some(Colour::Green),
        &["1 more card", "after trading", "[G] ship"],
    );
}

/// "Whenever it is your time to take ..., you immediately receive a
/// number of coins equal to the number of Ships in the harbor display
/// minus 1."
#[test]
fn a_gunner_pays_the_ships_in_the_harbor_minus_one_at_your_take() {
    says(
        PersonKind::Gunner,
        None,
        &["ships in the harbor - 1", "at your take"],
    );
}

/// "Whenever it is your time to take ..., if there are 3 or 4 cards in
/// the harbor display, you immediately receive 1 coin per Vice Admiral."
#[test]
fn a_vice_admiral_pays_one_at_your_take_with_three_or_four_cards() {
    says(
        PersonKind::ViceAdmiral,
        None,
        &["+1$", "at your take", "3-4 cards"],
    );
}

#[test]
fn symbols_are_counted_alike_on_expeditions_and_in_player_panels() {
    assert_eq!(expedition_symbols(2, 0, 1), "2 anchors + house");
    assert_eq!(expedition_symbols(1, 1, 1), "anchor + cross + house");
    let view = PortRoyal::new_game(2, &Options::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .view(Observer::Seat(Seat(0)));
    let mut p = view.players[0].clone();
    p.persons = [
        "person:captain:4:1",
        "person:captain:4:1",
        "person:settler:4:1",
    ]
    .map(|n| {
        roundtable_port_royal::CardName(CardId::parse(n).unwrap_or_else(|| panic!("no card {n}")))
    })
    .to_vec();
    assert_eq!(player_abilities(&p), "2 anchors, house");
}

#[test]
fn a_non_active_trade_says_what_it_nets_after_the_compensation() {
    let names: Vec<String> = ["You", "Anne Bonny", "Calico Jack"]
        .map(String::from)
        .to_vec();
    let mut view = PortRoyal::new_game(3, &Options::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .view(Observer::Seat(Seat(0)));
    let card = |n: &str| {
        roundtable_port_royal::CardName(CardId::parse(n).unwrap_or_else(|| panic!("{n}")))
    };
    view.phase = "trade";
    view.active = roundtable_port_royal::SeatNumber(Seat(2));
    view.taker = Some(roundtable_port_royal::SeatNumber(Seat(0)));
    view.harbor = vec![card("ship:green:1:1"), card("person:sailor:3:1")];
    let words = |i| {
        action_words(
            Action::Take(i, TakeMode::Normal),
            &view,
            Some(Seat(0)),
            &names,
        )
    };
    assert_eq!(
        words(0),
        "Trade [G] Skiff for 1$ (nets 0$ after 1$ to Calico Jack)"
    );
    assert_eq!(words(1), "Hire Sailor for 3$ + 1$ to Calico Jack (1VP)");
    // The active seat pays nobody.
    view.taker = Some(roundtable_port_royal::SeatNumber(Seat(2)));
    assert_eq!(
        action_words(
            Action::Take(0, TakeMode::Normal),
            &view,
            Some(Seat(2)),
            &names
        ),
        "Trade [G] Skiff for 1$"
    );
    // A decline earns nothing and still costs the compensation.
    let chance = [&CONTRACTS[..], &["ship:red:1:1"]].concat();
    let mut view =
        expansion_game(3, &chance, &["1: draw", "1: stop"]).view(Observer::Seat(Seat(0)));
    view.active = roundtable_port_royal::SeatNumber(Seat(2));
    assert_eq!(
        action_words(
            Action::Take(0, TakeMode::Decline),
            &view,
            Some(Seat(0)),
            &names
        ),
        "Trade the [R] Frigate, decline its 1$ (Frigate Foe 1/3), pay 1$ to Calico Jack"
    );
}

#[test]
fn the_goal_says_the_points_and_whether_an_expedition_is_required() {
    let options = Options {
        victory_points: 9,
        expedition_required: true,
        ..Options::default()
    };
    let view = PortRoyal::new_game(3, &options)
        .unwrap_or_else(|e| panic!("{e}"))
        .view(Observer::Spectator);
    assert_eq!(goal_words(&view), "to 9VP + expedition");
    let mut player = view.players[0].clone();
    assert_eq!(
        expedition_needed(&view, &player),
        None,
        "short of the points"
    );
    player.vp = 9;
    assert_eq!(expedition_needed(&view, &player), Some("needs 1 exp"));
    let view = PortRoyal::new_game(3, &Options::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .view(Observer::Spectator);
    assert_eq!(goal_words(&view), "to 12VP");
    assert_eq!(expedition_needed(&view, &view.players[0]), None);
}

#[test]
fn the_legend_fits_the_help_and_explains_every_panel_word_and_ability() {
    let legend = legend();
    for line in &legend {
        assert!(line.chars().count() <= LEGEND_WIDTH, "{line:?}");
    }
    let text = legend.join(" ");
    let text: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for (_, word, _) in PANEL_WORDS {
        assert!(text.contains(word), "{word} unexplained");
    }
    for word in [
        "sw",
        "$",
        "VP",
        "[K] black Galleon",
        "anchor",
        "at your take",
        "nets",
    ] {
        assert!(text.contains(word), "{word} unexplained");
    }
    for kind in [
        PersonKind::Jester,
        PersonKind::Gunner,
        PersonKind::Admiral,
        PersonKind::ViceAdmiral,
        PersonKind::Mademoiselle,
    ] {
        let ability = ability(kind, None);
        assert!(text.contains(&ability), "{ability} missing");
    }
}

#[test]
fn the_short_phase_words_keep_who_takes_and_how_many() {
    let names: Vec<String> = ["You", "Anne Bonny"].map(String::from).to_vec();
    let mut view = PortRoyal::new_game(2, &Options::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .view(Observer::Seat(Seat(0)));
    view.phase = "trade";
    view.active = roundtable_port_royal::SeatNumber(Seat(1));
    view.taker = Some(roundtable_port_royal::SeatNumber(Seat(0)));
    view.takes_left = Some(1);
    assert_eq!(
        phase_words_short(&view, &names, Some(Seat(0)), false),
        "Anne Bonny's Trade & Hire: you take 1"
    );
    assert_eq!(
        phase_words_short(&view, &names, Some(Seat(0)), true),
        "Anne Bonny's turn: you take 1"
    );
    // A spectator reads every seat by its name.
    let names: Vec<String> = ["Mary Read", "Anne Bonny"].map(String::from).to_vec();
    assert_eq!(
        phase_words_short(&view, &names, None, false),
        "Anne Bonny's Trade & Hire: Mary Read takes 1"
    );
}

#[test]
fn every_card_has_a_short_name_with_its_colour_letter() {
    for c in CardId::all() {
        let s = card_short(c);
        assert!(!s.is_empty());
        if let Some(colour) = c.ship_colour() {
            assert!(s.contains(&format!("[{}]", colour_letter(colour))), "{s}");
        }
    }
}
