// The book's answer to `contact/impulse`, as `pbm practice solution contact/impulse`
// prints it: the chapter's own `impulse_magnitude` in `impulse.rs`, with the
// relative velocity n·(ṗ_a − ṗ_b) written out.

use pbm_contact::impulse::Contact;
use pbm_contact::rows::BodyState;
use pbm_prelim::PbmError;

// ANCHOR: impulse_magnitude
/// j = −(1 + e) v⁻ / (1/M_a + 1/M_b + k_a + k_b), with k = n · ((I⁻¹ (r × n)) × r)
/// and r = p − x for each body, and v⁻ = n · (ṗ_a − ṗ_b), ṗ = v + ω × r.
pub fn impulse_magnitude(
    bodies: &[BodyState],
    c: &Contact,
    restitution: f64,
) -> Result<f64, PbmError> {
    if !(0.0..=1.0).contains(&restitution) {
        let why = format!("{restitution}: it must lie in [0, 1]");
        return Err(PbmError::invalid("coefficient of restitution", why));
    }
    let (a, b) = (&bodies[c.a], &bodies[c.b]);
    let (ra, rb) = (c.p - a.x, c.p - b.x);
    let v_minus = c.n.dot(&((a.v + a.omega.cross(&ra)) - (b.v + b.omega.cross(&rb))));
    let term = |body: &BodyState, r: &nalgebra::Vector3<f64>| {
        c.n.dot(&(body.inv_inertia * r.cross(&c.n)).cross(r))
    };
    let denominator = a.inv_mass + b.inv_mass + term(a, &ra) + term(b, &rb);
    if denominator <= 0.0 {
        let why = "both bodies are fixed: nothing can move".to_string();
        return Err(PbmError::degenerate("collision impulse", why));
    }
    Ok(-(1.0 + restitution) * v_minus / denominator)
}
// ANCHOR_END: impulse_magnitude
