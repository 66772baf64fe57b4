// The book's answer to `contact/normal-rate`, as `pbm practice solution
// contact/normal-rate` prints it: the chapter's own `normal_derivative` in
// `resting.rs`.

use nalgebra::Vector3;
use pbm_contact::resting::{Kind, RestingContact};
use pbm_contact::rows::BodyState;

// ANCHOR: normal_derivative
/// ṅ = ω_b × n for a normal fixed in b; for two edges, the part across n of ż/|z|,
/// z = e_a × e_b, with the sign s that makes n = s z/|z|.
pub fn normal_derivative(bodies: &[BodyState], rc: &RestingContact) -> Vector3<f64> {
    let c = &rc.contact;
    match rc.kind {
        Kind::VertexFace | Kind::Ball { .. } => bodies[c.b].omega.cross(&c.n),
        Kind::EdgeEdge { ea, eb } => {
            let z = ea.cross(&eb);
            let (dea, deb) =
                (bodies[c.a].omega.cross(&ea), bodies[c.b].omega.cross(&eb));
            let dz = dea.cross(&eb) + ea.cross(&deb);
            let sign = if z.dot(&c.n) >= 0.0 { 1.0 } else { -1.0 };
            sign * (dz - c.n * c.n.dot(&dz)) / z.norm()
        }
    }
}
// ANCHOR_END: normal_derivative
