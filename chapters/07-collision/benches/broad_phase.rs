//! The broad phase on Baraff's Table 1 scene: one step's changes in overlap status for
//! n = 100 … 3,200 moving boxes, by the coherent sweep, by a full sort-and-sweep and
//! by brute force.

#![allow(clippy::unwrap_used)] // a benchmark that unwraps fails with the error's message

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use pbm_collision::aabb::Aabb;
use pbm_collision::scenes::coherent_frames;
use pbm_collision::sweep::{CoherentSweep, brute_force_pairs, sort_and_sweep_pairs};
use std::hint::black_box;

/// 64 consecutive steps of Table 1's scene, then the same steps backwards.
fn frames(n: usize) -> Vec<Vec<Aabb<2>>> {
    coherent_frames(n, 0.05, 64).unwrap()
}

fn broad_phase(c: &mut Criterion) {
    let mut group = c.benchmark_group("broad-phase");
    for n in [100, 200, 400, 800, 1600, 3200] {
        let frames = frames(n);
        let mut sweep = CoherentSweep::new(&frames[0]).unwrap();
        let mut k = 0;
        group.bench_with_input(BenchmarkId::new("coherent", n), &n, |b, _| {
            b.iter(|| {
                k = (k + 1) % frames.len();
                black_box(sweep.update(&frames[k]).unwrap());
            });
        });
        let mut k = 0;
        group.bench_with_input(BenchmarkId::new("resort", n), &n, |b, _| {
            b.iter(|| {
                k = (k + 1) % frames.len();
                black_box(sort_and_sweep_pairs(&frames[k]).unwrap());
            });
        });
        let mut k = 0;
        group.bench_with_input(BenchmarkId::new("brute", n), &n, |b, _| {
            b.iter(|| {
                k = (k + 1) % frames.len();
                black_box(brute_force_pairs(&frames[k]));
            });
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = broad_phase
}
criterion_main!(benches);
