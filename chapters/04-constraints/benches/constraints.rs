//! The constraint-force solve of a hanging chain of 1,000 rods, three ways: our
//! preconditioned CG on the unformed J W Jᵀ; a dense Cholesky factorization of the
//! formed matrix (nalgebra); and faer's sparse Cholesky of the formed matrix
//! (symbolic + numeric + solve). Also one whole derivative evaluation (forces,
//! assembly, CG, scatter) for 10, 100 and 1,000 rods.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use criterion::{Criterion, criterion_group, criterion_main};
use faer::prelude::Solve;
use faer::sparse::{SparseColMat, Triplet};
use faer::{Mat, Side};
use nalgebra::{DMatrix, DVector};
use pbm_constraints::models::Chain;
use pbm_constraints::system::{
    ConstrainedSystem, default_iterations, solve_multipliers,
};
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::OdeSystem;
use pbm_ode::tableau::RK4;

/// A chain of `links` rods that has been falling for 20 steps of 1 ms, so it is
/// moving.
fn moving_chain(links: usize) -> ConstrainedSystem<2> {
    let chain = Chain { links, length: 0.1, mass: 0.1 };
    let mut system = chain.with_rods().expect("valid chain");
    let mut stepper = RungeKutta::new(RK4);
    for _ in 0..20 {
        stepper.step(&mut system, 1e-3).expect("stable step");
    }
    system
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("constraints");
    group.sample_size(10);
    let mut system = moving_chain(1000);
    system.particles.accumulate_forces().unwrap();
    let (w, rhs) = system.assemble().unwrap();
    let j = system.jacobian().clone();
    let m = rhs.len();
    group.bench_function("cg_unformed_1000_rods", |b| {
        b.iter(|| {
            let mut lambda = vec![0.0; m];
            solve_multipliers(
                &j,
                &w,
                &rhs,
                &mut lambda,
                (1e-12, default_iterations(rhs.len())),
            )
            .expect("converges")
        })
    });
    let jd = j.to_dense();
    let jwjt: DMatrix<f64> =
        &jd * DMatrix::from_diagonal(&DVector::from_vec(w.clone())) * jd.transpose();
    group.bench_function("dense_cholesky_1000_rods", |b| {
        b.iter(|| {
            let llt = jwjt.clone().cholesky().expect("positive definite");
            llt.solve(&DVector::from_vec(rhs.clone()))
        })
    });
    let triplets: Vec<Triplet<usize, usize, f64>> = (0..m)
        .flat_map(|r| (0..m).map(move |c| (r, c)))
        .filter(|&(r, c)| jwjt[(r, c)] != 0.0)
        .map(|(r, c)| Triplet { row: r, col: c, val: jwjt[(r, c)] })
        .collect();
    let sparse = SparseColMat::<usize, f64>::try_new_from_triplets(m, m, &triplets)
        .expect("valid triplets");
    group.bench_function("faer_sparse_cholesky_1000_rods", |b| {
        b.iter(|| {
            let llt = sparse.sp_cholesky(Side::Lower).expect("positive definite");
            let mut x = Mat::from_fn(m, 1, |i, _| rhs[i]);
            llt.solve_in_place(x.as_mut());
            x
        })
    });
    for links in [10, 100, 1000] {
        let mut system = moving_chain(links);
        let mut xdot = vec![0.0; system.dimension()];
        group.bench_function(format!("derivative_{links}_rods"), |b| {
            b.iter(|| system.derivative(&mut xdot))
        });
    }
    group.finish();
}

criterion_group!(constraints, benches);
criterion_main!(constraints);
