// The book's answer to `constraints/multipliers`, as `pbm practice solution` prints it.
// The chapter's own solve (`system.rs`) never forms J W Jᵀ and uses conjugate
// gradients on the block-sparse J; this is the same equation solved densely.

use nalgebra::{DMatrix, DVector};
use pbm_constraints::system::Feedback;
use pbm_prelim::PbmError;

// ANCHOR: multipliers
/// Equation 11: J W Jᵀ λ = −J̇ q̇ − J W Q − k_s C − k_d Ċ, solved densely for λ.
pub fn multipliers(
    j: &DMatrix<f64>,
    j_dot: &DMatrix<f64>,
    w: &DVector<f64>,
    q_dot: &DVector<f64>,
    force: &DVector<f64>,
    c: &DVector<f64>,
    feedback: Feedback,
) -> Result<DVector<f64>, PbmError> {
    let jw = j * DMatrix::from_diagonal(w); // J W
    let matrix = &jw * j.transpose();
    let c_dot = j * q_dot;
    let rhs =
        -(j_dot * q_dot) - &jw * force - c * feedback.k_s - c_dot * feedback.k_d;
    matrix.lu().solve(&rhs).ok_or_else(|| {
        PbmError::degenerate("constraint solve", "J W Jᵀ is singular")
    })
}
// ANCHOR_END: multipliers
