//! Properties over arbitrary inputs, including everything a peer could send:
//! no input panics, every tampered byte is refused, outcomes stay in range.

#![allow(missing_docs)]

use proptest::prelude::*;
use roundtable_fairdeck::{
    ChainContinuation, ChainSecret, ChainTracker, EventReveals, FairdeckError, Sampler, beacon,
    bytes32, commit_secret, parse_hex32, secret_preimage, verify_opened_chain, verify_reveal,
    verify_secret,
};

fn arr32() -> impl Strategy<Value = [u8; 32]> {
    proptest::array::uniform32(any::<u8>())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn uniform_is_below_n(b in arr32(), n in 1u64.., small in 1u64..200, draws in 1usize..20) {
        let mut s = Sampler::new(&b);
        for _ in 0..draws {
            prop_assert!(s.uniform(n)? < n);
            prop_assert!(s.uniform(small)? < small);
        }
    }

    #[test]
    fn draws_respect_counts(b in arr32(), counts in prop::collection::vec(0u32..6, 0..12), frac in 0.0f64..=1.0) {
        let total: u32 = counts.iter().sum();
        let take = (f64::from(total) * frac) as u32;
        let got = Sampler::new(&b).draw(&counts, take)?;
        prop_assert_eq!(got.len(), take as usize);
        let mut used = vec![0u32; counts.len()];
        for &i in &got {
            let slot = used.get_mut(i as usize);
            prop_assert!(slot.is_some(), "index {} out of the catalog", i);
            if let Some(u) = slot {
                *u += 1;
            }
        }
        for (u, c) in used.iter().zip(&counts) {
            prop_assert!(u <= c);
        }
        // Taking one more than there is is refused, never a panic.
        prop_assert_eq!(
            Sampler::new(&b).draw(&counts, total + 1),
            Err(FairdeckError::TakeExceedsTotal { take: total + 1, total: u64::from(total) })
        );
    }

    #[test]
    fn draw_is_a_prefix_of_the_longer_draw(b in arr32(), counts in prop::collection::vec(0u32..5, 1..8)) {
        // Same beacon, fewer draws: the first draws agree (the stream is shared).
        let total: u32 = counts.iter().sum();
        let all = Sampler::new(&b).draw(&counts, total)?;
        let half = Sampler::new(&b).draw(&counts, total / 2)?;
        prop_assert_eq!(&all[..half.len()], &half[..]);
    }

    #[test]
    fn pick_seat_is_a_seat(b in arr32(), seats in 1u8..) {
        prop_assert!(Sampler::new(&b).pick_seat(seats)? < seats);
    }

    #[test]
    fn chains_round_trip(seed in arr32(), length in 1u64..150, interval in 1u64..70, used in 0u64..150) {
        let chain = ChainSecret::with_checkpoint_interval(seed, length, interval)?;
        let plain = ChainSecret::with_checkpoint_interval(seed, length, 1)?;
        prop_assert_eq!(chain.commitment(), plain.commitment());
        let used = used.min(length);
        let mut tracker = ChainTracker::new(chain.commitment(), length)?;
        let mut previous = chain.commitment();
        let mut reveals = Vec::new();
        for k in 1..=used {
            let r = chain.reveal(k)?;
            prop_assert_eq!(r, plain.reveal(k)?);
            verify_reveal(&previous, &r)?;
            if k < length {
                tracker.accept(k, &r)?;
            }
            previous = r;
            reveals.push(r);
        }
        verify_opened_chain(&seed, length, &chain.commitment(), &reveals)?;
    }

    #[test]
    fn any_tampered_byte_is_rejected(seed in arr32(), length in 2u64..40, pos in 0usize..32, bit in 0u8..8, which in 0usize..3) {
        let chain = ChainSecret::new(seed, length)?;
        let c = chain.commitment();
        let reveals: Vec<[u8; 32]> = (1..=length).map(|k| chain.reveal(k)).collect::<Result<_, _>>()?;
        let flip = |mut x: [u8; 32]| { x[pos] ^= 1 << bit; x };
        // A single reveal.
        prop_assert_eq!(verify_reveal(&c, &flip(reveals[0])), Err(FairdeckError::WrongLink { event: None }));
        prop_assert!(verify_reveal(&flip(c), &reveals[0]).is_err());
        // A tracker refuses it and stays put.
        let mut t = ChainTracker::new(c, length)?;
        prop_assert_eq!(t.accept(1, &flip(reveals[0])), Err(FairdeckError::WrongLink { event: Some(1) }));
        prop_assert_eq!(t.next_event(), 1);
        // The opened chain: tamper with the seed, the commitment or one reveal.
        let k = (pos % reveals.len()) + 1;
        let result = match which {
            0 => verify_opened_chain(&flip(seed), length, &c, &reveals),
            1 => verify_opened_chain(&seed, length, &flip(c), &reveals),
            _ => {
                let mut bad = reveals.clone();
                bad[k - 1] = flip(bad[k - 1]);
                verify_opened_chain(&seed, length, &c, &bad)
            }
        };
        match which {
            0 | 1 => prop_assert_eq!(result, Err(FairdeckError::WrongCommitment)),
            _ => prop_assert_eq!(result, Err(FairdeckError::WrongLink { event: Some(k as u64) })),
        }
    }

    #[test]
    fn beacons_bind_every_input(g in arr32(), event in any::<u64>(), reveals in prop::collection::vec(proptest::option::weighted(0.8, arr32()), 1..6), pos in 0usize..32) {
        let b = beacon(&g, event, &reveals);
        let mut g2 = g;
        g2[pos] ^= 1;
        prop_assert_ne!(b, beacon(&g2, event, &reveals));
        prop_assert_ne!(b, beacon(&g, event.wrapping_add(1), &reveals));
        for seat in 0..reveals.len() {
            let mut other = reveals.clone();
            other[seat] = match other[seat] {
                Some(mut r) => { r[pos] ^= 1; Some(r) }
                None => Some([0; 32]),
            };
            prop_assert_ne!(b, beacon(&g, event, &other));
            if reveals[seat].is_some() {
                let mut gone = reveals.clone();
                gone[seat] = None;
                prop_assert_ne!(b, beacon(&g, event, &gone));
            }
        }
    }

    #[test]
    fn secrets_round_trip_and_bind(g in arr32(), seat in any::<u8>(), index in any::<u64>(), choice in prop::collection::vec(any::<u8>(), 0..64), nonce in arr32(), pos in 0usize..32) {
        let c = commit_secret(&g, seat, index, &choice, &nonce);
        verify_secret(&g, seat, index, &choice, &nonce, &c)?;
        let mut n2 = nonce;
        n2[pos] ^= 1;
        prop_assert_eq!(verify_secret(&g, seat, index, &choice, &n2, &c), Err(FairdeckError::SecretMismatch));
        let mut longer = choice.clone();
        longer.push(0);
        prop_assert_eq!(verify_secret(&g, seat, index, &longer, &nonce, &c), Err(FairdeckError::SecretMismatch));
        prop_assert_eq!(verify_secret(&g, seat.wrapping_add(1), index, &choice, &nonce, &c), Err(FairdeckError::SecretMismatch));
        prop_assert_eq!(verify_secret(&g, seat, index ^ 1, &choice, &nonce, &c), Err(FairdeckError::SecretMismatch));
    }

    #[test]
    fn secret_encoding_is_injective(g in arr32(), a in prop::collection::vec(any::<u8>(), 0..40), b in prop::collection::vec(any::<u8>(), 0..40), n1 in arr32(), n2 in arr32()) {
        // Different (choice, nonce) pairs never hash the same bytes.
        prop_assume!(a != b || n1 != n2);
        prop_assert_ne!(secret_preimage(&g, 0, 0, &a, &n1), secret_preimage(&g, 0, 0, &b, &n2));
    }

    #[test]
    fn decoders_never_panic(text in ".{0,80}", hexish in "[0-9a-fA-F]{0,70}", bytes in prop::collection::vec(any::<u8>(), 0..70)) {
        for t in [&text, &hexish] {
            match parse_hex32("input", t) {
                Ok(v) => prop_assert_eq!(hex::encode(v), t.to_lowercase()),
                Err(FairdeckError::WrongHexLength { got, .. }) => prop_assert_ne!(got, 64),
                Err(FairdeckError::NotHex { .. }) => prop_assert_eq!(t.chars().count(), 64),
                Err(e) => prop_assert!(false, "unexpected error {e}"),
            }
        }
        match bytes32("input", &bytes) {
            Ok(v) => prop_assert_eq!(&v[..], &bytes[..]),
            Err(e) => prop_assert_eq!(e, FairdeckError::WrongLength { what: "input", expected: 32, got: bytes.len() }),
        }
    }

    #[test]
    fn event_reveals_never_panic(seats in 0u8..8, ops in prop::collection::vec((any::<bool>(), 0u8..10, any::<u8>()), 0..30)) {
        let Ok(mut e) = EventReveals::new(1, seats) else {
            prop_assert_eq!(seats, 0);
            return Ok(());
        };
        for (reveal, seat, byte) in ops {
            let result = if reveal { e.reveal(seat, [byte; 32]).map(|_| ()) } else { e.forfeit(seat) };
            if seat >= seats {
                prop_assert_eq!(result, Err(FairdeckError::UnknownSeat { seat, seats }));
            }
        }
        match e.beacon(&[0; 32]) {
            Ok(_) => prop_assert!(e.is_complete()),
            Err(FairdeckError::MissingReveal { seat }) => prop_assert!(e.missing().contains(&seat)),
            Err(FairdeckError::AllForfeited) => prop_assert!(e.is_complete()),
            Err(other) => prop_assert!(false, "unexpected error {other}"),
        }
    }

    #[test]
    fn trackers_refuse_arbitrary_sequences(seed in arr32(), events in prop::collection::vec((1u64..12, any::<bool>()), 0..20)) {
        // Random events, honest or garbage reveals: the tracker accepts
        // exactly the honest reveal of the due event and nothing else.
        let chain = ChainSecret::new(seed, 10)?;
        let mut t = ChainTracker::new(chain.commitment(), 10)?;
        for (event, honest) in events {
            let reveal = if honest && event <= 10 { chain.reveal(event)? } else { [event as u8; 32] };
            let due = t.next_event();
            let result = t.accept(event, &reveal);
            let should = event == due && honest && event < 10;
            prop_assert_eq!(result.is_ok(), should, "{:?}", result);
            prop_assert_eq!(t.next_event(), if should { due + 1 } else { due });
        }
    }

    #[test]
    fn arbitrary_continuations_never_panic(first in any::<u64>(), length in any::<u64>(), c_first in any::<u64>(), c_length in any::<u64>(), event in any::<u64>(), reveal in arr32()) {
        // Whatever numbers a peer puts in a genesis or continuation, the
        // tracker answers with a value or a typed error.
        if let Ok(mut t) = ChainTracker::starting_at(first, [0; 32], length) {
            prop_assert!(t.next_event() <= t.last_event());
            let _ = t.continue_with(ChainContinuation { first_event: c_first, length: c_length, commitment: [1; 32] });
            prop_assert!(t.accept(event, &reveal).is_err());
            prop_assert!(t.next_event() <= t.last_event());
        }
    }
}
