// The book's answer to `constraints/constraint-force`, as `pbm practice solution`
// prints it. The chapter's `BlockMatrix::mul_transpose_vec` (`block_matrix.rs`) is
// the same loop writing into a slice it is given.

use pbm_constraints::block_matrix::BlockMatrix;

// ANCHOR: constraint_force
/// Q̂ = Jᵀλ: each block adds its transpose times its rows of λ into its columns.
pub fn constraint_force(j: &BlockMatrix, lambda: &[f64]) -> Vec<f64> {
    let mut force = vec![0.0; j.n_cols];
    for b in &j.blocks {
        for r in 0..b.rows {
            let lambda_r = lambda[b.row + r];
            for c in 0..b.cols {
                force[b.col + c] += b.data[r * b.cols + c] * lambda_r;
            }
        }
    }
    force
}
// ANCHOR_END: constraint_force
