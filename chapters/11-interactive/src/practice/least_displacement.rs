// Practice `interactive/least-displacement`: the tolerance correction for one
// contact.
//
// Read "The Tolerance Correction, Pins and First-Order Worlds"
// (book/src/11-interactive/correction.md), the section "The tolerance correction".
// Then fill in the body and run
// `cargo run --release -- practice check interactive/least-displacement`.

use nalgebra::Vector2;
use pbm_rigid::body2d::RigidBody2;

/// The tolerance correction of a single contact: body `a`'s vertex at the world
/// point `p` against body `b`'s edge, whose unit outward normal is `n`, the vertex
/// `gap` from the edge along n (negative: that deep inside b). Returns the
/// displacements [(Δx_a, Δθ_a), (Δx_b, Δθ_b)] of the two centres of mass (m) and
/// angles (rad): the least in the kinetic-energy norm ½ Σ (m |Δx|² + I Δθ²) that
/// leaves the gap ≥ 0 to first order. That is the correction's LCP with one row,
/// a = A f + e with e = `gap`: a push f ≥ 0 along n on a at p and −f n on b, which
/// moves each body by Δx = (push)/m and turns it by Δθ = (r × push)/I,
/// r = p − x. A contact already apart (gap ≥ 0) gets f = 0: nothing moves.
/// `pbm_rigid::body2d::cross2(a, b)` is the plane's cross product a_x b_y − a_y b_x.
pub fn least_displacement(
    a: &RigidBody2,
    b: &RigidBody2,
    p: &Vector2<f64>,
    n: &Vector2<f64>,
    gap: f64,
) -> [(Vector2<f64>, f64); 2] {
    let _ = (a, b, p, n, gap);
    todo!("the least displacement that closes the gap")
}
