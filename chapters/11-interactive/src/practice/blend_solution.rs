// The book's answer to `interactive/blend`, as `pbm practice solution` prints it.
// The world blends its steps the same way in `Interpolation::at`
// (`world/collision_time.rs`), with the step's ends kept beside it.

// ANCHOR: blend
/// Y₀ + s ((1 − s/h) k₁ + (s/h) k₅), k₅ = (Y₁ − Y₀)/h, number by number.
pub fn blend(y0: &[f64], k1: &[f64], y1: &[f64], h: f64, s: f64) -> Vec<f64> {
    y0.iter()
        .zip(k1)
        .zip(y1)
        .map(|((y0, k1), y1)| {
            let k5 = (y1 - y0) / h;
            y0 + s * ((1.0 - s / h) * k1 + (s / h) * k5)
        })
        .collect()
}
// ANCHOR_END: blend
