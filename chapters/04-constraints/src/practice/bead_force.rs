// Practice `constraints/bead-force`: the constraint force that keeps a bead on its
// wire, with the feedback that pulls it back when it drifts off.
//
// Read "Constrained Dynamics" (book/src/04-constraints/index.md), the sections "A bead
// on a wire" and "Drift, and feedback". Then fill in the body and run
// `cargo run --release -- practice check constraints/bead-force`.

use nalgebra::Vector2;
use pbm_constraints::system::Feedback;

/// The constraint force f̂ on a bead of mass `mass` at `x`, moving at `v`, under the
/// applied force `force`, threaded on the unit circle C = ½(x·x − 1). It points along
/// the normal, f̂ = λ x (so it does no work on a bead sliding along the wire), and λ
/// makes the acceleration ẍ = (f + f̂)/m legal with feedback:
///
///   C̈ = ẍ·x + ẋ·ẋ = −k_s C − k_d Ċ,   with Ċ = x·ẋ,
///
/// `feedback.k_s` and `feedback.k_d` being the gains. Without feedback λ is the page's
/// equation for λ. The bead need not be on the wire (that is what the feedback is
/// for), but it is never at the centre, x ≠ 0.
pub fn bead_force(
    mass: f64,
    x: &Vector2<f64>,
    v: &Vector2<f64>,
    force: &Vector2<f64>,
    feedback: Feedback,
) -> Vector2<f64> {
    let _ = (mass, x, v, force, feedback);
    todo!("f̂ = λ x")
}
