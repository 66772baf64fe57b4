// Practice `constraints/constraint-force`: the constraint force Q̂ = Jᵀλ, from the
// blocks of the sparse Jacobian.
//
// Read "Systems of constraints: Tinkertoys" (book/src/04-constraints/tinkertoys.md),
// the sections "The general case" and "The block-sparse Jacobian". Then fill in the
// body and run `cargo run --release -- practice check constraints/constraint-force`.

use pbm_constraints::block_matrix::BlockMatrix;

/// The constraint force Q̂ = Jᵀλ: one entry per coordinate of q (`j.n_cols` of
/// them), from the multipliers λ (one per row of J, `j.n_rows`). J is stored as a
/// list of its non-zero blocks, `j.blocks`; a block `b` covers rows `b.row .. b.row +
/// b.rows` and columns `b.col .. b.col + b.cols`, and its entries are `b.data`, row
/// by row (entry (r, c) of the block is `b.data[r * b.cols + c]`). Every other entry
/// of J is zero. Two blocks may cover the same columns (two constraints on one
/// particle).
pub fn constraint_force(j: &BlockMatrix, lambda: &[f64]) -> Vec<f64> {
    let _ = (j, lambda);
    todo!("Q̂ = Jᵀλ, block by block")
}
