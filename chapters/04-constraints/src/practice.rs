//! Practice for chapter 4: the reader writes the bead's constraint force, the rod's
//! constraint function with its Jacobian and J̇, the constraint force Jᵀλ on the
//! block-sparse Jacobian, and the dense solve for the Lagrange multipliers. The bead
//! is checked by the acceleration its force gives, on states that bring in the terms
//! of λ one at a time; the rod against central differences of C along each particle
//! and along the motion, then holding a double pendulum in the chapter's constrained
//! system; Jᵀλ against J written out densely; the multipliers by the acceleration they
//! produce, which must be legal (C̈ = 0, or the feedback's −k_s C − k_d Ċ), on bead
//! states that add the equation's terms one at a time and on a double pendulum
//! hanging from a nail.

use crate::block_matrix::{BlockMatrix, MatrixBlock};
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
use pbm_prelim::practice::{Listing, Report, Task, case, number, numbers, sequence};

/// A bead's constraint force the reader writes: f̂ from m, x, ẋ, f and the feedback.
pub type BeadForceFn =
    fn(f64, &Vector2<f64>, &Vector2<f64>, &Vector2<f64>, Feedback) -> Vector2<f64>;

/// The constraint force Jᵀλ the reader writes, from the block-sparse J and λ.
pub type ConstraintForceFn = fn(&BlockMatrix, &[f64]) -> Vec<f64>;

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
        id: "constraints/bead-force",
        title: "the constraint force on a bead, with feedback",
        section: "A bead on a wire",
        page: "04-constraints/index.md",
        equation: "bead-lambda",
        difficulty: 1,
        file: "bead_force.rs",
        stub: include_str!("practice/bead_force.rs"),
        check: "pbm_constraints::practice::check_bead_force(reader::bead_force)",
        hints: &[
            "f̂ = λ x for one number λ. Put ẍ = (f + λ x)/m into C̈ = ẍ·x + ẋ·ẋ and \
             ask for C̈ = −k_s C − k_d Ċ: one linear equation in λ.",
            "C = ½(x·x − 1) and Ċ = x·ẋ; they are not zero off the wire, which is where \
             the feedback earns its keep.",
            "λ = (−f·x − m ẋ·ẋ − m k_s C − m k_d Ċ)/(x·x): without feedback it is the \
             page's λ, and each gain adds one term.",
        ],
        solution: Listing {
            source: include_str!("practice/bead_force_solution.rs"),
            anchor: "bead_force",
        },
    },
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
        id: "constraints/constraint-force",
        title: "the constraint force Jᵀλ on the block-sparse Jacobian",
        section: "Systems of constraints: Tinkertoys",
        page: "04-constraints/tinkertoys.md",
        equation: "virtual-work",
        difficulty: 1,
        file: "constraint_force.rs",
        stub: include_str!("practice/constraint_force.rs"),
        check: "pbm_constraints::practice::check_constraint_force(reader::constraint_force)",
        hints: &[
            "Start from Q̂ = 0, one entry per coordinate (`j.n_cols`), and visit the \
             blocks; nothing else of J is non-zero.",
            "A block sits at rows `row .. row + rows` and columns `col .. col + cols`. \
             Its entry (r, c) is `data[r * cols + c]`, and in Jᵀλ it multiplies λ[row + r] \
             into Q̂[col + c].",
            "Add (+=), never assign: two constraints on one particle both push it.",
        ],
        solution: Listing {
            source: include_str!("practice/constraint_force_solution.rs"),
            anchor: "constraint_force",
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

/// A plane vector as a reader writes it: [0.503, −1.25].
fn show(v: &Vector2<f64>) -> String {
    numbers(v.as_slice())
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
        let at =
            format!("at x_a = {}, x_b = {} (L = {length})", show(&x_a), show(&x_b));
        case(at.clone());
        let (c, j, jd) = f((&x_a, &v_a), (&x_b, &v_b), length);
        let values = [j[0], j[1], jd[0], jd[1]];
        if !c.is_finite() || values.iter().any(|v| !v.iter().all(|x| x.is_finite())) {
            return Report::fail(format!(
                "at d = {} your rod gave C = {}, J = [{}, {}], J̇ = [{}, {}]: not a \
                 finite number",
                show(&d),
                number(c),
                show(&j[0]),
                show(&j[1]),
                show(&jd[0]),
                show(&jd[1])
            ));
        }
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
                format!("C = ½(d·d − L²) = {} with d = x_a − x_b", number(want))
            };
            return Report::fail(format!("{at} your C is {}: {why}", number(c)));
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
    case("a double pendulum of your rods hanging from a nail");
    match pendulum_run(f) {
        Err(e) => Report::fail(format!(
            "a double pendulum of your rods failed in the chapter's constrained system: \
             {e}"
        )),
        Ok((c, _)) if c > 1e-6 => Report::fail(format!(
            "a double pendulum of your rods, with the chapter's feedback, let |C| reach \
             {} in 2 s of RK4: the rods are not held",
            number(c)
        )),
        Ok((c, e)) => Report::pass(vec![
            "C = ½(d·d − L²) at 12 states; J against central differences of C for both \
             particles; J̇ against central differences of J along the motion"
                .to_string(),
            format!(
                "a double pendulum of your rods on a nail, 2 s of RK4 at 1 ms: |C| stays \
                 below {}, energy within {} of m g l",
                number(c),
                number(e)
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

    /// Whether λ solves the equation with the masses M where W = M⁻¹ goes, in
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

    /// The sizes of this case's arrays, as a case's name says them.
    fn shapes(&self) -> String {
        let (m, n) = self.j.shape();
        format!(
            "J and J̇ are {m} × {n}; w, q̇ and Q have {n} entries and C has {m}; J W Jᵀ \
             is {m} × {m}"
        )
    }

    /// Runs the reader's solve: λ, or the failure to report. A panic in a matrix
    /// product whose shapes do not fit is said with the shapes.
    fn solve(
        &self,
        f: MultipliersFn,
        feedback: Feedback,
        what: &str,
    ) -> Result<DVector<f64>, Report> {
        case(format!("{what} ({})", self.shapes()));
        let call = || {
            f(
                &self.j,
                &self.j_dot,
                &self.w,
                &self.q_dot,
                &self.force,
                &self.c,
                feedback,
            )
        };
        let result = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(
            call,
        )) {
            Ok(result) => result,
            Err(payload) => {
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                if !message.contains("dimension") {
                    std::panic::resume_unwind(payload);
                }
                return Err(Report::fail(format!(
                    "for {what} your code panicked in a matrix product whose shapes do not \
                     fit (“{message}”): {}. J W Jᵀ is (m × n)(n × n)(n × m); Jᵀ W J would \
                     start with an n × m times an n × n, which does not multiply",
                    self.shapes()
                )));
            }
        };
        let lambda = result.map_err(|e| {
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
                "for {what} your λ is {}: not a finite number",
                numbers(lambda.as_slice())
            )));
        }
        Ok(lambda)
    }
}

fn near(a: f64, b: f64, scale: f64) -> bool {
    (a - b).abs() <= 1e-9 * (1.0 + scale)
}

/// The term of the multiplier equation a bead stage adds to the ones before it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Term {
    /// −J W Q, alone at rest on the wire.
    Force,
    /// −J̇ q̇, added by motion.
    Centripetal,
    /// −k_s C, added off the wire at rest.
    Spring,
    /// −k_d Ċ, added by moving off the wire.
    Damping,
    /// Everything at once.
    All,
}

/// What a wrong λ on one bead stage says, from the term that stage adds: `got` and
/// `want` are C̈, `before` the C̈ the terms of the earlier stages ask for alone.
fn bead_diagnosis(
    case: &Case,
    term: Term,
    (lambda, feedback): (&DVector<f64>, Feedback),
    (got, want, before): (f64, f64, f64),
    mass: f64,
) -> String {
    let (x, v) = (case.j.transpose(), &case.q_dot);
    let scale = mass * G + v.norm_squared() + want.abs();
    let free = case.free_c_ddot()[0];
    // The C̈ the right λ gives is `want`; λ moves C̈ by (x·x/m) per unit.
    let right_lambda = (want - free) / (x.norm_squared() / mass);
    let added = got - before; // what the reader's λ makes of this stage's term
    let c_dot = (&case.j * v)[0];
    match term {
        _ if near(got - want, 2.0 * (free - want), scale) => {
            "the constraint force has the wrong sign, so C̈ is as far off on the other \
             side as it would be with no constraint at all: λ solves J W Jᵀ λ = −J̇ q̇ − \
             J W Q − …, every term of the right-hand side with a minus"
                .to_string()
        }
        _ if near(got, free, scale) => {
            "that is the acceleration with no constraint force at all: is λ zero?"
                .to_string()
        }
        _ if case.solves_with_masses(lambda, feedback) => {
            "your λ solves the equation with the masses M where W = M⁻¹ goes: w holds \
             inverse masses, and J W Jᵀ and J W Q are built from them"
                .to_string()
        }
        Term::Force if near(lambda[0], mass * right_lambda, scale) => format!(
            "your λ is m = {} times the right one: the force term is J W Q, the force \
             turned into an acceleration by W = M⁻¹, not J Q",
            number(mass)
        ),
        Term::Force => "at rest on the wire without feedback only the force term acts, \
                        J W Jᵀ λ = −J W Q: check that term and the matrix"
            .to_string(),
        Term::Centripetal => {
            let (centripetal, excess) = (v.norm_squared(), got - want);
            if near(excess, centripetal, scale) {
                format!(
                    "the J̇ q̇ term is missing: a bead moving at {} m/s needs v² = {} m/s² \
                     towards the centre just to follow the circle, and −J̇ q̇ in the \
                     right-hand side is what asks for it",
                    number(v.norm()),
                    number(centripetal)
                )
            } else if near(excess, 2.0 * centripetal, scale) {
                "J̇ q̇ enters the right-hand side with the wrong sign: it is −J̇ q̇"
                    .to_string()
            } else {
                format!(
                    "at rest your λ was right, so the force term and the matrix are; \
                     moving adds only −J̇ q̇ (here J̇ q̇ = ẋ·ẋ = {} m²/s²), and your C̈ is \
                     {} off: check that term",
                    number(centripetal),
                    number(excess)
                )
            }
        }
        Term::Spring => {
            let spring = -feedback.k_s * case.c[0];
            if near(added, -spring, scale) {
                "the feedback's spring term has the wrong sign: −k_s C pulls C back to \
                 zero, +k_s C pushes it away"
                    .to_string()
            } else if near(added, 0.0, scale) {
                "C̈ = 0, as if there were no feedback: off the wire at rest the \
                 right-hand side also carries −k_s C (with k_s = feedback.k_s)"
                    .to_string()
            } else {
                format!(
                    "at rest off the wire with k_d = 0 only −k_s C = {} is new, and your \
                     λ adds {} to C̈: check the spring term −k_s C",
                    number(spring),
                    number(added)
                )
            }
        }
        Term::Damping => {
            let used = -added / feedback.k_d;
            let (c, j_dot_q_dot) = (case.c[0], (&case.j_dot * v)[0]);
            let why = if near(used, 0.0, scale) {
                "the damping term −k_d Ċ is missing".to_string()
            } else if near(used, -c_dot, scale) {
                "the damping term has the wrong sign: it is −k_d Ċ".to_string()
            } else if near(used, c, scale) {
                "your damping term is −k_d C, on the constraint's value; it acts on its \
                 rate, −k_d Ċ"
                    .to_string()
            } else if near(used, j_dot_q_dot, scale) {
                format!(
                    "your damping term uses J̇ q̇ = {} for Ċ; the constraint's rate is Ċ = \
                     J q̇",
                    number(j_dot_q_dot)
                )
            } else {
                format!("your λ acts as if Ċ were {}", number(used))
            };
            format!(
                "with k_s = 0 only −k_d Ċ is new here, Ċ = J q̇ = x·ẋ = {}: {why}",
                number(c_dot)
            )
        }
        Term::All => "check each term of J W Jᵀ λ = −J̇ q̇ − J W Q − k_s C − k_d Ċ"
            .to_string(),
    }
}

/// The bead stages: at rest, moving, off the wire with each feedback gain alone, and
/// with both. Each adds one term of the multiplier equation to the ones before, so
/// the first stage that fails names the term. Returns the largest |C̈ − target|.
fn bead_stages(f: MultipliersFn) -> Result<f64, Report> {
    let (mass, angle) = (2.0, (-40.0_f64).to_radians());
    let on = Vector2::new(angle.cos(), angle.sin());
    let tangent = Vector2::new(-on.y, on.x);
    let off = Feedback::OFF;
    let stages = [
        (
            "a 2 kg bead at rest on the unit circle under gravity",
            Term::Force,
            (on, Vector2::zeros(), off),
        ),
        (
            "a 2 kg bead moving at 1.5 m/s along the unit circle",
            Term::Centripetal,
            (on, tangent * 1.5, off),
        ),
        (
            "a 2 kg bead at rest 10 cm outside the unit circle, with the spring gain \
             k_s = 100 alone",
            Term::Spring,
            (on * 1.1, Vector2::zeros(), Feedback { k_s: 100.0, k_d: 0.0 }),
        ),
        (
            "a 2 kg bead 10 cm outside the unit circle, moving outwards at 0.4 m/s and \
             along it at 1.5 m/s, with the damping gain k_d = 20 alone",
            Term::Damping,
            (on * 1.1, tangent * 1.5 + on * 0.4, Feedback { k_s: 0.0, k_d: 20.0 }),
        ),
        (
            "a 2 kg bead 10 cm outside the unit circle, moving outwards, with feedback \
             k_s = 100, k_d = 20",
            Term::All,
            (on * 1.1, tangent * 1.5 + on * 0.4, Feedback::DEFAULT),
        ),
    ];
    let mut worst = 0.0_f64;
    for (what, term, (x, v, feedback)) in stages {
        let case = Case::bead(mass, x, v);
        let lambda = case.solve(f, feedback, what)?;
        let (got, want) = (case.c_ddot(&lambda)[0], case.target(feedback)[0]);
        let scale = mass * G + v.norm_squared() + want.abs();
        if near(got, want, scale) {
            worst = worst.max((got - want).abs());
            continue;
        }
        // What the terms of the earlier stages ask of C̈ on their own.
        let before = match term {
            Term::Spring => 0.0,
            Term::Damping => -feedback.k_s * case.c[0],
            _ => want,
        };
        let why = bead_diagnosis(
            &case,
            term,
            (&lambda, feedback),
            (got, want, before),
            mass,
        );
        return Err(Report::fail(format!(
            "{what}, with your λ = {}, has C̈ = J W (Q + Jᵀλ) + J̇ q̇ = {} where a legal \
             acceleration has C̈ = {}: {why}",
            number(lambda[0]),
            number(got),
            number(want)
        )));
    }
    Ok(worst)
}

/// Checks a multiplier solve: the acceleration it gives must be legal on five bead
/// states that add the equation's terms one at a time and on a double pendulum from
/// a nail, the constraint force must do no work, and an impossible solve must be an
/// error.
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
                 {} gives C̈ = {} where the feedback asks for {}: with two rows J W Jᵀ is \
                 a 2 × 2 matrix, J · diag(w) · Jᵀ, and every term of the right-hand side \
                 is a vector of two rows",
                numbers(lambda.as_slice()),
                numbers(got.as_slice()),
                numbers(want.as_slice())
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
    case(format!("a bead at its circle's centre, J = 0 ({})", centre.shapes()));
    if let Ok(lambda) = f(
        &centre.j,
        &centre.j_dot,
        &centre.w,
        &centre.q_dot,
        &centre.force,
        &centre.c,
        Feedback::DEFAULT,
    ) {
        return Report::fail(format!(
            "for a bead at its circle's centre J = 0, so J W Jᵀ = 0 while the feedback \
             asks for C̈ = {}: no multiplier can meet it, and your solve returned {}. \
             Return an error when the matrix is singular (PbmError::degenerate), not a \
             number",
            number(rhs),
            numbers(lambda.as_slice())
        ));
    }
    Report::pass(vec![
        format!(
            "C̈ = −k_s C − k_d Ċ to {} for a bead at rest, moving, and off its wire with \
             each gain and both",
            number(bead)
        ),
        format!(
            "and to {} on a double pendulum hanging from a nail, at 8 states; the \
             constraint force Jᵀλ does no work on these legal velocities (|Jᵀλ·q̇| ≤ {}, \
             as J q̇ = 0 makes it for any λ)",
            number(worst),
            number(power)
        ),
        "a bead at its circle's centre (J = 0) is an error".to_string(),
    ])
}

/// What a bead stage isolates in λ = (−f·x − m ẋ·ẋ − m k_s C − m k_d Ċ)/(x·x).
#[derive(Debug, Clone, Copy, PartialEq)]
enum BeadTerm {
    /// −f·x, at rest on the wire (x·x = 1).
    Force,
    /// The division by x·x, at rest off the wire.
    Divide,
    /// −m ẋ·ẋ, moving along the wire with no applied force.
    Centripetal,
    /// −m k_s C, at rest off the wire with k_s alone.
    Spring,
    /// −m k_d Ċ, moving off the wire with k_d alone (the centripetal term as well).
    Damping,
    /// Everything, at a random state.
    All,
}

/// λ from the legal acceleration: x·(f + λx)/m + ẋ·ẋ = −k_s C − k_d Ċ.
fn bead_lambda_for(
    mass: f64,
    (x, v, f): (&Vector2<f64>, &Vector2<f64>, &Vector2<f64>),
    feedback: Feedback,
) -> f64 {
    let (c, c_dot) = (0.5 * (x.dot(x) - 1.0), x.dot(v));
    let target = -feedback.k_s * c - feedback.k_d * c_dot;
    (mass * (target - v.dot(v)) - x.dot(f)) / x.dot(x)
}

/// Says what a wrong λ on a stage that isolates `term` shows. `ratio` is the
/// reader's part of λ for that term over the right one.
fn bead_force_mistake(
    term: BeadTerm,
    ratio: f64,
    (mass, x, v): (f64, &Vector2<f64>, &Vector2<f64>),
) -> String {
    let is = |r: f64| (ratio - r).abs() < 1e-9 * (1.0 + r.abs());
    let (c, c_dot) = (0.5 * (x.dot(x) - 1.0), x.dot(v));
    let common = if is(-1.0) {
        Some(
            "it has the wrong sign: every term of the numerator has a minus, −f·x − m ẋ·ẋ \
             − m k_s C − m k_d Ċ"
                .to_string(),
        )
    } else if is(0.0) {
        Some("it is missing".to_string())
    } else if is(1.0 / mass) && term != BeadTerm::Force {
        Some(format!(
            "it lacks the mass, m = {}: λ x/m is an acceleration, so every term that \
             asks for one is multiplied by m",
            number(mass)
        ))
    } else {
        None
    };
    let (name, why) = match term {
        BeadTerm::Force => (
            "the force term −f·x/(x·x)",
            if is(mass) {
                "it is m times too large: f̂ is a force, and −f·x already has the units of \
             one: λ = −f·x/(x·x) at rest"
                .to_string()
            } else if is(1.0 / mass) {
                "it is divided by m: f̂ is a force, and −f·x already has the units of one"
                .to_string()
            } else {
                common.clone().unwrap_or_else(|| {
                "at rest on the wire λ = −f·x/(x·x), which removes the normal part of f"
                    .to_string()
            })
            },
        ),
        BeadTerm::Divide => (
            "the division by x·x",
            if is(x.dot(x)) {
                "λ is not divided by x·x: on the wire x·x = 1 hides that, 30 cm off it x·x = \
             1.69"
                .to_string()
            } else if is(x.norm()) {
                "λ is divided by |x| where x·x belongs: f̂ = λ x has length |λ| |x|, so \
             λ = −f·x/(x·x) removes exactly the normal part of f"
                .to_string()
            } else if is(1.0 / x.dot(x)) {
                "λ is divided by x·x twice".to_string()
            } else {
                "λ = (…)/(x·x): f̂ = λ x, and x·f̂ = λ x·x".to_string()
            },
        ),
        BeadTerm::Centripetal => (
            "the velocity term −m ẋ·ẋ/(x·x)",
            common.clone().unwrap_or_else(|| {
                format!(
                    "a bead moving at {} m/s on the unit circle needs ẋ·ẋ = {} m/s² \
                 towards the centre, and the wire must supply m times it",
                    number(v.norm()),
                    number(v.dot(v))
                )
            }),
        ),
        BeadTerm::Spring => (
            "the feedback's spring term −m k_s C/(x·x)",
            if is(2.0) {
                "it is twice too large: C = ½(x·x − 1), with the ½".to_string()
            } else {
                common.clone().unwrap_or_else(|| {
                    "C̈ = −k_s C asks for −m k_s C in the numerator".to_string()
                })
            },
        ),
        BeadTerm::Damping => (
            "the feedback's damping term −m k_d Ċ/(x·x)",
            if is(c / c_dot) {
                "it uses C where Ċ = x·ẋ belongs: −k_d Ċ damps the rate".to_string()
            } else if is(v.dot(v) / c_dot) {
                "it uses ẋ·ẋ where Ċ = x·ẋ belongs".to_string()
            } else {
                common.clone().unwrap_or_else(|| {
                format!(
                    "C̈ = −k_d Ċ with Ċ = x·ẋ = {} asks for −m k_d Ċ in the numerator",
                    number(c_dot)
                )
            })
            },
        ),
        BeadTerm::All => (
            "λ",
            "check each term of λ = (−f·x − m ẋ·ẋ − m k_s C − m k_d Ċ)/(x·x)"
                .to_string(),
        ),
    };
    format!("this state isolates {name}, and {why}")
}

/// Checks a bead's constraint force: along x at every state, and giving the legal
/// acceleration C̈ = −k_s C − k_d Ċ on five states that bring in the terms of λ one
/// at a time, then at twelve random states.
pub fn check_bead_force(f: BeadForceFn) -> Report {
    let angle = (-40.0_f64).to_radians();
    let on = Vector2::new(angle.cos(), angle.sin());
    let tangent = Vector2::new(-on.y, on.x);
    let gravity = |m: f64| Vector2::new(0.0, -m * G);
    let none = Vector2::zeros();
    let (off, springy, damped) = (
        Feedback::OFF,
        Feedback { k_s: 100.0, k_d: 0.0 },
        Feedback { k_s: 0.0, k_d: 20.0 },
    );
    let mut states = vec![
        ("a 2 kg bead at rest on the unit circle under gravity, no feedback".to_string(),
         BeadTerm::Force, 2.0, on, none, gravity(2.0), off),
        ("a 2 kg bead at rest 30 cm outside the circle under gravity, no feedback"
            .to_string(), BeadTerm::Divide, 2.0, on * 1.3, none, gravity(2.0), off),
        ("a 2 kg bead moving at 1.5 m/s along the circle, no applied force, no feedback"
            .to_string(), BeadTerm::Centripetal, 2.0, on, tangent * 1.5, none, off),
        ("a 2 kg bead at rest 10 cm outside the circle, no applied force, k_s = 100 \
          alone".to_string(), BeadTerm::Spring, 2.0, on * 1.1, none, none, springy),
        ("a 2 kg bead 10 cm outside the circle moving outwards at 0.4 m/s and along it \
          at 1.5 m/s, no applied force, k_d = 20 alone".to_string(), BeadTerm::Damping,
         2.0, on * 1.1, tangent * 1.5 + on * 0.4, none, damped),
    ];
    let mut next = sequence(0xbead_0004);
    for _ in 0..12 {
        // Between 0.6 and 1.1 from the centre, in any direction.
        let (radius, turn) =
            (0.6 + 0.5 * next().abs(), std::f64::consts::PI * next());
        let x = Vector2::new(turn.cos(), turn.sin()) * radius;
        let (v, force) =
            (Vector2::new(next(), next()) * 2.0, Vector2::new(next(), next()) * 10.0);
        let mass = 0.5 + 2.0 * next().abs();
        let what = format!(
            "a {} kg bead at x = {}, moving at {}, under f = {}, feedback k_s = 100, k_d = 20",
            number(mass),
            numbers(x.as_slice()),
            numbers(v.as_slice()),
            numbers(force.as_slice())
        );
        states.push((what, BeadTerm::All, mass, x, v, force, Feedback::DEFAULT));
    }
    let mut worst = 0.0_f64;
    for (what, term, mass, x, v, force, feedback) in states {
        case(what.clone());
        let got = f(mass, &x, &v, &force, feedback);
        if !got.iter().all(|g| g.is_finite()) {
            return Report::fail(format!(
                "for {what}, your f̂ = {}: not a finite number",
                numbers(got.as_slice())
            ));
        }
        let scale = mass * G + force.norm() + mass * v.dot(&v) + 100.0 * mass;
        let sideways = (got.x * x.y - got.y * x.x) / x.norm();
        if sideways.abs() > 1e-9 * scale {
            return Report::fail(format!(
                "for {what}, your f̂ = {} has a part {} N along the wire: the constraint \
                 force is f̂ = λ x, along the normal, so that it does no work on a bead \
                 sliding along the wire",
                numbers(got.as_slice()),
                number(sideways)
            ));
        }
        let lambda = got.dot(&x) / x.dot(&x);
        let right = bead_lambda_for(mass, (&x, &v, &force), feedback);
        let c_ddot = x.dot(&(force + got)) / mass + v.dot(&v);
        let (c, c_dot) = (0.5 * (x.dot(&x) - 1.0), x.dot(&v));
        let want = -feedback.k_s * c - feedback.k_d * c_dot;
        let error = (c_ddot - want).abs();
        if error > 1e-9 * (scale / mass) {
            // The part of λ this state's term accounts for, yours against the right one.
            let centripetal = -mass * v.dot(&v) / x.dot(&x);
            let ratio = match term {
                BeadTerm::Damping => (lambda - centripetal) / (right - centripetal),
                _ => lambda / right,
            };
            let why = bead_force_mistake(term, ratio, (mass, &x, &v));
            return Report::fail(format!(
                "for {what}, your f̂ = {} = λ x with λ = {}, which gives C̈ = ẍ·x + ẋ·ẋ = \
                 {} where a legal acceleration has C̈ = −k_s C − k_d Ċ = {} (which λ = {} \
                 gives): {why}",
                numbers(got.as_slice()),
                number(lambda),
                number(c_ddot),
                number(want),
                number(right)
            ));
        }
        worst = worst.max(error);
    }
    Report::pass(vec![
        "f̂ along x at every state; right at rest, off the wire, moving, and with each \
         feedback gain alone"
            .to_string(),
        format!(
            "and at 12 random states with feedback: C̈ = −k_s C − k_d Ċ to {} m/s²",
            number(worst)
        ),
    ])
}

/// The check's own dense J from the blocks.
fn dense(j: &BlockMatrix) -> DMatrix<f64> {
    let mut m = DMatrix::zeros(j.n_rows, j.n_cols);
    for b in &j.blocks {
        for r in 0..b.rows {
            for c in 0..b.cols {
                m[(b.row + r, b.col + c)] += b.data[r * b.cols + c];
            }
        }
    }
    m
}

/// Jᵀλ as a reader might get it wrong: each block's data read column-major, or
/// written with = instead of +=.
fn misread(
    j: &BlockMatrix,
    lambda: &[f64],
    column_major: bool,
    overwrite: bool,
) -> Vec<f64> {
    let mut out = vec![0.0; j.n_cols];
    for b in &j.blocks {
        for c in 0..b.cols {
            let sum: f64 = (0..b.rows)
                .map(|r| {
                    let k =
                        if column_major { c * b.rows + r } else { r * b.cols + c };
                    b.data[k] * lambda[b.row + r]
                })
                .sum();
            if overwrite { out[b.col + c] = sum } else { out[b.col + c] += sum }
        }
    }
    out
}

/// A block of `data` (row-major) at (row, col).
fn block(row: usize, col: usize, rows: usize, data: &[f64]) -> MatrixBlock {
    MatrixBlock { row, col, rows, cols: data.len() / rows, data: data.to_vec() }
}

/// Checks Jᵀλ on a block-sparse J: a single block, a block of two rows, two
/// constraints on one particle, and a chain hanging from a nail, against the
/// transpose product of J written out densely; its work along any δq must be λ·(J δq).
pub fn check_constraint_force(f: ConstraintForceFn) -> Report {
    let (d0, d1) = ([0.6, -0.8], [-0.28, 0.96]);
    let mut chain = vec![block(0, 0, 2, &[1.0, 0.0, 0.0, 1.0])];
    let mut next = sequence(0x7a11_0004);
    for k in 0..4 {
        let d = [next(), next()];
        chain.push(block(2 + k, 2 * k, 1, &d));
        chain.push(block(2 + k, 2 * k + 2, 1, &[-d[0], -d[1]]));
    }
    let chain_lambda: Vec<f64> = (0..6).map(|_| 3.0 * next()).collect();
    let cases = [
        (
            "one rod's block, 1 × 2, in row 0 over particle 1 of three",
            BlockMatrix { n_rows: 1, n_cols: 6, blocks: vec![block(0, 2, 1, &d0)] },
            vec![2.5],
        ),
        (
            "a block of two rows, [[1, 2], [3, 4]], in rows 1–2 over particle 1 of three",
            BlockMatrix {
                n_rows: 3,
                n_cols: 6,
                blocks: vec![block(1, 2, 2, &[1.0, 2.0, 3.0, 4.0])],
            },
            vec![0.0, 1.5, -0.7],
        ),
        (
            "two rods sharing particle 1, rows 0 and 1 over particles 0–1 and 1–2",
            BlockMatrix {
                n_rows: 2,
                n_cols: 6,
                blocks: vec![
                    block(0, 0, 1, &d0),
                    block(0, 2, 1, &[-d0[0], -d0[1]]),
                    block(1, 2, 1, &d1),
                    block(1, 4, 1, &[-d1[0], -d1[1]]),
                ],
            },
            vec![1.2, -0.7],
        ),
        (
            "a chain of four rods hanging from a nail (6 rows, 5 particles)",
            BlockMatrix { n_rows: 6, n_cols: 10, blocks: chain },
            chain_lambda,
        ),
    ];
    let mut worst = 0.0_f64;
    for (what, j, lambda) in &cases {
        case(format!("{what}: λ has {} entries, Q̂ {}", lambda.len(), j.n_cols));
        let got = f(j, lambda);
        if got.len() != j.n_cols {
            return Report::fail(format!(
                "for {what}, your Q̂ has {} entries: it has one per coordinate of q, \
                 j.n_cols = {} (λ has one per row, {})",
                got.len(),
                j.n_cols,
                j.n_rows
            ));
        }
        let want = dense(j).transpose() * DVector::from_column_slice(lambda);
        let got_v = DVector::from_column_slice(&got);
        let error = (&got_v - &want).norm();
        if !error.is_finite() || error > 1e-12 * (1.0 + want.norm()) {
            let like = |v: Vec<f64>| agree(&got_v, &DVector::from_vec(v));
            let why = if agree(&got_v, &-&want) {
                "it has the wrong sign: Q̂ = +Jᵀλ".to_string()
            } else if like(misread(j, lambda, true, false)) {
                "you read each block column by column: its data is row-major, entry (r, \
                 c) at data[r * cols + c], and Jᵀ takes row r of the block times λ[row + \
                 r] into Q̂[col + c]"
                    .to_string()
            } else if like(misread(j, lambda, false, true)) {
                "each block overwrites what the blocks before it wrote: two constraints \
                 on one particle both push it, so their parts add (+=)"
                    .to_string()
            } else {
                let i = (0..want.len())
                    .max_by(|&a, &b| {
                        (got_v[a] - want[a])
                            .abs()
                            .total_cmp(&(got_v[b] - want[b]).abs())
                    })
                    .unwrap_or(0);
                format!(
                    "entry {i} (particle {}, {}) is {} where Jᵀλ has {}: each block adds \
                     its transpose times λ[row .. row + rows] into Q̂[col .. col + cols]",
                    i / 2,
                    ["x", "y"][i % 2],
                    number(got_v[i]),
                    number(want[i])
                )
            };
            return Report::fail(format!(
                "for {what}, λ = {}, your Q̂ = {} where Jᵀλ = {}: {why}",
                numbers(lambda),
                numbers(&got),
                numbers(want.as_slice())
            ));
        }
        worst = worst.max(error);
    }
    Report::pass(vec![
        format!(
            "Q̂ = Jᵀλ (to {}) for a single block, a block of two rows, two rods on one \
             particle and a chain of four rods on a nail",
            number(worst)
        ),
        "so its work along any motion δq is λ·(J δq), and none along a legal one (J δq = \
         0)"
        .to_string(),
    ])
}

/// Whether two vectors agree to 1e−12 of the larger.
fn agree(a: &DVector<f64>, b: &DVector<f64>) -> bool {
    a.len() == b.len() && (a - b).norm() <= 1e-12 * (1.0 + a.norm().max(b.norm()))
}

#[cfg(test)]
mod tests {
    use super::*;

    pbm_prelim::answers! {
        rod => check_rod(rod::rod),
        multipliers => check_multipliers(multipliers::multipliers),
        bead_force => check_bead_force(bead_force::bead_force),
        constraint_force => check_constraint_force(constraint_force::constraint_force),
    }
    use bead_force::bead_force;
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
        // NaN, said in short numbers.
        failing(
            |a, b, l| {
                let (_, j, jd) = rod(a, b, l);
                (f64::NAN, j, jd)
            },
            "your rod gave C = NaN, J = [[",
        );
    }

    /// The dense solve with each term of the right-hand side replaceable: `rhs` gets
    /// (J, J̇, W as a matrix, q̇, Q, C, feedback) and returns the right-hand side.
    fn solve_with(
        (j, w): (&DMatrix<f64>, &DVector<f64>),
        rhs: DVector<f64>,
    ) -> Result<DVector<f64>, PbmError> {
        let matrix = j * DMatrix::from_diagonal(w) * j.transpose();
        matrix.lu().solve(&rhs).ok_or_else(|| PbmError::degenerate("t", "singular"))
    }

    #[test]
    fn another_correct_multiplier_solve_passes() {
        // J W Jᵀ formed row by row, and solved by Cholesky when it can be.
        check_multipliers(|j, jd, w, v, q, c, fb| {
            let m = j.nrows();
            let jw = DMatrix::from_fn(m, j.ncols(), |r, k| j[(r, k)] * w[k]);
            let matrix = &jw * j.transpose();
            let rhs = DVector::from_fn(m, |r, _| {
                -(jd.row(r) * v)[0]
                    - (jw.row(r) * q)[0]
                    - fb.k_s * c[r]
                    - fb.k_d * (j.row(r) * v)[0]
            });
            matrix
                .cholesky()
                .map(|ch| ch.solve(&rhs))
                .ok_or_else(|| PbmError::degenerate("constraint solve", "singular"))
        })
        .assert_passed();
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
        // J Q where J W Q belongs.
        failing(
            |j, jd, w, v, q, c, fb| {
                let rhs = -(jd * v) - j * q - c * fb.k_s - (j * v) * fb.k_d;
                solve_with((j, w), rhs)
            },
            "not J Q",
        );
        // Feedback with the wrong sign.
        failing(
            |j, jd, w, v, q, c, fb| {
                let flipped = Feedback { k_s: -fb.k_s, k_d: -fb.k_d };
                multipliers(j, jd, w, v, q, c, flipped)
            },
            "spring term has the wrong sign",
        );
        // Ċ taken as J̇ q̇.
        failing(
            |j, jd, w, v, q, c, fb| {
                let jw = j * DMatrix::from_diagonal(w);
                let rhs = -(jd * v) - &jw * q - c * fb.k_s - (jd * v) * fb.k_d;
                solve_with((j, w), rhs)
            },
            "uses J̇ q̇ = 2.41 for Ċ",
        );
        // −k_d C for −k_d Ċ.
        failing(
            |j, jd, w, v, q, c, fb| {
                let jw = j * DMatrix::from_diagonal(w);
                let rhs = -(jd * v) - &jw * q - c * fb.k_s - c * fb.k_d;
                solve_with((j, w), rhs)
            },
            "your damping term is −k_d C",
        );
        // A singular matrix answered with zeros.
        failing(
            |j, jd, w, v, q, c, fb| {
                multipliers(j, jd, w, v, q, c, fb)
                    .or_else(|_| Ok(DVector::zeros(j.nrows())))
            },
            "Return an error",
        );
        // The product the wrong way round, Jᵀ W J: nalgebra panics on the shapes.
        failing(
            |j, jd, w, v, q, c, fb| {
                let matrix = j.transpose() * DMatrix::from_diagonal(w) * j;
                let jw = j * DMatrix::from_diagonal(w);
                let rhs = -(jd * v) - &jw * q - c * fb.k_s - (j * v) * fb.k_d;
                matrix.lu().solve(&rhs).ok_or_else(|| PbmError::degenerate("t", "s"))
            },
            "J and J̇ are 1 × 2",
        );
    }

    #[test]
    fn another_correct_bead_force_passes() {
        // Through the general equation with J = xᵀ, J̇ = ẋᵀ, W = 1/m.
        check_bead_force(|m, x, v, f, fb| {
            let (c, c_dot) = (0.5 * (x.dot(x) - 1.0), x.dot(v));
            let matrix = x.dot(x) / m;
            let rhs = -v.dot(v) - x.dot(f) / m - fb.k_s * c - fb.k_d * c_dot;
            x * (rhs / matrix)
        })
        .assert_passed();
    }

    #[test]
    fn bead_force_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing = |f: BeadForceFn, expect: &str| {
            check_bead_force(f).assert_fails_with(expect)
        };
        // −f·x taken with m.
        failing(
            |m, x, v, f, fb| bead_force(m, x, v, &(f * m), fb),
            "m times too large",
        );
        // Not divided by x·x.
        failing(
            |m, x, v, f, fb| bead_force(m, x, v, f, fb) * x.dot(x),
            "not divided by x·x",
        );
        // The centripetal term without its mass.
        failing(
            |m, x, v, f, fb| {
                let fix = x * ((m - 1.0) * v.dot(v) / x.dot(x));
                bead_force(m, x, v, f, fb) + fix
            },
            "velocity term −m ẋ·ẋ/(x·x), and it lacks the mass",
        );
        // The spring term with the wrong sign.
        failing(
            |m, x, v, f, fb| {
                let c = 0.5 * (x.dot(x) - 1.0);
                bead_force(m, x, v, f, fb) + x * (2.0 * m * fb.k_s * c / x.dot(x))
            },
            "spring term −m k_s C/(x·x), and it has the wrong sign",
        );
        // −k_d C for −k_d Ċ.
        failing(
            |m, x, v, f, fb| {
                let (c, c_dot) = (0.5 * (x.dot(x) - 1.0), x.dot(v));
                bead_force(m, x, v, f, fb) + x * (m * fb.k_d * (c_dot - c) / x.dot(x))
            },
            "it uses C where Ċ = x·ẋ belongs",
        );
        // A tangential part: the whole applied force cancelled.
        failing(|m, x, v, f, fb| bead_force(m, x, v, f, fb) - f, "along the wire");
    }

    #[test]
    fn another_correct_constraint_force_passes() {
        // Column by column through a dense J.
        check_constraint_force(|j, lambda| {
            let dense = j.to_dense();
            (0..j.n_cols)
                .map(|c| (0..j.n_rows).map(|r| dense[(r, c)] * lambda[r]).sum())
                .collect()
        })
        .assert_passed();
    }

    #[test]
    fn constraint_force_mutants_fail_with_the_diagnosis_meant_for_them() {
        let failing = |f: ConstraintForceFn, expect: &str| {
            check_constraint_force(f).assert_fails_with(expect)
        };
        failing(|j, l| misread(j, l, true, false), "row-major");
        failing(|j, l| misread(j, l, false, true), "(+=)");
        failing(
            |j, l| misread(j, l, false, false).iter().map(|q| -q).collect(),
            "wrong sign",
        );
        failing(|j, _| vec![0.0; j.n_rows], "one per coordinate of q");
        // Each block's first column only.
        failing(
            |j, l| {
                let mut out = misread(j, l, false, false);
                for b in &j.blocks {
                    out[b.col + b.cols - 1] = 0.0;
                }
                out
            },
            "entry 3 (particle 1, y)",
        );
    }
}
