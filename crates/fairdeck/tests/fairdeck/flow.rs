//! A whole game's randomness as the table will drive it: three seats commit,
//! answer chance events, one chain is continued, one seat forfeits, and an
//! auditor re-checks everything from the published seeds.

#![allow(missing_docs)]

use roundtable_fairdeck::{
    ChainSecret, ChainTracker, Chance, ChanceValue, EventReveals, FairdeckError, answer,
    verify_opened_chain,
};

struct Seat {
    chains: Vec<(u64, ChainSecret)>, // (first event, chain)
}

impl Seat {
    fn reveal(&self, event: u64) -> Result<[u8; 32], FairdeckError> {
        let (first, chain) = self
            .chains
            .iter()
            .rev()
            .find(|(first, _)| *first <= event)
            .ok_or(FairdeckError::WrongEvent {
                expected: 1,
                got: event,
            })?;
        chain.reveal(event - first + 1)
    }
}

#[test]
fn a_game_with_a_continuation_and_a_forfeit() -> Result<(), FairdeckError> {
    let game_id = [0x42; 32];
    let length = 6;
    let mut seats: Vec<Seat> = (0..3u8)
        .map(|s| {
            Ok(Seat {
                chains: vec![(1, ChainSecret::new([s + 1; 32], length)?)],
            })
        })
        .collect::<Result<_, FairdeckError>>()?;
    // Genesis: every peer tracks every seat's commitment.
    let mut trackers: Vec<ChainTracker> = seats
        .iter()
        .map(|s| ChainTracker::new(s.chains[0].1.commitment(), length))
        .collect::<Result<_, _>>()?;
    let mut forfeited = [false; 3];
    let mut transcript: Vec<Vec<Option<[u8; 32]>>> = Vec::new();
    let deck = [4u32, 3, 2, 1];

    for event in 1..=9u64 {
        // Seat 0's chain ends at event 6: it continues before revealing event 6.
        if event == 6 {
            let next = ChainSecret::new([0xc0; 32], 8)?;
            let continuation = next.continuation(7);
            trackers[0].continue_with(continuation)?;
            seats[0].chains.push((7, next));
        }
        // Seats 1 and 2 would run out too; seat 2 forfeits at event 4 instead,
        // and seat 1 continues as well.
        if event == 6 {
            let next = ChainSecret::new([0xc1; 32], 8)?;
            trackers[1].continue_with(next.continuation(7))?;
            seats[1].chains.push((7, next));
        }
        if event == 4 {
            forfeited[2] = true;
        }
        let mut reveals = EventReveals::new(event, 3)?;
        for (s, seat) in seats.iter().enumerate() {
            if forfeited[s] {
                reveals.forfeit(s as u8)?;
                continue;
            }
            let reveal = seat.reveal(event)?;
            trackers[s].accept(event, &reveal)?;
            reveals.reveal(s as u8, reveal)?;
        }
        let beacon = reveals.beacon(&game_id)?;
        match answer(
            &beacon,
            Chance::Multiset {
                counts: &deck,
                take: 2,
            },
        )? {
            ChanceValue::Cards(cards) => assert_eq!(cards.len(), 2),
            ChanceValue::Index(_) => unreachable!("a multiset request gives cards"),
        }
        transcript.push(reveals.reveals()?);
    }

    // Audit: each chain's reveals, from the published seeds.
    for (s, seat) in seats.iter().enumerate() {
        for (first, chain) in &seat.chains {
            let used: Vec<[u8; 32]> = transcript
                .iter()
                .enumerate()
                .map(|(i, r)| (i as u64 + 1, r[s]))
                .filter(|(event, _)| *event >= *first && *event < first + chain.length())
                .filter_map(|(_, r)| r)
                .collect();
            verify_opened_chain(chain.seed(), chain.length(), &chain.commitment(), &used)?;
        }
    }
    // Seat 2 revealed events 1..=3 only.
    assert_eq!(transcript.iter().filter(|r| r[2].is_some()).count(), 3);
    Ok(())
}

#[test]
fn a_late_continuation_is_refused() -> Result<(), FairdeckError> {
    let chain = ChainSecret::new([1; 32], 2)?;
    let mut t = ChainTracker::new(chain.commitment(), 2)?;
    t.accept(1, &chain.reveal(1)?)?;
    // Without the continuation, the last link is not accepted ...
    assert_eq!(
        t.accept(2, &chain.reveal(2)?),
        Err(FairdeckError::ContinuationMissing { event: 2 })
    );
    // ... and a continuation that does not start at event 3 is refused.
    let next = ChainSecret::new([2; 32], 4)?;
    assert!(t.continue_with(next.continuation(4)).is_err());
    t.continue_with(next.continuation(3))?;
    t.accept(2, &chain.reveal(2)?)?;
    t.accept(3, &next.reveal(1)?)?;
    Ok(())
}
