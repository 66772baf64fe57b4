// Practice `pbd/distance`: one XPBD projection of a distance constraint.
//
// Read "Projecting constraints: PBD and XPBD"
// (book/src/10-position-based/projection.md), the sections "Projecting one condition"
// and "XPBD: compliance from implicit Euler". Then fill in the body and run
// `cargo run --release -- practice check pbd/distance`.

use nalgebra::Vector3;

/// One XPBD projection of the distance constraint C = |x₁ − x₂| − l₀ between two
/// particles of inverse masses w₁, w₂, with compliance α (m/N), step h and the
/// multiplier λ the constraint has accumulated so far in this step. With
/// n = (x₁ − x₂)/|x₁ − x₂| (so ∇₁C = n, ∇₂C = −n) and α̃ = α/h²:
/// Δλ = (−C − α̃ λ)/(w₁ + w₂ + α̃), Δx₁ = w₁ n Δλ, Δx₂ = −w₂ n Δλ.
/// Returns (Δx₁, Δx₂, Δλ). When nothing can move (w₁ + w₂ + α̃ = 0) return zeros.
pub fn distance_projection(
    (x1, w1): (&Vector3<f64>, f64),
    (x2, w2): (&Vector3<f64>, f64),
    rest: f64,
    compliance: f64,
    lambda: f64,
    h: f64,
) -> (Vector3<f64>, Vector3<f64>, f64) {
    let _ = (x1, w1, x2, w2, rest, compliance, lambda, h);
    todo!("the corrections and the change of the multiplier")
}
