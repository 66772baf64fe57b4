// Practice `lagrangian/acceleration`: the generalised accelerations of a parametric
// model.
//
// Read "Lagrangian Dynamics" (book/src/05-lagrangian/index.md), the section "The
// general form". Then fill in the body and run
// `cargo run --release -- practice check lagrangian/acceleration`.

use nalgebra::DVector;
use pbm_lagrangian::parametric::ParametricModel;
use pbm_prelim::PbmError;

/// The accelerations ü of the generalised coordinates u of `model`, moving at u̇:
/// the solution of
///
///   Jᵀ M J ü = Jᵀ Q − Jᵀ M J̇ u̇,
///
/// with J = `model.jacobian(u)`, J̇ = `model.jacobian_dot(u, u_dot)`, M the diagonal
/// matrix of `model.masses()` (`nalgebra::DMatrix::from_diagonal` makes it), and
/// Q = `model.applied_force(q, q̇)` at the particles' positions q = `model.positions(u)`
/// and velocities q̇ = J u̇ (springs and drag depend on both). Where Jᵀ M J is singular
/// (the coordinates fold over) return an error,
/// `PbmError::degenerate("parametrisation", "…")`, never NaN.
pub fn generalized_acceleration(
    model: &dyn ParametricModel,
    u: &[f64],
    u_dot: &[f64],
) -> Result<DVector<f64>, PbmError> {
    let _ = (model, u, u_dot);
    todo!("solve Jᵀ M J ü = Jᵀ Q − Jᵀ M J̇ u̇")
}
