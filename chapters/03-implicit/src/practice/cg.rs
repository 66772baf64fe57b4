// Practice `implicit/cg`: the conjugate gradient method.
//
// Read "Large steps for mass–spring systems" (book/src/03-implicit/mass-spring.md),
// the section "A sparse matrix and conjugate gradients". Then fill in the body and run
// `cargo run --release -- practice check implicit/cg`.

use nalgebra::{DMatrix, DVector};

/// Solves A x = b for a symmetric positive definite A by conjugate gradients from
/// x = 0, stopping when ‖b − A x‖ ≤ `tolerance` ‖b‖ (a relative tolerance) or after
/// `max_iterations`. Returns x and the number of iterations taken (updates of x).
pub fn conjugate_gradient(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    tolerance: f64,
    max_iterations: usize,
) -> (DVector<f64>, usize) {
    let _ = (a, b, tolerance, max_iterations);
    todo!("conjugate gradients")
}
