//! Players, keys, chains and the genesis of a simulated game.

use roundtable_engine::Game;
use roundtable_fairdeck::ChainSecret;
use roundtable_table::{Genesis, Identity, Local, Proposal, SeatInfo};
use sha2::{Digest, Sha256};

/// 32 bytes derived from a simulation seed for `what` of player `index`.
pub(crate) fn derive(seed: u64, label: &[u8], what: &str, index: u8) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"roundtable/sim/v1");
    h.update(seed.to_le_bytes());
    h.update(label);
    h.update(what.as_bytes());
    h.update([index]);
    h.finalize().into()
}

/// The players of one game: the accepted genesis and, per seat, what a peer
/// needs to sit there again after a restart.
pub struct Players {
    /// The genesis every seat accepted.
    pub genesis: Genesis,
    /// Per seat (in seat order): the signing key and the hash chain.
    pub secrets: Vec<(Identity, ChainSecret)>,
}

impl Players {
    /// `seats` players of a game of `G` with keys and chains derived from
    /// `seed`. `label` tells apart games of the same players (it goes into
    /// the proposal's nonce only, so two labels give two game ids for the
    /// same keys: what a replay from another game needs).
    pub fn new<G: Game>(
        seats: u8,
        seed: u64,
        options: &G::Options,
        label: &[u8],
        chain_length: u64,
    ) -> Players {
        let mut players: Vec<(Identity, ChainSecret)> = (0..seats)
            .map(|i| {
                let id = Identity::from_secret(derive(seed, b"", "key", i));
                let chain = ChainSecret::new(derive(seed, label, "chain", i), chain_length)
                    .expect("a valid chain length");
                (id, chain)
            })
            .collect();
        // The proposal sorts seats by key; sort the secrets the same way so
        // that index = seat.
        players.sort_by_key(|(id, _)| id.public());
        let infos = players
            .iter()
            .enumerate()
            .map(|(i, (id, chain))| SeatInfo {
                key: id.public(),
                name: format!("peer {}", i + 1),
                chain_commitment: chain.commitment(),
                chain_length: chain.length(),
            })
            .collect();
        let proposal = Proposal::new::<G>(options, infos, derive(seed, label, "nonce", 0))
            .expect("a valid proposal");
        let acceptances = players
            .iter()
            .map(|(id, _)| proposal.accept(id))
            .collect::<Result<Vec<_>, _>>()
            .expect("every player is seated");
        let genesis = Genesis::assemble::<G>(proposal, &acceptances).expect("a complete genesis");
        Players {
            genesis,
            secrets: players,
        }
    }

    /// The local seat `seat` as a table needs it (a fresh copy, as a peer
    /// that restarts reads it from its key file and chain seed again).
    pub fn local(&self, seat: u8) -> Local {
        let (identity, chain) = &self.secrets[usize::from(seat)];
        Local {
            seat: roundtable_engine::Seat(seat),
            identity: identity.clone(),
            chain: chain.clone(),
        }
    }
}
