//! One backward Euler step of the pinned sheet (block-sparse assembly +
//! preconditioned CG) for n = 32, 64 and 128 particles along a side; and the step's
//! linear solve alone, by our CG and by faer's sparse Cholesky factorization
//! (symbolic + numeric + solve), on the same system.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use criterion::{Criterion, criterion_group, criterion_main};
use faer::prelude::Solve;
use faer::sparse::{SparseColMat, Triplet};
use faer::{Mat, Side};
use pbm_implicit::cg::solve_pcg;
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
    for n in [32, 64] {
        // The system of a sheet that has been falling for 10 frames: stretched
        // springs.
        let mut model = sheet(n, 1000.0).expect("valid sheet");
        for _ in 0..10 {
            model.backward_euler_step(H).expect("stable step");
        }
        let (a, _) = model.system_matrices(H, None).expect("assembled");
        let size = 3 * n * n;
        let b: Vec<f64> =
            (0..size).map(|i| ((i * 7919) % 1000) as f64 / 1000.0 - 0.5).collect();
        group.bench_function(format!("solve_pcg_n{n}"), |bench| {
            bench.iter(|| {
                let mut x = vec![0.0; size];
                solve_pcg(&a, &b, &mut x, 1e-10, 100_000).expect("converges")
            })
        });
        let triplets: Vec<Triplet<usize, usize, f64>> = a
            .entries()
            .into_iter()
            .map(|(r, c, v)| Triplet { row: r, col: c, val: v })
            .collect();
        let sparse =
            SparseColMat::<usize, f64>::try_new_from_triplets(size, size, &triplets)
                .expect("valid triplets");
        group.bench_function(format!("solve_faer_cholesky_n{n}"), |bench| {
            bench.iter(|| {
                let llt = sparse.sp_cholesky(Side::Lower).expect("positive definite");
                let mut rhs = Mat::from_fn(size, 1, |i, _| b[i]);
                llt.solve_in_place(rhs.as_mut());
                rhs
            })
        });
    }
    group.finish();
}

criterion_group!(implicit, benches);
criterion_main!(implicit);
