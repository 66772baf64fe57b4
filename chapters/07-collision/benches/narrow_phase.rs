//! The narrow phase between convex polyhedra: the separating axes against GJK (and
//! EPA where the pair overlaps) on the same random pairs of boxes and of hulls, and
//! over the tumbling cube's pass, the cached separating plane against GJK's cached
//! nearest direction.

#![allow(clippy::unwrap_used)] // a benchmark that unwraps fails with the error's message

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use pbm_collision::gjk::{NearestCache, Proximity, epa, gjk};
use pbm_collision::polyhedron::{ConvexPolyhedron, PlaneCache, separation};
use pbm_collision::scenes::{SolidKind, TumblingPass, random_pair};
use std::hint::black_box;

/// How many random pairs each iteration runs through.
const PAIRS: u64 = 100;

fn pairs(kind: SolidKind) -> Vec<(ConvexPolyhedron, ConvexPolyhedron)> {
    (0..PAIRS).map(|seed| random_pair(seed, kind).unwrap()).collect()
}

fn narrow_phase(c: &mut Criterion) {
    let mut group = c.benchmark_group("narrow-phase");
    for (name, kind) in [("boxes", SolidKind::Box), ("hulls", SolidKind::Hull)] {
        let pairs = pairs(kind);
        group.bench_with_input(
            BenchmarkId::new("sat", name),
            &pairs,
            |bench, pairs| {
                bench.iter(|| {
                    for (a, b) in pairs {
                        black_box(separation(a, b));
                    }
                });
            },
        );
        group.bench_with_input(
            BenchmarkId::new("gjk-epa", name),
            &pairs,
            |bench, pairs| {
                bench.iter(|| {
                    for (a, b) in pairs {
                        let found = gjk(a, b);
                        if let Proximity::Overlapping { simplex } = &found.proximity {
                            black_box(epa(a, b, simplex));
                        }
                        black_box(found);
                    }
                });
            },
        );
    }
    // The whole pass, each body placed beforehand, with a fresh cache each time.
    let pass = TumblingPass::BOOK;
    let fixed = TumblingPass::cube().unwrap();
    let bodies: Vec<ConvexPolyhedron> =
        (0..pass.steps).map(|k| pass.moving(&fixed, k)).collect();
    let epsilon = 1e-3;
    group.bench_function(BenchmarkId::new("sat-witness", "tumbling"), |bench| {
        bench.iter(|| {
            let mut cache = PlaneCache::default();
            for body in &bodies {
                black_box(cache.test(&fixed, body, epsilon));
            }
        });
    });
    group.bench_function(BenchmarkId::new("gjk-nearest", "tumbling"), |bench| {
        bench.iter(|| {
            let mut cache = NearestCache::default();
            for body in &bodies {
                black_box(cache.test(&fixed, body, epsilon));
            }
        });
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = narrow_phase
}
criterion_main!(benches);
