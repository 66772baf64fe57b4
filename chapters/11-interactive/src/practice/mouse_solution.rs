// The book's answer to `interactive/mouse-spring`, as `pbm practice solution` prints
// it. The world applies the same spring inside its loads (`world/hold.rs`, `mouse`),
// with a first-order variant beside it.

use nalgebra::Vector2;
use pbm_rigid::body2d::RigidBody2;

// ANCHOR: mouse_force
/// F = m_p (k (m − p) − c ṗ), 1/m_p = 1/m + |r|²/I: the least mass of the point.
pub fn mouse_force(
    body: &RigidBody2,
    local: &Vector2<f64>,
    target: &Vector2<f64>,
    stiffness: f64,
    damping: f64,
) -> Vector2<f64> {
    let p = body.world_point(local);
    let r = p - body.position();
    let mass = 1.0 / (1.0 / body.mass() + r.norm_squared() / body.inertia());
    (target - p) * (stiffness * mass) - body.point_velocity(&p) * (damping * mass)
}
// ANCHOR_END: mouse_force
