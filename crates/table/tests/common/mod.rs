//! What the table's integration tests share: seated tables for one genesis
//! and a move that keeps games short.

#![allow(dead_code, unreachable_pub)]

use roundtable_engine::{Game, Seat};
use roundtable_fairdeck::ChainSecret;
use roundtable_port_royal::{Options, PortRoyal};
use roundtable_table::{Config, Genesis, Identity, Local, Proposal, SeatInfo, Table};

/// The stall timeout of every table built here, in milliseconds.
pub const TIMEOUT: u64 = 1_000;

/// One table per seat for the same genesis, each as its seat: keys and
/// chains fixed by the seat index, chains of `chain_length` links.
pub fn tables_with(seats: u8, options: &Options, chain_length: u64) -> Vec<Table<PortRoyal>> {
    let (genesis, locals) = seated(seats, options, chain_length);
    let config = Config {
        stall_timeout_ms: TIMEOUT,
        ..Config::default()
    };
    locals
        .into_iter()
        .map(|l| Table::new(genesis.clone(), Some(l), config.clone()).unwrap())
        .collect()
}

/// The genesis and, in seat order, what each seat's table needs (a fresh
/// copy each call, as a peer that restarts reads its secrets again).
pub fn seated(seats: u8, options: &Options, chain_length: u64) -> (Genesis, Vec<Local>) {
    let ids: Vec<Identity> = (0..seats)
        .map(|i| Identity::from_secret([i + 1; 32]))
        .collect();
    let chains: Vec<ChainSecret> = (0..seats)
        .map(|i| ChainSecret::new([i + 101; 32], chain_length).unwrap())
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
    let proposal = Proposal::new::<PortRoyal>(options, infos, [9; 32]).unwrap();
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
    (genesis, locals.into_iter().map(Option::unwrap).collect())
}

/// Stop when that is legal, else the first legal action: short games.
pub fn short_game_move(t: &Table<PortRoyal>, seat: Seat) -> roundtable_port_royal::Action {
    let legal = t.game().legal_actions_vec(seat);
    legal
        .iter()
        .copied()
        .find(|a| a.to_string() == "stop")
        .unwrap_or(legal[0])
}
