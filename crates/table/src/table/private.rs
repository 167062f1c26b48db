//! The table's side of the private deal (protocol/SPEC.md 5.11–5.16): what
//! each seat owes at a private request, taking its messages in (each checked
//! before it counts), the local seat's own messages, and the decisions that
//! play private cards face up. The cryptographic bookkeeping is
//! [`Dealing`](crate::dealing::Dealing)'s.

use roundtable_deal::{Deck, DeckKey, DecryptionShare, KeyShareMessage, ShuffleMessage};
use roundtable_engine::{
    CardHandle, EpochId, Game, Knowledge, PrivateRequest, Revealed, RuleError, Seat,
};

use super::{Abandonment, PrivateStep, Record, Table};
use crate::dealing::{ClaimError, MessageKind};
use crate::envelope::{Body, Proof96, Reveal, Signed};
use crate::proof::Violation;

/// A private request, owned: the engine's borrows the game state, which the
/// steps below change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Request {
    Reshuffle {
        pile: Vec<u32>,
        epoch: EpochId,
    },
    Deal {
        to: Seat,
        first: CardHandle,
        count: u32,
    },
    Reveal {
        handles: Vec<CardHandle>,
    },
}

impl Request {
    pub(super) fn of(request: &PrivateRequest<'_>) -> Request {
        match *request {
            PrivateRequest::Reshuffle { pile, epoch } => Request::Reshuffle {
                pile: pile.to_vec(),
                epoch,
            },
            PrivateRequest::Deal { to, first, count } => Request::Deal { to, first, count },
            PrivateRequest::Reveal { handles } => Request::Reveal {
                handles: handles.to_vec(),
            },
        }
    }

    /// The slots whose shares the request asks for, in its order.
    fn handles(&self) -> Vec<CardHandle> {
        match self {
            Request::Reshuffle { .. } => Vec::new(),
            Request::Deal { first, count, .. } => (0..*count)
                .map(|i| CardHandle::new(first.epoch, first.slot.saturating_add(i)))
                .collect(),
            Request::Reveal { handles } => handles.clone(),
        }
    }
}

/// What a seat owes at a private request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Owed {
    /// Its key share (the first reshuffle).
    KeyShare,
    /// Its shuffle of the deck of the epoch.
    Shuffle(EpochId),
    /// Its decryption shares for these slots.
    Shares(Vec<CardHandle>),
    /// Its secret, after it resigned.
    Release,
}

impl Owed {
    fn describe(&self) -> String {
        match self {
            Owed::KeyShare => "its key share".into(),
            Owed::Shuffle(epoch) => format!("its shuffle of the deck of epoch {}", epoch.0),
            Owed::Shares(handles) => format!("its decryption shares for {} slots", handles.len()),
            Owed::Release => "its key release, after its resignation".into(),
        }
    }
}

impl<G: Game> Table<G> {
    /// What the local seat has opened (its own cards), if the table is a seat's.
    pub fn knowledge(&self) -> Option<&Knowledge> {
        let me = self.local_seat()?;
        self.dealing.knowledge.get(me.index())
    }

    /// What `seat` holds of the private cards as far as this table can
    /// open them: for the local seat its own cards at once; for every seat,
    /// every card dealt to it once every seat released its key after the
    /// game (the audit's view: pass it to `Game::view_with` with the state
    /// after any record to see that seat's hand then).
    pub fn opened(&self, seat: Seat) -> Option<&Knowledge> {
        self.dealing.knowledge.get(seat.index())
    }

    /// Every slot dealt so far with the seat it went to, in deal order.
    pub fn dealt(&self) -> &[(Seat, CardHandle)] {
        &self.dealing.dealt
    }

    /// Whether every seat that holds part of the deck key has released it.
    pub fn every_key_released(&self) -> bool {
        self.dealing.all_released()
    }

    /// What `seat` owes at `request` now, if anything.
    pub(super) fn owed(&self, request: &Request, seat: usize) -> Option<Owed> {
        let d = &self.dealing;
        if self.seats[seat].forfeited.is_some() {
            // A resigned seat's secret comes right after its resignation;
            // with it every peer computes its shares.
            return (d.key_shares[seat].is_some() && d.released[seat].is_none())
                .then_some(Owed::Release);
        }
        match request {
            Request::Reshuffle { epoch, .. } => {
                if d.deck_key.is_none() {
                    d.key_shares[seat].is_none().then_some(Owed::KeyShare)
                } else {
                    (self.next_shuffler() == Some(seat)).then_some(Owed::Shuffle(*epoch))
                }
            }
            Request::Deal { to, .. } => {
                (seat != to.index() && d.contributes(seat) && !d.progress.shared[seat])
                    .then(|| Owed::Shares(request.handles()))
            }
            Request::Reveal { .. } => (d.contributes(seat) && !d.progress.shared[seat])
                .then(|| Owed::Shares(request.handles())),
        }
    }

    /// The seat whose shuffle is next: seat order, after the last one in,
    /// skipping seats that hold no part of the key or released it.
    fn next_shuffler(&self) -> Option<usize> {
        let from = match &self.dealing.progress.shuffled {
            Some((_, Some(last))) => usize::from(*last) + 1,
            _ => 0,
        };
        (from..self.seats.len())
            .find(|&s| self.dealing.contributes(s) && self.seats[s].forfeited.is_none())
    }

    /// The seats whose contribution the request still lacks.
    pub(super) fn private_waited_on(&self, request: &Request) -> Vec<Seat> {
        (0..self.seats.len())
            .filter(|&s| self.owed(request, s).is_some())
            .map(|s| Seat(s as u8))
            .collect()
    }

    /// Serve a private request: forfeits, the local seat's contribution, the
    /// others' in their order, and the answer to the game once all are in.
    pub(super) fn step_private(&mut self, request: Request) -> bool {
        let position = self.position();
        if !self.dealing_at.contains_key(&position) {
            let mut before = self.dealing.clone();
            before.reset_progress();
            self.dealing_at.insert(position, before);
        }
        for seat in self.private_waited_on(&request) {
            if let Some(claims) = self.claims_complete(seat) {
                self.forfeit(seat, Record::Forfeit { seat, claims }, "stalled");
                return true;
            }
        }
        let mut progressed = false;
        loop {
            // The open deck first: a later epoch's first shuffle may already
            // be waiting in its seat's buffer, and is checked against it.
            let mut any = self.advance_deal(&request);
            for seat in 0..self.seats.len() {
                if self.failed.is_some() {
                    return false;
                }
                let Some(owed) = self.owed(&request, seat) else {
                    if self.unasked_shares_here(seat) {
                        return false;
                    }
                    continue;
                };
                if self.seats[seat].peek().is_none() && self.local_seat() == Some(Seat(seat as u8))
                {
                    // Its own resignation comes first (`local_resignation_due`).
                    if !self.resigning(seat) {
                        any |= self.author_owed(&request, &owed);
                    }
                    continue;
                }
                let Some(body) = self.seats[seat].peek().map(|e| e.envelope.body.clone()) else {
                    continue;
                };
                if owed != Owed::Release
                    && (!self.input_allowed(Seat(seat as u8)) || self.written_past_a_forfeit(seat))
                {
                    continue;
                }
                if matches!(body, Body::Resign)
                    && owed != Owed::Release
                    && !self.resignation_applies_here(&request)
                {
                    continue;
                }
                let Some(signed) = self.consume(seat) else {
                    return false;
                };
                if matches!(body, Body::Resign) && owed != Owed::Release {
                    let seat = Seat(seat as u8);
                    let seq = signed.seq();
                    self.forfeit(seat, Record::Resign { seat, seq }, "resigned");
                    return true;
                }
                if owed != Owed::Release && !self.check_position(&signed) {
                    return false;
                }
                if !self.take_contribution(&request, &owed, signed, body) {
                    return false;
                }
                any = true;
            }
            any |= self.advance_deal(&request);
            if self.failed.is_some() {
                return false;
            }
            if !any {
                break;
            }
            progressed = true;
        }
        if self.private_waited_on(&request).is_empty() && self.finish_private(request) {
            return true;
        }
        progressed
    }

    /// Whether `seat` signed a resignation that is not applied yet: next in
    /// its sequence, or (the local seat's) in its log.
    pub(super) fn resigning(&self, seat: usize) -> bool {
        let state = &self.seats[seat];
        let is_resign = |e: &Signed| matches!(e.envelope.body, Body::Resign);
        state.forfeited.is_none()
            && (state.peek().is_some_and(is_resign)
                || (self.local_seat() == Some(Seat(seat as u8)) && state.log.iter().any(is_resign)))
    }

    /// Whether a resignation is applied at this private step now: only once
    /// every seat the step waits on has resigned (the lowest first). The
    /// others' contributions are all written at this position, before the
    /// resignation moves it on; applied earlier, one arriving after it would
    /// be refused as written at the wrong position (5.14).
    pub(super) fn resignation_applies_here(&self, request: &Request) -> bool {
        self.private_waited_on(request)
            .iter()
            .all(|s| self.resigning(s.index()))
    }

    /// Whether `seat`, which owes nothing here, sent shares written at this
    /// position anyway: proof that it gave shares nobody asked of it.
    fn unasked_shares_here(&mut self, seat: usize) -> bool {
        let position = self.position();
        let here = self.seats[seat].peek().is_some_and(|e| {
            matches!(e.envelope.body, Body::Shares { .. })
                && e.envelope.position == position
                && e.envelope.state_hash == self.current_hash()
        });
        if !here {
            return false;
        }
        if let Some(signed) = self.consume(seat) {
            self.fail(Violation::UnaskedShares {
                envelope: signed,
                reason: unasked_reason(position),
            });
        }
        true
    }

    /// Judge a seat's next envelope when it is `Shares`, a decision, a
    /// secret choice's commitment or opening, or a contribution to the deal
    /// written at a position this table has passed
    /// (protocol/SPEC.md 3.7, 5.12): the record
    /// there took every such input that was due from the seat, from
    /// earlier envelopes of its sequence, or asked none of it, so these are
    /// unasked (or, on another state than the one there, a fork). Judged
    /// as soon as the envelope is next in its seat's sequence, whatever
    /// the game waits for: left in the buffer it would hold back every
    /// later envelope of the seat (its stall claims among them), and a
    /// peer still at that position would prove it while this one waited,
    /// so the two would end differently.
    ///
    /// Positions in the run of forfeits that ends here are not passed: a
    /// resignation taken at a deal moves the position on while the deal
    /// still waits for the same shares. An envelope that does not fit
    /// because its author forfeited a seat whose input this table applied
    /// waits for the rewind (`written_past_a_forfeit`), and a forfeited
    /// seat's envelopes are never needed. Returns whether the table failed.
    pub(super) fn judge_input_from_a_passed_position(&mut self) -> bool {
        if self.finished || self.abandoned().is_some() {
            // The game is over for this table: what comes after is no part
            // of it.
            return false;
        }
        let passed_before = self.forfeit_run_start();
        for seat in 0..self.seats.len() {
            if self.seats[seat].forfeited.is_some() {
                continue;
            }
            let Some(e) = self.seats[seat].peek() else {
                continue;
            };
            let written_at = e.envelope.position;
            // Stall claims, continuations and reveals are no input of a
            // position; resignations, key releases and seed openings have
            // their own rules for when they are taken.
            let shares = matches!(e.envelope.body, Body::Shares { .. });
            let input = matches!(
                e.envelope.body,
                Body::Action { .. }
                    | Body::ActionRevealing { .. }
                    | Body::KeyShare { .. }
                    | Body::Shuffle { .. }
                    | Body::ShuffleFromPile { .. }
                    | Body::SecretCommit { .. }
                    | Body::SecretOpen { .. }
            );
            if !(shares || input) || written_at >= passed_before {
                continue;
            }
            let state_there = self.hashes.get(written_at as usize).copied();
            let same_state = state_there == Some(e.envelope.state_hash);
            if self.written_past_a_forfeit(seat) {
                continue;
            }
            let Some(signed) = self.consume(seat) else {
                return true;
            };
            self.fail(match state_there {
                Some(expected) if !same_state => Violation::StateMismatch {
                    envelope: signed,
                    expected,
                },
                // The record at `q` took this kind of input from an earlier
                // envelope of the seat, or asked none of it.
                _ if input => Violation::UnexpectedBody {
                    expected: undue_input(&signed.envelope.body, written_at),
                    envelope: signed,
                },
                _ => Violation::UnaskedShares {
                    envelope: signed,
                    reason: unasked_reason(written_at),
                },
            });
            return true;
        }
        false
    }

    /// Combine the deck key once every seat still in gave its key share, and
    /// lay out the open deck of the pile once the key is there.
    fn advance_deal(&mut self, request: &Request) -> bool {
        let Request::Reshuffle { pile, .. } = request else {
            return false;
        };
        let mut any = false;
        if self.dealing.deck_key.is_none() {
            let every_share = (0..self.seats.len())
                .all(|s| self.seats[s].forfeited.is_some() || self.dealing.key_shares[s].is_some());
            let shares: Vec<_> = self.dealing.key_shares.iter().flatten().copied().collect();
            if !every_share || shares.is_empty() {
                return false;
            }
            match DeckKey::combine(&shares) {
                Ok(key) => self.dealing.deck_key = Some(key),
                Err(_) => return false,
            }
            any = true;
        }
        if self.dealing.progress.shuffled.is_none() {
            let Ok(deck) = Deck::open(&self.dealing.game_id, pile) else {
                return any;
            };
            self.dealing.progress.shuffled = Some((deck, None));
            any = true;
        }
        any
    }

    /// Check and take in one seat's contribution; on a bad one, fail with
    /// the envelope as proof.
    fn take_contribution(
        &mut self,
        request: &Request,
        owed: &Owed,
        signed: Signed,
        body: Body,
    ) -> bool {
        let seat = signed.seat();
        let entry = (seat, signed.seq());
        let refusal = match (owed, body) {
            (Owed::KeyShare, Body::KeyShare { message }) => {
                let context = self.dealing.context(0, seat);
                match KeyShareMessage::from_bytes(&message.0).and_then(|m| m.verify(&context)) {
                    Ok(share) => {
                        self.dealing.key_shares[usize::from(seat)] = Some(share);
                        None
                    }
                    Err(e) => Some(Violation::BadKeyShare {
                        envelope: signed,
                        reason: e.to_string(),
                    }),
                }
            }
            (Owed::Shuffle(epoch), Body::Shuffle { epoch: e, message }) => self
                .take_shuffle(request, seat, *epoch, e, None, &message)
                .err()
                .map(|reason| Violation::BadShuffle {
                    envelope: signed,
                    reason,
                }),
            (
                Owed::Shuffle(epoch),
                Body::ShuffleFromPile {
                    epoch: e,
                    pile,
                    message,
                },
            ) => self
                .take_shuffle(request, seat, *epoch, e, Some(pile.as_slice()), &message)
                .err()
                .map(|reason| Violation::BadShuffle {
                    envelope: signed,
                    reason,
                }),
            (Owed::Shares(handles), Body::Shares { shares }) => {
                if shares.len() != handles.len() {
                    Some(Violation::UnaskedShares {
                        envelope: signed,
                        reason: format!(
                            "{} shares where the request asks for {}",
                            shares.len(),
                            handles.len()
                        ),
                    })
                } else {
                    let bad = handles
                        .iter()
                        .zip(&shares)
                        .enumerate()
                        .find_map(|(i, (h, s))| {
                            self.dealing.take_share(seat, *h, &s.0).err().map(|e| {
                                format!("share {i} (slot {} of epoch {}): {e}", h.slot, h.epoch.0)
                            })
                        });
                    match bad {
                        Some(reason) => Some(Violation::BadShare {
                            envelope: signed,
                            reason,
                        }),
                        None => {
                            self.dealing.progress.shared[usize::from(seat)] = true;
                            None
                        }
                    }
                }
            }
            (Owed::Release, Body::KeyRelease { secret }) => {
                match self.take_release(seat, &secret) {
                    Ok(()) => None,
                    Err(reason) => Some(Violation::BadKeyRelease {
                        envelope: signed,
                        reason,
                    }),
                }
            }
            (_, Body::Shares { .. }) => Some(Violation::UnaskedShares {
                envelope: signed,
                reason: format!("the request asks it for {}", owed.describe()),
            }),
            (_, _) => Some(Violation::UnexpectedBody {
                envelope: signed,
                expected: owed.describe(),
            }),
        };
        if let Some(v) = refusal {
            self.fail(v);
            return false;
        }
        self.dealing.progress.envelopes.push(entry);
        true
    }

    /// Check a shuffle of the deck of `epoch` against the deck before it
    /// and take its output as the current deck. The first shuffle of an
    /// epoch names the pile it starts from (`named_pile`), which must be the
    /// request's: a stranger's verifier checks the proof against the open
    /// deck of the named pile, so a pile the rules do not ask for would make
    /// the table and the stranger judge one envelope differently.
    fn take_shuffle(
        &mut self,
        request: &Request,
        seat: u8,
        epoch: EpochId,
        named: u32,
        named_pile: Option<&[u32]>,
        message: &[u8],
    ) -> Result<(), String> {
        if named != u32::from(epoch.0) {
            return Err(format!(
                "a shuffle for epoch {named} where epoch {} was due",
                epoch.0
            ));
        }
        let (Some(key), Some((input, last))) =
            (&self.dealing.deck_key, &self.dealing.progress.shuffled)
        else {
            return Err("no deck to shuffle yet".into());
        };
        let Request::Reshuffle { pile, .. } = request else {
            return Err("no reshuffle was asked for".into());
        };
        match (last, named_pile) {
            (None, None) => {
                return Err(format!(
                    "the first shuffle of epoch {named} must name the pile it starts from"
                ));
            }
            (Some(_), Some(_)) => {
                return Err(format!(
                    "only the first shuffle of epoch {named} names a pile"
                ));
            }
            (None, Some(named_pile)) if named_pile != pile.as_slice() => {
                return Err(
                    match named_pile.iter().zip(pile).position(|(a, b)| a != b) {
                        Some(i) => format!(
                            "its pile names card {} in place {} where the game's rules ask for card {}",
                            named_pile[i],
                            i + 1,
                            pile[i]
                        ),
                        None => format!(
                            "its pile names {} cards where the game's rules ask for {}",
                            named_pile.len(),
                            pile.len()
                        ),
                    },
                );
            }
            _ => {}
        }
        let context = self.dealing.context(named, seat);
        let output = ShuffleMessage::from_bytes(message)
            .and_then(|m| m.verify(&context, key, input).cloned())
            .map_err(|e| e.to_string())?;
        self.dealing.progress.shuffled = Some((output, Some(seat)));
        Ok(())
    }

    /// Check `seat`'s released secret against its key share and keep it.
    pub(super) fn take_release(&mut self, seat: u8, secret: &[u8; 32]) -> Result<(), String> {
        let Some(share) = self.dealing.key_shares[usize::from(seat)] else {
            return Err("the seat gave no key share to release".into());
        };
        let released = share.verify_release(secret).map_err(|e| e.to_string())?;
        self.dealing.released[usize::from(seat)] = Some(released);
        Ok(())
    }

    /// Sign the local seat's contribution. Its randomness comes from the
    /// deal root (see [`crate::dealing::LocalDeal`]), so a restarted peer
    /// signs the very same message.
    fn author_owed(&mut self, request: &Request, owed: &Owed) -> bool {
        let (Some(local), Some(me)) = (self.local_deal.clone(), self.local_seat()) else {
            return false;
        };
        let position = self.position();
        let body = match owed {
            Owed::KeyShare => {
                let context = self.dealing.context(0, me.0);
                let mut rng = local.rng(MessageKind::KeyShare, 0, position);
                let message = KeyShareMessage::prove(&context, &local.secret, &mut rng);
                self.dealing.key_shares[me.index()] = Some(local.secret.public());
                Body::KeyShare {
                    message: Proof96(message.to_bytes()),
                }
            }
            Owed::Shuffle(epoch) => {
                let (Some(key), Some((input, last))) =
                    (&self.dealing.deck_key, &self.dealing.progress.shuffled)
                else {
                    return false;
                };
                let first = last.is_none();
                let epoch = u32::from(epoch.0);
                let context = self.dealing.context(epoch, me.0);
                let mut rng = local.rng(MessageKind::Shuffle, epoch, position);
                let message =
                    ShuffleMessage::shuffle(&context, key, input, &local.secret, &mut rng);
                self.dealing.progress.shuffled = Some((message.output().clone(), Some(me.0)));
                match request {
                    Request::Reshuffle { pile, .. } if first => Body::ShuffleFromPile {
                        epoch,
                        pile: pile.clone(),
                        message: message.to_bytes(),
                    },
                    _ => Body::Shuffle {
                        epoch,
                        message: message.to_bytes(),
                    },
                }
            }
            Owed::Shares(handles) => {
                let mut rng = local.rng(MessageKind::Shares, 0, position);
                let mut shares = Vec::with_capacity(handles.len());
                for handle in handles {
                    let Ok(card) = self.dealing.ciphertext(*handle).copied() else {
                        return false;
                    };
                    let context = self.dealing.context(u32::from(handle.epoch.0), me.0);
                    let share = DecryptionShare::prove(
                        &context,
                        handle.slot,
                        &local.secret,
                        &card,
                        &mut rng,
                    );
                    shares.push(Proof96(share.to_bytes()));
                }
                for (handle, share) in handles.iter().zip(&shares) {
                    if self.dealing.take_share(me.0, *handle, &share.0).is_err() {
                        return false;
                    }
                }
                self.dealing.progress.shared[me.index()] = true;
                Body::Shares { shares }
            }
            Owed::Release => {
                // Signed right after the resignation (`Table::resign`), and
                // taken here, where every other table takes it, so that it
                // lies in the same step of every transcript.
                let Some((seq, secret)) =
                    self.seats[me.index()]
                        .log
                        .iter()
                        .find_map(|e| match e.envelope.body {
                            Body::KeyRelease { secret } => Some((e.seq(), secret)),
                            _ => None,
                        })
                else {
                    return false;
                };
                if self.take_release(me.0, &secret).is_err() {
                    return false;
                }
                self.dealing.progress.envelopes.push((me.0, seq));
                return true;
            }
        };
        match self.author(body) {
            Some(signed) => {
                self.dealing.progress.envelopes.push((me.0, signed.seq()));
                true
            }
            None => false,
        }
    }

    /// Every contribution is in: answer the game and record the step.
    fn finish_private(&mut self, request: Request) -> bool {
        let mut events = Vec::new();
        let step = match request {
            Request::Reshuffle { pile, epoch } => {
                let Some((deck, _)) = self.dealing.progress.shuffled.clone() else {
                    return false;
                };
                if self.dealing.finish_reshuffle(epoch, &pile, deck).is_err()
                    || self.game.apply_reshuffle(&mut events).is_err()
                {
                    return false;
                }
                PrivateStep::Reshuffle { epoch }
            }
            Request::Deal { to, first, count } => {
                let handles = Request::Deal { to, first, count }.handles();
                if let (Some(me), Some(local)) = (self.local_seat(), &self.local_deal)
                    && me == to
                {
                    for &handle in &handles {
                        if let Ok(card) = self.dealing.open(handle, Some((me.0, &local.secret))) {
                            self.dealing.knowledge[me.index()].learn(handle, card);
                        }
                    }
                }
                if self.game.apply_deal(&mut events).is_err() {
                    return false;
                }
                self.dealing.dealt.extend(handles.iter().map(|&h| (to, h)));
                PrivateStep::Deal { to, first, count }
            }
            Request::Reveal { handles } => {
                let mut cards = Vec::with_capacity(handles.len());
                for handle in handles {
                    let Ok(card) = self.dealing.open(handle, None) else {
                        return false;
                    };
                    cards.push(Revealed { handle, card });
                }
                if self.game.apply_reveal(&cards, &mut events).is_err() {
                    return false;
                }
                PrivateStep::Reveal { cards }
            }
        };
        // In seat order, not arrival order: every table writes the same
        // transcript whichever contribution reached it first.
        let mut envelopes = std::mem::take(&mut self.dealing.progress.envelopes);
        envelopes.sort_unstable();
        self.dealing.reset_progress();
        self.record(Record::Private { step, envelopes }, events);
        true
    }

    /// Take in a decision that plays private cards face up: open each
    /// claimed handle from the holder's share in the envelope and the other
    /// seats' shares from the deal, then apply it with the opened cards. A
    /// claim the rules refuse is an illegal action, the envelope its proof.
    pub(super) fn take_revealing_action(
        &mut self,
        seat: Seat,
        signed: Signed,
        action: &[u8],
        reveal: Option<Reveal>,
        shares: &[Proof96],
    ) -> bool {
        let action: G::Action = match crate::decode_exact(action) {
            Ok(a) => a,
            Err(e) => {
                self.fail(Violation::IllegalAction {
                    envelope: signed,
                    rule: format!("undecodable action: {e}"),
                });
                return false;
            }
        };
        let claims = G::claims(&action);
        if claims.is_empty() {
            self.fail(Violation::UnaskedShares {
                envelope: signed,
                reason: "an action that plays no private card carries no shares".into(),
            });
            return false;
        }
        self.snapshot_dealing();
        let bytes: Vec<[u8; 96]> = shares.iter().map(|s| s.0).collect();
        let revealed = match self.dealing.open_claims(seat.0, &claims, &bytes) {
            Ok(revealed) => revealed,
            Err(ClaimError::Count { claims, shares }) => {
                self.fail(Violation::UnaskedShares {
                    envelope: signed,
                    reason: format!("{shares} shares for an action that plays {claims} cards"),
                });
                return false;
            }
            Err(ClaimError::Share(e)) => {
                self.fail(Violation::BadShare {
                    envelope: signed,
                    reason: e.to_string(),
                });
                return false;
            }
            // No slot the seat could open: the rules say what that is.
            Err(ClaimError::Unopenable) => Vec::new(),
        };
        let mut events = Vec::new();
        if let Err(e) = self
            .game
            .apply_action_revealing(seat, &action, &revealed, &mut events)
        {
            self.fail(Violation::IllegalAction {
                envelope: signed,
                rule: e.rule().to_owned(),
            });
            return false;
        }
        let seq = signed.seq();
        let step = PrivateStep::Play {
            seat,
            seq,
            action,
            revealed,
        };
        self.record(
            Record::Private {
                step,
                envelopes: vec![(seat.0, seq)],
            },
            events,
        );
        if let Some(r) = reveal {
            self.accept_reveal(seat, &signed, seq, r);
        }
        true
    }

    /// The local seat plays private cards face up: its shares for the
    /// claimed handles go into the action's envelope.
    pub(super) fn author_revealing_action(&mut self, seat: Seat, action: G::Action) -> bool {
        let Some(local) = self.local_deal.clone() else {
            return false;
        };
        let position = self.position();
        let claims = G::claims(&action);
        let mut rng = local.rng(MessageKind::ActionShares, 0, position);
        let mut shares = Vec::with_capacity(claims.len());
        for claim in &claims {
            let Ok(card) = self.dealing.ciphertext(claim.handle).copied() else {
                return false;
            };
            let context = self
                .dealing
                .context(u32::from(claim.handle.epoch.0), seat.0);
            let share =
                DecryptionShare::prove(&context, claim.handle.slot, &local.secret, &card, &mut rng);
            shares.push(share.to_bytes());
        }
        let mut probe = self.dealing.clone();
        let Ok(revealed) = probe.open_claims(seat.0, &claims, &shares) else {
            return false;
        };
        let mut after = self.game.clone();
        let mut events = Vec::new();
        if after
            .apply_action_revealing(seat, &action, &revealed, &mut events)
            .is_err()
        {
            return false;
        }
        let encoded = postcard::to_allocvec(&action).unwrap_or_default();
        let Some(signed) = self.author(Body::ActionRevealing {
            action: encoded,
            reveal: None,
            shares: shares.into_iter().map(Proof96).collect(),
        }) else {
            return false;
        };
        self.snapshot_dealing();
        self.dealing = probe;
        self.game = after;
        let seq = signed.seq();
        self.record(
            Record::Private {
                step: PrivateStep::Play {
                    seat,
                    seq,
                    action,
                    revealed,
                },
                envelopes: vec![(seat.0, seq)],
            },
            events,
        );
        true
    }

    /// The cards `action` claims as the local seat's table knows them, for
    /// checking a decision before it is signed.
    pub(super) fn known_claims(&self, seat: Seat, action: &G::Action) -> Vec<Revealed> {
        let knowledge = self.dealing.knowledge.get(seat.index());
        G::claims(action)
            .into_iter()
            .filter_map(|c| {
                knowledge
                    .and_then(|k| k.card(c.handle))
                    .map(|card| Revealed {
                        handle: c.handle,
                        card,
                    })
            })
            .collect()
    }

    /// Keep the deal as it is before a step at the current position.
    fn snapshot_dealing(&mut self) {
        let position = self.position();
        if !self.dealing_at.contains_key(&position) {
            let mut before = self.dealing.clone();
            before.reset_progress();
            self.dealing_at.insert(position, before);
        }
    }

    /// A stall forfeit of a seat that holds part of the deck key ends the
    /// game: its shares can never be computed, so nothing private can be
    /// dealt or opened again. Recorded as an abandonment with that one seat
    /// stopped; the others rank by the standing of the moment.
    pub(super) fn forfeit_ends_game(&self, seat: Seat) -> bool {
        self.dealing.key_shares[seat.index()].is_some()
    }

    pub(super) fn abandon_for_forfeit(&mut self, seat: Seat, claims: Vec<(u8, u64)>) {
        let claimants = claims.iter().map(|(c, _)| *c).collect();
        let claims = claims.into_iter().map(|(c, q)| (c, seat.0, q)).collect();
        // Every other seat claimed it, so its late input is refused like
        // any forfeited seat's: what it shows past here changes nothing.
        self.abandon(Abandonment {
            claimants,
            stopped: vec![seat],
            claims,
        });
    }

    /// Rewinding to `position`: the deal as it was there, and the envelopes
    /// of the step under way (to go back to their seats' buffers).
    pub(super) fn rewind_dealing(&mut self, position: u64) -> Vec<(u8, u64)> {
        let pending = std::mem::take(&mut self.dealing.progress.envelopes);
        let later = self.dealing_at.split_off(&position);
        if let Some((_, before)) = later.into_iter().next() {
            self.dealing = before;
        }
        self.dealing.reset_progress();
        pending
    }
}

/// Why shares written at `position` were unasked: the same words whether
/// the table met them there or after it (every peer names the same proof).
fn unasked_reason(position: u64) -> String {
    format!("no shares were due from it at position {position}")
}

/// What an input written at a passed `position` met: the same words on
/// every peer that judges it (3.7), whatever position it has reached.
fn undue_input(body: &Body, position: u64) -> String {
    format!("no {} from it at position {position}", body.kind())
}

/// When the local seat releases its key (5.15).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Release {
    /// Right after its resignation: taken at the next private step, where
    /// every other table takes it.
    AfterResigning,
    /// With its seed opening after the game: taken at once.
    AfterTheGame,
}

impl<G: Game> Table<G> {
    /// The local seat's key release, due after its seed opening or its
    /// resignation, if it gave a key share.
    pub(super) fn author_release(&mut self, when: Release) {
        let (Some(me), Some(local)) = (self.local_seat(), self.local_deal.clone()) else {
            return;
        };
        let i = me.index();
        if self.dealing.key_shares[i].is_none() || self.dealing.released[i].is_some() {
            return;
        }
        let signed = self.author(Body::KeyRelease {
            secret: local.secret.to_bytes(),
        });
        if signed.is_some() && when == Release::AfterTheGame {
            self.dealing.released[i] = Some(local.secret.clone());
        }
    }

    /// Whether `seat` still owes its key release after the game.
    pub(super) fn owes_release(&self, seat: usize) -> bool {
        self.dealing.key_shares[seat].is_some() && self.dealing.released[seat].is_none()
    }

    /// After the game, with every key released: open every dealt card.
    pub(super) fn open_hands(&mut self) {
        if self.dealing.all_released() {
            self.dealing.open_every_hand();
        }
    }
}
