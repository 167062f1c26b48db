//! Games through home routers on a simulated internet (`net_support::internet`):
//! peers behind cone and symmetric NATs, a `roundtable relay` on the public
//! segment, hole punching, a router that reboots mid-game, and nobody
//! reachable at all.
//!
//! Needs root, iproute2, nftables and conntrack, so every test is ignored by
//! default: `.ci/run` installs them and runs these with `--ignored`, and an
//! internet that cannot be built fails the test, saying why.

use crate::net_support;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use net_support::internet::{Internet, Nat};

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
    let net = Internet::build("public server; cone alice; symmetric bob; cone+upnp carol")
        .unwrap_or_else(|why| panic!("cannot build a simulated internet here: {why}"));
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
    let _ = listener.kill();
    let _ = listener.wait();
    assert!(!connects(net.ns("server"), net.public_addr("alice"), 40002));
    // A private address is not routed on the public segment.
    assert!(!connects(net.ns("server"), net.addr("alice"), 40003));
    // A reboot forgets mappings; the machine still gets out afterwards.
    net.restart_router("alice");
    let mut listener = Command::new("ip")
        .args(["netns", "exec", net.ns("server"), "python3", "-c", LISTENER])
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut heard = BufReader::new(listener.stdout.take().expect("piped")).lines();
    assert_eq!(
        heard.next().and_then(Result::ok).unwrap_or_default(),
        "ready"
    );
    assert!(connects(net.ns("alice"), server, 40004));
    let _ = listener.kill();
    let _ = listener.wait();
}
