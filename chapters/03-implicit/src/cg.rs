//! Conjugate gradients with a block-Jacobi preconditioner, for the symmetric positive definite
//! systems of implicit mass–spring steps. CG needs only products A·p, so the matrix is never
//! factored, and it reports failure (an indefinite matrix, no convergence) instead of looping.

use crate::block_sparse::{Block, BlockSparse};
use nalgebra::SVector;
use pbm_prelim::PbmError;

/// How a successful solve went.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CgReport {
    /// Iterations taken.
    pub iterations: usize,
    /// Final ‖b − A x‖ / ‖b‖.
    pub relative_residual: f64,
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// z = P⁻¹ r with P the block diagonal of A (each block inverted once, up front).
fn apply_preconditioner<const D: usize>(inverses: &[Block<D>], r: &[f64], z: &mut [f64]) {
    for (i, inv) in inverses.iter().enumerate() {
        let zi = inv * SVector::<f64, D>::from_column_slice(&r[D * i..D * i + D]);
        z[D * i..D * i + D].copy_from_slice(zi.as_slice());
    }
}

// ANCHOR: pcg
/// Solves A x = b to ‖b − A x‖ ≤ tol ‖b‖, starting from the x given. Fails if a search
/// direction has pᵀAp ≤ 0 (A is not positive definite) or after `max_iterations`.
pub fn solve_pcg<const D: usize>(
    a: &BlockSparse<D>,
    b: &[f64],
    x: &mut [f64],
    tol: f64,
    max_iterations: usize,
) -> Result<CgReport, PbmError> {
    let inverses = (0..a.block_rows())
        .map(|i| a.diagonal_block(i).try_inverse())
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| {
            PbmError::invalid("conjugate gradient", "a diagonal block is singular")
        })?;
    let n = b.len();
    let (mut r, mut z, mut ap) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    a.mul_vec(x, &mut ap);
    for i in 0..n {
        r[i] = b[i] - ap[i];
    }
    apply_preconditioner(&inverses, &r, &mut z);
    let mut p = z.clone();
    let mut rz = dot(&r, &z);
    let b_norm = dot(b, b).sqrt().max(f64::MIN_POSITIVE);
    for iteration in 0..=max_iterations {
        let residual = dot(&r, &r).sqrt() / b_norm;
        if residual <= tol {
            return Ok(CgReport { iterations: iteration, relative_residual: residual });
        }
        if iteration == max_iterations || !residual.is_finite() {
            break;
        }
        a.mul_vec(&p, &mut ap);
        let p_ap = dot(&p, &ap);
        if p_ap <= 0.0 || !p_ap.is_finite() {
            return Err(PbmError::invalid(
                "conjugate gradient",
                format!(
                    "pᵀAp = {p_ap:e} at iteration {iteration}: the matrix is not positive definite"
                ),
            ));
        }
        let alpha = rz / p_ap;
        for i in 0..n {
            x[i] += alpha * p[i];
            r[i] -= alpha * ap[i];
        }
        apply_preconditioner(&inverses, &r, &mut z);
        let rz_next = dot(&r, &z);
        for i in 0..n {
            p[i] = z[i] + (rz_next / rz) * p[i];
        }
        rz = rz_next;
    }
    Err(PbmError::invalid(
        "conjugate gradient",
        format!("no convergence to {tol:e} in {max_iterations} iterations"),
    ))
}
// ANCHOR_END: pcg
