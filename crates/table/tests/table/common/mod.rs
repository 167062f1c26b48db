//! What the table's integration tests share: seated tables for one genesis
//! and a move that keeps games short.

#![allow(dead_code, unreachable_pub)]

use roundtable_engine::{Game, Next, Seat};
use roundtable_fairdeck::ChainSecret;
use roundtable_port_royal::{Options, PortRoyal};
use roundtable_table::{
    Config, Genesis, Identity, Local, Output, Proposal, SeatInfo, Signed, Table,
};

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
    seated_at::<PortRoyal>(seats, options, chain_length)
}

/// [`seated`] for any game.
pub fn seated_at<G: Game>(
    seats: u8,
    options: &G::Options,
    chain_length: u64,
) -> (Genesis, Vec<Local>) {
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
    let proposal = Proposal::new::<G>(options, infos, [9; 32]).unwrap();
    let acc: Vec<_> = ids.iter().map(|id| proposal.accept(id).unwrap()).collect();
    let genesis = Genesis::assemble::<G>(proposal.clone(), &acc).unwrap();
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

/// A move that varies with the game (the `turn`-th legal one, cycling), so
/// that games are long enough to use many chance events.
pub fn varied_move(t: &Table<PortRoyal>, seat: Seat, turn: usize) -> roundtable_port_royal::Action {
    let legal = t.game().legal_actions_vec(seat);
    legal[turn % legal.len()]
}

/// Deliver every broadcast to every other table and let the seat to move
/// play a varied move, until `until` holds. Before each delivery,
/// `intercept(to, envelope, table)` may feed table `to` anything else.
/// Panics on a violation. Returns every envelope each table persisted, in
/// order (its arrival-order log).
pub fn play_until_with(
    tables: &mut [Table<PortRoyal>],
    until: impl Fn(&[Table<PortRoyal>]) -> bool,
    mut intercept: impl FnMut(usize, &Signed, &mut Table<PortRoyal>),
) -> Vec<Vec<Signed>> {
    let mut logs: Vec<Vec<Signed>> = vec![Vec::new(); tables.len()];
    for t in tables.iter_mut() {
        t.handle_timeout(0);
    }
    for turn in 0..200_000 {
        let mut wire = Vec::new();
        for (i, t) in tables.iter_mut().enumerate() {
            while let Some(o) = t.poll_output() {
                match o {
                    Output::Persist { envelope, .. } => logs[i].push(envelope),
                    Output::Broadcast(s) => wire.push((i, s)),
                    Output::Violation(v) => panic!("peer {i} saw a violation: {v}"),
                    _ => {}
                }
            }
        }
        if !wire.is_empty() {
            for (from, s) in wire {
                for (i, t) in tables.iter_mut().enumerate() {
                    if i != from {
                        intercept(i, &s, t);
                        t.handle_envelope(0, s.clone()).unwrap();
                    }
                }
            }
            continue;
        }
        if until(tables) {
            return logs;
        }
        let Next::Decision(seat) = tables[0].game().next() else {
            panic!("stuck at {:?}", tables[0].game().next());
        };
        let pick = varied_move(&tables[seat.index()], seat, turn);
        tables[seat.index()].submit(0, pick).unwrap();
    }
    panic!("the condition never held");
}

/// A cheater's stray copy (issue 27): follows its broadcasts `last`, keeps
/// the first one `pick` chooses in `template`, and once `passed(template,
/// last)` says a table went past the template and took `last` in, gives
/// the envelope to sign as the seat's next one: the template's position,
/// state and body again.
pub fn stray_copy(
    template: &mut Option<Signed>,
    last: &Signed,
    pick: impl Fn(&roundtable_table::Body) -> bool,
    passed: impl Fn(&Signed, &Signed) -> bool,
) -> Option<roundtable_table::Envelope> {
    if template.is_none() && pick(&last.envelope.body) {
        *template = Some(last.clone());
    }
    let t = template.as_ref()?;
    passed(t, last).then(|| roundtable_table::Envelope {
        seq: last.seq() + 1,
        prev: last.hash(),
        ..t.envelope.clone()
    })
}
