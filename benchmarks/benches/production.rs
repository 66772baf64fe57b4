//! The book's kernels beside production crates on the same workloads, in one run:
//! chapter 1's Dormand–Prince against ode_solvers' Dopri5 at equal achieved error,
//! RK4 step throughput against ode_solvers' Rk4 and against a hand-written loop, and
//! chapter 3's and chapter 4's solvers and chapter 9's against faer's sparse
//! Cholesky factorization (from scratch, and with its symbolic analysis reused as a
//! simulator would). Chapter 3's sheet is solved on its own step's system, and also
//! as its simulation solves it (hierarchy refilled, three digits, warm start);
//! chapter 4's chain also with J W Jᵀ formed inside the timing, as the tree reads J
//! and W inside its own. Each pair is checked to agree before either is timed. Run
//! with `cargo bench -p pbm-bench`, then `cargo run --release -- bench-tables`.

#![allow(clippy::unwrap_used)] // a benchmark that unwraps fails with the error's message

use criterion::{Criterion, criterion_group, criterion_main};
use nalgebra::{DMatrix, DVector};
use pbm_bench::{
    ECCENTRICITIES, FaerPattern, TARGET_ERROR, criterion_file, faer_solve,
    faer_symbolic, jwjt_entries, kepler_ode_solvers, kepler_ours, kepler_ours_dyn,
    kepler_ours_fixed, relative_difference, ring_derivative, ring_ode_solvers,
    ring_rk4_by_hand, ring_start, sheet_step, to_faer, tune,
};
use pbm_cloth::cloth::Material;
use pbm_cloth::scenes::{Scene, cloth};
use pbm_constraints::scenes::Chain;
use pbm_constraints::system::{default_iterations, solve_multipliers};
use pbm_constraints::tree::TreeSolve;
use pbm_implicit::block_sparse::BlockSparse;
use pbm_implicit::cg::solve_pcg;
use pbm_implicit::multigrid::Multigrid;
use pbm_implicit::sheet::Solve;
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::{VectorField, state_of};
use pbm_ode::tableau::RK4;
use serde_json::json;
use std::hint::black_box;
use std::path::PathBuf;

/// Where the adaptive runs' tolerances, errors and evaluation counts go, beside
/// criterion's estimates, for `bench-tables` to print.
fn work_file() -> PathBuf {
    criterion_file("production-ode-work.json")
}

fn ode(c: &mut Criterion) {
    let mut group = c.benchmark_group("production-ode");
    group.sample_size(20);
    let mut work = Vec::new();
    for e in ECCENTRICITIES {
        let name = format!("e{}", (e * 10.0).round());
        let ours = tune(TARGET_ERROR, |tol| kepler_ours(e, tol)).unwrap();
        let theirs = tune(TARGET_ERROR, |tol| kepler_ode_solvers(e, tol)).unwrap();
        // The fixed-size loop takes the same steps as the chapter's: the same work.
        let fixed = kepler_ours_fixed(e, ours.tolerance).unwrap();
        assert_eq!(fixed.0, ours.evaluations, "e = {e}");
        assert!(fixed.1 <= TARGET_ERROR, "e = {e}: {}", fixed.1);
        work.push(json!({
            "eccentricity": e,
            "target_error": TARGET_ERROR,
            "ours": { "tolerance": ours.tolerance, "error": ours.error,
                      "evaluations": ours.evaluations },
            "ode_solvers": { "tolerance": theirs.tolerance, "error": theirs.error,
                             "evaluations": theirs.evaluations },
        }));
        group.bench_function(format!("dopri5-ours-{name}"), |b| {
            b.iter(|| kepler_ours(black_box(e), ours.tolerance).unwrap())
        });
        group.bench_function(format!("dopri5-ours-fixed-{name}"), |b| {
            b.iter(|| kepler_ours_fixed(black_box(e), ours.tolerance).unwrap())
        });
        group.bench_function(format!("dopri5-ours-dyn-{name}"), |b| {
            b.iter(|| kepler_ours_dyn(black_box(e), ours.tolerance).unwrap())
        });
        group.bench_function(format!("dopri5-ode-solvers-{name}"), |b| {
            b.iter(|| kepler_ode_solvers(black_box(e), theirs.tolerance).unwrap())
        });
    }
    let file = work_file();
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::fs::write(&file, serde_json::to_string_pretty(&work).unwrap()).unwrap();

    // RK4 throughput: 100 steps on 10,000 masses (20,000 unknowns), same derivative.
    let (n, h, steps) = (10_000, 0.01, 100);
    let ours = || {
        let mut ring = VectorField::new(
            &ring_start(n),
            0.0,
            |_t: f64, x: &[f64], d: &mut [f64]| ring_derivative(x, d),
        )
        .unwrap();
        let mut rk4 = RungeKutta::new(RK4);
        for _ in 0..steps {
            rk4.step(&mut ring, h).unwrap();
        }
        state_of(&ring)
    };
    let theirs = ring_ode_solvers(n, h, steps).unwrap();
    let gap = relative_difference(&ours(), &theirs);
    assert!(gap < 1e-12, "the two RK4s disagree by {gap:e}");
    // ode_solvers allocates each stage and keeps every step's state; a loop on
    // buffers allocated once and keeping only the last is what the balance is
    // measured against.
    let gap = relative_difference(&ring_rk4_by_hand(n, h, steps), &theirs);
    assert!(gap < 1e-12, "the hand-written RK4 and ode_solvers' disagree by {gap:e}");
    group.bench_function("rk4-ours-100-steps-20000", |b| b.iter(ours));
    group.bench_function("rk4-ode-solvers-100-steps-20000", |b| {
        b.iter(|| ring_ode_solvers(n, h, steps).unwrap())
    });
    group.bench_function("rk4-hand-loop-100-steps-20000", |b| {
        b.iter(|| ring_rk4_by_hand(n, h, steps))
    });
    group.finish();
}

fn sparse(c: &mut Criterion) {
    let mut group = c.benchmark_group("production-sparse");
    group.sample_size(10);
    // Chapter 3's sheet after ten frames of falling (stretched springs): the
    // eleventh step's own system, as the sheet exercise forms it.
    for n in [32, 64] {
        let step = sheet_step(n, 10).unwrap();
        let (a, b) = (&step.matrix, step.rhs.as_slice());
        let size = b.len();
        let zero = vec![0.0; size];
        let multigrid = || {
            let mg = Multigrid::new(a).unwrap();
            let mut x = zero.clone();
            mg.solve(b, &mut x, 1e-10, 100_000).unwrap();
            x
        };
        let jacobi = || {
            let mut x = zero.clone();
            solve_pcg(a, b, &mut x, 1e-10, 100_000).unwrap();
            x
        };
        // The hierarchy as the chapter's step keeps it, built at the first step and
        // refilled since: one copy for the ten-digit solve, one for the simulation's.
        let mut kept = step.hierarchy.clone();
        let mut kept_warm = step.hierarchy.clone();
        let frame = Solve::FRAME.tolerance;
        let f = to_faer(size, &a.entries()).unwrap();
        let symbolic = faer_symbolic(&f).unwrap();
        let direct = faer_solve(&f, Some(&symbolic), b).unwrap();
        let gap = relative_difference(&direct, &step.taken);
        assert!(gap < 1e-8, "the system is not the step's at n = {n}: {gap:e}");
        let refilled = refilled_solve(&mut kept, a, b, &zero, 1e-10);
        for (name, x) in [("multigrid", multigrid()), ("jacobi", jacobi())] {
            let gap = relative_difference(&x, &direct);
            assert!(gap < 1e-9, "{name} CG and faer disagree by {gap:e} at n = {n}");
        }
        let gap = relative_difference(&refilled, &direct);
        assert!(gap < 1e-9, "refilled multigrid CG is off by {gap:e} at n = {n}");
        // Three digits of the residual from the last step's Δv: the answer the
        // simulation moves on with, within 0.4–0.6 % of faer's.
        let warm = refilled_solve(&mut kept_warm, a, b, &step.previous, frame);
        let residual = relative_residual(a, b, &warm);
        assert!(residual <= frame, "warm multigrid CG left {residual:e} at n = {n}");
        let gap = relative_difference(&warm, &direct);
        assert!(gap < 2e-2, "warm multigrid CG is off by {gap:e} at n = {n}");
        group.bench_function(format!("sheet-n{n}-cg-multigrid"), |b| {
            b.iter(multigrid)
        });
        group.bench_function(format!("sheet-n{n}-cg-multigrid-refilled"), |bench| {
            bench.iter(|| refilled_solve(&mut kept, a, b, &zero, 1e-10))
        });
        group.bench_function(format!("sheet-n{n}-cg-multigrid-warm"), |bench| {
            bench.iter(|| refilled_solve(&mut kept_warm, a, b, &step.previous, frame))
        });
        group.bench_function(format!("sheet-n{n}-cg-jacobi"), |b| b.iter(jacobi));
        group.bench_function(format!("sheet-n{n}-faer"), |bench| {
            bench.iter(|| faer_solve(&f, None, b).unwrap())
        });
        group.bench_function(format!("sheet-n{n}-faer-numeric"), |bench| {
            bench.iter(|| faer_solve(&f, Some(&symbolic), b).unwrap())
        });
    }

    // Chapter 4's chain of 1,000 rods: λ from J W Jᵀ λ = rhs.
    let chain = Chain { links: 1000, length: 0.1, mass: 0.1 };
    let mut system = chain.falling(20).unwrap();
    system.particles.accumulate_forces().unwrap();
    let (w, rhs) = system.assemble().unwrap();
    let j = system.jacobian().clone();
    let m = rhs.len();
    let cg = || {
        let mut lambda = vec![0.0; m];
        let limit = (1e-12, default_iterations(m));
        solve_multipliers(&j, &w, &rhs, &mut lambda, limit).unwrap();
        lambda
    };
    let jd = j.to_dense();
    let jwjt: DMatrix<f64> =
        &jd * DMatrix::from_diagonal(&DVector::from_vec(w.clone())) * jd.transpose();
    let dense = || {
        let llt = jwjt.clone().cholesky().unwrap();
        llt.solve(&DVector::from_vec(rhs.clone()))
    };
    let entries: Vec<(usize, usize, f64)> = (0..m)
        .flat_map(|r| (0..m).map(move |c| (r, c)))
        .filter(|&(r, c)| jwjt[(r, c)] != 0.0)
        .map(|(r, c)| (r, c, jwjt[(r, c)]))
        .collect();
    let f = to_faer(m, &entries).unwrap();
    let symbolic = faer_symbolic(&f).unwrap();
    let direct = faer_solve(&f, None, &rhs).unwrap();
    // J W Jᵀ formed inside the timing, from J's blocks and W as the tree reads them:
    // into faer's matrix from scratch, or into the places kept from the last solve
    // with the ordering kept too (as the tree is kept).
    let formed = || {
        let f = to_faer(m, &jwjt_entries(&j, &w)).unwrap();
        faer_solve(&f, None, &rhs).unwrap()
    };
    let sparse = jwjt_entries(&j, &w);
    let pattern = FaerPattern::new(m, &sparse).unwrap();
    let kept = faer_symbolic(&pattern.fill(&sparse).unwrap()).unwrap();
    let formed_into_kept = || {
        let f = pattern.fill(&jwjt_entries(&j, &w)).unwrap();
        faer_solve(&f, Some(&kept), &rhs).unwrap()
    };
    // Baraff's tree: built and ordered once (a simulator keeps it), factored and
    // solved every time; and the whole of it from scratch, as faer's row is.
    let mut tree = TreeSolve::<2>::new(&j, &w).unwrap();
    let mut tree_lambda = vec![0.0; m];
    let mut by_tree = || {
        tree.factor(&j, &w).unwrap();
        tree.solve(&rhs, &mut tree_lambda);
        tree_lambda[0]
    };
    by_tree();
    let from_scratch = || {
        let mut tree = TreeSolve::<2>::new(&j, &w).unwrap();
        let mut lambda = vec![0.0; m];
        tree.factor(&j, &w).unwrap();
        tree.solve(&rhs, &mut lambda);
        lambda
    };
    assert!(relative_difference(&cg(), &direct) < 1e-9);
    assert!(relative_difference(dense().as_slice(), &direct) < 1e-9);
    assert!(relative_difference(&from_scratch(), &direct) < 1e-9);
    let numeric = faer_solve(&f, Some(&symbolic), &rhs).unwrap();
    assert!(relative_difference(&numeric, &direct) < 1e-9);
    assert!(relative_difference(&formed(), &direct) < 1e-9);
    assert!(relative_difference(&formed_into_kept(), &direct) < 1e-9);
    group.bench_function("chain-1000-tree", |b| b.iter(&mut by_tree));
    group.bench_function("chain-1000-tree-from-scratch", |b| b.iter(from_scratch));
    group.bench_function("chain-1000-cg", |b| b.iter(cg));
    group.bench_function("chain-1000-dense-cholesky", |b| b.iter(dense));
    group.bench_function("chain-1000-faer", |b| {
        b.iter(|| faer_solve(&f, None, &rhs).unwrap())
    });
    group.bench_function("chain-1000-faer-numeric", |b| {
        b.iter(|| faer_solve(&f, Some(&symbolic), &rhs).unwrap())
    });
    group.bench_function("chain-1000-faer-with-formation", |b| b.iter(formed));
    group.bench_function("chain-1000-faer-numeric-with-formation", |b| {
        b.iter(formed_into_kept)
    });

    // Chapter 9's 50 × 50 drape just after landing (ten steps of 1/30 s).
    let mut drape = cloth(Scene::Drape, 50, Material::COTTON).unwrap();
    for _ in 0..10 {
        drape.backward_euler_step(1.0 / 30.0).unwrap();
    }
    let (rhs, _) = drape.assemble(1.0 / 30.0).unwrap();
    let a = drape.system_matrix().clone();
    let size = rhs.len();
    let cg = || {
        let mut x = vec![0.0; size];
        solve_pcg(&a, &rhs, &mut x, 1e-6, 100_000).unwrap();
        x
    };
    let f = to_faer(size, &a.entries()).unwrap();
    let direct = faer_solve(&f, None, &rhs).unwrap();
    // CG stops at six digits of the residual; the answers agree to about that.
    assert!(relative_difference(&cg(), &direct) < 1e-4);
    group.bench_function("drape-50-cg", |b| b.iter(cg));
    group.bench_function("drape-50-faer", |b| {
        b.iter(|| faer_solve(&f, None, &rhs).unwrap())
    });
    group.finish();
}

/// Refills a hierarchy kept from the step before with this step's matrix and solves
/// from `start`: the chapter's multigrid solve as its simulation runs it.
fn refilled_solve(
    hierarchy: &mut Multigrid<3>,
    a: &BlockSparse<3>,
    b: &[f64],
    start: &[f64],
    tolerance: f64,
) -> Vec<f64> {
    hierarchy.refill(a).unwrap();
    let mut x = start.to_vec();
    hierarchy.solve(b, &mut x, tolerance, 100_000).unwrap();
    x
}

/// ‖b − A x‖ / ‖b‖, computed here rather than taken from the solver's report.
fn relative_residual(a: &BlockSparse<3>, b: &[f64], x: &[f64]) -> f64 {
    let mut ax = vec![0.0; b.len()];
    a.mul_vec(x, &mut ax);
    relative_difference(&ax, b)
}

criterion_group!(production, ode, sparse);
criterion_main!(production);
