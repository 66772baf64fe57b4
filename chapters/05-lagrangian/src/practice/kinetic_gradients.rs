// Practice `lagrangian/kinetic-gradients`: the two gradients of the kinetic energy in
// generalised coordinates.
//
// Read "Lagrangian Dynamics" (book/src/05-lagrangian/index.md), the section "The
// general form", where Lagrange's equation is taken apart in three steps. Then fill in
// the body and run
// `cargo run --release -- practice check lagrangian/kinetic-gradients`.

use nalgebra::DVector;
use pbm_lagrangian::parametric::ParametricModel;

/// The kinetic energy of `model` at coordinates u moving at u̇ is
/// T = ½ q̇ᵀ M q̇ with q̇ = J u̇, J = `model.jacobian(u)` and M the diagonal matrix of
/// `model.masses()`. Return its two gradients, (∂T/∂u̇, ∂T/∂u):
///
///   ∂T/∂u̇ = Jᵀ M J u̇ (the momentum conjugate to u),
///   ∂T/∂u = J̇ᵀ M q̇ (T depends on u only through J),
///
/// with J̇ = `model.jacobian_dot(u, u_dot)`. Each has one entry per coordinate,
/// `model.dof()`. M is diagonal: `component_mul` with the masses is M times a
/// vector.
pub fn kinetic_energy_gradients(
    model: &dyn ParametricModel,
    u: &[f64],
    u_dot: &[f64],
) -> (DVector<f64>, DVector<f64>) {
    let _ = (model, u, u_dot);
    todo!("(∂T/∂u̇, ∂T/∂u) = (Jᵀ M J u̇, J̇ᵀ M q̇)")
}
