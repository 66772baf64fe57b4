// The book's answer to `pbd/distance`, as `pbm practice solution` prints it. The
// chapter's own projection (`projection.rs`) works on any condition through C and
// ∇C; this is the same update written out for one distance.

use nalgebra::Vector3;

// ANCHOR: distance_projection
/// One XPBD projection of C = |x₁ − x₂| − l₀: returns (Δx₁, Δx₂, Δλ).
pub fn distance_projection(
    (x1, w1): (&Vector3<f64>, f64),
    (x2, w2): (&Vector3<f64>, f64),
    rest: f64,
    compliance: f64,
    lambda: f64,
    h: f64,
) -> (Vector3<f64>, Vector3<f64>, f64) {
    let d = x1 - x2;
    let length = d.norm();
    let alpha_tilde = compliance / (h * h);
    let denominator = w1 + w2 + alpha_tilde;
    if denominator <= 0.0 || length == 0.0 {
        return (Vector3::zeros(), Vector3::zeros(), 0.0);
    }
    let n = d / length; // ∇₁C; ∇₂C = −n
    let c = length - rest;
    let d_lambda = (-c - alpha_tilde * lambda) / denominator;
    (n * (w1 * d_lambda), -n * (w2 * d_lambda), d_lambda)
}
// ANCHOR_END: distance_projection
