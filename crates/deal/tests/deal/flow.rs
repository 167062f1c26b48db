//! A whole deal at three seats, every message through its bytes: keys, three
//! shuffles, a private draw, a public reveal, a reshuffle of a public pile,
//! key release, and an auditor's check of everything afterwards.

#![allow(missing_docs)]

use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use roundtable_deal::{
    CardTable, Context, DealError, Deck, DeckKey, DecryptionShare, KeyShare, KeyShareMessage,
    SecretShare, ShuffleMessage, open_card, own_share,
};

type TestResult = Result<(), Box<dyn std::error::Error>>;

const GAME: [u8; 32] = [7u8; 32];
const SEATS: u8 = 3;

fn context(epoch: u32, seat: u8) -> Context {
    Context {
        game_id: GAME,
        epoch,
        seat,
    }
}

/// Every seat shuffles `deck` in seat order; every message goes through its
/// encoding and is checked by a peer before the next seat takes it.
fn shuffle_round(
    epoch: u32,
    key: &DeckKey,
    secrets: &[SecretShare],
    mut deck: Deck,
    rng: &mut ChaCha20Rng,
) -> Result<(Deck, Vec<Vec<u8>>), DealError> {
    let mut published = Vec::new();
    for seat in 0..SEATS {
        let message = ShuffleMessage::shuffle(
            &context(epoch, seat),
            key,
            &deck,
            &secrets[usize::from(seat)],
            rng,
        );
        let bytes = message.to_bytes();
        let received = ShuffleMessage::from_bytes(&bytes)?;
        deck = received.verify(&context(epoch, seat), key, &deck)?.clone();
        published.push(bytes);
    }
    Ok((deck, published))
}

/// The shares of every seat but `drawer` for `slot`, as published bytes.
fn shares_for(
    epoch: u32,
    slot: u32,
    secrets: &[SecretShare],
    deck: &Deck,
    except: Option<u8>,
    rng: &mut ChaCha20Rng,
) -> Result<Vec<(u8, [u8; 96])>, DealError> {
    let card = deck.get(slot)?;
    Ok((0..SEATS)
        .filter(|s| Some(*s) != except)
        .map(|s| {
            let share =
                DecryptionShare::prove(&context(epoch, s), slot, &secrets[s as usize], card, rng);
            (s, share.to_bytes())
        })
        .collect())
}

#[test]
fn three_seats_deal_draw_reveal_reshuffle_release_and_audit() -> TestResult {
    let mut rng = ChaCha20Rng::seed_from_u64(2026);
    let deck_size = 12u32;
    let cards = CardTable::new(&GAME, deck_size)?;

    // Keys: each seat proves its share; every peer checks all before summing.
    let secrets: Vec<SecretShare> = (0..SEATS)
        .map(|_| SecretShare::generate(&mut rng))
        .collect();
    let key_messages: Vec<[u8; 96]> = (0..SEATS)
        .map(|s| KeyShareMessage::prove(&context(0, s), &secrets[s as usize], &mut rng).to_bytes())
        .collect();
    let key_shares: Vec<KeyShare> = key_messages
        .iter()
        .enumerate()
        .map(|(s, b)| KeyShareMessage::from_bytes(b)?.verify(&context(0, s as u8)))
        .collect::<Result<_, _>>()?;
    let key = DeckKey::combine(&key_shares)?;

    // Three shuffles of the open deck 0..12.
    let all: Vec<u32> = (0..deck_size).collect();
    let open_deck = Deck::open(&GAME, &all)?;
    let (deck, shuffles) = shuffle_round(0, &key, &secrets, open_deck.clone(), &mut rng)?;
    assert_ne!(deck, open_deck);

    // Private draw: seat 1 draws slots 0..3. The others publish shares; only
    // seat 1 adds its own.
    let mut hand = Vec::new();
    let mut private_shares = Vec::new();
    for slot in 0..3 {
        let published = shares_for(0, slot, &secrets, &deck, Some(1), &mut rng)?;
        let card = deck.get(slot)?;
        let mut points = Vec::new();
        for (seat, bytes) in &published {
            let share = DecryptionShare::from_bytes(bytes)?;
            points.push(share.verify(
                &context(0, *seat),
                slot,
                &key_shares[*seat as usize],
                card,
            )?);
        }
        // Without the drawer's share the card stays closed to everyone else.
        assert_eq!(
            open_card(card, &points, &cards),
            Err(DealError::UnknownCard { size: deck_size })
        );
        points.push(own_share(&secrets[1], card));
        hand.push(open_card(card, &points, &cards)?);
        private_shares.push(published);
    }
    let mut sorted = hand.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), 3, "three distinct cards: {hand:?}");

    // Public reveal: seat 1 plays its first card face up, its share riding in
    // the action; everyone opens it with the shares already published.
    let played_slot = 0u32;
    let holder_share = DecryptionShare::prove(
        &context(0, 1),
        played_slot,
        &secrets[1],
        deck.get(played_slot)?,
        &mut rng,
    )
    .to_bytes();
    let mut points = Vec::new();
    for (seat, bytes) in private_shares[0].iter().chain([&(1u8, holder_share)]) {
        points.push(DecryptionShare::from_bytes(bytes)?.verify(
            &context(0, *seat),
            played_slot,
            &key_shares[*seat as usize],
            deck.get(played_slot)?,
        )?);
    }
    assert_eq!(open_card(deck.get(played_slot)?, &points, &cards)?, hand[0]);

    // Reshuffle of a public pile: the played card and two cards revealed from
    // the draw pile form a new open deck in epoch 1, shuffled by everyone.
    let mut pile = vec![hand[0]];
    for slot in [10u32, 11] {
        let published = shares_for(0, slot, &secrets, &deck, None, &mut rng)?;
        let card = deck.get(slot)?;
        let points = published
            .iter()
            .map(|(s, b)| {
                DecryptionShare::from_bytes(b)?.verify(
                    &context(0, *s),
                    slot,
                    &key_shares[*s as usize],
                    card,
                )
            })
            .collect::<Result<Vec<_>, _>>()?;
        pile.push(open_card(card, &points, &cards)?);
    }
    let pile_deck = Deck::open(&GAME, &pile)?;
    let (reshuffled, reshuffles) = shuffle_round(1, &key, &secrets, pile_deck.clone(), &mut rng)?;
    // A shuffle proved for epoch 0 does not pass as epoch 1's.
    assert!(
        ShuffleMessage::from_bytes(&reshuffles[0])?
            .verify(&context(0, 0), &key, &pile_deck)
            .is_err()
    );

    // Key release: each seat publishes its secret; everyone checks it.
    let released: Vec<[u8; 32]> = secrets.iter().map(SecretShare::to_bytes).collect();
    let audited: Vec<SecretShare> = released
        .iter()
        .zip(&key_shares)
        .map(|(r, k)| k.verify_release(r))
        .collect::<Result<_, _>>()?;
    assert_eq!(
        key_shares[0].verify_release(&released[1]).err(),
        Some(DealError::ReleaseMismatch)
    );

    // The audit: from the published bytes alone, every proof again, then
    // every slot opened with the released keys; the private hand is what
    // seat 1 saw, the deck a permutation of all the cards, the reshuffled
    // pile a permutation of the pile.
    let audit_shares: Vec<KeyShare> = key_messages
        .iter()
        .enumerate()
        .map(|(s, b)| KeyShareMessage::from_bytes(b)?.verify(&context(0, s as u8)))
        .collect::<Result<_, _>>()?;
    let audit_key = DeckKey::combine(&audit_shares)?;
    let replay = |epoch: u32, start: Deck, messages: &[Vec<u8>]| -> Result<Deck, DealError> {
        let mut deck = start;
        for (seat, bytes) in messages.iter().enumerate() {
            deck = ShuffleMessage::from_bytes(bytes)?
                .verify(&context(epoch, seat as u8), &audit_key, &deck)?
                .clone();
        }
        Ok(deck)
    };
    let audited_deck = replay(0, open_deck, &shuffles)?;
    assert_eq!(audited_deck, deck);
    let open_all = |d: &Deck| -> Result<Vec<u32>, DealError> {
        d.ciphertexts()
            .iter()
            .map(|c| {
                let shares: Vec<_> = audited.iter().map(|s| own_share(s, c)).collect();
                open_card(c, &shares, &cards)
            })
            .collect()
    };
    let opened = open_all(&audited_deck)?;
    assert_eq!(&opened[..3], &hand[..]);
    let mut sorted = opened.clone();
    sorted.sort();
    assert_eq!(sorted, all);
    let reopened = open_all(&replay(1, pile_deck, &reshuffles)?)?;
    assert_eq!(reopened, open_all(&reshuffled)?);
    let (mut a, mut b) = (reopened, pile);
    a.sort();
    b.sort();
    assert_eq!(a, b);
    Ok(())
}

#[test]
fn a_120_card_deck_shuffles_and_verifies() -> TestResult {
    let mut rng = ChaCha20Rng::seed_from_u64(120);
    let secrets: Vec<SecretShare> = (0..2).map(|_| SecretShare::generate(&mut rng)).collect();
    let key = DeckKey::combine(&secrets.iter().map(SecretShare::public).collect::<Vec<_>>())?;
    let all: Vec<u32> = (0..120).collect();
    let deck = Deck::open(&GAME, &all)?;
    let message = ShuffleMessage::shuffle(&context(0, 0), &key, &deck, &secrets[0], &mut rng);
    let bytes = message.to_bytes();
    assert_eq!(bytes.len(), ShuffleMessage::encoded_len(120));
    assert_eq!(bytes.len(), 192 * 120 + 162);
    let out = ShuffleMessage::from_bytes(&bytes)?
        .verify(&context(0, 0), &key, &deck)?
        .clone();
    let cards = CardTable::new(&GAME, 120)?;
    let mut opened = out
        .ciphertexts()
        .iter()
        .map(|c| {
            let shares: Vec<_> = secrets.iter().map(|s| own_share(s, c)).collect();
            open_card(c, &shares, &cards)
        })
        .collect::<Result<Vec<_>, _>>()?;
    assert_ne!(opened, all, "the order changed");
    opened.sort();
    assert_eq!(opened, all);
    Ok(())
}
