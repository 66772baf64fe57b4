// The book's answer to `lagrangian/acceleration`, as `pbm practice solution
// lagrangian/acceleration` prints it. The chapter's own `generalized_acceleration`
// (`parametric.rs`) is the same body, generic over the model's type.

use nalgebra::DMatrix;
use nalgebra::DVector;
use pbm_lagrangian::parametric::ParametricModel;
use pbm_prelim::PbmError;

// ANCHOR: generalized_acceleration
/// Jᵀ M J ü = Jᵀ Q − Jᵀ M J̇ u̇, solved for ü by Cholesky: Jᵀ M J is symmetric
/// positive definite wherever J has full column rank, and the factorization fails
/// where it has not.
pub fn generalized_acceleration(
    model: &dyn ParametricModel,
    u: &[f64],
    u_dot: &[f64],
) -> Result<DVector<f64>, PbmError> {
    let j = model.jacobian(u);
    let j_dot = model.jacobian_dot(u, u_dot);
    let u_dot = DVector::from_column_slice(u_dot);
    let q_dot = &j * &u_dot;
    let force = model.applied_force(&model.positions(u), &q_dot);
    let mass = DVector::from_column_slice(model.masses());
    let lhs = j.transpose() * DMatrix::from_diagonal(&mass) * &j; // Jᵀ M J
    let rhs = j.transpose() * (force - (&j_dot * &u_dot).component_mul(&mass));
    lhs.cholesky().map(|llt| llt.solve(&rhs)).ok_or_else(|| {
        PbmError::degenerate(
            "parametrisation",
            "Jᵀ M J is singular: the coordinates fold over here",
        )
    })
}
// ANCHOR_END: generalized_acceleration
