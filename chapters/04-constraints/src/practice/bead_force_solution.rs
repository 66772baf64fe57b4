// The book's answer to `constraints/bead-force`, as `pbm practice solution` prints it.
// The chapter's `bead_lambda` (`bead.rs`) is the same λ without the feedback; the
// general solve (`system.rs`) gives this one for any system of constraints.

use nalgebra::Vector2;
use pbm_constraints::system::Feedback;

// ANCHOR: bead_force
/// f̂ = λ x with λ = (−f·x − m ẋ·ẋ − m k_s C − m k_d Ċ)/(x·x), C = ½(x·x − 1),
/// Ċ = x·ẋ: the acceleration it gives has C̈ = −k_s C − k_d Ċ.
pub fn bead_force(
    mass: f64,
    x: &Vector2<f64>,
    v: &Vector2<f64>,
    force: &Vector2<f64>,
    feedback: Feedback,
) -> Vector2<f64> {
    let c = 0.5 * (x.dot(x) - 1.0);
    let c_dot = x.dot(v);
    let wanted = -feedback.k_s * c - feedback.k_d * c_dot; // the C̈ we ask for
    let lambda = (-force.dot(x) - mass * v.dot(v) + mass * wanted) / x.dot(x);
    x * lambda
}
// ANCHOR_END: bead_force
