//! Chapter 3's claims checked against independent references: the stability limit
//! 2/k, the notes' one-step limit, finite-difference Jacobians, a dense solve, the
//! energy behaviour of each method, and Newton's method against the linearized step.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use nalgebra::{DVector, Vector2, Vector3};
use pbm_implicit::block_sparse::{Block, BlockBuilder};
use pbm_implicit::cg::solve_pcg;
use pbm_implicit::exercises::jacobian_fd_error;
use pbm_implicit::mass_spring::MassSpring;
use pbm_implicit::minimization::minimization_step;
use pbm_implicit::scenes::{EulerVariant, energy_track, spring_pendulum};
use pbm_implicit::sheet::{
    Solve, explicit_sheet_stays_bounded, implicit_sheet_run, sheet,
};
use pbm_implicit::stiff::max_stable_step;
use pbm_ode::tableau::{EULER, RK4};
use pbm_particles::condition::{Distance, SoftCondition};
use pbm_particles::forces::{G, Gravity};
use pbm_particles::interaction::{PairLaw, SpatialInteraction};
use pbm_particles::particle::ParticleSystem;
use pbm_particles::particle::{Motion, Particle};
use pbm_particles::spring::{DampedSpring, spring_jacobians};
use pbm_prelim::PbmError;

#[test]
fn measured_euler_limit_is_two_over_k() {
    // "Implicit Methods", section 2: Euler is stable only for h < 2/k.
    for k in [10.0, 1000.0, 1e5] {
        let h = max_stable_step(EULER, k).unwrap();
        assert!((h - 2.0 / k).abs() < 0.02 * 2.0 / k, "k = {k}: {h}");
        // RK4 moves the limit only a little: its stability interval on the real axis
        // ends at about −2.785.
        let h4 = max_stable_step(RK4, k).unwrap();
        assert!((h4 * k - 2.785).abs() < 0.05, "k = {k}: {h4}");
    }
}

#[test]
fn jacobians_match_finite_differences() {
    for seed in 0..500 {
        let err = jacobian_fd_error(seed).unwrap();
        assert!(err < 1e-6, "seed {seed}: {err}");
    }
}

#[test]
fn the_fd_check_would_catch_a_missing_damping_term() {
    // Drop the damping part of ∂f/∂x and the finite differences disagree: the check
    // can fail.
    let (xa, xb) = (Vector3::new(0.1, 0.2, 0.3), Vector3::new(1.5, -0.4, 0.2));
    let (va, vb) = (Vector3::new(0.5, -0.3, 0.9), Vector3::new(-0.2, 0.1, 0.0));
    let (full, _) =
        spring_jacobians((&xa, &va), (&xb, &vb), (5.0, 2.0, 1.0)).unwrap();
    let (undamped, _) =
        spring_jacobians((&xa, &va), (&xb, &vb), (5.0, 0.0, 1.0)).unwrap();
    assert!((full - undamped).norm() > 0.1);
}

/// A random-looking symmetric positive definite block matrix: a spring-graph
/// Laplacian plus masses on the diagonal.
fn test_matrix(n: usize) -> pbm_implicit::block_sparse::BlockSparse<3> {
    let mut b = BlockBuilder::<3>::new(n);
    for i in 0..n {
        b.add(i, i, &(Block::<3>::identity() * (1.0 + i as f64 * 0.1)));
        let j = (i * 7 + 3) % n;
        if j != i {
            let d = Vector3::new(1.0, (i as f64).sin(), (j as f64).cos()).normalize();
            let k = d * d.transpose() * (10.0 + i as f64);
            b.add(i, i, &k);
            b.add(j, j, &k);
            b.add(i, j, &(-k));
            b.add(j, i, &(-k));
        }
    }
    b.build()
}

#[test]
fn cg_matches_a_dense_solve() {
    let a = test_matrix(40);
    let dense = a.to_dense();
    let b: Vec<f64> = (0..120).map(|i| (i as f64 * 0.37).sin()).collect();
    let mut x = vec![0.0; 120];
    let report = solve_pcg(&a, &b, &mut x, 1e-13, 1000).unwrap();
    let exact = dense.clone().lu().solve(&DVector::from_vec(b.clone())).unwrap();
    let x = DVector::from_vec(x);
    assert!(
        (&x - &exact).norm() / exact.norm() < 1e-9,
        "after {} iterations",
        report.iterations
    );
    // The block product agrees with the dense one.
    let mut y = vec![0.0; 120];
    a.mul_vec(x.as_slice(), &mut y);
    assert!((DVector::from_vec(y) - &dense * &x).norm() < 1e-12);
}

#[test]
fn cg_reports_indefinite_and_singular_systems() {
    // [[I, 2I], [2I, I]] has eigenvalues 3 and −1; its diagonal blocks (the
    // preconditioner) are harmless identities, and b = (1, 0, −1, 0) has bᵀAb = −2
    // < 0.
    let mut b = BlockBuilder::<2>::new(2);
    let i2 = nalgebra::Matrix2::identity();
    b.add(0, 0, &i2);
    b.add(1, 1, &i2);
    b.add(0, 1, &(i2 * 2.0));
    b.add(1, 0, &(i2 * 2.0));
    let indefinite = b.build();
    let mut x = vec![0.0; 4];
    let err = solve_pcg(&indefinite, &[1.0, 0.0, -1.0, 0.0], &mut x, 1e-10, 100)
        .unwrap_err();
    assert!(err.to_string().contains("not positive definite"), "{err}");
    let mut s = BlockBuilder::<2>::new(1);
    s.add(0, 0, &nalgebra::Matrix2::zeros());
    let err =
        solve_pcg(&s.build(), &[1.0, 0.0], &mut [0.0; 2], 1e-10, 100).unwrap_err();
    assert!(err.to_string().contains("singular"), "{err}");
}

#[test]
fn the_sheet_explodes_explicitly_and_not_implicitly_at_frame_steps() {
    assert!(!explicit_sheet_stays_bounded(32, 1000.0, 1.0 / 30.0, 1.0).unwrap());
    let run = implicit_sheet_run(32, 1000.0, 1.0 / 30.0, 1.0, Solve::FRAME).unwrap();
    assert!(run.stable, "{run:?}");
    // It hangs below its pins but has not fallen away: bounded by the sheet's size.
    assert!(run.lowest_z < -0.3 && run.lowest_z > -1.5, "{run:?}");
}

#[test]
fn backward_euler_never_gains_energy_and_symplectic_euler_stays_close() {
    let implicit = energy_track(EulerVariant::Backward, 0.02, 5.0).unwrap();
    for w in implicit.windows(2) {
        assert!(w[1].1 <= w[0].1 + 1e-9, "{:?} -> {:?}", w[0], w[1]);
    }
    let e0 = implicit[0].1;
    let symplectic = energy_track(EulerVariant::Symplectic, 0.02, 5.0).unwrap();
    let worst = symplectic.iter().map(|p| (p.1 - e0).abs()).fold(0.0, f64::max);
    let explicit = energy_track(EulerVariant::Explicit, 0.001, 5.0).unwrap();
    assert!(worst < 1.0 && explicit.last().unwrap().1 > e0 + 1.0, "{worst}");
}

#[test]
fn implicit_midpoint_keeps_the_swinging_springs_energy_without_drift() {
    // Implicit midpoint is symplectic: on this nonlinear swing its energy error
    // oscillates, bounded, with no trend, where backward Euler at the same 20 ms
    // step has lost most of the swing. Bound: symplectic Euler's error (under 1 J
    // above) is first order; midpoint's is second order, so far smaller.
    let t_end = 10.0;
    let midpoint = energy_track(EulerVariant::ImplicitMidpoint, 0.02, t_end).unwrap();
    let e0 = midpoint[0].1;
    let worst = midpoint.iter().map(|p| (p.1 - e0).abs()).fold(0.0, f64::max);
    assert!(worst < 0.2, "{worst}");
    // No drift: the last second's mean energy is the first second's, to a fraction
    // of the oscillation.
    let mean = |from: f64, to: f64| {
        let inside: Vec<f64> = midpoint
            .iter()
            .filter(|p| p.0 >= from && p.0 < to)
            .map(|p| p.1)
            .collect();
        inside.iter().sum::<f64>() / inside.len() as f64
    };
    assert!(
        (mean(t_end - 1.0, t_end) - mean(0.0, 1.0)).abs() < 0.2 * worst.max(1e-6)
    );
    let backward = energy_track(EulerVariant::Backward, 0.02, t_end).unwrap();
    assert!(backward.last().unwrap().1 < e0 - 10.0 * worst);
}

#[test]
fn one_newton_iteration_is_the_linearized_step() {
    let mut linear = spring_pendulum().unwrap();
    let mut newton = spring_pendulum().unwrap();
    for model in [&mut linear, &mut newton] {
        model.system.particles[1].v = Vector2::new(0.3, -1.0);
    }
    let h = 0.05;
    linear.backward_euler_step(h).unwrap();
    minimization_step(&mut newton, h, 0.0, 1).unwrap();
    for (a, b) in linear.system.particles.iter().zip(&newton.system.particles) {
        assert!(
            (a.x - b.x).norm() < 1e-10 && (a.v - b.v).norm() < 1e-9,
            "{:?} vs {:?}",
            a.x,
            b.x
        );
    }
}

#[test]
fn full_newton_solves_the_nonlinear_backward_euler_equations() {
    let mut model = spring_pendulum().unwrap();
    let (x0, v0) = (model.system.particles[1].x, model.system.particles[1].v);
    let h = 0.1;
    let report = minimization_step(&mut model, h, 1e-12, 50).unwrap();
    assert!(report.gradient_norm <= 1e-12 && report.iterations > 1, "{report:?}");
    // x₁ = x₀ + h v₁ and v₁ = v₀ + h f(x₁)/m, with the force evaluated at the new
    // state: the second holds to h ‖∇Φ‖ / m.
    model.system.accumulate_forces().unwrap();
    let p = &model.system.particles[1];
    assert!((p.x - (x0 + p.v * h)).norm() < 1e-12);
    assert!((p.v - (v0 + p.f * (h / p.mass))).norm() < 1e-8);
}

/// The minimization page's bob: 1 kg on 100 N/m from a nail, 0.3 m to the side.
fn nailed_bob(y: f64, vy: f64, k_d: f64) -> MassSpring<2> {
    pbm_implicit::scenes::nailed_bob(-y, vy, 100.0, k_d).unwrap()
}

/// ‖∇Φ‖ after each of the first `n` Newton iterations of one step (the method is
/// deterministic, so a run stopped after k iterations is the longer run's k-th).
fn gradient_history(y: f64, vy: f64, h: f64, n: usize) -> Vec<f64> {
    (0..=n)
        .map(|k| {
            let mut model = nailed_bob(y, vy, 0.0);
            minimization_step(&mut model, h, 0.0, k).unwrap().gradient_norm
        })
        .collect()
}

#[test]
fn the_line_search_leaves_the_stretched_bob_alone_and_shortens_the_compressed_one() {
    // The page credits Newton, not the line search, for the h = 0.5 s step: every full
    // Newton step is accepted (as far as h = 10 s), so plain Newton gives the same
    // digits. From a compressed start at h = 2 s the search does shorten steps.
    for h in [0.5, 10.0] {
        let mut model = nailed_bob(-1.2, 0.0, 0.0);
        let report = minimization_step(&mut model, h, 1e-12, 50).unwrap();
        assert_eq!(report.shortened, 0, "h = {h}: {report:?}");
    }
    let mut model = nailed_bob(-0.3, 0.0, 0.0);
    let report = minimization_step(&mut model, 2.0, 1e-12, 50).unwrap();
    assert!(report.shortened > 0, "{report:?}");
}

#[test]
fn newton_converges_quadratically_to_1e_12_where_phi_can_no_longer_tell() {
    // Near the minimum, Φ's changes fall below its own rounding: a Newton step from
    // ‖∇Φ‖ = 2e-8 N promises a decrease of about h² ‖∇Φ‖² / m ≈ 1e-18 J, while Φ's
    // terms are of order 10 J and round at 1e-15 J. A line search that compares
    // values of Φ there rejects good steps; ours asks the gradient instead.
    // Started 1.2 m below the nail, that line search stops at 2.3e-8 N after two
    // iterations and creeps (1.0e-8 after eight).
    let g = gradient_history(-1.2, 0.0, 0.05, 6);
    assert!(g[3] <= 1e-12, "{g:?}");
    // Quadratic: each error about the square of the last, in the gradient's units.
    assert!(g[2] < g[1] * g[1] && g[3] < g[2], "{g:?}");
}

#[test]
fn compressed_springs_make_newton_linear_at_the_rate_the_clamp_predicts() {
    // The clamped Hessian leaves out the compressed spring's negative stiffness
    // across it, k_s (1 − r/L) < 0. Along the spring Newton is exact; across it each
    // iteration leaves a fraction h² k_s (r/L − 1)/m of the error, L the length at
    // the solution.
    let (y, h) = (-0.3, 0.05);
    let mut model = nailed_bob(y, 0.0, 0.0);
    minimization_step(&mut model, h, 1e-13, 200).unwrap();
    let length = model.system.particles[1].x.norm();
    assert!(length < 1.0, "the spring must end compressed: {length}");
    let predicted = h * h * 100.0 * (1.0 / length - 1.0);
    let g = gradient_history(y, 0.0, h, 14);
    let measured = (g[14] / g[10]).powf(0.25);
    assert!((measured / predicted - 1.0).abs() < 0.03, "{measured} vs {predicted}");
    assert!((0.15..0.25).contains(&measured), "{measured}");
}

#[test]
fn damped_springs_are_refused_by_the_minimization_step() {
    // Φ has a potential for every force it minimizes; damping has none.
    let mut model = nailed_bob(-1.0, 0.0, 2.0);
    let before = model.system.particles[1].x;
    let e = minimization_step(&mut model, 0.05, 1e-10, 20).unwrap_err();
    assert!(e.to_string().contains("damp"), "{e}");
    assert_eq!(model.system.particles[1].x, before);
}

#[test]
fn invalid_models_are_errors() {
    assert!(sheet(1, 100.0).is_err());
    assert!(pbm_implicit::stiff::StiffExample::new(-1.0, 0.0, 0.0).is_err());
    let z = Vector3::zeros();
    assert!(spring_jacobians((&z, &z), (&z, &z), (1.0, 0.0, 1.0)).is_err());
    let p = Particle::new(1.0, Vector3::zeros(), Vector3::zeros()).unwrap();
    let nail = p.clone().with_motion(Motion::Fixed);
    let spring = DampedSpring::new(0, 3, 1.0, 0.0, 1.0).unwrap();
    assert!(MassSpring::new(vec![nail, p], vec![spring], Vector3::zeros()).is_err());
}

#[test]
fn cg_agrees_with_a_direct_solver_on_the_sheet() {
    // The production benchmarks check faer's sparse Cholesky against CG on the large
    // sheets before timing them; here a dense LU on a small one.
    let mut model = sheet(8, 1000.0).unwrap();
    for _ in 0..5 {
        model.backward_euler_step(1.0 / 30.0).unwrap();
    }
    let (a, _) = model.system_matrices(1.0 / 30.0, None).unwrap();
    let size = 3 * 64;
    let b: Vec<f64> = (0..size).map(|i| (i as f64 * 0.61).cos()).collect();
    let mut x = vec![0.0; size];
    solve_pcg(&a, &b, &mut x, 1e-12, 10_000).unwrap();
    let exact = a.to_dense().lu().solve(&DVector::from_vec(b)).unwrap();
    let x = DVector::from_vec(x);
    assert!((&x - &exact).norm() / exact.norm() < 1e-9);
}

/// The spring pendulum with its spring replaced by the soft distance condition of the
/// same stiffness, the bob at distance `length` from the nail.
fn condition_pendulum(k: f64, length: f64) -> MassSpring<2> {
    let nail = Particle::new(1.0, Vector2::zeros(), Vector2::zeros()).unwrap();
    let bob = Particle::new(1.0, Vector2::new(length, 0.0), Vector2::new(0.0, 0.3))
        .unwrap();
    let mut system = ParticleSystem::new(vec![nail.with_motion(Motion::Fixed), bob]);
    let soft = SoftCondition::new(Distance::new(0, 1, 1.0).unwrap(), k, 0.0).unwrap();
    system.add_force(soft).unwrap();
    system.add_force(Gravity { g: Vector2::new(0.0, -G) }).unwrap();
    MassSpring::from_system(system)
}

#[test]
fn the_implicit_step_holds_each_spring_once_and_takes_soft_conditions_too() {
    let spring_model = spring_pendulum().unwrap();
    assert_eq!(
        spring_model.system.forces.len(),
        2,
        "one spring and gravity, each once"
    );
    // The soft condition's Jacobian is the spring's without the stiffness across the
    // spring, k (1 − r/L) P, which vanishes at the rest length: there the two
    // matrices agree.
    let h = 0.05;
    let spring = |length: f64| {
        let mut m = spring_pendulum().unwrap();
        m.system.particles[1].x = Vector2::new(length, 0.0);
        m.system_matrices(h, None).unwrap().0.to_dense()
    };
    let condition = |length: f64| {
        condition_pendulum(100.0, length)
            .system_matrices(h, None)
            .unwrap()
            .0
            .to_dense()
    };
    assert!((spring(1.0) - condition(1.0)).amax() < 1e-12);
    // Stretched to 1.2 m the across term is h² k (1 − 1/1.2) = 0.0417 in the y-y
    // entry.
    let gap = spring(1.2) - condition(1.2);
    assert!((gap[(3, 3)] - h * h * 100.0 * (1.0 - 1.0 / 1.2)).abs() < 1e-12, "{gap}");
    // And the step runs on it: 200 steps of 50 ms stay bounded and lose energy.
    let mut model = condition_pendulum(100.0, 1.2);
    let e0 = model.system.energy();
    for _ in 0..200 {
        model.backward_euler_step(h).unwrap();
        assert!(model.system.particles[1].x.norm() < 2.0);
    }
    assert!(model.system.energy() < e0);
}

#[test]
fn a_force_without_jacobians_is_refused_by_the_implicit_step_with_its_name() {
    let p =
        |x: f64| Particle::new(1.0, Vector2::new(x, 0.0), Vector2::zeros()).unwrap();
    let mut system = ParticleSystem::new(vec![p(0.0), p(0.15)]);
    system
        .add_force(SpatialInteraction { law: PairLaw::new(10.0, 0.1, 0.25).unwrap() })
        .unwrap();
    let err = MassSpring::from_system(system).backward_euler_step(0.01).unwrap_err();
    assert!(matches!(err.cause(), PbmError::Invalid { .. }), "{err}");
    assert!(
        err.to_string().contains("`spatial interaction` does not provide"),
        "{err}"
    );
}

#[test]
fn the_first_step_from_rest_is_free_fall_that_cg_solves_in_one_iteration() {
    // The sheet lies flat with every spring at its rest length, and gravity points
    // across it. A spring at rest length resists only stretching along itself, so
    // ∂f/∂x and ∂f/∂v vanish across the sheet: A b = M b for the out-of-plane
    // right-hand side b = h M g, and CG's first iterate is the answer. That is why
    // the step-from-rest benchmark (mass-spring.md) times assembly and one product,
    // not the iteration growth of implicit/sheet-sizes. The fall is g h².
    let h = 1.0 / 30.0;
    for n in [8, 32, 64] {
        let mut model = sheet(n, 1000.0).unwrap(); // block Jacobi, ten digits, from zero
        let report = model.backward_euler_step(h).unwrap();
        assert_eq!(report.cg.iterations, 1, "n = {n}");
        let lowest = model.system.particles.iter().map(|p| p.x.z).fold(0.0, f64::min);
        assert!((lowest + G * h * h).abs() < 1e-12, "n = {n}: {lowest}");
    }
}

#[test]
fn the_first_aggregation_joins_pairs_into_groups_of_at_most_four() {
    // What the aggregation figure draws: every pair lies inside one group, a group
    // holds at most four particles (two pairs), and the groups are the next level.
    let model = sheet(8, 1000.0).unwrap();
    let (a, _) = model.system_matrices(1.0 / 30.0, None).unwrap();
    let multigrid = pbm_implicit::multigrid::Multigrid::new(&a).unwrap();
    let (pair, group) = multigrid.first_level().unwrap();
    let groups = group.iter().max().unwrap() + 1;
    assert_eq!(groups, multigrid.sizes()[1]);
    for i in 0..pair.len() {
        for j in 0..pair.len() {
            if pair[i] == pair[j] {
                assert_eq!(group[i], group[j], "pair of {i} and {j} split");
            }
        }
    }
    for g in 0..groups {
        let size = group.iter().filter(|&&c| c == g).count();
        assert!((1..=4).contains(&size), "group {g} has {size}");
    }
    // Paired particles are coupled: a block joins them.
    for i in 0..pair.len() {
        for j in i + 1..pair.len() {
            if pair[i] == pair[j] {
                assert!(a.row(i).0.contains(&j), "{i} and {j} share no block");
            }
        }
    }
}
