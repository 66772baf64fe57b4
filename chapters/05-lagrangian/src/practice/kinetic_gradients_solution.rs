// The book's answer to `lagrangian/kinetic-gradients`, as `pbm practice solution
// lagrangian/kinetic-gradients` prints it.

use nalgebra::DVector;
use pbm_lagrangian::parametric::ParametricModel;

// ANCHOR: kinetic_energy_gradients
/// T = ½ q̇ᵀ M q̇ with q̇ = J u̇: ∂T/∂u̇ = Jᵀ M q̇, and, because ∂q̇/∂u_k is column k
/// of J̇, ∂T/∂u = J̇ᵀ M q̇.
pub fn kinetic_energy_gradients(
    model: &dyn ParametricModel,
    u: &[f64],
    u_dot: &[f64],
) -> (DVector<f64>, DVector<f64>) {
    let j = model.jacobian(u);
    let j_dot = model.jacobian_dot(u, u_dot);
    let mass = DVector::from_column_slice(model.masses());
    let m_q_dot = (&j * DVector::from_column_slice(u_dot)).component_mul(&mass);
    (j.transpose() * &m_q_dot, j_dot.transpose() * &m_q_dot)
}
// ANCHOR_END: kinetic_energy_gradients
