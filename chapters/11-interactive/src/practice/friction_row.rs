// Practice `interactive/friction-row`: the right-hand side of a friction row.
//
// Read "Baraff's Interactive Simulator" (book/src/11-interactive/index.md), the
// section "One step", where Integrate writes the rows. Then fill in the body and run
// `cargo run --release -- practice check interactive/friction-row`.

use nalgebra::Vector2;
use pbm_rigid::body2d::RigidBody2;

/// The right-hand side of the friction row of a contact at the world point `p`
/// between body `a` (whose vertex is at p) and body `b` (whose edge has the unit
/// outward normal `n`, turning with b), under the loads accumulated on the bodies
/// (`force()`, `torque()`), for a step h:
/// t·(p̈_a − p̈_b) + ṫ·s + (t·s)/h,
/// with t = n⊥ = (−n_y, n_x), ṫ = ω_b × t, s = ṗ_a − ṗ_b the sliding velocity at p,
/// ṗ_k = v_k + ω_k × r_k and p̈_k = F_k/m_k + α_k × r_k − ω_k² r_k the velocity and
/// load acceleration of the point p of body k (r_k = p − x_k, α_k = τ_k/I_k). In
/// the plane ω × r = (−ω r_y, ω r_x): `pbm_rigid::body2d::spin2(ω, &r)`.
pub fn friction_rhs(
    a: &RigidBody2,
    b: &RigidBody2,
    p: &Vector2<f64>,
    n: &Vector2<f64>,
    h: f64,
) -> f64 {
    let _ = (a, b, p, n, h);
    todo!("the friction row's right-hand side")
}
