//! Conjugate gradients, preconditioned, for symmetric positive definite systems: the
//! implicit mass–spring steps of this chapter and the constraint forces of chapter 4.
//! CG needs only products A·p, so the matrix is never factored, and it reports
//! failure (an indefinite matrix, no convergence) instead of looping.

use crate::block_sparse::{Block, BlockSparse};
use nalgebra::SVector;
use pbm_prelim::{PbmError, short};

/// The name CG's failures carry.
const CG: &str = "conjugate gradient";

/// How a successful solve went.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CgReport {
    /// Iterations taken.
    pub iterations: usize,
    /// Final ‖b − A x‖ / ‖b‖.
    pub relative_residual: f64,
}

/// The dot product of two equally long slices. Eight running sums, one for each
/// remainder of the index divided by eight, are added at the end: a single running
/// sum makes every addition wait for the one before it, eight let the processor
/// overlap them. The order is fixed, so the result does not depend on how the
/// work was split.
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().min(b.len());
    let ((a8, a_rest), (b8, b_rest)) =
        (a[..n].as_chunks::<8>(), b[..n].as_chunks::<8>());
    let mut lanes = [0.0; 8];
    for (x, y) in a8.iter().zip(b8) {
        for k in 0..8 {
            lanes[k] += x[k] * y[k];
        }
    }
    let tail: f64 = a_rest.iter().zip(b_rest).map(|(x, y)| x * y).sum();
    let quads = [
        lanes[0] + lanes[4],
        lanes[1] + lanes[5],
        lanes[2] + lanes[6],
        lanes[3] + lanes[7],
    ];
    (quads[0] + quads[2]) + (quads[1] + quads[3]) + tail
}

// ANCHOR: operator
/// A symmetric positive (semi)definite matrix known only through its products.
/// Chapter 3 hands CG an explicit block-sparse matrix; chapter 4 hands it J W Jᵀ,
/// which is never formed.
pub trait LinearOperator {
    /// Number of rows (and columns).
    fn dimension(&self) -> usize;
    /// y = A x.
    fn apply(&self, x: &[f64], y: &mut [f64]);
    /// z = P⁻¹ r for a preconditioner P ≈ A that is cheap to invert; the identity by
    /// default.
    fn precondition(&self, r: &[f64], z: &mut [f64]) {
        z.copy_from_slice(r);
    }
}
// ANCHOR_END: operator

/// A block-sparse matrix with its block-Jacobi preconditioner: P is the block
/// diagonal of A, each D × D block inverted once, up front.
pub struct BlockJacobi<'a, const D: usize> {
    matrix: &'a BlockSparse<D>,
    inverses: Vec<Block<D>>,
}

impl<'a, const D: usize> BlockJacobi<'a, D> {
    /// Inverts the diagonal blocks; fails if one is singular.
    pub fn new(matrix: &'a BlockSparse<D>) -> Result<Self, PbmError> {
        let inverses = (0..matrix.block_rows())
            .map(|i| matrix.diagonal_block(i).try_inverse())
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| {
                PbmError::degenerate(
                    "block-Jacobi preconditioner",
                    "a diagonal block of the matrix is singular",
                )
            })?;
        Ok(BlockJacobi { matrix, inverses })
    }
}

impl<const D: usize> LinearOperator for BlockJacobi<'_, D> {
    fn dimension(&self) -> usize {
        D * self.matrix.block_rows()
    }
    fn apply(&self, x: &[f64], y: &mut [f64]) {
        self.matrix.mul_vec(x, y);
    }
    fn precondition(&self, r: &[f64], z: &mut [f64]) {
        for (i, inv) in self.inverses.iter().enumerate() {
            let zi = inv * SVector::<f64, D>::from_column_slice(&r[D * i..D * i + D]);
            z[D * i..D * i + D].copy_from_slice(zi.as_slice());
        }
    }
}

/// Solves A x = b for a block-sparse A with block-Jacobi preconditioning; see
/// [`conjugate_gradient`].
pub fn solve_pcg<const D: usize>(
    a: &BlockSparse<D>,
    b: &[f64],
    x: &mut [f64],
    tol: f64,
    max_iterations: usize,
) -> Result<CgReport, PbmError> {
    conjugate_gradient(&BlockJacobi::new(a)?, b, x, tol, max_iterations)
}

// ANCHOR: pcg
/// Solves A x = b to ‖b − A x‖ ≤ tol ‖b‖, starting from the x given. Fails, naming
/// its iterations and residual, if a search direction has pᵀAp ≤ 0 (A is not positive
/// definite) or after `max_iterations`.
///
/// A singular but positive semidefinite A is fine as long as b lies in its range
/// (redundant constraints give such systems): started from x = 0, every residual and
/// search direction stays in the range, and CG converges to the least-norm solution.
pub fn conjugate_gradient<A: LinearOperator + ?Sized>(
    a: &A,
    b: &[f64],
    x: &mut [f64],
    tol: f64,
    max_iterations: usize,
) -> Result<CgReport, PbmError> {
    check_lengths(a.dimension(), b, x)?;
    let mut search = Search::start(a, b, x);
    let b_norm = dot(b, b).sqrt().max(f64::MIN_POSITIVE);
    let mut iterations = 0;
    loop {
        let residual = dot(&search.r, &search.r).sqrt() / b_norm;
        if residual <= tol {
            return Ok(CgReport { iterations, relative_residual: residual });
        }
        let fail = |why| PbmError::Solver { solver: CG, iterations, residual, why };
        if iterations == max_iterations || !residual.is_finite() {
            return Err(fail(no_convergence(tol, residual)));
        }
        search.step(a, x).map_err(|p_ap| fail(not_positive_definite(p_ap)))?;
        iterations += 1;
    }
}
// ANCHOR_END: pcg

// ANCHOR: pcg_start
/// What CG carries from one iteration to the next: the residual r = b − A x, the
/// preconditioned residual z = P⁻¹ r, the search direction p, A p, and rᵀz.
struct Search {
    r: Vec<f64>,
    z: Vec<f64>,
    p: Vec<f64>,
    ap: Vec<f64>,
    rz: f64,
}

impl Search {
    /// The first search direction is the preconditioned residual of the given x.
    fn start<A: LinearOperator + ?Sized>(a: &A, b: &[f64], x: &[f64]) -> Self {
        let n = b.len();
        let (mut r, mut z, mut ap) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        a.apply(x, &mut ap);
        for i in 0..n {
            r[i] = b[i] - ap[i];
        }
        a.precondition(&r, &mut z);
        let (p, rz) = (z.clone(), dot(&r, &z));
        Search { r, z, p, ap, rz }
    }
}
// ANCHOR_END: pcg_start

// ANCHOR: pcg_step
impl Search {
    /// Moves x to the minimum along p, and turns p into the next direction,
    /// A-conjugate to the previous ones. Fails, returning pᵀAp, if A is not
    /// positive definite.
    fn step<A: LinearOperator + ?Sized>(
        &mut self,
        a: &A,
        x: &mut [f64],
    ) -> Result<(), f64> {
        let Search { r, z, p, ap, rz } = self;
        a.apply(p, ap);
        let p_ap = dot(p, ap);
        if p_ap <= 0.0 || !p_ap.is_finite() {
            return Err(p_ap);
        }
        let alpha = *rz / p_ap;
        for (xi, pi) in x.iter_mut().zip(p.iter()) {
            *xi += alpha * pi;
        }
        for (ri, api) in r.iter_mut().zip(ap.iter()) {
            *ri -= alpha * api;
        }
        a.precondition(r, z);
        let rz_next = dot(r, z);
        let beta = rz_next / *rz;
        for (pi, zi) in p.iter_mut().zip(z.iter()) {
            *pi = zi + beta * *pi;
        }
        *rz = rz_next;
        Ok(())
    }
}
// ANCHOR_END: pcg_step

/// Why CG stopped without converging.
fn no_convergence(tol: f64, residual: f64) -> String {
    if residual.is_finite() {
        format!("no convergence to {tol:e}")
    } else {
        "the residual is no longer finite".to_string()
    }
}

/// Why CG stopped at a direction p with pᵀAp ≤ 0.
fn not_positive_definite(p_ap: f64) -> String {
    format!("pᵀAp = {}: the matrix is not positive definite", short(p_ap))
}

/// Fails unless b and x have as many entries as A has rows.
fn check_lengths(n: usize, b: &[f64], x: &[f64]) -> Result<(), PbmError> {
    if b.len() != n || x.len() != n {
        return Err(PbmError::invalid(
            CG,
            format!(
                "the matrix has {n} rows but b has {} and x {}",
                b.len(),
                x.len()
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::dot;

    #[test]
    fn eight_running_sums_give_the_dot_product() {
        // Whole numbers add exactly in any order.
        for n in [0, 1, 7, 8, 9, 100, 1001] {
            let a: Vec<f64> = (0..n).map(|i| (i % 13) as f64 - 6.0).collect();
            let b: Vec<f64> = (0..n).map(|i| (i % 7) as f64 + 1.0).collect();
            let plain: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
            assert_eq!(dot(&a, &b), plain, "n = {n}");
        }
        // Fractions: the same to rounding.
        let a: Vec<f64> = (0..12_345).map(|i| (i as f64 * 0.37).sin()).collect();
        let b: Vec<f64> = (0..12_345).map(|i| (i as f64 * 0.11).cos()).collect();
        let plain: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        let scale: f64 = a.iter().zip(&b).map(|(x, y)| (x * y).abs()).sum();
        assert!((dot(&a, &b) - plain).abs() <= 1e-13 * scale);
    }
}
