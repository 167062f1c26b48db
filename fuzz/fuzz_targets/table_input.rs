//! Bytes from the network into a running table (an observer of a real
//! genesis): nothing a peer sends can panic it.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use roundtable_port_royal::{Options, PortRoyal};
use roundtable_table::{Config, Genesis, Identity, Proposal, SeatInfo, Table};

fn genesis() -> &'static Genesis {
    static GENESIS: OnceLock<Genesis> = OnceLock::new();
    GENESIS.get_or_init(|| {
        let ids: Vec<Identity> = (1..=3u8).map(|i| Identity::from_secret([i; 32])).collect();
        let seats = ids
            .iter()
            .map(|id| SeatInfo { key: id.public(), name: "p".into(), chain_commitment: [7; 32], chain_length: 64 })
            .collect();
        let proposal = Proposal::new::<PortRoyal>(&Options::default(), seats, [0; 32]).expect("valid proposal");
        let acceptances: Vec<_> = ids.iter().map(|id| proposal.accept(id).expect("seated")).collect();
        Genesis::assemble::<PortRoyal>(proposal, &acceptances).expect("valid genesis")
    })
}

fuzz_target!(|data: &[u8]| {
    let mut table = Table::<PortRoyal>::new(genesis().clone(), None, Config::default()).expect("table");
    for chunk in data.split(|&b| b == 0xff) {
        let _ = table.handle_bytes(0, chunk);
    }
    while table.poll_output().is_some() {}
});
