//! Port Royal's events as lines of the move log.

use roundtable_engine::Seat;
use roundtable_port_royal::{CardId, CardKind, CoinReason, Event, TaxKind};

use super::words::*;
use crate::words::{seat_name, who};

fn coins(n: u32) -> String {
    format!("{n}$")
}

/// An event as a line of the history, or `None` for events that another
/// line already tells (a trade's coins are in the trade's line). Lines about
/// `me` say "You".
pub fn event_line(event: &Event, names: &[String], me: Option<Seat>) -> Option<String> {
    let you = |s: Seat| me == Some(s);
    let name = |s: Seat| who(names, me, s);
    let object = |s: Seat| {
        if you(s) {
            "you".to_owned()
        } else {
            seat_name(names, s)
        }
    };
    // The verb for `s`: third person, or second person for "You".
    let says = |s: Seat, third: &'static str, second: &'static str| {
        format!("{} {}", name(s), if you(s) { second } else { third })
    };
    let line = match event {
        Event::StartPlayer { seat } => format!("{} the start player.", says(*seat, "is", "are")),
        Event::TurnStarted { seat, turn } => format!("-- Turn {turn}: {} --", name(*seat)),
        Event::Revealed { seat, card } => {
            format!("{} {}.", says(*seat, "draws", "draw"), card_long(*card))
        }
        Event::Docked { card } => format!("  {} docks in the harbor.", card_short(*card)),
        Event::Repelled { seat, card } => {
            format!(
                "{} the {}.",
                says(*seat, "repels", "repel"),
                card_short(*card)
            )
        }
        Event::Bust { seat, card } => {
            let colour = card.ship_colour().map_or("that", |c| c.name());
            format!(
                "{} bust on the {}: a second {colour} ship.",
                says(*seat, "goes", "go"),
                card_short(*card)
            )
        }
        Event::Tax { card, halved } => {
            let mut s = match card {
                Some(c) => format!("Tax increase ({}", tax_kind(*c)),
                None => "Extra tax increase (both piles ran dry".into(),
            };
            s.push(')');
            if halved.is_empty() {
                s.push_str(": nobody has 12$ or more.");
            } else {
                let paid: Vec<String> = halved
                    .iter()
                    .map(|(seat, lost)| {
                        format!("{} {}", says(*seat, "loses", "lose"), coins(*lost))
                    })
                    .collect();
                s.push_str(&format!(": {}.", paid.join(", ")));
            }
            s
        }
        Event::Coins {
            seat,
            gained,
            due,
            reason,
        } => {
            if *reason == CoinReason::Trade && gained == due {
                return None;
            }
            // A contract's coins are in the line that completes it.
            if *reason == CoinReason::Contract && gained == due {
                return None;
            }
            let why = match reason {
                CoinReason::Trade => "for the ship",
                CoinReason::Expedition => "for the expedition",
                CoinReason::Admiral => "from Admirals (5+ cards in the harbor)",
                CoinReason::JesterEmptyHarbor => "from Jesters (empty harbor)",
                CoinReason::JesterBust => "from Jesters (a bust)",
                CoinReason::TaxBonus => "from the tax bonus",
                CoinReason::Gunner => "from Gunners (ships in the harbor)",
                CoinReason::ViceAdmiral => "from Vice Admirals (3-4 cards in the harbor)",
                CoinReason::Gift => "from the gift ship",
                CoinReason::Contract => "for the contract",
            };
            let short = if gained < due {
                format!(" ({due} due: the piles ran out)")
            } else {
                String::new()
            };
            format!(
                "{} {} {why}{short}.",
                says(*seat, "gains", "gain"),
                coins(*gained)
            )
        }
        Event::Compensation { from, to } => {
            format!("{} {} 1$.", says(*from, "pays", "pay"), object(*to))
        }
        Event::Traded { seat, card, income } => format!(
            "{} the {} for {}.",
            says(*seat, "trades", "trade"),
            card_short(*card),
            coins(*income)
        ),
        Event::Hired { seat, card, paid } => format!(
            "{} the {} for {}.",
            says(*seat, "hires", "hire"),
            card_long(*card),
            coins(*paid)
        ),
        Event::Claimed {
            seat,
            card,
            discarded,
        } => {
            let persons: Vec<String> = discarded.iter().map(|c| card_short(*c)).collect();
            format!(
                "{} the {}, discarding {}.",
                says(*seat, "claims", "claim"),
                card_long(*card),
                persons.join(", ")
            )
        }
        Event::Stopped { seat } => format!("{}.", says(*seat, "stops", "stop")),
        Event::Passed { seat } => format!("{}.", says(*seat, "passes", "pass")),
        Event::Skipped { seat } => format!("{} take anything.", says(*seat, "cannot", "cannot")),
        Event::Reshuffled { cards } => {
            format!("The discard pile is shuffled into a new draw pile of {cards} cards.")
        }
        Event::SpentCoinRevealed { card } => {
            format!("A spent coin is turned up: {}.", card_short(*card))
        }
        Event::LeftoversDiscarded { cards } => {
            format!(
                "{cards} leftover card{} discarded.",
                plural(*cards, " is", "s are")
            )
        }
        Event::NothingToDraw => "Both piles are empty: nothing to draw.".into(),
        Event::EndTriggered { seat } => format!(
            "{} the victory points: this is the last round.",
            says(*seat, "has reached", "have reached")
        ),
        Event::RoundLimitReached { rounds } => {
            format!("Round {rounds} is over: the round limit ends the game.")
        }
        Event::GameOver { winners } => {
            let who: Vec<String> = winners.iter().map(|w| name(*w)).collect();
            match winners.as_slice() {
                [] => "Game over.".into(),
                [one] => format!("Game over: {}.", says(*one, "wins", "win")),
                _ => format!("Game over: {} share the win.", who.join(" and ")),
            }
        }
        Event::ContractRevealed { contract } => format!(
            "Contract face up: {} ({}).",
            contract_title(*contract),
            requirement_words(contract.requirement())
        ),
        Event::Declined {
            seat,
            card,
            declined,
        } => format!(
            "{} the {}, declining its {} for the contract.",
            says(*seat, "trades", "trade"),
            card_short(*card),
            coins(*declined)
        ),
        Event::ClerkExtraTake { seat, takes } => format!(
            "{} take {takes} more card{} (Clerk).",
            says(*seat, "may", "may"),
            plural(*takes, "", "s")
        ),
        Event::ContractProgress {
            seat,
            contract,
            step,
            steps,
        } => format!(
            "{} a cube on {} {step}/{steps}.",
            says(*seat, "has", "have"),
            contract_title(*contract)
        ),
        Event::ContractCompleted {
            seat,
            contract,
            coins: paid,
            vp,
        } => {
            let mut gains = Vec::new();
            if *paid > 0 {
                gains.push(coins(*paid));
            }
            if *vp > 0 {
                gains.push(format!("{vp} VP"));
            }
            let tail = if gains.is_empty() {
                String::new()
            } else {
                format!(": {}", gains.join(" and "))
            };
            format!(
                "{} the contract {}{tail}.",
                says(*seat, "completes", "complete"),
                contract_title(*contract)
            )
        }
        Event::KeptAside { seat, card } => format!(
            "{} the {} aside (Pack of Pirates).",
            says(*seat, "keeps", "keep"),
            card_short(*card)
        ),
        Event::PackReturned { seat, cards } => {
            let ships: Vec<String> = cards.iter().map(|c| card_short(*c)).collect();
            let whose = if you(*seat) {
                "Your".to_owned()
            } else {
                format!("{}'s", seat_name(names, *seat))
            };
            format!(
                "{whose} ships kept aside go to the discard pile: {}.",
                ships.join(", ")
            )
        }
    };
    Some(line)
}

fn plural(n: u32, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

fn tax_kind(card: CardId) -> &'static str {
    match card.kind() {
        CardKind::Tax(TaxKind::MostSwords) => "most swords gain 1$",
        CardKind::Tax(TaxKind::FewestPoints) => "fewest points gain 1$",
        _ => "tax",
    }
}
