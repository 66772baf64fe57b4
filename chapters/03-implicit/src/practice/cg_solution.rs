// The book's answer to `implicit/cg`, as `pbm practice solution` prints it. The
// chapter's own CG (`cg.rs`) works on any linear operator with a preconditioner;
// this is the same iteration on a dense matrix.

use nalgebra::{DMatrix, DVector};

// ANCHOR: conjugate_gradient
/// Conjugate gradients on a dense symmetric positive definite A, from x = 0.
pub fn conjugate_gradient(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    tolerance: f64,
    max_iterations: usize,
) -> (DVector<f64>, usize) {
    let mut x = DVector::zeros(b.len());
    let mut r = b.clone();
    let mut p = r.clone();
    let mut rr = r.dot(&r);
    let stop = tolerance * b.norm();
    for iteration in 0..max_iterations {
        if rr.sqrt() <= stop {
            return (x, iteration);
        }
        let ap = a * &p;
        let alpha = rr / p.dot(&ap); // the step that minimises along p
        x += &p * alpha;
        r -= &ap * alpha;
        let rr_next = r.dot(&r);
        p = &r + &p * (rr_next / rr); // conjugate to the directions before
        rr = rr_next;
    }
    (x, max_iterations)
}
// ANCHOR_END: conjugate_gradient
