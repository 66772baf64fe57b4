// The book's answer to `cloth/hessian`, as `pbm practice solution` prints it. The
// chapter's `local_terms` (`energy.rs`) builds the same sum into fixed 12 × 12
// blocks, with the force and damping beside it.

use nalgebra::{DMatrix, Vector3};

// ANCHOR: condition_hessian
/// ∇²E = k (Jᵀ J + Σ_r C_r ∇²C_r) for E = ½ k |C|².
pub fn condition_hessian(
    c: &[f64],
    j: &[Vector3<f64>],
    second: &[DMatrix<f64>],
    k: f64,
) -> DMatrix<f64> {
    let n = j.len() / c.len();
    let mut h = DMatrix::zeros(3 * n, 3 * n);
    for (r, &c_r) in c.iter().enumerate() {
        let row = &j[r * n..(r + 1) * n];
        // Jᵀ J: the outer product of this row's gradient with itself, block by block.
        for (a, ja) in row.iter().enumerate() {
            for (b, jb) in row.iter().enumerate() {
                let mut block = h.fixed_view_mut::<3, 3>(3 * a, 3 * b);
                block += ja * jb.transpose();
            }
        }
        h += &second[r] * c_r;
    }
    h * k
}
// ANCHOR_END: condition_hessian
