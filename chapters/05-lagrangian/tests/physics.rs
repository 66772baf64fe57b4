//! Checks of the Lagrangian formulation against closed forms, finite differences,
//! chapter 4's constrained model and conservation of energy.

#![allow(clippy::unwrap_used)] // a test that unwraps fails with the error's message

use nalgebra::{DMatrix, DVector};
use pbm_lagrangian::models::{Bead, DoublePendulum, EllipseBead};
use pbm_lagrangian::parametric::{
    LagrangianSystem, ParametricModel, generalized_acceleration,
};
use pbm_lagrangian::scenes::{angular_double_pendulum, compare};
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::tableau::RK4;
use pbm_particles::forces::G;
use pbm_prelim::finite_difference::{
    EPSILON, central_derivative, central_jacobian, max_relative_error,
};
use pbm_prelim::sampling::sample;
use pbm_prelim::{Fault, PbmError};
use std::convert::Infallible;

/// J = ∂q/∂u and J̇ of a model against central differences at random states.
fn check_jacobians(model: &dyn ParametricModel, seed: u64) {
    let n = model.dof();
    for trial in 0..100 {
        let u: Vec<f64> =
            (0..n).map(|i| 4.0 * sample(seed + 10 * trial + i as u64)).collect();
        let u_dot: Vec<f64> =
            (0..n).map(|i| 3.0 * sample(seed + 10 * trial + 5 + i as u64)).collect();
        let j = model.jacobian(&u);
        let m = j.nrows();
        let positions = |probe: &[f64], out: &mut [f64]| -> Result<(), Infallible> {
            out.copy_from_slice(model.positions(probe).as_slice());
            Ok(())
        };
        let Ok(fd) = central_jacobian(positions, &u, m, EPSILON);
        // nalgebra stores by columns; the checker's matrices are row by row.
        let row_major =
            |a: &DMatrix<f64>| -> Vec<f64> { a.transpose().as_slice().to_vec() };
        let error = max_relative_error(&row_major(&j), &fd);
        assert!(error < 1e-8, "J: {error:e}");
        // J̇ is the rate of change of J along the motion u(t) = u + t u̇.
        let along = |s: f64, out: &mut [f64]| -> Result<(), Infallible> {
            let moved: Vec<f64> =
                u.iter().zip(&u_dot).map(|(a, b)| a + s * b).collect();
            out.copy_from_slice(&row_major(&model.jacobian(&moved)));
            Ok(())
        };
        let Ok(fd_dot) = central_derivative(along, m * n, EPSILON);
        let error =
            max_relative_error(&row_major(&model.jacobian_dot(&u, &u_dot)), &fd_dot);
        assert!(error < 1e-8, "J̇: {error:e}");
    }
}

#[test]
fn jacobians_match_finite_differences() {
    check_jacobians(&Bead::new(1.5, 0.7, G).unwrap(), 1);
    check_jacobians(&EllipseBead::new(1.5, 1.2, 0.5, G).unwrap(), 3);
    check_jacobians(&DoublePendulum::new([1.0, 2.0], [0.8, 1.3], G).unwrap(), 2);
}

#[test]
fn bead_equation_13_is_the_slides_closed_form() {
    let bead = Bead::new(2.0, 0.5, G).unwrap();
    for i in 0..200 {
        let (theta, omega) = (4.0 * sample(2 * i), 5.0 * sample(2 * i + 1));
        let a = generalized_acceleration(&bead, &[theta], &[omega]).unwrap()[0];
        // Jᵀ M J̇ = 0 on a circle, so the speed does not enter.
        assert!(
            (a - bead.closed_form_theta_ddot(theta)).abs() < 1e-12,
            "{theta} {omega}"
        );
    }
}

#[test]
fn bead_swings_with_the_pendulum_period() {
    // Small oscillations about the bottom (θ = −π/2) have period 2π √(r/g).
    let (r, g) = (0.5, G);
    let mut system = LagrangianSystem::new(
        Bead::new(1.0, r, g).unwrap(),
        vec![-std::f64::consts::FRAC_PI_2 + 0.01],
        vec![0.0],
    )
    .unwrap();
    let mut rk4 = RungeKutta::new(RK4);
    let h = 1e-4;
    let mut crossings = Vec::new();
    let mut prev = system.u[0] + std::f64::consts::FRAC_PI_2;
    while crossings.len() < 5 {
        rk4.step(&mut system, h).unwrap();
        let now = system.u[0] + std::f64::consts::FRAC_PI_2;
        if prev > 0.0 && now <= 0.0 {
            crossings.push(system.t - h * now / (now - prev)); // linear interpolation
        }
        prev = now;
    }
    let period = (crossings[4] - crossings[0]) / 4.0;
    let expected = 2.0 * std::f64::consts::PI * (r / g).sqrt();
    assert!((period / expected - 1.0).abs() < 1e-4, "{period} vs {expected}");
    assert!((system.positions().norm() - r).abs() < 1e-15);
}

#[test]
fn angles_and_constraint_forces_agree_for_the_first_second() {
    let samples = compare(1e-3, 1.0, 1).unwrap();
    let worst = samples.iter().fold(0.0_f64, |m, s| m.max(s.distance));
    assert!(worst < 1e-6, "{worst:e}");
    assert_eq!(samples.len(), 1001);
}

#[test]
fn double_pendulum_in_angles_conserves_energy() {
    let mut system = angular_double_pendulum().unwrap();
    let mut rk4 = RungeKutta::new(RK4);
    let e0 = system.energy();
    for _ in 0..10_000 {
        rk4.step(&mut system, 1e-3).unwrap();
    }
    assert!(
        (system.energy() - e0).abs() < 1e-4 * e0.abs(),
        "{} vs {e0}",
        system.energy()
    );
    // Links are exact by construction.
    let q = system.positions();
    let l2 = ((q[2] - q[0]).powi(2) + (q[3] - q[1]).powi(2)).sqrt();
    assert!((l2 - 1.0).abs() < 1e-15);
}

/// A deliberately degenerate parametrisation: q = (u², 0), whose Jacobian vanishes at
/// u = 0.
struct Degenerate;

impl ParametricModel for Degenerate {
    fn dof(&self) -> usize {
        1
    }
    fn masses(&self) -> &[f64] {
        &[1.0, 1.0]
    }
    fn positions(&self, u: &[f64]) -> DVector<f64> {
        DVector::from_vec(vec![u[0] * u[0], 0.0])
    }
    fn jacobian(&self, u: &[f64]) -> DMatrix<f64> {
        DMatrix::from_column_slice(2, 1, &[2.0 * u[0], 0.0])
    }
    fn jacobian_dot(&self, _u: &[f64], u_dot: &[f64]) -> DMatrix<f64> {
        DMatrix::from_column_slice(2, 1, &[2.0 * u_dot[0], 0.0])
    }
    fn gravity(&self) -> f64 {
        0.0
    }
    fn applied_force(
        &self,
        _q: &DVector<f64>,
        _q_dot: &DVector<f64>,
    ) -> DVector<f64> {
        DVector::from_vec(vec![1.0, 0.0])
    }
    fn potential_energy(&self, _q: &DVector<f64>) -> f64 {
        0.0
    }
}

#[test]
fn bad_input_is_an_error() {
    assert!(Bead::new(0.0, 1.0, G).is_err());
    assert!(Bead::new(1.0, f64::NAN, G).is_err());
    assert!(DoublePendulum::new([1.0, -1.0], [1.0, 1.0], G).is_err());
    let bead = || Bead::new(1.0, 1.0, G).unwrap();
    assert!(LagrangianSystem::new(bead(), vec![0.0, 1.0], vec![0.0]).is_err());
    assert!(LagrangianSystem::new(bead(), vec![f64::INFINITY], vec![0.0]).is_err());
    let err = generalized_acceleration(&Degenerate, &[0.0], &[0.0]).unwrap_err();
    assert!(err.to_string().contains("singular"), "{err}");
    // Stepping from the degenerate point is reported with its step, not silently
    // wrong.
    let mut system = LagrangianSystem::new(Degenerate, vec![0.0], vec![0.0]).unwrap();
    let err = RungeKutta::new(RK4).step(&mut system, 0.01).unwrap_err();
    assert!(matches!(err, PbmError::AtStep { step: 0, .. }), "{err}");
    assert!(matches!(
        err.cause(),
        PbmError::Degenerate { what: "parametrisation", .. }
    ));
    assert_eq!(err.fault(), Fault::Computation);
}

#[test]
fn a_bead_on_an_ellipse_agrees_with_chapter_4_and_needs_the_j_dot_term() {
    use nalgebra::Vector2;
    use pbm_constraints::constraint::OnEllipse;
    use pbm_constraints::system::ConstrainedSystem;
    use pbm_ode::system::OdeSystem;
    use pbm_particles::forces::Gravity;
    use pbm_particles::particle::Particle;
    // A 1 kg bead on the ellipse with half-axes 1.5 m (x) and 0.5 m (y), let go at
    // θ = 0.3 moving at θ̇ = 2 rad/s; 3 s of RK4 at h = 1 ms in both formulations.
    let (a, b, theta0, omega0, h, steps) = (1.5, 0.5, 0.3, 2.0, 1e-3, 3000);
    let model = EllipseBead::new(1.0, a, b, G).unwrap();
    // Here Jᵀ J̇ θ̇ = (a² − b²) sin θ cos θ θ̇² is not small: leaving the J̇ term out
    // changes θ̈ from −16.35 to −11.03 rad/s², by a third.
    let with = generalized_acceleration(&model, &[theta0], &[omega0]).unwrap()[0];
    let j = model.jacobian(&[theta0]);
    let jtj = (j.transpose() * &j)[(0, 0)];
    let without =
        with + (a * a - b * b) * theta0.sin() * theta0.cos() * omega0 * omega0 / jtj;
    assert!((with + 16.353).abs() < 1e-3 && (without + 11.034).abs() < 1e-3);
    let mut angles =
        LagrangianSystem::new(model.clone(), vec![theta0], vec![omega0]).unwrap();
    let q0 = Vector2::new(a * theta0.cos(), b * theta0.sin());
    let v0 = Vector2::new(-a * theta0.sin(), b * theta0.cos()) * omega0;
    let mut constrained =
        ConstrainedSystem::new(vec![Particle::new(1.0, q0, v0).unwrap()]);
    constrained.add_force(Gravity { g: Vector2::new(0.0, -G) }).unwrap();
    constrained
        .add_constraint(OnEllipse::new(0, Vector2::zeros(), a, b).unwrap())
        .unwrap();
    let mut rk4 = RungeKutta::new(RK4);
    let mut worst = 0.0f64;
    for _ in 0..steps {
        rk4.step(&mut angles, h).unwrap();
        rk4.step(&mut constrained, h).unwrap();
        let q = angles.positions();
        let x = constrained.particles.particles[0].x;
        worst = worst.max((Vector2::new(q[0], q[1]) - x).norm());
    }
    // Measured: 1.1e-9 m, the two integrators' own errors.
    assert!(worst < 1e-8, "the formulations part by {worst:e} m");
    assert!((constrained.time() - 3.0).abs() < 1e-9);
}

/// The hybrid of the page's worked sketch: a bead on the unit circle in its angle θ
/// (a parametric object, q(θ) = (cos θ, sin θ), generalised mass JᵀMJ = m_b), and a
/// free particle x hanging from it by a rod of length L, held by a constraint force
/// between the two. Generalised velocity s = (θ̇, ẋ), mass M̃ = diag(m_b, m_p, m_p),
/// rod C = ½(|d|² − L²) with d = q(θ) − x, so G = [dᵀJ, −dᵀ] and Ġ s = ḋ·ḋ + d·J̇θ̇.
/// Its derivative at the state (θ, x, y, θ̇, ẋ, ẏ) into `out`.
fn hybrid(s: &[f64], out: &mut [f64], (mb, mp): (f64, f64), rod: f64) {
    use nalgebra::{Vector2, Vector3};
    let [th, x, y, th_dot, vx, vy] = [s[0], s[1], s[2], s[3], s[4], s[5]];
    let q = Vector2::new(th.cos(), th.sin());
    let j = Vector2::new(-th.sin(), th.cos()); // ∂q/∂θ
    let j_dot = -q * th_dot; // J̇
    let d = q - Vector2::new(x, y);
    let d_dot = j * th_dot - Vector2::new(vx, vy);
    // Generalised forces: the bead's gravity through Jᵀ (the circle's Jᵀ M J̇ θ̇
    // is zero), the particle's gravity as it is.
    let q_tilde = Vector3::new(j.dot(&Vector2::new(0.0, -mb * G)), 0.0, -mp * G);
    let w = Vector3::new(1.0 / mb, 1.0 / mp, 1.0 / mp); // M̃⁻¹ (JᵀMJ = m_b r²)
    let g = Vector3::new(d.dot(&j), -d.x, -d.y);
    let c = 0.5 * (d.dot(&d) - rod * rod);
    let c_dot = d.dot(&d_dot);
    // G M̃⁻¹ Gᵀ λ = −Ġ s − G M̃⁻¹ Q̃ − k_s C − k_d Ċ (chapter 4's feedback).
    let lhs = g.component_mul(&w).dot(&g);
    let rhs = -(d_dot.dot(&d_dot) + d.dot(&j_dot) * th_dot)
        - g.component_mul(&w).dot(&q_tilde)
        - 100.0 * c
        - 20.0 * c_dot;
    let lambda = rhs / lhs;
    let acc = (q_tilde + g * lambda).component_mul(&w);
    out.copy_from_slice(&[th_dot, vx, vy, acc.x, acc.y, acc.z]);
}

#[test]
fn a_hybrid_bead_and_particle_match_the_all_constraint_model() {
    use nalgebra::Vector2;
    use pbm_constraints::constraint::{OnCircle, Rod};
    use pbm_constraints::system::ConstrainedSystem;
    use pbm_ode::system::OdeSystem;
    use pbm_particles::forces::Gravity;
    use pbm_particles::particle::Particle;
    // Bead 1 kg at θ = −0.3 moving at 1.5 rad/s; a 0.5 kg particle 0.8 m from it,
    // hanging off to the side, at rest. 3 s of RK4 at 1 ms in both formulations.
    let (mb, mp, rod, th0, w0) = (1.0, 0.5, 0.8, -0.3f64, 1.5);
    let bead = Vector2::new(th0.cos(), th0.sin());
    let hang = bead + Vector2::new(0.3, -(rod * rod - 0.09f64).sqrt());
    let start = [th0, hang.x, hang.y, w0, 0.0, 0.0];
    let mut hybrid = pbm_ode::system::VectorField::new(&start, 0.0, |_, s, out| {
        hybrid(s, out, (mb, mp), rod);
    })
    .unwrap();
    let mut full = ConstrainedSystem::new(vec![
        Particle::new(mb, bead, Vector2::new(-th0.sin(), th0.cos()) * w0).unwrap(),
        Particle::new(mp, hang, Vector2::zeros()).unwrap(),
    ]);
    full.add_force(Gravity { g: Vector2::new(0.0, -G) }).unwrap();
    full.add_constraint(OnCircle::new(0, Vector2::zeros(), 1.0).unwrap()).unwrap();
    full.add_constraint(Rod::new(0, 1, rod).unwrap()).unwrap();
    let mut rk4 = RungeKutta::new(RK4);
    let mut worst = 0.0f64;
    for _ in 0..3000 {
        rk4.step(&mut hybrid, 1e-3).unwrap();
        rk4.step(&mut full, 1e-3).unwrap();
        let s = pbm_ode::system::state_of(&hybrid);
        let p = &full.particles.particles;
        let bead_gap = (Vector2::new(s[0].cos(), s[0].sin()) - p[0].x).norm();
        let particle_gap = (Vector2::new(s[1], s[2]) - p[1].x).norm();
        worst = worst.max(bead_gap).max(particle_gap);
    }
    // Measured: 4.9e-10 m.
    assert!(worst < 1e-8, "the formulations part by {worst:e} m");
    assert!((hybrid.time() - 3.0).abs() < 1e-9);
}

#[test]
fn the_recovered_constraint_force_does_no_work_and_holds_a_bead_at_rest() {
    use pbm_lagrangian::parametric::constraint_force;
    // Jᵀ Q̂ = 0 for random states of the ellipse bead and the double pendulum.
    let ellipse = pbm_lagrangian::scenes::ellipse_bead().unwrap();
    let pendulum = DoublePendulum::new([1.0, 0.5], [1.0, 0.7], G).unwrap();
    for i in 0..50u64 {
        let s = |k| 3.0 * sample(4 * i + k);
        let (u, u_dot) = ([s(0)], [s(1)]);
        let q_hat = constraint_force(&ellipse, &u, &u_dot).unwrap();
        let work = ellipse.jacobian(&u).transpose() * &q_hat;
        // Rounding of forces of order m g + m a θ̇² ≈ 30 N.
        assert!(work.norm() < 1e-12, "{work}");
        let (u, u_dot) = ([s(0), s(1)], [s(2), s(3)]);
        let q_hat = constraint_force(&pendulum, &u, &u_dot).unwrap();
        assert!((pendulum.jacobian(&u).transpose() * &q_hat).norm() < 1e-11);
    }
    // At rest at the bottom of a circle, the wire carries the bead's weight.
    let bead = Bead::new(2.0, 0.7, G).unwrap();
    let q_hat =
        constraint_force(&bead, &[-std::f64::consts::FRAC_PI_2], &[0.0]).unwrap();
    assert!(q_hat[0].abs() < 1e-12 && (q_hat[1] - 2.0 * G).abs() < 1e-12);
    // The page's bead: part of gravity's pull across the wire bends the moving bead's
    // path, so the wire pushes less than it does on the bead at rest there.
    let ([a, b], [theta, theta_dot]) = pbm_lagrangian::scenes::ELLIPSE_BEAD;
    assert_eq!((a, b, theta, theta_dot), (1.5, 0.5, 0.3, 2.0));
    let q_hat = constraint_force(&ellipse, &[theta], &[theta_dot]).unwrap();
    let at_rest = constraint_force(&ellipse, &[theta], &[0.0]).unwrap();
    assert!(q_hat.norm() < at_rest.norm() - 1.0 && q_hat.dot(&at_rest) > 0.0);
}
