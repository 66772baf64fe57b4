//! The chapter's scenes, each built and run for two simulated seconds on one core:
//! the feeder with eight blocks (the exercise's) and with four (the live demo's),
//! turned by the scripted hand, the double-action jack pumped by it, the pile of
//! twenty polygons, and the piles of twenty and fifty by sequential impulses (ten
//! sweeps a substep). The table reports
//! simulated seconds per second of wall time: above 1, faster than real time.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use criterion::{Criterion, criterion_group, criterion_main};
use pbm_interactive::scenes::{Feeder, Jack, Pile};
use pbm_interactive::world::{Settings, Solver};

/// Simulated time of every run (s).
const SECONDS: f64 = 2.0;

fn settings() -> Settings {
    Settings { friction: 0.3, restitution: 0.1, ..Settings::default() }
}

fn feed(feeder: &Feeder) -> usize {
    let mut world = feeder.build(settings()).unwrap();
    while world.time() < SECONDS - 1e-12 {
        feeder.step(&mut world).unwrap();
    }
    world.stats().steps
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("interactive");
    group.sample_size(10);
    for blocks in [8, 4] {
        let feeder = Feeder { blocks, ..Feeder::BOOK };
        group.bench_function(format!("feeder_{blocks}_blocks_2_s"), |b| {
            b.iter(|| feed(&feeder))
        });
    }
    group.bench_function("jack_2_s", |b| {
        b.iter(|| {
            let jack = Jack::BOOK;
            let mut world = jack.build(settings()).unwrap();
            while world.time() < SECONDS - 1e-12 {
                jack.step(&mut world).unwrap();
            }
            world.stats().steps
        })
    });
    let piles = [
        ("pile_20_2_s", 20, Solver::Exact),
        ("pile_20_sequential_2_s", 20, Solver::SequentialImpulses { sweeps: 10 }),
        ("pile_50_sequential_2_s", 50, Solver::SequentialImpulses { sweeps: 10 }),
    ];
    for (id, count, solver) in piles {
        group.bench_function(id, |b| {
            b.iter(|| {
                let pile = Pile { count, ..Pile::BOOK };
                let mut world =
                    pile.build(Settings { solver, ..settings() }).unwrap();
                world.run_until(SECONDS, |_| {}).unwrap();
                world.stats().steps
            })
        });
    }
    group.finish();
}

criterion_group!(interactive, benches);
criterion_main!(interactive);
