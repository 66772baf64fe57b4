// The book's answer to `collision/hermite`, as `pbm practice solution
// collision/hermite` prints it: the chapter's own `hermite` in `toi.rs`.

// ANCHOR: hermite
/// The cubic through the step's end states x0, x1 with the end derivatives f0, f1
/// (per unit time), at the fraction s ∈ [0, 1] of a step of length h.
pub fn hermite(
    x0: &[f64],
    f0: &[f64],
    x1: &[f64],
    f1: &[f64],
    h: f64,
    s: f64,
) -> Vec<f64> {
    let (s2, s3) = (s * s, s * s * s);
    let (h00, h10) = (2.0 * s3 - 3.0 * s2 + 1.0, s3 - 2.0 * s2 + s);
    let (h01, h11) = (-2.0 * s3 + 3.0 * s2, s3 - s2);
    (0..x0.len())
        .map(|i| h00 * x0[i] + h10 * h * f0[i] + h01 * x1[i] + h11 * h * f1[i])
        .collect()
}
// ANCHOR_END: hermite
