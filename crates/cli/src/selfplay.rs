//! `roundtable selfplay`: bots play a whole game as full peers through the
//! table protocol in one process — real keys, real chains, real envelopes —
//! and the transcript is written for `roundtable audit`.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use roundtable_bots::{Bot, RandomBot};
use roundtable_engine::{Game, Next, Observer, Seat};
use roundtable_fairdeck::{ChainSecret, PORT_ROYAL_CHAIN_LENGTH};
use roundtable_port_royal::PortRoyal;
use roundtable_table::transcript::{Frame, TranscriptLog};
use roundtable_table::{
    Config, Genesis, Identity, Local, Output, Proposal, SeatInfo, Signed, Table,
};
use sha2::{Digest, Sha256};

/// Options of `roundtable selfplay`.
#[derive(Debug, clap::Args)]
pub(crate) struct SelfplayArgs {
    /// The game.
    #[arg(long, default_value = "port-royal")]
    game: String,
    /// Seats (each a bot with its own key and chain).
    #[arg(long, default_value_t = 4)]
    seats: u8,
    /// Makes keys, chain seeds and the bots' choices reproducible.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Where to write the transcript.
    #[arg(long)]
    transcript: PathBuf,
    /// A rule option as key=value.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
}

/// 32 bytes derived from the self-play seed for `what` of seat `seat`.
fn derive(seed: u64, what: &str, seat: u8) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"roundtable/selfplay/v1");
    h.update(seed.to_le_bytes());
    h.update(what.as_bytes());
    h.update([seat]);
    h.finalize().into()
}

pub(crate) fn run(args: &SelfplayArgs) -> Result<ExitCode> {
    match args.game.as_str() {
        PortRoyal::NAME => {
            let options = crate::parse_options(&args.options)?;
            let bots = (0..args.seats)
                .map(|i| {
                    Box::new(RandomBot::new(
                        args.seed.wrapping_mul(31).wrapping_add(u64::from(i)),
                    )) as Box<dyn Bot<PortRoyal>>
                })
                .collect();
            let outcome =
                play::<PortRoyal>(args.seats, &options, args.seed, bots, &args.transcript)?;
            println!("game {}", outcome.game_id);
            let mut standings = outcome.result.standings.clone();
            standings.sort_by_key(|s| (s.rank, s.seat));
            for s in &standings {
                println!(
                    "#{} {} ({}): {} VP, {} coins",
                    s.rank + 1,
                    s.seat,
                    outcome.names[s.seat.index()],
                    s.score,
                    s.tie_break
                );
            }
            println!(
                "{} inputs; transcript {}",
                outcome.inputs,
                args.transcript.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        other => bail!("unknown game {other:?}"),
    }
}

/// What a self-played game came to.
pub(crate) struct Played {
    pub(crate) game_id: roundtable_table::GameId,
    pub(crate) names: Vec<String>,
    pub(crate) result: roundtable_engine::GameResult,
    pub(crate) inputs: u64,
}

/// Play one game between `bots` as full peers and write the transcript.
pub(crate) fn play<G: Game>(
    seats: u8,
    options: &G::Options,
    seed: u64,
    mut bots: Vec<Box<dyn Bot<G>>>,
    transcript: &Path,
) -> Result<Played> {
    let identities: Vec<Identity> = (0..seats)
        .map(|i| Identity::from_secret(derive(seed, "key", i)))
        .collect();
    let chains: Vec<ChainSecret> = (0..seats)
        .map(|i| ChainSecret::new(derive(seed, "chain", i), PORT_ROYAL_CHAIN_LENGTH))
        .collect::<Result<_, _>>()
        .context("making hash chains")?;
    let infos = identities
        .iter()
        .zip(&chains)
        .enumerate()
        .map(|(i, (id, chain))| SeatInfo {
            key: id.public(),
            name: format!("bot {}", i + 1),
            chain_commitment: chain.commitment(),
            chain_length: chain.length(),
        })
        .collect();
    let proposal = Proposal::new::<G>(options, infos, derive(seed, "nonce", 0))?;
    let acceptances = identities
        .iter()
        .map(|id| proposal.accept(id))
        .collect::<Result<Vec<_>, _>>()?;
    let genesis = Genesis::assemble::<G>(proposal.clone(), &acceptances)?;
    let names: Vec<String> = proposal.seats.iter().map(|s| s.name.clone()).collect();

    // Seats are in key order now; give each table the identity and chain of
    // the player who sits there.
    let mut locals: Vec<Option<Local>> = (0..seats).map(|_| None).collect();
    for (id, chain) in identities.into_iter().zip(chains) {
        let seat = proposal
            .seat_of(&id.public())
            .context("a player lost its seat")?;
        locals[seat.index()] = Some(Local {
            seat,
            identity: id,
            chain,
        });
    }
    let mut tables = locals
        .into_iter()
        .map(|l| Table::<G>::new(genesis.clone(), l, Config::default()))
        .collect::<Result<Vec<_>, _>>()?;
    // Time is an input: the first one starts each table (reveals for the
    // first chance event).
    for t in &mut tables {
        t.handle_timeout(0);
    }

    let mut genesis_frames = vec![Frame::Proposal(proposal)];
    genesis_frames.extend(genesis.acceptances.iter().cloned().map(Frame::Acceptance));
    let mut log = TranscriptLog::create(transcript, &genesis_frames)?;

    let mut wire: VecDeque<(usize, Signed)> = VecDeque::new();
    let mut result = None;
    let mut rounds = 0u64;
    loop {
        rounds += 1;
        if rounds > 1_000_000 {
            bail!("the game did not finish");
        }
        // Carry out every table's outputs; seat 0 keeps the transcript log.
        for (i, table) in tables.iter_mut().enumerate() {
            while let Some(output) = table.poll_output() {
                match output {
                    Output::Persist { envelope, sync } if i == 0 => {
                        log.append(&Frame::Envelope(envelope), sync)?
                    }
                    Output::Broadcast(envelope) => wire.push_back((i, envelope)),
                    Output::Violation(v) => bail!("seat {} saw a violation: {v}", i + 1),
                    Output::Finished(r) if i == 0 => result = Some(r),
                    _ => {}
                }
            }
        }
        if let Some((from, envelope)) = wire.pop_front() {
            for (i, table) in tables.iter_mut().enumerate() {
                if i != from {
                    table.handle_envelope(0, envelope.clone())?;
                }
            }
            continue;
        }
        if tables.iter().all(Table::is_finished) {
            break;
        }
        // Nothing in flight: the seat whose decision it is moves.
        let mut moved = false;
        for (i, table) in tables.iter_mut().enumerate() {
            let seat = Seat(i as u8);
            if table.game().next() == Next::Decision(seat) && !table.is_forfeited(seat) {
                let legal = table.game().legal_actions_vec(seat);
                let view = table.game().view(Observer::Seat(seat));
                let pick = bots[i]
                    .choose(seat, &view, &legal)
                    .min(legal.len().saturating_sub(1));
                let action = legal
                    .get(pick)
                    .cloned()
                    .context("a decision with no legal action")?;
                table.submit(0, action)?;
                moved = true;
            }
        }
        if !moved {
            bail!("the game is stuck at position {}", tables[0].position());
        }
    }
    let frames = tables[0].transcript();
    for (i, t) in tables.iter().enumerate().skip(1) {
        if t.transcript() != frames {
            bail!("seat {} ended with a different transcript", i + 1);
        }
    }
    log.finish(&frames)?;
    Ok(Played {
        game_id: tables[0].game_id(),
        names,
        result: result.context("no result")?,
        inputs: tables[0].position(),
    })
}
