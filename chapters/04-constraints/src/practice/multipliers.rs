// Practice `constraints/multipliers`: the Lagrange multipliers of a system of
// constraints, by a dense solve.
//
// Read "Systems of constraints: Tinkertoys" (book/src/04-constraints/tinkertoys.md),
// the section "The general case". Then fill in the body and run
// `cargo run --release -- practice check constraints/multipliers`.

use nalgebra::{DMatrix, DVector};
use pbm_constraints::system::Feedback;
use pbm_prelim::PbmError;

/// The multipliers λ of m scalar constraints on a system with n coordinates: the
/// solution of
///
///   J W Jᵀ λ = −J̇ q̇ − J W Q − k_s C − k_d Ċ,   with Ċ = J q̇,
///
/// where J and J̇ are m × n, W = M⁻¹ is the diagonal of inverse masses stored as a
/// vector `w` of length n (0 for a nailed coordinate), q̇ the velocities, Q the applied
/// forces and C the constraint values. The constraint force is then Jᵀλ. Form the
/// m × m matrix and solve it densely (`matrix.lu().solve(&rhs)` gives None when it
/// is singular: return an error then, `PbmError::degenerate("constraint solve", "…")`).
pub fn multipliers(
    j: &DMatrix<f64>,
    j_dot: &DMatrix<f64>,
    w: &DVector<f64>,
    q_dot: &DVector<f64>,
    force: &DVector<f64>,
    c: &DVector<f64>,
    feedback: Feedback,
) -> Result<DVector<f64>, PbmError> {
    let _ = (j, j_dot, w, q_dot, force, c, feedback);
    todo!("solve J W Jᵀ λ = −J̇ q̇ − J W Q − k_s C − k_d Ċ")
}
