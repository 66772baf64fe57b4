// The book's answer to `implicit/pcg`, as `pbm practice solution` prints it. The
// chapter's own CG (`cg.rs`) takes the preconditioner from a `LinearOperator`, block
// Jacobi for the sheet; this is the same iteration with the diagonal of a dense matrix.

use nalgebra::{DMatrix, DVector};

// ANCHOR: preconditioned_cg
/// Conjugate gradients from x = 0, preconditioned with P = diag(A).
pub fn preconditioned_cg(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    tolerance: f64,
    max_iterations: usize,
) -> (DVector<f64>, usize) {
    let inverse_diagonal = a.diagonal().map(|d| 1.0 / d);
    let mut x = DVector::zeros(b.len());
    let mut r = b.clone();
    let mut z = r.component_mul(&inverse_diagonal); // z = P⁻¹ r
    let mut p = z.clone();
    let mut rz = r.dot(&z);
    let stop = tolerance * b.norm();
    for iteration in 0..max_iterations {
        if r.norm() <= stop {
            return (x, iteration);
        }
        let ap = a * &p;
        let alpha = rz / p.dot(&ap);
        x += &p * alpha;
        r -= &ap * alpha;
        z = r.component_mul(&inverse_diagonal);
        let rz_next = r.dot(&z);
        p = &z + &p * (rz_next / rz); // A-conjugate to the directions before
        rz = rz_next;
    }
    (x, max_iterations)
}
// ANCHOR_END: preconditioned_cg
