//! Practice for chapter 5: the reader writes the solve for the generalised
//! accelerations, the Jacobian of a bead on a wire known only as a function, the two
//! gradients of the kinetic energy in generalised coordinates, and the row of a rod
//! between a parametric bead and a free particle. The accelerations are checked on
//! the circle's closed form θ̈ = −(g/r) cos θ, by the energy they must keep on an
//! ellipse and a double pendulum, and by the constraint force they imply doing no
//! work, also on a puck in polar coordinates pulled by a spring and slowed by drag;
//! the wire's J and J̇ against the exact derivatives of three curves, then by the
//! cycloid's swing, which takes 4π√(a/g) from every height; the gradients and the
//! rod's row against central differences of T and of C.

use crate::models::{Bead, DoublePendulum, EllipseBead};
use crate::parametric::{LagrangianSystem, ParametricModel};
use crate::wire::{Curve, tautochrone_period};
use nalgebra::{DMatrix, DVector, Vector2};
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::OdeSystem;
use pbm_ode::tableau::RK4;
use pbm_particles::forces::G;
use pbm_prelim::PbmError;
use pbm_prelim::practice::{Listing, Report, Task, case, number, numbers, sequence};

/// A solve for ü the reader writes (the signature of
/// [`crate::parametric::generalized_acceleration`] on a model object).
pub type AccelerationFn = fn(
    &(dyn ParametricModel + 'static),
    &[f64],
    &[f64],
) -> Result<DVector<f64>, PbmError>;

/// A wire's (J, J̇) the reader writes, from the curve as a function.
pub type WireFn =
    fn(&dyn Fn(f64) -> Vector2<f64>, f64, f64) -> (Vector2<f64>, Vector2<f64>);

/// The kinetic energy's gradients (∂T/∂u̇, ∂T/∂u) the reader writes.
pub type KineticFn =
    fn(&dyn ParametricModel, &[f64], &[f64]) -> (DVector<f64>, DVector<f64>);

/// A rod's row of G and its Ġ s, between a bead (θ, θ̇) and a particle (x, ẋ), the
/// reader writes.
pub type RodRowFn = fn(
    &dyn ParametricModel,
    f64,
    f64,
    &Vector2<f64>,
    &Vector2<f64>,
) -> ([f64; 3], f64);

/// The chapter's tasks.
pub const TASKS: &[Task] = &[
    Task {
        id: "lagrangian/acceleration",
        title: "the generalised accelerations ü",
        section: "Lagrangian Dynamics",
        page: "05-lagrangian/index.md",
        equation: "parametric-dynamics",
        difficulty: 2,
        file: "acceleration.rs",
        stub: include_str!("practice/acceleration.rs"),
        check: "pbm_lagrangian::practice::check_acceleration(reader::generalized_acceleration)",
        hints: &[
            "Gather the pieces first: J, J̇, q = positions(u), q̇ = J u̇, Q = \
             applied_force(q, q̇), and M = DMatrix::from_diagonal of the masses.",
            "The matrix is Jᵀ M J (dof × dof) and the right-hand side Jᵀ (Q − M J̇ u̇): \
             the J̇ term is moved to the right with a minus.",
            "Jᵀ M J is symmetric positive definite where the parametrisation is good: \
             `.cholesky()` gives None where it is not, and that must become an error.",
        ],
        solution: Listing {
            source: include_str!("practice/acceleration_solution.rs"),
            anchor: "generalized_acceleration",
        },
    },
    Task {
        id: "lagrangian/wire-jacobian",
        title: "J and J̇ of a bead on any wire",
        section: "Lagrangian Dynamics",
        page: "05-lagrangian/index.md",
        equation: "wire-bead",
        difficulty: 1,
        file: "wire_jacobian.rs",
        stub: include_str!("practice/wire_jacobian.rs"),
        check: "pbm_lagrangian::practice::check_wire_jacobian(reader::wire_jacobian)",
        hints: &[
            "J is the tangent c′(θ): the central difference (c(θ + h) − c(θ − h)) / 2h.",
            "J̇ is c″(θ) times θ̇, once: (c(θ + h) − 2c(θ) + c(θ − h)) / h², then \
             multiplied by θ̇.",
            "Rounding in c is divided by h in c′ and by h² in c″: h ≈ 10⁻⁵ suits c′, \
             h ≈ 10⁻⁴ suits c″.",
        ],
        solution: Listing {
            source: include_str!("practice/wire_jacobian_solution.rs"),
            anchor: "wire_jacobian",
        },
    },
    Task {
        id: "lagrangian/kinetic-gradients",
        title: "the two gradients of the kinetic energy, ∂T/∂u̇ and ∂T/∂u",
        section: "The general form",
        page: "05-lagrangian/index.md",
        equation: "kinetic-energy-gradient",
        difficulty: 1,
        file: "kinetic_gradients.rs",
        stub: include_str!("practice/kinetic_gradients.rs"),
        check: "pbm_lagrangian::practice::check_kinetic_gradients(\
                reader::kinetic_energy_gradients)",
        hints: &[
            "Both gradients start from the same vector, M q̇: q̇ = J u̇, then multiply \
             entry by entry by the masses.",
            "T = ½ u̇ᵀ (Jᵀ M J) u̇ is a quadratic in u̇: its gradient is Jᵀ M J u̇, with \
             no ½ and no 2 (the square's 2 cancels the ½).",
            "T depends on u only through J, and ∂(J u̇)/∂u_k is column k of J̇: so \
             ∂T/∂u = J̇ᵀ (M q̇). The transpose is on J̇, not on J.",
        ],
        solution: Listing {
            source: include_str!("practice/kinetic_gradients_solution.rs"),
            anchor: "kinetic_energy_gradients",
        },
    },
    Task {
        id: "lagrangian/rod-row",
        title: "a rod's row between a parametric bead and a free particle",
        section: "A hybrid, worked",
        page: "05-lagrangian/index.md",
        equation: "hybrid-rod-jacobian",
        difficulty: 2,
        file: "rod_row.rs",
        stub: include_str!("practice/rod_row.rs"),
        check: "pbm_lagrangian::practice::check_rod_row(reader::rod_row)",
        hints: &[
            "Gather the bead's pieces as 2-vectors: q = positions(&[θ]), the tangent \
             J = jacobian(&[θ]) and J̇ = jacobian_dot(&[θ], &[θ̇]) (both 2 × 1).",
            "d = q − x and ḋ = J θ̇ − ẋ: Ċ = d·ḋ, whose coefficients of θ̇, ẋ and ẏ are \
             the row (d·J, −d_x, −d_y).",
            "Ġ s is what C̈ is when the accelerations are zero: the derivative of d·ḋ \
             is ḋ·ḋ + d·d̈, and with θ̈ = 0 and ẍ = 0, d̈ = J̇ θ̇.",
        ],
        solution: Listing {
            source: include_str!("practice/rod_row_solution.rs"),
            anchor: "rod_row",
        },
    },
];

/// The reader's ü, or the failure to report: an error, a wrong length, NaN.
fn accelerations(
    f: AccelerationFn,
    model: &(dyn ParametricModel + 'static),
    u: &[f64],
    u_dot: &[f64],
    what: &str,
) -> Result<DVector<f64>, Report> {
    case(format!("{what} at u = {}, u̇ = {}", numbers(u), numbers(u_dot)));
    let a = f(model, u, u_dot).map_err(|e| {
        Report::fail(format!(
            "for {what} at u = {} your solve returned an error: {e}",
            numbers(u)
        ))
    })?;
    if a.len() != model.dof() {
        return Err(Report::fail(format!(
            "for {what} your ü has {} entries: there is one per coordinate, {}",
            a.len(),
            model.dof()
        )));
    }
    if !a.iter().all(|x| x.is_finite()) {
        return Err(Report::fail(format!(
            "for {what} at u = {}, u̇ = {} your ü is {}",
            numbers(u),
            numbers(u_dot),
            numbers(a.as_slice())
        )));
    }
    Ok(a)
}

/// The power of the constraint force the accelerations imply, Q̂ = M q̈ − Q with
/// q̈ = J ü + J̇ u̇, along every coordinate: Jᵀ Q̂, which virtual work makes zero, and
/// the size it is measured against.
fn constraint_work(
    model: &dyn ParametricModel,
    u: &[f64],
    u_dot: &[f64],
    u_ddot: &DVector<f64>,
) -> (DVector<f64>, f64) {
    let (j, j_dot) = (model.jacobian(u), model.jacobian_dot(u, u_dot));
    let u_dot = DVector::from_column_slice(u_dot);
    let q_dot = &j * &u_dot;
    let force = model.applied_force(&model.positions(u), &q_dot);
    let mass = DVector::from_column_slice(model.masses());
    let inertia = (&j * u_ddot + &j_dot * &u_dot).component_mul(&mass);
    let scale = force.norm() + (&j_dot * &u_dot).component_mul(&mass).norm();
    (j.transpose() * (inertia - force), scale * j.norm())
}

/// ü from equation 13 with the applied force `force` in place of the model's and
/// J̇ scaled by `j_dot_factor` (0 drops the velocity term, −1 flips it): the check's
/// own solve, used only to recognise what a wrong ü was built from.
fn solve_scaled(
    model: &dyn ParametricModel,
    u: &[f64],
    u_dot: &[f64],
    force: &DVector<f64>,
    j_dot_factor: f64,
) -> Option<DVector<f64>> {
    let j = model.jacobian(u);
    let j_dot = model.jacobian_dot(u, u_dot) * j_dot_factor;
    let u_dot = DVector::from_column_slice(u_dot);
    let mass = DVector::from_column_slice(model.masses());
    let lhs = j.transpose() * DMatrix::from_diagonal(&mass) * &j;
    let rhs = j.transpose() * (force - (&j_dot * &u_dot).component_mul(&mass));
    lhs.cholesky().map(|llt| llt.solve(&rhs))
}

/// A puck of mass m on a plane, in polar coordinates u = (r, φ) about the origin:
/// q = r (cos φ, sin φ). A spring of stiffness k pulls it towards a fixed point a,
/// linear drag −c q̇ slows it, and gravity pulls it along −y: its applied force
/// depends on both q and q̇. Nothing constrains it, J is square and invertible for
/// r > 0, so Jᵀ (M q̈ − Q) = 0 is Newton's law itself.
struct PolarPuck {
    masses: [f64; 2],
    anchor: Vector2<f64>,
    stiffness: f64,
    drag: f64,
}

/// The checks' puck: 1.5 kg, on a spring of 8 N/m to (0.6, −0.4), drag 0.7 N s/m.
fn puck() -> PolarPuck {
    PolarPuck {
        masses: [1.5, 1.5],
        anchor: Vector2::new(0.6, -0.4),
        stiffness: 8.0,
        drag: 0.7,
    }
}

impl ParametricModel for PolarPuck {
    fn dof(&self) -> usize {
        2
    }
    fn masses(&self) -> &[f64] {
        &self.masses
    }
    fn positions(&self, u: &[f64]) -> DVector<f64> {
        DVector::from_vec(vec![u[0] * u[1].cos(), u[0] * u[1].sin()])
    }
    fn jacobian(&self, u: &[f64]) -> DMatrix<f64> {
        let (r, (s, c)) = (u[0], u[1].sin_cos());
        DMatrix::from_row_slice(2, 2, &[c, -r * s, s, r * c])
    }
    fn jacobian_dot(&self, u: &[f64], u_dot: &[f64]) -> DMatrix<f64> {
        let (r, (s, c)) = (u[0], u[1].sin_cos());
        let (rd, w) = (u_dot[0], u_dot[1]);
        DMatrix::from_row_slice(
            2,
            2,
            &[-s * w, -rd * s - r * c * w, c * w, rd * c - r * s * w],
        )
    }
    fn gravity(&self) -> f64 {
        G
    }
    fn applied_force(&self, q: &DVector<f64>, q_dot: &DVector<f64>) -> DVector<f64> {
        // Written for any length, so that a force asked at the wrong arguments is a
        // wrong force, not a panic.
        let at = |v: &DVector<f64>, i: usize| v.get(i).copied().unwrap_or(0.0);
        let m = self.masses[0];
        DVector::from_fn(2, |i, _| {
            let gravity = if i == 1 { -m * G } else { 0.0 };
            gravity
                - self.stiffness * (at(q, i) - self.anchor[i])
                - self.drag * at(q_dot, i)
        })
    }
    fn potential_energy(&self, q: &DVector<f64>) -> f64 {
        let stretch = Vector2::new(q[0], q[1]) - self.anchor;
        self.masses[0] * G * q[1] + 0.5 * self.stiffness * stretch.norm_squared()
    }
}

/// Checks the reader's ü on the polar puck at a few states by Newton's law, and
/// names the arguments a wrong force was evaluated at.
fn check_puck(f: AccelerationFn) -> Option<String> {
    let puck = puck();
    let what = "a 1.5 kg puck in polar coordinates (r, φ), on a spring to (0.6, −0.4) \
                with drag";
    for (u, u_dot) in [
        ([1.2, 0.4], [0.8, -1.5]),
        ([0.7, -2.0], [-1.1, 2.2]),
        ([1.6, 2.5], [0.3, 0.9]),
    ] {
        let got = match accelerations(f, &puck, &u, &u_dot, what) {
            Ok(a) => a,
            Err(report) => return Some(report.lines.join(" ")),
        };
        let (work, scale) = constraint_work(&puck, &u, &u_dot, &got);
        if work.norm() <= 1e-9 * (1.0 + scale) {
            continue;
        }
        let j = puck.jacobian(&u);
        let (q, q_dot) =
            (puck.positions(&u), &j * DVector::from_column_slice(&u_dot));
        let (u_v, u_dot_v) =
            (DVector::from_column_slice(&u), DVector::from_column_slice(&u_dot));
        let zero = DVector::zeros(2);
        let right = puck.applied_force(&q, &q_dot);
        let candidates = [
            (
                puck.applied_force(&u_v, &u_dot_v),
                1.0,
                "Your ü is the one a force evaluated at (u, u̇) gives: the spring and the \
                 drag act on the puck's position q = positions(u) and velocity q̇ = J u̇, \
                 so call applied_force(q, q̇), not applied_force(u, u̇)",
            ),
            (
                puck.applied_force(&q, &zero),
                1.0,
                "Your ü is the one with the drag at rest: the force was given q̇ = 0. \
                 Pass the puck's velocity q̇ = J u̇",
            ),
            (
                puck.applied_force(&q, &u_dot_v),
                1.0,
                "Your ü is the one with the drag fed u̇ = (ṙ, φ̇): the force needs the \
                 puck's velocity in the plane, q̇ = J u̇",
            ),
            (
                puck.applied_force(&u_v, &q_dot),
                1.0,
                "Your ü is the one with the spring stretched to u = (r, φ): the force \
                 needs the position in the plane, q = positions(u)",
            ),
            (
                pbm_lagrangian::parametric::gravity_force(puck.masses(), G),
                1.0,
                "Your ü feels gravity alone: the spring and the drag are missing. Q is \
                 model.applied_force(q, q̇), not gravity_force",
            ),
            (
                right.clone(),
                0.0,
                "Your ü lacks the J̇ u̇ term, which in polar coordinates holds the \
                 centripetal −r φ̇² and the Coriolis 2 ṙ φ̇: without it even a free \
                 puck would not move in a straight line",
            ),
            (
                right,
                -1.0,
                "Your J̇ u̇ term has the wrong sign: Jᵀ M J ü = Jᵀ Q − Jᵀ M J̇ u̇",
            ),
        ];
        let why = candidates
            .iter()
            .find(|(force, j_dot_factor, _)| {
                solve_scaled(&puck, &u, &u_dot, force, *j_dot_factor)
                    .is_some_and(|a| (a - &got).norm() <= 1e-9 * (1.0 + got.norm()))
            })
            .map_or(
                "Check J̇ u̇, which holds the centripetal and the Coriolis terms here, and \
                 the arguments of applied_force: the particle's q and q̇"
                    .to_string(),
                |(_, _, why)| why.to_string(),
            );
        return Some(format!(
            "for {what} at (r, φ) = {}, (ṙ, φ̇) = {}, your ü = {} breaks Newton's law: \
             Jᵀ (M q̈ − Q) = {} where nothing constrains the puck and it must be 0. \
             {why}",
            numbers(&u),
            numbers(&u_dot),
            numbers(got.as_slice()),
            numbers(work.as_slice())
        ));
    }
    None
}

/// A model moved by the reader's accelerations: the chapter's system for its state,
/// clock and energy, the reader's function for ü.
struct ReaderMotion<'a> {
    system: LagrangianSystem<&'a (dyn ParametricModel + 'static)>,
    f: AccelerationFn,
}

impl OdeSystem for ReaderMotion<'_> {
    pbm_ode::forward_state!(system);
    fn derivative(&mut self, xdot: &mut [f64]) -> Result<(), PbmError> {
        let s = &self.system;
        let n = s.u.len();
        xdot[..n].copy_from_slice(&s.u_dot);
        let a = (self.f)(s.model, &s.u, &s.u_dot)?;
        if a.len() != n || !a.iter().all(|x| x.is_finite()) {
            return Err(PbmError::degenerate(
                "your accelerations",
                format!("ü = {} at u = {}", numbers(a.as_slice()), numbers(&s.u)),
            ));
        }
        xdot[n..].copy_from_slice(a.as_slice());
        Ok(())
    }
}

/// The largest change of energy, relative to `scale`, over `steps` RK4 steps of `h`.
fn energy_drift(
    f: AccelerationFn,
    model: &(dyn ParametricModel + 'static),
    u: &[f64],
    (steps, h, scale): (usize, f64, f64),
) -> Result<f64, PbmError> {
    let mut system = ReaderMotion {
        system: LagrangianSystem::new(model, u.to_vec(), vec![0.0; u.len()])?,
        f,
    };
    let e0 = system.system.energy();
    let mut rk4 = RungeKutta::new(RK4);
    let mut worst = 0.0_f64;
    for _ in 0..steps {
        rk4.step(&mut system, h)?;
        worst = worst.max((system.system.energy() - e0).abs() / scale);
    }
    Ok(worst)
}

/// A parametrisation that folds over at u = 0: q = (u², u²/2), J = (2u, u)ᵀ.
struct Fold;

impl ParametricModel for Fold {
    fn dof(&self) -> usize {
        1
    }
    fn masses(&self) -> &[f64] {
        &[1.0, 1.0]
    }
    fn positions(&self, u: &[f64]) -> DVector<f64> {
        DVector::from_vec(vec![u[0] * u[0], 0.5 * u[0] * u[0]])
    }
    fn jacobian(&self, u: &[f64]) -> DMatrix<f64> {
        DMatrix::from_column_slice(2, 1, &[2.0 * u[0], u[0]])
    }
    fn jacobian_dot(&self, _u: &[f64], u_dot: &[f64]) -> DMatrix<f64> {
        DMatrix::from_column_slice(2, 1, &[2.0 * u_dot[0], u_dot[0]])
    }
    fn gravity(&self) -> f64 {
        G
    }
}

/// The circle bead's closed form θ̈ = −(g/r) cos θ at twelve states: None, or what is
/// wrong.
fn check_circle(f: AccelerationFn) -> Option<String> {
    let (mass, radius) = (2.0, 0.7);
    let Ok(circle) = Bead::new(mass, radius, G) else {
        return Some("the check could not build its bead".to_string());
    };
    let mut next = sequence(0x3c6e_f372);
    let what = format!("a {mass} kg bead on a circle of radius {radius} m");
    for _ in 0..12 {
        let (theta, theta_dot) = (3.0 * next(), 4.0 * next());
        let got = match accelerations(f, &circle, &[theta], &[theta_dot], &what) {
            Ok(a) => a[0],
            Err(report) => return Some(report.lines.join(" ")),
        };
        let want = -(G / radius) * theta.cos();
        if (got - want).abs() <= 1e-9 * (1.0 + want.abs()) {
            continue;
        }
        let near = |x: f64| (got - x).abs() <= 1e-9 * (1.0 + x.abs());
        let why = if near(-want) {
            "it has the wrong sign: the bead would fall upwards. The force enters as \
             + Jᵀ Q"
                .to_string()
        } else if near(mass * mass * want) {
            format!(
                "it is {} times too large, the bead's mass squared: that is what Jᵀ M⁻¹ J \
                 gives. The matrix is Jᵀ M J, with the masses themselves",
                number(mass * mass)
            )
        } else if near(mass * want) {
            format!(
                "it is {mass} times too large, the bead's mass: the matrix is Jᵀ M J \
                 with the masses in it, not Jᵀ J"
            )
        } else if near(want / mass) {
            format!(
                "it is {mass} times too small, the bead's mass: Q already carries the \
                 mass (m g), so it is not divided by M again"
            )
        } else {
            case(format!("{what} at θ = {}, at rest", number(theta)));
            let at_rest =
                f(&circle, &[theta], &[0.0]).map(|a| a[0]).unwrap_or(f64::NAN);
            if (at_rest - want).abs() <= 1e-9 * (1.0 + want.abs()) {
                "it is right at rest and wrong in motion: on a circle J̇ = −r (cos θ, \
                 sin θ) θ̇ is perpendicular to J, so Jᵀ M J̇ u̇ vanishes and ü must not \
                 depend on θ̇. Is J̇ multiplied by u̇ and then by Jᵀ M?"
                    .to_string()
            } else {
                "check the pieces: J = model.jacobian(u), Q = \
                 model.applied_force(positions(u), J u̇)"
                    .to_string()
            }
        };
        return Some(format!(
            "for {what} at θ = {}, θ̇ = {} your θ̈ is {}, where the pendulum's closed form \
             is −(g/r) cos θ = {}: {why}",
            number(theta),
            number(theta_dot),
            number(got),
            number(want)
        ));
    }
    None
}

/// The ellipse bead: the J̇ term matters, and the constraint force must do no work at
/// every state.
fn check_ellipse(f: AccelerationFn) -> Option<String> {
    let Ok(ellipse) = EllipseBead::new(1.0, 1.5, 0.5, G) else {
        return Some("the check could not build its ellipse bead".to_string());
    };
    let what = "a 1 kg bead on the ellipse with half-axes 1.5 m and 0.5 m";
    for (theta, theta_dot) in [(0.3, 2.0), (-1.1, -1.4), (2.4, 3.0), (0.9, -2.5)] {
        let got = match accelerations(f, &ellipse, &[theta], &[theta_dot], what) {
            Ok(a) => a,
            Err(report) => return Some(report.lines.join(" ")),
        };
        let (work, scale) = constraint_work(&ellipse, &[theta], &[theta_dot], &got);
        if work.norm() <= 1e-9 * (1.0 + scale) {
            continue;
        }
        case(format!("{what} at θ = {theta}, at rest"));
        let still = f(&ellipse, &[theta], &[0.0]).map(|a| a[0]).unwrap_or(f64::NAN);
        // How θ̈ must change with θ̇ for the constraint force to do no work: with ü =
        // 0 the work is Jᵀ(M J̇ u̇ − Q) moving and −Jᵀ Q at rest.
        let zero = DVector::zeros(1);
        let moving = constraint_work(&ellipse, &[theta], &[theta_dot], &zero).0[0];
        let at_rest = constraint_work(&ellipse, &[theta], &[0.0], &zero).0[0];
        let j = ellipse.jacobian(&[theta]);
        let jmj: f64 = j.iter().zip(ellipse.masses()).map(|(t, m)| m * t * t).sum();
        let velocity_part = -(moving - at_rest) / jmj;
        let yours = got[0] - still;
        let why = if yours.abs() < 1e-9 * (1.0 + velocity_part.abs()) {
            format!(
                "your θ̈ does not change with θ̇ (it is {} at rest too), but on an \
                 ellipse the tangent J changes length along the wire and Jᵀ M J̇ u̇ = \
                 m (a² − b²) sin θ cos θ θ̇² is not zero: the J̇ u̇ term is missing",
                number(still)
            )
        } else if (yours + velocity_part).abs() < 1e-9 * (1.0 + velocity_part.abs()) {
            "the J̇ term has the wrong sign: Jᵀ M J ü = Jᵀ Q − Jᵀ M J̇ u̇".to_string()
        } else {
            "the constraint force your ü implies does work along the wire".to_string()
        };
        return Some(format!(
            "for {what} at θ = {theta}, θ̇ = {theta_dot}, your θ̈ = {} makes the \
             constraint force M q̈ − Q (q̈ = J ü + J̇ u̇) do work along the wire, Jᵀ (M q̈ \
             − Q) = {}, so the bead's energy changes: {why}",
            number(got[0]),
            number(work[0])
        ));
    }
    None
}

/// The double pendulum: two coordinates, virtual work at eight states and energy
/// under RK4. The largest work and the drift, or what is wrong.
fn check_pendulum(f: AccelerationFn) -> Result<(f64, f64), String> {
    let Ok(pendulum) = DoublePendulum::new([1.0, 2.0], [1.0, 0.7], G) else {
        return Err("the check could not build its double pendulum".to_string());
    };
    let what = "a double pendulum (1 kg and 2 kg on links of 1 m and 0.7 m)";
    let mut next = sequence(0x7a3b_15c2);
    let mut worst = 0.0_f64;
    for _ in 0..8 {
        let (u, u_dot) = ([3.0 * next(), 3.0 * next()], [3.0 * next(), 3.0 * next()]);
        let got = accelerations(f, &pendulum, &u, &u_dot, what)
            .map_err(|report| report.lines.join(" "))?;
        let (work, scale) = constraint_work(&pendulum, &u, &u_dot, &got);
        if work.norm() > 1e-9 * (1.0 + scale) {
            return Err(format!(
                "for {what} at u = {}, u̇ = {}, your ü = {} makes the constraint force \
                 M q̈ − Q do work along the coordinates: Jᵀ (M q̈ − Q) = {} where \
                 virtual work makes it zero. With two coordinates Jᵀ M J is a 2 × 2 \
                 matrix and Jᵀ Q, Jᵀ M J̇ u̇ vectors of two",
                numbers(&u),
                numbers(&u_dot),
                numbers(got.as_slice()),
                numbers(work.as_slice())
            ));
        }
        worst = worst.max(work.norm() / (1.0 + scale));
    }
    let scale = 3.0 * G * 1.7; // m g l, the size of the energy exchanged
    case(format!("{what}, moved by RK4 from u = (1.2, 2)"));
    let drift = energy_drift(f, &pendulum, &[1.2, 2.0], (3000, 1e-3, scale))
        .map_err(|e| format!("moving {what} with your ü failed: {e}"))?;
    if drift > 1e-6 {
        return Err(format!(
            "{what} moved by your ü for 3 s of RK4 changed its energy by {} of m g l: \
             the accelerations are not those of a conservative system",
            number(drift)
        ));
    }
    Ok((worst, drift))
}

/// Checks a solve for ü: the circle bead's closed form, virtual work on an ellipse
/// bead, Newton's law on a puck in polar coordinates whose force depends on q and q̇,
/// virtual work and energy on a double pendulum, and an error where the coordinates
/// fold. Every failing model gets its line.
pub fn check_acceleration(f: AccelerationFn) -> Report {
    let mut failures: Vec<String> =
        [check_circle(f), check_ellipse(f), check_puck(f)]
            .into_iter()
            .flatten()
            .collect();
    let pendulum = check_pendulum(f);
    if let Err(why) = &pendulum {
        failures.push(why.clone());
    }
    // The fold: Jᵀ M J = 0 at u = 0.
    case("q = (u², u²/2) at u = 0, where J = 0");
    if let Ok(a) = f(&Fold, &[0.0], &[1.0]) {
        failures.push(format!(
            "for q = (u², u²/2) at u = 0, where J = 0 and Jᵀ M J is singular, your solve \
             returned ü = {}: no acceleration is right there, so return an error \
             (PbmError::degenerate), not a number",
            numbers(a.as_slice())
        ));
    }
    match pendulum {
        Ok((worst, drift)) if failures.is_empty() => Report::pass(vec![
            "θ̈ = −(g/r) cos θ for a 2 kg bead on a circle at 12 states, whatever θ̇"
                .to_string(),
            format!(
                "the implied constraint force does no work (Jᵀ(M q̈ − Q) = 0) on an \
                 ellipse bead and, to {}, on a double pendulum",
                number(worst)
            ),
            "M q̈ = Q for a puck in polar coordinates on a spring with drag, a force \
             that depends on q and q̇"
                .to_string(),
            format!(
                "3 s of RK4 on the double pendulum keep its energy to {} of m g l",
                number(drift)
            ),
            "a folding parametrisation (J = 0) is an error".to_string(),
        ]),
        _ => Report::fail_all(failures),
    }
}

/// A bead on a cycloid wire with the reader's J and J̇.
struct ReaderWire {
    f: WireFn,
    curve: Curve,
}

impl ReaderWire {
    fn derivatives(
        &self,
        theta: f64,
        theta_dot: f64,
    ) -> (Vector2<f64>, Vector2<f64>) {
        let curve = self.curve;
        (self.f)(&move |t| curve.at(t)[0], theta, theta_dot)
    }
}

impl ParametricModel for ReaderWire {
    fn dof(&self) -> usize {
        1
    }
    fn masses(&self) -> &[f64] {
        &[1.0, 1.0]
    }
    fn positions(&self, u: &[f64]) -> DVector<f64> {
        DVector::from_column_slice(self.curve.at(u[0])[0].as_slice())
    }
    fn jacobian(&self, u: &[f64]) -> DMatrix<f64> {
        DMatrix::from_column_slice(2, 1, self.derivatives(u[0], 0.0).0.as_slice())
    }
    fn jacobian_dot(&self, u: &[f64], u_dot: &[f64]) -> DMatrix<f64> {
        DMatrix::from_column_slice(
            2,
            1,
            self.derivatives(u[0], u_dot[0]).1.as_slice(),
        )
    }
    fn gravity(&self) -> f64 {
        G
    }
}

/// The period of a bead released at rest at θ = `start` on the reader's cycloid of
/// rolling radius `a`: the time between two right-hand turning points, found by
/// linear interpolation of θ̇; None if it does not turn twice in three periods.
fn cycloid_period(f: WireFn, a: f64, start: f64) -> Result<Option<f64>, PbmError> {
    let model = ReaderWire { f, curve: Curve::Cycloid { a } };
    let mut system = LagrangianSystem::new(model, vec![start], vec![0.0])?;
    let (mut rk4, h) = (RungeKutta::new(RK4), 1e-3);
    let steps = (3.0 * tautochrone_period(a, G) / h) as usize;
    let mut turns = Vec::new();
    for _ in 0..steps {
        let (t0, w0) = (system.t, system.u_dot[0]);
        rk4.step(&mut system, h)?;
        let w1 = system.u_dot[0];
        if system.t > h && w0 > 0.0 && w1 <= 0.0 {
            turns.push(t0 + h * w0 / (w0 - w1));
            if turns.len() == 2 {
                return Ok(Some(turns[1] - turns[0]));
            }
        }
    }
    Ok(None)
}

/// Checks a wire's J and J̇: on a parabola, where central differences are exact, and
/// on the chapter's cycloid and figure eight against their exact derivatives; then a
/// bead on the cycloid must swing with the tautochrone's period from two heights.
pub fn check_wire_jacobian(f: WireFn) -> Report {
    let show = |v: &Vector2<f64>| numbers(v.as_slice());
    // The parabola c = (2θ − 1, 0.75 θ²): c′ = (2, 1.5 θ), c″ = (0, 1.5).
    let parabola = |t: f64| Vector2::new(2.0 * t - 1.0, 0.75 * t * t);
    let (theta, theta_dot) = (0.6, -1.7);
    case(format!("the parabola (2θ − 1, 0.75 θ²) at θ = {theta}, θ̇ = {theta_dot}"));
    let (j, j_dot) = f(&parabola, theta, theta_dot);
    if !j.iter().chain(j_dot.iter()).all(|x| x.is_finite()) {
        return Report::fail(format!(
            "on a parabola your J = {}, J̇ = {}",
            show(&j),
            show(&j_dot)
        ));
    }
    let (tangent, second) = (Vector2::new(2.0, 1.5 * theta), Vector2::new(0.0, 1.5));
    let at = format!(
        "on the parabola c(θ) = (2θ − 1, 0.75 θ²) at θ = {}, θ̇ = {}",
        number(theta),
        number(theta_dot)
    );
    let close = |a: &Vector2<f64>, b: &Vector2<f64>, tol: f64| (a - b).norm() <= tol;
    if !close(&j, &tangent, 1e-7) {
        let why = if close(&j, &(tangent * 2.0), 1e-6) {
            "it is twice c′: a central difference spans 2h, so divide by 2h"
                .to_string()
        } else if (j.y - tangent.y).abs() > 1e-7 && (j.x - tangent.x).abs() < 1e-9 {
            format!(
                "only the curved part is off, by {}. A central difference is exact on \
                 a parabola; a one-sided one, (c(θ + h) − c(θ))/h, errs by h c″/2. Take \
                 (c(θ + h) − c(θ − h))/2h",
                number((j.y - tangent.y).abs())
            )
        } else {
            format!(
                "even the straight part 2θ − 1 is off, by {}: rounding in c is divided \
                 by h, so a step much below 10⁻⁵ loses digits. Is the step too small?",
                number((j.x - tangent.x).abs())
            )
        };
        return Report::fail(format!(
            "{at} your J = {} where c′(θ) = {}: {why}",
            show(&j),
            show(&tangent)
        ));
    }
    let want = second * theta_dot;
    if !close(&j_dot, &want, 1e-5) {
        let why = if close(&j_dot, &second, 1e-4) {
            "that is c″ alone: J̇ = c″(θ) θ̇, the rate at which the tangent turns as \
             the bead moves"
                .to_string()
        } else if close(&j_dot, &(second * theta_dot * theta_dot), 1e-4) {
            "θ̇ is there twice: J̇ = c″(θ) θ̇ (the second θ̇ is in J̇ u̇, which the \
             chapter's solve forms)"
                .to_string()
        } else if close(&j_dot, &(tangent * theta_dot), 1e-4) {
            "that is c′ θ̇, the bead's velocity q̇ = J u̇: J̇ needs the second \
             derivative c″"
                .to_string()
        } else if close(&j_dot, &(want * 0.5), 1e-4) {
            "it is exactly half of c″ θ̇, on a parabola where the second difference is \
             exact, so the step size is not to blame: (c(θ + h) − 2c(θ) + c(θ − h)) is \
             divided by h², not by 2h² (the 2h belongs to the first difference)"
                .to_string()
        } else if close(&j_dot, &(want * 2.0), 1e-4) {
            "it is exactly twice c″ θ̇: the second difference (c(θ + h) − 2c(θ) + \
             c(θ − h)) is divided by h²; is the step between your samples h/2, or \
             the 2 applied twice?"
                .to_string()
        } else if close(&j_dot, &(-want), 1e-4) {
            "it has the wrong sign".to_string()
        } else {
            "c″ ≈ (c(θ + h) − 2c(θ) + c(θ − h))/h²; rounding is divided by h² there, so \
             the step for c″ must be larger than for c′ (about 10⁻⁴)"
                .to_string()
        };
        return Report::fail(format!(
            "{at} your J̇ = {} where c″(θ) θ̇ = {}: {why}",
            show(&j_dot),
            show(&want)
        ));
    }
    // The chapter's curves against their exact derivatives.
    let mut worst = (0.0_f64, 0.0_f64);
    for (curve, name) in [
        (Curve::Cycloid { a: 0.5 }, "cycloid"),
        (Curve::FigureEight { a: 1.2 }, "figure eight"),
    ] {
        for (theta, theta_dot) in [(-2.5, 1.0), (-1.0, -2.0), (0.3, 3.0), (1.7, 0.5)]
        {
            let [_, c1, c2] = curve.at(theta);
            case(format!("the {name} at θ = {theta}, θ̇ = {theta_dot}"));
            let (j, j_dot) = f(&move |t| curve.at(t)[0], theta, theta_dot);
            let (e1, e2) = ((j - c1).norm(), (j_dot - c2 * theta_dot).norm());
            // Written so that NaN fails too.
            let accurate = e1 <= 1e-6 && e2 <= 1e-5 * (1.0 + theta_dot.abs());
            if !accurate {
                return Report::fail(format!(
                    "on the {name} at θ = {theta}, θ̇ = {theta_dot} your J = {} and J̇ = {} \
                     are off the exact c′ = {} and c″ θ̇ = {} by {} and {}: \
                     central differences with h ≈ 10⁻⁵ for c′ and h ≈ 10⁻⁴ for c″ are \
                     good to about 10⁻¹⁰ and 10⁻⁷, and this check asks for 10⁻⁶ and 10⁻⁵",
                    show(&j),
                    show(&j_dot),
                    show(&c1),
                    show(&(c2 * theta_dot)),
                    number(e1),
                    number(e2)
                ));
            }
            worst = (worst.0.max(e1), worst.1.max(e2));
        }
    }
    // The tautochrone: a swing takes 4π√(a/g) from every height.
    let a = 0.5;
    let expected = tautochrone_period(a, G);
    let mut periods = Vec::new();
    for start in [0.5, 2.5] {
        case(format!("a bead released at θ = {start} on the cycloid"));
        match cycloid_period(f, a, start) {
            Err(e) => {
                return Report::fail(format!(
                    "a bead on the cycloid with your J and J̇ failed: {e}"
                ));
            }
            Ok(None) => {
                return Report::fail(format!(
                    "a bead released at θ = {start} on the cycloid with your J and J̇ did \
                     not swing back twice in three periods"
                ));
            }
            Ok(Some(period)) if (period - expected).abs() > 1e-4 * expected => {
                return Report::fail(format!(
                    "a bead released at θ = {start} on the cycloid with your J and J̇ \
                     swings in {period:.5} s, not the tautochrone's 4π√(a/g) = \
                     {expected:.5} s"
                ));
            }
            Ok(Some(period)) => periods.push(period),
        }
    }
    Report::pass(vec![
        "exact on a parabola, where central differences are".to_string(),
        format!(
            "on the cycloid and the figure eight: J within {} of c′, J̇ within {} of \
             c″ θ̇",
            number(worst.0),
            number(worst.1)
        ),
        format!(
            "a bead on the cycloid swings in {:.5} s from θ = 0.5 and {:.5} s from θ = \
             2.5; the tautochrone's period is {expected:.5} s",
            periods[0], periods[1]
        ),
    ])
}

/// Whether `off` is beyond `tolerance`, NaN included (a NaN is never within it).
fn beyond(off: f64, tolerance: f64) -> bool {
    off.is_nan() || off > tolerance
}

/// T = ½ q̇ᵀ M q̇ with q̇ = J(u) u̇, from the model's own J: what the gradients are
/// measured against.
fn kinetic_energy(model: &dyn ParametricModel, u: &[f64], u_dot: &[f64]) -> f64 {
    let q_dot = model.jacobian(u) * DVector::from_column_slice(u_dot);
    0.5 * q_dot.iter().zip(model.masses()).map(|(v, m)| m * v * v).sum::<f64>()
}

/// The central difference of T along coordinate k of u (or of u̇ with `velocity`).
fn kinetic_difference(
    model: &dyn ParametricModel,
    u: &[f64],
    u_dot: &[f64],
    k: usize,
    velocity: bool,
) -> f64 {
    let h = if velocity { 1e-3 } else { 1e-5 };
    let at = |sign: f64| {
        let (mut u, mut u_dot) = (u.to_vec(), u_dot.to_vec());
        if velocity {
            u_dot[k] += sign * h;
        } else {
            u[k] += sign * h;
        }
        kinetic_energy(model, &u, &u_dot)
    };
    (at(1.0) - at(-1.0)) / (2.0 * h)
}

/// A model, what to call it, and the states (u, u̇) to try it at.
type KineticCase = (Box<dyn ParametricModel>, &'static str, Vec<[Vec<f64>; 2]>);

/// The models the gradients are tried on, with states: an ellipse bead (one
/// coordinate), the polar puck and a double pendulum with unequal masses (two).
fn kinetic_cases() -> Vec<KineticCase> {
    let mut cases: Vec<KineticCase> = Vec::new();
    if let Ok(ellipse) = EllipseBead::new(1.5, 1.5, 0.5, G) {
        cases.push((
            Box::new(ellipse),
            "a 1.5 kg bead on the ellipse with half-axes 1.5 m and 0.5 m",
            vec![[vec![0.3], vec![2.0]], [vec![-1.1], vec![-1.4]]],
        ));
    }
    cases.push((
        Box::new(puck()),
        "a 1.5 kg puck in polar coordinates (r, φ)",
        vec![[vec![1.2, 0.4], vec![0.8, -1.5]], [vec![0.7, -2.0], vec![-1.1, 2.2]]],
    ));
    if let Ok(pendulum) = DoublePendulum::new([1.0, 2.0], [1.0, 0.7], G) {
        cases.push((
            Box::new(pendulum),
            "a double pendulum (1 kg and 2 kg on links of 1 m and 0.7 m)",
            vec![
                [vec![0.4, -1.3], vec![1.1, 2.0]],
                [vec![2.2, 0.5], vec![-0.7, 1.6]],
            ],
        ));
    }
    cases
}

/// What a wrong gradient is, among the forms it is often confused with: `forms`
/// pairs each with its diagnosis.
fn recognise(
    got: &DVector<f64>,
    forms: &[(DVector<f64>, &'static str)],
) -> Option<String> {
    forms
        .iter()
        .find(|(form, _)| {
            form.len() == got.len()
                && (form - got).norm() <= 1e-9 * (1.0 + form.norm())
        })
        .map(|(_, why)| why.to_string())
}

/// Checks (∂T/∂u̇, ∂T/∂u) against central differences of T = ½ q̇ᵀ M q̇ on an
/// ellipse bead, a puck in polar coordinates and a double pendulum, and names the
/// forms a wrong gradient matches.
pub fn check_kinetic_gradients(f: KineticFn) -> Report {
    let (mut momentum_line, mut gradient_line) = (None, None);
    let mut worst = 0.0_f64;
    for (model, what, states) in kinetic_cases() {
        let model = model.as_ref();
        for [u, u_dot] in &states {
            case(format!("{what} at u = {}, u̇ = {}", numbers(u), numbers(u_dot)));
            let (p, g) = f(model, u, u_dot);
            let n = model.dof();
            let want_p = DVector::from_fn(n, |k, _| {
                kinetic_difference(model, u, u_dot, k, true)
            });
            let want_g = DVector::from_fn(n, |k, _| {
                kinetic_difference(model, u, u_dot, k, false)
            });
            let at =
                format!("for {what} at u = {}, u̇ = {}", numbers(u), numbers(u_dot));
            // The pieces the usual slips are made of.
            let j = model.jacobian(u);
            let j_dot = model.jacobian_dot(u, u_dot);
            let u_dot_v = DVector::from_column_slice(u_dot);
            let mass = DVector::from_column_slice(model.masses());
            let q_dot = &j * &u_dot_v;
            let m_q_dot = q_dot.component_mul(&mass);
            let tolerance = |want: &DVector<f64>| 1e-7 * (1.0 + want.norm());
            let size = |v: &DVector<f64>| {
                if v.len() == n { (v - &want_p).norm() } else { f64::INFINITY }
            };
            if momentum_line.is_none() && beyond(size(&p), tolerance(&want_p)) {
                let why = recognise(&p, &[
                    (
                        &want_p * 2.0,
                        "it is twice ∂T/∂u̇: T = ½ u̇ᵀ (Jᵀ M J) u̇, and the 2 of the \
                         square cancels the ½, leaving Jᵀ M J u̇",
                    ),
                    (
                        &want_p * 0.5,
                        "it is half of ∂T/∂u̇: the derivative of the square u̇ᵀ W u̇ is \
                         2 W u̇, which cancels the ½ of T, leaving Jᵀ M J u̇",
                    ),
                    (
                        -&want_p,
                        "it has the wrong sign: ∂T/∂u̇ = Jᵀ M J u̇",
                    ),
                    (
                        j.transpose() * &q_dot,
                        "the masses are missing: that is Jᵀ J u̇, and ∂T/∂u̇ = Jᵀ M J u̇",
                    ),
                    (
                        j_dot.transpose() * &m_q_dot,
                        "that is J̇ᵀ M q̇, which is ∂T/∂u: the two are swapped, and the \
                         momentum ∂T/∂u̇ = Jᵀ M J u̇ comes first",
                    ),
                ])
                .unwrap_or_else(|| {
                    "∂T/∂u̇ = Jᵀ M J u̇ = Jᵀ (M q̇) with q̇ = J u̇".to_string()
                });
                momentum_line = Some(format!(
                    "{at} your ∂T/∂u̇ is {} where central differences of T give {}: {why}",
                    numbers(p.as_slice()),
                    numbers(want_p.as_slice())
                ));
            }
            let off =
                if g.len() == n { (&g - &want_g).norm() } else { f64::INFINITY };
            worst = worst.max(off / (1.0 + want_g.norm()));
            if gradient_line.is_none() && beyond(off, tolerance(&want_g)) {
                let why = recognise(&g, &[
                    (
                        DVector::zeros(n),
                        "it is zero, but T depends on u through J: as the \
                         coordinates change, the same u̇ moves the particles at other \
                         speeds. ∂T/∂u = J̇ᵀ M q̇",
                    ),
                    (
                        j.transpose() * &m_q_dot,
                        "that is Jᵀ M q̇, the momentum ∂T/∂u̇: ∂(J u̇)/∂u_k is column k \
                         of J̇, so ∂T/∂u = J̇ᵀ M q̇, with J̇ in place of J",
                    ),
                    (
                        -&want_g,
                        "it has the wrong sign: ∂T/∂u = + J̇ᵀ M q̇",
                    ),
                    (
                        &want_g * 2.0,
                        "it is twice ∂T/∂u: the ½ of T cancels the 2 of the square, \
                         once, leaving J̇ᵀ M q̇",
                    ),
                    (
                        &want_g * 0.5,
                        "it is half of ∂T/∂u: the 2 of the square cancels the ½ of T, \
                         leaving J̇ᵀ M q̇",
                    ),
                    (
                        j_dot.transpose() * &q_dot,
                        "the masses are missing: J̇ᵀ M q̇, with M q̇ the masses times q̇",
                    ),
                    (
                        j.transpose() * (&j_dot * &u_dot_v).component_mul(&mass),
                        "that is Jᵀ M J̇ u̇, the velocity term of the equation of \
                         motion: it equals ∂T/∂u for one coordinate but not for two. \
                         The transpose is on J̇: ∂T/∂u = J̇ᵀ M J u̇",
                    ),
                ])
                .unwrap_or_else(|| {
                    "∂T/∂u = J̇ᵀ M q̇: T depends on u only through J, and ∂q̇/∂u_k is \
                     column k of J̇"
                        .to_string()
                });
                gradient_line = Some(format!(
                    "{at} your ∂T/∂u is {} where central differences of T give {}: {why}",
                    numbers(g.as_slice()),
                    numbers(want_g.as_slice())
                ));
            }
        }
    }
    let failures: Vec<String> =
        [momentum_line, gradient_line].into_iter().flatten().collect();
    if !failures.is_empty() {
        return Report::fail_all(failures);
    }
    Report::pass(vec![
        "∂T/∂u̇ and ∂T/∂u agree with central differences of T = ½ q̇ᵀ M q̇ on an ellipse \
         bead, a puck in polar coordinates and a double pendulum"
            .to_string(),
        format!(
            "∂T/∂u within {} of the differences (relative), the error of the differences \
             themselves",
            number(worst)
        ),
    ])
}

/// C = ½ |q(θ) − x|² for the rod (its length squared, a constant, drops out of
/// every derivative), at s = (θ, x, y).
fn rod_c(bead: &dyn ParametricModel, s: &[f64; 3]) -> f64 {
    let q = bead.positions(&[s[0]]);
    0.5 * ((q[0] - s[1]).powi(2) + (q[1] - s[2]).powi(2))
}

/// The rod's row and Ġ s measured from C alone: G_k = ∂C/∂s_k by central
/// differences, and Ġ s = d²C/dt² along s + t ṡ (the accelerations zero).
fn rod_measured(
    bead: &dyn ParametricModel,
    s: &[f64; 3],
    s_dot: &[f64; 3],
) -> ([f64; 3], f64) {
    let shifted = |dir: &[f64; 3], t: f64| -> [f64; 3] {
        [s[0] + t * dir[0], s[1] + t * dir[1], s[2] + t * dir[2]]
    };
    let h = 1e-5;
    let row = [0, 1, 2].map(|k| {
        let mut e = [0.0; 3];
        e[k] = 1.0;
        (rod_c(bead, &shifted(&e, h)) - rod_c(bead, &shifted(&e, -h))) / (2.0 * h)
    });
    let h = 1e-4;
    let second = (rod_c(bead, &shifted(s_dot, h)) - 2.0 * rod_c(bead, s)
        + rod_c(bead, &shifted(s_dot, -h)))
        / (h * h);
    (row, second)
}

/// Checks a rod's row G and Ġ s between a bead and a particle: G against central
/// differences of C, Ġ s against C's second derivative along a motion with no
/// acceleration, on a circle, an ellipse and a figure-eight wire. Wrong forms are
/// named by the terms they miss or flip.
pub fn check_rod_row(f: RodRowFn) -> Report {
    let mut beads: Vec<(Box<dyn ParametricModel>, &'static str)> = Vec::new();
    if let Ok(bead) = Bead::new(1.0, 1.0, G) {
        beads.push((Box::new(bead), "a bead on the unit circle"));
    }
    if let Ok(bead) = EllipseBead::new(1.0, 1.5, 0.5, G) {
        beads.push((
            Box::new(bead),
            "a bead on the ellipse with half-axes 1.5 and 0.5",
        ));
    }
    if let Ok(bead) =
        crate::wire::WireBead::new(1.0, crate::wire::Curve::FigureEight { a: 1.2 }, G)
    {
        beads.push((Box::new(bead), "a bead on the figure eight of half-width 1.2"));
    }
    let states = [
        (0.6, 1.7, [0.3, -1.4], [0.9, 0.4]),
        (-2.1, -0.8, [-0.5, 0.7], [-0.3, 1.2]),
        (2.7, 2.4, [1.1, 0.2], [0.6, -0.8]),
    ];
    let (mut row_line, mut product_line) = (None, None);
    let mut worst = (0.0_f64, 0.0_f64);
    for (bead, what) in &beads {
        let bead = bead.as_ref();
        for (theta, theta_dot, x, x_dot) in states {
            let (xv, xv_dot) = (Vector2::from(x), Vector2::from(x_dot));
            let at = format!(
                "for {what} at θ = {theta}, θ̇ = {theta_dot} and the particle at {}, \
                 moving at {}",
                numbers(&x),
                numbers(&x_dot)
            );
            case(at.clone());
            let (row, product) = f(bead, theta, theta_dot, &xv, &xv_dot);
            let s = [theta, x[0], x[1]];
            let s_dot = [theta_dot, x_dot[0], x_dot[1]];
            let (want_row, want_product) = rod_measured(bead, &s, &s_dot);
            // The pieces, to name what a wrong answer is made of.
            let q = bead.positions(&[theta]);
            let j = bead.jacobian(&[theta]);
            let j_dot = bead.jacobian_dot(&[theta], &[theta_dot]);
            let tangent = Vector2::new(j[(0, 0)], j[(1, 0)]);
            let turning = Vector2::new(j_dot[(0, 0)], j_dot[(1, 0)]);
            let d = Vector2::new(q[0], q[1]) - xv;
            let d_dot = tangent * theta_dot - xv_dot;
            let size = 1.0 + want_row.iter().map(|v| v.abs()).sum::<f64>();
            let row_off: f64 =
                row.iter().zip(&want_row).map(|(a, b)| (a - b).abs()).sum();
            worst.0 = worst.0.max(row_off / size);
            let product_off = (product - want_product).abs();
            worst.1 = worst.1.max(product_off / (1.0 + want_product.abs()));
            let near_row = |r: [f64; 3]| {
                r.iter().zip(&row).map(|(a, b)| (a - b).abs()).sum::<f64>()
                    <= 1e-6 * size
            };
            if row_line.is_none() && beyond(row_off, 1e-6 * size) {
                let why = if near_row(want_row.map(|v| -v)) {
                    "it is exactly −G, every sign flipped: d = q(θ) − x, the bead's \
                     position minus the particle's (with d = x − q the row is (−dᵀJ, \
                     +dᵀ))"
                } else if near_row([want_row[0], -want_row[1], -want_row[2]]) {
                    "the bead's entry is right and the particle's two have the wrong \
                     sign: Ċ = d·(J θ̇ − ẋ), so the particle's block is −dᵀ"
                } else if near_row([-want_row[0], want_row[1], want_row[2]]) {
                    "the particle's entries are right and the bead's has the wrong \
                     sign: Ċ = d·(J θ̇ − ẋ), so the bead's entry is + dᵀJ"
                } else if (row[1] - want_row[1]).abs() + (row[2] - want_row[2]).abs()
                    <= 1e-6 * size
                {
                    "the particle's entries are right; the bead's entry is dᵀJ, d \
                     projected on the wire's tangent J = jacobian(θ)"
                } else {
                    "G = (dᵀJ, −d_x, −d_y) with d = q(θ) − x and J the bead's tangent"
                };
                row_line = Some(format!(
                    "{at} your row is {} where central differences of C = ½ |q(θ) − x|² \
                     give {}: {why}",
                    numbers(&row),
                    numbers(&want_row)
                ));
            }
            let product_tolerance = 1e-5 * (1.0 + want_product.abs());
            if product_line.is_none() && beyond(product_off, product_tolerance) {
                let (square, bend) = (d_dot.dot(&d_dot), d.dot(&turning) * theta_dot);
                let forms = [
                    (
                        square,
                        "that is ḋ·ḋ alone: the term d·J̇ θ̇ is missing. The wire's tangent \
                         turns as the bead moves along it, so the bead accelerates even at \
                         θ̈ = 0",
                    ),
                    (
                        bend,
                        "that is d·J̇ θ̇ alone: the term ḋ·ḋ is missing (the derivative of \
                         d·ḋ has two terms)",
                    ),
                    (
                        square + d.dot(&turning),
                        "the term d·J̇ θ̇ lacks its θ̇: jacobian_dot(θ, θ̇) is J̇, which holds \
                         one θ̇, and d̈ = J̇ θ̇ at zero accelerations needs a second",
                    ),
                    (
                        square - bend,
                        "the term d·J̇ θ̇ has the wrong sign: Ġ s = ḋ·ḋ + d·J̇ θ̇",
                    ),
                    (
                        {
                            let wrong = tangent * theta_dot + xv_dot;
                            wrong.dot(&wrong) + bend
                        },
                        "your ḋ adds the particle's velocity: ḋ = J θ̇ − ẋ, the bead's \
                         velocity minus the particle's",
                    ),
                    (-want_product, "it has the wrong sign: Ġ s = ḋ·ḋ + d·J̇ θ̇"),
                ];
                let why = forms
                    .iter()
                    .find(|(v, _)| (v - product).abs() <= product_tolerance)
                    .map_or(
                        "Ġ s = ḋ·ḋ + d·J̇ θ̇ with ḋ = J θ̇ − ẋ: C̈ when θ̈ and ẍ are zero",
                        |(_, why)| why,
                    );
                product_line = Some(format!(
                    "{at} your Ġ s is {} where C's second derivative along the motion \
                     with no acceleration is {}: {why}",
                    number(product),
                    number(want_product)
                ));
            }
        }
    }
    let failures: Vec<String> =
        [row_line, product_line].into_iter().flatten().collect();
    if !failures.is_empty() {
        return Report::fail_all(failures);
    }
    Report::pass(vec![
        format!(
            "on a circle, an ellipse and a figure eight: G within {} of central \
             differences of C (relative)",
            number(worst.0)
        ),
        format!(
            "Ġ s within {} of C̈ along a motion with no acceleration, which is what Ġ s \
             is",
            number(worst.1)
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parametric::generalized_acceleration;

    pbm_prelim::answers! {
        acceleration => check_acceleration(acceleration::generalized_acceleration),
        wire_jacobian => check_wire_jacobian(wire_jacobian::wire_jacobian),
        kinetic_gradients =>
            check_kinetic_gradients(kinetic_gradients::kinetic_energy_gradients),
        rod_row => check_rod_row(rod_row::rod_row),
    }
    use wire_jacobian::wire_jacobian;

    #[test]
    fn the_books_functions_pass_their_checks() {
        check_acceleration(generalized_acceleration::<dyn ParametricModel>)
            .assert_passed();
    }

    /// The book's solve with parts changed: the J̇ term scaled by `j_dot`, the masses
    /// in the matrix raised to `mass_power`, Q scaled by `force`.
    fn altered(
        model: &dyn ParametricModel,
        u: &[f64],
        u_dot: &[f64],
        (j_dot_factor, mass_power, force_factor): (f64, i32, f64),
    ) -> Result<DVector<f64>, PbmError> {
        let j = model.jacobian(u);
        let u_dot = DVector::from_column_slice(u_dot);
        let q_dot = &j * &u_dot;
        let force = model.applied_force(&model.positions(u), &q_dot) * force_factor;
        let mass = DVector::from_column_slice(model.masses());
        let j_dot_u = model.jacobian_dot(u, u_dot.as_slice()) * &u_dot * j_dot_factor;
        let lhs = j.transpose()
            * DMatrix::from_diagonal(&mass.map(|m| m.powi(mass_power)))
            * &j;
        let rhs = j.transpose() * (force - j_dot_u.component_mul(&mass));
        lhs.cholesky()
            .map(|llt| llt.solve(&rhs))
            .ok_or_else(|| PbmError::degenerate("t", "singular"))
    }

    /// The book's solve with the applied force asked at other arguments: `args`
    /// picks (q, q̇) from (u, u̇, q = positions(u), q̇ = J u̇).
    fn force_at(
        model: &dyn ParametricModel,
        u: &[f64],
        u_dot: &[f64],
        args: fn([DVector<f64>; 4]) -> [DVector<f64>; 2],
    ) -> Result<DVector<f64>, PbmError> {
        let j = model.jacobian(u);
        let (u_v, u_dot_v) =
            (DVector::from_column_slice(u), DVector::from_column_slice(u_dot));
        let q_dot = &j * &u_dot_v;
        let [q, q_dot] = args([u_v, u_dot_v, model.positions(u), q_dot]);
        let force = model.applied_force(&q, &q_dot);
        solve_scaled(model, u, u_dot, &force, 1.0)
            .ok_or_else(|| PbmError::degenerate("t", "singular"))
    }

    #[test]
    fn acceleration_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing = |f: AccelerationFn, expect: &str| {
            check_acceleration(f).assert_fails_with(expect)
        };
        let no_j_dot = check_acceleration(|m, u, v| altered(m, u, v, (0.0, 1, 1.0)));
        no_j_dot.assert_fails_with("J̇ u̇ term is missing");
        no_j_dot.assert_fails_with("lacks the J̇ u̇ term");
        failing(
            |m, u, v| altered(m, u, v, (-1.0, 1, 1.0)),
            "J̇ term has the wrong sign",
        );
        failing(|m, u, v| altered(m, u, v, (1.0, 0, 1.0)), "Jᵀ M J");
        // Jᵀ M⁻¹ J: θ̈ off by exactly m².
        failing(|m, u, v| altered(m, u, v, (1.0, -1, 1.0)), "Jᵀ M⁻¹ J gives");
        failing(|m, u, v| altered(m, u, v, (1.0, 1, -1.0)), "fall upwards");
        // The force asked at the generalised coordinates: passes every model whose
        // force is gravity alone, so only the puck catches it.
        let at_u =
            check_acceleration(|m, u, v| force_at(m, u, v, |[u, v, _, _]| [u, v]));
        at_u.assert_fails_with("not applied_force(u, u̇)");
        assert_eq!(at_u.lines.len(), 1, "{at_u:?}");
        failing(
            |m, u, v| {
                force_at(m, u, v, |[_, _, q, q_dot]| {
                    let zero = q_dot * 0.0;
                    [q, zero]
                })
            },
            "drag at rest",
        );
        failing(|m, u, v| force_at(m, u, v, |[_, v, q, _]| [q, v]), "fed u̇");
        failing(
            |m, u, v| {
                let gravity =
                    crate::parametric::gravity_force(m.masses(), m.gravity());
                solve_scaled(m, u, v, &gravity, 1.0)
                    .ok_or_else(|| PbmError::degenerate("t", "singular"))
            },
            "gravity alone",
        );
        // A pseudo-inverse that answers the fold with a number.
        failing(
            |m, u, v| {
                generalized_acceleration(m, u, v).or_else(|_| Ok(DVector::zeros(1)))
            },
            "return an error",
        );
    }

    #[test]
    fn a_solve_by_lu_with_the_constraint_force_recovered_passes_too() {
        // A correct alternative: q̈ from ü, written as one LU solve of the full
        // Jᵀ M J, with the singular case found by LU.
        check_acceleration(|m, u, v| {
            let j = m.jacobian(u);
            let v = DVector::from_column_slice(v);
            let mass =
                DMatrix::from_diagonal(&DVector::from_column_slice(m.masses()));
            let q_dot = &j * &v;
            let force = m.applied_force(&m.positions(u), &q_dot);
            let rhs = j.transpose()
                * (force - &mass * (m.jacobian_dot(u, v.as_slice()) * &v));
            let lhs = j.transpose() * &mass * &j;
            if lhs.determinant().abs() < 1e-12 {
                return Err(PbmError::degenerate("parametrisation", "singular"));
            }
            lhs.lu().solve(&rhs).ok_or_else(|| PbmError::degenerate("p", "singular"))
        })
        .assert_passed();
    }

    #[test]
    fn wire_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing = |f: WireFn, expect: &str| {
            check_wire_jacobian(f).assert_fails_with(expect)
        };
        // A forward difference.
        failing(
            |c, t, w| {
                let h = 1e-5;
                let (_, jd) = wire_jacobian(c, t, w);
                ((c(t + h) - c(t)) / h, jd)
            },
            "one-sided",
        );
        // c″ without θ̇.
        failing(
            |c, t, w| {
                let (j, jd) = wire_jacobian(c, t, w);
                (j, jd / w)
            },
            "c″ alone",
        );
        // The velocity where J̇ goes.
        failing(
            |c, t, w| {
                let (j, _) = wire_jacobian(c, t, w);
                (j, j * w)
            },
            "second derivative",
        );
        // c″ over 2h², by analogy with c′ over 2h.
        failing(
            |c, t, w| {
                let h = 1e-4;
                let (j, _) = wire_jacobian(c, t, w);
                (j, (c(t + h) - c(t) * 2.0 + c(t - h)) / (2.0 * h * h) * w)
            },
            "not by 2h²",
        );
        // One step for both derivatives, far too small for c″.
        failing(
            |c, t, w| {
                let h = 1e-7;
                let j = (c(t + h) - c(t - h)) / (2.0 * h);
                (j, (c(t + h) - c(t) * 2.0 + c(t - h)) / (h * h) * w)
            },
            "larger than for c′",
        );
    }

    /// J, J̇, M q̇, q̇ and u̇.
    type Pieces =
        (DMatrix<f64>, DMatrix<f64>, DVector<f64>, DVector<f64>, DVector<f64>);

    /// The pieces of the gradients: (J, J̇, M q̇, q̇, u̇).
    fn pieces(m: &dyn ParametricModel, u: &[f64], v: &[f64]) -> Pieces {
        let (j, j_dot) = (m.jacobian(u), m.jacobian_dot(u, v));
        let v = DVector::from_column_slice(v);
        let q_dot = &j * &v;
        let m_q_dot = q_dot.component_mul(&DVector::from_column_slice(m.masses()));
        (j, j_dot, m_q_dot, q_dot, v)
    }

    #[test]
    fn kinetic_gradient_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing = |f: KineticFn, expect: &str| {
            check_kinetic_gradients(f).assert_fails_with(expect)
        };
        failing(
            |m, u, v| {
                let (j, jd, mq, _, _) = pieces(m, u, v);
                (j.transpose() * &mq * 2.0, jd.transpose() * &mq)
            },
            "twice ∂T/∂u̇",
        );
        failing(
            |m, u, v| {
                let (j, jd, mq, q_dot, _) = pieces(m, u, v);
                (j.transpose() * q_dot, jd.transpose() * &mq)
            },
            "that is Jᵀ J u̇",
        );
        failing(
            |m, u, v| {
                let (j, _, mq, _, _) = pieces(m, u, v);
                (j.transpose() * &mq, j.transpose() * &mq)
            },
            "the momentum ∂T/∂u̇",
        );
        failing(
            |m, u, v| {
                let (j, jd, mq, _, v) = pieces(m, u, v);
                let mass = DVector::from_column_slice(m.masses());
                (j.transpose() * &mq, j.transpose() * (jd * v).component_mul(&mass))
            },
            "velocity term of the equation of motion",
        );
        failing(
            |m, u, v| {
                let (j, _, mq, _, _) = pieces(m, u, v);
                (j.transpose() * &mq, DVector::zeros(m.dof()))
            },
            "it is zero",
        );
        // Both wrong at once: both lines.
        let both = check_kinetic_gradients(|m, u, v| {
            let (j, _, mq, _, _) = pieces(m, u, v);
            (j.transpose() * &mq * 0.5, -(j.transpose() * &mq) * 0.0)
        });
        both.assert_fails_with("half of ∂T/∂u̇");
        both.assert_fails_with("it is zero");
    }

    #[test]
    fn kinetic_gradients_written_column_by_column_pass_too() {
        check_kinetic_gradients(|m, u, v| {
            let (j, jd, _, _, v) = pieces(m, u, v);
            let w = j.transpose()
                * DMatrix::from_diagonal(&DVector::from_column_slice(m.masses()))
                * &j;
            let q_dot = &j * &v;
            let gradient = DVector::from_fn(m.dof(), |k, _| {
                (0..q_dot.len()).map(|i| jd[(i, k)] * m.masses()[i] * q_dot[i]).sum()
            });
            (w * v, gradient)
        })
        .assert_passed();
    }

    /// The book's row with its parts changed: the particle's sign `particle`, the
    /// ẋ's sign in ḋ `x_dot_sign`, the J̇ term scaled by `bend` and multiplied by θ̇
    /// to the power `theta_dots`, and the ḋ·ḋ term by `square`.
    fn rod(
        b: &dyn ParametricModel,
        t: f64,
        w: f64,
        x: &Vector2<f64>,
        xd: &Vector2<f64>,
        (particle, x_dot_sign, bend, theta_dots, square): (f64, f64, f64, i32, f64),
    ) -> ([f64; 3], f64) {
        let q = b.positions(&[t]);
        let j = b.jacobian(&[t]);
        let jd = b.jacobian_dot(&[t], &[w]);
        let tangent = Vector2::new(j[(0, 0)], j[(1, 0)]);
        let d = Vector2::new(q[0], q[1]) - x;
        let d_dot = tangent * w + xd * x_dot_sign;
        let turning = Vector2::new(jd[(0, 0)], jd[(1, 0)]) * w.powi(theta_dots);
        (
            [d.dot(&tangent), particle * d.x, particle * d.y],
            square * d_dot.dot(&d_dot) + bend * d.dot(&turning),
        )
    }

    const RIGHT: (f64, f64, f64, i32, f64) = (-1.0, -1.0, 1.0, 1, 1.0);

    #[test]
    fn rod_row_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing =
            |f: RodRowFn, expect: &str| check_rod_row(f).assert_fails_with(expect);
        check_rod_row(|b, t, w, x, xd| rod(b, t, w, x, xd, RIGHT)).assert_passed();
        // d = x − q throughout.
        failing(
            |b, t, w, x, xd| {
                let (row, product) = rod(b, t, w, x, xd, RIGHT);
                (row.map(|v| -v), product)
            },
            "exactly −G",
        );
        failing(
            |b, t, w, x, xd| rod(b, t, w, x, xd, (1.0, -1.0, 1.0, 1, 1.0)),
            "particle's two have the wrong sign",
        );
        failing(
            |b, t, w, x, xd| rod(b, t, w, x, xd, (-1.0, -1.0, 0.0, 1, 1.0)),
            "d·J̇ θ̇ is missing",
        );
        failing(
            |b, t, w, x, xd| rod(b, t, w, x, xd, (-1.0, -1.0, 1.0, 0, 1.0)),
            "lacks its θ̇",
        );
        failing(
            |b, t, w, x, xd| rod(b, t, w, x, xd, (-1.0, 1.0, 1.0, 1, 1.0)),
            "adds the particle's velocity",
        );
        failing(
            |b, t, w, x, xd| rod(b, t, w, x, xd, (-1.0, -1.0, 1.0, 1, 0.0)),
            "ḋ·ḋ is missing",
        );
    }

    #[test]
    fn a_rod_row_written_with_d_from_the_particle_passes_too() {
        // d′ = x − q: G = (−d′ᵀJ, d′ᵀ), and Ġ s is unchanged by the sign of d.
        check_rod_row(|b, t, w, x, xd| {
            let q = b.positions(&[t]);
            let (j, jd) = (b.jacobian(&[t]), b.jacobian_dot(&[t], &[w]));
            let d = x - Vector2::new(q[0], q[1]);
            let tangent = Vector2::new(j[(0, 0)], j[(1, 0)]);
            let d_dot = xd - tangent * w;
            let bend = -d.dot(&Vector2::new(jd[(0, 0)], jd[(1, 0)])) * w;
            ([-d.dot(&tangent), d.x, d.y], d_dot.norm_squared() + bend)
        })
        .assert_passed();
    }
}
