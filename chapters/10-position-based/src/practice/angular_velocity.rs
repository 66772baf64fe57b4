// Practice `pbd/angular-velocity`: a body's angular velocity read off its turn.
//
// Read "Rigid bodies by positions" (book/src/10-position-based/rigid.md), the section
// "Reading the velocities back". Then fill in the body and run
// `cargo run --release -- practice check pbd/angular-velocity`.

use nalgebra::Vector3;
use pbm_rigid::rotation::{Quat, quat_mul};

/// The angular velocity, in world coordinates, that turns a body from the
/// orientation `from` to the orientation `to` in the time `h`. Quaternions are
/// [s, x, y, z], the real part first (`q[0]`), and `quat_mul(a, b)` is the product
/// a b. The turn over the step is Δq = to · from⁻¹ (the inverse of a unit
/// quaternion is its conjugate [s, −x, −y, −z]), and for a small turn by θ about û
/// its vector part is sin(θ/2) û ≈ (θ/2) û, so ω = 2 [Δq_x, Δq_y, Δq_z]/h. q and −q
/// are the same orientation: when Δq's real part is negative, negate ω, so that it
/// describes the short way round.
pub fn angular_velocity(from: &Quat, to: &Quat, h: f64) -> Vector3<f64> {
    let _ = (from, to, h, quat_mul);
    todo!("ω from the turn to · from⁻¹")
}
