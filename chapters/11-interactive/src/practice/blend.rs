// Practice `interactive/blend`: the paper's blend of a step, where the collision
// search looks for its instant.
//
// Read "Baraff's Interactive Simulator" (book/src/11-interactive/index.md), the
// section "One step", where **Check** interpolates the step. Then fill in the body
// and run `cargo run --release -- practice check interactive/blend`.

/// The state a step of length `h` (> 0) from `y0` to `y1` is taken to pass through
/// at the time s after its start, by the paper's blend of two slopes:
/// Y(t₀ + s) ≈ Y₀ + s ((1 − s/h) k₁ + (s/h) k₅),
/// where `k1` is the derivative at the start of the step and k₅ = (Y₁ − Y₀)/h its
/// average slope. The three slices have one length, and the result has that length
/// too, one number for each number of the state. The search asks for 0 ≤ s ≤ h.
pub fn blend(y0: &[f64], k1: &[f64], y1: &[f64], h: f64, s: f64) -> Vec<f64> {
    let _ = (y0, k1, y1, h, s);
    todo!("the blended state at t₀ + s")
}
