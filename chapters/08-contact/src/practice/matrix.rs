// Practice `contact/matrix`: the matrix A of resting contact.
//
// Read "Resting contact" (book/src/08-contact/resting.md), from the start to the
// matrix A = J M⁻¹ Jᵀ. Then fill in the body and run
// `cargo run --release -- practice check contact/matrix`.

use nalgebra::DMatrix;
use pbm_contact::impulse::Contact;
use pbm_contact::rows::BodyState;

/// The n × n matrix A of d̈ = A f + b for the `contacts`: A_ij is how much a unit
/// force at contact j adds to contact i's relative normal acceleration d̈_i.
///
/// The unit force at contact j pushes +n_j on body `a` and −n_j on body `b`, at the
/// point p_j. A body pushed by F at p accelerates by Δv̇ = F/M (`inv_mass`) and
/// turns by Δω̇ = I⁻¹ ((p − x) × F) (`inv_inertia`, in the world frame); its point
/// p_i then accelerates by Δv̇ + Δω̇ × (p_i − x). A_ij = n_i · (that of body a_i −
/// that of body b_i), summed over the forces contact j puts on those bodies. Bodies
/// may appear in several contacts, as a or as b; a fixed body has zero inverses.
pub fn contact_matrix(bodies: &[BodyState], contacts: &[Contact]) -> DMatrix<f64> {
    let _ = (bodies, contacts);
    todo!("A_ij: contact i's normal acceleration per unit force at contact j")
}
