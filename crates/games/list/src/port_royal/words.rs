//! Words for cards, actions and phases, as a screen and the move log show
//! them (events are in [`super::log`]). Colour is never the only carrier of meaning: every ship shows its
//! colour's letter ([`colour_letter`]) next to its name.

use roundtable_engine::Seat;
use roundtable_port_royal::{
    Action, CardId, CardKind, Colour, ContractId, ContractView, PersonKind, PlayerView,
    Requirement, TakeMode, TaxKind, View,
};

use crate::words::{plural, seat_name};

/// The letter that stands for a ship colour: Y, B, G, R and K for black
/// (as in CMYK, so that it differs from blue).
pub fn colour_letter(colour: Colour) -> char {
    match colour {
        Colour::Yellow => 'Y',
        Colour::Blue => 'B',
        Colour::Green => 'G',
        Colour::Red => 'R',
        Colour::Black => 'K',
    }
}

/// A person kind's name as players say it.
pub fn person_name(kind: PersonKind) -> &'static str {
    match kind {
        PersonKind::Trader => "Trader",
        PersonKind::Sailor => "Sailor",
        PersonKind::Pirate => "Pirate",
        PersonKind::Captain => "Captain",
        PersonKind::Priest => "Priest",
        PersonKind::Settler => "Settler",
        PersonKind::Jack => "Jack of all Trades",
        PersonKind::Mademoiselle => "Mademoiselle",
        PersonKind::Jester => "Jester",
        PersonKind::Admiral => "Admiral",
        PersonKind::Governor => "Governor",
        PersonKind::Clerk => "Clerk",
        PersonKind::Gunner => "Gunner",
        PersonKind::ViceAdmiral => "Vice Admiral",
    }
}

/// What a person does, complete (as the rules texts say it, not only the
/// common case) and short enough for a harbor row. "At your take" is when
/// your time to take comes in Trade & Hire, even if you then pass; the
/// help's [`legend`] says so. Harbor rows, the log and the legend all use
/// this one text.
pub fn ability(kind: PersonKind, colour: Option<Colour>) -> String {
    let ship = colour.map_or_else(
        || "ship of its colour".to_owned(),
        |c| format!("[{}] ship", colour_letter(c)),
    );
    match kind {
        PersonKind::Trader => format!("+1$ when trading a {ship}"),
        PersonKind::Sailor => "1 sword".into(),
        PersonKind::Pirate => "2 swords".into(),
        PersonKind::Captain => symbol_word(Symbol::Anchor).into(),
        PersonKind::Priest => symbol_word(Symbol::Cross).into(),
        PersonKind::Settler => symbol_word(Symbol::House).into(),
        PersonKind::Jack => format!(
            "{}, {} or {}",
            symbol_word(Symbol::Anchor),
            symbol_word(Symbol::Cross),
            symbol_word(Symbol::House)
        ),
        PersonKind::Mademoiselle => "your hires cost 1$ less (not below 0$)".into(),
        PersonKind::Jester => {
            "+1$ on any bust; +1$ if the harbor is empty at your take in another's turn".into()
        }
        PersonKind::Admiral => "+2$ at your take with 5+ cards in the harbor".into(),
        PersonKind::Governor => "take 1 more card in Trade & Hire".into(),
        PersonKind::Clerk => format!("take 1 more card after trading a {ship}"),
        PersonKind::Gunner => "+(ships in the harbor - 1)$ at your take".into(),
        PersonKind::ViceAdmiral => "+1$ at your take with 3-4 cards in the harbor".into(),
    }
}

/// An expedition symbol, as persons carry it and expeditions ask for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symbol {
    /// The Captain's.
    Anchor,
    /// The Priest's.
    Cross,
    /// The Settler's.
    House,
}

/// A symbol in the one word every screen shows it with.
pub fn symbol_word(symbol: Symbol) -> &'static str {
    match symbol {
        Symbol::Anchor => "anchor",
        Symbol::Cross => "cross",
        Symbol::House => "house",
    }
}

/// `n` of something, counted the same way everywhere: "anchor" for one,
/// "2 anchors" for more, `None` for none.
fn counted(n: usize, one: &str, many: &str) -> Option<String> {
    match n {
        0 => None,
        1 => Some(one.to_owned()),
        _ => Some(format!("{n} {many}")),
    }
}

fn symbol_plural(symbol: Symbol) -> &'static str {
    match symbol {
        Symbol::Anchor => "anchors",
        Symbol::Cross => "crosses",
        Symbol::House => "houses",
    }
}

/// Symbols counted: "2 anchors", "house"; one part per symbol present.
fn symbol_counts(anchors: usize, crosses: usize, houses: usize) -> Vec<String> {
    [
        (Symbol::Anchor, anchors),
        (Symbol::Cross, crosses),
        (Symbol::House, houses),
    ]
    .into_iter()
    .filter_map(|(symbol, n)| counted(n, symbol_word(symbol), symbol_plural(symbol)))
    .collect()
}

/// An expedition's requirements, counted as the player panels count the
/// symbols a player has: "2 anchors + house".
pub fn expedition_symbols(anchors: u8, crosses: u8, houses: u8) -> String {
    symbol_counts(
        usize::from(anchors),
        usize::from(crosses),
        usize::from(houses),
    )
    .join(" + ")
}

/// The player panel's short word for each person kind whose ability is not
/// shown as swords or colour letters: singular and plural. The help's
/// [`legend`] explains every word from this table.
pub(super) const PANEL_WORDS: [(PersonKind, &str, &str); 7] = [
    (PersonKind::Jack, "jack", "jacks"),
    (PersonKind::Governor, "gov", "gov"),
    (PersonKind::Mademoiselle, "mlle", "mlle"),
    (PersonKind::Jester, "jester", "jesters"),
    (PersonKind::Admiral, "admiral", "admirals"),
    (PersonKind::Gunner, "gunner", "gunners"),
    (PersonKind::ViceAdmiral, "vice adm", "vice adm"),
];

/// A player's persons and expeditions summed up in the words of the
/// legend: "3sw, trader Y Y, 2 anchors, house, gov, 1 exp".
pub fn player_abilities(p: &PlayerView) -> String {
    let mut count = std::collections::HashMap::new();
    let mut traders = String::new();
    let mut clerks = String::new();
    for person in &p.persons {
        if let CardKind::Person { kind, colour, .. } = person.0.kind() {
            *count.entry(kind).or_insert(0) += 1;
            match (kind, colour) {
                (PersonKind::Trader, Some(c)) => {
                    traders.push(' ');
                    traders.push(colour_letter(c));
                }
                (PersonKind::Clerk, Some(c)) => {
                    clerks.push(' ');
                    clerks.push(colour_letter(c));
                }
                _ => {}
            }
        }
    }
    let n = |kind: PersonKind| count.get(&kind).copied().unwrap_or(0);
    let mut parts = Vec::new();
    if p.swords > 0 {
        parts.push(format!("{}sw", p.swords));
    }
    if !traders.is_empty() {
        parts.push(format!("trader{traders}"));
    }
    if !clerks.is_empty() {
        parts.push(format!("clerk{clerks}"));
    }
    parts.extend(symbol_counts(
        n(PersonKind::Captain),
        n(PersonKind::Priest),
        n(PersonKind::Settler),
    ));
    for (kind, one, many) in PANEL_WORDS {
        parts.extend(counted(n(kind), one, many));
    }
    parts.extend(counted(p.expeditions.len(), "1 exp", "exp"));
    if parts.is_empty() {
        "no persons".into()
    } else {
        parts.join(", ")
    }
}

/// A card's short name: "\[Y\] Pinnace 2sw 3$", "Sailor", "expedition anchor + cross".
pub fn card_short(card: CardId) -> String {
    match card.kind() {
        CardKind::Ship {
            colour,
            swords,
            coins,
            gift,
        } => {
            let swords = match swords {
                Some(s) => format!("{s}sw"),
                None => "skull".into(),
            };
            // The expansion's gift ships give another player a coin.
            let gift = if gift { " +gift" } else { "" };
            format!(
                "[{}] {} {swords} {coins}${gift}",
                colour_letter(colour),
                colour.ship_name()
            )
        }
        CardKind::Person { kind, colour, .. } => match (kind, colour) {
            (PersonKind::Trader | PersonKind::Clerk, Some(c)) => {
                format!("{} [{}]", person_name(kind), colour_letter(c))
            }
            _ => person_name(kind).to_owned(),
        },
        CardKind::Expedition {
            anchors,
            crosses,
            houses,
            ..
        } => format!(
            "expedition {}",
            expedition_symbols(anchors, crosses, houses)
        ),
        CardKind::Tax(TaxKind::MostSwords) => "tax increase (most swords)".into(),
        CardKind::Tax(TaxKind::FewestPoints) => "tax increase (fewest points)".into(),
    }
}

/// A card with its cost, points and ability, for the log.
pub fn card_long(card: CardId) -> String {
    match card.kind() {
        CardKind::Person {
            kind,
            colour,
            cost,
            vp,
        } => format!(
            "{} (cost {cost}, {vp} VP: {})",
            card_short(card),
            ability(kind, colour)
        ),
        CardKind::Expedition { vp, coins, .. } => {
            format!("{} ({vp} VP, {coins}$)", card_short(card))
        }
        _ => card_short(card),
    }
}

/// The phase and whose move it is, in words.
pub fn phase_words(view: &View, names: &[String], me: Option<Seat>) -> String {
    let you = |s: Seat| me == Some(s);
    let active_you = you(view.active.0);
    let active = if active_you {
        "You".to_owned()
    } else {
        seat_name(names, view.active.0)
    };
    match view.phase {
        "setup" => "Setting up: choosing the start player".into(),
        "discover" => {
            let verb = if active_you { "discover" } else { "discovers" };
            match view.pending_ship {
                Some(ship) => format!("{active} {verb}: repel or keep the {}", card_short(ship.0)),
                None => format!("{active} {verb}: drawing cards into the harbor"),
            }
        }
        "trade" => {
            let taker = view.taker.map_or(view.active.0, |t| t.0);
            let left = view
                .takes_left
                .map(|n| format!(", {n} to take"))
                .unwrap_or_default();
            let whose = |s: Seat| {
                if you(s) {
                    "your".to_owned()
                } else {
                    format!("{}'s", seat_name(names, s))
                }
            };
            if taker == view.active.0 {
                let verb = if active_you {
                    "trade and hire"
                } else {
                    "trades and hires"
                };
                format!("{active} {verb}{left}")
            } else {
                format!(
                    "Trade & Hire of {}: {} time to take{left}",
                    if active_you { "you".to_owned() } else { active },
                    whose(taker)
                )
            }
        }
        "over" => "Game over".into(),
        other => other.to_owned(),
    }
}

/// [`phase_words`] for a narrow header: the same facts in fewer words
/// ("Anne Bonny's Trade & Hire: you take 1", `terse`: "Anne Bonny's turn:
/// you take 1"), so that the pile counts beside it keep their place.
pub fn phase_words_short(view: &View, names: &[String], me: Option<Seat>, terse: bool) -> String {
    let you = |s: Seat| me == Some(s);
    let who = |s: Seat| {
        if you(s) {
            "You".to_owned()
        } else {
            seat_name(names, s)
        }
    };
    let active = view.active.0;
    match view.phase {
        "setup" => "Setting up".into(),
        "discover" => {
            let verb = if you(active) { "discover" } else { "discovers" };
            match view.pending_ship {
                Some(_) => format!("{}: repel or keep", who(active)),
                None => format!("{} {verb}", who(active)),
            }
        }
        "trade" => {
            let taker = view.taker.map_or(active, |t| t.0);
            if taker == active {
                let verb = if you(active) { "trade" } else { "trades" };
                let left = view
                    .takes_left
                    .map(|n| format!(", {n} to take"))
                    .unwrap_or_default();
                format!("{} {verb}{left}", who(active))
            } else {
                let whose = if you(active) {
                    "Your".to_owned()
                } else {
                    format!("{}'s", seat_name(names, active))
                };
                let taking = match (you(taker), view.takes_left) {
                    (true, Some(n)) => format!("you take {n}"),
                    (true, None) => "your take".to_owned(),
                    (false, Some(n)) => format!("{} takes {n}", seat_name(names, taker)),
                    (false, None) => format!("{}'s take", seat_name(names, taker)),
                };
                let phase = if terse { "turn" } else { "Trade & Hire" };
                format!("{whose} {phase}: {taking}")
            }
        }
        "over" => "Game over".into(),
        other => other.to_owned(),
    }
}

/// What the game is played to: "to 12VP", or "to 12VP + expedition" when a
/// player also needs an expedition to end it (and players with one rank
/// first).
pub fn goal_words(view: &View) -> String {
    let expedition = if view.expedition_required {
        " + expedition"
    } else {
        ""
    };
    format!("to {}VP{expedition}", view.victory_points)
}

/// What a player with the points still lacks to end the game when
/// "expedition required" is on ("needs 1 exp"), so that points alone are
/// not mistaken for the lead; `None` when the option is off, the player has
/// an expedition or is short of the points (the players panel's title says
/// the rule to everyone).
pub fn expedition_needed(view: &View, player: &PlayerView) -> Option<&'static str> {
    (view.expedition_required && player.expeditions.is_empty() && player.vp >= view.victory_points)
        .then_some("needs 1 exp")
}

/// The order of the final ranking in words: "VP, then coins", with "an
/// expedition first" when the game required one (so that a player with the
/// most points ranked below one with fewer reads as the rule, not a bug).
pub fn ranking_order(view: &View) -> &'static str {
    if view.expedition_required {
        "an expedition first, then VP, then coins"
    } else {
        "VP, then coins"
    }
}

/// A card's name without its numbers: "\[Y\] Pinnace", "Sailor", "Trader \[B\]".
pub fn card_name(card: CardId) -> String {
    match card.kind() {
        CardKind::Ship { colour, .. } => {
            format!("[{}] {}", colour_letter(colour), colour.ship_name())
        }
        _ => card_short(card),
    }
}

/// What a requirement asks, in a few words ("Captain + Mademoiselle").
pub fn requirement_words(requirement: Requirement) -> String {
    match requirement {
        Requirement::Persons(a, b) if a == b => format!("2 {}s", person_name(a)),
        Requirement::Persons(a, b) => format!("{} + {}", person_name(a), person_name(b)),
        Requirement::CheapPersons { count, max_cost } => {
            format!("{count} persons of printed cost {max_cost}$ or less")
        }
        Requirement::Swords(n) => format!("{n} swords"),
        Requirement::Expeditions(n) => plural(n, "expedition", "expeditions"),
        Requirement::PayTaxes => "lose coins to a tax increase".into(),
        Requirement::Decline { colour, times } => format!(
            "decline the coins of {times} [{}] {}s",
            colour_letter(colour),
            colour.ship_name()
        ),
        // "Your turn": only the active player meets these (the rules text).
        Requirement::Bust => "go bust on your turn".into(),
        Requirement::HarborColours { colours, times } => {
            let when = if times == 1 {
                "on your turn".to_owned()
            } else {
                format!("on {times} of your turns")
            };
            format!("{colours} ship colours in the harbor {when}")
        }
        Requirement::RepelAllColours => "repel a ship of every colour on your turns".into(),
    }
}

/// A face-up contract as the board shows it: its title, the coins the next
/// player to complete it gains, and what it asks ("Frigate Foe +6$: decline
/// the coins of 3 \[R\] Frigates"). A contract that pays no more coins shows
/// none: completing it still counts towards contract victory points.
pub fn contract_words(contract: &ContractView) -> String {
    let reward = if contract.next_coins > 0 {
        format!(" +{}$", contract.next_coins)
    } else {
        String::new()
    };
    match ContractId::parse(&contract.name) {
        Some(id) => format!(
            "{}{reward}: {}",
            contract.title,
            requirement_words(id.requirement())
        ),
        None => format!("{}{reward}", contract.title),
    }
}

/// A contract's printed title ("Frigate Foe").
pub fn contract_title(contract: ContractId) -> &'static str {
    contract.contract().title
}

/// The face-up contracts that hiring `person` would complete for `seat` at
/// once (the rules complete them automatically): title and coins, as many
/// as the seat has free cubes for.
fn completed_by_hiring(view: &View, seat: Seat, person: CardId) -> Vec<(&'static str, u32)> {
    let (Some(x), Some(p)) = (&view.expansion, view.players.get(seat.index())) else {
        return Vec::new();
    };
    let persons: Vec<CardId> = p.persons.iter().map(|c| c.0).collect();
    let met =
        |requirement: Requirement, hired: Option<CardId>| {
            let all = || persons.iter().copied().chain(hired);
            let count = |kind: PersonKind| {
                all()
                    .filter(|c| matches!(c.kind(), CardKind::Person { kind: k, .. } if k == kind))
                    .count()
            };
            match requirement {
                Requirement::Persons(a, b) if a == b => count(a) >= 2,
                Requirement::Persons(a, b) => count(a) >= 1 && count(b) >= 1,
                Requirement::CheapPersons { count: n, max_cost } => all()
                    .filter(
                        |c| matches!(c.kind(), CardKind::Person { cost, .. } if cost <= max_cost),
                    )
                    .count()
                    >= usize::from(n),
                Requirement::Swords(n) => {
                    let extra = hired.map_or(0, |c| match c.kind() {
                        CardKind::Person { kind, .. } => kind.swords(),
                        _ => 0,
                    });
                    p.swords + extra >= u32::from(n)
                }
                _ => false,
            }
        };
    let cubes = x.cubes.get(seat.index()).copied().unwrap_or(0) as usize;
    x.contract_status
        .iter()
        .filter(|c| !c.completed_by.iter().any(|s| s.0 == seat))
        .filter_map(|c| {
            let requirement = ContractId::parse(&c.name)?.requirement();
            (!met(requirement, None) && met(requirement, Some(person)))
                .then_some((c.title, c.next_coins))
        })
        .take(cubes)
        .collect()
}

/// The face-up Foe contract whose requirement a decline of `ship` meets,
/// and `seat`'s progress cube on it (0 without one).
fn foe_for(view: &View, seat: Seat, ship: CardId) -> Option<(&ContractView, u8)> {
    let x = view.expansion.as_ref()?;
    let colour = ship.ship_colour()?;
    let contract = x.contract_status.iter().find(|c| {
        matches!(ContractId::parse(&c.name).map(ContractId::requirement),
            Some(Requirement::Decline { colour: c, .. }) if c == colour)
    })?;
    let step = x
        .progress
        .get(seat.index())
        .and_then(|p| p.iter().find(|p| p.contract == contract.name))
        .map_or(0, |p| p.step);
    Some((contract, step))
}

/// An action as a player reads it in the list of moves. The compensation a
/// non-active seat pays for every card is said once, by [`compensation`];
/// `names` name the receiver of a gift ship's coin.
pub fn action_words(action: Action, view: &View, me: Option<Seat>, names: &[String]) -> String {
    let my = me.and_then(|s| view.players.get(s.index()));
    let count = |wanted: PersonKind, colour: Option<Colour>| {
        my.map_or(0, |p| {
            p.persons
                .iter()
                .filter(|q| {
                    matches!(q.0.kind(), CardKind::Person { kind, colour: c, .. }
                        if kind == wanted && (colour.is_none() || c == colour))
                })
                .count()
        })
    };
    // Who a seat taking in another's Trade & Hire pays 1$ per card.
    let toll = me
        .filter(|&s| view.phase == "trade" && view.active.0 != s)
        .map(|_| seat_name(names, view.active.0));
    match action {
        Action::Draw => "Draw a card".into(),
        Action::Stop => "Stop and trade".into(),
        Action::Repel => match view.pending_ship {
            Some(s) => format!("Repel the {}", card_name(s.0)),
            None => "Repel".into(),
        },
        Action::Keep => match view.pending_ship {
            Some(s) => {
                let colour = s.0.ship_colour();
                let bust = view
                    .harbor
                    .iter()
                    .any(|h| h.0.ship_colour().is_some() && h.0.ship_colour() == colour);
                let tail = if bust { " (bust!)" } else { "" };
                format!("Keep the {} in the harbor{tail}", card_name(s.0))
            }
            None => "Keep".into(),
        },
        Action::Claim(i) => match view.expeditions.get(usize::from(i)).map(|c| c.0.kind()) {
            Some(CardKind::Expedition {
                anchors,
                crosses,
                houses,
                vp,
                coins,
                ..
            }) => format!(
                "Claim {} ({vp}VP, +{coins}$)",
                expedition_symbols(anchors, crosses, houses)
            ),
            _ => format!("Claim expedition {}", i + 1),
        },
        Action::Take(i, mode) => match view.harbor.get(usize::from(i)).map(|c| (c.0, c.0.kind())) {
            Some((c, CardKind::Ship { colour, coins, .. })) => {
                let income = usize::from(coins) + count(PersonKind::Trader, Some(colour));
                let gift = |to: Seat| {
                    let to = if me == Some(to) {
                        "you".to_owned()
                    } else {
                        seat_name(names, to)
                    };
                    format!(" and give the gift coin to {to}")
                };
                let decline = || {
                    let progress = me.and_then(|s| foe_for(view, s, c)).map(|(foe, step)| {
                        let after = step + 1;
                        if after >= foe.steps {
                            format!(" (completes {}: {}$)", foe.title, foe.next_coins)
                        } else {
                            format!(" ({} {after}/{})", foe.title, foe.steps)
                        }
                    });
                    format!(
                        "Trade the {}, decline its {income}${}",
                        card_name(c),
                        progress.unwrap_or_default()
                    )
                };
                // What a trade nets once the compensation is paid, so that
                // a 1$ ship is seen to earn nothing.
                let nets = toll
                    .as_ref()
                    .map(|to| format!(" (nets {}$ after 1$ to {to})", income.saturating_sub(1)))
                    .unwrap_or_default();
                let pays = toll
                    .as_ref()
                    .map(|to| format!(", pay 1$ to {to}"))
                    .unwrap_or_default();
                match mode {
                    TakeMode::Normal => format!("Trade {} for {income}${nets}", card_name(c)),
                    TakeMode::Gift(to) => {
                        format!("Trade {} for {income}${nets}{}", card_name(c), gift(to))
                    }
                    TakeMode::Decline => format!("{}{pays}", decline()),
                    TakeMode::DeclineGift(to) => format!("{}{pays}{}", decline(), gift(to)),
                }
            }
            Some((c, CardKind::Person { cost, vp, .. })) => {
                let price = usize::from(cost).saturating_sub(count(PersonKind::Mademoiselle, None));
                let completes = me
                    .map(|s| completed_by_hiring(view, s, c))
                    .unwrap_or_default()
                    .iter()
                    .map(|(title, coins)| format!(", completes {title} +{coins}$"))
                    .collect::<String>();
                let toll = toll
                    .as_ref()
                    .map(|to| format!(" + 1$ to {to}"))
                    .unwrap_or_default();
                format!(
                    "Hire {} for {price}${toll} ({vp}VP){completes}",
                    card_name(c)
                )
            }
            Some((c, _)) => format!("Take {}", card_name(c)),
            None => format!("Take card {}", i + 1),
        },
        Action::Pass => "Pass: take nothing more".into(),
    }
}

/// The widest line [`legend`] writes, so that it fits the help overlay.
pub const LEGEND_WIDTH: usize = 60;

/// What the table's words, symbols and abbreviations mean, for the help
/// overlay: lines of at most [`LEGEND_WIDTH`] characters. The persons come
/// from the same tables as the harbor rows and the player panels, so the
/// legend cannot drift from them.
pub fn legend() -> Vec<String> {
    let colours: Vec<String> = Colour::ALL
        .into_iter()
        .map(|c| format!("[{}] {} {}", colour_letter(c), c.name(), c.ship_name()))
        .collect();
    let mut entries: Vec<(String, String)> = vec![
        ("ships".into(), format!("{}.", colours.join(", "))),
        (
            "2sw, skull".into(),
            "on a ship, the swords needed to repel it (a skull ship cannot be \
             repelled); on a player, the swords they have. A second ship of \
             one colour in the harbor is a bust."
                .into(),
        ),
        ("$, VP".into(), "coins; victory points.".into()),
        (
            "to 12VP".into(),
            "the goal: reaching it makes the round the last.".into(),
        ),
        (
            "+ expedition".into(),
            "the goal also needs an expedition, and players with one rank \
             first; \"needs 1 exp\": has the points, not the expedition."
                .into(),
        ),
        (">".into(), "the active seat; the selected move.".into()),
        (
            "auto".into(),
            "a seat that took too long: the table plays it from then on.".into(),
        ),
        (
            "at your take".into(),
            "when your time to take comes in Trade & Hire, even if you then pass.".into(),
        ),
        (
            "1$ to ...".into(),
            "taking in another's Trade & Hire costs 1$ per card, paid to the active \
             player; \"nets\" is what a trade leaves after it."
                .into(),
        ),
        (
            "+gift".into(),
            "trading the ship also gives a player of your choice 1$.".into(),
        ),
        (
            symbol_counts(1, 1, 1).join(", "),
            format!(
                "the symbols of Captain, Priest and Settler; an expedition ({}) \
                 takes the persons with its symbols.",
                expedition_symbols(2, 0, 1)
            ),
        ),
        (
            "Contract +6$".into(),
            "the next player to complete it gains 6$; a player's 2nd contract \
             also gives 1VP, the 3rd 2VP."
                .into(),
        ),
        (
            "2/3, cubes".into(),
            "a progress cube on step 2 of 3; cubes: free contract cubes.".into(),
        ),
        (
            "decline".into(),
            "trade a ship without taking its coins (Frigate and Galleon Foe).".into(),
        ),
        ("1 exp".into(), "expeditions a player has claimed.".into()),
    ];
    // Every person, by the word the player panels use for it.
    let persons = [
        (PersonKind::Sailor, "1sw".to_owned()),
        (PersonKind::Pirate, "2sw".to_owned()),
        (PersonKind::Trader, "trader Y".to_owned()),
        (PersonKind::Clerk, "clerk Y".to_owned()),
        (PersonKind::Captain, symbol_word(Symbol::Anchor).to_owned()),
        (PersonKind::Priest, symbol_word(Symbol::Cross).to_owned()),
        (PersonKind::Settler, symbol_word(Symbol::House).to_owned()),
    ]
    .into_iter()
    .chain(PANEL_WORDS.map(|(kind, word, _)| (kind, word.to_owned())));
    for (kind, word) in persons {
        let colour =
            matches!(kind, PersonKind::Trader | PersonKind::Clerk).then_some(Colour::Yellow);
        entries.push((
            word,
            format!("{}: {}.", person_name(kind), ability(kind, colour)),
        ));
    }
    // A term wider than the column gets a row of its own.
    const TERM_WIDTH: usize = 13;
    let indent = " ".repeat(TERM_WIDTH + 1);
    let mut lines = Vec::new();
    for (term, meaning) in entries {
        let mut head = if term.chars().count() > TERM_WIDTH {
            lines.push(term);
            indent.clone()
        } else {
            format!("{term:<TERM_WIDTH$} ")
        };
        for row in wrap_words(&meaning, LEGEND_WIDTH - TERM_WIDTH - 1) {
            lines.push(format!("{head}{row}"));
            head.clone_from(&indent);
        }
    }
    lines
}

/// `text` word-wrapped to rows of at most `width` characters (a word longer
/// than that gets a row of its own).
fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let mut rows = vec![String::new()];
    for word in text.split_whitespace() {
        let row = rows.last_mut().map_or(0, |r| r.chars().count());
        if row > 0 && row + 1 + word.chars().count() > width {
            rows.push(String::new());
        }
        if let Some(row) = rows.last_mut() {
            if !row.is_empty() {
                row.push(' ');
            }
            row.push_str(word);
        }
    }
    rows
}

/// What each card costs a seat that takes in another's Trade & Hire:
/// "1$ to Anne Bonny per card", or `None` for the active seat.
pub fn compensation(view: &View, me: Option<Seat>, names: &[String]) -> Option<String> {
    let me = me?;
    (view.phase == "trade" && view.active.0 != me && view.taker.is_some_and(|t| t.0 == me))
        .then(|| format!("1$ to {} per card", seat_name(names, view.active.0)))
}
