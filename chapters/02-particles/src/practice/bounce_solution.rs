// The book's answer to `particles/bounce`, as `pbm practice solution
// particles/bounce` prints it: the chapter's `bounce` (collision.rs), which serves
// any dimension, written for the stub's vectors in the plane.

use nalgebra::Vector2;

// ANCHOR: bounce
/// v′ = v_T − r v_N: the tangential part kept, the normal part reversed and scaled
/// by the restitution r.
pub fn bounce(n: &Vector2<f64>, v: &Vector2<f64>, restitution: f64) -> Vector2<f64> {
    let normal = n * n.dot(v); // v_N = (n·v) n
    let tangential = v - normal; // v_T = v − v_N
    tangential - normal * restitution
}
// ANCHOR_END: bounce
