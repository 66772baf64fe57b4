//! The linear algebra of one pivot: the direction in which the forces change as an
//! index is driven, solved densely or through a Cholesky factor of the clamped rows'
//! matrix that the pivoting keeps up to date a row at a time.

use super::problem::{Checked, Set, product};
use nalgebra::{DMatrix, DVector};
use pbm_prelim::PbmError;

// ANCHOR: direction
/// The direction in which to change f as index d is driven: Δf_d = σ (±1, the way
/// that brings a_d towards zero), the clamped forces change so that their
/// accelerations stay at zero (A_CC Δf_C = −σ A_Cd), the others stay where they are.
/// Returns Δf and Δa = A Δf.
pub(super) fn direction(
    a: &DMatrix<f64>,
    sets: &[Set],
    d: usize,
    sigma: f64,
) -> Result<(DVector<f64>, DVector<f64>), PbmError> {
    let n = sets.len();
    let clamped: Vec<usize> = (0..n).filter(|&i| sets[i] == Set::Clamped).collect();
    let mut df = DVector::zeros(n);
    df[d] = sigma;
    if !clamped.is_empty() {
        let k = clamped.len();
        let acc = DMatrix::from_fn(k, k, |r, c| a[(clamped[r], clamped[c])]);
        let rhs = DVector::from_fn(k, |r, _| -sigma * a[(clamped[r], d)]);
        // Redundant contacts make A_CC (nearly) singular, and LU then blows roundoff
        // up: unless U's pivots are sound, take the least change (pseudo-inverse).
        let lu = acc.clone().lu();
        let pivots = lu.u().diagonal().map(f64::abs);
        let solid = pivots.min() > 1e-9 * pivots.max();
        let x = match lu.solve(&rhs) {
            Some(x) if solid && x.iter().all(|v| v.is_finite()) => x,
            _ => acc.svd(true, true).solve(&rhs, 1e-12 * a.amax()).map_err(|_| {
                let why = format!(
                    "the {k} clamped contacts' matrix A_CC is singular while \
                     driving contact {d}"
                );
                PbmError::degenerate("contact forces", why)
            })?,
        };
        for (r, &i) in clamped.iter().enumerate() {
            df[i] = x[r];
        }
    }
    let da = a * &df;
    Ok((df, da))
}
// ANCHOR_END: direction

// ANCHOR: factor
/// The clamped rows' matrix A_CC, factored as L Lᵀ (Cholesky) and kept up to date
/// as the pivoting moves one index at a time into or out of the clamped set: adding
/// a row costs one triangular solve, removing one a rank-one update of the rows
/// below it, O(k²) each where factoring afresh at every pivot costs O(k³). Only for
/// a symmetric A whose A_CC stays definite (contact matrices, and every matrix the
/// friction solve regularises); [`direction`] does the work otherwise.
pub(crate) struct ClampedFactor {
    /// The clamped indices, in the order of L's rows.
    pub(super) order: Vec<usize>,
    /// L's rows: row r has r + 1 entries.
    l: Vec<Vec<f64>>,
    /// Where each row of L starts: its entries before this column are zero. A row
    /// of A_CC that is zero up to some column stays zero there in L (the envelope
    /// of a Cholesky factor is the matrix's), so a banded A_CC costs its band, not
    /// its size.
    start: Vec<usize>,
    /// Built for an earlier A (an earlier solve's, whose bodies have since moved a
    /// little): no longer A_CC's factor, only a preconditioner for it, used by
    /// [`ClampedFactor::refine`] and nowhere else.
    pub(super) stale: bool,
}

// ANCHOR_END: factor

impl ClampedFactor {
    /// Factors A_CC for the clamped indices of `sets`; None if it is not definite.
    pub(super) fn new(a: &DMatrix<f64>, sets: &[Set]) -> Option<Self> {
        let (order, l, start) = (Vec::new(), Vec::new(), Vec::new());
        let mut factor = ClampedFactor { order, l, start, stale: false };
        for i in (0..sets.len()).filter(|&i| sets[i] == Set::Clamped) {
            if !factor.push(a, i) {
                return None;
            }
        }
        Some(factor)
    }

    // ANCHOR: factor_push
    /// Adds index i as the last row: L's new row l solves L l = A_Ci, and its
    /// diagonal is √(A_ii − l·l). False (and nothing added) if that is not
    /// clearly positive: A_CC would be singular, a redundant contact.
    pub(super) fn push(&mut self, a: &DMatrix<f64>, i: usize) -> bool {
        let k = self.order.len();
        let start = self.order.iter().position(|&j| a[(i, j)] != 0.0).unwrap_or(k);
        let mut row: Vec<f64> = vec![0.0; k];
        for r in start..k {
            let from = start.max(self.start[r]);
            let dot: f64 = row[from..r]
                .iter()
                .zip(&self.l[r][from..r])
                .map(|(x, y)| x * y)
                .sum();
            row[r] = (a[(i, self.order[r])] - dot) / self.l[r][r];
        }
        let pivot = a[(i, i)] - row[start..].iter().map(|x| x * x).sum::<f64>();
        if !(pivot > 1e-13 * a[(i, i)].abs() && pivot.is_finite()) {
            return false;
        }
        row.push(pivot.sqrt());
        self.l.push(row);
        self.order.push(i);
        self.start.push(start);
        true
    }

    // ANCHOR_END: factor_push
    // ANCHOR: factor_remove
    /// Removes index i: its row goes, and the rows below lose their entry x in its
    /// column, which the rank-one update L̃ L̃ᵀ = L Lᵀ + x xᵀ of the block below
    /// puts back.
    pub(super) fn remove(&mut self, i: usize) {
        let Some(p) = self.order.iter().position(|&j| j == i) else { return };
        self.order.remove(p);
        self.l.remove(p);
        self.start.remove(p);
        // Rows below that started after column p start one column earlier now; the
        // update below fills no column before a row's start.
        for start in self.start[p..].iter_mut().filter(|s| **s > p) {
            *start -= 1;
        }
        let m = self.l.len();
        let mut x: Vec<f64> = (p..m).map(|r| self.l[r].remove(p)).collect();
        for j in 0..m - p {
            let jj = p + j;
            let diagonal = self.l[jj][jj];
            let r = diagonal.hypot(x[j]);
            let (c, s) = (r / diagonal, x[j] / diagonal);
            self.l[jj][jj] = r;
            let below = self.l[jj + 1..].iter_mut().zip(&mut x[j + 1..]);
            for (row, x) in below {
                row[jj] = (row[jj] + s * *x) / c;
                *x = c * *x - s * row[jj];
            }
        }
    }

    // ANCHOR_END: factor_remove
    // ANCHOR: factor_solve
    /// Solves A_CC x = rhs by L y = rhs, then Lᵀ x = y a row of L at a time (x_c is
    /// final once the rows below are done); rhs and x in the factor's row order.
    pub(super) fn solve(&self, mut x: Vec<f64>) -> Vec<f64> {
        let k = self.order.len();
        for r in 0..k {
            let (from, row) = (self.start[r], &self.l[r]);
            let dot: f64 =
                row[from..r].iter().zip(&x[from..r]).map(|(l, x)| l * x).sum();
            x[r] = (x[r] - dot) / row[r];
        }
        for c in (0..k).rev() {
            let (from, row) = (self.start[c], &self.l[c]);
            x[c] /= row[c];
            let xc = x[c];
            for (x, l) in x[from..c].iter_mut().zip(&row[from..c]) {
                *x -= l * xc;
            }
        }
        x
    }

    /// [`direction`] through the factor: A_CC Δf_C = −σ A_Cd by two triangular
    /// solves, and Δa = A Δf from the columns that move.
    pub(super) fn direction(
        &self,
        a: &DMatrix<f64>,
        d: usize,
        sigma: f64,
    ) -> (DVector<f64>, DVector<f64>) {
        let x = self.solve(self.order.iter().map(|&i| -sigma * a[(i, d)]).collect());
        let n = a.nrows();
        let mut df = DVector::zeros(n);
        df[d] = sigma;
        let mut da = a.column(d) * sigma;
        for (r, &i) in self.order.iter().enumerate() {
            df[i] = x[r];
            da.axpy(x[r], &a.column(i), 1.0);
        }
        (df, da)
    }
    // ANCHOR_END: factor_solve

    // ANCHOR: factor_refine
    /// Solves A_CC x = rhs (in the factor's row order) for an A close to the one the
    /// factor was built from, by iterative refinement: x ← x + (L Lᵀ)⁻¹ (rhs − A_CC x).
    /// Each round costs a product with A_CC and two triangular solves, O(k²), where a
    /// new factor costs O(k³); the error shrinks each round by the factor
    /// ‖I − (L Lᵀ)⁻¹ A_CC‖, small while the bodies have moved little since the
    /// factor was built. `None` if the residual is not below `goal` after
    /// [`REFINEMENTS`] rounds: the matrix changed too much, and the caller refactors.
    pub(super) fn refine(
        &self,
        (a, known): (&DMatrix<f64>, Option<&Checked>),
        rhs: &[f64],
        goal: f64,
    ) -> Option<Vec<f64>> {
        let mut x = vec![0.0; self.order.len()];
        let mut full = DVector::zeros(a.nrows());
        let mut residual = rhs.to_vec();
        for _ in 0..REFINEMENTS {
            let dx = self.solve(residual);
            x.iter_mut().zip(&dx).for_each(|(x, d)| *x += d);
            for (&i, &x) in self.order.iter().zip(&x) {
                full[i] = x;
            }
            let ax = product(a, &full, known);
            residual = self.order.iter().zip(rhs).map(|(&i, r)| r - ax[i]).collect();
            let worst = residual.iter().fold(0.0_f64, |m, r| m.max(r.abs()));
            if worst <= goal {
                return Some(x);
            }
            if !worst.is_finite() {
                return None;
            }
        }
        None
    }
    // ANCHOR_END: factor_refine

    /// Marks the factor as built for an earlier A: from now on only
    /// [`ClampedFactor::refine`] may use it.
    pub(crate) fn age(&mut self) {
        self.stale = true;
    }

    /// Whether the factor was built for an earlier A.
    pub(crate) fn is_aged(&self) -> bool {
        self.stale
    }
}

/// Rounds of iterative refinement through a kept factor before it is rebuilt.
pub const REFINEMENTS: usize = 4;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lcp::problem::{Kind, random_problem};

    /// Moves index i into the clamped set and the factor, or out of both.
    fn toggle(
        (factor, sets): (&mut ClampedFactor, &mut [Set]),
        a: &DMatrix<f64>,
        i: usize,
    ) {
        if sets[i] == Set::Clamped {
            sets[i] = Set::Lower;
            factor.remove(i);
        } else {
            sets[i] = Set::Clamped;
            assert!(factor.push(a, i));
        }
    }

    #[test]
    fn the_followed_factor_solves_as_a_fresh_dense_solve_does() {
        // Indices join and leave the clamped set in a scrambled order; after every
        // change the followed factor's direction must equal the dense one.
        let n = 14;
        let (a, _) = random_problem(Kind::Definite, n, 7);
        let mut sets = vec![Set::Lower; n];
        let mut factor = ClampedFactor::new(&a, &sets).unwrap();
        let moves = [3, 8, 1, 12, 3, 5, 0, 8, 9, 13, 1, 2, 6, 12, 10, 0];
        for (step, &i) in moves.iter().enumerate() {
            toggle((&mut factor, &mut sets), &a, i);
            let d = (0..n).find(|&j| sets[j] != Set::Clamped).unwrap();
            let (df, da) = factor.direction(&a, d, -1.0);
            let (df_dense, da_dense) = direction(&a, &sets, d, -1.0).unwrap();
            assert!(
                (&df - &df_dense).amax() < 1e-10 * df_dense.amax(),
                "step {step}"
            );
            assert!(
                (&da - &da_dense).amax() < 1e-10 * da_dense.amax(),
                "step {step}"
            );
        }
        // A row dependent on the clamped ones is refused, and nothing changes.
        let j = DMatrix::from_fn(n, 3, |r, c| ((r * 3 + c) % 5) as f64 - 2.0);
        let singular = &j * j.transpose();
        let mut factor = ClampedFactor::new(&singular, &vec![Set::Lower; n]).unwrap();
        let accepted = (0..n).filter(|&i| factor.push(&singular, i)).count();
        assert_eq!(accepted, 3, "rank 3");
    }

    /// A banded definite matrix: J Jᵀ + I with J's rows touching three neighbouring
    /// columns, as contact rows touch their bodies.
    fn banded(n: usize, seed: u64) -> DMatrix<f64> {
        let banded = |r: usize, c: usize| c >= r && c < r + 3;
        let j = DMatrix::from_fn(n, n, |r, c| match banded(r, c) {
            true => {
                0.5 * pbm_prelim::sampling::sample(seed * 10_007 + (r * n + c) as u64)
            }
            false => 0.0,
        });
        &j * j.transpose() + DMatrix::identity(n, n)
    }

    #[test]
    fn the_envelope_factor_of_a_banded_matrix_solves_as_a_dense_solve_does() {
        let n = 16;
        let a = banded(n, 3);
        let mut sets = vec![Set::Lower; n];
        let mut factor = ClampedFactor::new(&a, &sets).unwrap();
        let moves = [0, 1, 2, 5, 6, 7, 9, 15, 1, 14, 8, 6, 3, 4, 12, 0, 11];
        for (step, &i) in moves.iter().enumerate() {
            toggle((&mut factor, &mut sets), &a, i);
            // L's entries before each row's start are zero, and L Lᵀ is A_CC.
            let k = factor.order.len();
            for r in 0..k {
                assert!(factor.l[r][..factor.start[r]].iter().all(|&x| x == 0.0));
                for c in 0..=r {
                    let llt: f64 =
                        (0..=c).map(|m| factor.l[r][m] * factor.l[c][m]).sum();
                    let (i, j) = (factor.order[r], factor.order[c]);
                    assert!(
                        (llt - a[(i, j)]).abs() < 1e-12,
                        "step {step}: ({r}, {c})"
                    );
                }
            }
            let d = (0..n).find(|&j| sets[j] != Set::Clamped).unwrap();
            let (df, _) = factor.direction(&a, d, 1.0);
            let (df_dense, _) = direction(&a, &sets, d, 1.0).unwrap();
            assert!((&df - &df_dense).amax() < 1e-12, "step {step}");
        }
        // Rows after a banded row's band start late: the factor skips their zeros.
        let all = ClampedFactor::new(&a, &vec![Set::Clamped; n]).unwrap();
        assert!(all.start.iter().enumerate().all(|(r, &s)| s + 2 >= r && s <= r));
    }

    #[test]
    fn an_aged_factor_refines_a_nearby_matrix_and_refuses_a_far_one() {
        let n = 12;
        let a = banded(n, 5);
        let factor = ClampedFactor::new(&a, &vec![Set::Clamped; n]).unwrap();
        let rhs: Vec<f64> = (0..n).map(|i| (i as f64).sin()).collect();
        let nudged = |by: f64| {
            let mut moved = a.clone();
            for i in 0..n - 1 {
                moved[(i, i + 1)] += by;
                moved[(i + 1, i)] += by;
            }
            moved
        };
        // Bodies that moved a little: the answer is the new matrix's, to the goal.
        let near = nudged(1e-6);
        let x = factor.refine((&near, None), &rhs, 1e-12).unwrap();
        let exact = near.clone().lu().solve(&DVector::from_vec(rhs.clone())).unwrap();
        assert!((DVector::from_vec(x) - exact).amax() < 1e-11);
        // Moved too far: no answer, and the caller refactors.
        assert!(factor.refine((&nudged(0.8), None), &rhs, 1e-12).is_none());
    }
}
