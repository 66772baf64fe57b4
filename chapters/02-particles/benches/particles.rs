//! Heavy kernels of chapter 2: one derivative evaluation of 100,000 interacting
//! particles (uniform grid, rayon, on 1 and on 2 threads), brute force on a smaller
//! set for the ratio, and one derivative evaluation of a 200 × 200 spring lattice.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use nalgebra::Vector2;
use pbm_ode::system::OdeSystem;
use pbm_particles::interaction::{
    PairLaw, SpatialInteraction, brute_force_forces, grid_forces, scattered_points,
};
use pbm_particles::particle::{Particle, ParticleSystem};
use pbm_particles::spring::DampedSpring;
use std::hint::black_box;

fn law() -> PairLaw {
    PairLaw::new(10.0, 0.1, 0.25).expect("valid law")
}

fn interacting(n: usize) -> ParticleSystem<2> {
    let particles = scattered_points(n, 0.1 * (n as f64).sqrt())
        .into_iter()
        .map(|x| Particle::new(1.0, x, Vector2::zeros()).expect("valid particle"))
        .collect();
    let mut system = ParticleSystem::new(particles);
    system.add_force(SpatialInteraction { law: law() }).expect("no indices");
    system
}

fn lattice(side: usize) -> ParticleSystem<2> {
    let mut particles = Vec::with_capacity(side * side);
    for i in 0..side {
        for j in 0..side {
            let x = Vector2::new(i as f64 * 0.01, j as f64 * 0.01);
            particles.push(
                Particle::new(0.001, x, Vector2::zeros()).expect("valid particle"),
            );
        }
    }
    let mut system = ParticleSystem::new(particles);
    let id = |i: usize, j: usize| i * side + j;
    for i in 0..side {
        for j in 0..side {
            let mut link = |a: usize, b: usize| {
                let s = DampedSpring::at_rest(&system.particles, a, b, 100.0, 0.1)
                    .expect("spring");
                system.add_force(s).expect("indices exist");
            };
            if i + 1 < side {
                link(id(i, j), id(i + 1, j));
            }
            if j + 1 < side {
                link(id(i, j), id(i, j + 1));
            }
            if i + 1 < side && j + 1 < side {
                link(id(i, j), id(i + 1, j + 1));
                link(id(i + 1, j), id(i, j + 1));
            }
        }
    }
    system
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("particles");
    group.sample_size(10);
    let n = 100_000;
    group.throughput(Throughput::Elements(n as u64));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool");
        let mut system = interacting(n);
        let mut xdot = vec![0.0; system.dimension()];
        group
            .bench_function(format!("grid_derivative_100k_{threads}_threads"), |b| {
                b.iter(|| pool.install(|| system.derivative(black_box(&mut xdot))))
            });
    }
    let small = 10_000;
    let x = scattered_points(small, 0.1 * (small as f64).sqrt());
    group.throughput(Throughput::Elements(small as u64));
    group.bench_function("grid_forces_10k", |b| {
        b.iter(|| grid_forces(&law(), black_box(&x)))
    });
    group.bench_function("brute_forces_10k", |b| {
        b.iter(|| brute_force_forces(&law(), black_box(&x)))
    });
    let side = 200;
    let mut sheet = lattice(side);
    let mut xdot = vec![0.0; sheet.dimension()];
    group.throughput(Throughput::Elements((side * side) as u64));
    group.bench_function("lattice_derivative_200x200", |b| {
        b.iter(|| sheet.derivative(black_box(&mut xdot)))
    });
    group.finish();
}

criterion_group!(particles, benches);
criterion_main!(particles);
