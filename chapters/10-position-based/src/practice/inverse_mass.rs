// Practice `pbd/inverse-mass`: the generalized inverse mass of a rigid body.
//
// Read "Rigid bodies by positions" (book/src/10-position-based/rigid.md), the section
// "The generalized inverse mass". Then fill in the body and run
// `cargo run --release -- practice check pbd/inverse-mass`.

use nalgebra::Vector3;
use pbm_pbd::rigid::Body;

/// How far the point `p` (world coordinates) of `body` moves along the unit
/// direction `n` per unit of positional impulse along `n`:
/// w = 1/m + (r × n)ᵀ I⁻¹ (r × n), with r = p − x the lever from the centre of mass
/// and I⁻¹ the inverse inertia in world coordinates. The body gives 1/m with
/// `body.inverse_mass()` (0 for a fixed body), x with `body.x` and I⁻¹ with
/// `body.inverse_inertia()`.
pub fn generalized_inverse_mass(
    body: &Body,
    p: &Vector3<f64>,
    n: &Vector3<f64>,
) -> f64 {
    let _ = (body, p, n);
    todo!("the generalized inverse mass")
}
