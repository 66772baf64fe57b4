//! One derivative evaluation (force accumulation and d/dt of the 13-number state) for
//! 10,000 bodies stored with quaternions, on one thread and on two; one full RK4 step
//! of the same system; and the exact mass properties of a 9,800-triangle sphere mesh.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use nalgebra::Vector3;
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::OdeSystem;
use pbm_ode::tableau::RK4;
use pbm_particles::forces::G;
use pbm_rigid::body::{Gravity, RigidSystem};
use pbm_rigid::mass::MassProperties;
use pbm_rigid::mesh::uv_sphere;
use pbm_rigid::scenes::scattered_blocks;

fn bodies(n: u64) -> RigidSystem {
    let bodies = scattered_blocks(n, 100.0).expect("valid blocks");
    let mut system = RigidSystem::new(bodies).expect("one representation");
    system
        .add_force(Gravity { g: Vector3::new(0.0, -G, 0.0) })
        .expect("gravity acts on all");
    system
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("rigid");
    group.throughput(Throughput::Elements(10_000));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool");
        let mut system = bodies(10_000);
        let mut ydot = vec![0.0; system.dimension()];
        group.bench_function(
            format!("derivative_10000_bodies_{threads}_threads"),
            |b| b.iter(|| pool.install(|| system.derivative(&mut ydot))),
        );
        let mut rk4 = RungeKutta::new(RK4);
        group.bench_function(
            format!("rk4_step_10000_bodies_{threads}_threads"),
            |b| {
                b.iter(|| {
                    pool.install(|| rk4.step(&mut system, 1e-3).expect("finite"))
                })
            },
        );
    }
    let sphere = uv_sphere(1.0, 50, 100).expect("closed mesh");
    group.throughput(Throughput::Elements(sphere.triangles().len() as u64));
    group.bench_function("polyhedral_mass_properties_9800_triangles", |b| {
        b.iter(|| MassProperties::polyhedron(&sphere, 1.0).expect("valid"))
    });
    group.finish();
}

criterion_group!(rigid, benches);
criterion_main!(rigid);
