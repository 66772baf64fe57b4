//! Dependent rows: where many forces give the same accelerations, the ones nearest a
//! reference (zero, or the last step's forces).

use super::problem::{Bounds, LcpSolution, scale};
use nalgebra::{DMatrix, DVector};

// ANCHOR: least_norm
/// With dependent rows many forces give the same accelerations, and the pivoting
/// returns one of them: the forces of a basis of the active rows, which can be
/// enormous where that basis is nearly dependent too, cancelling to the right
/// accelerations. The active rows Z (a = 0, force free to move) must keep
/// A_ZZ f_Z = −(b_Z + A_ZN f_N); among those forces this takes the one nearest
/// `reference` (zero for the least-norm forces; the last answer for Baraff's rule).
/// The pivoting's answer stands if no such forces meet the bounds and equations.
pub(super) fn nearest(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    bounds: &Bounds,
    solution: LcpSolution,
    reference: &DVector<f64>,
) -> LcpSolution {
    let s = scale(a, b);
    let z: Vec<usize> = (0..b.len())
        .filter(|&i| solution.a[i].abs() <= 1e-10 * s && bounds.lo[i] < bounds.hi[i])
        .collect();
    let clamped = solution.clamped.iter().filter(|&&c| c).count();
    if z.len() <= clamped {
        return solution; // a basis of independent rows: its forces are the only ones
    }
    let mut f = solution.f.clone();
    for &i in &z {
        f[i] = 0.0;
    }
    let total = a * &f + b;
    let rhs = DVector::from_fn(z.len(), |r, _| -total[z[r]]);
    let Some(f) = nearest_on(a, bounds, (&z, &rhs), f, (reference, s)) else {
        return solution;
    };
    let acc = a * &f + b;
    let moved = LcpSolution { f, a: acc, ..solution.clone() };
    let worst = solution.bounded_residual(bounds, s).max(1e-10);
    if moved.bounded_residual(bounds, s) <= worst { moved } else { solution }
}
// ANCHOR_END: least_norm

// ANCHOR: nearest_on
/// The forces on rows `z` nearest `reference` with A_ZZ f_Z = `rhs` (others fixed):
/// f_Z = r_Z + A_ZZ⁺ (rhs − A_ZZ r_Z). A force below its lower bound is held there,
/// the furthest first, and the rest solved again; None if nothing meets the bounds.
fn nearest_on(
    a: &DMatrix<f64>,
    bounds: &Bounds,
    (z, rhs): (&[usize], &DVector<f64>),
    mut f: DVector<f64>,
    (reference, s): (&DVector<f64>, f64),
) -> Option<DVector<f64>> {
    let (mut free, tol) = (z.to_vec(), 1e-10 * s);
    while !free.is_empty() {
        let held: Vec<usize> =
            z.iter().copied().filter(|i| !free.contains(i)).collect();
        let mut want = rhs.clone();
        for (r, &i) in z.iter().enumerate() {
            want[r] -= held.iter().map(|&j| a[(i, j)] * bounds.lo[j]).sum::<f64>();
        }
        let azk = DMatrix::from_fn(z.len(), free.len(), |r, c| a[(z[r], free[c])]);
        let r_free = DVector::from_fn(free.len(), |c, _| reference[free[c]]);
        let step = azk.clone().svd(true, true).solve(&(&want - &azk * &r_free), tol);
        let x = r_free + step.ok()?;
        let over = (0..free.len()).any(|c| x[c] > bounds.hi[free[c]] + tol);
        if over || (&azk * &x - &want).amax() > tol {
            return None; // above a bound, or the held forces left rhs unreachable
        }
        if let Some(c) = furthest_below(&x, &free, bounds, tol) {
            free.remove(c);
            continue;
        }
        held.iter().for_each(|&j| f[j] = bounds.lo[j]);
        for (c, &i) in free.iter().enumerate() {
            f[i] = x[c].clamp(bounds.lo[i], bounds.hi[i]);
        }
        return Some(f);
    }
    None
}
// ANCHOR_END: nearest_on

/// Which of the forces `x` on the rows `free` lies furthest below its lower bound
/// (by more than `tol`), if any.
fn furthest_below(
    x: &DVector<f64>,
    free: &[usize],
    bounds: &Bounds,
    tol: f64,
) -> Option<usize> {
    (0..free.len())
        .map(|c| (c, x[c] - bounds.lo[free[c]]))
        .filter(|&(_, gap)| gap < -tol)
        .min_by(|p, q| p.1.total_cmp(&q.1))
        .map(|(c, _)| c)
}
