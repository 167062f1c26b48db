//! What the network tests share.

use roundtable_net::{GameHandle, NetEvent, Ticket};
use roundtable_port_royal::PortRoyal;

/// The ticket a host hands out, read from its events (earlier events are
/// dropped). Panics if the host stops first.
pub(crate) async fn ticket_of(host: &mut GameHandle<PortRoyal>) -> Ticket {
    loop {
        match host.next_event().await {
            Some(NetEvent::Ticket(t)) => return t,
            Some(_) => {}
            None => panic!("the host stopped"),
        }
    }
}
