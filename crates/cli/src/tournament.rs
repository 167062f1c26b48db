//! `roundtable tournament ...`: tournaments in which the director is
//! trusted for nothing that can be checked (crates/tournament).
//!
//! * `new` writes the terms (their hash is the tournament id);
//! * `register` signs a player's registration with the key it plays with;
//! * `close` checks the registrations and signs the manifest;
//! * `reveal` opens a player's seed share once the manifest is signed;
//! * `pairings` prints the next round's tables, recomputed from the games;
//! * `standings` audits every transcript in a folder on all cores and ranks
//!   the players from what the audits proved;
//! * `demo` plays a whole bot tournament in this process and leaves every
//!   file behind for `standings`;
//! * `host` and `play` play one round over the network
//!   ([`crate::tournament_net`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use rayon::prelude::*;
use roundtable_games::{GameId, Listed, Visit};
use roundtable_local::{LocalGame, Player, Progress};
use roundtable_table::audit::{AuditError, AuditReport, audit};
use roundtable_table::transcript::{self, Frame};
use roundtable_table::{Config, Identity};
use roundtable_tournament::{
    Format, Manifest, OpenedShares, Outcome, Refusal, Registration, SeedReveal, Submission, Terms,
    derived_seed_share, standings, table_nonce,
};
use sha2::{Digest, Sha256};

use crate::Failure;
use crate::bot_choice::BotKind;
use crate::output::read_text;
use roundtable_games::words::plural;

/// `roundtable tournament`.
#[derive(Debug, clap::Args)]
pub(crate) struct TournamentArgs {
    #[command(subcommand)]
    command: TournamentCommand,
}

#[derive(Debug, clap::Subcommand)]
enum TournamentCommand {
    /// Write a tournament's terms (the director's key comes from the data
    /// folder); players then register for the tournament id it prints.
    New(NewArgs),
    /// Register for a tournament with the key you play with, committing to
    /// a share of the seed that orders players who are level.
    Register(RegisterArgs),
    /// Close registration: check every registration and sign the manifest
    /// with the director's key (a bad registration is one line and is left
    /// out; the exit is then 1).
    Close(CloseArgs),
    /// Open your seed share once the manifest is signed: the reveal file
    /// must be with the games (any `*.reveal.json` in the folder) before
    /// round 1 is paired, or you are withdrawn.
    Reveal(RevealArgs),
    /// Print the next round's tables, recomputed from the manifest and the
    /// games in a folder.
    Pairings(StandingsArgs),
    /// Audit every transcript in a folder (on all cores) and print the
    /// standings; exit 1 if any file was refused, 2 if the manifest is bad.
    Standings(StandingsArgs),
    /// Play a whole tournament of bots in this process and write the
    /// manifest, the registrations and every transcript to a folder.
    Demo(DemoArgs),
    /// Serve one round over the network as its tournament node: tell each
    /// player its table, open each table when its players are there or the
    /// show-up time has passed (the missing lose by forfeit), and file every
    /// table's transcript as its game ends. A table whose game stands still
    /// for four stall timeouts and 5 s is given up: the node then names the
    /// tables without a result and exits 1.
    Host(crate::tournament_net::HostArgs),
    /// Play your table of a round: connect to the tournament node with its
    /// ticket, see your table and opponents, and play the game in the
    /// terminal UI (or let a bot play it: `--bot`).
    Play(crate::tournament_net::PlayArgs),
}

#[derive(Debug, clap::Args)]
struct NewArgs {
    /// The tournament's name.
    #[arg(long)]
    name: String,
    /// The game, by its name in the list of games; a name not in the list
    /// is answered with the list.
    #[arg(long, default_value = "port-royal", value_name = "NAME")]
    game: String,
    /// Swiss rounds (the default format).
    #[arg(long, default_value_t = 4, conflicts_with = "round_robin")]
    rounds: u32,
    /// Round robin instead of Swiss.
    #[arg(long)]
    round_robin: bool,
    /// Seats at every table.
    #[arg(long, default_value_t = 4)]
    seats: u8,
    /// A rule option as key=value.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// The stall timeout every table plays with.
    #[arg(long, default_value_t = 120_000)]
    stall_timeout_ms: u64,
    /// A player not at its table this long after the tournament node opens
    /// the round (`tournament host`) loses that game by forfeit.
    #[arg(long, default_value_t = 300)]
    show_up_secs: u64,
    /// Where the director's key lives (as `host --data-dir`).
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// The terms file to write.
    #[arg(long)]
    out: PathBuf,
}

#[derive(Debug, clap::Args)]
struct RegisterArgs {
    /// The tournament's terms file.
    terms: PathBuf,
    /// Your display name.
    #[arg(long)]
    name: String,
    /// Where the key you play with lives (as `host --data-dir`).
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// The registration file to write (give it to the director).
    #[arg(long)]
    out: PathBuf,
}

#[derive(Debug, clap::Args)]
struct CloseArgs {
    /// The tournament's terms file.
    terms: PathBuf,
    /// The players' registration files.
    #[arg(required = true)]
    registrations: Vec<PathBuf>,
    /// Where the director's key lives.
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// The manifest file to write.
    #[arg(long)]
    out: PathBuf,
}

#[derive(Debug, clap::Args)]
struct RevealArgs {
    /// The signed manifest.
    manifest: PathBuf,
    /// Where the key you registered with lives.
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// The reveal file to write (its name must end in `.reveal.json`).
    #[arg(long)]
    out: PathBuf,
}

#[derive(Debug, clap::Args)]
struct StandingsArgs {
    /// The signed manifest.
    manifest: PathBuf,
    /// The folder of transcripts (`.rts`) and seed reveals
    /// (`.reveal.json`), searched to any depth.
    dir: PathBuf,
    /// Also write the standings as JSON to this file.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Also write the players' lines as CSV to this file.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct DemoArgs {
    /// The game, by its name in the list of games; a name not in the list
    /// is answered with the list.
    #[arg(long, default_value = "port-royal", value_name = "NAME")]
    game: String,
    /// Players (each a bot with its own key).
    #[arg(long, default_value_t = 16)]
    players: u16,
    /// Swiss rounds.
    #[arg(long, default_value_t = 4, conflicts_with = "round_robin")]
    rounds: u32,
    /// Round robin instead of Swiss.
    #[arg(long)]
    round_robin: bool,
    /// Seats at every table.
    #[arg(long, default_value_t = 4)]
    seats: u8,
    /// Makes every key, seed and move reproducible.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The computer player.
    #[arg(long, value_enum, default_value_t = BotKind::Heuristic)]
    bot: BotKind,
    /// How long a `search` bot thinks per move, in milliseconds.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=60_000))]
    think_ms: u64,
    /// The folder to write into (created; must hold no manifest yet).
    #[arg(long)]
    dir: PathBuf,
}

pub(crate) fn run(args: &TournamentArgs) -> crate::Outcome {
    match &args.command {
        TournamentCommand::New(a) => Ok(new(a)?),
        TournamentCommand::Register(a) => Ok(register(a)?),
        TournamentCommand::Close(a) => close(a),
        TournamentCommand::Reveal(a) => reveal(a),
        TournamentCommand::Pairings(a) => pairings(a),
        TournamentCommand::Standings(a) => run_standings(a),
        TournamentCommand::Demo(a) => Ok(demo(a)?),
        TournamentCommand::Host(a) => crate::tournament_net::host(a),
        TournamentCommand::Play(a) => crate::tournament_net::play(a),
    }
}

impl TournamentArgs {
    /// The subcommand's name after `tournament`, as typed: every line the
    /// command prints of an error starts "roundtable tournament NAME:".
    pub(crate) fn name(&self) -> &'static str {
        match &self.command {
            TournamentCommand::New(_) => "tournament new",
            TournamentCommand::Register(_) => "tournament register",
            TournamentCommand::Close(_) => "tournament close",
            TournamentCommand::Reveal(_) => "tournament reveal",
            TournamentCommand::Pairings(_) => "tournament pairings",
            TournamentCommand::Standings(_) => "tournament standings",
            TournamentCommand::Demo(_) => "tournament demo",
            TournamentCommand::Host(_) => "tournament host",
            TournamentCommand::Play(_) => "tournament play",
        }
    }
}

fn data_dir(given: &Option<PathBuf>) -> roundtable_net::DataDir {
    roundtable_net::DataDir::new(
        given
            .clone()
            .unwrap_or_else(roundtable_net::default_data_dir),
    )
}

/// The game of the list called `name`; any other name is one line that
/// names the list.
pub(crate) fn listed_game(name: &str) -> Result<GameId> {
    Ok(GameId::from_name(name)?)
}

/// Check that `game` is known and takes `options` at `seats` seats.
fn check_game(game: &str, options: &[u8], seats: u8) -> Result<()> {
    listed_game(game)?.visit(CheckTerms { options, seats })
}

/// Whether game `G` takes these encoded options at this many seats.
struct CheckTerms<'a> {
    options: &'a [u8],
    seats: u8,
}

impl Visit for CheckTerms<'_> {
    type Output = Result<()>;

    fn visit<G: Listed>(self) -> Result<()> {
        let options: G::Options = decode_options::<G>(self.options)?;
        roundtable_table::genesis::check_terms::<G>(self.seats, &options)?;
        Ok(())
    }
}

/// A manifest's encoded options as game `G`'s.
pub(crate) fn decode_options<G: Listed>(options: &[u8]) -> Result<G::Options> {
    roundtable_table::decode_exact(options)
        .map_err(|e| anyhow::anyhow!("the {} options do not decode: {e}", G::NAME))
}

/// `--option KEY=VALUE` pairs over game `G`'s defaults, encoded as a
/// manifest carries them.
struct EncodeOptions<'a>(&'a [String]);

impl Visit for EncodeOptions<'_> {
    type Output = Result<Vec<u8>>;

    fn visit<G: Listed>(self) -> Result<Vec<u8>> {
        let options: G::Options = crate::parse_options::<G>(self.0)?;
        Ok(roundtable_tournament::encode_options(&options)?)
    }
}

/// Write `text` to `path`, refusing to replace a file already there.
fn write_new(path: &Path, text: &str) -> Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .with_context(|| format!("{}", path.display()))?;
    file.write_all(text.as_bytes())
        .with_context(|| format!("{}", path.display()))?;
    Ok(())
}

fn read_terms(path: &Path) -> Result<Terms> {
    let terms: Terms = serde_json::from_str(&read_text(path, "tournament terms file")?)
        .with_context(|| format!("{}: not tournament terms", path.display()))?;
    terms
        .validate()
        .with_context(|| format!("{}", path.display()))?;
    check_game(&terms.game, &terms.options, terms.seats_per_table)
        .with_context(|| format!("{}", path.display()))?;
    Ok(terms)
}

fn new(args: &NewArgs) -> Result<ExitCode> {
    let options = listed_game(&args.game)?.visit(EncodeOptions(&args.options))?;
    let director = data_dir(&args.data_dir).identity()?;
    let terms = Terms {
        name: args.name.clone(),
        game: args.game.clone(),
        options,
        format: if args.round_robin {
            Format::RoundRobin
        } else {
            Format::Swiss {
                rounds: args.rounds,
            }
        },
        seats_per_table: args.seats,
        stall_timeout_ms: args.stall_timeout_ms,
        show_up_ms: args.show_up_secs.saturating_mul(1000),
        director: director.public(),
        nonce: fresh_bytes()?,
    };
    terms.validate()?;
    check_game(&terms.game, &terms.options, terms.seats_per_table)?;
    write_new(&args.out, &json_text(&terms)?)?;
    let mut out = crate::output::stdout();
    writeln!(out, "tournament {}", terms.id())?;
    writeln!(
        out,
        "players register with: roundtable tournament register {} --name NAME --out FILE",
        args.out.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// 32 bytes from the operating system's random source.
fn fresh_bytes() -> Result<[u8; 32]> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| anyhow::anyhow!("the operating system's random source failed: {e}"))?;
    Ok(bytes)
}

fn json_text<T: serde::Serialize>(value: &T) -> Result<String> {
    let mut text = serde_json::to_string_pretty(value)?;
    text.push('\n');
    Ok(text)
}

fn register(args: &RegisterArgs) -> Result<ExitCode> {
    let terms = read_terms(&args.terms)?;
    let identity = data_dir(&args.data_dir).identity()?;
    // The share is made again from the key at `reveal`, so the player keeps
    // no other secret.
    let share = derived_seed_share(&terms.id(), &identity);
    let registration = Registration::sign(terms.id(), &identity, &args.name, share);
    registration.verify(&terms.id())?;
    write_new(&args.out, &registration.to_json())?;
    writeln!(
        crate::output::stdout(),
        "{} registered for {} (tournament {})",
        args.name,
        terms.name,
        terms.id()
    )?;
    Ok(ExitCode::SUCCESS)
}

fn close(args: &CloseArgs) -> crate::Outcome {
    let terms = read_terms(&args.terms)?;
    let id = terms.id();
    let director = data_dir(&args.data_dir).identity()?;
    let mut registrations: Vec<Registration> = Vec::new();
    let mut refused = 0;
    for path in &args.registrations {
        let checked = read_text(path, "registration").and_then(|text| {
            let r = Registration::from_json(&text)?;
            r.verify(&id)?;
            if registrations.iter().any(|other| other.key == r.key) {
                bail!("the key of {:?} is registered already", r.name);
            }
            Ok(r)
        });
        match checked {
            Ok(r) => registrations.push(r),
            Err(e) => {
                refused += 1;
                eprintln!(
                    "roundtable tournament close: {}: {}",
                    path.display(),
                    crate::one_line(&e)
                );
            }
        }
    }
    let manifest = Manifest::sign(terms, registrations, &director)?;
    write_new(&args.out, &manifest.to_json())?;
    writeln!(
        crate::output::stdout(),
        "tournament {id}: {}, {}; manifest {}",
        plural(manifest.registrations.len(), "player", "players"),
        plural(manifest.rounds(), "round", "rounds"),
        args.out.display()
    )?;
    Ok(if refused > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn reveal(args: &RevealArgs) -> crate::Outcome {
    let manifest = read_manifest(&args.manifest)?;
    let identity = data_dir(&args.data_dir).identity()?;
    let id = manifest.id();
    let key = identity.public();
    let Some(name) = manifest.name_of(&key) else {
        return Err(anyhow::anyhow!(
            "{}: this key ({}) is not registered in tournament {id}",
            args.manifest.display(),
            hex::encode(key.0)
        )
        .into());
    };
    if !args.out.to_string_lossy().ends_with(REVEAL_SUFFIX) {
        return Err(anyhow::anyhow!(
            "{}: a reveal file's name must end in {REVEAL_SUFFIX}",
            args.out.display()
        )
        .into());
    }
    let reveal = SeedReveal::new(id, key, derived_seed_share(&id, &identity));
    manifest.check_reveal(&reveal).with_context(|| {
        format!("the share made from this key does not open {name:?}'s commitment (registered from another data folder?)")
    })?;
    write_new(&args.out, &reveal.to_json())?;
    writeln!(
        crate::output::stdout(),
        "{name} opens its seed share: {} goes with the games before round 1 is paired",
        args.out.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// How a seed reveal's file name ends.
const REVEAL_SUFFIX: &str = ".reveal.json";

/// Read and verify a manifest; a bad one is exit 2 (the input cannot be used).
pub(crate) fn read_manifest(path: &Path) -> Result<Manifest, Failure> {
    let text = read_text(path, "tournament manifest").map_err(|e| Failure::with_code(2, e))?;
    let manifest = Manifest::from_json(&text)
        .with_context(|| format!("{}", path.display()))
        .map_err(|e| Failure::with_code(2, e))?;
    manifest
        .verify()
        .with_context(|| format!("{}", path.display()))
        .map_err(|e| Failure::with_code(2, e))?;
    check_game(
        &manifest.terms.game,
        &manifest.terms.options,
        manifest.terms.seats_per_table,
    )
    .with_context(|| format!("{}", path.display()))
    .map_err(|e| Failure::with_code(2, e))?;
    Ok(manifest)
}

/// Every `.rts` file and every seed reveal under `dir`, each in path order.
fn files_under(dir: &Path) -> Result<(Vec<PathBuf>, Vec<PathBuf>)> {
    let (mut found, mut reveals) = (Vec::new(), Vec::new());
    let mut folders = vec![dir.to_owned()];
    while let Some(folder) = folders.pop() {
        let entries =
            std::fs::read_dir(&folder).with_context(|| format!("{}", folder.display()))?;
        for entry in entries {
            let entry = entry.with_context(|| format!("{}", folder.display()))?;
            let path = entry.path();
            if entry.file_type().map(|t| t.is_dir()).unwrap_or(false) {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rts") {
                found.push(path);
            } else if path.to_string_lossy().ends_with(REVEAL_SUFFIX) {
                reveals.push(path);
            }
        }
    }
    found.sort();
    reveals.sort();
    Ok((found, reveals))
}

/// The seed shares the reveals under `dir` open; a reveal that is not a
/// reveal, is for another tournament or does not open its commitment is
/// refused.
fn opened_shares(
    manifest: &Manifest,
    dir: &Path,
    reveals: &[PathBuf],
    refused: &mut Vec<Refusal>,
) -> OpenedShares {
    let mut shares = OpenedShares::new();
    for path in reveals {
        let source = path
            .strip_prefix(dir)
            .unwrap_or(path)
            .to_string_lossy()
            .into_owned();
        let checked = read_text(path, "seed reveal").and_then(|text| {
            let reveal = SeedReveal::from_json(&text)?;
            manifest.check_reveal(&reveal)?;
            Ok(reveal)
        });
        match checked {
            Ok(reveal) => {
                shares.insert(reveal.key, reveal.share);
            }
            Err(e) => refused.push(Refusal {
                source,
                reason: crate::one_line(&e),
            }),
        }
    }
    shares
}

/// Read and audit one transcript.
pub(crate) fn audit_one(path: &Path, source: String) -> Result<Submission, Refusal> {
    let refuse = |reason: String| Refusal {
        source: source.clone(),
        reason,
    };
    let read = transcript::read(path).map_err(|e| {
        // The error names the path; the refusal line names it once.
        let text = e.to_string();
        let prefix = format!("{}: ", path.display());
        refuse(text.strip_prefix(&prefix).unwrap_or(&text).to_owned())
    })?;
    let Some(Frame::Proposal(proposal)) = read.frames.first() else {
        return Err(refuse(
            "the transcript does not start with a proposal".into(),
        ));
    };
    let game = GameId::from_name(&proposal.game)
        .map_err(|e| refuse(format!("the transcript's game: {e}")))?;
    let mut report = game
        .visit(AuditFrames(&read.frames))
        .map_err(|e| refuse(e.to_string()))?;
    crate::audit::tail_problem(&mut report, read.tail.as_ref());
    Submission::from_audit(source, proposal, &report)
}

/// The audit of a transcript's frames, for the game its genesis names.
struct AuditFrames<'a>(&'a [Frame]);

impl Visit for AuditFrames<'_> {
    type Output = Result<AuditReport, AuditError>;

    fn visit<G: Listed>(self) -> Self::Output {
        audit::<G>(self.0)
    }
}

/// Audit every transcript under `dir` in parallel, with a progress bar on
/// a terminal; the results in path order.
fn audit_all(dir: &Path, files: &[PathBuf]) -> Vec<Result<Submission, Refusal>> {
    crate::progress::audit_in_parallel(files, true, |path| {
        let source = path
            .strip_prefix(dir)
            .unwrap_or(path)
            .to_string_lossy()
            .into_owned();
        audit_one(path, source)
    })
}

/// The manifest at `manifest` and the standings from the files under
/// `dir`, with the number of transcripts audited and the seconds it took.
pub(crate) fn compute(
    manifest: &Path,
    dir: &Path,
) -> Result<(Manifest, roundtable_tournament::Standings, FileCounts, f64), Failure> {
    let manifest = read_manifest(manifest)?;
    let start = Instant::now();
    let (transcripts, reveals) = files_under(dir).map_err(|e| Failure::with_code(2, e))?;
    let audited = audit_all(dir, &transcripts);
    let (mut games, mut refused) = (Vec::new(), Vec::new());
    let shares = opened_shares(&manifest, dir, &reveals, &mut refused);
    let files = FileCounts {
        transcripts: audited.len(),
        reveals: reveals.len(),
        reveals_refused: refused.len(),
    };
    for r in audited {
        match r {
            Ok(s) => games.push(s),
            Err(r) => refused.push(r),
        }
    }
    let result = standings(&manifest, &shares, games, refused);
    Ok((manifest, result, files, start.elapsed().as_secs_f64()))
}

/// The files a folder of games holds, counted apart: a reveal file is no
/// transcript, and its refusal no refused game.
pub(crate) struct FileCounts {
    transcripts: usize,
    reveals: usize,
    reveals_refused: usize,
}

impl FileCounts {
    /// "5 files: 4 transcripts (1 counted, 3 refused), 1 reveal file".
    fn words(&self, counted: usize, refused: usize) -> String {
        let transcripts_refused = refused.saturating_sub(self.reveals_refused);
        let mut reveals = plural(self.reveals, "reveal file", "reveal files");
        if self.reveals_refused > 0 {
            reveals.push_str(&format!(" ({} refused)", self.reveals_refused));
        }
        format!(
            "{}: {} ({} counted, {transcripts_refused} refused), {reveals}",
            plural(self.transcripts + self.reveals, "file", "files"),
            plural(self.transcripts, "transcript", "transcripts"),
            plural(counted, "game", "games"),
        )
    }
}

fn run_standings(args: &StandingsArgs) -> crate::Outcome {
    let (_, result, files, seconds) = compute(&args.manifest, &args.dir)?;
    let mut out = crate::output::stdout();
    out.write_all(result.to_text().as_bytes())?;
    if let Some(path) = &args.json {
        std::fs::write(path, result.to_json()).with_context(|| format!("{}", path.display()))?;
    }
    if let Some(path) = &args.csv {
        let csv = result.to_csv()?;
        std::fs::write(path, csv).with_context(|| format!("{}", path.display()))?;
    }
    for r in &result.refused {
        eprintln!(
            "roundtable tournament standings: refused {}: {}",
            crate::output::printable(&r.source),
            crate::output::printable(&r.reason)
        );
    }
    let counted = result
        .rounds
        .iter()
        .flat_map(|r| &r.tables)
        .filter(|t| t.game.is_some())
        .count();
    eprintln!(
        "{}; audited in {seconds:.1} s on {}",
        files.words(counted, result.refused.len()),
        plural(rayon::current_num_threads(), "thread", "threads"),
    );
    Ok(if result.refused.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn pairings(args: &StandingsArgs) -> crate::Outcome {
    let (manifest, result, _, _) = compute(&args.manifest, &args.dir)?;
    let mut out = crate::output::stdout();
    let next = result
        .rounds
        .iter()
        .zip(&result.pairings)
        .find(|(r, _)| r.tables.iter().any(|t| t.game.is_none()));
    let Some((round, pairing)) = next else {
        writeln!(out, "every round has been played")?;
        return Ok(ExitCode::SUCCESS);
    };
    let id = manifest.id();
    writeln!(out, "round {}", round.round)?;
    for (table, report) in pairing.tables.iter().zip(&round.tables) {
        let state = if report.game.is_some() {
            " (played)"
        } else {
            ""
        };
        writeln!(
            out,
            "table {}: {}{state}  nonce {}",
            table.number,
            report.players.join(", "),
            hex::encode(table_nonce(&id, round.round, table.number))
        )?;
    }
    if !round.byes.is_empty() {
        writeln!(out, "sitting out: {}", round.byes.join(", "))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// 32 bytes for the demo, from its seed.
fn demo_bytes(seed: u64, what: &str, a: u32, b: u32) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"roundtable/tournament-demo/v1");
    h.update(seed.to_le_bytes());
    h.update(what.as_bytes());
    h.update(a.to_le_bytes());
    h.update(b.to_le_bytes());
    h.finalize().into()
}

fn demo(args: &DemoArgs) -> Result<ExitCode> {
    listed_game(&args.game)?.visit(Demo(args))
}

/// `demo` for the game `--game` names.
struct Demo<'a>(&'a DemoArgs);

impl Visit for Demo<'_> {
    type Output = Result<ExitCode>;

    fn visit<G: Listed>(self) -> Result<ExitCode> {
        demo_game::<G>(self.0)
    }
}

fn demo_game<G: Listed>(args: &DemoArgs) -> Result<ExitCode> {
    let options = G::Options::default();
    check_game(
        G::NAME,
        &roundtable_tournament::encode_options(&options)?,
        args.seats,
    )?;
    if usize::from(args.players) < usize::from(args.seats) {
        bail!(
            "{} cannot fill a table of {}",
            plural(args.players, "player", "players"),
            args.seats
        );
    }
    std::fs::create_dir_all(args.dir.join("registrations"))
        .with_context(|| format!("{}", args.dir.display()))?;
    std::fs::create_dir_all(args.dir.join("games"))
        .with_context(|| format!("{}", args.dir.display()))?;
    std::fs::create_dir_all(args.dir.join("reveals"))
        .with_context(|| format!("{}", args.dir.display()))?;
    let director = Identity::from_secret(demo_bytes(args.seed, "director", 0, 0));
    let terms = Terms {
        name: format!("Demo {}", args.seed),
        game: G::NAME.to_owned(),
        options: roundtable_tournament::encode_options(&options)?,
        format: if args.round_robin {
            Format::RoundRobin
        } else {
            Format::Swiss {
                rounds: args.rounds,
            }
        },
        seats_per_table: args.seats,
        stall_timeout_ms: Config::default().stall_timeout_ms,
        show_up_ms: 300_000,
        director: director.public(),
        nonce: demo_bytes(args.seed, "nonce", 0, 0),
    };
    terms.validate()?;
    let id = terms.id();
    let secrets: Vec<[u8; 32]> = (0..u32::from(args.players))
        .map(|i| demo_bytes(args.seed, "player", i, 0))
        .collect();
    let registrations: Vec<Registration> = secrets
        .iter()
        .enumerate()
        .map(|(i, secret)| {
            let identity = Identity::from_secret(*secret);
            Registration::sign(
                id,
                &identity,
                &format!("Bot {:02}", i + 1),
                derived_seed_share(&id, &identity),
            )
        })
        .collect();
    write_new(&args.dir.join("terms.json"), &json_text(&terms)?)?;
    for r in &registrations {
        let file = format!("{}.json", r.name.replace(' ', "-").to_lowercase());
        write_new(&args.dir.join("registrations").join(file), &r.to_json())?;
    }
    let manifest = Manifest::sign(terms, registrations, &director)?;
    write_new(&args.dir.join("manifest.json"), &manifest.to_json())?;
    // Every bot opens its share once the manifest is signed.
    let mut shares = OpenedShares::new();
    for secret in &secrets {
        let identity = Identity::from_secret(*secret);
        let reveal = SeedReveal::new(id, identity.public(), derived_seed_share(&id, &identity));
        manifest.check_reveal(&reveal)?;
        let name = manifest.name_of(&reveal.key).unwrap_or("bot");
        let file = format!("{}{REVEAL_SUFFIX}", name.replace(' ', "-").to_lowercase());
        write_new(&args.dir.join("reveals").join(file), &reveal.to_json())?;
        shares.insert(reveal.key, reveal.share);
    }
    let secret_of = |key: &roundtable_table::PublicKey| {
        secrets
            .iter()
            .find(|s| Identity::from_secret(**s).public() == *key)
            .copied()
    };
    let mut out = crate::output::stdout();
    writeln!(
        out,
        "tournament {id}: {} bots, {} of {}-seat {} tables",
        args.players,
        plural(manifest.rounds(), "round", "rounds"),
        args.seats,
        G::TITLE
    )?;
    let mut played: Vec<Submission> = Vec::new();
    for round in 1..=manifest.rounds() {
        // The round is paired from the games so far, as anyone would.
        let so_far = standings(&manifest, &shares, played.clone(), Vec::new());
        let pairing = so_far
            .pairings
            .get(round as usize - 1)
            .cloned()
            .ok_or_else(|| anyhow::anyhow!("round {round} is not paired"))?;
        let games: Vec<Result<Submission>> = pairing
            .tables
            .par_iter()
            .map(|table| {
                let file = format!("round-{round:02}-table-{:02}.rts", table.number);
                let path = args.dir.join("games").join(&file);
                let players = table
                    .players
                    .iter()
                    .enumerate()
                    .map(|(i, key)| {
                        let secret = secret_of(key)
                            .ok_or_else(|| anyhow::anyhow!("no secret for a paired key"))?;
                        let chain =
                            demo_bytes(args.seed, "chain", round, table.number * 256 + i as u32);
                        let name = manifest.name_of(key).unwrap_or("?").to_owned();
                        let bot = args.bot.make::<G>(
                            std::time::Duration::from_millis(args.think_ms),
                            args.seed
                                ^ u64::from(round) << 32
                                ^ u64::from(table.number) << 8
                                ^ i as u64,
                        );
                        Ok(((secret, chain), (name, Player::Bot(bot))))
                    })
                    .collect::<Result<Vec<_>>>()?;
                let (keys, seated): (Vec<_>, Vec<_>) = players.into_iter().unzip();
                let mut game = LocalGame::<G>::with_secrets(
                    &options,
                    keys,
                    table_nonce(&id, round, table.number),
                    seated,
                    Some(&path),
                    Config {
                        stall_timeout_ms: manifest.terms.stall_timeout_ms,
                        ..Config::default()
                    },
                )?;
                if game.run()? != Progress::Finished {
                    bail!(
                        "round {round} table {} stopped before its end",
                        table.number
                    );
                }
                let result = game
                    .result()
                    .cloned()
                    .ok_or_else(|| anyhow::anyhow!("no result"))?;
                // Seats are in key order, as in every genesis.
                let mut genesis_seats = table.players.clone();
                genesis_seats.sort();
                Ok(Submission {
                    source: format!("games/{file}"),
                    game_id: game.game_id(),
                    game: G::NAME.to_owned(),
                    options: manifest.terms.options.clone(),
                    nonce: table_nonce(&id, round, table.number),
                    seats: genesis_seats,
                    outcome: Outcome::Finished(result),
                })
            })
            .collect();
        for g in games {
            played.push(g?);
        }
        writeln!(
            out,
            "round {round}: {} played",
            plural(pairing.tables.len(), "table", "tables")
        )?;
    }
    let result = standings(&manifest, &shares, played, Vec::new());
    out.write_all(result.to_text().as_bytes())?;
    writeln!(
        out,
        "files in {}; check them with: roundtable tournament standings {} {}",
        args.dir.display(),
        args.dir.join("manifest.json").display(),
        args.dir.display()
    )?;
    Ok(ExitCode::SUCCESS)
}
