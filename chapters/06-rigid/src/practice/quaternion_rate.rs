// Practice `rigid/quaternion-rate`: the rate of change of an orientation quaternion.
//
// Read "Rigid Body Dynamics" (book/src/06-rigid/index.md), the section "Quaternions
// instead of matrices". Then fill in the body and run
// `cargo run --release -- practice check rigid/quaternion-rate`.

use nalgebra::Vector3;
use pbm_rigid::rotation::Quat;

/// The rate of change q̇ = ½ [0, ω] q of a body's orientation q = [s, v] (stored
/// [s, v_x, v_y, v_z]) when it turns at the angular velocity ω, given in world
/// coordinates: the quaternion product of [0, ω] with q, in that order, halved. The
/// product is [s₁, v₁][s₂, v₂] = [s₁s₂ − v₁·v₂, s₁v₂ + s₂v₁ + v₁ × v₂]; write it out
/// or use `pbm_rigid::rotation::quat_mul`.
pub fn quaternion_rate(omega: &Vector3<f64>, q: &Quat) -> Quat {
    let _ = (omega, q);
    todo!("q̇ = ½ [0, ω] q")
}
