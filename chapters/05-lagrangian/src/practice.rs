//! Practice for chapter 5: the reader writes the solve for the generalised
//! accelerations and the Jacobian of a bead on a wire known only as a function. The
//! accelerations are checked on the circle's closed form θ̈ = −(g/r) cos θ, by the
//! energy they must keep on an ellipse and a double pendulum, and by the
//! constraint force they imply doing no work; the wire's J and J̇ against the exact
//! derivatives of three curves, then by the cycloid's swing, which takes 4π√(a/g)
//! from every height.

use crate::models::{Bead, DoublePendulum, EllipseBead};
use crate::parametric::{LagrangianSystem, ParametricModel};
use crate::wire::{Curve, tautochrone_period};
use nalgebra::{DMatrix, DVector, Vector2};
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::system::OdeSystem;
use pbm_ode::tableau::RK4;
use pbm_particles::forces::G;
use pbm_prelim::PbmError;
use pbm_prelim::practice::{Listing, Report, Task, sequence};

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
            source: include_str!("parametric.rs"),
            anchor: "acceleration",
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
];

/// The reader's ü, or the failure to report: an error, a wrong length, NaN.
fn accelerations(
    f: AccelerationFn,
    model: &(dyn ParametricModel + 'static),
    u: &[f64],
    u_dot: &[f64],
    what: &str,
) -> Result<DVector<f64>, Report> {
    let a = f(model, u, u_dot).map_err(|e| {
        Report::fail(format!(
            "for {what} at u = {u:?} your solve returned an error: {e}"
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
            "for {what} at u = {u:?}, u̇ = {u_dot:?} your ü is {:?}",
            a.as_slice()
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
                format!("ü = {:?} at u = {:?}", a.as_slice(), s.u),
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

/// Checks a solve for ü: the circle bead's closed form, energy and virtual work on
/// an ellipse bead and a double pendulum, and an error where the coordinates fold.
pub fn check_acceleration(f: AccelerationFn) -> Report {
    let (mass, radius) = (2.0, 0.7);
    let Ok(circle) = Bead::new(mass, radius, G) else {
        return Report::fail("the check could not build its bead");
    };
    let mut next = sequence(0x3c6e_f372);
    for _ in 0..12 {
        let (theta, theta_dot) = (3.0 * next(), 4.0 * next());
        let what = format!("a {mass} kg bead on a circle of radius {radius} m");
        let got = match accelerations(f, &circle, &[theta], &[theta_dot], &what) {
            Ok(a) => a[0],
            Err(report) => return report,
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
        return Report::fail(format!(
            "for a {mass} kg bead on a circle of radius {radius} m at θ = {theta:.3}, \
             θ̇ = {theta_dot:.3} your θ̈ is {got:.4}, where the pendulum's closed form is \
             −(g/r) cos θ = {want:.4}: {why}"
        ));
    }
    // The ellipse: the J̇ term matters, and energy must be kept at every state.
    let Ok(ellipse) = EllipseBead::new(1.0, 1.5, 0.5, G) else {
        return Report::fail("the check could not build its ellipse bead");
    };
    let what = "a 1 kg bead on the ellipse with half-axes 1.5 m and 0.5 m";
    for (theta, theta_dot) in [(0.3, 2.0), (-1.1, -1.4), (2.4, 3.0), (0.9, -2.5)] {
        let got = match accelerations(f, &ellipse, &[theta], &[theta_dot], what) {
            Ok(a) => a,
            Err(report) => return report,
        };
        let (work, scale) = constraint_work(&ellipse, &[theta], &[theta_dot], &got);
        if work.norm() <= 1e-9 * (1.0 + scale) {
            continue;
        }
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
                "your θ̈ does not change with θ̇ (it is {:.2} at rest too), but on an \
                 ellipse the tangent J changes length along the wire and Jᵀ M J̇ u̇ = \
                 m (a² − b²) sin θ cos θ θ̇² is not zero: the J̇ u̇ term is missing",
                still
            )
        } else if (yours + velocity_part).abs() < 1e-9 * (1.0 + velocity_part.abs()) {
            "the J̇ term has the wrong sign: Jᵀ M J ü = Jᵀ Q − Jᵀ M J̇ u̇".to_string()
        } else {
            "the constraint force your ü implies does work along the wire".to_string()
        };
        return Report::fail(format!(
            "for {what} at θ = {theta}, θ̇ = {theta_dot}, your θ̈ = {:.4} makes the \
             constraint force M q̈ − Q (q̈ = J ü + J̇ u̇) do work along the wire, Jᵀ (M q̈ \
             − Q) = {:.3}, so the bead's energy changes: {why}",
            got[0], work[0]
        ));
    }
    // The double pendulum: two coordinates, virtual work and energy under RK4.
    let Ok(pendulum) = DoublePendulum::new([1.0, 2.0], [1.0, 0.7], G) else {
        return Report::fail("the check could not build its double pendulum");
    };
    let what = "a double pendulum (1 kg and 2 kg on links of 1 m and 0.7 m)";
    let mut worst = 0.0_f64;
    for _ in 0..8 {
        let (u, u_dot) = ([3.0 * next(), 3.0 * next()], [3.0 * next(), 3.0 * next()]);
        let got = match accelerations(f, &pendulum, &u, &u_dot, what) {
            Ok(a) => a,
            Err(report) => return report,
        };
        let (work, scale) = constraint_work(&pendulum, &u, &u_dot, &got);
        if work.norm() > 1e-9 * (1.0 + scale) {
            return Report::fail(format!(
                "for {what} at u = ({:.3}, {:.3}), u̇ = ({:.3}, {:.3}), your ü = {:?} \
                 makes the constraint force M q̈ − Q do work along the coordinates: Jᵀ \
                 (M q̈ − Q) = {:?} where virtual work makes it zero. With two \
                 coordinates Jᵀ M J is a 2 × 2 matrix and Jᵀ Q, Jᵀ M J̇ u̇ vectors of two",
                u[0],
                u[1],
                u_dot[0],
                u_dot[1],
                got.as_slice(),
                work.as_slice()
            ));
        }
        worst = worst.max(work.norm() / (1.0 + scale));
    }
    let scale = 3.0 * G * 1.7; // m g l, the size of the energy exchanged
    let drift = match energy_drift(f, &pendulum, &[1.2, 2.0], (3000, 1e-3, scale)) {
        Ok(drift) => drift,
        Err(e) => {
            return Report::fail(format!("moving {what} with your ü failed: {e}"));
        }
    };
    if drift > 1e-6 {
        return Report::fail(format!(
            "{what} moved by your ü for 3 s of RK4 changed its energy by {drift:.1e} of m g \
             l: the accelerations are not those of a conservative system"
        ));
    }
    // The fold: Jᵀ M J = 0 at u = 0.
    if let Ok(a) = f(&Fold, &[0.0], &[1.0]) {
        return Report::fail(format!(
            "for q = (u², u²/2) at u = 0, where J = 0 and Jᵀ M J is singular, your solve \
             returned ü = {:?}: no acceleration is right there, so return an error \
             (PbmError::degenerate), not a number",
            a.as_slice()
        ));
    }
    Report::pass(vec![
        "θ̈ = −(g/r) cos θ for a 2 kg bead on a circle at 12 states, whatever θ̇"
            .to_string(),
        format!(
            "the implied constraint force does no work (Jᵀ(M q̈ − Q) = 0) on an ellipse \
             bead and, to {worst:.0e}, on a double pendulum"
        ),
        format!(
            "3 s of RK4 on the double pendulum keep its energy to {drift:.0e} of m g l"
        ),
        "a folding parametrisation (J = 0) is an error".to_string(),
    ])
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
    let show = |v: &Vector2<f64>| format!("({:.6}, {:.6})", v.x, v.y);
    // The parabola c = (2θ − 1, 0.75 θ²): c′ = (2, 1.5 θ), c″ = (0, 1.5).
    let parabola = |t: f64| Vector2::new(2.0 * t - 1.0, 0.75 * t * t);
    let (theta, theta_dot) = (0.6, -1.7);
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
        "on the parabola c(θ) = (2θ − 1, 0.75 θ²) at θ = {theta}, θ̇ = {theta_dot}"
    );
    let close = |a: &Vector2<f64>, b: &Vector2<f64>, tol: f64| (a - b).norm() <= tol;
    if !close(&j, &tangent, 1e-7) {
        let why = if close(&j, &(tangent * 2.0), 1e-6) {
            "it is twice c′: a central difference spans 2h, so divide by 2h"
                .to_string()
        } else if (j.y - tangent.y).abs() > 1e-7 && (j.x - tangent.x).abs() < 1e-9 {
            format!(
                "only the curved part is off, by {:.1e}. A central difference is exact on \
                 a parabola; a one-sided one, (c(θ + h) − c(θ))/h, errs by h c″/2. Take \
                 (c(θ + h) − c(θ − h))/2h",
                (j.y - tangent.y).abs()
            )
        } else {
            format!(
                "even the straight part 2θ − 1 is off, by {:.1e}: rounding in c is divided \
                 by h, so a step much below 10⁻⁵ loses digits. Is the step too small?",
                (j.x - tangent.x).abs()
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
            let (j, j_dot) = f(&move |t| curve.at(t)[0], theta, theta_dot);
            let (e1, e2) = ((j - c1).norm(), (j_dot - c2 * theta_dot).norm());
            // Written so that NaN fails too.
            let accurate = e1 <= 1e-6 && e2 <= 1e-5 * (1.0 + theta_dot.abs());
            if !accurate {
                return Report::fail(format!(
                    "on the {name} at θ = {theta}, θ̇ = {theta_dot} your J = {} and J̇ = {} \
                     are off the exact c′ = {} and c″ θ̇ = {} by {e1:.1e} and {e2:.1e}: \
                     central differences with h ≈ 10⁻⁵ for c′ and h ≈ 10⁻⁴ for c″ are \
                     good to about 10⁻¹⁰ and 10⁻⁷, and this check asks for 10⁻⁶ and 10⁻⁵",
                    show(&j),
                    show(&j_dot),
                    show(&c1),
                    show(&(c2 * theta_dot))
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
            "on the cycloid and the figure eight: J within {:.0e} of c′, J̇ within {:.0e} \
             of c″ θ̇",
            worst.0, worst.1
        ),
        format!(
            "a bead on the cycloid swings in {:.5} s from θ = 0.5 and {:.5} s from θ = \
             2.5; the tautochrone's period is {expected:.5} s",
            periods[0], periods[1]
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parametric::generalized_acceleration;

    pbm_prelim::answers!(wire_jacobian => check_wire_jacobian(wire_jacobian::wire_jacobian));
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

    #[test]
    fn acceleration_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing = |f: AccelerationFn, expect: &str| {
            check_acceleration(f).assert_fails_with(expect)
        };
        failing(|m, u, v| altered(m, u, v, (0.0, 1, 1.0)), "J̇ u̇ term is missing");
        failing(
            |m, u, v| altered(m, u, v, (-1.0, 1, 1.0)),
            "J̇ term has the wrong sign",
        );
        failing(|m, u, v| altered(m, u, v, (1.0, 0, 1.0)), "Jᵀ M J");
        failing(|m, u, v| altered(m, u, v, (1.0, 1, -1.0)), "fall upwards");
        // A pseudo-inverse that answers the fold with a number.
        failing(
            |m, u, v| {
                generalized_acceleration(m, u, v).or_else(|_| Ok(DVector::zeros(1)))
            },
            "return an error",
        );
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
}
