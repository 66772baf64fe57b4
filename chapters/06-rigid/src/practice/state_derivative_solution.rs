// The book's answer to `rigid/state-derivative`, as `pbm practice solution
// rigid/state-derivative` prints it. The chapter's `RigidBody` keeps v, I⁻¹ and ω as
// auxiliary quantities (`update_auxiliaries`) and writes the same derivative in
// `write_derivative`; here all of it is one function of the state.

use nalgebra::{Matrix3, Vector3};
use pbm_rigid::rotation::Quat;
use pbm_rigid::rotation::{quat_mul, quat_to_matrix};

// ANCHOR: state_derivative
/// d/dt (x, q, P, L) = (P/M, ½ [0, ω] q, Σ f, Σ (p − x) × f), with the world's
/// ω = R I_body⁻¹ Rᵀ L.
pub fn state_derivative(
    mass: f64,
    i_body: &Matrix3<f64>,
    state: &[f64; 13],
    forces: &[(Vector3<f64>, Vector3<f64>)],
) -> [f64; 13] {
    let x = Vector3::new(state[0], state[1], state[2]);
    let q = Quat::new(state[3], state[4], state[5], state[6]);
    let p = Vector3::new(state[7], state[8], state[9]);
    let l = Vector3::new(state[10], state[11], state[12]);
    let r = quat_to_matrix(&q);
    let i_body_inv = i_body.try_inverse().unwrap_or_else(Matrix3::zeros);
    let omega = r * i_body_inv * r.transpose() * l;
    let q_dot = quat_mul(&Quat::new(0.0, omega.x, omega.y, omega.z), &q) * 0.5;
    let force: Vector3<f64> = forces.iter().map(|(_, f)| f).sum();
    let torque: Vector3<f64> = forces.iter().map(|(at, f)| (at - x).cross(f)).sum();
    let mut rate = [0.0; 13];
    rate[0..3].copy_from_slice((p / mass).as_slice());
    rate[3..7].copy_from_slice(q_dot.as_slice());
    rate[7..10].copy_from_slice(force.as_slice());
    rate[10..13].copy_from_slice(torque.as_slice());
    rate
}
// ANCHOR_END: state_derivative
