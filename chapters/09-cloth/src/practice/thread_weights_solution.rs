// The book's answer to `cloth/thread-weights`, as `pbm practice solution` prints it:
// the weights `RestTriangle::new` (`triangle.rs`) computes, as a function.

use pbm_prelim::PbmError;

// ANCHOR: thread_weights
/// w_u = Σ a_u[c] x_c and w_v = Σ a_v[c] x_c from the inverse of the pattern's 2 × 2
/// edge matrix; the area is |d|/2.
pub fn thread_weights(
    pattern: [[f64; 2]; 3],
) -> Result<([f64; 3], [f64; 3], f64), PbmError> {
    let [p0, p1, p2] = pattern;
    let (du1, dv1) = (p1[0] - p0[0], p1[1] - p0[1]);
    let (du2, dv2) = (p2[0] - p0[0], p2[1] - p0[1]);
    let d = du1 * dv2 - du2 * dv1;
    let scale = (du1 * du1 + dv1 * dv1).max(du2 * du2 + dv2 * dv2);
    if d.is_nan() || d.abs() <= 1e-12 * scale {
        return Err(PbmError::invalid("cloth triangle", "its corners are in a line"));
    }
    // w_u = (Δv₂ Δx₁ − Δv₁ Δx₂)/d: Δx₁'s weight is u1, Δx₂'s is u2.
    let (u1, u2) = (dv2 / d, -dv1 / d);
    let (v1, v2) = (-du2 / d, du1 / d);
    // Δx₁ = x_j − x_i and Δx₂ = x_k − x_i: x_i carries minus both.
    Ok(([-(u1 + u2), u1, u2], [-(v1 + v2), v1, v2], 0.5 * d.abs()))
}
// ANCHOR_END: thread_weights
