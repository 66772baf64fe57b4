// The book's answer to `pbd/angular-velocity`, as `pbm practice solution` prints it:
// the chapter's `angular_velocity` (`rigid.rs`).

use nalgebra::Vector3;
use pbm_rigid::rotation::{Quat, quat_mul};

// ANCHOR: angular_velocity
/// Δq = to from⁻¹, ω = 2 [Δq_x, Δq_y, Δq_z]/h, negated when Δq_s < 0 (q and −q are
/// the same rotation; the sign picks the short way round).
pub fn angular_velocity(from: &Quat, to: &Quat, h: f64) -> Vector3<f64> {
    let conjugate = Quat::new(from[0], -from[1], -from[2], -from[3]);
    let dq = quat_mul(to, &conjugate);
    let sign = if dq[0] < 0.0 { -1.0 } else { 1.0 };
    Vector3::new(dq[1], dq[2], dq[3]) * (2.0 * sign / h)
}
// ANCHOR_END: angular_velocity
