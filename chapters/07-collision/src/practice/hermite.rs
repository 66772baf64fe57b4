// Practice `collision/hermite`: the cubic Hermite curve through a step.
//
// Read "The time of collision, and tunnelling"
// (book/src/07-collision/collision-time.md), the section "Where do the trial states
// come from?". Then fill in the body and run
// `cargo run --release -- practice check collision/hermite`.

/// The state at the fraction s ∈ [0, 1] of a step of length h, on the cubic through
/// the step's end states x₀, x₁ with the step's end derivatives f₀, f₁ (per unit
/// time), component by component:
/// x(s) = (2s³ − 3s² + 1) x₀ + (s³ − 2s² + s) h f₀
///      + (−2s³ + 3s²) x₁ + (s³ − s²) h f₁.
/// All four slices have the same length, and so has the result.
pub fn hermite(
    x0: &[f64],
    f0: &[f64],
    x1: &[f64],
    f1: &[f64],
    h: f64,
    s: f64,
) -> Vec<f64> {
    let _ = (x0, f0, x1, f1, h, s);
    todo!("the cubic Hermite curve at s")
}
