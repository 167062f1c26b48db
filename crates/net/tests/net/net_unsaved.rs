//! A peer that cannot save the files a restart needs (the peers'
//! addresses, where it listened) plays on and says so, instead of leaving
//! `roundtable resume` quietly without them.

use std::time::Duration;

use roundtable_bots::RandomBot;
use roundtable_net::{Controller, DataDir, NetEvent, NodeConfig, Role, Timing, spawn};
use roundtable_port_royal::{Options, PortRoyal};

use crate::common;

fn config(dir: &std::path::Path, name: &str) -> NodeConfig {
    let mut c = NodeConfig::new(DataDir::new(dir.join(name)), name);
    c.listen = vec!["/ip4/127.0.0.1/tcp/0".parse().unwrap()];
    c.mdns = false;
    c.timing = Timing {
        bot_delay: Duration::from_millis(5),
        sync_interval: Duration::from_millis(200),
        redial: Duration::from_millis(500),
        ..Timing::default()
    };
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failures_to_save_a_restarts_files_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = spawn::<PortRoyal>(
        config(dir.path(), "host"),
        Role::Host {
            seats: 2,
            options: Options::default(),
            stall_timeout_ms: 30_000,
        },
        Controller::Bot(Box::new(RandomBot::new(1))),
    )
    .unwrap();
    let ticket = common::ticket_of(&mut host).await;

    // The joiner's `peers` and `listen` files cannot be written: a folder
    // with something in it stands where each would be renamed to.
    let joiner_data = DataDir::new(dir.path().join("joiner"));
    for file in ["peers", "listen"] {
        let blocker = joiner_data.game_dir(&ticket.lobby).join(file);
        std::fs::create_dir_all(blocker.join("in the way")).unwrap();
    }
    let joiner = spawn::<PortRoyal>(
        config(dir.path(), "joiner"),
        Role::Join { ticket },
        Controller::Bot(Box::new(RandomBot::new(2))),
    )
    .unwrap();

    let host_task = tokio::spawn(async move {
        let (mut events, h) = host.split();
        while events.recv().await.is_some() {}
        h.outcome().await
    });
    let (mut events, joiner) = joiner.split();
    let mut notes = Vec::new();
    let played = tokio::time::timeout(Duration::from_secs(120), async {
        while let Some(event) = events.recv().await {
            if let NetEvent::Note(n) = event {
                notes.push(n);
            }
        }
        joiner.outcome().await
    })
    .await
    .expect("the game finishes")
    .unwrap();
    assert!(
        played.result.is_some(),
        "the joiner did not finish: {played:?}"
    );
    host_task.await.unwrap().unwrap();

    for what in ["the peers' addresses", "the listen addresses"] {
        let told: Vec<&String> = notes
            .iter()
            .filter(|n| n.starts_with(&format!("could not save {what}")))
            .collect();
        assert_eq!(told.len(), 1, "{what}: told {told:?} among {notes:?}");
    }
}
