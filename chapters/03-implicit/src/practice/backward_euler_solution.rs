// The book's answer to `implicit/backward-euler`, as `pbm practice solution` prints it.

use nalgebra::{DMatrix, DVector};
use pbm_prelim::PbmError;

// ANCHOR: backward_euler_step
/// One backward Euler step of ẋ = A x: solves (I − h A) x₁ = x₀.
pub fn backward_euler_step(
    a: &DMatrix<f64>,
    x0: &DVector<f64>,
    h: f64,
) -> Result<DVector<f64>, PbmError> {
    let n = x0.len();
    let matrix = DMatrix::identity(n, n) - a * h;
    matrix
        .lu()
        .solve(x0)
        .ok_or_else(|| PbmError::degenerate("backward Euler", "I − hA is singular"))
}
// ANCHOR_END: backward_euler_step
