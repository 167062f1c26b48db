//! How long the heuristic Port Royal bot takes to decide.
//!
//! Decisions are collected from seeded 4-seat games (the heuristic bot
//! against random bots), in the base game and with the expansion, and
//! grouped by kind; criterion times `choose` on each group and a summary
//! line per game prints the mean and worst single decision.
//!
//! `cargo bench -p roundtable-bots --bench decide -- --warm-up-time 1 --measurement-time 3`

// criterion's macros generate undocumented functions.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use roundtable_bots::arena::{Decision, play_port_royal};
use roundtable_bots::{Bot, PortRoyalBot, RandomBot};
use roundtable_port_royal::{Action, Options, PortRoyal};

fn decisions(options: &Options) -> Vec<Decision> {
    let options = options.clone();
    let mut out = Vec::new();
    for g in 0..20u64 {
        let mut bots: Vec<Box<dyn Bot<PortRoyal>>> = vec![
            Box::new(PortRoyalBot::new(&options)),
            Box::new(RandomBot::new(g)),
            Box::new(PortRoyalBot::new(&options)),
            Box::new(RandomBot::new(g + 100)),
        ];
        let _ = play_port_royal(&options, g, &mut bots, &mut |d| {
            if d.legal.len() > 1 {
                out.push(d.clone());
            }
        });
    }
    out
}

fn kind(d: &Decision) -> &'static str {
    if d.legal.contains(&Action::Draw) || d.legal.contains(&Action::Stop) {
        "discover"
    } else if d.legal.contains(&Action::Repel) {
        "repel-or-keep"
    } else {
        "trade"
    }
}

fn bench(c: &mut Criterion) {
    let expansion = Options {
        expansion: true,
        ..Options::default()
    };
    for (label, options) in [("base", Options::default()), ("expansion", expansion)] {
        let all = decisions(&options);
        let mut bot = PortRoyalBot::new(&options);
        // The worst single decision, timed one by one (criterion reports
        // means). Each is timed three times and the fastest kept: on a
        // shared machine one run may be preempted, which says nothing about
        // the decision's cost.
        let (mut worst, mut total) = (0f64, 0f64);
        for d in &all {
            let t = (0..3)
                .map(|_| {
                    let start = Instant::now();
                    black_box(Bot::<PortRoyal>::choose(
                        &mut bot, d.seat, &d.view, &d.legal,
                    ));
                    start.elapsed().as_secs_f64()
                })
                .fold(f64::INFINITY, f64::min);
            worst = worst.max(t);
            total += t;
        }
        println!(
            "heuristic bot, {label}: {} decisions, mean {:.1} us, worst {:.1} us",
            all.len(),
            total / all.len() as f64 * 1e6,
            worst * 1e6
        );
        for k in ["discover", "repel-or-keep", "trade"] {
            let group: Vec<&Decision> = all.iter().filter(|d| kind(d) == k).collect();
            if group.is_empty() {
                continue;
            }
            let mut i = 0;
            c.bench_function(&format!("choose/{label}/{k}"), |b| {
                b.iter(|| {
                    let d = group[i % group.len()];
                    i += 1;
                    black_box(Bot::<PortRoyal>::choose(
                        &mut bot, d.seat, &d.view, &d.legal,
                    ))
                })
            });
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
