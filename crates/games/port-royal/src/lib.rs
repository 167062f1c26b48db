//! Port Royal for roundtable: the card catalog and every rule of the base
//! game with the online table's rule changes and variants, and the
//! "Just One More Contract" expansion (option `expansion`).
//!
//! [`PortRoyal`] implements [`roundtable_engine::Game`]. The online table's
//! rules page (`docs/RULES.md` names it) is the authority; where it is silent or
//! ambiguous the choice made here is listed below, and each is pinned by a
//! scenario under `tests/scenarios/port-royal/`.
//!
//! # Decisions on ambiguities
//!
//! * **Extra tax increase** (the online table's stall rules): it halves the
//!   coins of every player with 12 or more, like a printed tax increase, but
//!   pays no bonus — there is no card, so there is no bonus symbol, and its
//!   only purpose in the text is to bring hoarded coins back into play. It is
//!   resolved *before* the reshuffle it precedes, so the halved coins join the
//!   new draw pile. It comes when a Discover needs a card and both piles are
//!   empty, and before the second (and every later) reshuffle of one Discover.
//!   Coin draws inside Discover count as well as the reveal itself.
//! * **A turn with nothing to draw**: if both piles are empty and no tax can
//!   refill them, the active player may stop without drawing. A whole round of
//!   such turns means no card can ever move again; the game then ends and is
//!   ranked as it stands (the text has no rule for this dead end).
//! * **Claiming expeditions** is allowed to the active player in Discover (not
//!   while a revealed ship waits for repel or keep) and during its own time to
//!   take in Trade & Hire, including after its last take — then the engine
//!   waits for it to claim or pass. Matching persons are discarded first and
//!   Jacks of all Trades only for what is missing (keeping a Jack is never
//!   worse). A bust ends the turn at once, so "two ships of one colour in the
//!   harbor" never leaves a claim open; the check exists and is enforced.
//! * **Keeping a repellable ship of a colour already in the harbor** busts
//!   like an unrepellable one: the text ends a Discover when "2 identically
//!   colored ships are in the harbor display", and keeping puts them there.
//! * **The active player may take nothing** ("may take 1-3 cards"); the other
//!   players still get their time to take, each paying him the compensation
//!   coin. A claim is also allowed before the first draw of a turn.
//! * **Compensation**: a non-active taker with coins pays the active player
//!   before taking; one with none pays out of the ship's income. A ship is
//!   takeable by a coinless non-active player only while the piles can pay.
//! * **Bonuses at "your time to take"** (Admirals, Jesters on an empty
//!   harbor) are paid before it is decided whether the seat can afford
//!   anything, so a skipped seat still gets them, as the online table says.
//!   The active player's number of takes is fixed at that moment (colours in
//!   the harbor plus Governors) and does not shrink as ships leave.
//! * **Abilities stack** per copy: each Jester pays 1 coin, each Admiral 2.
//! * **Payment order**: coins are paid in seat order from the active seat;
//!   spent coins leave a player's pile oldest shuffle epoch first.
//! * **The tax card** goes onto the discard pile after its bonus is paid.
//!
//! # Decisions where the text is silent: the target and the end of every game
//!
//! The online table's variant "Required victory points" lets the players
//! choose the target, with no range, and no text says what happens when
//! nobody can reach it: with random players, 37 points at four seats never
//! come (the persons end up in displays, both piles run dry and the extra
//! tax increase cycles for ever). Two rules of this project, **not of the
//! printed game**, make every game end. The figures come from
//! `crates/bots/examples/game_lengths.rs` (heuristic and random bots, 2 to 5
//! seats, base game and expansion; the figures beyond the range with the
//! range widened for the measurement, and without the limit where they
//! say so).
//!
//! * **The target is 1 to 20 victory points** ([`VICTORY_POINTS`]; the
//!   printed game's is 12). Above it heuristic bots stop reaching it: in 100
//!   base games per target, the first that had not ended after 200 rounds
//!   came at 24 points with five seats and at 28 with four. Up to 20 every
//!   game of heuristic bots ended by the target (200 games per target, seat
//!   count and rule set, 1,000 for 16 to 20), the longest after 36 rounds;
//!   random bots took up to 74 (two seats). The command line (`play`,
//!   `host` and a host's check of the terms) and the terminal UI's set-up
//!   screens all take the range from this constant.
//! * **The round limit** ([`ROUND_LIMIT`], 50 rounds): the game also ends
//!   at the end of the round in which the limit is reached — a round is one
//!   turn of every seat, from the start player on — ranked as usual (most
//!   victory points, then most coins; with "expedition required", players
//!   with an expedition first), so a game ends even when its players never
//!   buy anything. That round is the last round, as when someone reaches the
//!   target (the view's `last_round`, with `round` and `round_limit`), and
//!   [`Event::RoundLimitReached`] says in the log that the limit ended it
//!   (scenarios `end/round-limit-*.toml`, generated from a real game). It
//!   is well above every measured heuristic-bot game at an allowed target
//!   (36 rounds; random bots at two seats and 16 points or more sometimes
//!   reach it), and low enough that a game the limit ends stays below the
//!   4096 links of a Port Royal hash chain: of 6,400 bot games at targets
//!   beyond the range (30 to 60), 3,362 ended by the limit, using at most
//!   1,730 chance events with random bots and 3,847 with heuristic bots
//!   (five seats). One kind of turn it does not bound: a player who draws
//!   and repels for ever while only ships are left and nobody has the coins
//!   for a tax (heuristic bots did so at five seats, at targets of 28 and
//!   more).
//!
//! # Decisions on ambiguities: "Just One More Contract"
//!
//! The section "Expansion: Just One More Contract" of the rules text is the
//! authority, the German text settles wording; scenarios under
//! `tests/scenarios/port-royal/expansion/` pin each point below.
//!
//! * **One option** turns on both halves: the 24 new cards and the contracts
//!   (the text allows the cards alone, the issue asks for one option).
//! * **Laying out contracts** is chance: right after the start player, four
//!   outcomes `contract:NAME`, each one contract drawn from those still face
//!   down ([`contracts::CONTRACTS`] is the table, one of each). The other
//!   twelve are never revealed: no rule reads them, so they have no identity.
//! * **Coin spaces**: every contract has a space per player (at most 5); a
//!   "—" in the card table is a space paying no coins, so later players can
//!   still complete the contract, for its victory points.
//! * **Cubes**: 3 per player. A completed contract holds one, and so does a
//!   progress cube (Frigate Foe, Galleon Foe, Tiny Gamester), which is
//!   locked there and moves onto the coin space at completion (so completing
//!   it needs no free cube). At most 3 contracts follow from the 3 cubes.
//! * **Automatic completion** (the online table) as soon as the requirement
//!   holds, for any player at any moment — a non-active player hiring, or
//!   paying taxes in the active player's Discover. When one input meets
//!   several contracts and the cubes do not cover them, those paying the
//!   player the most coins now are completed first; **ties go to the
//!   contract laid out earlier** (the order of the view's `contracts`): it
//!   is the order everyone sees on the table. Several players meeting one at
//!   once (a tax increase halving several) complete in seat order from the
//!   active seat, like every payment.
//! * **Display requirements**: the Jack of all Trades does not stand in for
//!   a Settler, Priest or Captain (its ability is about expeditions); Trader
//!   Prince takes any two Traders; Cheap Staff counts printed costs.
//!   Completed contracts stay completed when the persons leave.
//! * **Gift ships**: the taker names the player who gains the coin
//!   (`take N gift S`, any other seat, the active one included); a plain
//!   `take N` of a gift ship is refused. Coins are paid taker first, then the
//!   compensation out of the income if due, then the gift.
//! * **Declining** a ship's coins exists in the text only for Frigate Foe and
//!   Galleon Foe, so it is allowed (and offered) only when it moves one on:
//!   a face-up Foe contract of the ship's colour, not yet completed by the
//!   taker, a cube for it, and for a non-active taker a coin to pay the
//!   compensation first (declined income cannot pay it). Ship and Trader
//!   coins are declined, the gift coin is still given, Clerks still count.
//!   A gift Frigate or Galleon declined names the gift's receiver:
//!   `take N decline gift S` (an action text this crate adds).
//! * **Clerk**: each Clerk of the traded ship's colour gives one more take at
//!   once, in the same time to take (it is not a "beginning of Trade & Hire"
//!   ability like the Governor's); a non-active player pays the compensation
//!   coin again for the extra card.
//! * **Gunner** pays per Gunner the ships (not persons) in the harbor minus 1,
//!   never less than 0; **Vice Admiral** 1 coin per Vice Admiral when the
//!   harbor holds 3 or 4 cards of any kind. Both are paid at the start of the
//!   time to take with the Admirals and Jesters, before a seat may be skipped.
//! * **Gamester and Tiny Gamester** count the moment a docking ship brings the
//!   active player's harbor to 4 or 3 colours (repelled ships never dock).
//!   Colours only grow during Discover, so each moment comes at most once a
//!   turn: Tiny Gamester's "next time" is a later turn of the same player.
//! * **Jinx** is completed at the bust itself, before the Jesters pay;
//!   keeping a repellable ship of a harbor colour busts and counts too.
//! * **Tax Officer**: losing coins to any tax increase, the online table's
//!   extra tax increase included (it halves like a printed one).
//! * **Pack of Pirates**: the first repelled ship of each colour is kept
//!   aside only while the player could still complete the contract (face up,
//!   not completed, a free cube). Kept ships stay out of reshuffles; they go
//!   onto the discard pile at completion, or as soon as the player's last
//!   cube goes onto another contract and the Pack can no longer be completed.
//! * **Pass automatically**: a ship a seat could decline for a Foe contract is
//!   not "a ship that earns him no coin".
//! * **Contract victory points** count wherever victory points do: the end of
//!   the game, the ranking, the fewest-points tax bonus.

mod action;
pub mod catalog;
pub mod contracts;
mod determinize;
mod error;
mod event;
pub mod odds;
mod rules;
mod script;
mod view;

use std::ops::RangeInclusive;

use roundtable_engine::SetupError;
use serde::{Deserialize, Serialize};

pub use action::{Action, TakeMode};
pub use catalog::{CATALOG, CardId, CardKind, CardType, Colour, PersonKind, TaxKind};
pub use contracts::{CONTRACTS, ContractId, ContractType, Requirement};
pub use error::RuleViolation;
pub use event::{CoinReason, Event};
pub use rules::PortRoyal;
pub use script::ScriptError;
pub use view::{
    CardName, ContractView, ExpansionView, PlayerView, ProgressView, PublicDisplay, SeatNumber,
    View,
};

/// Rule options and the online table's variants.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// "Just One More Contract": new persons, ships and four face-up contracts.
    pub expansion: bool,
    /// Skip a non-active player whose only possible take is a ship that earns
    /// nothing after the compensation coin.
    pub pass_automatically: bool,
    /// A player needs an expedition to end the game, and players with one
    /// rank above players without.
    pub expedition_required: bool,
    /// Victory points that end the game after the round.
    pub victory_points: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            expansion: false,
            pass_automatically: false,
            expedition_required: false,
            victory_points: 12,
        }
    }
}

/// The victory points a game may be set to end at (option `victory_points`).
/// `Options::validate` (and so `play`, `host` and a host's genesis check)
/// and the terminal UI's set-up screens all take the range from here.
pub const VICTORY_POINTS: RangeInclusive<u32> = 1..=20;

/// The game ends at the end of this round at the latest, ranked as usual.
/// The project's rule, not the printed game's: see the crate docs.
pub const ROUND_LIMIT: u32 = 50;

impl Options {
    fn validate(&self) -> Result<(), SetupError> {
        if !VICTORY_POINTS.contains(&self.victory_points) {
            return Err(SetupError::Option {
                name: "victory_points".into(),
                reason: format!(
                    "{} is not between {} and {}",
                    self.victory_points,
                    VICTORY_POINTS.start(),
                    VICTORY_POINTS.end()
                ),
            });
        }
        Ok(())
    }
}
