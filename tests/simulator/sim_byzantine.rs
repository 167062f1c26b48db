//! Byzantine peers: every cheat of the table's threat list is caught with a
//! signed proof that blames the cheater, by every honest peer, and the audit
//! of a transcript that contains the cheat blames the same seat; garbage
//! that anyone could send is refused with an error, blames nobody, and the
//! game still ends in agreement.
//!
//! `SIM_GAMES=n` sets the seeds per cheat, `SIM_SEED=s` replays one seed.

use roundtable_engine::Seat;
use roundtable_tests::sim::{self, Cheat, Outcome, Role, SimConfig};

/// A game with one cheater at a seat chosen by the seed, who starts
/// cheating after a seed-chosen number of inputs.
fn with_cheater(seed: u64, cheat: Cheat) -> (SimConfig, Seat) {
    let mut c = SimConfig::random(seed);
    let cheater = (seed % u64::from(c.seats)) as u8;
    c.roles = vec![Role::Honest; usize::from(c.seats)];
    c.roles[usize::from(cheater)] = Role::Cheater {
        cheat,
        after: 5 + seed.wrapping_mul(31) % 120,
    };
    if cheat.blame_kinds().is_some() {
        // Every honest peer must receive the evidence to be held to catching
        // it: messages are delayed, duplicated and reordered, not lost, and
        // no peer crashes (a cheater that sends and leaves is heard once).
        c.faults.drop = 0.0;
        c.faults.crashes = 0;
        c.faults.partitions = 0;
    }
    (c, Seat(cheater))
}

fn run_cheat(
    cheat: Cheat,
    name: &str,
    base: u64,
    check: impl Fn(&Outcome, Seat) -> Result<(), String> + Sync,
) {
    let seeds = sim::seeds_from_env(base, 6);
    let results = sim::for_seeds(&seeds, |seed| {
        let (config, cheater) = with_cheater(seed, cheat);
        let outcome = sim::run(config);
        check(&outcome, cheater)
    });
    let failures: Vec<String> = results
        .into_iter()
        .filter_map(|(seed, r)| match r {
            Ok(Ok(())) => None,
            Ok(Err(e)) | Err(e) => Some(format!(
                "seed {seed}: {e}\n  replay: {}",
                sim::replay_command("sim_byzantine", name, seed)
            )),
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{cheat:?}: {} of {} seeds failed:\n{}",
        failures.len(),
        seeds.len(),
        failures.join("\n")
    );
}

/// The cheat is proven against the cheater by every honest peer and by the
/// audit.
fn caught(cheat: Cheat, name: &str, base: u64) {
    let kinds = cheat.blame_kinds().expect("a cheat that blames");
    run_cheat(cheat, name, base, |o, cheater| {
        if o.cheat_envelopes.is_empty() {
            return Err("the cheater never cheated".into());
        }
        o.check_caught(cheater, kinds).map(|_| ())
    });
}

/// The garbage is refused with `error` (when given) by some honest peer,
/// nobody is blamed, and the game ends in agreement.
fn refused(cheat: Cheat, name: &str, base: u64, error: Option<&str>) {
    run_cheat(cheat, name, base, |o, _| {
        o.check_agreement()?;
        if let Some(error) = error {
            let refusals: u64 = o.honest().filter_map(|p| p.refusals.get(error)).sum();
            if refusals == 0 {
                return Err(format!(
                    "no peer refused anything with {error:?}: {:?}",
                    o.honest().map(|p| &p.refusals).collect::<Vec<_>>()
                ));
            }
        }
        Ok(())
    });
}

#[test]
fn acting_out_of_turn_is_proven() {
    caught(Cheat::OutOfTurn, "acting_out_of_turn_is_proven", 60_000);
}

#[test]
fn an_illegal_action_is_proven() {
    caught(Cheat::IllegalAction, "an_illegal_action_is_proven", 61_000);
}

#[test]
fn a_broken_sequence_is_proven() {
    caught(Cheat::BrokenSequence, "a_broken_sequence_is_proven", 62_000);
}

#[test]
fn a_bad_reveal_is_proven() {
    caught(Cheat::BadReveal, "a_bad_reveal_is_proven", 63_000);
}

/// Once the game is over the seat owes its seed opening; an action signed
/// there instead is proven, not waited out as a stall.
#[test]
fn an_action_for_the_seed_opening_is_proven() {
    caught(
        Cheat::ActionForSeedOpening,
        "an_action_for_the_seed_opening_is_proven",
        75_000,
    );
}

#[test]
fn a_state_hash_mismatch_is_proven() {
    caught(
        Cheat::StateMismatch,
        "a_state_hash_mismatch_is_proven",
        64_000,
    );
}

#[test]
fn an_equivocation_is_proven_by_both_envelopes() {
    caught(
        Cheat::Equivocation,
        "an_equivocation_is_proven_by_both_envelopes",
        65_000,
    );
}

#[test]
fn a_bad_signature_is_refused_without_blame() {
    refused(
        Cheat::BadSignature,
        "a_bad_signature_is_refused_without_blame",
        66_000,
        Some("bad signature"),
    );
}

#[test]
fn an_envelope_signed_for_another_seat_is_refused_without_blame() {
    refused(
        Cheat::Impersonation,
        "an_envelope_signed_for_another_seat_is_refused_without_blame",
        67_000,
        Some("bad signature"),
    );
}

#[test]
fn a_replay_from_another_game_is_refused_without_blame() {
    refused(
        Cheat::WrongGame,
        "a_replay_from_another_game_is_refused_without_blame",
        68_000,
        Some("envelope for another game"),
    );
}

/// Issue 12: reveals anyone built from published links, for other slots of
/// their seat, unsigned (as an older protocol sent them) or signed by an
/// outsider, including 600 slots far ahead, are refused at the door: the
/// game ends in agreement and every honest peer's log audits valid. The
/// counts show the wraps reached the peers.
#[test]
fn published_links_wrapped_for_other_slots_change_nothing() {
    run_cheat(
        Cheat::RewrappedReveal,
        "published_links_wrapped_for_other_slots_change_nothing",
        70_000,
        |o, _| {
            o.check_agreement()?;
            let count =
                |error: &str| -> u64 { o.honest().filter_map(|p| p.refusals.get(error)).sum() };
            if count("malformed") < 600 || count("bad signature") == 0 {
                return Err(format!(
                    "the wraps did not reach the peers: {:?}",
                    o.honest().map(|p| &p.refusals).collect::<Vec<_>>()
                ));
            }
            Ok(())
        },
    );
}

/// Real envelopes with a byte after their end are refused (SPEC 3.1), and
/// blame nobody.
#[test]
fn trailing_bytes_are_refused_without_blame() {
    refused(
        Cheat::TrailingBytes,
        "trailing_bytes_are_refused_without_blame",
        71_000,
        Some("malformed"),
    );
}

/// A seat that signs claims naming positions other than the one it signed
/// them at is proven at the first such claim: no peer keeps a flood of
/// claims.
#[test]
fn a_flood_of_stall_claims_is_proven() {
    caught(
        Cheat::ClaimFlood,
        "a_flood_of_stall_claims_is_proven",
        72_000,
    );
}

/// A seat that signs claims for the positions ahead, each at the position
/// it names, is proven at the first one past the position where the table
/// waits for its own decision; no honest seat is blamed.
#[test]
fn a_flood_of_stall_claims_for_positions_ahead_is_proven() {
    caught(
        Cheat::ClaimFloodAhead,
        "a_flood_of_stall_claims_for_positions_ahead_is_proven",
        73_000,
    );
}

#[test]
fn replayed_and_reordered_envelopes_change_nothing() {
    refused(
        Cheat::Replay,
        "replayed_and_reordered_envelopes_change_nothing",
        69_000,
        None,
    );
}
