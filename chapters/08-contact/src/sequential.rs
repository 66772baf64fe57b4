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

use crate::friction::REGULARIZATION;
use crate::lcp::solve;
use crate::rows::{BodyState, Role, Row, row_matrix};
use nalgebra::{Cholesky, DMatrix, DVector, Dyn};

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

// ANCHOR: diagonal
/// Aᵢᵢ: row i's own velocity change per unit of its impulse, u · (Δv + Δω × r) on
/// a minus the same on b. Its inverse is the row's "effective mass".
pub fn diagonal(bodies: &[BodyState], row: &Row) -> f64 {
    [row.a, row.b]
        .iter()
        .map(|&k| {
            let body = &bodies[k];
            let r = row.p - body.x;
            let w = r.cross(&row.along);
            row.along.norm_squared() * body.inv_mass + w.dot(&(body.inv_inertia * w))
        })
        .sum()
}
// ANCHOR_END: diagonal

/// Row `row`'s relative velocity along its direction: u · (v_a(p) − v_b(p)).
pub fn row_velocity(bodies: &[BodyState], row: &Row) -> f64 {
    let (a, b) = (&bodies[row.a], &bodies[row.b]);
    row.along.dot(&(a.point_velocity(&row.p) - b.point_velocity(&row.p)))
}

/// Applies `impulse` along row `row`: +u on a, −u on b, at p.
pub fn push(bodies: &mut [BodyState], row: &Row, impulse: f64) {
    let j = row.along * impulse;
    bodies[row.a].apply_impulse(&row.p, &j);
    bodies[row.b].apply_impulse(&row.p, &(-j));
}

// ANCHOR: bounds
/// Row i's bounds for the impulses `lambda` so far: a normal row pushes only
/// ([0, ∞)), a bilateral row either way, and a tangent row at most μ times its
/// normal row's impulse (the friction pyramid, as in the force solve).
fn bounds(rows: &[Row], i: usize, lambda: &[f64], mu: f64) -> (f64, f64) {
    match rows[i].role {
        Role::Normal => (0.0, f64::INFINITY),
        Role::Bilateral => (f64::NEG_INFINITY, f64::INFINITY),
        Role::Tangent { normal } => {
            let limit = mu * lambda[normal].max(0.0);
            (-limit, limit)
        }
    }
}
// ANCHOR_END: bounds

// ANCHOR: sequential
/// Sequential impulses: `lambda` holds each row's accumulated impulse (N s), last
/// step's on entry (the warm start, applied to the bodies first) and this step's on
/// return. Each of the `sweeps` passes moves each impulse by −(vᵢ − targetᵢ) / Aᵢᵢ,
/// clamped so that the accumulated impulse stays within its bounds (clamping the
/// total, not the change, lets a sweep take back what an earlier one pushed too
/// hard); the normal rows of one body pair go together ([`Manifold`]).
pub fn solve_sequential(
    bodies: &mut [BodyState],
    rows: &[Row],
    target: &Targets,
    mu: f64,
    (lambda, sweeps): (&mut [f64], usize),
) -> Sweeps {
    let inverse: Vec<f64> = rows
        .iter()
        .map(|r| 1.0 / diagonal(bodies, r).max(f64::MIN_POSITIVE))
        .collect();
    let manifolds = Manifold::all(bodies, rows);
    for (row, &l) in rows.iter().zip(lambda.iter()) {
        push(bodies, row, l);
    }
    let mut last_change = 0.0;
    for _ in 0..sweeps {
        last_change = 0.0_f64;
        for m in &manifolds {
            last_change = last_change.max(m.update(bodies, (rows, target), lambda));
        }
        for i in (0..rows.len()).filter(|&i| rows[i].role != Role::Normal) {
            let v = row_velocity(bodies, &rows[i]);
            let (lo, hi) = bounds(rows, i, lambda, mu);
            let total = (lambda[i] - (v - target[i]) * inverse[i]).clamp(lo, hi);
            let change = total - lambda[i];
            push(bodies, &rows[i], change);
            lambda[i] = total;
            last_change = last_change.max(change.abs());
        }
    }
    Sweeps { sweeps, last_change }
}
// ANCHOR_END: sequential

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
    /// A_GG, regularised.
    a: DMatrix<f64>,
    /// Its Cholesky factor, for the usual case in which every corner pushes.
    factor: Option<Cholesky<f64, Dyn>>,
}

// ANCHOR_END: manifold

impl Manifold {
    /// The manifolds of consecutive normal rows of the same pair.
    fn all(bodies: &[BodyState], rows: &[Row]) -> Vec<Manifold> {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for (i, r) in rows.iter().enumerate().filter(|(_, r)| r.role == Role::Normal)
        {
            match groups.last_mut() {
                Some(g) if (rows[g[0]].a, rows[g[0]].b) == (r.a, r.b) => g.push(i),
                _ => groups.push(vec![i]),
            }
        }
        groups
            .into_iter()
            .map(|g| {
                let own: Vec<Row> = g.iter().map(|&i| rows[i]).collect();
                let mut a = row_matrix(bodies, &own);
                let delta = REGULARIZATION * a.diagonal().amax();
                for k in 0..g.len() {
                    a[(k, k)] += delta;
                }
                let factor = a.clone().cholesky();
                Manifold { rows: g, a, factor }
            })
            .collect()
    }

    // ANCHOR: manifold_update
    /// Solves the block for its impulses with the others held, applies the
    /// changes, and returns the largest. First the usual case, every corner
    /// pushing: λ_G = λ_G' − A_GG⁻¹ (v_G − target_G) by the kept factor, accepted if
    /// no impulse comes out negative; otherwise the block's LCP by pivoting.
    fn update(
        &self,
        bodies: &mut [BodyState],
        (rows, target): (&[Row], &Targets),
        lambda: &mut [f64],
    ) -> f64 {
        let g = &self.rows;
        let now = DVector::from_iterator(g.len(), g.iter().map(|&i| lambda[i]));
        let v = DVector::from_iterator(
            g.len(),
            g.iter().map(|&i| row_velocity(bodies, &rows[i]) - target[i]),
        );
        let all_push = self.factor.as_ref().map(|f| &now - f.solve(&v));
        let next = match all_push {
            Some(next) if next.iter().all(|&l| l >= 0.0) => next,
            _ => match solve(&self.a, &(v - &self.a * &now)) {
                Ok(solved) => solved.f,
                Err(_) => return 0.0,
            },
        };
        let mut largest = 0.0_f64;
        for (k, &i) in g.iter().enumerate() {
            let change = next[k] - lambda[i];
            push(bodies, &rows[i], change);
            lambda[i] = next[k];
            largest = largest.max(change.abs());
        }
        largest
    }
    // ANCHOR_END: manifold_update
}

/// How far the velocities are from the conditions after a solve (m/s): the largest
/// of a normal row's velocity below its target, and of a normal row that pushes
/// while moving away faster than its target (it should let go), and of a tangent
/// row sliding while its impulse is inside its bounds (it should stick).
pub fn velocity_error(
    bodies: &[BodyState],
    rows: &[Row],
    target: &Targets,
    (lambda, mu): (&[f64], f64),
) -> f64 {
    let scale = lambda.iter().fold(0.0_f64, |m, l| m.max(l.abs())).max(1e-300);
    (0..rows.len())
        .map(|i| {
            let gap = row_velocity(bodies, &rows[i]) - target[i];
            let (lo, hi) = bounds(rows, i, lambda, mu);
            let pushing = (lambda[i] - lo).min(hi - lambda[i]) > 1e-9 * scale;
            match rows[i].role {
                Role::Normal if lambda[i] > 1e-9 * scale => gap.abs(),
                Role::Normal => (-gap).max(0.0),
                _ if pushing => gap.abs(),
                _ => 0.0,
            }
        })
        .fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{DVector, Matrix3, Vector3};

    type V3 = Vector3<f64>;

    /// A box of 1 kg on the ground on four corners and a second on top of it,
    /// both falling at 1 m/s: the normal rows only.
    fn two_boxes() -> (Vec<BodyState>, Vec<Row>) {
        let body = |y: f64| BodyState {
            x: V3::new(0.0, y, 0.0),
            v: V3::new(0.0, -1.0, 0.0),
            omega: V3::new(0.0, 0.0, 0.3),
            inv_mass: 1.0,
            inv_inertia: Matrix3::identity() * 6.0,
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
        let body = BodyState {
            x: V3::new(0.0, 0.1, 0.0),
            v: V3::new(1.0, -0.5, 0.0),
            omega: V3::zeros(),
            inv_mass: 1.0,
            inv_inertia: Matrix3::identity() * 6.0,
        };
        let bodies = [body, BodyState::fixed(V3::zeros())];
        let mut rows = Vec::new();
        for (x, z) in [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)] {
            let p = V3::new(x, 0.0, z);
            let normal = rows.len();
            rows.push(Row { a: 0, b: 1, p, along: V3::y(), role: Role::Normal });
            for t in [V3::x(), V3::z()] {
                rows.push(Row {
                    a: 0,
                    b: 1,
                    p,
                    along: t,
                    role: Role::Tangent { normal },
                });
            }
        }
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
}
