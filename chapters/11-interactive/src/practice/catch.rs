// Practice `interactive/pin-catch`: the impulse that catches a point of a moving body
// when a pin to the world is added there.
//
// Read "The Tolerance Correction, Pins and First-Order Worlds"
// (book/src/11-interactive/correction.md), the section "Pins added and taken away
// while it runs". Then fill in the body and run
// `cargo run --release -- practice check interactive/pin-catch`.

use nalgebra::Vector2;
use pbm_rigid::body2d::RigidBody2;

/// The impulse j that a pin to the world, added at the world point `anchor` while
/// the free `body` moves, gives the body there: applied at `anchor`, it leaves that
/// point of the body at rest (a perfectly inelastic catch). With v the point's
/// velocity, r = anchor − x the point from the centre of mass and r⊥ = (−r_y, r_x),
/// j solves K j = −v, K = 𝟙/m + r⊥r⊥ᵀ/I, the inverse of the body's effective mass
/// at the point: a 2 × 2 matrix, definite for every body (`nalgebra::Matrix2` has
/// `try_inverse`). `body.point_velocity`, `body.position`, `body.mass` and
/// `body.inertia` give what you need. An anchor at the centre of mass is allowed.
pub fn catch_impulse(body: &RigidBody2, anchor: &Vector2<f64>) -> Vector2<f64> {
    let _ = (body, anchor);
    todo!("the impulse that stops the anchor's point")
}
