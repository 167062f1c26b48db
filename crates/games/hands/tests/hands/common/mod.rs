//! Helpers shared by the test files.

use roundtable_engine::sim::OracleDealer;
use roundtable_engine::{Game, Next, PrivateRequest};
use roundtable_hands::{Event, Hands};

/// Answer every private request until a decision or the end. Reshuffles
/// take the stacked orders first, then a fixed order (every pick 0).
pub(crate) fn serve(game: &mut Hands, dealer: &mut OracleDealer, events: &mut Vec<Event>) {
    loop {
        match game.next() {
            Next::Private(PrivateRequest::Reshuffle { pile, epoch }) => {
                dealer.reshuffle(pile, epoch, &mut |_| 0).unwrap();
                game.apply_reshuffle(events).unwrap();
            }
            Next::Private(PrivateRequest::Deal { to, first, count }) => {
                dealer.deal(to, first, count).unwrap();
                game.apply_deal(events).unwrap();
            }
            Next::Private(PrivateRequest::Reveal { handles }) => {
                let cards = dealer.reveal(handles).unwrap();
                game.apply_reveal(&cards, events).unwrap();
            }
            Next::Decision(_) | Next::Over => return,
            other => panic!("Hands asked for {other:?}"),
        }
    }
}
