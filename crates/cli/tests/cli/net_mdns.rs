//! LAN discovery: a host announces its open table, and `roundtable join`
//! with no ticket finds it by mDNS and prints it with its ticket.
//!
//! mDNS needs a multicast-capable interface that is up and has an IPv4
//! address: libp2p's mDNS never uses the loopback interface, and a host
//! only advertises the addresses it listens on that belong to the
//! interface the query came in on. The host therefore listens on every
//! interface (`0.0.0.0`); both processes run on this machine and the
//! kernel loops the multicast packets back to every socket that joined the
//! group. A machine may have no such interface, so the test is ignored by
//! default: `.ci/run` runs it with `--ignored`, and then a machine without
//! one fails it, saying why.

use crate::net_support;

use std::time::Duration;

use net_support::*;

/// The first interface that is up, not loopback, multicast-capable and has
/// an IPv4 address (`ip -4 -o addr` lists only those with one).
fn multicast_interface() -> Option<String> {
    const IFF_UP: u32 = 0x1;
    const IFF_LOOPBACK: u32 = 0x8;
    const IFF_MULTICAST: u32 = 0x1000;
    let out = std::process::Command::new("ip")
        .args(["-4", "-o", "addr", "show"])
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines()
        .filter_map(|l| l.split_whitespace().nth(1).map(str::to_owned))
        .find(|name| {
            let flags = std::fs::read_to_string(format!("/sys/class/net/{name}/flags"))
                .ok()
                .and_then(|f| u32::from_str_radix(f.trim().trim_start_matches("0x"), 16).ok())
                .unwrap_or(0);
            flags & IFF_UP != 0 && flags & IFF_LOOPBACK == 0 && flags & IFF_MULTICAST != 0
        })
}

#[test]
#[ignore = "needs a multicast-capable interface; .ci/run runs this with --ignored"]
fn join_without_a_ticket_lists_a_table_found_by_mdns() {
    let Some(iface) = multicast_interface() else {
        panic!(
            "no interface here is up, multicast-capable and has an IPv4 address \
             (libp2p mDNS does not use loopback), so LAN discovery cannot be tested"
        );
    };
    eprintln!("mDNS over {iface}");
    let dir = tempfile::tempdir().unwrap();
    // A name no other test's table has: other tests may run at once.
    let name = format!("mdns-host-{}", std::process::id());
    let ticket_file = dir.path().join("ticket.txt");
    let host = Peer::start(
        "mdns host",
        &[
            "host",
            "--seats",
            "2",
            "--headless",
            "--bot",
            "random",
            "--data-dir",
            &dir.path().join("host").display().to_string(),
            "--name",
            &name,
            "--listen",
            "/ip4/0.0.0.0/tcp/0",
            "--sync-ms",
            "300",
            "--ticket-file",
            &ticket_file.display().to_string(),
        ]
        .map(String::from),
    );
    let ticket = read_ticket(&ticket_file, Duration::from_secs(20));
    // mDNS probes at 0.5, 1, 2, 4 s...: ten seconds leave room for a
    // busy machine.
    let mut lister = Peer::start(
        "lister",
        &[
            "join",
            "--data-dir",
            &dir.path().join("lister").display().to_string(),
            "--listen",
            "/ip4/127.0.0.1/tcp/0",
            "--wait-secs",
            "10",
        ]
        .map(String::from),
    );
    assert!(
        lister.wait(Duration::from_secs(40)).success(),
        "join failed"
    );
    let out = lister.output();
    let at = out
        .iter()
        .position(|l| l.contains(&format!("{name}'s table: port-royal, 1/2 seats taken")))
        .unwrap_or_else(|| panic!("the table was not listed:\n{}", out.join("\n")));
    // The listing gives the command that joins (the host may have
    // re-issued its ticket since the file was written, as its addresses
    // came up, so only the form is compared).
    let next = out.get(at + 1).map(|l| l.trim()).unwrap_or_default();
    assert!(
        next.starts_with("roundtable join rt1_"),
        "no join command under the table: {next:?}"
    );
    assert!(ticket.starts_with("rt1_"));
    drop(host);
}
