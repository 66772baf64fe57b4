//! Condition functions (course notes, "Particle System Dynamics", section 6, where
//! they are called behavior functions): describe what a few particles "want" by a
//! function C of their positions that is zero when they are happy. The same C serves
//! four ways in this book: as a soft force here (E = k_s/2 |C|²), in implicit steps
//! through its Jacobian (chapter 3), as a hard constraint held by Lagrange
//! multipliers (chapter 4), and as a position projection (chapter 10). So it is
//! written once, as a [`Condition`]: a position part (C and its Jacobian J = ∂C/∂x)
//! and a velocity part (J̇), for C with one or several rows.

use crate::particle::{Force, JacobianSink};
use crate::particle::{Matrix, Particle, Vector, two_ends};
use pbm_prelim::PbmError;
use pbm_prelim::finite_difference::{
    EPSILON, central_derivative, central_jacobian, max_relative_error,
};
use pbm_prelim::validate::non_negative;

// ANCHOR: condition
/// A condition C(x_1, …, x_n) = 0 on a few particles, with `rows()` scalar rows.
/// Jacobians are stored as one D-vector per (row, particle): `j[r * n + k]` =
/// ∂C_r/∂x_k, where k counts the condition's own particles in the order of
/// [`Condition::particles`].
pub trait Condition<const D: usize>: Send + Sync {
    /// What it is, for error messages and reports.
    fn name(&self) -> &'static str;
    /// The particles C depends on.
    fn particles(&self) -> &[usize];
    /// How many scalar rows C has.
    fn rows(&self) -> usize;
    /// Checks that the condition makes sense at these positions of its particles (for
    /// example, that its gradient is not zero there). Called when it is added to a
    /// system.
    fn check(&self, _x: &[Vector<D>]) -> Result<(), PbmError> {
        Ok(())
    }
    /// The position part: C into `c` and J = ∂C/∂x into `j`, at positions `x` of its
    /// own particles. Fails where C has no gradient.
    fn position(
        &self,
        x: &[Vector<D>],
        c: &mut [f64],
        j: &mut [Vector<D>],
    ) -> Result<(), PbmError>;
    /// The velocity part: J̇ = dJ/dt into `j_dot` (laid out as J), at positions `x`
    /// and velocities `v`. With it, Ċ = J v and C̈ = J a + J̇ v. The default, J̇ = 0,
    /// is right only for a C linear in the positions (a constant J); every other
    /// condition must override it.
    fn jacobian_dot(
        &self,
        _x: &[Vector<D>],
        _v: &[Vector<D>],
        j_dot: &mut [Vector<D>],
    ) {
        j_dot.fill(Vector::zeros());
    }
}
// ANCHOR_END: condition

/// A condition evaluated at one state: its particles' positions and velocities, C, Ċ
/// = J v, J and (if asked for) J̇. Reuse one to evaluate many conditions without
/// allocating.
#[derive(Debug, Clone, Default)]
pub struct Evaluation<const D: usize> {
    /// Positions of the condition's particles.
    pub x: Vec<Vector<D>>,
    /// Their velocities.
    pub v: Vec<Vector<D>>,
    /// C, one entry per row.
    pub c: Vec<f64>,
    /// Ċ = J v, one entry per row.
    pub c_dot: Vec<f64>,
    /// J, `j[r * n + k]` = ∂C_r/∂x_k.
    pub j: Vec<Vector<D>>,
    /// J̇, laid out as J (left empty unless asked for).
    pub j_dot: Vec<Vector<D>>,
}

impl<const D: usize> Evaluation<D> {
    // ANCHOR: evaluate
    /// Evaluates `condition` at the state of `particles`, reusing this evaluation's
    /// storage.
    pub fn evaluate<C: Condition<D> + ?Sized>(
        &mut self,
        condition: &C,
        particles: &[Particle<D>],
        with_j_dot: bool,
    ) -> Result<(), PbmError> {
        let ids = condition.particles();
        let (rows, n) = (condition.rows(), ids.len());
        self.x.clear();
        self.x.extend(ids.iter().map(|&i| particles[i].x));
        self.v.clear();
        self.v.extend(ids.iter().map(|&i| particles[i].v));
        self.c.resize(rows, 0.0);
        self.j.resize(rows * n, Vector::zeros());
        condition.position(&self.x, &mut self.c, &mut self.j)?;
        // Ċ = J v: the chain rule, the same for every condition.
        self.c_dot.clear();
        self.c_dot.extend(
            (0..rows).map(|r| {
                (0..n).map(|k| self.j[r * n + k].dot(&self.v[k])).sum::<f64>()
            }),
        );
        if with_j_dot {
            self.j_dot.resize(rows * n, Vector::zeros());
            condition.jacobian_dot(&self.x, &self.v, &mut self.j_dot);
        }
        Ok(())
    }
    // ANCHOR_END: evaluate
}

// ANCHOR: distance
/// C = |x_a − x_b| − r: two particles want to be r apart. With l = x_a − x_b and u =
/// l/|l|, J = [uᵀ, −uᵀ] and J̇ = [u̇ᵀ, −u̇ᵀ] with u̇ = (I − u uᵀ) l̇ / |l|. Where the
/// particles coincide C has no gradient; J and J̇ are zero there, so the soft force
/// vanishes (as a zero-rest-length spring's does), and `check` refuses to start
/// there.
#[derive(Debug, Clone)]
pub struct Distance {
    ends: [usize; 2],
    rest: f64,
}
// ANCHOR_END: distance

impl<const D: usize> Condition<D> for Distance {
    // ANCHOR: distance_impl
    fn position(
        &self,
        x: &[Vector<D>],
        c: &mut [f64],
        j: &mut [Vector<D>],
    ) -> Result<(), PbmError> {
        let l = x[0] - x[1];
        let length = l.norm();
        c[0] = length - self.rest;
        j[0] = if length > 0.0 { l / length } else { Vector::zeros() };
        j[1] = -j[0];
        Ok(())
    }
    fn jacobian_dot(
        &self,
        x: &[Vector<D>],
        v: &[Vector<D>],
        j_dot: &mut [Vector<D>],
    ) {
        let (l, l_dot) = (x[0] - x[1], v[0] - v[1]);
        let length = l.norm();
        j_dot[0] = if length > 0.0 {
            let u = l / length;
            (l_dot - u * u.dot(&l_dot)) / length
        } else {
            Vector::zeros()
        };
        j_dot[1] = -j_dot[0];
    }
    fn check(&self, x: &[Vector<D>]) -> Result<(), PbmError> {
        if x[0] == x[1] {
            return Err(PbmError::invalid("distance", "the two particles coincide"));
        }
        Ok(())
    }
    // ANCHOR_END: distance_impl
    fn name(&self) -> &'static str {
        "distance"
    }
    fn particles(&self) -> &[usize] {
        &self.ends
    }
    fn rows(&self) -> usize {
        1
    }
}

impl Distance {
    /// Particles `a` and `b` should be `rest` (≥ 0) apart.
    pub fn new(a: usize, b: usize, rest: f64) -> Result<Self, PbmError> {
        Ok(Distance {
            ends: two_ends("distance", a, b)?,
            rest: non_negative("distance", "rest length", rest)?,
        })
    }
}

// ANCHOR: coincide
/// The notes' simplest condition, a vector: C = x_a − x_b, one row per coordinate.
/// Row r's gradient is the r-th unit vector for a and its negative for b, so J =
/// [I, −I] is constant and J̇ = 0, the trait's default. Made soft it is a spring of
/// rest length zero, f_a = −k_s (x_a − x_b) − k_d (v_a − v_b).
#[derive(Debug, Clone)]
pub struct Coincide {
    ends: [usize; 2],
}
// ANCHOR_END: coincide

impl<const D: usize> Condition<D> for Coincide {
    // ANCHOR: coincide_impl
    fn position(
        &self,
        x: &[Vector<D>],
        c: &mut [f64],
        j: &mut [Vector<D>],
    ) -> Result<(), PbmError> {
        let l = x[0] - x[1];
        for r in 0..D {
            c[r] = l[r];
            let mut e = Vector::zeros();
            e[r] = 1.0;
            j[2 * r] = e;
            j[2 * r + 1] = -e;
        }
        Ok(())
    }
    // ANCHOR_END: coincide_impl
    fn name(&self) -> &'static str {
        "coincide"
    }
    fn particles(&self) -> &[usize] {
        &self.ends
    }
    fn rows(&self) -> usize {
        D
    }
}

impl Coincide {
    /// Particles `a` and `b` should be at the same place.
    pub fn new(a: usize, b: usize) -> Result<Self, PbmError> {
        Ok(Coincide { ends: two_ends("coincide", a, b)? })
    }
}

// ANCHOR: soft_force
/// Equation 2 of the notes for a condition with any number of rows: the force on
/// particle k is f_k = −Σ_r (k_s C_r + k_d Ċ_r) ∂C_r/∂x_k. The stiffness part is
/// −∂E/∂x_k of the energy E = (k_s/2) |C|²; the damping part acts along the same
/// directions.
pub fn soft_forces<const D: usize>(
    eval: &Evaluation<D>,
    k_s: f64,
    k_d: f64,
    forces: &mut [Vector<D>],
) {
    let n = eval.x.len();
    forces.fill(Vector::zeros());
    for (r, (c, c_dot)) in eval.c.iter().zip(&eval.c_dot).enumerate() {
        let scale = -k_s * c - k_d * c_dot;
        for (k, f) in forces.iter_mut().enumerate() {
            *f += eval.j[r * n + k] * scale;
        }
    }
}
// ANCHOR_END: soft_force

/// A condition made soft: a force object pulling its particles towards C = 0.
pub struct SoftCondition<C> {
    /// The condition.
    pub condition: C,
    /// Generalized stiffness k_s.
    pub k_s: f64,
    /// Generalized damping k_d.
    pub k_d: f64,
}

impl<C> SoftCondition<C> {
    /// `condition` held by stiffness `k_s` and damping `k_d`, both non-negative.
    pub fn new(condition: C, k_s: f64, k_d: f64) -> Result<Self, PbmError> {
        Ok(SoftCondition {
            condition,
            k_s: non_negative("soft condition", "k_s", k_s)?,
            k_d: non_negative("soft condition", "k_d", k_d)?,
        })
    }
}

impl<const D: usize, C: Condition<D>> Force<D> for SoftCondition<C> {
    fn name(&self) -> &'static str {
        self.condition.name()
    }
    fn apply(&self, _t: f64, particles: &mut [Particle<D>]) -> Result<(), PbmError> {
        let mut eval = Evaluation::default();
        eval.evaluate(&self.condition, particles, false)?;
        let mut forces = vec![Vector::zeros(); eval.x.len()];
        soft_forces(&eval, self.k_s, self.k_d, &mut forces);
        for (&i, f) in self.condition.particles().iter().zip(&forces) {
            particles[i].f += f;
        }
        Ok(())
    }
    fn particles(&self) -> &[usize] {
        self.condition.particles()
    }
    /// (k_s/2) |C|², or NaN where the condition cannot be evaluated (which `apply`
    /// reports as an error first).
    fn potential_energy(&self, particles: &[Particle<D>]) -> f64 {
        let mut eval = Evaluation::default();
        match eval.evaluate(&self.condition, particles, false) {
            Ok(()) => 0.5 * self.k_s * eval.c.iter().map(|c| c * c).sum::<f64>(),
            Err(_) => f64::NAN,
        }
    }
    /// Conservative when undamped: −k_s Jᵀ C is −∇ of (k_s/2) |C|².
    fn is_conservative(&self) -> bool {
        self.k_d == 0.0
    }
    /// ∂f_k/∂v_m = −k_d Σ_r J_rk J_rmᵀ exactly (Ċ = J v), and its Gauss–Newton
    /// companion ∂f_k/∂x_m ≈ −k_s Σ_r J_rk J_rmᵀ: the term −k_s Σ_r C_r
    /// ∂²C_r/∂x_k∂x_m and the damping term through J̇ are left out. Both vanish where
    /// C = 0 and Ċ = 0, and leaving them out keeps the implicit step's matrix
    /// symmetric positive definite.
    fn add_jacobians(
        &self,
        _t: f64,
        particles: &[Particle<D>],
        out: &mut dyn JacobianSink<D>,
    ) -> Result<(), PbmError> {
        let mut eval = Evaluation::default();
        eval.evaluate(&self.condition, particles, false)?;
        let ids = self.condition.particles();
        let n = ids.len();
        for (k, &i) in ids.iter().enumerate() {
            for (m, &j) in ids.iter().enumerate() {
                let jj: Matrix<D> = (0..self.condition.rows())
                    .map(|r| eval.j[r * n + k] * eval.j[r * n + m].transpose())
                    .sum();
                out.add(i, j, &(-jj * self.k_s), &(-jj * self.k_d));
            }
        }
        Ok(())
    }
}

// ANCHOR: fd_check
/// How far a condition's J and J̇ are from central differences at positions `x` and
/// velocities `v` of its own particles: J against ∂C/∂x column by column, J̇ against
/// the derivative of J along the motion x + s v. Each error is relative to 1 + the
/// largest entry (see `pbm_prelim::finite_difference`); a correct condition gives
/// about 1e-9.
pub fn finite_difference_errors<const D: usize, C: Condition<D> + ?Sized>(
    condition: &C,
    x: &[Vector<D>],
    v: &[Vector<D>],
) -> Result<(f64, f64), PbmError> {
    let (rows, n) = (condition.rows(), x.len());
    // The analytic J as a rows × (n D) matrix, row by row.
    let (mut c, mut j, mut j_dot) = (
        vec![0.0; rows],
        vec![Vector::zeros(); rows * n],
        vec![Vector::zeros(); rows * n],
    );
    condition.position(x, &mut c, &mut j)?;
    condition.jacobian_dot(x, v, &mut j_dot);
    let numeric_j = numeric_jacobian(condition, x)?;
    let numeric_j_dot = numeric_jacobian_dot(condition, x, v)?;
    Ok((
        max_relative_error(&flatten(&j), &numeric_j),
        max_relative_error(&flatten(&j_dot), &numeric_j_dot),
    ))
}
// ANCHOR_END: fd_check

// ANCHOR: fd_numeric
/// ∂C/∂x by central differences, one column per coordinate of `x`.
fn numeric_jacobian<const D: usize, C: Condition<D> + ?Sized>(
    condition: &C,
    x: &[Vector<D>],
) -> Result<Vec<f64>, PbmError> {
    let (rows, n) = (condition.rows(), x.len());
    let probe_c = |probe: &[f64], out: &mut [f64]| {
        let mut scratch = vec![Vector::zeros(); rows * n];
        condition.position(&unflatten(probe), out, &mut scratch)
    };
    central_jacobian(probe_c, &flatten(x), rows, EPSILON)
}

/// dJ/ds at s = 0 along the motion x + s v, by central differences.
fn numeric_jacobian_dot<const D: usize, C: Condition<D> + ?Sized>(
    condition: &C,
    x: &[Vector<D>],
    v: &[Vector<D>],
) -> Result<Vec<f64>, PbmError> {
    let (rows, n) = (condition.rows(), x.len());
    let j_along_motion = |s: f64, out: &mut [f64]| {
        let moved: Vec<Vector<D>> = x.iter().zip(v).map(|(p, q)| p + q * s).collect();
        let mut jj = vec![Vector::zeros(); rows * n];
        condition.position(&moved, &mut vec![0.0; rows], &mut jj)?;
        out.copy_from_slice(&flatten(&jj));
        Ok::<(), PbmError>(())
    };
    central_derivative(j_along_motion, rows * n * D, EPSILON)
}
// ANCHOR_END: fd_numeric

/// D-vectors as one flat array of their coordinates, and back.
fn flatten<const D: usize>(blocks: &[Vector<D>]) -> Vec<f64> {
    blocks.iter().flat_map(|b| b.iter().copied()).collect()
}

fn unflatten<const D: usize>(flat: &[f64]) -> Vec<Vector<D>> {
    flat.chunks_exact(D).map(Vector::from_column_slice).collect()
}
