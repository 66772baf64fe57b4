// The book's answer to `interactive/pin-catch`, as `pbm practice solution` prints it.
// The world finds the same impulse with chapter 8's bounded LCP on the pin's two
// rows (`catch_pins`, `world/collide.rs`), and `scenes/pin_free.rs` measures the
// energy it takes against ½ vᵀK⁻¹v.

use nalgebra::Vector2;
use pbm_rigid::body2d::RigidBody2;

// ANCHOR: catch_impulse
/// j = −K⁻¹ v, K = 𝟙/m + r⊥r⊥ᵀ/I: the point's velocity v stopped dead.
pub fn catch_impulse(body: &RigidBody2, anchor: &Vector2<f64>) -> Vector2<f64> {
    let r = anchor - body.position();
    let r_perp = Vector2::new(-r.y, r.x);
    let k = nalgebra::Matrix2::identity() / body.mass()
        + r_perp * r_perp.transpose() / body.inertia();
    let v = body.point_velocity(anchor);
    // K is definite (1/m > 0 along every direction), so the inverse exists.
    k.try_inverse().map_or_else(Vector2::zeros, |k_inverse| -(k_inverse * v))
}
// ANCHOR_END: catch_impulse
