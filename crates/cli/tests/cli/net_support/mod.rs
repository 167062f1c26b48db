//! Running peers as processes of the real binary on 127.0.0.1.

#![allow(dead_code, unreachable_pub)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub mod internet;

pub const BIN: &str = env!("CARGO_BIN_EXE_roundtable");

/// Flags every test peer uses: loopback only, no mDNS, random bots,
/// quick catch-up.
pub fn common(dir: &Path, name: &str, seed: u64) -> Vec<String> {
    let mut args = spectator(dir, name);
    args.extend([
        "--bot".into(),
        "random".into(),
        "--bot-seed".into(),
        seed.to_string(),
    ]);
    args
}

/// The flags of [`common`] for a spectator, which has no bot: loopback
/// only, no mDNS, the log printed, quick catch-up, and a finished peer
/// serves catch-up for 1 s at least rather than 5 (every peer of these
/// tests starts before the end, and a finished peer still serves until the
/// peers it knows have the end).
pub fn spectator(dir: &Path, name: &str) -> Vec<String> {
    [
        "--data-dir",
        &dir.display().to_string(),
        "--name",
        name,
        "--headless",
        "--listen",
        "/ip4/127.0.0.1/tcp/0",
        "--listen",
        "/ip4/127.0.0.1/udp/0/quic-v1",
        "--no-mdns",
        "--sync-ms",
        "300",
        "--linger-ms",
        "1000",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// Flags of a headless seat played by `bot` that says how it connects
/// (`-v`): its data in `dir`, no mDNS, quick catch-up. Where it listens is
/// the caller's to add.
pub fn verbose_bot_seat(dir: &Path, name: &str, bot: &str, seed: u64) -> Vec<String> {
    [
        "--data-dir",
        &dir.display().to_string(),
        "--name",
        name,
        "--headless",
        "--bot",
        bot,
        "--bot-seed",
        &seed.to_string(),
        "--no-mdns",
        "--sync-ms",
        "300",
        "-v",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// The peer id at the end of a `/p2p/<id>` multiaddr.
pub fn last_peer_id(addr: &str) -> String {
    addr.rsplit("/p2p/").next().unwrap_or_default().to_owned()
}

/// A peer process whose stdout is collected line by line.
pub struct Peer {
    pub name: String,
    pub child: Child,
    pub lines: Arc<Mutex<Vec<String>>>,
    /// What it wrote to stderr (also passed on to the test's stderr).
    pub errors: Arc<Mutex<Vec<String>>>,
}

impl Peer {
    pub fn start(name: &str, args: &[String]) -> Peer {
        Peer::spawn(name, Command::new(BIN).args(args))
    }

    /// Start the binary inside the network namespace `ns` (`ip netns exec`
    /// execs it, so the child is the peer itself).
    pub fn start_in(ns: &str, name: &str, args: &[String]) -> Peer {
        Peer::spawn(
            name,
            Command::new("ip")
                .args(["netns", "exec", ns, BIN])
                .args(args),
        )
    }

    fn spawn(name: &str, command: &mut Command) -> Peer {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let lines = Arc::new(Mutex::new(Vec::new()));
        let out = child.stdout.take().expect("stdout is piped");
        let sink = lines.clone();
        // `ROUNDTABLE_TEST_ECHO=1` echoes every line a peer prints to the
        // test's stderr with the time since it started: where a slow or
        // stuck game spent its time, on a failed CI run too.
        let echo = std::env::var_os("ROUNDTABLE_TEST_ECHO").is_some_and(|v| v == "1");
        let (who, started) = (name.to_owned(), std::time::Instant::now());
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                if echo {
                    eprintln!("{:>9.3} [{who}] {line}", started.elapsed().as_secs_f64());
                }
                sink.lock().unwrap().push(line);
            }
        });
        let errors = Arc::new(Mutex::new(Vec::new()));
        let err = child.stderr.take().expect("stderr is piped");
        let sink = errors.clone();
        let who = name.to_owned();
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                eprintln!("[{who}] {line}");
                sink.lock().unwrap().push(line);
            }
        });
        Peer {
            name: name.to_owned(),
            child,
            lines,
            errors,
        }
    }

    pub fn output(&self) -> Vec<String> {
        self.lines.lock().unwrap().clone()
    }

    /// Its stderr so far.
    pub fn error_lines(&self) -> Vec<String> {
        self.errors.lock().unwrap().clone()
    }

    /// Wait for a line satisfying `pred`, at most `timeout`.
    pub fn wait_line(&self, timeout: Duration, pred: impl Fn(&str) -> bool) -> Option<String> {
        let start = Instant::now();
        while start.elapsed() < timeout {
            if let Some(l) = self.output().into_iter().find(|l| pred(l)) {
                return Some(l);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    /// Wait for the process to exit, at most `timeout` (killed after).
    pub fn wait(&mut self, timeout: Duration) -> ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                // Let the reader thread take the last lines.
                std::thread::sleep(Duration::from_millis(50));
                return status;
            }
            if start.elapsed() > timeout {
                let _ = self.child.kill();
                let out = self.output();
                let dump =
                    std::env::temp_dir().join(format!("rt-{}.log", self.name.replace(' ', "-")));
                let _ = std::fs::write(&dump, out.join("\n"));
                eprintln!("full output of {} in {}", self.name, dump.display());
                let tail = &out[out.len().saturating_sub(40)..];
                panic!(
                    "{} did not finish in {timeout:?}; last lines:\n{}",
                    self.name,
                    tail.join("\n")
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The transcript path the peer printed at the end.
    pub fn transcript(&self) -> PathBuf {
        let line = self
            .output()
            .into_iter()
            .rev()
            .find(|l| l.starts_with("transcript: "))
            .unwrap_or_else(|| panic!("{} printed no transcript line", self.name));
        PathBuf::from(line.trim_start_matches("transcript: "))
    }

    /// The highest position the peer printed (`[N] ...` lines).
    pub fn position(&self) -> u64 {
        self.output()
            .iter()
            .filter_map(|l| l.strip_prefix('[')?.split(']').next()?.parse().ok())
            .max()
            .unwrap_or(0)
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Wait until the host wrote its ticket file.
pub fn read_ticket(path: &Path, timeout: Duration) -> String {
    let start = Instant::now();
    while start.elapsed() < timeout {
        if let Ok(t) = std::fs::read_to_string(path)
            && t.trim().starts_with("rt1_")
        {
            return t.trim().to_owned();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("no ticket at {}", path.display());
}

/// Start a host with `bots` in-process bots; returns the peer and its ticket.
pub fn host(dir: &Path, seats: u8, bots: u8, seed: u64, extra: &[&str]) -> (Peer, String) {
    let ticket_file = dir.join("ticket.txt");
    let mut args: Vec<String> = vec![
        "host".into(),
        "--seats".into(),
        seats.to_string(),
        "--bots".into(),
        bots.to_string(),
        "--ticket-file".into(),
        ticket_file.display().to_string(),
    ];
    args.extend(common(&dir.join("host"), "host", seed));
    args.extend(extra.iter().map(|s| s.to_string()));
    let peer = Peer::start("host", &args);
    let ticket = read_ticket(&ticket_file, Duration::from_secs(20));
    (peer, ticket)
}

/// Start `roundtable relay` on 127.0.0.1 with its key in `dir`; the peer
/// and the multiaddr (with `/p2p/<id>`) it listens on.
pub fn start_relay(dir: &Path) -> (Peer, String) {
    let relay = Peer::start(
        "relay",
        &[
            "relay".to_owned(),
            "--listen".into(),
            "/ip4/127.0.0.1/tcp/0".into(),
            "--data-dir".into(),
            dir.display().to_string(),
        ],
    );
    let addr = relay
        .wait_line(Duration::from_secs(20), |l| {
            l.starts_with("relay listening on ")
        })
        .expect("the relay listens")
        .trim_start_matches("relay listening on ")
        .to_owned();
    (relay, addr)
}

/// Start a joiner.
pub fn join(dir: &Path, name: &str, ticket: &str, seed: u64, extra: &[&str]) -> Peer {
    let mut args: Vec<String> = vec!["join".into(), ticket.into()];
    args.extend(common(dir, name, seed));
    args.extend(extra.iter().map(|s| s.to_string()));
    Peer::start(name, &args)
}

/// Every transcript file of a finished game under `root` (the peers' and
/// their bots' data directories).
pub fn transcripts_under(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_owned()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n == "transcript.rtlog") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// All files byte-identical and accepted by `roundtable audit`.
pub fn check_transcripts(files: &[PathBuf], expected: usize) {
    assert_eq!(files.len(), expected, "transcripts: {files:?}");
    let first = std::fs::read(&files[0]).unwrap();
    for f in &files[1..] {
        let bytes = std::fs::read(f).unwrap();
        assert!(
            bytes == first,
            "{} differs from {}",
            f.display(),
            files[0].display()
        );
    }
    let out = Command::new(BIN)
        .arg("audit")
        .args(files)
        .output()
        .expect("audit runs");
    assert!(
        out.status.success(),
        "audit refused: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// [`check_transcripts`] for a table of honest, live players on a network
/// that delivers (late, perhaps, or through a relay): no seat forfeited
/// either. An honest seat is never claimed out of a game (a readiness wait
/// as long as the stall timeout once had the others claim a seat whose
/// view of a subscription a closing connection took along).
pub fn check_honest_transcripts(files: &[PathBuf], expected: usize) {
    check_transcripts(files, expected);
    let report = audit_json(&files[0]);
    assert_eq!(
        report["forfeited"],
        serde_json::json!([]),
        "an honest seat forfeited in {}: {report}",
        files[0].display()
    );
}

/// The peer printed the end of the game and no violation.
pub fn assert_game_over_without_violation(peer: &Peer) {
    let output = peer.output();
    let name = &peer.name;
    assert!(
        output.iter().any(|l| l == "game over"),
        "{name}: {output:#?}"
    );
    assert!(
        !output.iter().any(|l| l.contains("VIOLATION")),
        "{name}: {output:#?}"
    );
}

/// `roundtable audit --json FILE`'s report of one transcript.
pub fn audit_json(file: &Path) -> serde_json::Value {
    let out = Command::new(BIN)
        .args(["audit", "--json"])
        .arg(file)
        .output()
        .expect("audit runs");
    serde_json::from_slice(out.stdout.split(|b| *b == b'\n').next().unwrap_or_default())
        .expect("one JSON object")
}

/// A small LAN of network namespaces: one hub namespace with a bridge, and
/// `n` spoke namespaces, each with an `eth0` at `10.77.0.<i+1>/24` linked to
/// the bridge by a veth pair whose hub end can be brought down (a cable
/// pulled) and up again. Everything is deleted on drop.
pub struct Lan {
    hub: String,
    spokes: Vec<String>,
    tag: String,
}

fn ip(args: &[&str]) -> Result<(), String> {
    let out = Command::new("ip")
        .args(args)
        .output()
        .map_err(|e| format!("running ip: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "ip {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

impl Lan {
    /// Build the LAN, or say why it cannot be built here (no `ip`, not
    /// root, no namespaces, veth or bridge support).
    pub fn new(n: usize) -> Result<Lan, String> {
        let tag = format!("rt{}", std::process::id());
        let mut lan = Lan {
            hub: format!("{tag}-hub"),
            spokes: Vec::new(),
            tag,
        };
        ip(&["netns", "add", &lan.hub])?;
        ip(&["-n", &lan.hub, "link", "add", "br0", "type", "bridge"])?;
        ip(&["-n", &lan.hub, "link", "set", "br0", "up"])?;
        for i in 0..n {
            let ns = format!("{}-{i}", lan.tag);
            ip(&["netns", "add", &ns])?;
            lan.spokes.push(ns.clone());
            let port = lan.port(i);
            ip(&[
                "link", "add", &port, "netns", &lan.hub, "type", "veth", "peer", "name", "eth0",
                "netns", &ns,
            ])?;
            ip(&["-n", &lan.hub, "link", "set", &port, "master", "br0", "up"])?;
            ip(&[
                "-n",
                &ns,
                "addr",
                "add",
                &format!("{}/24", lan.addr(i)),
                "dev",
                "eth0",
            ])?;
            ip(&["-n", &ns, "link", "set", "eth0", "up"])?;
            ip(&["-n", &ns, "link", "set", "lo", "up"])?;
        }
        Ok(lan)
    }

    /// The hub-side interface of spoke `i` (at most 15 characters).
    fn port(&self, i: usize) -> String {
        format!("v{}{i}", &self.tag[2..])
    }

    /// Spoke `i`'s namespace.
    pub fn ns(&self, i: usize) -> &str {
        &self.spokes[i]
    }

    /// Spoke `i`'s IPv4 address.
    pub fn addr(&self, i: usize) -> String {
        format!("10.77.0.{}", i + 1)
    }

    /// Plug spoke `i`'s cable in (`up`) or pull it out.
    pub fn set_link(&self, i: usize, up: bool) {
        let port = self.port(i);
        let state = if up { "up" } else { "down" };
        if let Err(e) = ip(&["-n", &self.hub, "link", "set", &port, state]) {
            panic!("{e}");
        }
    }
}

impl Drop for Lan {
    fn drop(&mut self) {
        for ns in self.spokes.iter().chain([&self.hub]) {
            let _ = ip(&["netns", "del", ns]);
        }
    }
}
