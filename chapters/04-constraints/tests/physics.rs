//! Direct checks of the chapter's physics against closed forms, finite differences,
//! dense solves and conservation laws.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use nalgebra::{DMatrix, DVector, SVector, Vector2, Vector3};
use pbm_constraints::bead::{bead_lambda, force_at_rest, slides_constraint_force};
use pbm_constraints::constraint::{Nail, OnCircle, OnEllipse, OnLine, Rod};
use pbm_constraints::exercises::redundant_pendulum;
use pbm_constraints::scenes::bead_drift;
use pbm_constraints::scenes::{Chain, bead, double_pendulum, pendulum};
use pbm_constraints::system::{ConstrainedSystem, Feedback};
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::OdeSystem;
use pbm_ode::tableau::RK4;
use pbm_particles::condition::{Condition, finite_difference_errors};
use pbm_particles::forces::G;
use pbm_particles::forces::Gravity;
use pbm_particles::particle::{Motion, Particle};
use pbm_prelim::sampling::{sample, sample_vector};
use pbm_prelim::{Fault, PbmError};

fn max_c(track: &[(f64, f64)]) -> f64 {
    track.iter().fold(0.0, |m, p| m.max(p.1))
}

#[test]
fn feedback_holds_the_bead_on_its_circle_for_100_seconds() {
    let with = bead_drift(RK4, Feedback::DEFAULT, 0.01, 100.0).unwrap();
    let without = bead_drift(RK4, Feedback::OFF, 0.01, 100.0).unwrap();
    assert!(max_c(&with) < 1e-6, "with feedback: {}", max_c(&with));
    // Without feedback the error grows: the last 10 s are far worse than the first 10
    // s.
    let early = max_c(&without[..1000]);
    let late = max_c(&without[9000..]);
    assert!(late > 10.0 * early && late > 1e-4, "early {early:e}, late {late:e}");
}

#[test]
fn double_pendulum_keeps_its_links_and_its_energy() {
    let mut system = double_pendulum().unwrap();
    let mut rk4 = RungeKutta::new(RK4);
    let e0 = system.energy();
    let (mut worst_c, mut worst_e) = (0.0_f64, 0.0_f64);
    for _ in 0..10_000 {
        rk4.step(&mut system, 1e-3).unwrap();
        worst_c = worst_c.max(system.max_abs_c().unwrap());
        worst_e = worst_e.max((system.energy() - e0).abs() / e0.abs());
    }
    assert!(worst_c < 1e-6, "constraint error {worst_c:e}");
    assert!(worst_e < 1e-4, "relative energy drift {worst_e:e}");
}

#[test]
fn triple_pendulum_keeps_its_links() {
    let mut system =
        pendulum(&[1.0, 0.5, 0.25], &[1.0, 0.8, 0.6], &[1.5, 2.0, 2.5]).unwrap();
    let mut rk4 = RungeKutta::new(RK4);
    let e0 = system.energy();
    for _ in 0..5000 {
        rk4.step(&mut system, 1e-3).unwrap();
        assert!(system.max_abs_c().unwrap() < 1e-6);
    }
    assert!((system.energy() - e0).abs() < 1e-4 * G * 1.75 * 2.4);
}

/// A bead on the unit circle at angle `a`, moving tangentially at speed `s`, pushed
/// by the constant force `f` (as gravity on a 1 kg mass).
fn bead_at(a: f64, s: f64, f: Vector2<f64>) -> ConstrainedSystem<2> {
    let x = Vector2::new(a.cos(), a.sin());
    let v = Vector2::new(-a.sin(), a.cos()) * s;
    let mut system = ConstrainedSystem::new(vec![Particle::new(1.0, x, v).unwrap()]);
    system.add_force(Gravity { g: f }).unwrap();
    system.add_constraint(OnCircle::new(0, Vector2::zeros(), 1.0).unwrap()).unwrap();
    system.feedback = Feedback::OFF;
    system
}

#[test]
fn bead_at_rest_gets_the_projection_of_equation_8() {
    for i in 0..200 {
        let a = 3.2 * sample(3 * i);
        let f = Vector2::new(10.0 * sample(3 * i + 1), 10.0 * sample(3 * i + 2));
        let mut system = bead_at(a, 0.0, f);
        system.particles.accumulate_forces().unwrap();
        let force =
            Vector2::from_column_slice(system.solve_constraint_forces().unwrap());
        let x = system.particles.particles[0].x;
        let expected = force_at_rest(x, f);
        assert!(
            (force - expected).norm() < 1e-12 * (1.0 + f.norm()),
            "{force} vs {expected}"
        );
        // λ itself is −f·x/(x·x) (equation 8), and what is left is tangent.
        assert!(
            (system.lambda()[0] + f.dot(&x) / x.dot(&x)).abs()
                < 1e-12 * (1.0 + f.norm())
        );
        assert!((f + force).dot(&x).abs() < 1e-12 * (1.0 + f.norm()));
    }
}

#[test]
fn moving_bead_matches_equation_7_and_the_corrected_slides() {
    for i in 0..200 {
        let a = 3.2 * sample(4 * i);
        let s = 3.0 * sample(4 * i + 1);
        let f = Vector2::new(10.0 * sample(4 * i + 2), 10.0 * sample(4 * i + 3));
        let mut system = bead_at(a, s, f);
        system.particles.accumulate_forces().unwrap();
        let force =
            Vector2::from_column_slice(system.solve_constraint_forces().unwrap());
        let p = &system.particles.particles[0];
        let lambda = bead_lambda(1.0, p.x, p.v, f);
        let tol = 1e-12 * (1.0 + f.norm() + s * s);
        assert!((system.lambda()[0] - lambda).abs() < tol);
        assert!((force - p.x * lambda).norm() < tol);
        // The slides' |x| − r template, with f where the slides print ḟ, gives the
        // same force.
        let slides = slides_constraint_force(1.0, p.x, p.v, f);
        assert!((slides - force).norm() < tol, "{slides} vs {force}");
        // The resulting acceleration is legal: C̈ = ẍ·x + ẋ·ẋ = 0.
        let acc = f + force;
        assert!((acc.dot(&p.x) + p.v.dot(&p.v)).abs() < tol);
    }
}

#[test]
fn the_slides_f_dot_is_a_typo() {
    // For a constant force ḟ = 0; a bead at rest with ḟ in place of f would feel no
    // constraint force at all and fall straight off the circle.
    let (x, v, f) = (Vector2::new(0.6, 0.8), Vector2::zeros(), Vector2::new(0.0, -G));
    let with_f_dot = slides_constraint_force(1.0, x, v, Vector2::zeros());
    let with_f = slides_constraint_force(1.0, x, v, f);
    assert_eq!(with_f_dot, Vector2::zeros());
    assert!((with_f - force_at_rest(x, f)).norm() < 1e-14);
    assert!((f + with_f).dot(&x).abs() < 1e-14, "with f the motion stays tangent");
}

#[test]
fn slides_errata_n_dot_is_the_total_derivative_not_a_partial() {
    // The constrained-dynamics slides (000:3891, 000:3899, 000:3959) define
    // Ṅ = ∂²C/∂x∂t and J̇ = ∂²C/∂q∂t. The circle's C = |x| − r has no t in it, so that
    // mixed partial is zero. What their own example computes, and the multiplier
    // needs, is the total derivative along the motion, (∂N/∂x) ẋ = d/dt N(x(t)).
    let circle = OnCircle::new(0, Vector2::zeros(), 1.0).unwrap();
    let (x, v) = (Vector2::new(0.6, 0.8), Vector2::new(-1.6, 1.2)); // tangent, speed 2
    let normal_at = |s: f64| {
        let (mut c, mut j) = ([0.0], [Vector2::zeros()]);
        circle.position(&[x + v * s], &mut c, &mut j).unwrap();
        j[0]
    };
    let mut n_dot = [Vector2::zeros()];
    circle.jacobian_dot(&[x], &[v], &mut n_dot);
    // Central difference along the motion: truncation ~1e-12.
    let eps = 1e-6;
    let total = (normal_at(eps) - normal_at(-eps)) / (2.0 * eps);
    assert!((n_dot[0] - total).norm() < 1e-8, "{} vs {total}", n_dot[0]);
    // |Ṅ| = |ẋ|/|x| = 2 for a tangent velocity: far from zero.
    assert!((n_dot[0].norm() - 2.0).abs() < 1e-12);
    // With the literal partial, Ṅ = 0, the multiplier loses its velocity term and the
    // bead gets no centripetal pull: C̈ = N·ẍ + Ṅ·ẋ = |ẋ|²/|x| = 4 m/s², off the wire.
    let f = Vector2::new(0.0, -G);
    let accel = f + force_at_rest(x, f);
    let c_ddot = normal_at(0.0).dot(&accel) + n_dot[0].dot(&v);
    assert!((c_ddot - 4.0).abs() < 1e-12, "{c_ddot}");
    // With the total derivative the slides' template keeps the bead on it.
    let accel = f + slides_constraint_force(1.0, x, v, f);
    assert!((normal_at(0.0).dot(&accel) + n_dot[0].dot(&v)).abs() < 1e-12);
}

/// A chain in motion, forces accumulated and equation 11 assembled.
fn moving_system(mut system: ConstrainedSystem<2>) -> ConstrainedSystem<2> {
    let mut rk4 = RungeKutta::new(RK4);
    for _ in 0..50 {
        rk4.step(&mut system, 2e-3).unwrap();
    }
    system.particles.accumulate_forces().unwrap();
    system
}

#[test]
fn cg_multipliers_match_a_dense_solve() {
    let models = [
        moving_system(
            pendulum(&[1.0, 2.0, 0.5], &[1.0, 0.7, 0.4], &[1.0, 2.0, 0.5]).unwrap(),
        ),
        moving_system(
            Chain { links: 6, length: 0.2, mass: 0.3 }.with_rods().unwrap(),
        ),
    ];
    for mut system in models {
        let (w, rhs) = system.assemble().unwrap();
        let j = system.jacobian().to_dense();
        let a = &j * DMatrix::from_diagonal(&DVector::from_vec(w)) * j.transpose();
        let dense = a.lu().solve(&DVector::from_vec(rhs)).unwrap();
        system.solve_constraint_forces().unwrap();
        let cg = DVector::from_column_slice(system.lambda());
        assert!((&cg - &dense).norm() <= 1e-9 * dense.norm(), "{cg} vs {dense}");
    }
}

#[test]
fn redundant_constraints_are_solved_and_share_the_force() {
    let mut twin = moving_system(redundant_pendulum().unwrap());
    let mut single = moving_system(double_pendulum().unwrap());
    twin.solve_constraint_forces().unwrap();
    single.solve_constraint_forces().unwrap();
    let (l2, l1) = (twin.lambda(), single.lambda());
    // Rows: circle, rod, circle again, rod again. The least-norm λ splits each
    // evenly.
    assert_eq!(l2.len(), 4);
    for (k, &lk) in l1.iter().enumerate() {
        assert!((l2[k] - l2[k + 2]).abs() < 1e-9 * lk.abs().max(1.0), "{l2:?}");
        assert!(
            (l2[k] + l2[k + 2] - lk).abs() < 1e-9 * lk.abs().max(1.0),
            "{l2:?} vs {l1:?}"
        );
    }
    assert!(twin.jacobian().to_dense().rank(1e-9) == 2);
}

/// J and J̇ of one constraint against central differences at random states (chapter
/// 2's check, which every condition function of the book goes through).
fn check_jacobians<const D: usize>(constraint: &dyn Condition<D>, seed: u64) {
    let k = constraint.particles().len();
    for trial in 0..50 {
        let x: Vec<SVector<f64, D>> = (0..k)
            .map(|p| sample_vector::<D>(seed + 1000 * trial + 2 * p as u64) * 2.0)
            .collect();
        let v: Vec<SVector<f64, D>> = (0..k)
            .map(|p| sample_vector::<D>(seed + 1000 * trial + 2 * p as u64 + 1) * 2.0)
            .collect();
        let (j, j_dot) = finite_difference_errors(constraint, &x, &v).unwrap();
        // Central differences: truncation ~1e-12 and rounding ~1e-10, relative.
        assert!(
            j < 1e-8 && j_dot < 1e-8,
            "{}: J {j:e}, J̇ {j_dot:e}",
            constraint.name()
        );
    }
}

#[test]
fn jacobians_match_finite_differences() {
    check_jacobians::<2>(&Rod::new(0, 1, 0.7).unwrap(), 1);
    check_jacobians::<3>(&Rod::new(0, 1, 0.7).unwrap(), 2);
    check_jacobians::<2>(&OnCircle::new(0, Vector2::new(0.3, -0.2), 1.5).unwrap(), 3);
    check_jacobians::<3>(
        &OnCircle::new(0, Vector3::new(0.3, -0.2, 0.1), 1.5).unwrap(),
        4,
    );
    check_jacobians::<2>(&Nail::new(0, Vector2::new(1.0, 2.0)).unwrap(), 5);
    check_jacobians::<2>(
        &OnEllipse::new(0, Vector2::new(0.3, -0.2), 1.5, 0.5).unwrap(),
        9,
    );
    check_jacobians::<3>(&Nail::new(0, Vector3::new(1.0, 2.0, 3.0)).unwrap(), 6);
    check_jacobians::<2>(
        &OnLine::new(0, Vector2::new(1.0, 0.0), Vector2::new(1.0, 1.0)).unwrap(),
        7,
    );
    check_jacobians::<3>(
        &OnLine::new(0, Vector3::new(1.0, 0.0, 2.0), Vector3::new(1.0, 2.0, -1.0))
            .unwrap(),
        8,
    );
}

#[test]
fn bead_on_an_inclined_line_slides_with_g_along_it() {
    // A particle on a line along u under gravity accelerates at (g·u) u: closed form.
    let g = Vector3::new(0.0, 0.0, -G);
    let u = Vector3::new(1.0, 2.0, -2.0).normalize();
    let x0 = Vector3::new(0.5, -1.0, 2.0);
    let mut system = ConstrainedSystem::new(vec![
        Particle::new(2.0, x0, Vector3::zeros()).unwrap(),
    ]);
    system.add_force(Gravity { g }).unwrap();
    system.add_constraint(OnLine::new(0, x0, u).unwrap()).unwrap();
    let mut rk4 = RungeKutta::new(RK4);
    for _ in 0..1000 {
        rk4.step(&mut system, 1e-3).unwrap();
    }
    let t = system.time();
    let expected = x0 + u * (0.5 * g.dot(&u) * t * t);
    assert!((system.particles.particles[0].x - expected).norm() < 1e-10);
}

#[test]
fn block_products_agree_with_the_dense_matrix() {
    let system = moving_system(
        Chain { links: 5, length: 0.3, mass: 0.2 }.with_rods().unwrap(),
    );
    let j = system.jacobian();
    let dense = j.to_dense();
    let x: Vec<f64> = (0..j.n_cols).map(|i| sample(i as u64)).collect();
    let y: Vec<f64> = (0..j.n_rows).map(|i| sample(500 + i as u64)).collect();
    let (mut jx, mut jty) = (vec![0.0; j.n_rows], vec![0.0; j.n_cols]);
    j.mul_vec(&x, &mut jx);
    j.mul_transpose_vec(&y, &mut jty);
    let jx_dense = &dense * DVector::from_vec(x);
    let jty_dense = dense.transpose() * DVector::from_vec(y);
    assert!((DVector::from_vec(jx) - jx_dense).norm() < 1e-14);
    assert!((DVector::from_vec(jty) - jty_dense).norm() < 1e-14);
}

#[test]
fn bad_models_are_errors() {
    assert!(Rod::new(0, 0, 1.0).is_err());
    assert!(Rod::new(0, 1, 0.0).is_err());
    assert!(Rod::new(0, 1, f64::NAN).is_err());
    assert!(OnCircle::new(0, Vector2::zeros(), -1.0).is_err());
    assert!(OnCircle::new(0, Vector2::new(f64::INFINITY, 0.0), 1.0).is_err());
    assert!(Nail::new(0, Vector2::new(f64::NAN, 0.0)).is_err());
    assert!(OnLine::new(0, Vector2::zeros(), Vector2::zeros()).is_err());
    assert!(Feedback::new(-1.0, 0.0).is_err());
    // Coincident particles: the rod has no direction.
    let p = Particle::new(1.0, Vector2::new(1.0, 1.0), Vector2::zeros()).unwrap();
    let mut system = ConstrainedSystem::new(vec![p.clone(), p]);
    let err = system.add_constraint(Rod::new(0, 1, 1.0).unwrap()).unwrap_err();
    assert!(err.to_string().contains("coincident"), "{err}");
    // A particle that does not exist.
    assert!(system.add_constraint(Nail::new(5, Vector2::zeros()).unwrap()).is_err());
    // A bead at the centre of its circle.
    let mut centre = ConstrainedSystem::new(vec![
        Particle::new(1.0, Vector2::zeros(), Vector2::zeros()).unwrap(),
    ]);
    assert!(
        centre
            .add_constraint(OnCircle::new(0, Vector2::zeros(), 1.0).unwrap())
            .is_err()
    );
    assert!(pendulum(&[1.0], &[1.0, 2.0], &[0.0]).is_err());
    assert!(pendulum(&[1.0], &[1.0], &[f64::NAN]).is_err());
    assert!(Chain { links: 0, length: 1.0, mass: 1.0 }.with_rods().is_err());
    assert!(bead(Feedback::OFF).unwrap().dimension() == 4);
}

/// When the slider's script starts to move (s).
const SLIDER_START: f64 = 0.503;

/// A slider that stands at (1, 0) until `SLIDER_START`, then accelerates along x at 1
/// m/s².
fn slider_script(t: f64) -> (Vector2<f64>, Vector2<f64>, Vector2<f64>) {
    let s = (t - SLIDER_START).max(0.0);
    let a = if t >= SLIDER_START { 1.0 } else { 0.0 };
    (Vector2::new(1.0 + 0.5 * s * s, 0.0), Vector2::new(s, 0.0), Vector2::new(a, 0.0))
}

#[test]
fn a_failing_constraint_solve_names_its_step_and_time() {
    // A pendulum bob on its circle, and a rod from a fixed anchor to a scripted
    // slider. No force can move either end of the rod (both have W = 0), so its row
    // of J W Jᵀ is zero: harmless while the slider stands still (its row of the
    // right-hand side is zero too), impossible once the script pulls the rod longer.
    // That happens at t = 0.503 s, inside step 50 of 10 ms steps (t = 0.50 to 0.51):
    // the solve must refuse there, name the rod, and the step must say when.
    let h = 0.01;
    let bob = Particle::new(1.0, Vector2::new(-2.0, -1.0), Vector2::zeros()).unwrap();
    let anchor = Particle::new(1.0, Vector2::zeros(), Vector2::zeros()).unwrap();
    let slider =
        Particle::new(1.0, Vector2::new(1.0, 0.0), Vector2::zeros()).unwrap();
    let mut system = ConstrainedSystem::new(vec![
        bob,
        anchor.with_motion(Motion::Fixed),
        slider.with_motion(Motion::Scripted(slider_script)),
    ]);
    system.add_force(Gravity { g: Vector2::new(0.0, -G) }).unwrap();
    system
        .add_constraint(OnCircle::new(0, Vector2::new(-2.0, 0.0), 1.0).unwrap())
        .unwrap();
    system.add_constraint(Rod::new(1, 2, 1.0).unwrap()).unwrap();
    let mut rk4 = RungeKutta::new(RK4);
    let err =
        (0..100).try_for_each(|_| rk4.step(&mut system, h).map(|_| ())).unwrap_err();
    let PbmError::AtStep { step, time, source } = &err else { panic!("{err}") };
    assert_eq!(*step, 50, "{err}");
    assert!((time - 0.5).abs() < 1e-12, "{err}");
    assert!(matches!(**source, PbmError::Degenerate { .. }), "{err}");
    // The whole message, as the book quotes it: the slider's script accelerates it
    // at 1 m/s² along the rod; at the step's second stage (t = 0.505 s) the rod is
    // 2 µm long and stretching at 2 mm/s, which the feedback (k_s = 100, k_d = 20)
    // adds: −1 − 100 · 2e-6 − 20 · 0.002 = −1.040.
    assert_eq!(err.fault(), Fault::Computation);
    assert_eq!(
        err.to_string(),
        "at step 50 (t = 0.5 s): degenerate constraint solve: the rod constraint (row 1) acts on \
         no particle a force can move, so its row of J W Jᵀ is zero, yet its \
         right-hand side asks for -1.040: no multiplier can meet it"
    );
    // Until then the bob swung on its circle, and the failed step was undone.
    assert!((system.time() - 0.5).abs() < 1e-12);
    assert!(system.max_abs_c().unwrap() < 1e-9);
}

#[test]
fn a_rod_between_two_nailed_particles_is_refused_not_solved() {
    // J = [uᵀ, −uᵀ] has full row rank, but W = 0 at both ends: J W Jᵀ = 0. The
    // condition for a solvable system is full row rank of J W^½, not of J.
    let p = |x: f64| {
        Particle::new(1.0, Vector2::new(x, 0.0), Vector2::zeros())
            .unwrap()
            .with_motion(Motion::Fixed)
    };
    let mut system = ConstrainedSystem::new(vec![p(0.0), p(1.0)]);
    let err = system.add_constraint(Rod::new(0, 1, 1.0).unwrap()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid rod: every particle it acts on ([0, 1]) is fixed, so no force can \
         hold it: its row of J W Jᵀ would be zero"
    );
    assert_eq!(err.fault(), Fault::Input);
}

#[test]
fn notes_errata_the_power_has_no_extra_mass() {
    // A 2 kg bead moving on the unit circle under gravity: gravity does work, the
    // wire none, and dT/dt = (f + f̂)·ẋ = f·ẋ. The notes' m f·ẋ + m f̂·ẋ is twice
    // that here.
    let mass = 2.0;
    let mut system = ConstrainedSystem::new(vec![
        Particle::new(mass, Vector2::new(0.6, -0.8), Vector2::new(1.2, 0.9)).unwrap(),
    ]);
    system.add_force(Gravity { g: Vector2::new(0.0, -G) }).unwrap();
    system.add_constraint(OnCircle::new(0, Vector2::zeros(), 1.0).unwrap()).unwrap();
    let h = 1e-3;
    let kinetic = |s: &ConstrainedSystem<2>| {
        let v = s.particles.particles[0].v;
        0.5 * mass * v.dot(&v)
    };
    let mut rk4 = RungeKutta::new(RK4);
    let mut energies = Vec::new();
    let mut powers = Vec::new();
    for _ in 0..3 {
        system.particles.accumulate_forces().unwrap();
        let f_hat =
            Vector2::from_column_slice(system.solve_constraint_forces().unwrap());
        let p = &system.particles.particles[0];
        powers.push((p.f.dot(&p.v), f_hat.dot(&p.v)));
        energies.push(kinetic(&system));
        rk4.step(&mut system, h).unwrap();
    }
    let t_dot = (energies[2] - energies[0]) / (2.0 * h);
    let (applied, constraint) = powers[1];
    assert!(constraint.abs() < 1e-12, "the wire did work: {constraint:e}");
    assert!((t_dot - (applied + constraint)).abs() < 1e-5 * applied.abs(), "{t_dot}");
    assert!((t_dot - mass * (applied + constraint)).abs() > 0.4 * applied.abs());
}

#[test]
fn feedback_pulls_an_illegal_start_onto_the_wire() {
    // The bead starts at radius 1.1 on the unit circle: C = (1.21 − 1)/2 = 0.105.
    // With feedback the error decays critically damped (τ = 0.1 s); without, the
    // constraint force only keeps C̈ = 0 and the bead stays off the wire.
    let run = |feedback| {
        let mut system = ConstrainedSystem::new(vec![
            Particle::new(1.0, Vector2::new(1.1, 0.0), Vector2::zeros()).unwrap(),
        ]);
        system.add_force(Gravity { g: Vector2::new(0.0, -G) }).unwrap();
        system
            .add_constraint(OnCircle::new(0, Vector2::zeros(), 1.0).unwrap())
            .unwrap();
        system.feedback = feedback;
        let mut rk4 = RungeKutta::new(RK4);
        for _ in 0..200 {
            rk4.step(&mut system, 0.01).unwrap();
        }
        system.max_abs_c().unwrap()
    };
    let with = run(Feedback::DEFAULT);
    let without = run(Feedback::OFF);
    assert!(with < 1e-6, "{with:e}");
    assert!((without - 0.105).abs() < 1e-4, "{without}");
}
