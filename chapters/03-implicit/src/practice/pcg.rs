// Practice `implicit/pcg`: conjugate gradients with a Jacobi preconditioner.
//
// Read "Large steps for mass–spring systems" (book/src/03-implicit/mass-spring.md),
// the section "A sparse matrix and conjugate gradients" and its preconditioned
// iteration. Then fill in the body and run
// `cargo run --release -- practice check implicit/pcg`.

use nalgebra::{DMatrix, DVector};

/// Solves A x = b for a symmetric positive definite A by conjugate gradients
/// preconditioned with P = diag(A) (the chapter's block Jacobi with 1 × 1 blocks:
/// z = P⁻¹ r divides each r_i by A_ii), from x = 0. Stops when the plain residual
/// meets ‖b − A x‖ ≤ `tolerance` ‖b‖ (a relative tolerance), or after
/// `max_iterations`. Returns x and the number of iterations taken (updates of x).
pub fn preconditioned_cg(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    tolerance: f64,
    max_iterations: usize,
) -> (DVector<f64>, usize) {
    let _ = (a, b, tolerance, max_iterations);
    todo!("conjugate gradients with a Jacobi preconditioner")
}
