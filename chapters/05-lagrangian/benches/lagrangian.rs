//! One derivative evaluation of the double pendulum both ways: 2 angles and a 2 × 2
//! Cholesky solve (this chapter), against 4 particle coordinates, constraint
//! evaluation and a CG solve for 2 multipliers (chapter 4).

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use criterion::{Criterion, criterion_group, criterion_main};
use pbm_constraints::scenes::double_pendulum;
use pbm_lagrangian::scenes::angular_double_pendulum;
use pbm_ode::system::OdeSystem;

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("lagrangian");
    let mut angles = angular_double_pendulum().expect("valid model");
    let mut xdot = vec![0.0; 4];
    group.bench_function("double_pendulum_derivative_angles", |b| {
        b.iter(|| angles.derivative(&mut xdot))
    });
    let mut particles = double_pendulum().expect("valid model");
    let mut xdot = vec![0.0; 8];
    group.bench_function("double_pendulum_derivative_constraints", |b| {
        b.iter(|| particles.derivative(&mut xdot))
    });
    group.finish();
}

criterion_group!(lagrangian, benches);
criterion_main!(lagrangian);
