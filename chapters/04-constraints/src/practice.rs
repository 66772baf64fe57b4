//! Practice for chapter 4: the reader writes the rod's constraint function with its
//! Jacobian and J̇, and the dense solve for the Lagrange multipliers. The rod is
//! checked against central differences of C along each particle and along the
//! motion, then holds a double pendulum in the chapter's constrained system; the
//! multipliers by the acceleration they produce, which must be legal (C̈ = 0, or the
//! feedback's −k_s C − k_d Ċ), on a bead at rest, a moving bead, a bead off its wire
//! and a double pendulum hanging from a nail.

use crate::constraint::Nail;
use crate::scenes::pendulum_positions;
use crate::system::{ConstrainedSystem, Feedback};
use nalgebra::{DMatrix, DVector, Vector2};
use pbm_ode::runge_kutta::RungeKutta;
use pbm_ode::tableau::RK4;
use pbm_particles::condition::Condition;
use pbm_particles::forces::{G, Gravity};
use pbm_particles::particle::{Particle, Vector};
use pbm_prelim::PbmError;
use pbm_prelim::practice::{Listing, Report, Task, sequence};

/// A rod the reader writes: (C, J's two blocks, J̇'s two blocks).
pub type RodFn = fn(
    (&Vector2<f64>, &Vector2<f64>),
    (&Vector2<f64>, &Vector2<f64>),
    f64,
) -> (f64, [Vector2<f64>; 2], [Vector2<f64>; 2]);

/// A multiplier solve the reader writes: λ from J, J̇, W, q̇, Q, C and the feedback.
pub type MultipliersFn = fn(
    &DMatrix<f64>,
    &DMatrix<f64>,
    &DVector<f64>,
    &DVector<f64>,
    &DVector<f64>,
    &DVector<f64>,
    Feedback,
) -> Result<DVector<f64>, PbmError>;

/// The chapter's tasks.
pub const TASKS: &[Task] = &[
    Task {
        id: "constraints/rod",
        title: "the rod's C, J and J̇",
        section: "Systems of constraints: Tinkertoys",
        page: "04-constraints/tinkertoys.md",
        equation: "rod-jacobian",
        difficulty: 1,
        file: "rod.rs",
        stub: include_str!("practice/rod.rs"),
        check: "pbm_constraints::practice::check_rod(reader::rod)",
        hints: &[
            "Write d = x_a − x_b and ḋ = v_a − v_b first; everything is made of them.",
            "Ċ = d·ḋ = dᵀ v_a − dᵀ v_b: the coefficients of the two velocities are J's \
             two blocks.",
            "J̇ differentiates J along the motion: d changes at ḋ, so J̇ = [ḋᵀ, −ḋᵀ].",
        ],
        solution: Listing {
            source: include_str!("practice/rod_solution.rs"),
            anchor: "rod",
        },
    },
    Task {
        id: "constraints/multipliers",
        title: "the Lagrange multipliers, by a dense solve",
        section: "Systems of constraints: Tinkertoys",
        page: "04-constraints/tinkertoys.md",
        equation: "multiplier-equation",
        difficulty: 2,
        file: "multipliers.rs",
        stub: include_str!("practice/multipliers.rs"),
        check: "pbm_constraints::practice::check_multipliers(reader::multipliers)",
        hints: &[
            "W is diagonal: `DMatrix::from_diagonal(w)` makes it a matrix, and J W Jᵀ \
             is then `j * w_matrix * j.transpose()`.",
            "The right-hand side has four terms, each with a minus: −J̇ q̇, −J W Q, \
             −k_s C and −k_d Ċ with Ċ = J q̇.",
            "`matrix.lu().solve(&rhs)` returns None for a singular matrix: turn that \
             into `Err(PbmError::degenerate(…))`.",
        ],
        solution: Listing {
            source: include_str!("practice/multipliers_solution.rs"),
            anchor: "multipliers",
        },
    },
];

/// A plane vector as a reader writes it: (0.503, -1.25).
fn show(v: &Vector2<f64>) -> String {
    format!("({:.4}, {:.4})", v.x, v.y)
}

fn is_close(a: &Vector2<f64>, b: &Vector2<f64>, scale: f64) -> bool {
    (a - b).norm() <= 1e-7 * (1.0 + scale)
}

/// The reader's rod as a constraint object of the chapter.
struct ReaderRod {
    f: RodFn,
    ends: [usize; 2],
    length: f64,
}

impl Condition<2> for ReaderRod {
    fn name(&self) -> &'static str {
        "your rod"
    }
    fn particles(&self) -> &[usize] {
        &self.ends
    }
    fn rows(&self) -> usize {
        1
    }
    fn position(
        &self,
        x: &[Vector<2>],
        c: &mut [f64],
        j: &mut [Vector<2>],
    ) -> Result<(), PbmError> {
        let zero = Vector2::zeros();
        let (value, jacobian, _) =
            (self.f)((&x[0], &zero), (&x[1], &zero), self.length);
        c[0] = value;
        (j[0], j[1]) = (jacobian[0], jacobian[1]);
        Ok(())
    }
    fn jacobian_dot(
        &self,
        x: &[Vector<2>],
        v: &[Vector<2>],
        j_dot: &mut [Vector<2>],
    ) {
        let (_, _, jd) = (self.f)((&x[0], &v[0]), (&x[1], &v[1]), self.length);
        (j_dot[0], j_dot[1]) = (jd[0], jd[1]);
    }
}

/// A double pendulum of the reader's rods hanging from a nailed particle, 2 s of RK4
/// at 1 ms with the chapter's feedback: the largest |C| and relative energy change.
fn pendulum_run(f: RodFn) -> Result<(f64, f64), PbmError> {
    let lengths = [1.0, 0.8];
    let bobs = pendulum_positions(&lengths, &[1.2, 2.0]);
    let mut particles = vec![Particle::new(1.0, Vector2::zeros(), Vector2::zeros())?];
    for (x, m) in bobs.into_iter().zip([1.0, 2.0]) {
        particles.push(Particle::new(m, x, Vector2::zeros())?);
    }
    let mut system = ConstrainedSystem::new(particles);
    system.add_force(Gravity { g: Vector2::new(0.0, -G) })?;
    system.add_constraint(Nail::new(0, Vector2::zeros())?)?;
    system.add_constraint(ReaderRod { f, ends: [0, 1], length: lengths[0] })?;
    system.add_constraint(ReaderRod { f, ends: [1, 2], length: lengths[1] })?;
    let e0 = system.energy();
    let scale = 3.0 * G; // m g l of the bobs, the size energy changes have
    let mut rk4 = RungeKutta::new(RK4);
    let (mut worst_c, mut worst_e) = (0.0_f64, 0.0_f64);
    for _ in 0..2000 {
        rk4.step(&mut system, 1e-3)?;
        worst_c = worst_c.max(system.max_abs_c()?);
        worst_e = worst_e.max((system.energy() - e0).abs() / scale);
    }
    Ok((worst_c, worst_e))
}

/// Checks a rod: C against its formula, J against central differences of C, J̇
/// against central differences of J along the motion, then a double pendulum of
/// such rods in the chapter's constrained system.
pub fn check_rod(f: RodFn) -> Report {
    let mut next = sequence(0x51ed_270b);
    let length = 0.9;
    let eps = 1e-6;
    for _ in 0..12 {
        let mut v = || Vector2::new(next(), next());
        let (x_a, v_a, x_b, v_b) = (v() * 1.5, v(), v(), v());
        let (d, d_dot) = (x_a - x_b, v_a - v_b);
        let (c, j, jd) = f((&x_a, &v_a), (&x_b, &v_b), length);
        let values = [j[0], j[1], jd[0], jd[1]];
        if !c.is_finite() || values.iter().any(|v| !v.iter().all(|x| x.is_finite())) {
            return Report::fail(format!(
                "at d = {} your rod gave C = {c}, J = {j:?}, J̇ = {jd:?}",
                show(&d)
            ));
        }
        let at =
            format!("at x_a = {}, x_b = {} (L = {length})", show(&x_a), show(&x_b));
        // C itself.
        let want = 0.5 * (d.dot(&d) - length * length);
        if (c - want).abs() > 1e-12 * (1.0 + want.abs()) {
            let why = if (c - 2.0 * want).abs() < 1e-9 {
                "it is twice ½(d·d − L²): keep the ½, which is what makes J = d with no \
                 factor 2"
                    .to_string()
            } else if (c - (d.norm() - length)).abs() < 1e-9 {
                "that is |d| − L, which has the same zeros, but this task's C is \
                 ½(d·d − L²), whose derivatives have no square roots"
                    .to_string()
            } else if (c + want).abs() < 1e-9 {
                "it has the wrong sign: C is positive when the rod is stretched"
                    .to_string()
            } else {
                format!("C = ½(d·d − L²) = {want:.6} with d = x_a − x_b")
            };
            return Report::fail(format!("{at} your C is {c:.6}: {why}"));
        }
        // J against central differences of C, particle by particle.
        let c_at = |x_a: Vector2<f64>, x_b: Vector2<f64>| {
            f((&x_a, &v_a), (&x_b, &v_b), length).0
        };
        let mut numeric = [Vector2::zeros(); 2];
        for axis in 0..2 {
            let mut e = Vector2::zeros();
            e[axis] = eps;
            numeric[0][axis] =
                (c_at(x_a + e, x_b) - c_at(x_a - e, x_b)) / (2.0 * eps);
            numeric[1][axis] =
                (c_at(x_a, x_b + e) - c_at(x_a, x_b - e)) / (2.0 * eps);
        }
        let scale = d.norm();
        if !(is_close(&j[0], &numeric[0], scale)
            && is_close(&j[1], &numeric[1], scale))
        {
            let why = if is_close(&j[0], &numeric[0], scale)
                && is_close(&j[1], &-numeric[1], scale)
            {
                "b's block has the wrong sign: C depends on x_b through d = x_a − x_b, so \
                 ∂C/∂x_b = −d"
                    .to_string()
            } else if is_close(&j[0], &(numeric[0] * 2.0), scale) {
                "it is twice the derivative: ∂(½ d·d)/∂x_a = d".to_string()
            } else if is_close(&j[0], &d.normalize(), scale) {
                "it is the unit vector d/|d|, the gradient of |d| − L; the gradient of \
                 ½(d·d − L²) is d itself"
                    .to_string()
            } else {
                format!(
                    "the blocks should be ∂C/∂x_a = d = {} and ∂C/∂x_b = −d",
                    show(&d)
                )
            };
            return Report::fail(format!(
                "{at} your J = [{}, {}] is not the gradient of C (central \
                 differences give [{}, {}]): {why}",
                show(&j[0]),
                show(&j[1]),
                show(&numeric[0]),
                show(&numeric[1])
            ));
        }
        // J̇ against central differences of J along the motion.
        let j_at =
            |s: f64| f((&(x_a + v_a * s), &v_a), (&(x_b + v_b * s), &v_b), length).1;
        let (plus, minus) = (j_at(eps), j_at(-eps));
        let along =
            [(plus[0] - minus[0]) / (2.0 * eps), (plus[1] - minus[1]) / (2.0 * eps)];
        let scale = d_dot.norm();
        if !(is_close(&jd[0], &along[0], scale) && is_close(&jd[1], &along[1], scale))
        {
            let why = if is_close(&jd[0], &j[0], d.norm())
                && is_close(&jd[1], &j[1], d.norm())
            {
                "yours is J itself, built from d; J̇ differentiates J along the motion, \
                 and d changes at ḋ = v_a − v_b"
                    .to_string()
            } else if jd[0].norm() + jd[1].norm() == 0.0 {
                "J̇ is not zero: as the ends move, d turns and stretches".to_string()
            } else if is_close(&jd[0], &along[0], scale)
                && is_close(&jd[1], &-along[1], scale)
            {
                "b's block has the wrong sign: J̇ = [ḋᵀ, −ḋᵀ], as J = [dᵀ, −dᵀ]"
                    .to_string()
            } else {
                format!(
                    "it should be [ḋᵀ, −ḋᵀ] with ḋ = v_a − v_b = {}",
                    show(&d_dot)
                )
            };
            return Report::fail(format!(
                "{at}, moving at v_a = {}, v_b = {}, your J̇ = [{}, {}] is not the \
                 rate at which J changes along the motion (central differences give \
                 [{}, {}]): {why}",
                show(&v_a),
                show(&v_b),
                show(&jd[0]),
                show(&jd[1]),
                show(&along[0]),
                show(&along[1])
            ));
        }
    }
    match pendulum_run(f) {
        Err(e) => Report::fail(format!(
            "a double pendulum of your rods failed in the chapter's constrained system: \
             {e}"
        )),
        Ok((c, _)) if c > 1e-6 => Report::fail(format!(
            "a double pendulum of your rods, with the chapter's feedback, let |C| reach \
             {c:.1e} in 2 s of RK4: the rods are not held"
        )),
        Ok((c, e)) => Report::pass(vec![
            "C = ½(d·d − L²) at 12 states; J against central differences of C for both \
             particles; J̇ against central differences of J along the motion"
                .to_string(),
            format!(
                "a double pendulum of your rods on a nail, 2 s of RK4 at 1 ms: |C| stays \
                 below {c:.0e}, energy within {e:.0e} of m g l"
            ),
        ]),
    }
}

/// One system for the multiplier solve: J, J̇, W, q̇, Q and C.
struct Case {
    j: DMatrix<f64>,
    j_dot: DMatrix<f64>,
    w: DVector<f64>,
    q_dot: DVector<f64>,
    force: DVector<f64>,
    c: DVector<f64>,
}

impl Case {
    /// A bead of `mass` at `x` moving at `v` on the unit circle C = ½(x·x − 1) under
    /// gravity: J = xᵀ, J̇ = ẋᵀ.
    fn bead(mass: f64, x: Vector2<f64>, v: Vector2<f64>) -> Case {
        Case {
            j: DMatrix::from_row_slice(1, 2, x.as_slice()),
            j_dot: DMatrix::from_row_slice(1, 2, v.as_slice()),
            w: DVector::from_element(2, 1.0 / mass),
            q_dot: DVector::from_column_slice(v.as_slice()),
            force: DVector::from_vec(vec![0.0, -mass * G]),
            c: DVector::from_element(1, 0.5 * (x.dot(&x) - 1.0)),
        }
    }

    /// A double pendulum hanging from a nailed particle 0 (W = 0) by rods 0–1 and 1–2
    /// of lengths `lengths`, at positions `x` and velocities `v`, bobs of 1 and 3 kg.
    fn pendulum(
        x: [Vector2<f64>; 3],
        v: [Vector2<f64>; 3],
        lengths: [f64; 2],
    ) -> Case {
        let masses = [f64::INFINITY, 1.0, 3.0];
        let mut j = DMatrix::zeros(2, 6);
        let mut j_dot = DMatrix::zeros(2, 6);
        let mut c = DVector::zeros(2);
        for (row, (a, b)) in [(0, 1), (1, 2)].into_iter().enumerate() {
            let (d, d_dot) = (x[a] - x[b], v[a] - v[b]);
            for k in 0..2 {
                (j[(row, 2 * a + k)], j[(row, 2 * b + k)]) = (d[k], -d[k]);
                (j_dot[(row, 2 * a + k)], j_dot[(row, 2 * b + k)]) =
                    (d_dot[k], -d_dot[k]);
            }
            c[row] = 0.5 * (d.dot(&d) - lengths[row] * lengths[row]);
        }
        Case {
            j,
            j_dot,
            w: DVector::from_fn(6, |i, _| 1.0 / masses[i / 2]),
            q_dot: DVector::from_fn(6, |i, _| v[i / 2][i % 2]),
            force: DVector::from_fn(6, |i, _| {
                if i % 2 == 1 && i > 1 { -masses[i / 2] * G } else { 0.0 }
            }),
            c,
        }
    }

    /// C̈ = J q̈ + J̇ q̇ with q̈ = W (Q + Jᵀ λ).
    fn c_ddot(&self, lambda: &DVector<f64>) -> DVector<f64> {
        let q_ddot =
            (&self.force + self.j.transpose() * lambda).component_mul(&self.w);
        &self.j * q_ddot + &self.j_dot * &self.q_dot
    }

    /// C̈ without any constraint force.
    fn free_c_ddot(&self) -> DVector<f64> {
        self.c_ddot(&DVector::zeros(self.j.nrows()))
    }

    /// What the feedback asks of C̈: −k_s C − k_d Ċ.
    fn target(&self, feedback: Feedback) -> DVector<f64> {
        -(&self.c * feedback.k_s) - (&self.j * &self.q_dot) * feedback.k_d
    }

    /// Whether λ solves the equation with the masses where the inverse masses go, in
    /// the matrix only or in the matrix and J W Q alike.
    fn solves_with_masses(&self, lambda: &DVector<f64>, feedback: Feedback) -> bool {
        let m = DMatrix::from_diagonal(&self.w.map(|w| 1.0 / w));
        let jmjt = &self.j * &m * self.j.transpose();
        let lhs = &jmjt * lambda;
        let common = -(&self.j_dot * &self.q_dot) + self.target(feedback);
        let with_w = &common - &self.j * self.force.component_mul(&self.w);
        let with_m = &common - &self.j * (&m * &self.force);
        let tol = 1e-9 * (1.0 + lhs.norm());
        (&lhs - with_w).norm() < tol || (&lhs - with_m).norm() < tol
    }

    /// Runs the reader's solve: λ, or the failure to report.
    fn solve(
        &self,
        f: MultipliersFn,
        feedback: Feedback,
        what: &str,
    ) -> Result<DVector<f64>, Report> {
        let lambda = f(
            &self.j,
            &self.j_dot,
            &self.w,
            &self.q_dot,
            &self.force,
            &self.c,
            feedback,
        )
        .map_err(|e| {
            Report::fail(format!("for {what} your solve returned an error: {e}"))
        })?;
        if lambda.len() != self.j.nrows() {
            return Err(Report::fail(format!(
                "for {what} your λ has {} entries: there is one multiplier per row of J, {}",
                lambda.len(),
                self.j.nrows()
            )));
        }
        if !lambda.iter().all(|l| l.is_finite()) {
            return Err(Report::fail(format!(
                "for {what} your λ is {:?}",
                lambda.as_slice()
            )));
        }
        Ok(lambda)
    }
}

fn near(a: f64, b: f64, scale: f64) -> bool {
    (a - b).abs() <= 1e-9 * (1.0 + scale)
}

/// The bead stages: at rest, moving, and off its wire with feedback. Returns the
/// largest |C̈ − target| or the failure.
fn bead_stages(f: MultipliersFn) -> Result<f64, Report> {
    let (mass, angle) = (2.0, (-40.0_f64).to_radians());
    let on = Vector2::new(angle.cos(), angle.sin());
    let tangent = Vector2::new(-on.y, on.x);
    let stages = [
        (
            "a 2 kg bead at rest on the unit circle under gravity",
            on,
            Vector2::zeros(),
            Feedback::OFF,
        ),
        (
            "a 2 kg bead moving at 1.5 m/s along the unit circle",
            on,
            tangent * 1.5,
            Feedback::OFF,
        ),
        (
            "a 2 kg bead 10 cm outside the unit circle, moving outwards, with feedback \
             k_s = 100, k_d = 20",
            on * 1.1,
            tangent * 1.5 + on * 0.4,
            Feedback::DEFAULT,
        ),
    ];
    let mut worst = 0.0_f64;
    for (what, x, v, feedback) in stages {
        let case = Case::bead(mass, x, v);
        let lambda = case.solve(f, feedback, what)?;
        let (got, want) = (case.c_ddot(&lambda)[0], case.target(feedback)[0]);
        let scale = mass * G + v.norm_squared() + want.abs();
        if near(got, want, scale) {
            worst = worst.max((got - want).abs());
            continue;
        }
        let free = case.free_c_ddot()[0];
        let centripetal = v.dot(&v);
        let (k_s, k_d) = (feedback.k_s * case.c[0], feedback.k_d * x.dot(&v));
        let why = if near(got - want, 2.0 * (free - want), scale) {
            "the constraint force has the wrong sign, so C̈ is as far off on the other \
             side as it would be with no constraint at all: λ solves J W Jᵀ λ = −J̇ q̇ − \
             J W Q − …, every term of the right-hand side with a minus"
                .to_string()
        } else if near(got, free, scale) {
            "that is the acceleration with no constraint force at all: is λ zero?"
                .to_string()
        } else if case.solves_with_masses(&lambda, feedback) {
            "your λ solves the equation with the masses M where W = M⁻¹ goes: w holds \
             inverse masses, and J W Jᵀ and J W Q are built from them"
                .to_string()
        } else if near(got - want, centripetal, scale) && centripetal > 0.0 {
            format!(
                "the J̇ q̇ term is missing: a bead moving at {:.1} m/s needs v² = {:.2} \
                 m/s² towards the centre just to follow the circle, and −J̇ q̇ in the \
                 right-hand side is what asks for it",
                v.norm(),
                centripetal
            )
        } else if near(got - want, 2.0 * centripetal, scale) && centripetal > 0.0 {
            "J̇ q̇ enters the right-hand side with the wrong sign: it is −J̇ q̇"
                .to_string()
        } else if feedback != Feedback::OFF && near(got, -want, scale) {
            "the feedback has the wrong sign: −k_s C − k_d Ċ pulls C back to zero, \
             +k_s C + k_d Ċ pushes it away"
                .to_string()
        } else if feedback != Feedback::OFF && near(got, 0.0, scale) {
            "that is C̈ = 0, as if there were no feedback: the right-hand side also \
             carries −k_s C − k_d Ċ"
                .to_string()
        } else if feedback != Feedback::OFF && near(got, -k_s, scale) {
            "the damping term −k_d Ċ is missing (Ċ = J q̇)".to_string()
        } else if feedback != Feedback::OFF && near(got, -k_d, scale) {
            "the spring term −k_s C is missing".to_string()
        } else {
            "check each term of J W Jᵀ λ = −J̇ q̇ − J W Q − k_s C − k_d Ċ".to_string()
        };
        return Err(Report::fail(format!(
            "{what}, with your λ = {:.4}, has C̈ = J W (Q + Jᵀλ) + J̇ q̇ = {got:.4} where a \
             legal acceleration has C̈ = {want:.4}: {why}",
            lambda[0]
        )));
    }
    Ok(worst)
}

/// Checks a multiplier solve: the acceleration it gives must be legal on three bead
/// states and on a double pendulum from a nail, the constraint force must do no work,
/// and an impossible solve must be an error.
pub fn check_multipliers(f: MultipliersFn) -> Report {
    let bead = match bead_stages(f) {
        Ok(worst) => worst,
        Err(report) => return report,
    };
    // A double pendulum hanging from a nail, its rods 2 % too long (so the feedback
    // acts), moving with legal velocities.
    let mut next = sequence(0x7f4a_7c15);
    let (mut worst, mut power) = (0.0_f64, 0.0_f64);
    let lengths = [1.0, 0.7];
    for _ in 0..8 {
        let angles = [next() * 3.0, next() * 3.0];
        let bobs = pendulum_positions(&[1.02, 0.714], &angles);
        let x = [Vector2::zeros(), bobs[0], bobs[1]];
        let perp = |d: Vector2<f64>| Vector2::new(-d.y, d.x);
        let v1 = perp(x[1] - x[0]) * (2.0 * next());
        let v2 = v1 + perp(x[2] - x[1]) * (2.0 * next());
        let v = [Vector2::zeros(), v1, v2];
        let case = Case::pendulum(x, v, lengths);
        let what = "a double pendulum hanging from a nail";
        let lambda = match case.solve(f, Feedback::DEFAULT, what) {
            Ok(lambda) => lambda,
            Err(report) => return report,
        };
        let (got, want) = (case.c_ddot(&lambda), case.target(Feedback::DEFAULT));
        let error = (&got - &want).norm();
        if error > 1e-9 * (1.0 + want.norm() + 4.0 * G) {
            return Report::fail(format!(
                "on {what} (particle 0 nailed, so its W = 0; bobs of 1 and 3 kg) your λ = \
                 {:?} gives C̈ = {:?} where the feedback asks for {:?}: with two rows J W \
                 Jᵀ is a 2 × 2 matrix, J · diag(w) · Jᵀ, and every term of the \
                 right-hand side is a vector of two rows",
                lambda.as_slice(),
                got.as_slice(),
                want.as_slice()
            ));
        }
        worst = worst.max(error);
        let constraint_force = case.j.transpose() * &lambda;
        power = power.max(
            constraint_force.dot(&case.q_dot).abs()
                / (1.0 + constraint_force.norm() * case.q_dot.norm()),
        );
    }
    // A bead at the circle's centre: J = 0, so no multiplier can meet the feedback.
    let centre = Case::bead(1.0, Vector2::zeros(), Vector2::new(0.3, 0.0));
    let rhs = centre.target(Feedback::DEFAULT)[0];
    match f(
        &centre.j,
        &centre.j_dot,
        &centre.w,
        &centre.q_dot,
        &centre.force,
        &centre.c,
        Feedback::DEFAULT,
    ) {
        Err(_) => {}
        Ok(lambda) => {
            return Report::fail(format!(
                "for a bead at its circle's centre J = 0, so J W Jᵀ = 0 while the feedback \
                 asks for C̈ = {rhs}: no multiplier can meet it, and your solve returned \
                 {:?}. Return an error when the matrix is singular \
                 (PbmError::degenerate), not a number",
                lambda.as_slice()
            ));
        }
    }
    Report::pass(vec![
        format!(
            "C̈ = −k_s C − k_d Ċ to {:.0e} for a bead at rest, moving, and off its wire",
            bead
        ),
        format!(
            "and to {worst:.0e} on a double pendulum hanging from a nail, at 8 states; \
             the constraint force Jᵀλ does no work on these legal velocities (|Jᵀλ·q̇| ≤ \
             {power:.0e}, as J q̇ = 0 makes it for any λ)"
        ),
        "a bead at its circle's centre (J = 0) is an error".to_string(),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    pbm_prelim::answers! {
        rod => check_rod(rod::rod),
        multipliers => check_multipliers(multipliers::multipliers),
    }
    use multipliers::multipliers;
    use rod::rod;

    #[test]
    fn rod_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing = |f: RodFn, expect: &str| check_rod(f).assert_fails_with(expect);
        // J's b block with the sign of a's.
        failing(
            |a, b, l| {
                let (c, j, jd) = rod(a, b, l);
                (c, [j[0], j[0]], jd)
            },
            "∂C/∂x_b = −d",
        );
        // J̇ built from the positions.
        failing(
            |a, b, l| {
                let (c, j, _) = rod(a, b, l);
                (c, j, j)
            },
            "yours is J itself",
        );
        // C without the ½.
        failing(
            |a, b, l| {
                let (c, j, jd) = rod(a, b, l);
                (2.0 * c, j, jd)
            },
            "keep the ½",
        );
        // J̇ left at zero.
        failing(
            |a, b, l| {
                let (c, j, _) = rod(a, b, l);
                (c, j, [Vector2::zeros(); 2])
            },
            "J̇ is not zero",
        );
    }

    #[test]
    fn multiplier_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing = |f: MultipliersFn, expect: &str| {
            check_multipliers(f).assert_fails_with(expect)
        };
        // The whole right-hand side with the wrong sign.
        failing(
            |j, jd, w, v, q, c, fb| multipliers(j, jd, w, v, q, c, fb).map(|l| -l),
            "wrong sign",
        );
        // The centripetal term forgotten.
        failing(
            |j, jd, w, v, q, c, fb| multipliers(j, &(jd * 0.0), w, v, q, c, fb),
            "J̇ q̇ term is missing",
        );
        // Masses where the inverse masses go.
        failing(
            |j, jd, w, v, q, c, fb| {
                let m = w.map(|w| 1.0 / w);
                let jmjt = j * DMatrix::from_diagonal(&m) * j.transpose();
                let jwjt = j * DMatrix::from_diagonal(w) * j.transpose();
                let rhs = jwjt * multipliers(j, jd, w, v, q, c, fb)?;
                jmjt.lu().solve(&rhs).ok_or_else(|| PbmError::degenerate("t", "s"))
            },
            "inverse masses",
        );
        // Feedback with the wrong sign.
        failing(
            |j, jd, w, v, q, c, fb| {
                let flipped = Feedback { k_s: -fb.k_s, k_d: -fb.k_d };
                multipliers(j, jd, w, v, q, c, flipped)
            },
            "feedback has the wrong sign",
        );
        // A singular matrix answered with zeros.
        failing(
            |j, jd, w, v, q, c, fb| {
                multipliers(j, jd, w, v, q, c, fb)
                    .or_else(|_| Ok(DVector::zeros(j.nrows())))
            },
            "Return an error",
        );
    }
}
