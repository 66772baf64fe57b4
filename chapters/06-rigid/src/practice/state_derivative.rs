// Practice `rigid/state-derivative`: the derivative of a rigid body's state.
//
// Read "Rigid Body Dynamics" (book/src/06-rigid/index.md), the sections "Momentum,
// force and torque" and "The state and its derivative". Then fill in the body and run
// `cargo run --release -- practice check rigid/state-derivative`.

use nalgebra::{Matrix3, Vector3};
use pbm_rigid::rotation::Quat;

/// A body of mass `mass` and inertia tensor `i_body` (about its centre of mass, in
/// body coordinates) has the state X = (x, q, P, L), stored in `state` as
/// [x_x, x_y, x_z, s, v_x, v_y, v_z, P_x, P_y, P_z, L_x, L_y, L_z]: the centre of
/// mass, the unit quaternion q = [s, v] of its orientation, and the linear and
/// angular momenta in world coordinates. `forces` are (p, f) pairs: a force f acting
/// at the world point p. Return d/dt X = (v, q̇, F, τ) in the same layout:
///
///   v = P/M,   ω = I⁻¹ L with I⁻¹ = R I_body⁻¹ Rᵀ,   q̇ = ½ [0, ω] q,
///   F = Σ f,   τ = Σ (p − x) × f.
///
/// `pbm_rigid::rotation::{quat_to_matrix, quat_mul}` give R of q and the quaternion
/// product; `try_inverse` inverts I_body (it is symmetric positive definite).
pub fn state_derivative(
    mass: f64,
    i_body: &Matrix3<f64>,
    state: &[f64; 13],
    forces: &[(Vector3<f64>, Vector3<f64>)],
) -> [f64; 13] {
    let _ = (mass, i_body, state, forces);
    todo!("(v, ½ [0, ω] q, Σ f, Σ (p − x) × f)")
}
