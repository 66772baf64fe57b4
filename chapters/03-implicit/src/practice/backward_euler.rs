// Practice `implicit/backward-euler`: one backward Euler step of a linear system.
//
// Read "Implicit Methods" (book/src/03-implicit/index.md), the section "Backward
// Euler". Then fill in the body and run
// `cargo run --release -- practice check implicit/backward-euler`.

use nalgebra::{DMatrix, DVector};
use pbm_prelim::PbmError;

/// One backward Euler step of ẋ = A x from `x0`: the new state x₁ = x₀ + h A x₁,
/// that is, the solution of (I − h A) x₁ = x₀. nalgebra solves a dense system with
/// `matrix.lu().solve(&rhs)` (None when the matrix is singular: return an error then,
/// `PbmError::degenerate("backward Euler", "…")`).
pub fn backward_euler_step(
    a: &DMatrix<f64>,
    x0: &DVector<f64>,
    h: f64,
) -> Result<DVector<f64>, PbmError> {
    let _ = (a, x0, h);
    todo!("one backward Euler step")
}
