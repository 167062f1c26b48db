//! Words for cards, actions and events, as the screen and the move log show
//! them. Colour is never the only carrier of meaning: every ship shows its
//! colour's letter ([`colour_letter`]) next to its name.

use roundtable_engine::{GameResult, Seat};
use roundtable_port_royal::{
    Action, CardId, CardKind, CoinReason, Colour, ContractId, ContractView, Event, PersonKind,
    PlayerView, Requirement, TakeMode, TaxKind, View,
};

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
const PANEL_WORDS: [(PersonKind, &str, &str); 7] = [
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

/// A card's short name: "[Y] Pinnace 2sw 3$", "Sailor", "expedition anchor + cross".
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

/// What a seat is called on screen.
pub fn seat_name(names: &[String], seat: Seat) -> String {
    names
        .get(seat.index())
        .cloned()
        .unwrap_or_else(|| format!("Seat {}", seat.number()))
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

/// The headline of a finished game: "Game over: Anne Bonny wins", or
/// "Game over: You and Anne Bonny share the win".
pub fn game_over_headline(result: &GameResult, names: &[String]) -> String {
    let winners: Vec<String> = result
        .winners()
        .into_iter()
        .map(|w| seat_name(names, w))
        .collect();
    match winners.as_slice() {
        [one] => format!("Game over: {one} wins"),
        many => format!("Game over: {} share the win", many.join(" and ")),
    }
}

/// A card's name without its numbers: "[Y] Pinnace", "Sailor", "Trader [B]".
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
        Requirement::Expeditions(n) => {
            format!("{n} expedition{}", if n == 1 { "" } else { "s" })
        }
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
/// the coins of 3 [R] Frigates"). A contract that pays no more coins shows
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

/// One line of the move log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    /// The turn it happened in (0 before the first turn).
    pub turn: u32,
    /// Whether it heads a turn.
    pub heading: bool,
    /// The words.
    pub text: String,
}

fn coins(n: u32) -> String {
    format!("{n}$")
}

/// An event as a line of the history, or `None` for events that another
/// line already tells (a trade's coins are in the trade's line). Lines about
/// `me` say "You".
pub fn event_line(event: &Event, names: &[String], me: Option<Seat>) -> Option<String> {
    let you = |s: Seat| me == Some(s);
    let name = |s: Seat| {
        if you(s) {
            "You".to_owned()
        } else {
            seat_name(names, s)
        }
    };
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

#[cfg(test)]
mod tests {
    use roundtable_engine::{Game, Next, Observer};
    use roundtable_port_royal::{Options, PortRoyal};

    use super::*;

    /// An expansion game after `chance` and `steps` ("SEAT: action").
    fn expansion_game(seats: u8, chance: &[&str], steps: &[&str]) -> PortRoyal {
        let options = Options {
            expansion: true,
            ..Options::default()
        };
        let mut game = PortRoyal::new_game(seats, &options).unwrap_or_else(|e| panic!("{e}"));
        let mut chance = chance.iter();
        let mut settle = |game: &mut PortRoyal| {
            while let Next::Chance(_) = game.next() {
                let text = chance.next().unwrap_or_else(|| panic!("chance ran out"));
                let outcome = game
                    .parse_outcome(text)
                    .unwrap_or_else(|e| panic!("{text}: {e}"));
                game.apply_chance(&outcome, &mut Vec::new())
                    .unwrap_or_else(|e| panic!("{text}: {e}"));
            }
        };
        settle(&mut game);
        for step in steps {
            let (seat, action) = step.split_once(": ").unwrap_or_else(|| panic!("{step}"));
            let seat = Seat(seat.parse::<u8>().unwrap_or_else(|e| panic!("{e}")) - 1);
            let action = Action::parse(action).unwrap_or_else(|e| panic!("{e}"));
            game.apply_action(seat, &action, &mut Vec::new())
                .unwrap_or_else(|e| panic!("{step}: {e}"));
            settle(&mut game);
        }
        game
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
            roundtable_port_royal::CardName(
                CardId::parse(n).unwrap_or_else(|| panic!("no card {n}")),
            )
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
}
