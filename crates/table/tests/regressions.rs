//! Regressions found by the network simulator (`tests/sim`), each pinned
//! here with the smallest table setup that shows it.

use roundtable_engine::{Game, Next, Seat};
use roundtable_fairdeck::ChainSecret;
use roundtable_port_royal::{Options, PortRoyal};
use roundtable_table::{
    Config, Genesis, Identity, Local, Output, Proposal, SeatInfo, Signed, Table,
};

const TIMEOUT: u64 = 1_000;

fn tables(seats: u8) -> Vec<Table<PortRoyal>> {
    let ids: Vec<Identity> = (0..seats)
        .map(|i| Identity::from_secret([i + 1; 32]))
        .collect();
    let chains: Vec<ChainSecret> = (0..seats)
        .map(|i| ChainSecret::new([i + 101; 32], 4096).unwrap())
        .collect();
    let infos = ids
        .iter()
        .zip(&chains)
        .enumerate()
        .map(|(i, (id, c))| SeatInfo {
            key: id.public(),
            name: format!("p{i}"),
            chain_commitment: c.commitment(),
            chain_length: c.length(),
        })
        .collect();
    let proposal = Proposal::new::<PortRoyal>(&Options::default(), infos, [9; 32]).unwrap();
    let acc: Vec<_> = ids.iter().map(|id| proposal.accept(id).unwrap()).collect();
    let genesis = Genesis::assemble::<PortRoyal>(proposal.clone(), &acc).unwrap();
    let mut locals: Vec<Option<Local>> = (0..seats).map(|_| None).collect();
    for (identity, chain) in ids.into_iter().zip(chains) {
        let seat = proposal.seat_of(&identity.public()).unwrap();
        locals[seat.index()] = Some(Local {
            seat,
            identity,
            chain,
        });
    }
    let config = Config {
        stall_timeout_ms: TIMEOUT,
        ..Config::default()
    };
    locals
        .into_iter()
        .map(|l| Table::new(genesis.clone(), l, config.clone()).unwrap())
        .collect()
}

/// Deliver every broadcast among the peers in `alive` until none is left.
fn settle(tables: &mut [Table<PortRoyal>], alive: &[bool], now: u64) {
    loop {
        let mut wire: Vec<(usize, Signed)> = Vec::new();
        for (i, t) in tables.iter_mut().enumerate() {
            while let Some(o) = t.poll_output() {
                if let Output::Broadcast(s) = o {
                    if alive[i] {
                        wire.push((i, s));
                    }
                }
            }
        }
        if wire.is_empty() {
            return;
        }
        for (from, s) in wire {
            for (i, t) in tables.iter_mut().enumerate() {
                if i != from && alive[i] {
                    t.handle_envelope(now, s.clone()).unwrap();
                }
            }
        }
    }
}

/// `poll_timeout` used to return the same passed deadline after the table
/// had claimed every seat it waited for (and while it waited only for its
/// own decision), so a driver that sleeps until the deadline spun at that
/// instant forever. The simulator found it as a livelock.
#[test]
fn a_handled_deadline_is_not_returned_again() {
    let mut t = tables(3);
    let alive = [true, true, false];
    for (i, table) in t.iter_mut().enumerate() {
        if alive[i] {
            table.handle_timeout(0);
        }
    }
    settle(&mut t, &alive, 0);
    // Seats 1 and 2 wait for seat 3's reveal of the first chance event.
    assert!(matches!(t[0].game().next(), Next::Chance(_)));
    assert_eq!(t[0].poll_timeout(), Some(TIMEOUT));
    t[0].handle_timeout(TIMEOUT);
    assert!(
        t[0].poll_output()
            .is_some_and(|o| matches!(o, Output::Persist { .. })),
        "the claim was signed"
    );
    assert_eq!(t[0].poll_timeout(), None, "nothing is left to claim");
    // Once the claims forfeit seat 3, the game goes on and a deadline comes
    // back only when the table waits for another seat.
    t[1].handle_timeout(TIMEOUT);
    settle(&mut t, &alive, TIMEOUT);
    assert!(t[0].is_forfeited(Seat(2)));
    for (i, table) in t.iter().enumerate().take(2) {
        let waits_on_self = table.game().next() == Next::Decision(Seat(i as u8));
        assert_eq!(
            table.poll_timeout().is_none(),
            waits_on_self,
            "seat {} has a deadline exactly when it waits for another seat",
            i + 1
        );
    }
}
