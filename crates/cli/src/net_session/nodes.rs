//! How long the nodes behind a screen live: bots started beside it that
//! say nothing, and a short grace for the nodes to stop when it closes.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use roundtable_bots::Bot;
use roundtable_games::Listed;
use roundtable_net::{Controller, GameHandle, NodeConfig, Role, spawn};

/// Ends when a node has stopped (its snapshot sender is gone), whichever
/// game it plays: the launcher keeps the ends of every table it started.
pub(crate) struct NodeEnd {
    stopped: Pin<Box<dyn Future<Output = ()> + Send>>,
    probe: Box<dyn Fn() -> bool + Send>,
}

impl NodeEnd {
    /// The end of the node behind `handle`.
    pub(crate) fn of<G: Listed>(handle: &GameHandle<G>) -> NodeEnd {
        let mut changes = handle.watch();
        let probe = handle.watch();
        NodeEnd {
            stopped: Box::pin(async move { while changes.changed().await.is_ok() {} }),
            probe: Box::new(move || probe.has_changed().is_err()),
        }
    }

    /// Wait until the node has stopped.
    pub(crate) async fn stopped(self) {
        self.stopped.await;
    }

    /// Whether the node has stopped already.
    pub(crate) fn is_stopped(&self) -> bool {
        (self.probe)()
    }
}

/// How long a program that quits waits for its nodes to stop.
const STOP_GRACE: Duration = Duration::from_secs(2);

/// Shut a runtime down once the nodes that were told to stop have finished
/// what they say on the way out (a joiner tells the host it leaves), for at
/// most [`STOP_GRACE`]: dropping a runtime cancels its tasks mid-sentence.
pub(crate) fn shut_down(rt: tokio::runtime::Runtime, ends: Vec<NodeEnd>) {
    rt.block_on(async {
        let all = async {
            for end in ends {
                end.stopped().await;
            }
        };
        let _ = tokio::time::timeout(STOP_GRACE, all).await;
    });
    rt.shutdown_timeout(Duration::from_millis(200));
}

/// Start bots in `role` (joining a ticket, or resuming a game), one peer
/// each, without a word on the terminal (a terminal UI owns the screen: a
/// printed line would tear it). Their events are drained; the handles stop
/// them ([`super::NetSession`] does as it ends). If one cannot start, those started
/// are stopped.
pub(crate) fn start_quiet_bots<G: Listed>(
    rt: &tokio::runtime::Runtime,
    bots: Vec<(NodeConfig, Box<dyn Bot<G>>)>,
    role: &dyn Fn() -> Role<G>,
) -> anyhow::Result<Vec<GameHandle<G>>> {
    let _inside = rt.enter();
    let mut handles: Vec<GameHandle<G>> = Vec::new();
    for (config, bot) in bots {
        let name = config.name.clone();
        match spawn::<G>(config, role(), Controller::Bot(bot)) {
            Ok(h) => {
                let (mut events, h) = h.split();
                rt.spawn(async move { while events.recv().await.is_some() {} });
                handles.push(h);
            }
            Err(e) => {
                handles.iter().for_each(GameHandle::shutdown);
                anyhow::bail!("{name} could not start: {e}");
            }
        }
    }
    Ok(handles)
}
