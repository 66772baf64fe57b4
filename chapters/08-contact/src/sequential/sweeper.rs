//! The sweeps: the rows of a step prepared once ([`Sweeper::new`]), then swept,
//! each impulse moved towards its target and clamped to its bounds, the normal rows
//! of a body pair as a block ([`super::manifold`]).

use super::manifold::Manifold;
use super::prepared::{Prepared, Targets, Velocity, velocities};
use crate::rows::{BodyState, Role, Row, row_bounds, twist_levers};
use nalgebra::Vector3;
use std::ops::Range;

type V3 = Vector3<f64>;

/// What the sweeps did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sweeps {
    /// Sweeps made.
    pub sweeps: usize,
    /// The largest change of any impulse in the last sweep (N s): zero at the
    /// answer of the LCP, and how far from it the sweeps stopped.
    pub last_change: f64,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lcp::solve;
    use crate::rows::{push_square_face, row_matrix, unit_cube};
    use crate::sequential::prepared::row_velocity;
    use nalgebra::{DVector, Vector3};

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
}
