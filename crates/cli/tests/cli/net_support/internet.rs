//! A simulated internet in network namespaces: a public segment on TEST-NET
//! addresses and home networks behind NAT routers, built from a one-line
//! description, so the network tests can play through home routers the way
//! friends do, without a packet leaving the machine.
//!
//! The public segment is one bridge in a namespace of its own; every public
//! machine and every router's WAN side hangs on it with an address in
//! 198.51.100.0/24 (TEST-NET-2). The bridge drops every packet from or to a
//! private prefix, as the internet does. Each home network is a router
//! namespace (`wan0` on the segment, `lan0` inside) and the machine's own
//! namespace (`eth0` at `10.K.0.2`, its default route through `10.K.0.1`).
//!
//! Routers translate with nftables: `masquerade` keeps the inside port when
//! it can, so one inside socket gets one outside port whoever it talks to
//! (endpoint-independent mapping, what hole punching needs); `masquerade
//! fully-random` picks a fresh port for each destination (symmetric). Both
//! drop unsolicited inbound connections: only replies (conntrack's
//! established/related) and, with UPnP, what miniupnpd maps (its DNAT) get in.
//!
//! A `cone+upnp` router's miniupnpd learns its public address by STUN from
//! a machine of the public segment (`stun.py`, started here): Debian's
//! miniupnpd 2.3.1 forwards no port when its WAN address is reserved, as
//! every TEST-NET address is, unless STUN shows nothing filters or
//! translates above it. A `cone+upnp-behind-nat` router gets no STUN
//! server: its miniupnpd answers but maps nothing, as one behind an ISP's
//! NAT does; a `cone+upnp-refusing` one is public but its permissions
//! refuse every mapping.
//!
//! No delay or loss: `tc netem` does not exist on the kernel these tests were
//! written on (nor on CI's), so the links are perfect and every verdict
//! stands on what was said, not on when.

use std::net::Ipv4Addr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::ip;

/// How a home router translates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nat {
    /// Endpoint-independent masquerade: the inside port is kept when free.
    Cone,
    /// Masquerade fully-random: a fresh outside port per connection.
    Symmetric,
}

/// The prefixes the public segment drops, as the internet does.
const PRIVATE_PREFIXES: &str =
    "10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 100.64.0.0/10, 169.254.0.0/16";

/// The public segment's prefix (TEST-NET-2).
const PUBLIC_PREFIX: [u8; 3] = [198, 51, 100];

/// The public machine serving STUN to the UPnP routers: past the indices
/// of any description, so its address (198.51.100.250) is its own.
const STUN_INDEX: usize = 240;

/// The port the STUN server answers on (RFC 5389's).
const STUN_PORT: u16 = 3478;

/// Longest a miniupnpd takes to ask STUN (three rounds of three seconds at
/// worst) and open its sockets.
const UPNP_READY: std::time::Duration = std::time::Duration::from_secs(15);

/// One machine of the description.
struct Machine {
    name: String,
    ns: String,
    /// Its address on the public segment (the router's WAN address behind
    /// NAT).
    public: Ipv4Addr,
    /// Its own address.
    own: Ipv4Addr,
    router: Option<Router>,
}

struct Router {
    ns: String,
    nat: Nat,
    upnp: Option<Upnp>,
}

/// What a router's miniupnpd does.
#[derive(Clone, Copy)]
enum UpnpKind {
    /// Learns by STUN from this server that its address is public; maps.
    Maps(Ipv4Addr),
    /// The same, but its permissions refuse every mapping.
    Refuses(Ipv4Addr),
    /// Has no STUN server: takes its reserved address for one behind
    /// another NAT and maps nothing.
    BehindNat,
}

/// A miniupnpd serving one home network, restarted with its router.
struct Upnp {
    config: PathBuf,
    /// Its log (it runs in the foreground, logging to stderr).
    log: PathBuf,
    /// Whether it asks STUN for its public address (and so forwards).
    stun: bool,
    process: Mutex<Option<Child>>,
}

/// A simulated internet in network namespaces, torn down on drop. No traffic
/// leaves it.
pub struct Internet {
    segment: String,
    machines: Vec<Machine>,
    /// Where the miniupnpd configurations live.
    scratch: tempfile::TempDir,
    /// The STUN server the UPnP routers ask, when one of them does.
    stun: Option<Child>,
}

/// Tests of one binary run in threads of one process: the pid keeps two
/// processes apart, this counter two tests of one process.
static BUILT: AtomicUsize = AtomicUsize::new(0);

fn run(program: &str, args: &[&str]) -> Result<String, String> {
    let out = Command::new(program)
        .args(args)
        .output()
        .map_err(|e| format!("running {program}: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(format!(
            "{program} {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// `cmd` run inside namespace `ns`.
fn in_ns(ns: &str, cmd: &[&str]) -> Result<String, String> {
    let mut args = vec!["netns", "exec", ns];
    args.extend_from_slice(cmd);
    run("ip", &args)
}

/// Load an nftables ruleset into namespace `ns`.
fn nft(ns: &str, ruleset: &str) -> Result<(), String> {
    let mut child = Command::new("ip")
        .args(["netns", "exec", ns, "nft", "-f", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("running nft: {e}"))?;
    if let Some(mut stdin) = child.stdin.take() {
        use std::io::Write;
        stdin
            .write_all(ruleset.as_bytes())
            .map_err(|e| format!("writing to nft: {e}"))?;
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("running nft: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "nft in {ns}: {}\n{ruleset}",
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

fn sysctl(ns: &str, setting: &str) -> Result<(), String> {
    in_ns(ns, &["sysctl", "-q", "-w", setting]).map(|_| ())
}

impl Internet {
    /// Build from a short description: machines separated by `;`, each
    ///   `public NAME`        a machine on the public segment (TEST-NET addresses only)
    ///   `cone NAME`          a machine alone in a home network behind a router with `Nat::Cone`
    ///   `symmetric NAME`     the same behind `Nat::Symmetric`
    ///   `cone+upnp NAME`     a cone router that also runs miniupnpd for its home network
    ///   `cone+upnp-behind-nat NAME`  the same, but its miniupnpd maps nothing (no STUN server
    ///                        tells it its address is public)
    ///   `cone+upnp-refusing NAME`    the same, its address public, but it refuses every mapping
    ///
    /// A description with a `cone+upnp` or `cone+upnp-refusing` router also gets the public
    /// machine `stun` (198.51.100.250), the STUN server its miniupnpd asks.
    /// e.g. `Internet::build("public relay; cone+upnp host; cone joiner")`. Err(String) says why it
    /// cannot be built here (not root, a missing tool), and the test then fails with that line.
    pub fn build(description: &str) -> Result<Internet, String> {
        for tool in ["ip", "nft", "conntrack", "sysctl"] {
            if Command::new(tool).arg("--version").output().is_err() {
                return Err(format!("`{tool}` is not installed"));
            }
        }
        let tag = format!(
            "rti{}x{}",
            std::process::id(),
            BUILT.fetch_add(1, Ordering::Relaxed)
        );
        let mut internet = Internet {
            segment: format!("{tag}-net"),
            machines: Vec::new(),
            scratch: tempfile::tempdir().map_err(|e| format!("a scratch folder: {e}"))?,
            stun: None,
        };
        ip(&["netns", "add", &internet.segment])?;
        ip(&[
            "-n",
            &internet.segment,
            "link",
            "add",
            "br0",
            "type",
            "bridge",
        ])?;
        ip(&["-n", &internet.segment, "link", "set", "br0", "up"])?;
        nft(
            &internet.segment,
            &format!(
                "table bridge internet {{
                    chain forward {{
                        type filter hook forward priority filter; policy accept;
                        ip saddr {{ {PRIVATE_PREFIXES} }} drop
                        ip daddr {{ {PRIVATE_PREFIXES} }} drop
                    }}
                }}"
            ),
        )?;
        if description.split(';').any(|e| {
            matches!(
                e.split_whitespace().next(),
                Some("cone+upnp" | "cone+upnp-refusing")
            )
        }) {
            internet.start_stun(&tag)?;
        }
        let stun = internet
            .stun
            .is_some()
            .then(|| Self::segment_addr(STUN_INDEX))
            .transpose()?;
        for (index, entry) in description
            .split(';')
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .enumerate()
        {
            let mut words = entry.split_whitespace();
            let (kind, name) = match (words.next(), words.next(), words.next()) {
                (Some(kind), Some(name), None) => (kind, name),
                _ => return Err(format!("`{entry}` is not `KIND NAME`")),
            };
            if internet.machines.iter().any(|m| m.name == name) {
                return Err(format!("two machines are called {name}"));
            }
            let machine = match kind {
                "public" => internet.add_public(&tag, index, name)?,
                "cone" => internet.add_home(&tag, index, name, Nat::Cone, None)?,
                "symmetric" => internet.add_home(&tag, index, name, Nat::Symmetric, None)?,
                "cone+upnp" | "cone+upnp-refusing" => {
                    let server = stun.ok_or("no STUN server for a UPnP router")?;
                    let upnp = if kind == "cone+upnp" {
                        UpnpKind::Maps(server)
                    } else {
                        UpnpKind::Refuses(server)
                    };
                    internet.add_home(&tag, index, name, Nat::Cone, Some(upnp))?
                }
                "cone+upnp-behind-nat" => {
                    let upnp = Some(UpnpKind::BehindNat);
                    internet.add_home(&tag, index, name, Nat::Cone, upnp)?
                }
                other => {
                    return Err(format!(
                        "`{other}` is none of public, cone, symmetric, cone+upnp, \
                         cone+upnp-behind-nat, cone+upnp-refusing"
                    ));
                }
            };
            internet.machines.push(machine);
        }
        Ok(internet)
    }

    /// Plug namespace `ns` into the public segment as `inside_name` with
    /// `addr`; `index` keeps the segment's port names apart.
    fn plug_into_segment(
        &self,
        index: usize,
        ns: &str,
        inside_name: &str,
        addr: Ipv4Addr,
    ) -> Result<(), String> {
        let port = format!("p{index}");
        ip(&[
            "link",
            "add",
            &port,
            "netns",
            &self.segment,
            "type",
            "veth",
            "peer",
            "name",
            inside_name,
            "netns",
            ns,
        ])?;
        ip(&[
            "-n",
            &self.segment,
            "link",
            "set",
            &port,
            "master",
            "br0",
            "up",
        ])?;
        ip(&[
            "-n",
            ns,
            "addr",
            "add",
            &format!("{addr}/24"),
            "dev",
            inside_name,
        ])?;
        ip(&["-n", ns, "link", "set", inside_name, "up"])?;
        ip(&["-n", ns, "link", "set", "lo", "up"])?;
        // Everything is on the segment: a packet to a private address goes
        // out too, as it would to an ISP, and the segment drops it.
        ip(&["-n", ns, "route", "add", "default", "dev", inside_name])?;
        Ok(())
    }

    fn segment_addr(index: usize) -> Result<Ipv4Addr, String> {
        let host = u8::try_from(index + 10)
            .ok()
            .filter(|h| *h < 255)
            .ok_or("too many machines for one /24")?;
        let [a, b, c] = PUBLIC_PREFIX;
        Ok(Ipv4Addr::new(a, b, c, host))
    }

    fn add_public(&self, tag: &str, index: usize, name: &str) -> Result<Machine, String> {
        let ns = format!("{tag}-{name}");
        ip(&["netns", "add", &ns])?;
        let addr = Self::segment_addr(index)?;
        let machine = Machine {
            name: name.to_owned(),
            ns: ns.clone(),
            public: addr,
            own: addr,
            router: None,
        };
        self.plug_into_segment(index, &ns, "eth0", addr)?;
        Ok(machine)
    }

    /// A STUN server on the public segment (see the module notes), ready
    /// to answer when this returns.
    fn start_stun(&mut self, tag: &str) -> Result<(), String> {
        let machine = self.add_public(tag, STUN_INDEX, "stun")?;
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cli/net_support/stun.py");
        let mut child = Command::new("ip")
            .args(["netns", "exec", &machine.ns, "python3", script])
            .arg(machine.own.to_string())
            .arg(STUN_PORT.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("starting the STUN server: {e}"))?;
        self.machines.push(machine);
        let mut ready = String::new();
        if let Some(out) = child.stdout.take() {
            use std::io::BufRead;
            let _ = std::io::BufReader::new(out).read_line(&mut ready);
        }
        self.stun = Some(child);
        if ready.trim() == "ready" {
            Ok(())
        } else {
            Err(format!("the STUN server did not start (it said {ready:?})"))
        }
    }

    /// A home network behind a `nat` router, with a miniupnpd if `upnp`.
    fn add_home(
        &self,
        tag: &str,
        index: usize,
        name: &str,
        nat: Nat,
        upnp: Option<UpnpKind>,
    ) -> Result<Machine, String> {
        let ns = format!("{tag}-{name}");
        let router_ns = format!("{tag}-{name}-gw");
        ip(&["netns", "add", &router_ns])?;
        ip(&["netns", "add", &ns])?;
        let public = Self::segment_addr(index)?;
        let home = u8::try_from(index + 1).map_err(|_| "too many home networks")?;
        let gateway = Ipv4Addr::new(10, home, 0, 1);
        let own = Ipv4Addr::new(10, home, 0, 2);
        self.plug_into_segment(index, &router_ns, "wan0", public)?;
        ip(&[
            "link", "add", "lan0", "netns", &router_ns, "type", "veth", "peer", "name", "eth0",
            "netns", &ns,
        ])?;
        ip(&[
            "-n",
            &router_ns,
            "addr",
            "add",
            &format!("{gateway}/24"),
            "dev",
            "lan0",
        ])?;
        ip(&["-n", &router_ns, "link", "set", "lan0", "up"])?;
        ip(&[
            "-n",
            &ns,
            "addr",
            "add",
            &format!("{own}/24"),
            "dev",
            "eth0",
        ])?;
        ip(&["-n", &ns, "link", "set", "eth0", "up"])?;
        ip(&["-n", &ns, "link", "set", "lo", "up"])?;
        ip(&[
            "-n",
            &ns,
            "route",
            "add",
            "default",
            "via",
            &gateway.to_string(),
        ])?;
        sysctl(&router_ns, "net.ipv4.ip_forward=1")?;
        // A rebooted router has forgotten every connection: a TCP segment
        // of one it does not know is invalid (dropped), not adopted midway
        // as conntrack does by default.
        sysctl(&router_ns, "net.netfilter.nf_conntrack_tcp_loose=0")?;
        let random = match nat {
            Nat::Cone => "",
            Nat::Symmetric => " fully-random",
        };
        // Inbound: replies, and what a UPnP mapping forwards (miniupnpd
        // DNATs it, so `ct status dnat`); nothing else. Outbound to a
        // private prefix dies here silently, as at an ISP.
        nft(
            &router_ns,
            &format!(
                "table inet router {{
                    chain forward {{
                        type filter hook forward priority filter; policy drop;
                        ct state invalid drop
                        ct state established,related accept
                        iifname \"lan0\" oifname \"wan0\" ip daddr {{ {PRIVATE_PREFIXES} }} drop
                        iifname \"lan0\" oifname \"wan0\" accept
                        iifname \"wan0\" ct status dnat accept
                    }}
                    chain input {{
                        type filter hook input priority filter; policy drop;
                        ct state established,related accept
                        iifname {{ \"lo\", \"lan0\" }} accept
                    }}
                }}
                table ip nat {{
                    chain postrouting {{
                        type nat hook postrouting priority srcnat; policy accept;
                        oifname \"wan0\" masquerade{random}
                    }}
                }}"
            ),
        )?;
        let upnp = match upnp {
            Some(kind) => Some(self.start_upnp(&router_ns, name, gateway, kind)?),
            None => None,
        };
        Ok(Machine {
            name: name.to_owned(),
            ns,
            public,
            own,
            router: Some(Router {
                ns: router_ns,
                nat,
                upnp,
            }),
        })
    }

    /// miniupnpd in `router_ns`, with the nftables chains it fills (its
    /// `nft_init.sh` makes the same, under the names configured here).
    /// miniupnpd's table and chain names are those of its nftables build
    /// (2.3.1: netfilter_nft/nftnlrdr_misc.c), set in its configuration too
    /// so that a change of default cannot leave its rules outside our hooks.
    fn start_upnp(
        &self,
        router_ns: &str,
        name: &str,
        gateway: Ipv4Addr,
        kind: UpnpKind,
    ) -> Result<Upnp, String> {
        let stun = match kind {
            UpnpKind::Maps(server) | UpnpKind::Refuses(server) => Some(server),
            UpnpKind::BehindNat => None,
        };
        if Command::new("miniupnpd").arg("--version").output().is_err() {
            return Err("`miniupnpd` is not installed (package miniupnpd-nftables)".into());
        }
        nft(
            router_ns,
            "table inet miniupnpd {
                chain forward {
                    type filter hook forward priority filter; policy accept;
                    jump miniupnpd
                }
                chain miniupnpd {
                }
                chain prerouting {
                    type nat hook prerouting priority dstnat; policy accept;
                    jump prerouting_miniupnpd
                }
                chain postrouting {
                    type nat hook postrouting priority srcnat; policy accept;
                    jump postrouting_miniupnpd
                }
                chain prerouting_miniupnpd {
                }
                chain postrouting_miniupnpd {
                }
            }",
        )?;
        let config = self.scratch.path().join(format!("miniupnpd-{name}.conf"));
        let stun_lines = match stun {
            Some(server) => {
                format!("ext_perform_stun=yes\next_stun_host={server}\next_stun_port={STUN_PORT}\n")
            }
            None => String::new(),
        };
        let allow = match kind {
            UpnpKind::Refuses(_) => String::new(),
            UpnpKind::Maps(_) | UpnpKind::BehindNat => {
                let [a, b, c, _] = gateway.octets();
                format!("allow 1024-65535 {a}.{b}.{c}.0/24 1024-65535\n")
            }
        };
        std::fs::write(
            &config,
            format!(
                "ext_ifname=wan0\n\
                 listening_ip=lan0\n\
                 http_port=0\n\
                 enable_natpmp=yes\n\
                 enable_upnp=yes\n\
                 secure_mode=yes\n\
                 system_uptime=yes\n\
                 notify_interval=60\n\
                 clean_ruleset_interval=600\n\
                 uuid=3d3cec3a-8cf0-11e0-98ee-001a6bd2d07b\n\
                 upnp_table_name=miniupnpd\n\
                 upnp_nat_table_name=miniupnpd\n\
                 upnp_forward_chain=miniupnpd\n\
                 upnp_nat_chain=prerouting_miniupnpd\n\
                 upnp_nat_postrouting_chain=postrouting_miniupnpd\n\
                 {stun_lines}\
                 {allow}\
                 deny 0-65535 0.0.0.0/0 0-65535\n"
            ),
        )
        .map_err(|e| format!("writing {}: {e}", config.display()))?;
        let upnp = Upnp {
            log: config.with_extension("log"),
            config,
            stun: stun.is_some(),
            process: Mutex::new(None),
        };
        upnp.start(router_ns)?;
        Ok(upnp)
    }

    fn machine(&self, name: &str) -> &Machine {
        self.machines
            .iter()
            .find(|m| m.name == name)
            .unwrap_or_else(|| panic!("no machine {name} on this internet"))
    }

    /// The namespace the machine NAME runs in (for `Peer::start_in` / `ip netns exec`).
    pub fn ns(&self, name: &str) -> &str {
        &self.machine(name).ns
    }

    /// The namespace of NAME's router (None for a public machine).
    pub fn router_ns(&self, name: &str) -> Option<&str> {
        self.machine(name).router.as_ref().map(|r| r.ns.as_str())
    }

    /// How NAME's router translates (None for a public machine).
    pub fn nat(&self, name: &str) -> Option<Nat> {
        self.machine(name).router.as_ref().map(|r| r.nat)
    }

    /// NAME's own address (a private 10.x one behind a router).
    pub fn addr(&self, name: &str) -> Ipv4Addr {
        self.machine(name).own
    }

    /// The address the public segment sees NAME as (its router's WAN address, or its own).
    pub fn public_addr(&self, name: &str) -> Ipv4Addr {
        self.machine(name).public
    }

    /// Restart NAME's router: its NAT mappings and conntrack table flushed (and miniupnpd's
    /// mappings with it), as a home router that reboots.
    pub fn restart_router(&self, name: &str) {
        let Some(router) = &self.machine(name).router else {
            panic!("{name} is a public machine: it has no router to restart");
        };
        if let Some(upnp) = &router.upnp {
            upnp.stop();
            for chain in ["miniupnpd", "prerouting_miniupnpd", "postrouting_miniupnpd"] {
                in_ns(
                    &router.ns,
                    &["nft", "flush", "chain", "inet", "miniupnpd", chain],
                )
                .unwrap_or_else(|e| panic!("{e}"));
            }
        }
        // `conntrack -F` exits 1 when the table was already empty on some
        // versions; what matters is that it is empty now.
        let _ = in_ns(&router.ns, &["conntrack", "-F"]);
        let left = in_ns(&router.ns, &["conntrack", "-C"]).unwrap_or_else(|e| panic!("{e}"));
        eprintln!(
            "restarted {name}'s router ({} connection(s) tracked right after the flush)",
            left.trim()
        );
        if let Some(upnp) = &router.upnp {
            upnp.start(&router.ns).unwrap_or_else(|e| panic!("{e}"));
        }
    }

    /// The port mappings NAME's router's miniupnpd holds now: the DNAT
    /// rules of its prerouting chain, one line each.
    pub fn upnp_mappings(&self, name: &str) -> Vec<String> {
        let Some(router) = &self.machine(name).router else {
            panic!("{name} is a public machine: it has no router");
        };
        let chain = in_ns(
            &router.ns,
            &[
                "nft",
                "list",
                "chain",
                "inet",
                "miniupnpd",
                "prerouting_miniupnpd",
            ],
        )
        .unwrap_or_else(|e| panic!("{e}"));
        chain
            .lines()
            .filter(|l| l.contains("dnat"))
            .map(|l| l.trim().to_owned())
            .collect()
    }

    /// What NAME's router's miniupnpd logged so far.
    pub fn upnp_log(&self, name: &str) -> String {
        match self
            .machine(name)
            .router
            .as_ref()
            .and_then(|r| r.upnp.as_ref())
        {
            Some(upnp) => std::fs::read_to_string(&upnp.log).unwrap_or_default(),
            None => panic!("{name}'s router runs no miniupnpd"),
        }
    }

    /// Bytes that crossed the public interface of machine NAME so far (rx + tx, from
    /// `ip -s -j link`): how the matrix measures what went through a relay.
    pub fn public_bytes(&self, name: &str) -> u64 {
        let machine = self.machine(name);
        let (ns, dev) = match &machine.router {
            Some(router) => (router.ns.as_str(), "wan0"),
            None => (machine.ns.as_str(), "eth0"),
        };
        let json = run("ip", &["-n", ns, "-s", "-j", "link", "show", "dev", dev])
            .unwrap_or_else(|e| panic!("{e}"));
        let links: serde_json::Value =
            serde_json::from_str(&json).unwrap_or_else(|e| panic!("ip -j said {json}: {e}"));
        let stats = &links[0]["stats64"];
        let bytes = |way: &str| {
            stats[way]["bytes"]
                .as_u64()
                .unwrap_or_else(|| panic!("no {way} bytes in {json}"))
        };
        bytes("rx") + bytes("tx")
    }
}

impl Upnp {
    /// Start miniupnpd and wait until it serves: its ports open and, with
    /// STUN, port forwarding enabled (it says which in its log).
    fn start(&self, router_ns: &str) -> Result<(), String> {
        let pid_file = self.config.with_extension("pid");
        let log = std::fs::File::create(&self.log)
            .map_err(|e| format!("creating {}: {e}", self.log.display()))?;
        let mut child = Command::new("ip")
            .args(["netns", "exec", router_ns, "miniupnpd", "-d", "-f"])
            .arg(&self.config)
            .arg("-P")
            .arg(&pid_file)
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("starting miniupnpd: {e}"))?;
        let deadline = std::time::Instant::now() + UPNP_READY;
        let verdict = loop {
            let said = std::fs::read_to_string(&self.log).unwrap_or_default();
            let forwarding = !self.stun || said.contains("Port forwarding is now enabled");
            if forwarding && said.contains("HTTP listening on port") {
                break Ok(());
            }
            if let Ok(Some(status)) = child.try_wait() {
                break Err(format!("miniupnpd exited ({status}):\n{said}"));
            }
            if std::time::Instant::now() > deadline {
                break Err(format!(
                    "miniupnpd did not serve within {UPNP_READY:?}:\n{said}"
                ));
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        *self.process.lock().unwrap_or_else(|p| p.into_inner()) = Some(child);
        verdict
    }

    fn stop(&self) {
        if let Some(mut child) = self
            .process
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
        {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for Internet {
    fn drop(&mut self) {
        if let Some(mut stun) = self.stun.take() {
            let _ = stun.kill();
            let _ = stun.wait();
        }
        for machine in &self.machines {
            if let Some(router) = &machine.router {
                if let Some(upnp) = &router.upnp {
                    upnp.stop();
                }
                let _ = ip(&["netns", "del", &router.ns]);
            }
            let _ = ip(&["netns", "del", &machine.ns]);
        }
        let _ = ip(&["netns", "del", &self.segment]);
    }
}
