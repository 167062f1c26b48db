//! `roundtable fairdeck`: the commit-reveal randomness functions from the
//! command line, so that an implementation in another language can be
//! checked against this one (see `protocol/SPEC.md`, "Randomness").
//!
//! Each subcommand prints exactly one JSON object on stdout and exits 0.
//! Malformed arguments print one line on stderr and exit 2.

use std::io::Write;
use std::process::ExitCode;

use clap::Subcommand;
use roundtable_fairdeck::{self as fd, FairdeckError};
use serde_json::{Value, json};

/// The most values `sample --count` prints.
const MAX_SAMPLE_COUNT: u64 = 1_000_000;
/// The most cards `draw --take` draws: checked before the draw reserves
/// room for them, which for 2^32 - 1 would be 16 GiB.
const MAX_DRAW_TAKE: u32 = 1_000_000;

/// Arguments of `roundtable fairdeck`.
#[derive(clap::Args, Debug)]
pub(crate) struct FairdeckArgs {
    #[command(subcommand)]
    command: FairdeckCommand,
}

#[derive(Subcommand, Debug)]
enum FairdeckCommand {
    /// A hash chain's commitment x_L, and with --reveal K its reveal x_{L-K}:
    /// prints {"commitment": HEX, "reveal": HEX}.
    Chain {
        /// The 32-byte secret seed, 64 hex digits.
        #[arg(long, value_name = "HEX32", allow_hyphen_values = true)]
        seed: String,
        /// The chain length L (1 to 1048576).
        #[arg(long, value_name = "L", allow_hyphen_values = true)]
        length: String,
        /// Also print reveal K (1 to L), the link answering chance event K.
        #[arg(long, value_name = "K", allow_hyphen_values = true)]
        reveal: Option<String>,
    },
    /// The beacon of chance event K: prints {"beacon": HEX}.
    Beacon {
        /// The 32-byte game id, 64 hex digits.
        #[arg(long, value_name = "HEX32", allow_hyphen_values = true)]
        game: String,
        /// The chance event K, counted from 1.
        #[arg(long, value_name = "K", allow_hyphen_values = true)]
        event: String,
        /// One per seat, in seat order: the seat's reveal for event K (64 hex
        /// digits), or the word `forfeited` for a seat that has forfeited.
        #[arg(
            long = "reveal",
            value_name = "HEX32|forfeited",
            required = true,
            allow_hyphen_values = true
        )]
        reveals: Vec<String>,
    },
    /// C successive uniform integers in [0, N) from one beacon's stream:
    /// prints {"values": [...]}.
    Sample {
        /// The 32-byte beacon, 64 hex digits.
        #[arg(long, value_name = "HEX32", allow_hyphen_values = true)]
        beacon: String,
        /// The exclusive upper bound N (1 to 2^64 - 1).
        #[arg(long, value_name = "N", allow_hyphen_values = true)]
        below: String,
        /// How many values C (default 1, at most 1000000).
        #[arg(long, value_name = "C", allow_hyphen_values = true)]
        count: Option<String>,
    },
    /// K draws without replacement from a multiset, as catalog indices in
    /// draw order: prints {"indices": [...]}.
    Draw {
        /// The 32-byte beacon, 64 hex digits.
        #[arg(long, value_name = "HEX32", allow_hyphen_values = true)]
        beacon: String,
        /// The copies of each catalog entry, comma-separated (e.g. 3,0,2,5).
        #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
        counts: String,
        /// How many to draw, at most the sum of the counts (and at most
        /// 1000000).
        #[arg(long, value_name = "K", allow_hyphen_values = true)]
        take: String,
    },
}

/// Why the arguments were refused (printed as one line).
#[derive(Debug)]
struct Malformed(String);

impl From<FairdeckError> for Malformed {
    fn from(e: FairdeckError) -> Self {
        Malformed(e.to_string())
    }
}

/// Run `roundtable fairdeck`: print one JSON object and exit 0, or print one
/// line on stderr and exit 2 when the arguments are malformed.
pub(crate) fn run(args: &FairdeckArgs) -> crate::Outcome {
    match output(&args.command) {
        Ok(value) => {
            writeln!(crate::output::stdout(), "{value}")?;
            Ok(ExitCode::SUCCESS)
        }
        Err(Malformed(message)) => Err(crate::Failure::with_code(2, anyhow::anyhow!(message))),
    }
}

fn output(command: &FairdeckCommand) -> Result<Value, Malformed> {
    match command {
        FairdeckCommand::Chain {
            seed,
            length,
            reveal,
        } => {
            let seed = fd::parse_hex32("--seed", seed)?;
            let length = number::<u64>("--length", length)?;
            let chain = fd::ChainSecret::new(seed, length).map_err(|e| field("--length", e))?;
            let commitment = fd::hex32(&chain.commitment());
            match reveal {
                None => Ok(json!({ "commitment": commitment })),
                Some(k) => {
                    let k = number::<u64>("--reveal", k)?;
                    let reveal = chain.reveal(k).map_err(|e| field("--reveal", e))?;
                    Ok(json!({ "commitment": commitment, "reveal": fd::hex32(&reveal) }))
                }
            }
        }
        FairdeckCommand::Beacon {
            game,
            event,
            reveals,
        } => {
            let game = fd::parse_hex32("--game", game)?;
            let event = number::<u64>("--event", event)?;
            if event == 0 {
                return Err(Malformed(
                    "--event: chance events are counted from 1".into(),
                ));
            }
            let seats = u8::try_from(reveals.len())
                .map_err(|_| Malformed(format!("{} seats given, at most 255", reveals.len())))?;
            let mut collected = fd::EventReveals::new(event, seats)?;
            for (seat, text) in (0..seats).zip(reveals) {
                if text == "forfeited" {
                    collected.forfeit(seat)?;
                } else {
                    collected.reveal(seat, fd::parse_hex32("--reveal", text)?)?;
                }
            }
            Ok(json!({ "beacon": fd::hex32(&collected.beacon(&game)?) }))
        }
        FairdeckCommand::Sample {
            beacon,
            below,
            count,
        } => {
            let beacon = fd::parse_hex32("--beacon", beacon)?;
            let n = number::<u64>("--below", below)?;
            let count = match count {
                Some(c) => number::<u64>("--count", c)?,
                None => 1,
            };
            if count > MAX_SAMPLE_COUNT {
                return Err(Malformed(format!(
                    "--count: at most {MAX_SAMPLE_COUNT}, got {count}"
                )));
            }
            let mut sampler = fd::Sampler::new(&beacon);
            let values = (0..count)
                .map(|_| sampler.uniform(n))
                .collect::<Result<Vec<u64>, _>>()
                .map_err(|e| field("--below", e))?;
            Ok(json!({ "values": values }))
        }
        FairdeckCommand::Draw {
            beacon,
            counts,
            take,
        } => {
            let beacon = fd::parse_hex32("--beacon", beacon)?;
            let counts = if counts.is_empty() {
                Vec::new()
            } else {
                counts
                    .split(',')
                    .map(|c| number::<u32>("--counts", c))
                    .collect::<Result<Vec<u32>, _>>()?
            };
            let take = number::<u32>("--take", take)?;
            if take > MAX_DRAW_TAKE {
                return Err(Malformed(format!(
                    "--take: at most {MAX_DRAW_TAKE}, got {take}"
                )));
            }
            let indices = fd::Sampler::new(&beacon)
                .draw(&counts, take)
                .map_err(|e| field("--take", e))?;
            Ok(json!({ "indices": indices }))
        }
    }
}

/// A library error about the argument `what`.
fn field(what: &str, e: FairdeckError) -> Malformed {
    Malformed(format!("{what}: {e}"))
}

/// A decimal number (digits only) that fits in `T`.
fn number<T: std::str::FromStr>(what: &str, text: &str) -> Result<T, Malformed> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Malformed(format!(
            "{what}: {text:?} is not a decimal number"
        )));
    }
    text.parse::<T>()
        .map_err(|_| Malformed(format!("{what}: {text} is too large")))
}
