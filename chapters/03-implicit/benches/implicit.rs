//! One backward Euler step of the pinned sheet (block-sparse assembly +
//! preconditioned CG) for n = 32, 64 and 128 particles along a side. The step's
//! linear solve beside faer's sparse Cholesky factorization is in the production
//! benchmarks (`cargo bench -p pbm-bench`).

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use criterion::{Criterion, criterion_group, criterion_main};
use pbm_implicit::sheet::sheet;

const H: f64 = 1.0 / 30.0;

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("implicit");
    group.sample_size(10);
    for n in [32, 64, 128] {
        group.bench_function(format!("sheet_backward_euler_step_n{n}"), |b| {
            b.iter_batched(
                || sheet(n, 1000.0).expect("valid sheet"),
                |mut model| model.backward_euler_step(H).expect("stable step"),
                criterion::BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(implicit, benches);
criterion_main!(implicit);
