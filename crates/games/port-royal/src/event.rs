//! What happened, for the move log and the UI.

use std::fmt;

use roundtable_engine::Seat;
use serde::{Deserialize, Serialize};

use crate::catalog::CardId;
use crate::contracts::ContractId;

/// Why a seat gained coins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CoinReason {
    /// Trading a ship.
    Trade,
    /// Claiming an expedition.
    Expedition,
    /// Admirals, when the harbor held 5 or more cards.
    Admiral,
    /// Jesters, on an empty harbor at a non-active seat's time to take.
    JesterEmptyHarbor,
    /// Jesters, when the active player went bust.
    JesterBust,
    /// The bonus of a tax increase.
    TaxBonus,
    /// Expansion: Gunners, ships in the harbor − 1 each.
    Gunner,
    /// Expansion: Vice Admirals, when the harbor held 3 or 4 cards.
    ViceAdmiral,
    /// Expansion: another player's gift ship.
    Gift,
    /// Expansion: completing a contract.
    Contract,
}

impl CoinReason {
    fn describe(self) -> &'static str {
        match self {
            CoinReason::Trade => "for the ship",
            CoinReason::Expedition => "for the expedition",
            CoinReason::Admiral => "from Admirals",
            CoinReason::JesterEmptyHarbor => "from Jesters (empty harbor)",
            CoinReason::JesterBust => "from Jesters (bust)",
            CoinReason::TaxBonus => "from the tax bonus",
            CoinReason::Gunner => "from Gunners",
            CoinReason::ViceAdmiral => "from Vice Admirals",
            CoinReason::Gift => "as a gift",
            CoinReason::Contract => "for the contract",
        }
    }
}

/// Something that happened in the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Event {
    /// The start player was chosen.
    StartPlayer {
        /// The start player.
        seat: Seat,
    },
    /// A seat's turn began.
    TurnStarted {
        /// The active seat.
        seat: Seat,
        /// The turn number, from 1.
        turn: u32,
    },
    /// The active seat revealed a card in Discover.
    Revealed {
        /// The active seat.
        seat: Seat,
        /// The card.
        card: CardId,
    },
    /// A ship went into the harbor.
    Docked {
        /// The ship.
        card: CardId,
    },
    /// The active seat repelled the ship just revealed.
    Repelled {
        /// The active seat.
        seat: Seat,
        /// The ship.
        card: CardId,
    },
    /// A second ship of a colour ended the active seat's turn.
    Bust {
        /// The active seat.
        seat: Seat,
        /// The ship that caused it.
        card: CardId,
    },
    /// A tax increase was resolved.
    Tax {
        /// The tax card, or `None` for the online table's extra tax increase.
        card: Option<CardId>,
        /// Seats that lost coins, and how many.
        halved: Vec<(Seat, u32)>,
    },
    /// A seat gained coins from the draw pile.
    Coins {
        /// Who gained them.
        seat: Seat,
        /// How many it gained.
        gained: u32,
        /// How many it was due (more than `gained` when both piles ran out).
        due: u32,
        /// Why.
        reason: CoinReason,
    },
    /// A non-active seat paid the active seat 1 coin to take a card.
    Compensation {
        /// The payer.
        from: Seat,
        /// The active seat.
        to: Seat,
    },
    /// A seat traded a ship for coins.
    Traded {
        /// The taker.
        seat: Seat,
        /// The ship.
        card: CardId,
        /// Coins due (ship plus Traders).
        income: u32,
    },
    /// A seat hired a person.
    Hired {
        /// The taker.
        seat: Seat,
        /// The person.
        card: CardId,
        /// Coins paid (after Mademoiselles).
        paid: u32,
    },
    /// A seat claimed an expedition.
    Claimed {
        /// The claimant.
        seat: Seat,
        /// The expedition.
        card: CardId,
        /// The persons it discarded for it.
        discarded: Vec<CardId>,
    },
    /// The active seat stopped Discover.
    Stopped {
        /// The active seat.
        seat: Seat,
    },
    /// A seat took nothing more this Trade & Hire.
    Passed {
        /// The seat.
        seat: Seat,
    },
    /// A seat had nothing it could take and was skipped.
    Skipped {
        /// The seat.
        seat: Seat,
    },
    /// The discard pile became the new draw pile.
    Reshuffled {
        /// Cards in the new draw pile.
        cards: u32,
    },
    /// A spent coin on the discard pile was turned face up for a reshuffle.
    SpentCoinRevealed {
        /// Its face.
        card: CardId,
    },
    /// The cards left in the harbor were discarded.
    LeftoversDiscarded {
        /// How many.
        cards: u32,
    },
    /// Both piles were empty: nothing could be drawn.
    NothingToDraw,
    /// A seat reached the victory points that end the game after this round.
    EndTriggered {
        /// The seat.
        seat: Seat,
    },
    /// The round limit ended the game (the project's rule, not the printed
    /// game's: `ROUND_LIMIT`), before anyone ended it by victory points.
    RoundLimitReached {
        /// Rounds played.
        rounds: u32,
    },
    /// The game is over.
    GameOver {
        /// The winners (several when they share the win).
        winners: Vec<Seat>,
    },
    /// Expansion: a contract was laid face up at the setup.
    ContractRevealed {
        /// The contract.
        contract: ContractId,
    },
    /// Expansion: a seat traded a ship declining its coins (for a Foe contract).
    Declined {
        /// The taker.
        seat: Seat,
        /// The ship.
        card: CardId,
        /// Coins it declined (ship plus Traders).
        declined: u32,
    },
    /// Expansion: Clerks of the traded ship's colour allow more takes.
    ClerkExtraTake {
        /// The taker.
        seat: Seat,
        /// Further takes allowed.
        takes: u32,
    },
    /// Expansion: a progress cube was placed or moved on a multi-step contract.
    ContractProgress {
        /// The seat.
        seat: Seat,
        /// The contract.
        contract: ContractId,
        /// Times its requirement was met so far.
        step: u8,
        /// Times needed to complete it.
        steps: u8,
    },
    /// Expansion: a seat completed a contract (a cube on its next coin space).
    ContractCompleted {
        /// The seat.
        seat: Seat,
        /// The contract.
        contract: ContractId,
        /// Coins due for this completion order.
        coins: u32,
        /// Victory points this completion adds (2nd contract 1, 3rd 2).
        vp: u32,
    },
    /// Expansion (Pack of Pirates): a repelled ship was kept aside.
    KeptAside {
        /// The active seat.
        seat: Seat,
        /// The ship.
        card: CardId,
    },
    /// Expansion (Pack of Pirates): the ships kept aside went onto the
    /// discard pile (the contract was completed, or can no longer be).
    PackReturned {
        /// The seat.
        seat: Seat,
        /// The ships.
        cards: Vec<CardId>,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::StartPlayer { seat } => write!(f, "{seat} is the start player"),
            Event::TurnStarted { seat, turn } => write!(f, "turn {turn}: {seat} is active"),
            Event::Revealed { seat, card } => write!(f, "{seat} draws {card}"),
            Event::Docked { card } => write!(f, "{card} docks in the harbor"),
            Event::Repelled { seat, card } => write!(f, "{seat} repels {card}"),
            Event::Bust { seat, card } => {
                write!(
                    f,
                    "{seat} goes bust on {card}: a second ship of that colour"
                )
            }
            Event::Tax { card, halved } => {
                match card {
                    Some(c) => write!(f, "tax increase {c}")?,
                    None => f.write_str("extra tax increase (both piles ran dry)")?,
                }
                for (seat, lost) in halved {
                    write!(f, "; {seat} pays {lost}")?;
                }
                Ok(())
            }
            Event::Coins {
                seat,
                gained,
                due,
                reason,
            } => {
                write!(
                    f,
                    "{seat} gains {gained} coin{} {}",
                    plural(*gained),
                    reason.describe()
                )?;
                if gained < due {
                    write!(f, " ({due} due, the piles ran out)")?;
                }
                Ok(())
            }
            Event::Compensation { from, to } => write!(f, "{from} pays {to} 1 coin"),
            Event::Traded { seat, card, income } => {
                write!(
                    f,
                    "{seat} trades {card} for {income} coin{}",
                    plural(*income)
                )
            }
            Event::Hired { seat, card, paid } => write!(f, "{seat} hires {card} for {paid}"),
            Event::Claimed {
                seat,
                card,
                discarded,
            } => {
                write!(f, "{seat} claims {card}, discarding")?;
                for c in discarded {
                    write!(f, " {c}")?;
                }
                Ok(())
            }
            Event::Stopped { seat } => write!(f, "{seat} stops"),
            Event::Passed { seat } => write!(f, "{seat} passes"),
            Event::Skipped { seat } => write!(f, "{seat} cannot take anything"),
            Event::Reshuffled { cards } => write!(f, "the discard pile is shuffled: {cards} cards"),
            Event::SpentCoinRevealed { card } => write!(f, "a spent coin was {card}"),
            Event::LeftoversDiscarded { cards } => write!(f, "{cards} leftover cards discarded"),
            Event::NothingToDraw => f.write_str("both piles are empty: nothing to draw"),
            Event::EndTriggered { seat } => {
                write!(
                    f,
                    "{seat} has enough victory points: this is the last round"
                )
            }
            Event::RoundLimitReached { rounds } => {
                write!(f, "round {rounds} is over: the round limit ends the game")
            }
            Event::GameOver { winners } => {
                f.write_str("game over; won by")?;
                for w in winners {
                    write!(f, " {w}")?;
                }
                Ok(())
            }
            Event::ContractRevealed { contract } => write!(f, "{contract} is laid face up"),
            Event::Declined {
                seat,
                card,
                declined,
            } => write!(
                f,
                "{seat} trades {card} declining {declined} coin{}",
                plural(*declined)
            ),
            Event::ClerkExtraTake { seat, takes } => write!(
                f,
                "{seat} may take {takes} more card{} (Clerk)",
                plural(*takes)
            ),
            Event::ContractProgress {
                seat,
                contract,
                step,
                steps,
            } => write!(f, "{seat} moves on {contract}: {step} of {steps}"),
            Event::ContractCompleted {
                seat,
                contract,
                coins,
                vp,
            } => {
                write!(f, "{seat} completes {contract}")?;
                if *coins > 0 {
                    write!(f, " for {coins} coin{}", plural(*coins))?;
                }
                if *vp > 0 {
                    write!(f, " and {vp} victory point{}", plural(*vp))?;
                }
                Ok(())
            }
            Event::KeptAside { seat, card } => {
                write!(f, "{seat} keeps {card} aside (Pack of Pirates)")
            }
            Event::PackReturned { seat, cards } => {
                write!(f, "{seat} discards the ships kept aside:")?;
                for c in cards {
                    write!(f, " {c}")?;
                }
                Ok(())
            }
        }
    }
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}
