// Practice `contact/impulse`: the collision impulse's magnitude.
//
// Read "Colliding contact" (book/src/08-contact/colliding.md), from the impulse's
// effect on each body to the equation for j. Then fill in the body and run
// `cargo run --release -- practice check contact/impulse`.

use pbm_contact::impulse::Contact;
use pbm_contact::rows::BodyState;
use pbm_prelim::PbmError;

/// The magnitude j of the impulse j n on body `c.a` (and −j n on `c.b`) at the
/// contact point `c.p` that makes the bodies part with v⁺ = −e v⁻, e the
/// `restitution`:
///
/// j = −(1 + e) v⁻ / K,
/// K = 1/M_a + 1/M_b + n·(I_a⁻¹(r_a × n)) × r_a + n·(I_b⁻¹(r_b × n)) × r_b,
///
/// with v⁻ = n·(ṗ_a − ṗ_b) (`pbm_contact::impulse::relative_velocity` computes it),
/// r = p − x for each body, and 1/M and I⁻¹ (in the world frame) a body's
/// `inv_mass` and `inv_inertia`. A restitution outside [0, 1] is an error
/// (`PbmError::invalid`), and so is K ≤ 0, both bodies fixed
/// (`PbmError::degenerate`).
pub fn impulse_magnitude(
    bodies: &[BodyState],
    c: &Contact,
    restitution: f64,
) -> Result<f64, PbmError> {
    let _ = (bodies, c, restitution);
    todo!("the impulse's magnitude j")
}
