// Practice `particles/bounce`: collision response at a plane.
//
// Read "Collisions and contact with planes" (book/src/02-particles/collisions.md),
// the section "Response". Then fill in the body and run
// `cargo run --release -- practice check particles/bounce`.

use nalgebra::Vector2;

/// The velocity of a particle just after it hits a plane of unit normal `n` with
/// velocity `v` (v·n < 0): the tangential part v_t = v − (n·v) n is kept, the normal
/// part (n·v) n comes back reversed and scaled by the coefficient of restitution.
pub fn bounce(n: &Vector2<f64>, v: &Vector2<f64>, restitution: f64) -> Vector2<f64> {
    let _ = (n, v, restitution);
    todo!("the velocity after the bounce")
}
