//! Games through home routers on a simulated internet (`net_support::internet`):
//! peers behind cone and symmetric NATs, a `roundtable relay` on the public
//! segment, hole punching, a router that reboots mid-game, and nobody
//! reachable at all.
//!
//! Needs root, iproute2, nftables and conntrack, so every test is ignored by
//! default: `.ci/run` installs them and runs these with `--ignored`, and an
//! internet that cannot be built fails the test, saying why.

use crate::net_support;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use net_support::internet::{Internet, Nat};
use net_support::*;

/// Accepts TCP connections on port 4000 and prints `from IP PORT` for each.
const LISTENER: &str = "
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('0.0.0.0', 4000))
s.listen()
print('ready', flush=True)
while True:
    c, (ip, port) = s.accept()
    print('from', ip, port, flush=True)
    c.close()
";

/// Connects to argv[1]:argv[2] from local port argv[3]; prints `connected`
/// or `failed REASON`, giving up after 3 s.
const CONNECT: &str = "
import socket, sys
s = socket.socket()
s.settimeout(3)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('0.0.0.0', int(sys.argv[3])))
try:
    s.connect((sys.argv[1], int(sys.argv[2])))
    print('connected', flush=True)
except Exception as e:
    print('failed', e, flush=True)
";

/// The simulated internet of `description`; the test fails, saying why,
/// where it cannot be built.
fn internet(description: &str) -> Internet {
    Internet::build(description)
        .unwrap_or_else(|why| panic!("cannot build a simulated internet here: {why}"))
}

/// Whether a TCP connection from `ns` (local port `from_port`) to
/// `to`:4000 is made.
fn connects(ns: &str, to: std::net::Ipv4Addr, from_port: u16) -> bool {
    let out = Command::new("ip")
        .args(["netns", "exec", ns, "python3", "-c", CONNECT])
        .args([to.to_string(), "4000".into(), from_port.to_string()])
        .output()
        .expect("python3 runs");
    let said = String::from_utf8_lossy(&out.stdout);
    said.trim() == "connected"
}

#[test]
#[ignore = "needs root, ip netns and nftables; .ci/run runs this with --ignored"]
fn the_simulated_internet_translates_and_filters_like_home_routers() {
    let net = internet("public server; cone alice; symmetric bob; cone+upnp carol");
    assert_eq!(net.nat("alice"), Some(Nat::Cone));
    assert_eq!(net.nat("bob"), Some(Nat::Symmetric));
    assert!(net.router_ns("server").is_none());
    assert!(net.addr("alice").is_private());
    assert_eq!(net.addr("server"), net.public_addr("server"));

    let mut listener = Command::new("ip")
        .args(["netns", "exec", net.ns("server"), "python3", "-c", LISTENER])
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut heard = BufReader::new(listener.stdout.take().expect("piped")).lines();
    let mut next = || heard.next().and_then(Result::ok).unwrap_or_default();
    assert_eq!(next(), "ready");

    let server = net.public_addr("server");
    let before = net.public_bytes("server");
    // Out through a cone NAT: seen from the router's public address, the
    // inside port kept.
    assert!(connects(net.ns("alice"), server, 40000));
    assert_eq!(next(), format!("from {} 40000", net.public_addr("alice")));
    // Out through a symmetric NAT: seen from the router's public address.
    assert!(connects(net.ns("bob"), server, 40001));
    let seen = next();
    assert!(
        seen.starts_with(&format!("from {} ", net.public_addr("bob"))),
        "{seen}"
    );
    // Out through a router that also runs miniupnpd.
    assert!(connects(net.ns("carol"), server, 40005));
    assert_eq!(next(), format!("from {} 40005", net.public_addr("carol")));
    assert!(net.public_bytes("server") > before, "no bytes counted");

    // Unsolicited inbound: the router drops it (give-up bound 3 s).
    assert!(!connects(net.ns("server"), net.public_addr("alice"), 40002));
    // A private address is not routed on the public segment.
    assert!(!connects(net.ns("server"), net.addr("alice"), 40003));
    // A reboot forgets mappings; the machine still gets out afterwards.
    net.restart_router("alice");
    assert!(connects(net.ns("alice"), server, 40004));
    assert_eq!(next(), format!("from {} 40004", net.public_addr("alice")));
    let _ = listener.kill();
    let _ = listener.wait();
}

/// Give-up bound of every wait below: a whole short game, with margin.
const LIMIT: Duration = Duration::from_secs(120);

/// The flags of a test peer on the simulated internet: headless, a bot,
/// verbose (the connection notes are what the tests read), no mDNS, quick
/// catch-up, and `extra` (how it is reached).
fn flags(dir: &Path, name: &str, bot: &str, seed: u64, extra: &[String]) -> Vec<String> {
    let mut args = verbose_bot_seat(dir, name, bot, seed);
    args.extend(["--linger-ms".to_owned(), "1000".to_owned()]);
    args.extend(extra.iter().cloned());
    args
}

/// `roundtable relay` on the public machine `machine`; its multiaddr (with
/// `/p2p/<id>`).
fn start_relay_on(net: &Internet, machine: &str, dir: &Path) -> (Peer, String) {
    let relay = Peer::start_in(
        net.ns(machine),
        "relay",
        &[
            "relay".to_owned(),
            "--listen".into(),
            format!("/ip4/{}/tcp/4001", net.addr(machine)),
            "--data-dir".into(),
            dir.display().to_string(),
        ],
    );
    let addr = relay
        .wait_line(LIMIT, |l| l.starts_with("relay listening on "))
        .expect("the relay listens")
        .trim_start_matches("relay listening on ")
        .to_owned();
    (relay, addr)
}

/// The peers (other than `relay_id`) `peer` noted a connection of kind
/// `kind` (`direct`, or `relayed through …`) to.
fn connected(peer: &Peer, relay_id: &str, kind: &str) -> BTreeSet<String> {
    peer.output()
        .iter()
        .filter_map(|l| l.strip_prefix("note: connection to "))
        .filter(|l| l.contains(&format!("({kind}")))
        .filter(|l| l.contains(" via "))
        .filter_map(|l| l.split(' ').next())
        .filter(|id| *id != relay_id)
        .map(str::to_owned)
        .collect()
}

/// A short game of Port Royal (to 5 victory points).
const QUICK_PORT_ROYAL: &[&str] = &[
    "--option",
    "victory_points=5",
    "--stall-timeout-ms",
    "30000",
];

/// The position of a `[N] ...` line.
fn position_of(line: &str) -> Option<u64> {
    line.strip_prefix('[')?.split(']').next()?.parse().ok()
}

/// A table played on a simulated internet: one peer process per machine,
/// the first hosting, every seat a bot.
struct Table {
    dir: tempfile::TempDir,
    relay: Option<(Peer, String)>,
    players: Vec<Peer>,
    /// How long each joiner took to its first connection to another
    /// player (not the relay).
    first_connection: Vec<Duration>,
}

impl Table {
    /// Host `game` (with `game_flags`) on `machines[0]`, the others join;
    /// with a relay on the public machine `relay`, every player is
    /// reachable only through it (`--no-listen --relay`), as the README
    /// advises players behind NAT.
    fn start(
        net: &Internet,
        machines: &[&str],
        relay: Option<&str>,
        game_flags: &[&str],
        bot: &str,
    ) -> Table {
        let dir = tempfile::tempdir().unwrap();
        let relay = relay.map(|m| start_relay_on(net, m, &dir.path().join("relay")));
        let reach: Vec<String> = match &relay {
            Some((_, addr)) => vec!["--no-listen".into(), "--relay".into(), addr.clone()],
            None => Vec::new(),
        };
        let ticket_file = dir.path().join("ticket.txt");
        let mut args: Vec<String> = ["host", "--seats"].map(String::from).to_vec();
        args.push(machines.len().to_string());
        args.extend(game_flags.iter().map(|s| s.to_string()));
        args.extend(["--ticket-file".into(), ticket_file.display().to_string()]);
        args.extend(flags(
            &dir.path().join(machines[0]),
            machines[0],
            bot,
            70,
            &reach,
        ));
        let host = Peer::start_in(net.ns(machines[0]), machines[0], &args);
        let ticket = read_ticket(&ticket_file, LIMIT);
        let mut players = vec![host];
        let started = Instant::now();
        for (i, machine) in machines.iter().enumerate().skip(1) {
            let mut args = vec!["join".to_string(), ticket.clone()];
            args.extend(flags(
                &dir.path().join(machine),
                machine,
                bot,
                70 + i as u64,
                &reach,
            ));
            players.push(Peer::start_in(net.ns(machine), machine, &args));
        }
        let relay_id = relay
            .as_ref()
            .map(|(_, addr)| last_peer_id(addr))
            .unwrap_or_default();
        let first_connection = players[1..]
            .iter()
            .map(|p| {
                p.wait_line(LIMIT, |l| {
                    l.strip_prefix("note: connection to ")
                        .and_then(|l| l.split(' ').next())
                        .is_some_and(|id| id != relay_id)
                });
                started.elapsed()
            })
            .collect();
        Table {
            dir,
            relay,
            players,
            first_connection,
        }
    }

    fn relay_id(&self) -> String {
        self.relay
            .as_ref()
            .map(|(_, addr)| last_peer_id(addr))
            .unwrap_or_default()
    }

    /// Wait until every player noted a direct connection to every other
    /// player; false if that did not happen within [`LIMIT`].
    fn wait_all_direct(&self) -> bool {
        let start = Instant::now();
        let relay_id = self.relay_id();
        let others = self.players.len() - 1;
        while start.elapsed() < LIMIT {
            if self
                .players
                .iter()
                .all(|p| connected(p, &relay_id, "direct").len() >= others)
            {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }

    /// Every player finishes the game; their transcripts are the same
    /// bytes and audit valid.
    fn finish(&mut self) {
        for p in &mut self.players {
            let name = p.name.clone();
            assert!(p.wait(LIMIT).success(), "{name} failed");
            assert_game_over_without_violation(p);
            // A subscription a closing relayed connection took along is
            // announced again: every seat sees every other subscribed
            // before its readiness wait ends.
            let unready: Vec<String> = p
                .output()
                .into_iter()
                .filter(|l| l.contains("not seen subscribed"))
                .collect();
            assert!(unready.is_empty(), "{name}: {unready:?}");
        }
        let mut files = transcripts_under(self.dir.path());
        files.retain(|f| !f.starts_with(self.dir.path().join("relay")));
        check_honest_transcripts(&files, self.players.len());
    }

    /// What each player noted about its connections to the others.
    fn report(&self, case: &str) {
        let relay_id = self.relay_id();
        for (p, first) in self.players[1..].iter().zip(&self.first_connection) {
            eprintln!("{case}: {} first connected after {first:?}", p.name);
        }
        for p in &self.players {
            for l in p.output().iter().filter(|l| {
                l.starts_with("note: ")
                    && (l.contains("connection") || l.contains("punch") || l.contains("relay"))
            }) {
                eprintln!("{case}: [{}] {l}", p.name);
            }
            eprintln!(
                "{case}: {} direct to {} peer(s), relayed to {}",
                p.name,
                connected(p, &relay_id, "direct").len(),
                connected(p, &relay_id, "relayed through").len()
            );
        }
    }
}

/// (c) Three players behind three cone NATs, reachable only through a
/// `roundtable relay` on the public segment: they meet through it, punch
/// holes, and the game moves to the direct connections; the relay carries
/// next to nothing after the punch.
#[test]
#[ignore = "needs root, ip netns and nftables; .ci/run runs this with --ignored"]
fn three_players_behind_cone_nats_punch_through_and_leave_the_relay() {
    let net = internet("public relay; cone ann; cone bob; cone cat");
    let began = Instant::now();
    let before = net.public_bytes("relay");
    let mut table = Table::start(
        &net,
        &["ann", "bob", "cat"],
        Some("relay"),
        QUICK_PORT_ROYAL,
        "random",
    );
    if !table.wait_all_direct() {
        table.report("(c)");
        panic!("not every pair of players punched a direct connection");
    }
    let at_punch = net.public_bytes("relay");
    let punch_seen = Instant::now();
    // What the relay said after the punch: a circuit opened then is game
    // traffic that should have gone direct.
    let relay_said_before = relay_output(&table).len();
    // Ten more moves (or the end) on the direct connections, then the
    // relay vanishes: the game must not need it any more.
    let punched_at = table.players[0].position();
    table.players[0].wait_line(LIMIT, |l| {
        l == "game over" || position_of(l).is_some_and(|p| p >= punched_at + 10)
    });
    let after = net.public_bytes("relay") - at_punch;
    let window = punch_seen.elapsed();
    let relay_said_after: Vec<String> = relay_output(&table)
        .into_iter()
        .skip(relay_said_before)
        .collect();
    if let Some((relay, _)) = &mut table.relay {
        let _ = relay.child.kill();
    }
    table.finish();
    table.report("(c)");
    let circuits: Vec<&String> = relay_said_after
        .iter()
        // Not "stopped relaying from": the relayed connections of the
        // punch close in the window, as they should.
        .filter(|l| l.starts_with("relaying from"))
        .collect();
    eprintln!(
        "(c): relay bytes {} before the punch, {after} in the next moves (from position \
         {punched_at}, {window:?}, {} circuit(s) opened), then the relay was killed; {:?} in all",
        at_punch - before,
        circuits.len(),
        began.elapsed()
    );
    // The relay's own account: no table traffic went through it once every
    // pair had punched (a redial through it would open a circuit).
    assert!(
        circuits.is_empty(),
        "the relay opened circuits after every pair punched through:\n{}",
        relay_said_after.join("\n")
    );
    // A relayed game moves well over 100 KB; what is left after the punch
    // is the players' own traffic with the relay (reservations, pings,
    // AutoNAT dial-backs to their routers), which grows with the window
    // and not with the moves: a 30 s window (a seat that lost a peer's
    // subscription used to wait the whole stall timeout) carried 50 KB
    // (1.7 KB/s) with no circuit opened. So the bound is 32 KiB plus
    // 2 KiB a second of window; table traffic relayed would also have
    // opened a circuit (above).
    let bound = 32 * 1024 + 2 * 1024 * window.as_secs();
    assert!(
        after < bound,
        "the relay carried {after} bytes in the {window:?} after every pair punched through; \
         the relay said meanwhile:\n{}",
        relay_said_after.join("\n")
    );
}

/// Every line the table's relay printed so far.
fn relay_output(table: &Table) -> Vec<String> {
    table
        .relay
        .as_ref()
        .map(|(relay, _)| relay.output())
        .unwrap_or_default()
}

/// (d) Two players behind symmetric NATs: no hole can be punched (each
/// destination gets a fresh port), so the game is played through the relay
/// from start to end, and ends.
#[test]
#[ignore = "needs root, ip netns and nftables; .ci/run runs this with --ignored"]
fn two_players_behind_symmetric_nats_play_through_the_relay() {
    let net = internet("public relay; symmetric ann; symmetric bob");
    play_through_the_relay(&net, "(d)", QUICK_PORT_ROYAL, "random");
    // Private cards through the relay: Guildhall, its heuristic bots (a
    // random bot's game may run to the round cap).
    play_through_the_relay(
        &net,
        "(d) guildhall",
        &["--game", "guildhall", "--stall-timeout-ms", "30000"],
        "heuristic",
    );
}

/// ann and bob play a whole game through the relay, and never directly.
fn play_through_the_relay(net: &Internet, case: &str, game_flags: &[&str], bot: &str) {
    let began = Instant::now();
    let before = net.public_bytes("relay");
    let mut table = Table::start(net, &["ann", "bob"], Some("relay"), game_flags, bot);
    table.finish();
    table.report(case);
    let relay_id = table.relay_id();
    for p in &table.players {
        assert!(
            connected(p, &relay_id, "direct").is_empty(),
            "{case}: {} connected directly through a symmetric NAT",
            p.name
        );
        assert!(
            !connected(p, &relay_id, "relayed through").is_empty(),
            "{case}: {} never connected through the relay",
            p.name
        );
    }
    eprintln!(
        "{case}: relay bytes {} for the whole game; {:?} in all",
        net.public_bytes("relay") - before,
        began.elapsed()
    );
}

/// (e) Two players behind cone NATs, direct after the punch; then one
/// router reboots mid-game, forgetting every connection through it (its
/// TCP connections die, to the relay too). The players notice by ping,
/// meet again (through the relay, then punched), and the game resumes and
/// ends.
#[test]
#[ignore = "needs root, ip netns and nftables; .ci/run runs this with --ignored"]
fn a_router_that_reboots_mid_game_and_the_game_goes_on() {
    let net = internet("public relay; cone ann; cone bob");
    let began = Instant::now();
    let mut table = Table::start(
        &net,
        &["ann", "bob"],
        Some("relay"),
        &[
            "--option",
            "victory_points=8",
            "--stall-timeout-ms",
            "90000",
        ],
        "random",
    );
    let reboot_at = 20;
    table.players[1]
        .wait_line(LIMIT, |l| position_of(l).is_some_and(|p| p >= reboot_at))
        .expect("the game gets going");
    let at = table.players[1].position();
    net.restart_router("ann");
    let rebooted = Instant::now();
    table.finish();
    table.report("(e)");
    let end = table.players[1].position();
    eprintln!(
        "(e): ann's router rebooted at position {at}; the game ended at {end}, \
         {:?} later; {:?} in all",
        rebooted.elapsed(),
        began.elapsed()
    );
    assert!(end > at, "nothing was played after the reboot");
    for p in &table.players {
        assert!(
            !p.output().iter().any(|l| l.contains("stalled")),
            "{} claimed a seat stalled: the game did not resume",
            p.name
        );
    }
}

/// (f) Nobody reachable: the host behind a cone NAT with no relay. Its
/// ticket holds private and loopback addresses only, and it says so with
/// what would help; the joiner behind another NAT gives up with the plain
/// line that the host is on a private network, and fails.
#[test]
#[ignore = "needs root, ip netns and nftables; .ci/run runs this with --ignored"]
fn nobody_reachable_is_said_plainly_on_both_sides() {
    let net = internet("cone ann; cone bob");
    let dir = tempfile::tempdir().unwrap();
    let ticket_file = dir.path().join("ticket.txt");
    let mut args: Vec<String> = ["host", "--seats", "2", "--ticket-file"]
        .map(String::from)
        .to_vec();
    args.push(ticket_file.display().to_string());
    args.extend(flags(&dir.path().join("ann"), "ann", "random", 80, &[]));
    let mut host = Peer::start_in(net.ns("ann"), "ann", &args);
    let ticket = read_ticket(&ticket_file, LIMIT);
    let help = host.wait_line(LIMIT, |l| l.starts_with("to let others in: "));
    let began = Instant::now();
    let mut args = vec!["join".to_string(), ticket];
    args.extend(flags(&dir.path().join("bob"), "bob", "random", 81, &[]));
    args.extend(["--give-up-secs".into(), "5".into()]);
    let mut joiner = Peer::start_in(net.ns("bob"), "bob", &args);
    let status = joiner.wait(LIMIT);
    let took = began.elapsed();
    let _ = host.child.kill();
    let _ = host.child.wait();
    let out = host.output();
    let help = help.unwrap_or_else(|| panic!("no help with the ticket:\n{}", out.join("\n")));
    assert!(
        help.contains("UPnP") && help.contains("--relay"),
        "the host's help: {help}"
    );
    assert!(
        out.iter()
            .any(|l| l.contains("this ticket holds only private-network addresses")),
        "the host did not say its ticket reaches its own network only:\n{}",
        out.join("\n")
    );
    assert_eq!(status.code(), Some(1), "the joiner fails plainly");
    let errors = joiner.error_lines();
    assert_eq!(errors.len(), 1, "one line: {errors:?}");
    assert!(
        errors[0].contains("the host is on a private network"),
        "{}",
        errors[0]
    );
    eprintln!("(f): the joiner gave up after {took:?} (--give-up-secs 5)");
}
