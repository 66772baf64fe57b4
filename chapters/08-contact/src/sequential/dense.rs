//! Projected Gauss–Seidel on an assembled matrix: the sweeps in their short form,
//! for the page and as a check.

use crate::lcp::Bounds;
use nalgebra::{DMatrix, DVector};

// ANCHOR: pgs_dense
/// Projected Gauss–Seidel on an assembled A, the short form of the sweeps below:
/// each row in turn solved for its own unknown with the others held, then clamped
/// into its bounds, λᵢ ← clamp(λᵢ − (A λ + b)ᵢ / Aᵢᵢ, loᵢ, hiᵢ), `sweeps` times
/// over all rows, from `lambda` (a warm start, or zeros).
pub fn pgs_dense(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    bounds: &Bounds,
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
