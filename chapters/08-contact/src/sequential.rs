//! Sequential impulses: the contact solve of production engines (Catto's, in Box2D;
//! rapier's is the same idea). Where the exact solver pivots to the answer of the
//! complementarity problem on accelerations, this one works on velocities and never
//! forms the matrix: it sweeps over the rows, and for each changes that row's
//! impulse so that its relative velocity would reach its target, clamped to the
//! row's bounds, then applies the change to the bodies at once. A fixed number of
//! sweeps makes the cost predictable and linear in the rows; the price is an answer
//! that is only as complementary as the sweeps made it.
//!
//! In the terms of this chapter: the impulses λ must satisfy the LCP
//! A λ + b ≥ 0, λ ≥ 0, complementary, with the same A as the force solve
//! ([`crate::rows::row_matrix`]) and b the rows' velocities before the impulses
//! minus their targets. One sweep is projected Gauss–Seidel on that LCP:
//! λᵢ ← clamp(λᵢ − (A λ + b)ᵢ / Aᵢᵢ), row after row, each update seeing the ones
//! before it. Reading row i's velocity off the bodies after applying every impulse
//! so far *is* (A λ + b)ᵢ, which is why the matrix is never needed.
//!
//! Everything a sweep reads that does not change during a step is computed once,
//! when the step begins ([`Sweeper::new`]): each row's Jacobian and what a unit
//! impulse along it does to its bodies ([`Prepared`]), and each face's block matrix
//! and its factor ([`Manifold`]). The sweeps then touch only the bodies' velocities
//! ([`Velocity`]), a flat array.

use crate::friction::REGULARIZATION;
use crate::lcp::solve;
use crate::rows::{BodyState, Role, Row, row_bounds, twist_levers};
use nalgebra::{DMatrix, DVector, Vector3};
use std::ops::Range;

type V3 = Vector3<f64>;

/// The velocity a row's relative motion must reach (m/s), for every row: a normal
/// row's velocity must be at least it, a tangent or bilateral row's equal to it.
pub type Targets = [f64];

/// What the sweeps did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sweeps {
    /// Sweeps made.
    pub sweeps: usize,
    /// The largest change of any impulse in the last sweep (N s): zero at the
    /// answer of the LCP, and how far from it the sweeps stopped.
    pub last_change: f64,
}

/// What a sweep reads and changes of a body: its velocity (m/s) and angular
/// velocity (rad/s). A fixed body's stay zero: nothing it is pushed with moves it.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Velocity {
    /// Velocity of the centre of mass (m/s).
    pub v: V3,
    /// Angular velocity (rad/s).
    pub omega: V3,
}

/// The bodies' velocities, in the same order.
pub fn velocities(bodies: &[BodyState]) -> Vec<Velocity> {
    bodies.iter().map(|b| Velocity { v: b.v, omega: b.omega }).collect()
}

// ANCHOR: prepared
/// A row made ready for the sweeps. Its Jacobian J reads the row's relative
/// velocity off its two bodies, J v = n · (v_a − v_b) + (r_a × n) · ω_a −
/// (r_b × n) · ω_b, with r the contact point from each body's centre; M⁻¹ Jᵀ is
/// what a unit impulse along it does to them, n / m and I⁻¹ (r × n) on a, the
/// negatives on b. Both are computed once before the sweeps, with 1 / Aᵢᵢ (its
/// "effective mass"): a sweep then reads and pushes a row with a few dot products,
/// no cross products or inertia tensors.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prepared {
    /// The body pushed along +n, and the one pushed along −n.
    pub bodies: (usize, usize),
    /// The row's direction n.
    pub n: V3,
    /// The angular parts of J: r_a × n and r_b × n.
    pub arms: (V3, V3),
    /// The inverse masses, 1 / m_a and 1 / m_b (1/kg).
    pub inv_masses: (f64, f64),
    /// The turns a unit impulse gives: I_a⁻¹ (r_a × n) and I_b⁻¹ (r_b × n).
    pub turns: (V3, V3),
    /// 1 / Aᵢᵢ, the impulse per unit of velocity along the row (kg).
    pub inverse: f64,
}
// ANCHOR_END: prepared

impl Prepared {
    /// Row `row` prepared at the bodies' present positions.
    /// A twist row ([`Role::Twist`]) reads and turns only: its J is (0, n, 0, −n),
    /// the relative angular velocity about the face's normal n.
    pub fn new(bodies: &[BodyState], row: &Row) -> Self {
        let (a, b) = (&bodies[row.a], &bodies[row.b]);
        let (n, arms) = match row.role {
            Role::Twist { .. } => (V3::zeros(), (row.along, row.along)),
            _ => (
                row.along,
                ((row.p - a.x).cross(&row.along), (row.p - b.x).cross(&row.along)),
            ),
        };
        let turns = (a.inv_inertia * arms.0, b.inv_inertia * arms.1);
        let inv_masses = (a.inv_mass, b.inv_mass);
        let along = n.norm_squared() * (inv_masses.0 + inv_masses.1);
        let diagonal = along + arms.0.dot(&turns.0) + arms.1.dot(&turns.1);
        Prepared {
            bodies: (row.a, row.b),
            n,
            arms,
            inv_masses,
            turns,
            inverse: 1.0 / diagonal.max(f64::MIN_POSITIVE),
        }
    }

    /// v += M⁻¹ Jᵀ `impulse` on the bodies' velocities `vel`.
    pub fn push(&self, vel: &mut [Velocity], impulse: f64) {
        let (a, b) = self.bodies;
        let mut pair = [vel[a], vel[b]];
        self.push_pair(&mut pair, impulse);
        (vel[a], vel[b]) = (pair[0], pair[1]);
    }

    /// J v: the row's relative velocity (m/s), from the bodies' velocities `vel`.
    pub fn velocity(&self, vel: &[Velocity]) -> f64 {
        self.velocity_pair(&[vel[self.bodies.0], vel[self.bodies.1]])
    }

    // ANCHOR: read_push
    /// J v from the velocities of a and b, `pair`: n · (v_a − v_b) + (r_a × n) · ω_a
    /// − (r_b × n) · ω_b (m/s).
    fn velocity_pair(&self, [a, b]: &[Velocity; 2]) -> f64 {
        self.n.dot(&(a.v - b.v)) + self.arms.0.dot(&a.omega)
            - self.arms.1.dot(&b.omega)
    }

    /// v += M⁻¹ Jᵀ `impulse` on a and b's velocities `pair`: the impulse along +n on
    /// a, −n on b.
    fn push_pair(&self, [a, b]: &mut [Velocity; 2], impulse: f64) {
        let (ma, mb) = self.inv_masses;
        a.v += self.n * (ma * impulse);
        a.omega += self.turns.0 * impulse;
        b.v -= self.n * (mb * impulse);
        b.omega -= self.turns.1 * impulse;
    }
    // ANCHOR_END: read_push

    /// A_ij = J_i M⁻¹ J_jᵀ: this row's change of velocity per unit impulse on row
    /// `other`, through every body the two share.
    pub fn coupling(&self, other: &Prepared) -> f64 {
        let mine = [(self.bodies.0, 1.0, 0), (self.bodies.1, -1.0, 1)];
        let theirs = [(other.bodies.0, 1.0, 0), (other.bodies.1, -1.0, 1)];
        let pick = |p: &Prepared, side: usize| match side {
            0 => (p.arms.0, p.turns.0, p.inv_masses.0),
            _ => (p.arms.1, p.turns.1, p.inv_masses.1),
        };
        let mut sum = 0.0;
        for &(k, s, side) in &mine {
            for &(l, t, other_side) in &theirs {
                if k == l {
                    let (arm, _, _) = pick(self, side);
                    let (_, turn, inv_mass) = pick(other, other_side);
                    sum += s * t * (inv_mass * self.n.dot(&other.n) + arm.dot(&turn));
                }
            }
        }
        sum
    }
}

/// The rows of a step made ready for sweeping: each row [`Prepared`], the normal
/// rows of each body pair as a [`Manifold`], and the other rows (friction,
/// bilateral) in order.
pub struct Sweeper {
    rows: Vec<Prepared>,
    roles: Vec<Role>,
    manifolds: Vec<Manifold>,
    others: Vec<usize>,
    /// The runs of `others` that join the same two bodies (a pair's friction rows).
    runs: Vec<Range<usize>>,
    /// Each normal row's distance from its face's centre, rₖ, for the face's twist
    /// bound (zero for rows of no face with a twist row).
    levers: Vec<f64>,
}

impl Sweeper {
    /// Prepares `rows` at the bodies' present positions. A step prepares its rows
    /// once and sweeps them in every substep: the bodies move by a substep's travel
    /// in between, which changes the arms by as little.
    pub fn new(bodies: &[BodyState], rows: &[Row]) -> Self {
        let prepared: Vec<Prepared> =
            rows.iter().map(|r| Prepared::new(bodies, r)).collect();
        let roles: Vec<Role> = rows.iter().map(|r| r.role).collect();
        let manifolds = Manifold::all(&prepared, &roles);
        let others: Vec<usize> =
            (0..rows.len()).filter(|&i| roles[i] != Role::Normal).collect();
        let mut runs: Vec<Range<usize>> = Vec::new();
        for (k, &i) in others.iter().enumerate() {
            match runs.last_mut() {
                Some(r) if prepared[others[r.start]].bodies == prepared[i].bodies => {
                    r.end = k + 1
                }
                _ => runs.push(k..k + 1),
            }
        }
        let levers = twist_levers(rows);
        Sweeper { rows: prepared, roles, manifolds, others, runs, levers }
    }

    /// The prepared rows, in the order given.
    pub fn rows(&self) -> &[Prepared] {
        &self.rows
    }

    /// What each row is, in the same order.
    pub fn roles(&self) -> &[Role] {
        &self.roles
    }

    // ANCHOR: sequential
    /// Sequential impulses: `lambda` holds each row's accumulated impulse (N s), the
    /// warm start on entry (applied to the velocities first) and the answer on
    /// return. Each of the `sweeps` passes moves each impulse by
    /// −(J v − target) / Aᵢᵢ, clamped so that the accumulated impulse stays within
    /// its bounds (clamping the total, not the change, lets a sweep take back what an
    /// earlier one pushed too hard); the normal rows of one body pair go together
    /// ([`Manifold`]). With `friction` false only the normal rows are swept.
    pub fn solve(
        &self,
        vel: &mut [Velocity],
        (target, mu, friction): (&Targets, f64, bool),
        (lambda, sweeps): (&mut [f64], usize),
    ) -> Sweeps {
        for (row, &l) in self.rows.iter().zip(lambda.iter()) {
            if l != 0.0 {
                row.push(vel, l);
            }
        }
        let largest = self.manifolds.iter().map(|m| m.rows.len()).max().unwrap_or(0);
        let mut scratch = vec![0.0; 2 * largest];
        let mut last_change = 0.0;
        for _ in 0..sweeps {
            last_change = 0.0_f64;
            for m in &self.manifolds {
                let change =
                    m.update(vel, (&self.rows, target), lambda, &mut scratch);
                last_change = last_change.max(change);
            }
            for run in self.runs.iter().filter(|_| friction) {
                let change = self.sweep_pair(run, vel, (target, mu), lambda);
                last_change = last_change.max(change);
            }
        }
        Sweeps { sweeps, last_change }
    }
    // ANCHOR_END: sequential

    // ANCHOR: sweep_pair
    /// One pass over a run of friction rows between the same two bodies: each
    /// impulse moved by −(J v − target) / Aᵢᵢ and its total clamped to the friction
    /// bounds. The two bodies' velocities are held aside for the run and written
    /// back at its end: the same numbers as reading and writing `vel` row by row.
    /// Returns the largest change.
    fn sweep_pair(
        &self,
        run: &std::ops::Range<usize>,
        vel: &mut [Velocity],
        (target, mu): (&Targets, f64),
        lambda: &mut [f64],
    ) -> f64 {
        let (a, b) = self.rows[self.others[run.start]].bodies;
        let mut pair = [vel[a], vel[b]];
        let mut largest = 0.0_f64;
        for &i in &self.others[run.clone()] {
            let row = &self.rows[i];
            let (lo, hi) = row_bounds(self.roles[i], lambda, (mu, &self.levers));
            let step = (row.velocity_pair(&pair) - target[i]) * row.inverse;
            let total = (lambda[i] - step).clamp(lo, hi);
            row.push_pair(&mut pair, total - lambda[i]);
            largest = largest.max((total - lambda[i]).abs());
            lambda[i] = total;
        }
        (vel[a], vel[b]) = (pair[0], pair[1]);
        largest
    }
    // ANCHOR_END: sweep_pair

    /// Each body's change of momentum and of angular momentum (about its centre of
    /// mass) from the rows' impulses `lambda`, Jᵀ λ: ΔP = Σ n λ and ΔL = Σ (r × n) λ,
    /// positive on a row's body a and negative on its body b; for `bodies` bodies.
    pub fn momentum_changes(&self, lambda: &[f64], bodies: usize) -> Vec<(V3, V3)> {
        let mut change = vec![(V3::zeros(), V3::zeros()); bodies];
        for (row, &l) in self.rows.iter().zip(lambda) {
            let (a, b) = row.bodies;
            for (k, arm, sign) in [(a, row.arms.0, l), (b, row.arms.1, -l)] {
                if let Some((dp, dl)) = change.get_mut(k) {
                    *dp += row.n * sign;
                    *dl += arm * sign;
                }
            }
        }
        change
    }

    /// How far the velocities are from the conditions after a solve (m/s): the
    /// largest of a normal row's velocity below its target, and of a normal row that
    /// pushes while moving away faster than its target (it should let go), and of a
    /// tangent row sliding while its impulse is inside its bounds (it should stick).
    pub fn velocity_error(
        &self,
        vel: &[Velocity],
        target: &Targets,
        (lambda, mu): (&[f64], f64),
    ) -> f64 {
        let scale = lambda.iter().fold(0.0_f64, |m, l| m.max(l.abs())).max(1e-300);
        (0..self.rows.len())
            .map(|i| {
                let gap = self.rows[i].velocity(vel) - target[i];
                let (lo, hi) = row_bounds(self.roles[i], lambda, (mu, &self.levers));
                let pushing = (lambda[i] - lo).min(hi - lambda[i]) > 1e-9 * scale;
                match self.roles[i] {
                    Role::Normal if lambda[i] > 1e-9 * scale => gap.abs(),
                    Role::Normal => (-gap).max(0.0),
                    _ if pushing => gap.abs(),
                    _ => 0.0,
                }
            })
            .fold(0.0, f64::max)
    }
}

/// Sequential impulses on `bodies` in one call: the rows prepared at the bodies'
/// positions, `sweeps` sweeps of [`Sweeper::solve`], and the velocities written back.
pub fn solve_sequential(
    bodies: &mut [BodyState],
    rows: &[Row],
    target: &Targets,
    mu: f64,
    (lambda, sweeps): (&mut [f64], usize),
) -> Sweeps {
    let mut vel = velocities(bodies);
    let done = Sweeper::new(bodies, rows).solve(
        &mut vel,
        (target, mu, true),
        (lambda, sweeps),
    );
    for (body, v) in bodies.iter_mut().zip(&vel) {
        (body.v, body.omega) = (v.v, v.omega);
    }
    done
}

/// [`Sweeper::velocity_error`] of `bodies`' velocities, the rows prepared at their
/// positions.
pub fn velocity_error(
    bodies: &[BodyState],
    rows: &[Row],
    target: &Targets,
    (lambda, mu): (&[f64], f64),
) -> f64 {
    Sweeper::new(bodies, rows).velocity_error(
        &velocities(bodies),
        target,
        (lambda, mu),
    )
}

/// Row `row`'s relative velocity along its direction, from the bodies' point
/// velocities: u · (v_a(p) − v_b(p)).
pub fn row_velocity(bodies: &[BodyState], row: &Row) -> f64 {
    let (a, b) = (&bodies[row.a], &bodies[row.b]);
    row.along.dot(&(a.point_velocity(&row.p) - b.point_velocity(&row.p)))
}

/// λ with λ_S solving A_SS λ_S = −c_S on the rows marked `pushing` and zero on
/// the others.
fn clamped_solve(
    a: &DMatrix<f64>,
    c: &DVector<f64>,
    pushing: &[bool],
) -> DVector<f64> {
    let on: Vec<usize> = (0..pushing.len()).filter(|&k| pushing[k]).collect();
    let mut x = DVector::zeros(pushing.len());
    let a_ss = DMatrix::from_fn(on.len(), on.len(), |r, q| a[(on[r], on[q])]);
    let c_s = DVector::from_iterator(on.len(), on.iter().map(|&k| -c[k]));
    if let Some(x_s) = a_ss.cholesky().map(|f| f.solve(&c_s)) {
        for (r, &k) in on.iter().enumerate() {
            x[k] = x_s[r];
        }
    }
    x
}

// ANCHOR: manifold
/// The normal rows of one body pair, updated as a block. Row by row, the first
/// corner of a face visited takes the whole push that stops the face, the others
/// less, and the face is left turning: in a tall stack, where ten sweeps cannot
/// even out what the first one did, the turn tips the stack over. Updated
/// together, the corners' impulses solve the pair's own small LCP exactly,
/// A_GG λ_G + (v_G − target_G − A_GG λ_G') ≥ 0, λ_G ≥ 0, complementary, with the
/// other rows' impulses held (block Gauss–Seidel; Box2D's block solver does the
/// same for the two points of a 2-D manifold). Four corners on a face make A_GG
/// singular; the force solve's small diagonal picks the even split.
pub struct Manifold {
    /// The pair's normal rows.
    rows: Vec<usize>,
    /// A_GG = J_G M⁻¹ J_Gᵀ, regularised.
    a: DMatrix<f64>,
    /// Its inverse, row by row (n² numbers), for the usual case in which every
    /// corner pushes; empty if A_GG is not positive definite.
    inverse: Vec<f64>,
}
// ANCHOR_END: manifold

impl Manifold {
    /// The manifolds of consecutive normal rows of the same pair, their matrices
    /// and factors computed once.
    fn all(rows: &[Prepared], roles: &[Role]) -> Vec<Manifold> {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for i in (0..rows.len()).filter(|&i| roles[i] == Role::Normal) {
            match groups.last_mut() {
                Some(g) if rows[g[0]].bodies == rows[i].bodies => g.push(i),
                _ => groups.push(vec![i]),
            }
        }
        groups
            .into_iter()
            .map(|g| {
                let mut a = DMatrix::from_fn(g.len(), g.len(), |r, c| {
                    rows[g[r]].coupling(&rows[g[c]])
                });
                let delta = REGULARIZATION * a.diagonal().amax();
                for k in 0..g.len() {
                    a[(k, k)] += delta;
                }
                let inverse = match a.clone().cholesky() {
                    Some(f) => f.inverse().transpose().as_slice().to_vec(),
                    None => Vec::new(),
                };
                Manifold { rows: g, a, inverse }
            })
            .collect()
    }

    // ANCHOR: manifold_update
    /// Solves the block for its impulses with the others held, applies the
    /// changes, and returns the largest. First the usual case, every corner
    /// pushing: λ_G = λ_G' − A_GG⁻¹ (v_G − target_G), by the inverse kept for the
    /// step (a few dozen multiplications for four corners), accepted if no impulse
    /// comes out negative; otherwise the block's LCP by pivoting.
    fn update(
        &self,
        vel: &mut [Velocity],
        (rows, target): (&[Prepared], &Targets),
        lambda: &mut [f64],
        scratch: &mut [f64],
    ) -> f64 {
        let (g, n) = (&self.rows, self.rows.len());
        let (miss, step) = scratch[..2 * n].split_at_mut(n);
        let (a, b) = rows[g[0]].bodies;
        let mut pair = [vel[a], vel[b]];
        for (k, &i) in g.iter().enumerate() {
            miss[k] = rows[i].velocity_pair(&pair) - target[i];
        }
        for (k, row) in self.inverse.chunks_exact(n).enumerate() {
            step[k] = row.iter().zip(miss.iter()).map(|(a, m)| a * m).sum();
        }
        let all_push = !self.inverse.is_empty()
            && g.iter().zip(step.iter()).all(|(&i, s)| lambda[i] - s >= 0.0);
        if !all_push {
            let guess = self.first_guess(lambda, step);
            return self.pivot(vel, (rows, target), lambda, guess);
        }
        let mut largest = 0.0_f64;
        for (k, &i) in g.iter().enumerate() {
            rows[i].push_pair(&mut pair, -step[k]);
            lambda[i] -= step[k];
            largest = largest.max(step[k].abs());
        }
        (vel[a], vel[b]) = (pair[0], pair[1]);
        largest
    }
    // ANCHOR_END: manifold_update

    /// The corners guessed to push when not all of them do: those whose unclamped
    /// impulse `step` came out positive, or all of them when there is no inverse.
    fn first_guess(&self, lambda: &[f64], step: &[f64]) -> Vec<bool> {
        if self.inverse.is_empty() {
            return vec![true; self.rows.len()];
        }
        self.rows.iter().zip(step).map(|(&i, s)| lambda[i] - s > 0.0).collect()
    }

    /// The block's LCP when a corner would pull; applies the answer and returns the
    /// largest change. With c = v_G − target_G − A_GG λ_G' the conditions are
    /// w = A_GG λ + c ≥ 0, λ ≥ 0, complementary. Guess the corners that push
    /// (`pushing`: those whose unclamped impulse came out positive), solve A_SS λ_S = −c_S for
    /// them, let go of any that pulls and take back any left out that would
    /// interpenetrate (w < 0), until the guess holds: for a face, one or two rounds.
    /// A guess that does not settle in as many rounds as corners goes to the
    /// chapter's pivoting.
    fn pivot(
        &self,
        vel: &mut [Velocity],
        (rows, target): (&[Prepared], &Targets),
        lambda: &mut [f64],
        mut pushing: Vec<bool>,
    ) -> f64 {
        let (g, n) = (&self.rows, self.rows.len());
        let now = DVector::from_iterator(n, g.iter().map(|&i| lambda[i]));
        let miss = DVector::from_iterator(
            n,
            g.iter().map(|&i| rows[i].velocity(vel) - target[i]),
        );
        let c = &miss - &self.a * &now;
        let mut next = None;
        for _ in 0..=n {
            let x = clamped_solve(&self.a, &c, &pushing);
            let w = &self.a * &x + &c;
            let pulls = (0..n).filter(|&k| pushing[k] && x[k] < 0.0);
            let sinks = (0..n).filter(|&k| !pushing[k] && w[k] < -1e-12 * c.amax());
            let (pulls, sinks): (Vec<usize>, Vec<usize>) =
                (pulls.collect(), sinks.collect());
            if pulls.is_empty() && sinks.is_empty() {
                next = Some(x);
                break;
            }
            pulls.iter().for_each(|&k| pushing[k] = false);
            sinks.iter().for_each(|&k| pushing[k] = true);
        }
        let next = match next {
            Some(x) => x,
            None => match solve(&self.a, &c) {
                Ok(solved) => solved.f,
                Err(_) => return 0.0,
            },
        };
        let mut largest = 0.0_f64;
        for (k, &i) in g.iter().enumerate() {
            let change = next[k] - lambda[i];
            rows[i].push(vel, change);
            lambda[i] = next[k];
            largest = largest.max(change.abs());
        }
        largest
    }
}

// ANCHOR: pgs_dense
/// Projected Gauss–Seidel on an assembled A, the short form of the sweeps below:
/// each row in turn solved for its own unknown with the others held, then clamped
/// into its bounds, λᵢ ← clamp(λᵢ − (A λ + b)ᵢ / Aᵢᵢ, loᵢ, hiᵢ), `sweeps` times
/// over all rows, from `lambda` (a warm start, or zeros).
pub fn pgs_dense(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    bounds: &crate::lcp::Bounds,
    lambda: &mut DVector<f64>,
    sweeps: usize,
) {
    for _ in 0..sweeps {
        for i in 0..b.len() {
            let residual = a.row(i).dot(&lambda.transpose()) + b[i];
            let trial = lambda[i] - residual / a[(i, i)];
            lambda[i] = trial.clamp(bounds.lo[i], bounds.hi[i]);
        }
    }
}
// ANCHOR_END: pgs_dense

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rows::{push_square_face, row_matrix, unit_cube};
    use nalgebra::{DVector, Matrix3, Vector3};

    type V3 = Vector3<f64>;

    /// A box of 1 kg on the ground on four corners and a second on top of it,
    /// both falling at 1 m/s: the normal rows only.
    fn two_boxes() -> (Vec<BodyState>, Vec<Row>) {
        let body = |y: f64| {
            unit_cube(
                V3::new(0.0, y, 0.0),
                V3::new(0.0, -1.0, 0.0),
                V3::new(0.0, 0.0, 0.3),
            )
        };
        let bodies = vec![body(0.5), body(1.5), BodyState::fixed(V3::zeros())];
        let mut rows = Vec::new();
        for (a, b, y) in [(0, 2, 0.0), (1, 0, 1.0)] {
            for (x, z) in [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.3, 0.4)] {
                let p = V3::new(x, y, z);
                rows.push(Row { a, b, p, along: V3::y(), role: Role::Normal });
            }
        }
        (bodies, rows)
    }

    #[test]
    fn prepared_rows_read_push_and_couple_as_the_assembled_matrix_says() {
        // Rows on two free bodies and a fixture, sharing bodies every which way,
        // against chapter 8's row_matrix (assembled body by body) and the bodies'
        // own point velocities.
        let body = |x: V3, m: f64| BodyState {
            x,
            v: V3::new(0.3, -1.0, 0.2),
            omega: V3::new(0.1, 0.4, -0.7),
            inv_mass: 1.0 / m,
            inv_inertia: Matrix3::new(2.0, 0.3, 0.1, 0.3, 5.0, -0.2, 0.1, -0.2, 3.0),
        };
        let bodies = vec![
            body(V3::new(0.0, 0.5, 0.0), 1.0),
            body(V3::new(0.2, 1.5, -0.1), 2.5),
            BodyState::fixed(V3::zeros()),
        ];
        let row = |a, b, p: V3, along: V3| Row {
            a,
            b,
            p,
            along: along.normalize(),
            role: Role::Normal,
        };
        let rows = [
            row(0, 2, V3::new(0.5, 0.0, 0.5), V3::y()),
            row(1, 0, V3::new(-0.4, 1.0, 0.3), V3::new(0.1, 1.0, 0.0)),
            row(0, 1, V3::new(0.3, 1.0, -0.2), V3::new(1.0, 0.2, 0.3)),
            row(2, 1, V3::new(0.1, 1.2, 0.4), V3::new(-0.3, 0.5, 1.0)),
        ];
        let a = row_matrix(&bodies, &rows);
        let prepared: Vec<Prepared> =
            rows.iter().map(|r| Prepared::new(&bodies, r)).collect();
        let vel = velocities(&bodies);
        for (i, p) in prepared.iter().enumerate() {
            assert!(
                (p.velocity(&vel) - row_velocity(&bodies, &rows[i])).abs() < 1e-14
            );
            assert!((p.inverse * a[(i, i)] - 1.0).abs() < 1e-12, "row {i}");
            let mut pushed = vel.clone();
            p.push(&mut pushed, 1.0);
            for (j, q) in prepared.iter().enumerate() {
                let change = q.velocity(&pushed) - q.velocity(&vel);
                assert!((change - a[(j, i)]).abs() < 1e-12, "A[{j}, {i}]: {change}");
                assert!(
                    (q.coupling(p) - a[(j, i)]).abs() < 1e-12,
                    "coupling {j}, {i}"
                );
            }
        }
    }

    #[test]
    fn many_sweeps_reach_the_exact_solvers_answer_of_the_same_lcp() {
        // Independently: the same A (row_matrix) and b = v − target, solved by
        // pivoting. Redundant corners make A singular; the velocities are unique.
        let (bodies, rows) = two_boxes();
        let target = vec![0.0; rows.len()];
        let mut swept = bodies.clone();
        let mut lambda = vec![0.0; rows.len()];
        let sweeps =
            solve_sequential(&mut swept, &rows, &target, 0.0, (&mut lambda, 400));
        let a = row_matrix(&bodies, &rows);
        let b = DVector::from_iterator(
            rows.len(),
            rows.iter().map(|r| row_velocity(&bodies, r)),
        );
        let mut delta = a.clone();
        for i in 0..rows.len() {
            delta[(i, i)] += 1e-12;
        }
        let exact = solve(&delta, &b).unwrap();
        for (i, row) in rows.iter().enumerate() {
            let v = row_velocity(&swept, row);
            assert!((v - exact.a[i]).abs() < 1e-9, "row {i}: {v} vs {}", exact.a[i]);
        }
        assert!(sweeps.last_change < 1e-6, "{sweeps:?}");
        assert!(velocity_error(&swept, &rows, &target, (&lambda, 0.0)) < 1e-9);
        // The total impulse on the lower box's ground corners stops both boxes.
        let total: f64 = lambda[..4].iter().sum();
        assert!((total - 2.0).abs() < 1e-9, "{total}");
    }

    #[test]
    fn few_sweeps_leave_an_error_that_a_warm_start_removes() {
        let (bodies, rows) = two_boxes();
        let target = vec![0.0; rows.len()];
        let mut cold = bodies.clone();
        let mut lambda = vec![0.0; rows.len()];
        solve_sequential(&mut cold, &rows, &target, 0.0, (&mut lambda, 2));
        let error = velocity_error(&cold, &rows, &target, (&lambda, 0.0));
        assert!(error > 1e-3, "two cold sweeps already exact? {error}");
        // Started from the right impulses, the same two sweeps are exact.
        let mut exact = lambda.clone();
        let mut settled = bodies.clone();
        solve_sequential(&mut settled, &rows, &target, 0.0, (&mut exact, 400));
        let mut warm = bodies.clone();
        let mut again = exact.clone();
        solve_sequential(&mut warm, &rows, &target, 0.0, (&mut again, 2));
        assert!(velocity_error(&warm, &rows, &target, (&again, 0.0)) < 1e-9);
    }

    #[test]
    fn friction_sticks_below_mu_and_slides_at_mu_above() {
        // A flat slab of 1 kg sliding at 1 m/s on its four corners (its centre low,
        // so that friction cannot tip it); friction may take at most μ of the normal
        // impulse that stops its fall.
        let body =
            unit_cube(V3::new(0.0, 0.1, 0.0), V3::new(1.0, -0.5, 0.0), V3::zeros());
        let bodies = [body, BodyState::fixed(V3::zeros())];
        let mut rows = Vec::new();
        push_square_face(&mut rows, (0, 1), 0.0, true);
        let target = vec![0.0; rows.len()];
        for (mu, slides) in [(4.0, false), (0.5, true)] {
            let mut b = bodies;
            let mut lambda = vec![0.0; rows.len()];
            solve_sequential(&mut b, &rows, &target, mu, (&mut lambda, 200));
            // The normal impulse stops the fall: 0.5 N s in all.
            let normal: f64 = (0..4).map(|k| lambda[3 * k]).sum();
            assert!((normal - 0.5).abs() < 1e-6, "{normal}");
            let v = b[0].v.x;
            if slides {
                // Friction takes μ · 0.5 N s of the 1 m/s.
                assert!((v - (1.0 - mu * 0.5)).abs() < 1e-6, "μ = {mu}: {v}");
            } else {
                assert!(v.abs() < 1e-6, "μ = {mu}: {v}");
            }
        }
    }

    /// A flat slab of 1 kg (I⁻¹ = 6 / kg m²) on its four corners at (±0.5, ±0.5),
    /// falling at 0.5 m/s with velocity `v` across and spinning at `spin` about the
    /// normal; its rows as a face: four normal rows, two tangent rows at the centre
    /// and the twist.
    fn slab_face(v: f64, spin: f64) -> ([BodyState; 2], Vec<Row>) {
        let body = unit_cube(
            V3::new(0.0, 0.1, 0.0),
            V3::new(v, -0.5, 0.0),
            V3::new(0.0, spin, 0.0),
        );
        let mut rows = Vec::new();
        push_square_face(&mut rows, (0, 1), 0.0, false);
        let (face, twist) =
            (Role::Face { first: 0, count: 4 }, Role::Twist { first: 0, count: 4 });
        for (along, role) in [(V3::x(), face), (V3::z(), face), (V3::y(), twist)] {
            rows.push(Row { a: 0, b: 1, p: V3::zeros(), along, role });
        }
        ([body, BodyState::fixed(V3::zeros())], rows)
    }

    #[test]
    fn face_friction_sticks_below_mu_and_slides_at_mu_above() {
        // The same slab as the corner-by-corner test, its friction now the face's:
        // two tangent rows at the centre bounded by μ times the face's whole normal
        // impulse (0.5 N s), which must give the same answers.
        for (mu, slides) in [(4.0, false), (0.5, true)] {
            let (mut b, rows) = slab_face(1.0, 0.0);
            let target = vec![0.0; rows.len()];
            let mut lambda = vec![0.0; rows.len()];
            solve_sequential(&mut b, &rows, &target, mu, (&mut lambda, 200));
            let normal: f64 = lambda[..4].iter().sum();
            assert!((normal - 0.5).abs() < 1e-6, "{normal}");
            let expected = if slides { 1.0 - mu * 0.5 } else { 0.0 };
            assert!((b[0].v.x - expected).abs() < 1e-6, "μ = {mu}: {}", b[0].v);
        }
    }

    #[test]
    fn the_twist_row_stops_a_turning_face_or_slips_at_its_bound() {
        // The slab spinning at 2 rad/s about the normal as it lands. The twist bound is
        // μ Σ λₖ rₖ = μ · 0.5 N s · √0.5 m; with a large μ the spin stops, with μ = 0.1
        // it loses 6 · 0.1 · 0.5 · √0.5 rad/s, and in both the centre does not slide.
        for (mu, left) in [(4.0, 0.0), (0.1, 2.0 - 6.0 * 0.1 * 0.5 * 0.5f64.sqrt())] {
            let (mut b, rows) = slab_face(0.0, 2.0);
            let target = vec![0.0; rows.len()];
            let mut lambda = vec![0.0; rows.len()];
            solve_sequential(&mut b, &rows, &target, mu, (&mut lambda, 200));
            assert!((b[0].omega.y - left).abs() < 1e-6, "μ = {mu}: {}", b[0].omega);
            assert!(b[0].v.x.abs() < 1e-9 && b[0].v.z.abs() < 1e-9, "{}", b[0].v);
            // The twist row's bound holds the impulse it took.
            let bound = mu * 0.5 * 0.5f64.sqrt();
            assert!(
                lambda[6].abs() <= bound * (1.0 + 1e-9),
                "{} > {bound}",
                lambda[6]
            );
        }
    }

    #[test]
    fn a_run_of_friction_rows_gives_the_numbers_of_row_by_row_sweeps() {
        // Two slabs sliding across each other and the ground: two runs of friction
        // rows. The sweeps must match, bit for bit, a plain loop that reads and
        // writes the velocities through `vel` at every row.
        let slab = |y: f64, vx: f64| {
            unit_cube(
                V3::new(0.0, y, 0.0),
                V3::new(vx, -0.5, 0.3),
                V3::new(0.1, 0.0, -0.2),
            )
        };
        let bodies = [slab(0.1, 1.0), slab(0.3, -0.4), BodyState::fixed(V3::zeros())];
        let mut rows = Vec::new();
        push_square_face(&mut rows, (0, 2), 0.0, true);
        push_square_face(&mut rows, (1, 0), 0.2, true);
        let (target, mu) = (vec![0.0; rows.len()], 0.3);
        let sweeper = Sweeper::new(&bodies, &rows);
        assert_eq!(sweeper.runs.len(), 2);
        let mut vel = velocities(&bodies);
        let mut lambda = vec![0.0; rows.len()];
        sweeper.solve(&mut vel, (&target, mu, true), (&mut lambda, 7));
        let mut plain_vel = velocities(&bodies);
        let mut plain = vec![0.0; rows.len()];
        let mut scratch = vec![0.0; 8];
        for _ in 0..7 {
            for m in &sweeper.manifolds {
                m.update(
                    &mut plain_vel,
                    (&sweeper.rows, &target),
                    &mut plain,
                    &mut scratch,
                );
            }
            for &i in &sweeper.others {
                let row = &sweeper.rows[i];
                let (lo, hi) =
                    row_bounds(sweeper.roles[i], &plain, (mu, &sweeper.levers));
                let step = (row.velocity(&plain_vel) - target[i]) * row.inverse;
                let total = (plain[i] - step).clamp(lo, hi);
                row.push(&mut plain_vel, total - plain[i]);
                plain[i] = total;
            }
        }
        assert_eq!(lambda, plain);
        assert_eq!(vel, plain_vel);
        // Friction did something: the slabs' sliding changed.
        assert!(lambda.iter().enumerate().any(|(i, l)| i % 3 != 0 && l.abs() > 1e-3));
    }

    #[test]
    fn dense_pgs_converges_to_the_pivoting_answer_on_definite_problems() {
        // Bounds of every kind the chapter uses, fixed: contacts [0, ∞), joints
        // (−∞, ∞), friction-like boxes [−0.3, 0.3]. A symmetric definite A makes
        // Gauss–Seidel on the equivalent QP converge; the pivoting's answer is exact.
        use crate::lcp::{Bounds, Kind, random_problem, solve_bounded};
        for n in [2, 5, 9, 14] {
            for seed in 0..10 {
                let (a, b) = random_problem(Kind::Definite, n, seed);
                let bounds = Bounds {
                    lo: (0..n)
                        .map(|i| [0.0, f64::NEG_INFINITY, -0.3][i % 3])
                        .collect(),
                    hi: (0..n)
                        .map(|i| [f64::INFINITY, f64::INFINITY, 0.3][i % 3])
                        .collect(),
                };
                let exact = solve_bounded(&a, &b, &bounds).unwrap().f;
                let mut lambda = DVector::zeros(n);
                pgs_dense(&a, &b, &bounds, &mut lambda, 20_000);
                let off = (&lambda - &exact).amax() / exact.amax().max(1.0);
                assert!(off < 1e-8, "n = {n}, seed {seed}: off by {off}");
            }
        }
    }
}
