// Practice `contact/normal-rate`: how fast a contact's normal turns.
//
// Read "Resting contact" (book/src/08-contact/resting.md), the section "The vector
// b", from "The normal moves too". Then fill in the body and run
// `cargo run --release -- practice check contact/normal-rate`.

use nalgebra::Vector3;
use pbm_contact::resting::{Kind, RestingContact};
use pbm_contact::rows::BodyState;

/// ṅ, the rate at which the unit normal `rc.contact.n` of a resting contact turns,
/// from the bodies' angular velocities `omega` (`rc.contact.a` and `rc.contact.b`
/// index `bodies`):
///
/// - `Kind::VertexFace` and `Kind::Ball { .. }`: the normal is fixed in the face's
///   body b, so ṅ = ω_b × n.
/// - `Kind::EdgeEdge { ea, eb }`: n is ±z/|z| with z = e_a × e_b, the edge
///   directions turning with their bodies, ė_a = ω_a × e_a and ė_b = ω_b × e_b
///   (neither need be a unit vector). With ż = ė_a × e_b + e_a × ė_b,
///   ṅ = s (ż − n (n·ż)) / |z|, where s = +1 if n = z/|z| and −1 if n = −z/|z|.
pub fn normal_derivative(bodies: &[BodyState], rc: &RestingContact) -> Vector3<f64> {
    let _ = (bodies, rc);
    todo!("the rate of the contact's normal")
}
