// Practice `interactive/mouse-spring`: the mouse spring on a grabbed point.
//
// Read "Mechanisms: the Feeder, a Jam, a Jack, a Pendulum and a Pile"
// (book/src/11-interactive/mechanisms.md), the section "The mouse". Then fill in the
// body and run `cargo run --release -- practice check interactive/mouse-spring`.

use nalgebra::Vector2;
use pbm_rigid::body2d::RigidBody2;

/// The mouse spring's force on the point of `body` grabbed at `local` (body
/// coordinates), with the mouse at `target` (world coordinates):
/// F = m_p (k (target − p) − c ṗ), where p is the grabbed point in the world, ṗ its
/// velocity, and m_p the least effective mass of the free body at p,
/// 1/m_p = 1/m + |r|²/I with r = p − x. k (1/s²) and c (1/s) are per unit of that
/// mass. `body.world_point`, `body.point_velocity`, `body.position`, `body.mass`
/// and `body.inertia` give what you need.
pub fn mouse_force(
    body: &RigidBody2,
    local: &Vector2<f64>,
    target: &Vector2<f64>,
    stiffness: f64,
    damping: f64,
) -> Vector2<f64> {
    let _ = (body, local, target, stiffness, damping);
    todo!("the mouse spring's force")
}
