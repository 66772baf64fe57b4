// The book's answer to `contact/matrix`, as `pbm practice solution contact/matrix`
// prints it. The chapter's own `contact_matrix` in `impulse.rs` builds the same
// matrix from rows (`row_matrix` in `rows.rs`), for friction rows too.

use nalgebra::DMatrix;
use pbm_contact::impulse::Contact;
use pbm_contact::rows::BodyState;

// ANCHOR: contact_matrix
/// A_ij = n_i · (Δp̈_a − Δp̈_b) at p_i for a unit force +n_j on a_j, −n_j on b_j.
pub fn contact_matrix(bodies: &[BodyState], contacts: &[Contact]) -> DMatrix<f64> {
    let n = contacts.len();
    DMatrix::from_fn(n, n, |i, j| {
        let (ci, cj) = (&contacts[i], &contacts[j]);
        // The acceleration of body k's point p_i under contact j's unit force.
        let response = |k: usize| {
            let body = &bodies[k];
            let force = if k == cj.a {
                cj.n
            } else if k == cj.b {
                -cj.n
            } else {
                return nalgebra::Vector3::zeros();
            };
            let turn = body.inv_inertia * (cj.p - body.x).cross(&force);
            force * body.inv_mass + turn.cross(&(ci.p - body.x))
        };
        ci.n.dot(&(response(ci.a) - response(ci.b)))
    })
}
// ANCHOR_END: contact_matrix
