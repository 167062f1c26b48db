//! Byzantine peers: every cheat the table must catch with a signed proof or
//! refuse with an error.
//!
//! A cheater plays honestly until its table has applied `after` inputs.
//! Then, for a cheat that blames, it signs one forged envelope (or two, for
//! an equivocation) in the slot its honest table would use next, sends it
//! instead of the honest one and leaves, so that the forgery is the only
//! evidence there is. A cheat that blames nobody (garbage anyone could send)
//! is an attack from outside the protocol: the cheater's seat keeps playing
//! honestly while forged, replayed or foreign envelopes are thrown at every
//! peer, and the game must still end in agreement.

use roundtable_engine::{Game, Next, Seat};
use roundtable_table::{Body, Envelope, Hash32, Record, Reveal, Signed};

use super::net::{Event, Msg};
use super::{Power, Role, Sim, SimGame, legal};

/// A way to cheat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cheat {
    /// An action signed while another seat is to decide (acting out of turn).
    OutOfTurn,
    /// An action the rules refuse at the cheater's decision.
    IllegalAction,
    /// Real envelopes with a flipped signature bit, sent by anyone.
    BadSignature,
    /// Envelopes naming another seat, signed with the cheater's key.
    Impersonation,
    /// Real envelopes signed again for another game of the same players (a
    /// replay from elsewhere).
    WrongGame,
    /// Old envelopes sent again, late, in reverse order.
    Replay,
    /// An envelope whose `prev` does not name the seat's previous envelope.
    BrokenSequence,
    /// A reveal that is not the next link of the cheater's chain, carried
    /// in the cheater's signed action.
    BadReveal,
    /// An action that claims a state hash the game does not have (a fork).
    StateMismatch,
    /// Two different actions signed for one slot, each sent to some peers.
    Equivocation,
    /// Published links wrapped by anyone in reveals of their seat for other
    /// slots (near the link's own, where the seat signed something else,
    /// and once 600 slots far ahead, more than a peer buffers), or with
    /// another `prev`: unsigned, as an older protocol sent reveals, and
    /// signed by an outsider (issue 12).
    RewrappedReveal,
    /// An action signed where the seat owes its seed opening, the game
    /// being over.
    ActionForSeedOpening,
    /// Real envelopes with bytes after their end (SPEC 3.1: refused).
    TrailingBytes,
    /// Forty stall claims signed at once, for positions the seat is not at:
    /// one seat must not make every peer keep and scan claims without end.
    ClaimFlood,
    /// The same flood with every claim signed at the position it names, the
    /// next forty positions: claims for positions the table has not reached,
    /// where the game waits for the cheater's own decision (review
    /// 2026-11-28, finding 4).
    ClaimFloodAhead,
    /// A private deal's key share whose proof of knowledge fails (a byte of
    /// the honest message flipped).
    BadKeyShare,
    /// A shuffle whose proof fails (a byte of the honest message flipped).
    BadShuffle,
    /// Decryption shares, one of whose proofs fails (a byte flipped).
    BadShare,
    /// Decryption shares for one slot more than the request asks of the
    /// seat: a share for a slot not dealt.
    SharesForUndealtSlot,
    /// A play of a private card face up that claims another card than the
    /// one in the slot, with the holder's honest share that opens the slot.
    FalseClaim,
    /// A key release after the game that does not match the seat's key
    /// share.
    BadKeyRelease,
    /// The seat's honest shares at a deal, and right after them a second,
    /// unasked `Shares` envelope (the next sequence number, the same
    /// position, state and shares), shown at once to the first honest seat
    /// after the cheater and to every other honest peer only once that
    /// peer's table is past the deal (issue 27): a peer past a position
    /// must judge what was written there as a peer at it does.
    UnaskedShares,
}

impl Cheat {
    /// Every cheat of the private deal (games with private cards only).
    pub const PRIVATE: [Cheat; 6] = [
        Cheat::BadKeyShare,
        Cheat::BadShuffle,
        Cheat::BadShare,
        Cheat::SharesForUndealtSlot,
        Cheat::FalseClaim,
        Cheat::BadKeyRelease,
    ];

    /// Every cheat of any game.
    pub const ALL: [Cheat; 15] = [
        Cheat::OutOfTurn,
        Cheat::IllegalAction,
        Cheat::BadSignature,
        Cheat::Impersonation,
        Cheat::WrongGame,
        Cheat::Replay,
        Cheat::BrokenSequence,
        Cheat::BadReveal,
        Cheat::StateMismatch,
        Cheat::Equivocation,
        Cheat::RewrappedReveal,
        Cheat::ActionForSeedOpening,
        Cheat::TrailingBytes,
        Cheat::ClaimFlood,
        Cheat::ClaimFloodAhead,
    ];

    /// The violation kinds that correctly blame the cheater, or `None` when
    /// the cheat must be refused with an error and blame nobody (anyone can
    /// send garbage, so garbage proves nothing about a seat).
    pub fn blame_kinds(self) -> Option<&'static [&'static str]> {
        match self {
            // Out of turn, the envelope waits until the game next needs the
            // cheater: at a chance event it is the wrong kind of body, at a
            // decision it was written at the wrong position.
            Cheat::OutOfTurn => Some(&["wrong-position", "unexpected-body"]),
            Cheat::IllegalAction => Some(&["illegal-action"]),
            Cheat::BrokenSequence => Some(&["broken-sequence"]),
            Cheat::BadReveal => Some(&["bad-reveal"]),
            Cheat::StateMismatch => Some(&["state-mismatch"]),
            Cheat::Equivocation => Some(&["equivocation"]),
            Cheat::ActionForSeedOpening | Cheat::ClaimFlood => Some(&["unexpected-body"]),
            // The first claim is for the position the table is at; the
            // second names the next one, where the table still waits for
            // the cheater's decision.
            Cheat::ClaimFloodAhead => Some(&["wrong-position"]),
            Cheat::BadKeyShare => Some(&["bad-key-share"]),
            Cheat::BadShuffle => Some(&["bad-shuffle"]),
            Cheat::BadShare => Some(&["bad-share"]),
            Cheat::SharesForUndealtSlot | Cheat::UnaskedShares => Some(&["unasked-shares"]),
            // The opened card is not the claimed one: a rule of the game
            // refuses the play.
            Cheat::FalseClaim => Some(&["illegal-action"]),
            Cheat::BadKeyRelease => Some(&["bad-key-release"]),
            Cheat::TrailingBytes
            | Cheat::BadSignature
            | Cheat::Impersonation
            | Cheat::WrongGame
            | Cheat::Replay
            | Cheat::RewrappedReveal => None,
        }
    }

    /// Whether the cheat is garbage thrown from outside the protocol.
    pub(crate) fn is_attack(self) -> bool {
        self.blame_kinds().is_none()
    }
}

/// The second envelope of [`Cheat::UnaskedShares`] on its way to the peers
/// that must meet it only once they are past the deal it was written at:
/// any message that carries it to one of them (the cheater's own, the proof
/// a detector gossips, a catch-up answer) waits while that peer's table is
/// still at or before the deal, until `until` (ms): a peer that cannot pass
/// the deal (the detector failed before it sent its own shares) meets it
/// there.
#[derive(Clone, Debug)]
pub(super) struct HeldStray {
    /// The envelope's encoding.
    pub(super) bytes: Vec<u8>,
    /// The deal's position.
    pub(super) position: u64,
    /// The peers it is held for.
    pub(super) late: Vec<usize>,
    /// When it is held no longer.
    pub(super) until: u64,
}

impl HeldStray {
    /// Whether `msg` to `to`, whose table is at `position`, waits.
    pub(super) fn holds(&self, to: usize, position: Option<u64>, now: u64, msg: &Msg) -> bool {
        let carries = match msg {
            Msg::Envelope(bytes) => *bytes == self.bytes,
            Msg::SyncResponse(envelopes) => envelopes.contains(&self.bytes),
            Msg::SyncRequest { .. } => false,
        };
        carries
            && now < self.until
            && self.late.contains(&to)
            && position.is_some_and(|p| p <= self.position)
    }
}

fn encode_action<G: Game>(action: &G::Action) -> Vec<u8> {
    postcard::to_allocvec(action).expect("actions serialise")
}

impl<G: SimGame> Sim<G> {
    /// Whether attacks need the gossip history.
    pub(super) fn needs_history(&self) -> bool {
        self.peers
            .iter()
            .any(|p| matches!(p.role, Role::Cheater { cheat, .. } if cheat.is_attack()))
    }

    /// The cheat peer `i` is ready to carry out now.
    fn armed(&self, i: usize) -> Option<Cheat> {
        let p = &self.peers[i];
        let Role::Cheater { cheat, after } = p.role else {
            return None;
        };
        let table = p.table.as_ref()?;
        (!p.cheated
            && p.power == Power::Up
            && table.position() >= after
            && table.violation().is_none())
        .then_some(cheat)
    }

    /// An envelope with `body` in the slot peer `i`'s table would sign next,
    /// changed by `tweak`, signed with the seat's key.
    fn forge(&self, i: usize, body: Body, tweak: impl FnOnce(&mut Envelope)) -> Signed {
        let seat = self.peers[i].seat;
        let table = self.peers[i].table.as_ref().expect("a running table");
        let seq = table.heads()[usize::from(seat)];
        let prev = seq
            .checked_sub(1)
            .and_then(|last| {
                table
                    .envelopes_since(seat, last, 1)
                    .first()
                    .map(Signed::hash)
            })
            .unwrap_or_default();
        let mut envelope = Envelope {
            game_id: table.game_id(),
            seat,
            seq,
            prev,
            position: table.position(),
            state_hash: Hash32(table.game().state_hash().0),
            body,
        };
        tweak(&mut envelope);
        envelope.sign(&self.players.secrets[usize::from(seat)].0)
    }

    /// The body of an honest action: it carries the actor's reveal when the
    /// action raises a chance event, as the table's own does.
    fn action_body(&self, i: usize, action: &G::Action) -> Body {
        let seat = self.peers[i].seat;
        let table = self.peers[i].table.as_ref().expect("a running table");
        let mut after = table.game().clone();
        let reveal = match after.apply_action(Seat(seat), action, &mut Vec::new()) {
            Ok(()) if matches!(after.next(), Next::Chance(_)) => {
                let event = 1 + table
                    .records()
                    .iter()
                    .filter(|r| matches!(r, Record::Chance { .. }))
                    .count() as u64;
                let chain = &self.players.secrets[usize::from(seat)].1;
                chain.reveal(event).ok().map(|link| Reveal { event, link })
            }
            _ => None,
        };
        Body::Action {
            action: encode_action::<G>(action),
            reveal,
        }
    }

    /// Send forged envelopes, remember them as the evidence, and leave.
    fn send_forged(&mut self, i: usize, sends: Vec<(usize, Signed)>) {
        for (to, signed) in sends {
            if !self.cheat_envelopes.contains(&signed) {
                self.cheat_envelopes.push(signed.clone());
            }
            self.send(i, to, Msg::Envelope(signed.encode()));
        }
        self.leave(i);
    }

    fn others(&self, i: usize) -> Vec<usize> {
        (0..self.n()).filter(|&j| j != i).collect()
    }

    /// Cheats carried out at the cheater's own decision, in place of its
    /// bot's move. Returns whether it cheated.
    pub(super) fn cheat_at_decision(&mut self, i: usize) -> bool {
        let Some(cheat) = self.armed(i) else {
            return false;
        };
        let seat = Seat(self.peers[i].seat);
        if cheat == Cheat::FalseClaim {
            return self.play_to_claim_falsely(i, seat);
        }
        let table = self.peers[i].table.as_ref().expect("a running table");
        let legal = legal(table.game(), seat);
        let Some(first) = legal.first().cloned() else {
            return false;
        };
        let others = self.others(i);
        let sends = match cheat {
            Cheat::IllegalAction => {
                let Some(illegal) = G::illegal_candidates()
                    .into_iter()
                    .find(|a| !legal.contains(a))
                else {
                    return false;
                };
                let body = Body::Action {
                    action: encode_action::<G>(&illegal),
                    reveal: None,
                };
                let forged = self.forge(i, body, |_| {});
                others.iter().map(|&to| (to, forged.clone())).collect()
            }
            Cheat::StateMismatch => {
                let body = self.action_body(i, &first);
                let forged = self.forge(i, body, |e| e.state_hash = Hash32([0xee; 32]));
                others.iter().map(|&to| (to, forged.clone())).collect()
            }
            Cheat::BrokenSequence => {
                let body = self.action_body(i, &first);
                let forged = self.forge(i, body, |e| e.prev = Hash32([0xbb; 32]));
                others.iter().map(|&to| (to, forged.clone())).collect()
            }
            Cheat::Equivocation => {
                let Some(second) = legal.get(1).cloned() else {
                    // One legal action cannot be equivocated usefully; wait
                    // for a decision with a choice.
                    return false;
                };
                let a = self.forge(i, self.action_body(i, &first), |_| {});
                let b = self.forge(i, self.action_body(i, &second), |_| {});
                if others.len() == 1 {
                    vec![(others[0], a), (others[0], b)]
                } else {
                    // Half the table hears one action, half the other: only
                    // comparing notes reveals the equivocation.
                    let half = others.len() / 2;
                    others
                        .iter()
                        .enumerate()
                        .map(|(k, &to)| (to, if k < half { a.clone() } else { b.clone() }))
                        .collect()
                }
            }
            Cheat::ClaimFlood | Cheat::ClaimFloodAhead => {
                let ahead = cheat == Cheat::ClaimFloodAhead;
                let secret = &self.players.secrets[usize::from(seat.0)].0;
                let position = table.position();
                let mut claims = vec![self.forge(
                    i,
                    Body::StallClaim {
                        accused: self.peers[others[0]].seat,
                        position,
                    },
                    |_| {},
                )];
                for k in 1..40u64 {
                    let last = &claims[claims.len() - 1];
                    let mut next = last.envelope.clone();
                    next.seq += 1;
                    next.prev = last.hash();
                    if ahead {
                        next.position = position + k;
                    }
                    next.body = Body::StallClaim {
                        accused: self.peers[others[k as usize % others.len()]].seat,
                        position: position + k,
                    };
                    claims.push(next.sign(secret));
                }
                others
                    .iter()
                    .flat_map(|&to| claims.iter().map(move |c| (to, c.clone())))
                    .collect()
            }
            _ => return false,
        };
        self.send_forged(i, sends);
        true
    }

    /// A cheater about to claim a card falsely plays a private card face up
    /// whenever it can (its table signs the honest play, which
    /// [`Sim::tamper_outgoing`] then forges), so that there is a claim to
    /// falsify. Returns whether it played.
    fn play_to_claim_falsely(&mut self, i: usize, seat: Seat) -> bool {
        let now = self.now;
        let Some(table) = self.peers[i].table.as_mut() else {
            return false;
        };
        let knowledge = table.knowledge().cloned().unwrap_or_default();
        let mut legal = Vec::new();
        table
            .game()
            .legal_actions_with(seat, &knowledge, &mut legal);
        let Some(play) = legal.into_iter().find(|a| G::false_claim(a).is_some()) else {
            return false;
        };
        if table.submit(now, play).is_err() {
            return false;
        }
        self.drain(i);
        true
    }

    /// Cheats carried out whenever the cheater's table has taken an input.
    pub(super) fn cheat_after_input(&mut self, i: usize) {
        if self.armed(i) != Some(Cheat::OutOfTurn) {
            return;
        }
        let seat = Seat(self.peers[i].seat);
        let table = self.peers[i].table.as_ref().expect("a running table");
        let Next::Decision(other) = table.game().next() else {
            return;
        };
        if other == seat {
            return;
        }
        // The move the seat to act could make, signed by the cheater.
        let Some(action) = legal(table.game(), other).first().cloned() else {
            return;
        };
        let body = Body::Action {
            action: encode_action::<G>(&action),
            reveal: None,
        };
        let forged = self.forge(i, body, |_| {});
        let sends = self
            .others(i)
            .into_iter()
            .map(|to| (to, forged.clone()))
            .collect();
        self.send_forged(i, sends);
    }

    /// Replace the cheater's outgoing envelope with a forgery; returns the
    /// sends when it did.
    pub(super) fn tamper_outgoing(
        &mut self,
        i: usize,
        signed: &Signed,
    ) -> Option<Vec<(usize, Signed)>> {
        if self.armed(i)? == Cheat::UnaskedShares {
            return self.unasked_shares(i, signed);
        }
        let mut envelope = signed.envelope.clone();
        envelope.body = match (self.armed(i)?, &signed.envelope.body) {
            (
                Cheat::BadReveal,
                Body::Action {
                    action,
                    reveal: Some(reveal),
                },
            ) => Body::Action {
                action: action.clone(),
                reveal: Some(Reveal {
                    event: reveal.event,
                    link: [0x5a; 32],
                }),
            },
            (Cheat::ActionForSeedOpening, Body::SeedOpening { .. }) => Body::Action {
                action: encode_action::<G>(&G::stray_action()),
                reveal: None,
            },
            (Cheat::BadKeyShare, Body::KeyShare { message }) => {
                let mut message = *message;
                // In the proof's response: the key share itself stays.
                message.0[80] ^= 0x01;
                Body::KeyShare { message }
            }
            (Cheat::BadShuffle, Body::Shuffle { epoch, message }) => Body::Shuffle {
                epoch: *epoch,
                message: with_bad_last_response(message),
            },
            (
                Cheat::BadShuffle,
                Body::ShuffleFromPile {
                    epoch,
                    pile,
                    message,
                },
            ) => Body::ShuffleFromPile {
                epoch: *epoch,
                pile: pile.clone(),
                message: with_bad_last_response(message),
            },
            (Cheat::BadShare, Body::Shares { shares }) if !shares.is_empty() => {
                let mut shares = shares.clone();
                // In the proof's challenge: the share's point stays.
                shares[0].0[40] ^= 0x01;
                Body::Shares { shares }
            }
            (Cheat::SharesForUndealtSlot, Body::Shares { shares }) if !shares.is_empty() => {
                let mut shares = shares.clone();
                shares.push(shares[shares.len() - 1]);
                Body::Shares { shares }
            }
            (
                Cheat::FalseClaim,
                Body::ActionRevealing {
                    action,
                    reveal,
                    shares,
                },
            ) => {
                let honest: G::Action = postcard::from_bytes(action).ok()?;
                Body::ActionRevealing {
                    action: encode_action::<G>(&G::false_claim(&honest)?),
                    reveal: *reveal,
                    shares: shares.clone(),
                }
            }
            (Cheat::BadKeyRelease, Body::KeyRelease { secret }) => {
                let mut secret = *secret;
                secret[0] ^= 0x01;
                Body::KeyRelease { secret }
            }
            _ => return None,
        };
        let forged = envelope.sign(&self.players.secrets[usize::from(self.peers[i].seat)].0);
        self.cheat_envelopes.push(forged.clone());
        Some(
            self.others(i)
                .into_iter()
                .map(|to| (to, forged.clone()))
                .collect(),
        )
    }

    /// [`Cheat::UnaskedShares`]: the honest shares to everyone, the second
    /// envelope at once to one honest peer and held for the others until
    /// they are past the deal (see [`HeldStray`]).
    fn unasked_shares(&mut self, i: usize, signed: &Signed) -> Option<Vec<(usize, Signed)>> {
        if !matches!(signed.envelope.body, Body::Shares { .. }) {
            return None;
        }
        let second = Envelope {
            seq: signed.seq() + 1,
            prev: signed.hash(),
            ..signed.envelope.clone()
        }
        .sign(&self.players.secrets[usize::from(self.peers[i].seat)].0);
        self.cheat_envelopes.push(second.clone());
        let honest: Vec<usize> = (1..self.n())
            .map(|k| (i + k) % self.n())
            .filter(|&j| self.peers[j].role.is_honest())
            .collect();
        let mut sends: Vec<(usize, Signed)> = self
            .others(i)
            .into_iter()
            .map(|to| (to, signed.clone()))
            .collect();
        // With one honest peer only, that one is the late one.
        let (prompt, late) = match honest.split_first() {
            Some((&first, rest)) if !rest.is_empty() => (Some(first), rest.to_vec()),
            _ => (None, honest.clone()),
        };
        if let Some(prompt) = prompt {
            sends.push((prompt, second.clone()));
        }
        for &to in &late {
            self.send(i, to, Msg::Envelope(second.encode()));
        }
        self.held_stray = Some(HeldStray {
            bytes: second.encode(),
            position: second.envelope.position,
            late,
            until: self.now + self.cfg.stall_timeout_ms / 2,
        });
        Some(sends)
    }

    /// The latest published links, each wrapped by an outsider (signed with
    /// its own key, the only one it has) in reveals of the link's seat for
    /// the slots around its own and for its own slot with a wrong `prev`:
    /// the reveals an older protocol sent unsigned (issue 12).
    fn rewrapped_reveals(&mut self) -> Vec<Vec<u8>> {
        let published = self
            .history
            .iter()
            .rev()
            .filter_map(|s| match &s.envelope.body {
                Body::Reveal(r)
                | Body::Action {
                    reveal: Some(r), ..
                } => Some((s, *r)),
                _ => None,
            });
        let outsider = roundtable_table::Identity::from_secret([0xab; 32]);
        let mut out = Vec::new();
        for (carrier, reveal) in published.take(3) {
            let seat = carrier.seat();
            let prev_of = |seq: u64| {
                self.history
                    .iter()
                    .find(|h| h.seat() == seat && h.seq() + 1 == seq)
                    .map(Signed::hash)
                    .unwrap_or_default()
            };
            let envelope = |seq: u64, prev: Hash32| Envelope {
                game_id: carrier.envelope.game_id,
                seat,
                seq,
                prev,
                position: 0,
                state_hash: Hash32::default(),
                body: Body::Reveal(reveal),
            };
            let at = carrier.seq();
            let mut slots: Vec<(u64, Hash32)> = [at.saturating_sub(1), at + 1, at + 2]
                .into_iter()
                .map(|seq| (seq, prev_of(seq)))
                .collect();
            slots.push((carrier.seq(), Hash32([0x77; 32])));
            if !self.far_wraps_sent {
                slots.extend((0..600).map(|k| ((1 << 40) + k, Hash32::default())));
            }
            for (seq, prev) in slots {
                let e = envelope(seq, prev);
                // Unsigned: the envelope, then the tag of an absent signature.
                let mut unsigned = postcard::to_allocvec(&e).unwrap_or_default();
                unsigned.push(0);
                out.push(unsigned);
                out.push(e.sign(&outsider).encode());
            }
        }
        self.far_wraps_sent |= !out.is_empty();
        out
    }

    /// Garbage from outside the protocol, thrown at every running peer; the
    /// attack repeats until the game is over.
    pub(super) fn attack(&mut self) {
        let n = self.n();
        let attackers: Vec<(usize, Cheat)> = (0..n)
            .filter_map(|i| match self.peers[i].role {
                Role::Cheater { cheat, after } if cheat.is_attack() => {
                    let started = self.peers[i]
                        .table
                        .as_ref()
                        .is_none_or(|t| t.position() >= after);
                    started.then_some((i, cheat))
                }
                _ => None,
            })
            .collect();
        for (i, cheat) in attackers {
            if self.history.is_empty() {
                break;
            }
            let pick = self.rng.below(self.history.len() as u64) as usize;
            let original = self.history[pick].clone();
            let garbage: Vec<Vec<u8>> = match cheat {
                Cheat::BadSignature => {
                    let mut s = original;
                    let bit = 1 << self.rng.below(8);
                    s.signature.0[self.rng.below(64) as usize] ^= bit;
                    vec![s.encode()]
                }
                Cheat::Impersonation => {
                    let mut e = original.envelope;
                    e.seat = ((usize::from(self.peers[i].seat)
                        + 1
                        + self.rng.below(n as u64 - 1) as usize)
                        % n) as u8;
                    vec![
                        e.sign(&self.players.secrets[usize::from(self.peers[i].seat)].0)
                            .encode(),
                    ]
                }
                Cheat::WrongGame => {
                    let Some(other) = &self.other_game else {
                        break;
                    };
                    let mut e = original.envelope;
                    e.game_id = other.genesis.proposal.game_id();
                    // What the same seat signed in the other game.
                    let key = &other.secrets[usize::from(e.seat)].0;
                    vec![e.sign(key).encode()]
                }
                Cheat::Replay => {
                    let k = 1 + self.rng.below(20) as usize;
                    let start = self.rng.below(self.history.len() as u64) as usize;
                    let mut old: Vec<Signed> =
                        self.history[start..].iter().take(k).cloned().collect();
                    old.reverse();
                    old.iter().map(Signed::encode).collect()
                }
                Cheat::RewrappedReveal => self.rewrapped_reveals(),
                Cheat::TrailingBytes => {
                    let mut bytes = original.encode();
                    bytes.push(self.rng.below(256) as u8);
                    vec![bytes]
                }
                _ => Vec::new(),
            };
            for bytes in garbage {
                for to in 0..n {
                    // From outside: no partition stops it.
                    self.send(n, to, Msg::Envelope(bytes.clone()));
                }
            }
        }
        let interval = self.rng.range(200, 1_500);
        self.queue.push(self.now + interval, Event::Attack);
    }
}

/// A shuffle message with the lowest bit of its last response scalar
/// flipped: it still decodes, and only the proof check can refuse it.
fn with_bad_last_response(message: &[u8]) -> Vec<u8> {
    let mut message = message.to_vec();
    let last_scalar = message.len().saturating_sub(32);
    if let Some(byte) = message.get_mut(last_scalar) {
        *byte ^= 0x01;
    }
    message
}
