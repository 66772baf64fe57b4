//! One implicit step of the 50 × 50 drape (2,500 particles) just after it lands,
//! with the projected and the Gauss–Newton Hessian; and that step's linear solve
//! alone by our block-Jacobi CG. faer's sparse Cholesky factorization of the same
//! system is timed beside it in the production benchmarks (`cargo bench -p pbm-bench`).

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use criterion::{Criterion, criterion_group, criterion_main};
use pbm_cloth::cloth::{Cloth, Material};
use pbm_cloth::energy::Curvature;
use pbm_cloth::scenes::{Scene, cloth};
use pbm_implicit::cg::solve_pcg;

const H: f64 = 1.0 / 30.0;
const N: usize = 50;

/// The drape after 10 steps (a third of a second): landed and folding.
fn landed(curvature: Curvature) -> Cloth {
    let mut model = cloth(Scene::Drape, N, Material::COTTON).unwrap();
    model.curvature = curvature;
    for _ in 0..10 {
        model.backward_euler_step(H).unwrap();
    }
    model
}

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("cloth");
    group.sample_size(10);
    for (name, curvature) in [
        ("projected", Curvature::Projected),
        ("gauss_newton", Curvature::GaussNewton),
    ] {
        let model = landed(curvature);
        group.bench_function(format!("drape_step_n{N}_{name}"), |b| {
            b.iter_batched(
                || model.clone(),
                |mut m| m.backward_euler_step(H).unwrap(),
                criterion::BatchSize::LargeInput,
            )
        });
    }
    let mut model = landed(Curvature::Projected);
    group.bench_function(format!("assemble_n{N}_projected"), |b| {
        b.iter(|| model.assemble(H).unwrap())
    });
    let (rhs, _) = model.assemble(H).unwrap();
    let a = model.system_matrix().clone();
    let size = rhs.len();
    group.bench_function(format!("solve_pcg_n{N}"), |bench| {
        bench.iter(|| {
            let mut x = vec![0.0; size];
            solve_pcg(&a, &rhs, &mut x, 1e-6, 100_000).unwrap()
        })
    });
    group.finish();
}

criterion_group!(cloth_benches, benches);
criterion_main!(cloth_benches);
