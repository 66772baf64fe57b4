// The book's answer to `pbd/inverse-mass`, as `pbm practice solution` prints it. The
// chapter writes it as a method of `Body` (`rigid.rs`); this is the same formula
// through the body's public accessors.

use nalgebra::Vector3;
use pbm_pbd::rigid::Body;

// ANCHOR: generalized_inverse_mass
/// w = 1/m + (r × n)ᵀ I⁻¹ (r × n), r = p − x.
pub fn generalized_inverse_mass(
    body: &Body,
    p: &Vector3<f64>,
    n: &Vector3<f64>,
) -> f64 {
    let rn = (p - body.x).cross(n);
    body.inverse_mass() + rn.dot(&(body.inverse_inertia() * rn))
}
// ANCHOR_END: generalized_inverse_mass
