// The book's answer to `rigid/quaternion-rate`, as `pbm practice solution
// rigid/quaternion-rate` prints it. The chapter's own `quat_derivative` calls
// `quat_mul`; this is the same product written out for a pure quaternion [0, ω].

use nalgebra::Vector3;
use pbm_rigid::rotation::Quat;

// ANCHOR: quaternion_rate
/// q̇ = ½ [0, ω] q for ω in world coordinates: with q = [s, v] the product is
/// [0 s − ω·v, 0 v + s ω + ω × v].
pub fn quaternion_rate(omega: &Vector3<f64>, q: &Quat) -> Quat {
    let (s, v) = (q[0], Vector3::new(q[1], q[2], q[3]));
    let turn = (omega * s + omega.cross(&v)) * 0.5;
    Quat::new(-0.5 * omega.dot(&v), turn.x, turn.y, turn.z)
}
// ANCHOR_END: quaternion_rate
