//! One RK4 step on a 10,000-dimensional system (5,000 unit masses on a ring of
//! springs, state (x, v) each), against one derivative evaluation of the same system:
//! the step should cost about four evaluations plus the vector arithmetic of the
//! stages.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use criterion::{Criterion, criterion_group, criterion_main};
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::{OdeSystem, VectorField};
use pbm_ode::tableau::RK4;
use std::hint::black_box;

const MASSES: usize = 5_000;
const STIFFNESS: f64 = 100.0;

/// x_i' = v_i, v_i' = k (x_{i+1} − 2 x_i + x_{i−1}) on a ring.
fn ring_derivative(_t: f64, s: &[f64], d: &mut [f64]) {
    let (x, v) = s.split_at(MASSES);
    let (dx, dv) = d.split_at_mut(MASSES);
    dx.copy_from_slice(v);
    for i in 0..MASSES {
        let left = x[(i + MASSES - 1) % MASSES];
        let right = x[(i + 1) % MASSES];
        dv[i] = STIFFNESS * (left - 2.0 * x[i] + right);
    }
}

fn ring() -> impl OdeSystem {
    let x0: Vec<f64> = (0..2 * MASSES)
        .map(|i| if i < MASSES { (i as f64 * 0.01).sin() } else { 0.0 })
        .collect();
    VectorField::new(&x0, 0.0, ring_derivative).expect("finite initial state")
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("ode_10k");
    let mut system = ring();
    let mut xdot = vec![0.0; system.dimension()];
    group.bench_function("derivative_evaluation", |b| {
        b.iter(|| system.derivative(black_box(&mut xdot)))
    });
    let mut system = ring();
    let mut rk4 = RungeKutta::new(RK4);
    group.bench_function("rk4_step", |b| {
        b.iter(|| rk4.step(&mut system, black_box(1e-3)).expect("stable step"))
    });
    group.finish();
}

criterion_group!(rk4_step, benches);
criterion_main!(rk4_step);
