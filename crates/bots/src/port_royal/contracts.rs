//! "Just One More Contract" as the heuristic sees it: the face-up
//! contracts this seat can still complete, and what each pays.

use roundtable_engine::Seat;
use roundtable_port_royal::View;
use roundtable_port_royal::contracts::{CONTRACT_VP, ContractId, Requirement};

use super::VP_IN_COINS;

/// A face-up contract this seat can still complete.
#[derive(Clone, Copy, Debug)]
pub(super) struct Open {
    pub(super) requirement: Requirement,
    /// What completing it now pays, in coins: the next space's coins and
    /// the points of this seat's next contract.
    pub(super) reward: f64,
    /// Times its requirement was met so far (a progress cube's space).
    pub(super) step: u8,
}

/// The contracts this seat can still complete, read from the view.
#[derive(Clone, Debug, Default)]
pub(super) struct Contracts {
    pub(super) open: Vec<Open>,
    /// Cubes not yet on a contract.
    pub(super) free_cubes: u32,
    /// Colours of the ships this seat keeps aside for Pack of Pirates.
    pub(super) kept_aside: u8,
}

impl Contracts {
    pub(super) fn of(view: &View, seat: Seat, coin_value: f64) -> Contracts {
        let (Some(x), Some(me)) = (&view.expansion, view.players.get(seat.index())) else {
            return Contracts::default();
        };
        let i = seat.index();
        let free_cubes = x.cubes.get(i).copied().unwrap_or(0);
        let kept_aside = x
            .kept_aside
            .get(i)
            .into_iter()
            .flatten()
            .filter_map(|c| c.0.ship_colour())
            .fold(0u8, |m, c| m | c.bit());
        // The 4th contract earns nothing: every cube is on one already.
        let Some(&vp) = CONTRACT_VP.get(me.contracts.len()) else {
            return Contracts::default();
        };
        let progress = x.progress.get(i);
        let open = x
            .contract_status
            .iter()
            .filter(|c| !c.completed_by.iter().any(|s| s.0 == seat))
            .filter_map(|c| {
                let step = progress
                    .into_iter()
                    .flatten()
                    .find(|p| p.contract == c.name)
                    .map_or(0, |p| p.step);
                // Without a free cube only a contract holding one of this
                // seat's progress cubes can still be completed.
                (free_cubes > 0 || step > 0).then_some(())?;
                Some(Open {
                    requirement: ContractId::parse(&c.name)?.requirement(),
                    reward: f64::from(c.next_coins) * coin_value + f64::from(vp) * VP_IN_COINS,
                    step,
                })
            })
            .collect();
        Contracts {
            open,
            free_cubes,
            kept_aside,
        }
    }
}
