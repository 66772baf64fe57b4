//! The contact solver's cost: one LCP solve against the number of contacts, from
//! scratch and warm-started from the last step's answer, and one step of the stack of
//! ten boxes.

#![allow(clippy::unwrap_used)] // a benchmark that unwraps fails with the error's message

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use pbm_contact::lcp::{Bounds, Kind, random_problem, solve, solve_warm};
use pbm_contact::scenes::run_stack;
use pbm_contact::world::Settings;
use std::hint::black_box;

/// The sizes timed: contacts in one solve.
const SIZES: [usize; 5] = [5, 10, 20, 40, 80];

fn lcp(c: &mut Criterion) {
    let mut group = c.benchmark_group("lcp");
    for n in SIZES {
        let (a, b) = random_problem(Kind::Definite, n, 7);
        group.bench_with_input(BenchmarkId::new("cold", n), &n, |bench, _| {
            bench.iter(|| black_box(solve(&a, &b).unwrap()));
        });
        // The next step's problem: the same contacts, b moved by 0.1 %.
        let previous = solve(&a, &b).unwrap();
        let (_, nudge) = random_problem(Kind::Definite, n, 8);
        let next = &b + nudge * (1e-3 * b.amax());
        let bounds = Bounds::contacts(n);
        let (_, held) = solve_warm(&a, &next, &bounds, &previous).unwrap();
        assert!(held, "the warm start should hold for a 0.1 % change at n = {n}");
        group.bench_with_input(BenchmarkId::new("warm", n), &n, |bench, _| {
            bench.iter(|| {
                black_box(solve_warm(&a, &next, &bounds, &previous).unwrap())
            });
        });
    }
    group.finish();
}

fn stack(c: &mut Criterion) {
    let mut group = c.benchmark_group("contact-stack");
    for (name, warm) in [("warm", true), ("cold", false)] {
        let settings = Settings { friction: 0.5, ..Settings::default() };
        // Start from a stack that has already rested for a second.
        let (mut world, drift, _) = run_stack(10, 1.0, settings).unwrap();
        assert!(drift < 1e-6, "the stack moved {drift} m before timing");
        world.set_warm_start(warm);
        group.bench_function(BenchmarkId::new(name, 10), |bench| {
            bench.iter(|| black_box(world.step().unwrap()));
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = lcp, stack
}
criterion_main!(benches);
