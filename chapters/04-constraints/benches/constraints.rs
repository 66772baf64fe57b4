//! One whole derivative evaluation of a falling chain (forces, assembly, CG,
//! scatter) for 10, 100 and 1,000 rods, and one solve for λ by the tree (factor and
//! solve, the tree built once) for 100, 1,000 and 10,000 rods. The 1,000-rod
//! constraint solve by our CG, by the tree, by a dense Cholesky factorization and by
//! faer's sparse one is in the production benchmarks (`cargo bench -p pbm-bench`).

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use criterion::{Criterion, criterion_group, criterion_main};
use pbm_constraints::scenes::Chain;
use pbm_constraints::tree::TreeSolve;
use pbm_ode::system::OdeSystem;

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("constraints");
    group.sample_size(10);
    for links in [10, 100, 1000] {
        let chain = Chain { links, length: 0.1, mass: 0.1 };
        let mut system = chain.falling(20).unwrap();
        let mut xdot = vec![0.0; system.dimension()];
        group.bench_function(format!("derivative_{links}_rods"), |b| {
            b.iter(|| system.derivative(&mut xdot))
        });
    }
    for links in [100, 1000, 10_000] {
        let chain = Chain { links, length: 0.1, mass: 0.1 };
        let mut system = chain.falling(20).unwrap();
        system.particles.accumulate_forces().unwrap();
        let (w, rhs) = system.assemble().unwrap();
        let j = system.jacobian().clone();
        let mut tree = TreeSolve::<2>::new(&j, &w).unwrap();
        let mut lambda = vec![0.0; rhs.len()];
        group.bench_function(format!("tree_solve_{links}_rods"), |b| {
            b.iter(|| {
                tree.factor(&j, &w).unwrap();
                tree.solve(&rhs, &mut lambda);
            })
        });
    }
    group.finish();
}

criterion_group!(constraints, benches);
criterion_main!(constraints);
